/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfly transient: warm a network up under one pattern, switch to another at t0 and record the
 * response cycle by cycle with the transient recorder (traffic/transient.h) on the fabric's
 * delivery tap.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
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
#include "transient.h"

static void usage_transient(FILE *f)
{
	fprintf(f,
		"usage: dfly transient CONFIG --from PATTERN --to PATTERN [options]\n"
		"\n"
		"Transient experiment (spec §7.4, §8.6; docs/spec.md): warm the network of CONFIG\n"
		"up under pattern FROM for sim.warmup cycles, switch every node to pattern TO at\n"
		"t0 (the end of the warm-up) and record every delivered packet, cycle by cycle,\n"
		"from t0 - PRE to t0 + POST; the sources keep generating 1000 cycles more (so the\n"
		"last packets of the window cross a loaded network), then stop; the network\n"
		"drains and the invariants are checked. One run per seed; the packets of all seeds "
		"are pooled per bin,\n"
		"so a bin reports the average over all the packets of all seeds that fall in it.\n"
		"\n"
		"options:\n"
		"  --from PATTERN   pattern before the switch: un, adv+N, adv-N, advc, perm\n"
		"                   (the syntax of traffic.pattern); required\n"
		"  --to PATTERN     pattern from t0 on; required\n"
		"  --load X         offered load in phits/(node*cycle) (default traffic.load)\n"
		"  --back-at C      switch back to FROM at t0 + C (0 < C < POST)\n"
		"  --pre N          cycles recorded before t0 (default 200); if N exceeds\n"
		"                   sim.warmup, the warm-up is lengthened to N\n"
		"  --post N         cycles recorded from t0 on (default 3000, the horizon\n"
		"                   spec §8.6 asks for to see oscillations)\n"
		"  --bin N          bin width in cycles (default 1); PRE and POST are rounded\n"
		"                   up to whole bins\n"
		"  --by gen|tail    bin a packet by its generation cycle (default, spec A-8.3)\n"
		"                   or by the cycle its tail was delivered\n"
		"  --seed S         first seed (default sim.seed)\n"
		"  --seeds K        runs with seeds S..S+K-1 (default sim.seeds; spec: >= 10)\n"
		"  --set PATH=VALUE override any setting (repeatable),\n"
		"                   e.g. --set routing.mechanism=val\n"
		"  --csv FILE       CSV file (default out/transient-MECH-FROM-TO.csv; out/ is\n"
		"                   created)\n"
		"  --quiet          no progress lines on stderr\n"
		"  --help           this text\n"
		"\n"
		"Output: a summary on stdout and a CSV with one row per bin: cycle (bin start\n"
		"relative to t0), packets (all seeds), lat_avg and lat_max (cycles, generation\n"
		"to tail delivery), misrouted_pct (globally misrouted, spec §8.4), nonmin_pct\n"
		"(a nonminimal decision was committed), misrouted_ma10 (10-cycle moving average\n"
		"of misrouted_pct). A bin without packets repeats the previous bin's averages.\n"
		"Plot CSVs with dfly plot transient CSV... --out FILE.png.\n"
		"\n"
		"Reaction time (spec §8.6 PROPOSAL): the first cycle >= 0 after t0 from which\n"
		"the 10-cycle moving average of the %% globally misrouted stays within +-5\n"
		"percentage points (not relative: the steady value may be 0) of its steady\n"
		"value, the mean over the last 20%% of the window; -1 if it never settles.\n"
		"Also printed: the steady misrouted and nonminimal %%, and the latency before\n"
		"t0, its peak bin after t0 (and when) and its steady value.\n"
		"\n"
		"Exit status: 0 on success; 1 if a run deadlocked (watchdog), did not drain\n"
		"within sim.drain cycles or broke an invariant; 2 on a usage or configuration\n"
		"error.\n");
}

/* Progress of a transient run, printed like the fabric's (after 3 s, every 2 s). */
struct transient_progress {
	bool on;           /**< print at all (not --quiet) */
	double start;      /**< wall clock at the start of the run */
	double last;       /**< wall clock of the last line */
	uint64_t total;    /**< cycles of the run up to the end of the window */
	uint64_t watchdog; /**< sim.watchdog, for the deadlock report */
};

/*
 * Step @p fab @p cycles cycles in chunks, printing progress. @return 0, or -EDEADLK with @p why
 * filled if the watchdog fired.
 */
static int transient_step(struct dfly_fabric *fab, uint64_t cycles, struct transient_progress *pr,
			  char *why, size_t len)
{
	while (cycles > 0) {
		uint64_t n = cycles < 1024 ? cycles : 1024;
		double t;

		if (dfly_fabric_step(fab, n) != 0) {
			snprintf(why, len,
				 "watchdog: no packet delivered for %llu cycles (cycle %llu) with "
				 "%llu packets in the network: deadlock",
				 (unsigned long long)pr->watchdog,
				 (unsigned long long)dfly_fabric_now(fab),
				 (unsigned long long)dfly_fabric_in_flight(fab));
			return -EDEADLK;
		}
		cycles -= n;
		t = now_s();
		if (pr->on && t - pr->start >= 3.0 && t - pr->last >= 2.0) {
			uint64_t now = dfly_fabric_now(fab);

			pr->last = t;
			fprintf(stderr, "  cycle %llu/%llu (%.0f%%), %.0f cycles/s\n",
				(unsigned long long)now, (unsigned long long)pr->total,
				100.0 * (double)now / (double)pr->total,
				(double)now / (t - pr->start));
		}
	}
	return 0;
}

/* Cycles the sources keep generating after the window before the drain. */
#define TRANSIENT_TAIL 1000u

/*
 * One transient run: warm-up under @p from until t0, switch to @p to at t0 (and back at
 * t0 + back_at if non-zero), window until t0 + post, then drain and check the invariants.
 * @return 0, 1 (run failure, @p why says what) or 2 (configuration error).
 */
static int transient_run(const struct dfly_netcfg *from, const struct dfly_netcfg *to,
			 uint64_t seed, struct dfly_transient *rec, uint64_t back_at,
			 struct transient_progress *pr, char *why, size_t len)
{
	const struct dfly_transient_params *p = dfly_transient_params(rec);
	uint32_t lat = from->lat_global > from->lat_local ? from->lat_global : from->lat_local;
	struct dfly_netcfg cfg = *from;
	struct dfly_fabric *fab = dfly_sim_threads_env(&cfg, why, len) < 0
				      ? NULL
				      : dfly_fabric_create(&cfg, seed, why, len);
	uint64_t limit, quiet_cycles = 0;
	int rc = 1;

	if (fab == NULL)
		return 2;
	pr->start = pr->last = now_s();
	pr->total = p->t0 + p->post;
	pr->watchdog = from->watchdog;
	dfly_fabric_set_load(fab, from->load);
	/* the tap is installed from cycle 0, not only from t0 - pre: a delivery is reported a few
	 * cycles before its tail cycle, and the recorder drops whatever is outside its window */
	dfly_fabric_set_tap_concurrent(fab, dfly_transient_tap, rec);
	if (transient_step(fab, p->t0, pr, why, len) != 0)
		goto out;
	if (dfly_fabric_set_pattern(fab, to->pattern, to->adv_offset) != 0) {
		snprintf(why, len, "--to: pattern rejected by the fabric");
		rc = 2;
		goto out;
	}
	if (back_at) {
		if (transient_step(fab, back_at, pr, why, len) != 0)
			goto out;
		if (dfly_fabric_set_pattern(fab, from->pattern, from->adv_offset) != 0) {
			snprintf(why, len, "--from: pattern rejected by the fabric");
			rc = 2;
			goto out;
		}
	}
	if (transient_step(fab, p->post - back_at, pr, why, len) != 0)
		goto out;
	/* the sources keep going for TRANSIENT_TAIL more cycles: packets generated at the end of
	 * the window then cross a loaded network, not one that empties behind them */
	if (transient_step(fab, TRANSIENT_TAIL, pr, why, len) != 0)
		goto out;

	/* drain: no packet generated from now on falls in the window; wait until the network
	 * has been empty for two cycles (a source queue refills an empty injection queue in
	 * one), then let the last credits travel home over the slowest link */
	dfly_fabric_set_load(fab, 0);
	limit = dfly_fabric_now(fab) + from->drain;
	while (quiet_cycles < 2 && dfly_fabric_now(fab) < limit) {
		if (dfly_fabric_step(fab, 1) != 0) {
			snprintf(why, len,
				 "watchdog during the drain (cycle %llu, %llu packets in the "
				 "network): deadlock",
				 (unsigned long long)dfly_fabric_now(fab),
				 (unsigned long long)dfly_fabric_in_flight(fab));
			goto out;
		}
		quiet_cycles = dfly_fabric_in_flight(fab) ? 0 : quiet_cycles + 1;
	}
	if (quiet_cycles < 2) {
		snprintf(why, len, "not drained after %llu cycles: %llu packets in flight",
			 (unsigned long long)from->drain,
			 (unsigned long long)dfly_fabric_in_flight(fab));
		goto out;
	}
	if (dfly_fabric_step(fab, lat + 2 * from->pipe_xbar + 2) != 0 ||
	    dfly_fabric_check_invariants(fab, true, why, len) != 0)
		goto out;
	dfly_transient_end_run(rec);
	rc = 0;
out:
	dfly_fabric_destroy(fab);
	return rc;
}

int cmd_transient(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"from", required_argument, NULL, 'f'},
	    {"to", required_argument, NULL, 't'},
	    {"load", required_argument, NULL, 'l'},
	    {"back-at", required_argument, NULL, 'b'},
	    {"pre", required_argument, NULL, 'P'},
	    {"post", required_argument, NULL, 'Q'},
	    {"bin", required_argument, NULL, 'w'},
	    {"by", required_argument, NULL, 'y'},
	    {"seed", required_argument, NULL, 'S'},
	    {"seeds", required_argument, NULL, 'k'},
	    {"set", required_argument, NULL, 's'},
	    {"csv", required_argument, NULL, 'c'},
	    {"quiet", no_argument, NULL, 'q'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	const char *sets[DFLY_MAX_SETS + 3], *from_arg = NULL, *to_arg = NULL, *csv_path = NULL;
	const char *labels[DFLY_MAX_SETS + 3] = {NULL}; /* errors name --seed(s), --from, --to */
	const char *load_arg = NULL, *cfg_path;
	char seed_set[64] = "", seeds_set[64] = "", pat_set[128], from_name[64], to_name[64];
	char seed_label[64], seeds_label[64], pat_label[128];
	char err[DFLY_NETCFG_ERRLEN], why[DFLY_NETCFG_ERRLEN], csv_buf[512];
	struct dfly_transient_params tp = {.pre = 200, .post = 3000, .bin = 1};
	struct transient_progress pr = {0};
	struct dfly_netcfg from, to;
	struct dfly_transient *rec = NULL;
	uint64_t back_at = 0, v;
	int nsets = 0, opt, status = 0, rc;
	bool quiet = false;
	double wall0 = now_s(), load;
	char *end;
	FILE *csv;

	optind = 1;
	while ((opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (opt) {
		case 'f':
			from_arg = optarg;
			break;
		case 't':
			to_arg = optarg;
			break;
		case 'l':
			load_arg = optarg;
			break;
		case 'b':
		case 'P':
		case 'Q':
		case 'w':
			/* --pre 0: nothing recorded before t0; the others count at least 1 */
			if (dfly_cli_parse_u64("dfly transient",
					       opt == 'b'   ? "--back-at"
					       : opt == 'P' ? "--pre"
					       : opt == 'Q' ? "--post"
							    : "--bin",
					       optarg, opt == 'P' ? 0 : 1,
					       opt == 'w' ? UINT32_MAX : UINT64_MAX / 4, "cycles",
					       &v) != 0)
				return DFLY_CLI_USAGE;
			if (opt == 'b')
				back_at = v;
			else if (opt == 'P')
				tp.pre = v;
			else if (opt == 'Q')
				tp.post = v;
			else
				tp.bin = (uint32_t)v;
			break;
		case 'y':
			if (strcmp(optarg, "gen") == 0) {
				tp.by = DFLY_TRANSIENT_BY_GEN;
			} else if (strcmp(optarg, "tail") == 0) {
				tp.by = DFLY_TRANSIENT_BY_TAIL;
			} else {
				fprintf(stderr, "dfly transient: --by %s: expected gen or tail\n",
					optarg);
				return 2;
			}
			break;
		case 'S':
			snprintf(seed_set, sizeof(seed_set), "sim.seed=%s", optarg);
			snprintf(seed_label, sizeof(seed_label), "--seed %s", optarg);
			break;
		case 'k':
			snprintf(seeds_set, sizeof(seeds_set), "sim.seeds=%s", optarg);
			snprintf(seeds_label, sizeof(seeds_label), "--seeds %s", optarg);
			break;
		case 's':
			if (nsets >= DFLY_MAX_SETS) {
				fprintf(stderr, "dfly transient: too many --set options\n");
				return 2;
			}
			sets[nsets++] = optarg;
			break;
		case 'c':
			csv_path = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		case 'h':
			usage_transient(stdout);
			return 0;
		default:
			return dfly_cli_opt_error("dfly transient", opts, opt, argv);
		}
	}
	if (optind == argc)
		return dfly_cli_usage_error("dfly transient",
					    "a network file (CONFIG) is required");
	if (optind < argc - 1)
		return dfly_cli_usage_error("dfly transient", "unexpected argument '%s'",
					    argv[optind + 1]);
	if (from_arg == NULL || to_arg == NULL)
		return dfly_cli_usage_error("dfly transient", "--from and --to are required");
	cfg_path = argv[optind];
	if (seed_set[0]) {
		labels[nsets] = seed_label;
		sets[nsets++] = seed_set;
	}
	if (seeds_set[0]) {
		labels[nsets] = seeds_label;
		sets[nsets++] = seeds_set;
	}

	/* load the configuration as given (file and --set errors), then once per pattern: the
	 * loader validates the pattern names, with the syntax and messages of traffic.pattern;
	 * errors name the option the user typed (--seeds 3, --to adv+9), not the setting */
	if (dfly_netcfg_load_labelled(&from, cfg_path, sets, labels, nsets, err, sizeof(err)) !=
	    0) {
		fprintf(stderr, "dfly transient: %s\n", err);
		return 2;
	}
	sets[nsets] = pat_set;
	labels[nsets] = pat_label;
	for (int k = 0; k < 2; k++) {
		const char *arg = k ? from_arg : to_arg;

		snprintf(pat_set, sizeof(pat_set), "traffic.pattern=%s", arg);
		snprintf(pat_label, sizeof(pat_label), "--%s %s", k ? "from" : "to", arg);
		if (dfly_netcfg_load_labelled(k ? &from : &to, cfg_path, sets, labels, nsets + 1,
					      err, sizeof(err)) != 0) {
			fprintf(stderr, "dfly transient: %s\n", err);
			return 2;
		}
		if (dfly_netcfg_workload(k ? &from : &to)) {
			fprintf(
			    stderr,
			    "dfly transient: %s: %s is a workload run to completion (dfly sim), "
			    "not a steady pattern to switch between\n",
			    pat_label, dfly_netcfg_workload_name(k ? &from : &to));
			return 2;
		}
	}
	if (load_arg) {
		load = strtod(load_arg, &end);
		if (end == load_arg || *end != '\0' || !(load >= 0 && load <= 1)) {
			fprintf(stderr, "dfly transient: --load %s: expected a number in [0, 1]\n",
				load_arg);
			return 2;
		}
		from.load = load;
	}
	if (back_at && back_at >= tp.post) {
		fprintf(stderr, "dfly transient: --back-at %llu: must be below --post %llu\n",
			(unsigned long long)back_at, (unsigned long long)tp.post);
		return 2;
	}
	dfly_pattern_name(&from, from_name, sizeof(from_name));
	dfly_pattern_name(&to, to_name, sizeof(to_name));
	tp.t0 = from.warmup > tp.pre ? from.warmup : tp.pre;
	rec = dfly_transient_create(&tp);
	if (rec == NULL) {
		fprintf(stderr,
			"dfly transient: cannot record a window of %llu + %llu cycles: %s\n",
			(unsigned long long)tp.pre, (unsigned long long)tp.post, strerror(errno));
		return 2;
	}
	/* the recorder rounds pre and post up to whole bins: run with the rounded values */
	tp = *dfly_transient_params(rec);
	if (tp.t0 < tp.pre) {
		tp.t0 = tp.pre;
		dfly_transient_set_t0(rec, tp.t0);
	}

	pr.on = !quiet;
	for (uint32_t sd = 0; sd < from.seeds; sd++) {
		uint64_t seed = from.seed + sd;

		if (pr.on)
			fprintf(stderr, "run %s %s->%s load %.3f seed %llu\n",
				dfly_mode_name(from.mode), from_name, to_name, from.load,
				(unsigned long long)seed);
		rc = transient_run(&from, &to, seed, rec, back_at, &pr, why, sizeof(why));
		if (rc) {
			fprintf(stderr, "dfly transient: %s %s->%s load %.3f seed %llu: %s\n",
				dfly_mode_name(from.mode), from_name, to_name, from.load,
				(unsigned long long)seed, why);
			status = rc;
			goto out;
		}
	}

	{
		struct dfly_topo *t =
		    dfly_topo_create(from.p, from.a, from.h, from.t, from.arr, from.sigma);

		printf("# dfly transient %s: ", cfg_path);
		if (t) {
			dfly_topo_dump(t, stdout);
			dfly_topo_destroy(t);
		} else {
			printf("\n");
		}
	}
	printf("# mechanism %s, %s -> %s at t0 = cycle %llu", dfly_mode_name(from.mode), from_name,
	       to_name, (unsigned long long)tp.t0);
	if (back_at)
		printf(", back to %s at t0 + %llu", from_name, (unsigned long long)back_at);
	printf(", load %.3f, %u seed(s) from %llu, packet %u phits\n", from.load, from.seeds,
	       (unsigned long long)from.seed, from.pkt_phits);
	if (dfly_transient_dump_summary(rec, stdout) != 0) {
		fprintf(stderr, "dfly transient: out of memory\n");
		status = 1;
		goto out;
	}

	if (csv_path == NULL) {
		if (mkdir("out", 0777) != 0 && errno != EEXIST) {
			fprintf(stderr, "dfly transient: out/: %s\n", strerror(errno));
			status = 2;
			goto out;
		}
		snprintf(csv_buf, sizeof(csv_buf), "out/transient-%s-%s-%s.csv",
			 dfly_mode_name(from.mode), from_name, to_name);
		csv_path = csv_buf;
	}
	csv = fopen(csv_path, "w");
	if (csv == NULL) {
		fprintf(stderr, "dfly transient: %s: %s\n", csv_path, strerror(errno));
		status = 2;
		goto out;
	}
	rc = dfly_transient_write_csv(rec, csv);
	if (fclose(csv) != 0 || rc != 0) {
		fprintf(stderr, "dfly transient: %s: write failed\n", csv_path);
		status = 1;
		goto out;
	}
	printf("# CSV written to %s\n", csv_path);
	if (pr.on)
		fprintf(stderr, "dfly transient: %u run(s) in %.2f s\n", from.seeds,
			now_s() - wall0);
out:
	dfly_transient_destroy(rec);
	return status;
}
