/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The `dfly` command: the user's entry point to the emulator in virtual time.
 *   dfly sim    run the virtual-time fabric over loads, mechanisms, patterns and seeds
 *   dfly topo   print a network's topology, link table, path statistics and VC needs
 *   dfly bench  measure emulation speed (bench sim)
 *   dfly transient  switch the traffic pattern after the warm-up and record the response
 *   dfly repro transient  the papers' UN -> ADV+1 transients (H13, H15, H16), with figures
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

#include "fabric.h"
#include "netcfg.h"
#include "transient.h"

#ifndef DFLY_SOURCE_DIR
#define DFLY_SOURCE_DIR "."
#endif

#define MAX_SETS 128
#define MAX_LIST 64

static void usage_main(FILE *f)
{
	fprintf(f, "usage: dfly COMMAND [ARGS]\n"
		   "\n"
		   "commands:\n"
		   "  sim     run a network in virtual time (dfly sim --help)\n"
		   "  topo    describe a network's topology (dfly topo --help)\n"
		   "  bench   measure emulation speed (dfly bench --help)\n"
		   "  transient  switch patterns after the warm-up, record the response cycle by\n"
		   "          cycle (dfly transient --help)\n"
		   "  repro transient  rerun the papers' transient experiments and draw their\n"
		   "          figures (dfly repro --help)\n"
		   "\n"
		   "Every command takes --help.\n");
}

static void usage_sim(FILE *f)
{
	fprintf(f,
		"usage: dfly sim CONFIG [options]\n"
		"\n"
		"Run the Dragonfly described by the libconfig file CONFIG in virtual time: warm-up,\n"
		"measurement window, drain, invariant checks; one run per (mechanism, pattern, load,\n"
		"seed). Prints a table (averaged over seeds) and optionally a CSV (one row per run).\n"
		"\n"
		"options:\n"
		"  --set PATH=VALUE     override any setting, e.g. --set routing.mechanism=val\n"
		"                       --set traffic.pattern=adv+1 (repeatable)\n"
		"  --loads LIST|A:B:S   offered loads in phits/(node*cycle): 0.1,0.3 or 0.05:0.5:0.05\n"
		"                       (default: traffic.load of the file)\n"
		"  --mechanisms LIST    comma-separated routing.mechanism values (default: the file's)\n"
		"  --patterns LIST      comma-separated traffic.pattern values (default: the file's)\n"
		"  --seed N             first seed (default sim.seed)\n"
		"  --seeds K            runs per point with seeds N..N+K-1 (default sim.seeds)\n"
		"  --csv FILE           write one CSV row per run\n"
		"  --counters FILE      write every router's counters after each run: ports, VCs,\n"
		"                       drops by reason, routing decisions by reason, firmware\n"
		"                       (fw.*), one \"name value\" line each\n"
		"  --quiet              no progress lines\n"
		"  --help               this text\n"
		"\n"
		"Mechanisms (routing.mechanism): min, val (Valiant; routing.val.path_a lgl | lg- |\n"
		"-gl | -g-), ugal (UGAL-L; routing.ugal.f, .t in packets, .occupancy vc | port), pb\n"
		"(PiggyBack; routing.pb.f, .t, .average all | other, .bits vc | port, .exchange oob |\n"
		"inband, .period, .piggyback_every, .send_unchanged), par (PAR, needs vcs.local = 5),\n"
		"olm (OLM; routing.olm.threshold_pct, .min_occupancy_pct). Every setting, its default\n"
		"and its source in the papers: configs/README.md. Transients: dfly transient --help.\n"
		"\n"
		"Exit status: 0 if every run kept its invariants, 1 on a deadlock or a violated\n"
		"invariant, 2 on a usage or configuration error.\n");
}

static void usage_topo(FILE *f)
{
	fprintf(f, "usage: dfly topo CONFIG [--set PATH=VALUE]... [--links]\n"
		   "\n"
		   "Print the topology of CONFIG: sizes, the global links of group 0 (or every group\n"
		   "with --links), the minimal-path hop distribution over all router pairs, and the VCs\n"
		   "each mechanism needs against what the file provides.\n");
}

static void usage_bench(FILE *f)
{
	fprintf(f, "usage: dfly bench sim [--cycles N] [--load L] [--configs LIST] [--pattern P]\n"
		   "\n"
		   "Measure the speed of dfly sim: for each config (default: h2, h4 and cfg-l, the\n"
		   "h=6 network, from %s/configs)\n"
		   "run MIN under the pattern (default un) at load L (default 0.3) for N cycles\n"
		   "(default 20000) and print simulated cycles per second, delivered packets per\n"
		   "second and peak memory.\n",
		DFLY_SOURCE_DIR);
}

/* Split a comma-separated list in place. */
static int split_list(char *s, char **out, int max)
{
	int n = 0;

	for (char *tok = strtok(s, ","); tok != NULL && n < max; tok = strtok(NULL, ","))
		out[n++] = tok;
	return n;
}

static int parse_loads(const char *arg, double *loads, int max)
{
	double a, b, step;
	int n = 0;
	char *end;

	if (strchr(arg, ':') != NULL) {
		if (sscanf(arg, "%lf:%lf:%lf", &a, &b, &step) != 3 || step <= 0 || b < a)
			return -1;
		for (int k = 0; n < max; k++) {
			double x = a + k * step;

			if (x > b + step * 1e-6)
				break;
			loads[n++] = round(x * 1e9) / 1e9;
		}
		return n;
	}
	for (const char *p = arg; *p && n < max;) {
		loads[n++] = strtod(p, &end);
		if (end == p)
			return -1;
		p = *end == ',' ? end + 1 : end;
		if (*end != ',' && *end != '\0')
			return -1;
	}
	return n;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static const char csv_header[] =
	"mechanism,pattern,offered,accepted,lat_avg,lat_p50,lat_p99,misrouted_pct,hops_avg,"
	"min_inj,max_min,cov,seed,generated,lat_max,net_lat_avg,lhops_avg,ghops_avg,jain,"
	"pkts_delivered,drop_inj,cycles,invariants\n";

static void csv_row(FILE *f, const char *mech, const char *pat, uint64_t seed,
		    const struct dfly_sim_result *r)
{
	fprintf(f,
		"%s,%s,%.4f,%.6f,%.3f,%.0f,%.0f,%.3f,%.4f,%.6f,%.4f,%.6f,%llu,%.6f,%llu,%.3f,%.4f,"
		"%.4f,%.6f,%llu,%llu,%llu,%s\n",
		mech, pat, r->offered, r->accepted, r->lat_avg, r->lat_p50, r->lat_p99,
		r->misrouted_pct, r->hops_avg, r->min_inj, r->max_min, r->cov,
		(unsigned long long)seed, r->generated, (unsigned long long)r->lat_max,
		r->net_lat_avg, r->lhops_avg, r->ghops_avg, r->jain,
		(unsigned long long)r->pkts_delivered, (unsigned long long)r->drop_inj,
		(unsigned long long)r->cycles, r->invariants_ok ? "ok" : "FAILED");
}

static int cmd_sim(int argc, char **argv)
{
	static const struct option opts[] = {
		{"set", required_argument, NULL, 's'},	 {"loads", required_argument, NULL, 'l'},
		{"seed", required_argument, NULL, 'S'},	 {"seeds", required_argument, NULL, 'k'},
		{"csv", required_argument, NULL, 'c'},	 {"mechanisms", required_argument, NULL, 'm'},
		{"patterns", required_argument, NULL, 'p'}, {"quiet", no_argument, NULL, 'q'},
		{"counters", required_argument, NULL, 'C'}, {"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *ctr_path = NULL;
	FILE *ctr = NULL;
	const char *sets[MAX_SETS + 2];
	int nsets = 0, nloads = 0, nmech = 0, npat = 0, opt, status = 0;
	double loads[256];
	char *mechs[MAX_LIST], *pats[MAX_LIST];
	char mech_buf[512] = "", pat_buf[512] = "";
	char seed_set[64] = "", seeds_set[64] = "";
	const char *csv_path = NULL, *cfg_path;
	bool quiet = false;
	FILE *csv = NULL;
	char err[DFLY_NETCFG_ERRLEN];
	double t0 = now_s();
	uint64_t sim_cycles = 0, sim_router_cycles = 0, sim_pkts = 0;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 's':
			if (nsets >= MAX_SETS) {
				fprintf(stderr, "dfly sim: too many --set options\n");
				return 2;
			}
			sets[nsets++] = optarg;
			break;
		case 'l':
			nloads = parse_loads(optarg, loads, 256);
			if (nloads <= 0) {
				fprintf(stderr, "dfly sim: --loads %s: expected LIST or A:B:STEP\n",
					optarg);
				return 2;
			}
			break;
		case 'S':
			snprintf(seed_set, sizeof(seed_set), "sim.seed=%s", optarg);
			break;
		case 'k':
			snprintf(seeds_set, sizeof(seeds_set), "sim.seeds=%s", optarg);
			break;
		case 'c':
			csv_path = optarg;
			break;
		case 'C':
			ctr_path = optarg;
			break;
		case 'm':
			snprintf(mech_buf, sizeof(mech_buf), "%s", optarg);
			break;
		case 'p':
			snprintf(pat_buf, sizeof(pat_buf), "%s", optarg);
			break;
		case 'q':
			quiet = true;
			break;
		case 'h':
			usage_sim(stdout);
			return 0;
		default:
			usage_sim(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		usage_sim(stderr);
		return 2;
	}
	cfg_path = argv[optind];
	if (seed_set[0])
		sets[nsets++] = seed_set;
	if (seeds_set[0])
		sets[nsets++] = seeds_set;
	nmech = mech_buf[0] ? split_list(mech_buf, mechs, MAX_LIST) : 1;
	npat = pat_buf[0] ? split_list(pat_buf, pats, MAX_LIST) : 1;
	if (!mech_buf[0])
		mechs[0] = NULL;
	if (!pat_buf[0])
		pats[0] = NULL;

	for (int mi = 0; mi < nmech; mi++) {
		for (int pi = 0; pi < npat; pi++) {
			const char *s2[MAX_SETS + 4];
			char mset[128], pset[128], patname[64];
			struct dfly_netcfg cfg;
			int n2 = 0;

			for (int k = 0; k < nsets; k++)
				s2[n2++] = sets[k];
			if (mechs[mi]) {
				snprintf(mset, sizeof(mset), "routing.mechanism=%s", mechs[mi]);
				s2[n2++] = mset;
			}
			if (pats[pi]) {
				snprintf(pset, sizeof(pset), "traffic.pattern=%s", pats[pi]);
				s2[n2++] = pset;
			}
			if (dfly_netcfg_load(&cfg, cfg_path, s2, n2, err, sizeof(err)) != 0) {
				fprintf(stderr, "dfly sim: %s\n", err);
				status = 2;
				goto out;
			}
			if (csv_path != NULL && csv == NULL) {
				csv = fopen(csv_path, "w");
				if (csv == NULL) {
					fprintf(stderr, "dfly sim: %s: %s\n", csv_path,
						strerror(errno));
					status = 2;
					goto out;
				}
				fputs(csv_header, csv);
			}
			if (ctr_path != NULL && ctr == NULL) {
				ctr = fopen(ctr_path, "w");
				if (ctr == NULL) {
					fprintf(stderr, "dfly sim: %s: %s\n", ctr_path,
						strerror(errno));
					status = 2;
					goto out;
				}
			}
			if (mi == 0 && pi == 0) {
				struct dfly_topo *t = dfly_topo_create(cfg.p, cfg.a, cfg.h, cfg.t,
								       cfg.arr, cfg.sigma);

				printf("# dfly sim %s: ", cfg_path);
				dfly_topo_dump(t, stdout);
				dfly_topo_destroy(t);
				printf("# warmup %llu + measure %llu cycles, %u seed(s) from %llu, "
				       "packet %u phits; loads in phits/(node*cycle), latency in "
				       "cycles\n",
				       (unsigned long long)cfg.warmup,
				       (unsigned long long)cfg.measure, cfg.seeds,
				       (unsigned long long)cfg.seed, cfg.pkt_phits);
				printf("%-5s %-7s %7s %8s %8s %7s %7s %6s %5s %8s %7s %6s\n",
				       "mech", "pattern", "offered", "accepted", "lat_avg", "lat_p50",
				       "lat_p99", "misr%", "hops", "min_inj", "max/min", "cov");
			}
			dfly_pattern_name(&cfg, patname, sizeof(patname));
			for (int li = 0; li < (nloads ? nloads : 1); li++) {
				struct dfly_sim_result acc = {0};
				int ok_runs = 0;

				if (nloads)
					cfg.load = loads[li];
				if (cfg.load < 0 || cfg.load > 1) {
					fprintf(stderr, "dfly sim: --loads: %g out of range [0, 1]\n",
						cfg.load);
					status = 2;
					goto out;
				}
				for (uint32_t sd = 0; sd < cfg.seeds; sd++) {
					uint64_t seed = cfg.seed + sd;
					struct dfly_sim_result r;
					struct dfly_fabric *fab =
						dfly_fabric_create(&cfg, seed, err, sizeof(err));

					if (fab == NULL) {
						fprintf(stderr, "dfly sim: %s\n", err);
						status = 2;
						goto out;
					}
					if (!quiet)
						fprintf(stderr, "run %s %s load %.3f seed %llu\n",
							dfly_mode_name(cfg.mode), patname, cfg.load,
							(unsigned long long)seed);
					dfly_fabric_run(fab, &r, !quiet);
					if (ctr) {
						fprintf(ctr, "# run %s %s load %.4f seed %llu\n",
							dfly_mode_name(cfg.mode), patname, cfg.load,
							(unsigned long long)seed);
						dfly_fabric_dump_counters(fab, ctr);
					}
					sim_cycles += r.cycles;
					sim_router_cycles += r.cycles * dfly_fabric_topo(fab)->routers;
					sim_pkts += r.dlv_total;
					dfly_fabric_destroy(fab);
					if (csv)
						csv_row(csv, dfly_mode_name(cfg.mode), patname, seed, &r);
					if (r.deadlock || !r.invariants_ok || !r.drained) {
						fprintf(stderr, "dfly sim: %s %s load %.3f seed %llu: %s\n",
							dfly_mode_name(cfg.mode), patname, cfg.load,
							(unsigned long long)seed, r.why);
						status = 1;
					}
					acc.accepted += r.accepted;
					acc.lat_avg += r.lat_avg;
					acc.lat_p50 += r.lat_p50;
					acc.lat_p99 += r.lat_p99;
					acc.misrouted_pct += r.misrouted_pct;
					acc.hops_avg += r.hops_avg;
					acc.min_inj += r.min_inj;
					acc.max_min += r.max_min;
					acc.cov += r.cov;
					ok_runs++;
				}
				printf("%-5s %-7s %7.3f %8.4f %8.1f %7.0f %7.0f %6.2f %5.2f %8.4f "
				       "%7.3f %6.3f\n",
				       dfly_mode_name(cfg.mode), patname, cfg.load,
				       acc.accepted / ok_runs, acc.lat_avg / ok_runs,
				       acc.lat_p50 / ok_runs, acc.lat_p99 / ok_runs,
				       acc.misrouted_pct / ok_runs, acc.hops_avg / ok_runs,
				       acc.min_inj / ok_runs, acc.max_min / ok_runs, acc.cov / ok_runs);
				fflush(stdout);
			}
		}
	}
out:
	if (csv) {
		fclose(csv);
		printf("# CSV written to %s\n", csv_path);
	}
	if (ctr) {
		fclose(ctr);
		printf("# counters written to %s\n", ctr_path);
	}
	if (sim_cycles && !quiet) {
		double wall = now_s() - t0;

		fprintf(stderr,
			"dfly sim: %llu cycles (%llu router-cycles) in %.2f s: %.0f cycles/s, "
			"%.0f delivered packets/s\n",
			(unsigned long long)sim_cycles, (unsigned long long)sim_router_cycles, wall,
			sim_cycles / wall, sim_pkts / wall);
	}
	return status;
}

static int cmd_topo(int argc, char **argv)
{
	static const struct option opts[] = {
		{"set", required_argument, NULL, 's'},
		{"links", no_argument, NULL, 'L'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *sets[MAX_SETS];
	int nsets = 0, opt;
	bool all_links = false;
	struct dfly_netcfg cfg;
	char err[DFLY_NETCFG_ERRLEN];
	struct dfly_topo *t;
	uint64_t shape[4] = {0}, pairs = 0;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 's':
			if (nsets < MAX_SETS)
				sets[nsets++] = optarg;
			break;
		case 'L':
			all_links = true;
			break;
		case 'h':
			usage_topo(stdout);
			return 0;
		default:
			usage_topo(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		usage_topo(stderr);
		return 2;
	}
	if (dfly_netcfg_load(&cfg, argv[optind], sets, nsets, err, sizeof(err)) != 0) {
		fprintf(stderr, "dfly topo: %s\n", err);
		return 2;
	}
	t = dfly_topo_create(cfg.p, cfg.a, cfg.h, cfg.t, cfg.arr, cfg.sigma);
	if (t == NULL) {
		fprintf(stderr, "dfly topo: cannot build topology: %s\n", strerror(errno));
		return 2;
	}
	dfly_topo_dump(t, stdout);
	printf("ports: terminal 0..%u, local %u..%u, global %u..%u\n", t->p - 1, t->first_local,
	       t->first_global - 1, t->first_global, t->radix - 1);
	for (uint32_t G = 0; G < (all_links ? t->g : 1); G++) {
		printf("global links of group %u:\n", G);
		for (uint32_t rho = 0; rho < t->a; rho++) {
			printf("  router %u (id %u):", rho, G * t->a + rho);
			for (uint32_t q = 0; q < t->h; q++) {
				struct dfly_gport gp = dfly_topo_global_peer(t, G * t->a + rho, q);

				printf("  q%u->G%u.r%u.q%u", q, gp.router / t->a, gp.router % t->a,
				       gp.q);
			}
			printf("\n");
		}
	}
	for (uint32_t s = 0; s < t->routers; s++) {
		for (uint32_t d = 0; d < t->routers; d++) {
			struct dfly_hop hops[3];

			if (s == d)
				continue;
			shape[dfly_topo_min_path(t, s, d, d * t->p, hops)]++;
			pairs++;
		}
	}
	printf("minimal paths over %llu router pairs: 1 hop %.2f%%, 2 hops %.2f%%, 3 hops %.2f%%, "
	       "average %.3f hops\n",
	       (unsigned long long)pairs, 100.0 * shape[1] / pairs, 100.0 * shape[2] / pairs,
	       100.0 * shape[3] / pairs,
	       (double)(shape[1] + 2 * shape[2] + 3 * shape[3]) / pairs);
	{
		uint32_t l, g;
		uint8_t map[DFLY_ROLE_COUNT];

		dfly_netcfg_vc_needs(&cfg, &l, &g, map);
		printf("VCs: mechanism %s needs %u local / %u global; the file provides %u / %u "
		       "(injection %u)\n",
		       dfly_mode_name(cfg.mode), l, g, cfg.vc_local, cfg.vc_global, cfg.vc_inj);
	}
	dfly_topo_destroy(t);
	return 0;
}

static int cmd_bench(int argc, char **argv)
{
	static const struct option opts[] = {
		{"cycles", required_argument, NULL, 'n'}, {"load", required_argument, NULL, 'l'},
		{"configs", required_argument, NULL, 'c'}, {"pattern", required_argument, NULL, 'p'},
		{"help", no_argument, NULL, 'h'},	  {NULL, 0, NULL, 0},
	};
	char cfgs_buf[1024] = "h2,h4,cfg-l", *cfgs[MAX_LIST];
	const char *pattern = "un";
	unsigned long long cycles = 20000;
	double load = 0.3;
	int opt, n;

	if (argc < 2 || strcmp(argv[1], "sim") != 0) {
		if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
			usage_bench(stdout);
			return 0;
		}
		usage_bench(stderr);
		return 2;
	}
	argc--;
	argv++;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'n':
			cycles = strtoull(optarg, NULL, 10);
			break;
		case 'l':
			load = strtod(optarg, NULL);
			break;
		case 'c':
			snprintf(cfgs_buf, sizeof(cfgs_buf), "%s", optarg);
			break;
		case 'p':
			pattern = optarg;
			break;
		case 'h':
			usage_bench(stdout);
			return 0;
		default:
			usage_bench(stderr);
			return 2;
		}
	}
	n = split_list(cfgs_buf, cfgs, MAX_LIST);
	printf("%-8s %8s %8s %10s %12s %14s %16s %10s\n", "config", "routers", "nodes", "cycles",
	       "wall_s", "cycles/s", "delivered_pkt/s", "peak_MiB");
	for (int i = 0; i < n; i++) {
		char path[1024], err[DFLY_NETCFG_ERRLEN], s_load[64], s_pat[64], s_w[64], s_m[64];
		const char *sets[4] = {s_load, s_pat, s_w, s_m};
		struct dfly_netcfg cfg;
		struct dfly_fabric *fab;
		uint64_t gen, dlv, drop;
		struct rusage ru;
		double t0, wall;

		if (strchr(cfgs[i], '/') || strchr(cfgs[i], '.'))
			snprintf(path, sizeof(path), "%s", cfgs[i]);
		else
			snprintf(path, sizeof(path), "%s/configs/%s.cfg", DFLY_SOURCE_DIR, cfgs[i]);
		snprintf(s_load, sizeof(s_load), "traffic.load=%g", load);
		snprintf(s_pat, sizeof(s_pat), "traffic.pattern=%s", pattern);
		snprintf(s_w, sizeof(s_w), "sim.warmup=0");
		snprintf(s_m, sizeof(s_m), "sim.measure=%llu", cycles);
		if (dfly_netcfg_load(&cfg, path, sets, 4, err, sizeof(err)) != 0) {
			fprintf(stderr, "dfly bench: %s\n", err);
			return 2;
		}
		cfg.mode = DFLY_MODE_MIN;
		fab = dfly_fabric_create(&cfg, cfg.seed, err, sizeof(err));
		if (fab == NULL) {
			fprintf(stderr, "dfly bench: %s\n", err);
			return 2;
		}
		t0 = now_s();
		if (dfly_fabric_step(fab, cycles) != 0)
			fprintf(stderr, "dfly bench: %s: watchdog fired\n", cfgs[i]);
		wall = now_s() - t0;
		dfly_fabric_totals(fab, &gen, &dlv, &drop);
		getrusage(RUSAGE_SELF, &ru);
		printf("%-8s %8u %8u %10llu %12.2f %14.0f %16.0f %10.1f\n", cfgs[i],
		       dfly_fabric_topo(fab)->routers, dfly_fabric_topo(fab)->nodes, cycles, wall,
		       cycles / wall, dlv / wall, ru.ru_maxrss / 1024.0);
		fflush(stdout);
		dfly_fabric_destroy(fab);
	}
	return 0;
}

static void usage_transient(FILE *f)
{
	fprintf(f,
		"usage: dfly transient CONFIG --from PATTERN --to PATTERN [options]\n"
		"\n"
		"Transient experiment (spec/ROUTING.md §7.4, §8.6): warm the network of CONFIG\n"
		"up under pattern FROM for sim.warmup cycles, switch every node to pattern TO at\n"
		"t0 (the end of the warm-up) and record every delivered packet, cycle by cycle,\n"
		"from t0 - PRE to t0 + POST; the sources keep generating 1000 cycles more (so the\n"
		"last packets of the window cross a loaded network), then stop; the network\n"
		"drains and the invariants are checked. One run per seed; the packets of all seeds are pooled per bin,\n"
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
		"Plot CSVs with scripts/plot-transient.sh.\n"
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

/* Parse a whole unsigned decimal number. */
static int transient_parse_u64(const char *s, uint64_t *out)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return errno || *end != '\0' ? -EINVAL : 0;
}

/* Progress of a transient run, printed like the fabric's (after 3 s, every 2 s). */
struct transient_progress {
	bool on;	   /**< print at all (not --quiet) */
	double start;	   /**< wall clock at the start of the run */
	double last;	   /**< wall clock of the last line */
	uint64_t total;	   /**< cycles of the run up to the end of the window */
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
	struct dfly_fabric *fab = dfly_fabric_create(from, seed, why, len);
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
	dfly_fabric_set_tap(fab, dfly_transient_tap, rec);
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

static int cmd_transient(int argc, char **argv)
{
	static const struct option opts[] = {
		{"from", required_argument, NULL, 'f'},	 {"to", required_argument, NULL, 't'},
		{"load", required_argument, NULL, 'l'},	 {"back-at", required_argument, NULL, 'b'},
		{"pre", required_argument, NULL, 'P'},	 {"post", required_argument, NULL, 'Q'},
		{"bin", required_argument, NULL, 'w'},	 {"by", required_argument, NULL, 'y'},
		{"seed", required_argument, NULL, 'S'},	 {"seeds", required_argument, NULL, 'k'},
		{"set", required_argument, NULL, 's'},	 {"csv", required_argument, NULL, 'c'},
		{"quiet", no_argument, NULL, 'q'},	 {"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *sets[MAX_SETS + 3], *from_arg = NULL, *to_arg = NULL, *csv_path = NULL;
	const char *load_arg = NULL, *cfg_path;
	char seed_set[64] = "", seeds_set[64] = "", pat_set[128], from_name[64], to_name[64];
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
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
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
			if (transient_parse_u64(optarg, &v) != 0 ||
			    (opt == 'w' && (v == 0 || v > UINT32_MAX)) || (opt == 'Q' && v == 0) ||
			    (opt == 'b' && v == 0)) {
				fprintf(stderr, "dfly transient: --%s %s: expected a %s number\n",
					opt == 'b'   ? "back-at"
					: opt == 'P' ? "pre"
					: opt == 'Q' ? "post"
						     : "bin",
					optarg, opt == 'P' ? "whole" : "positive whole");
				return 2;
			}
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
			break;
		case 'k':
			snprintf(seeds_set, sizeof(seeds_set), "sim.seeds=%s", optarg);
			break;
		case 's':
			if (nsets >= MAX_SETS) {
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
			usage_transient(stderr);
			return 2;
		}
	}
	if (optind != argc - 1 || from_arg == NULL || to_arg == NULL) {
		if (optind == argc - 1)
			fprintf(stderr, "dfly transient: --from and --to are required\n");
		usage_transient(stderr);
		return 2;
	}
	cfg_path = argv[optind];
	if (seed_set[0])
		sets[nsets++] = seed_set;
	if (seeds_set[0])
		sets[nsets++] = seeds_set;

	/* load the configuration as given (file and --set errors), then once per pattern: the
	 * loader validates the pattern names, with the syntax and messages of traffic.pattern */
	if (dfly_netcfg_load(&from, cfg_path, sets, nsets, err, sizeof(err)) != 0) {
		fprintf(stderr, "dfly transient: %s\n", err);
		return 2;
	}
	sets[nsets] = pat_set;
	for (int k = 0; k < 2; k++) {
		const char *arg = k ? from_arg : to_arg, *msg = err;
		size_t plen;

		plen = (size_t)snprintf(pat_set, sizeof(pat_set), "traffic.pattern=%s", arg);
		if (dfly_netcfg_load(k ? &from : &to, cfg_path, sets, nsets + 1, err,
				     sizeof(err)) == 0)
			continue;
		/* the message names the override we made up: name the option instead */
		if (strncmp(err, "--set ", 6) == 0 && strncmp(err + 6, pat_set, plen) == 0 &&
		    strncmp(err + 6 + plen, ": ", 2) == 0)
			msg = err + 6 + plen + 2;
		fprintf(stderr, "dfly transient: --%s %s: %s\n", k ? "from" : "to", arg, msg);
		return 2;
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

/*
 * dfly repro transient: the papers' UN -> ADV+1 transient at 0.2 load (spec §7.4, §8.6; H13,
 * H15, H16 of §9.2) as a batch of `dfly transient` runs, one per mechanism and buffer size. Each
 * run is a forked child calling cmd_transient() with the arguments printed as its command line,
 * its stdout (the summary) going to DIR/NAME.txt; the parent then reads the CSVs back for the
 * figures `dfly transient` does not compute (crude settling times, oscillation period), draws
 * the figures with scripts/plot-transient.sh and prints the tables.
 */

#define REPRO_MAX_ARGS 48
#define REPRO_MAX_RUNS 8
#define REPRO_MAX_DIPS 10
#define REPRO_NA       INT64_MIN /* a figure that does not apply (e.g. no misrouting to reach) */
#define REPRO_ZOOM_LO  (-200)    /* zoomed figures: cycles [-200, 600) around t0 */
#define REPRO_ZOOM_HI  600
#define REPRO_TAIL     300 /* cycles left out at the end of the window: see repro_figures() */

static void usage_repro(FILE *f)
{
	fprintf(f,
		"usage: dfly repro transient [--scale h4|cfg-t] [--seeds N] [--out DIR] [--quick]\n"
		"                            [--jobs J] [--dry-run | --report-only]\n"
		"\n"
		"Reproduce the transient experiments of CBAR §V-B/§V-C and thesis §4.3.2 (spec\n"
		"§7.4, §8.6; H13, H15 and H16 of §9.2): warm up under UN at load 0.2, switch every\n"
		"node to ADV+1 at t0 and record the response, cycle by cycle, with `dfly transient`:\n"
		"  1. H13/H15: PB (with routing.val.recompute=true, thesis §5.3.3.3), OLM, and VAL\n"
		"     and MIN as references, with the configuration's buffers (32/256 phits per\n"
		"     local/global input VC);\n"
		"  2. H16: PB and OLM with buffers.local=256 and buffers.global=2048 (phits per VC,\n"
		"     CBAR §V-B, thesis §4.3.2; output and injection buffers unchanged).\n"
		"Every run: --from un --to adv+1 --load 0.2 --pre 500 --bin 5, sim.warmup=10000,\n"
		"--post 5000 (1) or 15000 (2: OLM takes that long to settle on h4), 3000 with\n"
		"--quick. Written to DIR: one CSV and one summary (.txt) per run, zoom/*.csv\n"
		"(cycles -200..600), the figures (*.png, drawn by scripts/plot-transient.sh),\n"
		"commands.sh (every command, runnable as is) and summary.txt (the tables, also\n"
		"printed on stdout).\n"
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
		"All but react and the latency peak leave out the last 300 cycles of the window:\n"
		"the sources stop at its end, so the packets generated there see an emptying\n"
		"network: their latency and OLM's in-transit misrouting drop.\n"
		"\n"
		"On h4 with the defaults, about 15 minutes on one core (PB runs at ~500-700\n"
		"cycles/s), 2 with --quick.\n"
		"\n"
		"Exit status: 0 if every run and figure succeeded; 1 if a run failed (deadlock,\n"
		"no drain, invariant) or a figure could not be drawn; 2 on a usage error.\n");
}

/* A mechanism of an experiment and the --set it needs besides routing.mechanism. */
struct repro_mech {
	const char *name; /**< routing.mechanism */
	const char *set;  /**< an extra --set PATH=VALUE, or NULL */
};

/* One experiment: a buffer configuration and the mechanisms run under it. */
struct repro_exp {
	const char *id;			/**< suffix of the run names: small, large */
	const char *what;		/**< progress line */
	const char *sets[4];		/**< buffer --set options, NULL-terminated */
	const struct repro_mech *mechs; /**< in run order */
	unsigned nmech;			/**< entries of mechs */
	unsigned post;			/**< horizon after t0, cycles (--quick: 3000) */
};

static const struct repro_mech repro_mechs_small[] = {
	{"pb", "routing.val.recompute=true"},
	{"olm", NULL},
	{"val", NULL},
	{"min", NULL},
};

static const struct repro_mech repro_mechs_large[] = {
	{"pb", "routing.val.recompute=true"},
	{"olm", NULL},
};

static const struct repro_exp repro_exps[] = {
	{"small", "H13, H15: the configuration's 32/256-phit input buffers", {NULL},
	 repro_mechs_small, 4, 5000},
	/* OLM's latency creeps up for ~12k cycles with these buffers on h4 */
	{"large", "H16: 256/2048-phit local/global input buffers",
	 {"buffers.local=256", "buffers.global=2048", NULL}, repro_mechs_large, 2, 15000},
};

/* The figures of one run: parsed from its summary, or computed from its CSV. */
struct repro_figs {
	bool have_sum;		  /**< the summary (.txt) was parsed */
	long long reaction;	  /**< spec §8.6 reaction time, -1 never settles */
	double peak_lat;	  /**< highest bin-average latency from t0 on */
	long long peak_cycle;	  /**< its bin */
	bool have_csv;		  /**< the CSV was read */
	double pre_mis, ss_mis;	  /**< % misrouted before t0, steady (last 20% of the window) */
	double pre_lat, ss_lat;	  /**< latency before t0, steady */
	int64_t t80_ma, t80_c100; /**< 80% of the change on MA10 / centred 100-cycle mean */
	int64_t settle_mis;	  /**< centred 100-cycle mean within ±5 pp of ss_mis from here */
	int64_t settle_lat;	  /**< same for latency within ±5% of ss_lat */
	int64_t per_mis, per_lat; /**< autocorrelation period (cycles), REPRO_NA if none */
	double r_mis, r_lat;	  /**< autocorrelation at that lag */
	unsigned ndips;		  /**< dips of the misrouted share found */
	int64_t dips[REPRO_MAX_DIPS]; /**< their cycles after t0 */
	double depth[REPRO_MAX_DIPS]; /**< their depth in pp */
	int64_t react_trim;	      /**< spec §8.6 reaction time on the shortened window */
};

/* One `dfly transient` run. */
struct repro_run {
	const struct repro_exp *exp; /**< its experiment */
	const char *mech;	     /**< routing.mechanism */
	char name[32];		     /**< MECH-EXP: file names and plot label */
	char csv[512], txt[512];     /**< DIR/NAME.csv, DIR/NAME.txt */
	char mech_set[64], warmup[32], post[24], seeds[24];
	const char *argv[REPRO_MAX_ARGS]; /**< for cmd_transient(), NULL-terminated */
	int argc;			  /**< entries of argv */
	pid_t pid;			  /**< while running */
	double start, wall;		  /**< wall clock at start, seconds taken */
	int status;			  /**< exit status, -1 not finished */
	struct repro_figs figs;		  /**< read back after the run */
};

/* A figure: which runs (by name) and from which CSVs (full window or zoom/). */
struct repro_plot {
	const char *file;     /**< PNG name in DIR */
	const char *what;     /**< title after the common part */
	bool zoom;	      /**< plot DIR/zoom/NAME.csv */
	const char *runs[5];  /**< run names, NULL-terminated */
};

static const struct repro_plot repro_plots[] = {
	{"transient-small.png", "32/256-phit buffers", false,
	 {"pb-small", "olm-small", "val-small", NULL}},
	{"transient-small-zoom.png", "32/256-phit buffers, first 600 cycles", true,
	 {"pb-small", "olm-small", "val-small", NULL}},
	{"transient-small-all.png", "32/256-phit buffers, with MIN", false,
	 {"pb-small", "olm-small", "val-small", "min-small", NULL}},
	{"transient-large.png", "256/2048-phit vs 32/256-phit buffers", false,
	 {"pb-large", "olm-large", "pb-small", "olm-small", NULL}},
};

/* Print one shell word, quoted if it needs to be. */
static void repro_word(FILE *f, const char *s)
{
	static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "0123456789_-+=./,:@%";

	if (*s && strspn(s, safe) == strlen(s)) {
		fputs(s, f);
		return;
	}
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

/* Print a command line: @p prog, then argv[skip..], then "> redirect" if not NULL. */
static void repro_cmdline(FILE *f, const char *prog, const char *const *argv, int skip,
			  const char *redirect)
{
	repro_word(f, prog);
	for (int i = skip; argv[i] != NULL; i++) {
		fputc(' ', f);
		repro_word(f, argv[i]);
	}
	if (redirect) {
		fputs(" > ", f);
		repro_word(f, redirect);
	}
	fputc('\n', f);
}

/* mkdir -p. @return 0 or -errno. */
static int repro_mkdirs(const char *path)
{
	char buf[512];
	size_t len = strlen(path);

	if (len == 0 || len >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0777) != 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0777) != 0 && errno != EEXIST)
		return -errno;
	return 0;
}

/*
 * A file of the source tree: @p rel itself if it is readable from the current directory (so the
 * printed commands stay short when run from the tree), else DFLY_SOURCE_DIR/rel.
 */
static void repro_src_path(const char *rel, char *buf, size_t len)
{
	if (access(rel, R_OK) == 0)
		snprintf(buf, len, "%s", rel);
	else
		snprintf(buf, len, "%s/%s", DFLY_SOURCE_DIR, rel);
}

/* The path of this executable, relative to the current directory when it lies below it. */
static void repro_self(char *buf, size_t len)
{
	char exe[512], cwd[512];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	size_t c;

	if (n <= 0) {
		snprintf(buf, len, "dfly");
		return;
	}
	exe[n] = '\0';
	if (getcwd(cwd, sizeof(cwd)) != NULL && (c = strlen(cwd)) > 0 &&
	    strncmp(exe, cwd, c) == 0 && exe[c] == '/')
		snprintf(buf, len, ".%s", exe + c);
	else
		snprintf(buf, len, "%s", exe);
}

/* Start @p r: fork a child that runs cmd_transient() with its stdout in r->txt. */
static int repro_start(struct repro_run *r)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int fd = open(r->txt, O_WRONLY | O_CREAT | O_TRUNC, 0666);

		if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0) {
			fprintf(stderr, "dfly repro: %s: %s\n", r->txt, strerror(errno));
			_exit(2);
		}
		close(fd);
		exit(cmd_transient(r->argc, (char **)r->argv));
	}
	r->pid = pid;
	r->start = now_s();
	return 0;
}

/* Wait for any started run; record its status. @return the run, NULL if none is running. */
static struct repro_run *repro_wait(struct repro_run *runs, unsigned n)
{
	int st;
	pid_t pid;

	for (;;) {
		pid = waitpid(-1, &st, 0);
		if (pid < 0 && errno == EINTR)
			continue;
		if (pid < 0)
			return NULL;
		for (unsigned i = 0; i < n; i++) {
			struct repro_run *r = &runs[i];

			if (r->pid != pid)
				continue;
			r->pid = 0;
			r->wall = now_s() - r->start;
			r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
			return r;
		}
	}
}

/* Run a program (argv[0] found by execvp) and wait for it. @return its exit status. */
static int repro_exec(const char *const *argv)
{
	int st;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execvp(argv[0], (char **)argv);
		fprintf(stderr, "dfly repro: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The columns of a `dfly transient` CSV that the figures use. */
struct repro_series {
	unsigned n;    /**< bins */
	unsigned z;    /**< index of the bin starting at t0 */
	unsigned bin;  /**< bin width in cycles */
	int64_t *cyc;  /**< bin start relative to t0 */
	double *lat;   /**< lat_avg */
	double *mis;   /**< misrouted_pct */
	double *ma;    /**< misrouted_ma10 */
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
static int64_t repro_first_reach(const struct repro_series *s, const double *y, double thr,
				 bool up)
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
		else if (sscanf(line, "latency (cycles): before %lf, peak %lf at cycle %lld, "
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

	repro_read_summary(r->txt, fg);
	rc = repro_read_csv(r->csv, zoom, &s);
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

	fprintf(f, "%-10s %4s %6s %6s %6s %6s %6s %6s %8s %7s %8s %10s %7s\n", "run", "exit",
		"react", "react'", "t80ma", "t80c", "setl%", "setlL", "mis%pre", "mis%ss",
		"lat-pre", "peak@cyc", "lat-ss");
	for (unsigned i = 0; i < n; i++) {
		const struct repro_run *r = &runs[i];
		const struct repro_figs *fg = &r->figs;
		char peak[32] = "?", react[24] = "?";

		if (!fg->have_csv) {
			fprintf(f, "%-10s %4d (no CSV)\n", r->name, r->status);
			continue;
		}
		if (fg->have_sum) {
			snprintf(peak, sizeof(peak), "%.0f@%+lld", fg->peak_lat, fg->peak_cycle);
			repro_cyc(react, sizeof(react), fg->reaction);
		}
		fprintf(f, "%-10s %4d %6s %6s %6s %6s %6s %6s %8.2f %7.2f %8.1f %10s %7.1f\n",
			r->name, r->status, react, repro_cyc(b[4], 24, fg->react_trim),
			repro_cyc(b[0], 24, fg->t80_ma), repro_cyc(b[1], 24, fg->t80_c100),
			repro_cyc(b[2], 24, fg->settle_mis), repro_cyc(b[3], 24, fg->settle_lat),
			fg->pre_mis, fg->ss_mis, fg->pre_lat, peak, fg->ss_lat);
	}
	fprintf(f, "\n%-10s %14s %14s  %s\n", "run", "period mis(r)", "period lat(r)",
		"dips of % misrouted: cycle after t0 (depth, pp)");
	for (unsigned i = 0; i < n; i++) {
		const struct repro_figs *fg = &runs[i].figs;
		char pm[32], pl[32];

		if (!fg->have_csv)
			continue;
		snprintf(pm, sizeof(pm), "%s(%.2f)", repro_cyc(b[0], 24, fg->per_mis), fg->r_mis);
		snprintf(pl, sizeof(pl), "%s(%.2f)", repro_cyc(b[1], 24, fg->per_lat), fg->r_lat);
		fprintf(f, "%-10s %14s %14s ", runs[i].name, pm, pl);
		for (unsigned d = 0; d < fg->ndips; d++)
			fprintf(f, " %lld(%.0f)", (long long)fg->dips[d], fg->depth[d]);
		if (fg->ndips >= 2)
			fprintf(f, "  (mean spacing %.0f)",
				(double)(fg->dips[fg->ndips - 1] - fg->dips[0]) / (fg->ndips - 1));
		fputc('\n', f);
	}
	fprintf(f,
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
}

/* The command line of a figure. */
struct repro_plot_cmd {
	char csvs[5][512];	/**< the CSVs */
	char png[512];		/**< DIR/FILE */
	char title[256];	/**< the figure's title */
	const char *argv[10];	/**< plot-transient.sh CSV... PNG TITLE, NULL-terminated */
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
			ok = strcmp(runs[i].name, pl->runs[j]) == 0 && runs[i].figs.have_csv;
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

static int cmd_repro(int argc, char **argv)
{
	static const struct option opts[] = {
		{"scale", required_argument, NULL, 'a'}, {"seeds", required_argument, NULL, 'k'},
		{"out", required_argument, NULL, 'o'},	 {"quick", no_argument, NULL, 'Q'},
		{"jobs", required_argument, NULL, 'j'},	 {"dry-run", no_argument, NULL, 'n'},
		{"report-only", no_argument, NULL, 'r'}, {"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	static struct repro_run runs[REPRO_MAX_RUNS];
	const char *scale = "h4", *out = "out/repro-transient";
	static struct repro_plot_cmd pc;
	char self[512], cfg[512], plot_sh[512], path[512], zoom[512], zpath[600];
	uint64_t seeds = 0, jobs = 1;
	bool quick = false, dry = false, report = false;
	unsigned n = 0, next = 0, running = 0, failed = 0, done = 0;
	int opt, rc, status = 0;
	double wall0 = now_s();
	FILE *f;

	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage_repro(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (strcmp(argv[1], "transient") != 0) {
		fprintf(stderr, "dfly repro: unknown experiment '%s' (known: transient)\n",
			argv[1]);
		return 2;
	}
	argc--;
	argv++;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
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
			if (transient_parse_u64(optarg, opt == 'k' ? &seeds : &jobs) != 0 ||
			    (opt == 'k' ? seeds : jobs) == 0 ||
			    (opt == 'k' ? seeds > 10000 : jobs > REPRO_MAX_RUNS)) {
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
			usage_repro(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "dfly repro: unexpected argument '%s'\n", argv[optind]);
		usage_repro(stderr);
		return 2;
	}
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
	for (unsigned e = 0; e < sizeof(repro_exps) / sizeof(repro_exps[0]); e++) {
		const struct repro_exp *x = &repro_exps[e];

		for (unsigned m = 0; m < x->nmech; m++) {
			struct repro_run *r = &runs[n++];
			const char **a = r->argv;
			int k = 0;

			r->exp = x;
			r->mech = x->mechs[m].name;
			r->status = -1;
			snprintf(r->name, sizeof(r->name), "%s-%s", r->mech, x->id);
			snprintf(r->csv, sizeof(r->csv), "%s/%s-%s.csv", out, r->mech, x->id);
			snprintf(r->txt, sizeof(r->txt), "%s/%s-%s.txt", out, r->mech, x->id);
			snprintf(r->mech_set, sizeof(r->mech_set), "routing.mechanism=%s", r->mech);
			snprintf(r->warmup, sizeof(r->warmup), "sim.warmup=%d", 10000);
			snprintf(r->post, sizeof(r->post), "%u", quick ? 3000 : x->post);
			snprintf(r->seeds, sizeof(r->seeds), "%llu", (unsigned long long)seeds);
			a[k++] = "transient";
			a[k++] = cfg;
			a[k++] = "--set";
			a[k++] = r->mech_set;
			if (x->mechs[m].set) {
				a[k++] = "--set";
				a[k++] = x->mechs[m].set;
			}
			for (unsigned j = 0; x->sets[j] != NULL; j++) {
				a[k++] = "--set";
				a[k++] = x->sets[j];
			}
			a[k++] = "--set";
			a[k++] = r->warmup;
			a[k++] = "--from";
			a[k++] = "un";
			a[k++] = "--to";
			a[k++] = "adv+1";
			a[k++] = "--load";
			a[k++] = "0.2";
			a[k++] = "--pre";
			a[k++] = "500";
			a[k++] = "--post";
			a[k++] = r->post;
			a[k++] = "--bin";
			a[k++] = "5";
			a[k++] = "--seed";
			a[k++] = "1";
			a[k++] = "--seeds";
			a[k++] = r->seeds;
			a[k++] = "--csv";
			a[k++] = r->csv;
			a[k++] = "--quiet";
			a[k] = NULL;
			r->argc = k;
		}
	}

	/* every command, as a script */
	snprintf(path, sizeof(path), "%s/commands.sh", out);
	f = fopen(path, "w");
	if (f == NULL) {
		fprintf(stderr, "dfly repro: %s: %s\n", path, strerror(errno));
		return 2;
	}
	fprintf(f, "#!/bin/sh\n# dfly repro transient --scale %s --seeds %llu%s\nset -e\n", scale,
		(unsigned long long)seeds, quick ? " --quick" : "");
	for (unsigned i = 0; i < n; i++)
		repro_cmdline(f, self, runs[i].argv, 0, runs[i].txt);
	fprintf(f, "# the zoomed CSVs: cycles %d..%d of the CSVs\n", REPRO_ZOOM_LO,
		REPRO_ZOOM_HI - 1);
	for (unsigned i = 0; i < n; i++) {
		fprintf(f, "awk -F, 'NR == 1 || ($1 >= %d && $1 < %d)' ", REPRO_ZOOM_LO,
			REPRO_ZOOM_HI);
		repro_word(f, runs[i].csv);
		fprintf(f, " > ");
		snprintf(zpath, sizeof(zpath), "%s/%s.csv", zoom, runs[i].name);
		repro_word(f, zpath);
		fputc('\n', f);
	}
	fprintf(f, "# the figures\n");
	for (unsigned p = 0; p < sizeof(repro_plots) / sizeof(repro_plots[0]); p++) {
		repro_plot_cmd(&pc, &repro_plots[p], plot_sh, out, scale, seeds, NULL, 0);
		repro_cmdline(f, pc.argv[0], pc.argv, 1, NULL);
	}
	if (fclose(f) != 0) {
		fprintf(stderr, "dfly repro: %s: write failed\n", path);
		return 2;
	}
	chmod(path, 0755);
	if (dry) {
		printf("# dfly repro transient: %u runs (dry run); commands in %s\n", n, path);
		f = fopen(path, "r");
		if (f != NULL) {
			char line[2048];

			while (fgets(line, sizeof(line), f) != NULL)
				fputs(line, stdout);
			fclose(f);
		}
		return 0;
	}

	printf("# dfly repro transient --scale %s: %u runs, %llu seeds each, %llu job(s); output in "
	       "%s\n",
	       scale, n, (unsigned long long)seeds, (unsigned long long)jobs, out);
	for (unsigned i = 0; report && i < n; i++) {
		runs[i].status = access(runs[i].csv, R_OK) == 0 ? 0 : 1;
		failed += runs[i].status != 0;
	}
	while (!report && done < n) {
		while (next < n && running < jobs) {
			struct repro_run *r = &runs[next];

			if (next == 0 || runs[next - 1].exp != r->exp)
				printf("== experiment %s: %s\n", r->exp->id, r->exp->what);
			printf("[%u/%u] %s: ", next + 1, n, r->name);
			repro_cmdline(stdout, self, r->argv, 0, r->txt);
			if (repro_start(r) != 0) {
				fprintf(stderr, "dfly repro: %s: fork: %s\n", r->name,
					strerror(errno));
				r->status = 1;
				failed++;
				done++;
			} else {
				running++;
			}
			next++;
		}
		if (running == 0)
			continue;
		{
			struct repro_run *r = repro_wait(runs, n);

			if (r == NULL) {
				fprintf(stderr, "dfly repro: waitpid: %s\n", strerror(errno));
				return 1;
			}
			running--;
			done++;
			if (r->status != 0)
				failed++;
			printf("[%u/%u done] %s: %s in %.0f s (%.0f s elapsed)\n", done, n, r->name,
			       r->status == 0 ? "ok" : "FAILED", r->wall, now_s() - wall0);
			fflush(stdout);
		}
	}

	/* figures from the CSVs, zoomed copies, plots */
	for (unsigned i = 0; i < n; i++) {
		struct repro_run *r = &runs[i];

		if (r->status != 0)
			continue;
		snprintf(zpath, sizeof(zpath), "%s/%s.csv", zoom, r->name);
		rc = repro_figures(r, zpath);
		if (rc) {
			fprintf(stderr, "dfly repro: %s: %s\n", r->csv, strerror(-rc));
			status = 1;
		}
	}
	for (unsigned p = 0; p < sizeof(repro_plots) / sizeof(repro_plots[0]); p++) {
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
		fprintf(f, "# dfly repro transient --scale %s --seeds %llu%s: %u runs", scale,
			(unsigned long long)seeds, quick ? " --quick" : "", n);
		if (report)
			fprintf(f, " (tables redone with --report-only)\n");
		else
			fprintf(f, " in %.0f s\n", now_s() - wall0);
		repro_report(f, runs, n);
		fprintf(f, "\n# commands (also in commands.sh)\n");
		for (unsigned i = 0; i < n; i++)
			repro_cmdline(f, self, runs[i].argv, 0, runs[i].txt);
		if (fclose(f) != 0)
			status = 1;
	}
	printf("# %u/%u runs ok in %.0f s; tables in %s\n", n - failed, n, now_s() - wall0, path);
	return failed ? 1 : status;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage_main(stderr);
		return 2;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage_main(stdout);
		return 0;
	}
	if (strcmp(argv[1], "sim") == 0)
		return cmd_sim(argc - 1, argv + 1);
	if (strcmp(argv[1], "topo") == 0)
		return cmd_topo(argc - 1, argv + 1);
	if (strcmp(argv[1], "bench") == 0)
		return cmd_bench(argc - 1, argv + 1);
	if (strcmp(argv[1], "transient") == 0)
		return cmd_transient(argc - 1, argv + 1);
	if (strcmp(argv[1], "repro") == 0)
		return cmd_repro(argc - 1, argv + 1);
	fprintf(stderr, "dfly: unknown command '%s'\n", argv[1]);
	usage_main(stderr);
	return 2;
}
