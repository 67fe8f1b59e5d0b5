/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The edge of the network (edge.h): the nodes' sources and sinks, for dfly sim's virtual time
 * and dfly-switch's real time alike. The fabric or the lcore loop calls dfly_edge_generate()
 * before a router's step and dfly_edge_collect_burst() after it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edge.h"

int dfly_edge_init(struct dfly_edge *e, const struct dfly_topo *topo, struct dfly_gen *gen,
		   uint32_t pkt_phits, bool unbounded, const bool *gen_node)
{
	memset(e, 0, sizeof(*e));
	e->topo = topo;
	e->gen = gen;
	e->gen_node = gen_node;
	e->pkt_phits = pkt_phits;
	e->unbounded = unbounded;
	atomic_init(&e->measure_from, 0);
	e->node = calloc(topo->nodes, sizeof(*e->node));
	return e->node != NULL ? 0 : -ENOMEM;
}

void dfly_edge_fini(struct dfly_edge *e)
{
	free(e->node);
	e->node = NULL;
}

int dfly_edge_lane_init(struct dfly_edge_lane *ln, struct dfly_edge *e,
			const struct dfly_edge_pool_ops *ops, void *pool, uint32_t first_id)
{
	memset(ln, 0, sizeof(*ln));
	ln->st = &ln->own;
	ln->edge = e;
	ln->ops = ops;
	ln->pool = pool;
	ln->next_id = first_id;
	ln->lat_hist = calloc(DFLY_EDGE_LAT_BUCKETS, sizeof(*ln->lat_hist));
	return ln->lat_hist != NULL ? 0 : -ENOMEM;
}

void dfly_edge_lane_fini(struct dfly_edge_lane *ln)
{
	free(ln->lat_hist);
	ln->lat_hist = NULL;
}

/* A generated packet its node could not inject (generate-or-skip, spec §3.8): a capture DROP
 * event at the terminal port, with no routing decision behind it. */
static void trace_skip(struct dfly_edge_lane *ln, struct asic *as, uint32_t port,
		       struct asic_pkt *pk, uint64_t now)
{
	struct asic_trace_ev ev = {
	    .point = DFLY_TRACE_DROP,
	    .kind = DFLY_PORT_TERMINAL,
	    .port = (uint16_t)port,
	    .drop = DFLY_DROP_INJ_FULL,
	    .cycle = now,
	    .pkt = pk,
	};

	if (!(ln->trace_points >> DFLY_TRACE_DROP & 1u))
		return;
	pk->dec.q_min = pk->dec.q_val = -1;
	pk->dec.cc = pk->dec.combined = DFLY_TRACE_NONE;
	pk->dec.level = pk->dec.reason = pk->dec.trig = 0xff;
	ln->trace(ln->trace_ctx, as, &ev);
}

unsigned dfly_edge_generate(struct dfly_edge_lane *ln, struct asic *as, struct dfly_regs *regs,
			    uint64_t now)
{
	struct dfly_edge *e = ln->edge;
	struct dfly_edge_stats *st = ln->st;
	const uint32_t p = e->topo->p, n0 = asic_router_id(as) * p;
	struct asic_pkt *pk[DFLY_MAX_PORTS], *skip[DFLY_MAX_PORTS];
	uint8_t fired[DFLY_MAX_PORTS];
	uint32_t g5_dst[DFLY_MAX_PORTS], g5_app[DFLY_MAX_PORTS];
	struct dfly_g5 *g5 = e->gen->g5;
	unsigned nf = 0, na = 0, a = 0, k = 0, nskip = 0, injected = 0;
	bool measure =
	    e->measuring && now >= atomic_load_explicit(&e->measure_from, memory_order_relaxed);

	/* the draws: whether each generator node generates (its own stream) */
	for (uint32_t i = 0; i < p; i++) {
		if (e->gen_node != NULL && !e->gen_node[n0 + i])
			continue;
		/* a workload's node offers its next packet once the last one is in */
		if (e->closed_loop && e->node[n0 + i].q_head != NULL)
			continue;
		if (g5 != NULL) {
			/* graph500: the process's state machine says (graph500.h) */
			if (!dfly_g5_offer(g5, n0 + i, now, &g5_dst[nf], &g5_app[nf]))
				continue;
		} else if (!dfly_gen_fire(e->gen, n0 + i)) {
			continue;
		}
		fired[nf++] = (uint8_t)i;
		if (measure)
			st->m_attempts++;
	}
	if (nf > 0)
		na = ln->ops->alloc_burst(ln->pool, pk, nf);
	/* the offers, node by node: an unbounded source's queue first, then the new packet */
	for (uint32_t i = 0; i < p; i++) {
		struct dfly_edge_node *s = &e->node[n0 + i];
		uint32_t n = n0 + i;
		struct asic_pkt *q;

		while (s->r_head != NULL) {
			struct asic_pkt *h = s->r_head;

			if (!asic_inject(as, i, h, now))
				break;
			s->r_head = h->next;
			if (s->r_head == NULL)
				s->r_tail = NULL;
			st->queued_src--;
			st->gen_total++;
			injected++;
		}
		while (e->unbounded && s->q_head != NULL) {
			struct asic_pkt *h = s->q_head, *nx = h->next;

			if (!asic_inject(as, i, h, now))
				break;
			s->q_head = nx;
			if (nx == NULL)
				s->q_tail = NULL;
			s->q_len--;
			st->queued_src--;
			st->gen_total++;
			injected++;
		}
		if (k == nf || fired[k] != i)
			continue;
		k++;
		if (a == na) {
			/* no packet buffer: nothing drawn for its destination */
			st->drop_nobuf++;
			regs->drop[DFLY_DROP_NO_MBUF]++;
			continue;
		}
		q = pk[a++];
		memset(q, 0, sizeof(*q));
		q->src_node = n;
		if (g5 != NULL) {
			q->dst_node = g5_dst[k - 1];
			q->app = g5_app[k - 1];
		} else {
			q->dst_node = dfly_gen_pick_dst(e->gen, n);
		}
		q->val_router = ASIC_NONE;
		q->cand_root = ASIC_NONE;
		q->flags = ASIC_PKT_SYNTH;
		q->len = (uint16_t)e->pkt_phits;
		q->gen_cycle = now;
		q->id = ln->next_id++;
		if (s->q_head == NULL && asic_inject(as, i, q, now)) {
			st->gen_total++;
			injected++;
		} else if (e->unbounded) {
			q->next = NULL;
			if (s->q_tail)
				s->q_tail->next = q;
			else
				s->q_head = q;
			s->q_tail = q;
			s->q_len++;
			st->queued_src++;
		} else {
			st->drop_inj++;
			regs->drop[DFLY_DROP_INJ_FULL]++;
			if (ln->trace != NULL)
				trace_skip(ln, as, i, q, now);
			skip[nskip++] = q;
		}
	}
	if (nskip > 0)
		ln->ops->free_burst(ln->pool, skip, nskip);
	return injected;
}

bool dfly_edge_inject_host(struct asic *as, struct dfly_regs *regs, uint32_t port,
			   struct asic_pkt *pk, uint32_t node, uint32_t dst, uint32_t len,
			   uint64_t now)
{
	memset(pk, 0, sizeof(*pk));
	pk->src_node = node;
	pk->dst_node = dst;
	pk->val_router = ASIC_NONE;
	pk->cand_root = UINT32_MAX;
	pk->len = (uint16_t)len;
	pk->gen_cycle = now;
	if (asic_inject(as, port, pk, now))
		return true;
	regs->drop[DFLY_DROP_INJ_FULL]++;
	return false;
}

void dfly_delivery_of(const struct dfly_topo *topo, const struct asic_ejection *ej,
		      struct dfly_delivery *d)
{
	const struct asic_pkt *pk = ej->pkt;
	uint32_t gsz = topo->a * topo->p;

	*d = (struct dfly_delivery){
	    .src_node = pk->src_node,
	    .dst_node = pk->dst_node,
	    .gen_cycle = pk->gen_cycle,
	    .inj_cycle = pk->inj_cycle,
	    .tail_cycle = ej->tail_cycle,
	    .len = pk->len,
	    .lhops = pk->lhops,
	    .ghops = pk->ghops,
	    .nonmin = (pk->flags & ASIC_PKT_NONMIN) != 0,
	    .host = !(pk->flags & ASIC_PKT_SYNTH),
	};
	d->global_misrouted = pk->ghops > (pk->src_node / gsz != pk->dst_node / gsz ? 1 : 0);
}

int dfly_delivery_format(const struct dfly_delivery *d, char *buf, size_t len)
{
	return snprintf(
	    buf, len,
	    "delivery %" PRIu64 " %" PRIu32 " %" PRIu32 " %" PRIu64 " %" PRIu64 " %u %u %u %u %s\n",
	    d->tail_cycle, d->src_node, d->dst_node, d->gen_cycle, d->inj_cycle, (unsigned)d->len,
	    (unsigned)d->lhops, (unsigned)d->ghops, (unsigned)d->nonmin, d->host ? "host" : "gen");
}

static void tap_delivery(const struct dfly_edge *e, const struct asic_ejection *ej)
{
	struct dfly_delivery d;

	dfly_delivery_of(e->topo, ej, &d);
	e->tap(e->tap_ctx, &d);
}

/* The window's statistics of a delivered generated packet (its generation in the window). */
static void account(struct dfly_edge_lane *ln, const struct asic_pkt *pk,
		    const struct asic_ejection *ej)
{
	struct dfly_edge_stats *st = ln->st;
	uint64_t lat;

	/* clocks of two processes (dfly-switch): never below 0 */
	lat = ej->tail_cycle >= pk->gen_cycle ? ej->tail_cycle - pk->gen_cycle : 0;
	st->m_pkts++;
	st->m_phits += pk->len;
	st->m_lat_sum += (double)lat;
	st->m_net_lat_sum +=
	    (double)(ej->tail_cycle >= pk->inj_cycle ? ej->tail_cycle - pk->inj_cycle : 0);
	ln->lat_hist[lat < DFLY_EDGE_LAT_BUCKETS ? lat : DFLY_EDGE_LAT_BUCKETS - 1]++;
	if (lat > st->m_lat_max)
		st->m_lat_max = lat;
	st->m_nonmin += (pk->flags & ASIC_PKT_NONMIN) != 0;
	st->m_hops += pk->lhops + pk->ghops;
	st->m_lhops += pk->lhops;
	st->m_ghops += pk->ghops;
	if (pk->flags & ASIC_PKT_REPLY) {
		st->m_rep_pkts++;
		st->m_rep_phits += pk->len;
		st->m_rep_lat_sum += (double)lat;
	}
}

/* traffic.reqrep: the delivered request @p pk becomes its reply, generated at @p now, queued at
 * its destination node (the router that ejected it, so this lane's). */
static void make_reply(struct dfly_edge_lane *ln, struct asic_pkt *pk, uint64_t now)
{
	struct dfly_edge_node *s = &ln->edge->node[pk->dst_node];
	uint32_t src = pk->src_node, dst = pk->dst_node;
	uint16_t len = pk->len;

	memset(pk, 0, sizeof(*pk));
	pk->src_node = dst;
	pk->dst_node = src;
	pk->val_router = ASIC_NONE;
	pk->cand_root = ASIC_NONE;
	pk->flags = ASIC_PKT_SYNTH | ASIC_PKT_REPLY;
	pk->len = len;
	pk->gen_cycle = now;
	pk->id = ln->next_id++;
	pk->next = NULL;
	if (s->r_tail != NULL)
		s->r_tail->next = pk;
	else
		s->r_head = pk;
	s->r_tail = pk;
	ln->st->queued_src++;
}

unsigned dfly_edge_collect_burst(struct dfly_edge_lane *ln, struct asic *as, uint64_t now,
				 struct asic_ejection *host, unsigned *nhost)
{
	const struct dfly_edge *e = ln->edge;
	struct dfly_edge_stats *st = ln->st;
	struct asic_ejection ej[64];
	struct asic_pkt *done[64];
	unsigned n = asic_eject_burst(as, ej, 64), ndone = 0;
	uint64_t from = atomic_load_explicit(&e->measure_from, memory_order_relaxed);

	for (unsigned k = 0; k < n; k++) {
		struct asic_pkt *pk = ej[k].pkt;

		if (!(pk->flags & ASIC_PKT_SYNTH)) {
			host[(*nhost)++] = ej[k];
			continue;
		}
		if (ej[k].drop) {
			done[ndone++] = pk;
			st->drop_fabric++;
			continue;
		}
		st->dlv_total++;
		/* the latest: with sim.batch a router's cycles come after later cycles of the
		 * routers before it */
		if (now > st->last_delivery)
			st->last_delivery = now;
		if (e->tap)
			tap_delivery(e, &ej[k]);
		if (e->measuring && pk->gen_cycle >= from)
			account(ln, pk, &ej[k]);
		if (e->gen->g5 != NULL)
			dfly_g5_receive(e->gen->g5, pk->dst_node, pk->app, ej[k].tail_cycle);
		if (e->reqrep && !(pk->flags & ASIC_PKT_REPLY))
			make_reply(ln, pk, ej[k].tail_cycle);
		else
			done[ndone++] = pk;
	}
	if (ndone > 0)
		ln->ops->free_burst(ln->pool, done, ndone);
	return n;
}

void dfly_edge_sink_host(struct dfly_edge_lane *ln, const struct asic_ejection *host,
			 unsigned nhost)
{
	const struct dfly_edge *e = ln->edge;
	struct asic_pkt *done[64];
	unsigned n = 0;

	for (unsigned k = 0; k < nhost; k++) {
		/* a drop is counted by its reason in the router's drop registers */
		if (!host[k].drop && e->tap)
			tap_delivery(e, &host[k]);
		done[n++] = host[k].pkt;
		if (n == 64) {
			ln->ops->free_burst(ln->pool, done, n);
			n = 0;
		}
	}
	if (n > 0)
		ln->ops->free_burst(ln->pool, done, n);
}

void dfly_edge_stats_add(struct dfly_edge_stats *t, const struct dfly_edge_stats *d)
{
	t->gen_total += d->gen_total;
	t->dlv_total += d->dlv_total;
	t->drop_inj += d->drop_inj;
	t->drop_nobuf += d->drop_nobuf;
	t->drop_fabric += d->drop_fabric;
	t->queued_src += d->queued_src; /* a difference: may wrap below zero, sums right */
	if (d->last_delivery > t->last_delivery)
		t->last_delivery = d->last_delivery;
	t->m_attempts += d->m_attempts;
	t->m_pkts += d->m_pkts;
	t->m_phits += d->m_phits;
	t->m_nonmin += d->m_nonmin;
	t->m_hops += d->m_hops;
	t->m_lhops += d->m_lhops;
	t->m_ghops += d->m_ghops;
	t->m_rep_pkts += d->m_rep_pkts;
	t->m_rep_phits += d->m_rep_phits;
	t->m_rep_lat_sum += d->m_rep_lat_sum;
	t->m_lat_sum += d->m_lat_sum;
	t->m_net_lat_sum += d->m_net_lat_sum;
	if (d->m_lat_max > t->m_lat_max)
		t->m_lat_max = d->m_lat_max;
}

void dfly_edge_lat_percentiles(const struct dfly_edge_lane *const *lanes, uint32_t n, uint64_t pkts,
			       uint64_t *p50, uint64_t *p99)
{
	uint64_t acc = 0;
	bool have50 = false;

	*p50 = *p99 = 0;
	if (pkts == 0)
		return;
	for (uint32_t b = 0; b < DFLY_EDGE_LAT_BUCKETS; b++) {
		for (uint32_t k = 0; k < n; k++)
			acc += lanes[k]->lat_hist[b];
		if (!have50 && acc * 2 >= pkts) {
			*p50 = b;
			have50 = true;
		}
		if (acc * 100 >= pkts * 99) {
			*p99 = b;
			return;
		}
	}
}
