/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The switch ASIC model (asic.h): CIOQ + VCT + credits + speedup + separable allocator + route
 * stage. See spec §2–§4 and asic.h for the timing model. Per cycle, asic_step() does, in order:
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
#include <time.h>

#include "asic.h"
#include "dfly/wire.h"


struct asic_ivc {
	struct asic_pkt **ring; /* packets whose head has arrived or is on the terminal link */
	uint32_t head, tail, mask;
	uint32_t cap;		/* phits */
	uint32_t occ;		/* phits stored or reserved */
	uint32_t hwm;		/* high-water mark of occ */
	uint64_t last_served;	/* LRS: tick of the last request */
	/* the head, and its ready_tick, kept here while the VC is not empty: the allocator
	 * passes over heads still in the pipeline every tick without loading them */
	struct asic_pkt *hd;
	uint64_t hd_ready;
	/* ...and, once its route is settled (a MIN/VAL/UGAL/PB decision made, one VC), the
	 * head's output port, VC and length: a head blocked for credits or a busy output is
	 * passed over every tick without loading it. hd_port UINT8_MAX: not settled. */
	uint8_t hd_port, hd_vc;
	uint16_t hd_len;
};

/* One slot of the arrival calendar (struct asic). */
struct asic_cal {
	uint64_t in, out;
};

#define ASIC_CAL_MASK (ASIC_CAL_SLOTS - 1)

struct asic_in {
	struct asic_ivc vc[DFLY_MAX_VCS];
	uint32_t nvc;
	uint32_t kind;		/* enum dfly_port_kind */
	uint32_t vc_mask;	/* VCs holding packets */
	uint32_t rr;		/* input arbiter: next VC to favour */
	uint64_t busy_until;	/* tick the crossbar input is free */
	uint64_t rel_tick;	/* tick the tail of the crossing packet leaves the buffer */
	uint16_t rel_len;
	uint8_t rel_vc;
	uint64_t cc_tick;	/* contention counters: tick the crossing packet's tail leaves */
	uint8_t cc_port;	/* ... its minimal output (spec §5.2), counted until cc_tick */
	uint16_t cc_grp;	/* ... its ECtN partial group, or CC_NO_GROUP */
	uint64_t node_link_free; /* terminal ports: cycle the node's link is free */
	uint64_t last_served;	 /* LRS at the output stage */
	struct asic_link *link;	 /* incoming link, NULL for terminal ports */
};

struct asic_out {
	struct asic_pkt **fifo; /* granted packets, in grant order */
	uint32_t head, tail, mask;
	uint32_t cap, occ;	/* phits */
	uint64_t busy_until;	/* tick the crossbar output is free */
	uint64_t link_free;	/* cycle the link may start the next packet */
	uint64_t rel_cycle;	/* cycle the tail of the transmitting packet leaves the FIFO */
	uint16_t rel_len;
	uint8_t rel_pending;
	uint32_t kind;
	uint32_t ncvc;		/* downstream VCs */
	int32_t credits[DFLY_MAX_VCS];
	uint32_t credit_cap[DFLY_MAX_VCS];
	uint32_t rr;		/* output arbiter: next input to favour */
	struct asic_link *link; /* outgoing link, NULL for terminal ports */
	uint32_t piggy_cnt;	/* PB in-band: packets since the last piggybacked vector */
	uint32_t last_vec;	/* PB in-band: last vector sent on this link */
	bool vec_sent;		/* PB in-band: last_vec is valid */
};

struct asic {
	const struct dfly_topo *topo;
	struct asic_params par;
	struct dfly_regs *regs;
	const struct dfly_tbl_pb *tbl_pb; /* tables acquired at the start of the step */
	const struct dfly_tbl_ectn *tbl_ectn;
	const struct dfly_tbl_ugal *tbl_ugal;
	const struct dfly_tbl_lia *tbl_lia;
	bool fw_dead; /* safe mode: the firmware is silent (knobs.fw_ttl), tables ignored */
	bool fail_any;	    /* failover on and a global link of the group is down */
	uint64_t down_mask; /* ports whose link is down (regs.ports_down) */
	uint64_t dead_mask; /* down ports down for knobs.link_dead cycles or more */
	const struct asic *const *group_view; /* UGAL-G oracle: the group's ASICs by rho */
	asic_trace_fn *trace_fn;	      /* capture callback, or NULL */
	void *trace_ctx;
	uint32_t trace_mask;		      /* bit p: capture point p on */
	uint64_t cc_rel_mask;	/* inputs whose crossing packet still holds its counters */
	uint64_t cc_mismatch;	/* knobs.cc_check: cycles the recomputed counters differed */
	uint32_t router, group, radix, p;
	uint32_t min_len;	/* smallest packet, sizes the rings */
	/* minimal output port from here (dfly_topo_min_port, tabled: pkt_cache runs for every
	 * packet at every router): to router rho of this group, and to group D by trunk
	 * dst_node % t (min_grp[D * t + k]; this group's entries unused) */
	uint8_t min_loc[DFLY_MAX_A];
	uint8_t *min_grp;
	struct dfly_rng rng;
	uint64_t held;		/* packets in input VCs and output FIFOs */
	uint64_t tick;		/* allocator tick the route stage evaluates at */
	uint64_t in_mask;	/* inputs holding packets */
	uint64_t rel_mask;	/* inputs with a pending tail release */
	uint64_t out_mask;	/* outputs with packets or a pending tail release */
	uint64_t link_in_mask;	/* inputs with an incoming link */
	uint64_t link_out_mask; /* outputs with an outgoing link */
	uint64_t local_out_mask; /* local outputs with a link (PB in-band info flits) */
	struct asic_ejection *ej;
	uint32_t ej_head, ej_tail, ej_mask;
	/* the arrival calendar: slot c & ASIC_CAL_MASK has bit i of `in` set if data or a
	 * control record is due on the link into input i at cycle c, bit o of `out` if a credit
	 * is due on the link out of output o; a step visits only those links (and the far ones:
	 * due too late for the calendar, polled until their lines are empty) */
	struct asic_cal *cal;
	uint64_t cal_next;	/* the first cycle whose slot has not been taken yet */
	bool threaded;		/* stepped beside other ASICs on other threads (asic_set_threaded) */
	uint64_t in_far;	/* inputs with a record due beyond the calendar */
	uint64_t out_far;	/* outputs with a credit due beyond the calendar */
	struct asic_in in[DFLY_MAX_PORTS];
	struct asic_out out[DFLY_MAX_PORTS];
	/* failover (cold: read when a link is down) */
	const struct dfly_tbl_fail *tbl_fail; /* the network's down group pairs */
	uint64_t fail_down_seen; /* ports_down the view was built with */
	uint32_t fail_knob;	 /* knobs.failover the view was built with */
	uint16_t gdown[DFLY_MAX_A]; /* the group's down global ports by rho (own entry from
				       down_mask, the others from DFLY_TBL_FAIL) */
	uint64_t down_since[DFLY_MAX_PORTS]; /* cycle a down port was first seen down */
};

static uint32_t pow2_at_least(uint32_t n)
{
	uint32_t r = 1;

	while (r < n)
		r <<= 1;
	return r;
}

static inline uint32_t ctz64(uint64_t x)
{
	return (uint32_t)__builtin_ctzll(x);
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
		as->min_loc[rho] = (uint8_t)dfly_topo_min_port(topo, router, as->group * topo->a + rho,
							       (as->group * topo->a + rho) * topo->p);
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
		for (uint32_t v = 0; v < in->nvc; v++) {
			struct asic_ivc *q = &in->vc[v];
			uint32_t n = pow2_at_least(par->buf[kind] / as->min_len + 1);

			q->cap = par->buf[kind];
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
			out->ncvc = par->vcs[kind];
			for (uint32_t v = 0; v < out->ncvc; v++) {
				out->credits[v] = (int32_t)par->buf[kind];
				out->credit_cap[v] = par->buf[kind];
				regs->vc_gauge[i][v][DFLY_VC_CREDITS] = par->buf[kind];
			}
			regs->vc_cap[i] = par->buf[kind];
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
	free(as->ej);
	free(as->cal);
	free(as->min_grp);
	free(as);
}

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

struct asic_link *asic_link_create_half(struct asic *as, uint32_t port, bool out,
					uint32_t latency)
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
 * Routers stepped on several threads (dfly sim --threads): within a cycle, what one router's
 * step writes and another's reads is a link's lines (the sender's tail, the receiver's head)
 * and the receiver's calendar. Nothing pushed during a cycle is due in it (every link has a
 * latency of at least 1), so a receiver only needs what was pushed before the cycle began:
 * - tails are published with a release store and read with an acquire load (a plain move on
 *   x86), so a receiver that sees a new tail sees its record, which is not due yet;
 * - calendar words (asic_set_threaded: one thread marks them with plain ORs, a locked OR
 *   cost it 4-5 % of dfly sim's time) and the far masks take atomic ORs: two senders may mark
 *   one slot;
 * - a control line's room counts only what every order of the steps has freed (ctrl_room_head).
 */
#define LOAD_ACQ(x) __atomic_load_n(&(x), __ATOMIC_ACQUIRE)
#define STORE_REL(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELEASE)

/* Something is due at cycle @p due on the link into input @p port of @p as (data or control) or,
 * @p out, on the link out of output @p port (a credit): its calendar slot, or polling. A record
 * due before the receiver's next step is taken at that step, as a polled link would. The
 * calendar's last slot is left unused: a sender on another thread reads the receiver's
 * cal_next before or after the receiver's step of the same cycle, and either way its mark
 * never lands on the slot that step is clearing. */
static inline void cal_mark(struct asic *as, uint32_t port, bool out, uint64_t due)
{
	uint64_t next = __atomic_load_n(&as->cal_next, __ATOMIC_RELAXED);
	uint64_t c = due > next ? due : next;
	uint64_t bit = 1ull << port;

	uint64_t *w;

	if (c - next >= ASIC_CAL_MASK) {
		__atomic_fetch_or(out ? &as->out_far : &as->in_far, bit, __ATOMIC_SEQ_CST);
		return;
	}
	w = out ? &as->cal[c & ASIC_CAL_MASK].out : &as->cal[c & ASIC_CAL_MASK].in;
	if (as->threaded)
		__atomic_fetch_or(w, bit, __ATOMIC_RELAXED);
	else
		*w |= bit;
}

/* A far port is polled until its lines are empty (each @p tail at its @p head): clear its bit,
 * then look again, as a sender on another thread may have pushed and set it in between. */
static inline void far_done(uint64_t *far, uint32_t port, const uint32_t *tail1, uint32_t head1,
			    const uint32_t *tail2, uint32_t head2)
{
	uint64_t bit = 1ull << port;

	if (!(__atomic_load_n(far, __ATOMIC_RELAXED) & bit) || LOAD_ACQ(*tail1) != head1 ||
	    LOAD_ACQ(*tail2) != head2)
		return;
	__atomic_fetch_and(far, ~bit, __ATOMIC_SEQ_CST);
	if (LOAD_ACQ(*tail1) != head1 || LOAD_ACQ(*tail2) != head2)
		__atomic_fetch_or(far, bit, __ATOMIC_SEQ_CST);
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
static bool ctrl_push(struct asic_link *l, uint64_t now, uint64_t due, enum asic_ctrl_kind kind,
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

/* Next record due by @p now: fills kind/len/bytes (up to @p max) and pops it. */
static bool ctrl_pop(struct asic_link *l, uint64_t now, uint8_t *kind, uint16_t *len, void *b,
		     uint32_t max)
{
	uint8_t hdr[CREC_HDR];
	uint64_t due;

	if (l->cb_head == LOAD_ACQ(l->cb_tail))
		return false;
	cb_copy_out(l, l->cb_head, hdr, CREC_HDR);
	memcpy(&due, hdr, 8);
	if (due > now)
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

/* Put a packet on the data line (room checked by the caller) and tell the receiver when. */
static inline void link_put_data(struct asic_link *l, struct asic_pkt *pkt, uint64_t due)
{
	l->data[l->d_tail & l->mask].pkt = pkt;
	l->data[l->d_tail & l->mask].due = due;
	STORE_REL(l->d_tail, l->d_tail + 1);
	if (l->down != NULL)
		cal_mark(l->down, l->down_port, false, due);
}

/* Put a credit return on the credit line (room checked by the caller) and tell the receiver. */
static inline void link_put_credit(struct asic_link *l, uint8_t vc, uint16_t phits, uint64_t due)
{
	struct asic_link_credit *c = &l->credit[l->c_tail & l->mask];

	c->due = due;
	c->phits = phits;
	c->vc = vc;
	STORE_REL(l->c_tail, l->c_tail + 1);
	if (l->up != NULL)
		cal_mark(l->up, l->up_port, true, due);
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
	link_put_credit(l, vc, phits, due);
	return true;
}

bool asic_link_pop_ctrl(struct asic_link *l, uint64_t now, enum asic_ctrl_kind *kind, void *buf,
			uint32_t max, uint16_t *len)
{
	uint8_t k;

	if (!ctrl_pop(l, now, &k, len, buf, max))
		return false;
	*kind = (enum asic_ctrl_kind)k;
	return true;
}

bool asic_link_push_ctrl(struct asic_link *l, enum asic_ctrl_kind kind, const void *buf,
			 uint16_t len, uint64_t due)
{
	return ctrl_push(l, 0, due, kind, buf, len);
}

/* ---------------------------------------------------------------------------------------------
 * Queues
 */

static inline uint32_t ivc_count(const struct asic_ivc *q)
{
	return q->tail - q->head;
}

static inline struct asic_pkt *ivc_head(const struct asic_ivc *q)
{
	return q->hd;
}

/* Keep the credit gauges of output @p o, VC @p v live: the firmware reads them every period. */
static inline void credit_gauge(struct asic *as, uint32_t o, uint32_t v)
{
	const struct asic_out *out = &as->out[o];

	as->regs->vc_gauge[o][v][DFLY_VC_CREDITS] = out->credits[v];
	as->regs->vc_gauge[o][v][DFLY_VC_DOWN_OCC] = (int64_t)out->credit_cap[v] - out->credits[v];
}

/* ---------------------------------------------------------------------------------------------
 * Contention counters (spec §5.2, §5.6): a packet counts on cc[its minimal output towards the
 * final destination] from the moment its header is at the head of an input VC until its tail
 * has left that input buffer; a packet that entered the group (injection or global input) with
 * a remote destination group D counts on the ECtN partial[D] over the same interval.
 */

#define CC_NO_GROUP 0xffffu

static inline uint32_t cc_min_port(const struct asic *as, const struct asic_pkt *pk)
{
	return dfly_topo_min_port(as->topo, as->router, pk->dst_node / as->topo->p, pk->dst_node);
}

static inline uint32_t cc_group(const struct asic *as, uint32_t in_port, const struct asic_pkt *pk)
{
	uint32_t kind = as->in[in_port].kind, D = pk->dst_group;

	return (kind == DFLY_PORT_TERMINAL || kind == DFLY_PORT_GLOBAL) && D != as->group
		   ? D
		   : CC_NO_GROUP;
}

static inline void ectn_combined_update(struct asic *as, uint32_t D)
{
	struct dfly_regs_mech_ctrs *m = &as->regs->mech;
	uint32_t v = as->tbl_ectn->combined[D];

	if (as->regs->knobs.ectn_own_live)
		v += m->ectn_partial[D];
	m->ectn_combined[D] = (uint16_t)(v > UINT16_MAX ? UINT16_MAX : v);
}

/* The header of @p pk is now at the head of an input VC of @p in_port. */
static void cc_head(struct asic *as, uint32_t in_port, const struct asic_pkt *pk)
{
	uint32_t D = cc_group(as, in_port, pk);

	as->regs->mech.cc[pk->min_port]++;
	if (D != CC_NO_GROUP) {
		as->regs->mech.ectn_partial[D]++;
		ectn_combined_update(as, D);
	}
}

/* Granted: @p pk keeps its counts until its tail leaves the input buffer at @p end. */
static void cc_crossing(struct asic *as, uint32_t in_port, const struct asic_pkt *pk, uint64_t end)
{
	struct asic_in *in = &as->in[in_port];

	in->cc_port = pk->min_port;
	in->cc_grp = (uint16_t)cc_group(as, in_port, pk);
	in->cc_tick = end;
	as->cc_rel_mask |= 1ull << in_port;
}

/* Tails that have left their input buffer by @p tick release their counts. */
static void cc_release(struct asic *as, uint64_t tick)
{
	uint64_t m = as->cc_rel_mask;

	while (m) {
		uint32_t i = ctz64(m);
		struct asic_in *in = &as->in[i];

		m &= m - 1;
		if (in->cc_tick > tick)
			continue;
		as->regs->mech.cc[in->cc_port]--;
		if (in->cc_grp != CC_NO_GROUP) {
			as->regs->mech.ectn_partial[in->cc_grp]--;
			ectn_combined_update(as, in->cc_grp);
			if (in->kind == DFLY_PORT_TERMINAL) {
				/* LIA (spec §6.2): the tail left the injection buffer */
				as->regs->mech.lia_stored[in->cc_grp]--;
				as->regs->mech.lia_injected[in->cc_grp]++;
			}
		}
		as->cc_rel_mask &= ~(1ull << i);
	}
}

/*
 * The equivalent form of spec §5.2, recomputed from scratch: head packets not yet granted plus
 * packets whose tail has not left the input, by minimal output (and ECtN group). @return 0 if
 * it equals the event-driven counters, else -1.
 */
int asic_cc_recompute_check(const struct asic *as)
{
	uint16_t cc[DFLY_MAX_PORTS] = {0}, part[DFLY_MAX_GROUPS] = {0};
	const struct dfly_regs_mech_ctrs *m = &as->regs->mech;

	for (uint32_t i = 0; i < as->radix; i++) {
		const struct asic_in *in = &as->in[i];

		for (uint32_t v = 0; v < in->nvc; v++) {
			const struct asic_ivc *q = &in->vc[v];
			const struct asic_pkt *pk;
			uint32_t D;

			if (ivc_count(q) == 0)
				continue;
			pk = ivc_head(q);
			cc[cc_min_port(as, pk)]++;
			D = cc_group(as, i, pk);
			if (D != CC_NO_GROUP)
				part[D]++;
		}
		if (as->cc_rel_mask & (1ull << i)) {
			cc[in->cc_port]++;
			if (in->cc_grp != CC_NO_GROUP)
				part[in->cc_grp]++;
		}
	}
	if (memcmp(cc, m->cc, sizeof(uint16_t) * as->radix) != 0)
		return -1;
	return memcmp(part, m->ectn_partial, sizeof(part)) == 0 ? 0 : -1;
}

uint64_t asic_cc_mismatches(const struct asic *as)
{
	return as->cc_mismatch;
}

/* Filtered (spec §5.4): est = α·est + (1 − α)·cc, once per cycle, in 1/256 units. */
static void cc_filter(struct asic *as)
{
	struct dfly_regs_mech_ctrs *m = &as->regs->mech;
	uint64_t a = as->regs->knobs.cc_alpha_q8;

	for (uint32_t o = 0; o < as->radix; o++)
		m->cc_est_q8[o] =
		    (uint32_t)((a * m->cc_est_q8[o] + (256 - a) * ((uint64_t)m->cc[o] << 8)) >> 8);
}

/* Capture points (include/dfly/trace.h): one mask test when off. */
#define TRACING(as, pt) (((as)->trace_mask >> (pt)) & 1u)

static void trace_pkt(struct asic *as, uint8_t point, uint32_t port, uint8_t vc,
		      const struct asic_pkt *pk, uint64_t cycle, uint16_t drop)
{
	struct asic_trace_ev ev = {
		.point = point,
		.vc = vc,
		.kind = (uint8_t)dfly_topo_port_kind(as->topo, port),
		.port = (uint16_t)port,
		.drop = drop,
		.cycle = cycle,
		.pkt = pk,
	};

	as->trace_fn(as->trace_ctx, as, &ev);
}

static void trace_frame(struct asic *as, uint32_t port, uint8_t point, const void *frame,
			uint16_t len, uint64_t cycle)
{
	struct asic_trace_ev ev = {
		.point = point,
		.kind = (uint8_t)dfly_topo_port_kind(as->topo, port),
		.port = (uint16_t)port,
		.drop = DFLY_TRACE_NONE,
		.cycle = cycle,
		.frame = frame,
		.len = len,
	};

	as->trace_fn(as->trace_ctx, as, &ev);
}

void asic_set_trace(struct asic *as, asic_trace_fn *fn, void *ctx, uint32_t points)
{
	as->trace_fn = fn;
	as->trace_ctx = ctx;
	as->trace_mask = fn != NULL ? points & ((1u << DFLY_TRACE_POINT_COUNT) - 1) : 0;
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
	memset(d, 0, sizeof(*d));
	d->flags = f;
	d->global_hops = pk->ghops;
	d->local_hops = pk->grp_lhops > DFLY_WIRE_MAX_LOCAL_HOPS ? DFLY_WIRE_MAX_LOCAL_HOPS
								 : pk->grp_lhops;
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

/* Cycles a packet holds a link or a crossbar port: its length, or 1 with link-rate emulation
 * off (asic_params.no_link_rate). */
static inline uint32_t ser_cycles(const struct asic *as, const struct asic_pkt *pk)
{
	return as->par.no_link_rate ? 1u : pk->len;
}

static inline void dec_reset(struct asic_dec *d)
{
	d->q_min = d->q_val = -1;
	d->t = 0;
	d->cc = d->combined = DFLY_TRACE_NONE;
	d->level = 0xff;
	d->flags = 0;
}

/* The minimal output port towards @p dst_node (of router @p dst_router, group @p D), from the
 * tables asic_create() built. */
static inline uint32_t min_port_to(const struct asic *as, uint32_t dst_node, uint32_t dst_router,
				   uint32_t D)
{
	const struct dfly_topo *t = as->topo;

	if (dst_router == as->router)
		return dst_node - dst_router * t->p;
	if (D == as->group)
		return as->min_loc[dst_router - D * t->a];
	return as->min_grp[D * t->t + (t->t == 1 ? 0 : dst_node % t->t)];
}

uint32_t asic_min_port(const struct asic *as, uint32_t dst_node)
{
	uint32_t dst_router = dst_node / as->topo->p;

	return min_port_to(as, dst_node, dst_router, dst_router / as->topo->a);
}

/* What every stage of this router asks of a packet, computed once when it enters a buffer. */
static inline void pkt_cache(const struct asic *as, struct asic_pkt *pk)
{
	uint32_t dst_router = pk->dst_node / as->topo->p, D = dst_router / as->topo->a;

	pk->dst_group = (uint16_t)D;
	pk->min_port = (uint8_t)min_port_to(as, pk->dst_node, dst_router, D);
}

static void ivc_push(struct asic *as, uint32_t port, uint32_t v, struct asic_pkt *pk,
		     uint64_t now)
{
	struct asic_in *in = &as->in[port];
	struct asic_ivc *q = &in->vc[v];

	if (TRACING(as, DFLY_TRACE_VC_ENQ))
		trace_pkt(as, DFLY_TRACE_VC_ENQ, port, (uint8_t)v, pk, now, DFLY_TRACE_NONE);
	pkt_cache(as, pk);
	if (q->tail == q->head) {
		q->hd = pk;
		q->hd_ready = pk->ready_tick;
		q->hd_port = UINT8_MAX;
		cc_head(as, port, pk);
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

/* ---------------------------------------------------------------------------------------------
 * Injection
 */

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
	uint32_t len = pkt->len, v = UINT32_MAX;
	uint64_t start;

	if (port >= as->p)
		return false;
	switch (as->par.inj_select) {
	case DFLY_INJ_JSQ: {
		uint32_t best = 0;

		for (uint32_t i = 0; i < in->nvc; i++) {
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

		for (uint32_t i = 0; i < in->nvc; i++)
			if (in->vc[i].cap - in->vc[i].occ >= len)
				cand[n++] = i;
		if (n)
			v = cand[dfly_rng_below(&as->rng, n)];
		break;
	}
	case DFLY_INJ_DEST:
		v = pkt->dst_node % in->nvc;
		if (in->vc[v].cap - in->vc[v].occ < len)
			v = UINT32_MAX;
		break;
	}
	if (v == UINT32_MAX)
		return false;

	/* the node serialises packets on its link at one phit per cycle */
	start = now > in->node_link_free ? now : in->node_link_free;
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
	if (TRACING(as, DFLY_TRACE_HOST_RX))
		trace_pkt(as, DFLY_TRACE_HOST_RX, port, (uint8_t)v, pkt, now, DFLY_TRACE_NONE);
	ivc_push(as, port, v, pkt, now);
	if (pkt->dst_node / as->topo->p / as->topo->a != as->group)
		as->regs->mech.lia_stored[pkt->dst_node / as->topo->p / as->topo->a]++;
	return true;
}

/* ---------------------------------------------------------------------------------------------
 * Route stage
 */

/* Hop role (spec §2.2) of a hop of @p kind taken now; @p misroute: an OLM local misroute. */
static enum dfly_role hop_role(const struct asic *as, const struct asic_pkt *pk, uint32_t kind,
			       bool towards_root, uint32_t dst_group, bool misroute)
{
	if (kind == DFLY_PORT_GLOBAL)
		return pk->ghops == 0 ? DFLY_ROLE_G1 : DFLY_ROLE_G2;
	if (pk->ghops == 0) {
		if (!towards_root && as->group == dst_group)
			return DFLY_ROLE_D2;
		return pk->grp_lhops == 0 ? DFLY_ROLE_S1 : DFLY_ROLE_S2;
	}
	if (as->group == dst_group && !towards_root)
		return misroute ? DFLY_ROLE_D1 : DFLY_ROLE_D2;
	return towards_root || misroute ? DFLY_ROLE_I1 : DFLY_ROLE_I2;
}

static inline uint32_t hop_vc(const struct asic *as, const struct asic_pkt *pk, uint32_t port,
			      bool towards_root, uint32_t dst_group, bool misroute)
{
	const struct dfly_regs_knobs *k = &as->regs->knobs;
	uint32_t kind = dfly_topo_port_kind(as->topo, port);
	enum dfly_role r;

	if (kind == DFLY_PORT_TERMINAL)
		return 0;
	r = hop_role(as, pk, kind, towards_root, dst_group, misroute);
	if (r == DFLY_ROLE_D2 && pk->ghops > 1 && k->vc_d2_long != 0)
		return k->vc_d2_long;
	return k->vc_map[r];
}

/*
 * FlexVC (spec §2.4, thesis §5.2): a hop may use any VC of its link type placed at or before
 * its own place on the safe path in the reference sequence. The sequence is the mode's role
 * order of spec §2.2 (MIN: S1 G1 D2; VAL: S1 G1 I1 I2 G2 D2, equal neighbours merged), the VCs
 * the role map leaves unused first ("extra VCs ... at the start"). The hop's place: the
 * remaining hop kinds, this one included, matched from the end of the sequence, each at the
 * latest position of its kind. From any allowed VC the rest of the path still climbs the
 * sequence, so a deadlock-free escape exists (thesis Theorem 1).
 */
#define FLEX_SEQ_MAX (2 * DFLY_MAX_VCS)

static unsigned flex_seq(const struct asic *as, uint8_t kind[FLEX_SEQ_MAX],
			 uint8_t vc[FLEX_SEQ_MAX])
{
	static const uint8_t min_roles[] = {DFLY_ROLE_S1, DFLY_ROLE_G1, DFLY_ROLE_D2};
	static const uint8_t val_roles[] = {DFLY_ROLE_S1, DFLY_ROLE_G1, DFLY_ROLE_I1,
					    DFLY_ROLE_I2, DFLY_ROLE_G2, DFLY_ROLE_D2};
	const struct dfly_regs_knobs *k = &as->regs->knobs;
	const uint8_t *roles = k->mode == DFLY_MODE_MIN ? min_roles : val_roles;
	unsigned nroles = k->mode == DFLY_MODE_MIN ? 3 : 6, n = 0;
	uint32_t used[2] = {0, 0};

	for (unsigned r = 0; r < nroles; r++) {
		bool g = roles[r] == DFLY_ROLE_G1 || roles[r] == DFLY_ROLE_G2;

		used[g] |= 1u << k->vc_map[roles[r]];
	}
	for (unsigned g = 0; g < 2; g++) {
		uint32_t nvc = as->par.vcs[g ? DFLY_PORT_GLOBAL : DFLY_PORT_LOCAL];

		for (uint32_t v = 0; v < nvc && n < FLEX_SEQ_MAX; v++) {
			if (used[g] & (1u << v))
				continue;
			kind[n] = g ? DFLY_PORT_GLOBAL : DFLY_PORT_LOCAL;
			vc[n++] = (uint8_t)v;
		}
	}
	for (unsigned r = 0; r < nroles && n < FLEX_SEQ_MAX; r++) {
		uint8_t kd = roles[r] == DFLY_ROLE_G1 || roles[r] == DFLY_ROLE_G2 ? DFLY_PORT_GLOBAL
										   : DFLY_PORT_LOCAL;
		uint8_t v = k->vc_map[roles[r]];

		if (n > 0 && kind[n - 1] == kd && vc[n - 1] == v)
			continue;
		kind[n] = kd;
		vc[n++] = v;
	}
	return n;
}

/* The VCs the hop out of this router may use (bit mask), for a packet going to @p target and,
 * when @p towards_root, from there to @p dst_router; *safe = the VC of its own place. 0 when
 * the remaining path does not fit the sequence (the caller keeps the role VC). */
static uint8_t flex_allow(const struct asic *as, const struct asic_pkt *pk, uint32_t target,
			  uint32_t dst_router, bool towards_root, uint8_t *safe)
{
	uint8_t kind[FLEX_SEQ_MAX], vc[FLEX_SEQ_MAX], allow = 0;
	struct dfly_hop hops[6];
	unsigned n, m = flex_seq(as, kind, vc);
	int ptr = (int)m - 1, pos = -1;

	n = dfly_topo_min_path(as->topo, as->router, target, pk->dst_node, hops);
	if (towards_root)
		n += dfly_topo_min_path(as->topo, target, dst_router, pk->dst_node, hops + n);
	if (n == 0)
		return 0;
	for (int j = (int)n - 1; j >= 0; j--) {
		while (ptr >= 0 && kind[ptr] != hops[j].kind)
			ptr--;
		if (ptr < 0)
			return 0;
		pos = ptr--;
	}
	for (int q = 0; q <= pos; q++)
		if (kind[q] == hops[0].kind)
			allow |= (uint8_t)(1u << vc[q]);
	*safe = vc[pos];
	return allow;
}

/* Choose the VC of a FlexVC hop for this allocation round among the allowed ones with credits
 * for the whole packet; none has: the safe VC (the packet waits there, stalls count there). */
static void flex_pick(struct asic *as, struct asic_pkt *pk)
{
	const struct asic_out *out = &as->out[pk->out_port];
	uint32_t m = pk->vc_allow, ok[DFLY_MAX_VCS], n = 0, best = pk->vc_safe;
	int32_t most = -1;

	while (m) {
		uint32_t v = (uint32_t)__builtin_ctz(m);

		m &= m - 1;
		if (out->credits[v] < (int32_t)pk->len)
			continue;
		ok[n++] = v;
		if (out->credits[v] >= most) { /* JSQ: ties go to the higher index */
			most = out->credits[v];
			best = v;
		}
	}
	if (n == 0) {
		pk->out_vc = pk->vc_safe;
		return;
	}
	switch (as->regs->knobs.flexvc) {
	case DFLY_FLEXVC_HIGHEST:
		best = ok[n - 1];
		break;
	case DFLY_FLEXVC_LOWEST:
		best = ok[0];
		break;
	case DFLY_FLEXVC_RANDOM:
		best = ok[dfly_rng_below(&as->rng, n)];
		break;
	default:
		break;
	}
	pk->out_vc = (uint8_t)best;
}

/* Occupancy Q of output @p port as UGAL and PB see it: phits used downstream on @p vc (or on
 * the whole port with ugal_per_port). Credits are taken at the grant, so the phits waiting in
 * the output FIFO are included. */
static inline uint32_t q_occ(const struct asic *as, uint32_t port, uint32_t vc, bool per_port)
{
	const struct asic_out *out = &as->out[port];
	uint32_t q = 0;

	if (out->kind == DFLY_PORT_TERMINAL)
		return 0;
	if (!per_port)
		return out->credit_cap[vc] - (uint32_t)out->credits[vc];
	for (uint32_t v = 0; v < out->ncvc; v++)
		q += out->credit_cap[v] - (uint32_t)out->credits[v];
	return q;
}

/*
 * UGAL-G (spec §4.5): a non-physical oracle that sees the queues of other routers. Q of each
 * path is the occupancy of its global channel's VC at the router that owns it (the first
 * global hop), plus the local first hop's when that router is another one. Without a view of
 * the group (asic_set_group_view) it degenerates to UGAL-L.
 */
static void ugal_g_occ(const struct asic *as, const struct asic_pkt *pk, uint32_t root,
		       int64_t *qmin, int64_t *qval)
{
	const struct dfly_topo *t = as->topo;
	const uint32_t targets[2] = {pk->dst_node / t->p, root};
	int64_t *q[2] = {qmin, qval};
	uint32_t vc = as->regs->knobs.vc_map[DFLY_ROLE_G1];

	if (as->group_view == NULL)
		return;
	for (int k = 0; k < 2; k++) {
		struct dfly_hop hops[3];
		unsigned n = dfly_topo_min_path(t, as->router, targets[k], pk->dst_node, hops);

		/* the global hop owned by another router of the group: add its queue */
		if (n >= 2 && hops[0].kind == DFLY_PORT_LOCAL && hops[1].kind == DFLY_PORT_GLOBAL) {
			const struct asic *o = as->group_view[hops[1].router % t->a];

			if (o != NULL)
				*q[k] += q_occ(o, hops[1].port, vc, as->regs->knobs.ugal_per_port);
		}
	}
}

static inline bool has_credits(const struct asic *as, uint32_t port, uint32_t vc, uint32_t len)
{
	const struct asic_out *out = &as->out[port];

	return out->kind == DFLY_PORT_TERMINAL || out->credits[vc] >= (int32_t)len;
}

/*
 * Source-adaptive decision (UGAL-L, PB; PAR at every source-group router while minimal):
 * minimal iff the PB bit of the minimal global channel is clear (PB only) and
 * Q_min·256 ≤ F·Q_val + T·256 (spec §4.5, §4.6), against one freshly drawn Valiant path.
 */
static void src_decide(struct asic *as, struct asic_pkt *pk,
		       uint32_t dst_group, bool transit)
{
	const struct dfly_topo *t = as->topo;
	const struct dfly_regs_knobs *k = &as->regs->knobs;
	uint32_t root = pk->cand_root, min_port, val_port, min_vc, val_vc;
	int64_t qmin, qval, T;
	bool ugal_ok, sat = false;

	/* tentative until granted (A-3.4): start from the minimal choice */
	pk->val_router = ASIC_NONE;
	pk->flags &= (uint16_t)~ASIC_PKT_NONMIN;
	if (dst_group == as->group) {
		pk->reason = transit ? ASIC_REASON_NONE : DFLY_ROUTE_SRC_MIN_INTRA;
		return; /* A-4.8: no global hop, no bit or counter applies */
	}
	if (root == UINT32_MAX) {
		pk->flags |= ASIC_PKT_NOINTER;
		pk->reason = ASIC_REASON_NONE;
		return;
	}
	min_port = pk->min_port;
	val_port = dfly_topo_min_port(t, as->router, root, pk->dst_node);
	min_vc = hop_vc(as, pk, min_port, false, dst_group, false);
	val_vc = hop_vc(as, pk, val_port, true, dst_group, false);
	qmin = q_occ(as, min_port, min_vc, k->ugal_per_port);
	qval = q_occ(as, val_port, val_vc, k->ugal_per_port);
	if (k->mode == DFLY_MODE_UGAL_G)
		ugal_g_occ(as, pk, root, &qmin, &qval);
	T = k->ugal_t;
	if (k->mode == DFLY_MODE_LIA || k->mode == DFLY_MODE_TPR) {
		/* spec §6.8: T of the destination group's traffic level (phits) */
		static const uint8_t lvl[] = {DFLY_ROUTE_LIA_LEVEL_BENIGN, DFLY_ROUTE_LIA_LEVEL_MIX,
					      DFLY_ROUTE_LIA_LEVEL_ADV};
		uint8_t l = as->tbl_lia->level[dst_group];

		if (!as->fw_dead) /* safe mode: the configured T */
			T = as->tbl_ugal->t[dst_group];
		pk->trig = lvl[l < 3 ? l : 2];
	}
	ugal_ok = qmin * 256 <= (int64_t)k->ugal_f_q8 * qval + T * 256;
	pk->dec.q_min = (int32_t)qmin;
	pk->dec.q_val = (int32_t)qval;
	pk->dec.t = (int32_t)T;
	if (k->mode == DFLY_MODE_LIA || k->mode == DFLY_MODE_TPR) {
		pk->dec.level = as->tbl_lia->level[dst_group];
		if (as->tbl_lia->use_l1)
			pk->dec.flags |= DFLY_TRACE_F_L1;
		if (as->tbl_lia->l2[dst_group])
			pk->dec.flags |= DFLY_TRACE_F_L2;
	}
	if (k->mode == DFLY_MODE_PB || k->mode == DFLY_MODE_PB_ACOR) {
		uint32_t trunk = dfly_topo_trunk_select(t, as->router, dst_group, pk->dst_node);
		uint32_t rho, q;

		dfly_topo_link_to_group(t, as->group, dst_group, trunk, &rho, &q);
		sat = (as->tbl_pb->sat[rho][q] >> k->vc_map[DFLY_ROLE_G1]) & 1u;
		if (sat)
			pk->dec.flags |= DFLY_TRACE_F_SAT;
	}
	if (!sat && ugal_ok) {
		pk->reason = transit ? DFLY_ROUTE_PAR_TRANSIT_MIN : DFLY_ROUTE_SRC_MIN_UGAL;
		return;
	}
	if (k->nonmin_needs_credits && !has_credits(as, val_port, val_vc, pk->len)) {
		pk->reason = DFLY_ROUTE_NONMIN_NO_CANDIDATE;
		return;
	}
	pk->val_router = root;
	pk->flags |= ASIC_PKT_NONMIN;
	pk->reason = sat	   ? DFLY_ROUTE_SRC_NONMIN_SAT
		     : transit ? DFLY_ROUTE_PAR_TRANSIT_NONMIN
			       : DFLY_ROUTE_SRC_NONMIN_UGAL;
}

/* Draw the Valiant router a source-adaptive decision at this router compares against. */
static void draw_root(struct asic *as, struct asic_pkt *pk, uint32_t dst_group)
{
	static const enum dfly_val_variant acor[] = {DFLY_VAL__G_, DFLY_VAL__GL, DFLY_VAL_LGL};
	const struct dfly_regs_knobs *k = &as->regs->knobs;
	uint32_t r1 = dfly_rng_u32(&as->rng), r2 = dfly_rng_u32(&as->rng);
	enum dfly_val_variant v = (enum dfly_val_variant)k->val_variant;

	if (k->mode == DFLY_MODE_LIA && dst_group != as->group) {
		/* spec §6.7: useL1 (per switch) and keepL2 (per destination group) */
		bool l1 = as->tbl_lia->use_l1, l2 = as->tbl_lia->l2[dst_group];

		v = l1 ? (l2 ? DFLY_VAL_LGL : DFLY_VAL_LG_) : (l2 ? DFLY_VAL__GL : DFLY_VAL__G_);
	} else if (k->mode == DFLY_MODE_PB_ACOR) {
		v = acor[as->tbl_lia->acor_level < 3 ? as->tbl_lia->acor_level : 2];
	}
	pk->cand_root = dfly_topo_val_root_ex(as->topo, v, (enum dfly_val_exclude)k->val_exclude,
					      as->router, dst_group, r1, r2);
}

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

/* Could a packet of @p len go to output @p port on downstream VC @p vc at @p tick? */
static inline bool port_feasible(const struct asic *as, uint32_t port, uint32_t vc, uint32_t len,
				 uint64_t tick)
{
	const struct asic_out *out = &as->out[port];

	if (out->busy_until > tick || out->occ + len > out->cap || out->tail - out->head > out->mask)
		return false;
	if ((as->down_mask >> port) & 1u)
		return (as->dead_mask >> port) & 1u; /* a down link takes nothing until it is dead:
							 then its output discards (no credits) */
	return has_credits(as, port, vc, len);
}

/* ---- failover (routing.failover, PROPOSAL: the spec has no link faults) ----
 *
 * A router knows which global links of its own group are down: its own ports from the
 * hardware bit (asic_port_set_down), the others from the firmware's LINK_STATE exchange
 * (DFLY_TBL_FAIL). It does not know the links of other groups. So:
 *   - at injection, a packet whose first global link (minimal, or towards its Valiant router)
 *     is down goes on a Valiant path whose first global link is up (fail_nonmin, fail_redraw);
 *   - in transit in the source group, a packet about to take a down global port of this
 *     router takes another global port of this router to a third group instead (-G-, role G1,
 *     fail_reroute) -- no extra VC is needed, the packet has not used G1 yet;
 *   - a packet past its first global hop whose next global link is down has no way around it
 *     with two global VCs: it waits for the link (fail_wait), held by flow control, not lost.
 */
#define FAIL_DRAWS 12u

static inline bool gport_down(const struct asic *as, uint32_t rho, uint32_t q)
{
	return (as->gdown[rho] >> q) & 1u;
}

/* Is the global link a minimal path from this router towards group @p G uses down? */
static bool leg_down(const struct asic *as, uint32_t G, uint32_t dst_node)
{
	const struct dfly_topo *t = as->topo;
	uint32_t rho, q;

	dfly_topo_link_to_group(t, as->group, G, dfly_topo_trunk_select(t, as->router, G, dst_node),
				&rho, &q);
	return gport_down(as, rho, q);
}

/* Are the global link(s) between groups @p a and @p b down, as the network told us? */
static bool pair_down(const struct asic *as, uint32_t a, uint32_t b)
{
	const struct dfly_tbl_fail *f = as->tbl_fail;
	uint32_t lo = a < b ? a : b, hi = a < b ? b : a;

	for (uint32_t i = 0; i < f->npairs && i < DFLY_FAIL_MAX_PAIRS; i++)
		if (f->pair[i][0] == lo && f->pair[i][1] == hi)
			return true;
	return false;
}

/* Can a packet for @p dst_group use an intermediate group @p I: is its second leg up? */
static inline bool inter_ok(const struct asic *as, uint32_t I, uint32_t dst_group)
{
	return I == dst_group || !pair_down(as, I, dst_group);
}

/* Of the global ports in @p cand, those whose far group can still reach @p dst_group. */
static uint64_t fail_filter_globals(const struct asic *as, uint64_t cand, uint32_t dst_group)
{
	const struct dfly_topo *t = as->topo;

	for (uint32_t q = 0; q < t->h; q++) {
		uint32_t G = dfly_topo_global_peer(t, as->router, q).router / t->a;

		if (!inter_ok(as, G, dst_group))
			cand &= ~(1ull << (t->first_global + q));
	}
	return cand;
}

/* Global ports of this router that are up and lead to a group other than @p dst_group whose
 * link to @p dst_group is not known to be down. */
static uint64_t fail_own_cands(const struct asic *as, uint32_t dst_group)
{
	const struct dfly_topo *t = as->topo;
	uint64_t c = 0;

	for (uint32_t q = 0; q < t->h; q++) {
		uint32_t G = dfly_topo_global_peer(t, as->router, q).router / t->a;

		if (G != dst_group && !gport_down(as, as->router % t->a, q) &&
		    !pair_down(as, G, dst_group))
			c |= 1ull << (t->first_global + q);
	}
	return c;
}

/* Uniform among the candidates that can take the packet now, else among all of them. */
static uint32_t fail_pick(struct asic *as, const struct asic_pkt *pk, uint64_t cand, uint32_t vc)
{
	uint32_t ok[DFLY_MAX_PORTS], all[DFLY_MAX_PORTS], n = 0, na = 0;

	while (cand) {
		uint32_t c = ctz64(cand);

		cand &= cand - 1;
		all[na++] = c;
		if (port_feasible(as, c, vc, pk->len, as->tick))
			ok[n++] = c;
	}
	if (n)
		return ok[dfly_rng_below(&as->rng, n)];
	return na ? all[dfly_rng_below(&as->rng, na)] : UINT32_MAX;
}

/* Failover in the source group for the modes that decide at the source (route()): @p target is
 * the router the packet heads for (S_ROOT or its destination router). */
static void failover_src(struct asic *as, struct asic_pkt *pk, uint32_t in_port,
			 uint32_t dst_group, uint32_t target)
{
	const struct dfly_topo *t = as->topo;
	const struct dfly_regs_knobs *k = &as->regs->knobs;
	bool val = pk->val_router != ASIC_NONE;
	uint32_t c;

	if (!leg_down(as, target / t->a, pk->dst_node) &&
	    !(val && !(pk->flags & ASIC_PKT_PHASE1) && !inter_ok(as, target / t->a, dst_group)))
		return;
	if (in_port < t->p) {
		/* still in the injection queue: any Valiant path whose first global link is up
		 * (the mode's Path-A variant first, then LGL, which reaches every group) */
		for (uint32_t n = 0; n < FAIL_DRAWS; n++) {
			enum dfly_val_variant v = n < 4 ? (enum dfly_val_variant)k->val_variant
							: DFLY_VAL_LGL;
			uint32_t r1 = dfly_rng_u32(&as->rng), r2 = dfly_rng_u32(&as->rng);
			uint32_t root = dfly_topo_val_root_ex(
				t, v, (enum dfly_val_exclude)k->val_exclude, as->router, dst_group, r1, r2);

			if (root == UINT32_MAX)
				break;
			if (!leg_down(as, root / t->a, pk->dst_node) &&
			    inter_ok(as, root / t->a, dst_group)) {
				pk->val_router = root;
				pk->flags = (uint16_t)((pk->flags | ASIC_PKT_NONMIN) & ~ASIC_PKT_NOINTER);
				pk->reason = val ? DFLY_ROUTE_FAIL_REDRAW : DFLY_ROUTE_FAIL_NONMIN;
				return;
			}
		}
		pk->reason = DFLY_ROUTE_FAIL_WAIT;
		return;
	}
	/* in transit: only the router whose own global port is down moves the packet */
	if (dfly_topo_port_kind(t, dfly_topo_min_port(t, as->router, target, pk->dst_node)) !=
	    DFLY_PORT_GLOBAL)
		return;
	c = fail_pick(as, pk, fail_own_cands(as, dst_group), k->vc_map[DFLY_ROLE_G1]);
	if (c == UINT32_MAX) {
		/* nowhere else to go from here: wait for a down link, or go on towards a group
		 * whose own link onwards is down (it waits there) */
		if (leg_down(as, target / t->a, pk->dst_node))
			pk->reason = DFLY_ROUTE_FAIL_WAIT;
		return;
	}
	pk->val_router = dfly_topo_global_peer(t, as->router, c - t->first_global).router;
	pk->flags = (uint16_t)((pk->flags | ASIC_PKT_NONMIN) & ~ASIC_PKT_NOINTER);
	pk->flags &= (uint16_t)~ASIC_PKT_DECIDING;
	pk->reason = DFLY_ROUTE_FAIL_REROUTE;
}

/* Failover for the in-transit modes (route_olm) in the source group: @return the port taken
 * (out_port, out_vc, pend_flags and reason set), or UINT32_MAX: go on minimally. */
static uint32_t failover_olm(struct asic *as, struct asic_pkt *pk, uint32_t in_port,
			     uint32_t dst_group, uint32_t min_kind)
{
	const struct dfly_topo *t = as->topo;
	const struct dfly_regs_knobs *k = &as->regs->knobs;
	uint32_t c, rho = as->router % t->a;
	uint64_t lc = 0;

	if (!leg_down(as, dst_group, pk->dst_node))
		return UINT32_MAX;
	if (min_kind != DFLY_PORT_GLOBAL && in_port >= t->p)
		return UINT32_MAX; /* the link's own router moves it */
	c = fail_pick(as, pk, fail_own_cands(as, dst_group), k->vc_map[DFLY_ROLE_G1]);
	if (c != UINT32_MAX) {
		pk->out_port = (uint8_t)c;
		pk->out_vc = k->vc_map[DFLY_ROLE_G1];
		pk->pend_flags = ASIC_PKT_NONMIN;
		pk->reason = in_port < t->p ? DFLY_ROUTE_FAIL_NONMIN : DFLY_ROUTE_FAIL_REROUTE;
		return c;
	}
	if (in_port >= t->p)
		return UINT32_MAX;
	/* injection, no usable global port here: a local hop to a router that has one (LG-), whose
	 * global link is then mandatory */
	for (uint32_t r = 0; r < t->a; r++) {
		if (r == rho)
			continue;
		for (uint32_t q = 0; q < t->h; q++) {
			uint32_t G = dfly_topo_global_peer(t, as->group * t->a + r, q).router / t->a;

			if (G != dst_group && !gport_down(as, r, q) && inter_ok(as, G, dst_group)) {
				lc |= 1ull << dfly_topo_local_port(t, rho, r);
				break;
			}
		}
	}
	c = fail_pick(as, pk, lc, k->vc_map[DFLY_ROLE_S1]);
	if (c == UINT32_MAX)
		return UINT32_MAX;
	pk->out_port = (uint8_t)c;
	pk->out_vc = k->vc_map[DFLY_ROLE_S1];
	pk->pend_flags = ASIC_PKT_NONMIN | ASIC_PKT_MANDATORY_GLOBAL;
	pk->reason = DFLY_ROUTE_FAIL_NONMIN;
	return c;
}

/*
 * OLM (spec §4.10, MM+L, 3/2 VCs), with FOGSim's congestion-aware trigger [xcheck]: misrouting
 * is considered only while the minimal hop cannot take the packet and occ%(min) ≥ olm_min_pct.
 * "Cannot take" is: its downstream VC lacks credits for the whole packet, or its output FIFO
 * lacks room. FOGSim also counts an output that is busy in this very cycle; in this model that
 * is a one-tick allocator conflict, and counting it misroutes 17% of UN traffic at 0.2 load on
 * h=4, so it is left out (README, "OLM trigger"). A candidate c is then valid iff it can take
 * the packet now (opportunistic hops never wait, §2.3) and occ%(c) ≤ X%·occ%(min), each
 * occupancy a percentage of its VC's capacity. @return a uniformly drawn valid candidate, or
 * UINT32_MAX.
 */
static uint32_t olm_pick(struct asic *as, const struct asic_pkt *pk, uint64_t cand,
			 uint32_t cand_vc, uint32_t min_port, uint32_t min_vc, uint64_t x)
{
	const struct asic_out *mo = &as->out[min_port];
	uint64_t qmin = q_occ(as, min_port, min_vc, false);
	uint32_t ok[DFLY_MAX_PORTS], n = 0;

	while (cand) {
		uint32_t c = ctz64(cand);
		uint64_t qc;

		cand &= cand - 1;
		if (!port_feasible(as, c, cand_vc, pk->len, as->tick))
			continue;
		qc = q_occ(as, c, cand_vc, false);
		if (qc * mo->credit_cap[min_vc] * 100 <= x * qmin * as->out[c].credit_cap[cand_vc])
			ok[n++] = c;
	}
	return n ? ok[dfly_rng_below(&as->rng, n)] : UINT32_MAX;
}

/* OLM's misrouting condition on the minimal hop (see olm_pick). */
static bool olm_min_congested(const struct asic *as, const struct asic_pkt *pk, uint32_t min_port,
			      uint32_t min_vc)
{
	const struct asic_out *mo = &as->out[min_port];

	if (mo->kind == DFLY_PORT_TERMINAL ||
	    (has_credits(as, min_port, min_vc, pk->len) && mo->occ + pk->len <= mo->cap))
		return false;
	return (uint64_t)q_occ(as, min_port, min_vc, false) * 100 >=
	       (uint64_t)as->regs->knobs.olm_min_pct * mo->credit_cap[min_vc];
}

/* ---- contention counters (spec §5.3-§5.7) ---- */

/* cc (or, Filtered, the estimate) of output @p o against @p th, with the comparison of A-5.1 */
static bool cc_over(const struct asic *as, uint32_t o, uint32_t th)
{
	const struct dfly_regs_knobs *k = &as->regs->knobs;
	uint64_t v = k->mode == DFLY_MODE_FILTERED ? as->regs->mech.cc_est_q8[o]
						   : (uint64_t)as->regs->mech.cc[o] << 8;
	uint64_t lim = (uint64_t)th << 8;

	return k->cc_strict ? v > lim : v >= lim;
}

/* The contention trigger on the minimal output; WEIGHTED (PROPOSAL, §5.3): once over th, fire
 * with probability (excess + 1)/(th + 1), excess = cc − th, re-drawn at every evaluation. */
static bool cc_trigger(struct asic *as, uint32_t m, uint32_t th)
{
	const struct dfly_regs_knobs *k = &as->regs->knobs;

	if (!cc_over(as, m, th))
		return false;
	if (k->cc_weighted) {
		uint32_t c = k->mode == DFLY_MODE_FILTERED ? as->regs->mech.cc_est_q8[m] >> 8
							   : as->regs->mech.cc[m];
		uint32_t excess = c >= th ? c - th : 0;

		if (excess < th && dfly_rng_below(&as->rng, th + 1) > excess)
			return false;
	}
	return true;
}

/* Uniform among @p cand that have credits for the packet on @p vc and (unless @p any) whose
 * counter is below @p th. @return the port or UINT32_MAX. */
static uint32_t cc_pick(struct asic *as, const struct asic_pkt *pk, uint64_t cand, uint32_t vc,
			uint32_t th, bool any)
{
	uint32_t ok[DFLY_MAX_PORTS], n = 0;

	while (cand) {
		uint32_t c = ctz64(cand);

		cand &= cand - 1;
		if (has_credits(as, c, vc, pk->len) && (any || !cc_over(as, c, th)))
			ok[n++] = c;
	}
	return n ? ok[dfly_rng_below(&as->rng, n)] : UINT32_MAX;
}

/* ECtN combined value of group @p D against thc (same comparison as th). */
static bool ectn_over(const struct asic *as, uint32_t D)
{
	const struct dfly_regs_knobs *k = &as->regs->knobs;
	uint32_t v = as->regs->mech.ectn_combined[D];

	return k->cc_strict ? v > k->ectn_thc : v >= k->ectn_thc;
}

/*
 * ECtN at the source router (spec §5.6): a packet at the head of an injection VC whose remote
 * destination group D has combined[D] ≥ thc goes to a global port of this router that does not
 * lead to D and whose group is below thc, uniformly. @return the port or UINT32_MAX (then the
 * Base rule applies, A-5.7).
 */
static uint32_t ectn_pick(struct asic *as, const struct asic_pkt *pk, uint32_t dst_group)
{
	const struct dfly_topo *t = as->topo;
	uint32_t ok[DFLY_MAX_H], n = 0, vc = as->regs->knobs.vc_map[DFLY_ROLE_G1];

	if (!ectn_over(as, dst_group))
		return UINT32_MAX;
	for (uint32_t q = 0; q < t->h; q++) {
		uint32_t G = dfly_topo_global_peer(t, as->router, q).router / t->a;

		if (G != dst_group && !ectn_over(as, G) &&
		    !((as->down_mask >> (t->first_global + q)) & 1u) &&
		    (!as->fail_any || inter_ok(as, G, dst_group)) &&
		    has_credits(as, t->first_global + q, vc, pk->len))
			ok[n++] = t->first_global + q;
	}
	return n ? ok[dfly_rng_below(&as->rng, n)] : UINT32_MAX;
}

/*
 * The misrouting trigger and candidate choice of an in-transit mode at a decision point whose
 * candidates are @p cand on VC @p vc (spec §5.7 table; OLM §4.10). @return the chosen port, or
 * UINT32_MAX: minimal; *@p fired tells whether a trigger fired without a valid candidate (the
 * grant then counts OLM_NO_CANDIDATE, for every in-transit mode).
 */
static uint32_t intransit_pick(struct asic *as, struct asic_pkt *pk, uint64_t cand, uint32_t vc,
			       uint32_t min_port, uint32_t min_vc, bool *fired)
{
	const struct dfly_regs_knobs *k = &as->regs->knobs;
	uint32_t c;

	pk->trig = ASIC_REASON_NONE;
	if (k->mode == DFLY_MODE_OLM) {
		if (!olm_min_congested(as, pk, min_port, min_vc))
			return UINT32_MAX;
		c = olm_pick(as, pk, cand, vc, min_port, min_vc, k->olm_x_pct);
		*fired = c == UINT32_MAX;
		return c;
	}
	if (k->mode == DFLY_MODE_HYBRID) {
		if (cc_trigger(as, min_port, k->hyb_th)) {
			c = cc_pick(as, pk, cand, vc, k->hyb_th, k->hyb_any);
			if (c != UINT32_MAX) {
				pk->trig = DFLY_ROUTE_CC_TRIG_CONTENTION;
				return c;
			}
			*fired = true;
		}
		if (olm_min_congested(as, pk, min_port, min_vc)) {
			c = olm_pick(as, pk, cand, vc, min_port, min_vc, k->hyb_y_pct);
			if (c != UINT32_MAX) {
				pk->trig = DFLY_ROUTE_CC_TRIG_CREDIT;
				return c;
			}
			*fired = true;
		}
		return UINT32_MAX;
	}
	/* Base, Filtered, and ECtN's hop-by-hop rule */
	if (!cc_trigger(as, min_port, k->cc_th))
		return UINT32_MAX;
	c = cc_pick(as, pk, cand, vc, k->cc_th, false);
	*fired = c == UINT32_MAX;
	if (c != UINT32_MAX)
		pk->trig = DFLY_ROUTE_CC_TRIG_CONTENTION;
	return c;
}

/* In-transit route stage (OLM and the contention modes), re-evaluated every allocation round
 * until the head is granted. */
static void route_olm(struct asic *as, struct asic_pkt *pk, uint32_t in_port, uint32_t dst_group)
{
	const struct dfly_topo *t = as->topo;
	uint32_t min_port = pk->min_port;
	uint32_t min_kind = dfly_topo_port_kind(t, min_port);
	uint64_t locals = ((1ull << (t->a - 1)) - 1) << t->first_local;
	uint64_t cand = 0;
	uint32_t c, vc = 0, min_vc = hop_vc(as, pk, min_port, false, dst_group, false);
	uint16_t pend = 0;
	uint8_t why = ASIC_REASON_NONE, miss = DFLY_ROUTE_OLM_NO_CANDIDATE;

	pk->dec.cc = as->regs->mech.cc[min_port];
	pk->dec.q_min = (int32_t)q_occ(as, min_port, min_vc, false);
	/* a packet that found its minimal hop blocked with no valid candidate at this router, and
	 * later takes the minimal hop here, counts as "no candidate" when granted */
	uint8_t prev = pk->reason == miss ? miss : ASIC_REASON_NONE;

	pk->pend_flags = 0;
	pk->reason = ASIC_REASON_NONE;
	pk->trig = ASIC_REASON_NONE;
	if (pk->flags & ASIC_PKT_MANDATORY_GLOBAL) {
		/* A-4.6: any of this router's global links that can take the packet now, uniform;
		 * else wait on the minimal one if it is global, else on a fixed one */
		uint32_t ok[DFLY_MAX_H], n = 0, vcg = as->regs->knobs.vc_map[DFLY_ROLE_G1];

		for (uint32_t q = 0; q < t->h; q++)
			if (port_feasible(as, t->first_global + q, vcg, pk->len, as->tick) &&
			    (!as->fail_any ||
			     inter_ok(as, dfly_topo_global_peer(t, as->router, q).router / t->a,
				      dst_group)))
				ok[n++] = t->first_global + q;
		if (n) {
			c = ok[dfly_rng_below(&as->rng, n)];
		} else if (min_kind == DFLY_PORT_GLOBAL && !((as->down_mask >> min_port) & 1u)) {
			c = min_port;
		} else {
			/* a fixed one, the first whose link is up if any (failover) */
			c = t->first_global + as->router % t->h;
			for (uint32_t q = 0; q < t->h && ((as->down_mask >> c) & 1u); q++)
				c = t->first_global + (as->router + q + 1) % t->h;
		}
		pk->out_port = (uint8_t)c;
		pk->out_vc = (uint8_t)vcg;
		pk->reason = DFLY_ROUTE_OLM_MANDATORY_GLOBAL;
		return;
	}
	if (as->fail_any && pk->ghops == 0 && as->group != dst_group &&
	    failover_olm(as, pk, in_port, dst_group, min_kind) != UINT32_MAX)
		return;
	if (as->group != dst_group || pk->ghops > 0) {
		if (pk->ghops == 0 && in_port < t->p) {
			/* injection: CRG, the current router's other global ports */
			for (uint32_t q = 0; q < t->h; q++) {
				struct dfly_gport gp = dfly_topo_global_peer(t, as->router, q);

				if (gp.router / t->a != dst_group)
					cand |= 1ull << (t->first_global + q);
			}
			cand &= ~(1ull << min_port);
			vc = as->regs->knobs.vc_map[DFLY_ROLE_G1];
			pend = ASIC_PKT_NONMIN;
			why = ASIC_REASON_NONE; /* counted by the grant as INJ_GLOBAL_MISROUTE */
			if (as->regs->knobs.mode == DFLY_MODE_ECTN) {
				pk->dec.combined = as->regs->mech.ectn_combined[dst_group];
				c = ectn_pick(as, pk, dst_group);
				if (c != UINT32_MAX) {
					pk->out_port = (uint8_t)c;
					pk->out_vc = (uint8_t)vc;
					pk->pend_flags = pend;
					pk->trig = DFLY_ROUTE_CC_TRIG_ECTN;
					return;
				}
			}
		} else if (pk->ghops == 0 && !(pk->flags & ASIC_PKT_NONMIN) &&
			   min_kind == DFLY_PORT_GLOBAL) {
			/* in transit in the source group: NRG, a local hop to another router whose
			 * global link is then mandatory */
			cand = locals & ~(1ull << in_port);
			vc = as->regs->knobs.vc_map[DFLY_ROLE_S2];
			pend = ASIC_PKT_NONMIN | ASIC_PKT_MANDATORY_GLOBAL;
			why = DFLY_ROUTE_OLM_LOCAL_SRC;
		} else if (pk->ghops > 0 && min_kind == DFLY_PORT_LOCAL &&
			   !(pk->flags & ASIC_PKT_LMIS_DONE)) {
			/* +L: one local misroute in the intermediate or destination group */
			bool dstg = as->group == dst_group;

			cand = locals & ~(1ull << min_port);
			vc = hop_vc(as, pk, min_port, false, dst_group, true);
			pend = ASIC_PKT_NONMIN | ASIC_PKT_LMIS_DONE;
			why = dstg ? DFLY_ROUTE_OLM_LOCAL_DST : DFLY_ROUTE_OLM_LOCAL_INTER;
		}
		cand &= ~as->down_mask;
		if (as->fail_any)
			cand = fail_filter_globals(as, cand, dst_group);
		if (cand) {
			bool fired = false;

			c = intransit_pick(as, pk, cand, vc, min_port, min_vc, &fired);
			if (c != UINT32_MAX) {
				pk->out_port = (uint8_t)c;
				pk->out_vc = (uint8_t)vc;
				pk->pend_flags = pend;
				pk->reason = why;
				return;
			}
			if (fired)
				prev = miss;
		}
	}
	pk->reason = prev;
	if (((as->down_mask >> min_port) & 1u) && prev == ASIC_REASON_NONE)
		pk->reason = DFLY_ROUTE_FAIL_WAIT;
	pk->out_port = (uint8_t)min_port;
	pk->out_vc = (uint8_t)min_vc;
}

static void route(struct asic *as, struct asic_pkt *pk, uint32_t in_port)
{
	const struct dfly_topo *t = as->topo;
	const struct dfly_regs_knobs *k = &as->regs->knobs;
	uint32_t dst_router = pk->dst_node / t->p;
	uint32_t dst_group = dst_router / t->a;
	uint32_t target, port;
	bool towards_root;

	pk->trig = ASIC_REASON_NONE;
	dec_reset(&pk->dec);
	if (asic_mode_in_transit(k->mode)) {
		route_olm(as, pk, in_port, dst_group);
		return;
	}
	if (!(pk->flags & ASIC_PKT_ROUTED)) {
		/* source decision (again after a recompute) */
		pk->flags |= ASIC_PKT_ROUTED;
		pk->val_router = ASIC_NONE;
		pk->reason = ASIC_REASON_NONE;
		if (k->mode == DFLY_MODE_VAL) {
			draw_root(as, pk, dst_group);
			if (pk->cand_root == UINT32_MAX) {
				pk->flags |= ASIC_PKT_NOINTER;
			} else {
				pk->val_router = pk->cand_root;
				pk->flags |= ASIC_PKT_NONMIN;
			}
		} else if (k->mode != DFLY_MODE_MIN) {
			draw_root(as, pk, dst_group);
			pk->flags |= ASIC_PKT_DECIDING;
			src_decide(as, pk, dst_group, false);
		}
	} else if (pk->flags & ASIC_PKT_DECIDING) {
		/* A-3.4: re-evaluated every allocation round until granted, same S_ROOT */
		src_decide(as, pk, dst_group, in_port >= t->p);
	} else if (k->mode == DFLY_MODE_PAR && pk->ghops == 0 && in_port >= t->p &&
		   !(pk->flags & (ASIC_PKT_NONMIN | ASIC_PKT_NOINTER)) && as->group != dst_group) {
		/* PAR: re-evaluate at every source-group router while minimal (spec §4.7) */
		draw_root(as, pk, dst_group);
		pk->flags |= ASIC_PKT_DECIDING;
		src_decide(as, pk, dst_group, true);
	}
	if (as->fail_any && pk->ghops == 0 && dst_group != as->group)
		failover_src(as, pk, in_port, dst_group,
			     pk->val_router != ASIC_NONE ? pk->val_router : dst_router);
	if (pk->val_router != ASIC_NONE && !(pk->flags & ASIC_PKT_PHASE1) &&
	    pk->val_router == as->router) {
		pk->flags |= ASIC_PKT_PHASE1;
		as->regs->route[DFLY_ROUTE_VAL_REACHED]++;
	}
	towards_root = pk->val_router != ASIC_NONE && !(pk->flags & ASIC_PKT_PHASE1);
	target = towards_root ? pk->val_router : dst_router;
	port = target == dst_router ? pk->min_port
				    : dfly_topo_min_port(t, as->router, target, pk->dst_node);
	pk->out_port = (uint8_t)port;
	pk->out_vc = (uint8_t)hop_vc(as, pk, port, towards_root, dst_group, false);
	if (((as->down_mask >> port) & 1u) && pk->reason == ASIC_REASON_NONE)
		pk->reason = DFLY_ROUTE_FAIL_WAIT; /* no way around it from here */
	pk->pend_flags = 0;
	pk->vc_allow = 0;
	if (k->flexvc != DFLY_FLEXVC_OFF && k->mode <= DFLY_MODE_VAL &&
	    dfly_topo_port_kind(t, port) != DFLY_PORT_TERMINAL) {
		uint8_t safe = pk->out_vc;

		pk->vc_allow = flex_allow(as, pk, target, dst_router, towards_root, &safe);
		pk->out_vc = pk->vc_safe = safe;
	}
}

/* ---------------------------------------------------------------------------------------------
 * Per-cycle stages
 */

static void rx_credits(struct asic *as, uint64_t now, uint64_t m)
{
	while (m) {
		uint32_t o = ctz64(m);
		struct asic_out *out = &as->out[o];
		struct asic_link *l = out->link;

		m &= m - 1;
		while (l->c_head != LOAD_ACQ(l->c_tail) && l->credit[l->c_head & l->mask].due <= now) {
			struct asic_link_credit *c = &l->credit[l->c_head++ & l->mask];

			out->credits[c->vc] += c->phits;
			as->regs->port_ctr[o][DFLY_CREDITS_RX] += c->phits;
			credit_gauge(as, o, c->vc);
		}
		far_done(&as->out_far, o, &l->c_tail, l->c_head, &l->c_tail, l->c_head);
	}
}

static void eject_drop(struct asic *as, struct asic_pkt *pk, uint64_t now, enum dfly_drop why,
		       uint32_t port)
{
	struct asic_ejection *e = &as->ej[as->ej_tail & as->ej_mask];

	if (TRACING(as, DFLY_TRACE_DROP))
		trace_pkt(as, DFLY_TRACE_DROP, port, pk->vc, pk, now, (uint16_t)why);
	as->regs->drop[why]++;
	e->pkt = pk;
	e->tail_cycle = now;
	e->drop = (uint8_t)(why + 1);
	as->ej_tail++;
}

/* An in-band PB vector arrived on input @p port: the vector first, then the count the
 * firmware polls. */
static void pb_rx(struct asic *as, uint32_t port, uint32_t vec)
{
	as->regs->mech.pb_rx_vec[port] = vec;
	as->regs->mech.pb_rx_count[port]++;
	as->regs->port_ctr[port][DFLY_PB_RX]++;
}

static void rx_data(struct asic *as, uint64_t now, uint64_t m)
{
	while (m) {
		uint32_t i = ctz64(m);
		struct asic_in *in = &as->in[i];
		struct asic_link *l = in->link;

		m &= m - 1;
		while (l->d_head != LOAD_ACQ(l->d_tail) && l->data[l->d_head & l->mask].due <= now) {
			struct asic_pkt *pk = l->data[l->d_head++ & l->mask].pkt;

			if (TRACING(as, DFLY_TRACE_PORT_RX))
				trace_pkt(as, DFLY_TRACE_PORT_RX, i, pk->vc, pk, now, DFLY_TRACE_NONE);
			if (pk->vc >= in->nvc) {
				eject_drop(as, pk, now, DFLY_DROP_BAD_VC, i);
				continue;
			}
			if (in->vc[pk->vc].occ + pk->len > in->vc[pk->vc].cap ||
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
			pk->ready_tick = (now + as->par.pipe_route) * as->par.speedup;
			pk->out_port = UINT8_MAX;
			ivc_push(as, i, pk->vc, pk, now);
		}
	}
}

/* Control frames due on the incoming links go up the CPU port (fabric ports only: terminal
 * ports have no control line, so a host can never reach the firmware). */
static void rx_ctrl(struct asic *as, uint64_t now, uint64_t m)
{
	uint8_t buf[DFLY_CPU_FRAME_MAX];

	while (m) {
		uint32_t i = ctz64(m);
		struct asic_link *l = as->in[i].link;
		uint16_t len;
		uint8_t kind;

		m &= m - 1;
		while (ctrl_pop(l, now, &kind, &len, buf, sizeof(buf))) {
			if (kind == ASIC_CTRL_PB_INFO) {
				uint32_t vec;

				memcpy(&vec, buf, sizeof(vec));
				pb_rx(as, i, vec);
				continue;
			}
			if (len > DFLY_CPU_FRAME_MAX ||
			    dfly_wire_classify(buf, len) != DFLY_WIRE_CLASS_CTRL) {
				as->regs->drop[DFLY_DROP_DECODE]++;
				continue;
			}
			if (TRACING(as, DFLY_TRACE_PORT_RX))
				trace_frame(as, i, DFLY_TRACE_PORT_RX, buf, len, now);
			if (dfly_cpu_ring_put(&as->regs->cpu_rx, (uint16_t)i, now, buf, len) < 0) {
				as->regs->drop[DFLY_DROP_CPU_RX_FULL]++;
				continue;
			}
			as->regs->port_ctr[i][DFLY_CTRL_RX]++;
		}
		/* a far input stays polled until both its lines are empty */
		far_done(&as->in_far, i, &l->d_tail, l->d_head, &l->cb_tail, l->cb_head);
	}
}

/* Cycles a control frame of @p len bytes holds its link when charged: its bytes after the
 * Ethernet header (the fabric link carries the control header and body; MACs and EtherType
 * belong to the emulation's transport) in whole phits, at least one. */
static uint32_t ctrl_phits(const struct asic *as, uint16_t len)
{
	uint32_t bytes = len > DFLY_WIRE_ETH_LEN ? len - DFLY_WIRE_ETH_LEN : 0;
	uint32_t phits = (bytes + as->par.phit_bytes - 1) / as->par.phit_bytes;

	return phits && !as->par.no_link_rate ? phits : 1;
}

/* Is control frame @p sl of a type the link's fault covers (asic_link_set_ctrl_fault)? */
static inline bool ctrl_fault_covers(const struct asic_link *l, const struct dfly_cpu_slot *sl)
{
	uint8_t type;

	if (l->cf_types == 0 || sl->len <= DFLY_WIRE_ETH_LEN + 1)
		return false;
	type = sl->frame[DFLY_WIRE_ETH_LEN + 1];
	return type < 32 && ((l->cf_types >> type) & 1u);
}

/* A control-frame fault on its link: is this frame lost? */
static bool ctrl_fault_lost(struct asic_link *l, const struct dfly_cpu_slot *sl)
{
	if (l->cf_loss_ppm == 0 || !ctrl_fault_covers(l, sl))
		return false;
	return dfly_rng_below(&l->cf_rng, 1000000) < l->cf_loss_ppm;
}

int asic_link_set_ctrl_fault(struct asic_link *l, uint32_t types, uint32_t loss_ppm,
			     uint32_t delay, uint64_t seed)
{
	uint32_t want = pow2_at_least((l->latency + delay + 2) * 64 + 2 * (16 + DFLY_CPU_FRAME_MAX));

	if (want > l->cb_cap) {
		/* late frames stay on the line longer: room for delay cycles more of them; a buffer
		 * doubled up front (asic_link_set_lag on threads) stays doubled */
		uint32_t size = l->cb_mask + 1 > l->cb_cap ? 2 * want : want;
		uint8_t *nb;

		if (l->cb_head != l->cb_tail)
			return -EBUSY;
		nb = calloc(size, 1);
		if (nb == NULL)
			return -ENOMEM;
		free(l->cbuf);
		l->cbuf = nb;
		l->cb_mask = size - 1;
		l->cb_cap = want;
		l->cb_head = l->cb_tail = l->cb_shead = 0;
	}
	l->cf_types = types;
	l->cf_loss_ppm = loss_ppm;
	l->cf_delay = delay;
	dfly_rng_seed(&l->cf_rng, seed, 0xcf00000000ull + (uint64_t)l->up_port);
	return 0;
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

/*
 * Frames the firmware queued on the CPU port leave on their port's control line: out of band,
 * arriving after the link latency; or, with knobs.ctrl_charge (A-5.6), serialised on the link
 * like a packet: from the cycle the link is free (after the packet on it, or an earlier frame)
 * for ctrl_phits() cycles, during which the data behind it waits; the whole frame is there at
 * start + ctrl_phits + latency. PB information flits (pb_info_flits) are not CPU frames.
 */
static void tx_cpu(struct asic *as, uint64_t now)
{
	const struct dfly_cpu_slot *sl;
	bool charge = as->regs->knobs.ctrl_charge != 0;

	while ((sl = dfly_cpu_ring_peek(&as->regs->cpu_tx)) != NULL) {
		uint32_t o = sl->port;

		if (o >= as->radix || as->out[o].link == NULL || sl->len > DFLY_CPU_FRAME_MAX) {
			as->regs->drop[DFLY_DROP_CPU_TX_BAD]++;
		} else if ((as->down_mask >> o) & 1u) {
			as->regs->drop[DFLY_DROP_CTRL_PORT_DOWN]++;
		} else if (ctrl_fault_lost(as->out[o].link, sl)) {
			as->regs->drop[DFLY_DROP_CTRL_FAULT]++;
		} else {
			struct asic_out *out = &as->out[o];
			uint64_t start = now, ser = 0, late = 0;

			if (out->link->cf_delay && ctrl_fault_covers(out->link, sl))
				late = out->link->cf_delay;
			if (charge) {
				start = out->link_free > now ? out->link_free : now;
				ser = ctrl_phits(as, sl->len);
			}
			if (!ctrl_push(out->link, now, start + ser + out->link->latency + late, ASIC_CTRL_FRAME,
				       sl->frame, sl->len)) {
				as->regs->drop[DFLY_DROP_CTRL_LINK_FULL]++;
			} else {
				as->regs->port_ctr[o][DFLY_CTRL_TX]++;
				if (late)
					as->regs->port_ctr[o][DFLY_CTRL_DELAYED]++;
				if (TRACING(as, DFLY_TRACE_PORT_TX))
					trace_frame(as, o, DFLY_TRACE_PORT_TX, sl->frame, sl->len, start);
				if (charge) {
					out->link_free = start + ser;
					as->regs->port_ctr[o][DFLY_LINK_BUSY_CYCLES] += ser;
				}
			}
		}
		dfly_cpu_ring_pop(&as->regs->cpu_tx);
	}
}

/* PB in-band (IAR): an idle local link carries a 1-phit information flit when the vector
 * changed since it last went out on that link. */
static void pb_info_flits(struct asic *as, uint64_t now)
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
		if (!ctrl_push(out->link, now, now + out->link->latency, ASIC_CTRL_PB_INFO, &vec,
			       sizeof(vec))) {
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

static void out_stage(struct asic *as, uint64_t now)
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
				out->credits[pk->vc] += pk->len;
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
					struct asic_ejection *e = &as->ej[as->ej_tail & as->ej_mask];

					e->pkt = pk;
					e->tail_cycle =
						now + as->par.lat_terminal + ser_cycles(as, pk) - 1;
					e->drop = 0;
					as->ej_tail++;
					/* stamped with the cycle its tail reaches the node */
					if (TRACING(as, DFLY_TRACE_HOST_TX))
						trace_pkt(as, DFLY_TRACE_HOST_TX, o, pk->vc, pk,
							  e->tail_cycle, DFLY_TRACE_NONE);
				} else {
					struct asic_link *l = out->link;

					if (out->kind == DFLY_PORT_LOCAL && as->regs->knobs.pb_inband &&
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
					if (TRACING(as, DFLY_TRACE_PORT_TX))
						trace_pkt(as, DFLY_TRACE_PORT_TX, o, pk->vc, pk, now,
							  DFLY_TRACE_NONE);
				}
				out->head++;
				as->held--;
				out->link_free = now + ser_cycles(as, pk);
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

static void release_inputs(struct asic *as, uint64_t tick, uint64_t now)
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
		if (in->link != NULL) {
			link_put_credit(in->link, in->rel_vc, in->rel_len, now + in->link->latency);
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

static inline bool feasible(const struct asic *as, const struct asic_pkt *pk, uint64_t tick)
{
	return port_feasible(as, pk->out_port, pk->out_vc, pk->len, tick);
}

static void grant(struct asic *as, uint32_t i, uint32_t v, uint64_t tick, uint64_t now)
{
	struct asic_in *in = &as->in[i];
	struct asic_ivc *q = &in->vc[v];
	struct asic_pkt *pk = ivc_head(q);
	struct asic_out *out = &as->out[pk->out_port];
	uint32_t o = pk->out_port, S = as->par.speedup;
	uint64_t arr = pk->ready_tick / S - as->par.pipe_route;
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
		cc_head(as, i, ivc_head(q));
	}
	in->busy_until = end;
	in->rel_tick = as->par.credit_at_tail ? end : tick;
	in->rel_len = pk->len;
	in->rel_vc = (uint8_t)v;
	as->rel_mask |= 1ull << i;
	if (!as->par.credit_at_tail)
		release_inputs(as, tick, now);
	in->rr = (v + 1) % in->nvc;
	in->last_served = tick;

	out->busy_until = end;
	out->occ += pk->len;
	out->rr = i + 1;
	if (out->kind != DFLY_PORT_TERMINAL)
		out->credits[pk->out_vc] -= pk->len;
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
		pk->ghops++;
		pk->grp_lhops = 0;
		pk->flags &= (uint16_t)~(ASIC_PKT_MANDATORY_GLOBAL | ASIC_PKT_LMIS_DONE);
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
	pk->ready_tick = now + as->par.pipe_xbar; /* from here: cycle the head is in the FIFO */
}

static void allocate(struct asic *as, uint64_t tick, uint64_t now)
{
	const struct asic_params *par = &as->par;
	struct dfly_regs *regs = as->regs;
	uint64_t req_in[DFLY_MAX_PORTS]; /* per output: requesting inputs */
	uint8_t req_vc[DFLY_MAX_PORTS];	 /* per input: the VC it requests with */
	uint64_t age_key[DFLY_MAX_PORTS];
	uint64_t lrs_key[DFLY_MAX_PORTS];
	uint64_t matched = 0;
	bool olm = asic_mode_in_transit(regs->knobs.mode);
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
						if (!has_credits(as, q->hd_port, q->hd_vc, q->hd_len))
							regs->vc_ctr[i][v][DFLY_VC_CREDIT_STALL]++;
					}
					continue;
				}
				pk = ivc_head(q);
				if (pk->out_port == UINT8_MAX ||
				    (it == 0 && (olm || (reeval && (pk->flags & ASIC_PKT_DECIDING)))) ||
				    (it == 0 && ((as->down_mask >> pk->out_port) & 1u))) {
					as->tick = tick;
					route(as, pk, i);
				}
				if (pk->vc_allow & (pk->vc_allow - 1))
					flex_pick(as, pk);
				else if (!olm && !(pk->flags & ASIC_PKT_DECIDING) &&
					 pk->out_port != UINT8_MAX) {
					q->hd_port = pk->out_port;
					q->hd_vc = pk->out_vc;
					q->hd_len = pk->len;
				}
				if (feasible(as, pk, tick)) {
					cand |= 1ull << v;
					key[v] = par->in_arb == DFLY_ARB_AGE ? pk->gen_cycle
									     : in->vc[v].last_served;
				} else if (it == 0) {
					regs->vc_ctr[i][v][DFLY_VC_HEAD_WAIT]++;
					if (!has_credits(as, pk->out_port, pk->out_vc, pk->len))
						regs->vc_ctr[i][v][DFLY_VC_CREDIT_STALL]++;
				}
			}
			if (cand == 0)
				continue;
			v = arbitrate(par->in_arb, cand, in->rr, key);
			in->vc[v].last_served = tick;
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
			i = arbitrate(par->out_arb, reqs, as->out[o].rr,
				      par->out_arb == DFLY_ARB_AGE ? age_key : lrs_key);
			grant(as, i, req_vc[i], tick, now);
			matched |= 1ull << i;
		}
	}

	/* Valiant recompute (spec §4.3): an injection head not granted draws a new S_ROOT */
	if (regs->knobs.val_recompute && regs->knobs.mode != DFLY_MODE_MIN && !olm) {
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
					pk->flags &= (uint16_t)~(ASIC_PKT_ROUTED | ASIC_PKT_NONMIN |
								 ASIC_PKT_NOINTER | ASIC_PKT_DECIDING);
					pk->out_port = UINT8_MAX;
					as->in[i].vc[v].hd_port = UINT8_MAX;
				}
			}
		}
	}
}

/* Ports whose link is down, since when, and which are dead (knobs.link_dead). */
static void track_down(struct asic *as, uint64_t down, uint64_t now)
{
	uint64_t fresh = down & ~as->down_mask, m = down;
	uint32_t dead = as->regs->knobs.link_dead;

	while (fresh) {
		as->down_since[ctz64(fresh)] = now;
		fresh &= fresh - 1;
	}
	as->down_mask = down;
	as->dead_mask = 0;
	while (m && dead) {
		uint32_t p = ctz64(m);

		m &= m - 1;
		if (now - as->down_since[p] >= dead) {
			as->dead_mask |= 1ull << p;
			as->out_mask |= as->out[p].head != as->out[p].tail ? 1ull << p : 0;
		}
	}
}

/* Failover's view of the group (own row from the hardware bits) and whether anything is down. */
static void fail_view(struct asic *as)
{
	const struct dfly_topo *t = as->topo;
	uint32_t rho = as->router % t->a;

	as->fail_any = false;
	if (!as->fail_knob)
		return;
	for (uint32_t r = 0; r < t->a; r++) {
		as->gdown[r] = r == rho ? (uint16_t)((as->down_mask >> t->first_global) &
						     ((1u << t->h) - 1))
					: as->tbl_fail->down[r];
		as->fail_any |= as->gdown[r] != 0;
	}
	as->fail_any |= as->tbl_fail->npairs != 0;
}

/* At a step boundary: switch every table to its last published bank and acknowledge it (a
 * table no mode reads yet is acknowledged too, so its writer is never blocked). */
static void acquire_tables(struct asic *as, uint64_t now)
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
	as->fw_dead = ttl != 0 && now >= ttl &&
		      atomic_load_explicit(&as->regs->fw.heartbeat, memory_order_acquire) + ttl <=
			      now + 1;
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
			track_down(as, down, now);
		/* the group view changes only with the table, the own bits or the knob */
		if (fail != as->tbl_fail || down != as->fail_down_seen || fo != as->fail_knob) {
			as->tbl_fail = fail;
			as->fail_down_seen = down;
			as->fail_knob = fo;
			fail_view(as);
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
	acquire_tables(as, now);
	if (due_out)
		rx_credits(as, now, due_out);
	if (due_in) {
		rx_data(as, now, due_in);
		rx_ctrl(as, now, due_in);
	}
	tx_cpu(as, now);
	if (as->out_mask)
		out_stage(as, now);
	if (as->regs->knobs.pb_inband)
		pb_info_flits(as, now);
	if (as->in_mask | as->rel_mask | as->cc_rel_mask) {
		for (uint32_t s = 0; s < S; s++) {
			uint64_t tick = now * S + s;

			if (as->rel_mask)
				release_inputs(as, tick, now);
			if (as->cc_rel_mask)
				cc_release(as, tick);
			if (as->in_mask)
				allocate(as, tick, now);
		}
	}
	if (as->regs->knobs.mode == DFLY_MODE_FILTERED)
		cc_filter(as);
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
	acquire_tables(as, as->regs->cycle);
	as->tick = as->regs->cycle * as->par.speedup;
	pkt_cache(as, pkt);
	route(as, pkt, in_port);
}

void asic_debug_set_credits(struct asic *as, uint32_t port, uint32_t vc, int32_t credits)
{
	as->out[port].credits[vc] = credits;
	credit_gauge(as, port, vc);
}

unsigned asic_eject_burst(struct asic *as, struct asic_ejection *out, unsigned max)
{
	unsigned n = 0;

	while (n < max && as->ej_head != as->ej_tail)
		out[n++] = as->ej[as->ej_head++ & as->ej_mask];
	return n;
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
				snprintf(why, len,
					 "router %u port %u VC %u: cached route port %u VC %u len %u, "
					 "head packet's port %u VC %u len %u flags %#x",
					 as->router, i, v, q->hd_port, q->hd_vc, q->hd_len,
					 pk->out_port, pk->out_vc, pk->len, pk->flags);
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
		snprintf(why, len, "router %u: the recomputed contention counters differed in %llu "
			 "cycles (routing.cc.check)", as->router,
			 (unsigned long long)as->cc_mismatch);
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
				snprintf(why, len, "router %u port %u vc %u: occupancy %u", as->router,
					 i, v, as->in[i].vc[v].occ);
				return -EBUSY;
			}
		if (as->out[i].occ != 0) {
			snprintf(why, len, "router %u output %u: occupancy %u", as->router, i,
				 as->out[i].occ);
			return -EBUSY;
		}
		if (as->regs->mech.cc[i] != 0) {
			snprintf(why, len, "router %u: contention counter of output %u is %u in an "
				 "empty router", as->router, i, as->regs->mech.cc[i]);
			return -EBUSY;
		}
		for (uint32_t v = 0; v < as->out[i].ncvc; v++)
			if (as->out[i].credits[v] != (int32_t)as->out[i].credit_cap[v]) {
				snprintf(why, len, "router %u output %u vc %u: %d credits, expected %u",
					 as->router, i, v, as->out[i].credits[v],
					 as->out[i].credit_cap[v]);
				return -EBUSY;
			}
	}
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

/* ---------------------------------------------------------------------------------------------
 * dfly bench counters: the counter updates alone
 */

double asic_bench_counters(const struct dfly_topo *topo, const struct asic_params *par,
			   enum asic_bench_ctr which, uint64_t npk)
{
	enum { NPK = 1024 };
	struct dfly_regs *regs = calloc(1, sizeof(*regs));
	struct asic_pkt *pk = calloc(NPK, sizeof(*pk));
	struct asic *as = regs && pk ? asic_create(topo, 0, par, regs, 1) : NULL;
	uint32_t in = which == ASIC_BENCH_CC ? topo->first_local : 0;
	uint32_t remote = topo->nodes - topo->p * topo->a;
	struct dfly_rng rng;
	struct timespec t0, t1;
	double ns = -1;

	if (as == NULL || remote == 0)
		goto out;
	acquire_tables(as, 0);
	dfly_rng_seed(&rng, 1, 2);
	for (uint32_t i = 0; i < NPK; i++) {
		/* destinations in remote groups, uniformly */
		pk[i].dst_node = topo->p * topo->a + dfly_rng_below(&rng, remote);
		pk[i].len = 8;
		pkt_cache(as, &pk[i]); /* as ivc_push does */
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (uint64_t n = 0; n < npk; n++) {
		const struct asic_pkt *p = &pk[n & (NPK - 1)];
		uint32_t D = p->dst_node / topo->p / topo->a;
		struct dfly_regs_mech_ctrs *m = &regs->mech;

		switch (which) {
		case ASIC_BENCH_NONE:
			m->cc[D & 7] += (uint16_t)(p->dst_node & 1);
			break;
		case ASIC_BENCH_CC:
		case ASIC_BENCH_ALL:
			if (which == ASIC_BENCH_ALL)
				m->lia_stored[D]++; /* asic_inject */
			cc_head(as, in, p);
			__asm__ volatile("" ::: "memory");
			cc_crossing(as, in, p, 0);
			__asm__ volatile("" ::: "memory");
			cc_release(as, 0);
			break;
		case ASIC_BENCH_ECTN:
			m->ectn_partial[D]++;
			ectn_combined_update(as, D);
			__asm__ volatile("" ::: "memory");
			m->ectn_partial[D]--;
			ectn_combined_update(as, D);
			break;
		case ASIC_BENCH_LIA:
			m->lia_stored[D]++;
			__asm__ volatile("" ::: "memory");
			m->lia_stored[D]--;
			m->lia_injected[D]++;
			break;
		}
		__asm__ volatile("" ::: "memory");
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ns = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) /
	     (double)npk;
out:
	asic_destroy(as);
	free(pk);
	free(regs);
	return ns;
}
