/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfly sim: the virtual-time fabric (sim/fabric.h) run over mechanisms x patterns x loads x
 * seeds, a table on stdout averaged over seeds, a CSV row and a counter dump per run.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "cli.h"
#include "cmds.h"
#include "dfly/wire.h"
#include "fabric.h"
#include "netcfg.h"

/* One line per mechanism of the registry (dfly/mode.h), its help folded to 80 columns. */
static void usage_mechanisms(FILE *f)
{
	for (uint32_t m = 0; m < DFLY_MODE_COUNT; m++) {
		const char *h = dfly_mode_help(m);
		int col = fprintf(f, "  %-10s ", dfly_mode_name(m)), indent = col;

		for (bool first = true; *h != '\0'; first = false) {
			size_t w;

			while (*h == ' ')
				h++;
			w = strcspn(h, " ");
			if (w == 0)
				break;
			if (!first && col + 1 + (int)w > 80)
				col = fprintf(f, "\n%*s", indent, "") - 1;
			else if (!first)
				col += fprintf(f, " ");
			col += fprintf(f, "%.*s", (int)w, h);
			h += w;
		}
		fprintf(f, "\n");
	}
}

static void usage_sim(FILE *f)
{
	char flexvc[64];

	dfly_mode_list(DFLY_MODEF_FLEXVC, flexvc, sizeof(flexvc));
	fprintf(
	    f,
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
	    "  --mechanisms LIST    comma-separated routing.mechanism values (default: the "
	    "file's)\n"
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
	    "                       load and seed). SIGINT, SIGTERM or SIGHUP end the run\n"
	    "                       and remove the files (exit 128 + the signal); a run\n"
	    "                       killed otherwise leaves them: dfly clean --instance NAME\n"
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
	    "Mechanisms (routing.mechanism):\n");
	usage_mechanisms(f);
	fprintf(f,
		"FlexVC for %s: vcs.flexvc. Patterns (traffic.pattern): un, adv+N, adv-N, advc,\n"
		"perm, c1, c2, bursty-un (traffic.burst_length), mix (traffic.mix_un), adv-mix\n"
		"(traffic.mix_offsets), and\n"
		"the workloads run to completion: all-to-all (traffic.placement), halo3d\n"
		"(traffic.halo.*: a 27-point stencil, proposal-defined) and graph500 "
		"(traffic.graph500.*:\n"
		"the BFS model of spec 7.7, its per-level times and network usage). Request-reply "
		"on any\n"
		"steady pattern: traffic.reqrep. Every setting, its default and its\n"
		"source in the papers:\n"
		"configs/README.md. Transients: dfly transient --help.\n"
		"\n"
		"Exit status: 0 if every run kept its invariants, 1 on a deadlock or a violated\n"
		"invariant, 2 on a usage or configuration error, 128 + N when signal N ended a\n"
		"run with --firmware-instance.\n",
		flexvc);
}

static const char csv_header[] =
    "mechanism,pattern,offered,accepted,lat_avg,lat_p50,lat_p99,misrouted_pct,hops_avg,"
    "min_inj,max_min,cov,seed,generated,lat_max,net_lat_avg,lhops_avg,ghops_avg,jain,"
    "pkts_delivered,drop_inj,cycles,invariants";

static void csv_row(FILE *f, const char *mech, const char *pat, uint64_t seed,
		    const struct dfly_sim_result *r, bool reqrep, bool workload)
{
	fprintf(f,
		"%s,%s,%.4f,%.6f,%.3f,%.0f,%.0f,%.3f,%.4f,%.6f,%.4f,%.6f,%llu,%.6f,%llu,%.3f,%.4f,"
		"%.4f,%.6f,%llu,%llu,%llu,%s",
		mech, pat, r->offered, r->accepted, r->lat_avg, r->lat_p50, r->lat_p99,
		r->misrouted_pct, r->hops_avg, r->min_inj, r->max_min, r->cov,
		(unsigned long long)seed, r->generated, (unsigned long long)r->lat_max,
		r->net_lat_avg, r->lhops_avg, r->ghops_avg, r->jain,
		(unsigned long long)r->pkts_delivered, (unsigned long long)r->drop_inj,
		(unsigned long long)r->cycles, r->invariants_ok ? "ok" : "FAILED");
	if (reqrep)
		fprintf(f, ",%.6f,%.3f", r->accepted_rep, r->lat_avg_rep);
	if (workload)
		fprintf(f, ",%llu", (unsigned long long)r->completion);
	fputc('\n', f);
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

/* The signal that asked a run with --firmware-instance to end (0: none): the fabric checks it
 * (dfly_fabric_opts.stop) and the run ends, its register files removed. */
static volatile sig_atomic_t sim_stop;

static void on_signal(int sig)
{
	sim_stop = sig;
}

static const char *sig_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGHUP";
}

/*
 * A run with its register files in /dev/shm must not leave them behind: SIGINT, SIGTERM and
 * SIGHUP (unless ignored, as under nohup) only set sim_stop, and the run ends cleanly.
 */
static void sim_catch_signals(struct dfly_fabric_opts *fo)
{
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (sigaction(SIGHUP, NULL, &old) == 0 && old.sa_handler != SIG_IGN)
		sigaction(SIGHUP, &sa, NULL);
	fo->stop = &sim_stop;
}

/* What the command line asks for (sim_parse). */
struct sim_args {
	struct dfly_fabric_opts fopts;         /* firmware instance, faults */
	struct dfly_link_fault faults[64];     /* --link-down */
	const char *cfg_path;                  /* the network file */
	const char *csv_path, *ctr_path;       /* --csv, --counters, or NULL */
	const char *cap_arg;                   /* --capture, or NULL */
	const char *sets[DFLY_MAX_SETS + 2];   /* --set, then --seed and --seeds as settings */
	const char *labels[DFLY_MAX_SETS + 2]; /* how errors name sets[i]: NULL "--set", or the
						  option typed ("--seeds 3") */
	int nsets;
	double loads[256]; /* --loads, nloads = 0: the file's */
	int nloads;
	char *mechs[DFLY_MAX_LIST], *pats[DFLY_MAX_LIST]; /* NULL alone: the file's */
	int nmech, npat;
	char mech_buf[512], pat_buf[512]; /* what mechs and pats point into */
	char seed_set[64], seeds_set[64];
	char seed_label[64], seeds_label[64];
	bool quiet;
};

/* What the runs produce (sim_run, sim_report_*). */
struct sim_out {
	FILE *csv, *ctr;                      /* open before the first run */
	bool head_done;                       /* the table's heading printed */
	bool reqrep;                          /* a run has traffic.reqrep: its CSV columns */
	bool workload;                        /* a run is a workload: the completion column */
	uint64_t cycles, router_cycles, pkts; /* totals for the speed line */
	int status;                           /* exit status so far */
};

/*
 * Parse the command line into @p a. @return -1 to go on, or the exit status to end with (0
 * after --help, 2 on a usage error, said on stderr).
 */
static int sim_parse(int argc, char **argv, struct sim_args *a)
{
	static const struct option opts[] = {
	    {"set", required_argument, NULL, 's'},
	    {"loads", required_argument, NULL, 'l'},
	    {"seed", required_argument, NULL, 'S'},
	    {"seeds", required_argument, NULL, 'k'},
	    {"csv", required_argument, NULL, 'c'},
	    {"mechanisms", required_argument, NULL, 'm'},
	    {"patterns", required_argument, NULL, 'p'},
	    {"quiet", no_argument, NULL, 'q'},
	    {"counters", required_argument, NULL, 'C'},
	    {"help", no_argument, NULL, 'h'},
	    {"firmware-instance", required_argument, NULL, 'F'},
	    {"firmware-wait", required_argument, NULL, 'W'},
	    {"capture", required_argument, NULL, 'P'},
	    {"link-down", required_argument, NULL, 'D'},
	    {"ctrl-fault", required_argument, NULL, 'X'},
	    {NULL, 0, NULL, 0},
	};
	bool mechs_given = false, pats_given = false;
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (opt) {
		case 's':
			if (a->nsets >= DFLY_MAX_SETS) {
				fprintf(stderr, "dfly sim: too many --set options\n");
				return 2;
			}
			a->sets[a->nsets++] = optarg;
			break;
		case 'l': {
			char err[256];

			a->nloads = dfly_parse_loads(optarg, a->loads, 256, err, sizeof(err));
			if (a->nloads < 0) {
				fprintf(stderr, "dfly sim: --loads %s: %s\n", optarg, err);
				return 2;
			}
			break;
		}
		case 'S':
			snprintf(a->seed_set, sizeof(a->seed_set), "sim.seed=%s", optarg);
			snprintf(a->seed_label, sizeof(a->seed_label), "--seed %s", optarg);
			break;
		case 'k':
			snprintf(a->seeds_set, sizeof(a->seeds_set), "sim.seeds=%s", optarg);
			snprintf(a->seeds_label, sizeof(a->seeds_label), "--seeds %s", optarg);
			break;
		case 'c':
			a->csv_path = optarg;
			break;
		case 'C':
			a->ctr_path = optarg;
			break;
		case 'P':
			a->cap_arg = optarg;
			break;
		case 'F':
			a->fopts.shm_instance = optarg;
			break;
		case 'W': {
			char *end;
			unsigned long v = strtoul(optarg, &end, 10);

			if (*optarg < '0' || *optarg > '9' || *end != '\0' || v == 0 ||
			    v > 3600000) {
				fprintf(stderr,
					"dfly sim: --firmware-wait %s: expected 1..3600000 "
					"milliseconds\n",
					optarg);
				return 2;
			}
			a->fopts.fw_wait_ms = (uint32_t)v;
			break;
		}
		case 'D': {
			struct dfly_link_fault *f = &a->faults[a->fopts.nfaults];
			unsigned long long down = 0, up = 0;
			unsigned r = 0, port = 0;
			int used = 0, n;

			n = sscanf(optarg, "%u:%u:%llu%n:%llu%n", &r, &port, &down, &used, &up,
				   &used);
			if (a->fopts.nfaults >= 64 || n < 3 || optarg[used] != '\0' ||
			    *optarg < '0' || *optarg > '9' || (n == 4 && up <= down)) {
				fprintf(
				    stderr,
				    "dfly sim: --link-down %s: expected ROUTER:PORT:FROM[:TO] with "
				    "TO > FROM (cycles), at most 64\n",
				    optarg);
				return 2;
			}
			f->router = r;
			f->port = port;
			f->down = down;
			f->up = n == 4 ? up : 0;
			a->fopts.faults = a->faults;
			a->fopts.nfaults++;
			break;
		}
		case 'X':
			if (parse_ctrl_fault(optarg, &a->fopts) != 0) {
				fprintf(stderr,
					"dfly sim: --ctrl-fault %s: expected "
					"TYPES:LOSS_PPM[:DELAY], TYPES a "
					"comma-separated list of pb_state, ectn_partial, "
					"link_state or all, "
					"LOSS_PPM 0..1000000, DELAY 0..1000000 cycles\n",
					optarg);
				return 2;
			}
			break;
		case 'm':
		case 'p': {
			char *buf = opt == 'm' ? a->mech_buf : a->pat_buf;

			if (strlen(optarg) >= sizeof(a->mech_buf)) {
				fprintf(stderr,
					"dfly sim: --%s: a list of more than %zu characters\n",
					opt == 'm' ? "mechanisms" : "patterns",
					sizeof(a->mech_buf) - 1);
				return 2;
			}
			snprintf(buf, sizeof(a->mech_buf), "%s", optarg);
			*(opt == 'm' ? &mechs_given : &pats_given) = true;
			break;
		}
		case 'q':
			a->quiet = true;
			break;
		case 'h':
			usage_sim(stdout);
			return 0;
		default:
			return dfly_cli_opt_error("dfly sim", opts, opt, argv);
		}
	}
	if (optind == argc)
		return dfly_cli_usage_error("dfly sim", "a network file (CONFIG) is required");
	if (optind < argc - 1)
		return dfly_cli_usage_error("dfly sim", "unexpected argument '%s'",
					    argv[optind + 1]);
	a->cfg_path = argv[optind];
	if (a->seed_set[0]) {
		a->labels[a->nsets] = a->seed_label;
		a->sets[a->nsets++] = a->seed_set;
	}
	if (a->seeds_set[0]) {
		a->labels[a->nsets] = a->seeds_label;
		a->sets[a->nsets++] = a->seeds_set;
	}
	for (int k = 0; k < 2; k++) {
		char *buf = k ? a->pat_buf : a->mech_buf, **items = k ? a->pats : a->mechs;
		int *n = k ? &a->npat : &a->nmech;
		char given[sizeof(a->mech_buf)], err[128];

		*n = 1;
		items[0] = NULL;
		if (!buf[0] && !(k ? pats_given : mechs_given))
			continue;
		snprintf(given, sizeof(given), "%s", buf);
		*n = dfly_split_list(buf, items, DFLY_MAX_LIST);
		if (*n < 0) {
			dfly_split_list_error(given, *n, DFLY_MAX_LIST, err, sizeof(err));
			fprintf(stderr, "dfly sim: --%s %s: %s\n", k ? "patterns" : "mechanisms",
				given, err);
			return 2;
		}
	}
	return -1;
}

/*
 * The network of one (mechanism, pattern) point: the file with the --set options and the point's
 * mechanism and pattern; an error names the option the user typed (--mechanisms, --patterns,
 * --seeds; --set for a --set). @return 0, or the exit status (2), said on stderr.
 */
static int sim_plan(const struct sim_args *a, int mi, int pi, struct dfly_netcfg *cfg)
{
	const char *s2[DFLY_MAX_SETS + 4], *l2[DFLY_MAX_SETS + 4];
	char mset[600], pset[600], mlabel[600], plabel[600], err[DFLY_NETCFG_ERRLEN];
	int n2 = 0;

	for (int k = 0; k < a->nsets; k++) {
		l2[n2] = a->labels[k];
		s2[n2++] = a->sets[k];
	}
	if (a->mechs[mi]) {
		snprintf(mset, sizeof(mset), "routing.mechanism=%s", a->mechs[mi]);
		snprintf(mlabel, sizeof(mlabel), "--mechanisms %s", a->mechs[mi]);
		l2[n2] = mlabel;
		s2[n2++] = mset;
	}
	if (a->pats[pi]) {
		snprintf(pset, sizeof(pset), "traffic.pattern=%s", a->pats[pi]);
		snprintf(plabel, sizeof(plabel), "--patterns %s", a->pats[pi]);
		l2[n2] = plabel;
		s2[n2++] = pset;
	}
	if (dfly_netcfg_load_labelled(cfg, a->cfg_path, s2, l2, n2, err, sizeof(err)) != 0 ||
	    dfly_sim_threads_env(cfg, err, sizeof(err)) != 0) {
		fprintf(stderr, "dfly sim: %s\n", err);
		return 2;
	}
	return 0;
}

/*
 * Everything checked before anything is printed or run: the network of every point, that
 * --firmware-instance has one run, the CSV and counters files opened. @return 0, or the exit
 * status (2), said on stderr.
 */
static int sim_check(const struct sim_args *a, struct sim_out *o)
{
	uint64_t runs = 0;
	int rc;

	for (int mi = 0; mi < a->nmech; mi++) {
		for (int pi = 0; pi < a->npat; pi++) {
			struct dfly_netcfg cfg;

			if ((rc = sim_plan(a, mi, pi, &cfg)) != 0)
				return rc;
			runs += (uint64_t)cfg.seeds * (uint64_t)(a->nloads ? a->nloads : 1);
			o->reqrep |= cfg.reqrep;
			o->workload |= dfly_netcfg_workload(&cfg);
		}
	}
	if (a->fopts.shm_instance && runs > 1) {
		fprintf(stderr,
			"dfly sim: --firmware-instance runs one configuration only (one "
			"mechanism, pattern, load and seed; this is %llu runs)\n",
			(unsigned long long)runs);
		return 2;
	}
	if (a->csv_path != NULL) {
		o->csv = fopen(a->csv_path, "w");
		if (o->csv == NULL) {
			fprintf(stderr, "dfly sim: %s: %s\n", a->csv_path, strerror(errno));
			return 2;
		}
		/* traffic.reqrep: the replies' figures last (requests: accepted less replies') */
		fprintf(o->csv, "%s%s%s\n", csv_header,
			o->reqrep ? ",accepted_rep,lat_avg_rep" : "",
			o->workload ? ",completion" : "");
	}
	if (a->ctr_path != NULL) {
		o->ctr = fopen(a->ctr_path, "w");
		if (o->ctr == NULL) {
			fprintf(stderr, "dfly sim: %s: %s\n", a->ctr_path, strerror(errno));
			if (o->csv != NULL)
				fclose(o->csv);
			o->csv = NULL;
			return 2;
		}
	}
	return 0;
}

/* The table's heading, before the first point: the network and the protocol. */
static void sim_report_head(const struct sim_args *a, const struct dfly_netcfg *cfg)
{
	struct dfly_topo *t =
	    dfly_topo_create(cfg->p, cfg->a, cfg->h, cfg->t, cfg->arr, cfg->sigma);

	printf("# dfly sim %s: ", a->cfg_path);
	dfly_topo_dump(t, stdout);
	dfly_topo_destroy(t);
	printf("# warmup %llu + measure %llu cycles, %u seed(s) from %llu, "
	       "packet %u phits; loads in phits/(node*cycle), latency in "
	       "cycles\n",
	       (unsigned long long)cfg->warmup, (unsigned long long)cfg->measure, cfg->seeds,
	       (unsigned long long)cfg->seed, cfg->pkt_phits);
	printf("%-5s %-7s %7s %8s %8s %7s %7s %6s %5s %8s %7s %6s\n", "mech", "pattern", "offered",
	       "accepted", "lat_avg", "lat_p50", "lat_p99", "misr%", "hops", "min_inj", "max/min",
	       "cov");
}

/*
 * One run of network @p cfg with @p seed: the fabric created, captured, run, its counters
 * dumped and its CSV row written. @return 0 with the result in @p r, or the exit status (2) if
 * it could not start; a run that broke an invariant sets o->status to 1 and returns 0.
 */
static int sim_run(const struct sim_args *a, struct sim_out *o, const struct dfly_netcfg *cfg,
		   const char *patname, uint64_t seed, struct dfly_sim_result *r)
{
	char err[DFLY_NETCFG_ERRLEN], cap_path[1024] = "";
	struct dfly_fabric *fab;

	fab = dfly_fabric_create_opts(cfg, seed, &a->fopts, err, sizeof(err));
	if (fab == NULL) {
		fprintf(stderr, "dfly sim: %s\n", err);
		return 2;
	}
	if (a->cap_arg != NULL || cfg->cap_file[0] != '\0') {
		bool multi = a->nmech > 1 || a->npat > 1 || a->nloads > 1 || cfg->seeds > 1;

		capture_path(a->cap_arg ? a->cap_arg : cfg->cap_file, multi, cfg, patname, seed,
			     cap_path, sizeof(cap_path));
		if (dfly_fabric_capture(fab, cap_path, err, sizeof(err)) < 0) {
			fprintf(stderr, "dfly sim: %s\n", err);
			dfly_fabric_destroy(fab);
			return 2;
		}
	}
	/* the heading once the first run could start: the errors it may hit come first */
	if (!o->head_done) {
		sim_report_head(a, cfg);
		o->head_done = true;
	}
	if (!a->quiet)
		fprintf(stderr, "run %s %s load %.3f seed %llu\n", dfly_mode_name(cfg->mode),
			patname, cfg->load, (unsigned long long)seed);
	dfly_fabric_run(fab, r, !a->quiet);
	if (r->interrupted) {
		int sig = sim_stop;

		dfly_fabric_destroy(fab); /* removes the register files, closes the capture */
		fprintf(stderr,
			"dfly sim: interrupted by %s at cycle %llu: register files of %s removed\n",
			sig_name(sig), (unsigned long long)r->cycles, a->fopts.shm_instance);
		return 128 + sig;
	}
	if (cap_path[0] != '\0') {
		struct dfly_capture_stats cs;

		if (dfly_fabric_capture_close(fab, &cs) < 0 || cs.errors) {
			fprintf(stderr, "dfly sim: capture %s: %llu record(s) not written\n",
				cap_path, (unsigned long long)cs.errors);
			o->status = 1;
		}
		if (!a->quiet)
			fprintf(stderr,
				"capture: %llu records, %llu bytes in %u file(s) from %s; %llu cut "
				"to the snap length, %llu left out by the sampling\n",
				(unsigned long long)cs.records, (unsigned long long)cs.bytes,
				cs.files, cap_path, (unsigned long long)cs.truncated,
				(unsigned long long)cs.sampled_out);
	}
	if (a->fopts.shm_instance && !a->quiet)
		fprintf(stderr, "run: %llu cycles without the external firmware in step\n",
			(unsigned long long)dfly_fabric_fw_absent_cycles(fab));
	if (o->ctr) {
		fprintf(o->ctr, "# run %s %s load %.4f seed %llu\n", dfly_mode_name(cfg->mode),
			patname, cfg->load, (unsigned long long)seed);
		dfly_fabric_dump_counters(fab, o->ctr);
	}
	o->cycles += r->cycles;
	o->router_cycles += r->cycles * dfly_fabric_topo(fab)->routers;
	o->pkts += r->dlv_total;
	dfly_fabric_destroy(fab);
	if (o->csv)
		csv_row(o->csv, dfly_mode_name(cfg->mode), patname, seed, r, o->reqrep,
			o->workload);
	if (r->deadlock || !r->invariants_ok || !r->drained) {
		fprintf(stderr, "dfly sim: %s %s load %.3f seed %llu: %s\n",
			dfly_mode_name(cfg->mode), patname, cfg->load, (unsigned long long)seed,
			r->why);
		o->status = 1;
	}
	return 0;
}

/* One row of the table: the runs of a point (every seed), averaged. */
static void sim_report_point(const struct dfly_netcfg *cfg, const char *patname,
			     const struct dfly_sim_result *acc, int n)
{
	printf("%-5s %-7s %7.3f %8.4f %8.1f %7.0f %7.0f %6.2f %5.2f %8.4f %7.3f %6.3f\n",
	       dfly_mode_name(cfg->mode), patname, cfg->load, acc->accepted / n, acc->lat_avg / n,
	       acc->lat_p50 / n, acc->lat_p99 / n, acc->misrouted_pct / n, acc->hops_avg / n,
	       acc->min_inj / n, acc->max_min / n, acc->cov / n);
	if (dfly_netcfg_workload(cfg))
		printf(
		    "      completion %.0f cycles (%s placement; runs to completion from an empty "
		    "network: sim.warmup, sim.measure and traffic.load do not apply)\n",
		    (double)acc->completion / n,
		    dfly_netcfg_placement_random(cfg) ? "random" : "consecutive");
	if (cfg->pattern == DFLY_PAT_HALO && n == 1) {
		printf("      halo3d iterations end at");
		for (uint32_t i = 0; i + 1 < cfg->halo_iters && i < DFLY_SIM_HALO_ITERS; i++)
			printf(" %llu", (unsigned long long)acc->halo_iter_end[i]);
		printf(" %llu\n", (unsigned long long)acc->completion);
	}
	if (cfg->pattern == DFLY_PAT_G500 && n == 1) {
		printf("      graph500: root degree %u, %u levels, network usage %.4f "
		       "phits/(process*cycle); levels end at",
		       acc->g5_root_degree, acc->g5_levels, acc->g5_usage);
		for (uint32_t i = 0; i < acc->g5_levels && i < DFLY_G5_LEVELS; i++)
			printf(" %llu", (unsigned long long)acc->g5_level_end[i]);
		printf("\n      graph500 messages per level:");
		for (uint32_t i = 0; i < acc->g5_levels && i < DFLY_G5_LEVELS; i++)
			printf(" %llu", (unsigned long long)acc->g5_level_msgs[i]);
		printf("\n");
	}
	if (cfg->lia_remote && acc->lia_r_routers > 0) {
		/* LIA's remote counters: the firmware keeps packets (spec §6.2 PROPOSAL, A-6.1) */
		printf(
		    "      lia remote R_k, packets per %u-cycle window (x %u = phits), mean over "
		    "%u routers and the window:",
		    cfg->lia_window, cfg->pkt_phits, acc->lia_r_routers);
		for (uint32_t i = 0; i < 2 * cfg->h + 1; i++)
			if (i != cfg->h)
				printf(" R%+d %.3f", (int)i - (int)cfg->h, acc->lia_r[i] / n);
		printf("\n");
	}
	if (cfg->reqrep)
		printf("      of which requests %.4f, replies %.4f (reply latency %.1f)\n",
		       (acc->accepted - acc->accepted_rep) / n, acc->accepted_rep / n,
		       acc->lat_avg_rep / n);
	fflush(stdout);
}

/* The end: files closed and named, the speed line. */
static void sim_report_end(const struct sim_args *a, struct sim_out *o, double t0)
{
	if (o->csv) {
		fclose(o->csv);
		printf("# CSV written to %s\n", a->csv_path);
	}
	if (o->ctr) {
		fclose(o->ctr);
		printf("# counters written to %s\n", a->ctr_path);
	}
	if (o->cycles && !a->quiet) {
		double wall = now_s() - t0;

		fprintf(stderr,
			"dfly sim: %llu cycles (%llu router-cycles) in %.2f s: %.0f cycles/s, "
			"%.0f delivered packets/s\n",
			(unsigned long long)o->cycles, (unsigned long long)o->router_cycles, wall,
			o->cycles / wall, o->pkts / wall);
	}
}

/* The runs of one network: every load, every seed; a row per load. @return 0 or the exit
 * status to end with. */
static int sim_point(const struct sim_args *a, struct sim_out *o, struct dfly_netcfg *cfg)
{
	char patname[64];

	dfly_pattern_name(cfg, patname, sizeof(patname));
	for (int li = 0; li < (a->nloads ? a->nloads : 1); li++) {
		struct dfly_sim_result acc = {0};
		int ok_runs = 0, rc;

		if (a->nloads)
			cfg->load = a->loads[li]; /* in [0, 1]: dfly_parse_loads() */
		for (uint32_t sd = 0; sd < cfg->seeds; sd++) {
			struct dfly_sim_result r;

			if ((rc = sim_run(a, o, cfg, patname, cfg->seed + sd, &r)) != 0)
				return rc;
			acc.accepted += r.accepted;
			acc.accepted_rep += r.accepted_rep;
			acc.completion += r.completion;
			for (int i = 0; i < DFLY_SIM_HALO_ITERS; i++)
				acc.halo_iter_end[i] += r.halo_iter_end[i];
			if (sd == 0) { /* printed for one seed only (sim_report_point) */
				acc.g5_levels = r.g5_levels;
				acc.g5_root_degree = r.g5_root_degree;
				memcpy(acc.g5_level_end, r.g5_level_end, sizeof(acc.g5_level_end));
				memcpy(acc.g5_level_msgs, r.g5_level_msgs,
				       sizeof(acc.g5_level_msgs));
			}
			acc.g5_usage += r.g5_usage;
			acc.lat_avg_rep += r.lat_avg_rep;
			acc.lat_avg += r.lat_avg;
			acc.lat_p50 += r.lat_p50;
			acc.lat_p99 += r.lat_p99;
			acc.misrouted_pct += r.misrouted_pct;
			acc.hops_avg += r.hops_avg;
			acc.min_inj += r.min_inj;
			acc.max_min += r.max_min;
			acc.cov += r.cov;
			for (int i = 0; i < 2 * DFLY_MAX_H + 1; i++)
				acc.lia_r[i] += r.lia_r[i];
			acc.lia_r_routers = r.lia_r_routers;
			ok_runs++;
		}
		sim_report_point(cfg, patname, &acc, ok_runs);
	}
	return 0;
}

int cmd_sim(int argc, char **argv)
{
	struct sim_args a = {0};
	struct sim_out o = {0};
	double t0 = now_s();
	int rc;

	if ((rc = sim_parse(argc, argv, &a)) >= 0)
		return rc;
	if ((rc = sim_check(&a, &o)) != 0)
		return rc;
	if (a.fopts.shm_instance != NULL)
		sim_catch_signals(&a.fopts);
	for (int mi = 0; mi < a.nmech; mi++) {
		for (int pi = 0; pi < a.npat; pi++) {
			struct dfly_netcfg cfg;

			if ((rc = sim_plan(&a, mi, pi, &cfg)) != 0)
				goto fail;
			if ((rc = sim_point(&a, &o, &cfg)) != 0)
				goto fail;
		}
	}
	sim_report_end(&a, &o, t0);
	return o.status;
fail:
	o.status = rc;
	sim_report_end(&a, &o, t0);
	return o.status;
}
