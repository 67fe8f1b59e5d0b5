/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The `dfly` command: the user's entry point to the emulator in virtual time.
 *   dfly sim    run the virtual-time fabric over loads, mechanisms, patterns and seeds
 *   dfly topo   print a network's topology, link table, path statistics and VC needs
 *   dfly bench  measure emulation speed (bench sim)
 *   dfly transient  switch the traffic pattern after the warm-up and record the response
 *   dfly repro transient  the papers' UN -> ADV+1 transients (H13, H15, H16), with figures
 *   dfly repro steady, threshold  the papers' load and threshold sweeps (H8-H11, H17)
 *   dfly repro lia  the LIA paper's load sweeps and ADVc per switch (H31-H37)
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

#include "cmds.h"
#include "fabric.h"
#include "capture.h"
#include "dfly/wire.h"
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
		   "  repro transient|steady|threshold|lia  rerun the papers' transient,\n"
		   "          steady-state, threshold and LIA experiments and draw their figures\n"
		   "          (dfly repro --help)\n"
		   "  stats   read the routers' counters live from shared memory (dfly stats --help)\n"
		   "  testbed generate, start and stop a testbed of dfly-switch processes, hosts in\n"
		   "          namespaces (dfly testbed --help)\n"
		   "  trace   analyse pcap captures: latency, hops, path kinds, misrouting over\n"
		   "          time, link and node loads (dfly trace --help)\n"
		   "  plot    draw the CSVs of sim, transient and trace as PNG with gnuplot\n"
		   "          (dfly plot --help)\n"
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
		"                       (fw.*), packets injected in the measurement window\n"
		"                       (sim.inj_window), one \"name value\" line each\n"
		"  --capture FILE       capture the run to a pcap file (nanosecond timestamps in\n"
		"                       emulated time; format: include/dfly/trace.h), with the\n"
		"                       capture.* settings: points (host_rx, host_tx, port_rx,\n"
		"                       port_tx, vc_enq, drop; default all), routers, ports,\n"
		"                       sample (1 in N packets), snaplen, rotate_kb, meta\n"
		"                       (metadata records, default true); also capture.file.\n"
		"                       Several runs write FILE-MECH-PATTERN-LOAD-sSEED.pcap.\n"
		"                       Read it with dfly trace or Wireshark\n"
		"                       (tools/wireshark/dfly.lua)\n"
		"  --firmware-instance NAME\n"
		"                       put the register files in POSIX shared memory\n"
		"                       /dfly.NAME.r<router> and leave the firmware to\n"
		"                       dfly-controld CONFIG --instance NAME (same --set options);\n"
		"                       each cycle waits for it, so the run is the same as with\n"
		"                       the firmware inside; one run only (one mechanism, pattern,\n"
		"                       load and seed)\n"
		"  --firmware-wait MS   how long a cycle waits for dfly-controld before the ASICs\n"
		"                       go on without it on their last tables (default 5000)\n"
		"  --ctrl-fault TYPES:LOSS_PPM[:DELAY]\n"
		"                       fault: on every fabric link, the firmware's control frames\n"
		"                       of TYPES (comma-separated: pb_state, ectn_partial,\n"
		"                       link_state, or all) are lost with LOSS_PPM per million\n"
		"                       (drop.ctrl_fault) and the others arrive DELAY cycles late\n"
		"                       (port ctrl_delayed; the control line stays in order)\n"
		"  --link-down R:P:FROM[:TO]\n"
		"                       fault: the link of fabric port P of router R (both\n"
		"                       directions) is down from cycle FROM until cycle TO (never\n"
		"                       back without TO); cycles count from 0, warm-up included.\n"
		"                       routing.failover routes around it (repeatable, up to 64)\n"
		"  --quiet              no progress lines\n"
		"  --help               this text\n"
		"\n"
		"Mechanisms (routing.mechanism): min, val (Valiant; routing.val.path_a lgl | lg- |\n"
		"-gl | -g-), ugal (UGAL-L; routing.ugal.f, .t in packets, .occupancy vc | port), pb\n"
		"(PiggyBack; routing.pb.f, .t, .average all | other, .bits vc | port, .exchange oob |\n"
		"inband, .period, .piggyback_every, .send_unchanged), par (PAR, needs vcs.local = 5),\n"
		"olm (OLM; routing.olm.threshold_pct, .min_occupancy_pct), base, filtered, hybrid,\n"
		"ectn (contention counters; routing.cc.*, routing.hybrid.*, routing.ectn.*), lia, tpr\n"
		"(routing.lia.*), pb-acor (routing.acor.*), ugal-g (an oracle, dfly sim only). FlexVC\n"
		"for min and val: vcs.flexvc. Patterns (traffic.pattern): un, adv+N, adv-N, advc,\n"
		"perm, c1, c2. Every setting, its default and its source in the papers:\n"
		"configs/README.md. Transients: dfly transient --help.\n"
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

const char *self_dir(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	char *slash;

	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (slash == NULL)
		return NULL;
	*slash = '\0';
	return buf;
}

double now_s(void)
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

/* The capture file of one run: @p base itself, or with several runs
 * BASE-MECH-PATTERN-LOAD-sSEED.EXT (EXT kept from base, .pcap if none). */
static void capture_path(const char *base, bool multi, const struct dfly_netcfg *cfg,
			 const char *pat, uint64_t seed, char *buf, size_t len)
{
	const char *dot = strrchr(base, '.'), *slash = strrchr(base, '/');

	if (!multi) {
		snprintf(buf, len, "%s", base);
		return;
	}
	if (dot == NULL || (slash != NULL && dot < slash))
		dot = base + strlen(base);
	snprintf(buf, len, "%.*s-%s-%s-%.3f-s%llu%s", (int)(dot - base), base,
		 dfly_mode_name(cfg->mode), pat, cfg->load, (unsigned long long)seed,
		 *dot ? dot : ".pcap");
}

/* --ctrl-fault TYPES:LOSS_PPM[:DELAY] (the control types the firmware sends). */
static int parse_ctrl_fault(const char *arg, struct dfly_fabric_opts *o)
{
	char buf[256], *save = NULL, *tok, *types, *rest, *end;
	unsigned long loss, delay = 0;
	uint32_t mask = 0;

	snprintf(buf, sizeof(buf), "%s", arg);
	rest = strchr(buf, ':');
	if (rest == NULL)
		return -1;
	*rest++ = '\0';
	types = buf;
	for (tok = strtok_r(types, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		if (strcmp(tok, "all") == 0) {
			mask |= 1u << DFLY_WIRE_CTRL_PB_STATE | 1u << DFLY_WIRE_CTRL_ECTN_PARTIAL |
				1u << DFLY_WIRE_CTRL_LINK_STATE;
		} else if (strcmp(tok, "pb_state") == 0 || strcmp(tok, "ectn_partial") == 0 ||
			   strcmp(tok, "link_state") == 0) {
			for (unsigned t = 1; t < DFLY_WIRE_CTRL_COUNT; t++)
				if (strcmp(tok, dfly_wire_ctrl_name(t)) == 0)
					mask |= 1u << t;
		} else {
			return -1;
		}
	}
	if (*rest < '0' || *rest > '9')
		return -1;
	loss = strtoul(rest, &end, 10);
	if (*end == ':') {
		if (end[1] < '0' || end[1] > '9')
			return -1;
		delay = strtoul(end + 1, &end, 10);
	}
	if (*end != '\0' || mask == 0 || loss > 1000000 || delay > 1000000)
		return -1;
	o->ctrl_types = mask;
	o->ctrl_loss_ppm = (uint32_t)loss;
	o->ctrl_delay = (uint32_t)delay;
	return 0;
}

int cmd_sim(int argc, char **argv)
{
	static const struct option opts[] = {
		{"set", required_argument, NULL, 's'},	 {"loads", required_argument, NULL, 'l'},
		{"seed", required_argument, NULL, 'S'},	 {"seeds", required_argument, NULL, 'k'},
		{"csv", required_argument, NULL, 'c'},	 {"mechanisms", required_argument, NULL, 'm'},
		{"patterns", required_argument, NULL, 'p'}, {"quiet", no_argument, NULL, 'q'},
		{"counters", required_argument, NULL, 'C'}, {"help", no_argument, NULL, 'h'},
		{"firmware-instance", required_argument, NULL, 'F'},
		{"firmware-wait", required_argument, NULL, 'W'},
		{"capture", required_argument, NULL, 'P'},
		{"link-down", required_argument, NULL, 'D'},
		{"ctrl-fault", required_argument, NULL, 'X'},
		{NULL, 0, NULL, 0},
	};
	struct dfly_fabric_opts fopts = {0};
	struct dfly_link_fault faults[64];
	const char *cap_arg = NULL;
	unsigned runs_started = 0;
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
	char cap_path[1024] = "";

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
		case 'P':
			cap_arg = optarg;
			break;
		case 'F':
			fopts.shm_instance = optarg;
			break;
		case 'W': {
			char *end;
			unsigned long v = strtoul(optarg, &end, 10);

			if (*optarg < '0' || *optarg > '9' || *end != '\0' || v == 0 ||
			    v > 3600000) {
				fprintf(stderr, "dfly sim: --firmware-wait %s: expected 1..3600000 "
						"milliseconds\n",
					optarg);
				return 2;
			}
			fopts.fw_wait_ms = (uint32_t)v;
			break;
		}
		case 'D': {
			struct dfly_link_fault *f = &faults[fopts.nfaults];
			unsigned long long down = 0, up = 0;
			unsigned r = 0, port = 0;
			int used = 0, n;

			n = sscanf(optarg, "%u:%u:%llu%n:%llu%n", &r, &port, &down, &used, &up, &used);
			if (fopts.nfaults >= 64 || n < 3 || optarg[used] != '\0' ||
			    *optarg < '0' || *optarg > '9' || (n == 4 && up <= down)) {
				fprintf(stderr,
					"dfly sim: --link-down %s: expected ROUTER:PORT:FROM[:TO] with "
					"TO > FROM (cycles), at most 64\n",
					optarg);
				return 2;
			}
			f->router = r;
			f->port = port;
			f->down = down;
			f->up = n == 4 ? up : 0;
			fopts.faults = faults;
			fopts.nfaults++;
			break;
		}
		case 'X':
			if (parse_ctrl_fault(optarg, &fopts) != 0) {
				fprintf(stderr,
					"dfly sim: --ctrl-fault %s: expected TYPES:LOSS_PPM[:DELAY], TYPES a "
					"comma-separated list of pb_state, ectn_partial, link_state or all, "
					"LOSS_PPM 0..1000000, DELAY 0..1000000 cycles\n",
					optarg);
				return 2;
			}
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
					struct dfly_fabric *fab;

					if (fopts.shm_instance && runs_started++ > 0) {
						fprintf(stderr,
							"dfly sim: --firmware-instance runs one "
							"configuration only (one mechanism, pattern, "
							"load and seed)\n");
						status = 2;
						goto out;
					}
					fab = dfly_fabric_create_opts(&cfg, seed, &fopts, err,
								      sizeof(err));

					if (fab == NULL) {
						fprintf(stderr, "dfly sim: %s\n", err);
						status = 2;
						goto out;
					}
					if (!quiet)
						fprintf(stderr, "run %s %s load %.3f seed %llu\n",
							dfly_mode_name(cfg.mode), patname, cfg.load,
							(unsigned long long)seed);
					if (cap_arg != NULL || cfg.cap_file[0] != '\0') {
						bool multi = nmech > 1 || npat > 1 || nloads > 1 ||
							     cfg.seeds > 1;

						capture_path(cap_arg ? cap_arg : cfg.cap_file, multi,
							     &cfg, patname, seed, cap_path,
							     sizeof(cap_path));
						if (dfly_fabric_capture(fab, cap_path, err, sizeof(err)) <
						    0) {
							fprintf(stderr, "dfly sim: %s\n", err);
							dfly_fabric_destroy(fab);
							status = 2;
							goto out;
						}
					}
					dfly_fabric_run(fab, &r, !quiet);
					if (cap_path[0] != '\0') {
						struct dfly_capture_stats cs;

						if (dfly_fabric_capture_close(fab, &cs) < 0 ||
						    cs.errors) {
							fprintf(stderr,
								"dfly sim: capture %s: %llu record(s) "
								"not written\n",
								cap_path,
								(unsigned long long)cs.errors);
							status = 1;
						}
						if (!quiet)
							fprintf(stderr,
								"capture: %llu records, %llu bytes in "
								"%u file(s) from %s; %llu cut to the "
								"snap length, %llu left out by the "
								"sampling\n",
								(unsigned long long)cs.records,
								(unsigned long long)cs.bytes, cs.files,
								cap_path,
								(unsigned long long)cs.truncated,
								(unsigned long long)cs.sampled_out);
						cap_path[0] = '\0';
					}
					if (fopts.shm_instance && !quiet)
						fprintf(stderr,
							"run: %llu cycles without the external "
							"firmware in step\n",
							(unsigned long long)
								dfly_fabric_fw_absent_cycles(fab));
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
	dfly_cc_rule(stdout, &cfg, t);
	dfly_topo_destroy(t);
	return 0;
}

uint32_t dfly_cc_rule(FILE *f, const struct dfly_netcfg *cfg, const struct dfly_topo *t)
{
	/* spec §5.8 (CBAR §VI-A): th ≥ 2·v̄ (UN must not trigger), th ≤ p (ADV must); v̄ counts
	 * the VCs packets can occupy: the injection VCs and the 3/2 that the contention modes use
	 * (CFG-T: 85/31 = 2.74) */
	uint32_t l, g, nvc;
	uint8_t map[DFLY_ROLE_COUNT];
	struct dfly_netcfg cc = *cfg;
	double vbar;
	uint32_t lo;

	cc.mode = DFLY_MODE_BASE;
	dfly_netcfg_vc_needs(&cc, &l, &g, map);
	nvc = t->p * cfg->vc_inj + (t->a - 1) * l + t->h * g;
	vbar = (double)nvc / t->radix;
	lo = (uint32_t)ceil(2.0 * vbar - 1e-9);
	if (f == NULL)
		return lo;
	fprintf(f,
		"contention threshold (spec 5.8): %u input VCs (injection %u, local %u, global %u) "
		"over %u ports, v = %.2f; th >= 2v = %u and th <= p = %u: ",
		nvc, cfg->vc_inj, l, g, t->radix, vbar, lo, t->p);
	if (lo <= t->p)
		fprintf(f, "valid %u..%u, pick %u (routing.cc.threshold is %u)\n", lo, t->p, lo,
			cfg->cc_th);
	else
		fprintf(f, "no valid threshold for this radix (routing.cc.threshold is %u)\n",
			cfg->cc_th);
	return lo;
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
int transient_parse_u64(const char *s, uint64_t *out)
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
	if (strcmp(argv[1], "stats") == 0)
		return cmd_stats(argc - 1, argv + 1);
	if (strcmp(argv[1], "trace") == 0)
		return cmd_trace(argc - 1, argv + 1);
	if (strcmp(argv[1], "plot") == 0)
		return cmd_plot(argc - 1, argv + 1);
	if (strcmp(argv[1], "testbed") == 0)
		return cmd_testbed(argc - 1, argv + 1);
	fprintf(stderr, "dfly: unknown command '%s'\n", argv[1]);
	usage_main(stderr);
	return 2;
}
