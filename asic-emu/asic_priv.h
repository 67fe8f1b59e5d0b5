/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The switch ASIC model's private definitions, shared by the files of asic-emu/ and by nothing
 * else (the public API is asic.h): the ASIC's state (input VCs, output FIFOs, the arrival
 * calendar), the small inline helpers every stage uses on the hot path (credits, occupancy,
 * feasibility, hop roles and VCs, the packet's cached minimal port), and the functions one
 * stage file calls in another. Never include it outside asic-emu/.
 */
#ifndef ASIC_PRIV_H
#define ASIC_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "asic.h"

struct asic_ivc {
	struct asic_pkt **ring; /* packets whose head has arrived or is on the terminal link */
	uint32_t head, tail, mask;
	uint32_t cap;         /* phits */
	uint32_t occ;         /* phits stored or reserved */
	uint32_t hwm;         /* high-water mark of occ */
	uint64_t last_served; /* LRS: tick of the last request */
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
	uint32_t kind;       /* enum dfly_port_kind */
	uint32_t vc_mask;    /* VCs holding packets */
	uint32_t rr;         /* input arbiter: next VC to favour */
	uint64_t busy_until; /* tick the crossbar input is free */
	uint64_t rel_tick;   /* tick the tail of the crossing packet leaves the buffer */
	uint16_t rel_len;
	uint8_t rel_vc;
	uint8_t rel_out;         /* CRT: the output the crossing packet takes */
	uint8_t rel_min;         /* minCred: its credit goes back with the minimal flag */
	uint64_t cc_tick;        /* contention counters: tick the crossing packet's tail leaves */
	uint8_t cc_port;         /* ... its minimal output (spec §5.2), counted until cc_tick */
	uint16_t cc_grp;         /* ... its ECtN partial group, or CC_NO_GROUP */
	uint8_t cc_vc;           /* ... the input VC it leaves */
	uint8_t cc_pend;         /* routing.cc.head = tail: that VC's head waits for the tail */
	uint64_t node_link_free; /* terminal ports: cycle the node's link is free */
	uint32_t damq_res;       /* DAMQ: phits reserved per VC (static: unused) */
	uint32_t pool_cap;       /* DAMQ: phits shared by the VCs (static and 100%: 0) */
	uint32_t damq_pen;       /* DAMQ: access penalty, cycles per write and per read */
	uint64_t last_served;    /* LRS at the output stage */
	struct asic_link *link;  /* incoming link, NULL for terminal ports */
	/* traffic.reply = consume, a node port: phits kept for the replies of the requests
	 * ejected, until the edge injects them (FOGSim injects the response at once) */
	uint32_t reply_resv[DFLY_MAX_VCS];
};

struct asic_out {
	struct asic_pkt **fifo; /* granted packets, in grant order */
	uint32_t head, tail, mask;
	uint32_t cap, occ;   /* phits */
	uint64_t busy_until; /* tick the crossbar output is free */
	uint64_t link_free;  /* cycle the link may start the next packet */
	/* node ports, par.node_consume: start of the last delivery to the node, and the cycles
	 * from which the node could consume again after it and after the one before */
	uint64_t ej_start, ej_open, ej_open_prev;
	uint64_t rel_cycle; /* cycle the tail of the transmitting packet leaves the FIFO */
	uint16_t rel_len;
	uint8_t rel_pending;
	uint32_t kind;
	uint32_t ncvc; /* downstream VCs */
	int32_t credits[DFLY_MAX_VCS];
	uint32_t credit_cap[DFLY_MAX_VCS]; /* the most a downstream VC holds (DAMQ: its reserve
					      plus the whole pool) */
	uint32_t damq_res;                 /* DAMQ: phits reserved per downstream VC */
	uint32_t pool_cap;    /* DAMQ: the downstream port's shared pool (static and 100%: 0) */
	uint32_t pool_used;   /* DAMQ: pool phits in use, Σ over VCs of occupancy above reserve */
	uint64_t pool_allocs; /* DAMQ: grants that took space from the pool */
	uint32_t rr;          /* output arbiter: next input to favour */
	int32_t min_occ[DFLY_MAX_VCS]; /* minCred: downstream phits of minimally routed packets */
	struct asic_link *link;        /* outgoing link, NULL for terminal ports */
	uint32_t piggy_cnt;            /* PB in-band: packets since the last piggybacked vector */
	uint32_t last_vec;             /* PB in-band: last vector sent on this link */
	bool vec_sent;                 /* PB in-band: last_vec is valid */
	uint32_t req_pend; /* traffic.reply = consume: requests granted to this node port, not
			      yet ejected (FOGSim's numConsumePetitions) */
};

/*
 * Specialised per routing mode (DESIGN.md §3: no mode test and no indirect call per packet). The
 * route stage of each mode, and the allocator that calls it, are compiled once per mode from one
 * always-inline body on a compile-time constant (as VPP compiles a node twice on a constant
 * flag); asic_step() picks the mode's pair from asic_mode_ops[] when knobs.mode changes (one
 * compare per step, like DPDK lib/fib choosing its lookup at setup), and calls the allocator
 * once per tick. The table is indexed by enum dfly_route_mode.
 *
 * ASIC_FOREACH_MODE(X): the mechanism registry (dfly/mode.h, DFLY_FOREACH_MODE), read here with
 * X(MODE, ...): every mode gets asic_route_<MODE>() from the route-stage file of its family
 * (route_obl.c, route_src.c, route_transit.c) and asic_alloc_<MODE>() from alloc.c, named by
 * its enum suffix (asic_route_PB_ACOR). A mode added to the registry without its route stage
 * does not link.
 */
#define ASIC_FOREACH_MODE(X) DFLY_FOREACH_MODE(X)

/* The route stage of one head at input @p in_port (asic.c: route()'s contract). */
typedef void asic_route_fn(struct asic *as, struct asic_pkt *pk, uint32_t in_port);
/* One allocator tick (alloc.c), the mode's route stage called directly. */
typedef void asic_alloc_fn(struct asic *as, uint64_t tick, uint64_t now);

/* What asic_step() runs for one routing mode. */
struct asic_mode_ops {
	asic_route_fn *route;    /* route stage of a head (asic_route_probe) */
	asic_alloc_fn *allocate; /* one allocator tick with that route stage built in */
	bool cc_filter;          /* update the Filtered estimate once per cycle */
};

/* Indexed by enum dfly_route_mode (asic.c). */
extern const struct asic_mode_ops asic_mode_ops[DFLY_MODE_COUNT];

struct asic {
	const struct dfly_topo *topo;
	struct asic_params par;
	struct dfly_regs *regs;
	const struct dfly_tbl_pb *tbl_pb; /* tables acquired at the start of the step */
	const struct dfly_tbl_ectn *tbl_ectn;
	const struct dfly_tbl_ugal *tbl_ugal;
	const struct dfly_tbl_lia *tbl_lia;
	const struct asic_mode_ops *ops; /* route stage and allocator of knobs.mode */
	uint32_t mode;                   /* the knobs.mode ops was picked for */
	bool fw_dead;       /* safe mode: the firmware is silent (knobs.fw_ttl), tables ignored */
	bool fail_any;      /* failover on and a global link of the group is down */
	uint64_t down_mask; /* ports whose link is down (regs.ports_down) */
	uint64_t dead_mask; /* down ports down for knobs.link_dead cycles or more */
	const struct asic *const *group_view; /* UGAL-G oracle: the group's ASICs by rho */
	asic_trace_fn *trace_fn;              /* capture callback, or NULL */
	void *trace_ctx;
	uint32_t trace_mask;  /* bit p: capture point p on */
	uint64_t cc_rel_mask; /* inputs whose crossing packet still holds its counters */
	uint64_t cc_mismatch; /* knobs.cc_check: cycles the recomputed counters differed */
	uint32_t router, group, radix, p;
	uint32_t min_len; /* smallest packet, sizes the rings */
	/* minimal output port from here (dfly_topo_min_port, tabled: pkt_cache runs for every
	 * packet at every router): to router rho of this group, and to group D by trunk
	 * dst_node % t (min_grp[D * t + k]; this group's entries unused) */
	uint8_t min_loc[DFLY_MAX_A];
	uint8_t *min_grp;
	struct dfly_rng rng;
	uint64_t held;           /* packets in input VCs and output FIFOs */
	uint64_t tick;           /* allocator tick the route stage evaluates at */
	uint64_t in_mask;        /* inputs holding packets */
	uint64_t rel_mask;       /* inputs with a pending tail release */
	uint64_t out_mask;       /* outputs with packets or a pending tail release */
	uint64_t link_in_mask;   /* inputs with an incoming link */
	uint64_t link_out_mask;  /* outputs with an outgoing link */
	uint64_t local_out_mask; /* local outputs with a link (PB in-band info flits) */
	struct asic_ejection *ej;
	uint32_t ej_head, ej_tail, ej_mask;
	/* the arrival calendar: slot c & ASIC_CAL_MASK has bit i of `in` set if data or a
	 * control record is due on the link into input i at cycle c, bit o of `out` if a credit
	 * is due on the link out of output o; a step visits only those links (and the far ones:
	 * due too late for the calendar, polled until their lines are empty) */
	struct asic_cal *cal;
	uint64_t cal_next; /* the first cycle whose slot has not been taken yet */
	bool threaded;     /* stepped beside other ASICs on other threads (asic_set_threaded) */
	uint64_t in_far;   /* inputs with a record due beyond the calendar */
	uint64_t out_far;  /* outputs with a credit due beyond the calendar */
	struct asic_in in[DFLY_MAX_PORTS];
	struct asic_out out[DFLY_MAX_PORTS];
	/* failover (cold: read when a link is down) */
	const struct dfly_tbl_fail *tbl_fail; /* the network's down group pairs */
	uint64_t fail_down_seen;              /* ports_down the view was built with */
	struct asic_crt *crt;                 /* CRT's state (crt.c), once the mode ran */
	struct asic_res *res;                 /* RES's state (res.c), once the mode ran */
	uint32_t fail_knob;                   /* knobs.failover the view was built with */
	uint16_t gdown[DFLY_MAX_A];          /* the group's down global ports by rho (own entry from
						down_mask, the others from DFLY_TBL_FAIL) */
	uint64_t down_since[DFLY_MAX_PORTS]; /* cycle a down port was first seen down */
};

/* ---------------------------------------------------------------------------------------------
 * Functions one stage file calls in another
 */

/* link.c */
bool asic_ctrl_push(struct asic_link *l, uint64_t now, uint64_t due, enum asic_ctrl_kind kind,
		    const void *b, uint16_t len);
bool asic_ctrl_pop(struct asic_link *l, uint64_t now, uint8_t *kind, uint16_t *len, void *b,
		   uint32_t max);
void asic_rx_credits(struct asic *as, uint64_t now, uint64_t m);
void asic_pb_info_flits(struct asic *as, uint64_t now);

/* queue.c */
void asic_rx_data(struct asic *as, uint64_t now, uint64_t m);
void asic_out_stage(struct asic *as, uint64_t now);

/* cpu.c */
void asic_rx_ctrl(struct asic *as, uint64_t now, uint64_t m);
void asic_tx_cpu(struct asic *as, uint64_t now);

/* res.c: RES (spec §4.9) */
int asic_res_enable(struct asic *as);
void asic_res_free(struct asic *as);
void asic_res_inject(struct asic *as, uint32_t port, struct asic_pkt *pk, uint64_t start);
void asic_res_rx(struct asic *as, uint32_t in_port, uint8_t kind, const void *body, uint16_t len,
		 uint64_t now);
void asic_res_tx(struct asic *as, uint64_t now);
void asic_res_sent(struct asic *as, const struct asic_pkt *pk, uint32_t o);
int asic_res_check_drained(const struct asic *as, char *why, unsigned len);

/* cc.c */
void asic_cc_head(struct asic *as, uint32_t in_port, const struct asic_pkt *pk);
void asic_cc_release(struct asic *as, uint64_t tick);
void asic_cc_filter(struct asic *as);

/* trace.c */
void asic_trace_pkt(struct asic *as, uint8_t point, uint32_t port, uint8_t vc,
		    const struct asic_pkt *pk, uint64_t cycle, uint16_t drop);
void asic_trace_frame(struct asic *as, uint32_t port, uint8_t point, const void *frame,
		      uint16_t len, uint64_t cycle);

/* failover.c */
bool asic_leg_down(const struct asic *as, uint32_t G, uint32_t dst_node);
bool asic_pair_down(const struct asic *as, uint32_t a, uint32_t b);
uint64_t asic_fail_filter_globals(const struct asic *as, uint64_t cand, uint32_t dst_group);
uint64_t asic_fail_own_cands(const struct asic *as, uint32_t dst_group);
uint32_t asic_fail_pick(struct asic *as, const struct asic_pkt *pk, uint64_t cand, uint32_t vc);
void asic_track_down(struct asic *as, uint64_t down, uint64_t now);
void asic_fail_view(struct asic *as);

/* route_obl.c, route_src.c, route_transit.c: the route stage of every mode */
#define X(M, ...) asic_route_fn asic_route_##M;
ASIC_FOREACH_MODE(X)
#undef X
void asic_flex_pick(struct asic *as, struct asic_pkt *pk);
void asic_flex_route_src(struct asic *as, struct asic_pkt *pk, uint32_t target, uint32_t dst_router,
			 bool towards_root);
uint8_t asic_flex_transit(const struct asic *as, const struct asic_pkt *pk, uint32_t port,
			  const uint8_t *then, unsigned nthen, uint8_t *safe);
void asic_src_decide(struct asic *as, struct asic_pkt *pk, uint32_t dst_group, bool transit);
void asic_failover_src(struct asic *as, struct asic_pkt *pk, uint32_t in_port, uint32_t dst_group,
		       uint32_t target);

/* alloc.c: the allocator of every mode */
#define X(M, ...) asic_alloc_fn asic_alloc_##M;
ASIC_FOREACH_MODE(X)
#undef X
void asic_release_inputs(struct asic *as, uint64_t tick, uint64_t now);

/* asic.c */
void asic_acquire_tables(struct asic *as, uint64_t now);
void asic_mode_pick(struct asic *as);

static inline uint32_t pow2_at_least(uint32_t n)
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
#define LOAD_ACQ(x)     __atomic_load_n(&(x), __ATOMIC_ACQUIRE)
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
static inline void link_put_credit(struct asic_link *l, uint8_t vc, uint16_t phits, uint64_t due,
				   bool min)
{
	struct asic_link_credit *c = &l->credit[l->c_tail & l->mask];

	c->due = due;
	c->phits = phits;
	c->vc = vc;
	c->min = min;
	STORE_REL(l->c_tail, l->c_tail + 1);
	if (l->up != NULL)
		cal_mark(l->up, l->up_port, true, due);
}

static inline uint32_t ivc_count(const struct asic_ivc *q)
{
	return q->tail - q->head;
}

static inline struct asic_pkt *ivc_head(const struct asic_ivc *q)
{
	return q->hd;
}

/*
 * Credits (spec §3.3) and DAMQ (spec §3.9, thesis §5.1.2): the upstream router tracks, per
 * downstream VC, its occupancy (credit_cap − credits, as in static mode) and, per port, the
 * shared pool's use. A VC's phits fill its reserve first and then the pool; the pool phits of
 * VC v are max(0, occ_v − damq_res), so pool_used is a function of the per-VC occupancies and
 * the credit messages stay per VC. VC v may take len phits if its free reserve plus the free
 * pool hold them: credits[v] − (pool phits of the other VCs) ≥ len. With no pool (static mode,
 * or a 100% reserve) every helper is the static counter, bit for bit.
 */
static inline uint32_t damq_over(const struct asic_out *out, uint32_t v)
{
	int32_t occ = (int32_t)out->credit_cap[v] - out->credits[v];

	return occ > (int32_t)out->damq_res ? (uint32_t)occ - out->damq_res : 0;
}

/* Phits downstream VC @p v of output @p out may still take. */
static inline int32_t credits_avail(const struct asic_out *out, uint32_t v)
{
	if (out->pool_cap == 0)
		return out->credits[v];
	return out->credits[v] - (int32_t)(out->pool_used - damq_over(out, v));
}

/* A grant reserves @p len phits of downstream VC @p v. */
static inline void credit_take(struct asic_out *out, uint32_t v, uint32_t len)
{
	uint32_t before;

	if (out->pool_cap == 0) {
		out->credits[v] -= (int32_t)len;
		return;
	}
	before = damq_over(out, v);
	out->credits[v] -= (int32_t)len;
	if (damq_over(out, v) > before) {
		out->pool_used += damq_over(out, v) - before;
		out->pool_allocs++;
	}
}

/* @p len phits of downstream VC @p v were freed (a credit came back, or a discard). */
static inline void credit_give(struct asic_out *out, uint32_t v, uint32_t len)
{
	uint32_t before;

	if (out->pool_cap == 0) {
		out->credits[v] += (int32_t)len;
		return;
	}
	before = damq_over(out, v);
	out->credits[v] += (int32_t)len;
	out->pool_used -= before - damq_over(out, v);
}

/* Keep the credit gauges of output @p o, VC @p v live: the firmware reads them every period. */
static inline void credit_gauge(struct asic *as, uint32_t o, uint32_t v)
{
	const struct asic_out *out = &as->out[o];

	as->regs->vc_gauge[o][v][DFLY_VC_CREDITS] = out->credits[v];
	as->regs->vc_gauge[o][v][DFLY_VC_DOWN_OCC] = (int64_t)out->credit_cap[v] - out->credits[v];
	if (as->regs->knobs.mincred)
		as->regs->vc_gauge[o][v][DFLY_VC_DOWN_OCC_MIN] = out->min_occ[v];
}

/* ---------------------------------------------------------------------------------------------
 * Contention counters (spec §5.2, §5.6): a packet counts on cc[its minimal output towards the
 * final destination] from the moment its header is at the head of an input VC until its tail
 * has left that input buffer; a packet that entered the group (injection or global input) with
 * a remote destination group D counts on the ECtN partial[D] over the same interval.
 */

#define CC_NO_GROUP 0xffffu

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

/* Granted: @p pk keeps its counts until its tail leaves the input buffer at @p end. Call it
 * before counting the packet behind it (asic_cc_head), which routing.cc.head = tail defers
 * until then. */
static inline void cc_crossing(struct asic *as, uint32_t in_port, const struct asic_pkt *pk,
			       uint64_t end)
{
	struct asic_in *in = &as->in[in_port];

	in->cc_port = pk->min_port;
	in->cc_grp = (uint16_t)cc_group(as, in_port, pk);
	in->cc_tick = end;
	in->cc_vc = pk->vc;
	in->cc_pend = 0;
	as->cc_rel_mask |= 1ull << in_port;
}

/* Capture points (include/dfly/trace.h): one mask test when off. */
#define TRACING(as, pt) (((as)->trace_mask >> (pt)) & 1u)

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

/* What every stage of this router asks of a packet, computed once when it enters a buffer. */
static inline void pkt_cache(const struct asic *as, struct asic_pkt *pk)
{
	uint32_t dst_router = pk->dst_node / as->topo->p, D = dst_router / as->topo->a;

	pk->dst_group = (uint16_t)D;
	pk->min_port = (uint8_t)min_port_to(as, pk->dst_node, dst_router, D);
}

/* Hop role (spec §2.2) of a hop of @p kind taken now; @p misroute: an OLM local misroute. */
static inline enum dfly_role hop_role(const struct asic *as, const struct asic_pkt *pk,
				      uint32_t kind, bool towards_root, uint32_t dst_group,
				      bool misroute)
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

/*
 * vcs.assign = "next" (FOGSim v5 vcMngmt::nextChannel): the VC of the first place of kind @p kind
 * after the place of the VC packet @p pk is in (its last hop's kind: local if it took one in
 * this group, else global; before the first place when it has taken no hop), on the reference
 * path knobs.vc_seq, within its class (@p off, the reply class's first VC of that kind; the
 * packet's own VC less its class's first of the kind it came in on). -1 when the path has no
 * such place (the role's place then).
 */
static inline int hop_vc_next(const struct dfly_regs_knobs *k, const struct asic_pkt *pk,
			      uint32_t kind)
{
	int i = -1;

	if (pk->ghops + pk->lhops != 0) {
		uint32_t in_kind = pk->grp_lhops != 0 ? DFLY_PORT_LOCAL : DFLY_PORT_GLOBAL;
		uint32_t in_off = (pk->flags & ASIC_PKT_REPLY) ? k->reply_vc[in_kind] : 0;
		uint32_t cur = (uint32_t)(in_kind << 4 | (uint32_t)(pk->vc - in_off));

		for (i = 0; i < (int)k->vc_seq_n && k->vc_seq[i] != cur; i++)
			;
		if (i == (int)k->vc_seq_n)
			return -1;
	}
	for (uint32_t j = (uint32_t)(i + 1); j < k->vc_seq_n; j++)
		if ((uint32_t)(k->vc_seq[j] >> 4) == kind)
			return k->vc_seq[j] & 0xf;
	return -1;
}

static inline uint32_t hop_vc(const struct asic *as, const struct asic_pkt *pk, uint32_t port,
			      bool towards_root, uint32_t dst_group, bool misroute)
{
	const struct dfly_regs_knobs *k = &as->regs->knobs;
	uint32_t kind = dfly_topo_port_kind(as->topo, port), off, v;
	enum dfly_role r;

	if (kind == DFLY_PORT_TERMINAL)
		return 0;
	/* a reply's VCs follow the request class's (traffic.reqrep) */
	off = (pk->flags & ASIC_PKT_REPLY) ? k->reply_vc[kind] : 0;
	if (k->vc_next) {
		int n = hop_vc_next(k, pk, kind);

		if (n >= 0)
			return (uint32_t)n + off;
	}
	r = hop_role(as, pk, kind, towards_root, dst_group, misroute);
	if (r == DFLY_ROLE_D2 && pk->ghops > 1 && k->vc_d2_long != 0)
		v = k->vc_d2_long + off;
	else
		v = k->vc_map[r] + off;
	/* under FlexVC the reply class may be sized for minimal paths (spec §2.4): a role beyond
	 * it stands for its last VC (the route stage's FlexVC places the hop) */
	if (off != 0 && v >= as->par.vcs[kind])
		v = as->par.vcs[kind] - 1;
	return v;
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
	if (as->regs->knobs.mincred) {
		/* minCred (spec §2.4): what minimally routed packets hold downstream */
		if (!per_port)
			return (uint32_t)out->min_occ[vc];
		for (uint32_t v = 0; v < out->ncvc; v++)
			q += (uint32_t)out->min_occ[v];
		return q;
	}
	if (!per_port)
		return out->credit_cap[vc] - (uint32_t)out->credits[vc];
	for (uint32_t v = 0; v < out->ncvc; v++)
		q += out->credit_cap[v] - (uint32_t)out->credits[v];
	return q;
}

/*
 * Request-reply, traffic.reply = "consume" (FOGSim v5 generatorModule::checkConsume and
 * ioqSwitchModule::checkConsumePort). A generated request (a host frame is answered by no reply)
 * is consumed only when its reply can enter the node's injection buffer at once: the replies'
 * injection VCs are the last half (injResVcs), the reply's own one under traffic.injection_vc
 * = dest or dest-block (the VC its destination, the request's source, picks), any of them
 * otherwise. Room taken at the ejection is kept for the reply until the edge injects it
 * (asic_inject()), as FOGSim injects the response in the same step.
 */
static inline bool reply_gated(const struct asic *as, const struct asic_pkt *pk)
{
	return as->regs->knobs.reply_consume &&
	       (pk->flags & (ASIC_PKT_SYNTH | ASIC_PKT_REPLY)) == ASIC_PKT_SYNTH;
}

/* The reply VC a request's reply will take at node port @p port, or UINT32_MAX: any of them. */
static inline uint32_t reply_vc_of(const struct asic *as, uint32_t port, const struct asic_pkt *pk)
{
	const struct asic_in *in = &as->in[port];
	uint32_t lo = in->nvc / 2, n = in->nvc - lo;

	if (as->par.inj_select == DFLY_INJ_DEST)
		return lo + pk->src_node % n;
	if (as->par.inj_select == DFLY_INJ_DEST_BLOCK)
		return lo + (uint32_t)((uint64_t)pk->src_node * n / as->topo->nodes);
	return UINT32_MAX;
}

/* Phits the reply of request @p pk may still take at node port @p port; *vc its VC. */
static inline uint32_t reply_free(const struct asic *as, uint32_t port, const struct asic_pkt *pk,
				  uint32_t *vc)
{
	const struct asic_in *in = &as->in[port];
	uint32_t v = reply_vc_of(as, port, pk), room = 0, kept = 0;

	*vc = v;
	if (v != UINT32_MAX) {
		room = in->vc[v].cap - in->vc[v].occ;
		kept = in->reply_resv[v];
	} else {
		for (v = in->nvc / 2; v < in->nvc; v++) {
			room += in->vc[v].cap - in->vc[v].occ;
			kept += in->reply_resv[v];
		}
		*vc = in->nvc / 2;
	}
	return room > kept ? room - kept : 0;
}

/* checkConsumePort: may request @p pk cross the crossbar to its node port? Only while the
 * reply room left covers its reply and those of the requests granted before it, so it waits in
 * its input VC, not in the output FIFO, and a reply to the same node passes it. */
static inline bool reply_admit(const struct asic *as, const struct asic_pkt *pk)
{
	uint32_t vc;

	return (as->out[pk->out_port].req_pend + 1) * pk->len <=
	       reply_free(as, pk->out_port, pk, &vc);
}

static inline bool has_credits(const struct asic *as, uint32_t port, uint32_t vc, uint32_t len)
{
	const struct asic_out *out = &as->out[port];

	return out->kind == DFLY_PORT_TERMINAL || credits_avail(out, vc) >= (int32_t)len;
}

/* par.node_consume: node port @p port may not be granted a packet in cycle tick/S. FOGSim
 * decides before it delivers in a cycle; dfly delivers first (asic_out_stage() before
 * allocate()), so a delivery started this very cycle is not yet seen. */
static inline bool node_gated(const struct asic *as, uint32_t port, uint64_t tick)
{
	const struct asic_out *out = &as->out[port];
	uint64_t c = tick / as->par.speedup;

	return c < (out->ej_start == c ? out->ej_open_prev : out->ej_open);
}

/* Could a packet of @p len go to output @p port on downstream VC @p vc at @p tick? */
static inline bool port_feasible(const struct asic *as, uint32_t port, uint32_t vc, uint32_t len,
				 uint64_t tick)
{
	const struct asic_out *out = &as->out[port];

	if ((out->busy_until > tick && !(port < as->p && as->par.node_consume)) ||
	    out->occ + len > out->cap || out->tail - out->head > out->mask)
		return false;
	if ((as->down_mask >> port) & 1u)
		return (as->dead_mask >> port) & 1u; /* a down link takes nothing until it is dead:
							 then its output discards (no credits) */
	return has_credits(as, port, vc, len);
}

static inline bool gport_down(const struct asic *as, uint32_t rho, uint32_t q)
{
	return (as->gdown[rho] >> q) & 1u;
}

/* Can a packet for @p dst_group use an intermediate group @p I: is its second leg up? */
static inline bool inter_ok(const struct asic *as, uint32_t I, uint32_t dst_group)
{
	return I == dst_group || !asic_pair_down(as, I, dst_group);
}

/* An in-band PB vector arrived on input @p port: the vector first, then the count the
 * firmware polls. */
static inline void pb_rx(struct asic *as, uint32_t port, uint32_t vec)
{
	as->regs->mech.pb_rx_vec[port] = vec;
	as->regs->mech.pb_rx_count[port]++;
	as->regs->port_ctr[port][DFLY_PB_RX]++;
}

/* ---------------------------------------------------------------------------------------------
 * Route stage helpers shared by the oblivious and source-adaptive families, inlined into each
 * mode's instance with @p M a compile-time constant
 */

#define ASIC_ALWAYS_INLINE inline __attribute__((always_inline))

/* Draw the Valiant router a source-adaptive decision (or VAL) at this router compares against. */
static ASIC_ALWAYS_INLINE void route_draw_root(struct asic *as, struct asic_pkt *pk,
					       uint32_t dst_group, const uint32_t M)
{
	static const enum dfly_val_variant acor[] = {DFLY_VAL__G_, DFLY_VAL__GL, DFLY_VAL_LGL};
	const struct dfly_regs_knobs *k = &as->regs->knobs;
	uint32_t r1 = dfly_rng_u32(&as->rng), r2 = dfly_rng_u32(&as->rng);
	enum dfly_val_variant v = (enum dfly_val_variant)k->val_variant;

	if (M == DFLY_MODE_LIA && dst_group != as->group) {
		/* spec §6.7: useL1 (per switch) and keepL2 (per destination group) */
		bool l1 = as->tbl_lia->use_l1, l2 = as->tbl_lia->l2[dst_group];

		v = l1 ? (l2 ? DFLY_VAL_LGL : DFLY_VAL_LG_) : (l2 ? DFLY_VAL__GL : DFLY_VAL__G_);
	} else if (M == DFLY_MODE_PB_ACOR) {
		v = acor[as->tbl_lia->acor_level < 3 ? as->tbl_lia->acor_level : 2];
	}
	pk->cand_root = dfly_topo_val_root_ex(as->topo, v, (enum dfly_val_exclude)k->val_exclude,
					      as->router, dst_group, r1, r2);
}

/* An oblivious Valiant decision at the source (VAL; RES on a refusal): a freshly drawn S_ROOT,
 * or, with no intermediate group, the minimal path flagged NOINTER. @return true if Valiant. */
static ASIC_ALWAYS_INLINE bool route_take_val(struct asic *as, struct asic_pkt *pk,
					      uint32_t dst_group, const uint32_t M)
{
	route_draw_root(as, pk, dst_group, M);
	if (pk->cand_root == UINT32_MAX) {
		pk->flags |= ASIC_PKT_NOINTER;
		return false;
	}
	pk->val_router = pk->cand_root;
	pk->flags |= ASIC_PKT_NONMIN;
	return true;
}

/*
 * The path once the source decision is made (MIN, VAL and the source-adaptive modes): failover
 * in the source group, S_ROOT reached, the output port and the role VC towards the current
 * target; a down output with nothing else to do counts FAIL_WAIT. @return the target router
 * (S_ROOT or the destination's); *@p towards_root: heading for S_ROOT.
 */
static ASIC_ALWAYS_INLINE uint32_t route_path(struct asic *as, struct asic_pkt *pk,
					      uint32_t in_port, uint32_t dst_router,
					      uint32_t dst_group, bool *towards_root)
{
	const struct dfly_topo *t = as->topo;
	uint32_t target, port;

	if (as->fail_any && pk->ghops == 0 && dst_group != as->group)
		asic_failover_src(as, pk, in_port, dst_group,
				  pk->val_router != ASIC_NONE ? pk->val_router : dst_router);
	if (pk->val_router != ASIC_NONE && !(pk->flags & ASIC_PKT_PHASE1) &&
	    pk->val_router == as->router) {
		pk->flags |= ASIC_PKT_PHASE1;
		as->regs->route[DFLY_ROUTE_VAL_REACHED]++;
	}
	*towards_root = pk->val_router != ASIC_NONE && !(pk->flags & ASIC_PKT_PHASE1);
	target = *towards_root ? pk->val_router : dst_router;
	port = target == dst_router ? pk->min_port
				    : dfly_topo_min_port(t, as->router, target, pk->dst_node);
	pk->out_port = (uint8_t)port;
	pk->out_vc = (uint8_t)hop_vc(as, pk, port, *towards_root, dst_group, false);
	if (((as->down_mask >> port) & 1u) && pk->reason == ASIC_REASON_NONE)
		pk->reason = DFLY_ROUTE_FAIL_WAIT; /* no way around it from here */
	pk->pend_flags = 0;
	pk->vc_allow = 0;
	return target;
}

/* CRT (crt.c, spec §4.8) */
struct asic_crt;
int asic_crt_enable(struct asic *as);
void asic_crt_free(struct asic *as);
/* a packet of @p phits sent on global output @p o, downstream VC @p vc */
void asic_crt_sent(struct asic *as, uint32_t o, uint32_t vc, uint16_t phits, uint64_t now);
/* credits of @p phits back on global output @p o: the round trip of what they complete */
void asic_crt_credit(struct asic *as, uint32_t o, uint32_t vc, uint32_t phits, uint64_t now);
/* how long a credit for a packet that left towards global output @p o is held */
uint32_t asic_crt_delay(const struct asic *as, uint32_t o);
/* hold the credit of local input @p in for @p delay cycles; false: no room, return it now */
bool asic_crt_hold(struct asic *as, uint32_t in, uint32_t vc, uint16_t phits, bool min,
		   uint32_t delay, uint64_t now);
/* return the held credits whose time has come */
void asic_crt_release(struct asic *as, uint64_t now);

#endif /* ASIC_PRIV_H */
