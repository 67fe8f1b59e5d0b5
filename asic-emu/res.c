/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RES, Reservation routing (spec §4.9; IAR §3.4, §6.6). Every global channel GC keeps R, the
 * phits that have reserved it and not yet crossed it. A packet to another group, when its head
 * reaches the source router's injection buffer, sends a one-phit *reservation flit* to the router
 * of its group that owns its minimal global channel, carrying R̄, the average R of the source
 * router's own global channels; the packet waits in the injection buffer (IAR §6.6: "the waiting
 * buffer combined with the input buffer at the injection node"). The owner grants iff R_GC ≤
 * 2·R̄ + T (R_GC += the packet's length) and answers with a one-phit reply; the packet then routes
 * minimally on a grant and Valiant on a refusal (route_src.c, asic_route_RES). R drops by the
 * length of each packet that reserved it when it is granted that global output. A source router
 * that owns the channel itself decides at once, without flits.
 *
 * The flits are records of the link's control line (ASIC_CTRL_RES_REQ/_REP, the body struct
 * asic_res_flit; over dfly-switch's links, data frames of types RES_REQ/RES_REP under the
 * link-level retry), queued per local output and sent ahead of data, replies before requests (a
 * request waits until its packet's head is at the router; a reply never waits behind it): each
 * holds its link for one cycle (counted in link_busy_cycles) and arrives after the link's
 * latency. They are never dropped: a full control line leaves them queued.
 *
 * State allocated when the router first runs the mode (or first receives a flit): R per global
 * output, the flit queues, and a slot per packet waiting for its reply, as many as the injection
 * buffers can hold (the cookie the reply echoes is the slot's index). Counters: port_ctr
 * res_req_tx, res_rep_tx (local links), res_r (global ports, a gauge); route res_min, res_val
 * (source decisions, counted at the grant), res_grant, res_deny (owner decisions),
 * res_wait_cycles.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asic_priv.h"
#include "dfly/log.h"

struct res_slot {
	struct asic_pkt *pk; /* the waiting packet; NULL: free */
	uint64_t ready;      /* its ready_tick had it not waited */
	uint64_t since;      /* cycle its head reached the router (the request's earliest start) */
	uint32_t next_free;
	uint8_t port;
};

struct res_qe {
	struct asic_res_flit f;
	uint64_t not_before;
	uint8_t kind; /* ASIC_CTRL_RES_REQ or _REP */
};

struct res_q {
	struct res_qe *e;
	uint32_t head, tail, mask;
};

struct asic_res {
	uint32_t r[DFLY_MAX_PORTS]; /* R of each global output (phits) */
	uint64_t rsum;              /* Σ R over this router's global outputs */
	/* per local output, the replies [0] (sent first: always due) and the requests [1] (each
	 * due when its packet's head reaches the router) */
	struct res_q q[DFLY_MAX_PORTS][2];
	uint64_t qmask; /* local outputs with queued flits */
	struct res_slot *slot;
	uint32_t nslot, free_head, used;
};

#define RES_NO_SLOT UINT32_MAX

int asic_res_enable(struct asic *as)
{
	struct asic_res *r;
	uint32_t n = 0;

	if (as->res != NULL)
		return 0;
	/* a waiting packet is in an injection buffer: as many slots as those rings hold */
	for (uint32_t i = 0; i < as->p; i++)
		for (uint32_t v = 0; v < as->in[i].nvc; v++)
			n += as->in[i].vc[v].mask + 1;
	r = calloc(1, sizeof(*r));
	if (r == NULL)
		return -ENOMEM;
	r->slot = calloc(n ? n : 1, sizeof(*r->slot));
	if (r->slot == NULL) {
		free(r);
		return -ENOMEM;
	}
	r->nslot = n;
	for (uint32_t k = 0; k < n; k++)
		r->slot[k].next_free = k + 1 < n ? k + 1 : RES_NO_SLOT;
	r->free_head = n ? 0 : RES_NO_SLOT;
	as->res = r;
	return 0;
}

void asic_res_free(struct asic *as)
{
	struct asic_res *r = as->res;

	if (r == NULL)
		return;
	for (uint32_t o = 0; o < DFLY_MAX_PORTS; o++) {
		free(r->q[o][0].e);
		free(r->q[o][1].e);
	}
	free(r->slot);
	free(r);
	as->res = NULL;
}

/* Queue a flit on local output @p o; the queue grows (what waits is bounded by the packets the
 * group's injection buffers hold). @return false out of memory. */
static bool res_queue(struct asic *as, uint32_t o, uint8_t kind, const struct asic_res_flit *f,
		      uint64_t not_before)
{
	struct res_q *q = &as->res->q[o][kind == ASIC_CTRL_RES_REQ];

	if (q->e == NULL || q->tail - q->head > q->mask) {
		uint32_t size = q->e == NULL ? 64 : 2 * (q->mask + 1);
		struct res_qe *e = malloc(size * sizeof(*e));

		if (e == NULL)
			return false;
		for (uint32_t k = q->head; k != q->tail; k++)
			e[(k - q->head) & (size - 1)] = q->e[k & q->mask];
		q->tail -= q->head;
		q->head = 0;
		free(q->e);
		q->e = e;
		q->mask = size - 1;
	}
	q->e[q->tail & q->mask] = (struct res_qe){*f, not_before, kind};
	q->tail++;
	as->res->qmask |= 1ull << o;
	return true;
}

/* The owner's rule (IAR §3.4): grant iff R ≤ 2·R̄ + T, reserving @p len phits of output @p o. */
static bool res_decide(struct asic *as, uint32_t o, uint32_t len, uint32_t rbar)
{
	struct asic_res *r = as->res;

	if ((int64_t)r->r[o] > 2 * (int64_t)rbar + as->regs->knobs.res_t) {
		as->regs->route[DFLY_ROUTE_RES_DENY]++;
		return false;
	}
	r->r[o] += len;
	r->rsum += len;
	as->regs->port_ctr[o][DFLY_RES_R] = r->r[o];
	as->regs->route[DFLY_ROUTE_RES_GRANT]++;
	return true;
}

static uint32_t res_rbar(const struct asic *as)
{
	return (uint32_t)(as->res->rsum / as->topo->h);
}

void asic_res_inject(struct asic *as, uint32_t port, struct asic_pkt *pk, uint64_t start)
{
	const struct dfly_topo *t = as->topo;
	struct asic_res *r = as->res;
	uint32_t D = pk->dst_node / t->p / t->a, me = as->router % t->a, rho, q, k;
	struct asic_res_flit f = {0};
	struct res_slot *s;
	uint32_t id;

	pk->flags &= (uint16_t)~ASIC_PKT_RES_MIN;
	if (D == as->group)
		return;
	/* the channel its minimal path takes: the owner's own link to D (trunking: the first one
	 * of that router, as the owner's route stage picks it) */
	k = dfly_topo_trunk_select(t, as->router, D, pk->dst_node);
	dfly_topo_link_to_group(t, as->group, D, k, &rho, &q);
	k = dfly_topo_trunk_select(t, as->group * t->a + rho, D, pk->dst_node);
	dfly_topo_link_to_group(t, as->group, D, k, &rho, &q);
	if (rho == me) {
		if (res_decide(as, t->first_global + q, pk->len, res_rbar(as)))
			pk->flags |= ASIC_PKT_RES_MIN;
		return;
	}
	if ((as->down_mask >> dfly_topo_local_port(t, me, rho)) & 1u)
		return; /* the owner's link is down: refused at once (the packet goes Valiant) */
	id = r->free_head;
	if (id == RES_NO_SLOT) {
		/* cannot happen: a slot per packet the injection buffers hold */
		dfly_log(DFLY_LOG_ASIC, DFLY_LOG_ERR, "router %u: no RES slot: routed without one",
			 as->router);
		return;
	}
	s = &r->slot[id];
	f.cookie = id;
	f.rbar = res_rbar(as);
	f.len = pk->len;
	f.gc = (uint8_t)q;
	s->since = start + as->par.lat_terminal;
	if (!res_queue(as, dfly_topo_local_port(t, me, rho), ASIC_CTRL_RES_REQ, &f, s->since)) {
		dfly_log(DFLY_LOG_ASIC, DFLY_LOG_ERR,
			 "router %u: no memory for a RES flit: routed without a reservation",
			 as->router);
		return;
	}
	r->free_head = s->next_free;
	r->used++;
	s->pk = pk;
	s->port = (uint8_t)port;
	s->ready = pk->ready_tick;
	pk->ready_tick = UINT64_MAX; /* not before its reply (the allocator passes over it) */
}

/* The answer to the reservation of slot @p cookie: the packet may route from cycle @p now, MIN if
 * @p grant. @return 0, or -1 if no packet waits in that slot. */
static int res_answer(struct asic *as, uint32_t cookie, bool grant, uint64_t now)
{
	struct asic_res *r = as->res;
	struct res_slot *s = cookie < r->nslot ? &r->slot[cookie] : NULL;
	struct asic_pkt *pk;
	struct asic_ivc *q;
	uint64_t ready;

	if (s == NULL || s->pk == NULL)
		return -1;
	pk = s->pk;
	if (grant)
		pk->flags |= ASIC_PKT_RES_MIN;
	ready = now * as->par.speedup;
	pk->ready_tick = s->ready > ready ? s->ready : ready;
	q = &as->in[s->port].vc[pk->vc];
	if (q->head != q->tail && q->hd == pk)
		q->hd_ready = pk->ready_tick;
	as->regs->route[DFLY_ROUTE_RES_WAIT_CYCLES] += now > s->since ? now - s->since : 0;
	s->pk = NULL;
	s->next_free = r->free_head;
	r->free_head = cookie;
	r->used--;
	return 0;
}

/* Give back @p len phits of R of global output @p o (a reservation that will not be used). */
static void res_release(struct asic *as, uint32_t o, uint32_t len)
{
	struct asic_res *r = as->res;
	uint32_t d = r->r[o] < len ? r->r[o] : len;

	r->r[o] -= d;
	r->rsum -= d;
	as->regs->port_ctr[o][DFLY_RES_R] = r->r[o];
}

/*
 * The flits queued on dead local output @p o (router.link_dead_cycles: what can only leave
 * through it is discarded) are settled here, so no packet waits for ever: a request is refused
 * (its packet goes Valiant, around the dead link's router), a granted reply gives its phits
 * back to R (its requester will have been refused by its own router the same way).
 */
static void res_settle_dead(struct asic *as, uint32_t o, uint64_t now)
{
	struct asic_res *r = as->res;

	for (int k = 0; k < 2; k++) {
		struct res_q *q = &r->q[o][k];

		for (; q->head != q->tail; q->head++) {
			const struct res_qe *e = &q->e[q->head & q->mask];

			if (e->kind == ASIC_CTRL_RES_REQ)
				res_answer(as, e->f.cookie, false, now);
			else if (e->f.grant)
				res_release(as, as->topo->first_global + e->f.gc, e->f.len);
		}
	}
	r->qmask &= ~(1ull << o);
}

void asic_res_rx(struct asic *as, uint32_t in_port, uint8_t kind, const void *body, uint16_t len,
		 uint64_t now)
{
	const struct dfly_topo *t = as->topo;
	struct asic_res_flit f;

	if (len != sizeof(f) || in_port < t->first_local || in_port >= t->first_global ||
	    (as->res == NULL && asic_res_enable(as) < 0)) {
		as->regs->drop[DFLY_DROP_DECODE]++;
		return;
	}
	memcpy(&f, body, sizeof(f));
	if (kind == ASIC_CTRL_RES_REQ) {
		uint32_t me = as->router % t->a;
		uint32_t src = dfly_topo_local_peer(t, me, in_port);

		if (f.gc >= t->h) {
			as->regs->drop[DFLY_DROP_DECODE]++;
			return;
		}
		f.grant = res_decide(as, t->first_global + f.gc, f.len, f.rbar);
		if (!res_queue(as, dfly_topo_local_port(t, me, src), ASIC_CTRL_RES_REP, &f, now))
			as->regs->drop[DFLY_DROP_CTRL_LINK_FULL]++;
		return;
	}
	if (res_answer(as, f.cookie, f.grant != 0, now) < 0)
		as->regs->drop[DFLY_DROP_DECODE]++;
}

void asic_res_tx(struct asic *as, uint64_t now)
{
	struct asic_res *r = as->res;
	uint64_t m = r->qmask & as->dead_mask;

	while (m) {
		uint32_t o = ctz64(m);

		m &= m - 1;
		res_settle_dead(as, o, now);
	}
	m = r->qmask & ~as->down_mask;

	while (m) {
		uint32_t o = ctz64(m);
		struct asic_out *out = &as->out[o];
		/* a reply first (its requester waits), else the oldest request once it is due */
		struct res_q *q = r->q[o][0].head != r->q[o][0].tail ? &r->q[o][0] : &r->q[o][1];
		struct res_qe *e = &q->e[q->head & q->mask];

		m &= m - 1;
		if (out->link == NULL || out->link_free > now || e->not_before > now)
			continue;
		if (!asic_ctrl_push(out->link, now, now + out->link->latency,
				    (enum asic_ctrl_kind)e->kind, &e->f, sizeof(e->f)))
			continue; /* the line is full: it goes at a later cycle */
		out->link_free = now + 1;
		as->regs->port_ctr[o][e->kind == ASIC_CTRL_RES_REQ ? DFLY_RES_REQ_TX
								   : DFLY_RES_REP_TX]++;
		as->regs->port_ctr[o][DFLY_LINK_BUSY_CYCLES]++;
		q->head++;
		if (r->q[o][0].head == r->q[o][0].tail && r->q[o][1].head == r->q[o][1].tail)
			r->qmask &= ~(1ull << o);
	}
}

void asic_res_sent(struct asic *as, const struct asic_pkt *pk, uint32_t o)
{
	const struct dfly_topo *t = as->topo;
	uint32_t D = pk->dst_node / t->p / t->a;

	/* only the hop its reservation was for: the channel of the source group, minimal towards
	 * the destination (a packet moved off it, by a change of the mode register, keeps R
	 * there: the drain check names it) */
	if (as->res == NULL || pk->src_node / t->p / t->a != as->group ||
	    o != as->min_grp[D * t->t + pk->dst_node % t->t])
		return;
	res_release(as, o, pk->len);
}

int asic_res_check_drained(const struct asic *as, char *why, unsigned len)
{
	const struct asic_res *r = as->res;

	if (r == NULL)
		return 0;
	if (r->used != 0 || r->qmask != 0) {
		snprintf(why, len,
			 "router %u: RES: %u packets wait for a reply, flits queued 0x%llx",
			 as->router, r->used, (unsigned long long)r->qmask);
		return -EBUSY;
	}
	for (uint32_t o = as->topo->first_global; o < as->topo->radix; o++)
		if (r->r[o] != 0) {
			snprintf(why, len,
				 "router %u: RES: R of global output %u is %u phits in an empty "
				 "router",
				 as->router, o, r->r[o]);
			return -EBUSY;
		}
	return 0;
}
