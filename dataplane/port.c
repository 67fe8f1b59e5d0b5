/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Device ports of dfly-switch: fabric links on Ethernet and host edges.
 *
 * Fabric port (a link whose peer router runs in another process, or on another lcore):
 *   - data: packets the ASIC put on the link leave when due (the emulated latency is applied
 *     here, at the sender; the medium adds its own) as 0x88B5 frames carrying a link-level
 *     sequence number. The original stays in the go-back-N replay buffer (llr.h) until the peer
 *     acknowledges it; the device gets a copy. Frames the device refuses are simply dropped:
 *     the retry layer sends them again, so the emulated link stays lossless and in order.
 *   - credits: the input side's credit returns, due after the link latency, are batched into
 *     CREDIT frames that carry running totals per VC (DFLY_WIRE_CREDIT_F_ABS), so a lost frame
 *     is repaired by the next one; the totals are also re-sent every credit_refresh_us.
 *   - control: the firmware's frames (PB_STATE, ECTN_PARTIAL) leave as they are; PB in-band
 *     information flits travel as INFO data frames (sequenced). Received control frames go up
 *     the ASIC's input control line to the CPU port, exactly as in dfly sim.
 *   - HELLO: sent every 10 ms until the peer's HELLO is verified (dfly_wire_hello_check), then
 *     every hello_us. Until then, or for ever when miswired, the port is held down: nothing is
 *     sent but HELLO, and whatever arrives except HELLO is dropped as link_down.
 *   - liveness: an up link that brings no valid frame from its peer (HELLO, ACK keepalives,
 *     credits, data) for link.dead_us is declared down: the ASIC port is held down
 *     (asic_port_set_down), so the router stops using it and fails over (routing.failover);
 *     the retry layer keeps offering what is unacknowledged. The first valid frame after that
 *     brings it back (port counters link_downs, link_ups). Only polled time counts: a gap of
 *     more than DP_STALL_NS between two polls (the process or the machine did not run) is
 *     left out, as the peer could not be heard in it.
 * Host port: ordinary Ethernet from the host is classified (host.h): carried to the node its
 *   destination MAC belongs to, answered (proxy ARP), or dropped by a named reason. Frames are
 *   read only when the injection queue has room for the largest frame, so a busy fabric pushes
 *   back into the host's own queue instead of losing frames.
 */
#include <stdarg.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "dfly/wire.h"
#include "dp.h"
#include "port.h"

/* 02:df:fe:RR:RR:PP: router and port (routers < 65536). */
void dp_fabric_mac(uint32_t router, uint32_t port, uint8_t mac[6])
{
	mac[0] = 0x02;
	mac[1] = 0xdf;
	mac[2] = 0xfe;
	mac[3] = (uint8_t)(router >> 8);
	mac[4] = (uint8_t)router;
	mac[5] = (uint8_t)port;
}

static inline void ctr(struct dp_port *p, enum dfly_port_ctr c, uint64_t n)
{
	p->rt->regs->port_ctr[p->port][c] += n;
}

static inline void drop(struct dp_port *p, enum dfly_drop why)
{
	p->rt->regs->drop[why]++;
}

/* Queue a frame for the device; when the queue is full it is dropped (retry or the next
 * refresh repairs it on fabric ports; on host ports it is counted as host_tx_full).
 * @return true if queued. */
static bool txq_put(struct dp_port *p, struct rte_mbuf *m)
{
	if (p->ntx == DP_TXQ) {
		if (p->kind == DP_PORT_HOST)
			drop(p, DFLY_DROP_HOST_TX_FULL);
		else
			ctr(p, DFLY_WIRE_TX_BUSY, 1);
		rte_pktmbuf_free(m);
		return false;
	}
	p->txq[p->ntx++] = m;
	return true;
}

/* Lockstep: a refused burst is offered again this many times (the peer drains the ring)
 * before what is left is dropped, which a lockstep run counts as a fault. */
#define LS_TX_TRIES 100000u

static void port_flush(struct dp_port *p, unsigned tries)
{
	uint16_t sent = 0;
	unsigned refused = 0;

	while (sent < p->ntx) {
		unsigned left = (unsigned)(p->ntx - sent);
		uint16_t n = rte_eth_tx_burst(p->eth, 0, p->txq + sent,
					      (uint16_t)(left < DP_BURST ? left : DP_BURST));

		if (n == 0) {
			if (++refused >= tries)
				break;
			rte_pause();
			continue;
		}
		sent += n;
	}
	ctr(p, DFLY_WIRE_TX_FRAMES, sent);
	if (sent == p->ntx) {
		p->ntx = 0;
		return;
	}
	if (p->kind == DP_PORT_FABRIC) {
		/* copies: the replay buffer holds the originals */
		ctr(p, DFLY_WIRE_TX_BUSY, p->ntx - sent);
		rte_pktmbuf_free_bulk(p->txq + sent, p->ntx - sent);
		p->ntx = 0;
		return;
	}
	/* host frames wait for the next flush */
	memmove(p->txq, p->txq + sent, (p->ntx - sent) * sizeof(p->txq[0]));
	p->ntx = (uint16_t)(p->ntx - sent);
}

void dp_port_flush(struct dp_port *p)
{
	port_flush(p, 1);
}

/* A new control or ACK frame of @p len bytes, or NULL (counted). */
static struct rte_mbuf *frame_alloc(struct dp_port *p, struct rte_mempool *mp, uint16_t len,
				    uint8_t **data)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(mp);

	if (m == NULL) {
		drop(p, DFLY_DROP_NO_MBUF);
		return NULL;
	}
	*data = (uint8_t *)rte_pktmbuf_append(m, len);
	if (*data == NULL) {
		rte_pktmbuf_free(m);
		drop(p, DFLY_DROP_NO_MBUF);
		return NULL;
	}
	return m;
}

/* @return true if the frame was queued for the device (which may still refuse it). */
static bool send_ctrl(struct dp_port *p, struct rte_mempool *mp, const struct dfly_wire_ctrl *c)
{
	uint8_t buf[DFLY_CPU_FRAME_MAX], *d;
	struct dfly_wire_eth eth;
	struct rte_mbuf *m;
	int len;

	memcpy(eth.dst, p->peer_mac, 6);
	memcpy(eth.src, p->mac, 6);
	len = dfly_wire_ctrl_encode(buf, sizeof(buf), &eth, c);
	if (len < 0)
		return false; /* our own frame: cannot happen with valid state */
	m = frame_alloc(p, mp, (uint16_t)len, &d);
	if (m == NULL)
		return false;
	memcpy(d, buf, (size_t)len);
	return txq_put(p, m);
}

/* ---------------------------------------------------------------------------------------------
 * Fabric: transmit
 */

static uint16_t asic_flags(uint8_t f)
{
	uint16_t a = ASIC_PKT_ROUTED; /* a packet on a link was routed by its source router */

	if (f & DFLY_WIRE_F_NONMIN)
		a |= ASIC_PKT_NONMIN;
	if (f & DFLY_WIRE_F_PHASE)
		a |= ASIC_PKT_PHASE1;
	if (f & DFLY_WIRE_F_MANDATORY_GLOBAL)
		a |= ASIC_PKT_MANDATORY_GLOBAL;
	if (f & DFLY_WIRE_F_LOCAL_MISROUTE_DONE)
		a |= ASIC_PKT_LMIS_DONE;
	if (f & DFLY_WIRE_F_PB)
		a |= ASIC_PKT_PBVEC;
	if (f & DFLY_WIRE_F_NOINTER)
		a |= ASIC_PKT_NOINTER;
	if (f & DFLY_WIRE_F_REPLY)
		a |= ASIC_PKT_REPLY;
	if (f & DFLY_WIRE_F_RES_MIN)
		a |= ASIC_PKT_RES_MIN;
	return a;
}

/* Put the Ethernet and data headers in front of the packet's payload. @return 0 or -1. */
static int encode_data(struct dp_port *p, struct rte_mbuf *m, uint32_t seq)
{
	struct asic_pkt *pk = dp_mbuf_pkt(m);
	uint16_t plen = rte_pktmbuf_data_len(m);
	struct dfly_wire_data d;
	struct dfly_wire_eth eth;
	char *h = rte_pktmbuf_prepend(m, DFLY_WIRE_ETH_LEN + DFLY_WIRE_DATA_HDR_LEN);

	if (h == NULL)
		return -1;
	asic_pkt_wire(pk, &d);
	d.type =
	    (pk->flags & ASIC_PKT_SYNTH) || plen == 0 ? DFLY_WIRE_PKT_SYNTH : DFLY_WIRE_PKT_HOST;
	d.seq = seq;
	d.payload_len = plen;
	memcpy(eth.dst, p->peer_mac, 6);
	memcpy(eth.src, p->mac, 6);
	return dfly_wire_data_encode(h, rte_pktmbuf_data_len(m), &eth, &d, NULL) < 0 ? -1 : 0;
}

static void send_copy(struct dp_port *p, struct rte_mempool *mp, struct rte_mbuf *m)
{
	struct rte_mbuf *c = rte_pktmbuf_copy(m, mp, 0, UINT32_MAX);

	if (c == NULL) {
		/* not lost: still in the replay buffer, the retry timer sends it again */
		drop(p, DFLY_DROP_NO_MBUF);
		return;
	}
	txq_put(p, c);
}

/* A flit of the link (not a packet): a 1-phit data frame @p d with @p body (d->payload_len
 * bytes, or none), sequenced like data, so the link-level retry makes it arrive. */
static void send_flit(struct dp_port *p, struct rte_mempool *mp, struct dfly_wire_data *d,
		      const void *body, uint64_t now_ns, uint64_t due)
{
	struct dfly_wire_eth eth;
	struct rte_mbuf *m;
	uint8_t *b;

	m = frame_alloc(p, mp, DFLY_WIRE_ETH_LEN + DFLY_WIRE_DATA_HDR_LEN + d->payload_len, &b);
	if (m == NULL)
		return;
	memset(dp_mbuf_pkt(m), 0, sizeof(struct asic_pkt));
	*dp_mbuf_due(m) = due; /* lockstep: its due; else NONE (link timing is about packets) */
	memcpy(eth.dst, p->peer_mac, 6);
	memcpy(eth.src, p->mac, 6);
	d->seq = dp_llr_tx_push(&p->tx, m, now_ns);
	dfly_wire_data_encode(b, rte_pktmbuf_data_len(m), &eth, d, body);
	send_copy(p, mp, m);
}

/* A PB in-band information flit: a 1-phit INFO data frame. */
static void send_info(struct dp_port *p, struct rte_mempool *mp, uint32_t vec, uint64_t now_ns,
		      uint64_t due)
{
	struct dfly_wire_data d = {.type = DFLY_WIRE_PKT_INFO,
				   .flags = DFLY_WIRE_F_PB,
				   .size_phits = 1,
				   .via_router = DFLY_WIRE_NO_ROUTER,
				   .pb_vec = vec};

	send_flit(p, mp, &d, NULL, now_ns, due);
}

/* A RES reservation flit (spec §4.9): a RES_REQ or RES_REP data frame with its 12-byte body (a
 * lost one would leave its packet waiting for ever: the retry makes it arrive). */
static void send_res(struct dp_port *p, struct rte_mempool *mp, uint8_t kind,
		     const struct asic_res_flit *f, uint64_t now_ns, uint64_t due)
{
	struct dfly_wire_data d = {.type = kind == ASIC_CTRL_RES_REQ ? DFLY_WIRE_PKT_RES_REQ
								     : DFLY_WIRE_PKT_RES_REP,
				   .size_phits = 1,
				   .via_router = DFLY_WIRE_NO_ROUTER,
				   .payload_len = DFLY_WIRE_RES_LEN};
	struct dfly_wire_res r = {
	    .cookie = f->cookie, .rbar = f->rbar, .len = f->len, .gc = f->gc, .grant = f->grant};
	uint8_t body[DFLY_WIRE_RES_LEN];

	dfly_wire_res_put(body, &r);
	send_flit(p, mp, &d, body, now_ns, due);
}

static void sync_llr(struct dp_port *p)
{
	uint64_t *c = p->rt->regs->port_ctr[p->port];

	c[DFLY_LLR_RETX] = p->st.retx;
	c[DFLY_LLR_TIMEOUTS] = p->st.timeouts;
	c[DFLY_LLR_NAK_TX] = p->st.nak_tx;
	c[DFLY_LLR_NAK_RX] = p->st.nak_rx;
	c[DFLY_LLR_DUP_RX] = p->st.dup_rx;
	c[DFLY_LLR_GAP_RX] = p->st.gap_rx;
	c[DFLY_ACK_TX] = p->st.ack_tx;
	c[DFLY_ACK_RX] = p->st.ack_rx;
}

void dp_port_log(struct dp_port *p, uint64_t now_ns, uint32_t level, const char *fmt, ...)
{
	struct dp_log_rl *rl = &p->log_rl;
	char msg[256];
	va_list ap;

	if (now_ns - rl->win_ns >= 1000000000ull) {
		rl->win_ns = now_ns;
		rl->n = 0;
	}
	if (rl->n >= DP_LOG_BURST) {
		rl->suppressed++;
		return;
	}
	rl->n++;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (rl->suppressed)
		rte_log(level, dp_logtype,
			"dfly-switch: router %u port %u (%s): %s (and %u earlier messages of this "
			"port left out)\n",
			p->rt->id, p->port, p->name, msg, rl->suppressed);
	else
		rte_log(level, dp_logtype, "dfly-switch: router %u port %u (%s): %s\n", p->rt->id,
			p->port, p->name, msg);
	rl->suppressed = 0;
}

/* HELLO: every 10 ms until the peer is verified (the link up), then every hello_us. */
static void tx_hello(struct dp_port *p, const struct dp_env *env, bool up, uint64_t now_ns)
{
	struct dfly_wire_ctrl h;

	if (now_ns < p->hello_next_ns)
		return;
	dfly_wire_hello_fill(&h, env->topo, p->rt->id, p->port, 0);
	send_ctrl(p, env->mp, &h);
	ctr(p, DFLY_HELLO_TX, 1);
	p->hello_next_ns = now_ns + (up ? env->link->hello_us : 10000u) * 1000ull;
}

/* A link-level ACK (or NAK) when the retry layer says one is due. */
static void tx_ack(struct dp_port *p, const struct dp_env *env, uint64_t now_ns)
{
	struct dfly_wire_ctrl c = {.type = DFLY_WIRE_CTRL_ACK, .src_router = p->rt->id};
	uint32_t ack;
	bool nak;

	if (!dp_llr_rx_ack_due(&p->rx, now_ns, env->link->ack_every,
			       env->link->ack_delay_us * 1000ull, env->link->keepalive_us * 1000ull,
			       env->link->nak_us * 1000ull, &ack, &nak, &p->st))
		return;
	c.ack.ack = ack;
	c.ack.flags = nak ? DFLY_WIRE_ACK_F_NAK : 0;
	c.ack.taken = p->rx_taken;
	send_ctrl(p, env->mp, &c);
}

/* A CREDIT frame: the running totals of every input VC and the newest credit's @p due (or
 * DFLY_WIRE_CREDIT_NO_DUE: a refresh). @return true if queued (counted). */
static bool send_credits(struct dp_port *p, struct rte_mempool *mp, uint64_t due)
{
	struct dfly_wire_ctrl c = {.type = DFLY_WIRE_CTRL_CREDIT, .src_router = p->rt->id};

	c.credit.n = (uint8_t)p->nvc_in;
	c.credit.due = due;
	for (uint32_t v = 0; v < p->nvc_in; v++) {
		c.credit.e[v].vc = (uint8_t)v;
		c.credit.e[v].flags = DFLY_WIRE_CREDIT_F_ABS;
		c.credit.e[v].phits = p->cr_total[v];
	}
	if (!send_ctrl(p, mp, &c))
		return false;
	ctr(p, DFLY_CREDIT_FRAMES_TX, 1);
	return true;
}

static void tx_lockstep(struct dp_port *p, const struct dp_env *env, uint64_t cur, uint64_t now_ns);

/* The firmware frames of one transmit, gathered into one BUNDLE (link.bundle): a frame alone
 * still goes as itself, so a port whose firmware sends little puts the same frames on the wire
 * as without bundling. The records keep their order, and nothing else the port sends passes
 * them: the batch is sent before a flit of the control line and at the end of the line. */
struct fw_batch {
	unsigned n;                                          /* frames gathered */
	uint16_t one_len;                                    /* the first one, alone */
	size_t blen;                                         /* the BUNDLE, n >= 2 */
	uint8_t one[DFLY_CPU_FRAME_MAX];                     /* the first frame */
	uint8_t b[DFLY_WIRE_ETH_LEN + DFLY_WIRE_BUNDLE_MAX]; /* the BUNDLE */
};

static void fw_send(struct dp_port *p, struct rte_mempool *mp, const uint8_t *f, size_t len)
{
	uint8_t *d;
	struct rte_mbuf *m = frame_alloc(p, mp, (uint16_t)len, &d);

	if (m == NULL)
		return;
	memcpy(d, f, len);
	txq_put(p, m);
}

static void fw_flush(struct dp_port *p, struct rte_mempool *mp, struct fw_batch *fb)
{
	if (fb->n == 1) {
		fw_send(p, mp, fb->one, fb->one_len);
	} else if (fb->n > 1) {
		fw_send(p, mp, fb->b, fb->blen);
		ctr(p, DFLY_WIRE_TX_BUNDLES, 1);
		ctr(p, DFLY_WIRE_TX_BUNDLED, fb->n);
	}
	fb->n = 0;
}

/* A firmware frame @p f of @p len bytes (the firmware does not know MACs: they are written
 * here) onto the wire, alone or in the port's BUNDLE. */
static void fw_put(struct dp_port *p, const struct dp_env *env, struct fw_batch *fb, uint8_t *f,
		   uint16_t len)
{
	struct dfly_wire_eth eth;
	int rc;

	memcpy(f, p->peer_mac, 6);
	memcpy(f + 6, p->mac, 6);
	if (!env->link->bundle) {
		fw_send(p, env->mp, f, len);
		return;
	}
	if (fb->n == 1) {
		memcpy(eth.dst, p->peer_mac, 6);
		memcpy(eth.src, p->mac, 6);
		rc = dfly_wire_bundle_start(fb->b, sizeof(fb->b), &eth);
		if (rc > 0)
			rc = dfly_wire_bundle_add(fb->b, sizeof(fb->b), (size_t)rc, fb->one,
						  fb->one_len);
		if (rc > 0)
			rc = dfly_wire_bundle_add(fb->b, sizeof(fb->b), (size_t)rc, f, len);
		if (rc > 0) {
			fb->blen = (size_t)rc;
			fb->n = 2;
			return;
		}
		fw_flush(p, env->mp, fb); /* refused (a malformed frame): each goes alone */
	} else if (fb->n > 1) {
		rc = dfly_wire_bundle_add(fb->b, sizeof(fb->b), fb->blen, f, len);
		if (rc > 0) {
			fb->blen = (size_t)rc;
			fb->n++;
			return;
		}
		fw_flush(p, env->mp, fb); /* full, or refused: this one starts the next */
	}
	memcpy(fb->one, f, len);
	fb->one_len = len;
	fb->n = 1;
}

void dp_fabric_tx(struct dp_port *p, const struct dp_env *env, uint64_t cur, uint64_t now_ns)
{
	struct dfly_regs *regs = p->rt->regs;
	bool up = regs->link_state[p->port] == DFLY_LINK_UP;
	uint8_t buf[DFLY_CPU_FRAME_MAX];
	enum asic_ctrl_kind kind;
	struct asic_pkt *pk;
	uint16_t len;
	uint8_t vc;
	uint16_t phits;
	uint64_t due;
	struct fw_batch fb;

	if (env->lockstep) {
		tx_lockstep(p, env, cur, now_ns);
		return;
	}
	fb.n = 0;
	/* liveness: nothing valid from the peer for dead_us → the ASIC stops using the link */
	if (up && !p->dead && env->link->dead_us != 0 &&
	    now_ns - p->last_rx_ns > env->link->dead_us * 1000ull) {
		p->dead = true;
		asic_port_set_down(p->rt->as, p->port, true);
		ctr(p, DFLY_LINK_DOWNS, 1);
		/* ERR, as its "link up": a link event, seen under the --log-level=error that dfly
		 * testbed and the integration tests give the processes (the global level filters
		 * every type), as before the log type */
		dp_port_log(p, now_ns, RTE_LOG_ERR,
			    "nothing from router %u for %u us: link down, routing around it",
			    p->peer_router, env->link->dead_us);
	}
	/* HELLO: fast until the peer is verified */
	tx_hello(p, env, up, now_ns);
	/* go-back-N first: new frames wait until the replay has caught up */
	if (up) {
		void *fr[DP_BURST];
		uint32_t seqs[DP_BURST];
		unsigned n = dp_llr_tx_resend(&p->tx, now_ns, env->link->rto_us * 1000ull, fr, seqs,
					      DP_BURST, &p->st);

		for (unsigned i = 0; i < n; i++)
			send_copy(p, env->mp, fr[i]);
	}
	/* data due on the link */
	while (up && dp_llr_tx_room(&p->tx) && p->ntx < DP_TXQ &&
	       (pk = asic_link_pop_data(p->out, cur, &due)) != NULL) {
		struct rte_mbuf *m = dp_pkt_mbuf(pk);
		uint32_t seq = p->tx.next_seq;

		*dp_mbuf_due(m) = due; /* the peer's ACK says when it took it (link timing) */

		if (encode_data(p, m, seq) < 0) {
			/* no headroom: cannot happen with our pool; never silently */
			drop(p, DFLY_DROP_NO_MBUF);
			rte_pktmbuf_free(m);
			continue;
		}
		dp_llr_tx_push(&p->tx, m, now_ns);
		send_copy(p, env->mp, m);
	}
	/* control line: firmware frames, PB information and RES flits. A RES flit must not be
	 * lost (its packet would wait for ever): like data, it waits on the line while the link
	 * is down or the retry buffer full, and what is behind it waits too */
	while (asic_link_peek_ctrl(p->out, cur, &kind) &&
	       (!(kind == ASIC_CTRL_RES_REQ || kind == ASIC_CTRL_RES_REP) ||
		(up && dp_llr_tx_room(&p->tx))) &&
	       asic_link_pop_ctrl(p->out, cur, &kind, buf, sizeof(buf), &len)) {
		if (!up) {
			drop(p, DFLY_DROP_LINK_DOWN);
			continue;
		}
		if (kind == ASIC_CTRL_PB_INFO) {
			uint32_t vec;

			fw_flush(p, env->mp, &fb);
			memcpy(&vec, buf, sizeof(vec));
			if (dp_llr_tx_room(&p->tx))
				send_info(p, env->mp, vec, now_ns, DFLY_WIRE_ACK_NONE);
			else
				drop(p, DFLY_DROP_CTRL_LINK_FULL);
			continue;
		}
		if (kind == ASIC_CTRL_RES_REQ || kind == ASIC_CTRL_RES_REP) {
			struct asic_res_flit f;

			fw_flush(p, env->mp, &fb);
			memcpy(&f, buf, sizeof(f));
			send_res(p, env->mp, (uint8_t)kind, &f, now_ns, DFLY_WIRE_ACK_NONE);
			continue;
		}
		fw_put(p, env, &fb, buf, len);
	}
	fw_flush(p, env->mp, &fb);
	/* credit returns of our input side, batched as running totals */
	while (asic_link_pop_credit(p->in, cur, &vc, &phits, &due)) {
		if (vc < DFLY_MAX_VCS)
			p->cr_total[vc] = (uint16_t)(p->cr_total[vc] + phits);
		if (!p->cr_dirty)
			p->cr_first_ns = now_ns;
		p->cr_dirty = true;
		p->cr_due = due; /* popped in due order: the newest */
	}
	if (up &&
	    ((p->cr_dirty && now_ns - p->cr_first_ns >= env->link->credit_delay_us * 1000ull) ||
	     now_ns - p->cr_last_ns >= env->link->credit_refresh_us * 1000ull)) {
		/* timed like the data: not what was held while the link was coming up */
		if (send_credits(p, env->mp,
				 p->cr_dirty && p->cr_due >= p->up_cycle ? p->cr_due
									 : DFLY_WIRE_CREDIT_NO_DUE))
			p->cr_dirty = false; /* else the totals go again at the next call, timed */
		p->cr_last_ns = now_ns;
	}
	if (up)
		tx_ack(p, env, now_ns);
	sync_llr(p);
	dp_port_flush(p);
}

/* ---------------------------------------------------------------------------------------------
 * Fabric: lockstep (dfly-switch --lockstep). Every frame the model puts on the link leaves at the
 * next transmit, however far ahead it is due, behind a SYNC that carries its due cycle; the peer
 * takes it at exactly that cycle. After them a bare SYNC says up to which cycle this side has
 * stepped: the peer may step every cycle below that one plus the link's latency, since nothing
 * produced later can be due before. A frame taken after its due cycle, or frames the device
 * refused, end the run's exactness on this port (dp_port.ls_fault, counted).
 */

void dp_lockstep_fault(struct dp_port *p, uint64_t cycle, const char *why)
{
	/* after the last cycle of a run with --cycles (the links held while the testbed stops,
	 * a peer gone first): nothing of the verified run is touched */
	if (p->ls_stop != 0 && cycle >= p->ls_stop)
		return;
	if (cycle < p->ls_fault) {
		p->ls_fault = cycle;
		p->ls_why = why;
	}
}

static bool send_sync(struct dp_port *p, struct rte_mempool *mp, uint64_t next, uint64_t due)
{
	struct dfly_wire_ctrl c = {.type = DFLY_WIRE_CTRL_SYNC, .src_router = p->rt->id};

	c.sync.next = next;
	c.sync.due = due;
	return send_ctrl(p, mp, &c);
}

static void tx_lockstep(struct dp_port *p, const struct dp_env *env, uint64_t cur, uint64_t now_ns)
{
	struct dfly_regs *regs = p->rt->regs;
	bool up = regs->link_state[p->port] == DFLY_LINK_UP;
	uint64_t busy0 = regs->port_ctr[p->port][DFLY_WIRE_TX_BUSY], due;
	uint8_t buf[DFLY_CPU_FRAME_MAX];
	enum asic_ctrl_kind kind;
	struct asic_pkt *pk;
	uint16_t len, phits;
	uint8_t vc;

	tx_hello(p, env, up, now_ns);
	if (!up) {
		port_flush(p, 1);
		return;
	}
	/* go-back-N: a resend goes behind a SYNC with its due again (late, most likely) */
	{
		void *fr[DP_BURST];
		uint32_t seqs[DP_BURST];
		unsigned n = dp_llr_tx_resend(&p->tx, now_ns, env->link->rto_us * 1000ull, fr, seqs,
					      DP_BURST, &p->st);

		for (unsigned i = 0; i < n; i++) {
			send_sync(p, env->mp, p->ls_sent1, *dp_mbuf_due(fr[i]));
			send_copy(p, env->mp, fr[i]);
		}
	}
	/* data: all of it, however far ahead it is due */
	while (dp_llr_tx_room(&p->tx) && (unsigned)p->ntx + 2 <= (unsigned)DP_TXQ &&
	       (pk = asic_link_pop_data(p->out, UINT64_MAX, &due)) != NULL) {
		struct rte_mbuf *m = dp_pkt_mbuf(pk);
		uint32_t seq = p->tx.next_seq;

		*dp_mbuf_due(m) = due;
		if (encode_data(p, m, seq) < 0) {
			drop(p, DFLY_DROP_NO_MBUF);
			dp_lockstep_fault(p, due, "a packet could not be encoded");
			rte_pktmbuf_free(m);
			continue;
		}
		dp_llr_tx_push(&p->tx, m, now_ns);
		if (!send_sync(p, env->mp, p->ls_sent1, due))
			dp_lockstep_fault(p, due, "no buffer for a frame's SYNC");
		send_copy(p, env->mp, m);
	}
	/* the control line: flits (sequenced) and the firmware's frames, each behind its SYNC */
	while ((unsigned)p->ntx + 2 <= (unsigned)DP_TXQ &&
	       asic_link_peek_ctrl_due(p->out, &kind, &due) &&
	       ((kind != ASIC_CTRL_RES_REQ && kind != ASIC_CTRL_RES_REP &&
		 kind != ASIC_CTRL_PB_INFO) ||
		dp_llr_tx_room(&p->tx)) &&
	       asic_link_pop_ctrl(p->out, UINT64_MAX, &kind, buf, sizeof(buf), &len)) {
		uint64_t nomb = regs->drop[DFLY_DROP_NO_MBUF];

		if (!send_sync(p, env->mp, p->ls_sent1, due))
			dp_lockstep_fault(p, due, "no buffer for a frame's SYNC");
		if (kind == ASIC_CTRL_PB_INFO) {
			uint32_t vec;

			memcpy(&vec, buf, sizeof(vec));
			send_info(p, env->mp, vec, now_ns, due);
		} else if (kind == ASIC_CTRL_RES_REQ || kind == ASIC_CTRL_RES_REP) {
			struct asic_res_flit f;

			memcpy(&f, buf, sizeof(f));
			send_res(p, env->mp, (uint8_t)kind, &f, now_ns, due);
		} else {
			uint8_t *d;
			struct rte_mbuf *m = frame_alloc(p, env->mp, len, &d);

			if (m == NULL)
				continue;
			memcpy(d, buf, len);
			memcpy(d, p->peer_mac, 6);
			memcpy(d + 6, p->mac, 6);
			txq_put(p, m);
		}
		if (regs->drop[DFLY_DROP_NO_MBUF] != nomb)
			dp_lockstep_fault(p, due, "no buffer for a timed frame");
	}
	/* credit returns: one CREDIT frame per due cycle (running totals, that cycle's due) */
	while ((unsigned)p->ntx + 2 <= (unsigned)DP_TXQ &&
	       asic_link_pop_credit(p->in, UINT64_MAX, &vc, &phits, &due)) {
		if (p->cr_dirty && due != p->cr_due && send_credits(p, env->mp, p->cr_due))
			p->cr_dirty = false;
		if (vc < DFLY_MAX_VCS)
			p->cr_total[vc] = (uint16_t)(p->cr_total[vc] + phits);
		p->cr_dirty = true;
		p->cr_due = due;
	}
	if (p->cr_dirty && send_credits(p, env->mp, p->cr_due)) {
		p->cr_dirty = false;
		p->cr_last_ns = now_ns;
	}
	tx_ack(p, env, now_ns);
	/* the horizon, when it moved, and every millisecond (liveness while we wait). Only once
	 * everything the stepped cycles put on the link has gone: what is left (the retry buffer
	 * or the transmit queue full) was produced after the last horizon sent, which stands */
	{
		enum asic_ctrl_kind k;
		uint64_t d;
		bool left = asic_link_pkts(p->out) > 0 || asic_link_peek_ctrl_due(p->out, &k, &d) ||
			    asic_link_credits(p->in) > 0 || p->cr_dirty;
		uint64_t next = left ? p->ls_sent1 : cur;

		if (next > p->ls_sent1 || now_ns - p->ls_sync_ns >= 1000000ull) {
			if (send_sync(p, env->mp, next, DFLY_WIRE_SYNC_NONE)) {
				p->ls_sent1 = next;
				p->ls_sync_ns = now_ns;
			}
		}
	}
	sync_llr(p);
	port_flush(p, LS_TX_TRIES);
	if (regs->port_ctr[p->port][DFLY_WIRE_TX_BUSY] != busy0)
		dp_lockstep_fault(p, cur, "the device refused frames");
}

/* ---------------------------------------------------------------------------------------------
 * Fabric: receive
 */

/* Lockstep: the cycle a timed frame (data, flit, firmware frame) enters, its SYNC's due, no
 * earlier than @p cur; a late or untimed one is a fault. Else @p cur. */
static uint64_t ls_take(struct dp_port *p, const struct dp_env *env, uint64_t cur)
{
	uint64_t due = p->ls_due;

	if (!env->lockstep)
		return cur;
	p->ls_due = DFLY_WIRE_SYNC_NONE;
	if (due == DFLY_WIRE_SYNC_NONE) {
		dp_lockstep_fault(p, cur, "a frame came without its due cycle");
		ctr(p, DFLY_LOCKSTEP_LATE, 1);
		return cur;
	}
	if (due < cur) {
		dp_lockstep_fault(p, due, "a frame arrived after the cycle it was due");
		ctr(p, DFLY_LOCKSTEP_LATE, 1);
		return cur;
	}
	return due;
}

static void rx_data(struct dp_port *p, const struct dp_env *env, struct rte_mbuf *m,
		    const uint8_t *b, uint32_t len, uint64_t cur)
{
	struct dfly_wire_data d;
	struct asic_pkt *pk;
	int rc = dfly_wire_data_decode(b, len, &env->lim, &d);

	/* lockstep: a frame not taken here spends its SYNC; a resend comes with its own */
	if (rc < 0) {
		p->ls_due = DFLY_WIRE_SYNC_NONE;
		drop(p, dfly_drop_of_wire_err(rc));
		rte_pktmbuf_free(m);
		return;
	}
	if (p->rt->regs->link_state[p->port] != DFLY_LINK_UP) {
		p->ls_due = DFLY_WIRE_SYNC_NONE;
		drop(p, DFLY_DROP_LINK_DOWN); /* not acknowledged: the peer sends it again */
		rte_pktmbuf_free(m);
		return;
	}
	if ((d.type == DFLY_WIRE_PKT_RES_REQ || d.type == DFLY_WIRE_PKT_RES_REP) &&
	    asic_link_ctrl_bytes(p->in) + 2 * 16 > p->in->cb_cap) { /* a record: 16 + 12 → 32 B */
		/* no room on the control line for the RES flit: not accepted, so not acknowledged
		 * (the peer sends it again); accepted and then dropped, it would be lost */
		p->ls_due = DFLY_WIRE_SYNC_NONE;
		drop(p, DFLY_DROP_CTRL_LINK_FULL);
		rte_pktmbuf_free(m);
		return;
	}
	if (dp_llr_rx_check(&p->rx, d.seq, &p->st) != DP_LLR_ACCEPT) {
		p->ls_due = DFLY_WIRE_SYNC_NONE; /* a resend we had: its SYNC is spent */
		rte_pktmbuf_free(m);
		return;
	}
	cur = ls_take(p, env, cur); /* lockstep: the cycle it was due, if not late */
	p->rx_taken = cur;          /* the next ACK reports it: the sender knows when it was due */
	if (d.type == DFLY_WIRE_PKT_INFO) {
		if (!asic_link_push_ctrl(p->in, ASIC_CTRL_PB_INFO, &d.pb_vec, sizeof(d.pb_vec),
					 cur))
			drop(p, DFLY_DROP_CTRL_LINK_FULL);
		rte_pktmbuf_free(m);
		return;
	}
	if (d.type == DFLY_WIRE_PKT_RES_REQ || d.type == DFLY_WIRE_PKT_RES_REP) {
		struct dfly_wire_res r;
		struct asic_res_flit f;

		rc = dfly_wire_res_get(b + d.payload_off, d.type, &env->lim, &r);
		if (rc < 0) {
			drop(p, dfly_drop_of_wire_err(rc));
		} else {
			f = (struct asic_res_flit){r.cookie, r.rbar, r.len, r.gc, r.grant};
			if (!asic_link_push_ctrl(p->in,
						 d.type == DFLY_WIRE_PKT_RES_REQ
						     ? ASIC_CTRL_RES_REQ
						     : ASIC_CTRL_RES_REP,
						 &f, sizeof(f), cur))
				drop(p, DFLY_DROP_CTRL_LINK_FULL);
		}
		rte_pktmbuf_free(m);
		return;
	}
	pk = dp_mbuf_pkt(m);
	memset(pk, 0, sizeof(*pk));
	pk->src_node = d.src_node;
	pk->dst_node = d.dst_node;
	pk->val_router = d.via_router;
	pk->len = d.size_phits;
	pk->vc = d.vc;
	pk->ghops = d.global_hops;
	pk->grp_lhops = d.local_hops;
	pk->lhops = d.path_lhops;
	pk->flags = asic_flags(d.flags);
	if (d.type == DFLY_WIRE_PKT_SYNTH)
		pk->flags |= ASIC_PKT_SYNTH;
	pk->pb_vec = d.pb_vec;
	pk->cand_root = UINT32_MAX;
	pk->reason = ASIC_REASON_NONE;
	pk->trig = ASIC_REASON_NONE;
	pk->gen_cycle = d.gen_cycle;
	pk->inj_cycle = d.gen_cycle + d.inj_delay;
	pk->id = d.tag;
	rte_pktmbuf_adj(m, d.payload_off);
	if (rte_pktmbuf_data_len(m) > d.payload_len)
		rte_pktmbuf_trim(m, (uint16_t)(rte_pktmbuf_data_len(m) - d.payload_len));
	if (!asic_link_push_data(p->in, pk, cur)) {
		drop(p, DFLY_DROP_NO_ROOM); /* the peer broke flow control */
		rte_pktmbuf_free(m);
	}
}

/* A valid frame from the peer: the link lives (back up if liveness had declared it down). */
static void alive(struct dp_port *p, uint64_t now_ns)
{
	p->last_rx_ns = now_ns;
	if (p->dead) {
		p->dead = false;
		asic_port_set_down(p->rt->as, p->port, false);
		ctr(p, DFLY_LINK_UPS, 1);
		dp_port_log(p, now_ns, RTE_LOG_ERR, "router %u heard again: link up",
			    p->peer_router);
	}
}

/*
 * Link timing: an ACK that acknowledges new frames says at which cycle the peer's router took
 * the last of them (taken); the replay buffer still holds it, with the cycle it was due at the
 * peer's input. On time, the two differ by the slice granularity (one cycle either way, and the
 * medium); beyond 2 cycles, real time bent the emulated link: a late frame (this lcore behind
 * the clock when it sent, a resend, a slow medium) or an early one (the peer's lcore behind the
 * clock when it took it, so it stamped an older cycle). Both processes must share the clock
 * (--epoch-ns; dfly testbed and the integration tests do), as latencies across them need.
 */
/* A timing family: TIMED, then LATE, _CYCLES, _MAX, EARLY, _CYCLES, _MAX, in that order. */
#define TIMING_FAMILY_ORDERED(F)                                                                   \
	(DFLY_##F##_LATE == DFLY_##F##_TIMED + 1 &&                                                \
	 DFLY_##F##_LATE_CYCLES == DFLY_##F##_TIMED + 2 &&                                         \
	 DFLY_##F##_LATE_MAX == DFLY_##F##_TIMED + 3 &&                                            \
	 DFLY_##F##_EARLY == DFLY_##F##_TIMED + 4 &&                                               \
	 DFLY_##F##_EARLY_CYCLES == DFLY_##F##_TIMED + 5 &&                                        \
	 DFLY_##F##_EARLY_MAX == DFLY_##F##_TIMED + 6)
_Static_assert(TIMING_FAMILY_ORDERED(LINK) && TIMING_FAMILY_ORDERED(CREDIT),
	       "timed() and dfly-switch's exit report rely on the order of the timing counters");

/* Off by @p cycles: count it in the LATE or EARLY run at @p r (count, _CYCLES, _MAX). */
static void timing_off(uint64_t *r, uint64_t cycles)
{
	r[0]++;
	r[1] += cycles;
	if (cycles > r[2])
		r[2] = cycles;
}

/*
 * Something due at cycle @p due was taken at @p at: count it in the family that starts at
 * @p fam (its TIMED counter), as LATE or EARLY when more than 2 cycles apart. A difference of
 * DP_TIMING_MAX or more is a peer on another clock (no shared --epoch-ns) or a broken one: not
 * timed at all, so it cannot wrap the sums. Unsigned both ways: one of the two comes from the
 * peer and may be anything.
 */
static void timed(struct dp_port *p, enum dfly_port_ctr fam, uint64_t at, uint64_t due)
{
	uint64_t *r = p->rt->regs->port_ctr[p->port] + fam;
	uint64_t d = at > due ? at - due : due - at;

	if (d >= DP_TIMING_MAX)
		return;
	r[0]++;
	if (d > 2)
		timing_off(at > due ? r + 1 : r + 4, d);
}

static void link_timing(struct dp_port *p, const struct dfly_wire_ack *a)
{
	struct rte_mbuf *m;
	uint64_t due;

	if (a->taken == DFLY_WIRE_ACK_NONE || !dp_llr_tx_advances(&p->tx, a->ack))
		return;
	m = dp_llr_tx_frame(&p->tx, a->ack - 1);
	/* a packet due before the link came up waited for the peer's HELLO: not a timing fault */
	if (m != NULL && (due = *dp_mbuf_due(m)) != DFLY_WIRE_ACK_NONE && due >= p->up_cycle)
		timed(p, DFLY_LINK_TIMED, a->taken, due);
}

static void rx_ctrl(struct dp_port *p, const struct dp_env *env, const uint8_t *b, uint32_t len,
		    uint64_t cur, uint64_t now_ns)
{
	struct dfly_regs *regs = p->rt->regs;
	struct dfly_wire_ctrl c;
	int rc = dfly_wire_ctrl_decode(b, len, &env->lim, &c);

	if (rc < 0) {
		drop(p, dfly_drop_of_wire_err(rc));
		return;
	}
	if (c.type == DFLY_WIRE_CTRL_HELLO) {
		ctr(p, DFLY_HELLO_RX, 1);
		regs->link_peer[p->port] = c.src_router * 256u + c.hello.port;
		rc = dfly_wire_hello_check(&c, env->topo, p->rt->id, p->port, 0);
		if (rc == 0 && regs->link_state[p->port] != DFLY_LINK_UP) {
			regs->link_state[p->port] = DFLY_LINK_UP;
			p->up_cycle = cur;
			p->hello_next_ns = 0; /* answer at once so the peer comes up too */
		}
		if (rc == 0)
			alive(p, now_ns);
		else if (rc < 0 && regs->link_state[p->port] != DFLY_LINK_MISWIRED) {
			regs->link_state[p->port] = DFLY_LINK_MISWIRED;
			dp_port_log(
			    p, now_ns, RTE_LOG_ERR,
			    "miswired: HELLO from router %u port %u, expected router %u port "
			    "%u (%s); port held down",
			    c.src_router, c.hello.port, p->peer_router, p->peer_port,
			    dfly_wire_err_desc(rc));
		}
		return;
	}
	if (c.type == DFLY_WIRE_CTRL_SYNC && env->lockstep && c.src_router == p->peer_router) {
		/* the peer's horizon, or the due cycle of its next frame: heard whatever the
		 * link's state, never a drop (the peer's side may come up first) */
		if (c.sync.due != DFLY_WIRE_SYNC_NONE) {
			if (p->ls_due != DFLY_WIRE_SYNC_NONE)
				dp_lockstep_fault(p, p->ls_due, "a timed frame never came");
			p->ls_due = c.sync.due;
		} else if (!p->ls_heard || c.sync.next > p->ls_through1) {
			p->ls_through1 = c.sync.next;
			p->ls_heard = true;
		}
		if (regs->link_state[p->port] == DFLY_LINK_UP)
			alive(p, now_ns);
		return;
	}
	if (regs->link_state[p->port] != DFLY_LINK_UP) {
		drop(p, DFLY_DROP_LINK_DOWN);
		return;
	}
	if (c.src_router != p->peer_router) {
		drop(p, DFLY_DROP_NOT_PEER);
		return;
	}
	alive(p, now_ns);
	switch (c.type) {
	case DFLY_WIRE_CTRL_CREDIT: {
		bool fresh = false;

		ctr(p, DFLY_CREDIT_FRAMES_RX, 1);
		for (unsigned i = 0; i < c.credit.n; i++) {
			const struct dfly_wire_credit *e = &c.credit.e[i];
			uint16_t delta = e->phits;

			if (e->flags & DFLY_WIRE_CREDIT_F_ABS) {
				delta = (uint16_t)(e->phits - p->cr_seen[e->vc]);
				if (delta == 0 || delta >= 0x8000u)
					continue; /* repeated or older than what we have */
				p->cr_seen[e->vc] = e->phits;
			}
			fresh = true;
			if (env->lockstep) {
				uint64_t at = c.credit.due;

				if (at == DFLY_WIRE_CREDIT_NO_DUE || at < cur) {
					dp_lockstep_fault(
					    p, at == DFLY_WIRE_CREDIT_NO_DUE ? cur : at,
					    "credits arrived after the cycle they were "
					    "due");
					ctr(p, DFLY_LOCKSTEP_LATE, 1);
					at = cur;
				}
				if (!asic_link_push_credit(p->out, e->vc, delta, at))
					drop(p, DFLY_DROP_CTRL_LINK_FULL);
				continue;
			}
			if (!asic_link_push_credit(p->out, e->vc, delta, cur))
				drop(p, DFLY_DROP_CTRL_LINK_FULL);
		}
		/* credit timing: the newest credit was due at c.credit.due, taken now, at cur (a
		 * frame whose credits were all known already, or a lost one's repair, is not) */
		if (fresh && c.credit.due != DFLY_WIRE_CREDIT_NO_DUE && c.credit.due >= p->up_cycle)
			timed(p, DFLY_CREDIT_TIMED,
			      env->lockstep && c.credit.due > cur ? c.credit.due : cur,
			      c.credit.due);
		break;
	}
	case DFLY_WIRE_CTRL_ACK: {
		void *fr[64];
		unsigned n;

		link_timing(p, &c.ack);
		do {
			n = dp_llr_tx_ack(&p->tx, c.ack.ack, c.ack.flags & DFLY_WIRE_ACK_F_NAK,
					  now_ns, fr, 64, &p->st);
			for (unsigned i = 0; i < n; i++)
				rte_pktmbuf_free(fr[i]);
		} while (n == 64);
		break;
	}
	case DFLY_WIRE_CTRL_PB_STATE:
	case DFLY_WIRE_CTRL_ECTN_PARTIAL:
	case DFLY_WIRE_CTRL_LINK_STATE:
		if (!asic_link_push_ctrl(p->in, ASIC_CTRL_FRAME, b, (uint16_t)len,
					 ls_take(p, env, cur)))
			drop(p, DFLY_DROP_CTRL_LINK_FULL);
		break;
	default:
		drop(p, DFLY_DROP_CTRL_UNSUPPORTED);
		break;
	}
}

/* A BUNDLE: each record taken as the control frame it was, in order (a bad framing drops them
 * all, counted as one decode error of its reason; a bad record only itself). */
static void rx_bundle(struct dp_port *p, const struct dp_env *env, const uint8_t *b, uint32_t len,
		      uint64_t cur, uint64_t now_ns)
{
	struct dfly_wire_bundle_iter it;
	uint8_t f[DFLY_WIRE_ETH_LEN + DFLY_WIRE_BUNDLE_MAX];
	int rc = dfly_wire_bundle_open(b, len, &it);

	if (rc < 0) {
		drop(p, dfly_drop_of_wire_err(rc));
		return;
	}
	ctr(p, DFLY_WIRE_RX_BUNDLES, 1);
	while ((rc = dfly_wire_bundle_next(&it, f, sizeof(f))) > 0)
		rx_ctrl(p, env, f, (uint32_t)rc, cur, now_ns);
}

unsigned dp_fabric_rx(struct dp_port *p, const struct dp_env *env, uint64_t cur, uint64_t now_ns)
{
	struct rte_mbuf *pk[DP_BURST];
	uint16_t n;

	/* Liveness counts only the time the port was polled. A gap between two polls longer
	 * than DP_STALL_NS means this process (or the whole machine: a VM losing its CPU) did
	 * not run, and the peer could not have been heard in it: the gap moves the deadline. A
	 * peer that stops while we run is still declared down after link.dead_us. */
	if (p->last_poll_ns != 0 && now_ns - p->last_poll_ns > DP_STALL_NS) {
		uint64_t gap = now_ns - p->last_poll_ns;

		p->last_rx_ns = p->last_rx_ns + gap < now_ns ? p->last_rx_ns + gap : now_ns;
		p->stalls++;
		if (gap > p->stall_max_ns)
			p->stall_max_ns = gap;
	}
	p->last_poll_ns = now_ns;
	n = rte_eth_rx_burst(p->eth, 0, pk, DP_BURST);
	ctr(p, DFLY_WIRE_RX_FRAMES, n);
	/* the frames were written by another core or a device: fetch them all at once */
	for (uint16_t i = 0; i < n; i++)
		rte_prefetch0(rte_pktmbuf_mtod(pk[i], void *));
	for (uint16_t i = 0; i < n; i++) {
		struct rte_mbuf *m = pk[i];
		const uint8_t *b = rte_pktmbuf_mtod(m, const uint8_t *);
		uint32_t len = rte_pktmbuf_data_len(m);

		if (env->link->loss_ppm &&
		    dfly_rng_below(&p->loss_rng, 1000000) < env->link->loss_ppm) {
			ctr(p, DFLY_WIRE_RX_LOST, 1); /* a lossy medium, emulated */
			if (env->lockstep)
				dp_lockstep_fault(p, cur, "a frame was lost (link.loss_ppm)");
			rte_pktmbuf_free(m);
			continue;
		}
		if (m->nb_segs != 1) {
			drop(p, DFLY_DROP_DECODE);
			rte_pktmbuf_free(m);
			continue;
		}
		switch (dfly_wire_classify(b, len)) {
		case DFLY_WIRE_CLASS_DATA:
			rx_data(p, env, m, b, len, cur);
			break;
		case DFLY_WIRE_CLASS_CTRL:
			rx_ctrl(p, env, b, len, cur, now_ns);
			rte_pktmbuf_free(m);
			break;
		case DFLY_WIRE_CLASS_BUNDLE:
			rx_bundle(p, env, b, len, cur, now_ns);
			rte_pktmbuf_free(m);
			break;
		default:
			drop(p, DFLY_DROP_FABRIC_OTHER);
			rte_pktmbuf_free(m);
			break;
		}
	}
	return n;
}

/* ---------------------------------------------------------------------------------------------
 * Host ports
 */

unsigned dp_host_rx(struct dp_port *p, const struct dp_env *env, uint64_t cur)
{
	struct asic *as = p->rt->as;
	uint32_t room = asic_inject_room(as, p->port);
	uint32_t fit = room / env->host_max_phits;
	uint16_t want = (uint16_t)(fit < DP_BURST ? fit : DP_BURST), n;
	struct rte_mbuf *pk[DP_BURST];

	if (want == 0)
		return 0; /* back-pressure: the frames wait in the host's queue */
	n = rte_eth_rx_burst(p->eth, 0, pk, want);
	ctr(p, DFLY_WIRE_RX_FRAMES, n);
	ctr(p, DFLY_HOST_RX, n);
	for (uint16_t i = 0; i < n; i++) {
		struct rte_mbuf *m = pk[i];
		uint8_t reply[64];
		size_t rlen = 0;
		uint32_t dst = 0;
		enum dfly_drop why = DFLY_DROP_HOST_BAD_FRAME;
		enum dp_host_verdict v;

		if (m->nb_segs != 1) {
			drop(p, DFLY_DROP_HOST_BAD_FRAME);
			rte_pktmbuf_free(m);
			continue;
		}
		v = dp_host_classify(env->hosts, p->node, rte_pktmbuf_mtod(m, const uint8_t *),
				     rte_pktmbuf_data_len(m), env->host_max_frame, &dst, reply,
				     sizeof(reply), &rlen, &why);
		if (v == DP_HOST_DROP) {
			drop(p, why);
			rte_pktmbuf_free(m);
			continue;
		}
		if (v == DP_HOST_REPLY) {
			/* the ARP reply goes back to the host in the request's buffer */
			rte_pktmbuf_reset(m);
			if (rte_pktmbuf_append(m, 60) == NULL) {
				drop(p,
				     DFLY_DROP_NO_MBUF); /* never uncounted: host_rx counted it */
				rte_pktmbuf_free(m);
				continue;
			}
			memset(rte_pktmbuf_mtod(m, uint8_t *), 0, 60);
			memcpy(rte_pktmbuf_mtod(m, uint8_t *), reply, rlen);
			if (txq_put(p, m)) /* else counted once, as host_tx_full */
				ctr(p, DFLY_ARP_REPLIES, 1);
			continue;
		}
		{
			uint32_t len =
			    dp_host_frame_phits(rte_pktmbuf_data_len(m), env->phit_bytes);

			/* lockstep: the ingress record, which dfly verify replays */
			if (p->rt->lc->snap != NULL)
				fprintf(p->rt->lc->snap,
					"ingress %" PRIu64 " %" PRIu32 " %" PRIu32 " %" PRIu32 "\n",
					cur, p->node, dst, len);
			if (!dfly_edge_inject_host(as, p->rt->regs, p->port, dp_mbuf_pkt(m),
						   p->node, dst, len, cur))
				rte_pktmbuf_free(m);
		}
	}
	return n;
}

void dp_host_deliver(struct dp_port *p, struct rte_mbuf *m)
{
	/* a frame is host_tx or host_tx_full, never both */
	if (txq_put(p, m))
		ctr(p, DFLY_HOST_TX, 1);
}
