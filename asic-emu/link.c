/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Links of the switch ASIC model (asic.h): the delay lines between two ASICs (or an ASIC and a
 * driver, half links), their out-of-band control line, the credit returns arriving at the
 * outputs (step stage 1), the PB in-band information flits on idle local links, and a packet's
 * data header as it crosses a link (asic_pkt_wire).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asic_priv.h"
#include "dfly/wire.h"

struct asic_link *asic_link_create(struct asic *up, uint32_t up_port, struct asic *down,
				   uint32_t down_port, uint32_t latency)
{
	struct asic_out *uo;
	struct asic_link *l;
	uint32_t n;

	/* radix <= DFLY_MAX_PORTS (asic_create); said again so that the compiler sees the bound */
	if (up == NULL || down == NULL || up_port >= up->radix || down_port >= down->radix ||
	    up_port >= DFLY_MAX_PORTS || down_port >= DFLY_MAX_PORTS ||
	    up->out[up_port].kind == DFLY_PORT_TERMINAL ||
	    up->out[up_port].kind != down->in[down_port].kind || latency == 0) {
		errno = EINVAL;
		return NULL;
	}
	if (up->out[up_port].link != NULL || down->in[down_port].link != NULL) {
		errno = EEXIST;
		return NULL;
	}
	uo = &up->out[up_port];
	l = calloc(1, sizeof(*l));
	if (l == NULL)
		return NULL;
	/* at most one packet start per min_len cycles, one credit per min_len ticks */
	n = pow2_at_least((latency + 2) * up->par.speedup / up->min_len + 4);
	l->data = calloc(n, sizeof(*l->data));
	l->credit = calloc(n, sizeof(*l->credit));
	/* control line: one PB_STATE-sized record per cycle in flight plus two of the largest */
	l->cb_mask = pow2_at_least((latency + 2) * 64 + 2 * (16 + DFLY_CPU_FRAME_MAX)) - 1;
	l->cb_cap = l->cb_mask + 1;
	l->cbuf = calloc(l->cb_mask + 1, 1);
	if (l->data == NULL || l->credit == NULL || l->cbuf == NULL) {
		asic_link_destroy(l);
		errno = ENOMEM;
		return NULL;
	}
	l->mask = n - 1;
	l->latency = latency;
	l->up = up;
	l->down = down;
	l->up_port = (uint16_t)up_port;
	l->down_port = (uint16_t)down_port;
	uo->link = l;
	up->link_out_mask |= 1ull << up_port;
	if (uo->kind == DFLY_PORT_LOCAL)
		up->local_out_mask |= 1ull << up_port;
	down->in[down_port].link = l;
	down->link_in_mask |= 1ull << down_port;
	return l;
}

struct asic_link *asic_link_create_half(struct asic *as, uint32_t port, bool out, uint32_t latency)
{
	struct asic_link *l;
	uint32_t n, pkts;

	if (as == NULL || port >= as->radix || as->in[port].kind == DFLY_PORT_TERMINAL ||
	    latency == 0) {
		errno = EINVAL;
		return NULL;
	}
	if ((out && as->out[port].link != NULL) || (!out && as->in[port].link != NULL)) {
		errno = EEXIST;
		return NULL;
	}
	l = calloc(1, sizeof(*l));
	if (l == NULL)
		return NULL;
	/* whatever the downstream buffers hold, plus what the link itself carries */
	pkts = (latency + 2) * as->par.speedup / as->min_len + 4;
	for (uint32_t v = 0; v < DFLY_MAX_VCS; v++)
		pkts += as->par.buf[as->in[port].kind] / as->min_len + 1;
	n = pow2_at_least(pkts);
	l->data = calloc(n, sizeof(*l->data));
	l->credit = calloc(n, sizeof(*l->credit));
	l->cb_mask = pow2_at_least((latency + 2) * 64 + 64 * (16 + DFLY_CPU_FRAME_MAX)) - 1;
	l->cb_cap = l->cb_mask + 1;
	l->cbuf = calloc(l->cb_mask + 1, 1);
	if (l->data == NULL || l->credit == NULL || l->cbuf == NULL) {
		asic_link_destroy(l);
		errno = ENOMEM;
		return NULL;
	}
	l->mask = n - 1;
	l->latency = latency;
	if (out) {
		l->up = as;
		l->up_port = (uint16_t)port;
		as->out[port].link = l;
		as->link_out_mask |= 1ull << port;
		if (as->out[port].kind == DFLY_PORT_LOCAL)
			as->local_out_mask |= 1ull << port;
	} else {
		l->down = as;
		l->down_port = (uint16_t)port;
		as->in[port].link = l;
		as->link_in_mask |= 1ull << port;
	}
	return l;
}

void asic_link_destroy(struct asic_link *l)
{
	if (l == NULL)
		return;
	free(l->data);
	free(l->credit);
	free(l->cbuf);
	free(l);
}

int asic_link_set_lag(struct asic_link *l, uint32_t lag)
{
	const struct asic *up = l->up;
	struct asic_link_pkt *data;
	struct asic_link_credit *credit;
	uint32_t n;

	if (lag >= l->latency || up == NULL || l->down == NULL)
		return -EINVAL;
	if (l->d_head != l->d_tail || l->c_head != l->c_tail || l->cb_head != l->cb_tail)
		return -EBUSY;
	/* as asic_link_create(), with lag cycles more in flight */
	n = pow2_at_least((l->latency + 2 + lag) * up->par.speedup / up->min_len + 4);
	data = calloc(n, sizeof(*data));
	credit = calloc(n, sizeof(*credit));
	if (data == NULL || credit == NULL) {
		free(data);
		free(credit);
		return -ENOMEM;
	}
	if (up->threaded || l->down->threaded) {
		/* its two ends on two threads at once: the buffer cannot move under the receiver,
		 * so it is given from the start the size cb_grow() would give it */
		uint8_t *cb = calloc(2 * (size_t)l->cb_cap, 1);

		if (cb == NULL) {
			free(data);
			free(credit);
			return -ENOMEM;
		}
		free(l->cbuf);
		l->cbuf = cb;
		l->cb_mask = 2 * l->cb_cap - 1;
	}
	free(l->data);
	free(l->credit);
	l->data = data;
	l->credit = credit;
	l->mask = n - 1;
	l->d_head = l->d_tail = l->c_head = l->c_tail = 0;
	l->cb_head = l->cb_tail = l->cb_shead = 0;
	l->lag = lag;
	return 0;
}

uint32_t asic_link_pkts(const struct asic_link *l)
{
	return l->d_tail - l->d_head;
}

uint32_t asic_link_credits(const struct asic_link *l)
{
	return l->c_tail - l->c_head;
}

uint32_t asic_link_ctrl_bytes(const struct asic_link *l)
{
	return l->cb_tail - l->cb_head;
}

/* ---------------------------------------------------------------------------------------------
 * Control line: out-of-band records (control frames, PB info flits) with link latency
 */

#define CREC_HDR 16u

static void cb_copy_in(struct asic_link *l, uint32_t pos, const void *src, uint32_t len)
{
	uint32_t off = pos & l->cb_mask, first = l->cb_mask + 1 - off;

	if (first > len)
		first = len;
	memcpy(l->cbuf + off, src, first);
	memcpy(l->cbuf, (const uint8_t *)src + first, len - first);
}

static void cb_copy_out(const struct asic_link *l, uint32_t pos, void *dst, uint32_t len)
{
	uint32_t off = pos & l->cb_mask, first = l->cb_mask + 1 - off;

	if (first > len)
		first = len;
	memcpy(dst, l->cbuf + off, first);
	memcpy((uint8_t *)dst + first, l->cbuf, len - first);
}

/*
 * The first byte of a control line the sender may not overwrite. A driver's line (the receiver
 * is not an ASIC, or @p now is 0): the receiver's head. An ASIC receiver is stepped every cycle
 * and takes every record due by then, so by cycle @p now it has taken those due before it, and
 * those due at @p now only if its step came first: the room counts the former only (cb_shead,
 * kept by the sender), bounded by the real head, so it is the same whatever order the routers
 * of a cycle are stepped in, or on how many threads.
 */
static uint32_t ctrl_room_head(struct asic_link *l, uint64_t now)
{
	uint32_t real = LOAD_ACQ(l->cb_head);
	/* with a lag (asic_link_set_lag) the receiver may not have taken them yet, but the room
	 * counts them as a receiver stepped every cycle would have: the same line is full */
	uint32_t end = l->lag ? l->cb_tail : real;

	if (l->down == NULL || now == 0)
		return real;
	while (l->cb_shead != end) {
		uint64_t due;

		cb_copy_out(l, l->cb_shead, &due, sizeof(due));
		if (due >= now)
			break;
		{
			uint16_t len;

			cb_copy_out(l, l->cb_shead + 8, &len, sizeof(len));
			l->cb_shead += CREC_HDR + ((len + 7u) & ~7u);
		}
	}
	return l->cb_shead;
}

/* The line's buffer, twice as large, what it holds kept in place: a receiver that lags its
 * sender (asic_link_set_lag, one thread) leaves at most cb_cap bytes more on it than a receiver
 * stepped every cycle, so 2 * cb_cap is enough, and most lines never need it. */
static int cb_grow(struct asic_link *l)
{
	uint32_t size = 2 * (l->cb_mask + 1);
	uint8_t *nb;

	if (!l->lag || size > 2 * l->cb_cap || (nb = calloc(size, 1)) == NULL)
		return -1;
	for (uint32_t pos = l->cb_head; pos != l->cb_tail; pos++)
		nb[pos & (size - 1)] = l->cbuf[pos & l->cb_mask];
	free(l->cbuf);
	l->cbuf = nb;
	l->cb_mask = size - 1;
	return 0;
}

/* Pushed at cycle @p now (0: by a driver). @return false if the line has no room (the caller
 * counts the drop). */
bool asic_ctrl_push(struct asic_link *l, uint64_t now, uint64_t due, enum asic_ctrl_kind kind,
		    const void *b, uint16_t len)
{
	uint32_t need = CREC_HDR + ((len + 7u) & ~7u);
	uint8_t hdr[CREC_HDR] = {0};

	if (l->cb_tail - ctrl_room_head(l, now) + need > l->cb_cap)
		return false;
	/* a lagging receiver (asic_link_set_lag) may not have taken up to cb_cap bytes more */
	if (l->cb_tail - LOAD_ACQ(l->cb_head) + need > l->cb_mask + 1 && cb_grow(l) != 0) {
		fprintf(stderr, "asic: control line of %u bytes overrun (lag %u)\n", l->cb_mask + 1,
			l->lag);
		abort();
	}
	memcpy(hdr, &due, 8);
	memcpy(hdr + 8, &len, 2);
	hdr[10] = (uint8_t)kind;
	cb_copy_in(l, l->cb_tail, hdr, CREC_HDR);
	cb_copy_in(l, l->cb_tail + CREC_HDR, b, len);
	STORE_REL(l->cb_tail, l->cb_tail + need);
	if (l->down != NULL)
		cal_mark(l->down, l->down_port, false, due);
	return true;
}

/* The header of the next record, if one is due by @p now. */
static bool ctrl_due(const struct asic_link *l, uint64_t now, uint8_t hdr[CREC_HDR])
{
	uint64_t due;

	if (l->cb_head == LOAD_ACQ(l->cb_tail))
		return false;
	cb_copy_out(l, l->cb_head, hdr, CREC_HDR);
	memcpy(&due, hdr, 8);
	return due <= now;
}

/* Next record due by @p now: fills kind/len/bytes (up to @p max) and pops it. */
bool asic_ctrl_pop(struct asic_link *l, uint64_t now, uint8_t *kind, uint16_t *len, void *b,
		   uint32_t max)
{
	uint8_t hdr[CREC_HDR];

	if (!ctrl_due(l, now, hdr))
		return false;
	memcpy(len, hdr + 8, 2);
	*kind = hdr[10];
	cb_copy_out(l, l->cb_head + CREC_HDR, b, *len < max ? *len : max);
	STORE_REL(l->cb_head, l->cb_head + CREC_HDR + ((*len + 7u) & ~7u));
	return true;
}

struct asic_pkt *asic_link_pop_data(struct asic_link *l, uint64_t now, uint64_t *due)
{
	const struct asic_link_pkt *e;

	if (l->d_head == LOAD_ACQ(l->d_tail))
		return NULL;
	e = &l->data[l->d_head & l->mask];
	if (e->due > now)
		return NULL;
	if (due != NULL)
		*due = e->due;
	l->d_head++;
	return e->pkt;
}

bool asic_link_push_data(struct asic_link *l, struct asic_pkt *pkt, uint64_t due)
{
	if (l->d_tail - l->d_head > l->mask)
		return false;
	link_put_data(l, pkt, due);
	return true;
}

bool asic_link_pop_credit(struct asic_link *l, uint64_t now, uint8_t *vc, uint16_t *phits,
			  uint64_t *due)
{
	struct asic_link_credit *c;

	if (l->c_head == LOAD_ACQ(l->c_tail) || l->credit[l->c_head & l->mask].due > now)
		return false;
	c = &l->credit[l->c_head++ & l->mask];
	*vc = c->vc;
	*phits = c->phits;
	if (due != NULL)
		*due = c->due;
	return true;
}

bool asic_link_push_credit(struct asic_link *l, uint8_t vc, uint16_t phits, uint64_t due)
{
	if (l->c_tail - l->c_head > l->mask)
		return false;
	link_put_credit(l, vc, phits, due, false);
	return true;
}

bool asic_link_pop_ctrl(struct asic_link *l, uint64_t now, enum asic_ctrl_kind *kind, void *buf,
			uint32_t max, uint16_t *len)
{
	uint8_t k;

	if (!asic_ctrl_pop(l, now, &k, len, buf, max))
		return false;
	*kind = (enum asic_ctrl_kind)k;
	return true;
}

bool asic_link_peek_ctrl(const struct asic_link *l, uint64_t now, enum asic_ctrl_kind *kind)
{
	uint8_t hdr[CREC_HDR];

	if (!ctrl_due(l, now, hdr))
		return false;
	*kind = (enum asic_ctrl_kind)hdr[10];
	return true;
}

bool asic_link_peek_ctrl_due(const struct asic_link *l, enum asic_ctrl_kind *kind, uint64_t *due)
{
	uint8_t hdr[CREC_HDR];

	if (!ctrl_due(l, UINT64_MAX, hdr))
		return false;
	*kind = (enum asic_ctrl_kind)hdr[10];
	memcpy(due, hdr, 8);
	return true;
}

bool asic_link_push_ctrl(struct asic_link *l, enum asic_ctrl_kind kind, const void *buf,
			 uint16_t len, uint64_t due)
{
	return asic_ctrl_push(l, 0, due, kind, buf, len);
}

void asic_rx_credits(struct asic *as, uint64_t now, uint64_t m)
{
	while (m) {
		uint32_t o = ctz64(m);
		struct asic_out *out = &as->out[o];
		struct asic_link *l = out->link;

		m &= m - 1;
		while (l->c_head != LOAD_ACQ(l->c_tail) &&
		       l->credit[l->c_head & l->mask].due <= now) {
			struct asic_link_credit *c = &l->credit[l->c_head++ & l->mask];

			credit_give(out, c->vc, c->phits);
			if (c->min)
				out->min_occ[c->vc] -= c->phits;
			if (as->crt != NULL && out->kind == DFLY_PORT_GLOBAL)
				asic_crt_credit(as, o, c->vc, c->phits, now);
			as->regs->port_ctr[o][DFLY_CREDITS_RX] += c->phits;
			credit_gauge(as, o, c->vc);
		}
		far_done(&as->out_far, o, &l->c_tail, l->c_head, &l->c_tail, l->c_head);
	}
}

/* PB in-band (IAR): an idle local link carries a 1-phit information flit when the vector
 * changed since it last went out on that link. */
void asic_pb_info_flits(struct asic *as, uint64_t now)
{
	uint32_t vec = atomic_load_explicit(&as->regs->fw.pb_own_vec, memory_order_relaxed);
	uint64_t m = as->local_out_mask & ~as->down_mask;

	while (m) {
		uint32_t o = ctz64(m);
		struct asic_out *out = &as->out[o];

		m &= m - 1;
		if (out->link_free > now || out->head != out->tail ||
		    (out->vec_sent && out->last_vec == vec))
			continue;
		if (!asic_ctrl_push(out->link, now, now + out->link->latency, ASIC_CTRL_PB_INFO,
				    &vec, sizeof(vec))) {
			as->regs->drop[DFLY_DROP_CTRL_LINK_FULL]++;
			continue;
		}
		out->link_free = now + 1;
		out->last_vec = vec;
		out->vec_sent = true;
		as->regs->port_ctr[o][DFLY_PB_INFO_TX]++;
		as->regs->port_ctr[o][DFLY_LINK_BUSY_CYCLES]++;
	}
}

void asic_pkt_wire(const struct asic_pkt *pk, struct dfly_wire_data *d)
{
	uint64_t dly = pk->inj_cycle >= pk->gen_cycle ? pk->inj_cycle - pk->gen_cycle : 0;
	uint8_t f = 0;

	if (pk->flags & ASIC_PKT_NONMIN)
		f |= DFLY_WIRE_F_NONMIN;
	if (pk->flags & ASIC_PKT_PHASE1)
		f |= DFLY_WIRE_F_PHASE;
	if (pk->flags & ASIC_PKT_MANDATORY_GLOBAL)
		f |= DFLY_WIRE_F_MANDATORY_GLOBAL;
	if (pk->flags & ASIC_PKT_LMIS_DONE)
		f |= DFLY_WIRE_F_LOCAL_MISROUTE_DONE;
	if (pk->flags & ASIC_PKT_PBVEC)
		f |= DFLY_WIRE_F_PB;
	if (pk->flags & ASIC_PKT_NOINTER)
		f |= DFLY_WIRE_F_NOINTER;
	if (pk->flags & ASIC_PKT_REPLY)
		f |= DFLY_WIRE_F_REPLY;
	if (pk->flags & ASIC_PKT_RES_MIN)
		f |= DFLY_WIRE_F_RES_MIN;
	memset(d, 0, sizeof(*d));
	d->flags = f;
	d->global_hops = pk->ghops;
	d->local_hops =
	    pk->grp_lhops > DFLY_WIRE_MAX_LOCAL_HOPS ? DFLY_WIRE_MAX_LOCAL_HOPS : pk->grp_lhops;
	d->vc = pk->vc;
	d->size_phits = pk->len;
	d->src_node = pk->src_node;
	d->dst_node = pk->dst_node;
	d->via_router = pk->val_router;
	d->gen_cycle = pk->gen_cycle;
	d->pb_vec = (pk->flags & ASIC_PKT_PBVEC) ? pk->pb_vec : 0;
	d->tag = pk->id;
	d->path_lhops = pk->lhops;
	d->inj_delay = dly > UINT32_MAX ? UINT32_MAX : (uint32_t)dly;
}
