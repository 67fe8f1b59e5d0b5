/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfly repro steady, threshold and lia: the papers' steady-state figures as sweeps of `dfly sim`
 * (CBAR §V-A, §VI-A; thesis §4.2.2, §4.3.1; H8-H11 and H17 of spec §9.2; the LIA paper, H31-H37).
 * Each sweep is a batch of repro jobs (repro.h), one `dfly sim` per mechanism and pattern (steady,
 * lia) or per threshold and pattern (threshold), each writing its CSV (lia: and its counters
 * under ADVc); the parent then averages the rows over the seeds into one CSV per figure, draws
 * the figures with scripts/plot-steady.sh, scripts/plot-threshold.sh and
 * scripts/plot-lia-switch.sh and prints the tables.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmds.h"
#include "fabric.h"
#include "netcfg.h"
#include "repro.h"

#define SWEEP_MAX_JOBS   160  /* threshold: 2 patterns x th 1..64, and the references */
#define SWEEP_MAX_LOADS  64   /* offered loads of one job */
#define SWEEP_MAX_PAR    64   /* --jobs */
#define SWEEP_MAX_TH     64   /* --th */
#define SWEEP_SAT        0.95 /* a point is past saturation if accepted < 0.95 x offered */
#define SWEEP_TH_UN_TOL  0.02 /* threshold: UN latency within 2% of MIN's */
#define SWEEP_TH_ADV_TOL 0.05 /* threshold: ADV+1 latency within 5% of the sweep's best */
#define SWEEP_LAT_COLS   10   /* latency columns of the steady tables */
#define SWEEP_MAX_PAT    4    /* patterns of one experiment (lia: un, adv+1, adv+h, advc) */

/* A mechanism of the steady-state figures and the --set it needs besides routing.mechanism. */
struct sweep_mech {
	enum dfly_route_mode mode; /**< routing.mechanism (its name: dfly_mode_name()) */
	const char *set;           /**< an extra --set PATH=VALUE, or NULL */
	const char *label; /**< the name in file names, tables and figures; NULL: the mode's name */
};

/* The papers' mechanisms (CBAR Fig. 5, thesis Fig. 4.6); PB as in `dfly repro transient`. */
static const struct sweep_mech sweep_mechs[] = {
    {DFLY_MODE_MIN, NULL},    {DFLY_MODE_VAL, NULL},
    {DFLY_MODE_OLM, NULL},    {DFLY_MODE_PB, "routing.val.recompute=true"},
    {DFLY_MODE_BASE, NULL},   {DFLY_MODE_FILTERED, NULL},
    {DFLY_MODE_HYBRID, NULL}, {DFLY_MODE_ECTN, NULL},
};

#define SWEEP_NMECH (sizeof(sweep_mechs) / sizeof(sweep_mechs[0]))

/* The options of both experiments (some apply to one only). */
struct sweep_opts {
	const char *scale;              /**< h2 | h4 | cfg-t: configs/SCALE.cfg */
	const char *out;                /**< output directory */
	uint64_t seeds, njobs;          /**< seeds per point, jobs at once */
	uint64_t warmup, measure;       /**< sim.warmup, sim.measure */
	bool quick, dry, report;        /**< --quick, --dry-run, --report-only */
	const char *loads_un;           /**< steady: --loads of UN */
	const char *loads_adv;          /**< steady: --loads of ADV+1 and ADV+h */
	bool pat[SWEEP_MAX_PAT];        /**< --patterns: UN, ADV+1, ADV+h (lia: ADVc) selected */
	const char *patterns;           /**< steady: --patterns as given, or NULL (all) */
	const char *load_un;            /**< threshold: UN load */
	const char *load_adv;           /**< threshold: ADV+1 load */
	uint64_t th_lo, th_hi, th_step; /**< threshold: --th LO:HI[:STEP] */
};

/* One averaged point: a load of a job, over its seeds. */
struct sweep_point {
	double offered;  /**< phits/(node*cycle) */
	double accepted; /**< means over the seeds */
	double lat, p50, p99, mis;
	unsigned seeds; /**< rows averaged */
	bool ok;        /**< every row's invariants held */
};

/* One `dfly sim` job of a sweep and its averaged points. */
struct sweep_job {
	struct repro_job job; /**< PATTERN-MECH or PATTERN-thN: file names, the command */
	const char *mech;     /**< routing.mechanism */
	char pattern[16];     /**< traffic.pattern */
	unsigned th;          /**< threshold: routing.cc.threshold, 0 for a reference */
	bool off;             /**< not part of the experiment: no job, no row */
	unsigned n;           /**< points read */
	struct sweep_point pt[SWEEP_MAX_LOADS]; /**< by offered load, in the CSV's order */
};

static void usage_steady(FILE *f)
{
	fprintf(f,
		"usage: dfly repro steady [--scale h2|h4|cfg-t] [--seeds N] [--warmup C]\n"
		"                         [--measure C] [--loads-un L] [--loads-adv L]\n"
		"                         [--patterns LIST] [--out DIR] [--quick] [--jobs J]\n"
		"                         [--dry-run | --report-only]\n"
		"\n"
		"Reproduce the steady-state figures of CBAR §V-A (Fig. 5) and thesis §4.3.1 (Fig.\n"
		"4.6), checks H8-H11 of spec §9.2: latency and accepted throughput against\n"
		"offered load under UN, ADV+1 and ADV+h (h of the network: adv+4 on h4), for\n"
		"MIN, VAL, OLM, PB (with routing.val.recompute=true, as in `dfly repro\n"
		"transient`), Base, Filtered, Hybrid and ECtN. One `dfly sim` per pattern and\n"
		"mechanism, over all the loads. Written to DIR: PATTERN-MECH.csv (one row per\n"
		"load and seed) and .txt (its table), steady-PATTERN.csv (the points averaged\n"
		"over the seeds: mechanism,offered,seeds,accepted,lat_avg,lat_p50,lat_p99,\n"
		"misrouted_pct,invariants), steady-PATTERN.png (latency and accepted against\n"
		"offered, drawn by scripts/plot-steady.sh), commands.sh (every command) and\n"
		"summary.txt (the tables, also printed on stdout).\n"
		"\n"
		"options:\n"
		"  --scale S         network configs/S.cfg: h4 (default; h=4, 264 routers, the\n"
		"                    CFG-T router), h2 (36 routers: tests) or cfg-t (h=8, 2,064\n"
		"                    routers, the papers' size: VERY slow, 8x the routers and\n"
		"                    more cycles per run; days with the defaults)\n"
		"  --seeds N         seeds per point, 1..N (default 1)\n"
		"  --warmup C        sim.warmup cycles (default 5000; 2000 with --quick)\n"
		"  --measure C       sim.measure cycles (default 5000; 2000 with --quick)\n"
		"  --loads-un L      UN loads, a `dfly sim --loads` value (default 0.05:1:0.05,\n"
		"                    past the saturation of every mechanism on h4; 0.1:0.7:0.3\n"
		"                    with --quick)\n"
		"  --loads-adv L     ADV+1 and ADV+h loads (default 0.01,0.05,0.1,...,0.5: 0.01\n"
		"                    is the low zone of H10; 0.1:0.4:0.3 with --quick)\n"
		"  --patterns LIST   run only these of un, adv+1, adv+h (comma-separated; the\n"
		"                    tables and figures of the others are left alone; a later\n"
		"                    --report-only without it redoes them all)\n"
		"  --out DIR         output directory (default out/repro-steady; created)\n"
		"  --quick           short windows and 2-3 loads per pattern: a smoke test\n"
		"  --jobs J          runs in parallel (default 1)\n"
		"  --dry-run         print the commands and write DIR/commands.sh, run nothing\n"
		"  --report-only     run nothing: redo the CSVs, figures and tables from the\n"
		"                    CSVs already in DIR\n"
		"  --help            this text\n"
		"\n"
		"Tables per pattern: sat = saturation throughput, the highest accepted load over\n"
		"the sweep, at the offered load given; last = accepted at the highest offered\n"
		"load (below sat: throughput falls past saturation, H11); then latency and %%\n"
		"misrouted at the loads that are multiples of 0.1 (and 0.01), * past saturation\n"
		"(accepted < 0.95 x offered), ! a run whose invariants failed.\n"
		"\n"
		"On h4 with the defaults, about 32 minutes on one core: 17 for UN, 15 for ADV+1\n"
		"and ADV+h (PB, which sends its state every cycle, takes a quarter of it); a few\n"
		"seconds on h2 with --quick.\n"
		"\n"
		"Exit status: 0 if every run and figure succeeded; 1 if a run failed (deadlock,\n"
		"no drain, invariant) or a figure could not be drawn; 2 on a usage error.\n");
}

static void usage_threshold(FILE *f)
{
	fprintf(f,
		"usage: dfly repro threshold [--scale h2|h4|cfg-t] [--th LO:HI[:STEP]]\n"
		"                            [--load-un X] [--load-adv X] [--seeds N]\n"
		"                            [--warmup C] [--measure C] [--out DIR] [--quick]\n"
		"                            [--jobs J] [--dry-run | --report-only]\n"
		"\n"
		"Reproduce the threshold sensitivity of Base (CBAR §VI-A Fig. 10, thesis §4.2.2\n"
		"Fig. 4.5; H17 of spec §9.2): routing.cc.threshold swept under UN at a high load\n"
		"(th too low misroutes uniform traffic) and under ADV+1 (th too high misroutes\n"
		"too late), with MIN under UN and OLM under ADV+1 as references. One `dfly sim`\n"
		"per pattern and threshold. Written to DIR: PATTERN-thN.csv / .txt and\n"
		"PATTERN-MECH.csv / .txt (the references), threshold.csv (averaged over the\n"
		"seeds: pattern,offered,mechanism,th,seeds,accepted,lat_avg,lat_p99,\n"
		"misrouted_pct,invariants), threshold.png (drawn by scripts/plot-threshold.sh),\n"
		"commands.sh and summary.txt. The summary prints the rule of spec §5.8 for the\n"
		"network (th >= 2 v and th <= p, as `dfly topo` prints it) next to what the\n"
		"sweep shows: the thresholds whose UN latency is within 2%% of MIN's and those\n"
		"whose ADV+1 latency is within 5%% of the best of the sweep (and that accept the\n"
		"offered load).\n"
		"\n"
		"options:\n"
		"  --scale S         network configs/S.cfg: h4 (default), h2 or cfg-t (very slow)\n"
		"  --th LO:HI[:STEP] thresholds (default 2:14:1; 2:14:4 with --quick)\n"
		"  --load-un X       UN load (default 0.7: just below MIN's UN saturation on h4)\n"
		"  --load-adv X      ADV+1 load (default 0.3)\n"
		"  --seeds N         seeds per point (default 1)\n"
		"  --warmup C        sim.warmup cycles (default 10000; 2000 with --quick)\n"
		"  --measure C       sim.measure cycles (default 10000; 2000 with --quick)\n"
		"  --out DIR         output directory (default out/repro-threshold; created)\n"
		"  --quick, --jobs J, --dry-run, --report-only, --help: as dfly repro steady\n"
		"\n"
		"On h4 with the defaults, about 5 minutes on one core.\n"
		"\n"
		"Exit status: 0 if every run and figure succeeded; 1 if a run failed or a figure\n"
		"could not be drawn; 2 on a usage error.\n");
}

/* A load option: a number in (0, 1]. */
static bool sweep_is_load(const char *s)
{
	char *end;
	double x = strtod(s, &end);

	return end != s && *end == '\0' && x > 0 && x <= 1;
}

/*
 * A --loads value of `dfly sim`: A:B:STEP with 0 < A <= B <= 1, or a list of loads; at most
 * SWEEP_MAX_LOADS of them (the points of a job the tables keep).
 */
static bool sweep_is_loads(const char *s)
{
	double a, b, step;
	char c, buf[64];
	char *save = NULL, *tok;
	unsigned n = 0;

	if (strchr(s, ':') != NULL)
		return sscanf(s, "%lf:%lf:%lf%c", &a, &b, &step, &c) == 3 && a > 0 && b >= a &&
		       b <= 1 && step > 0 && (b - a) / step + 1e-6 < SWEEP_MAX_LOADS;
	snprintf(buf, sizeof(buf), "%s", s);
	if (buf[0] == '\0' || buf[0] == ',' || buf[strlen(buf) - 1] == ',' || strstr(buf, ",,"))
		return false;
	for (tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save))
		if (!sweep_is_load(tok) || ++n > SWEEP_MAX_LOADS)
			return false;
	return true;
}

/*
 * Parse the options of experiment @p exp ("steady" or "threshold") into @p o.
 * @return -1 to go on, else the exit status (0 for --help, 2 on a usage error).
 */
static int sweep_parse(const char *exp, int argc, char **argv, struct sweep_opts *o)
{
	static const struct option opts[] = {
	    {"scale", required_argument, NULL, 'a'},
	    {"seeds", required_argument, NULL, 'k'},
	    {"warmup", required_argument, NULL, 'w'},
	    {"measure", required_argument, NULL, 'm'},
	    {"out", required_argument, NULL, 'o'},
	    {"quick", no_argument, NULL, 'Q'},
	    {"jobs", required_argument, NULL, 'j'},
	    {"dry-run", no_argument, NULL, 'n'},
	    {"report-only", no_argument, NULL, 'r'},
	    {"help", no_argument, NULL, 'h'},
	    {"loads-un", required_argument, NULL, 'U'},
	    {"loads-adv", required_argument, NULL, 'A'},
	    {"load-un", required_argument, NULL, 'u'},
	    {"load-adv", required_argument, NULL, 'v'},
	    {"th", required_argument, NULL, 't'},
	    {"patterns", required_argument, NULL, 'P'},
	    {NULL, 0, NULL, 0},
	};
	bool steady = strcmp(exp, "steady") == 0;
	void (*usage)(FILE *) = steady ? usage_steady : usage_threshold;
	bool have_warmup = false, have_measure = false, have_th = false;
	char cmd[64];
	int opt;

	memset(o, 0, sizeof(*o));
	o->scale = "h4";
	o->out = steady ? "out/repro-steady" : "out/repro-threshold";
	o->seeds = 1;
	o->njobs = 1;
	/* steady: 24 sweeps in ~32 min on h4 (PB ~15 s per point); threshold: single points */
	o->warmup = o->measure = steady ? 5000 : 10000;
	o->load_un = "0.7";
	o->load_adv = "0.3";
	o->pat[0] = o->pat[1] = o->pat[2] = true;
	snprintf(cmd, sizeof(cmd), "dfly repro %s", exp);
	optind = 1;
	while ((opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		uint64_t *v = NULL, max = 0;

		if (steady ? strchr("uvt", opt) != NULL : strchr("UAP", opt) != NULL) {
			fprintf(stderr, "dfly repro %s: --%s is an option of dfly repro %s\n", exp,
				opt == 'u'   ? "load-un"
				: opt == 'v' ? "load-adv"
				: opt == 't' ? "th"
				: opt == 'U' ? "loads-un"
				: opt == 'A' ? "loads-adv"
					     : "patterns",
				steady ? "threshold" : "steady");
			return 2;
		}
		switch (opt) {
		case 'a':
			if (strcmp(optarg, "h2") != 0 && strcmp(optarg, "h4") != 0 &&
			    strcmp(optarg, "cfg-t") != 0) {
				fprintf(stderr,
					"dfly repro %s: --scale %s: expected h2, h4 or cfg-t\n",
					exp, optarg);
				return 2;
			}
			o->scale = optarg;
			break;
		case 'k':
			v = &o->seeds;
			max = 10000;
			break;
		case 'j':
			v = &o->njobs;
			max = SWEEP_MAX_PAR;
			break;
		case 'w':
			v = &o->warmup;
			max = 100000000;
			have_warmup = true;
			break;
		case 'm':
			v = &o->measure;
			max = 100000000;
			have_measure = true;
			break;
		case 'o':
			o->out = optarg;
			break;
		case 'Q':
			o->quick = true;
			break;
		case 'n':
			o->dry = true;
			break;
		case 'r':
			o->report = true;
			break;
		case 'U':
		case 'A':
			if (strlen(optarg) >= 64 || !sweep_is_loads(optarg)) {
				fprintf(
				    stderr,
				    "dfly repro %s: --%s %s: expected LIST or A:B:STEP, loads in "
				    "(0, 1], at most %d\n",
				    exp, opt == 'U' ? "loads-un" : "loads-adv", optarg,
				    SWEEP_MAX_LOADS);
				return 2;
			}
			*(opt == 'U' ? &o->loads_un : &o->loads_adv) = optarg;
			break;
		case 'P': {
			static const char *const names[3] = {"un", "adv+1", "adv+h"};
			char buf[64], *rest = buf, *tok;

			snprintf(buf, sizeof(buf), "%s", optarg);
			memset(o->pat, 0, sizeof(o->pat));
			/* strsep: an empty item (un,,adv+1) is refused, not skipped */
			while ((tok = strsep(&rest, ",")) != NULL) {
				unsigned k;

				for (k = 0; k < 3 && strcmp(tok, names[k]) != 0; k++)
					;
				if (k == 3) {
					fprintf(
					    stderr,
					    "dfly repro %s: --patterns %s: expected a list of un, "
					    "adv+1, adv+h\n",
					    exp, optarg);
					return 2;
				}
				o->pat[k] = true;
			}
			if (!o->pat[0] && !o->pat[1] && !o->pat[2]) {
				fprintf(stderr, "dfly repro %s: --patterns: empty list\n", exp);
				return 2;
			}
			o->patterns = optarg;
			break;
		}
		case 'u':
		case 'v':
			if (!sweep_is_load(optarg) || strlen(optarg) >= 16) {
				fprintf(stderr,
					"dfly repro %s: --%s %s: expected a load in (0, 1]\n", exp,
					opt == 'u' ? "load-un" : "load-adv", optarg);
				return 2;
			}
			*(opt == 'u' ? &o->load_un : &o->load_adv) = optarg;
			break;
		case 't': {
			unsigned lo, hi, step = 1;
			char c;
			int k = sscanf(optarg, "%u:%u%c", &lo, &hi, &c);

			if (k == 3 && c == ':')
				k = sscanf(optarg, "%u:%u:%u%c", &lo, &hi, &step, &c) == 3 ? 2 : 0;
			if (k != 2 || lo < 1 || hi < lo || hi > SWEEP_MAX_TH || step < 1) {
				fprintf(
				    stderr,
				    "dfly repro %s: --th %s: expected LO:HI[:STEP] with 1 <= LO <= "
				    "HI <= %d\n",
				    exp, optarg, SWEEP_MAX_TH);
				return 2;
			}
			o->th_lo = lo;
			o->th_hi = hi;
			o->th_step = step;
			have_th = true;
			break;
		}
		case 'h':
			usage(stdout);
			return 0;
		default:
			return dfly_cli_opt_error(cmd, opts, opt, argv);
		}
		if (v != NULL && (transient_parse_u64(optarg, v) != 0 || *v == 0 || *v > max)) {
			fprintf(stderr, "dfly repro %s: --%s %s: expected a number in 1..%llu\n",
				exp,
				opt == 'k'   ? "seeds"
				: opt == 'j' ? "jobs"
				: opt == 'w' ? "warmup"
					     : "measure",
				optarg, (unsigned long long)max);
			return 2;
		}
	}
	if (optind != argc)
		return dfly_cli_usage_error(cmd, "unexpected argument '%s'", argv[optind]);
	if (o->dry && o->report) {
		fprintf(stderr, "dfly repro %s: --dry-run and --report-only exclude each other\n",
			exp);
		return 2;
	}
	if (o->quick && !have_warmup)
		o->warmup = 2000;
	if (o->quick && !have_measure)
		o->measure = 2000;
	if (o->loads_un == NULL)
		o->loads_un = o->quick ? "0.1:0.7:0.3" : "0.05:1:0.05";
	if (o->loads_adv == NULL)
		o->loads_adv =
		    o->quick ? "0.1:0.4:0.3" : "0.01,0.05,0.1,0.15,0.2,0.25,0.3,0.35,0.4,0.45,0.5";
	if (!have_th) {
		o->th_lo = 2;
		o->th_hi = 14;
		o->th_step = o->quick ? 4 : 1;
	}
	return -1;
}

/*
 * Reset @p j for a `dfly sim` job named @p name (its files DIR/NAME.csv and .txt) of pattern
 * @p pat, mechanism @p mech (a static string), threshold @p th (0: none), loads @p loads.
 */
static void sweep_job_init(struct sweep_job *j, const struct sweep_opts *o, const char *pat,
			   const char *mech, unsigned th, const char *name, const char *loads)
{
	struct repro_job *r = &j->job;

	repro_job_init(r, dfly_cmd_find("sim")->fn, "sim");
	j->mech = mech;
	j->th = th;
	j->off = false;
	j->n = 0;
	snprintf(j->pattern, sizeof(j->pattern), "%s", pat);
	snprintf(r->name, sizeof(r->name), "%s", name);
	snprintf(r->group, sizeof(r->group), "pattern %s, load%s %s", pat,
		 strpbrk(loads, ",:") ? "s" : "", loads);
	snprintf(r->csv, sizeof(r->csv), "%s/%s.csv", o->out, name);
	snprintf(r->txt, sizeof(r->txt), "%s/%s.txt", o->out, name);
}

/*
 * Fill @p j with a `dfly sim` job: network @p cfg, mechanism @p m (with its extra --set), the
 * pattern, one --set @p set if not NULL (copied), the windows and seeds of @p o, the loads.
 */
static void sweep_sim_job(struct sweep_job *j, const struct sweep_opts *o, const char *cfg,
			  const struct sweep_mech *m, const char *set, const char *loads)
{
	struct repro_job *r = &j->job;

	repro_arg(r, cfg);
	repro_arg(r, "--set");
	repro_argf(r, "routing.mechanism=%s", dfly_mode_name(m->mode));
	if (m->set) {
		repro_arg(r, "--set");
		repro_arg(r, m->set);
	}
	if (set) {
		repro_arg(r, "--set");
		repro_argf(r, "%s", set);
	}
	repro_arg(r, "--set");
	repro_argf(r, "traffic.pattern=%s", j->pattern);
	repro_arg(r, "--set");
	repro_argf(r, "sim.warmup=%llu", (unsigned long long)o->warmup);
	repro_arg(r, "--set");
	repro_argf(r, "sim.measure=%llu", (unsigned long long)o->measure);
	repro_arg(r, "--loads");
	repro_arg(r, loads);
	repro_arg(r, "--seed");
	repro_arg(r, "1");
	repro_arg(r, "--seeds");
	repro_argf(r, "%llu", (unsigned long long)o->seeds);
	repro_arg(r, "--csv");
	repro_arg(r, r->csv);
	repro_arg(r, "--quiet");
}

/* Index of column @p name in the CSV header @p hdr (modified), -1 if absent. */
static int sweep_col(char *hdr, const char *name)
{
	char buf[1024], *save = NULL, *tok;
	int i = 0;

	snprintf(buf, sizeof(buf), "%.1023s", hdr);
	buf[strcspn(buf, "\r\n")] = '\0';
	for (tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save), i++)
		if (strcmp(tok, name) == 0)
			return i;
	return -1;
}

/*
 * Read the `dfly sim` CSV of @p j and average its rows over the seeds, one point per offered
 * load. @return 0, -errno, or -EINVAL (malformed).
 */
static int sweep_read(struct sweep_job *j)
{
	static const char *const names[] = {"offered", "accepted",      "lat_avg",   "lat_p50",
					    "lat_p99", "misrouted_pct", "invariants"};
	FILE *f = fopen(j->job.csv, "r");
	char line[1024];
	int col[7], rc = 0;

	j->n = 0;
	if (f == NULL)
		return -errno;
	if (fgets(line, sizeof(line), f) == NULL) {
		rc = -EINVAL;
		goto out;
	}
	for (unsigned c = 0; c < 7; c++) {
		col[c] = sweep_col(line, names[c]);
		if (col[c] < 0) {
			rc = -EINVAL;
			goto out;
		}
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		double v[6] = {0};
		bool ok = false;
		char *save = NULL, *tok;
		int i = 0, got = 0;
		unsigned k;

		line[strcspn(line, "\r\n")] = '\0';
		for (tok = strtok_r(line, ",", &save); tok != NULL;
		     tok = strtok_r(NULL, ",", &save), i++) {
			for (unsigned c = 0; c < 7; c++) {
				if (col[c] != i)
					continue;
				if (c == 6)
					ok = strcmp(tok, "ok") == 0;
				else
					v[c] = strtod(tok, NULL);
				got++;
			}
		}
		if (got != 7) {
			rc = -EINVAL;
			goto out;
		}
		for (k = 0; k < j->n; k++)
			if (fabs(j->pt[k].offered - v[0]) < 1e-9)
				break;
		if (k == j->n) {
			if (j->n == SWEEP_MAX_LOADS) {
				rc = -E2BIG;
				goto out;
			}
			memset(&j->pt[k], 0, sizeof(j->pt[k]));
			j->pt[k].offered = v[0];
			j->pt[k].ok = true;
			j->n++;
		}
		j->pt[k].accepted += v[1];
		j->pt[k].lat += v[2];
		j->pt[k].p50 += v[3];
		j->pt[k].p99 += v[4];
		j->pt[k].mis += v[5];
		j->pt[k].ok &= ok;
		j->pt[k].seeds++;
	}
	for (unsigned k = 0; k < j->n; k++) {
		struct sweep_point *p = &j->pt[k];

		p->accepted /= p->seeds;
		p->lat /= p->seeds;
		p->p50 /= p->seeds;
		p->p99 /= p->seeds;
		p->mis /= p->seeds;
	}
	if (j->n == 0)
		rc = -EINVAL;
out:
	fclose(f);
	return rc;
}

/* The point of @p j at offered load @p x, or NULL. */
static const struct sweep_point *sweep_at(const struct sweep_job *j, double x)
{
	for (unsigned k = 0; k < j->n; k++)
		if (fabs(j->pt[k].offered - x) < 1e-9)
			return &j->pt[k];
	return NULL;
}

/*
 * Set up the paths of the batch: the executable, the configuration and the plot script @p plot,
 * the output directory (created). @return 0 or 2 (message printed).
 */
static int sweep_paths(const char *exp, const struct sweep_opts *o, const char *plot, char *self,
		       char *cfg, char *plot_sh, size_t len, struct dfly_netcfg *nc)
{
	char rel[64], err[DFLY_NETCFG_ERRLEN];
	int rc;

	repro_self(self, len);
	snprintf(rel, sizeof(rel), "configs/%s.cfg", o->scale);
	repro_src_path(rel, cfg, len);
	repro_src_path(plot, plot_sh, len);
	if (dfly_netcfg_load(nc, cfg, NULL, 0, err, sizeof(err)) != 0) {
		fprintf(stderr, "dfly repro %s: %s\n", exp, err);
		return 2;
	}
	rc = repro_mkdirs(o->out);
	if (rc != 0) {
		fprintf(stderr, "dfly repro %s: %s: %s\n", exp, o->out, strerror(-rc));
		return 2;
	}
	return 0;
}

/*
 * The common tail of both experiments after the jobs are set up: commands.sh (with the @p nplots
 * plot commands @p plots), the dry run, the runs or --report-only. @return -1 to go on to the
 * figures, else the exit status; *failed gets the number of failed jobs.
 */
static int sweep_run(const char *exp, const struct sweep_opts *o, struct repro_job *const *jobs,
		     unsigned n, const char *self, const char *title,
		     const char *const *const *plots, unsigned nplots, double wall0, int *failed)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/commands.sh", o->out);
	f = repro_commands_begin(path, title, jobs, n, self);
	if (f == NULL)
		return 2;
	fprintf(f,
		"# the figures, from the CSVs averaged over the seeds that dfly repro %s\n"
		"# writes (--report-only writes them from the CSVs above)\n",
		exp);
	for (unsigned p = 0; p < nplots; p++)
		repro_cmdline(f, plots[p][0], plots[p], 1, NULL);
	if (repro_commands_end(f, path) != 0)
		return 2;
	if (o->dry) {
		printf("# dfly repro %s: %u runs (dry run); commands in %s\n", exp, n, path);
		repro_cat(path);
		return 0;
	}
	printf("# %s: %u runs, %llu job(s); output in %s\n", title, n, (unsigned long long)o->njobs,
	       o->out);
	*failed = 0;
	if (o->report) {
		for (unsigned i = 0; i < n; i++) {
			jobs[i]->status = access(jobs[i]->csv, R_OK) == 0 ? 0 : 1;
			*failed += jobs[i]->status != 0;
		}
		return -1;
	}
	*failed = repro_run_jobs(jobs, n, (unsigned)o->njobs, self, wall0);
	return *failed < 0 ? 1 : -1;
}

/*
 * Write summary.txt: the title line, the tables of @p report (of the @p nsj sweep jobs @p sj), the
 * commands of the @p n jobs run. @return 0, -1.
 */
static int sweep_summary(const struct sweep_opts *o, const char *title,
			 struct repro_job *const *jobs, unsigned n, const char *self, double wall0,
			 void (*report)(FILE *, const struct sweep_job *, unsigned, const void *),
			 const struct sweep_job *sj, unsigned nsj, const void *arg)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/summary.txt", o->out);
	f = fopen(path, "w");
	if (f == NULL)
		return -1;
	fprintf(f, "# %s: %u runs", title, n);
	if (o->report)
		fprintf(f, " (tables redone with --report-only)\n");
	else
		fprintf(f, " in %.0f s\n", now_s() - wall0);
	report(f, sj, nsj, arg);
	fprintf(f, "\n# commands (also in commands.sh)\n");
	for (unsigned i = 0; i < n; i++)
		repro_cmdline(f, self, jobs[i]->argv, 0, jobs[i]->txt);
	return fclose(f) == 0 ? 0 : -1;
}

/* ---- dfly repro steady ------------------------------------------------------------------- */

/* What the steady tables need besides the jobs. */
struct steady_ctx {
	const char *patterns[SWEEP_MAX_PAT]; /**< steady: un, adv+1, adv+h; lia: and advc */
	bool sel[SWEEP_MAX_PAT];             /**< the patterns run (--patterns) */
	unsigned npat, nmech;                /**< jobs sj[pattern * nmech + mechanism] */
};

/* One value of a table cell: the figure, then * past saturation or ! invariants failed. */
static void steady_cell(FILE *f, const struct sweep_point *p, double v, const char *fmt)
{
	char buf[32];
	size_t k;

	if (p == NULL) {
		fprintf(f, " %8s", "-");
		return;
	}
	snprintf(buf, sizeof(buf), fmt, v);
	k = strlen(buf);
	if (!p->ok)
		buf[k++] = '!';
	else if (p->accepted < SWEEP_SAT * p->offered)
		buf[k++] = '*';
	buf[k] = '\0';
	fprintf(f, " %8s", buf);
}

/* The tables of the steady sweep: per pattern, saturation, then latency and % misrouted. */
static void steady_report(FILE *f, const struct sweep_job *sj, unsigned n, const void *arg)
{
	const struct steady_ctx *c = arg;

	for (unsigned p = 0; p < c->npat; p++) {
		double cols[SWEEP_LAT_COLS];
		unsigned ncol = 0, first = p * c->nmech;
		const struct sweep_job *j0 = NULL;
		bool before = false;

		if (!c->sel[p])
			continue;
		for (unsigned q = 0; q < p; q++)
			before = before || c->sel[q];
		/* the columns: every load if few, else the multiples of 0.1 and 0.01 */
		for (unsigned i = first; i < first + c->nmech && i < n; i++)
			if (j0 == NULL || sj[i].n > j0->n)
				j0 = &sj[i];
		for (unsigned k = 0; j0 != NULL && k < j0->n && ncol < SWEEP_LAT_COLS; k++) {
			double x = j0->pt[k].offered;

			if (j0->n <= 8 || fabs(x * 10 - round(x * 10)) < 1e-6 ||
			    fabs(x - 0.01) < 1e-9)
				cols[ncol++] = x;
		}
		fprintf(f, "%s== %s: saturation throughput and latency (cycles) by offered load\n",
			before ? "\n" : "", c->patterns[p]);
		fprintf(f, "%-9s %6s %5s %6s |", "mech", "sat", "at", "last");
		for (unsigned k = 0; k < ncol; k++)
			fprintf(f, " %8.2f", cols[k]);
		fputc('\n', f);
		for (unsigned i = first; i < first + c->nmech && i < n; i++) {
			const struct sweep_job *j = &sj[i];
			const struct sweep_point *best = NULL;

			if (j->off)
				continue;
			if (j->n == 0) {
				fprintf(f, "%-9s (no CSV, exit %d)\n", j->mech, j->job.status);
				continue;
			}
			for (unsigned k = 0; k < j->n; k++)
				if (best == NULL || j->pt[k].accepted > best->accepted)
					best = &j->pt[k];
			fprintf(f, "%-9s %6.4f %5.2f %6.4f |", j->mech, best->accepted,
				best->offered, j->pt[j->n - 1].accepted);
			for (unsigned k = 0; k < ncol; k++) {
				const struct sweep_point *q = sweep_at(j, cols[k]);

				steady_cell(f, q, q ? q->lat : 0, "%.1f");
			}
			fputc('\n', f);
		}
		fprintf(f, "%-9s %6s %5s %6s |", "% misr.", "", "", "");
		for (unsigned k = 0; k < ncol; k++)
			fprintf(f, " %8.2f", cols[k]);
		fputc('\n', f);
		for (unsigned i = first; i < first + c->nmech && i < n; i++) {
			const struct sweep_job *j = &sj[i];

			if (j->off || j->n == 0)
				continue;
			fprintf(f, "%-9s %6s %5s %6s |", j->mech, "", "", "");
			for (unsigned k = 0; k < ncol; k++) {
				const struct sweep_point *q = sweep_at(j, cols[k]);

				steady_cell(f, q, q ? q->mis : 0, "%.2f");
			}
			fputc('\n', f);
		}
	}
	fprintf(
	    f,
	    "\nsat: highest accepted load (phits/(node*cycle)) over the sweep, at offered load\n"
	    "'at'; last: accepted at the highest offered load; then average latency (cycles)\n"
	    "and %% of packets globally misrouted at each offered load; * past saturation\n"
	    "(accepted < %.2f x offered); ! a run's invariants failed; - not run.\n",
	    SWEEP_SAT);
}

/* Write DIR/steady-PATTERN.csv: the averaged points of the jobs of pattern @p p. */
static int steady_write_csv(const char *path, const struct sweep_job *sj, unsigned first)
{
	FILE *f = fopen(path, "w");

	if (f == NULL)
		return -errno;
	fprintf(f, "mechanism,offered,seeds,accepted,lat_avg,lat_p50,lat_p99,misrouted_pct,"
		   "invariants\n");
	for (unsigned i = first; i < first + SWEEP_NMECH; i++)
		for (unsigned k = 0; k < sj[i].n; k++) {
			const struct sweep_point *q = &sj[i].pt[k];

			fprintf(f, "%s,%.4f,%u,%.6f,%.3f,%.1f,%.1f,%.3f,%s\n", sj[i].mech,
				q->offered, q->seeds, q->accepted, q->lat, q->p50, q->p99, q->mis,
				q->ok ? "ok" : "FAILED");
		}
	return fclose(f) == 0 ? 0 : -EIO;
}

int repro_steady(int argc, char **argv)
{
	static struct sweep_job sj[3 * SWEEP_NMECH];
	struct repro_job *jobs[3 * SWEEP_NMECH];
	struct sweep_opts o;
	struct steady_ctx ctx;
	struct dfly_netcfg nc;
	char self[512], cfg[512], plot_sh[512], advh[16], title[256];
	char csv[3][512], png[3][512], ptitle[3][256];
	const char *plot_argv[3][8];
	const char *const *plots[3];
	unsigned n = 0, np = 0;
	int rc, failed = 0, status = 0;
	double wall0 = now_s();

	rc = sweep_parse("steady", argc, argv, &o);
	if (rc >= 0)
		return rc;
	rc = sweep_paths("steady", &o, "scripts/plot-steady.sh", self, cfg, plot_sh, sizeof(cfg),
			 &nc);
	if (rc)
		return rc;
	snprintf(advh, sizeof(advh), "adv+%u", nc.h);
	memset(&ctx, 0, sizeof(ctx));
	ctx.patterns[0] = "un";
	ctx.patterns[1] = "adv+1";
	ctx.patterns[2] = advh;
	ctx.npat = 3;
	ctx.nmech = SWEEP_NMECH;
	memcpy(ctx.sel, o.pat, sizeof(o.pat));
	/* every pattern's jobs exist (sj[pattern * SWEEP_NMECH + mech]); the selected ones run */
	for (unsigned p = 0; p < 3; p++) {
		const char *loads = p == 0 ? o.loads_un : o.loads_adv;

		for (unsigned m = 0; m < SWEEP_NMECH; m++) {
			struct sweep_job *j = &sj[p * SWEEP_NMECH + m];
			char name[32];

			if (o.pat[p])
				jobs[n++] = &j->job;
			snprintf(name, sizeof(name), "%s-%s", ctx.patterns[p],
				 dfly_mode_name(sweep_mechs[m].mode));
			sweep_job_init(j, &o, ctx.patterns[p], dfly_mode_name(sweep_mechs[m].mode),
				       0, name, loads);
			sweep_sim_job(j, &o, cfg, &sweep_mechs[m], NULL, loads);
		}
		snprintf(csv[p], sizeof(csv[p]), "%s/steady-%s.csv", o.out, ctx.patterns[p]);
		snprintf(png[p], sizeof(png[p]), "%s/steady-%s.png", o.out, ctx.patterns[p]);
		snprintf(ptitle[p], sizeof(ptitle[p]),
			 "%s: %s, warmup %llu + measure %llu cycles, %llu seed(s)", o.scale,
			 ctx.patterns[p], (unsigned long long)o.warmup,
			 (unsigned long long)o.measure, (unsigned long long)o.seeds);
		plot_argv[p][0] = plot_sh;
		plot_argv[p][1] = csv[p];
		plot_argv[p][2] = png[p];
		plot_argv[p][3] = ptitle[p];
		plot_argv[p][4] = NULL;
		if (o.pat[p])
			plots[np++] = plot_argv[p];
	}
	snprintf(title, sizeof(title),
		 "dfly repro steady --scale %s --seeds %llu --warmup %llu --measure %llu "
		 "--loads-un %s --loads-adv %s%s%s",
		 o.scale, (unsigned long long)o.seeds, (unsigned long long)o.warmup,
		 (unsigned long long)o.measure, o.loads_un, o.loads_adv,
		 o.patterns ? " --patterns " : "", o.patterns ? o.patterns : "");
	rc = sweep_run("steady", &o, jobs, n, self, title, plots, np, wall0, &failed);
	if (rc >= 0)
		return rc;

	/* averages, figures, tables */
	for (unsigned i = 0; i < 3 * SWEEP_NMECH; i++) {
		struct repro_job *r = &sj[i].job;

		if (!o.pat[i / SWEEP_NMECH] || (r->status != 0 && access(r->csv, R_OK) != 0))
			continue;
		rc = sweep_read(&sj[i]);
		if (rc) {
			fprintf(stderr, "dfly repro steady: %s: %s\n", r->csv, strerror(-rc));
			status = 1;
		}
	}
	for (unsigned p = 0; p < 3; p++) {
		if (!o.pat[p])
			continue;
		rc = steady_write_csv(csv[p], sj, p * SWEEP_NMECH);
		if (rc) {
			fprintf(stderr, "dfly repro steady: %s: %s\n", csv[p], strerror(-rc));
			status = 1;
			continue;
		}
		printf("plot: ");
		repro_cmdline(stdout, plot_argv[p][0], plot_argv[p], 1, NULL);
		if (repro_exec(plot_argv[p]) != 0) {
			fprintf(stderr, "dfly repro steady: %s: plot failed\n", png[p]);
			status = 1;
		}
	}
	printf("\n");
	steady_report(stdout, sj, 3 * SWEEP_NMECH, &ctx);
	if (sweep_summary(&o, title, jobs, n, self, wall0, steady_report, sj, 3 * SWEEP_NMECH,
			  &ctx) != 0)
		status = 1;
	printf("# %u/%u runs ok in %.0f s; tables in %s/summary.txt\n", n - failed, n,
	       now_s() - wall0, o.out);
	return failed ? 1 : status;
}

/* ---- dfly repro threshold ---------------------------------------------------------------- */

/* What the threshold tables need besides the jobs. */
struct threshold_ctx {
	const struct dfly_netcfg *nc; /**< the network, for the rule of spec §5.8 */
	unsigned nth; /**< thresholds per pattern; jobs: UN ths, MIN, ADV ths, OLM */
};

/* Print the thresholds of @p ok (indexed by th) as ranges: "2..5, 7", "none". */
static void threshold_ranges(FILE *f, const bool *ok, unsigned lo, unsigned hi)
{
	bool any = false;

	for (unsigned t = lo; t <= hi; t++) {
		unsigned e = t;

		if (!ok[t])
			continue;
		while (e + 1 <= hi && ok[e + 1])
			e++;
		fprintf(f, "%s%u", any ? ", " : "", t);
		if (e > t)
			fprintf(f, "..%u", e);
		any = true;
		t = e;
	}
	if (!any)
		fprintf(f, "none");
}

/* The tables of the threshold sweep, the rule and what the sweep shows. */
static void threshold_report(FILE *f, const struct sweep_job *sj, unsigned n, const void *arg)
{
	const struct threshold_ctx *c = arg;
	const struct sweep_job *un = sj, *un_ref = sj + c->nth, *adv = sj + c->nth + 1,
			       *adv_ref = sj + 2 * c->nth + 1;
	bool un_ok[SWEEP_MAX_TH + 2] = {false}, adv_ok[SWEEP_MAX_TH + 2] = {false};
	bool both[SWEEP_MAX_TH + 2] = {false};
	double best = INFINITY;
	unsigned best_th = 0, lo = SWEEP_MAX_TH, hi = 0;
	struct dfly_topo *t;

	(void)n;
	fprintf(f, "%-6s | %-32s | %s\n", "", "UN", "ADV+1");
	fprintf(f, "%-6s | %7s %7s %7s %8s | %7s %7s %7s %8s\n", "th", "acc", "lat", "p99", "misr%",
		"acc", "lat", "p99", "misr%");
	for (unsigned i = 0; i <= c->nth; i++) {
		const struct sweep_job *js[2] = {i < c->nth ? &un[i] : un_ref,
						 i < c->nth ? &adv[i] : adv_ref};
		char lab[16];

		if (i < c->nth)
			snprintf(lab, sizeof(lab), "%u", un[i].th);
		else
			snprintf(lab, sizeof(lab), "ref");
		fprintf(f, "%-6s |", lab);
		for (unsigned p = 0; p < 2; p++) {
			const struct sweep_point *q = js[p]->n ? &js[p]->pt[0] : NULL;

			if (q == NULL)
				fprintf(f, " %33s", "(no CSV)");
			else
				fprintf(f, " %7.4f %7.1f %7.1f %7.2f%c", q->accepted, q->lat,
					q->p99, q->mis, !q->ok ? '!' : ' ');
			fprintf(f, "%s", p == 0 ? "|" : "\n");
		}
	}
	fprintf(f,
		"load: UN %.2f, ADV+1 %.2f; ref: MIN under UN, OLM under ADV+1; ! a run's "
		"invariants failed\n",
		un[0].n ? un[0].pt[0].offered : NAN, adv[0].n ? adv[0].pt[0].offered : NAN);

	/* what the sweep shows */
	for (unsigned i = 0; i < c->nth; i++)
		if (adv[i].n && adv[i].pt[0].lat < best) {
			best = adv[i].pt[0].lat;
			best_th = adv[i].th;
		}
	for (unsigned i = 0; i < c->nth; i++) {
		unsigned th = un[i].th;

		lo = th < lo ? th : lo;
		hi = th > hi ? th : hi;
		un_ok[th] = un[i].n && un_ref->n &&
			    un[i].pt[0].lat <= (1 + SWEEP_TH_UN_TOL) * un_ref->pt[0].lat &&
			    un[i].pt[0].accepted >= SWEEP_SAT * un[i].pt[0].offered;
		adv_ok[th] = adv[i].n && adv[i].pt[0].lat <= (1 + SWEEP_TH_ADV_TOL) * best &&
			     adv[i].pt[0].accepted >= SWEEP_SAT * adv[i].pt[0].offered;
		both[th] = un_ok[th] && adv_ok[th];
	}
	fprintf(f, "\nrule of spec §5.8 (dfly topo):\n  ");
	t = dfly_topo_create(c->nc->p, c->nc->a, c->nc->h, c->nc->t, c->nc->arr, c->nc->sigma);
	if (t != NULL) {
		dfly_cc_rule(f, c->nc, t);
		dfly_topo_destroy(t);
	} else {
		fprintf(f, "(cannot build the topology)\n");
	}
	fprintf(f, "what the sweep shows (th %u..%u):\n", lo, hi);
	fprintf(f, "  UN: latency within %.0f%% of MIN's and the load accepted: th ",
		100 * SWEEP_TH_UN_TOL);
	threshold_ranges(f, un_ok, lo, hi);
	fprintf(f,
		"\n  ADV+1: latency within %.0f%% of the best (th %u, %.1f cycles), load "
		"accepted: th ",
		100 * SWEEP_TH_ADV_TOL, best_th, best);
	threshold_ranges(f, adv_ok, lo, hi);
	fprintf(f, "\n  both: th ");
	threshold_ranges(f, both, lo, hi);
	fputc('\n', f);
}

/* Write DIR/threshold.csv: the averaged points, UN then ADV+1, the references last of each. */
static int threshold_write_csv(const char *path, const struct sweep_job *sj, unsigned n)
{
	FILE *f = fopen(path, "w");

	if (f == NULL)
		return -errno;
	fprintf(f, "pattern,offered,mechanism,th,seeds,accepted,lat_avg,lat_p99,misrouted_pct,"
		   "invariants\n");
	for (unsigned i = 0; i < n; i++)
		for (unsigned k = 0; k < sj[i].n; k++) {
			const struct sweep_point *q = &sj[i].pt[k];
			char th[16] = "";

			if (sj[i].th)
				snprintf(th, sizeof(th), "%u", sj[i].th);
			fprintf(f, "%s,%.4f,%s,%s,%u,%.6f,%.3f,%.1f,%.3f,%s\n", sj[i].pattern,
				q->offered, sj[i].mech, th, q->seeds, q->accepted, q->lat, q->p99,
				q->mis, q->ok ? "ok" : "FAILED");
		}
	return fclose(f) == 0 ? 0 : -EIO;
}

int repro_threshold(int argc, char **argv)
{
	static const struct sweep_mech base = {DFLY_MODE_BASE, NULL};
	static struct sweep_job sj[SWEEP_MAX_JOBS];
	static struct repro_job *jobs[SWEEP_MAX_JOBS];
	struct sweep_opts o;
	struct threshold_ctx ctx;
	struct dfly_netcfg nc;
	struct dfly_topo *t;
	char self[512], cfg[512], plot_sh[512], title[256], csv[512], png[512], ptitle[256];
	char range[32];
	const char *plot_argv[8];
	const char *const *plots[1] = {plot_argv};
	unsigned n = 0, lo;
	int rc, failed = 0, status = 0;
	double wall0 = now_s();

	rc = sweep_parse("threshold", argc, argv, &o);
	if (rc >= 0)
		return rc;
	rc = sweep_paths("threshold", &o, "scripts/plot-threshold.sh", self, cfg, plot_sh,
			 sizeof(cfg), &nc);
	if (rc)
		return rc;
	ctx.nc = &nc;
	ctx.nth = 0;
	for (uint64_t th = o.th_lo; th <= o.th_hi; th += o.th_step)
		ctx.nth++;
	for (unsigned p = 0; p < 2; p++) {
		const struct sweep_mech *ref = &sweep_mechs[p == 0 ? 0 : 2]; /* min, olm */
		const char *load = p == 0 ? o.load_un : o.load_adv;

		for (unsigned i = 0; i <= ctx.nth; i++) {
			struct sweep_job *j = &sj[n];
			const char *pat = p == 0 ? "un" : "adv+1";
			unsigned th = i < ctx.nth ? (unsigned)(o.th_lo + i * o.th_step) : 0;
			char name[32], set[48];

			jobs[n++] = &j->job;
			if (th)
				snprintf(name, sizeof(name), "%s-th%u", pat, th);
			else
				snprintf(name, sizeof(name), "%s-%s", pat,
					 dfly_mode_name(ref->mode));
			sweep_job_init(j, &o, pat, dfly_mode_name(th ? base.mode : ref->mode), th,
				       name, load);
			snprintf(set, sizeof(set), "routing.cc.threshold=%u", th);
			sweep_sim_job(j, &o, cfg, th ? &base : ref, th ? set : NULL, load);
		}
	}
	t = dfly_topo_create(nc.p, nc.a, nc.h, nc.t, nc.arr, nc.sigma);
	if (t == NULL) {
		fprintf(stderr, "dfly repro threshold: cannot build the topology\n");
		return 2;
	}
	lo = dfly_cc_rule(NULL, &nc, t);
	snprintf(range, sizeof(range), "%u:%u", lo, t->p);
	dfly_topo_destroy(t);
	snprintf(csv, sizeof(csv), "%s/threshold.csv", o.out);
	snprintf(png, sizeof(png), "%s/threshold.png", o.out);
	snprintf(ptitle, sizeof(ptitle),
		 "%s: Base, routing.cc.threshold swept; warmup %llu + measure %llu cycles, %llu "
		 "seed(s)",
		 o.scale, (unsigned long long)o.warmup, (unsigned long long)o.measure,
		 (unsigned long long)o.seeds);
	plot_argv[0] = plot_sh;
	plot_argv[1] = "--rule";
	plot_argv[2] = range;
	plot_argv[3] = csv;
	plot_argv[4] = png;
	plot_argv[5] = ptitle;
	plot_argv[6] = NULL;
	snprintf(title, sizeof(title),
		 "dfly repro threshold --scale %s --th %llu:%llu:%llu --load-un %s --load-adv %s "
		 "--seeds %llu --warmup %llu --measure %llu",
		 o.scale, (unsigned long long)o.th_lo, (unsigned long long)o.th_hi,
		 (unsigned long long)o.th_step, o.load_un, o.load_adv, (unsigned long long)o.seeds,
		 (unsigned long long)o.warmup, (unsigned long long)o.measure);
	rc = sweep_run("threshold", &o, jobs, n, self, title, plots, 1, wall0, &failed);
	if (rc >= 0)
		return rc;

	for (unsigned i = 0; i < n; i++) {
		if (jobs[i]->status != 0 && access(jobs[i]->csv, R_OK) != 0)
			continue;
		rc = sweep_read(&sj[i]);
		if (rc) {
			fprintf(stderr, "dfly repro threshold: %s: %s\n", jobs[i]->csv,
				strerror(-rc));
			status = 1;
		}
	}
	rc = threshold_write_csv(csv, sj, n);
	if (rc) {
		fprintf(stderr, "dfly repro threshold: %s: %s\n", csv, strerror(-rc));
		status = 1;
	} else {
		printf("plot: ");
		repro_cmdline(stdout, plot_argv[0], plot_argv, 1, NULL);
		if (repro_exec(plot_argv) != 0) {
			fprintf(stderr, "dfly repro threshold: %s: plot failed\n", png);
			status = 1;
		}
	}
	printf("\n");
	threshold_report(stdout, sj, n, &ctx);
	if (sweep_summary(&o, title, jobs, n, self, wall0, threshold_report, sj, n, &ctx) != 0)
		status = 1;
	printf("# %u/%u runs ok in %.0f s; tables in %s/summary.txt\n", n - failed, n,
	       now_s() - wall0, o.out);
	return failed ? 1 : status;
}

/* ---- dfly repro lia ---------------------------------------------------------------------- */

/*
 * The LIA paper's mechanisms (LIA §5, Table 1; spec §6.9) in the order of its figures, then the
 * counter models of H37 (LIA with w = 0, injected only, and w = 1), run under UN and ADV+1 only.
 * The router and PB's F and Z come from the configuration (configs/h4-l.cfg, cfg-l.cfg).
 */
static const struct sweep_mech lia_mechs[] = {
    {DFLY_MODE_MIN, NULL, NULL},
    {DFLY_MODE_VAL, "routing.val.path_a=-g-", "vlb"}, /* VLB -G-: Valiant without local hops */
    {DFLY_MODE_VAL, NULL, NULL},                      /* LGL */
    {DFLY_MODE_UGAL_G, NULL, NULL},
    {DFLY_MODE_PB, NULL, NULL},
    {DFLY_MODE_PB_ACOR, NULL, NULL},
    {DFLY_MODE_TPR, NULL, NULL},
    {DFLY_MODE_LIA, NULL, NULL},
    {DFLY_MODE_LIA, "routing.lia.w=0", "lia-w0"},
    {DFLY_MODE_LIA, "routing.lia.w=1", "lia-w1"},
};

#define LIA_NMECH (sizeof(lia_mechs) / sizeof(lia_mechs[0]))
#define LIA_NMAIN 8  /* lia_mechs[0..7]: the figures; then the H37 variants */
#define LIA_NPAT  4  /* un, adv+1, adv+h, advc */
#define LIA_ADVC  3  /* index of advc */
#define LIA_MAX_A 64 /* routers per group read from the counters */

/* The options of dfly repro lia besides the sweep's. */
struct lia_opts {
	const char *loads[LIA_NPAT]; /**< --loads-un, --loads-adv1, --loads-advh, --loads-advc */
	const char *cload;           /**< --counters-load: the ADVc load of the per-switch table */
};

static void usage_lia(FILE *f)
{
	fprintf(
	    f, "usage: dfly repro lia [--scale h4-l|cfg-l|h2] [--seeds N] [--warmup C]\n"
	       "                      [--measure C] [--loads-un L] [--loads-adv1 L]\n"
	       "                      [--loads-advh L] [--loads-advc L] [--counters-load X]\n"
	       "                      [--patterns LIST] [--out DIR] [--quick] [--jobs J]\n"
	       "                      [--dry-run | --report-only]\n"
	       "\n"
	       "Reproduce the steady-state figures of the LIA paper (spec §6.9; H31-H37 of spec\n"
	       "§9): latency and accepted load against offered load under UN, ADV+1, ADV+h (h of\n"
	       "the network: adv+4 on h4-l) and ADVc for MIN, VLB (Valiant -G-: val with\n"
	       "routing.val.path_a=-g-), VAL (LGL), UGAL-G, PB, PB-ACOR, TPR and LIA; LIA with\n"
	       "routing.lia.w=0 and w=1 under UN and ADV+1 (H37, labelled lia-w0 and lia-w1);\n"
	       "and the per-switch injected load in group 0 under ADVc (H35), from `dfly sim\n"
	       "--counters`. One `dfly sim` per pattern and mechanism, over all the loads.\n"
	       "Written to DIR: PATTERN-LABEL.csv (one row per load and seed) and .txt, and\n"
	       "advc-LABEL.counters; lia-PATTERN.csv (averaged over the seeds, the columns of\n"
	       "dfly repro steady) and lia-PATTERN.png (scripts/plot-steady.sh); lia-w-un.csv,\n"
	       "lia-w-adv+1.csv and .png (LIA against its w variants); lia-advc-switch.csv\n"
	       "(mechanism,router,window_pkts,load,rel,run_pkts,l1_paths per router of group 0\n"
	       "at the ADVc load X: packets out of its injection buffers in the measurement\n"
	       "window, as phits/(node*cycle) and / the group's mean; over the whole run; and\n"
	       "the LG- and LGL paths it drew, the L1 paths) and lia-advc-switch.png\n"
	       "(scripts/plot-lia-switch.sh); commands.sh and summary.txt (the tables, also\n"
	       "printed on stdout).\n"
	       "\n"
	       "options:\n"
	       "  --scale S         network configs/S.cfg: h4-l (default; h=4, 264 routers,\n"
	       "                    1,056 nodes, the CFG-L router), cfg-l (h=6, 876 routers,\n"
	       "                    5,256 nodes, the paper's size: VERY slow, about 3.5x the\n"
	       "                    routers; see docs/lia.md for the measured speed) or h2\n"
	       "                    (36 routers: tests)\n"
	       "  --seeds N         seeds per point, 1..N (default 1)\n"
	       "  --warmup C        sim.warmup cycles (default 3000; 1000 with --quick)\n"
	       "  --measure C       sim.measure cycles (default 3000; 1000 with --quick)\n"
	       "  --loads-un L      UN loads, a `dfly sim --loads` value (default 0.3,0.9;\n"
	       "                    0.3,0.6 with --quick)\n"
	       "  --loads-adv1 L    ADV+1 loads (default 0.1,0.3,0.5,0.9: 10%% and 30%% for H32,\n"
	       "                    past saturation for H34; 0.1,0.4 with --quick)\n"
	       "  --loads-advh L    ADV+h loads (default 0.03,0.25,0.5: 1/(2h^2), 1/h and 0.5 of\n"
	       "                    H33 on h4-l; 0.1,0.4 with --quick)\n"
	       "  --loads-advc L    ADVc loads (default 0.5; 0.5 with --quick)\n"
	       "  --counters-load X the ADVc load of the per-switch table (default 0.5; one of\n"
	       "                    the ADVc loads)\n"
	       "  --patterns LIST   run only these of un, adv+1, adv+h, advc (comma-separated)\n"
	       "  --out DIR         output directory (default out/repro-lia; created)\n"
	       "  --quick           short windows and 1-2 loads per pattern: a smoke test\n"
	       "  --jobs J          runs in parallel (default 1)\n"
	       "  --dry-run         print the commands and write DIR/commands.sh, run nothing\n"
	       "  --report-only     run nothing: redo the CSVs, figures and tables from the\n"
	       "                    CSVs and counters already in DIR\n"
	       "  --help            this text\n"
	       "\n"
	       "Tables: as dfly repro steady (sat, last, latency and %% misrouted per load), then\n"
	       "the per-switch table of ADVc: the load injected per router of group 0 in the\n"
	       "window, max/min, and the L1 paths.\n"
	       "\n"
	       "On h4-l with the defaults, about 15 minutes on one core (the points past\n"
	       "saturation, MIN's above all, drain the 5,040-phit injection buffers, which costs\n"
	       "most of it); cfg-l is about 9 times slower per cycle (about 2 hours, estimated\n"
	       "in docs/lia.md); a few seconds on h2 with --quick.\n"
	       "\n"
	       "Exit status: 0 if every run and figure succeeded; 1 if a run failed (deadlock,\n"
	       "no drain, invariant) or a figure could not be drawn; 2 on a usage error.\n");
}

/* Parse the options of dfly repro lia. @return -1 to go on, else the exit status. */
static int lia_parse(int argc, char **argv, struct sweep_opts *o, struct lia_opts *l)
{
	static const struct option opts[] = {
	    {"scale", required_argument, NULL, 'a'},
	    {"seeds", required_argument, NULL, 'k'},
	    {"warmup", required_argument, NULL, 'w'},
	    {"measure", required_argument, NULL, 'm'},
	    {"out", required_argument, NULL, 'o'},
	    {"quick", no_argument, NULL, 'Q'},
	    {"jobs", required_argument, NULL, 'j'},
	    {"dry-run", no_argument, NULL, 'n'},
	    {"report-only", no_argument, NULL, 'r'},
	    {"help", no_argument, NULL, 'h'},
	    {"loads-un", required_argument, NULL, '0'},
	    {"loads-adv1", required_argument, NULL, '1'},
	    {"loads-advh", required_argument, NULL, '2'},
	    {"loads-advc", required_argument, NULL, '3'},
	    {"counters-load", required_argument, NULL, 'c'},
	    {"patterns", required_argument, NULL, 'P'},
	    {NULL, 0, NULL, 0},
	};
	static const char *const lnames[LIA_NPAT] = {"loads-un", "loads-adv1", "loads-advh",
						     "loads-advc"};
	static const char *const pnames[LIA_NPAT] = {"un", "adv+1", "adv+h", "advc"};
	bool have_warmup = false, have_measure = false;
	int opt;

	memset(o, 0, sizeof(*o));
	memset(l, 0, sizeof(*l));
	o->scale = "h4-l";
	o->out = "out/repro-lia";
	o->seeds = 1;
	o->njobs = 1;
	o->warmup = o->measure = 3000;
	l->cload = "0.5";
	for (unsigned p = 0; p < LIA_NPAT; p++)
		o->pat[p] = true;
	optind = 1;
	while ((opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		uint64_t *v = NULL, max = 0;

		switch (opt) {
		case 'a':
			if (strcmp(optarg, "h4-l") != 0 && strcmp(optarg, "cfg-l") != 0 &&
			    strcmp(optarg, "h2") != 0) {
				fprintf(stderr,
					"dfly repro lia: --scale %s: expected h4-l, cfg-l or h2\n",
					optarg);
				return 2;
			}
			o->scale = optarg;
			break;
		case 'k':
			v = &o->seeds;
			max = 10000;
			break;
		case 'j':
			v = &o->njobs;
			max = SWEEP_MAX_PAR;
			break;
		case 'w':
			v = &o->warmup;
			max = 100000000;
			have_warmup = true;
			break;
		case 'm':
			v = &o->measure;
			max = 100000000;
			have_measure = true;
			break;
		case 'o':
			o->out = optarg;
			break;
		case 'Q':
			o->quick = true;
			break;
		case 'n':
			o->dry = true;
			break;
		case 'r':
			o->report = true;
			break;
		case '0':
		case '1':
		case '2':
		case '3':
			if (strlen(optarg) >= 64 || !sweep_is_loads(optarg)) {
				fprintf(
				    stderr,
				    "dfly repro lia: --%s %s: expected LIST or A:B:STEP, loads in "
				    "(0, 1], at most %d\n",
				    lnames[opt - '0'], optarg, SWEEP_MAX_LOADS);
				return 2;
			}
			l->loads[opt - '0'] = optarg;
			break;
		case 'c':
			if (!sweep_is_load(optarg)) {
				fprintf(stderr,
					"dfly repro lia: --counters-load %s: expected a load in "
					"(0, 1]\n",
					optarg);
				return 2;
			}
			l->cload = optarg;
			break;
		case 'P': {
			char buf[64], *rest = buf, *tok;

			snprintf(buf, sizeof(buf), "%s", optarg);
			memset(o->pat, 0, sizeof(o->pat));
			/* strsep: an empty item (un,,adv+1) is refused, not skipped */
			while ((tok = strsep(&rest, ",")) != NULL) {
				unsigned k;

				for (k = 0; k < LIA_NPAT && strcmp(tok, pnames[k]) != 0; k++)
					;
				if (k == LIA_NPAT) {
					fprintf(
					    stderr,
					    "dfly repro lia: --patterns %s: expected a list of un, "
					    "adv+1, adv+h, advc\n",
					    optarg);
					return 2;
				}
				o->pat[k] = true;
			}
			if (!o->pat[0] && !o->pat[1] && !o->pat[2] && !o->pat[3]) {
				fprintf(stderr, "dfly repro lia: --patterns: empty list\n");
				return 2;
			}
			o->patterns = optarg;
			break;
		}
		case 'h':
			usage_lia(stdout);
			return 0;
		default:
			return dfly_cli_opt_error("dfly repro lia", opts, opt, argv);
		}
		if (v != NULL && (transient_parse_u64(optarg, v) != 0 || *v == 0 || *v > max)) {
			fprintf(stderr, "dfly repro lia: --%s %s: expected a number in 1..%llu\n",
				opt == 'k'   ? "seeds"
				: opt == 'j' ? "jobs"
				: opt == 'w' ? "warmup"
					     : "measure",
				optarg, (unsigned long long)max);
			return 2;
		}
	}
	if (optind != argc)
		return dfly_cli_usage_error("dfly repro lia", "unexpected argument '%s'",
					    argv[optind]);
	if (o->dry && o->report) {
		fprintf(stderr, "dfly repro lia: --dry-run and --report-only exclude each other\n");
		return 2;
	}
	if (o->quick && !have_warmup)
		o->warmup = 1000;
	if (o->quick && !have_measure)
		o->measure = 1000;
	if (l->loads[0] == NULL)
		l->loads[0] = o->quick ? "0.3,0.6" : "0.3,0.9";
	if (l->loads[1] == NULL)
		l->loads[1] = o->quick ? "0.1,0.4" : "0.1,0.3,0.5,0.9";
	if (l->loads[2] == NULL)
		l->loads[2] = o->quick ? "0.1,0.4" : "0.03,0.25,0.5";
	if (l->loads[3] == NULL)
		l->loads[3] = "0.5";
	return -1;
}

/* Per router of group 0 under ADVc at the counters load, for one mechanism. */
struct lia_switch {
	uint64_t win[LIA_MAX_A]; /**< sim.inj_window: packets injected in the measurement window */
	uint64_t inj[LIA_MAX_A]; /**< route.inj_min + inj_val + inj_min_no_intermediate: run */
	uint64_t l1[LIA_MAX_A];  /**< route.path_lg + path_lgl: paths that keep the first L hop */
	bool ok;                 /**< the block of the load was found */
};

/*
 * Read the per-router counters of group 0 (routers 0..@p a - 1) from the run at load @p load of
 * the `dfly sim --counters` file @p path. @return 0, -errno, -ENOENT if no run at that load.
 */
static int lia_read_counters(const char *path, const char *load, unsigned a, struct lia_switch *s)
{
	FILE *f = fopen(path, "r");
	char line[256], want[64];
	bool in = false, found = false;
	long r = -1;

	memset(s, 0, sizeof(*s));
	if (f == NULL)
		return -errno;
	snprintf(want, sizeof(want), " load %.4f ", strtod(load, NULL));
	while (fgets(line, sizeof(line), f) != NULL) {
		char name[128];
		unsigned long long v;

		if (line[0] == '#') {
			in = strstr(line, want) != NULL;
			found = found || in;
			r = -1;
			continue;
		}
		if (!in)
			continue;
		if (sscanf(line, "router %ld", &r) == 1)
			continue;
		if (r < 0 || r >= (long)a || sscanf(line, " %127s %llu", name, &v) != 2)
			continue;
		if (strcmp(name, "route.inj_min") == 0 || strcmp(name, "route.inj_val") == 0 ||
		    strcmp(name, "route.inj_min_no_intermediate") == 0)
			s->inj[r] += v;
		else if (strcmp(name, "route.path_lg") == 0 || strcmp(name, "route.path_lgl") == 0)
			s->l1[r] += v;
		else if (strcmp(name, "sim.inj_window") == 0)
			s->win[r] = v;
	}
	fclose(f);
	s->ok = found;
	return found ? 0 : -ENOENT;
}

/* What the lia tables need besides the jobs. */
struct lia_ctx {
	struct steady_ctx steady;        /**< the load tables */
	struct lia_switch sw[LIA_NMAIN]; /**< ADVc per-switch counters per mechanism */
	unsigned a, p, phits;            /**< routers per group, nodes per router, packet */
	uint64_t measure;                /**< sim.measure: the window of win */
	const char *cload;               /**< the ADVc load of sw */
};

/* max/min of @p v over group 0's @p a routers, 0 if one is 0. */
static double lia_switch_ratio(const uint64_t *v, unsigned a)
{
	uint64_t mx = 0, mn = UINT64_MAX;

	for (unsigned r = 0; r < a; r++) {
		mx = v[r] > mx ? v[r] : mx;
		mn = v[r] < mn ? v[r] : mn;
	}
	return mn ? (double)mx / (double)mn : 0;
}

/* Packets per window of @p c as phits/(node*cycle). */
static double lia_switch_load(const struct lia_ctx *c, uint64_t pkts)
{
	return (double)pkts * c->phits / ((double)c->measure * c->p);
}

/* The tables of dfly repro lia: the load sweeps, then ADVc per switch. */
static void lia_report(FILE *f, const struct sweep_job *sj, unsigned n, const void *arg)
{
	const struct lia_ctx *c = arg;

	steady_report(f, sj, n, &c->steady);
	if (!c->steady.sel[LIA_ADVC])
		return;
	fprintf(f,
		"\n== advc %s: load injected per router of group 0 in the window (H35), L1 "
		"paths\n",
		c->cload);
	fprintf(f, "%-9s", "mech");
	for (unsigned r = 0; r < c->a && r < 16; r++)
		fprintf(f, " %5s%u", "r", r);
	fprintf(f, " %7s %7s %9s\n", "max/min", "run", "L1 paths");
	for (unsigned m = 0; m < LIA_NMAIN; m++) {
		const struct lia_switch *s = &c->sw[m];
		const struct sweep_job *j = &sj[LIA_ADVC * c->steady.nmech + m];
		uint64_t l1 = 0;

		if (!s->ok) {
			fprintf(f, "%-9s (no counters at load %s)\n", j->mech, c->cload);
			continue;
		}
		fprintf(f, "%-9s", j->mech);
		for (unsigned r = 0; r < c->a; r++) {
			if (r < 16)
				fprintf(f, " %6.3f", lia_switch_load(c, s->win[r]));
			l1 += s->l1[r];
		}
		fprintf(f, " %7.3f %7.3f %9llu", lia_switch_ratio(s->win, c->a),
			lia_switch_ratio(s->inj, c->a), (unsigned long long)l1);
		if (l1) {
			fprintf(f, " (r");
			for (unsigned r = 0, k = 0; r < c->a; r++)
				if (s->l1[r])
					fprintf(f, "%s%u", k++ ? ",r" : "", r);
			fputc(')', f);
		}
		fputc('\n', f);
	}
	fprintf(f,
		"\nrN: packets out of router N's injection buffers in the measurement window, in\n"
		"phits/(node*cycle) (sim.inj_window); max/min of them; run: max/min of the\n"
		"packets injected over the whole run (route.inj_*: warm-up, window, drain); L1\n"
		"paths: LG- and LGL paths drawn over the run, and the routers that drew them.\n");
}

/* Write the averaged points of the jobs sj[first + m] with want[m] to @p path. */
static int lia_write_csv(const char *path, const struct sweep_job *sj, unsigned first,
			 const bool *want)
{
	FILE *f = fopen(path, "w");

	if (f == NULL)
		return -errno;
	fprintf(f, "mechanism,offered,seeds,accepted,lat_avg,lat_p50,lat_p99,misrouted_pct,"
		   "invariants\n");
	for (unsigned m = 0; m < LIA_NMECH; m++)
		for (unsigned k = 0; want[m] && k < sj[first + m].n; k++) {
			const struct sweep_point *q = &sj[first + m].pt[k];

			fprintf(f, "%s,%.4f,%u,%.6f,%.3f,%.1f,%.1f,%.3f,%s\n", sj[first + m].mech,
				q->offered, q->seeds, q->accepted, q->lat, q->p50, q->p99, q->mis,
				q->ok ? "ok" : "FAILED");
		}
	return fclose(f) == 0 ? 0 : -EIO;
}

/* Write lia-advc-switch.csv: mechanism,router,window_pkts,load,rel,run_pkts,l1_paths. */
static int lia_write_switch(const char *path, const struct lia_ctx *c, const struct sweep_job *sj)
{
	FILE *f = fopen(path, "w");

	if (f == NULL)
		return -errno;
	fprintf(f, "mechanism,router,window_pkts,load,rel,run_pkts,l1_paths\n");
	for (unsigned m = 0; m < LIA_NMAIN; m++) {
		const struct lia_switch *s = &c->sw[m];
		double mean = 0;

		if (!s->ok)
			continue;
		for (unsigned r = 0; r < c->a; r++)
			mean += (double)s->win[r] / c->a;
		for (unsigned r = 0; r < c->a; r++)
			fprintf(f, "%s,%u,%llu,%.4f,%.4f,%llu,%llu\n",
				sj[LIA_ADVC * c->steady.nmech + m].mech, r,
				(unsigned long long)s->win[r], lia_switch_load(c, s->win[r]),
				mean > 0 ? s->win[r] / mean : 0, (unsigned long long)s->inj[r],
				(unsigned long long)s->l1[r]);
	}
	return fclose(f) == 0 ? 0 : -EIO;
}

int repro_lia(int argc, char **argv)
{
	static struct sweep_job sj[LIA_NPAT * LIA_NMECH];
	static struct lia_ctx ctx;
	struct repro_job *jobs[LIA_NPAT * LIA_NMECH];
	struct sweep_opts o;
	struct lia_opts lo;
	struct dfly_netcfg nc;
	char self[512], cfg[512], plot_sh[512], sw_sh[512], advh[16], title[512];
	char cnt[LIA_NMAIN][512];
	/* figures: the 4 patterns, the 2 of H37 (w), ADVc per switch */
	char csv[7][512], png[7][512], ptitle[7][256];
	const char *plot_argv[7][8];
	const char *const *plots[7];
	bool fig[7] = {false};
	unsigned n = 0, np = 0;
	int rc, failed = 0, status = 0;
	double wall0 = now_s();

	rc = lia_parse(argc, argv, &o, &lo);
	if (rc >= 0)
		return rc;
	rc = sweep_paths("lia", &o, "scripts/plot-steady.sh", self, cfg, plot_sh, sizeof(cfg), &nc);
	if (rc)
		return rc;
	repro_src_path("scripts/plot-lia-switch.sh", sw_sh, sizeof(sw_sh));
	if (nc.a > LIA_MAX_A) {
		fprintf(stderr, "dfly repro lia: a = %u routers per group, at most %d\n", nc.a,
			LIA_MAX_A);
		return 2;
	}
	snprintf(advh, sizeof(advh), "adv+%u", nc.h);
	memset(&ctx, 0, sizeof(ctx));
	ctx.steady.patterns[0] = "un";
	ctx.steady.patterns[1] = "adv+1";
	ctx.steady.patterns[2] = advh;
	ctx.steady.patterns[3] = "advc";
	ctx.steady.npat = LIA_NPAT;
	ctx.steady.nmech = LIA_NMECH;
	memcpy(ctx.steady.sel, o.pat, sizeof(ctx.steady.sel));
	ctx.a = nc.a;
	ctx.p = nc.p;
	ctx.phits = nc.pkt_phits;
	ctx.measure = o.measure;
	ctx.cload = lo.cload;
	for (unsigned p = 0; p < LIA_NPAT; p++) {
		const char *pat = ctx.steady.patterns[p];

		for (unsigned m = 0; m < LIA_NMECH; m++) {
			const struct sweep_mech *me = &lia_mechs[m];
			const char *label = me->label ? me->label : dfly_mode_name(me->mode);
			struct sweep_job *j = &sj[p * LIA_NMECH + m];
			struct repro_job *r = &j->job;
			char name[32];

			snprintf(name, sizeof(name), "%s-%s", pat, label);
			sweep_job_init(j, &o, pat, label, 0, name, lo.loads[p]);
			/* the mechanism's --set is in me->set: sweep_sim_job adds it */
			sweep_sim_job(j, &o, cfg, me, NULL, lo.loads[p]);
			j->off = m >= LIA_NMAIN && p >= 2; /* H37: UN and ADV+1 only */
			if (p == LIA_ADVC && m < LIA_NMAIN) {
				snprintf(cnt[m], sizeof(cnt[m]), "%s/%s.counters", o.out, name);
				repro_arg(r, "--counters");
				repro_arg(r, cnt[m]);
			}
			if (o.pat[p] && !j->off)
				jobs[n++] = r;
		}
	}
	for (unsigned i = 0; i < 7; i++) {
		const char *base = i < 4    ? ctx.steady.patterns[i]
				   : i == 4 ? "w-un"
				   : i == 5 ? "w-adv+1"
					    : "advc-switch";

		fig[i] = i < 4 ? o.pat[i] : i < 6 ? o.pat[i - 4] : o.pat[LIA_ADVC];
		snprintf(csv[i], sizeof(csv[i]), "%s/lia-%s.csv", o.out, base);
		snprintf(png[i], sizeof(png[i]), "%s/lia-%s.png", o.out, base);
		if (i < 6)
			snprintf(ptitle[i], sizeof(ptitle[i]),
				 "%s: %s%s, warmup %llu + measure %llu cycles, %llu seed(s)",
				 o.scale, i < 4 ? base : base + 2,
				 i < 4 ? "" : " (LIA, routing.lia.w)", (unsigned long long)o.warmup,
				 (unsigned long long)o.measure, (unsigned long long)o.seeds);
		else
			snprintf(ptitle[i], sizeof(ptitle[i]),
				 "%s: ADVc %s, packets injected per router of group 0 / mean",
				 o.scale, lo.cload);
		plot_argv[i][0] = i < 6 ? plot_sh : sw_sh;
		plot_argv[i][1] = csv[i];
		plot_argv[i][2] = png[i];
		plot_argv[i][3] = ptitle[i];
		plot_argv[i][4] = NULL;
		if (fig[i])
			plots[np++] = plot_argv[i];
	}
	snprintf(
	    title, sizeof(title),
	    "dfly repro lia --scale %s --seeds %llu --warmup %llu --measure %llu --loads-un %s "
	    "--loads-adv1 %s --loads-advh %s --loads-advc %s --counters-load %s%s%s",
	    o.scale, (unsigned long long)o.seeds, (unsigned long long)o.warmup,
	    (unsigned long long)o.measure, lo.loads[0], lo.loads[1], lo.loads[2], lo.loads[3],
	    lo.cload, o.patterns ? " --patterns " : "", o.patterns ? o.patterns : "");
	rc = sweep_run("lia", &o, jobs, n, self, title, plots, np, wall0, &failed);
	if (rc >= 0)
		return rc;

	/* averages, counters, figures, tables */
	for (unsigned i = 0; i < LIA_NPAT * LIA_NMECH; i++) {
		struct repro_job *r = &sj[i].job;

		if (!o.pat[i / LIA_NMECH] || sj[i].off ||
		    (r->status != 0 && access(r->csv, R_OK) != 0))
			continue;
		rc = sweep_read(&sj[i]);
		if (rc) {
			fprintf(stderr, "dfly repro lia: %s: %s\n", r->csv, strerror(-rc));
			status = 1;
		}
	}
	for (unsigned m = 0; o.pat[LIA_ADVC] && m < LIA_NMAIN; m++) {
		rc = lia_read_counters(cnt[m], lo.cload, nc.a, &ctx.sw[m]);
		if (rc) {
			fprintf(stderr, "dfly repro lia: %s: %s\n", cnt[m],
				rc == -ENOENT ? "no run at the counters load" : strerror(-rc));
			status = 1;
		}
	}
	for (unsigned i = 0; i < 7; i++) {
		bool want[LIA_NMECH] = {false};

		if (!fig[i])
			continue;
		for (unsigned m = 0; m < LIA_NMECH; m++)
			want[m] = i < 4 ? m < LIA_NMAIN : m == LIA_NMAIN - 1 || m >= LIA_NMAIN;
		if (i < 6)
			rc = lia_write_csv(csv[i], sj, (i < 4 ? i : i - 4) * LIA_NMECH, want);
		else
			rc = lia_write_switch(csv[i], &ctx, sj);
		if (rc) {
			fprintf(stderr, "dfly repro lia: %s: %s\n", csv[i], strerror(-rc));
			status = 1;
			continue;
		}
		printf("plot: ");
		repro_cmdline(stdout, plot_argv[i][0], plot_argv[i], 1, NULL);
		if (repro_exec(plot_argv[i]) != 0) {
			fprintf(stderr, "dfly repro lia: %s: plot failed\n", png[i]);
			status = 1;
		}
	}
	printf("\n");
	lia_report(stdout, sj, LIA_NPAT * LIA_NMECH, &ctx);
	if (sweep_summary(&o, title, jobs, n, self, wall0, lia_report, sj, LIA_NPAT * LIA_NMECH,
			  &ctx) != 0)
		status = 1;
	printf("# %u/%u runs ok in %.0f s; tables in %s/summary.txt\n", n - failed, n,
	       now_s() - wall0, o.out);
	return failed ? 1 : status;
}
