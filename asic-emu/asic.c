/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The switch ASIC model (asic.h): lifecycle, the per-step table acquisition, the choice of the
 * route stage and allocator specialised for the mode register (asic_mode_ops), and the
 * orchestration of one cycle; the stages live in their own files (link.c, queue.c, cpu.c,
 * alloc.c, cc.c, failover.c, the route stage in route_obl.c, route_src.c, route_transit.c).
 * CIOQ + VCT + credits + speedup + separable allocator + route stage. See spec §2–§4 and asic.h
 * for the timing model. Per cycle, asic_step() does, in order:
 *   1. credits due on the reverse links are added to the output credit counters;
 *   2. packets due on the input links enter their input VC (the VC chosen upstream);
 *   3. the output stage frees the FIFO space of tails that left and starts the next packet on
 *      every free link (ejection to the node on terminal ports);
 *   4. S allocator ticks: release input space of tails that crossed the crossbar (returning
 *      credits upstream), then input arbitration (one feasible VC per free input), then output
 *      arbitration (one input per free output), then grants (credits and output space reserved).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asic_priv.h"
#include "dfly/log.h"

/* The route stage and allocator of every mode; a mode register outside the enum routes as UGAL-L
 * (what the route stage did with one before it was specialised). */
const struct asic_mode_ops asic_mode_ops[DFLY_MODE_COUNT] = {
#define X(M, ...)                                                                                  \
	[DFLY_MODE_##M] = {                                                                        \
	    .route = asic_route_##M,                                                               \
	    .allocate = asic_alloc_##M,                                                            \
	    .cc_filter = DFLY_MODE_##M == DFLY_MODE_FILTERED,                                      \
	},
    ASIC_FOREACH_MODE(X)
#undef X
};

#define X(M, ...) +1
_Static_assert(0 ASIC_FOREACH_MODE(X) == DFLY_MODE_COUNT, "ASIC_FOREACH_MODE misses a mode");
#undef X

/* Specialise the ASIC for the mode register as it is now (asic_create, and every step boundary
 * at which it changed). */
void asic_mode_pick(struct asic *as)
{
	uint32_t mode = as->regs->knobs.mode;

	as->mode = mode;
	as->ops = &asic_mode_ops[mode < DFLY_MODE_COUNT ? mode : DFLY_MODE_UGAL];
	/* CRT's state, the first time the router runs it (out of memory: credits are not held) */
	if (mode == DFLY_MODE_CRT && asic_crt_enable(as) < 0)
		dfly_log(DFLY_LOG_ASIC, DFLY_LOG_ERR,
			 "router %u: no memory for CRT's timestamp queues: credits are not held",
			 as->router);
	/* RES's state likewise (out of memory: packets route without reservations) */
	if (mode == DFLY_MODE_RES && asic_res_enable(as) < 0)
		dfly_log(DFLY_LOG_ASIC, DFLY_LOG_ERR,
			 "router %u: no memory for RES's reservation state: routing without it",
			 as->router);
}

struct asic *asic_create(const struct dfly_topo *topo, uint32_t router,
			 const struct asic_params *par, struct dfly_regs *regs, uint64_t seed)
{
	struct asic *as;

	if (topo == NULL || par == NULL || regs == NULL || router >= topo->routers ||
	    par->speedup == 0 || par->alloc_iters == 0 || par->phit_bytes == 0 ||
	    topo->radix > 64) {
		errno = EINVAL;
		return NULL;
	}
	for (int k = 0; k < 3; k++)
		if (par->vcs[k] == 0 || par->vcs[k] > DFLY_MAX_VCS || par->buf[k] == 0) {
			errno = EINVAL;
			return NULL;
		}
	as = calloc(1, sizeof(*as));
	if (as == NULL)
		return NULL;
	as->topo = topo;
	as->par = *par;
	as->regs = regs;
	as->router = router;
	as->group = router / topo->a;
	as->radix = topo->radix;
	as->p = topo->p;
	as->min_len = par->min_pkt_phits ? par->min_pkt_phits : 1;
	dfly_rng_seed(&as->rng, seed, 0x100000000ull + router);
	as->min_grp = malloc((size_t)topo->g * topo->t);
	if (as->min_grp == NULL)
		goto out_free;
	for (uint32_t rho = 0; rho < topo->a; rho++)
		as->min_loc[rho] = (uint8_t)dfly_topo_min_port(
		    topo, router, as->group * topo->a + rho, (as->group * topo->a + rho) * topo->p);
	for (uint32_t D = 0; D < topo->g; D++)
		for (uint32_t k = 0; k < topo->t && D != as->group; k++)
			/* min_port reads dst_node only for the trunk: dst_node % t == k */
			as->min_grp[D * topo->t + k] =
			    (uint8_t)dfly_topo_min_port(topo, router, D * topo->a, k);
	dfly_regs_init(regs, router, topo->radix);
	regs->ngroups = topo->g;

	for (uint32_t i = 0; i < as->radix; i++) {
		struct asic_in *in = &as->in[i];
		struct asic_out *out = &as->out[i];
		uint32_t kind = dfly_topo_port_kind(topo, i);

		in->kind = kind;
		in->nvc = par->vcs[kind];
		regs->nvcs[i] = in->nvc;
		if (par->damq && kind != DFLY_PORT_TERMINAL &&
		    par->damq_res[kind] < par->buf[kind]) {
			/* spec §3.9: the port's memory, buf × VCs, is each VC's reserve plus a pool
			 */
			in->damq_res = par->damq_res[kind];
			in->pool_cap = (par->buf[kind] - in->damq_res) * in->nvc;
		}
		if (par->damq && kind != DFLY_PORT_TERMINAL)
			in->damq_pen = par->damq_penalty;
		for (uint32_t v = 0; v < in->nvc; v++) {
			struct asic_ivc *q = &in->vc[v];
			uint32_t cap =
			    in->pool_cap != 0 ? in->damq_res + in->pool_cap : par->buf[kind];
			uint32_t n = pow2_at_least(cap / as->min_len + 1);

			q->cap = cap;
			q->mask = n - 1;
			q->ring = calloc(n, sizeof(*q->ring));
			if (q->ring == NULL)
				goto out_free;
		}
		out->kind = kind;
		out->cap = par->buf_out;
		out->mask = pow2_at_least(par->buf_out / as->min_len + 1) - 1;
		out->fifo = calloc(out->mask + 1, sizeof(*out->fifo));
		if (out->fifo == NULL)
			goto out_free;
		if (kind != DFLY_PORT_TERMINAL) {
			uint32_t cap = par->buf[kind];

			out->ncvc = par->vcs[kind];
			/* the downstream input has the same kind and VCs (links join like ports) */
			if (par->damq && par->damq_res[kind] < par->buf[kind]) {
				out->damq_res = par->damq_res[kind];
				out->pool_cap = (par->buf[kind] - out->damq_res) * out->ncvc;
				cap = out->damq_res + out->pool_cap;
			}
			for (uint32_t v = 0; v < out->ncvc; v++) {
				out->credits[v] = (int32_t)cap;
				out->credit_cap[v] = cap;
				regs->vc_gauge[i][v][DFLY_VC_CREDITS] = cap;
			}
			regs->vc_cap[i] = cap;
		}
	}
	/* per cycle at most one ejection per terminal port and one drop per incoming link; the
	 * driver drains every cycle, so twice that never fills */
	as->ej_mask = pow2_at_least(2 * (topo->radix + topo->p) + 4) - 1;
	as->ej = calloc(as->ej_mask + 1, sizeof(*as->ej));
	as->cal = calloc(ASIC_CAL_SLOTS, sizeof(*as->cal));
	if (as->ej == NULL || as->cal == NULL)
		goto out_free;
	as->tbl_pb = &regs->tables[0].pb;
	as->tbl_ectn = &regs->tables[0].ectn;
	as->tbl_fail = &regs->tables[0].fail;
	/* once the ports exist: CRT's and RES's state is sized by them */
	asic_mode_pick(as);
	return as;

out_free:
	asic_destroy(as);
	errno = ENOMEM;
	return NULL;
}

void asic_destroy(struct asic *as)
{
	if (as == NULL)
		return;
	for (uint32_t i = 0; i < DFLY_MAX_PORTS; i++) {
		for (uint32_t v = 0; v < DFLY_MAX_VCS; v++)
			free(as->in[i].vc[v].ring);
		free(as->out[i].fifo);
	}
	asic_crt_free(as);
	asic_res_free(as);
	free(as->ej);
	free(as->cal);
	free(as->min_grp);
	free(as);
}

uint32_t asic_router_id(const struct asic *as)
{
	return as->router;
}

int asic_port_set_down(struct asic *as, uint32_t port, bool down)
{
	uint64_t bit;

	if (port >= as->radix || as->out[port].kind == DFLY_PORT_TERMINAL)
		return -EINVAL;
	bit = 1ull << port;
	if (down)
		atomic_fetch_or_explicit(&as->regs->ports_down, bit, memory_order_relaxed);
	else
		atomic_fetch_and_explicit(&as->regs->ports_down, ~bit, memory_order_relaxed);
	return 0; /* the next step sees it (acquire_tables), and notes when it went down */
}

bool asic_port_is_down(const struct asic *as, uint32_t port)
{
	return port < DFLY_MAX_PORTS &&
	       ((atomic_load_explicit(&as->regs->ports_down, memory_order_relaxed) >> port) & 1u);
}

uint32_t asic_min_port(const struct asic *as, uint32_t dst_node)
{
	uint32_t dst_router = dst_node / as->topo->p;

	return min_port_to(as, dst_node, dst_router, dst_router / as->topo->a);
}

/* At a step boundary: switch every table to its last published bank and acknowledge it (a
 * table no mode reads yet is acknowledged too, so its writer is never blocked), and specialise
 * the ASIC again if the mode register changed. */
void asic_acquire_tables(struct asic *as, uint64_t now)
{
	static const struct dfly_regs_tables none; /* safe mode: nothing from the firmware */
	const struct dfly_tbl_ectn *e = dfly_regs_tbl_acquire(as->regs, DFLY_TBL_ECTN);
	const struct dfly_tbl_pb *pb = dfly_regs_tbl_acquire(as->regs, DFLY_TBL_PB);
	const struct dfly_tbl_ugal *ug = dfly_regs_tbl_acquire(as->regs, DFLY_TBL_UGAL);
	const struct dfly_tbl_lia *lia = dfly_regs_tbl_acquire(as->regs, DFLY_TBL_LIA);
	const struct dfly_tbl_fail *fail = dfly_regs_tbl_acquire(as->regs, DFLY_TBL_FAIL);
	uint32_t ttl = as->regs->knobs.fw_ttl;

	/* a firmware silent for fw_ttl cycles (heartbeat = 1 + its last tick) is taken for
	 * stopped: its tables age out, routing falls back to local information */
	as->fw_dead =
	    ttl != 0 && now >= ttl &&
	    atomic_load_explicit(&as->regs->fw.heartbeat, memory_order_acquire) + ttl <= now + 1;
	if (as->fw_dead) {
		e = &none.ectn;
		pb = &none.pb;
		ug = &none.ugal;
		lia = &none.lia;
		fail = &none.fail;
		as->regs->route[DFLY_ROUTE_FW_EXPIRED]++;
	}
	{
		uint64_t down = atomic_load_explicit(&as->regs->ports_down, memory_order_relaxed);
		uint32_t fo = as->regs->knobs.failover;

		if (down != 0 || as->down_mask != 0)
			asic_track_down(as, down, now);
		/* the group view changes only with the table, the own bits or the knob */
		if (fail != as->tbl_fail || down != as->fail_down_seen || fo != as->fail_knob) {
			as->tbl_fail = fail;
			as->fail_down_seen = down;
			as->fail_knob = fo;
			asic_fail_view(as);
		}
	}
	as->tbl_pb = pb;
	if (e != as->tbl_ectn) {
		as->tbl_ectn = e;
		for (uint32_t D = 0; D < as->topo->g; D++)
			ectn_combined_update(as, D);
	}
	as->tbl_ugal = ug;
	as->tbl_lia = lia;
	/* the routing mode, like the tables, is taken at a step boundary: one compare */
	if (as->regs->knobs.mode != as->mode)
		asic_mode_pick(as);
}

void asic_set_threaded(struct asic *as, bool on)
{
	as->threaded = on;
}

void asic_set_group_view(struct asic *as, const struct asic *const *view)
{
	as->group_view = view;
}

/* The head records of the links into the inputs of @p in and out of the outputs of @p out. */
static inline void prefetch_link_heads(const struct asic *as, uint64_t in, uint64_t out)
{
	while (in) {
		const struct asic_link *l = as->in[ctz64(in)].link;

		in &= in - 1;
		__builtin_prefetch(&l->data[l->d_head & l->mask]);
	}
	while (out) {
		const struct asic_link *l = as->out[ctz64(out)].link;

		out &= out - 1;
		__builtin_prefetch(&l->credit[l->c_head & l->mask]);
	}
}

/*
 * Within a batch (a driver stepping one ASIC several cycles in a row, dfly sim's sim.batch), the
 * ASIC's own lines stay in cache, and what its steps still miss is what its neighbours wrote:
 * the link records and the packets they carry. Called before the step of cycle @p now: the
 * records due at now + 2 (their lines), and the packets of the records due at now + 1 (whose
 * lines the call before brought in). It changes nothing.
 */
void asic_prefetch_due(const struct asic *as, uint64_t now)
{
	const struct asic_cal *s2 = &as->cal[(now + 2) & ASIC_CAL_MASK];
	const struct asic_cal *s1 = &as->cal[(now + 1) & ASIC_CAL_MASK];
	uint64_t m;

	if (now + 2 - as->cal_next >= ASIC_CAL_MASK)
		return;
	prefetch_link_heads(as, __atomic_load_n(&s2->in, __ATOMIC_RELAXED),
			    __atomic_load_n(&s2->out, __ATOMIC_RELAXED));
	m = __atomic_load_n(&s1->in, __ATOMIC_RELAXED);
	while (m) {
		const struct asic_link *l = as->in[ctz64(m)].link;

		m &= m - 1;
		if (l->d_head != LOAD_ACQ(l->d_tail))
			__builtin_prefetch(l->data[l->d_head & l->mask].pkt);
	}
}

/*
 * Touch, without waiting for them, the lines the next asic_step() reads first: the head slot
 * of every incoming link's data and every outgoing link's credit line, the packet at the head
 * of every output FIFO and of every input VC. A network of hundreds of routers does not fit in
 * the core's cache, and the step is a chain of such misses; a driver that steps many ASICs in a
 * row calls this for the next one before stepping the current one (dfly bench sim: tools/dfly
 * fabric.c). It changes nothing.
 */
void asic_prefetch(const struct asic *as)
{
	/* only the links something is due on at the next step (the calendar) */
	const struct asic_cal *sl = &as->cal[as->cal_next & ASIC_CAL_MASK];
	uint64_t m;

	/* relaxed loads: senders on other threads may be marking this slot (cal_mark) */
	prefetch_link_heads(as,
			    __atomic_load_n(&sl->in, __ATOMIC_RELAXED) |
				__atomic_load_n(&as->in_far, __ATOMIC_RELAXED),
			    __atomic_load_n(&sl->out, __ATOMIC_RELAXED) |
				__atomic_load_n(&as->out_far, __ATOMIC_RELAXED));
	m = as->out_mask;
	while (m) {
		const struct asic_out *out = &as->out[ctz64(m)];

		m &= m - 1;
		if (out->head != out->tail)
			__builtin_prefetch(out->fifo[out->head & out->mask]);
	}
	m = as->in_mask;
	while (m) {
		uint32_t i = ctz64(m);
		const struct asic_in *in = &as->in[i];
		uint32_t vm = in->vc_mask;

		m &= m - 1;
		while (vm) {
			uint32_t v = (uint32_t)__builtin_ctz(vm);

			__builtin_prefetch(ivc_head(&in->vc[v]));
			/* the stall counters a blocked head adds to */
			__builtin_prefetch(&as->regs->vc_ctr[i][v][DFLY_VC_HEAD_WAIT], 1);
			vm &= vm - 1;
		}
	}
}

void asic_step(struct asic *as, uint64_t now)
{
	uint32_t S = as->par.speedup;

	uint64_t due_in = __atomic_load_n(&as->in_far, __ATOMIC_RELAXED);
	uint64_t due_out = __atomic_load_n(&as->out_far, __ATOMIC_RELAXED);

	/* the calendar slots up to now (one, unless the driver skipped cycles) */
	for (uint64_t c = as->cal_next; c <= now && c - as->cal_next < ASIC_CAL_SLOTS; c++) {
		struct asic_cal *sl = &as->cal[c & ASIC_CAL_MASK];

		due_in |= sl->in;
		due_out |= sl->out;
		sl->in = sl->out = 0;
	}
	if (now >= as->cal_next)
		__atomic_store_n(&as->cal_next, now + 1, __ATOMIC_RELAXED);
	asic_acquire_tables(as, now);
	if (due_out)
		asic_rx_credits(as, now, due_out);
	if (due_in) {
		asic_rx_data(as, now, due_in);
		asic_rx_ctrl(as, now, due_in);
	}
	/* frames the firmware queued on the CPU port: most steps have none, seen without a call */
	if (atomic_load_explicit(&as->regs->cpu_tx.head, memory_order_relaxed) !=
	    atomic_load_explicit(&as->regs->cpu_tx.tail, memory_order_acquire))
		asic_tx_cpu(as, now);
	if (as->crt != NULL && asic_crt_held(as) > 0)
		asic_crt_release(as, now);
	/* RES flits go ahead of the data on their local links */
	if (as->res != NULL)
		asic_res_tx(as, now);
	if (as->out_mask)
		asic_out_stage(as, now);
	if (as->regs->knobs.pb_inband)
		asic_pb_info_flits(as, now);
	if (as->in_mask | as->rel_mask | as->cc_rel_mask) {
		for (uint32_t s = 0; s < S; s++) {
			uint64_t tick = now * S + s;

			if (as->rel_mask)
				asic_release_inputs(as, tick, now);
			if (as->cc_rel_mask)
				asic_cc_release(as, tick);
			if (as->in_mask && (s == 0 || !as->par.alloc_once))
				as->ops->allocate(as, tick, now);
		}
	}
	if (as->ops->cc_filter)
		asic_cc_filter(as);
	if (as->regs->knobs.cc_check && asic_cc_recompute_check(as) != 0)
		as->cc_mismatch++;
	as->regs->cycle = now;
	/* the ASIC is the only writer of steps while it runs: a release store, not a locked
	 * read-modify-write (which would also drain the store buffer of this step's counters) */
	atomic_store_explicit(&as->regs->steps,
			      atomic_load_explicit(&as->regs->steps, memory_order_relaxed) + 1,
			      memory_order_release);
}

void asic_route_probe(struct asic *as, struct asic_pkt *pkt, uint32_t in_port)
{
	asic_acquire_tables(as, as->regs->cycle);
	as->tick = as->regs->cycle * as->par.speedup;
	pkt_cache(as, pkt);
	as->ops->route(as, pkt, in_port);
}

void asic_debug_set_credits(struct asic *as, uint32_t port, uint32_t vc, int32_t credits)
{
	struct asic_out *out = &as->out[port];

	out->credits[vc] = credits;
	if (out->pool_cap != 0) {
		out->pool_used = 0;
		for (uint32_t v = 0; v < out->ncvc; v++)
			out->pool_used += damq_over(out, v);
	}
	credit_gauge(as, port, vc);
}

void asic_damq_stat(const struct asic *as, uint32_t port, struct asic_damq_stat *st)
{
	const struct asic_out *out = &as->out[port];

	memset(st, 0, sizeof(*st));
	if (out->kind == DFLY_PORT_TERMINAL)
		return;
	st->reserve = out->pool_cap != 0 ? out->damq_res : out->credit_cap[0];
	st->pool_cap = out->pool_cap;
	st->pool_used = out->pool_used;
	st->pool_allocs = out->pool_allocs;
}

int32_t asic_credits_avail(const struct asic *as, uint32_t port, uint32_t vc)
{
	return credits_avail(&as->out[port], vc);
}

int asic_check_heads(const struct asic *as, char *why, unsigned len)
{
	for (uint32_t i = 0; i < as->radix; i++) {
		for (uint32_t v = 0; v < as->in[i].nvc; v++) {
			const struct asic_ivc *q = &as->in[i].vc[v];
			const struct asic_pkt *pk;

			if (q->head == q->tail)
				continue;
			pk = q->ring[q->head & q->mask];
			if (q->hd != pk || q->hd_ready != pk->ready_tick) {
				snprintf(why, len,
					 "router %u port %u VC %u: cached head %p ready %" PRIu64
					 ", ring head %p ready %" PRIu64,
					 as->router, i, v, (const void *)q->hd, q->hd_ready,
					 (const void *)pk, pk->ready_tick);
				return -1;
			}
			if (q->hd_port != UINT8_MAX &&
			    (q->hd_port != pk->out_port || q->hd_vc != pk->out_vc ||
			     q->hd_len != pk->len || (pk->flags & ASIC_PKT_DECIDING))) {
				snprintf(
				    why, len,
				    "router %u port %u VC %u: cached route port %u VC %u len %u, "
				    "head packet's port %u VC %u len %u flags %#x",
				    as->router, i, v, q->hd_port, q->hd_vc, q->hd_len, pk->out_port,
				    pk->out_vc, pk->len, pk->flags);
				return -1;
			}
		}
	}
	return 0;
}

uint64_t asic_pkts_held(const struct asic *as)
{
	return as->held;
}

void asic_sync_gauges(struct asic *as)
{
	for (uint32_t i = 0; i < as->radix; i++) {
		for (uint32_t v = 0; v < as->in[i].nvc; v++) {
			as->regs->vc_gauge[i][v][DFLY_VC_OCC] = as->in[i].vc[v].occ;
			as->regs->vc_gauge[i][v][DFLY_VC_OCC_HWM] = as->in[i].vc[v].hwm;
		}
		for (uint32_t v = 0; v < as->out[i].ncvc; v++)
			as->regs->vc_gauge[i][v][DFLY_VC_CREDITS] = as->out[i].credits[v];
	}
}

int asic_check_drained(const struct asic *as, char *why, unsigned len)
{
	if (as->cc_mismatch) {
		snprintf(why, len,
			 "router %u: the recomputed contention counters differed in %llu "
			 "cycles (routing.cc.check)",
			 as->router, (unsigned long long)as->cc_mismatch);
		return -EBUSY;
	}
	if (as->held || as->rel_mask || as->out_mask || as->cc_rel_mask) {
		snprintf(why, len, "router %u: %llu packets held, rel 0x%llx, out 0x%llx",
			 as->router, (unsigned long long)as->held, (unsigned long long)as->rel_mask,
			 (unsigned long long)as->out_mask);
		return -EBUSY;
	}
	for (uint32_t i = 0; i < as->radix; i++) {
		for (uint32_t v = 0; v < as->in[i].nvc; v++)
			if (as->in[i].vc[v].occ != 0 || ivc_count(&as->in[i].vc[v]) != 0) {
				snprintf(why, len, "router %u port %u vc %u: occupancy %u",
					 as->router, i, v, as->in[i].vc[v].occ);
				return -EBUSY;
			}
		if (as->out[i].occ != 0) {
			snprintf(why, len, "router %u output %u: occupancy %u", as->router, i,
				 as->out[i].occ);
			return -EBUSY;
		}
		if (as->regs->mech.cc[i] != 0) {
			snprintf(why, len,
				 "router %u: contention counter of output %u is %u in an "
				 "empty router",
				 as->router, i, as->regs->mech.cc[i]);
			return -EBUSY;
		}
		for (uint32_t v = 0; v < as->in[i].nvc; v++)
			if (as->in[i].reply_resv[v] != 0) {
				snprintf(why, len,
					 "router %u node port %u vc %u: %u phits kept for replies "
					 "never injected (traffic.reply = consume)",
					 as->router, i, v, as->in[i].reply_resv[v]);
				return -EBUSY;
			}
		if (as->out[i].req_pend != 0) {
			snprintf(why, len,
				 "router %u node port %u: %u requests counted as granted to it in "
				 "an empty router (traffic.reply = consume)",
				 as->router, i, as->out[i].req_pend);
			return -EBUSY;
		}
		if (as->out[i].pool_used != 0) {
			snprintf(why, len, "router %u output %u: DAMQ pool holds %u phits",
				 as->router, i, as->out[i].pool_used);
			return -EBUSY;
		}
		for (uint32_t v = 0; v < as->out[i].ncvc; v++)
			if (as->out[i].min_occ[v] != 0) {
				snprintf(why, len,
					 "router %u output %u vc %u: minCred counts %d phits of "
					 "minimal packets downstream in an empty network",
					 as->router, i, v, as->out[i].min_occ[v]);
				return -EBUSY;
			}
		for (uint32_t v = 0; v < as->out[i].ncvc; v++)
			if (as->out[i].credits[v] != (int32_t)as->out[i].credit_cap[v]) {
				snprintf(why, len,
					 "router %u output %u vc %u: %d credits, expected %u",
					 as->router, i, v, as->out[i].credits[v],
					 as->out[i].credit_cap[v]);
				return -EBUSY;
			}
	}
	if (asic_res_check_drained(as, why, len) != 0)
		return -EBUSY;
	for (uint32_t D = 0; D < as->topo->g; D++) {
		if (as->regs->mech.ectn_partial[D] != 0) {
			snprintf(why, len, "router %u: ECtN partial[%u] is %u in an empty router",
				 as->router, D, as->regs->mech.ectn_partial[D]);
			return -EBUSY;
		}
		if (as->regs->mech.lia_stored[D] != 0) {
			snprintf(why, len, "router %u: LIA stored[%u] is %u in an empty router",
				 as->router, D, as->regs->mech.lia_stored[D]);
			return -EBUSY;
		}
	}
	return 0;
}
