/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `dfly repro claims`: the checkable results of spec §9 (H1-H44) as programs. The engine
 * (claims.c) runs every claim's function twice: first to learn which runs (points) it needs, then,
 * once the points have run (or were found on disk), to compute its checks from their CSVs. A
 * claim's verdict follows from its checks only: every check holds -> holds; some -> partly; none ->
 * fails; a point missing or failed -> not-run; and a claim whose mechanism or workload dfly does
 * not have -> not-implemented. The claims themselves are in claims_def.c, one function each.
 */
#ifndef DFLY_CLAIMS_H
#define DFLY_CLAIMS_H

#include <stdbool.h>
#include <stdint.h>

/** Tolerances of spec §9 (top): the only ones a check may use. */
#define CL_TOL_BOUND  0.10 /* analytical bounds and quoted figures: +-10 % relative */
#define CL_TOL_FACTOR 1.5  /* reaction times: within a factor of 1.5 */
/* An ordering whose two figures differ by less than this (relative to the larger) is inside
 * the seed-to-seed spread of a one-seed point: its claim is run again in full on the
 * network's confirm_seeds and judged on those runs (docs/claims-notes.md, "Orderings within
 * the noise"). */
#define CL_NOISE 0.02

/** Largest h whose remote counters a point keeps (cl_sim.lia_r). */
#define CL_MAX_H 16
#define CL_MAX_A 64 /**< routers per group read from a counter dump */

/** A network of the claims: the paper's configuration, letter T, L or I (spec §0.4). */
struct cl_net {
	char letter;            /**< 'T', 'L', 'I', 'G', 'F' (CFG-T with FOGSim's router) */
	const char *name;       /**< "CFG-T" ... */
	const char *file;       /**< configs/cfg-t.cfg ... */
	unsigned p, a, h;       /**< as run at this scale (quick shrinks them) */
	unsigned phit_bytes;    /**< packet.phit_bytes of the file */
	unsigned g;             /**< groups: a*h + 1 */
	uint64_t warmup;        /**< sim.warmup of a steady point */
	uint64_t measure;       /**< sim.measure */
	unsigned seeds;         /**< runs per steady point */
	unsigned t_seeds;       /**< runs per transient */
	uint64_t t_warmup;      /**< sim.warmup of a transient */
	unsigned confirm_seeds; /**< runs per point of a claim confirmed because one of its
				     orderings lies within CL_NOISE (0: no confirmation) */
};

/** The averaged figures of one steady point (dfly sim --csv, seeds averaged). */
struct cl_sim {
	double accepted, lat_avg, lat_p99, misrouted, hops, min_inj, max_min, cov, generated;
	double cycles;          /**< cycles simulated (warm-up, window, drain) */
	double completion;      /**< a workload's completion time, cycles (all-to-all); else 0 */
	double ctrl_local_rate; /**< with "#counters" in the sets: control frames sent per local
				     port per cycle, mean over routers and ports; else 0 */
	double sw_max_min;      /**< with "#counters": max/min over the a switch positions of
				     the packets injected in the window, each summed over the
				     groups (LIA Fig. 15); else 0 */
	double l1_sout_pct;     /**< with "#counters": % of the LG- and LGL paths (first local
				     hop kept) drawn at an ADVc S_out router, -1 if none; else 0 */
	double rout_ratio;      /**< with "#counters": packets an ADVc S_out router (the
				     thesis's R_out) injected in the window per packet of another
				     router, -1 if not known; else 0 */
	/** with "sim.lia_remote=true" in the sets: LIA's remote counters R_k (spec §6.4), index
	 *  k + CL_MAX_H (k = −h..h, R_0 unused), each the mean over the routers and the window of
	 *  the firmware's counter, in packets per routing.lia.window cycles (dfly sim's report,
	 *  averaged over the seeds); else 0 */
	double lia_r[2 * CL_MAX_H + 1];
	unsigned runs;
	unsigned
	    failed; /**< runs whose invariants column says FAILED (e.g. the watchdog's deadlock) */
};

/** One transient point (dfly transient): its bins and its summary. */
struct cl_tr {
	unsigned n;
	int64_t *cycle;
	double *lat, *misr, *nonmin, *packets;
	int64_t reaction; /**< the summary's reaction time, -1 never settles */
	double steady_misr, lat_before, lat_steady;
};

struct cl_ctx;

/** A claim of spec §9. */
struct claim {
	const char *id;        /**< "H1" */
	const char *nets;      /**< letters of the networks it runs on, e.g. "TL" */
	const char *statement; /**< the paper's statement (spec §9) */
	const char *source;    /**< where in the papers */
	const char *missing;   /**< NULL, or what dfly lacks: the claim is not implemented */
	bool quick;            /**< meaningful at --scale quick (h = 3) */
	void (*fn)(struct cl_ctx *x);
};

extern const struct claim cl_claims[];
extern const unsigned cl_nclaims;

/* For the claim functions (claims_def.c); defined in claims.c. */

/** The network @p letter at the current scale. */
const struct cl_net *cl_net(struct cl_ctx *x, char letter);

/**
 * A steady point of `dfly sim`: network @p letter, @p mech, @p pattern, offered @p load, and
 * extra settings @p sets ("path=value;path=value", or NULL; the word "#counters" also writes and
 * reads the counters, see cl_sim.ctrl_local_rate; "sim.lia_remote=true" reads the remote
 * counters, cl_sim.lia_r; "#may-fail" accepts a run whose invariants
 * fail, e.g. a deadlock the watchdog reports, as a result: see cl_sim.failed). NULL while planning,
 * or if the point has no result (the claim is then not-run).
 */
const struct cl_sim *cl_sim(struct cl_ctx *x, char letter, const char *mech, const char *pattern,
			    double load, const char *sets);

/** A transient of `dfly transient` from @p from to @p to at t0, @p post cycles recorded. */
const struct cl_tr *cl_tr(struct cl_ctx *x, char letter, const char *mech, const char *from,
			  const char *to, double load, unsigned post, const char *sets);

/** Mean of @p v over the bins with cycle in [lo, hi) (NAN if none). */
double cl_tr_mean(const struct cl_tr *t, const double *v, int64_t lo, int64_t hi);

/**
 * Settling time of series @p v of @p t after t0 (cycle 0): the first bin from which its
 * moving average over @p ma cycles stays within ±@p tol_rel (relative) of its steady value, the
 * mean over the last 20 % of the post window's bins (spec §8.6's rule, on a series whose steady
 * value is never 0, e.g. latency). -1 if the last bin is out of the band, or no post bins.
 */
int64_t cl_tr_settle(const struct cl_tr *t, const double *v, int64_t ma, double tol_rel);

/** Record a check: @p ok, what was measured, what the claim expects, the tolerance used. */
void cl_check(struct cl_ctx *x, bool ok, const char *tol, const char *expected, const char *fmt,
	      ...) __attribute__((format(printf, 5, 6)));

/** Checks with spec §9's tolerances; @p what names the figure. */
void cl_le(struct cl_ctx *x, const char *what, double v, double bound);    /* v <= bound +10 % */
void cl_ge(struct cl_ctx *x, const char *what, double v, double bound);    /* v >= bound -10 % */
void cl_near(struct cl_ctx *x, const char *what, double v, double target); /* +-10 % */
void cl_order(struct cl_ctx *x, const char *what, const char *a, double va, const char *b,
	      double vb);                                                    /* ordering: va < vb */
void cl_factor(struct cl_ctx *x, const char *what, double v, double target); /* x1.5 */

/** A part of the claim dfly cannot check (a mechanism it lacks): at most partly. */
void cl_part_missing(struct cl_ctx *x, const char *what);

/** True at --scale paper (the papers' own networks). */
bool cl_paper(const struct cl_ctx *x);

/**
 * Where this claim's protocol differs from its network's (e.g. a window of its own, passed as
 * "sim.measure=N" in the points' sets): said in the report's protocol line, with the reason.
 */
void cl_protocol_note(struct cl_ctx *x, const char *text);

/** True while planning (the point functions return NULL then). */
bool cl_planning(const struct cl_ctx *x);

#endif /* DFLY_CLAIMS_H */
