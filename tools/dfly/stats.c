/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `dfly stats`: the routers' register files (include/dfly/regs.h) read live from POSIX shared
 * memory (control/regs_shm.h), the "readable live" of DESIGN.md §7. The writers are the ASICs of
 * `dfly sim --firmware-instance NAME` today and of dfly-switch later; each router's file is the
 * object /dfly.NAME.r<router> (/dev/shm/dfly.NAME.r<router> on Linux). Four modes: one snapshot,
 * a live view of what changed (--watch), a CSV time series (--csv) and the list of the instances
 * found in /dev/shm (--list). The counter names are those of `dfly sim --counters`
 * (dfly_regs_dump), built from the X-macro lists of regs.h, so a counter added there appears here.
 *
 * Reading while the ASIC writes. Counters and gauges have one writer (the ASIC) and no lock.
 * Every value is read once with a plain aligned 64-bit load, which is single-copy atomic on
 * x86-64 and arm64: no value is ever torn. A sample is not atomic across counters, though: the
 * ASIC keeps stepping while the values are copied, so two counters of one sample (or two
 * routers) may be some cycles apart, and the partitions that hold at the end of a run (per-VC
 * sums = per-port totals, grants in = grants out) need not add up exactly in a live sample. The
 * cycle given with a sample is read before its values. The mappings are only ever read.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cmds.h"
#include "regs_shm.h"
#include "stats.h"

#define SHM_DIR    "/dev/shm"
#define HINT       "is dfly-switch or dfly sim --firmware-instance running?"
#define NAME_LEN   64
#define SEC_MIN    0.001
#define SEC_MAX    86400.0
#define OPEN_TRIES 100 /* x 10 ms: how long a file that is being initialised is waited for */

/* ---------------------------------------------------------------------------------------------
 * Columns: every counter and gauge of a register file, in the order of dfly_regs_dump()
 */

/** Counter families, in the order of dfly_regs_dump(). */
enum col_fam {
	FAM_PORT,  /**< port_ctr[port][idx] */
	FAM_VC,    /**< vc_ctr[port][vc][idx] */
	FAM_GAUGE, /**< vc_gauge[port][vc][idx]: current values, signed */
	FAM_DROP,  /**< drop[idx] */
	FAM_ROUTE, /**< route[idx] */
	FAM_MECH,  /**< mech arrays (enum col_mech): current values, gauges */
};

/** The mechanism arrays of struct dfly_regs_mech_ctrs a FAM_MECH column reads (regs.h). */
#define MECH__ENUM(E, sc, n, fld, per, d) MECH_##E,
enum col_mech { DFLY_FOREACH_MECH_ARRAY(MECH__ENUM) MECH_COUNT };
#undef MECH__ENUM

/** Each array's scope, name, place in struct dfly_regs_mech_ctrs, element size, and index. */
static const struct {
	const char *scope, *name;
	size_t off, size;
	bool per_port;
} mech_arr[MECH_COUNT] = {
#define MECH__INFO(E, sc, n, fld, per, d)                                                          \
	{sc, #n, offsetof(struct dfly_regs_mech_ctrs, fld),                                        \
	 sizeof(((struct dfly_regs_mech_ctrs *)0)->fld[0]), MECH__PER_##per},
#define MECH__PER_PORT  true
#define MECH__PER_GROUP false
    DFLY_FOREACH_MECH_ARRAY(MECH__INFO)
#undef MECH__INFO
#undef MECH__PER_PORT
#undef MECH__PER_GROUP
};

/** One counter or gauge: a line of a snapshot, a column of the CSV. */
struct col {
	uint8_t fam;  /**< enum col_fam */
	uint8_t port; /**< FAM_PORT, FAM_VC, FAM_GAUGE; per-port FAM_MECH arrays */
	uint8_t vc;   /**< FAM_VC, FAM_GAUGE */
	uint8_t idx;  /**< index in the family's X-macro list; FAM_MECH: enum col_mech */
	uint16_t grp; /**< per-group FAM_MECH arrays: the remote group */
};

/** Columns at most: every port and VC of the largest register file. */
#define COL_MAX                                                                                    \
	(DFLY_MAX_PORTS *                                                                          \
	     (DFLY_PORT_CTR_COUNT + DFLY_MAX_VCS * (DFLY_VC_CTR_COUNT + DFLY_VC_GAUGE_COUNT)) +    \
	 DFLY_DROP_COUNT + DFLY_ROUTE_CTR_COUNT + 2 * DFLY_MAX_PORTS + 2 * DFLY_MAX_GROUPS)

/** One attached router. */
struct rtr {
	uint32_t id;              /**< router id */
	struct dfly_regs_shm shm; /**< the mapping; never written */
	dev_t dev;                /**< the object at attach time, to see it removed or replaced */
	ino_t ino;                /**< (with dev) */
	uint64_t *prev;           /**< --watch: the previous sample, one value per column */
	uint64_t prev_cycle;      /**< --watch: cycle of the previous sample */
	uint8_t prev_link[DFLY_MAX_PORTS]; /**< --watch: link states of the previous sample */
};

/** A `dfly stats` run. */
struct ctx {
	const char *instance; /**< the testbed instance, --instance */
	const char *filter;   /**< only names containing it (NULL: all) */
	bool all;             /**< also zero values (snapshot), unchanged values (--watch) */
	bool csv;             /**< names as CSV columns: p<port>. instead of port<port>. */
	struct rtr *rt;       /**< the routers, in increasing id order */
	uint32_t nrt;         /**< attached routers */
	struct col *cols;     /**< the columns that pass the filter */
	size_t ncols;         /**< entries of cols */
	uint32_t nports;      /**< ports of the largest attached file */
	uint32_t nvcs[DFLY_MAX_PORTS]; /**< VCs per port, the largest over the attached files */
	uint32_t ngroups;              /**< groups, the largest over the attached files */
};

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

/* One whole 64-bit value written by another process; volatile: read now, exactly once. */
static uint64_t load_u64(const void *p)
{
	return *(const volatile uint64_t *)p;
}

static bool col_is_gauge(const struct col *c)
{
	return c->fam == FAM_GAUGE || c->fam == FAM_MECH;
}

static void col_name(const struct col *c, bool csv, char *buf, size_t len)
{
	const char *pp = csv ? "p" : "port";

	switch (c->fam) {
	case FAM_PORT:
		snprintf(buf, len, "%s%u.%s", pp, c->port, dfly_port_ctr_names[c->idx]);
		break;
	case FAM_VC:
		snprintf(buf, len, "%s%u.vc%u.%s", pp, c->port, c->vc, dfly_vc_ctr_names[c->idx]);
		break;
	case FAM_GAUGE:
		snprintf(buf, len, "%s%u.vc%u.%s", pp, c->port, c->vc, dfly_vc_gauge_names[c->idx]);
		break;
	case FAM_DROP:
		snprintf(buf, len, "drop.%s", dfly_drop_names[c->idx]);
		break;
	case FAM_ROUTE:
		snprintf(buf, len, "route.%s", dfly_route_ctr_names[c->idx]);
		break;
	default:
		if (mech_arr[c->idx].per_port)
			snprintf(buf, len, "%s%u.%s", pp, c->port, mech_arr[c->idx].name);
		else
			snprintf(buf, len, "%s.%s.g%u", mech_arr[c->idx].scope,
				 mech_arr[c->idx].name, c->grp);
		break;
	}
}

/* The value of @p c in @p r; false if that file has no such port or VC. */
static bool col_read(const struct dfly_regs *r, const struct col *c, uint64_t *v)
{
	uint32_t nports = r->nports < DFLY_MAX_PORTS ? r->nports : DFLY_MAX_PORTS;

	switch (c->fam) {
	case FAM_PORT:
		if (c->port >= nports)
			return false;
		*v = load_u64(&r->port_ctr[c->port][c->idx]);
		return true;
	case FAM_VC:
	case FAM_GAUGE:
		if (c->port >= nports || c->vc >= r->nvcs[c->port])
			return false;
		*v = c->fam == FAM_VC ? load_u64(&r->vc_ctr[c->port][c->vc][c->idx])
				      : load_u64(&r->vc_gauge[c->port][c->vc][c->idx]);
		return true;
	case FAM_DROP:
		*v = load_u64(&r->drop[c->idx]);
		return true;
	case FAM_ROUTE:
		*v = load_u64(&r->route[c->idx]);
		return true;
	default:
		break;
	}
	{
		const char *base = (const char *)&r->mech + mech_arr[c->idx].off;
		size_t sz = mech_arr[c->idx].size;
		uint32_t i;

		if (mech_arr[c->idx].per_port) {
			if (c->port >= nports)
				return false;
			i = c->port;
		} else {
			if (c->grp >= r->ngroups || c->grp >= DFLY_MAX_GROUPS)
				return false;
			i = c->grp;
		}
		*v = sz == 2 ? *(const volatile uint16_t *)(base + i * sz)
			     : *(const volatile uint32_t *)(base + i * sz);
		return true;
	}
}

static bool name_passes(const struct ctx *x, const char *name)
{
	return x->filter == NULL || strstr(name, x->filter) != NULL;
}

static void col_add(struct ctx *x, enum col_fam fam, uint32_t port, uint32_t vc, int idx)
{
	struct col c = {.fam = (uint8_t)fam,
			.port = (uint8_t)port,
			.vc = (uint8_t)vc,
			.idx = (uint8_t)idx,
			.grp = (uint16_t)(fam == FAM_MECH ? port : 0)};
	char name[NAME_LEN];

	col_name(&c, x->csv, name, sizeof(name));
	if (name_passes(x, name))
		x->cols[x->ncols++] = c;
}

/*
 * The columns of the attached routers: every port and VC any of them has (ports and VCs depend
 * only on the network, so every router of one network gives the same list), minus the filter.
 */
static int cols_build(struct ctx *x)
{
	x->cols = calloc(COL_MAX, sizeof(*x->cols));
	if (x->cols == NULL)
		return -ENOMEM;
	for (uint32_t i = 0; i < x->nrt; i++) {
		const struct dfly_regs *r = x->rt[i].shm.regs;
		uint32_t np = r->nports < DFLY_MAX_PORTS ? r->nports : DFLY_MAX_PORTS;

		if (np > x->nports)
			x->nports = np;
		if (r->ngroups > x->ngroups)
			x->ngroups = r->ngroups < DFLY_MAX_GROUPS ? r->ngroups : DFLY_MAX_GROUPS;
		for (uint32_t p = 0; p < np; p++)
			if (r->nvcs[p] > x->nvcs[p])
				x->nvcs[p] = r->nvcs[p] < DFLY_MAX_VCS ? r->nvcs[p] : DFLY_MAX_VCS;
	}
	for (uint32_t p = 0; p < x->nports; p++) {
		for (int c = 0; c < DFLY_PORT_CTR_COUNT; c++)
			col_add(x, FAM_PORT, p, 0, c);
		for (uint32_t v = 0; v < x->nvcs[p]; v++) {
			for (int c = 0; c < DFLY_VC_CTR_COUNT; c++)
				col_add(x, FAM_VC, p, v, c);
			for (int c = 0; c < DFLY_VC_GAUGE_COUNT; c++)
				col_add(x, FAM_GAUGE, p, v, c);
		}
	}
	for (int c = 0; c < DFLY_DROP_COUNT; c++)
		col_add(x, FAM_DROP, 0, 0, c);
	for (int c = 0; c < DFLY_ROUTE_CTR_COUNT; c++)
		col_add(x, FAM_ROUTE, 0, 0, c);
	for (uint32_t p = 0; p < x->nports; p++)
		for (int m = 0; m < MECH_COUNT; m++)
			if (mech_arr[m].per_port)
				col_add(x, FAM_MECH, p, 0, m);
	for (int m = 0; m < MECH_COUNT; m++)
		if (!mech_arr[m].per_port)
			for (uint32_t g = 0; g < x->ngroups; g++)
				col_add(x, FAM_MECH, g, 0, m);
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Finding and attaching register files
 */

/** A register file found in /dev/shm. */
struct found {
	char instance[33];
	uint32_t router;
};

static int found_cmp(const void *a, const void *b)
{
	const struct found *fa = a, *fb = b;
	int c = strcmp(fa->instance, fb->instance);

	if (c != 0)
		return c;
	return fa->router < fb->router ? -1 : fa->router > fb->router;
}

/* "dfly.<instance>.r<router>" → 0, or -EINVAL for any other name. */
static int parse_obj_name(const char *d_name, struct found *f)
{
	const char *dot, *p;
	char buf[DFLY_SHM_NAME_MAX];
	size_t n;

	if (strncmp(d_name, "dfly.", 5) != 0)
		return -EINVAL;
	dot = strrchr(d_name, '.');
	if (dot == NULL || dot < d_name + 6 || dot[1] != 'r')
		return -EINVAL;
	n = (size_t)(dot - (d_name + 5));
	if (n >= sizeof(f->instance))
		return -EINVAL;
	memcpy(f->instance, d_name + 5, n);
	f->instance[n] = '\0';
	p = dot + 2;
	if (dfly_stats_parse_id(&p, &f->router) < 0 || *p != '\0')
		return -EINVAL;
	/* the instance must be one regs_shm.h accepts (this also refuses dots in it) */
	return dfly_regs_shm_name(buf, sizeof(buf), f->instance, f->router);
}

/*
 * The register files in /dev/shm, of @p instance (NULL: of every instance), sorted by instance
 * and router. @return how many (*out to free), or -errno.
 */
static int scan_shm(const char *instance, struct found **out)
{
	struct found *v = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *d = opendir(SHM_DIR);

	*out = NULL;
	if (d == NULL)
		return -errno;
	while ((de = readdir(d)) != NULL) {
		struct found f;

		if (parse_obj_name(de->d_name, &f) < 0)
			continue;
		if (instance != NULL && strcmp(f.instance, instance) != 0)
			continue;
		if (n == cap) {
			size_t ncap = cap ? 2 * cap : 64;
			struct found *nv = realloc(v, ncap * sizeof(*v));

			if (nv == NULL) {
				free(v);
				closedir(d);
				return -ENOMEM;
			}
			v = nv;
			cap = ncap;
		}
		v[n++] = f;
	}
	closedir(d);
	if (n > 0)
		qsort(v, n, sizeof(*v), found_cmp);
	*out = v;
	return (int)n;
}

/* Identity (device, inode) of the object @p name: 0 or -errno (-ENOENT once it is removed). */
static int obj_identity(const char *name, dev_t *dev, ino_t *ino)
{
	struct stat st;
	int fd = shm_open(name, O_RDONLY, 0);
	int rc = 0;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		rc = -errno;
	close(fd);
	if (rc == 0) {
		*dev = st.st_dev;
		*ino = st.st_ino;
	}
	return rc;
}

/* Map router @p router's file, waiting a little for one that is being initialised. */
static int rtr_open(struct dfly_regs_shm *shm, const char *instance, uint32_t router)
{
	int rc;

	for (int k = 0;; k++) {
		rc = dfly_regs_shm_open(shm, instance, router);
		if (rc != -EAGAIN || k + 1 >= OPEN_TRIES)
			return rc;
		nanosleep(&(struct timespec){.tv_nsec = 10000000}, NULL);
	}
}

static void print_open_error(const char *instance, uint32_t router, int rc)
{
	char name[DFLY_SHM_NAME_MAX];

	dfly_regs_shm_name(name, sizeof(name), instance, router);
	switch (rc) {
	case -ENOENT:
		fprintf(stderr, "dfly stats: %s: %s (" HINT ")\n", name, strerror(-rc));
		break;
	case -EAGAIN:
		fprintf(stderr, "dfly stats: %s: created but not initialised after %d ms\n", name,
			OPEN_TRIES * 10);
		break;
	case -EPROTO:
		fprintf(stderr,
			"dfly stats: %s: not a register file of layout v%u for router %u (written "
			"by another dfly build?)\n",
			name, DFLY_REGS_VERSION, router);
		break;
	case -EACCES:
		fprintf(stderr, "dfly stats: %s: %s (mode 0600: run as the user of its writer)\n",
			name, strerror(-rc));
		break;
	default:
		fprintf(stderr, "dfly stats: %s: %s\n", name, strerror(-rc));
		break;
	}
}

/* Attach routers @p ids of x->instance. @return 0, or -1 after printing why. */
static int attach(struct ctx *x, const uint32_t *ids, uint32_t n)
{
	x->rt = calloc(n, sizeof(*x->rt));
	if (x->rt == NULL) {
		fprintf(stderr, "dfly stats: %s\n", strerror(ENOMEM));
		return -1;
	}
	for (uint32_t i = 0; i < n; i++) {
		struct rtr *r = &x->rt[i];
		int rc = rtr_open(&r->shm, x->instance, ids[i]);

		if (rc == 0)
			rc = obj_identity(r->shm.name, &r->dev, &r->ino);
		if (rc < 0) {
			print_open_error(x->instance, ids[i], rc);
			return -1;
		}
		r->id = ids[i];
		x->nrt = i + 1;
	}
	return 0;
}

static void detach(struct ctx *x)
{
	for (uint32_t i = 0; i < x->nrt; i++) {
		dfly_regs_shm_close(&x->rt[i].shm);
		free(x->rt[i].prev);
	}
	free(x->rt);
	free(x->cols);
}

/* The writer removed (or replaced) router @p r's object: its run ended. */
static bool rtr_gone(const struct rtr *r)
{
	dev_t dev;
	ino_t ino;

	if (obj_identity(r->shm.name, &dev, &ino) < 0)
		return true;
	return dev != r->dev || ino != r->ino;
}

/* The first router whose object is gone, or NULL. */
static const struct rtr *any_gone(const struct ctx *x)
{
	for (uint32_t i = 0; i < x->nrt; i++)
		if (rtr_gone(&x->rt[i]))
			return &x->rt[i];
	return NULL;
}

/* ---------------------------------------------------------------------------------------------
 * Time
 */

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Sleep until CLOCK_MONOTONIC reads @p t seconds. @return 0, or -EINTR once asked to stop. */
static int sleep_until(double t)
{
	struct timespec ts;
	long ns;

	ts.tv_sec = (time_t)t;
	ns = (long)((t - (double)ts.tv_sec) * 1e9);
	ts.tv_nsec = ns < 0 ? 0 : ns > 999999999 ? 999999999 : ns;
	while (!stop_flag) {
		int rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);

		if (rc == 0)
			return 0;
		if (rc != EINTR)
			return -rc;
	}
	return -EINTR;
}

/* The deadline after @p next: one period later, or one period from now if it is behind. */
static double next_deadline(double next, double period)
{
	double now = clock_s(CLOCK_MONOTONIC);

	next += period;
	return next < now ? now + period : next;
}

static void catch_signals(void)
{
	struct sigaction sa = {.sa_handler = on_signal};

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* ---------------------------------------------------------------------------------------------
 * The modes
 */

static int snapshot(struct ctx *x)
{
	char name[NAME_LEN];

	for (uint32_t i = 0; i < x->nrt; i++) {
		const struct rtr *rt = &x->rt[i];
		const struct dfly_regs *r = rt->shm.regs;
		uint32_t np = r->nports < DFLY_MAX_PORTS ? r->nports : DFLY_MAX_PORTS;

		if (name_passes(x, "cycle"))
			printf("r%u.cycle %llu\n", rt->id, (unsigned long long)load_u64(&r->cycle));
		for (uint32_t p = 0; p < np; p++) {
			uint8_t st = *(const volatile uint8_t *)&r->link_state[p];

			snprintf(name, sizeof(name), "port%u.link_state", p);
			if ((st != DFLY_LINK_UNUSED || x->all) && name_passes(x, name))
				printf("r%u.%s %s\n", rt->id, name, dfly_link_state_name(st));
		}
		for (size_t c = 0; c < x->ncols; c++) {
			uint64_t v;

			if (!col_read(r, &x->cols[c], &v) || (v == 0 && !x->all))
				continue;
			col_name(&x->cols[c], false, name, sizeof(name));
			if (col_is_gauge(&x->cols[c]))
				printf("r%u.%s %lld\n", rt->id, name, (long long)v);
			else
				printf("r%u.%s %llu\n", rt->id, name, (unsigned long long)v);
		}
	}
	if (fflush(stdout) != 0) {
		fprintf(stderr, "dfly stats: stdout: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}

/* --watch: the previous sample of every router. */
static int watch_base(struct ctx *x)
{
	for (uint32_t i = 0; i < x->nrt; i++) {
		struct rtr *rt = &x->rt[i];
		const struct dfly_regs *r = rt->shm.regs;

		rt->prev = calloc(x->ncols ? x->ncols : 1, sizeof(*rt->prev));
		if (rt->prev == NULL)
			return -ENOMEM;
		rt->prev_cycle = load_u64(&r->cycle);
		for (uint32_t p = 0; p < DFLY_MAX_PORTS; p++)
			rt->prev_link[p] = *(const volatile uint8_t *)&r->link_state[p];
		for (size_t c = 0; c < x->ncols; c++)
			col_read(r, &x->cols[c], &rt->prev[c]);
	}
	return 0;
}

/* --watch: one report: the header line, then what changed since the previous sample. */
static void watch_report(struct ctx *x, double t, double dt)
{
	uint64_t cyc_now = UINT64_MAX, cyc_prev = UINT64_MAX;
	char name[NAME_LEN];

	/* the header gives the slowest router (in dfly sim they all step together) */
	for (uint32_t i = 0; i < x->nrt; i++) {
		uint64_t c = load_u64(&x->rt[i].shm.regs->cycle);

		if (x->rt[i].prev_cycle < cyc_prev)
			cyc_prev = x->rt[i].prev_cycle;
		if (c < cyc_now)
			cyc_now = c;
		x->rt[i].prev_cycle = c;
	}
	printf("t=%.3f cycle=%llu (%+lld cycles, %.0f cycles/s)\n", t, (unsigned long long)cyc_now,
	       (long long)(cyc_now - cyc_prev), (double)(int64_t)(cyc_now - cyc_prev) / dt);
	for (uint32_t i = 0; i < x->nrt; i++) {
		struct rtr *rt = &x->rt[i];
		const struct dfly_regs *r = rt->shm.regs;
		uint32_t np = r->nports < DFLY_MAX_PORTS ? r->nports : DFLY_MAX_PORTS;

		for (uint32_t p = 0; p < np; p++) {
			uint8_t st = *(const volatile uint8_t *)&r->link_state[p];
			bool changed = st != rt->prev_link[p];

			snprintf(name, sizeof(name), "port%u.link_state", p);
			if ((changed || x->all) && name_passes(x, name)) {
				if (changed)
					printf("r%u.%s %s -> %s\n", rt->id, name,
					       dfly_link_state_name(rt->prev_link[p]),
					       dfly_link_state_name(st));
				else
					printf("r%u.%s %s\n", rt->id, name,
					       dfly_link_state_name(st));
			}
			rt->prev_link[p] = st;
		}
		for (size_t c = 0; c < x->ncols; c++) {
			uint64_t v;
			int64_t d;

			if (!col_read(r, &x->cols[c], &v))
				continue;
			d = (int64_t)(v - rt->prev[c]);
			rt->prev[c] = v;
			if (d == 0 && !x->all)
				continue;
			col_name(&x->cols[c], false, name, sizeof(name));
			if (col_is_gauge(&x->cols[c]))
				printf("r%u.%s %lld (%+lld)\n", rt->id, name, (long long)v,
				       (long long)d);
			else
				printf("r%u.%s %+lld %.1f/s\n", rt->id, name, (long long)d,
				       (double)d / dt);
		}
	}
	fflush(stdout);
}

static int watch(struct ctx *x, double period, uint64_t count)
{
	double t0, tprev, next;

	if (watch_base(x) < 0) {
		fprintf(stderr, "dfly stats: %s\n", strerror(ENOMEM));
		return 1;
	}
	catch_signals();
	t0 = tprev = next = clock_s(CLOCK_MONOTONIC);
	for (uint64_t k = 0; count == 0 || k < count; k++) {
		const struct rtr *gone;
		double now;

		next = next_deadline(next, period);
		if (sleep_until(next) < 0)
			break;
		gone = any_gone(x); /* checked first: the last sample then has the final values */
		now = clock_s(CLOCK_MONOTONIC);
		watch_report(x, now - t0, now - tprev);
		tprev = now;
		if (ferror(stdout)) {
			fprintf(stderr, "dfly stats: stdout: write error\n");
			return 1;
		}
		if (gone != NULL) {
			fprintf(stderr, "dfly stats: %s was removed: the run ended\n",
				gone->shm.name);
			break;
		}
	}
	return 0;
}

/* --csv: one row per router of one sample. */
static void csv_rows(const struct ctx *x, FILE *f, double t)
{
	for (uint32_t i = 0; i < x->nrt; i++) {
		const struct dfly_regs *r = x->rt[i].shm.regs;

		fprintf(f, "%.3f,%u,%llu", t, x->rt[i].id, (unsigned long long)load_u64(&r->cycle));
		for (size_t c = 0; c < x->ncols; c++) {
			uint64_t v;

			if (!col_read(r, &x->cols[c], &v))
				fputs(",", f); /* a port or VC this router lacks: empty */
			else if (col_is_gauge(&x->cols[c]))
				fprintf(f, ",%lld", (long long)v);
			else
				fprintf(f, ",%llu", (unsigned long long)v);
		}
		fputc('\n', f);
	}
}

static int csv(struct ctx *x, const char *path, double period, uint64_t count)
{
	bool to_stdout = strcmp(path, "-") == 0;
	FILE *f = to_stdout ? stdout : fopen(path, "w");
	char name[NAME_LEN];
	uint64_t samples = 0;
	double next;
	int status = 0;

	if (f == NULL) {
		fprintf(stderr, "dfly stats: %s: %s\n", path, strerror(errno));
		return 1;
	}
	catch_signals();
	fputs("time_s,router,cycle", f);
	for (size_t c = 0; c < x->ncols; c++) {
		col_name(&x->cols[c], true, name, sizeof(name));
		fprintf(f, ",%s", name);
	}
	fputc('\n', f);
	next = clock_s(CLOCK_MONOTONIC);
	while (!stop_flag && (count == 0 || samples < count)) {
		const struct rtr *gone;

		if (samples > 0) {
			next = next_deadline(next, period);
			if (sleep_until(next) < 0)
				break;
		}
		gone = any_gone(x);
		csv_rows(x, f, clock_s(CLOCK_REALTIME));
		samples++;
		/* a whole sample at a time, so a reader (or a SIGKILL) sees complete rows */
		if (fflush(f) != 0 || ferror(f)) {
			fprintf(stderr, "dfly stats: %s: %s\n", path, strerror(errno));
			status = 1;
			break;
		}
		if (gone != NULL) {
			fprintf(stderr, "dfly stats: %s was removed: the run ended\n",
				gone->shm.name);
			break;
		}
	}
	if (!to_stdout && fclose(f) != 0 && status == 0) {
		fprintf(stderr, "dfly stats: %s: %s\n", path, strerror(errno));
		status = 1;
	}
	if (status == 0 && !to_stdout)
		printf("# %llu sample(s) of %u router(s) written to %s\n",
		       (unsigned long long)samples, x->nrt, path);
	return status;
}

static int list(const char *instance)
{
	struct found *v;
	int n = scan_shm(instance, &v);

	if (n < 0) {
		fprintf(stderr, "dfly stats: " SHM_DIR ": %s\n", strerror(-n));
		return 1;
	}
	if (n == 0) {
		if (instance)
			fprintf(stderr,
				"dfly stats: no register files of instance '%s' in " SHM_DIR "\n",
				instance);
		else
			fprintf(stderr,
				"dfly stats: no register files (dfly.*.r*) in " SHM_DIR "\n");
		free(v);
		return 0;
	}
	printf("%-32s %7s %14s  %s\n", "instance", "routers", "cycle", "ids");
	for (int i = 0; i < n;) {
		struct dfly_regs_shm shm;
		uint32_t *ids;
		char cyc[24] = "-", *buf;
		int j = i, len;

		while (j < n && strcmp(v[j].instance, v[i].instance) == 0)
			j++;
		ids = calloc((size_t)(j - i), sizeof(*ids));
		if (ids == NULL) {
			free(v);
			fprintf(stderr, "dfly stats: %s\n", strerror(ENOMEM));
			return 1;
		}
		for (int k = i; k < j; k++)
			ids[k - i] = v[k].router;
		/* the cycle of the lowest router: is the instance alive? ("-": unreadable) */
		if (dfly_regs_shm_open(&shm, v[i].instance, ids[0]) == 0) {
			snprintf(cyc, sizeof(cyc), "%llu",
				 (unsigned long long)load_u64(&shm.regs->cycle));
			dfly_regs_shm_close(&shm);
		}
		len = dfly_stats_format_routers(ids, (size_t)(j - i), NULL, 0);
		buf = len >= 0 ? malloc((size_t)len + 1) : NULL;
		if (buf != NULL)
			dfly_stats_format_routers(ids, (size_t)(j - i), buf, (size_t)len + 1);
		printf("%-32s %7d %14s  %s\n", v[i].instance, j - i, cyc, buf ? buf : "?");
		free(buf);
		free(ids);
		i = j;
	}
	free(v);
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * The command
 */

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "usage: dfly stats --instance NAME [--router LIST] [--filter SUBSTR] [--all]\n"
	    "       dfly stats --instance NAME --watch SEC [--count N] [--router LIST]\n"
	    "                  [--filter SUBSTR] [--all]\n"
	    "       dfly stats --instance NAME --csv FILE --interval SEC [--count N]\n"
	    "                  [--router LIST] [--filter SUBSTR]\n"
	    "       dfly stats --list [--instance NAME]\n"
	    "\n"
	    "Read the routers' register files live from POSIX shared memory\n"
	    "(" SHM_DIR "/dfly.NAME.r<router>), written by dfly-switch or by\n"
	    "`dfly sim --firmware-instance NAME`: counters per port and per VC, the VC gauges,\n"
	    "drops by reason, routing decisions and link states, named as by\n"
	    "`dfly sim --counters`: port<P>.<name>, port<P>.vc<V>.<name>, drop.<name>,\n"
	    "route.<name>; and the mechanism state, as gauges: the contention counter\n"
	    "port<P>.cc and Filtered estimate port<P>.cc_est_q8 (1/256) per output, the ECtN\n"
	    "partial and combined arrays ectn.partial.g<D> and ectn.combined.g<D> per group,\n"
	    "LIA's injection counters lia.injected.g<D> (running total) and lia.stored.g<D>.\n"
	    "\n"
	    "modes:\n"
	    "  (default)          one snapshot: \"r<router>.<name> value\" lines of the non-zero\n"
	    "                     values, each router's r<router>.cycle first\n"
	    "  --watch SEC        every SEC seconds a line \"t=T cycle=C (+D cycles, R "
	    "cycles/s)\"\n"
	    "                     (T from the start, C the slowest router's cycle), then what\n"
	    "                     changed: counters as \"r<router>.<name> +delta rate/s\", gauges\n"
	    "                     (occ, occ_hwm, credits, down_occ) as \"r<router>.<name> value\n"
	    "                     (+delta)\", link states as \"old -> new\"\n"
	    "  --csv FILE         a time series (FILE - is stdout), sampled every --interval SEC\n"
	    "                     (the first sample at once): one row per (sample, router),\n"
	    "                     columns time_s (Unix time), router, cycle, then every counter\n"
	    "                     and gauge: p<P>.<name>, p<P>.vc<V>.<name>, drop.<name>,\n"
	    "                     route.<name>. The columns depend only on the routers' ports and\n"
	    "                     VCs and on --filter, so files of one network concatenate; a\n"
	    "                     port or VC a router lacks is an empty cell\n"
	    "  --list             the instances and routers found in " SHM_DIR ", with the cycle\n"
	    "                     of each instance's lowest router\n"
	    "\n"
	    "options:\n"
	    "  --instance NAME    the testbed instance (1..32 characters of A-Z a-z 0-9 _ -)\n"
	    "  --router LIST      routers, e.g. 0-5,8 (default: every router of NAME in " SHM_DIR
	    ")\n"
	    "  --filter SUBSTR    only the names (without r<router>.) that contain SUBSTR,\n"
	    "                     e.g. drop. or route. or port3.vc0. (p3.vc0. with --csv)\n"
	    "  --all              also zero values (snapshot), unchanged values (--watch)\n"
	    "  --count N          stop after N reports (--watch) or N samples (--csv);\n"
	    "                     default: until SIGINT\n"
	    "  -h, --help         this text\n"
	    "\n"
	    "Values are read while the ASIC runs, without a lock: each value is read whole, but\n"
	    "a sample is not atomic across counters (two values may be a few cycles apart, and\n"
	    "partitions need not add up exactly until the run ends). --watch and --csv stop\n"
	    "cleanly on SIGINT or SIGTERM (the CSV is flushed after every sample), and after a\n"
	    "last sample when the writer removes a router's file (its run ended).\n"
	    "\n"
	    "Exit status: 0; 1 on a runtime error (e.g. no such register file); 2 on a usage\n"
	    "error.\n");
}

static int usage_error(const char *what)
{
	fprintf(stderr, "dfly stats: %s\n", what);
	return 2;
}

/* Seconds, SEC_MIN..SEC_MAX. */
static int parse_sec(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end != '\0' || errno != 0 || !(v >= SEC_MIN && v <= SEC_MAX))
		return -EINVAL;
	*out = v;
	return 0;
}

/* N ≥ 1, digits only. */
static int parse_count(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end != '\0' || errno != 0 || v == 0)
		return -EINVAL;
	*out = v;
	return 0;
}

int cmd_stats(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"instance", required_argument, NULL, 'i'},
	    {"router", required_argument, NULL, 'r'},
	    {"filter", required_argument, NULL, 'f'},
	    {"all", no_argument, NULL, 'a'},
	    {"watch", required_argument, NULL, 'w'},
	    {"count", required_argument, NULL, 'n'},
	    {"csv", required_argument, NULL, 'c'},
	    {"interval", required_argument, NULL, 'I'},
	    {"list", no_argument, NULL, 'l'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	const char *routers = NULL, *csv_path = NULL;
	double watch_s = 0, interval_s = 0;
	uint64_t count = 0;
	bool do_list = false;
	struct ctx x = {0};
	uint32_t *ids = NULL;
	char what[160];
	int n, opt, status;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (opt) {
		case 'i':
			x.instance = optarg;
			break;
		case 'r':
			routers = optarg;
			break;
		case 'f':
			x.filter = optarg;
			break;
		case 'a':
			x.all = true;
			break;
		case 'w':
		case 'I':
			if (parse_sec(optarg, opt == 'w' ? &watch_s : &interval_s) < 0) {
				snprintf(what, sizeof(what), "%s %s: expected seconds, %g..%g",
					 opt == 'w' ? "--watch" : "--interval", optarg, SEC_MIN,
					 SEC_MAX);
				return usage_error(what);
			}
			break;
		case 'n':
			if (parse_count(optarg, &count) < 0) {
				snprintf(what, sizeof(what), "--count %s: expected a number >= 1",
					 optarg);
				return usage_error(what);
			}
			break;
		case 'c':
			csv_path = optarg;
			break;
		case 'l':
			do_list = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			return dfly_cli_opt_error("dfly stats", opts, opt, argv);
		}
	}
	if (optind < argc) {
		snprintf(what, sizeof(what), "unexpected argument '%s'", argv[optind]);
		return usage_error(what);
	}
	if (x.instance != NULL) {
		char name[DFLY_SHM_NAME_MAX];

		if (dfly_regs_shm_name(name, sizeof(name), x.instance, 0) < 0) {
			snprintf(what, sizeof(what),
				 "--instance %.40s: expected 1..32 characters of A-Z a-z 0-9 _ -",
				 x.instance);
			return usage_error(what);
		}
	}
	if (do_list) {
		if (routers || x.filter || x.all || watch_s > 0 || csv_path || interval_s > 0 ||
		    count)
			return usage_error("--list takes no option but --instance");
		return list(x.instance);
	}
	if (x.instance == NULL)
		return usage_error(
		    "--instance NAME is needed (dfly stats --list shows the instances)");
	if (watch_s > 0 && csv_path != NULL)
		return usage_error("--watch and --csv exclude each other");
	if (csv_path != NULL && interval_s == 0)
		return usage_error("--csv needs --interval SEC");
	if (interval_s > 0 && csv_path == NULL)
		return usage_error("--interval goes with --csv (--watch takes its own period)");
	if (count && watch_s == 0 && csv_path == NULL)
		return usage_error("--count goes with --watch or --csv");

	ids = calloc(DFLY_STATS_MAX_ROUTERS, sizeof(*ids));
	if (ids == NULL) {
		fprintf(stderr, "dfly stats: %s\n", strerror(ENOMEM));
		return 1;
	}
	if (routers != NULL) {
		n = dfly_stats_parse_routers(routers, ids, DFLY_STATS_MAX_ROUTERS);
		if (n < 0) {
			free(ids);
			snprintf(what, sizeof(what),
				 "--router %.40s: expected a LIST of ids below %u such as 0-5,8",
				 routers, (unsigned)DFLY_STATS_MAX_ROUTERS);
			return usage_error(what);
		}
	} else {
		struct found *v;

		n = scan_shm(x.instance, &v);
		if (n < 0) {
			fprintf(stderr, "dfly stats: " SHM_DIR ": %s\n", strerror(-n));
			free(ids);
			return 1;
		}
		if (n == 0) {
			fprintf(stderr,
				"dfly stats: no register files of instance '%s' in " SHM_DIR
				" (" HINT ")\n",
				x.instance);
			free(ids);
			return 1;
		}
		for (int i = 0; i < n; i++)
			ids[i] = v[i].router;
		free(v);
	}

	x.csv = csv_path != NULL;
	status = 1;
	if (attach(&x, ids, (uint32_t)n) < 0)
		goto out;
	if (cols_build(&x) < 0) {
		fprintf(stderr, "dfly stats: %s\n", strerror(ENOMEM));
		goto out;
	}
	if (watch_s > 0)
		status = watch(&x, watch_s, count);
	else if (csv_path != NULL)
		status = csv(&x, csv_path, interval_s, count);
	else
		status = snapshot(&x);
out:
	detach(&x);
	free(ids);
	return status;
}
