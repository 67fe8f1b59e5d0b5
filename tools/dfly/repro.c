/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cmds.h"
#include "fabric.h"
#include "netcfg.h"
#include "repro.h"
#include "transient.h"

#ifndef DFLY_SOURCE_DIR
#define DFLY_SOURCE_DIR "."
#endif

/*
 * dfly repro: the papers' experiments as batches of other subcommands (the batch machinery they
 * share is repro_jobs.c, repro.h). This file holds the command and `dfly repro transient`: the
 * papers' UN -> ADV+1 transient at 0.2 load (spec §7.4, §8.6; H13, H15, H16 of §9.2) as a batch of
 * `dfly transient` runs, one per mechanism and buffer size. Each run is a forked child calling
 * cmd_transient() with the arguments printed as its command line, its stdout (the summary) going
 * to DIR/NAME.txt; the parent then reads the CSVs back for the figures `dfly transient` does not
 * compute (crude settling times, oscillation period), draws the figures with
 * scripts/plot-transient.sh and prints the tables. The steady-state and threshold sweeps of
 * `dfly sim` are in repro_sweep.c.
 */

#define REPRO_MAX_RUNS 16
#define REPRO_MAX_DIPS 10
#define REPRO_NA       INT64_MIN /* a figure that does not apply (e.g. no misrouting to reach) */
#define REPRO_ZOOM_LO  (-200)    /* zoomed figures: cycles [-200, 600) around t0 */
#define REPRO_ZOOM_HI  600
#define REPRO_TAIL     300 /* cycles left out at the end of the window: see repro_figures() */

static void usage_repro(FILE *f)
{
	fprintf(
	    f,
	    "usage: dfly repro transient [--scale h4|cfg-t] [--seeds N] [--out DIR] [--quick]\n"
	    "                            [--jobs J] [--dry-run | --report-only]\n"
	    "\n"
	    "Reproduce the transient experiments of CBAR §V-B/§V-C and thesis §4.3.2 (spec\n"
	    "§7.4, §8.6; H13, H15 and H16 of §9.2): warm up under UN at load 0.2, switch every\n"
	    "node to ADV+1 at t0 and record the response, cycle by cycle, with `dfly transient`:\n"
	    "  1. H13/H15: PB (with routing.val.recompute=true, thesis §5.3.3.3), OLM, and VAL\n"
	    "     and MIN as references, then the contention-counter mechanisms Base,\n"
	    "     Filtered, Hybrid and ECtN (spec §5), with the configuration's buffers\n"
	    "     (32/256 phits per local/global input VC);\n"
	    "  2. H16: PB and OLM, then Base, ECtN and Hybrid, with buffers.local=256 and\n"
	    "     buffers.global=2048 (phits per VC, CBAR §V-B, thesis §4.3.2; output and\n"
	    "     injection buffers unchanged).\n"
	    "Every run: --from un --to adv+1 --load 0.2 --pre 500 --bin 5, sim.warmup=10000,\n"
	    "--post 5000 (1) or 15000 (2: OLM takes that long to settle on h4), 3000 with\n"
	    "--quick. Written to DIR: one CSV and one summary (.txt) per run, zoom/*.csv\n"
	    "(cycles -200..600), the figures (*.png, drawn by scripts/plot-transient.sh;\n"
	    "transient-cc*.png for the counter mechanisms), commands.sh (every command,\n"
	    "runnable as is) and summary.txt (the tables, also printed on stdout).\n"
	    "\n"
	    "options:\n"
	    "  --scale h4|cfg-t  network: h4 (default; configs/h4.cfg, h=4, 264 routers, CFG-T\n"
	    "                    router) or cfg-t (configs/cfg-t.cfg, h=8, 2,064 routers, the\n"
	    "                    papers' size). cfg-t is VERY slow: 8x the routers, and PB\n"
	    "                    sends its state to 15 neighbours every cycle (~20 cycles/s),\n"
	    "                    MIN drains its ADV+1 backlog at 1/128 phit/cycle per node:\n"
	    "                    most of a day with the defaults, hours with --quick\n"
	    "  --seeds N         seeds per run, 1..N (default 10, the spec's minimum; 2 with\n"
	    "                    --quick)\n"
	    "  --out DIR         output directory (default out/repro-transient; created)\n"
	    "  --quick           2 seeds and a 3000-cycle horizon: a smoke test (minutes on h4)\n"
	    "  --jobs J          runs in parallel (default 1)\n"
	    "  --dry-run         print the commands and write DIR/commands.sh, run nothing\n"
	    "  --report-only     run nothing: redo the figures and tables from the CSVs and\n"
	    "                    summaries already in DIR (same --scale, --seeds, --quick)\n"
	    "  --help            this text\n"
	    "\n"
	    "Figures per run (tables on stdout and in summary.txt):\n"
	    "  react     reaction time of spec §8.6 (10-cycle MA of %% globally misrouted within\n"
	    "            +-5 pp of its steady value, the mean of the last 20%% of the window)\n"
	    "  t80       first cycle >= t0 at which the misrouted share has covered 80%% of its\n"
	    "            change (pre -> steady): on the 10-cycle MA, and on a centred 100-cycle\n"
	    "            mean (cruder, less sensitive to noise)\n"
	    "  settle    first cycle after which the centred 100-cycle mean stays within\n"
	    "            +-5 pp (misrouted) or +-5%% (latency) of its steady value\n"
	    "  period    lag of the highest autocorrelation peak (150..1500 cycles, after the\n"
	    "            first zero crossing) of the detrended, 25-cycle-smoothed misrouted\n"
	    "            share and latency from t0 + 100 on; and the dips of the misrouted share\n"
	    "            (minima of its 50-cycle mean over +-150 cycles, >= 3 pp deep)\n"
	    "  react'    react on the shortened window below\n"
	    "  windows   mean latency and %% misrouted over cycles [0,100), [100,200) and\n"
	    "            [200,600) after t0: ECtN's first broadcast after t0 is at +100\n"
	    "All but react and the latency peak leave out the last 300 cycles of the window:\n"
	    "the sources stop at its end, so the packets generated there see an emptying\n"
	    "network: their latency and OLM's in-transit misrouting drop.\n"
	    "\n"
	    "On h4 with the defaults, about 15 minutes of CPU on one core (PB runs at\n"
	    "~500-700 cycles/s; 23 minutes of wall time on a busy 2-core machine), a few with\n"
	    "--quick. Steady-state and threshold sweeps: dfly repro steady --help, dfly repro\n"
	    "threshold --help.\n"
	    "\n"
	    "Exit status: 0 if every run and figure succeeded; 1 if a run failed (deadlock,\n"
	    "no drain, invariant) or a figure could not be drawn; 2 on a usage error.\n");
}

/* A mechanism of an experiment and the --set it needs besides routing.mechanism. */
struct repro_mech {
	enum dfly_route_mode mode; /**< routing.mechanism (its name: dfly_mode_name()) */
	const char *set;           /**< an extra --set PATH=VALUE, or NULL */
};

/* One experiment: a buffer configuration and the mechanisms run under it. */
struct repro_exp {
	const char *id;                 /**< suffix of the run names: small, large */
	const char *what;               /**< progress line */
	const char *sets[4];            /**< buffer --set options, NULL-terminated */
	const struct repro_mech *mechs; /**< in run order */
	unsigned nmech;                 /**< entries of mechs */
	unsigned post;                  /**< horizon after t0, cycles (--quick: 3000) */
};

#define REPRO_NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* the counter mechanisms come last, so that the first runs are those of the first version */
static const struct repro_mech repro_mechs_small[] = {
    {DFLY_MODE_PB, "routing.val.recompute=true"},
    {DFLY_MODE_OLM, NULL},
    {DFLY_MODE_VAL, NULL},
    {DFLY_MODE_MIN, NULL},
    {DFLY_MODE_BASE, NULL},
    {DFLY_MODE_FILTERED, NULL},
    {DFLY_MODE_HYBRID, NULL},
    {DFLY_MODE_ECTN, NULL},
};

static const struct repro_mech repro_mechs_large[] = {
    {DFLY_MODE_PB, "routing.val.recompute=true"},
    {DFLY_MODE_OLM, NULL},
    {DFLY_MODE_BASE, NULL},
    {DFLY_MODE_ECTN, NULL},
    {DFLY_MODE_HYBRID, NULL},
};

static const struct repro_exp repro_exps[] = {
    {"small",
     "H13, H15: the configuration's 32/256-phit input buffers",
     {NULL},
     repro_mechs_small,
     REPRO_NELEM(repro_mechs_small),
     5000},
    /* OLM's latency creeps up for ~12k cycles with these buffers on h4 */
    {"large",
     "H16: 256/2048-phit local/global input buffers",
     {"buffers.local=256", "buffers.global=2048", NULL},
     repro_mechs_large,
     REPRO_NELEM(repro_mechs_large),
     15000},
};

/* The figures of one run: parsed from its summary, or computed from its CSV. */
struct repro_figs {
	bool have_sum;            /**< the summary (.txt) was parsed */
	long long reaction;       /**< spec §8.6 reaction time, -1 never settles */
	double peak_lat;          /**< highest bin-average latency from t0 on */
	long long peak_cycle;     /**< its bin */
	bool have_csv;            /**< the CSV was read */
	double pre_mis, ss_mis;   /**< % misrouted before t0, steady (last 20% of the window) */
	double pre_lat, ss_lat;   /**< latency before t0, steady */
	int64_t t80_ma, t80_c100; /**< 80% of the change on MA10 / centred 100-cycle mean */
	int64_t settle_mis;       /**< centred 100-cycle mean within ±5 pp of ss_mis from here */
	int64_t settle_lat;       /**< same for latency within ±5% of ss_lat */
	int64_t per_mis, per_lat; /**< autocorrelation period (cycles), REPRO_NA if none */
	double r_mis, r_lat;      /**< autocorrelation at that lag */
	unsigned ndips;           /**< dips of the misrouted share found */
	int64_t dips[REPRO_MAX_DIPS];  /**< their cycles after t0 */
	double depth[REPRO_MAX_DIPS];  /**< their depth in pp */
	int64_t react_trim;            /**< spec §8.6 reaction time on the shortened window */
	double win_lat[3], win_mis[3]; /**< means over cycles [0,100), [100,200), [200,600) */
};

/* One `dfly transient` run. */
struct repro_run {
	struct repro_job job;        /**< MECH-EXP: file names and plot label; the command */
	const struct repro_exp *exp; /**< its experiment */
	const char *mech;            /**< routing.mechanism */
	struct repro_figs figs;      /**< read back after the run */
};

/* A figure: which runs (by name) and from which CSVs (full window or zoom/). */
struct repro_plot {
	const char *file;    /**< PNG name in DIR */
	const char *what;    /**< title after the common part */
	bool zoom;           /**< plot DIR/zoom/NAME.csv */
	const char *runs[8]; /**< run names, NULL-terminated */
};

static const struct repro_plot repro_plots[] = {
    {"transient-small.png",
     "32/256-phit buffers",
     false,
     {"pb-small", "olm-small", "val-small", NULL}},
    {"transient-small-zoom.png",
     "32/256-phit buffers, first 600 cycles",
     true,
     {"pb-small", "olm-small", "val-small", NULL}},
    {"transient-small-all.png",
     "32/256-phit buffers, with MIN",
     false,
     {"pb-small", "olm-small", "val-small", "min-small", NULL}},
    {"transient-large.png",
     "256/2048-phit vs 32/256-phit buffers",
     false,
     {"pb-large", "olm-large", "pb-small", "olm-small", NULL}},
    {"transient-cc.png",
     "contention counters, 32/256-phit buffers",
     false,
     {"base-small", "filtered-small", "hybrid-small", "ectn-small", "olm-small", NULL}},
    {"transient-cc-zoom.png",
     "contention counters, 32/256-phit buffers, first 600 cycles",
     true,
     {"base-small", "filtered-small", "hybrid-small", "ectn-small", "olm-small", NULL}},
    {"transient-cc-large.png",
     "contention counters, 256/2048 vs 32/256-phit buffers",
     false,
     {"base-large", "ectn-large", "hybrid-large", "base-small", "ectn-small", "hybrid-small",
      "olm-large", NULL}},
};

/* The columns of a `dfly transient` CSV that the figures use. */
struct repro_series {
	unsigned n;   /**< bins */
	unsigned z;   /**< index of the bin starting at t0 */
	unsigned bin; /**< bin width in cycles */
	int64_t *cyc; /**< bin start relative to t0 */
	double *lat;  /**< lat_avg */
	double *mis;  /**< misrouted_pct */
	double *ma;   /**< misrouted_ma10 */
};

static void repro_series_free(struct repro_series *s)
{
	free(s->cyc);
	free(s->lat);
	free(s->mis);
	free(s->ma);
	memset(s, 0, sizeof(*s));
}

/*
 * Read @p path into @p s; with @p zoom not NULL, also copy the rows of cycles
 * [REPRO_ZOOM_LO, REPRO_ZOOM_HI) to it. @return 0, or -errno / -EINVAL (malformed).
 */
static int repro_read_csv(const char *path, const char *zoom, struct repro_series *s)
{
	FILE *f = fopen(path, "r"), *zf = NULL;
	char line[256];
	unsigned cap = 0;
	int rc = 0;

	memset(s, 0, sizeof(*s));
	if (f == NULL)
		return -errno;
	if (zoom && (zf = fopen(zoom, "w")) == NULL) {
		rc = -errno;
		goto out;
	}
	if (fgets(line, sizeof(line), f) == NULL || strncmp(line, "cycle,", 6) != 0) {
		rc = -EINVAL;
		goto out;
	}
	if (zf)
		fputs(line, zf);
	while (fgets(line, sizeof(line), f) != NULL) {
		long long c;
		unsigned long long pk, lmax;
		double lat, mis, nm, ma;

		if (sscanf(line, "%lld,%llu,%lf,%llu,%lf,%lf,%lf", &c, &pk, &lat, &lmax, &mis, &nm,
			   &ma) != 7) {
			rc = -EINVAL;
			goto out;
		}
		if (s->n == cap) {
			cap = cap ? 2 * cap : 1024;
			s->cyc = realloc(s->cyc, cap * sizeof(*s->cyc));
			s->lat = realloc(s->lat, cap * sizeof(*s->lat));
			s->mis = realloc(s->mis, cap * sizeof(*s->mis));
			s->ma = realloc(s->ma, cap * sizeof(*s->ma));
			if (!s->cyc || !s->lat || !s->mis || !s->ma) {
				rc = -ENOMEM;
				goto out;
			}
		}
		if (c == 0)
			s->z = s->n;
		s->cyc[s->n] = c;
		s->lat[s->n] = lat;
		s->mis[s->n] = mis;
		s->ma[s->n] = ma;
		s->n++;
		if (zf && c >= REPRO_ZOOM_LO && c < REPRO_ZOOM_HI)
			fputs(line, zf);
	}
	if (s->n < 2 || s->cyc[s->z] != 0 || s->z + 1 >= s->n)
		rc = -EINVAL;
	else
		s->bin = (unsigned)(s->cyc[1] - s->cyc[0]);
out:
	if (zf && fclose(zf) != 0 && rc == 0)
		rc = -EIO;
	fclose(f);
	if (rc)
		repro_series_free(s);
	return rc;
}

/* Centred mean of @p x over @p cycles cycles around bin @p i (fewer bins at the edges). */
static double repro_cmean(const struct repro_series *s, const double *x, unsigned i,
			  unsigned cycles)
{
	unsigned nb = (cycles + s->bin / 2) / s->bin;
	long lo = (long)i - (long)nb / 2, hi;
	double sum = 0;

	if (nb == 0)
		nb = 1;
	hi = lo + (long)nb;
	if (lo < 0)
		lo = 0;
	if (hi > (long)s->n)
		hi = s->n;
	for (long j = lo; j < hi; j++)
		sum += x[j];
	return sum / (double)(hi - lo);
}

/* First post-t0 bin whose @p y reaches @p thr, going up (@p up) or down. */
static int64_t repro_first_reach(const struct repro_series *s, const double *y, double thr, bool up)
{
	for (unsigned i = s->z; i < s->n; i++)
		if (up ? y[i] >= thr : y[i] <= thr)
			return s->cyc[i];
	return -1;
}

/* Start of the final run of post-t0 bins where |y − ref| ≤ tol; -1 if the last bin is out. */
static int64_t repro_settle(const struct repro_series *s, const double *y, double ref, double tol)
{
	unsigned k;

	for (k = s->n; k > s->z; k--)
		if (fabs(y[k - 1] - ref) > tol)
			break;
	return k == s->n ? -1 : s->cyc[k];
}

/*
 * Oscillation period of @p x after t0 + 100: smooth (centred 25-cycle mean), remove the least-
 * squares line, autocorrelate; the period is the lag of the highest autocorrelation in
 * [150, 1500] cycles past its first zero crossing. @return the lag in cycles, or REPRO_NA (no
 * zero crossing, or a window too short); @p r gets the autocorrelation there.
 */
static int64_t repro_period(const struct repro_series *s, const double *x, double *r)
{
	unsigned first = s->z + (100 + s->bin - 1) / s->bin, m, lmin, lmax, l0 = 0, best = 0;
	double *y, mt = 0, my = 0, sxy = 0, sxx = 0, slope, c0 = 0, bestr = -2;

	*r = 0;
	if (first + 8 >= s->n)
		return REPRO_NA;
	m = s->n - first;
	y = malloc(m * sizeof(*y));
	if (y == NULL)
		return REPRO_NA;
	for (unsigned i = 0; i < m; i++) {
		y[i] = repro_cmean(s, x, first + i, 25);
		mt += i;
		my += y[i];
	}
	mt /= m;
	my /= m;
	for (unsigned i = 0; i < m; i++) {
		sxy += (i - mt) * (y[i] - my);
		sxx += (i - mt) * (i - mt);
	}
	slope = sxx > 0 ? sxy / sxx : 0;
	for (unsigned i = 0; i < m; i++) {
		y[i] -= my + slope * (i - mt);
		c0 += y[i] * y[i];
	}
	lmin = 150 / s->bin;
	lmax = 1500 / s->bin;
	if (lmax > m / 2)
		lmax = m / 2;
	for (unsigned l = 1; l <= lmax && c0 > 0; l++) {
		double c = 0;

		for (unsigned i = 0; i + l < m; i++)
			c += y[i] * y[i + l];
		c /= c0;
		if (l0 == 0 && c < 0)
			l0 = l;
		if (l0 && l >= lmin && c > bestr) {
			bestr = c;
			best = l;
		}
	}
	free(y);
	if (best == 0)
		return REPRO_NA;
	*r = bestr;
	return (int64_t)best * s->bin;
}

/* Dips of the misrouted share after t0: see usage_repro(). */
static void repro_dips(const struct repro_series *s, struct repro_figs *fg)
{
	unsigned w = 150 / s->bin;
	double *y = malloc(s->n * sizeof(*y));

	fg->ndips = 0;
	if (y == NULL)
		return;
	for (unsigned i = 0; i < s->n; i++)
		y[i] = repro_cmean(s, s->mis, i, 50);
	for (unsigned i = s->z + w; i + w < s->n && fg->ndips < REPRO_MAX_DIPS; i++) {
		double hi = y[i];
		bool is_min = true;

		for (unsigned j = i - w; j <= i + w; j++) {
			if (y[j] < y[i] || (y[j] == y[i] && j < i))
				is_min = false;
			if (y[j] > hi)
				hi = y[j];
		}
		if (is_min && hi - y[i] >= 3.0) {
			fg->dips[fg->ndips] = s->cyc[i];
			fg->depth[fg->ndips++] = hi - y[i];
		}
	}
	free(y);
}

/*
 * Mean latency and % misrouted over cycles [0,100), [100,200) and [200,600) after t0 (bins that
 * start there; NAN if none): ECtN's partial arrays are broadcast at multiples of 100 cycles, so
 * it routes on the pre-switch arrays until +100 (spec §5.6, H13).
 */
static void repro_windows(const struct repro_series *s, struct repro_figs *fg)
{
	static const int64_t edge[4] = {0, 100, 200, 600};

	for (unsigned w = 0; w < 3; w++) {
		double lat = 0, mis = 0;
		unsigned k = 0;

		for (unsigned i = s->z; i < s->n; i++) {
			if (s->cyc[i] < edge[w] || s->cyc[i] >= edge[w + 1])
				continue;
			lat += s->lat[i];
			mis += s->mis[i];
			k++;
		}
		fg->win_lat[w] = k ? lat / k : NAN;
		fg->win_mis[w] = k ? mis / k : NAN;
	}
}

/* Parse the summary `dfly transient` printed (dfly_transient_dump_summary()). */
static void repro_read_summary(const char *path, struct repro_figs *fg)
{
	FILE *f = fopen(path, "r");
	char line[512];
	double a, b;
	int got = 0;

	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "reaction time: %lld", &fg->reaction) == 1)
			got |= 1;
		else if (sscanf(line,
				"latency (cycles): before %lf, peak %lf at cycle %lld, "
				"steady %lf",
				&a, &fg->peak_lat, &fg->peak_cycle, &b) == 4)
			got |= 2;
	}
	fclose(f);
	fg->have_sum = got == 3;
}

/*
 * Compute the figures of a finished run from its CSV (and write its zoomed CSV). The last
 * REPRO_TAIL cycles of the window are left out: the sources stop at t0 + post, so the packets
 * generated just before cross an emptying network and their latency drops (by up to ~10% on h4).
 * The steady values are therefore the means over the last 20% of the window so shortened; the
 * spec's reaction time and the peak come from `dfly transient` itself, on the whole window.
 */
static int repro_figures(struct repro_run *r, const char *zoom)
{
	struct repro_figs *fg = &r->figs;
	struct repro_series s;
	unsigned nsteady, npost;
	double *c100, *cl100, thr;
	int64_t stop;
	int rc;

	repro_read_summary(r->job.txt, fg);
	rc = repro_read_csv(r->job.csv, zoom, &s);
	if (rc)
		return rc;
	stop = s.cyc[s.n - 1] + (int64_t)s.bin - REPRO_TAIL;
	while (s.n > s.z + 2 && s.cyc[s.n - 1] >= stop)
		s.n--;
	npost = s.n - s.z;
	nsteady = npost * DFLY_TRANSIENT_STEADY_PCT / 100;
	if (nsteady == 0)
		nsteady = 1;
	fg->pre_mis = fg->pre_lat = fg->ss_mis = fg->ss_lat = 0;
	for (unsigned i = 0; i < s.z; i++) {
		fg->pre_mis += s.mis[i] / s.z;
		fg->pre_lat += s.lat[i] / s.z;
	}
	for (unsigned i = s.n - nsteady; i < s.n; i++) {
		fg->ss_mis += s.mis[i] / nsteady;
		fg->ss_lat += s.lat[i] / nsteady;
	}
	c100 = malloc(s.n * sizeof(*c100));
	cl100 = malloc(s.n * sizeof(*cl100));
	if (c100 == NULL || cl100 == NULL) {
		free(c100);
		free(cl100);
		repro_series_free(&s);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < s.n; i++) {
		c100[i] = repro_cmean(&s, s.mis, i, 100);
		cl100[i] = repro_cmean(&s, s.lat, i, 100);
	}
	/* 80% of the change in misrouted share; not defined without a change worth 10 pp */
	fg->t80_ma = fg->t80_c100 = REPRO_NA;
	if (fabs(fg->ss_mis - fg->pre_mis) >= 10) {
		bool up = fg->ss_mis > fg->pre_mis;

		thr = fg->pre_mis + 0.8 * (fg->ss_mis - fg->pre_mis);
		fg->t80_ma = repro_first_reach(&s, s.ma, thr, up);
		fg->t80_c100 = repro_first_reach(&s, c100, thr, up);
	}
	fg->react_trim = repro_settle(&s, s.ma, fg->ss_mis, DFLY_TRANSIENT_TOL_PP);
	repro_windows(&s, fg);
	fg->settle_mis = repro_settle(&s, c100, fg->ss_mis, DFLY_TRANSIENT_TOL_PP);
	fg->settle_lat = repro_settle(&s, cl100, fg->ss_lat, 0.05 * fg->ss_lat);
	fg->per_mis = repro_period(&s, s.mis, &fg->r_mis);
	fg->per_lat = repro_period(&s, s.lat, &fg->r_lat);
	repro_dips(&s, fg);
	fg->have_csv = true;
	free(c100);
	free(cl100);
	repro_series_free(&s);
	return 0;
}

/* A cycle figure as table text: "-" does not apply, "never" for -1. */
static const char *repro_cyc(char *buf, size_t len, int64_t v)
{
	if (v == REPRO_NA)
		snprintf(buf, len, "-");
	else if (v < 0)
		snprintf(buf, len, "never");
	else
		snprintf(buf, len, "%lld", (long long)v);
	return buf;
}

/* Print the tables of the finished runs. */
static void repro_report(FILE *f, const struct repro_run *runs, unsigned n)
{
	char b[6][24];

	fprintf(f, "%-14s %4s %6s %6s %6s %6s %6s %6s %8s %7s %8s %10s %7s\n", "run", "exit",
		"react", "react'", "t80ma", "t80c", "setl%", "setlL", "mis%pre", "mis%ss",
		"lat-pre", "peak@cyc", "lat-ss");
	for (unsigned i = 0; i < n; i++) {
		const struct repro_run *r = &runs[i];
		const struct repro_figs *fg = &r->figs;
		char peak[32] = "?", react[24] = "?";

		if (!fg->have_csv) {
			fprintf(f, "%-14s %4d (no CSV)\n", r->job.name, r->job.status);
			continue;
		}
		if (fg->have_sum) {
			snprintf(peak, sizeof(peak), "%.0f@%+lld", fg->peak_lat, fg->peak_cycle);
			repro_cyc(react, sizeof(react), fg->reaction);
		}
		fprintf(f, "%-14s %4d %6s %6s %6s %6s %6s %6s %8.2f %7.2f %8.1f %10s %7.1f\n",
			r->job.name, r->job.status, react, repro_cyc(b[4], 24, fg->react_trim),
			repro_cyc(b[0], 24, fg->t80_ma), repro_cyc(b[1], 24, fg->t80_c100),
			repro_cyc(b[2], 24, fg->settle_mis), repro_cyc(b[3], 24, fg->settle_lat),
			fg->pre_mis, fg->ss_mis, fg->pre_lat, peak, fg->ss_lat);
	}
	fprintf(f, "\n%-14s %14s %14s  %s\n", "run", "period mis(r)", "period lat(r)",
		"dips of % misrouted: cycle after t0 (depth, pp)");
	for (unsigned i = 0; i < n; i++) {
		const struct repro_figs *fg = &runs[i].figs;
		char pm[32], pl[32];

		if (!fg->have_csv)
			continue;
		snprintf(pm, sizeof(pm), "%s(%.2f)", repro_cyc(b[0], 24, fg->per_mis), fg->r_mis);
		snprintf(pl, sizeof(pl), "%s(%.2f)", repro_cyc(b[1], 24, fg->per_lat), fg->r_lat);
		fprintf(f, "%-14s %14s %14s ", runs[i].job.name, pm, pl);
		for (unsigned d = 0; d < fg->ndips; d++)
			fprintf(f, " %lld(%.0f)", (long long)fg->dips[d], fg->depth[d]);
		if (fg->ndips >= 2)
			fprintf(f, "  (mean spacing %.0f)",
				(double)(fg->dips[fg->ndips - 1] - fg->dips[0]) / (fg->ndips - 1));
		fputc('\n', f);
	}
	fprintf(
	    f,
	    "\nreact: spec §8.6 reaction time (by dfly transient); react': the same on the\n"
	    "shortened window (see below); t80ma / t80c: first cycle at which the 10-cycle\n"
	    "MA / the centred 100-cycle mean of %% misrouted covers 80%% of its change; setl%% /\n"
	    "setlL: from this cycle on the centred 100-cycle mean of %% misrouted / latency\n"
	    "stays within +-5 pp / +-5%% of its steady value; ss: steady, the mean of the last\n"
	    "20%% of the window. Cycles relative to t0; - does not apply. period: lag of the\n"
	    "autocorrelation peak (r: its value; below ~0.2 there is no clear oscillation).\n"
	    "All but react and peak leave out the last %d cycles of the window, where latency\n"
	    "and OLM's in-transit misrouting drop because the sources stop at its end.\n",
	    REPRO_TAIL);
	fprintf(f, "\n%-14s %9s %7s %7s   %9s %7s %7s\n", "run", "lat 0-100", "100-200", "200-600",
		"mis 0-100", "100-200", "200-600");
	for (unsigned i = 0; i < n; i++) {
		const struct repro_figs *fg = &runs[i].figs;

		if (!fg->have_csv)
			continue;
		fprintf(f, "%-14s %9.1f %7.1f %7.1f   %9.2f %7.2f %7.2f\n", runs[i].job.name,
			fg->win_lat[0], fg->win_lat[1], fg->win_lat[2], fg->win_mis[0],
			fg->win_mis[1], fg->win_mis[2]);
	}
	fprintf(f, "lat / mis: mean latency / %% misrouted of the bins that start in cycles\n"
		   "[0,100), [100,200), [200,600) after t0; ECtN's first broadcast of partial\n"
		   "arrays after the switch is at +100.\n");
}

/* The command line of a figure. */
struct repro_plot_cmd {
	char csvs[8][512];    /**< the CSVs */
	char png[512];        /**< DIR/FILE */
	char title[256];      /**< the figure's title */
	const char *argv[13]; /**< plot-transient.sh CSV... PNG TITLE, NULL-terminated */
};

/*
 * Build the command of figure @p pl in @p c; with @p runs not NULL, only with the runs whose CSV
 * was read. @return the number of CSVs.
 */
static unsigned repro_plot_cmd(struct repro_plot_cmd *c, const struct repro_plot *pl,
			       const char *plot_sh, const char *out, const char *scale,
			       uint64_t seeds, const struct repro_run *runs, unsigned n)
{
	unsigned k = 0, ncsv = 0;

	c->argv[k++] = plot_sh;
	for (unsigned j = 0; pl->runs[j] != NULL; j++) {
		bool ok = runs == NULL;

		for (unsigned i = 0; !ok && i < n; i++)
			ok = strcmp(runs[i].job.name, pl->runs[j]) == 0 && runs[i].figs.have_csv;
		if (!ok)
			continue;
		snprintf(c->csvs[ncsv], sizeof(c->csvs[ncsv]), "%s/%s%s.csv", out,
			 pl->zoom ? "zoom/" : "", pl->runs[j]);
		c->argv[k++] = c->csvs[ncsv++];
	}
	snprintf(c->png, sizeof(c->png), "%s/%s", out, pl->file);
	snprintf(c->title, sizeof(c->title), "%s: UN -> ADV+1 at load 0.2, %s, %llu seeds", scale,
		 pl->what, (unsigned long long)seeds);
	c->argv[k++] = c->png;
	c->argv[k++] = c->title;
	c->argv[k] = NULL;
	return ncsv;
}

/* dfly repro transient: see usage_repro(). */
static int repro_transient(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"scale", required_argument, NULL, 'a'},
	    {"seeds", required_argument, NULL, 'k'},
	    {"out", required_argument, NULL, 'o'},
	    {"quick", no_argument, NULL, 'Q'},
	    {"jobs", required_argument, NULL, 'j'},
	    {"dry-run", no_argument, NULL, 'n'},
	    {"report-only", no_argument, NULL, 'r'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	static struct repro_run runs[REPRO_MAX_RUNS];
	static struct repro_job *jobs[REPRO_MAX_RUNS];
	const char *scale = "h4", *out = "out/repro-transient";
	static struct repro_plot_cmd pc;
	char self[512], cfg[512], plot_sh[512], path[512], zoom[512], zpath[600], title[160];
	uint64_t seeds = 0, njobs = 1;
	bool quick = false, dry = false, report = false;
	unsigned n = 0;
	int opt, rc, status = 0, failed = 0;
	double wall0 = now_s();
	FILE *f;

	optind = 1;
	while ((opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (opt) {
		case 'a':
			if (strcmp(optarg, "h4") != 0 && strcmp(optarg, "cfg-t") != 0) {
				fprintf(stderr, "dfly repro: --scale %s: expected h4 or cfg-t\n",
					optarg);
				return 2;
			}
			scale = optarg;
			break;
		case 'k':
		case 'j':
			if (transient_parse_u64(optarg, opt == 'k' ? &seeds : &njobs) != 0 ||
			    (opt == 'k' ? seeds : njobs) == 0 ||
			    (opt == 'k' ? seeds > 10000 : njobs > REPRO_MAX_RUNS)) {
				fprintf(stderr, "dfly repro: --%s %s: expected a number in 1..%d\n",
					opt == 'k' ? "seeds" : "jobs", optarg,
					opt == 'k' ? 10000 : REPRO_MAX_RUNS);
				return 2;
			}
			break;
		case 'o':
			out = optarg;
			break;
		case 'Q':
			quick = true;
			break;
		case 'n':
			dry = true;
			break;
		case 'r':
			report = true;
			break;
		case 'h':
			usage_repro(stdout);
			return 0;
		default:
			return dfly_cli_opt_error("dfly repro transient", opts, opt, argv);
		}
	}
	if (optind != argc)
		return dfly_cli_usage_error("dfly repro transient", "unexpected argument '%s'",
					    argv[optind]);
	if (dry && report) {
		fprintf(stderr, "dfly repro: --dry-run and --report-only exclude each other\n");
		return 2;
	}
	if (seeds == 0)
		seeds = quick ? 2 : 10;
	repro_self(self, sizeof(self));
	snprintf(path, sizeof(path), "configs/%s.cfg", scale);
	repro_src_path(path, cfg, sizeof(cfg));
	repro_src_path("scripts/plot-transient.sh", plot_sh, sizeof(plot_sh));
	snprintf(zoom, sizeof(zoom), "%s/zoom", out);
	rc = repro_mkdirs(zoom);
	if (rc != 0) {
		fprintf(stderr, "dfly repro: %s: %s\n", zoom, strerror(-rc));
		return 2;
	}

	/* the runs, in order: experiment by experiment */
	for (unsigned e = 0; e < REPRO_NELEM(repro_exps); e++) {
		const struct repro_exp *x = &repro_exps[e];

		for (unsigned m = 0; m < x->nmech; m++) {
			struct repro_run *r = &runs[n];
			struct repro_job *j = &r->job;

			jobs[n++] = j;
			repro_job_init(j, dfly_cmd_find("transient")->fn, "transient");
			r->exp = x;
			r->mech = dfly_mode_name(x->mechs[m].mode);
			snprintf(j->name, sizeof(j->name), "%s-%s", r->mech, x->id);
			snprintf(j->group, sizeof(j->group), "experiment %s: %s", x->id, x->what);
			snprintf(j->csv, sizeof(j->csv), "%s/%s-%s.csv", out, r->mech, x->id);
			snprintf(j->txt, sizeof(j->txt), "%s/%s-%s.txt", out, r->mech, x->id);
			repro_arg(j, cfg);
			repro_arg(j, "--set");
			repro_argf(j, "routing.mechanism=%s", r->mech);
			if (x->mechs[m].set) {
				repro_arg(j, "--set");
				repro_arg(j, x->mechs[m].set);
			}
			for (unsigned k = 0; x->sets[k] != NULL; k++) {
				repro_arg(j, "--set");
				repro_arg(j, x->sets[k]);
			}
			repro_arg(j, "--set");
			repro_argf(j, "sim.warmup=%d", 10000);
			repro_arg(j, "--from");
			repro_arg(j, "un");
			repro_arg(j, "--to");
			repro_arg(j, "adv+1");
			repro_arg(j, "--load");
			repro_arg(j, "0.2");
			repro_arg(j, "--pre");
			repro_arg(j, "500");
			repro_arg(j, "--post");
			repro_argf(j, "%u", quick ? 3000 : x->post);
			repro_arg(j, "--bin");
			repro_arg(j, "5");
			repro_arg(j, "--seed");
			repro_arg(j, "1");
			repro_arg(j, "--seeds");
			repro_argf(j, "%llu", (unsigned long long)seeds);
			repro_arg(j, "--csv");
			repro_arg(j, j->csv);
			repro_arg(j, "--quiet");
		}
	}

	/* every command, as a script */
	snprintf(path, sizeof(path), "%s/commands.sh", out);
	snprintf(title, sizeof(title), "dfly repro transient --scale %s --seeds %llu%s", scale,
		 (unsigned long long)seeds, quick ? " --quick" : "");
	f = repro_commands_begin(path, title, jobs, n, self);
	if (f == NULL)
		return 2;
	fprintf(f, "# the zoomed CSVs: cycles %d..%d of the CSVs\n", REPRO_ZOOM_LO,
		REPRO_ZOOM_HI - 1);
	for (unsigned i = 0; i < n; i++) {
		fprintf(f, "awk -F, 'NR == 1 || ($1 >= %d && $1 < %d)' ", REPRO_ZOOM_LO,
			REPRO_ZOOM_HI);
		dfly_sh_word(f, jobs[i]->csv);
		fprintf(f, " > ");
		snprintf(zpath, sizeof(zpath), "%s/%s.csv", zoom, jobs[i]->name);
		dfly_sh_word(f, zpath);
		fputc('\n', f);
	}
	fprintf(f, "# the figures\n");
	for (unsigned p = 0; p < REPRO_NELEM(repro_plots); p++) {
		repro_plot_cmd(&pc, &repro_plots[p], plot_sh, out, scale, seeds, NULL, 0);
		repro_cmdline(f, pc.argv[0], pc.argv, 1, NULL);
	}
	if (repro_commands_end(f, path) != 0)
		return 2;
	if (dry) {
		printf("# dfly repro transient: %u runs (dry run); commands in %s\n", n, path);
		repro_cat(path);
		return 0;
	}

	printf(
	    "# dfly repro transient --scale %s: %u runs, %llu seeds each, %llu job(s); output in "
	    "%s\n",
	    scale, n, (unsigned long long)seeds, (unsigned long long)njobs, out);
	if (report) {
		for (unsigned i = 0; i < n; i++) {
			jobs[i]->status = access(jobs[i]->csv, R_OK) == 0 ? 0 : 1;
			failed += jobs[i]->status != 0;
		}
	} else {
		failed = repro_run_jobs(jobs, n, (unsigned)njobs, self, wall0);
		if (failed < 0)
			return 1;
	}

	/* figures from the CSVs, zoomed copies, plots */
	for (unsigned i = 0; i < n; i++) {
		struct repro_run *r = &runs[i];

		if (r->job.status != 0)
			continue;
		snprintf(zpath, sizeof(zpath), "%s/%.31s.csv", zoom, r->job.name);
		rc = repro_figures(r, zpath);
		if (rc) {
			fprintf(stderr, "dfly repro: %s: %s\n", r->job.csv, strerror(-rc));
			status = 1;
		}
	}
	for (unsigned p = 0; p < REPRO_NELEM(repro_plots); p++) {
		if (repro_plot_cmd(&pc, &repro_plots[p], plot_sh, out, scale, seeds, runs, n) == 0)
			continue;
		printf("plot: ");
		repro_cmdline(stdout, pc.argv[0], pc.argv, 1, NULL);
		if (repro_exec(pc.argv) != 0) {
			fprintf(stderr, "dfly repro: %s: plot failed\n", pc.png);
			status = 1;
		}
	}

	printf("\n");
	repro_report(stdout, runs, n);
	snprintf(path, sizeof(path), "%s/summary.txt", out);
	f = fopen(path, "w");
	if (f != NULL) {
		fprintf(f, "# %s: %u runs", title, n);
		if (report)
			fprintf(f, " (tables redone with --report-only)\n");
		else
			fprintf(f, " in %.0f s\n", now_s() - wall0);
		repro_report(f, runs, n);
		fprintf(f, "\n# commands (also in commands.sh)\n");
		for (unsigned i = 0; i < n; i++)
			repro_cmdline(f, self, jobs[i]->argv, 0, jobs[i]->txt);
		if (fclose(f) != 0)
			status = 1;
	}
	printf("# %u/%u runs ok in %.0f s; tables in %s\n", n - failed, n, now_s() - wall0, path);
	return failed ? 1 : status;
}

static void usage_repro_all(FILE *f)
{
	fprintf(f,
		"usage: dfly repro EXPERIMENT [options]\n"
		"\n"
		"Rerun the papers' experiments as batches of dfly subcommands, with figures and\n"
		"tables (spec §9.2):\n"
		"  transient  UN -> ADV+1 at load 0.2, cycle by cycle (H13, H15, H16)\n"
		"  steady     latency and throughput against offered load under UN, ADV+1 and\n"
		"             ADV+h (H8-H11)\n"
		"  threshold  Base's contention threshold swept under UN and ADV+1 (H17)\n"
		"  claims     every checkable claim of spec §9 (H1-H44): runs, verdicts against\n"
		"             the spec's tolerances, claims.csv and a report\n"
		"  lia        the LIA paper's load sweeps (UN, ADV+1, ADV+h, ADVc) for MIN, VLB,\n"
		"             VAL, UGAL-G, PB, PB-ACOR, TPR and LIA, and ADVc per switch\n"
		"             (H31-H37)\n"
		"\n"
		"dfly repro EXPERIMENT --help describes each.\n");
}

int cmd_repro(int argc, char **argv)
{
	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage_repro_all(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (strcmp(argv[1], "transient") == 0)
		return repro_transient(argc - 1, argv + 1);
	if (strcmp(argv[1], "steady") == 0)
		return repro_steady(argc - 1, argv + 1);
	if (strcmp(argv[1], "threshold") == 0)
		return repro_threshold(argc - 1, argv + 1);
	if (strcmp(argv[1], "lia") == 0)
		return repro_lia(argc - 1, argv + 1);
	if (strcmp(argv[1], "claims") == 0)
		return repro_claims(argc - 1, argv + 1);
	return dfly_cli_usage_error(
	    "dfly repro",
	    "unknown experiment '%s' (known: transient, steady, threshold, lia, claims)", argv[1]);
}
