/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfly repro claims: the engine (claims.h). Plan (every selected claim's function is called once
 * with no results, to collect the points it asks for), run the points that are not on disk yet
 * (each one `dfly sim` or `dfly transient` in a forked child, J at a time, kept under DIR/points/
 * with a .ok file once it finished, so that --resume continues after an interruption), then
 * evaluate (every claim's function again, now with the points' CSVs) and write DIR/claims.csv,
 * DIR/claims.md and the figures.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "claims.h"
#include "netcfg.h"
#include "dfly/topo.h"
#include "cli.h"
#include "cmds.h"
#include "repro.h"

#ifndef DFLY_SOURCE_DIR
#define DFLY_SOURCE_DIR "."
#endif

#define CL_MAX_POINTS 1024
#define CL_MAX_CHECKS 24
#define CL_MAX_ARGS   64

enum cl_scale { CL_QUICK, CL_PAPER };
enum cl_state { PT_PENDING, PT_DONE, PT_FAILED };

struct cl_point {
	bool transient;
	char letter;
	char mech[16], pattern[24], from[24], to[24];
	double load;
	unsigned post;
	char sets[512];
	char name[96];
	char key[768];
	enum cl_state state;
	struct cl_sim sim;
	struct cl_tr tr;
	pid_t pid;
	double start, wall;
};

struct cl_checkrec {
	bool ok;
	char text[200], expected[120], tol[40];
};

struct cl_ctx {
	enum cl_scale scale;
	bool planning;
	const struct claim *c;
	struct cl_checkrec checks[CL_MAX_CHECKS];
	unsigned nchecks;
	unsigned missing_points;
	char part_missing[200];
	char proto_note[200]; /* cl_protocol_note(): where this claim's protocol differs */
	unsigned pts[64];     /* the points this claim used, for its figure */
	unsigned npts;
	bool confirm;   /* run the points on the network's confirm_seeds ("#seeds=N") */
	unsigned nnear; /* orderings within CL_NOISE among the checks */
};

struct cl_result {
	const char *verdict;
	char note[400];
};

static struct cl_point *pts;
static bool *confirmed; /* per claim: run on its networks' confirm_seeds (CL_NOISE) */
static enum cl_scale cur_scale;
static unsigned npts;
static char outdir[400];
static unsigned opt_threads = 1, opt_seeds, opt_jobs = 1;

/*
 * The networks per scale. paper: the papers' configurations (spec §0.4) with a shortened
 * protocol, stated in the report: CFG-T 3k + 3k cycles, 1 seed (the papers: 60k + 60k, 5-10
 * seeds; 2,064 routers run at about 100 cycles/s on this 2-core machine, so 3k cycles already
 * carry millions of packets), transients 3 seeds; CFG-L 10k + 10k, 1 seed (the paper: 60k + 60k,
 * 10); CFG-I 10k + 20k, 1 seed (IAR: 10k + 50k), transients 5 seeds after IAR's 10k warm-up;
 * quick: the same files shrunk to
 * h = 3 (p = 3, a = 6: 19 groups, 114 routers) with every other setting of the paper's router
 * (h = 2 is too small for PB's F = 2 with the average over all channels: F must be < h).
 * The last column: a claim with an ordering inside CL_NOISE is run again on 5 seeds at the
 * paper scale (the thesis averages several seeds, §1.6.3.1; CBAR and LIA 10); the quick scale,
 * CI's smoke run, does not confirm.
 * CFG-T/FOGSim ('F') is CFG-T's network with the router rules of the thesis's simulator, FOGSim
 * v5, as settings (configs/cfg-t-fogsim.cfg, docs/router-model.md): the thesis's chapter 5
 * (FlexVC, DAMQ) runs on it, as its figures come from FOGSim v4, the FlexVC paper's release.
 */
static struct cl_net nets_paper[] = {
    {'T', "CFG-T", "configs/cfg-t.cfg", 8, 16, 8, 10, 129, 3000, 3000, 1, 3, 3000, 5},
    {'L', "CFG-L", "configs/cfg-l.cfg", 6, 12, 6, 25, 73, 10000, 10000, 1, 3, 10000, 5},
    {'I', "CFG-I", "configs/cfg-i.cfg", 4, 8, 4, 8, 33, 10000, 20000, 1, 5, 10000, 5},
    {'G', "CFG-G", "configs/cfg-g.cfg", 2, 4, 2, 10, 9, 0, 1, 1, 1, 0, 5},
    {'F', "CFG-T/FOGSim", "configs/cfg-t-fogsim.cfg", 8, 16, 8, 10, 129, 3000, 3000, 1, 3, 3000, 5},
};
static struct cl_net nets_quick[] = {
    {'T', "CFG-T at h=3", "configs/cfg-t.cfg", 3, 6, 3, 10, 19, 5000, 5000, 1, 4, 5000},
    {'L', "CFG-L at h=3", "configs/cfg-l.cfg", 3, 6, 3, 25, 19, 10000, 10000, 1, 4, 10000},
    {'I', "CFG-I at h=3", "configs/cfg-i.cfg", 3, 6, 3, 8, 19, 5000, 10000, 1, 4, 5000},
    {'G', "CFG-G", "configs/cfg-g.cfg", 2, 4, 2, 10, 9, 0, 1, 1, 1, 0},
    {'F', "CFG-T/FOGSim at h=3", "configs/cfg-t-fogsim.cfg", 3, 6, 3, 10, 19, 5000, 5000, 1, 4,
     5000},
};

const struct cl_net *cl_net(struct cl_ctx *x, char letter)
{
	struct cl_net *n = x->scale == CL_PAPER ? nets_paper : nets_quick;

	for (unsigned i = 0; i < sizeof(nets_paper) / sizeof(nets_paper[0]); i++)
		if (n[i].letter == letter)
			return &n[i];
	abort(); /* a claim names a network that does not exist: a bug of claims_def.c */
}

/* FNV-1a of the network file of @p letter (as found from here) and of its protocol (windows,
 * seeds): a point run with another file or protocol is stale (pt_load()). 0 if unreadable.
 * The file is hashed without its comments ('#', '//', C-style blocks) and whitespace, so a
 * comment or a blank line does not make finished points stale; any setting does. */
static const struct cl_net *cl_net_of(char letter);

static uint32_t cfg_hash(char letter)
{
	static uint32_t cache[5];
	static bool done[5];
	const char *letters = "TLIGF";
	unsigned k = (unsigned)(strchr(letters, letter) - letters);
	char path[512];
	uint32_t h = 2166136261u;
	FILE *f;
	int c;

	if (done[k])
		return cache[k];
	repro_src_path(cl_net_of(letter)->file, path, sizeof(path));
	f = fopen(path, "r");
	if (f == NULL)
		return 0;
	{
		bool str = false, esc = false, slash = false; /* slash: a '/' not hashed yet */

		while ((c = fgetc(f)) != EOF) {
			if (str) { /* a string is hashed as it is, to its closing quote */
				str = esc || c != '"';
				esc = !esc && c == '\\';
				h = (h ^ (uint8_t)c) * 16777619u;
				continue;
			}
			if (c == '#' || (c == '/' && slash)) {
				while (c != EOF && c != '\n')
					c = fgetc(f);
				slash = false;
				continue;
			} else if (c == '*' && slash) {
				int prev = EOF;

				while ((c = fgetc(f)) != EOF && !(prev == '*' && c == '/'))
					prev = c;
				slash = false;
				continue;
			} else if (c == '/') {
				slash = true;
				continue;
			} else if (slash) {
				h = (h ^ (uint8_t)'/') * 16777619u;
				slash = false;
			}
			if (isspace(c))
				continue;
			str = c == '"';
			h = (h ^ (uint8_t)c) * 16777619u;
		}
	}
	fclose(f);
	{
		/* and the protocol: a point of another window or seed count is stale too */
		const struct cl_net *n = cl_net_of(letter);
		char proto[160];

		snprintf(proto, sizeof(proto), "%llu+%llu/%u/%llu/%u/%u",
			 (unsigned long long)n->warmup, (unsigned long long)n->measure, n->seeds,
			 (unsigned long long)n->t_warmup, n->t_seeds, opt_seeds);
		for (const char *q = proto; *q; q++)
			h = (h ^ (uint8_t)*q) * 16777619u;
	}
	done[k] = true;
	return cache[k] = h;
}

static const struct cl_net *cl_net_of(char letter)
{
	struct cl_ctx x = {.scale = cur_scale};

	return cl_net(&x, letter);
}

bool cl_planning(const struct cl_ctx *x)
{
	return x->planning;
}

static uint32_t fnv1a(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return h;
}

static void safe_copy(char *dst, size_t len, const char *s)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < len; i++)
		dst[i] = (s[i] == '+' || s[i] == '-' || s[i] == '.' ||
			  (s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'z'))
			     ? s[i]
			     : '_';
	dst[i] = '\0';
}

/* Find or add the point of @p key. */
static struct cl_point *cl_point(struct cl_ctx *x, const struct cl_point *want)
{
	struct cl_point *p;

	for (unsigned i = 0; i < npts; i++)
		if (strcmp(pts[i].key, want->key) == 0) {
			p = &pts[i];
			goto found;
		}
	if (!x->planning)
		return NULL; /* not planned: cannot happen, the functions are deterministic */
	if (npts == CL_MAX_POINTS)
		abort();
	p = &pts[npts++];
	*p = *want;
found:
	if (x->npts < sizeof(x->pts) / sizeof(x->pts[0])) {
		unsigned idx = (unsigned)(p - pts);
		bool seen = false;

		for (unsigned i = 0; i < x->npts; i++)
			seen |= x->pts[i] == idx;
		if (!seen)
			x->pts[x->npts++] = idx;
	}
	return p;
}

/* @p sets into @p buf, with "#seeds=N" after them when the claim is being confirmed. */
static void confirm_sets(const struct cl_ctx *x, char letter, const char *sets, char *buf,
			 size_t len)
{
	unsigned cs = cl_net_of(letter)->confirm_seeds;
	int n;

	if (x->confirm && cs)
		n = snprintf(buf, len, "%s%s#seeds=%u", sets ? sets : "", sets && *sets ? ";" : "",
			     cs);
	else
		n = snprintf(buf, len, "%s", sets ? sets : "");
	if (n < 0 || (size_t)n >= len) {
		fprintf(stderr, "dfly repro claims: a point's settings do not fit: %s\n", sets);
		abort(); /* a claim function's bug: a cut setting would run another point */
	}
}

/* The runs of point @p p: --seeds, else its "#seeds=N", else the network's. */
static unsigned pt_seeds(const struct cl_point *p, const struct cl_net *n)
{
	const char *s = strstr(p->sets, "#seeds=");

	if (opt_seeds)
		return opt_seeds;
	if (s)
		return (unsigned)strtoul(s + strlen("#seeds="), NULL, 10);
	return p->transient ? n->t_seeds : n->seeds;
}

const struct cl_sim *cl_sim(struct cl_ctx *x, char letter, const char *mech, const char *pattern,
			    double load, const char *sets)
{
	struct cl_point w = {0}, *p;
	char m[16], pa[24];

	w.letter = letter;
	snprintf(w.mech, sizeof(w.mech), "%s", mech);
	snprintf(w.pattern, sizeof(w.pattern), "%s", pattern);
	w.load = load;
	confirm_sets(x, letter, sets, w.sets, sizeof(w.sets));
	snprintf(w.key, sizeof(w.key), "sim|%c|%s|%s|%.4f|%s", letter, mech, pattern, load, w.sets);
	safe_copy(m, sizeof(m), mech);
	safe_copy(pa, sizeof(pa), pattern);
	snprintf(w.name, sizeof(w.name), "%c-%s-%s-%.3f-%06x", letter, m, pa, load,
		 fnv1a(w.key) & 0xffffff);
	p = cl_point(x, &w);
	if (p == NULL || x->planning || p->state != PT_DONE) {
		if (!x->planning)
			x->missing_points++;
		return NULL;
	}
	return &p->sim;
}

const struct cl_tr *cl_tr(struct cl_ctx *x, char letter, const char *mech, const char *from,
			  const char *to, double load, unsigned post, const char *sets)
{
	struct cl_point w = {0}, *p;
	char m[16], f[24], t[24];

	w.transient = true;
	w.letter = letter;
	snprintf(w.mech, sizeof(w.mech), "%s", mech);
	snprintf(w.from, sizeof(w.from), "%s", from);
	snprintf(w.to, sizeof(w.to), "%s", to);
	w.load = load;
	w.post = post;
	confirm_sets(x, letter, sets, w.sets, sizeof(w.sets));
	snprintf(w.key, sizeof(w.key), "tr|%c|%s|%s|%s|%.4f|%u|%s", letter, mech, from, to, load,
		 post, w.sets);
	safe_copy(m, sizeof(m), mech);
	safe_copy(f, sizeof(f), from);
	safe_copy(t, sizeof(t), to);
	snprintf(w.name, sizeof(w.name), "%c-tr-%s-%s-%s-%.3f-%06x", letter, m, f, t, load,
		 fnv1a(w.key) & 0xffffff);
	p = cl_point(x, &w);
	if (p == NULL || x->planning || p->state != PT_DONE) {
		if (!x->planning)
			x->missing_points++;
		return NULL;
	}
	return &p->tr;
}

double cl_tr_mean(const struct cl_tr *t, const double *v, int64_t lo, int64_t hi)
{
	double s = 0;
	unsigned n = 0;

	for (unsigned i = 0; i < t->n; i++)
		if (t->cycle[i] >= lo && t->cycle[i] < hi) {
			s += v[i];
			n++;
		}
	return n ? s / n : NAN;
}

int64_t cl_tr_settle(const struct cl_tr *t, const double *v, int64_t ma, double tol_rel)
{
	unsigned first = t->n, nsteady;
	double S = 0;
	int64_t at = -1;

	for (unsigned i = 0; i < t->n; i++)
		if (t->cycle[i] >= 0) {
			first = i;
			break;
		}
	if (first == t->n)
		return -1;
	nsteady = (t->n - first) / 5 > 0 ? (t->n - first) / 5 : 1;
	for (unsigned i = t->n - nsteady; i < t->n; i++)
		S += v[i];
	S /= nsteady;
	/* from the last bin backwards: the earliest bin of the final in-band run */
	for (unsigned k = t->n; k-- > first;) {
		double m = 0;
		unsigned nm = 0;

		for (unsigned i = k + 1; i-- > 0 && t->cycle[i] > t->cycle[k] - ma;) {
			m += v[i];
			nm++;
		}
		if (fabs(m / nm - S) > tol_rel * fabs(S))
			break;
		at = t->cycle[k];
	}
	return at;
}

void cl_check(struct cl_ctx *x, bool ok, const char *tol, const char *expected, const char *fmt,
	      ...)
{
	struct cl_checkrec *r;
	va_list ap;

	if (x->planning || x->nchecks == CL_MAX_CHECKS)
		return;
	r = &x->checks[x->nchecks++];
	r->ok = ok;
	va_start(ap, fmt);
	vsnprintf(r->text, sizeof(r->text), fmt, ap);
	va_end(ap);
	snprintf(r->expected, sizeof(r->expected), "%s", expected);
	snprintf(r->tol, sizeof(r->tol), "%s", tol);
}

static const char *fmt_num(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "n/a");
	else if (fabs(v) >= 100) /* a tenth of a cycle: orderings of near-equal latencies show */
		snprintf(buf, len, "%.1f", v);
	else if (fabs(v) >= 1)
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "%.4f", v);
	return buf;
}

void cl_le(struct cl_ctx *x, const char *what, double v, double bound)
{
	char e[64], a[32], b[32];

	snprintf(e, sizeof(e), "<= %s", fmt_num(b, sizeof(b), bound));
	cl_check(x, v <= bound * (1 + CL_TOL_BOUND), "+10%", e, "%s = %s", what,
		 fmt_num(a, sizeof(a), v));
}

void cl_ge(struct cl_ctx *x, const char *what, double v, double bound)
{
	char e[64], a[32], b[32];

	snprintf(e, sizeof(e), ">= %s", fmt_num(b, sizeof(b), bound));
	cl_check(x, v >= bound * (1 - CL_TOL_BOUND), "-10%", e, "%s = %s", what,
		 fmt_num(a, sizeof(a), v));
}

void cl_near(struct cl_ctx *x, const char *what, double v, double target)
{
	char e[64], a[32], b[32];

	snprintf(e, sizeof(e), "~ %s", fmt_num(b, sizeof(b), target));
	cl_check(x, fabs(v - target) <= CL_TOL_BOUND * fabs(target), "+-10%", e, "%s = %s", what,
		 fmt_num(a, sizeof(a), v));
}

void cl_order(struct cl_ctx *x, const char *what, const char *a, double va, const char *b,
	      double vb)
{
	char e[96], s1[32], s2[32];

	snprintf(e, sizeof(e), "%s < %s", a, b);
	cl_check(x, va < vb, "ordering", e, "%s: %s %s, %s %s", what, a,
		 fmt_num(s1, sizeof(s1), va), b, fmt_num(s2, sizeof(s2), vb));
	if (!x->planning && isfinite(va) && isfinite(vb) &&
	    fabs(va - vb) < CL_NOISE * fmax(fabs(va), fabs(vb)))
		x->nnear++;
}

void cl_factor(struct cl_ctx *x, const char *what, double v, double target)
{
	char e[64], a[32], b[32];

	snprintf(e, sizeof(e), "~ %s", fmt_num(b, sizeof(b), target));
	cl_check(x, v >= 0 && v >= target / CL_TOL_FACTOR && v <= target * CL_TOL_FACTOR, "x1.5", e,
		 "%s = %s", what, v < 0 ? "never" : fmt_num(a, sizeof(a), v));
}

bool cl_paper(const struct cl_ctx *x)
{
	return x->scale == CL_PAPER;
}

void cl_protocol_note(struct cl_ctx *x, const char *text)
{
	snprintf(x->proto_note, sizeof(x->proto_note), "%s", text);
}

void cl_part_missing(struct cl_ctx *x, const char *what)
{
	if (!x->planning && x->part_missing[0] == '\0')
		snprintf(x->part_missing, sizeof(x->part_missing), "%s", what);
}

/* ---- running the points ---- */

struct cl_argv {
	char *v[CL_MAX_ARGS];
	char buf[4096];
	size_t used;
	int n;
};

static void av_add(struct cl_argv *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void av_add(struct cl_argv *a, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (a->n >= CL_MAX_ARGS - 1)
		abort();
	va_start(ap, fmt);
	n = vsnprintf(a->buf + a->used, sizeof(a->buf) - a->used, fmt, ap);
	va_end(ap);
	if (n < 0 || a->used + (size_t)n + 1 > sizeof(a->buf))
		abort();
	a->v[a->n++] = a->buf + a->used;
	a->v[a->n] = NULL;
	a->used += (size_t)n + 1;
}

/* "--set" and a formatted PATH=VALUE. */
static void av_set(struct cl_argv *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void av_set(struct cl_argv *a, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	av_add(a, "--set");
	av_add(a, "%s", buf);
}

static void pt_path(const struct cl_point *p, const char *ext, char *buf, size_t len)
{
	snprintf(buf, len, "%s/points/%s.%s", outdir, p->name, ext);
}

/* The command of point @p p, argv[0] = the subcommand's name. */
static void pt_argv(const struct cl_point *p, const struct cl_net *n, enum cl_scale scale,
		    struct cl_argv *a)
{
	char file[512], csv[512], sets[512], *save = NULL;

	memset(a, 0, sizeof(*a));
	repro_src_path(n->file, file, sizeof(file));
	pt_path(p, "csv", csv, sizeof(csv));
	av_add(a, "%s", p->transient ? "transient" : "sim");
	av_add(a, "%s", file);
	if (scale == CL_QUICK) {
		av_set(a, "topology.p=%u", n->p);
		av_set(a, "topology.a=%u", n->a);
		av_set(a, "topology.h=%u", n->h);
	}
	av_set(a, "routing.mechanism=%s", p->mech);
	if (p->transient) {
		av_add(a, "--from");
		av_add(a, "%s", p->from);
		av_add(a, "--to");
		av_add(a, "%s", p->to);
		av_add(a, "--load");
		av_add(a, "%g", p->load);
		av_add(a, "--post");
		av_add(a, "%u", p->post);
		av_set(a, "sim.warmup=%llu", (unsigned long long)n->t_warmup);
		av_add(a, "--seeds");
		av_add(a, "%u", pt_seeds(p, n));
	} else {
		av_set(a, "traffic.pattern=%s", p->pattern);
		av_add(a, "--loads");
		av_add(a, "%g", p->load);
		av_set(a, "sim.warmup=%llu", (unsigned long long)n->warmup);
		av_set(a, "sim.measure=%llu", (unsigned long long)n->measure);
		av_add(a, "--seeds");
		av_add(a, "%u", pt_seeds(p, n));
	}
	av_set(a, "sim.threads=%u", opt_threads);
	snprintf(sets, sizeof(sets), "%s", p->sets);
	for (char *s = strtok_r(sets, ";", &save); s; s = strtok_r(NULL, ";", &save)) {
		if (strcmp(s, "#may-fail") == 0 || strncmp(s, "#seeds=", 7) == 0)
			continue;
		if (strcmp(s, "#counters") == 0) {
			char ctr[512];

			pt_path(p, "counters", ctr, sizeof(ctr));
			av_add(a, "--counters");
			av_add(a, "%s", ctr);
			continue;
		}
		av_set(a, "%s", s);
	}
	av_add(a, "--csv");
	av_add(a, "%s", csv);
	av_add(a, "--quiet");
}

/* Split a CSV line in place. @return the number of fields. */
static int csv_split(char *line, char **f, int max)
{
	int n = 0;

	line[strcspn(line, "\r\n")] = '\0';
	for (char *s = line; n < max;) {
		f[n++] = s;
		s = strchr(s, ',');
		if (s == NULL)
			break;
		*s++ = '\0';
	}
	return n;
}

static int col_of(char **hdr, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(hdr[i], name) == 0)
			return i;
	return -1;
}

/* Read a sim CSV: the average of the runs (seeds). */
static int read_sim(const char *path, struct cl_sim *s)
{
	static const char *names[] = {"accepted", "lat_avg", "lat_p99", "misrouted_pct", "hops_avg",
				      "min_inj",  "max_min", "cov",     "generated",     "cycles"};
	double *dst[] = {&s->accepted, &s->lat_avg, &s->lat_p99, &s->misrouted, &s->hops,
			 &s->min_inj,  &s->max_min, &s->cov,     &s->generated, &s->cycles};
	enum { C_MIN_INJ = 5, C_MAX_MIN = 6 }; /* their places in names[] */
	char hline[1024], line[1024], *hdr[64], *f[64];
	int col[10], nh, inv, comp;
	FILE *fp = fopen(path, "r");

	memset(s, 0, sizeof(*s));
	if (fp == NULL || fgets(hline, sizeof(hline), fp) == NULL) {
		if (fp)
			fclose(fp);
		return -1;
	}
	nh = csv_split(hline, hdr, 64);
	inv = col_of(hdr, nh, "invariants");
	comp = col_of(hdr, nh, "completion"); /* a workload's (all-to-all) */
	for (unsigned i = 0; i < 10; i++)
		if ((col[i] = col_of(hdr, nh, names[i])) < 0) {
			fclose(fp);
			return -1;
		}
	while (fgets(line, sizeof(line), fp) != NULL) {
		if (csv_split(line, f, 64) != nh)
			continue;
		for (unsigned i = 0; i < 10; i++) {
			double v = strtod(f[col[i]], NULL);

			/* dfly sim writes max/min = 0 when a router injected nothing (min 0): the
			 * ratio is unbounded, the most unfair figure there is, not the least */
			if (i == C_MAX_MIN && strtod(f[col[C_MIN_INJ]], NULL) <= 0)
				v = INFINITY;
			*dst[i] += v;
		}
		if (inv >= 0 && strncmp(f[inv], "FAILED", 6) == 0)
			s->failed++;
		if (comp >= 0)
			s->completion += strtod(f[comp], NULL);
		s->runs++;
	}
	fclose(fp);
	if (s->runs == 0)
		return -1;
	for (unsigned i = 0; i < 10; i++)
		*dst[i] /= s->runs;
	s->completion /= s->runs;
	return 0;
}

/* S_out of ADVc (LIA Fig. 4b): a router with a global link to one of the h groups after its own. */
static bool cl_is_sout(const struct dfly_topo *t, uint32_t r)
{
	uint32_t G = dfly_topo_group_of(t, r);

	for (uint32_t q = 0; q < t->h; q++) {
		uint32_t D = dfly_topo_group_of(t, dfly_topo_global_peer(t, r, q).router);

		if ((D + t->g - G) % t->g >= 1 && (D + t->g - G) % t->g <= t->h)
			return true;
	}
	return false;
}

/* The topology of network @p letter at the current scale (its file's arrangement and sigma),
 * built once; NULL if it cannot be. */
static const struct dfly_topo *cl_topo_of(char letter)
{
	static struct dfly_topo *cache[5];
	static bool done[5];
	const char *letters = "TLIGF";
	unsigned k = (unsigned)(strchr(letters, letter) - letters);
	const struct cl_net *n = cl_net_of(letter);
	struct dfly_netcfg *cfg;
	char path[512], sp[32], sa[32], sh[32], err[256];
	const char *sets[] = {sp, sa, sh};

	if (done[k])
		return cache[k];
	done[k] = true;
	cfg = calloc(1, sizeof(*cfg));
	if (cfg == NULL)
		return NULL;
	repro_src_path(n->file, path, sizeof(path));
	snprintf(sp, sizeof(sp), "topology.p=%u", n->p);
	snprintf(sa, sizeof(sa), "topology.a=%u", n->a);
	snprintf(sh, sizeof(sh), "topology.h=%u", n->h);
	if (dfly_netcfg_load(cfg, path, sets, 3, err, sizeof(err)) == 0)
		cache[k] = dfly_topo_create(cfg->p, cfg->a, cfg->h, cfg->t, cfg->arr, cfg->sigma);
	free(cfg);
	return cache[k];
}

/*
 * From a --counters file: the control frames sent per local port per cycle, mean over the
 * routers ("rR.portK.ctrl_tx N" lines; local ports are p .. p+a-2), into @p ctrl (-1 if none);
 * max/min over the a switch positions of the packets injected in the measurement window
 * ("sim.inj_window"), each position summed over the groups and the dump's runs (LIA Fig. 15,
 * "the average accepted load grouped by switch"), into @p sw (infinite if a position injected
 * nothing, 0 if none did); and with @p topo, the % of the LG- and LGL paths (route.path_lg,
 * route.path_lgl) drawn at an ADVc S_out router, into @p l1 (-1 if none was drawn), and the
 * packets an ADVc S_out router (the thesis's R_out) injected in the window per packet of
 * another router, into @p rout (-1 if not known).
 * @return 0, -1 if the file is unreadable.
 */
static int read_dump(const char *path, const struct cl_net *n, const struct dfly_topo *topo,
		     double cycles, double *ctrl, double *sw, double *l1, double *rout)
{
	char line[256], name[128];
	double sum = 0;
	unsigned routers = 0, last = ~0u, r = ~0u;
	uint64_t pos[CL_MAX_A] = {0}, mx = 0, mn = UINT64_MAX, l1_all = 0, l1_out = 0;
	uint64_t inj_out = 0, inj_in = 0, n_out = 0, n_in = 0;
	FILE *f = fopen(path, "r");

	*ctrl = -1;
	*sw = 0;
	*l1 = -1;
	*rout = -1;
	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		unsigned port;
		unsigned long long v;

		if (sscanf(line, "router %u", &r) == 1) { /* "router R cycle C", then its lines */
			if (r != last)
				routers++;
			last = r;
			continue;
		}
		if (sscanf(line, " port%u.ctrl_tx %llu", &port, &v) == 2 && port >= n->p &&
		    port < n->p + n->a - 1)
			sum += (double)v;
		else if (sscanf(line, " sim.inj_window %llu", &v) == 1 && r != ~0u &&
			 n->a <= CL_MAX_A) {
			pos[r % n->a] += v;
			if (topo != NULL && r < topo->routers) {
				bool out = cl_is_sout(topo, r);

				*(out ? &inj_out : &inj_in) += v;
				*(out ? &n_out : &n_in) += 1;
			}
		} else if (topo != NULL && r < topo->routers &&
			   sscanf(line, " %127s %llu", name, &v) == 2 &&
			   (strcmp(name, "route.path_lg") == 0 ||
			    strcmp(name, "route.path_lgl") == 0)) {
			l1_all += v;
			if (cl_is_sout(topo, r))
				l1_out += v;
		}
	}
	fclose(f);
	if (l1_all)
		*l1 = 100.0 * (double)l1_out / (double)l1_all;
	if (n_out && n_in && inj_in)
		*rout = ((double)inj_out / (double)n_out) / ((double)inj_in / (double)n_in);
	if (routers && cycles > 0)
		*ctrl = sum / routers / (n->a - 1) / cycles;
	for (unsigned j = 0; j < n->a && j < CL_MAX_A; j++) {
		mx = pos[j] > mx ? pos[j] : mx;
		mn = pos[j] < mn ? pos[j] : mn;
	}
	if (mn > 0 && mn != UINT64_MAX)
		*sw = (double)mx / (double)mn;
	else if (mn == 0 && mx > 0)
		*sw = INFINITY; /* a position injected nothing */
	return 0;
}

static int read_tr(const char *csv, const char *txt, struct cl_tr *t)
{
	char hline[512], line[512], *hdr[16], *f[16];
	int nh, cc, cp, cl, cm, cn;
	unsigned cap = 0;
	FILE *fp = fopen(csv, "r");

	memset(t, 0, sizeof(*t));
	if (fp == NULL || fgets(hline, sizeof(hline), fp) == NULL) {
		if (fp)
			fclose(fp);
		return -1;
	}
	nh = csv_split(hline, hdr, 16);
	cc = col_of(hdr, nh, "cycle");
	cp = col_of(hdr, nh, "packets");
	cl = col_of(hdr, nh, "lat_avg");
	cm = col_of(hdr, nh, "misrouted_pct");
	cn = col_of(hdr, nh, "nonmin_pct");
	if (cc < 0 || cp < 0 || cl < 0 || cm < 0 || cn < 0) {
		fclose(fp);
		return -1;
	}
	while (fgets(line, sizeof(line), fp) != NULL) {
		if (csv_split(line, f, 16) != nh)
			continue;
		if (t->n == cap) {
			cap = cap ? cap * 2 : 1024;
			t->cycle = realloc(t->cycle, cap * sizeof(*t->cycle));
			t->lat = realloc(t->lat, cap * sizeof(double));
			t->misr = realloc(t->misr, cap * sizeof(double));
			t->nonmin = realloc(t->nonmin, cap * sizeof(double));
			t->packets = realloc(t->packets, cap * sizeof(double));
			if (!t->cycle || !t->lat || !t->misr || !t->nonmin || !t->packets)
				abort();
		}
		t->cycle[t->n] = strtoll(f[cc], NULL, 10);
		t->packets[t->n] = strtod(f[cp], NULL);
		t->lat[t->n] = strtod(f[cl], NULL);
		t->misr[t->n] = strtod(f[cm], NULL);
		t->nonmin[t->n] = strtod(f[cn], NULL);
		t->n++;
	}
	fclose(fp);
	t->reaction = -1;
	t->steady_misr = t->lat_before = t->lat_steady = NAN;
	fp = fopen(txt, "r");
	while (fp && fgets(line, sizeof(line), fp) != NULL) {
		long long r;
		double a, b;

		if (sscanf(line, "reaction time: %lld", &r) == 1)
			t->reaction = r;
		else if (sscanf(line, "misrouted %%: before %lf, steady %lf", &a, &b) == 2)
			t->steady_misr = b;
		else if (strncmp(line, "latency (cycles):", 17) == 0) {
			char *s = strstr(line, "steady ");

			if (sscanf(line + 17, " before %lf", &a) == 1)
				t->lat_before = a;
			if (s)
				t->lat_steady = strtod(s + 7, NULL);
		}
	}
	if (fp)
		fclose(fp);
	return t->n ? 0 : -1;
}

/*
 * The remote counters of a "sim.lia_remote=true" point: the line of dfly sim's report (the
 * point's .txt) "lia remote R_k, packets per HW-cycle window ...: R-6 x ... R+6 x", the mean
 * over the routers and the window, averaged over the seeds. @return 0, -1 if not found.
 */
static int read_lia_remote(const char *txt, struct cl_sim *s)
{
	char line[1024];
	int found = -1;
	FILE *f = fopen(txt, "r");

	while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
		char *c = strstr(line, "lia remote R_k");

		if (c == NULL || (c = strchr(c, ':')) == NULL)
			continue;
		for (c++; *c;) {
			int k, used = 0;
			double v;

			if (sscanf(c, " R%d %lf%n", &k, &v, &used) != 2 || used == 0)
				break;
			if (k >= -CL_MAX_H && k <= CL_MAX_H)
				s->lia_r[k + CL_MAX_H] = v;
			c += used;
			found = 0;
		}
	}
	if (f != NULL)
		fclose(f);
	return found;
}

/*
 * The figures of a "#counters" point (cl_sim.ctrl_local_rate and .sw_max_min): from NAME.ctrl,
 * or computed from the counter dump NAME.counters and kept in NAME.ctrl (a dump of CFG-T is
 * megabytes: the published results keep only the figures). @return 0, -1 if neither is
 * readable.
 */
static int pt_ctrl(struct cl_point *p)
{
	char path[512], dump[512];
	FILE *f;
	int n = 0;

	pt_path(p, "ctrl", path, sizeof(path));
	f = fopen(path, "r");
	if (f != NULL) {
		n = fscanf(f, "ctrl_local_rate %lf sw_max_min %lf l1_sout_pct %lf rout_ratio %lf",
			   &p->sim.ctrl_local_rate, &p->sim.sw_max_min, &p->sim.l1_sout_pct,
			   &p->sim.rout_ratio);
		fclose(f);
		if (n == 4)
			return 0;
	}
	pt_path(p, "counters", dump, sizeof(dump));
	if (n >= 1 && access(dump, R_OK) != 0) {
		/* kept before the later figures were: they stay 0, R_out's share unknown */
		p->sim.rout_ratio = -1;
		return 0;
	}
	if (read_dump(dump, cl_net_of(p->letter), cl_topo_of(p->letter), p->sim.cycles,
		      &p->sim.ctrl_local_rate, &p->sim.sw_max_min, &p->sim.l1_sout_pct,
		      &p->sim.rout_ratio) != 0 ||
	    p->sim.ctrl_local_rate < 0)
		return -1;
	f = fopen(path, "w");
	if (f != NULL) {
		fprintf(f,
			"ctrl_local_rate %.9g\nsw_max_min %.9g\nl1_sout_pct %.9g\nrout_ratio "
			"%.9g\n# control frames sent per local port per cycle, mean over the "
			"routers; max/min over the switch positions of the packets injected in the "
			"window, summed over the groups; %% of the LG- and LGL paths drawn at an "
			"ADVc S_out router (-1: none drawn); packets injected in the window by an "
			"ADVc S_out router (R_out) per packet of another router (-1: not known); "
			"from %s\n",
			p->sim.ctrl_local_rate, p->sim.sw_max_min, p->sim.l1_sout_pct,
			p->sim.rout_ratio, dump);
		fclose(f);
	}
	return 0;
}

static void pt_load(struct cl_point *p)
{
	char ok[512], csv[512], txt[512];

	pt_path(p, "ok", ok, sizeof(ok));
	pt_path(p, "csv", csv, sizeof(csv));
	pt_path(p, "txt", txt, sizeof(txt));
	{
		/* a point run with another version of its network file is stale: run it again */
		FILE *f = fopen(ok, "r");
		char line[256], *c;

		if (f != NULL) {
			if (fgets(line, sizeof(line), f) != NULL && (c = strstr(line, ", cfg ")) &&
			    strtoul(c + 6, NULL, 16) != cfg_hash(p->letter)) {
				fprintf(stderr, "claims: %s: its network file changed, run again\n",
					p->name);
				unlink(ok);
			}
			fclose(f);
		}
	}
	if (access(ok, R_OK) != 0) {
		char failed[512];

		pt_path(p, "failed", failed, sizeof(failed));
		p->state = access(failed, R_OK) == 0 ? PT_FAILED : PT_PENDING;
		return;
	}
	if ((p->transient ? read_tr(csv, txt, &p->tr) : read_sim(csv, &p->sim)) != 0 ||
	    (strstr(p->sets, "#counters") && pt_ctrl(p) != 0) ||
	    (strstr(p->sets, "sim.lia_remote=true") && read_lia_remote(txt, &p->sim) != 0)) {
		fprintf(stderr, "dfly repro claims: %s: unreadable, run again\n", csv);
		unlink(ok);
		p->state = PT_PENDING;
		return;
	}
	p->state = PT_DONE;
}

static int pt_start(struct cl_point *p, enum cl_scale scale, struct cl_ctx *x)
{
	struct cl_argv a;
	char txt[512];
	const struct dfly_cmd *cmd;
	pid_t pid;

	pt_argv(p, cl_net(x, p->letter), scale, &a);
	cmd = dfly_cmd_find(a.v[0]);
	if (cmd == NULL)
		abort();
	pt_path(p, "txt", txt, sizeof(txt));
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int fd = open(txt, O_WRONLY | O_CREAT | O_TRUNC, 0666);
		char err[512];
		int efd;

		pt_path(p, "err", err, sizeof(err));
		efd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0666);
		if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0 || efd < 0 ||
		    dup2(efd, STDERR_FILENO) < 0) {
			fprintf(stderr, "dfly repro claims: %s: %s\n", txt, strerror(errno));
			_exit(2);
		}
		close(fd); /* its messages go to NAME.err: the parent prints a line per run */
		close(efd);
		exit(cmd->fn(a.n, a.v));
	}
	p->pid = pid;
	p->start = now_s();
	return 0;
}

static void pt_cmdline(FILE *f, const struct cl_point *p, enum cl_scale scale, struct cl_ctx *x,
		       const char *self)
{
	struct cl_argv a;
	char txt[512];

	pt_argv(p, cl_net(x, p->letter), scale, &a);
	pt_path(p, "txt", txt, sizeof(txt));
	dfly_sh_word(f, self);
	for (int i = 0; i < a.n; i++) {
		fputc(' ', f);
		dfly_sh_word(f, a.v[i]);
	}
	fputs(" > ", f);
	dfly_sh_word(f, txt);
	fputc('\n', f);
}

static void fmt_dur(char *buf, size_t len, double s)
{
	if (s < 0 || isnan(s))
		snprintf(buf, len, "?");
	else if (s < 120)
		snprintf(buf, len, "%.0fs", s);
	else if (s < 7200)
		snprintf(buf, len, "%.0fm%02.0fs", floor(s / 60), fmod(s, 60));
	else
		snprintf(buf, len, "%.0fh%02.0fm", floor(s / 3600), fmod(s / 60, 60));
}

/*
 * A point's expected cost, for the time left: router-cycles times a factor for the work per cycle,
 * which grows with the load (packets to move); a transient counts its seeds and its window.
 */
/* The window of steady point @p p: a "sim.measure=N" of its own sets, else the network's. */
static uint64_t pt_measure(const struct cl_point *p, const struct cl_net *n)
{
	const char *m = strstr(p->sets, "sim.measure=");

	return m ? strtoull(m + strlen("sim.measure="), NULL, 10) : n->measure;
}

static double pt_cost(const struct cl_point *p)
{
	const struct cl_net *n = cl_net_of(p->letter);
	double routers = (double)n->a * (n->a * n->h + 1);
	double cycles =
	    (double)pt_seeds(p, n) *
	    (double)(p->transient ? n->t_warmup + p->post + 1200 : n->warmup + pt_measure(p, n));

	return routers * cycles * (0.1 + p->load) * (n->p / 4.0);
}

static int run_points(enum cl_scale scale, struct cl_ctx *x, unsigned *order, unsigned n)
{
	unsigned next = 0, running = 0, done = 0;
	double t0 = now_s(), busy = 0, cost_all = 0, cost_done = 0;
	int failed = 0;

	for (unsigned i = 0; i < n; i++)
		cost_all += pt_cost(&pts[order[i]]);

	while (done < n) {
		while (next < n && running < opt_jobs) {
			struct cl_point *p = &pts[order[next++]];

			if (pt_start(p, scale, x) != 0) {
				fprintf(stderr, "dfly repro claims: fork: %s\n", strerror(errno));
				return -1;
			}
			running++;
		}
		{
			int st;
			pid_t pid = waitpid(-1, &st, 0);
			struct cl_point *p = NULL;
			char path[512], el[32], left[32];
			int rc;
			FILE *f;

			if (pid < 0 && errno == EINTR)
				continue;
			if (pid < 0) {
				fprintf(stderr, "dfly repro claims: waitpid: %s\n",
					strerror(errno));
				return -1;
			}
			for (unsigned i = 0; i < npts; i++)
				if (pts[i].pid == pid)
					p = &pts[i];
			if (p == NULL)
				continue;
			p->pid = 0;
			p->wall = now_s() - p->start;
			busy += p->wall;
			rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
			if (rc == 1 && strstr(p->sets, "#may-fail") != NULL) {
				/* the claim expects runs that fail their invariants (a deadlock the
				 * watchdog reports): a CSV saying so is a result */
				struct cl_sim sim;
				char csv[512];

				pt_path(p, "csv", csv, sizeof(csv));
				if (read_sim(csv, &sim) == 0 && sim.failed > 0)
					rc = 0;
			}
			running--;
			done++;
			pt_path(p, rc == 0 ? "ok" : "failed", path, sizeof(path));
			f = fopen(path, "w");
			if (f) {
				fprintf(f, "exit %d after %.1f s, dfly %s, cfg %08x\n", rc, p->wall,
					dfly_cli_rev(), cfg_hash(p->letter));
				pt_cmdline(f, p, scale, x, "dfly");
				fclose(f);
			}
			if (rc != 0)
				failed++;
			pt_load(p);
			fmt_dur(el, sizeof(el), now_s() - t0);
			cost_done += pt_cost(p);
			fmt_dur(left, sizeof(left),
				busy / cost_done * (cost_all - cost_done) / opt_jobs);
			fprintf(stderr, "claims: [%u/%u] %s %s in %.0f s; %s elapsed, ~%s left\n",
				done, n, p->name, rc == 0 ? "ok" : "FAILED", p->wall, el, left);
		}
	}
	return failed;
}

/* ---- evaluation and reports ---- */

static void evaluate(struct cl_ctx *x, const struct claim *c, struct cl_result *r)
{
	unsigned ok = 0;

	memset(r, 0, sizeof(*r));
	x->c = c;
	x->nchecks = 0;
	x->missing_points = 0;
	x->part_missing[0] = '\0';
	x->proto_note[0] = '\0';
	x->npts = 0;
	x->nnear = 0;
	x->confirm = confirmed != NULL && confirmed[c - cl_claims];
	if (c->missing) {
		r->verdict = "not-implemented";
		snprintf(r->note, sizeof(r->note), "dfly lacks %s", c->missing);
		return;
	}
	if (x->scale == CL_QUICK && !c->quick) {
		r->verdict = "not-run";
		snprintf(r->note, sizeof(r->note), "not meaningful at h = 3: --scale paper");
		return;
	}
	x->planning = false;
	c->fn(x);
	for (unsigned i = 0; i < x->nchecks; i++)
		ok += x->checks[i].ok;
	if (x->confirm) {
		size_t k = strlen(x->proto_note);

		snprintf(x->proto_note + k, sizeof(x->proto_note) - k,
			 "%severy run on %u seeds: an ordering within %.0f %% on one seed",
			 k ? "; " : "", cl_net(x, c->nets[0])->confirm_seeds, CL_NOISE * 100);
	}
	if (x->missing_points) {
		r->verdict = "not-run";
		snprintf(r->note, sizeof(r->note), "%u of its runs have no result yet (or failed)",
			 x->missing_points);
	} else if (x->nchecks == 0) {
		r->verdict = "not-run";
		snprintf(r->note, sizeof(r->note), "no check computed");
	} else if (ok == x->nchecks && !x->part_missing[0]) {
		r->verdict = "holds";
	} else if (ok == 0) {
		r->verdict = "fails";
	} else {
		r->verdict = "partly";
	}
	if (x->part_missing[0])
		snprintf(r->note + strlen(r->note), sizeof(r->note) - strlen(r->note),
			 "%snot checked: %s", r->note[0] ? "; " : "", x->part_missing);
}

static void csv_field(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void protocol_of(const struct claim *c, enum cl_scale scale, struct cl_ctx *x, char *buf,
			size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	(void)scale;
	for (const char *l = c->nets; *l && n < len; l++) {
		const struct cl_net *nt = cl_net(x, *l);

		n += (size_t)snprintf(
		    buf + n, len - n, "%s%s: %llu+%llu cycles x %u seed(s), transients %u seeds",
		    n ? "; " : "", nt->name, (unsigned long long)nt->warmup,
		    (unsigned long long)nt->measure, opt_seeds ? opt_seeds : nt->seeds,
		    opt_seeds ? opt_seeds : nt->t_seeds);
	}
}

static void join_checks(const struct cl_ctx *x, char *buf, size_t len, int which)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < x->nchecks && n < len; i++) {
		const struct cl_checkrec *r = &x->checks[i];
		const char *s = which == 0 ? r->text : which == 1 ? r->expected : r->tol;

		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? "; " : "", s);
	}
}

/*
 * The builds the finished points were run with (their .ok files' "dfly REV"), comma-separated,
 * each once: the report names them, so that a result is tied to the commit that produced it.
 */
static void point_revs(char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < npts; i++) {
		char path[512], line[256], rev[80], *s;
		FILE *f;

		if (pts[i].state != PT_DONE)
			continue;
		pt_path(&pts[i], "ok", path, sizeof(path));
		f = fopen(path, "r");
		if (f == NULL)
			continue;
		rev[0] = '\0';
		if (fgets(line, sizeof(line), f) != NULL && (s = strstr(line, ", dfly ")) != NULL)
			snprintf(rev, sizeof(rev), "%s", s + 7);
		fclose(f);
		rev[strcspn(rev, "\n")] = '\0';
		if ((s = strstr(rev, ", cfg ")) != NULL)
			*s = '\0';
		if (rev[0] == '\0')
			snprintf(rev, sizeof(rev), "unrecorded");
		if (strstr(buf, rev) == NULL && n + strlen(rev) + 3 < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", rev);
	}
}

/* Draw claim @p c's figure from its points: DIR/fig/ID.png. @return 0 if drawn. */
static int draw_figure(const struct cl_ctx *x, const struct claim *c)
{
	char csv[512], png[512], hdr[1024] = "", line[1024], title[200];
	const struct dfly_cmd *plot = dfly_cmd_find("plot");
	struct cl_argv a = {0};
	unsigned nsim = 0, ntr = 0;
	FILE *out;
	pid_t pid;
	int st;

	for (unsigned i = 0; i < x->npts; i++) {
		const struct cl_point *p = &pts[x->pts[i]];

		if (p->state != PT_DONE)
			return -1;
		if (p->transient)
			ntr++;
		else
			nsim++;
	}
	if (nsim + ntr == 0 || plot == NULL)
		return -1;
	snprintf(png, sizeof(png), "%s/fig/%s.png", outdir, c->id);
	snprintf(title, sizeof(title), "%s (%s)", c->id, c->source);
	av_add(&a, "plot");
	av_add(&a, "%s", ntr ? "transient" : "load");
	if (ntr == 0) {
		snprintf(csv, sizeof(csv), "%s/fig/%s.csv", outdir, c->id);
		out = fopen(csv, "w");
		if (out == NULL)
			return -1;
		for (unsigned i = 0; i < x->npts; i++) {
			char path[512];
			FILE *in;

			pt_path(&pts[x->pts[i]], "csv", path, sizeof(path));
			in = fopen(path, "r");
			if (in == NULL)
				continue;
			if (fgets(line, sizeof(line), in) != NULL && hdr[0] == '\0') {
				snprintf(hdr, sizeof(hdr), "%s", line);
				fputs(hdr, out);
			}
			while (fgets(line, sizeof(line), in) != NULL)
				fputs(line, out);
			fclose(in);
		}
		fclose(out);
		av_add(&a, "%s", csv);
	} else {
		for (unsigned i = 0; i < x->npts && a.n < CL_MAX_ARGS - 8; i++) {
			const struct cl_point *p = &pts[x->pts[i]];
			char path[512];

			if (!p->transient)
				continue;
			pt_path(p, "csv", path, sizeof(path));
			av_add(&a, "%s", path);
		}
	}
	av_add(&a, "--out");
	av_add(&a, "%s", png);
	av_add(&a, "--title");
	av_add(&a, "%s", title);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int nul = open("/dev/null", O_WRONLY);

		if (nul >= 0) {
			dup2(nul, STDOUT_FILENO);
			close(nul);
		}
		exit(plot->fn(a.n, a.v));
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

static void md_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", f);
		else if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else
			fputc(*s, f);
	}
}

struct cl_report {
	FILE *csv, *md;
	const char *figrel; /* figure folder as the markdown file sees it */
	const char *scale_name;
	char rev[64];
	char revs[512];
	unsigned counts[5];
};

static const char *verdicts[5] = {"holds", "partly", "fails", "not-run", "not-implemented"};

/*
 * Does the heading "## ..." @p line name claim @p id before its first ':'? "## H13 and H16",
 * "## H24, H26 and H27: CRT" and "## H41: FlexVC ..." name theirs; "H1" is not "H13".
 */
static bool notes_head_names(const char *line, const char *id)
{
	const char *end = strchr(line, ':');
	size_t n = strlen(id);

	if (end == NULL)
		end = line + strlen(line);
	for (const char *p = line + 3; p + n <= end; p++)
		if ((p == line + 3 || !isalnum((unsigned char)p[-1])) && strncmp(p, id, n) == 0 &&
		    !isdigit((unsigned char)p[n]))
			return true;
	return false;
}

/*
 * The sections of docs/claims-notes.md whose heading names @p id, if any: the disagreements
 * traced to their cause (hand-written explanations with their evidence; never a verdict, which
 * only the checks give). A section may name several claims; each of them prints it.
 */
static void report_notes(FILE *md, const char *id)
{
	char path[512], line[1024];
	bool in = false, any = false;
	FILE *f;

	repro_src_path("docs/claims-notes.md", path, sizeof(path));
	f = fopen(path, "r");
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, "## ", 3) == 0) {
			in = notes_head_names(line, id);
			if (in && !any) {
				fprintf(md, "\n**Traced** (docs/claims-notes.md):\n");
				any = true;
			}
			continue;
		}
		if (in)
			fputs(line, md);
	}
	fclose(f);
}

static void report_claim(struct cl_report *rp, struct cl_ctx *x, const struct claim *c,
			 const struct cl_result *r, bool fig)
{
	char proto[400], meas[2048], exp[1024], tol[400], nets[64] = "";
	size_t n = 0;

	for (unsigned i = 0; i < 5; i++)
		if (strcmp(r->verdict, verdicts[i]) == 0)
			rp->counts[i]++;
	for (const char *l = c->nets; *l; l++)
		n += (size_t)snprintf(nets + n, sizeof(nets) - n, "%s%s", n ? "+" : "",
				      cl_net(x, *l)->name);
	protocol_of(c, x->scale, x, proto, sizeof(proto));
	if (x->proto_note[0]) {
		size_t k = strlen(proto);

		snprintf(proto + k, sizeof(proto) - k, "; %s", x->proto_note);
	}
	join_checks(x, meas, sizeof(meas), 0);
	join_checks(x, exp, sizeof(exp), 1);
	join_checks(x, tol, sizeof(tol), 2);
	if (rp->csv != NULL) { /* once per claim: the second report (--docs) has none */
		fprintf(rp->csv, "%s,", c->id);
		csv_field(rp->csv, nets);
		fprintf(rp->csv, ",%s,", rp->scale_name);
		csv_field(rp->csv, c->missing ? "" : proto);
		fputc(',', rp->csv);
		csv_field(rp->csv, meas);
		fputc(',', rp->csv);
		csv_field(rp->csv, exp);
		fputc(',', rp->csv);
		csv_field(rp->csv, tol);
		fprintf(rp->csv, ",%s,", r->verdict);
		csv_field(rp->csv, r->note);
		fputc('\n', rp->csv);
	}

	fprintf(rp->md, "<a id=\"h%s\"></a>\n\n### %s — %s\n\n", c->id + 1, c->id, r->verdict);
	fprintf(rp->md, "> ");
	md_escape(rp->md, c->statement);
	fprintf(rp->md, " (%s)\n\n", c->source);
	fprintf(rp->md, "- network: %s\n", nets);
	if (!c->missing)
		fprintf(rp->md, "- protocol: %s\n", proto);
	if (r->note[0]) {
		fprintf(rp->md, "- note: ");
		md_escape(rp->md, r->note);
		fputc('\n', rp->md);
	}
	if (x->nchecks) {
		fprintf(rp->md,
			"\n| check | measured | expected | tolerance |\n|---|---|---|---|\n");
		for (unsigned i = 0; i < x->nchecks; i++) {
			const struct cl_checkrec *k = &x->checks[i];

			fprintf(rp->md, "| %s | ", k->ok ? "ok" : "**no**");
			md_escape(rp->md, k->text);
			fputs(" | ", rp->md);
			md_escape(rp->md, k->expected);
			fprintf(rp->md, " | %s |\n", k->tol);
		}
	}
	if (fig)
		fprintf(rp->md, "\n![%s](%s/%s.png)\n", c->id, rp->figrel, c->id);
	report_notes(rp->md, c->id);
	fputc('\n', rp->md);
}

/* The figure folder DIR/fig as seen from the folder of the --docs file @p docs. */
static const char *docs_figrel(const char *docs, const char *dir)
{
	static char buf[600];
	const char *slash = strrchr(docs, '/');
	size_t n = slash ? (size_t)(slash - docs) : 0;

	if (n && strncmp(dir, docs, n) == 0 && dir[n] == '/')
		snprintf(buf, sizeof(buf), "%s/fig", dir + n + 1);
	else if (n == 0 && dir[0] != '/')
		snprintf(buf, sizeof(buf), "%s/fig", dir);
	else
		snprintf(buf, sizeof(buf), "%s/fig", dir); /* not below: as given */
	return buf;
}

static void usage_claims(FILE *f)
{
	fprintf(
	    f,
	    "usage: dfly repro claims [--scale quick|paper] [--only H1,H10,...] [--seeds N]\n"
	    "                         [--threads N] [--jobs J] [--out DIR] [--resume]\n"
	    "                         [--report-only] [--dry-run] [--list] [--no-plots]\n"
	    "                         [--docs FILE] [--expect-holds H1,H3,...]\n"
	    "\n"
	    "Check the papers' results of spec §9 (H1-H44) and compute every verdict against\n"
	    "the spec's tolerances (top of §9: +-10 %% for bounds and quoted figures, ordering\n"
	    "for comparisons, a factor 1.5 for reaction times). Each claim is a program\n"
	    "(tools/dfly/claims_def.c) that asks for runs of `dfly sim` or `dfly transient`\n"
	    "and computes checks from their CSVs; its verdict: holds (every check), partly\n"
	    "(some), fails (none), not-run (a run is missing or failed, or the claim is not\n"
	    "meaningful at this scale), not-implemented (dfly lacks a mechanism or workload\n"
	    "it needs). No verdict is written by hand.\n"
	    "\n"
	    "At --scale paper a claim with an ordering whose two figures lie within 2 %% of\n"
	    "each other is run again in full on 5 seeds and judged on those runs, holding or\n"
	    "not (its protocol line says so); --seeds N turns this off (every run on N).\n"
	    "\n"
	    "options:\n"
	    "  --scale quick|paper  quick (default): the papers' configurations shrunk to h = 3\n"
	    "                    (114 routers), claims meaningful there, minutes; paper: each\n"
	    "                    claim on the configuration it names (configs/cfg-t.cfg,\n"
	    "                    cfg-l.cfg, cfg-i.cfg), hours on 2 cores\n"
	    "  --only LIST       only these claims, e.g. H1,H10\n"
	    "  --seeds N         runs per point (default: per network, see the report)\n"
	    "  --threads N       sim.threads of every run (default 1)\n"
	    "  --jobs J          runs in parallel (default 1)\n"
	    "  --out DIR         results (default out/claims-SCALE): points/ (one CSV, summary\n"
	    "                    and .ok per run), claims.csv, claims.md, fig/, commands.sh\n"
	    "  --resume          keep the runs already in DIR/points and run the rest (without\n"
	    "                    it, a DIR that holds runs is refused)\n"
	    "  --report-only     run nothing: verdicts from the runs on disk\n"
	    "  --dry-run         print the commands of the missing runs and stop\n"
	    "  --list            print the claims and what each needs, and stop\n"
	    "  --no-plots        no figures (gnuplot)\n"
	    "  --docs FILE       also write the report to FILE (figures linked as fig/ beside\n"
	    "                    DIR, relative to FILE's folder: see docs/claims.md)\n"
	    "  --expect-holds L  exit 1 unless every claim of L holds (CI)\n"
	    "  --help            this text\n"
	    "\n"
	    "A progress line per finished run on stderr: runs done, elapsed, time left.\n"
	    "Exit status: 0; 1 if a run failed or an --expect-holds claim does not hold;\n"
	    "2 on a usage error.\n");
}

static bool in_list(const char *list, const char *id)
{
	size_t n = strlen(id);

	for (const char *s = list; s && *s;) {
		const char *e = strchr(s, ',');
		size_t len = e ? (size_t)(e - s) : strlen(s);

		if (len == n && strncasecmp(s, id, n) == 0)
			return true;
		s = e ? e + 1 : NULL;
	}
	return false;
}

static int check_list(const char *list, const char *opt)
{
	for (const char *s = list; s && *s;) {
		const char *e = strchr(s, ',');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		bool found = false;

		for (unsigned i = 0; i < cl_nclaims; i++)
			found |= strlen(cl_claims[i].id) == len &&
				 strncasecmp(cl_claims[i].id, s, len) == 0;
		if (!found) {
			fprintf(stderr, "dfly repro claims: %s: unknown claim '%.*s' (H1..H44)\n",
				opt, (int)len, s);
			return -1;
		}
		s = e ? e + 1 : NULL;
	}
	return 0;
}

static struct cl_result *res;
static unsigned *order;

static int claims_main(int argc, char **argv)
{
	static const struct option lo[] = {{"scale", required_argument, NULL, 's'},
					   {"only", required_argument, NULL, 'o'},
					   {"seeds", required_argument, NULL, 'S'},
					   {"threads", required_argument, NULL, 't'},
					   {"jobs", required_argument, NULL, 'j'},
					   {"out", required_argument, NULL, 'O'},
					   {"resume", no_argument, NULL, 'r'},
					   {"report-only", no_argument, NULL, 'R'},
					   {"dry-run", no_argument, NULL, 'd'},
					   {"list", no_argument, NULL, 'l'},
					   {"no-plots", no_argument, NULL, 'P'},
					   {"docs", required_argument, NULL, 'D'},
					   {"expect-holds", required_argument, NULL, 'e'},
					   {"help", no_argument, NULL, 'h'},
					   {NULL, 0, NULL, 0}};
	struct cl_ctx x = {0};
	const char *only = NULL, *docs = NULL, *expect = NULL;
	bool resume = false, report_only = false, dry = false, list = false, plots = true;
	unsigned norder = 0, ndone = 0;
	char path[600], self[512];
	int c, failed = 0, rc = 0;

	x.scale = CL_QUICK;
	outdir[0] = '\0';
	opt_threads = opt_jobs = 1;
	opt_seeds = 0;
	npts = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", lo, NULL)) != -1) {
		switch (c) {
		case 's':
			if (strcmp(optarg, "quick") == 0)
				x.scale = CL_QUICK;
			else if (strcmp(optarg, "paper") == 0)
				x.scale = CL_PAPER;
			else {
				fprintf(stderr, "dfly repro claims: --scale %s: quick or paper\n",
					optarg);
				return 2;
			}
			break;
		case 'o':
			only = optarg;
			break;
		case 'S':
		case 't':
		case 'j': {
			uint64_t v;

			if (dfly_cli_parse_u64("dfly repro claims",
					       c == 'S'   ? "--seeds"
					       : c == 't' ? "--threads"
							  : "--jobs",
					       optarg, 1, 64,
					       c == 'S'   ? "seeds"
					       : c == 't' ? "threads"
							  : "jobs",
					       &v) != 0)
				return DFLY_CLI_USAGE;
			*(c == 'S'   ? &opt_seeds
			  : c == 't' ? &opt_threads
				     : &opt_jobs) = (unsigned)v;
			break;
		}
		case 'O':
			snprintf(outdir, sizeof(outdir), "%s", optarg);
			break;
		case 'r':
			resume = true;
			break;
		case 'R':
			report_only = true;
			break;
		case 'd':
			dry = true;
			break;
		case 'l':
			list = true;
			break;
		case 'P':
			plots = false;
			break;
		case 'D':
			docs = optarg;
			break;
		case 'e':
			expect = optarg;
			break;
		case 'h':
			usage_claims(stdout);
			return 0;
		default:
			return dfly_cli_opt_error("dfly repro claims", lo, c, argv);
		}
	}
	if (optind < argc)
		return dfly_cli_usage_error("dfly repro claims", "unexpected argument '%s'",
					    argv[optind]);
	if ((only && check_list(only, "--only")) ||
	    (expect && check_list(expect, "--expect-holds")))
		return 2;
	cur_scale = x.scale;
	if (outdir[0] == '\0')
		snprintf(outdir, sizeof(outdir), "out/claims-%s",
			 x.scale == CL_PAPER ? "paper" : "quick");
	pts = calloc(CL_MAX_POINTS, sizeof(*pts));
	res = calloc(cl_nclaims, sizeof(*res));
	confirmed = calloc(cl_nclaims, sizeof(*confirmed));
	order = calloc(CL_MAX_POINTS, sizeof(*order));
	if (pts == NULL || res == NULL || order == NULL || confirmed == NULL)
		return 1;

	/* plan */
	x.planning = true;
	for (unsigned i = 0; i < cl_nclaims; i++) {
		const struct claim *cl = &cl_claims[i];

		if ((only && !in_list(only, cl->id)) || cl->missing ||
		    (x.scale == CL_QUICK && !cl->quick))
			continue;
		x.c = cl;
		x.npts = 0;
		cl->fn(&x);
		if (list)
			printf("%-4s %-3s %2u runs  %s\n", cl->id, cl->nets, x.npts, cl->statement);
	}
	if (list) {
		for (unsigned i = 0; i < cl_nclaims; i++)
			if (cl_claims[i].missing)
				printf("%-4s not implemented: dfly lacks %s\n", cl_claims[i].id,
				       cl_claims[i].missing);
		printf("%u runs at --scale %s\n", npts, x.scale == CL_PAPER ? "paper" : "quick");
		return 0;
	}
	snprintf(path, sizeof(path), "%s/points", outdir);
	if (!dry && repro_mkdirs(path) != 0) {
		fprintf(stderr, "dfly repro claims: %s: %s\n", path, strerror(errno));
		return 1;
	}
	for (unsigned i = 0; i < npts; i++) {
		pt_load(&pts[i]);
		if (pts[i].state == PT_PENDING || (pts[i].state == PT_FAILED && !report_only))
			order[norder++] = i;
		else
			ndone++;
	}
	if (ndone && !resume && !report_only && !dry) {
		fprintf(stderr,
			"dfly repro claims: %s already holds %u finished run(s) of this plan: "
			"--resume to keep them and run the rest, --report-only to evaluate them, "
			"or another --out\n",
			outdir, ndone);
		return 2;
	}
	/* the networks in order of cost: I, L, then T (CFG-T is the slowest by far) */
	{
		static const char cost[] = "ILT";
		unsigned k = 0, *tmp = calloc(norder ? norder : 1, sizeof(*tmp));

		for (const char *l = cost; *l && tmp; l++)
			for (unsigned i = 0; i < norder; i++)
				if (pts[order[i]].letter == *l)
					tmp[k++] = order[i];
		if (tmp && k == norder)
			memcpy(order, tmp, norder * sizeof(*order));
		free(tmp);
	}
	repro_self(self, sizeof(self));
	if (!report_only) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/commands.sh", outdir);
		f = dry ? stdout : fopen(path, "w");
		if (f) {
			fprintf(f,
				"#!/bin/sh\n# dfly repro claims --scale %s: the %u missing runs\n"
				"set -e\n",
				x.scale == CL_PAPER ? "paper" : "quick", norder);
			for (unsigned i = 0; i < norder; i++)
				pt_cmdline(f, &pts[order[i]], x.scale, &x, self);
			if (!dry) {
				fclose(f);
				chmod(path, 0755);
			}
		}
		if (dry)
			return 0;
		fprintf(stderr, "claims: %u runs planned, %u on disk, %u to run (--jobs %u)\n",
			npts, ndone, norder, opt_jobs);
		if (norder)
			failed = run_points(x.scale, &x, order, norder);
		if (failed < 0)
			return 1;
	}

	/*
	 * Confirm: a claim with an ordering within CL_NOISE on its runs is run again in full on
	 * its networks' confirm_seeds and judged on those runs, holding or not (not under --seeds,
	 * which already sets every point's runs; not at the quick scale, whose confirm_seeds is 0).
	 */
	if (!opt_seeds) {
		unsigned nconf = 0, first = npts, nrun = 0;

		for (unsigned i = 0; i < cl_nclaims; i++) {
			const struct claim *cl = &cl_claims[i];

			if ((only && !in_list(only, cl->id)) ||
			    cl_net(&x, cl->nets[0])->confirm_seeds == 0)
				continue;
			evaluate(&x, cl, &res[i]);
			if (x.nnear && strncmp(res[i].verdict, "not-", 4) != 0) {
				confirmed[i] = true;
				nconf++;
			}
		}
		x.planning = true;
		for (unsigned i = 0; i < cl_nclaims; i++)
			if (confirmed[i]) {
				x.c = &cl_claims[i];
				x.npts = 0;
				x.confirm = true;
				cl_claims[i].fn(&x);
			}
		x.planning = false;
		x.confirm = false;
		for (unsigned i = first; i < npts; i++) {
			pt_load(&pts[i]);
			if (pts[i].state == PT_PENDING ||
			    (pts[i].state == PT_FAILED && !report_only))
				order[nrun++] = i;
		}
		if (nconf)
			fprintf(
			    stderr,
			    "claims: %u claim(s) with an ordering within %.0f %%: %u runs on more "
			    "seeds, %u to run\n",
			    nconf, CL_NOISE * 100, npts - first, nrun);
		if (nrun && !report_only) {
			int f2 = run_points(x.scale, &x, order, nrun);

			if (f2 < 0)
				return 1;
			failed += f2;
		}
	}

	/* evaluate and report */
	{
		struct cl_report rp = {0};
		FILE *mds[2] = {NULL, NULL};
		char figdir[600];

		rp.scale_name = x.scale == CL_PAPER ? "paper" : "quick";
		snprintf(rp.rev, sizeof(rp.rev), "%s", dfly_cli_rev());
		point_revs(rp.revs, sizeof(rp.revs));
		snprintf(path, sizeof(path), "%s/claims.csv", outdir);
		rp.csv = fopen(path, "w");
		snprintf(path, sizeof(path), "%s/claims.md", outdir);
		mds[0] = fopen(path, "w");
		if (docs)
			mds[1] = fopen(docs, "w");
		if (rp.csv == NULL || mds[0] == NULL || (docs && mds[1] == NULL)) {
			fprintf(stderr, "dfly repro claims: cannot write the report in %s\n",
				outdir);
			return 1;
		}
		snprintf(figdir, sizeof(figdir), "%s/fig", outdir);
		if (plots)
			repro_mkdirs(figdir);
		fprintf(rp.csv,
			"id,config,scale,protocol,measured,expected,tolerance,verdict,note\n");
		for (unsigned i = 0; i < cl_nclaims; i++) {
			if (only && !in_list(only, cl_claims[i].id))
				continue;
			evaluate(&x, &cl_claims[i], &res[i]);
		}
		for (int m = 0; m < 2; m++) {
			FILE *md = mds[m];
			unsigned cnt[5] = {0};

			if (md == NULL)
				continue;
			for (unsigned i = 0; i < cl_nclaims; i++)
				for (unsigned v = 0; res[i].verdict && v < 5; v++)
					cnt[v] += strcmp(res[i].verdict, verdicts[v]) == 0;
			fprintf(
			    md,
			    "# The papers' claims, checked (`dfly repro claims --scale %s`)\n\n"
			    "Generated by `dfly repro claims` (dfly %s; the runs by dfly %s): do "
			    "not edit; every verdict below is computed from the runs in "
			    "`%s/points/` against "
			    "the tolerances of spec §9 (±10 %% for bounds and quoted figures, "
			    "ordering for comparisons, a factor 1.5 for reaction times). "
			    "Verdicts: holds (every check), partly (some), fails (none), not-run, "
			    "not-implemented.\n\n",
			    rp.scale_name, rp.rev, rp.revs[0] ? rp.revs : "-", outdir);
			fprintf(md,
				"| holds | partly | fails | not-run | not-implemented |\n"
				"|---|---|---|---|---|\n| %u | %u | %u | %u | %u |\n\n",
				cnt[0], cnt[1], cnt[2], cnt[3], cnt[4]);
			fprintf(md, "| claim | network | verdict | checks held | note |\n"
				    "|---|---|---|---|---|\n");
			for (unsigned i = 0; i < cl_nclaims; i++) {
				unsigned ok = 0;

				if (res[i].verdict == NULL)
					continue;
				evaluate(&x, &cl_claims[i], &res[i]);
				for (unsigned k = 0; k < x.nchecks; k++)
					ok += x.checks[k].ok;
				if (strncmp(res[i].verdict, "not-", 4) ==
				    0) /* no verdict from checks */
					fprintf(md, "| [%s](#h%s) | %s | %s | – | ",
						cl_claims[i].id, cl_claims[i].id + 1,
						cl_claims[i].nets, res[i].verdict);
				else
					fprintf(md, "| [%s](#h%s) | %s | %s | %u/%u | ",
						cl_claims[i].id, cl_claims[i].id + 1,
						cl_claims[i].nets, res[i].verdict, ok, x.nchecks);
				md_escape(md, res[i].note);
				fputs(" |\n", md);
			}
			fputs("\n", md);
		}
		for (unsigned i = 0; i < cl_nclaims; i++) {
			bool fig = false;

			if (res[i].verdict == NULL)
				continue;
			evaluate(&x, &cl_claims[i], &res[i]);
			if (plots && x.npts)
				fig = draw_figure(&x, &cl_claims[i]) == 0;
			rp.md = mds[0];
			rp.figrel = "fig";
			report_claim(&rp, &x, &cl_claims[i], &res[i], fig);
			if (mds[1]) {
				unsigned c5[5];

				FILE *csv = rp.csv;

				memcpy(c5, rp.counts, sizeof(c5));
				rp.md = mds[1];
				rp.csv = NULL;
				rp.figrel = docs_figrel(docs, outdir);
				report_claim(&rp, &x, &cl_claims[i], &res[i], fig);
				memcpy(rp.counts, c5, sizeof(c5));
				rp.csv = csv;
			}
			printf("%-4s %-15s %s%s%s\n", cl_claims[i].id, res[i].verdict,
			       res[i].note[0] ? "(" : "", res[i].note, res[i].note[0] ? ")" : "");
		}
		fclose(rp.csv);
		for (int m = 0; m < 2; m++)
			if (mds[m])
				fclose(mds[m]);
		printf("%u holds, %u partly, %u fails, %u not-run, %u not-implemented "
		       "(%s/claims.csv)\n",
		       rp.counts[0], rp.counts[1], rp.counts[2], rp.counts[3], rp.counts[4],
		       outdir);
	}
	if (expect) {
		for (unsigned i = 0; i < cl_nclaims; i++)
			if (in_list(expect, cl_claims[i].id) &&
			    (res[i].verdict == NULL || strcmp(res[i].verdict, "holds") != 0)) {
				fprintf(stderr, "dfly repro claims: %s was expected to hold: %s\n",
					cl_claims[i].id,
					res[i].verdict ? res[i].verdict : "not evaluated");
				rc = 1;
			}
	}
	return failed > 0 ? 1 : rc;
}

/* `dfly repro claims`: claims_main(), then everything it allocated is freed (the points'
 * transient series too), whichever way it returned. */
int repro_claims(int argc, char **argv)
{
	int rc = claims_main(argc, argv);

	for (unsigned i = 0; pts != NULL && i < npts; i++) {
		struct cl_tr *t = &pts[i].tr;

		free(t->cycle);
		free(t->lat);
		free(t->misr);
		free(t->nonmin);
		free(t->packets);
	}
	free(pts);
	free(res);
	free(confirmed);
	free(order);
	pts = NULL;
	res = NULL;
	confirmed = NULL;
	order = NULL;
	npts = 0;
	return rc;
}
