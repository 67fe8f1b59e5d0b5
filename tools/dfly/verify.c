/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfly verify: a real-time run checked counter for counter against the model. A lockstep run of
 * dfly-switch (`dfly testbed up --verify`: --lockstep, --cycles N, --snapshots) writes every
 * hosted router's register file, and its firmware's counters, at every K-th cycle; dfly verify
 * runs the same network file in dfly sim's fabric to the same cycles and compares every counter
 * the model defines. The dataplane's own counters (the Ethernet side: frames, link-level retry,
 * HELLO, link timing, lockstep faults, link states) have no model counterpart and are left out;
 * everything else must be equal. Where it is not, verify prints the first cycle, router and
 * counter that differ, and what the run itself said about its exactness (the earliest lockstep
 * fault: a frame taken after its due cycle, a peer stepped past).
 */
#include <errno.h>
#include <getopt.h>
#include <glob.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asic.h"
#include "cli.h"
#include "cmds.h"
#include "dfly/regs.h"
#include "fabric.h"
#include "netcfg.h"

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "usage: dfly verify DIR [--quiet]\n"
	    "\n"
	    "Check a lockstep run of dfly-switch against the model, counter for counter. DIR is\n"
	    "a testbed directory of `dfly testbed up --verify` (its network.cfg, every setting as\n"
	    "the processes used it, and the processes' snapshots p<i>.snap: every hosted router's\n"
	    "register file and firmware counters at every K-th cycle). dfly verify runs\n"
	    "network.cfg in dfly sim's fabric (same seed, same sources: the run's generators are\n"
	    "the model's per-node streams) to each snapshot cycle and compares every counter of\n"
	    "every router. Left out, having no model counterpart: the dataplane's Ethernet-side\n"
	    "port counters (wire_*, link and credit timing, llr_*, ack_*, credit_frames_*,\n"
	    "hello_*, host_*, arp_replies, link_downs, link_ups, lockstep_*) and link states.\n"
	    "\n"
	    "What equality needs (dfly-switch --lockstep provides it): every frame taken at the\n"
	    "cycle it was due, the firmware ticked after each cycle as in dfly sim, generation\n"
	    "from cycle 0 with the network's seed, no host traffic (a host's frames are not\n"
	    "replayed), nothing the device refused. The run says whether it held (\"# lockstep:\n"
	    "exact\", or the first cycle it did not and why); verify says where the counters\n"
	    "first differ, and whether that is explained by what the run reported.\n"
	    "\n"
	    "options:\n"
	    "  --quiet      print the verdict line only\n"
	    "  -h, --help   this text\n"
	    "\n"
	    "Output: a line per snapshot cycle (routers compared, counters, equal or the first\n"
	    "difference), then \"verify: equal: ...\" or \"verify: diverged at cycle C ...\".\n"
	    "Exit status: 0 every counter equal; 1 a difference (or a run that reported a\n"
	    "fault); 2 usage or input error.\n");
}

/* One router's register file at one cycle: its "name value" lines, sorted by name. */
struct snap_kv {
	char *key, *val;
};
struct snap_block {
	uint64_t cycle;
	uint32_t router;
	struct snap_kv *kv;
	size_t n, cap;
};
struct snap_set {
	struct snap_block *b;
	size_t n, cap;
	char fault[512]; /* the run's earliest lockstep fault, "" if exact */
	uint64_t fault_cycle;
	unsigned verdicts; /* "# lockstep:" lines read: one per complete snapshot file */
};

static int kv_cmp(const void *a, const void *b)
{
	return strcmp(((const struct snap_kv *)a)->key, ((const struct snap_kv *)b)->key);
}

static int block_cmp(const void *a, const void *b)
{
	const struct snap_block *x = a, *y = b;

	if (x->cycle != y->cycle)
		return x->cycle < y->cycle ? -1 : 1;
	return x->router < y->router ? -1 : x->router > y->router;
}

/* The dataplane's own counters: no model counterpart (usage()). */
static bool left_out(const char *key)
{
	const char *dot;

	if (strncmp(key, "sim.", 4) == 0)
		return true;
	if (strncmp(key, "port", 4) != 0 || (dot = strchr(key, '.')) == NULL)
		return false;
	dot++;
	if (strcmp(dot, "link_state") == 0)
		return true;
	for (int c = DFLY_WIRE_TX_FRAMES; c <= DFLY_LINK_UPS; c++)
		if (strcmp(dot, dfly_port_ctr_names[c]) == 0)
			return true;
	return strcmp(dot, dfly_port_ctr_names[DFLY_LOCKSTEP_LATE]) == 0 ||
	       strcmp(dot, dfly_port_ctr_names[DFLY_LOCKSTEP_BREACH]) == 0;
}

static struct snap_block *block_new(struct snap_set *s, uint64_t cycle, uint32_t router)
{
	struct snap_block *b;

	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		struct snap_block *nb = realloc(s->b, cap * sizeof(*nb));

		if (nb == NULL)
			return NULL;
		s->b = nb;
		s->cap = cap;
	}
	b = &s->b[s->n++];
	memset(b, 0, sizeof(*b));
	b->cycle = cycle;
	b->router = router;
	return b;
}

static int kv_add(struct snap_block *b, const char *key, const char *val)
{
	if (b->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 128;
		struct snap_kv *nk = realloc(b->kv, cap * sizeof(*nk));

		if (nk == NULL)
			return -ENOMEM;
		b->kv = nk;
		b->cap = cap;
	}
	b->kv[b->n].key = strdup(key);
	b->kv[b->n].val = strdup(val);
	if (b->kv[b->n].key == NULL || b->kv[b->n].val == NULL)
		return -ENOMEM;
	b->n++;
	return 0;
}

/* Read snapshots (dfly-switch --snapshots, or this file's sim dump) from @p f, named @p name in
 * errors. @return 0, or -EINVAL with the reason on stderr. */
static int snap_read(struct snap_set *s, FILE *f, const char *name)
{
	char line[1024], key[512], val[512];
	struct snap_block *b = NULL;
	uint64_t cycle = UINT64_MAX;
	unsigned lineno = 0;

	while (fgets(line, sizeof(line), f) != NULL) {
		unsigned long long c, rc;
		unsigned r;

		lineno++;
		if (sscanf(line, "# snapshot cycle %llu", &c) == 1) {
			cycle = c;
			b = NULL;
		} else if (strncmp(line, "# lockstep: ", 12) == 0) {
			unsigned long long fc;

			s->verdicts++;
			if (sscanf(line, "# lockstep: not exact from cycle %llu", &fc) == 1 &&
			    (s->fault[0] == '\0' || fc < s->fault_cycle)) {
				s->fault_cycle = fc;
				snprintf(s->fault, sizeof(s->fault), "%s: %.*s", name,
					 (int)strcspn(line + 12, "\n"), line + 12);
			}
		} else if (sscanf(line, "router %u cycle %llu", &r, &rc) == 2) {
			if (cycle == UINT64_MAX) {
				fprintf(stderr,
					"dfly verify: %s:%u: a register file before any "
					"\"# snapshot cycle\" line\n",
					name, lineno);
				return -EINVAL;
			}
			b = block_new(s, cycle, r);
			if (b == NULL)
				return -ENOMEM;
		} else if (b != NULL && sscanf(line, " %511s %511s", key, val) == 2) {
			if (!left_out(key) && kv_add(b, key, val) < 0)
				return -ENOMEM;
		}
	}
	return 0;
}

static void snap_sort(struct snap_set *s)
{
	qsort(s->b, s->n, sizeof(s->b[0]), block_cmp);
	for (size_t i = 0; i < s->n; i++)
		qsort(s->b[i].kv, s->b[i].n, sizeof(s->b[i].kv[0]), kv_cmp);
}

static void snap_free(struct snap_set *s)
{
	for (size_t i = 0; i < s->n; i++) {
		for (size_t k = 0; k < s->b[i].n; k++) {
			free(s->b[i].kv[k].key);
			free(s->b[i].kv[k].val);
		}
		free(s->b[i].kv);
	}
	free(s->b);
}

/* The model at the run's snapshot cycles: dfly sim's fabric on @p cfg, the same dump. */
static int sim_snapshots(const struct dfly_netcfg *cfg, const struct snap_set *run,
			 struct snap_set *sim)
{
	char err[512], *buf = NULL;
	size_t len = 0;
	struct dfly_fabric *fab = dfly_fabric_create(cfg, cfg->seed, err, sizeof(err));
	FILE *m;
	int rc = 0;

	if (fab == NULL) {
		fprintf(stderr, "dfly verify: %s\n", err);
		return -EINVAL;
	}
	m = open_memstream(&buf, &len);
	if (m == NULL) {
		dfly_fabric_destroy(fab);
		return -ENOMEM;
	}
	for (size_t i = 0; i < run->n && rc == 0; i++) {
		uint64_t c = run->b[i].cycle;

		if (i > 0 && run->b[i - 1].cycle == c)
			continue;
		if (c > dfly_fabric_now(fab) &&
		    dfly_fabric_step(fab, c - dfly_fabric_now(fab)) < 0) {
			fprintf(stderr,
				"dfly verify: the model deadlocked before cycle %" PRIu64 "\n", c);
			rc = -EINVAL;
			break;
		}
		dfly_fabric_sync_gauges(fab);
		fprintf(m, "# snapshot cycle %" PRIu64 "\n", c);
		dfly_fabric_dump_counters(fab, m);
	}
	fclose(m);
	dfly_fabric_destroy(fab);
	if (rc == 0) {
		FILE *r = fmemopen(buf, len, "r");

		rc = r != NULL ? snap_read(sim, r, "the model") : -ENOMEM;
		if (r != NULL)
			fclose(r);
		snap_sort(sim);
	}
	free(buf);
	return rc;
}

/* Compare one router at one cycle; the first difference into @p what. @return differences. */
static size_t block_diff(const struct snap_block *sim, const struct snap_block *run, char *what,
			 size_t len)
{
	size_t i = 0, j = 0, nd = 0;

	while (i < sim->n || j < run->n) {
		int c = i == sim->n ? 1 : j == run->n ? -1 : strcmp(sim->kv[i].key, run->kv[j].key);

		if (c == 0 && strcmp(sim->kv[i].val, run->kv[j].val) == 0) {
			i++;
			j++;
			continue;
		}
		if (nd++ == 0)
			snprintf(what, len, "%s: model %s, run %s",
				 c <= 0 ? sim->kv[i].key : run->kv[j].key,
				 c <= 0 ? sim->kv[i].val : "0", c >= 0 ? run->kv[j].val : "0");
		if (c <= 0)
			i++;
		if (c >= 0)
			j++;
	}
	return nd;
}

int cmd_verify(int argc, char **argv)
{
	static const struct option opts[] = {{"quiet", no_argument, NULL, 'q'},
					     {"help", no_argument, NULL, 'h'},
					     {NULL, 0, NULL, 0}};
	struct snap_set run = {0}, sim = {0};
	struct dfly_netcfg cfg;
	char path[4096], err[DFLY_NETCFG_ERRLEN], first[700] = "";
	uint64_t first_cycle = UINT64_MAX, cycles = 0;
	bool quiet = false;
	glob_t g;
	int opt, rc = 0;
	size_t counters = 0, ndiff = 0;

	optind = 1;
	while ((opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		if (opt == 'q') {
			quiet = true;
		} else if (opt == 'h') {
			usage(stdout);
			return 0;
		} else {
			return dfly_cli_opt_error("dfly verify", opts, opt, argv);
		}
	}
	if (optind != argc - 1)
		return dfly_cli_usage_error("dfly verify", optind < argc
							       ? "one DIR only"
							       : "a testbed directory is required");
	snprintf(path, sizeof(path), "%s/network.cfg", argv[optind]);
	if (dfly_netcfg_load(&cfg, path, NULL, 0, err, sizeof(err)) < 0) {
		fprintf(stderr, "dfly verify: %s\n", err);
		return 2;
	}
	snprintf(path, sizeof(path), "%s/p*.snap", argv[optind]);
	if (glob(path, 0, NULL, &g) != 0) {
		fprintf(stderr,
			"dfly verify: %s: no snapshots (a run of `dfly testbed up --verify`)\n",
			path);
		return 2;
	}
	for (size_t i = 0; i < g.gl_pathc && rc == 0; i++) {
		FILE *f = fopen(g.gl_pathv[i], "r");
		unsigned seen = run.verdicts;

		if (f == NULL) {
			fprintf(stderr, "dfly verify: %s: %s\n", g.gl_pathv[i], strerror(errno));
			rc = -EINVAL;
			break;
		}
		rc = snap_read(&run, f, g.gl_pathv[i]);
		fclose(f);
		if (rc == 0 && run.verdicts == seen) {
			/* written at the process's end: a process killed or crashed has none */
			fprintf(stderr,
				"dfly verify: %s: incomplete (no \"# lockstep:\" line: the process "
				"did not end cleanly)\n",
				g.gl_pathv[i]);
			rc = -EINVAL;
		}
	}
	globfree(&g);
	if (rc == 0 && run.n == 0) {
		fprintf(stderr, "dfly verify: %s: the snapshots hold no register file\n",
			argv[optind]);
		rc = -EINVAL;
	}
	if (rc == 0) {
		snap_sort(&run);
		rc = sim_snapshots(&cfg, &run, &sim);
	}
	if (rc != 0) {
		snap_free(&run);
		snap_free(&sim);
		return 2;
	}
	/* every router at every snapshot cycle: the model has them all */
	if (run.n != sim.n) {
		fprintf(
		    stderr,
		    "dfly verify: %s: %zu register files in the snapshots, the model has %zu at "
		    "the same cycles: a process's snapshots are missing\n",
		    argv[optind], run.n, sim.n);
		snap_free(&run);
		snap_free(&sim);
		return 2;
	}
	/* both sorted by (cycle, router): walk them together */
	for (size_t i = 0, j = 0; i < run.n;) {
		uint64_t c = run.b[i].cycle;
		size_t routers = 0, diff_here = 0;
		char here[700] = "";

		for (; i < run.n && run.b[i].cycle == c; i++) {
			char what[600];
			size_t nd;

			while (j < sim.n && block_cmp(&sim.b[j], &run.b[i]) < 0)
				j++;
			if (j == sim.n || block_cmp(&sim.b[j], &run.b[i]) != 0) {
				snprintf(what, sizeof(what), "router %u: not in the model",
					 run.b[i].router);
				nd = 1;
			} else {
				nd = block_diff(&sim.b[j], &run.b[i], what, sizeof(what));
				counters += sim.b[j].n;
			}
			routers++;
			if (nd && diff_here == 0)
				snprintf(here, sizeof(here), "router %u %s", run.b[i].router, what);
			diff_here += nd;
		}
		cycles++;
		ndiff += diff_here;
		if (diff_here && first_cycle == UINT64_MAX) {
			first_cycle = c;
			snprintf(first, sizeof(first), "%s", here);
		}
		if (!quiet)
			printf("cycle %" PRIu64 ": %zu routers, %s\n", c, routers,
			       diff_here ? here : "every counter equal");
	}
	if (ndiff == 0 && run.fault[0] == '\0') {
		printf("verify: equal: %" PRIu64
		       " snapshots, %zu counters compared, every one equal "
		       "to the model's; the run reported itself exact\n",
		       cycles, counters);
	} else if (ndiff == 0) {
		printf("verify: equal at every snapshot, but the run reported a fault (%s): a "
		       "difference may lie between snapshots or after the last\n",
		       run.fault);
		rc = 1;
	} else {
		/* a snapshot at cycle d holds what the cycles before d did: a fault at cycle x
		 * explains a difference from the first snapshot after x on */
		printf("verify: diverged at cycle %" PRIu64
		       " (the first snapshot that differs; %zu "
		       "counters differ in all): %s; the run: %s%s\n",
		       first_cycle, ndiff, first,
		       run.fault[0] ? run.fault : "reported itself exact (a bug: please report)",
		       run.fault[0] && first_cycle <= run.fault_cycle
			   ? " (before that fault: unexplained, a bug: please report)"
			   : "");
		rc = 1;
	}
	snap_free(&run);
	snap_free(&sim);
	return rc;
}
