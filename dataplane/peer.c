/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Loopback peer of a fabric port (peer.h): the neighbour's side of the link protocol of
 * port.c, returning every data packet to its source node.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "dfly/wire.h"
#include "peer.h"
#include "port.h"

#define PEER_BACKLOG 4096u /* frames held for credits (a power of two) */

struct dp_peer {
	const struct dp_env *env;
	uint16_t eth;
	uint32_t router, port; /* the router's side */
	uint32_t me, my_port;  /* the neighbour we stand for */
	uint8_t mac[6], peer_mac[6];
	uint32_t nvc;
	bool up; /* the router's HELLO has arrived */
	uint64_t hello_next_ns;
	/* what we receive: sequence, our input buffer's credits returned (running totals) */
	uint32_t expect;
	bool nak_sent; /* for the gap at expect */
	uint32_t unacked;
	uint64_t ack_first_ns, ack_last_ns;
	uint16_t cr_total[DFLY_MAX_VCS];
	bool cr_dirty;
	uint64_t cr_last_ns;
	/* what we send: sequence, the router's credits for its input buffer */
	uint32_t next_seq;
	int32_t credits[DFLY_MAX_VCS];
	uint16_t cr_seen[DFLY_MAX_VCS];
	/* packets waiting for credits or for room on the device, in arrival order */
	struct rte_mbuf *q[PEER_BACKLOG];
	struct dfly_wire_data qd[PEER_BACKLOG]; /* their headers, decoded on arrival */
	uint32_t q_head, q_tail;
	struct rte_mbuf *txq[DP_BURST * 4];
	uint16_t ntx;
	struct dp_peer_stats st;
	/* bad frames on purpose (dp_peer_faults) */
	uint32_t fault_left;
	uint64_t fault_next_ns;
	uint32_t naks_expected; /* our own gaps: the router NAKs them */
};

#define DP_PEER_FAULT_DESC_(E, d) d,
const char *const dp_peer_fault_descs[DP_PEER_FAULT_COUNT] = {
    DP_FOREACH_PEER_FAULT(DP_PEER_FAULT_DESC_)};
#undef DP_PEER_FAULT_DESC_

struct dp_peer *dp_peer_create(const struct dp_env *env, uint16_t eth, uint32_t router,
			       uint32_t port, uint32_t nvc, uint32_t buf_phits)
{
	struct dp_peer *p;

	if (nvc == 0 || nvc > DFLY_MAX_VCS) {
		errno = EINVAL;
		return NULL;
	}
	p = rte_zmalloc("dfly_peer", sizeof(*p), RTE_CACHE_LINE_SIZE);
	if (p == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	p->env = env;
	p->eth = eth;
	p->router = router;
	p->port = port;
	if (dfly_topo_port_peer(env->topo, router, port, &p->me, &p->my_port) != 0) {
		rte_free(p);
		errno = EINVAL;
		return NULL;
	}
	dp_fabric_mac(p->me, p->my_port, p->mac);
	dp_fabric_mac(router, port, p->peer_mac);
	p->nvc = nvc;
	/* the router's input buffer on this port has the same size as ours */
	for (uint32_t v = 0; v < nvc; v++)
		p->credits[v] = (int32_t)buf_phits;
	return p;
}

void dp_peer_destroy(struct dp_peer *p)
{
	if (p == NULL)
		return;
	while (p->q_head != p->q_tail)
		rte_pktmbuf_free(p->q[p->q_head++ & (PEER_BACKLOG - 1)]);
	if (p->ntx)
		rte_pktmbuf_free_bulk(p->txq, p->ntx);
	rte_free(p);
}

const struct dp_peer_stats *dp_peer_stats(const struct dp_peer *p)
{
	return &p->st;
}

static inline void count(struct dp_peer *p, uint64_t *what)
{
	(*what)++;
	if (what != &p->st.gap && what != &p->st.no_room)
		p->st.errors++;
}

static void flush(struct dp_peer *p)
{
	uint16_t sent = 0;

	while (sent < p->ntx) {
		uint16_t n = rte_eth_tx_burst(p->eth, 0, p->txq + sent, (uint16_t)(p->ntx - sent));

		if (n == 0)
			break;
		sent += n;
	}
	/* the ring is full: keep the rest in order for the next poll (nothing is lost) */
	memmove(p->txq, p->txq + sent, (size_t)(p->ntx - sent) * sizeof(p->txq[0]));
	p->ntx = (uint16_t)(p->ntx - sent);
}

static void send_ctrl(struct dp_peer *p, const struct dfly_wire_ctrl *c)
{
	struct rte_mbuf *m;
	struct dfly_wire_eth eth;
	char *b;
	int len;

	if (p->ntx == RTE_DIM(p->txq)) {
		flush(p);
		if (p->ntx == RTE_DIM(p->txq)) {
			count(p, &p->st.no_room);
			return;
		}
	}
	m = rte_pktmbuf_alloc(p->env->mp);
	if (m == NULL) {
		count(p, &p->st.no_room);
		return;
	}
	b = rte_pktmbuf_mtod(m, char *);
	memcpy(eth.dst, p->peer_mac, 6);
	memcpy(eth.src, p->mac, 6);
	len = dfly_wire_ctrl_encode(b, rte_pktmbuf_tailroom(m), &eth, c);
	if (len < 0 || rte_pktmbuf_append(m, (uint16_t)len) == NULL) {
		rte_pktmbuf_free(m);
		count(p, &p->st.no_room);
		return;
	}
	p->txq[p->ntx++] = m;
}

static void rx_ctrl(struct dp_peer *p, const uint8_t *b, uint32_t len)
{
	struct dfly_wire_ctrl c;

	if (dfly_wire_ctrl_decode(b, len, &p->env->lim, &c) < 0 || c.src_router != p->router) {
		count(p, &p->st.bad_frame);
		return;
	}
	p->st.rx_ctrl++;
	switch (c.type) {
	case DFLY_WIRE_CTRL_HELLO:
		if (dfly_wire_hello_check(&c, p->env->topo, p->me, p->my_port, 0) != 0) {
			count(p, &p->st.bad_frame);
			return;
		}
		if (!p->up)
			p->hello_next_ns = 0; /* answer at once */
		p->up = true;
		break;
	case DFLY_WIRE_CTRL_CREDIT:
		for (unsigned i = 0; i < c.credit.n; i++) {
			const struct dfly_wire_credit *e = &c.credit.e[i];
			uint16_t delta = e->phits;

			if (e->vc >= p->nvc) {
				count(p, &p->st.bad_frame);
				continue;
			}
			if (e->flags & DFLY_WIRE_CREDIT_F_ABS) {
				delta = (uint16_t)(e->phits - p->cr_seen[e->vc]);
				if (delta == 0 || delta >= 0x8000u)
					continue;
				p->cr_seen[e->vc] = e->phits;
			}
			p->credits[e->vc] += delta;
		}
		break;
	case DFLY_WIRE_CTRL_ACK:
		/* nothing to replay: the ring loses nothing; a NAK would mean it did */
		if (c.ack.flags & DFLY_WIRE_ACK_F_NAK) {
			if (p->naks_expected)
				p->naks_expected--; /* the answer to a gap we made */
			else
				count(p, &p->st.nak);
		}
		break;
	default:
		p->st.fw_frames++;
		break;
	}
}

/* A data frame from the router: accept it in sequence and queue it to go back. */
static void rx_data(struct dp_peer *p, struct rte_mbuf *m, const uint8_t *b, uint32_t len,
		    uint64_t now_ns)
{
	struct dfly_wire_data d;

	if (dfly_wire_data_decode(b, len, &p->env->lim, &d) < 0 || !p->up) {
		count(p, &p->st.bad_frame);
		rte_pktmbuf_free(m);
		return;
	}
	if (d.seq != p->expect) {
		/* a resend of what we have (the router's retry timer), or a gap: the router's
		 * device refused a copy; go-back-N: NAK once, its replay sends it again */
		if (dfly_wire_seq_before(p->expect, d.seq)) {
			count(p, &p->st.gap);
			if (!p->nak_sent) {
				struct dfly_wire_ctrl c = {.type = DFLY_WIRE_CTRL_ACK,
							   .src_router = p->me};

				c.ack.ack = p->expect;
				c.ack.taken = DFLY_WIRE_ACK_NONE; /* a loopback peer keeps no clock:
								     not timed */
				c.ack.flags = DFLY_WIRE_ACK_F_NAK;
				send_ctrl(p, &c);
				p->nak_sent = true;
			}
		}
		rte_pktmbuf_free(m);
		return;
	}
	if (d.type == DFLY_WIRE_PKT_RES_REQ && p->ntx == RTE_DIM(p->txq)) {
		/* no room to answer: not accepted, the router sends it again */
		count(p, &p->st.no_room);
		rte_pktmbuf_free(m);
		return;
	}
	p->expect++;
	p->nak_sent = false;
	if (p->unacked++ == 0)
		p->ack_first_ns = now_ns;
	if (d.type == DFLY_WIRE_PKT_INFO || d.type == DFLY_WIRE_PKT_RES_REP) {
		p->st.info++;
		rte_pktmbuf_free(m);
		return;
	}
	if (d.type == DFLY_WIRE_PKT_RES_REQ) {
		/* a RES reservation for a channel of this peer, which has no network behind it:
		 * refused (the packet goes Valiant), answered at once and sequenced like data */
		struct dfly_wire_res r;
		struct dfly_wire_eth eth;
		uint8_t *w;

		p->st.info++;
		if (dfly_wire_res_get(b + d.payload_off, d.type, &p->env->lim, &r) < 0) {
			count(p, &p->st.no_room);
			rte_pktmbuf_free(m);
			return;
		}
		r.grant = 0;
		d.type = DFLY_WIRE_PKT_RES_REP;
		d.seq = p->next_seq++;
		memcpy(eth.dst, p->peer_mac, 6);
		memcpy(eth.src, p->mac, 6);
		rte_pktmbuf_adj(
		    m, (uint16_t)(d.payload_off - DFLY_WIRE_ETH_LEN - DFLY_WIRE_DATA_HDR_LEN));
		w = rte_pktmbuf_mtod(m, uint8_t *);
		dfly_wire_res_put(w + DFLY_WIRE_ETH_LEN + DFLY_WIRE_DATA_HDR_LEN, &r);
		dfly_wire_data_encode(w, rte_pktmbuf_data_len(m), &eth, &d, NULL);
		p->txq[p->ntx++] = m;
		return;
	}
	if (p->q_tail - p->q_head == PEER_BACKLOG || d.vc >= p->nvc) {
		count(p, &p->st.overflow); /* beyond the credits we gave it */
		rte_pktmbuf_free(m);
		return;
	}
	p->st.rx_data++;
	p->qd[p->q_tail & (PEER_BACKLOG - 1)] = d;
	p->q[p->q_tail++ & (PEER_BACKLOG - 1)] = m;
}

/* Send the queued packets back while the router has credits for them; return ours. */
static void tx_data(struct dp_peer *p)
{
	while (p->q_head != p->q_tail && p->ntx < RTE_DIM(p->txq)) {
		struct rte_mbuf *m = p->q[p->q_head & (PEER_BACKLOG - 1)];
		struct dfly_wire_data d = p->qd[p->q_head & (PEER_BACKLOG - 1)];
		struct dfly_wire_eth eth;
		uint32_t node;

		if (p->credits[d.vc] < (int32_t)d.size_phits)
			break; /* in order: the head waits for the router's credits */
		p->q_head++;
		p->credits[d.vc] -= d.size_phits;
		p->cr_total[d.vc] = (uint16_t)(p->cr_total[d.vc] + d.size_phits);
		p->cr_dirty = true;
		node = d.src_node;
		d.src_node = d.dst_node;
		d.dst_node = node;
		d.via_router = DFLY_WIRE_NO_ROUTER;
		d.flags = 0;
		d.pb_vec = 0;
		d.seq = p->next_seq++;
		memcpy(eth.dst, p->peer_mac, 6);
		memcpy(eth.src, p->mac, 6);
		/* the frame may carry a VLAN tag we looked through: rewrite from its payload on */
		rte_pktmbuf_adj(
		    m, (uint16_t)(d.payload_off - DFLY_WIRE_ETH_LEN - DFLY_WIRE_DATA_HDR_LEN));
		dfly_wire_data_encode(rte_pktmbuf_mtod(m, void *), rte_pktmbuf_data_len(m), &eth,
				      &d, NULL);
		p->txq[p->ntx++] = m;
		p->st.tx_data++;
	}
}

void dp_peer_faults(struct dp_peer *p, uint32_t each)
{
	p->fault_left = each;
}

/* One bad frame of kind @p k: built from a valid frame, then broken. */
static void send_fault(struct dp_peer *p, enum dp_peer_fault k)
{
	const struct dfly_wire_limits *lim = &p->env->lim;
	struct dfly_wire_data d = {.type = DFLY_WIRE_PKT_SYNTH,
				   .size_phits = 1,
				   .src_node = 0,
				   .dst_node = p->router * lim->p,
				   .via_router = DFLY_WIRE_NO_ROUTER};
	struct dfly_wire_eth eth;
	struct rte_mbuf *m;
	uint8_t *b;
	int len;

	if (k == DP_PEER_FAULT_CTRL_TYPE || k == DP_PEER_FAULT_NOT_PEER) {
		struct dfly_wire_ctrl c = {.type = DFLY_WIRE_CTRL_ACK, .src_router = p->me};
		uint16_t before = p->ntx;

		c.ack.ack = p->expect;
		c.ack.taken = DFLY_WIRE_ACK_NONE; /* a loopback peer keeps no clock: not timed */
		if (k == DP_PEER_FAULT_NOT_PEER)
			c.src_router = (p->me + 1) % lim->routers == p->router
					   ? (p->me + 2) % lim->routers
					   : (p->me + 1) % lim->routers;
		send_ctrl(p, &c);
		if (p->ntx == before)
			return;
		if (k == DP_PEER_FAULT_CTRL_TYPE)
			rte_pktmbuf_mtod(p->txq[p->ntx - 1], uint8_t *)[DFLY_WIRE_ETH_LEN + 1] =
			    200;
		p->st.faults[k]++;
		return;
	}
	if (p->ntx == RTE_DIM(p->txq) || (m = rte_pktmbuf_alloc(p->env->mp)) == NULL) {
		count(p, &p->st.no_room);
		return;
	}
	memset(rte_pktmbuf_mtod(m, void *), 0, 64);
	b = (uint8_t *)rte_pktmbuf_append(m, DFLY_WIRE_ETH_LEN + DFLY_WIRE_DATA_HDR_LEN);
	memcpy(eth.dst, p->peer_mac, 6);
	memcpy(eth.src, p->mac, 6);
	/* sequence numbers: the next one, unconsumed (the frame is rejected before the retry
	 * layer), except for the two faults of the retry layer itself */
	d.seq = p->next_seq;
	if (k == DP_PEER_FAULT_REPLAY)
		d.seq = p->next_seq - 1;
	else if (k == DP_PEER_FAULT_GAP)
		d.seq = p->next_seq + 1000;
	len = dfly_wire_data_encode(b, DFLY_WIRE_ETH_LEN + DFLY_WIRE_DATA_HDR_LEN, &eth, &d, NULL);
	if (len < 0) {
		rte_pktmbuf_free(m);
		count(p, &p->st.bad_frame);
		return;
	}
	switch (k) {
	case DP_PEER_FAULT_TRUNCATED:
		rte_pktmbuf_trim(m, (uint16_t)(len - 40));
		break;
	case DP_PEER_FAULT_VERSION:
		b[DFLY_WIRE_ETH_LEN] = 99;
		break;
	case DP_PEER_FAULT_NODE:
		/* dst node, big-endian at header offset 12 */
		b[DFLY_WIRE_ETH_LEN + 12] = 0x7f;
		break;
	case DP_PEER_FAULT_VC:
		b[DFLY_WIRE_ETH_LEN + 5] = (uint8_t)lim->vcs;
		break;
	case DP_PEER_FAULT_ETHERTYPE:
		b[12] = 0x08;
		b[13] = 0x00;
		break;
	case DP_PEER_FAULT_GAP:
		p->naks_expected++;
		break;
	default:
		break;
	}
	p->txq[p->ntx++] = m;
	p->st.faults[k]++;
}

unsigned dp_peer_poll(struct dp_peer *p, uint64_t now_ns)
{
	const struct dp_link_cfg *lk = p->env->link;
	struct rte_mbuf *pk[DP_BURST];
	uint16_t n = rte_eth_rx_burst(p->eth, 0, pk, DP_BURST);

	for (uint16_t i = 0; i < n; i++)
		rte_prefetch0(rte_pktmbuf_mtod(pk[i], void *));
	for (uint16_t i = 0; i < n; i++) {
		struct rte_mbuf *m = pk[i];
		const uint8_t *b = rte_pktmbuf_mtod(m, const uint8_t *);
		uint32_t len = rte_pktmbuf_data_len(m);

		switch (m->nb_segs == 1 ? dfly_wire_classify(b, len) : DFLY_WIRE_CLASS_OTHER) {
		case DFLY_WIRE_CLASS_DATA:
			rx_data(p, m, b, len, now_ns);
			break;
		case DFLY_WIRE_CLASS_CTRL:
			rx_ctrl(p, b, len);
			rte_pktmbuf_free(m);
			break;
		case DFLY_WIRE_CLASS_BUNDLE: {
			/* the router's firmware frames of one transmit: each taken alone */
			struct dfly_wire_bundle_iter it;
			uint8_t f[DFLY_WIRE_ETH_LEN + DFLY_WIRE_BUNDLE_MAX];
			int rc = dfly_wire_bundle_open(b, len, &it);

			if (rc < 0)
				count(p, &p->st.bad_frame);
			else
				while ((rc = dfly_wire_bundle_next(&it, f, sizeof(f))) > 0)
					rx_ctrl(p, f, (uint32_t)rc);
			rte_pktmbuf_free(m);
			break;
		}
		default:
			count(p, &p->st.bad_frame);
			rte_pktmbuf_free(m);
			break;
		}
	}
	if (now_ns >= p->hello_next_ns) {
		struct dfly_wire_ctrl h;

		dfly_wire_hello_fill(&h, p->env->topo, p->me, p->my_port, 0);
		send_ctrl(p, &h);
		p->hello_next_ns = now_ns + (p->up ? lk->hello_us : 10000u) * 1000ull;
	}
	if (p->up && p->fault_left && now_ns >= p->fault_next_ns) {
		/* among the good frames, after those already queued */
		tx_data(p);
		for (int k = 0; k < DP_PEER_FAULT_COUNT; k++)
			send_fault(p, (enum dp_peer_fault)k);
		p->fault_left--;
		p->fault_next_ns = now_ns + 1000000;
	}
	if (p->up) {
		tx_data(p);
		/* acknowledge every ack_every frames, after ack_delay_us, and as a keepalive */
		if ((p->unacked && (p->unacked >= lk->ack_every ||
				    now_ns - p->ack_first_ns >= lk->ack_delay_us * 1000ull)) ||
		    now_ns - p->ack_last_ns >= lk->keepalive_us * 1000ull) {
			struct dfly_wire_ctrl c = {.type = DFLY_WIRE_CTRL_ACK, .src_router = p->me};

			c.ack.ack = p->expect;
			c.ack.taken =
			    DFLY_WIRE_ACK_NONE; /* a loopback peer keeps no clock: not timed */
			send_ctrl(p, &c);
			p->unacked = 0;
			p->ack_last_ns = now_ns;
		}
		/* our input buffer's credits: at once, as running totals */
		if (p->cr_dirty || now_ns - p->cr_last_ns >= lk->credit_refresh_us * 1000ull) {
			struct dfly_wire_ctrl c = {.type = DFLY_WIRE_CTRL_CREDIT,
						   .src_router = p->me};

			c.credit.n = (uint8_t)p->nvc;
			c.credit.due = DFLY_WIRE_CREDIT_NO_DUE; /* a loopback peer keeps no clock */
			for (uint32_t v = 0; v < p->nvc; v++) {
				c.credit.e[v].vc = (uint8_t)v;
				c.credit.e[v].flags = DFLY_WIRE_CREDIT_F_ABS;
				c.credit.e[v].phits = p->cr_total[v];
			}
			send_ctrl(p, &c);
			p->cr_dirty = false;
			p->cr_last_ns = now_ns;
		}
	}
	flush(p);
	return n;
}
