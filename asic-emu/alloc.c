/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The separable allocator of the switch ASIC model (step stage 4, S ticks per cycle): release of
 * the input space of tails that crossed the crossbar (credits upstream), input arbitration (one
 * feasible VC per free input, the route stage evaluated on its head), output arbitration (one
 * input per free output), and the grant (credits and output space reserved, decision counted).
 * One instance per routing mode, its mode a compile-time constant (asic_priv.h,
 * ASIC_FOREACH_MODE), calling that mode's route stage directly.
 */
#include "asic_priv.h"

/* Path kinds of spec §6.7 at the injection grant: minimal, or the shape of Path A. */
static void count_path(struct asic *as, const struct asic_pkt *pk)
{
	const struct dfly_topo *t = as->topo;
	struct dfly_hop hops[3];
	unsigned n;

	if (pk->dst_node / t->p / t->a == as->group)
		return;
	if (pk->val_router == ASIC_NONE) {
		if (!(pk->flags & ASIC_PKT_NONMIN))
			as->regs->route[DFLY_ROUTE_PATH_MIN]++;
		return;
	}
	n = dfly_topo_min_path(t, as->router, pk->val_router, pk->dst_node, hops);
	if (n == 1 && hops[0].kind == DFLY_PORT_GLOBAL)
		as->regs->route[DFLY_ROUTE_PATH_G]++;
	else if (n == 2 && hops[0].kind == DFLY_PORT_GLOBAL)
		as->regs->route[DFLY_ROUTE_PATH_GL]++;
	else if (n == 2)
		as->regs->route[DFLY_ROUTE_PATH_LG]++;
	else if (n == 3)
		as->regs->route[DFLY_ROUTE_PATH_LGL]++;
}

void asic_release_inputs(struct asic *as, uint64_t tick, uint64_t now)
{
	uint64_t m = as->rel_mask;

	while (m) {
		uint32_t i = ctz64(m);
		struct asic_in *in = &as->in[i];

		m &= m - 1;
		if (in->rel_tick > tick)
			continue;
		in->vc[in->rel_vc].occ -= in->rel_len;
		as->regs->vc_ctr[i][in->rel_vc][DFLY_VC_DEQ_PKTS]++;
		if (as->crt != NULL && in->link != NULL && in->kind == DFLY_PORT_LOCAL &&
		    as->out[in->rel_out].kind == DFLY_PORT_GLOBAL) {
			/* CRT: the credit of a packet leaving a local input for a global channel
			 * waits out that channel's extra round trip (spec §4.8) */
			uint32_t d = asic_crt_delay(as, in->rel_out);

			if (d > 0 &&
			    asic_crt_hold(as, i, in->rel_vc, in->rel_len, in->rel_min, d, now)) {
				as->rel_mask &= ~(1ull << i);
				continue;
			}
		}
		if (in->link != NULL) {
			link_put_credit(in->link, in->rel_vc, in->rel_len, now + in->link->latency,
					in->rel_min);
			as->regs->port_ctr[i][DFLY_CREDITS_TX] += in->rel_len;
		}
		as->rel_mask &= ~(1ull << i);
	}
}

/* Pick one index of @p mask (bits < n) by @p policy; key[] holds LRS/age keys (lower wins). */
static inline uint32_t arbitrate(enum dfly_arb policy, uint64_t mask, uint32_t ptr,
				 const uint64_t *key)
{
	if (policy == DFLY_ARB_RR) {
		uint64_t hi = ptr < 64 ? mask & (~0ull << ptr) : 0;

		return ctz64(hi ? hi : mask);
	} else {
		uint32_t best = ctz64(mask);
		uint64_t m = mask & (mask - 1);

		while (m) {
			uint32_t j = ctz64(m);

			m &= m - 1;
			if (key[j] < key[best])
				best = j;
		}
		return best;
	}
}

/* traffic.reply = consume: a request to a node port held at the crossbar (reply_admit()) */
static inline bool reply_held(const struct asic *as, const struct asic_pkt *pk)
{
	return pk->out_port < as->p && reply_gated(as, pk) && !reply_admit(as, pk);
}

static inline bool feasible(const struct asic *as, const struct asic_pkt *pk, uint64_t tick)
{
	return !reply_held(as, pk) && port_feasible(as, pk->out_port, pk->out_vc, pk->len, tick);
}

static ASIC_ALWAYS_INLINE void grant(struct asic *as, uint32_t i, uint32_t v, uint64_t tick,
				     uint64_t now)
{
	struct asic_in *in = &as->in[i];
	struct asic_ivc *q = &in->vc[v];
	struct asic_pkt *pk = ivc_head(q);
	struct asic_out *out = &as->out[pk->out_port];
	uint32_t o = pk->out_port, S = as->par.speedup;
	uint64_t arr = pk->ready_tick / S - as->par.pipe_route - in->damq_pen;
	uint32_t ser = ser_cycles(as, pk);
	uint64_t end = tick + ser;
	struct dfly_regs *regs = as->regs;

	/* cut-through: the crossbar cannot outrun the phits still arriving on the input link */
	if ((arr + ser) * S > end)
		end = (arr + ser) * S;
	q->head++;
	if (q->head != q->tail) {
		q->hd = q->ring[q->head & q->mask];
		q->hd_ready = q->hd->ready_tick;
		q->hd_port = UINT8_MAX;
	}
	/* the packet after the new head is the next one whose descriptor the allocator and the
	 * counters read: deep buffers leave it cold (dfly bench dataplane) */
	if (q->tail - q->head > 1)
		__builtin_prefetch(q->ring[(q->head + 1) & q->mask]);
	cc_crossing(as, i, pk, end);
	if (q->head == q->tail) {
		in->vc_mask &= ~(1u << v);
		if (in->vc_mask == 0)
			as->in_mask &= ~(1ull << i);
	} else {
		asic_cc_head(as, i, ivc_head(q));
	}
	in->busy_until = end;
	in->rel_tick = as->par.credit_at_tail ? end : tick;
	in->rel_len = pk->len;
	in->rel_vc = (uint8_t)v;
	in->rel_out = (uint8_t)o;
	in->rel_min = (pk->flags & ASIC_PKT_MINCRED) != 0;
	as->rel_mask |= 1ull << i;
	if (!as->par.credit_at_tail)
		asic_release_inputs(as, tick, now);
	in->rr = (v + 1) % in->nvc;
	in->last_served = tick;

	out->busy_until = end;
	out->occ += pk->len;
	out->rr = i + 1;
	if (out->kind != DFLY_PORT_TERMINAL)
		credit_take(out, pk->out_vc, pk->len);
	else if (reply_gated(as, pk))
		out->req_pend++;
	/* minCred: the hop's minimal phits, counted until their credit comes back flagged */
	pk->flags &= (uint16_t)~ASIC_PKT_MINCRED;
	if (regs->knobs.mincred && out->kind != DFLY_PORT_TERMINAL &&
	    !(pk->flags & (ASIC_PKT_NONMIN | ASIC_PKT_NOINTER))) {
		out->min_occ[pk->out_vc] += pk->len;
		pk->flags |= ASIC_PKT_MINCRED;
	}
	out->fifo[out->tail++ & out->mask] = pk;
	as->out_mask |= 1ull << o;

	regs->port_ctr[i][DFLY_XBAR_IN_GRANTS]++;
	regs->port_ctr[o][DFLY_XBAR_OUT_GRANTS]++;
	pk->flags |= pk->pend_flags;
	pk->flags &= (uint16_t)~ASIC_PKT_DECIDING; /* the decision is fixed when granted */
	pk->dec.reason = pk->reason;
	pk->dec.trig = pk->trig;
	if (in->kind == DFLY_PORT_TERMINAL) {
		enum dfly_route_ctr inj;

		pk->inj_cycle = now;
		if (pk->flags & ASIC_PKT_NOINTER)
			inj = DFLY_ROUTE_INJ_MIN_NO_INTERMEDIATE;
		else if (pk->val_router != ASIC_NONE)
			inj = DFLY_ROUTE_INJ_VAL;
		else if (pk->flags & ASIC_PKT_NONMIN)
			inj = DFLY_ROUTE_INJ_GLOBAL_MISROUTE;
		else
			inj = DFLY_ROUTE_INJ_MIN;
		regs->route[inj]++;
		/* a trace names the injection decision when no reason counter did */
		if (pk->dec.reason == ASIC_REASON_NONE)
			pk->dec.reason = (uint8_t)inj;
		count_path(as, pk);
	}
	if (pk->reason != ASIC_REASON_NONE) {
		regs->route[pk->reason]++;
		pk->reason = ASIC_REASON_NONE;
	}
	if (pk->trig != ASIC_REASON_NONE) {
		regs->route[pk->trig]++;
		pk->trig = ASIC_REASON_NONE;
	}
	switch (out->kind) {
	case DFLY_PORT_LOCAL:
		pk->lhops++;
		pk->grp_lhops++;
		regs->route[DFLY_ROUTE_HOP_LOCAL]++;
		break;
	case DFLY_PORT_GLOBAL:
		if (pk->flags & ASIC_PKT_RES_MIN) {
			/* RES: the reserved phits leave R of the channel they reserved */
			asic_res_sent(as, pk, o);
			pk->flags &= (uint16_t)~ASIC_PKT_RES_MIN;
		}
		pk->ghops++;
		pk->grp_lhops = 0;
		pk->flags &= (uint16_t) ~(ASIC_PKT_MANDATORY_GLOBAL | ASIC_PKT_LMIS_DONE);
		regs->route[DFLY_ROUTE_HOP_GLOBAL]++;
		break;
	default:
		regs->route[DFLY_ROUTE_EJECT]++;
		break;
	}
	if (out->kind != DFLY_PORT_TERMINAL)
		credit_gauge(as, o, pk->out_vc);
	regs->vc_ctr[o][pk->out_vc][DFLY_VC_OUT_VC_PKTS]++;
	pk->vc = pk->out_vc;
	/* from here: cycle the head is in the FIFO (a DAMQ input adds its read penalty) */
	pk->ready_tick = now + as->par.pipe_xbar + in->damq_pen;
}

/* The route stage of mode @p M: a direct call, the switch folded away. */
static ASIC_ALWAYS_INLINE void route(struct asic *as, struct asic_pkt *pk, uint32_t in_port,
				     const uint32_t M)
{
	switch (M) {
#define X(M_, ...)                                                                                 \
	case DFLY_MODE_##M_:                                                                       \
		asic_route_##M_(as, pk, in_port);                                                  \
		break;
		ASIC_FOREACH_MODE(X)
#undef X
	}
}

/* One allocator tick of mode @p M. */
static ASIC_ALWAYS_INLINE void allocate(struct asic *as, uint64_t tick, uint64_t now,
					const uint32_t M)
{
	const struct asic_params *par = &as->par;
	struct dfly_regs *regs = as->regs;
	uint64_t req_in[DFLY_MAX_PORTS]; /* per output: requesting inputs */
	uint8_t req_vc[DFLY_MAX_PORTS];  /* per input: the VC it requests with */
	uint64_t age_key[DFLY_MAX_PORTS];
	uint64_t lrs_key[DFLY_MAX_PORTS];
	uint64_t matched = 0;
	const bool olm = asic_mode_in_transit(M);
	bool reeval = regs->knobs.reevaluate;

	for (uint32_t it = 0; it < par->alloc_iters; it++) {
		uint64_t outs = 0, m = as->in_mask & ~matched;

		while (m) {
			uint32_t i = ctz64(m);
			struct asic_in *in = &as->in[i];
			uint64_t cand = 0, key[DFLY_MAX_VCS];
			uint32_t vm = in->vc_mask, v;

			m &= m - 1;
			if (in->busy_until > tick)
				continue;
			while (vm) {
				struct asic_pkt *pk;
				struct asic_ivc *q;

				v = (uint32_t)__builtin_ctz(vm);
				vm &= vm - 1;
				q = &in->vc[v];
				if (q->hd_ready > tick)
					continue;
				/* a settled head that cannot go: counted without loading it */
				if (q->hd_port != UINT8_MAX && !olm &&
				    !((as->down_mask >> q->hd_port) & 1u) &&
				    !port_feasible(as, q->hd_port, q->hd_vc, q->hd_len, tick)) {
					if (it == 0) {
						regs->vc_ctr[i][v][DFLY_VC_HEAD_WAIT]++;
						if (!has_credits(as, q->hd_port, q->hd_vc,
								 q->hd_len))
							regs->vc_ctr[i][v][DFLY_VC_CREDIT_STALL]++;
					}
					continue;
				}
				pk = ivc_head(q);
				if (pk->out_port == UINT8_MAX ||
				    (it == 0 &&
				     (olm || (reeval && (pk->flags & ASIC_PKT_DECIDING)))) ||
				    (it == 0 && ((as->down_mask >> pk->out_port) & 1u))) {
					as->tick = tick;
					route(as, pk, i, M);
				}
				if (pk->vc_allow & (pk->vc_allow - 1))
					asic_flex_pick(as, pk);
				else if (!olm && !(pk->flags & ASIC_PKT_DECIDING) &&
					 pk->out_port != UINT8_MAX) {
					q->hd_port = pk->out_port;
					q->hd_vc = pk->out_vc;
					q->hd_len = pk->len;
				}
				if (feasible(as, pk, tick)) {
					cand |= 1ull << v;
					key[v] = par->in_arb == DFLY_ARB_AGE
						     ? pk->gen_cycle
						     : in->vc[v].last_served;
				} else if (it == 0) {
					regs->vc_ctr[i][v][DFLY_VC_HEAD_WAIT]++;
					if (!has_credits(as, pk->out_port, pk->out_vc, pk->len))
						regs->vc_ctr[i][v][DFLY_VC_CREDIT_STALL]++;
					if (reply_held(as, pk))
						regs->port_ctr[pk->out_port][DFLY_REPLY_WAIT]++;
				}
			}
			if (cand == 0)
				continue;
			v = arbitrate(par->in_arb, cand, in->rr, key);
			in->vc[v].last_served = tick;
			/* router.input_rr = "request": the turn passes, granted or not */
			if (par->in_rr_request)
				in->rr = (v + 1) % in->nvc;
			{
				struct asic_pkt *pk = ivc_head(&in->vc[v]);
				uint32_t o = pk->out_port;

				if (!(outs & (1ull << o))) {
					outs |= 1ull << o;
					req_in[o] = 0;
				}
				req_in[o] |= 1ull << i;
				req_vc[i] = (uint8_t)v;
				age_key[i] = pk->gen_cycle;
				lrs_key[i] = in->last_served;
			}
		}
		if (outs == 0)
			break;
		while (outs) {
			uint32_t o = ctz64(outs), i;
			uint64_t reqs = req_in[o];

			outs &= outs - 1;
			if (as->regs->knobs.in_transit_priority) {
				uint64_t transit = reqs & ~((1ull << as->p) - 1);

				if (transit)
					reqs = transit;
			}
			/* router.node_port = "consume": the inputs asking for it go without */
			if (par->node_consume && o < as->p && node_gated(as, o, tick))
				continue;
			i = arbitrate(par->out_arb, reqs, as->out[o].rr,
				      par->out_arb == DFLY_ARB_AGE ? age_key : lrs_key);
			grant(as, i, req_vc[i], tick, now);
			matched |= 1ull << i;
		}
	}

	/* Valiant recompute (spec §4.3): an injection head not granted draws a new S_ROOT */
	if (M != DFLY_MODE_MIN && !olm && regs->knobs.val_recompute) {
		uint64_t inj = as->in_mask & ~matched & ((1ull << as->p) - 1);

		while (inj) {
			uint32_t i = ctz64(inj);
			uint32_t vm = as->in[i].vc_mask;

			inj &= inj - 1;
			while (vm) {
				uint32_t v = (uint32_t)__builtin_ctz(vm);
				struct asic_pkt *pk = ivc_head(&as->in[i].vc[v]);

				vm &= vm - 1;
				if (pk->ready_tick <= tick && pk->out_port != UINT8_MAX) {
					pk->flags &=
					    (uint16_t) ~(ASIC_PKT_ROUTED | ASIC_PKT_NONMIN |
							 ASIC_PKT_NOINTER | ASIC_PKT_DECIDING);
					pk->out_port = UINT8_MAX;
					as->in[i].vc[v].hd_port = UINT8_MAX;
				}
			}
		}
	}
}

#define X(M, ...)                                                                                  \
	void asic_alloc_##M(struct asic *as, uint64_t tick, uint64_t now)                          \
	{                                                                                          \
		allocate(as, tick, now, DFLY_MODE_##M);                                            \
	}
ASIC_FOREACH_MODE(X)
#undef X
