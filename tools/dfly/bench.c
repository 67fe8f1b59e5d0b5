/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfly bench: how fast the emulation runs (docs/PERFORMANCE.md).
 *
 *   sim        dfly sim's speed per network, pattern and load: simulated cycles per second,
 *              delivered packets per second, peak memory (each point in a child process, so
 *              the peak is that point's own).
 *   dataplane  one router of dfly-switch alone on one lcore, every fabric port on a net_ring
 *              pair to a loopback peer (dataplane/peer.h) on the other lcore, its nodes'
 *              generators at full load, link-rate emulation off, the clock free-running:
 *              switched packets per second per mechanism and frame size, several runs
 *              (min/median/max); then dpdk-testpmd's macswap and io on two net_ring ports in
 *              the same run, and the ratios.
 *   counters   the per-packet cost of the counter updates alone (contention counters, ECtN
 *              partial array, LIA counters), on one ASIC, in ns per packet.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
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

#include "asic.h"
#include "cli.h"
#include "cmds.h"
#include "fabric.h"
#include "netcfg.h"

#define BENCH_MAX 32
/* dfly bench dataplane: how long a run may take to drain after its generators stop (a string:
 * it is also printed in --help) */
#define BENCH_DRAIN_MAX_S "30"

/* Split the list of option @p opt of @p cmd in place (an empty item is an error, said on
 * stderr). @return the number of items, or < 0. */
static int split(const char *cmd, const char *opt, char *s, char **out)
{
	char given[512], err[128];
	int n;

	snprintf(given, sizeof(given), "%s", s);
	n = dfly_split_list(s, out, BENCH_MAX);
	if (n < 0) {
		dfly_split_list_error(given, n, BENCH_MAX, err, sizeof(err));
		fprintf(stderr, "%s: %s %s: %s\n", cmd, opt, given, err);
	}
	return n;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* ---------------------------------------------------------------------------------------------
 * bench sim
 */

static void usage_sim(FILE *f)
{
	fprintf(
	    f,
	    "usage: dfly bench sim [options]\n"
	    "\n"
	    "Speed of dfly sim. For every network x pattern x load: a warm-up, then the measured\n"
	    "cycles; prints simulated cycles per second, delivered packets per second (both over\n"
	    "the measured cycles) and the peak resident memory of that point (each point runs in\n"
	    "a child process).\n"
	    "\n"
	    "options:\n"
	    "  --configs LIST     networks (default h2,h4,h6): h2, h4 (configs/h2.cfg, h4.cfg),\n"
	    "                     h6 (configs/cfg-l.cfg: 876 routers, 5,256 nodes), h8\n"
	    "                     (configs/h4.cfg with p=8, a=16, h=8: 2,064 routers), or a file\n"
	    "  --patterns LIST    traffic patterns (default un,adv+1)\n"
	    "  --loads LIST       offered loads (default 0.3,0.8)\n"
	    "  --mechanism M      routing.mechanism (default min)\n"
	    "  --cycles N         measured cycles per point (default 2000)\n"
	    "  --warmup N         cycles before the measurement (default N/2)\n"
	    "  --runs N           runs per point (default 1), each in a child process of its\n"
	    "                     own: cycles/s and packets/s are the median, and two more\n"
	    "                     columns give the range of cycles/s; every run must simulate\n"
	    "                     the same packets (same seed), or the point fails\n"
	    "  --threads N        threads stepping the routers of each cycle (sim.threads,\n"
	    "                     default 1): the same packets, on N cores\n"
	    "  --cpu-time         cycles/s and packets/s per second of CPU time the process\n"
	    "                     used (all its threads), not of wall time: on a shared\n"
	    "                     machine, time stolen by other guests is left out (what\n"
	    "                     scripts/simcmp.sh compares; wall_s stays the wall time)\n"
	    "  --set PATH=VALUE   network setting for every point (repeatable)\n"
	    "  -h, --help         this text\n");
}

/* Resolve a network name to a file and extra settings. */
static int sim_network(const char *name, char *path, size_t len, const char **extra, int *nextra)
{
	static const char *h8[] = {"topology.p=8", "topology.a=16", "topology.h=8"};

	*nextra = 0;
	if (strchr(name, '/') || strchr(name, '.')) {
		snprintf(path, len, "%s", name);
	} else if (strcmp(name, "h6") == 0) {
		snprintf(path, len, "%s/configs/cfg-l.cfg", DFLY_SOURCE_DIR);
	} else if (strcmp(name, "h8") == 0) {
		snprintf(path, len, "%s/configs/h4.cfg", DFLY_SOURCE_DIR);
		for (int i = 0; i < 3; i++)
			extra[(*nextra)++] = h8[i];
	} else {
		snprintf(path, len, "%s/configs/%s.cfg", DFLY_SOURCE_DIR, name);
	}
	return 0;
}

static double median_of(double *v, int n);

struct sim_point {
	uint32_t routers, nodes;
	double wall, cpu, cycles_s, dlv_s, accepted;
	int status; /* 0 ok, 1 watchdog, 2 set-up error */
	char err[256];
};

static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void sim_child(int fd, const char *path, const char **sets, int nsets, uint64_t warmup,
		      uint64_t cycles, bool cpu_time)
{
	struct sim_point pt = {0};
	char err[DFLY_NETCFG_ERRLEN];
	struct dfly_netcfg cfg;
	struct dfly_fabric *fab;
	uint64_t g0, d0, x0, g1, d1, x1;
	double t0, c0, per;

	if (dfly_netcfg_load(&cfg, path, sets, (unsigned)nsets, err, sizeof(err)) != 0 ||
	    (fab = dfly_fabric_create(&cfg, cfg.seed, err, sizeof(err))) == NULL) {
		pt.status = 2;
		snprintf(pt.err, sizeof(pt.err), "%.250s", err);
		goto out;
	}
	pt.routers = dfly_fabric_topo(fab)->routers;
	pt.nodes = dfly_fabric_topo(fab)->nodes;
	if (warmup && dfly_fabric_step(fab, warmup) != 0)
		pt.status = 1;
	dfly_fabric_totals(fab, &g0, &d0, &x0);
	t0 = now_s();
	c0 = cpu_s();
	if (pt.status == 0 && dfly_fabric_step(fab, cycles) != 0)
		pt.status = 1;
	pt.cpu = cpu_s() - c0;
	pt.wall = now_s() - t0;
	dfly_fabric_totals(fab, &g1, &d1, &x1);
	per = cpu_time ? pt.cpu : pt.wall;
	pt.cycles_s = per > 0 ? (double)cycles / per : 0;
	pt.dlv_s = per > 0 ? (double)(d1 - d0) / per : 0;
	pt.accepted = (double)(d1 - d0) * cfg.pkt_phits / ((double)pt.nodes * (double)cycles);
	dfly_fabric_destroy(fab);
out:
	if (write(fd, &pt, sizeof(pt)) != (ssize_t)sizeof(pt))
		_exit(3);
	_exit(0);
}

/* One run of a point in a child process: @p pt, and the child's peak resident memory in KiB.
 * @return 0, or -1 (set-up error or a failed child: @p pt->err or a message printed). */
static int sim_run(const char *path, const char **sets, int nsets, uint64_t warmup, uint64_t cycles,
		   bool cpu_time, struct sim_point *pt, long *maxrss_kib)
{
	struct rusage ru;
	int fds[2], st;
	pid_t pid;

	memset(pt, 0, sizeof(*pt));
	if (pipe(fds) < 0) {
		snprintf(pt->err, sizeof(pt->err), "pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(pt->err, sizeof(pt->err), "fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		close(fds[0]);
		sim_child(fds[1], path, sets, nsets, warmup, cycles, cpu_time);
	}
	close(fds[1]);
	if (read(fds[0], pt, sizeof(*pt)) != (ssize_t)sizeof(*pt)) {
		pt->status = 3;
		snprintf(pt->err, sizeof(pt->err), "the child process failed");
	}
	close(fds[0]);
	memset(&ru, 0, sizeof(ru));
	wait4(pid, &st, 0, &ru);
	*maxrss_kib = ru.ru_maxrss;
	return pt->status == 2 || pt->status == 3 ? -1 : 0;
}

static int bench_sim(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"configs", required_argument, NULL, 'c'}, {"patterns", required_argument, NULL, 'p'},
	    {"loads", required_argument, NULL, 'l'},   {"mechanism", required_argument, NULL, 'm'},
	    {"cycles", required_argument, NULL, 'n'},  {"warmup", required_argument, NULL, 'w'},
	    {"set", required_argument, NULL, 's'},     {"help", no_argument, NULL, 'h'},
	    {"load", required_argument, NULL, 'l'},    {"pattern", required_argument, NULL, 'p'},
	    {"runs", required_argument, NULL, 'r'},    {"threads", required_argument, NULL, 't'},
	    {"cpu-time", no_argument, NULL, 'C'},      {NULL, 0, NULL, 0},
	};
	char cfg_buf[512] = "h2,h4,h6", pat_buf[256] = "un,adv+1", load_buf[256] = "0.3,0.8";
	char *cfgs[BENCH_MAX], *pats[BENCH_MAX], *loads[BENCH_MAX];
	const char *mech = "min", *user_sets[BENCH_MAX];
	uint64_t cycles = 2000, warmup = UINT64_MAX, runs = 1, threads = 1;
	char s_threads[32];
	int opt, nc, np, nl, nuser = 0, rc = 0;
	bool cpu_time = false;

	optind = 1;
	while ((opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (opt) {
		case 'C':
			cpu_time = true;
			break;
		case 'c':
			snprintf(cfg_buf, sizeof(cfg_buf), "%s", optarg);
			break;
		case 'p':
			snprintf(pat_buf, sizeof(pat_buf), "%s", optarg);
			break;
		case 'l':
			snprintf(load_buf, sizeof(load_buf), "%s", optarg);
			break;
		case 'm':
			mech = optarg;
			break;
		case 'n':
			if (dfly_cli_parse_u64("dfly bench sim", "--cycles", optarg, 1,
					       UINT64_MAX / 4, "cycles", &cycles) != 0)
				return DFLY_CLI_USAGE;
			break;
		case 'w': /* 0: no warm-up */
			if (dfly_cli_parse_u64("dfly bench sim", "--warmup", optarg, 0,
					       UINT64_MAX / 4, "cycles", &warmup) != 0)
				return DFLY_CLI_USAGE;
			break;
		case 'r':
			if (dfly_cli_parse_u64("dfly bench sim", "--runs", optarg, 1, 64, "runs",
					       &runs) != 0)
				return DFLY_CLI_USAGE;
			break;
		case 't':
			if (dfly_cli_parse_u64("dfly bench sim", "--threads", optarg, 1, 64,
					       "threads", &threads) != 0)
				return DFLY_CLI_USAGE;
			break;
		case 's':
			if (nuser == BENCH_MAX - 10) {
				fprintf(stderr, "dfly bench sim: too many --set\n");
				return 2;
			}
			user_sets[nuser++] = optarg;
			break;
		case 'h':
			usage_sim(stdout);
			return 0;
		default:
			return dfly_cli_opt_error("dfly bench sim", opts, opt, argv);
		}
	}
	if (optind != argc)
		return dfly_cli_usage_error("dfly bench sim", "unexpected argument '%s'",
					    argv[optind]);
	if (warmup == UINT64_MAX)
		warmup = cycles / 2;
	nc = split("dfly bench sim", "--configs", cfg_buf, cfgs);
	np = nc < 0 ? -1 : split("dfly bench sim", "--patterns", pat_buf, pats);
	nl = np < 0 ? -1 : split("dfly bench sim", "--loads", load_buf, loads);
	if (nl < 0)
		return DFLY_CLI_USAGE;
	snprintf(s_threads, sizeof(s_threads), "sim.threads=%" PRIu64, threads);
	printf("# dfly bench sim: mechanism %s, %" PRIu64 " warm-up + %" PRIu64
	       " measured cycles per point, %" PRIu64 " thread(s), %" PRIu64 " run(s): %s%s\n",
	       mech, warmup, cycles, threads, runs,
	       runs > 1 ? "wall, cycles/s and packets/s are medians" : "one run",
	       cpu_time ? "; cycles/s and packets/s per CPU second (--cpu-time)" : "");
	printf("%-8s %7s %7s %-7s %5s %9s %10s %12s %15s %9s%s\n", "network", "routers", "nodes",
	       "pattern", "load", "accepted", "wall_s", "cycles/s", "delivered_pkt/s", "peak_MiB",
	       runs > 1 ? " cycles/s_min cycles/s_max" : "");
	fflush(stdout);
	for (int i = 0; i < nc; i++)
		for (int j = 0; j < np; j++)
			for (int k = 0; k < nl; k++) {
				char path[1024], s_load[64], s_pat[64], s_mech[64], s_w[32],
				    s_m[32];
				const char *sets[BENCH_MAX];
				double wall[64], cps[64], dps[64], cmed;
				struct sim_point pt = {0}, first = {0};
				long rss, peak = 0;
				int nsets = 0, watchdog = 0;
				uint64_t r;

				sim_network(cfgs[i], path, sizeof(path), sets, &nsets);
				snprintf(s_load, sizeof(s_load), "traffic.load=%s", loads[k]);
				snprintf(s_pat, sizeof(s_pat), "traffic.pattern=%s", pats[j]);
				snprintf(s_mech, sizeof(s_mech), "routing.mechanism=%s", mech);
				snprintf(s_w, sizeof(s_w), "sim.warmup=0");
				snprintf(s_m, sizeof(s_m), "sim.measure=%" PRIu64, warmup + cycles);
				sets[nsets++] = s_load;
				sets[nsets++] = s_pat;
				sets[nsets++] = s_mech;
				sets[nsets++] = s_w;
				sets[nsets++] = s_m;
				sets[nsets++] = s_threads;
				for (int u = 0; u < nuser; u++)
					sets[nsets++] = user_sets[u];
				for (r = 0; r < runs; r++) {
					fprintf(stderr,
						"dfly bench sim: %s %s %s, run %" PRIu64
						" of %" PRIu64 " ...\n",
						cfgs[i], pats[j], loads[k], r + 1, runs);
					if (sim_run(path, sets, nsets, warmup, cycles, cpu_time,
						    &pt, &rss) != 0)
						break;
					/* the same seed: every run simulates the same packets */
					if (r == 0) {
						first = pt;
					} else if (pt.accepted != first.accepted) {
						snprintf(pt.err, sizeof(pt.err),
							 "run %" PRIu64
							 " accepted %.6f, run 1 %.6f: "
							 "not deterministic",
							 r + 1, pt.accepted, first.accepted);
						break;
					}
					wall[r] = pt.wall;
					cps[r] = pt.cycles_s;
					dps[r] = pt.dlv_s;
					peak = rss > peak ? rss : peak;
					watchdog |= pt.status == 1;
				}
				if (r < runs) {
					fprintf(stderr, "dfly bench sim: %s: %s\n", cfgs[i],
						pt.err);
					rc = 1;
					continue;
				}
				/* median_of() sorts: cps[0] and cps[runs - 1] are then the range */
				cmed = median_of(cps, (int)runs);
				printf("%-8s %7u %7u %-7s %5s %9.3f %10.2f %12.0f %15.0f %9.1f",
				       cfgs[i], first.routers, first.nodes, pats[j], loads[k],
				       first.accepted, median_of(wall, (int)runs), cmed,
				       median_of(dps, (int)runs), peak / 1024.0);
				if (runs > 1)
					printf(" %12.0f %12.0f", cps[0], cps[runs - 1]);
				printf("%s\n", watchdog ? "  (watchdog fired)" : "");
				fflush(stdout);
				if (watchdog)
					rc = 1;
			}
	return rc;
}

/* ---------------------------------------------------------------------------------------------
 * bench dataplane
 */

static void usage_dataplane(FILE *f)
{
	fprintf(
	    f,
	    "usage: dfly bench dataplane [options]\n"
	    "\n"
	    "One emulated router of dfly-switch alone on lcore 1: every fabric port is a net_ring\n"
	    "pair to a loopback peer (dataplane/peer.h) that the main lcore (0) runs and that\n"
	    "returns each packet to its source node; the router's nodes generate at --load\n"
	    "(uniform destinations), link-rate emulation off (clock.link_rate = false: a\n"
	    "packet holds a link for one cycle), clock free-running (--free-run), the firmware\n"
	    "thread on, every counter of the mechanism on. Each packet crosses the router twice\n"
	    "(node -> fabric port, fabric port -> node): the figure is switched packets (crossbar\n"
	    "grants to every output) per second of the router's lcore. Then dpdk-testpmd\n"
	    "--forward-mode=macswap, and =io, on two net_ring ports (loopback, --tx-first) on\n"
	    "the same lcores, and the ratios. Conservation is checked in every run: the\n"
	    "generators stop after --seconds, dfly-switch exits once the network has drained\n"
	    "(--exit-drained; at most " BENCH_DRAIN_MAX_S " s later) and generated must equal\n"
	    "delivered. The time is the whole run, drain included.\n"
	    "\n"
	    "options:\n"
	    "  --modes LIST       mechanisms (default min,ugal,pb,base,ectn,lia)\n"
	    "  --frames LIST      frame bytes carried by each packet (default 64,1500)\n"
	    "  --runs N           runs per point (default 3): min/median/max\n"
	    "  --load L           packets per node and cycle (default 0.95). Every packet comes\n"
	    "                     back to its node, so the ejection links carry L: at 1 they are\n"
	    "                     saturated, every buffer fills and the descriptors no longer fit\n"
	    "                     in cache (docs/PERFORMANCE.md gives both)\n"
	    "  --seconds S        length of a run (default 3)\n"
	    "  --config FILE      network file (default configs/h2.cfg); router 0 is measured\n"
	    "  --buffers PHITS    buffers.injection/local/global per VC and buffers.output\n"
	    "                     (default: 2048 phits per 12-phit packet, i.e. 170 packets of\n"
	    "                     the frame: 2048 for 64 B, 26454 for 1500 B. The peers' round\n"
	    "                     trip is microseconds of wall time, thousands of free-running\n"
	    "                     cycles: fewer packets of credit starve the router, which\n"
	    "                     pkt/cyc then shows)\n"
	    "  --max-steps N      cycles per slice between device polls (default 32)\n"
	    "  --set PATH=VALUE   more network settings (repeatable)\n"
	    "  --no-testpmd       skip the testpmd comparison\n"
	    "  --no-bundle        link.bundle = false: every firmware frame in an Ethernet frame\n"
	    "                     of its own (default: those of one transmit in one BUNDLE)\n"
	    "  --dir DIR          where the deployment and the counters go (default a new\n"
	    "                     directory under /tmp, removed at the end unless --keep)\n"
	    "  --keep             keep DIR\n"
	    "  -h, --help         this text\n");
}

/* Run argv with stdout and stderr to @p out; kill it (SIGINT, then SIGKILL) after
 * @p limit_s seconds if it is still running then. @return its exit status, or -1. */
static int run_cmd(char *const argv[], const char *out, double limit_s, double int_after_s)
{
	pid_t pid;
	int st = 0;
	double t0 = now_s();
	bool sent_int = false;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		FILE *o = freopen(out, "w", stdout);

		if (o == NULL || dup2(fileno(stdout), 2) < 0)
			_exit(127);
		setpgid(0, 0);
		execvp(argv[0], argv);
		_exit(127);
	}
	for (;;) {
		pid_t w = waitpid(pid, &st, WNOHANG);
		double t = now_s() - t0;
		struct timespec ts = {0, 20000000};

		if (w == pid)
			break;
		if (w < 0)
			return -1;
		if (int_after_s > 0 && t >= int_after_s && !sent_int) {
			kill(pid, SIGINT);
			sent_int = true;
		}
		if (t >= limit_s) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			return -1;
		}
		nanosleep(&ts, NULL);
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The first line of @p path that starts with @p key, or NULL; @p line holds it. */
static const char *find_line(const char *path, const char *key, char *line, size_t len)
{
	FILE *f = fopen(path, "r");
	const char *r = NULL;

	if (f == NULL)
		return NULL;
	while (fgets(line, (int)len, f) != NULL) {
		const char *p = line;

		while (*p == ' ')
			p++;
		if (strncmp(p, key, strlen(key)) == 0) {
			r = p;
			break;
		}
	}
	fclose(f);
	return r;
}

struct dp_run {
	double mpps, gen_mpps;
	double ns_cycle, pkt_cycle; /* cost of a cycle, packets switched in one */
	uint64_t generated, delivered, switched, peer_errors, drops_other, cycles;
	bool ok;
	char why[256];
};

/* Sum "NAME N" over the peer lines and read the counters dfly-switch printed. */
static void parse_switch(const char *path, struct dp_run *r)
{
	char line[4096];
	const char *l;
	FILE *f;
	double wall = 0;

	r->ok = false;
	if ((l = find_line(path, "switched ", line, sizeof(line))) == NULL ||
	    sscanf(l, "switched %" SCNu64 " packets in %lf s", &r->switched, &wall) != 2 ||
	    wall <= 0) {
		snprintf(r->why, sizeof(r->why), "no 'switched' line in %.200s", path);
		return;
	}
	r->mpps = (double)r->switched / wall / 1e6;
	if ((l = find_line(path, "router 0 cycle ", line, sizeof(line))) == NULL ||
	    sscanf(l, "router 0 cycle %" SCNu64, &r->cycles) != 1 || r->cycles == 0) {
		snprintf(r->why, sizeof(r->why), "no 'router 0 cycle' line in %.200s", path);
		return;
	}
	r->ns_cycle = wall * 1e9 / (double)r->cycles;
	r->pkt_cycle = (double)r->switched / (double)r->cycles;
	if ((l = find_line(path, "generated ", line, sizeof(line))) == NULL ||
	    sscanf(l, "generated %" SCNu64 " delivered %" SCNu64, &r->generated, &r->delivered) !=
		2) {
		snprintf(r->why, sizeof(r->why), "no 'generated' line in %.200s", path);
		return;
	}
	r->gen_mpps = (double)r->generated / wall / 1e6;
	r->peer_errors = 0;
	f = fopen(path, "r");
	while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
		const char *e = strstr(line, " errors ");

		if (strncmp(line, "peer ", 5) == 0 && e != NULL)
			r->peer_errors += strtoull(e + 8, NULL, 10);
	}
	if (f != NULL)
		fclose(f);
	if (r->generated != r->delivered) {
		snprintf(r->why, sizeof(r->why),
			 "conservation: generated %" PRIu64 " delivered %" PRIu64, r->generated,
			 r->delivered);
		return;
	}
	if (r->peer_errors) {
		snprintf(r->why, sizeof(r->why), "%" PRIu64 " peer errors", r->peer_errors);
		return;
	}
	r->ok = true;
}

static int write_deployment(const char *path, const char *network, const struct dfly_topo *t,
			    uint32_t max_steps, bool bundle)
{
	FILE *f = fopen(path, "w");

	if (f == NULL)
		return -1;
	fprintf(f,
		"# dfly bench dataplane: router 0 alone on lcore 1, every fabric port to a "
		"loopback peer\n"
		"network = \"%s\";\n"
		"instance = \"\";\n"
		"firmware = \"thread\";\n"
		"routers = [0];\n"
		"lcores = ( { lcore = 1; routers = [0]; } );\n"
		"ports = (\n",
		network);
	for (uint32_t p = t->first_local; p < t->radix; p++)
		fprintf(f, "  { router = 0; port = %u; dev = \"peer\"; }%s\n", p,
			p + 1 < t->radix ? "," : "");
	fprintf(f,
		");\n"
		"generators = \"all\";\n"
		"link = { credit_delay_us = 0; bundle = %s; };\n"
		"run = { max_steps = %u; stats_interval_s = 0.0; };\n",
		bundle ? "true" : "false", max_steps);
	return fclose(f);
}

/* The runtime directory EAL leaves behind for --file-prefix @p prefix (root or not). */
static void rm_runtime(const char *prefix)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	char cmd[1200];

	if (geteuid() == 0 || xdg == NULL)
		snprintf(cmd, sizeof(cmd), "rm -rf '/var/run/dpdk/%s'", prefix);
	else
		snprintf(cmd, sizeof(cmd), "rm -rf '%.900s/dpdk/%s'", xdg, prefix);
	if (system(cmd) != 0)
		fprintf(stderr, "dfly bench: could not remove the EAL runtime directory of %s\n",
			prefix);
}

static double median_of(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_dbl);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int testpmd_once(const char *dir, unsigned frame, const char *fwd, double seconds,
			double *mpps, char *why, size_t wlen)
{
	char out[1100], txpkts[32], line[4096], prefix[64], fwd_arg[64];
	int rc;

	snprintf(out, sizeof(out), "%s/testpmd-%s-%u.out", dir, fwd, frame);
	snprintf(fwd_arg, sizeof(fwd_arg), "--forward-mode=%s", fwd);
	snprintf(txpkts, sizeof(txpkts), "--txpkts=%u", frame);
	snprintf(prefix, sizeof(prefix), "dflybench%d", (int)getpid());
	{
		char *argv[] = {"dpdk-testpmd",
				"--no-huge",
				"-m",
				"1024",
				"--no-pci",
				"--file-prefix",
				prefix,
				"-l",
				"0-1",
				"--log-level=3",
				"--vdev=net_ring0",
				"--vdev=net_ring1",
				"--",
				fwd_arg,
				"--tx-first",
				"--nb-cores=1",
				"--burst=32",
				"--total-num-mbufs=16384",
				"--stats-period=1",
				txpkts,
				NULL};

		rc = run_cmd(argv, out, seconds + 30, seconds);
		rm_runtime(prefix);
	}
	if (rc != 0) {
		snprintf(why, wlen, "dpdk-testpmd failed (exit %d): see %.200s", rc, out);
		return -1;
	}
	/* the per-second Rx-pps lines (both ports summed): their median over the run */
	{
		FILE *f = fopen(out, "r");
		double v[256];
		int n = 0, port = 0;
		double sum = 0;

		while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
			const char *p = strstr(line, "Rx-pps:");

			if (p != NULL && n < 256) {
				sum += strtod(p + 7, NULL);
				if (++port == 2) {
					/* a second with nothing forwarded: the start, before
					 * --tx-first's packets circulate */
					if (sum > 0)
						v[n++] = sum;
					sum = 0;
					port = 0;
				}
			}
		}
		if (f != NULL)
			fclose(f);
		/* the first sample covers the start: drop it when there are others */
		if (n > 2 && v[0] < v[1]) {
			memmove(v, v + 1, (size_t)(n - 1) * sizeof(v[0]));
			n--;
		}
		if (n == 0) {
			snprintf(why, wlen, "no Rx-pps line in %.200s", out);
			return -1;
		}
		*mpps = median_of(v, n) / 1e6;
	}
	return 0;
}

/*
 * testpmd for @p seconds plus its start (EAL init, --tx-first): 3 s, or 10 s more when it
 * printed no rate in the first try (a loaded machine: the sanitizer run starts it while other
 * tests run), so a slow start is not taken for a failure.
 */
static int testpmd_run(const char *dir, unsigned frame, const char *fwd, double seconds,
		       double *mpps, char *why, size_t wlen)
{
	if (testpmd_once(dir, frame, fwd, seconds + 3, mpps, why, wlen) == 0)
		return 0;
	fprintf(stderr, "dfly bench: testpmd %s %u bytes: %s; trying again with 10 s more\n", fwd,
		frame, why);
	return testpmd_once(dir, frame, fwd, seconds + 13, mpps, why, wlen);
}

static int bench_dataplane(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"modes", required_argument, NULL, 'm'},
	    {"frames", required_argument, NULL, 'f'},
	    {"runs", required_argument, NULL, 'r'},
	    {"seconds", required_argument, NULL, 's'},
	    {"config", required_argument, NULL, 'c'},
	    {"buffers", required_argument, NULL, 'b'},
	    {"max-steps", required_argument, NULL, 'x'},
	    {"set", required_argument, NULL, 'S'},
	    {"no-bundle", no_argument, NULL, 'B'},
	    {"no-testpmd", no_argument, NULL, 'T'},
	    {"dir", required_argument, NULL, 'd'},
	    {"keep", no_argument, NULL, 'k'},
	    {"help", no_argument, NULL, 'h'},
	    {"load", required_argument, NULL, 'L'},
	    {NULL, 0, NULL, 0},
	};
	char mode_buf[256] = "min,ugal,pb,base,ectn,lia", frame_buf[128] = "64,1500";
	char *modes[BENCH_MAX], *frames[BENCH_MAX], dir[1024] = "", sw[1100];
	char network[1024], deploy[1100];
	const char *user_sets[BENCH_MAX];
	int nuser = 0, runs = 3, nm, nf, opt, rc = 0;
	double seconds = 3, load = 0.95;
	unsigned buffers = 0, max_steps = 32; /* buffers 0: 170 packets of the frame */
	uint64_t num;
	bool testpmd = true, keep = false, own_dir = false, bundle = true;
	struct dfly_netcfg cfg;
	struct dfly_topo *t;
	char err[DFLY_NETCFG_ERRLEN];

	snprintf(network, sizeof(network), "%s/configs/h2.cfg", DFLY_SOURCE_DIR);
	optind = 1;
	while ((opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (opt) {
		case 'm':
			snprintf(mode_buf, sizeof(mode_buf), "%s", optarg);
			break;
		case 'f':
			snprintf(frame_buf, sizeof(frame_buf), "%s", optarg);
			break;
		case 'r':
			if (dfly_cli_parse_u64("dfly bench dataplane", "--runs", optarg, 1, 64,
					       "runs", &num) != 0)
				return DFLY_CLI_USAGE;
			runs = (int)num;
			break;
		case 's':
			if (dfly_cli_parse_seconds("dfly bench dataplane", "--seconds", optarg,
						   3600, &seconds) != 0)
				return DFLY_CLI_USAGE;
			if (seconds < 0.5) {
				fprintf(stderr,
					"dfly bench dataplane: --seconds %s: at least 0.5 (a run "
					"shorter than the set-up measures nothing)\n",
					optarg);
				return DFLY_CLI_USAGE;
			}
			break;
		case 'c':
			if (realpath(optarg, network) == NULL) {
				fprintf(stderr, "dfly bench dataplane: %s: %s\n", optarg,
					strerror(errno));
				return 2;
			}
			break;
		case 'b':
			if (dfly_cli_parse_u64("dfly bench dataplane", "--buffers", optarg, 16,
					       1000000, "phits", &num) != 0)
				return DFLY_CLI_USAGE;
			buffers = (unsigned)num;
			break;
		case 'x':
			if (dfly_cli_parse_u64("dfly bench dataplane", "--max-steps", optarg, 1,
					       1000000, "cycles", &num) != 0)
				return DFLY_CLI_USAGE;
			max_steps = (unsigned)num;
			break;
		case 'S':
			if (nuser == BENCH_MAX) {
				fprintf(stderr, "dfly bench dataplane: too many --set\n");
				return 2;
			}
			user_sets[nuser++] = optarg;
			break;
		case 'T':
			testpmd = false;
			break;
		case 'B':
			bundle = false;
			break;
		case 'd':
			snprintf(dir, sizeof(dir), "%s", optarg);
			break;
		case 'k':
			keep = true;
			break;
		case 'L': {
			char *end;

			load = strtod(optarg, &end);
			if (end == optarg || *end != '\0' || !(load > 0 && load <= 1)) {
				fprintf(
				    stderr,
				    "dfly bench dataplane: --load %s: expected a load in (0, 1]\n",
				    optarg);
				return DFLY_CLI_USAGE;
			}
			break;
		}
		case 'h':
			usage_dataplane(stdout);
			return 0;
		default:
			return dfly_cli_opt_error("dfly bench dataplane", opts, opt, argv);
		}
	}
	if (optind != argc)
		return dfly_cli_usage_error("dfly bench dataplane", "unexpected argument '%s'",
					    argv[optind]);
	nm = split("dfly bench dataplane", "--modes", mode_buf, modes);
	nf = nm < 0 ? -1 : split("dfly bench dataplane", "--frames", frame_buf, frames);
	if (nf < 0)
		return DFLY_CLI_USAGE;
	if (dfly_netcfg_load(&cfg, network, user_sets, (unsigned)nuser, err, sizeof(err)) != 0) {
		fprintf(stderr, "dfly bench dataplane: %s\n", err);
		return 2;
	}
	t = dfly_topo_create(cfg.p, cfg.a, cfg.h, cfg.t, cfg.arr, cfg.sigma);
	if (t == NULL) {
		fprintf(stderr, "dfly bench dataplane: %s: bad topology\n", network);
		return 2;
	}
	if (dfly_find_tool("dfly-switch", sw, sizeof(sw)) != 0) {
		fprintf(stderr, "dfly bench dataplane: dfly-switch: not found beside dfly\n");
		dfly_topo_destroy(t);
		return 2;
	}
	if (dir[0] == '\0') {
		snprintf(dir, sizeof(dir), "/tmp/dfly-bench-XXXXXX");
		if (mkdtemp(dir) == NULL) {
			perror("dfly bench dataplane: mkdtemp");
			dfly_topo_destroy(t);
			return 1;
		}
		own_dir = true;
	} else if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "dfly bench dataplane: %s: %s\n", dir, strerror(errno));
		dfly_topo_destroy(t);
		return 1;
	}
	snprintf(deploy, sizeof(deploy), "%s/bench.cfg", dir);
	if (write_deployment(deploy, network, t, max_steps, bundle) != 0) {
		fprintf(stderr, "dfly bench dataplane: %s: %s\n", deploy, strerror(errno));
		dfly_topo_destroy(t);
		return 1;
	}
	printf("# dfly bench dataplane: %s router 0 (radix %u: %u nodes, %u local, %u global "
	       "ports), load %g, buffers %s, %u-byte phits, max_steps %u, link.bundle %s, %d "
	       "run(s) of %.1f s\n",
	       network, t->radix, t->p, t->a - 1, t->h, load,
	       buffers ? "per --buffers" : "170 packets of the frame per VC", cfg.phit_bytes,
	       max_steps, bundle ? "true" : "false", runs, seconds);
	printf("# Mpps: switched packets (each generated packet is switched twice) per second of "
	       "the router's one lcore\n");
	printf("# ns/cyc: wall time per emulated cycle; pkt/cyc: packets switched per cycle "
	       "(medians; %u nodes can inject and take at most %u)\n",
	       t->p, 2 * t->p);
	printf("%-6s %6s %6s %8s %8s %8s %8s %10s %8s %8s %s\n", "frame", "mode", "phits",
	       "Mpps_min", "Mpps_med", "Mpps_max", "ns/pkt", "gen_Mpps", "ns/cyc", "pkt/cyc",
	       "conservation");
	fflush(stdout);
	for (int fi = 0; fi < nf; fi++) {
		unsigned frame = (unsigned)atoi(frames[fi]);
		unsigned phits =
		    frame ? (frame + 48 + cfg.phit_bytes - 1) / cfg.phit_bytes : cfg.pkt_phits;
		unsigned buf = buffers ? buffers : (2048 * phits + 11) / 12;
		double best_med = 0, tp = 0;
		char why[512];

		printf("# %u-byte frames: %u phits a packet, buffers %u phits per VC\n", frame,
		       phits, buf);

		for (int mi = 0; mi < nm; mi++) {
			double v[64], g[64], nc[64], pc[64];
			int ok = 0;
			bool cons = true;
			char fail[300] = "";

			for (int r = 0; r < runs; r++) {
				char out[1200], frame_s[16], dur[32], gens[32], s_mech[64],
				    s_b[4][64], s_load[64], prefix[64], steps_s[32];
				char *av[64];
				int n = 0, st;
				struct dp_run res = {0};

				snprintf(out, sizeof(out), "%s/%s-%u-%d.out", dir, modes[mi], frame,
					 r);
				snprintf(frame_s, sizeof(frame_s), "%u", frame);
				/* drained by packets, not by wall time: a run slowed down by
				 * the machine still ends with every packet delivered */
				snprintf(dur, sizeof(dur), "%g", seconds + atof(BENCH_DRAIN_MAX_S));
				snprintf(gens, sizeof(gens), "%g", seconds);
				snprintf(s_mech, sizeof(s_mech), "routing.mechanism=%s", modes[mi]);
				snprintf(s_load, sizeof(s_load), "traffic.load=%g", load);
				snprintf(s_b[0], sizeof(s_b[0]), "buffers.injection=%u", buf);
				snprintf(s_b[1], sizeof(s_b[1]), "buffers.local=%u", buf);
				snprintf(s_b[2], sizeof(s_b[2]), "buffers.global=%u", buf);
				snprintf(s_b[3], sizeof(s_b[3]), "buffers.output=%u", buf);
				snprintf(prefix, sizeof(prefix), "dflybench%d", (int)getpid());
				snprintf(steps_s, sizeof(steps_s), "%u", max_steps);
				av[n++] = sw;
				av[n++] = "--no-huge";
				av[n++] = "-m";
				av[n++] = "1024";
				av[n++] = "--no-pci";
				av[n++] = "--file-prefix";
				av[n++] = prefix;
				av[n++] = "-l";
				av[n++] = "0-1";
				av[n++] = "--log-level=3";
				av[n++] = "--";
				av[n++] = deploy;
				av[n++] = "--free-run";
				av[n++] = "--quiet";
				av[n++] = "--gen-frame";
				av[n++] = frame_s;
				av[n++] = "--duration";
				av[n++] = dur;
				av[n++] = "--gen-seconds";
				av[n++] = gens;
				av[n++] = "--exit-drained";
				av[n++] = "--set";
				av[n++] = "clock.link_rate=false";
				av[n++] = "--set";
				av[n++] = s_load;
				av[n++] = "--set";
				av[n++] = "traffic.pattern=un";
				av[n++] = "--set";
				av[n++] = s_mech;
				for (int k = 0; k < 4; k++) {
					av[n++] = "--set";
					av[n++] = s_b[k];
				}
				for (int u = 0; u < nuser; u++) {
					av[n++] = "--set";
					av[n++] = (char *)user_sets[u];
				}
				av[n] = NULL;
				st = run_cmd(av, out, seconds + atof(BENCH_DRAIN_MAX_S) + 60, 0);
				rm_runtime(prefix);
				if (st != 0) {
					snprintf(fail, sizeof(fail),
						 "dfly-switch exit %d, see %.200s", st, out);
					cons = false;
					continue;
				}
				parse_switch(out, &res);
				if (!res.ok) {
					snprintf(fail, sizeof(fail), "%s", res.why);
					cons = false;
					if (res.mpps <= 0)
						continue;
				}
				g[ok] = res.gen_mpps;
				nc[ok] = res.ns_cycle;
				pc[ok] = res.pkt_cycle;
				v[ok++] = res.mpps;
			}
			if (ok == 0) {
				printf("%-6u %6s  failed: %s\n", frame, modes[mi], fail);
				rc = 1;
				continue;
			}
			{
				double gmed = median_of(g, ok), ncmed = median_of(nc, ok),
				       pcmed = median_of(pc, ok), med = median_of(v, ok);

				if (med > best_med)
					best_med = med;
				printf(
				    "%-6u %6s %6u %8.3f %8.3f %8.3f %8.1f %10.3f %8.0f %8.2f %s\n",
				    frame, modes[mi], phits, v[0], med, v[ok - 1], 1e3 / med, gmed,
				    ncmed, pcmed, cons ? "ok" : fail);
			}
			if (!cons)
				rc = 1;
			fflush(stdout);
		}
		if (testpmd) {
			if (testpmd_run(dir, frame, "macswap", seconds, &tp, why, sizeof(why)) == 0)
				printf(
				    "%-6u testpmd macswap (2 net_ring ports, 1 forwarding core): "
				    "%.3f Mpps; best dfly median / testpmd = %.4f\n",
				    frame, tp, best_med / tp);
			else
				printf("%-6u testpmd: %s\n", frame, why);
			fflush(stdout);
			/* io: the same ports, frames passed on untouched */
			if (testpmd_run(dir, frame, "io", seconds, &tp, why, sizeof(why)) == 0)
				printf("%-6u testpmd io (2 net_ring ports, 1 forwarding core): "
				       "%.3f Mpps; best dfly median / testpmd io = %.4f\n",
				       frame, tp, best_med / tp);
			else
				printf("%-6u testpmd io: %s\n", frame, why);
			fflush(stdout);
		}
	}
	dfly_topo_destroy(t);
	if (own_dir && !keep) {
		char cmd[1200];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			fprintf(stderr, "dfly bench dataplane: could not remove %s\n", dir);
	} else {
		printf("# files in %s\n", dir);
	}
	return rc;
}

/* ---------------------------------------------------------------------------------------------
 * bench counters
 */

static void usage_counters(FILE *f)
{
	fprintf(
	    f, "usage: dfly bench counters [--packets N] [--config FILE]\n"
	       "\n"
	       "The per-packet cost of the counter updates alone, on one ASIC (router 0 of the\n"
	       "network, default configs/h4.cfg): N packets (default 2,000,000) cross its\n"
	       "counter-update functions with the data path around them taken out (asic.h\n"
	       "asic_bench_counters): the contention counters (head enters, crossing, release),\n"
	       "the ECtN partial array (the same plus the combined-array update), the LIA\n"
	       "counters (injected, stored). Prints ns per packet, the median of 5 repetitions.\n");
}

static int bench_counters(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"packets", required_argument, NULL, 'n'},
	    {"config", required_argument, NULL, 'c'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	char path[1024], err[DFLY_NETCFG_ERRLEN];
	uint64_t npk = 2000000;
	int opt;
	struct dfly_netcfg cfg;
	struct asic_params par = {0};
	struct dfly_topo *t;
	static const struct {
		const char *name;
		enum asic_bench_ctr which;
	} kinds[] = {
	    {"contention counter (local input)", ASIC_BENCH_CC},
	    {"ECtN partial + combined array", ASIC_BENCH_ECTN},
	    {"LIA injected + stored", ASIC_BENCH_LIA},
	    {"all three (injection, remote group)", ASIC_BENCH_ALL},
	    {"none (the loop alone)", ASIC_BENCH_NONE},
	};

	snprintf(path, sizeof(path), "%s/configs/h4.cfg", DFLY_SOURCE_DIR);
	optind = 1;
	while ((opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (opt) {
		case 'n':
			if (dfly_cli_parse_u64("dfly bench counters", "--packets", optarg, 1,
					       UINT64_MAX / 4, "packets", &npk) != 0)
				return DFLY_CLI_USAGE;
			break;
		case 'c':
			snprintf(path, sizeof(path), "%s", optarg);
			break;
		case 'h':
			usage_counters(stdout);
			return 0;
		default:
			return dfly_cli_opt_error("dfly bench counters", opts, opt, argv);
		}
	}
	if (optind != argc)
		return dfly_cli_usage_error("dfly bench counters", "unexpected argument '%s'",
					    argv[optind]);
	{
		const char *sets[] = {"routing.mechanism=ectn"};

		if (dfly_netcfg_load(&cfg, path, sets, 1, err, sizeof(err)) != 0) {
			fprintf(stderr, "dfly bench counters: %s\n", err);
			return 2;
		}
	}
	t = dfly_topo_create(cfg.p, cfg.a, cfg.h, cfg.t, cfg.arr, cfg.sigma);
	if (t == NULL) {
		fprintf(stderr, "dfly bench counters: %s: bad topology\n", path);
		return 2;
	}
	dfly_netcfg_asic_params(&cfg, &par);
	printf("# dfly bench counters: %s, router 0, %" PRIu64 " packets, median of 5\n", path,
	       npk);
	printf("%-36s %10s\n", "counters", "ns/packet");
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		double v[5];

		for (int r = 0; r < 5; r++) {
			double ns = asic_bench_counters(t, &par, kinds[k].which, npk);

			if (ns < 0) {
				fprintf(stderr, "dfly bench counters: cannot set up the ASIC\n");
				dfly_topo_destroy(t);
				return 1;
			}
			v[r] = ns;
		}
		printf("%-36s %10.2f\n", kinds[k].name, median_of(v, 5));
	}
	dfly_topo_destroy(t);
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 */

static void usage(FILE *f)
{
	fprintf(
	    f, "usage: dfly bench sim|dataplane|counters [options]  (--help on each)\n"
	       "\n"
	       "  sim        dfly sim's speed: cycles/s, delivered packets/s, peak memory\n"
	       "  dataplane  one router of dfly-switch at full load: Mpps per core per mechanism,\n"
	       "             against dpdk-testpmd macswap and io on the same kind of ports\n"
	       "  counters   ns per packet of the counter updates alone\n"
	       "See docs/PERFORMANCE.md for the figures of this machine.\n");
}

int cmd_bench(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "sim") == 0)
		return bench_sim(argc - 1, argv + 1);
	if (strcmp(argv[1], "dataplane") == 0)
		return bench_dataplane(argc - 1, argv + 1);
	if (strcmp(argv[1], "counters") == 0)
		return bench_counters(argc - 1, argv + 1);
	return dfly_cli_usage_error("dfly bench",
				    "unknown benchmark '%s' (sim, dataplane, counters)", argv[1]);
}
