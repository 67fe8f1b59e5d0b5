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
#include "host.h"
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
	    "hello_*, host_*, arp_replies, link_downs, link_ups, lockstep_*), link states, and\n"
	    "the drops of host frames the dataplane refused before the ASIC (drop.host_*,\n"
	    "drop.ctrl_host). Compared too: the delivery record, every packet delivered (its\n"
	    "tail cycle, source, destination, generation and injection cycles, length, hops,\n"
	    "whether it was sent nonminimally, a generator's or a host's).\n"
	    "\n"
	    "Hosts: the run writes every host frame that entered an ASIC with its cycle, node,\n"
	    "destination and length (\"ingress\" records, DIR/p<i>.snap); the model injects\n"
	    "each at its cycle, before that cycle's generators, as dfly-switch does.\n"
	    "\n"
	    "What equality needs (dfly-switch --lockstep provides it): every frame taken at the\n"
	    "cycle it was due, the firmware ticked after each cycle as in dfly sim, generation\n"
	    "from cycle 0 with the network's seed, nothing the device refused. The run says\n"
	    "whether it held (\"# lockstep: exact\", or the first cycle it did not and why);\n"
	    "verify says where the counters or deliveries first differ, and whether that is\n"
	    "explained by what the run reported.\n"
	    "\n"
	    "options:\n"
	    "  --quiet      print the verdict line only\n"
	    "  -h, --help   this text\n"
	    "\n"
	    "Output: a line per snapshot cycle (routers compared, counters, equal or the first\n"
	    "difference), one for the deliveries, then \"verify: equal: ...\" or \"verify:\n"
	    "diverged at cycle C ...\".\n"
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
/* A host frame that entered the run: its cycle, node, destination and phits. */
struct snap_ingress {
	uint64_t cycle, seq; /* seq: its place in the files (ties within a cycle keep it) */
	uint32_t node, dst, len;
};
struct snap_set {
	struct snap_block *b;
	size_t n, cap;
	struct snap_ingress *in; /* the run's host ingress */
	size_t nin, capin;
	struct dfly_delivery *dl; /* the delivery record */
	size_t ndl, capdl;
	bool *gen_node; /* [node]: a generator in the run ("generators" lines) */
	uint32_t nodes;
	bool has_gen_lines;
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
	/* a host's frames the dataplane refused before the ASIC (its Ethernet side) */
	if (strncmp(key, "drop.host_", 10) == 0 || strcmp(key, "drop.ctrl_host") == 0)
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

static int grow(void **v, size_t *cap, size_t n, size_t size)
{
	if (n == *cap) {
		size_t nc = *cap ? 2 * *cap : 1024;
		void *nv = realloc(*v, nc * size);

		if (nv == NULL)
			return -ENOMEM;
		*v = nv;
		*cap = nc;
	}
	return 0;
}

static int delivery_add(struct snap_set *s, const struct dfly_delivery *d)
{
	if (grow((void **)&s->dl, &s->capdl, s->ndl, sizeof(*s->dl)) < 0)
		return -ENOMEM;
	s->dl[s->ndl++] = *d;
	return 0;
}

/* "delivery TAIL SRC DST GEN INJ LEN LHOPS GHOPS NONMIN gen|host" (dfly_delivery_format()).
 * @return 0, or -EINVAL. */
static int delivery_parse(const char *line, struct dfly_delivery *d)
{
	unsigned long long tail, gen, inj;
	unsigned src, dst, len, lh, gh, nm;
	char kind[8];

	if (sscanf(line, "delivery %llu %u %u %llu %llu %u %u %u %u %7s", &tail, &src, &dst, &gen,
		   &inj, &len, &lh, &gh, &nm, kind) != 10 ||
	    (strcmp(kind, "gen") != 0 && strcmp(kind, "host") != 0))
		return -EINVAL;
	*d = (struct dfly_delivery){.src_node = src,
				    .dst_node = dst,
				    .gen_cycle = gen,
				    .inj_cycle = inj,
				    .tail_cycle = tail,
				    .len = (uint16_t)len,
				    .lhops = (uint8_t)lh,
				    .ghops = (uint8_t)gh,
				    .nonmin = nm != 0,
				    .host = kind[0] == 'h'};
	return 0;
}

/* "generators N N ...": the nodes of a process's lcore that ran a generator. */
static int gen_parse(struct snap_set *s, const char *line, const char *name, unsigned lineno)
{
	const char *p = line + strlen("generators");

	s->has_gen_lines = true;
	for (;;) {
		char *end;
		unsigned long n;

		while (*p == ' ')
			p++;
		if (*p == '\n' || *p == '\0')
			return 0;
		errno = 0;
		n = strtoul(p, &end, 10);
		if (end == p || errno != 0 || n >= s->nodes) {
			fprintf(stderr, "dfly verify: %s:%u: a generator node out of 0 .. %u\n",
				name, lineno, s->nodes - 1);
			return -EINVAL;
		}
		s->gen_node[n] = true;
		p = end;
	}
}

/* Read snapshots (dfly-switch --snapshots, or this file's sim dump) from @p f, named @p name in
 * errors: register files, and the run's records (generators, ingress, deliveries). @return 0,
 * or -EINVAL with the reason on stderr. */
static int snap_read(struct snap_set *s, FILE *f, const char *name)
{
	char line[1024], key[512], val[512];
	struct snap_block *b = NULL;
	uint64_t cycle = UINT64_MAX;
	unsigned lineno = 0;

	while (fgets(line, sizeof(line), f) != NULL) {
		unsigned long long c, rc;
		unsigned r, node, dst, len;
		struct dfly_delivery d;

		lineno++;
		if (strncmp(line, "delivery ", 9) == 0) {
			if (delivery_parse(line, &d) < 0) {
				fprintf(stderr, "dfly verify: %s:%u: a malformed delivery record\n",
					name, lineno);
				return -EINVAL;
			}
			if (delivery_add(s, &d) < 0)
				return -ENOMEM;
		} else if (strncmp(line, "ingress ", 8) == 0) {
			if (sscanf(line, "ingress %llu %u %u %u", &c, &node, &dst, &len) != 4 ||
			    node >= s->nodes || dst >= s->nodes) {
				fprintf(stderr, "dfly verify: %s:%u: a malformed ingress record\n",
					name, lineno);
				return -EINVAL;
			}
			if (grow((void **)&s->in, &s->capin, s->nin, sizeof(*s->in)) < 0)
				return -ENOMEM;
			s->in[s->nin] = (struct snap_ingress){c, s->nin, node, dst, len};
			s->nin++;
		} else if (strncmp(line, "generators", 10) == 0 &&
			   (line[10] == ' ' || line[10] == '\n')) {
			if (gen_parse(s, line, name, lineno) < 0)
				return -EINVAL;
		} else if (sscanf(line, "# snapshot cycle %llu", &c) == 1) {
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
	if (s->n > 0)
		qsort(s->b, s->n, sizeof(s->b[0]), block_cmp);
	for (size_t i = 0; i < s->n; i++)
		if (s->b[i].n > 0)
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
	free(s->in);
	free(s->dl);
	free(s->gen_node);
}

static int ingress_cmp(const void *a, const void *b)
{
	const struct snap_ingress *x = a, *y = b;

	if (x->cycle != y->cycle)
		return x->cycle < y->cycle ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

#define CMP(f)                                                                                     \
	if (x->f != y->f)                                                                          \
		return x->f < y->f ? -1 : 1;
static int delivery_cmp(const void *a, const void *b)
{
	const struct dfly_delivery *x = a, *y = b;

	CMP(tail_cycle)
	CMP(dst_node)
	CMP(src_node)
	CMP(gen_cycle)
	CMP(inj_cycle)
	CMP(len)
	CMP(lhops)
	CMP(ghops)
	CMP(nonmin)
	CMP(host)
	return 0;
}
#undef CMP

static void delivery_sort(struct snap_set *s)
{
	if (s->ndl > 0)
		qsort(s->dl, s->ndl, sizeof(s->dl[0]), delivery_cmp);
}

static void model_delivery(void *ctx, const struct dfly_delivery *d)
{
	struct snap_set *s = ctx;

	if (delivery_add(s, d) < 0)
		s->nodes = 0; /* out of memory: sim_snapshots() says so */
}

/* The model at the run's snapshot cycles: dfly sim's fabric on @p cfg, the same dump. */
static int sim_snapshots(const struct dfly_netcfg *cfg, const struct snap_set *run,
			 struct snap_set *sim)
{
	char err[512], *buf = NULL;
	size_t len = 0, next_in = 0;
	struct dfly_fabric_opts o = {
	    .gen_node = run->has_gen_lines ? run->gen_node : NULL,
	    /* host frames as short as a minimum Ethernet frame, as dfly-switch sizes its ASICs */
	    .min_pkt_phits = run->nin ? dp_host_frame_phits(60, cfg->phit_bytes) : 0,
	};
	struct dfly_fabric *fab = dfly_fabric_create_opts(cfg, cfg->seed, &o, err, sizeof(err));
	FILE *m;
	int rc = 0;

	if (fab == NULL) {
		fprintf(stderr, "dfly verify: %s\n", err);
		return -EINVAL;
	}
	sim->nodes = run->nodes;
	dfly_fabric_set_tap(fab, model_delivery, sim);
	m = open_memstream(&buf, &len);
	if (m == NULL) {
		dfly_fabric_destroy(fab);
		return -ENOMEM;
	}
	for (size_t i = 0; i < run->n && rc == 0; i++) {
		uint64_t c = run->b[i].cycle;

		if (i > 0 && run->b[i - 1].cycle == c)
			continue;
		/* the host frames that entered before c, each at its cycle before its generators */
		for (; next_in < run->nin && run->in[next_in].cycle < c && rc == 0; next_in++) {
			const struct snap_ingress *in = &run->in[next_in];

			if (in->cycle > dfly_fabric_now(fab) &&
			    dfly_fabric_step(fab, in->cycle - dfly_fabric_now(fab)) < 0) {
				rc = -EDEADLK;
				break;
			}
			if (dfly_fabric_inject_host(fab, in->node, in->dst, in->len) < 0) {
				fprintf(stderr,
					"dfly verify: an ingress record the model cannot replay: "
					"cycle %" PRIu64 " node %u to %u, %u phits\n",
					in->cycle, in->node, in->dst, in->len);
				rc = -EINVAL;
			}
		}
		if (rc == 0 && c > dfly_fabric_now(fab) &&
		    dfly_fabric_step(fab, c - dfly_fabric_now(fab)) < 0)
			rc = -EDEADLK;
		if (rc == -EDEADLK) {
			fprintf(stderr,
				"dfly verify: the model deadlocked before cycle %" PRIu64 "\n", c);
			rc = -EINVAL;
		}
		if (rc != 0)
			break;
		dfly_fabric_sync_gauges(fab);
		fprintf(m, "# snapshot cycle %" PRIu64 "\n", c);
		dfly_fabric_dump_counters(fab, m);
	}
	fclose(m);
	dfly_fabric_destroy(fab);
	if (rc == 0 && sim->nodes == 0) {
		fprintf(stderr, "dfly verify: out of memory for the model's deliveries\n");
		rc = -ENOMEM;
	}
	delivery_sort(sim);
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
	{
		struct dfly_topo *t =
		    dfly_topo_create(cfg.p, cfg.a, cfg.h, cfg.t, cfg.arr, cfg.sigma);

		if (t == NULL) {
			fprintf(stderr, "dfly verify: %s: an invalid topology\n", path);
			return 2;
		}
		run.nodes = t->nodes;
		dfly_topo_destroy(t);
		run.gen_node = calloc(run.nodes, sizeof(*run.gen_node));
		if (run.gen_node == NULL) {
			fprintf(stderr, "dfly verify: out of memory\n");
			return 2;
		}
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
		if (run.nin > 0) /* qsort's array may not be NULL, even empty */
			qsort(run.in, run.nin, sizeof(run.in[0]), ingress_cmp);
		delivery_sort(&run);
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
	/* the delivery record: every packet delivered, both sorted the same way */
	{
		size_t k = 0;
		char a[160] = "none", b[160] = "none";

		while (k < run.ndl && k < sim.ndl && delivery_cmp(&run.dl[k], &sim.dl[k]) == 0)
			k++;
		if (k < run.ndl || k < sim.ndl) {
			const struct dfly_delivery *m = k < sim.ndl ? &sim.dl[k] : NULL;
			const struct dfly_delivery *r = k < run.ndl ? &run.dl[k] : NULL;
			uint64_t at = m == NULL                       ? r->tail_cycle
				      : r == NULL                     ? m->tail_cycle
				      : m->tail_cycle < r->tail_cycle ? m->tail_cycle
								      : r->tail_cycle;

			if (m != NULL)
				dfly_delivery_format(m, a, sizeof(a));
			if (r != NULL)
				dfly_delivery_format(r, b, sizeof(b));
			a[strcspn(a, "\n")] = b[strcspn(b, "\n")] = '\0';
			printf(
			    "deliveries: %zu in the run, %zu in the model; the first that differs "
			    "(of the sorted records, tail cycle %" PRIu64 "): model \"%s\", run "
			    "\"%s\"\n",
			    run.ndl, sim.ndl, at, a, b);
			ndiff++;
			if (at < first_cycle) {
				first_cycle = at;
				snprintf(first, sizeof(first), "the delivery record");
			}
		} else if (!quiet) {
			printf(
			    "deliveries: %zu (%zu host frames entered), every one as the model's\n",
			    run.ndl, run.nin);
		}
	}
	if (ndiff == 0 && run.fault[0] == '\0') {
		printf("verify: equal: %" PRIu64
		       " snapshots, %zu counters and %zu deliveries compared, every one equal "
		       "to the model's (%zu host frames replayed); the run reported itself exact\n",
		       cycles, counters, run.ndl, run.nin);
	} else if (ndiff == 0) {
		printf("verify: equal at every snapshot, but the run reported a fault (%s): a "
		       "difference may lie between snapshots or after the last\n",
		       run.fault);
		rc = 1;
	} else {
		/* a snapshot at cycle d holds what the cycles before d did: a fault at cycle x
		 * explains a difference from the first snapshot after x on */
		printf("verify: diverged at cycle %" PRIu64
		       " (the first snapshot or delivery that differs; %zu "
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
