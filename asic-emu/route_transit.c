/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Route stage of the switch ASIC model, in-transit family (OLM, Base, Filtered, Hybrid, ECtN):
 * OLM's credit trigger, the contention triggers on the counters of cc.c, ECtN's choice at the
 * source router, failover in the source group, and the per-head, per-round route stage. One
 * instance per mode, its mode a compile-time constant (asic_priv.h, ASIC_FOREACH_MODE).
 */
#include "asic_priv.h"

/* ---- FlexVC (vcs.flexvc; spec §2.4; thesis §5.2.1, §5.2.3, §5.3.4) ----
 *
 * Without FlexVC a hop takes its role's VC (spec §2.2: l0 l0 g1 l0 l2 g3 l4, the opportunistic
 * hops S2, I1, D1 reusing an index). With it, a hop takes any VC its place on the escape
 * sequence l0 g1 l2 g3 l4 allows (asic_flex_transit(), route_obl.c): a minimal hop is a safe
 * hop, placed by the minimal path it starts; a misroute is an opportunistic hop, placed by the
 * path it starts: the misroute, then its escape (thesis Definition 2). A decision point's
 * candidates are valid only where one of their allowed VCs can take the packet at once, as
 * without FlexVC on the role VC (spec §2.3: an opportunistic hop never waits), and the
 * credit-based trigger reads, for each output, what the VCs its hop may use hold (thesis
 * §5.3.4: "the availability of free slots in the next buffer, including traffic routed
 * nonminimally"). The contention triggers do not read VCs. Table 5.3 of the thesis: in-transit
 * paths are opportunistic with 3/2 VCs, the VCs this family needs without FlexVC too.
 */

/* ---- request-reply (traffic.reqrep; spec §2.2, §2.4, §7.5; thesis §5.1.1, §5.2.2) ----
 *
 * Requests take the first VCs of each port, replies the last ones (knobs.reply_vc: where the
 * reply class starts). Without FlexVC each class holds its own copy of the family's 3/2 path
 * l0 l0 g1 l0 l2 g3 l4 ("considering protocol deadlock avoidance doubles the path length and
 * the number of resources", thesis §5.1.1; spec §2.2's doubled path: 6/4), and a reply's hop
 * takes its role's VC in the reply class (role_vc()). Deadlock freedom: within a class, OLM's
 * argument (thesis §1.4.2.2.1): every opportunistic hop (S2, I1, D1) enters a buffer from which
 * the escape l0 g1 l2 g3 l4 of the same class climbs to the destination; across the classes,
 * a request never takes a reply VC and a reply never a request VC, so the request network
 * depends on the reply network only through the destination's reply injection, and the reply
 * network ends at the requester's node, which consumes it (the consumption assumption of
 * Theorem 1, thesis §5.2.1): no cycle spans the two classes.
 *
 * With FlexVC (asic_flex_transit()) a request is placed on the escape sequence of the request
 * class, a reply on the request class's sequence followed by the reply class's own (thesis
 * §5.2.2: "reply packets can employ both reply and request VCs"); a reply class smaller than
 * 3/2 is sized for minimal paths, its own part l g l (thesis §5.2.2-§5.2.3, Table 5.4: 3/2 +
 * 2/1 = 5/3, in-transit paths opportunistic). Deadlock freedom is Theorem 2 (thesis §5.2.2):
 * each class is deadlock-free by Theorem 1 on its subsequence; every reply path, opportunistic
 * hops included, has an escape that climbs the concatenated sequence and ends in the reply
 * class, since every in-transit path left after a hop is at most l g l g l (an NRG misroute,
 * its mandatory global hop and the minimal l g l beyond), which fits request l g l g l + reply
 * l g l from the end with its last three hops in the reply part.
 */

/* The VC of role @p r of the packet's class without FlexVC: the role map, shifted to the reply
 * class for a reply (the same offset hop_vc() adds). */
static inline uint32_t role_vc(const struct asic *as, const struct asic_pkt *pk, enum dfly_role r)
{
	const struct dfly_regs_knobs *k = &as->regs->knobs;
	uint32_t kind = r == DFLY_ROLE_G1 || r == DFLY_ROLE_G2 ? DFLY_PORT_GLOBAL : DFLY_PORT_LOCAL;

	return k->vc_map[r] + ((pk->flags & ASIC_PKT_REPLY) ? k->reply_vc[kind] : 0);
}

/* The rest of the path after a local misroute in the source group (NRG): the mandatory global
 * hop at the next router, then at most the minimal l g l of the group it lands in. */
static const uint8_t nrg_then[] = {DFLY_PORT_GLOBAL, DFLY_PORT_LOCAL, DFLY_PORT_GLOBAL,
				   DFLY_PORT_LOCAL};

/* The VCs (bit mask) a hop out of @p port may use and, in *@p safe, the one it waits on: FlexVC
 * off, its role's VC @p role_vc alone; on, its place on the escape sequence with the rest of
 * the path @p then (NULL: the minimal path from the far end of @p port). */
static inline uint8_t hop_vcs(const struct asic *as, const struct asic_pkt *pk, uint32_t port,
			      uint32_t role_vc, const uint8_t *then, unsigned nthen, uint8_t *safe)
{
	uint8_t m;

	if (as->regs->knobs.flexvc != DFLY_FLEXVC_OFF &&
	    (m = asic_flex_transit(as, pk, port, then, nthen, safe)) != 0)
		return m;
	*safe = (uint8_t)role_vc;
	return (uint8_t)(1u << role_vc);
}

/* The hop is @p port, its VCs @p vcs and safe VC @p safe (hop_vcs()): the allocator picks among
 * @p vcs under FlexVC (asic_flex_pick()), else takes @p safe. */
static inline void set_hop(const struct asic *as, struct asic_pkt *pk, uint32_t port, uint8_t vcs,
			   uint8_t safe)
{
	pk->out_port = (uint8_t)port;
	pk->out_vc = safe;
	pk->vc_allow = as->regs->knobs.flexvc != DFLY_FLEXVC_OFF ? vcs : 0;
}

/* Could output @p port take a packet of @p len now on one of the VCs @p vcs (port_feasible)? */
static inline bool feasible_vcs(const struct asic *as, uint32_t port, uint8_t vcs, uint32_t len)
{
	for (uint32_t m = vcs; m; m &= m - 1)
		if (port_feasible(as, port, (uint32_t)__builtin_ctz(m), len, as->tick))
			return true;
	return false;
}

/* Has one of the VCs @p vcs of output @p port credits for @p len phits? */
static inline bool credits_vcs(const struct asic *as, uint32_t port, uint8_t vcs, uint32_t len)
{
	for (uint32_t m = vcs; m; m &= m - 1)
		if (has_credits(as, port, (uint32_t)__builtin_ctz(m), len))
			return true;
	return false;
}

/* Phits the VCs @p vcs of output @p port hold downstream (q_occ per VC, summed); *@p cap: what
 * they hold at most. */
static inline uint64_t occ_vcs(const struct asic *as, uint32_t port, uint8_t vcs, uint64_t *cap)
{
	uint64_t q = 0, c = 0;

	for (uint32_t m = vcs; m; m &= m - 1) {
		uint32_t v = (uint32_t)__builtin_ctz(m);

		q += q_occ(as, port, v, false);
		c += as->out[port].credit_cap[v];
	}
	*cap = c;
	return q;
}

/* A decision point's candidates (spec §5.7 table): the role VC of their hop without FlexVC, the
 * rest of their path with it (hop_vcs()). */
struct transit_dp {
	uint32_t role_vc;
	const uint8_t *then;
	unsigned nthen;
};

static inline uint8_t dp_vcs(const struct asic *as, const struct asic_pkt *pk,
			     const struct transit_dp *dp, uint32_t port, uint8_t *safe)
{
	return hop_vcs(as, pk, port, dp->role_vc, dp->then, dp->nthen, safe);
}

/* Failover for the in-transit modes (route_olm) in the source group: @return the port taken
 * (out_port, out_vc, pend_flags and reason set), or UINT32_MAX: go on minimally. */
static uint32_t failover_olm(struct asic *as, struct asic_pkt *pk, uint32_t in_port,
			     uint32_t dst_group, uint32_t min_kind)
{
	const struct dfly_topo *t = as->topo;
	uint32_t c, rho = as->router % t->a;
	uint64_t lc = 0;

	if (!asic_leg_down(as, dst_group, pk->dst_node))
		return UINT32_MAX;
	if (min_kind != DFLY_PORT_GLOBAL && in_port >= t->p)
		return UINT32_MAX; /* the link's own router moves it */
	c = asic_fail_pick(as, pk, asic_fail_own_cands(as, dst_group),
			   role_vc(as, pk, DFLY_ROLE_G1));
	if (c != UINT32_MAX) {
		pk->out_port = (uint8_t)c;
		pk->out_vc = (uint8_t)role_vc(as, pk, DFLY_ROLE_G1);
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
			uint32_t G =
			    dfly_topo_global_peer(t, as->group * t->a + r, q).router / t->a;

			if (G != dst_group && !gport_down(as, r, q) && inter_ok(as, G, dst_group)) {
				lc |= 1ull << dfly_topo_local_port(t, rho, r);
				break;
			}
		}
	}
	c = asic_fail_pick(as, pk, lc, role_vc(as, pk, DFLY_ROLE_S1));
	if (c == UINT32_MAX)
		return UINT32_MAX;
	pk->out_port = (uint8_t)c;
	pk->out_vc = (uint8_t)role_vc(as, pk, DFLY_ROLE_S1);
	pk->pend_flags = ASIC_PKT_NONMIN | ASIC_PKT_MANDATORY_GLOBAL;
	pk->reason = DFLY_ROUTE_FAIL_NONMIN;
	return c;
}

/*
 * OLM (spec §4.10, MM+L, 3/2 VCs), with FOGSim's congestion-aware trigger [xcheck]: misrouting
 * is considered only while the minimal hop cannot take the packet, occ%(min) ≥ olm_min_pct and,
 * on a minimal global hop, its link is saturated (olm_global_saturated, routing.olm.saturation).
 * "Cannot take" is: its downstream VC lacks credits for the whole packet, or its output FIFO
 * lacks room. FOGSim also counts an output that is busy in this very cycle; in this model that
 * is a one-tick allocator conflict, and counting it misroutes 17% of UN traffic at 0.2 load on
 * h=4, so it is left out (docs/adaptive.md, "OLM's trigger"). A candidate c is then valid iff
 * it can take the packet now (opportunistic hops never wait, §2.3) and occ%(c) ≤ X%·occ%(min),
 * each occupancy a percentage of its VC's capacity. @return a uniformly drawn valid candidate,
 * or UINT32_MAX.
 */
static uint32_t olm_pick(struct asic *as, const struct asic_pkt *pk, uint64_t cand,
			 const struct transit_dp *dp, uint32_t min_port, uint8_t min_vcs,
			 uint64_t x)
{
	uint64_t cap_min, qmin = occ_vcs(as, min_port, min_vcs, &cap_min);
	uint32_t ok[DFLY_MAX_PORTS], n = 0;

	while (cand) {
		uint32_t c = ctz64(cand);
		uint64_t qc, cap_c;
		uint8_t safe, vcs = dp_vcs(as, pk, dp, c, &safe);

		cand &= cand - 1;
		if (!feasible_vcs(as, c, vcs, pk->len))
			continue;
		qc = occ_vcs(as, c, vcs, &cap_c);
		if (qc * cap_min * 100 <= x * qmin * cap_c)
			ok[n++] = c;
	}
	return n ? ok[dfly_rng_below(&as->rng, n)] : UINT32_MAX;
}

/*
 * FOGSim's CGA restriction [xcheck]: is the minimal global hop's link saturated among this
 * router's global links, Q > F·Qavg + T, Q the occupancy of the hop's VC (under FlexVC: of the
 * VCs it may use) and Qavg its mean over the h global ports (the same VCs) (FOGSim
 * updateCongestionStatusGlobalLinks(), per VC; misrouteCondition() ANDs it into the CGA trigger,
 * which always switches it on). Under ADVc the h global links of the bottleneck router carry the
 * same load, so none is saturated: neither its injection nor the transit that reaches it is
 * misrouted, the transit waits for those links (thesis §3.1.3: the routing "requires a certain
 * level of congestion in Rout"), and with in-transit priority it starves the router's injection
 * (thesis Table 3.1, spec H20).
 */
static bool olm_global_saturated(const struct asic *as, uint32_t min_port, uint8_t min_vcs)
{
	const struct dfly_topo *t = as->topo;
	const struct dfly_regs_knobs *k = &as->regs->knobs;
	int64_t sum = 0, h = t->h;
	uint64_t cap;

	for (uint32_t q = 0; q < t->h; q++)
		sum += (int64_t)occ_vcs(as, t->first_global + q, min_vcs, &cap);
	return 100 * h * (int64_t)occ_vcs(as, min_port, min_vcs, &cap) >
	       (int64_t)k->olm_sat_f_pct * sum + 100 * h * k->olm_sat_t;
}

/* OLM's misrouting condition on the minimal hop (see olm_pick), with the CGA restriction on a
 * minimal global hop when knobs.olm_sat is on; @p min_vcs: the VCs the minimal hop may use. */
static bool olm_min_congested(const struct asic *as, const struct asic_pkt *pk, uint32_t min_port,
			      uint8_t min_vcs)
{
	const struct asic_out *mo = &as->out[min_port];
	uint64_t cap;

	if (mo->kind == DFLY_PORT_TERMINAL ||
	    (credits_vcs(as, min_port, min_vcs, pk->len) && mo->occ + pk->len <= mo->cap))
		return false;
	if (occ_vcs(as, min_port, min_vcs, &cap) * 100 <
	    (uint64_t)as->regs->knobs.olm_min_pct * cap)
		return false;
	return mo->kind != DFLY_PORT_GLOBAL || !as->regs->knobs.olm_sat ||
	       olm_global_saturated(as, min_port, min_vcs);
}

/* ---- contention counters (spec §5.3-§5.7) ---- */

/* cc (or, Filtered, the estimate) of output @p o against @p th, with the comparison of */
static ASIC_ALWAYS_INLINE bool cc_over(const struct asic *as, uint32_t o, uint32_t th,
				       const uint32_t M)
{
	const struct dfly_regs_knobs *k = &as->regs->knobs;
	uint64_t v = M == DFLY_MODE_FILTERED ? as->regs->mech.cc_est_q8[o]
					     : (uint64_t)as->regs->mech.cc[o] << 8;
	uint64_t lim = (uint64_t)th << 8;

	return k->cc_strict ? v > lim : v >= lim;
}

/* The contention trigger on the minimal output; WEIGHTED (PROPOSAL, §5.3): once over th, fire
 * with probability (excess + 1)/(th + 1), excess = cc − th, re-drawn at every evaluation. */
static ASIC_ALWAYS_INLINE bool cc_trigger(struct asic *as, uint32_t m, uint32_t th,
					  const uint32_t M)
{
	const struct dfly_regs_knobs *k = &as->regs->knobs;

	if (!cc_over(as, m, th, M))
		return false;
	if (k->cc_weighted) {
		uint32_t c = M == DFLY_MODE_FILTERED ? as->regs->mech.cc_est_q8[m] >> 8
						     : as->regs->mech.cc[m];
		uint32_t excess = c >= th ? c - th : 0;

		if (excess < th && dfly_rng_below(&as->rng, th + 1) > excess)
			return false;
	}
	return true;
}

/* Can contention candidate @p c take the packet on one of @p vcs? routing.cc.candidate = now: in
 * this allocation round (crossbar output free, output FIFO room, downstream credits), the test of
 * olm_pick and of FOGSim's validMisroutePort, whose IOQ credits are min(downstream credits,
 * output-buffer room) and which also drops an output in use [xcheck]; = credits: downstream
 * credits only (spec §4.1). */
static ASIC_ALWAYS_INLINE bool cc_cand_ok(const struct asic *as, uint32_t c, uint8_t vcs,
					  uint32_t len)
{
	return as->regs->knobs.cc_cand_now ? feasible_vcs(as, c, vcs, len)
					   : credits_vcs(as, c, vcs, len);
}

/* Uniform among @p cand that can take the packet on their VCs (cc_cand_ok, dp_vcs) and (unless
 * @p any) whose counter is below @p th. @return the port or UINT32_MAX. */
static ASIC_ALWAYS_INLINE uint32_t cc_pick(struct asic *as, const struct asic_pkt *pk,
					   uint64_t cand, const struct transit_dp *dp, uint32_t th,
					   bool any, const uint32_t M)
{
	uint32_t ok[DFLY_MAX_PORTS], n = 0;

	while (cand) {
		uint32_t c = ctz64(cand);
		uint8_t safe;

		cand &= cand - 1;
		if (cc_cand_ok(as, c, dp_vcs(as, pk, dp, c, &safe), pk->len) &&
		    (any || !cc_over(as, c, th, M)))
			ok[n++] = c;
	}
	return n ? ok[dfly_rng_below(&as->rng, n)] : UINT32_MAX;
}

/* routing.candidate_draw = one (FOGSim's olm::nominateCandidates [xcheck]): one port of the
 * decision point's misrouting @p range (all the global, or all the local ports of the router,
 * the minimal one included) is drawn uniformly; only it may be a candidate. @return @p cand
 * restricted to it, or @p cand unchanged with the default (all). */
static inline uint64_t draw_one(struct asic *as, uint64_t cand, uint64_t range)
{
	uint32_t r;

	if (!as->regs->knobs.cand_draw_one || range == 0)
		return cand;
	r = dfly_rng_below(&as->rng, (uint32_t)__builtin_popcountll(range));
	while (r--)
		range &= range - 1;
	return cand & (1ull << ctz64(range));
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
 * destination group D has combined[D] ≥ thc goes to a global port of this router (among
 * @p allow) that does not lead to D, whose group is below thc and that can take the packet
 * (cc_cand_ok), uniformly. @return the port or UINT32_MAX (then the Base rule applies, A-5.7).
 */
static uint32_t ectn_pick(struct asic *as, const struct asic_pkt *pk, uint32_t dst_group,
			  uint64_t allow, const struct transit_dp *dp)
{
	const struct dfly_topo *t = as->topo;
	uint32_t ok[DFLY_MAX_H], n = 0;

	if (!ectn_over(as, dst_group))
		return UINT32_MAX;
	for (uint32_t q = 0; q < t->h; q++) {
		uint32_t G = dfly_topo_global_peer(t, as->router, q).router / t->a;
		uint8_t safe;

		if (((allow >> (t->first_global + q)) & 1u) && G != dst_group &&
		    !ectn_over(as, G) && !((as->down_mask >> (t->first_global + q)) & 1u) &&
		    (!as->fail_any || inter_ok(as, G, dst_group)) &&
		    cc_cand_ok(as, t->first_global + q,
			       dp_vcs(as, pk, dp, t->first_global + q, &safe), pk->len))
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
static ASIC_ALWAYS_INLINE uint32_t intransit_pick(struct asic *as, struct asic_pkt *pk,
						  uint64_t cand, const struct transit_dp *dp,
						  uint32_t min_port, uint8_t min_vcs, bool *fired,
						  const uint32_t M)
{
	const struct dfly_regs_knobs *k = &as->regs->knobs;
	uint32_t c;

	pk->trig = ASIC_REASON_NONE;
	if (M == DFLY_MODE_OLM) {
		if (!olm_min_congested(as, pk, min_port, min_vcs))
			return UINT32_MAX;
		c = olm_pick(as, pk, cand, dp, min_port, min_vcs, k->olm_x_pct);
		*fired = c == UINT32_MAX;
		return c;
	}
	if (M == DFLY_MODE_HYBRID) {
		if (cc_trigger(as, min_port, k->hyb_th, M)) {
			c = cc_pick(as, pk, cand, dp, k->hyb_th, k->hyb_any, M);
			if (c != UINT32_MAX) {
				pk->trig = DFLY_ROUTE_CC_TRIG_CONTENTION;
				return c;
			}
			*fired = true;
		}
		if (olm_min_congested(as, pk, min_port, min_vcs)) {
			c = olm_pick(as, pk, cand, dp, min_port, min_vcs, k->hyb_y_pct);
			if (c != UINT32_MAX) {
				pk->trig = DFLY_ROUTE_CC_TRIG_CREDIT;
				return c;
			}
			*fired = true;
		}
		return UINT32_MAX;
	}
	/* Base, Filtered, and ECtN's hop-by-hop rule */
	if (!cc_trigger(as, min_port, k->cc_th, M))
		return UINT32_MAX;
	c = cc_pick(as, pk, cand, dp, k->cc_th, false, M);
	*fired = c == UINT32_MAX;
	if (c != UINT32_MAX)
		pk->trig = DFLY_ROUTE_CC_TRIG_CONTENTION;
	return c;
}

/* In-transit route stage of mode @p M (OLM and the contention modes), re-evaluated every
 * allocation round until the head is granted. */
static ASIC_ALWAYS_INLINE void route_olm(struct asic *as, struct asic_pkt *pk, uint32_t in_port,
					 uint32_t dst_group, const uint32_t M)
{
	const struct dfly_topo *t = as->topo;
	uint32_t min_port = pk->min_port;
	uint32_t min_kind = dfly_topo_port_kind(t, min_port);
	uint64_t locals = ((1ull << (t->a - 1)) - 1) << t->first_local;
	uint64_t globals = ((1ull << t->h) - 1) << t->first_global;
	uint64_t cand = 0, cap;
	uint32_t c, min_vc = hop_vc(as, pk, min_port, false, dst_group, false);
	struct transit_dp dp = {0, NULL, 0};
	uint16_t pend = 0;
	uint8_t why = ASIC_REASON_NONE, miss = DFLY_ROUTE_OLM_NO_CANDIDATE, min_safe, safe;
	uint8_t min_vcs = hop_vcs(as, pk, min_port, min_vc, NULL, 0, &min_safe), vcs;

	pk->vc_allow = 0;
	pk->dec.cc = as->regs->mech.cc[min_port];
	pk->dec.q_min = (int32_t)occ_vcs(as, min_port, min_vcs, &cap);
	/* a packet that found its minimal hop blocked with no valid candidate at this router, and
	 * later takes the minimal hop here, counts as "no candidate" when granted */
	uint8_t prev = pk->reason == miss ? miss : ASIC_REASON_NONE;

	pk->pend_flags = 0;
	pk->reason = ASIC_REASON_NONE;
	pk->trig = ASIC_REASON_NONE;
	if (pk->flags & ASIC_PKT_MANDATORY_GLOBAL) {
		/* any of this router's global links that can take the packet now, uniform;
		 * else wait on the minimal one if it is global, else on a fixed one */
		uint32_t ok[DFLY_MAX_H], n = 0, vcg = role_vc(as, pk, DFLY_ROLE_G1);

		for (uint32_t q = 0; q < t->h; q++)
			if (feasible_vcs(as, t->first_global + q,
					 hop_vcs(as, pk, t->first_global + q, vcg, NULL, 0, &safe),
					 pk->len) &&
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
		vcs = hop_vcs(as, pk, c, vcg, NULL, 0, &safe);
		set_hop(as, pk, c, vcs, safe);
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
			cand = draw_one(as, cand & ~(1ull << min_port), globals);
			dp.role_vc = role_vc(as, pk, DFLY_ROLE_G1);
			pend = ASIC_PKT_NONMIN;
			why = ASIC_REASON_NONE; /* counted by the grant as INJ_GLOBAL_MISROUTE */
			if (M == DFLY_MODE_ECTN) {
				pk->dec.combined = as->regs->mech.ectn_combined[dst_group];
				c = ectn_pick(as, pk, dst_group, cand, &dp);
				if (c != UINT32_MAX) {
					vcs = dp_vcs(as, pk, &dp, c, &safe);
					set_hop(as, pk, c, vcs, safe);
					pk->pend_flags = pend;
					pk->trig = DFLY_ROUTE_CC_TRIG_ECTN;
					return;
				}
			}
		} else if (pk->ghops == 0 && !(pk->flags & ASIC_PKT_NONMIN) &&
			   min_kind == DFLY_PORT_GLOBAL) {
			/* in transit in the source group: NRG, a local hop to another router whose
			 * global link is then mandatory */
			cand = draw_one(as, locals & ~(1ull << in_port), locals);
			dp.role_vc = role_vc(as, pk, DFLY_ROLE_S2);
			dp.then = nrg_then;
			dp.nthen = sizeof(nrg_then);
			pend = ASIC_PKT_NONMIN | ASIC_PKT_MANDATORY_GLOBAL;
			why = DFLY_ROUTE_OLM_LOCAL_SRC;
		} else if (pk->ghops > 0 && min_kind == DFLY_PORT_LOCAL &&
			   !(pk->flags & ASIC_PKT_LMIS_DONE)) {
			/* +L: one local misroute in the intermediate or destination group */
			bool dstg = as->group == dst_group;

			cand = draw_one(as, locals & ~(1ull << min_port), locals);
			dp.role_vc = hop_vc(as, pk, min_port, false, dst_group, true);
			pend = ASIC_PKT_NONMIN | ASIC_PKT_LMIS_DONE;
			why = dstg ? DFLY_ROUTE_OLM_LOCAL_DST : DFLY_ROUTE_OLM_LOCAL_INTER;
		}
		cand &= ~as->down_mask;
		if (as->fail_any)
			cand = asic_fail_filter_globals(as, cand, dst_group);
		if (cand) {
			bool fired = false;

			c = intransit_pick(as, pk, cand, &dp, min_port, min_vcs, &fired, M);
			if (c != UINT32_MAX) {
				vcs = dp_vcs(as, pk, &dp, c, &safe);
				set_hop(as, pk, c, vcs, safe);
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
	set_hop(as, pk, min_port, min_vcs, min_safe);
}

/* The route stage of in-transit mode @p M for the head @p pk at input @p in_port. */
static ASIC_ALWAYS_INLINE void route_transit(struct asic *as, struct asic_pkt *pk, uint32_t in_port,
					     const uint32_t M)
{
	const struct dfly_topo *t = as->topo;
	uint32_t dst_group = pk->dst_node / t->p / t->a;

	pk->trig = ASIC_REASON_NONE;
	dec_reset(&pk->dec);
	route_olm(as, pk, in_port, dst_group, M);
}

#define ROUTE_TRANSIT(M)                                                                           \
	void asic_route_##M(struct asic *as, struct asic_pkt *pk, uint32_t in_port)                \
	{                                                                                          \
		route_transit(as, pk, in_port, DFLY_MODE_##M);                                     \
	}
ROUTE_TRANSIT(OLM)
ROUTE_TRANSIT(BASE)
ROUTE_TRANSIT(FILTERED)
ROUTE_TRANSIT(HYBRID)
ROUTE_TRANSIT(ECTN)
