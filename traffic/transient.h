/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Transient experiments (docs/spec.md §7.4, §8.6): a recorder fed by the fabric's delivery
 * tap (fabric.h, dfly_fabric_set_tap) that bins delivered packets cycle by cycle around the
 * pattern switch at t0, and the figures computed from the bins: per-bin average and maximum
 * latency, % globally misrouted, % nonminimal, the 10-cycle moving average of % misrouted, the
 * reaction time, the steady values and the latency peak. Used by `dfly transient` (main.c);
 * depends only on struct dfly_delivery, not on the fabric's internals, so the unit tests feed it
 * synthetic deliveries.
 *
 * Window and bins. The recorder covers [t0 - pre, t0 + post) in bins of `bin` cycles aligned on
 * t0 (bin k covers [t0 + k·bin, t0 + (k+1)·bin)); pre and post are rounded up to whole bins.
 * A packet is binned by its generation cycle (default, PROPOSAL) or by its tail delivery
 * cycle; a packet whose binning cycle is outside the window is ignored. Latency is
 * tail_cycle − gen_cycle.
 *
 * Several seeds. Runs are accumulated into one recorder: every bin holds sums over all the
 * packets of all runs (dfly_transient_set_t0() rebases the window for the next run if its switch
 * cycle differs). The reported series is therefore the average over all packets of all seeds
 * that fall in a bin (packet-weighted), not the mean of per-seed averages; `packets` is the total
 * over the seeds and lat_max the maximum over them.
 *
 * Series and empty bins. A bin with no packets repeats the previous bin's averages (latency,
 * % misrouted, % nonminimal); bins before the first non-empty one read 0. The moving average and
 * every figure below are computed on that carried series, one value per bin, unweighted.
 *
 * Reaction time (spec §8.6 PROPOSAL). MA(k) is the mean of the carried % globally misrouted over
 * the bins covering the last `ma` cycles up to and including bin k (ceil(ma / bin) bins; bins of
 * the pre window count, so MA is defined at t0; at the very start of the window fewer bins are
 * averaged). The steady value S is the mean of the carried % misrouted over the last
 * `steady_pct` % of the post window's bins (at least one bin). The reaction time is the start,
 * relative to t0, of the first post-window bin k ≥ 0 such that |MA(j) − S| ≤ tol for every bin
 * j ≥ k of the post window; -1 if the last bin is itself out of the band (never settles). The
 * tolerance is in percentage points of the misrouted share, not relative to S: a relative band
 * would be empty when S = 0 (MIN, or any mechanism that stops misrouting).
 */
#ifndef DFLY_TRANSIENT_H
#define DFLY_TRANSIENT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "edge.h"
#include "netcfg.h"

/** Which cycle of a packet decides its bin (spec ). */
enum dfly_transient_by {
	DFLY_TRANSIENT_BY_GEN = 0, /**< generation cycle (default, PROPOSAL A-8.3) */
	DFLY_TRANSIENT_BY_TAIL,    /**< cycle its tail was delivered */
};

/** Defaults of the reaction-time parameters (spec §8.6 PROPOSAL). */
#define DFLY_TRANSIENT_MA_CYCLES  10  /**< moving-average window, cycles */
#define DFLY_TRANSIENT_TOL_PP     5.0 /**< band around the steady value, percentage points */
#define DFLY_TRANSIENT_STEADY_PCT 20  /**< steady value: mean over the last 20% of post */

/** What a recorder records and how its figures are computed. */
struct dfly_transient_params {
	uint64_t t0;               /**< switch cycle (absolute fabric cycle) */
	uint64_t pre;              /**< cycles recorded before t0 (rounded up to whole bins) */
	uint64_t post;             /**< cycles recorded from t0 on (rounded up, ≥ 1 bin) */
	uint32_t bin;              /**< bin width in cycles; 0 means 1 */
	enum dfly_transient_by by; /**< binning by generation (default) or tail cycle */
	uint32_t ma_cycles;        /**< moving-average window in cycles; 0 means 10 */
	double tol_pp;             /**< settling band in percentage points; ≤ 0 means 5 */
	uint32_t steady_pct;       /**< % of the post window averaged for S; 0 means 20 */
};

struct dfly_transient;

/** Sums of one bin, over every packet of every run recorded into it. */
struct dfly_transient_bin {
	int64_t cycle;      /**< bin start relative to t0 (negative in the pre window) */
	uint64_t packets;   /**< packets binned here */
	uint64_t lat_sum;   /**< Σ (tail_cycle − gen_cycle) */
	uint64_t lat_max;   /**< max (tail_cycle − gen_cycle) */
	uint64_t misrouted; /**< packets with global_misrouted */
	uint64_t nonmin;    /**< packets with nonmin */
};

/** One bin of the reported series (empty bins carry the previous bin's averages). */
struct dfly_transient_point {
	int64_t cycle;        /**< bin start relative to t0 */
	uint64_t packets;     /**< packets in the bin (0: the averages are carried) */
	double lat_avg;       /**< average latency, cycles */
	uint64_t lat_max;     /**< maximum latency in the bin (0 when empty) */
	double misrouted_pct; /**< % of the bin's packets globally misrouted (spec §8.4) */
	double nonmin_pct;    /**< % of the bin's packets with a nonminimal decision */
	double misrouted_ma;  /**< moving average of misrouted_pct over params.ma_cycles */
};

/** The figures of a recorder (spec §8.6; H13, H15 of §9). */
struct dfly_transient_summary {
	unsigned runs;           /**< runs recorded (dfly_transient_end_run calls) */
	uint64_t packets;        /**< packets recorded, all bins and runs */
	int64_t reaction;        /**< reaction time in cycles after t0, -1 if it never settles */
	double steady_misrouted; /**< S: % misrouted, mean over the last steady_pct % of post */
	double steady_nonmin;    /**< same for % nonminimal */
	double steady_lat;       /**< average latency, mean over the same bins */
	double pre_misrouted;    /**< % misrouted, mean over the pre window (0 if pre = 0) */
	double pre_lat;          /**< average latency, mean over the pre window */
	double peak_lat;         /**< highest bin-average latency from t0 on */
	int64_t peak_cycle;      /**< start of that bin relative to t0 */
	uint64_t lat_max;        /**< highest single-packet latency from t0 on */
};

/**
 * Create a recorder. @return it, or NULL with errno EINVAL (post = 0, steady_pct > 100, window
 * too large) or ENOMEM.
 */
struct dfly_transient *dfly_transient_create(const struct dfly_transient_params *p);
/** Free a recorder; NULL is accepted. */
void dfly_transient_destroy(struct dfly_transient *rec);

/** The effective parameters (defaults filled in, pre and post rounded up to whole bins). */
const struct dfly_transient_params *dfly_transient_params(const struct dfly_transient *rec);

/** Move the window to a new switch cycle for the next run (same pre, post and bins). */
void dfly_transient_set_t0(struct dfly_transient *rec, uint64_t t0);

/** Bin one delivered packet (thread-safe); packets outside the window are ignored. @return true
 * if binned. */
bool dfly_transient_add(struct dfly_transient *rec, const struct dfly_delivery *d);

/**
 * The same, as a delivery tap. It may be called from several threads at once (its bins take
 * atomic sums and maximum): dfly_fabric_set_tap_concurrent(fab, dfly_transient_tap, rec).
 */
void dfly_transient_tap(void *rec, const struct dfly_delivery *d);

/** Count one finished run (the summary reports the number of runs averaged). */
void dfly_transient_end_run(struct dfly_transient *rec);

/** Number of bins (pre + post). */
uint32_t dfly_transient_nbins(const struct dfly_transient *rec);
/** Raw sums of bin @p i (0 ≤ i < nbins; bin 0 starts at t0 − pre). */
const struct dfly_transient_bin *dfly_transient_bin_get(const struct dfly_transient *rec,
							uint32_t i);
/** Index of the bin starting at t0. */
uint32_t dfly_transient_bin_t0(const struct dfly_transient *rec);

/** Fill @p pts (nbins entries) with the reported series. */
void dfly_transient_series(const struct dfly_transient *rec, struct dfly_transient_point *pts);

/** Compute the figures. @return 0, or -ENOMEM. */
int dfly_transient_summarize(const struct dfly_transient *rec, struct dfly_transient_summary *sum);

/**
 * Write the series as CSV: a header, then one row per bin with the columns
 * cycle,packets,lat_avg,lat_max,misrouted_pct,nonmin_pct,misrouted_ma10 (the last one named after
 * params.ma_cycles). @return 0, -ENOMEM, or -EIO if writing failed.
 */
int dfly_transient_write_csv(const struct dfly_transient *rec, FILE *f);

/** Print the summary, one "# name: value" line per figure. @return 0 or -ENOMEM. */
int dfly_transient_dump_summary(const struct dfly_transient *rec, FILE *f);

#endif /* DFLY_TRANSIENT_H */
