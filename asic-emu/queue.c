/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Queues of the switch ASIC model: the input VCs (a packet entering one, from its node through
 * injection or from a link, step stage 2), the output FIFOs draining onto their links or to the
 * node (step stage 3), and the ejection ring the driver drains.
 */
#include "asic_priv.h"

static void ivc_push(struct asic *as, uint32_t port, uint32_t v, struct asic_pkt *pk, uint64_t now)
{
	struct asic_in *in = &as->in[port];
	struct asic_ivc *q = &in->vc[v];

	if (TRACING(as, DFLY_TRACE_VC_ENQ))
		asic_trace_pkt(as, DFLY_TRACE_VC_ENQ, port, (uint8_t)v, pk, now, DFLY_TRACE_NONE);
	pkt_cache(as, pk);
	if (q->tail == q->head) {
		q->hd = pk;
		q->hd_ready = pk->ready_tick;
		q->hd_port = UINT8_MAX;
		asic_cc_head(as, port, pk);
	}
	q->ring[q->tail++ & q->mask] = pk;
	q->occ += pk->len;
	if (q->occ > q->hwm)
		q->hwm = q->occ;
	in->vc_mask |= 1u << v;
	as->in_mask |= 1ull << port;
	as->held++;
	as->regs->vc_ctr[port][v][DFLY_VC_ENQ_PKTS]++;
	as->regs->port_ctr[port][DFLY_RX_PKTS]++;
	as->regs->port_ctr[port][DFLY_RX_PHITS] += pk->len;
}

/* DAMQ: would @p len more phits on VC @p v of input @p in stay within its reserve plus the
 * pool the other VCs leave (the upstream's credits guarantee it; checked as for static VCs)? */
static bool damq_room(const struct asic_in *in, uint32_t v, uint32_t len)
{
	uint32_t pool = 0;

	if (in->pool_cap == 0)
		return true;
	for (uint32_t u = 0; u < in->nvc; u++) {
		uint32_t occ = in->vc[u].occ + (u == v ? len : 0);

		pool += occ > in->damq_res ? occ - in->damq_res : 0;
	}
	return pool <= in->pool_cap;
}

uint32_t asic_inject_room(const struct asic *as, uint32_t port)
{
	const struct asic_in *in = &as->in[port];
	uint32_t best = 0;

	for (uint32_t v = 0; v < in->nvc; v++) {
		uint32_t room = in->vc[v].cap - in->vc[v].occ;

		if (room > best)
			best = room;
	}
	return best;
}

bool asic_inject(struct asic *as, uint32_t port, struct asic_pkt *pkt, uint64_t now)
{
	struct asic_in *in = &as->in[port];
	uint32_t len = pkt->len, v = UINT32_MAX, lo = 0, hi = in->nvc;
	uint64_t start;

	if (port >= as->p)
		return false;
	if (as->regs->knobs.reply_consume) {
		/* request-reply as FOGSim injects it: requests on the first half of the injection
		 * VCs, replies on the rest (generatorModule: injPetVcs, injResVcs) */
		if (pkt->flags & ASIC_PKT_REPLY)
			lo = in->nvc / 2;
		else
			hi = in->nvc / 2;
	}
	switch (as->par.inj_select) {
	case DFLY_INJ_JSQ: {
		uint32_t best = 0;

		for (uint32_t i = lo; i < hi; i++) {
			uint32_t room = in->vc[i].cap - in->vc[i].occ;

			if (room >= len && room > best) {
				best = room;
				v = i;
			}
		}
		break;
	}
	case DFLY_INJ_RANDOM: {
		uint32_t cand[DFLY_MAX_VCS], n = 0;

		for (uint32_t i = lo; i < hi; i++)
			if (in->vc[i].cap - in->vc[i].occ >= len)
				cand[n++] = i;
		if (n)
			v = cand[dfly_rng_below(&as->rng, n)];
		break;
	}
	case DFLY_INJ_DEST:
	case DFLY_INJ_DEST_BLOCK:
		v = lo + (as->par.inj_select == DFLY_INJ_DEST
			      ? pkt->dst_node % (hi - lo)
			      : (uint32_t)((uint64_t)pkt->dst_node * (hi - lo) / as->topo->nodes));
		if (in->vc[v].cap - in->vc[v].occ < len)
			v = UINT32_MAX;
		break;
	}
	if (v == UINT32_MAX)
		return false;
	if (as->regs->knobs.reply_consume && (pkt->flags & ASIC_PKT_REPLY)) {
		/* the room kept for it at its request's ejection (reply_take()): on its own VC,
		 * or under jsq and random on the first reply VC that keeps some */
		uint32_t u = v;

		if (in->reply_resv[u] < len)
			for (u = lo; u < hi - 1 && in->reply_resv[u] < len; u++)
				;
		if (in->reply_resv[u] >= len)
			in->reply_resv[u] -= len;
	}

	/* the node serialises packets on its link at one phit per cycle, or
	 * (links.terminal_serialise = false) each arrives over its own length from its injection */
	start = in->node_link_free > now && !as->par.inj_unpaced ? in->node_link_free : now;
	in->node_link_free = start + ser_cycles(as, pkt);
	pkt->vc = (uint8_t)v;
	pkt->ready_tick = (start + as->par.lat_terminal + as->par.pipe_route) * as->par.speedup;
	pkt->out_port = UINT8_MAX;
	pkt->reason = ASIC_REASON_NONE;
	pkt->trig = ASIC_REASON_NONE;
	pkt->pend_flags = 0;
	pkt->vc_allow = 0;
	dec_reset(&pkt->dec);
	pkt->dec.reason = pkt->dec.trig = 0xff;
	/* RES: a packet to another group waits for its reservation (res.c). Injection is between
	 * steps, a step boundary: the mode register is taken here too (the first packets of a run
	 * come before the router's first step) */
	if (as->regs->knobs.mode != as->mode)
		asic_mode_pick(as);
	if (as->res != NULL && as->mode == DFLY_MODE_RES)
		asic_res_inject(as, port, pkt, start);
	if (TRACING(as, DFLY_TRACE_HOST_RX))
		asic_trace_pkt(as, DFLY_TRACE_HOST_RX, port, (uint8_t)v, pkt, now, DFLY_TRACE_NONE);
	ivc_push(as, port, v, pkt, now);
	if (pkt->dst_node / as->topo->p / as->topo->a != as->group)
		as->regs->mech.lia_stored[pkt->dst_node / as->topo->p / as->topo->a]++;
	return true;
}

static void eject_drop(struct asic *as, struct asic_pkt *pk, uint64_t now, enum dfly_drop why,
		       uint32_t port)
{
	struct asic_ejection *e = &as->ej[as->ej_tail & as->ej_mask];

	if (TRACING(as, DFLY_TRACE_DROP))
		asic_trace_pkt(as, DFLY_TRACE_DROP, port, pk->vc, pk, now, (uint16_t)why);
	as->regs->drop[why]++;
	e->pkt = pk;
	e->tail_cycle = now;
	e->drop = (uint8_t)(why + 1);
	as->ej_tail++;
}

void asic_rx_data(struct asic *as, uint64_t now, uint64_t m)
{
	while (m) {
		uint32_t i = ctz64(m);
		struct asic_in *in = &as->in[i];
		struct asic_link *l = in->link;

		m &= m - 1;
		while (l->d_head != LOAD_ACQ(l->d_tail) &&
		       l->data[l->d_head & l->mask].due <= now) {
			struct asic_pkt *pk = l->data[l->d_head++ & l->mask].pkt;

			if (TRACING(as, DFLY_TRACE_PORT_RX))
				asic_trace_pkt(as, DFLY_TRACE_PORT_RX, i, pk->vc, pk, now,
					       DFLY_TRACE_NONE);
			if (pk->vc >= in->nvc) {
				eject_drop(as, pk, now, DFLY_DROP_BAD_VC, i);
				continue;
			}
			if (in->vc[pk->vc].occ + pk->len > in->vc[pk->vc].cap ||
			    !damq_room(in, pk->vc, pk->len) ||
			    ivc_count(&in->vc[pk->vc]) > in->vc[pk->vc].mask) {
				eject_drop(as, pk, now, DFLY_DROP_NO_ROOM, i);
				continue;
			}
			if (pk->flags & ASIC_PKT_PBVEC) {
				/* in-band PB vector: stripped before the packet is buffered */
				pb_rx(as, i, pk->pb_vec);
				pk->flags &= (uint16_t)~ASIC_PKT_PBVEC;
				pk->pb_vec = 0;
			}
			pk->ready_tick =
			    (now + as->par.pipe_route + in->damq_pen) * as->par.speedup;
			pk->out_port = UINT8_MAX;
			ivc_push(as, i, pk->vc, pk, now);
		}
	}
}

/* checkConsume at the node port: may request @p pk leave to its node, its reply entering the
 * injection buffer at once? If so the reply's room is kept (reply_resv) until it is injected. */
static bool reply_take(struct asic *as, uint32_t port, const struct asic_pkt *pk)
{
	uint32_t vc;

	if (reply_free(as, port, pk, &vc) < pk->len)
		return false;
	as->in[port].reply_resv[vc] += pk->len;
	return true;
}

void asic_out_stage(struct asic *as, uint64_t now)
{
	uint64_t m = as->out_mask;

	while (m) {
		uint32_t o = ctz64(m);
		struct asic_out *out = &as->out[o];
		struct asic_pkt *pk;

		m &= m - 1;
		if (out->rel_pending && out->rel_cycle <= now) {
			out->occ -= out->rel_len;
			out->rel_pending = 0;
		}
		if (((as->dead_mask >> o) & 1u) && out->head != out->tail) {
			/* a dead link: what waits for it is discarded, its credits come back */
			while (out->head != out->tail && as->ej_tail - as->ej_head <= as->ej_mask) {
				pk = out->fifo[out->head & out->mask];
				out->head++;
				as->held--;
				out->occ -= pk->len;
				if (out->kind == DFLY_PORT_TERMINAL && reply_gated(as, pk))
					out->req_pend--;
				credit_give(out, pk->vc, pk->len);
				if (pk->flags & ASIC_PKT_MINCRED)
					out->min_occ[pk->vc] -= pk->len;
				credit_gauge(as, o, pk->vc);
				eject_drop(as, pk, now, DFLY_DROP_LINK_DEAD, o);
			}
			goto next;
		}
		if (out->head != out->tail && out->link_free <= now &&
		    !((as->down_mask >> o) & 1u)) {
			pk = out->fifo[out->head & out->mask];
			if (pk->ready_tick <= now) {
				if (out->kind == DFLY_PORT_TERMINAL) {
					if (as->ej_tail - as->ej_head > as->ej_mask)
						goto next; /* driver has not drained: hold */
					bool gated = reply_gated(as, pk);

					if (gated && !reply_take(as, o, pk)) {
						/* traffic.reply = "consume": a request leaves only
						 * when its reply can enter the node's injection
						 * buffer at once */
						as->regs->port_ctr[o][DFLY_REPLY_WAIT]++;
						goto next;
					}
					struct asic_ejection *e =
					    &as->ej[as->ej_tail & as->ej_mask];

					if (gated)
						out->req_pend--;
					e->pkt = pk;
					e->tail_cycle =
					    now + as->par.lat_terminal + ser_cycles(as, pk) - 1;
					e->drop = 0;
					as->ej_tail++;
					/* stamped with the cycle its tail reaches the node */
					if (TRACING(as, DFLY_TRACE_HOST_TX))
						asic_trace_pkt(as, DFLY_TRACE_HOST_TX, o, pk->vc,
							       pk, e->tail_cycle, DFLY_TRACE_NONE);
				} else {
					struct asic_link *l = out->link;

					if (out->kind == DFLY_PORT_LOCAL &&
					    as->regs->knobs.pb_inband &&
					    ++out->piggy_cnt >= as->regs->knobs.pb_piggy_every) {
						pk->pb_vec = atomic_load_explicit(
						    &as->regs->fw.pb_own_vec, memory_order_relaxed);
						pk->flags |= ASIC_PKT_PBVEC;
						out->piggy_cnt = 0;
						out->last_vec = pk->pb_vec;
						out->vec_sent = true;
						as->regs->port_ctr[o][DFLY_PB_PIGGY_TX]++;
					}
					link_put_data(l, pk, now + l->latency);
					if (as->crt != NULL && out->kind == DFLY_PORT_GLOBAL)
						asic_crt_sent(as, o, pk->vc, pk->len, now);
					if (TRACING(as, DFLY_TRACE_PORT_TX))
						asic_trace_pkt(as, DFLY_TRACE_PORT_TX, o, pk->vc,
							       pk, now, DFLY_TRACE_NONE);
				}
				out->head++;
				as->held--;
				out->link_free = now + ser_cycles(as, pk);
				if (as->par.node_consume && out->kind == DFLY_PORT_TERMINAL) {
					out->ej_open_prev = out->ej_open;
					out->ej_start = now;
					out->ej_open = now + ser_cycles(as, pk);
				}
				if (as->par.out_free_at_tail) {
					out->rel_cycle = now + ser_cycles(as, pk);
					out->rel_len = pk->len;
					out->rel_pending = 1;
				} else {
					out->occ -= pk->len;
				}
				as->regs->port_ctr[o][DFLY_TX_PKTS]++;
				as->regs->port_ctr[o][DFLY_TX_PHITS] += pk->len;
				as->regs->port_ctr[o][DFLY_LINK_BUSY_CYCLES] += ser_cycles(as, pk);
			}
		}
	next:
		if (out->head == out->tail && !out->rel_pending)
			as->out_mask &= ~(1ull << o);
	}
}

unsigned asic_eject_burst(struct asic *as, struct asic_ejection *out, unsigned max)
{
	unsigned n = 0;

	while (n < max && as->ej_head != as->ej_tail)
		out[n++] = as->ej[as->ej_head++ & as->ej_mask];
	return n;
}
