/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Route stage of the switch ASIC model, source-adaptive family (UGAL-L, PB, PAR, LIA, TPR,
 * PB-ACOR, UGAL-G): the decision at the source router against a freshly drawn Valiant path
 * (re-evaluated every allocation round until granted; PAR again at every source-group router
 * while minimal), and failover at the source (also used by MIN and VAL). One instance per mode,
 * its mode a compile-time constant (asic_priv.h, ASIC_FOREACH_MODE).
 */
#include "asic_priv.h"

/*
 * Q of output @p port as UGAL-L compares it (spec §4.5): q_occ() (capacity − credits, spec
 * §3.3), or with knobs.ugal_remove_rtt the estimate of IAR's own simulator (BookSim,
 * indirect_adaptive_routing and SRP_IAR branches, IQRouter::GetCredit with remove_credit_rtt,
 * which their dragonfly configs set): the phits still committed in the output FIFO (granted,
 * not yet on the link: IAR §6.2's "flits committed but not yet transmitted"), plus what has
 * left for the link less the link's credit round trip at one phit per cycle, 2 × latency,
 * clamped at 0. Without it, a global port under load always shows the ~2·100 cycles of phits
 * and credits in flight on its link, a local port ~2·10: UGAL-L then reads a busy but
 * unqueued global link as congested against any local one (PAR's second source-group router,
 * a source router that owns the minimal global link).
 */
static inline int64_t ugal_q(const struct asic *as, uint32_t port, uint32_t vc)
{
	const struct dfly_regs_knobs *k = &as->regs->knobs;
	const struct asic_out *out = &as->out[port];
	uint32_t q = q_occ(as, port, vc, k->ugal_per_port), fifo = 0, rtt;

	if (!k->ugal_remove_rtt || out->kind == DFLY_PORT_TERMINAL || out->link == NULL)
		return q;
	for (uint32_t i = out->head; i != out->tail; i++) {
		const struct asic_pkt *pk = out->fifo[i & out->mask];

		if (k->ugal_per_port || pk->vc == vc)
			fifo += pk->len;
	}
	rtt = 2 * out->link->latency;
	if (q < fifo + rtt)
		return fifo < q ? fifo : q;
	return q - rtt;
}

/*
 * With knobs.ugal_commitment, the phits of the packets at this router's input heads already
 * routed to output @p port (to its VC @p vc, or to any VC with ugal_per_port) and not yet
 * granted, the deciding packet @p self left out. IAR's own simulator adds them to UGAL's Q
 * (BookSim's track_routing_commitment: a packet's length is committed to its output when its
 * head is routed and taken off as it crosses the crossbar, IQRouter::_UpdateCommitment and
 * GetUsedCredit), so heads that wait for one output make it read as busy before any of them is
 * granted: at a router whose local port leads to the owner of a congested global channel, the
 * injection heads waiting for that port, where credits alone show at most the owner's one
 * input VC (32 flits on CFG-I, 20 of them the link's round trip).
 */
static uint32_t ugal_commit(const struct asic *as, uint32_t port, uint32_t vc,
			    const struct asic_pkt *self)
{
	bool per_port = as->regs->knobs.ugal_per_port;
	uint64_t m = as->in_mask;
	uint32_t sum = 0;

	while (m) {
		const struct asic_in *in = &as->in[ctz64(m)];
		uint32_t vm = in->vc_mask;

		m &= m - 1;
		while (vm) {
			const struct asic_pkt *pk = ivc_head(&in->vc[__builtin_ctz(vm)]);

			vm &= vm - 1;
			if (pk != self && pk->out_port == port && (per_port || pk->out_vc == vc))
				sum += pk->len;
		}
	}
	return sum;
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
				*q[k] += ugal_q(o, hops[1].port, vc);
		}
	}
}

/* Is group @p x among the h groups a consecutive arrangement links to router index @p a (the
 * range starting at a·h, or a·h + 1 towards groups numbered above the router's own)? */
static inline bool fogsim_linked(int64_t x, int64_t a, int64_t h, bool above)
{
	int64_t lo = a * h + (above ? 1 : 0);

	return x >= lo && x < lo + h;
}

/* Router hops from router index sA of group sH to router index dA of group dH as FOGSim v5
 * generatorModule::determinePaths() counts them: within a group one local hop unless sA is dA;
 * else a local hop in the source group unless sA has the link to dH, one global hop, and (with
 * @p dst_local) a local hop in dH unless dA has the link back, by the consecutive arrangement's
 * formula, whatever the network's. */
static inline int64_t fogsim_leg(int64_t sA, int64_t sH, int64_t dA, int64_t dH, int64_t h,
				 bool dst_local)
{
	int64_t n;

	if (sH == dH)
		return sA != dA ? 1 : 0;
	n = 1 + !fogsim_linked(dH, sA, h, sH < dH);
	if (dst_local)
		n += !fogsim_linked(sH, dA, h, sH > dH);
	return n;
}

/*
 * routing.ugal.weight = "fogsim": the path lengths FOGSim v5 weighs UGAL-L's queues with
 * (generatorModule::determinePaths(), set at generation): the minimal path's, and the Valiant
 * path's as the source to the Valiant node's group (no local hop there) plus that node's
 * router to the destination. The formula is the consecutive arrangement's; FOGSim routes a
 * palm-tree network (PalmTreeConfiguration = 1, routing.cc) with it all the same, so under
 * dfly's palm tree these are not the hops the packets take. S_ROOT's router index stands for
 * that of FOGSim's Valiant node (a node of the Valiant group drawn at generation).
 */
static void fogsim_paths(const struct dfly_topo *t, uint32_t router, uint32_t dst_router,
			 uint32_t root, int64_t *hmin, int64_t *hval)
{
	int64_t h = t->h, sA = router % t->a, sH = router / t->a;
	int64_t dA = dst_router % t->a, dH = dst_router / t->a;
	int64_t vA = root % t->a, vH = root / t->a;

	*hmin = fogsim_leg(sA, sH, dA, dH, h, true);
	*hval = fogsim_leg(sA, sH, vA, vH, h, false) + fogsim_leg(vA, vH, dA, dH, h, true);
}

/*
 * Source-adaptive decision (UGAL-L, PB; PAR at every source-group router while minimal):
 * minimal iff the PB bit of the minimal global channel is clear (PB only) and
 * Q_min·256 ≤ F·Q_val + T·256 (spec §4.5, §4.6), against one freshly drawn Valiant path;
 * with routing.ugal.weight = "hops", Q_min·H_min ≤ Q_val·H_val + T (FOGSim's comparison).
 */
static ASIC_ALWAYS_INLINE void src_decide(struct asic *as, struct asic_pkt *pk, uint32_t dst_group,
					  bool transit, const uint32_t M)
{
	const struct dfly_topo *t = as->topo;
	const struct dfly_regs_knobs *k = &as->regs->knobs;
	uint32_t root = pk->cand_root, min_port, val_port, min_vc, val_vc;
	int64_t qmin, qval, T;
	bool ugal_ok, sat = false;

	/* tentative until granted: start from the minimal choice */
	pk->val_router = ASIC_NONE;
	pk->flags &= (uint16_t)~ASIC_PKT_NONMIN;
	if (dst_group == as->group) {
		pk->reason = transit ? ASIC_REASON_NONE : DFLY_ROUTE_SRC_MIN_INTRA;
		return; /* no global hop, no bit or counter applies */
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
	qmin = ugal_q(as, min_port, min_vc);
	qval = ugal_q(as, val_port, val_vc);
	if (k->ugal_commitment) {
		qmin += ugal_commit(as, min_port, min_vc, pk);
		qval += ugal_commit(as, val_port, val_vc, pk);
	}
	if (dfly_mode_is(M, DFLY_MODEF_ORACLE))
		ugal_g_occ(as, pk, root, &qmin, &qval);
	T = k->ugal_t;
	if (dfly_mode_tables(M) & DFLY_TBL_BIT(UGAL)) {
		/* spec §6.8: T of the destination group's traffic level (phits) */
		static const uint8_t lvl[] = {DFLY_ROUTE_LIA_LEVEL_BENIGN, DFLY_ROUTE_LIA_LEVEL_MIX,
					      DFLY_ROUTE_LIA_LEVEL_ADV};
		uint8_t l = as->tbl_lia->level[dst_group];

		if (!as->fw_dead) /* safe mode: the configured T */
			T = as->tbl_ugal->t[dst_group];
		pk->trig = lvl[l < 3 ? l : 2];
	}
	if (k->ugal_hops) {
		/* FOGSim v5 (routing/ugal.cc, pb.cc misrouteCondition()): each queue times its
		 * path's router hops, the Valiant path through S_ROOT ("hops"), or those hops as
		 * FOGSim counts them ("fogsim") */
		struct dfly_hop hp[6];
		uint32_t dr = pk->dst_node / t->p;
		int64_t hmin, hval;

		if (k->ugal_hops == 2) {
			fogsim_paths(t, as->router, dr, root, &hmin, &hval);
		} else {
			hmin = dfly_topo_min_path(t, as->router, dr, pk->dst_node, hp);
			hval = dfly_topo_min_path(t, as->router, root, pk->dst_node, hp) +
			       dfly_topo_min_path(t, root, dr, pk->dst_node, hp);
		}
		ugal_ok = qmin * hmin <= qval * hval + T;
	} else {
		ugal_ok = qmin * 256 <= (int64_t)k->ugal_f_q8 * qval + T * 256;
	}
	pk->dec.q_min = (int32_t)qmin;
	pk->dec.q_val = (int32_t)qval;
	pk->dec.t = (int32_t)T;
	if (dfly_mode_tables(M) & DFLY_TBL_BIT(UGAL)) {
		pk->dec.level = as->tbl_lia->level[dst_group];
		if (as->tbl_lia->use_l1)
			pk->dec.flags |= DFLY_TRACE_F_L1;
		if (as->tbl_lia->l2[dst_group])
			pk->dec.flags |= DFLY_TRACE_F_L2;
	}
	if (dfly_mode_tables(M) & DFLY_TBL_BIT(PB)) {
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
	pk->reason = sat       ? DFLY_ROUTE_SRC_NONMIN_SAT
		     : transit ? DFLY_ROUTE_PAR_TRANSIT_NONMIN
			       : DFLY_ROUTE_SRC_NONMIN_UGAL;
}

#define FAIL_DRAWS 12u

/* Failover in the source group for the modes that decide at the source, MIN and VAL included
 * (route_path() in asic_priv.h): @p target is the router the packet heads for (S_ROOT or its
 * destination router). */
void asic_failover_src(struct asic *as, struct asic_pkt *pk, uint32_t in_port, uint32_t dst_group,
		       uint32_t target)
{
	const struct dfly_topo *t = as->topo;
	const struct dfly_regs_knobs *k = &as->regs->knobs;
	bool val = pk->val_router != ASIC_NONE;
	uint32_t c;

	if (!asic_leg_down(as, target / t->a, pk->dst_node) &&
	    !(val && !(pk->flags & ASIC_PKT_PHASE1) && !inter_ok(as, target / t->a, dst_group)))
		return;
	if (in_port < t->p) {
		/* still in the injection queue: any Valiant path whose first global link is up
		 * (the mode's Path-A variant first, then LGL, which reaches every group) */
		for (uint32_t n = 0; n < FAIL_DRAWS; n++) {
			enum dfly_val_variant v =
			    n < 4 ? (enum dfly_val_variant)k->val_variant : DFLY_VAL_LGL;
			uint32_t r1 = dfly_rng_u32(&as->rng), r2 = dfly_rng_u32(&as->rng);
			uint32_t root =
			    dfly_topo_val_root_ex(t, v, (enum dfly_val_exclude)k->val_exclude,
						  as->router, dst_group, r1, r2);

			if (root == UINT32_MAX)
				break;
			if (!asic_leg_down(as, root / t->a, pk->dst_node) &&
			    inter_ok(as, root / t->a, dst_group)) {
				pk->val_router = root;
				pk->flags =
				    (uint16_t)((pk->flags | ASIC_PKT_NONMIN) & ~ASIC_PKT_NOINTER);
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
	c = asic_fail_pick(as, pk, asic_fail_own_cands(as, dst_group), k->vc_map[DFLY_ROLE_G1]);
	if (c == UINT32_MAX) {
		/* nowhere else to go from here: wait for a down link, or go on towards a group
		 * whose own link onwards is down (it waits there) */
		if (asic_leg_down(as, target / t->a, pk->dst_node))
			pk->reason = DFLY_ROUTE_FAIL_WAIT;
		return;
	}
	pk->val_router = dfly_topo_global_peer(t, as->router, c - t->first_global).router;
	pk->flags = (uint16_t)((pk->flags | ASIC_PKT_NONMIN) & ~ASIC_PKT_NOINTER);
	pk->flags &= (uint16_t)~ASIC_PKT_DECIDING;
	pk->reason = DFLY_ROUTE_FAIL_REROUTE;
}

/* The route stage of a source-adaptive mode @p M for the head @p pk at input @p in_port. */
static ASIC_ALWAYS_INLINE void route_src(struct asic *as, struct asic_pkt *pk, uint32_t in_port,
					 const uint32_t M)
{
	const struct dfly_topo *t = as->topo;
	uint32_t dst_router = pk->dst_node / t->p;
	uint32_t dst_group = dst_router / t->a;
	bool draw = false, decide = false, transit = false, towards_root;
	uint32_t target;

	pk->trig = ASIC_REASON_NONE;
	dec_reset(&pk->dec);
	if (!(pk->flags & ASIC_PKT_ROUTED)) {
		/* source decision (again after a recompute) */
		pk->flags |= ASIC_PKT_ROUTED;
		pk->val_router = ASIC_NONE;
		pk->reason = ASIC_REASON_NONE;
		draw = decide = true;
	} else if (pk->flags & ASIC_PKT_DECIDING) {
		/* re-evaluated every allocation round until granted, same S_ROOT */
		decide = true;
		transit = in_port >= t->p;
	} else if (M == DFLY_MODE_PAR && pk->ghops == 0 && in_port >= t->p &&
		   !(pk->flags & (ASIC_PKT_NONMIN | ASIC_PKT_NOINTER)) && as->group != dst_group) {
		/* PAR: re-evaluate at every source-group router while minimal (spec §4.7) */
		draw = decide = transit = true;
	}
	if (draw) {
		route_draw_root(as, pk, dst_group, M);
		pk->flags |= ASIC_PKT_DECIDING;
	}
	if (decide)
		src_decide(as, pk, dst_group, transit, M);
	target = route_path(as, pk, in_port, dst_router, dst_group, &towards_root);
	if (dfly_mode_is(M, DFLY_MODEF_FLEXVC))
		asic_flex_route_src(as, pk, target, dst_router, towards_root);
}

#define ROUTE_SRC(M)                                                                               \
	void asic_route_##M(struct asic *as, struct asic_pkt *pk, uint32_t in_port)                \
	{                                                                                          \
		route_src(as, pk, in_port, DFLY_MODE_##M);                                         \
	}
ROUTE_SRC(UGAL)
ROUTE_SRC(PB)
ROUTE_SRC(PAR)
ROUTE_SRC(LIA)
ROUTE_SRC(TPR)
ROUTE_SRC(PB_ACOR)
ROUTE_SRC(UGAL_G)
ROUTE_SRC(CRT) /* UGAL-L; its credit delays are in the credit path (crt.c) */

/*
 * RES (spec §4.9, IAR §3.4): the decision was the reservation's (res.c), made before the head
 * could route: minimal if the minimal global channel was reserved for it (ASIC_PKT_RES_MIN),
 * else Valiant towards a freshly drawn S_ROOT. Fixed once made: no UGAL comparison here.
 */
void asic_route_RES(struct asic *as, struct asic_pkt *pk, uint32_t in_port)
{
	const struct dfly_topo *t = as->topo;
	uint32_t dst_router = pk->dst_node / t->p;
	uint32_t dst_group = dst_router / t->a;
	uint32_t target;
	bool towards_root;

	pk->trig = ASIC_REASON_NONE;
	dec_reset(&pk->dec);
	if (!(pk->flags & ASIC_PKT_ROUTED)) {
		pk->flags |= ASIC_PKT_ROUTED;
		pk->flags &= (uint16_t) ~(ASIC_PKT_NONMIN | ASIC_PKT_NOINTER);
		pk->val_router = ASIC_NONE;
		if (dst_group == as->group) {
			pk->reason = in_port < t->p ? DFLY_ROUTE_SRC_MIN_INTRA : ASIC_REASON_NONE;
		} else if (pk->flags & ASIC_PKT_RES_MIN) {
			pk->reason = DFLY_ROUTE_RES_MIN;
		} else {
			pk->reason = route_take_val(as, pk, dst_group, DFLY_MODE_RES)
					 ? DFLY_ROUTE_RES_VAL
					 : ASIC_REASON_NONE;
		}
	}
	target = route_path(as, pk, in_port, dst_router, dst_group, &towards_root);
	asic_flex_route_src(as, pk, target, dst_router, towards_root);
}

/* UGAL-L's decision alone (no mode's own inputs: UGAL-G queues, LIA/TPR T, PB bits): what MIN
 * and VAL apply to a head still deciding when the mode register changed under it. */
void asic_src_decide(struct asic *as, struct asic_pkt *pk, uint32_t dst_group, bool transit)
{
	src_decide(as, pk, dst_group, transit, DFLY_MODE_UGAL);
}
