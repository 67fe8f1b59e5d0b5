/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Virtual-time fabric (fabric.h). Per cycle, in this fixed order: every node's source (by node
 * id) generates and offers packets; every ASIC (by router id) steps; every ASIC's ejections are
 * collected into the sinks' statistics; every router's firmware (by router id) ticks. Links
 * have latency ≥ 1, so nothing pushed in cycle c is seen before cycle c + 1 and the stepping
 * order cannot change the result; control frames the firmware queues at c leave at c + 1.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "asic.h"
#include "fabric.h"
#include "capture.h"
#include "gen.h"
#include "fw.h"
#include "regs_shm.h"

#define POOL_CHUNK 65536u

/*
 * A thread's edge lane (traffic/edge.h: its sources' and sinks' counts, latency histogram and
 * packet ids) and packet pool. A packet is freed to the lane of the thread that delivers it, so
 * packets move between lanes; fold_lanes() gives a lane running short some of the richest
 * lane's (its own chunks stay its own, freed at the end). Lane 0 counts into the fabric's
 * totals, the others into their own, folded and zeroed after each batch. Packet ids (what a
 * capture samples and tags by): lane 0 counts from 0, and it makes every packet a capture
 * sees, as a capture never runs batched, so they are the same for any sim.threads; lane k > 0
 * counts from k << 28. Aligned (struct dfly_edge_lane): lanes of different threads on
 * different cache lines.
 */
struct fab_lane {
	struct dfly_edge_lane edge;
	struct asic_pkt **chunks;
	uint32_t nchunks;
	uint32_t chunk_n; /* packets per chunk (dfly_fabric_opts.pool_chunk) */
	struct asic_pkt *free_list;
	uint64_t free_n;
};

struct dfly_fabric {
	uint64_t halo_release; /* halo3d: cycle the barrier releases the next iteration, 0: not
				  passed yet */
	struct dfly_netcfg cfg;
	struct dfly_topo *topo;
	struct asic **asics;
	struct fw **fws;  /* one firmware instance per router */
	bool *fw_stopped; /* [router]: its firmware does not tick (dfly_fabric_fw_set_stopped) */
	struct dfly_link_fault *faults; /* scheduled link faults (dfly_fabric_opts) */
	uint32_t nfaults;
	uint32_t min_pkt; /* the shortest packet the ASICs are sized for, phits */
	bool *gen_node; /* [node]: runs a generator (dfly_fabric_opts.gen_node), NULL: every one */
	struct dfly_regs **regs; /* per router: in regs_mem, or a shared-memory mapping */
	struct dfly_regs *regs_mem;
	struct dfly_regs_shm *shm; /* external firmware: the mappings (NULL otherwise) */
	uint32_t fw_wait_ms;
	bool fw_absent;                    /* the external firmware stopped answering */
	const volatile sig_atomic_t *stop; /* dfly_fabric_opts.stop, or NULL */
	uint64_t fw_absent_cycles;
	struct asic_link **links;
	uint32_t nlinks;
	struct dfly_gen gen;   /* the nodes' Bernoulli sources and destinations (gen.h) */
	struct dfly_edge edge; /* the nodes' sources and sinks (edge.h), served by the lanes */
	uint64_t seed;
	uint64_t now;

	/* packet pools and the sources' and sinks' counts, one lane per thread that generates
	 * and collects (several with sim.threads and sim.batch); st: the run's totals, lane 0's
	 * counts and every other lane's folded in after each batch (fold_lanes) */
	struct fab_lane *lane;
	uint32_t nlanes;
	uint32_t pool_chunk; /* packets per chunk (dfly_fabric_opts.pool_chunk) */
	uint64_t pool_moved; /* packets lanes_balance() moved */
	/* written by lane 0 for every packet while the other threads read the fields around:
	 * on cache lines of its own */
	char pad_st0[64];
	struct dfly_edge_stats st;
	char pad_st1[64];

	/* measurement window (open: edge.measuring) */
	uint64_t *inj_at_start; /* per router: packets out of injection at window start */
	uint64_t *inj_in_win;
	/* sim.lia_remote (else NULL): per router, [2h+1] each, index k + h: the firmware's running
	 * totals of R' and recomputations at the window's start, then R_k's mean over the window
	 * in packets per routing.lia.window cycles (lia_R_sums()) */
	uint64_t *lia_r0, *lia_n0;
	double *lia_r;

	bool tap_concurrent; /* the tap may be called from several threads at once */

	struct dfly_capture *cap; /* `dfly sim --capture`, or NULL */
	struct dfly_capture_stats cap_st;

	struct fab_pool *pool; /* sim.threads > 1: the threads that step the routers */
	uint32_t lookahead;    /* sim.batch: cycles a router may be stepped in a row (the links'
				  smallest latency; its links take the lag), else 1 */
};

/* ---------------------------------------------------------------------------------------------
 * Threads (sim.threads). The routers are split into contiguous ranges, one per thread. Cycle by
 * cycle, a cycle's router steps and firmware ticks run on the threads, generation before and
 * collection after on the caller's thread. With sim.batch, each thread steps the batches of
 * its routers (batch_range), generating and collecting on its own lane; the caller folds the
 * lanes after each batch. Routers interact only through links whose latency is at least the
 * cycles stepped between barriers, and a link is safe to share meanwhile (asic_priv.h, cal_mark),
 * so the results are those of one thread, bit for bit, whatever the number. Not threaded (one
 * thread steps every router): a capture (one trace stream), UGAL-G (reads its group's queues
 * during the step) and an external firmware (lockstep with dfly-controld).
 */
struct fab_part {
	struct dfly_fabric *fab;
	uint32_t r0, r1; /* routers [r0, r1) */
	pthread_t th;
	bool started;
};

struct fab_pool {
	uint32_t n; /* threads, the caller's included */
	struct fab_part *part;
	uint64_t b_c0, b_n; /* b_n > 0: the workers step a batch, cycles [b_c0, b_c0 + b_n) */
	_Alignas(64) _Atomic uint64_t go;   /* 1 + the cycle the workers step; UINT64_MAX: exit */
	_Alignas(64) _Atomic uint32_t done; /* workers done with the cycle */
};

static void fold_lanes(struct dfly_fabric *fab);

/* sim.batch: routers [r0, r1) stepped @p n cycles each from @p c0, one after the other, their
 * nodes' packets drawn from and counted on lane @p ln (batch_cycles). */
static void batch_range(struct dfly_fabric *fab, struct fab_lane *ln, uint32_t r0, uint32_t r1,
			uint64_t c0, uint64_t n)
{
	for (uint32_t r = r0; r < r1; r++) {
		struct asic *as = fab->asics[r];
		bool fw = fab->fw_stopped == NULL || !fab->fw_stopped[r];

		if (r + 1 < r1)
			asic_prefetch(fab->asics[r + 1]);
		for (uint64_t c = c0; c < c0 + n; c++) {
			dfly_edge_generate(&ln->edge, as, fab->regs[r], c);
			asic_prefetch_due(as, c);
			asic_step(as, c);
			dfly_edge_collect(&ln->edge, as, c);
			if (fw)
				fw_tick(fab->fws[r], c);
		}
	}
}

static void step_range(struct dfly_fabric *fab, uint32_t r0, uint32_t r1)
{
	for (uint32_t r = r0; r < r1; r++) {
		if (r + 1 < r1)
			asic_prefetch(fab->asics[r + 1]);
		asic_step(fab->asics[r], fab->now);
	}
}

/* the firmware runs after its ASIC: frames it queues leave at the next step, tables it
 * publishes are used from the next step */
static void fw_range(struct dfly_fabric *fab, uint32_t r0, uint32_t r1)
{
	for (uint32_t r = r0; r < r1; r++)
		if (fab->fw_stopped == NULL || !fab->fw_stopped[r])
			fw_tick(fab->fws[r], fab->now);
}

/* Spin, then yield (on a machine with fewer free cores than threads the other one needs ours),
 * then sleep: a worker whose caller is busy elsewhere (between runs, printing) does not hold a
 * core. */
static inline void pool_wait(unsigned *spins)
{
	if (++*spins < 4096) {
		__builtin_ia32_pause();
	} else if (*spins < 65536) {
		sched_yield();
	} else {
		struct timespec ts = {0, 50000};

		nanosleep(&ts, NULL);
	}
}

static void *pool_main(void *arg)
{
	struct fab_part *pt = arg;
	struct fab_pool *pool = pt->fab->pool;
	uint64_t seen = 0;

	for (;;) {
		uint64_t go;
		unsigned spins = 0;

		while ((go = atomic_load_explicit(&pool->go, memory_order_acquire)) == seen)
			pool_wait(&spins);
		if (go == UINT64_MAX)
			return NULL;
		seen = go;
		if (pool->b_n > 0) {
			batch_range(pt->fab, &pt->fab->lane[pt - pool->part], pt->r0, pt->r1,
				    pool->b_c0, pool->b_n);
		} else {
			step_range(pt->fab, pt->r0, pt->r1);
			fw_range(pt->fab, pt->r0, pt->r1);
		}
		atomic_fetch_add_explicit(&pool->done, 1, memory_order_release);
	}
}

static void pool_stop(struct dfly_fabric *fab)
{
	struct fab_pool *pool = fab->pool;

	if (pool == NULL)
		return;
	atomic_store_explicit(&pool->go, UINT64_MAX, memory_order_release);
	for (uint32_t k = 1; k < pool->n; k++)
		if (pool->part[k].started)
			pthread_join(pool->part[k].th, NULL);
	free(pool->part);
	free(pool);
	fab->pool = NULL;
}

static int pool_start(struct dfly_fabric *fab, uint32_t n, char *err, size_t errlen)
{
	struct fab_pool *pool;
	uint32_t R = fab->topo->routers;

	if (n > R)
		n = R;
	if (n <= 1)
		return 0;
	pool = calloc(1, sizeof(*pool));
	if (pool == NULL || (pool->part = calloc(n, sizeof(*pool->part))) == NULL) {
		free(pool);
		snprintf(err, errlen, "sim.threads: out of memory");
		return -ENOMEM;
	}
	pool->n = n;
	for (uint32_t r = 0; r < R; r++)
		asic_set_threaded(fab->asics[r], true);
	atomic_init(&pool->go, 0);
	atomic_init(&pool->done, 0);
	fab->pool = pool;
	for (uint32_t k = 0; k < n; k++) {
		pool->part[k].fab = fab;
		pool->part[k].r0 = (uint32_t)((uint64_t)R * k / n);
		pool->part[k].r1 = (uint32_t)((uint64_t)R * (k + 1) / n);
	}
	for (uint32_t k = 1; k < n; k++) {
		int rc = pthread_create(&pool->part[k].th, NULL, pool_main, &pool->part[k]);

		if (rc != 0) {
			snprintf(err, errlen, "sim.threads: cannot start thread %u: %s", k,
				 strerror(rc));
			pool_stop(fab);
			return -rc;
		}
		pool->part[k].started = true;
	}
	return 0;
}

/* Wait for the workers to be done with what the last store of go gave them. */
static void pool_join(struct fab_pool *pool)
{
	unsigned spins = 0;

	while (atomic_load_explicit(&pool->done, memory_order_acquire) != pool->n - 1)
		pool_wait(&spins);
	atomic_store_explicit(&pool->done, 0, memory_order_relaxed);
}

/* One cycle's steps and ticks on every thread of the pool. */
static void pool_cycle(struct dfly_fabric *fab)
{
	struct fab_pool *pool = fab->pool;

	pool->b_n = 0;
	atomic_store_explicit(&pool->go, fab->now + 1, memory_order_release);
	step_range(fab, pool->part[0].r0, pool->part[0].r1);
	fw_range(fab, pool->part[0].r0, pool->part[0].r1);
	pool_join(pool);
}

/* A batch of @p n cycles from fab->now on every thread of the pool, each its routers and lane. */
static void pool_batch(struct dfly_fabric *fab, uint64_t n)
{
	struct fab_pool *pool = fab->pool;

	pool->b_c0 = fab->now;
	pool->b_n = n;
	atomic_store_explicit(&pool->go, fab->now + 1, memory_order_release);
	batch_range(fab, &fab->lane[0], pool->part[0].r0, pool->part[0].r1, fab->now, n);
	pool_join(pool);
	fold_lanes(fab);
}

uint32_t dfly_fabric_threads(const struct dfly_fabric *fab)
{
	return fab->pool != NULL ? fab->pool->n : 1;
}

/* ---------------------------------------------------------------------------------------------
 * Packet pool
 */

int dfly_fabric_capture(struct dfly_fabric *fab, const char *path, char *err, size_t errlen)
{
	if (fab->cap != NULL) {
		snprintf(err, errlen, "capture: already open");
		return -EBUSY;
	}
	fab->cap = dfly_capture_open_netcfg(&fab->cfg, fab->topo, path, err, errlen);
	if (fab->cap == NULL)
		return -EIO;
	for (uint32_t r = 0; r < fab->topo->routers; r++)
		dfly_capture_attach(fab->cap, fab->asics[r]);
	/* the sources' skipped packets (drop.inj_full), of every router */
	for (uint32_t k = 0; k < fab->nlanes; k++) {
		fab->lane[k].edge.trace = dfly_capture_trace;
		fab->lane[k].edge.trace_ctx = fab->cap;
		fab->lane[k].edge.trace_points = fab->cfg.cap_points;
	}
	return 0;
}

int dfly_fabric_capture_close(struct dfly_fabric *fab, struct dfly_capture_stats *st)
{
	int rc;

	if (fab->cap == NULL) {
		if (st != NULL)
			*st = fab->cap_st;
		return 0;
	}
	for (uint32_t r = 0; r < fab->topo->routers; r++)
		asic_set_trace(fab->asics[r], NULL, NULL, 0);
	for (uint32_t k = 0; k < fab->nlanes; k++)
		fab->lane[k].edge.trace = NULL;
	rc = dfly_capture_close(fab->cap, &fab->cap_st);
	fab->cap = NULL;
	if (st != NULL)
		*st = fab->cap_st;
	return rc;
}

static struct asic_pkt *pkt_alloc(struct fab_lane *ln, uint32_t chunk_n)
{
	struct asic_pkt *pk;

	if (ln->free_list == NULL) {
		struct asic_pkt **c = realloc(ln->chunks, (ln->nchunks + 1) * sizeof(*c));
		struct asic_pkt *chunk;

		if (c == NULL)
			return NULL;
		ln->chunks = c;
		chunk = calloc(chunk_n, sizeof(*chunk));
		if (chunk == NULL)
			return NULL;
		ln->chunks[ln->nchunks++] = chunk;
		for (uint32_t i = chunk_n; i-- > 0;) {
			chunk[i].next = ln->free_list;
			ln->free_list = &chunk[i];
		}
		ln->free_n += chunk_n;
	}
	pk = ln->free_list;
	ln->free_list = pk->next;
	ln->free_n--;
	return pk;
}

static void pkt_free(struct fab_lane *ln, struct asic_pkt *pk)
{
	pk->next = ln->free_list;
	ln->free_list = pk;
	ln->free_n++;
}

/* The lanes' struct dfly_edge_pool_ops: packets from the lane's own pool. */
static unsigned lane_alloc_burst(void *pool, struct asic_pkt **pkts, unsigned n)
{
	struct fab_lane *ln = pool;
	unsigned k;

	for (k = 0; k < n && (pkts[k] = pkt_alloc(ln, ln->chunk_n)) != NULL; k++)
		;
	return k;
}

static void lane_free_burst(void *pool, struct asic_pkt **pkts, unsigned n)
{
	for (unsigned k = 0; k < n; k++)
		pkt_free(pool, pkts[k]);
}

static const struct dfly_edge_pool_ops lane_pool_ops = {
    .alloc_burst = lane_alloc_burst,
    .free_burst = lane_free_burst,
};

/* A lane runs short when its routers generate more than they deliver; it is topped up here to
 * an eighth of a chunk (at least 16) free packets from the richest lane (between batches: no
 * thread is running). */
static void lanes_balance(struct dfly_fabric *fab)
{
	uint64_t low = fab->pool_chunk / 8 > 16 ? fab->pool_chunk / 8 : 16;

	for (uint32_t k = 0; k < fab->nlanes; k++) {
		struct fab_lane *poor = &fab->lane[k], *rich = NULL;

		if (poor->free_n >= low)
			continue;
		for (uint32_t j = 0; j < fab->nlanes; j++)
			if (rich == NULL || fab->lane[j].free_n > rich->free_n)
				rich = &fab->lane[j];
		/* rich keeps more than 2 * low: pkt_alloc() takes from its list, never a chunk */
		while (poor->free_n < low && rich->free_n > 2 * low) {
			pkt_free(poor, pkt_alloc(rich, fab->pool_chunk));
			fab->pool_moved++;
		}
	}
}

void dfly_fabric_pool_stats(const struct dfly_fabric *fab, uint32_t *chunks, uint64_t *moved)
{
	*chunks = 0;
	for (uint32_t k = 0; k < fab->nlanes; k++)
		*chunks += fab->lane[k].nchunks;
	*moved = fab->pool_moved;
}

/* Every lane's counts since the last fold into the totals (between batches). */
static void fold_lanes(struct dfly_fabric *fab)
{
	struct dfly_edge_stats *t = &fab->st;

	for (uint32_t k = 1; k < fab->nlanes; k++) {
		struct dfly_edge_stats *d = &fab->lane[k].edge.own;

		dfly_edge_stats_add(t, d);
		memset(d, 0, sizeof(*d));
	}
	lanes_balance(fab);
}

static int lanes_init(struct dfly_fabric *fab, uint32_t n)
{
	fab->lane = aligned_alloc(_Alignof(struct fab_lane), n * sizeof(*fab->lane));
	if (fab->lane == NULL)
		return -ENOMEM;
	memset(fab->lane, 0, n * sizeof(*fab->lane));
	fab->nlanes = n;
	for (uint32_t k = 0; k < n; k++) {
		struct fab_lane *ln = &fab->lane[k];

		ln->chunk_n = fab->pool_chunk;
		if (dfly_edge_lane_init(&ln->edge, &fab->edge, &lane_pool_ops, ln, k << 28) < 0)
			return -ENOMEM;
		if (k == 0)
			ln->edge.st = &fab->st;
	}
	return 0;
}

static void lanes_fini(struct dfly_fabric *fab)
{
	for (uint32_t k = 0; k < fab->nlanes; k++) {
		struct fab_lane *ln = &fab->lane[k];

		for (uint32_t c = 0; c < ln->nchunks; c++)
			free(ln->chunks[c]);
		free(ln->chunks);
		dfly_edge_lane_fini(&ln->edge);
	}
	free(fab->lane);
	fab->lane = NULL;
	fab->nlanes = 0;
}

/* ---------------------------------------------------------------------------------------------
 * Traffic (spec §7)
 */

uint32_t dfly_fabric_pick_dst(struct dfly_fabric *fab, uint32_t n)
{
	return dfly_gen_pick_dst(&fab->gen, n);
}

/* The sources' load: request-reply generates its requests at half of it, the replies carry the
 * other half (spec 7.5). */
static double request_load(const struct dfly_netcfg *cfg, double load)
{
	return cfg->reqrep ? load / 2 : load;
}

void dfly_fabric_set_load(struct dfly_fabric *fab, double load)
{
	dfly_gen_set_load(&fab->gen, request_load(&fab->cfg, load), fab->cfg.pkt_phits);
}

static void generate(struct dfly_fabric *fab)
{
	for (uint32_t r = 0; r < fab->topo->routers; r++)
		dfly_edge_generate(&fab->lane[0].edge, fab->asics[r], fab->regs[r], fab->now);
}

/* ---------------------------------------------------------------------------------------------
 * Sinks
 */

void dfly_fabric_set_tap(struct dfly_fabric *fab, dfly_delivery_fn *fn, void *ctx)
{
	fab->edge.tap = fn;
	fab->edge.tap_ctx = ctx;
	fab->tap_concurrent = false;
}

void dfly_fabric_set_tap_concurrent(struct dfly_fabric *fab, dfly_delivery_fn *fn, void *ctx)
{
	dfly_fabric_set_tap(fab, fn, ctx);
	fab->tap_concurrent = true;
}

int dfly_fabric_set_pattern(struct dfly_fabric *fab, enum dfly_pattern pattern, int adv_offset)
{
	int rc = dfly_gen_set_pattern(&fab->gen, pattern, adv_offset);

	if (rc == 0) {
		fab->cfg.pattern = pattern;
		fab->cfg.adv_offset = adv_offset;
	}
	return rc;
}

static void collect(struct dfly_fabric *fab)
{
	for (uint32_t r = 0; r < fab->topo->routers; r++)
		dfly_edge_collect(&fab->lane[0].edge, fab->asics[r], fab->now);
}

int dfly_fabric_inject_host(struct dfly_fabric *fab, uint32_t node, uint32_t dst, uint32_t len)
{
	const struct dfly_topo *t = fab->topo;
	struct asic_pkt *pk;
	uint32_t r = node / t->p;

	if (node >= t->nodes || dst >= t->nodes || len < fab->min_pkt ||
	    len > dfly_netcfg_min_buf(&fab->cfg))
		return -EINVAL;
	pk = pkt_alloc(&fab->lane[0], fab->lane[0].chunk_n);
	if (pk == NULL)
		return -ENOMEM;
	/* as dfly-switch's host port does it */
	if (!dfly_edge_inject_host(fab->asics[r], fab->regs[r], node % t->p, pk, node, dst, len,
				   fab->now)) {
		pkt_free(&fab->lane[0], pk);
		return 1;
	}
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Construction
 */

struct dfly_fabric *dfly_fabric_create(const struct dfly_netcfg *cfg, uint64_t seed, char *err,
				       size_t errlen)
{
	return dfly_fabric_create_opts(cfg, seed, NULL, err, errlen);
}

struct dfly_fabric *dfly_fabric_create_opts(const struct dfly_netcfg *cfg, uint64_t seed,
					    const struct dfly_fabric_opts *o, char *err,
					    size_t errlen)
{
	struct dfly_fabric *fab = calloc(1, sizeof(*fab));
	struct asic_params par = {0};
	uint32_t nl = 0;
	const struct dfly_topo *t;

	if (fab == NULL)
		goto out_nomem;
	if (!cfg->link_rate) {
		/* its loads and latencies are in phits per cycle: a link must carry one */
		snprintf(err, errlen,
			 "%s: clock.link_rate = false is for dfly-switch benchmarks; dfly sim "
			 "emulates the link rate",
			 cfg->path);
		free(fab);
		errno = EINVAL;
		return NULL;
	}
	fab->cfg = *cfg;
	fab->seed = seed;
	fab->topo = dfly_topo_create(cfg->p, cfg->a, cfg->h, cfg->t, cfg->arr, cfg->sigma);
	if (fab->topo == NULL) {
		snprintf(err, errlen, "%s: topology: invalid p=%u a=%u h=%u t=%u", cfg->path,
			 cfg->p, cfg->a, cfg->h, cfg->t);
		dfly_fabric_destroy(fab);
		errno = EINVAL;
		return NULL;
	}
	t = fab->topo;
	dfly_netcfg_asic_params(cfg, &par); /* fixed-size generator packets */
	if (o != NULL && o->min_pkt_phits && o->min_pkt_phits < par.min_pkt_phits)
		par.min_pkt_phits = o->min_pkt_phits; /* and shorter host frames (dfly verify) */
	fab->min_pkt = par.min_pkt_phits;

	fab->asics = calloc(t->routers, sizeof(*fab->asics));
	fab->regs = calloc(t->routers, sizeof(*fab->regs));
	fab->stop = o != NULL ? o->stop : NULL;
	if (o != NULL && o->shm_instance != NULL) {
		fab->shm = calloc(t->routers, sizeof(*fab->shm));
		fab->fw_wait_ms = o->fw_wait_ms ? o->fw_wait_ms : 5000;
		if (fab->shm == NULL || fab->regs == NULL)
			goto out_nomem;
		for (uint32_t r = 0; r < t->routers; r++) {
			int rc = dfly_regs_shm_create(&fab->shm[r], o->shm_instance, r, t->radix);

			if (rc < 0) {
				dfly_regs_shm_create_msg(err, errlen, o->shm_instance, r, rc);
				goto out_err;
			}
			fab->regs[r] = fab->shm[r].regs;
		}
	} else {
		fab->regs_mem =
		    aligned_alloc(64, ((sizeof(struct dfly_regs) * t->routers + 63) / 64) * 64);
		if (fab->regs_mem == NULL || fab->regs == NULL)
			goto out_nomem;
		for (uint32_t r = 0; r < t->routers; r++)
			fab->regs[r] = &fab->regs_mem[r];
	}
	if (o != NULL && o->nfaults) {
		fab->faults = calloc(o->nfaults, sizeof(*fab->faults));
		if (fab->faults == NULL)
			goto out_nomem;
		for (uint32_t i = 0; i < o->nfaults; i++) {
			const struct dfly_link_fault *f = &o->faults[i];

			if (f->router >= t->routers || f->port < t->first_local ||
			    f->port >= t->radix) {
				snprintf(err, errlen,
					 "link fault %u: router %u port %u is not a fabric port "
					 "(routers "
					 "0..%u, fabric ports %u..%u)",
					 i, f->router, f->port, t->routers - 1, t->first_local,
					 t->radix - 1);
				goto out_err;
			}
			if (f->up != 0 && f->up <= f->down) {
				snprintf(err, errlen,
					 "link fault %u: back up at cycle %llu, not after %llu", i,
					 (unsigned long long)f->up, (unsigned long long)f->down);
				goto out_err;
			}
			fab->faults[i] = *f;
		}
		fab->nfaults = o->nfaults;
	}
	fab->links = calloc((size_t)t->routers * (t->a - 1 + t->h), sizeof(*fab->links));
	fab->inj_at_start = calloc(t->routers, sizeof(*fab->inj_at_start));
	fab->inj_in_win = calloc(t->routers, sizeof(*fab->inj_in_win));
	if (!fab->asics || !fab->links || !fab->inj_at_start || !fab->inj_in_win)
		goto out_nomem;
	if (cfg->lia_remote) {
		size_t n = (size_t)t->routers * (2 * t->h + 1);

		fab->lia_r0 = calloc(n, sizeof(*fab->lia_r0));
		fab->lia_n0 = calloc(t->routers, sizeof(*fab->lia_n0));
		fab->lia_r = calloc(n, sizeof(*fab->lia_r));
		if (!fab->lia_r0 || !fab->lia_n0 || !fab->lia_r)
			goto out_nomem;
	}

	for (uint32_t r = 0; r < t->routers; r++) {
		struct dfly_regs *regs = fab->regs[r];

		fab->asics[r] = asic_create(t, r, &par, regs, seed);
		if (fab->asics[r] == NULL) {
			snprintf(err, errlen, "router %u: cannot create ASIC: %s", r,
				 strerror(errno));
			goto out_err;
		}
		/* the configuration loader plays the firmware's part for the static knobs */
		dfly_netcfg_knobs(cfg, &regs->knobs);
	}
	/* UGAL-G's oracle: every ASIC may read the queues of its group's ASICs */
	for (uint32_t r = 0; r < t->routers; r++)
		asic_set_group_view(fab->asics[r],
				    (const struct asic *const *)&fab->asics[r / t->a * t->a]);
	for (uint32_t r = 0; r < t->routers; r++) {
		for (uint32_t port = t->first_local; port < t->radix; port++) {
			uint32_t pr, pp;
			uint32_t lat = dfly_topo_port_kind(t, port) == DFLY_PORT_LOCAL
					   ? cfg->lat_local
					   : cfg->lat_global;

			dfly_topo_port_peer(t, r, port, &pr, &pp);
			fab->links[nl] =
			    asic_link_create(fab->asics[r], port, fab->asics[pr], pp, lat);
			if (fab->links[nl] == NULL) {
				snprintf(err, errlen, "link %u:%u -> %u:%u: %s", r, port, pr, pp,
					 strerror(errno));
				goto out_err;
			}
			nl++;
		}
	}
	fab->nlinks = nl;
	if (o != NULL && o->ctrl_types != 0) {
		for (uint32_t l = 0; l < nl; l++) {
			if (asic_link_set_ctrl_fault(fab->links[l], o->ctrl_types, o->ctrl_loss_ppm,
						     o->ctrl_delay,
						     seed * 0x9e3779b97f4a7c15ull + l) < 0) {
				snprintf(err, errlen, "control-frame fault: link %u: no memory", l);
				goto out_err;
			}
		}
	}
	{
		struct fw_params fp;

		dfly_netcfg_fw_params(cfg, &fp);

		fab->fws = calloc(t->routers, sizeof(*fab->fws));
		if (fab->fws == NULL)
			goto out_nomem;
		/* external firmware: it may sleep on steps, this driver wakes it every cycle
		 * (wait_external_fw); after asic_create(), which initialises the file */
		for (uint32_t r = 0; r < t->routers && fab->shm != NULL; r++)
			atomic_store_explicit(&fab->regs[r]->lockstep, 1, memory_order_relaxed);
		for (uint32_t r = 0; r < t->routers && fab->shm == NULL; r++) {
			fab->fws[r] = fw_create(t, r, fab->regs[r], &fp);
			if (fab->fws[r] == NULL) {
				snprintf(err, errlen, "router %u: cannot create firmware: %s", r,
					 strerror(errno));
				goto out_err;
			}
		}
	}
	if (dfly_gen_init(&fab->gen, t, cfg->pattern, cfg->adv_offset, request_load(cfg, cfg->load),
			  cfg->pkt_phits, seed) < 0 ||
	    dfly_gen_set_shape(&fab->gen, cfg->burst_len, cfg->mix_un) < 0 ||
	    dfly_gen_set_advc_groups(&fab->gen, cfg->advc_groups) < 0 ||
	    (cfg->mix_noffs > 0 &&
	     dfly_gen_set_mix_offsets(&fab->gen, cfg->mix_offs, cfg->mix_noffs) < 0)) {
		snprintf(err, errlen, "traffic: cannot set up the sources of %s", cfg->path);
		errno = EINVAL;
		goto out_err;
	}
	if (o != NULL && o->gen_node != NULL) {
		fab->gen_node = malloc(t->nodes * sizeof(*fab->gen_node));
		if (fab->gen_node == NULL)
			goto out_nomem;
		memcpy(fab->gen_node, o->gen_node, t->nodes * sizeof(*fab->gen_node));
	}
	if (dfly_edge_init(&fab->edge, t, &fab->gen, cfg->pkt_phits,
			   cfg->source == DFLY_SRC_UNBOUNDED, fab->gen_node) < 0)
		goto out_nomem;
	fab->edge.reqrep = cfg->reqrep;
	if (dfly_netcfg_workload(cfg)) {
		/* a workload: each node's packet not yet injected waits at its source */
		bool rnd = dfly_netcfg_placement_random(cfg);
		int rc;

		if (cfg->pattern == DFLY_PAT_A2A) {
			rc = dfly_gen_set_placement(&fab->gen, rnd);
		} else if (cfg->pattern == DFLY_PAT_HALO) {
			rc = dfly_gen_set_halo(&fab->gen, cfg->halo_dims, cfg->halo_cube,
					       cfg->pkt_phits * cfg->phit_bytes, cfg->halo_iters,
					       rnd);
		} else {
			struct dfly_g5_params g5 = {
			    .scale = cfg->g5_scale,
			    .edge_factor = cfg->g5_edge_factor,
			    .coalescing = cfg->g5_coalescing,
			    .query_cycles = cfg->g5_query_cycles,
			    .root_degree = cfg->g5_root_degree,
			    .max_levels = cfg->g5_max_levels,
			    .msg_packets = dfly_netcfg_g5_msg_packets(cfg),
			    .pkt_phits = cfg->pkt_phits,
			    .coef = (enum dfly_g5_coef)cfg->g5_coef,
			};

			rc = dfly_gen_set_graph500(&fab->gen, &g5, cfg->g5_processes, rnd);
		}
		if (rc == -ENOMEM)
			goto out_nomem;
		if (rc < 0) {
			snprintf(err, errlen, "traffic: cannot set up the %s workload of %s",
				 dfly_netcfg_workload_name(cfg), cfg->path);
			errno = -rc;
			goto out_err;
		}
		fab->edge.unbounded = fab->edge.closed_loop = true;
	}
	{
		int rc;

		if (fab->shm == NULL && (rc = pool_start(fab, cfg->threads, err, errlen)) < 0) {
			errno = -rc;
			goto out_err;
		}
	}
	fab->pool_chunk = o != NULL && o->pool_chunk ? o->pool_chunk : POOL_CHUNK;
	/* a lane per thread that generates and collects: several when the threads run batches */
	if (lanes_init(fab, cfg->batch && fab->pool != NULL ? fab->pool->n : 1) < 0)
		goto out_nomem;
	/* sim.batch: a router may be stepped up to the smallest link latency in a row, as nothing
	 * it receives in those cycles was sent in them; its links hold that much more. With
	 * threads, each steps its routers' batches at once (batch_cycles). */
	fab->lookahead = 1;
	if (cfg->batch && nl > 0) {
		uint32_t la = UINT32_MAX;

		for (uint32_t l = 0; l < nl; l++)
			if (fab->links[l]->latency < la)
				la = fab->links[l]->latency;
		for (uint32_t l = 0; l < nl && la > 1; l++)
			if (asic_link_set_lag(fab->links[l], la - 1) != 0) {
				snprintf(err, errlen, "sim.batch: link %u: no memory", l);
				goto out_err;
			}
		fab->lookahead = la;
	}
	return fab;

out_nomem:
	snprintf(err, errlen, "out of memory");
	errno = ENOMEM;
out_err:
	dfly_fabric_destroy(fab);
	return NULL;
}

void dfly_fabric_destroy(struct dfly_fabric *fab)
{
	if (fab == NULL)
		return;
	pool_stop(fab);
	if (fab->cap != NULL && fab->asics != NULL)
		dfly_fabric_capture_close(fab, NULL);
	for (uint32_t l = 0; l < fab->nlinks; l++)
		asic_link_destroy(fab->links[l]);
	if (fab->asics && fab->topo)
		for (uint32_t r = 0; r < fab->topo->routers; r++)
			asic_destroy(fab->asics[r]);
	if (fab->fws && fab->topo)
		for (uint32_t r = 0; r < fab->topo->routers; r++)
			fw_destroy(fab->fws[r]); /* NULL with an external firmware */
	free(fab->fws);
	free(fab->fw_stopped);
	free(fab->faults);
	free(fab->gen_node);
	lanes_fini(fab);
	free(fab->asics);
	if (fab->shm && fab->topo)
		for (uint32_t r = 0; r < fab->topo->routers; r++)
			dfly_regs_shm_close(&fab->shm[r]);
	free(fab->shm);
	free(fab->regs_mem);
	free(fab->regs);
	free(fab->links);
	dfly_edge_fini(&fab->edge);
	dfly_gen_fini(&fab->gen);
	free(fab->inj_at_start);
	free(fab->inj_in_win);
	free(fab->lia_r0);
	free(fab->lia_n0);
	free(fab->lia_r);
	dfly_topo_destroy(fab->topo);
	free(fab);
}

/* ---------------------------------------------------------------------------------------------
 * Running
 */

uint64_t dfly_fabric_in_flight(const struct dfly_fabric *fab)
{
	uint64_t n = 0;

	for (uint32_t r = 0; r < fab->topo->routers; r++)
		n += asic_pkts_held(fab->asics[r]);
	for (uint32_t l = 0; l < fab->nlinks; l++)
		n += asic_link_pkts(fab->links[l]);
	return n;
}

/* CRT (spec §4.8): credits the routers still hold back; the drain waits for them. */
static uint64_t crt_held(const struct dfly_fabric *fab)
{
	uint64_t n = 0;

	for (uint32_t r = 0; r < fab->topo->routers; r++)
		n += asic_crt_held(fab->asics[r]);
	return n;
}

/* Packets injected by the nodes of router r so far (left the injection queues). */
static uint64_t router_injected(const struct dfly_fabric *fab, uint32_t r)
{
	uint64_t n = 0;

	for (uint32_t port = 0; port < fab->topo->p; port++)
		n += fab->regs[r]->port_ctr[port][DFLY_XBAR_IN_GRANTS];
	return n;
}

/* The caller asked the run to end (dfly_fabric_opts.stop). */
static bool stopped(const struct dfly_fabric *fab)
{
	return fab->stop != NULL && *fab->stop != 0;
}

/*
 * External firmware (dfly-controld on the shared register files): lockstep. Cycle c + 1 starts
 * only when every router's firmware has ticked cycle c (heartbeat ≥ c + 1), so the run is the
 * same as with the firmware inside. If it does not answer within fw_wait_ms (killed, not yet
 * started), the ASICs go on without it on their last tables, without waiting again until it is
 * back in step; those cycles are counted.
 */
static void wait_external_fw(struct dfly_fabric *fab)
{
	uint64_t want = fab->now + 1, deadline = 0;

	/* the firmware may sleep on steps (dfly_regs_sleep()): this cycle's steps are stored */
	for (uint32_t r = 0; r < fab->topo->routers; r++)
		dfly_regs_wake(&fab->regs[r]->steps, &fab->regs[r]->steps_sleepers);
	for (uint32_t r = 0; r < fab->topo->routers; r++) {
		_Atomic uint64_t *hb = &fab->regs[r]->fw.heartbeat;
		unsigned spins = 0;

		while (atomic_load_explicit(hb, memory_order_acquire) < want) {
			struct timespec ts;
			uint64_t t;

			if (fab->fw_absent)
				goto absent;
			if (stopped(fab))
				return;      /* the run ends at the next check */
			if (++spins < 256) { /* the firmware is usually a few µs behind */
				__builtin_ia32_pause();
				continue;
			}
			clock_gettime(CLOCK_MONOTONIC, &ts);
			t = (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
			if (deadline == 0)
				deadline = t + fab->fw_wait_ms;
			else if (t > deadline) {
				fab->fw_absent = true;
				goto absent;
			}
			/* woken by dfly-controld's store of the heartbeat; 1 ms bounds the
			 * checks of the deadline and of stop */
			dfly_regs_sleep(hb, want, &fab->regs[r]->hb_sleepers, 1000000L);
		}
	}
	fab->fw_absent = false;
	return;
absent:
	fab->fw_absent_cycles++;
	/* back in step as soon as every router's firmware has caught up */
	for (uint32_t r = 0; r < fab->topo->routers; r++)
		if (atomic_load_explicit(&fab->regs[r]->fw.heartbeat, memory_order_acquire) < want)
			return;
	fab->fw_absent = false;
}

uint64_t dfly_fabric_fw_absent_cycles(const struct dfly_fabric *fab)
{
	return fab->fw_absent_cycles;
}

int dfly_fabric_link_set_down(struct dfly_fabric *fab, uint32_t r, uint32_t port, bool down)
{
	uint32_t pr, pp;

	if (r >= fab->topo->routers || dfly_topo_port_peer(fab->topo, r, port, &pr, &pp) < 0)
		return -EINVAL;
	asic_port_set_down(fab->asics[r], port, down);
	asic_port_set_down(fab->asics[pr], pp, down);
	return 0;
}

static void apply_faults(struct dfly_fabric *fab)
{
	for (uint32_t i = 0; i < fab->nfaults; i++) {
		const struct dfly_link_fault *f = &fab->faults[i];

		if (f->down == fab->now)
			dfly_fabric_link_set_down(fab, f->router, f->port, true);
		else if (f->up != 0 && f->up == fab->now)
			dfly_fabric_link_set_down(fab, f->router, f->port, false);
	}
}

static void one_cycle(struct dfly_fabric *fab)
{
	if (fab->nfaults)
		apply_faults(fab);
	if (fab->gen.on || fab->st.queued_src)
		generate(fab);
	if (fab->pool != NULL && fab->cap == NULL &&
	    !dfly_mode_is(fab->regs[0]->knobs.mode, DFLY_MODEF_ORACLE)) {
		pool_cycle(fab);
		collect(fab);
	} else {
		step_range(fab, 0, fab->topo->routers);
		collect(fab);
		if (fab->shm == NULL)
			fw_range(fab, 0, fab->topo->routers);
		else
			wait_external_fw(fab);
	}
	fab->now++;
}

/*
 * sim.batch: step each router @p n cycles in a row, then the next router. A router receives at
 * cycle c only what was sent by cycle c − latency, so while n is at most the smallest link
 * latency nothing a router receives in the batch was sent in it, and every order of the steps
 * gives the same state: the links hold the lag (asic_link_set_lag), the sources draw from
 * per-node streams. Only the order of deliveries within a batch differs (the tap's; every
 * statistic is a sum, count or maximum). A router's state stays in the core's cache for its n
 * cycles, instead of being fetched again every cycle: dfly sim on a network larger than the
 * cache is memory-bound (h4: 4.3 µs per router and cycle at 264 routers, 1.35 µs at 40).
 */
static void batch_cycles(struct dfly_fabric *fab, uint64_t n)
{
	if (fab->nfaults)
		apply_faults(fab);
	if (fab->nlanes > 1 && (fab->edge.tap == NULL || fab->tap_concurrent))
		pool_batch(fab, n);
	else
		batch_range(fab, &fab->lane[0], 0, fab->topo->routers, fab->now, n);
	fab->now += n;
}

/* Whether the next cycles may be batched: none of what needs every router at one cycle (a
 * capture's single stream in time order, UGAL-G's oracle, dfly-controld). */
static bool batch_ok(const struct dfly_fabric *fab)
{
	return fab->lookahead > 1 && fab->cap == NULL && fab->shm == NULL &&
	       !dfly_mode_is(fab->regs[0]->knobs.mode, DFLY_MODEF_ORACLE);
}

/* @p n cycles: in batches (sim.batch) when allowed, each ending before the next scheduled link
 * fault, which must find every router at its cycle; else cycle by cycle. */
static void advance(struct dfly_fabric *fab, uint64_t n)
{
	while (n > 0) {
		uint64_t k = 1;

		if (batch_ok(fab)) {
			k = n < fab->lookahead ? n : fab->lookahead;
			for (uint32_t i = 0; i < fab->nfaults; i++) {
				const struct dfly_link_fault *f = &fab->faults[i];

				if (f->down > fab->now && f->down - fab->now < k)
					k = f->down - fab->now;
				if (f->up > fab->now && f->up - fab->now < k)
					k = f->up - fab->now;
			}
		}
		if (k > 1)
			batch_cycles(fab, k);
		else
			one_cycle(fab);
		n -= k;
	}
}

/* Cycles to the next multiple of 1024 (the watchdog's and the progress line's), at most @p n. */
static uint64_t to_1024(const struct dfly_fabric *fab, uint64_t n)
{
	uint64_t k = 1024 - (fab->now & 1023);

	return k < n ? k : n;
}

static int watchdog(struct dfly_fabric *fab, char *why, size_t len)
{
	if (fab->now - fab->st.last_delivery <= fab->cfg.watchdog)
		return 0;
	if (dfly_fabric_in_flight(fab) == 0) {
		fab->st.last_delivery = fab->now;
		return 0;
	}
	snprintf(why, len,
		 "watchdog: no packet delivered for %llu cycles (cycle %llu) with %llu packets "
		 "in the network: deadlock",
		 (unsigned long long)fab->cfg.watchdog, (unsigned long long)fab->now,
		 (unsigned long long)dfly_fabric_in_flight(fab));
	return -EDEADLK;
}

int dfly_fabric_step(struct dfly_fabric *fab, uint64_t cycles)
{
	char why[256];

	while (cycles > 0) {
		uint64_t k = to_1024(fab, cycles);

		advance(fab, k);
		cycles -= k;
		if ((fab->now & 1023) == 0 && watchdog(fab, why, sizeof(why)))
			return -EDEADLK;
	}
	return 0;
}

int dfly_fabric_check_invariants(const struct dfly_fabric *fab, bool drained, char *why, size_t len)
{
	uint64_t in_flight = dfly_fabric_in_flight(fab);

	/* conservation: every packet accepted by an injection queue is delivered, in flight,
	 * or counted as dropped inside the fabric */
	if (fab->st.gen_total != fab->st.dlv_total + in_flight + fab->st.drop_fabric) {
		snprintf(why, len,
			 "conservation: injected %llu != delivered %llu + in flight %llu + dropped "
			 "%llu",
			 (unsigned long long)fab->st.gen_total,
			 (unsigned long long)fab->st.dlv_total, (unsigned long long)in_flight,
			 (unsigned long long)fab->st.drop_fabric);
		return -EBUSY;
	}
	{
		/* the fabric drops nothing but what a dead link holds (drop.link_dead, a fault) */
		uint64_t dead = 0;

		for (uint32_t r = 0; r < fab->topo->routers; r++)
			dead += fab->regs[r]->drop[DFLY_DROP_LINK_DEAD];
		if (fab->st.drop_fabric != dead) {
			snprintf(why, len,
				 "lossless fabric dropped %llu packets (%llu of them behind a dead "
				 "link)",
				 (unsigned long long)fab->st.drop_fabric, (unsigned long long)dead);
			return -EBUSY;
		}
	}
	for (uint32_t r = 0; r < fab->topo->routers; r++) {
		const struct dfly_regs *rg = fab->regs[r];
		uint64_t rx = 0, enq = 0, deq = 0, tx = 0, xin = 0, xout = 0;

		/* counter partitions: per-VC sums equal per-port totals */
		for (uint32_t port = 0; port < fab->topo->radix; port++) {
			uint64_t e = 0, o = 0;

			for (uint32_t v = 0; v < rg->nvcs[port]; v++) {
				e += rg->vc_ctr[port][v][DFLY_VC_ENQ_PKTS];
				deq += rg->vc_ctr[port][v][DFLY_VC_DEQ_PKTS];
				o += rg->vc_ctr[port][v][DFLY_VC_OUT_VC_PKTS];
			}
			if (e != rg->port_ctr[port][DFLY_RX_PKTS] ||
			    o != rg->port_ctr[port][DFLY_XBAR_OUT_GRANTS]) {
				snprintf(
				    why, len,
				    "router %u port %u: per-VC counters do not add up to the "
				    "port's (enq %llu rx %llu, out %llu grants %llu)",
				    r, port, (unsigned long long)e,
				    (unsigned long long)rg->port_ctr[port][DFLY_RX_PKTS],
				    (unsigned long long)o,
				    (unsigned long long)rg->port_ctr[port][DFLY_XBAR_OUT_GRANTS]);
				return -EBUSY;
			}
			rx += rg->port_ctr[port][DFLY_RX_PKTS];
			enq += e;
			tx += rg->port_ctr[port][DFLY_TX_PKTS];
			xin += rg->port_ctr[port][DFLY_XBAR_IN_GRANTS];
			xout += rg->port_ctr[port][DFLY_XBAR_OUT_GRANTS];
		}
		if (xin != xout || rg->route[DFLY_ROUTE_HOP_LOCAL] +
					   rg->route[DFLY_ROUTE_HOP_GLOBAL] +
					   rg->route[DFLY_ROUTE_EJECT] !=
				       xout) {
			snprintf(why, len, "router %u: grants in %llu out %llu, hop counters %llu",
				 r, (unsigned long long)xin, (unsigned long long)xout,
				 (unsigned long long)(rg->route[DFLY_ROUTE_HOP_LOCAL] +
						      rg->route[DFLY_ROUTE_HOP_GLOBAL] +
						      rg->route[DFLY_ROUTE_EJECT]));
			return -EBUSY;
		}
		if (asic_cc_mismatches(fab->asics[r]) != 0) {
			snprintf(why, len,
				 "router %u: recomputed contention counters differed from "
				 "the event-driven ones in %llu cycles",
				 r, (unsigned long long)asic_cc_mismatches(fab->asics[r]));
			return -EBUSY;
		}
		if (asic_check_heads(fab->asics[r], why, (unsigned)len))
			return -EBUSY;
		/* what a dead link discarded left through no link: it counts as sent */
		tx += rg->drop[DFLY_DROP_LINK_DEAD];
		if (drained && (rx != tx || enq != deq)) {
			snprintf(why, len,
				 "router %u drained but rx %llu != tx %llu or enq %llu != "
				 "deq %llu",
				 r, (unsigned long long)rx, (unsigned long long)tx,
				 (unsigned long long)enq, (unsigned long long)deq);
			return -EBUSY;
		}
		if (drained) {
			char w[200];

			if (asic_check_drained(fab->asics[r], w, sizeof(w))) {
				snprintf(why, len, "%s", w);
				return -EBUSY;
			}
		}
	}
	if (drained) {
		for (uint32_t l = 0; l < fab->nlinks; l++)
			if (asic_link_pkts(fab->links[l]) || asic_link_credits(fab->links[l])) {
				snprintf(why, len, "link %u not empty after drain", l);
				return -EBUSY;
			}
	}
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void progress_line(struct dfly_fabric *fab, uint64_t total, double t0, double *last)
{
	double t = now_s();

	if (t - t0 < 3.0 || t - *last < 2.0)
		return;
	*last = t;
	fprintf(stderr, "  cycle %llu/%llu (%.0f%%), %.0f cycles/s%s", (unsigned long long)fab->now,
		(unsigned long long)total, 100.0 * (double)fab->now / (double)total,
		(double)fab->now / (t - t0), isatty(2) ? "\r" : "\n");
}

static void finish_stats(struct dfly_fabric *fab, struct dfly_sim_result *res)
{
	const struct dfly_topo *t = fab->topo;
	double M = (double)fab->cfg.measure;
	double sum = 0, sum2 = 0, mn = INFINITY, mx = 0;
	uint64_t p50 = 0, p99 = 0;
	const struct dfly_edge_lane *lanes[64];

	if (dfly_netcfg_workload(&fab->cfg)) {
		/* a workload's window is the whole run, to its last delivery */
		res->completion = fab->st.last_delivery;
		M = res->completion > 0 ? (double)res->completion : 1;
	}
	if (fab->gen.g5 != NULL) {
		const struct dfly_g5 *g = fab->gen.g5;

		res->g5_usage = (double)fab->st.m_phits / (M * g->n);
		res->g5_root_degree = g->root_degree;
		memcpy(res->g5_level_msgs, g->level_msgs, sizeof(res->g5_level_msgs));
	}

	res->offered = fab->cfg.load;
	res->generated = fab->st.m_attempts * (double)fab->cfg.pkt_phits / (M * t->nodes);
	res->accepted = (double)fab->st.m_phits / (M * t->nodes);
	res->accepted_rep = (double)fab->st.m_rep_phits / (M * t->nodes);
	if (fab->st.m_rep_pkts)
		res->lat_avg_rep = fab->st.m_rep_lat_sum / fab->st.m_rep_pkts;
	res->pkts_delivered = fab->st.m_pkts;
	if (fab->st.m_pkts) {
		res->lat_avg = fab->st.m_lat_sum / fab->st.m_pkts;
		res->net_lat_avg = fab->st.m_net_lat_sum / fab->st.m_pkts;
		res->misrouted_pct = 100.0 * fab->st.m_nonmin / fab->st.m_pkts;
		res->hops_avg = (double)fab->st.m_hops / fab->st.m_pkts;
		res->lhops_avg = (double)fab->st.m_lhops / fab->st.m_pkts;
		res->ghops_avg = (double)fab->st.m_ghops / fab->st.m_pkts;
		for (uint32_t k = 0; k < fab->nlanes; k++)
			lanes[k] = &fab->lane[k].edge;
		dfly_edge_lat_percentiles(lanes, fab->nlanes, fab->st.m_pkts, &p50, &p99);
		res->lat_p50 = (double)p50;
		res->lat_p99 = (double)p99;
		res->lat_max = fab->st.m_lat_max;
	}
	for (uint32_t r = 0; r < t->routers; r++) {
		double x = (double)fab->inj_in_win[r] * fab->cfg.pkt_phits / (M * t->p);

		sum += x;
		sum2 += x * x;
		if (x < mn)
			mn = x;
		if (x > mx)
			mx = x;
	}
	{
		double mu = sum / t->routers;
		double var = sum2 / t->routers - mu * mu;

		res->min_inj = mn;
		res->max_min = mn > 0 ? mx / mn : 0;
		res->cov = mu > 0 ? sqrt(var > 0 ? var : 0) / mu : 0;
		res->jain = sum2 > 0 ? sum * sum / (t->routers * sum2) : 0;
	}
}

/*
 * A workload run to completion (all-to-all, spec 7.6): measured from cycle 0 until every node
 * has sent all its packets and the network is empty; the completion time is the last
 * delivery. sim.warmup and sim.measure do not apply; sim.workload_cycles caps the run (reached:
 * a deadlock-like failure, said in why).
 */
/*
 * Halo3D's barrier (spec §7.8): the next iteration is released sim.halo.compute cycles after
 * every packet of the released ones was delivered. The barrier is looked at every
 * HALO_BARRIER_Q cycles, between batches: a release at a fixed cycle whatever the threads or
 * batches, up to Q − 1 cycles after the last delivery (a barrier's own latency).
 */
#define HALO_BARRIER_Q 16u

static void halo_barrier(struct dfly_fabric *fab, struct dfly_sim_result *res)
{
	struct dfly_gen *g = &fab->gen;
	uint64_t need = (uint64_t)g->halo_open * g->halo_ppi * fab->topo->nodes;

	if (g->halo_open >= g->halo_iters || fab->st.m_pkts < need)
		return;
	if (fab->halo_release == 0) {
		fab->halo_release = fab->now + fab->cfg.halo_compute;
		if (g->halo_open - 1 < DFLY_SIM_HALO_ITERS)
			res->halo_iter_end[g->halo_open - 1] = fab->st.last_delivery;
	}
	if (fab->now >= fab->halo_release) {
		dfly_gen_halo_release(g);
		fab->halo_release = 0;
	}
}

/*
 * Graph500's level end (spec §7.7, FOGSim's main loop): once every process has the broadcast,
 * the next level starts or the model ends. Looked at as Halo3D's barrier, every HALO_BARRIER_Q
 * cycles between batches.
 */
static void g5_barrier(struct dfly_fabric *fab, struct dfly_sim_result *res)
{
	struct dfly_g5 *g = fab->gen.g5;

	if (g->done || !dfly_g5_level_over(g))
		return;
	if (g->level < DFLY_G5_LEVELS)
		res->g5_level_end[g->level] = fab->st.last_delivery;
	res->g5_levels = g->level + 1;
	dfly_g5_next_level(g, fab->now);
}

static int run_workload(struct dfly_fabric *fab, struct dfly_sim_result *res, bool progress,
			double t0)
{
	const struct dfly_netcfg *cfg = &fab->cfg;
	bool halo = cfg->pattern == DFLY_PAT_HALO, g5 = cfg->pattern == DFLY_PAT_G500;
	double last = t0;
	int rc = 0;

	fab->edge.measuring = true;
	fab->halo_release = 0;
	for (uint32_t r = 0; r < fab->topo->routers; r++)
		fab->inj_at_start[r] = router_injected(fab, r);
	while (!(dfly_gen_done(&fab->gen) && fab->st.queued_src == 0 &&
		 dfly_fabric_in_flight(fab) == 0)) {
		uint64_t k;

		if (stopped(fab))
			return -EINTR;
		if (fab->now >= cfg->workload_cycles) {
			snprintf(res->why, sizeof(res->why),
				 "workload not complete after sim.workload_cycles = %llu cycles",
				 (unsigned long long)cfg->workload_cycles);
			return -ETIME;
		}
		k = to_1024(fab, cfg->workload_cycles - fab->now);
		if ((halo || g5) && k > HALO_BARRIER_Q - fab->now % HALO_BARRIER_Q)
			k = HALO_BARRIER_Q - fab->now % HALO_BARRIER_Q;
		advance(fab, k);
		if (halo)
			halo_barrier(fab, res);
		if (g5)
			g5_barrier(fab, res);
		if ((fab->now & 1023) == 0) {
			if ((rc = watchdog(fab, res->why, sizeof(res->why))) != 0)
				return rc;
			if (progress)
				progress_line(fab, cfg->workload_cycles, t0, &last);
		}
	}
	return 0;
}

/* sim.lia_remote: the firmware's running totals of R' at the start of the window. */
static void lia_remote_start(struct dfly_fabric *fab)
{
	uint32_t nk = 2 * fab->topo->h + 1;

	for (uint32_t r = 0; fab->lia_r != NULL && fab->fws != NULL && r < fab->topo->routers;
	     r++) {
		const struct lia *l = fab->fws[r] ? fw_lia(fab->fws[r]) : NULL;
		const uint64_t *sum;

		if (l == NULL)
			continue;
		sum = lia_R_sums(l, &fab->lia_n0[r]);
		memcpy(fab->lia_r0 + (size_t)r * nk, sum, nk * sizeof(*sum));
	}
}

/*
 * sim.lia_remote: R_k's mean over the window's recomputations, per router (R' = 100·h·R_k,
 * packets per window, spec §6.4's integer form) and its mean over the routers into @p res.
 */
static void lia_remote_end(struct dfly_fabric *fab, struct dfly_sim_result *res)
{
	uint32_t h = fab->topo->h, nk = 2 * h + 1, routers = 0;

	for (uint32_t r = 0; fab->lia_r != NULL && fab->fws != NULL && r < fab->topo->routers;
	     r++) {
		const struct lia *l = fab->fws[r] ? fw_lia(fab->fws[r]) : NULL;
		const uint64_t *sum;
		uint64_t n;

		if (l == NULL)
			continue;
		sum = lia_R_sums(l, &n);
		if (n == fab->lia_n0[r])
			continue;
		for (uint32_t i = 0; i < nk; i++) {
			double v = (double)(sum[i] - fab->lia_r0[(size_t)r * nk + i]) /
				   ((double)(n - fab->lia_n0[r]) * 100.0 * h);

			fab->lia_r[(size_t)r * nk + i] = v;
			res->lia_r[i] += v;
		}
		routers++;
	}
	for (uint32_t i = 0; routers && i < nk; i++)
		res->lia_r[i] /= routers;
	res->lia_r_routers = routers;
}

int dfly_fabric_run(struct dfly_fabric *fab, struct dfly_sim_result *res, bool progress)
{
	const struct dfly_netcfg *cfg = &fab->cfg;
	uint64_t total = cfg->warmup + cfg->measure;
	double t0 = now_s(), last = t0;
	int rc = 0;

	memset(res, 0, sizeof(*res));
	if (dfly_netcfg_workload(cfg)) {
		rc = run_workload(fab, res, progress, t0);
		if (rc == -EINTR)
			goto interrupted;
		total = fab->now; /* the loop below does not run */
	}
	while (fab->now < total) {
		uint64_t k;

		if (stopped(fab))
			goto interrupted;

		if (fab->now == cfg->warmup) {
			fab->edge.measuring = true;
			for (uint32_t r = 0; r < fab->topo->routers; r++)
				fab->inj_at_start[r] = router_injected(fab, r);
			lia_remote_start(fab);
		}
		/* to the next multiple of 1024, the window's start or the end */
		k = to_1024(fab, total - fab->now);
		if (fab->now < cfg->warmup && cfg->warmup - fab->now < k)
			k = cfg->warmup - fab->now;
		advance(fab, k);
		if ((fab->now & 1023) == 0) {
			if ((rc = watchdog(fab, res->why, sizeof(res->why))) != 0)
				break;
			if (progress)
				progress_line(fab, total, t0, &last);
		}
	}
	fab->edge.measuring = false;
	for (uint32_t r = 0; r < fab->topo->routers; r++)
		fab->inj_in_win[r] = router_injected(fab, r) - fab->inj_at_start[r];
	finish_stats(fab, res);
	if (!dfly_netcfg_workload(cfg))
		lia_remote_end(fab, res);
	res->deadlock = rc != 0;

	/* drain: stop the sources and let the network empty */
	dfly_fabric_set_load(fab, 0);
	if (rc == 0) {
		uint64_t limit = fab->now + cfg->drain;

		while ((dfly_fabric_in_flight(fab) || fab->st.queued_src || crt_held(fab)) &&
		       fab->now < limit) {
			one_cycle(fab);
			if ((fab->now & 1023) == 0 && stopped(fab))
				goto interrupted;
			if ((fab->now & 1023) == 0 &&
			    (rc = watchdog(fab, res->why, sizeof(res->why))) != 0) {
				res->deadlock = true;
				break;
			}
		}
		/* let the last credits travel home over the slowest link */
		uint32_t lat = cfg->lat_global > cfg->lat_local ? cfg->lat_global : cfg->lat_local;

		if (rc == 0)
			advance(fab, lat + 2 * cfg->pipe_xbar + 2);
	}
	res->in_flight = dfly_fabric_in_flight(fab);
	res->drained = res->in_flight == 0 && fab->st.queued_src == 0;
	res->gen_total = fab->st.gen_total;
	res->dlv_total = fab->st.dlv_total;
	res->drop_inj = fab->st.drop_inj;
	res->drop_fabric = fab->st.drop_fabric;
	res->cycles = fab->now;
	if (rc == 0) {
		res->invariants_ok = dfly_fabric_check_invariants(fab, res->drained, res->why,
								  sizeof(res->why)) == 0;
		if (res->invariants_ok && !res->drained)
			snprintf(res->why, sizeof(res->why),
				 "not drained after %llu cycles: %llu packets in flight",
				 (unsigned long long)cfg->drain,
				 (unsigned long long)res->in_flight);
	}
	for (uint32_t r = 0; r < fab->topo->routers; r++)
		asic_sync_gauges(fab->asics[r]);
	res->wall_s = now_s() - t0;
	if (progress && isatty(2) && res->wall_s > 3.0)
		fprintf(stderr, "%60s\r", "");
	return rc;
interrupted:
	res->interrupted = true;
	res->cycles = fab->now;
	res->wall_s = now_s() - t0;
	snprintf(res->why, sizeof(res->why), "interrupted at cycle %llu",
		 (unsigned long long)fab->now);
	if (progress && isatty(2) && res->wall_s > 3.0)
		fprintf(stderr, "%60s\r", "");
	return -EINTR;
}

uint64_t dfly_fabric_inj_window(const struct dfly_fabric *fab, uint32_t r)
{
	return r < fab->topo->routers ? fab->inj_in_win[r] : 0;
}

void dfly_fabric_dump_counters(const struct dfly_fabric *fab, FILE *f)
{
	for (uint32_t r = 0; r < fab->topo->routers; r++) {
		dfly_regs_dump(fab->regs[r], f);
		if (fab->fws[r] != NULL)
			fw_dump(fab->fws[r], f);
		if (fab->inj_in_win[r])
			fprintf(f, "  sim.inj_window %llu\n",
				(unsigned long long)fab->inj_in_win[r]);
		/* sim.lia_remote: R_k's mean over the window, packets per routing.lia.window */
		for (uint32_t i = 0; fab->lia_r != NULL && i < 2 * fab->topo->h + 1; i++)
			if (i != fab->topo->h)
				fprintf(f, "  sim.lia_remote.R%+d %.4f\n",
					(int)i - (int)fab->topo->h,
					fab->lia_r[(size_t)r * (2 * fab->topo->h + 1) + i]);
	}
}

void dfly_fabric_sync_gauges(struct dfly_fabric *fab)
{
	for (uint32_t r = 0; r < fab->topo->routers; r++)
		asic_sync_gauges(fab->asics[r]);
}

const struct dfly_regs *dfly_fabric_regs(const struct dfly_fabric *fab, uint32_t r)
{
	return fab->regs[r];
}

const struct asic *dfly_fabric_asic(const struct dfly_fabric *fab, uint32_t r)
{
	return fab->asics[r];
}

const struct fw *dfly_fabric_fw(const struct dfly_fabric *fab, uint32_t r)
{
	return fab->fws != NULL ? fab->fws[r] : NULL;
}

const struct dfly_topo *dfly_fabric_topo(const struct dfly_fabric *fab)
{
	return fab->topo;
}

uint64_t dfly_fabric_now(const struct dfly_fabric *fab)
{
	return fab->now;
}

void dfly_fabric_totals(const struct dfly_fabric *fab, uint64_t *gen, uint64_t *dlv,
			uint64_t *drop_inj)
{
	*gen = fab->st.gen_total;
	*dlv = fab->st.dlv_total;
	*drop_inj = fab->st.drop_inj;
}

int dfly_fabric_fw_set_stopped(struct dfly_fabric *fab, uint32_t r, bool stopped)
{
	if (r >= fab->topo->routers || fab->shm != NULL)
		return -EINVAL;
	if (fab->fw_stopped == NULL) {
		fab->fw_stopped = calloc(fab->topo->routers, sizeof(*fab->fw_stopped));
		if (fab->fw_stopped == NULL)
			return -ENOMEM;
	}
	fab->fw_stopped[r] = stopped;
	return 0;
}
