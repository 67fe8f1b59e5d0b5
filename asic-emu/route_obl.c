/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Route stage of the switch ASIC model, oblivious family (MIN, VAL): the path fixed at the
 * source (VAL: a Valiant router drawn once), FlexVC, the VCs a hop may use beyond its role's
 * (spec §2.4), and the per-round choice among them at the allocator. One instance per mode, its
 * mode a compile-time constant (asic_priv.h, ASIC_FOREACH_MODE).
 */
#include "asic_priv.h"

/*
 * FlexVC (spec §2.4, thesis §5.2): a hop may use any VC of its link type placed at or before
 * its own place on the safe path in the reference sequence. The sequence is the mode's role
 * order of spec §2.2 without its opportunistic roles (dfly_mode_opp_roles(); MIN: S1 G1 D2;
 * VAL: S1 G1 I1 I2 G2 D2, equal neighbours merged; in transit: S1 G1 I2 G2 D2), the VCs the
 * role map leaves unused first ("extra VCs ... at the start"). The hop's place: the remaining
 * hop kinds, this one included, matched from the end of the sequence, each at the latest
 * position of its kind. From any allowed VC the rest of the path still climbs the sequence, so
 * a deadlock-free escape exists (thesis Theorem 1).
 */
#define FLEX_SEQ_MAX (4 * DFLY_MAX_VCS)

/* Append one class's sequence to @p kind / @p vc from position @p n: the VCs [lo, hi) of each
 * link kind (index DFLY_PORT_LOCAL, DFLY_PORT_GLOBAL), the role map @p map shifted by lo, the
 * roles of mode @p M's escape sequence in path order (the roles of its reference path, from
 * the registry, but its opportunistic ones). @return the new length. */
static ASIC_ALWAYS_INLINE unsigned flex_seq_class(uint8_t *kind, uint8_t *vc, unsigned n,
						  const uint32_t lo[3], const uint32_t hi[3],
						  const uint8_t map[DFLY_ROLE_COUNT],
						  const uint32_t M)
{
	unsigned esc = dfly_mode_roles(M, false) & ~dfly_mode_opp_roles(M);
	uint8_t roles[DFLY_ROLE_COUNT];
	unsigned nroles = 0, first = n;
	uint32_t used[3] = {0, 0, 0};

	for (unsigned r = 0; r < DFLY_ROLE_COUNT; r++) /* enum dfly_role is in path order */
		if ((esc >> r) & 1u)
			roles[nroles++] = (uint8_t)r;

	for (unsigned r = 0; r < nroles; r++) {
		uint8_t kd = roles[r] == DFLY_ROLE_G1 || roles[r] == DFLY_ROLE_G2 ? DFLY_PORT_GLOBAL
										  : DFLY_PORT_LOCAL;

		used[kd] |= 1u << (map[roles[r]] + lo[kd]);
	}
	for (uint8_t kd = DFLY_PORT_LOCAL; kd <= DFLY_PORT_GLOBAL; kd++) {
		for (uint32_t v = lo[kd]; v < hi[kd] && n < FLEX_SEQ_MAX; v++) {
			if (used[kd] & (1u << v))
				continue;
			kind[n] = kd;
			vc[n++] = (uint8_t)v;
		}
	}
	for (unsigned r = 0; r < nroles && n < FLEX_SEQ_MAX; r++) {
		uint8_t kd = roles[r] == DFLY_ROLE_G1 || roles[r] == DFLY_ROLE_G2 ? DFLY_PORT_GLOBAL
										  : DFLY_PORT_LOCAL;
		uint8_t v = (uint8_t)(map[roles[r]] + lo[kd]);

		if (n > first && kind[n - 1] == kd && vc[n - 1] == v)
			continue;
		kind[n] = kd;
		vc[n++] = v;
	}
	return n;
}

/* The reference sequence of the packet's class: a request's (or the only class's) over its VCs;
 * a reply's is the request sequence followed by the reply class's own (thesis §5.2.2, Theorem
 * 2: "replies may use reply VCs and also request VCs"). A reply class with fewer VCs than the
 * mode's sequence needs is sized for minimal paths ("the reply set only needs to be sized for
 * safe MIN paths", spec §2.4: the thesis's 4/2 + 2/1): its own part is the minimal sequence. */
static ASIC_ALWAYS_INLINE unsigned flex_seq(const struct asic *as, const struct asic_pkt *pk,
					    uint8_t kind[FLEX_SEQ_MAX], uint8_t vc[FLEX_SEQ_MAX],
					    unsigned *own, const uint32_t M)
{
	const uint8_t *map = as->regs->knobs.vc_map;
	const uint32_t *rep = as->regs->knobs.reply_vc;
	const uint32_t zero[3] = {0, 0, 0};
	uint32_t all[3] = {0, as->par.vcs[DFLY_PORT_LOCAL], as->par.vcs[DFLY_PORT_GLOBAL]};
	uint8_t min_map[DFLY_ROLE_COUNT];
	bool reduced = false;
	unsigned n;

	*own = 0;
	if (rep[DFLY_PORT_LOCAL] == 0)
		return flex_seq_class(kind, vc, 0, zero, all, map, M);
	n = flex_seq_class(kind, vc, 0, zero, rep, map, M);
	if (!(pk->flags & ASIC_PKT_REPLY))
		return n;
	*own = n;
	for (int r = 0; r < DFLY_ROLE_COUNT; r++) {
		uint8_t kd =
		    r == DFLY_ROLE_G1 || r == DFLY_ROLE_G2 ? DFLY_PORT_GLOBAL : DFLY_PORT_LOCAL;

		if (map[r] >= all[kd] - rep[kd])
			reduced = true;
	}
	if (!reduced)
		return flex_seq_class(kind, vc, n, rep, all, map, M);
	dfly_mode_vc_needs(DFLY_MODE_MIN, false, NULL, NULL, min_map);
	return flex_seq_class(kind, vc, n, rep, all, min_map, DFLY_MODE_MIN);
}

/*
 * vcs.flexvc_sets = "group" (FOGSim v5, switch/vcManagement/flexVc.cc and nextChannel()): the
 * VCs a local hop may use depend on the group the packet is in. The reference sequence's first
 * segment, the extra VCs and the places before its first global VC, is the source group's
 * (FOGSim's localVcSource); a local hop in the source group keeps to it, within the packet's
 * own class (a reply: the request VCs and its own first segment). @return the last position
 * such a hop may take, or -1: no limit (another group, or "path"). On the spec's reference
 * sequences this changes the minimal hop in the source group, whose "path" place is the
 * intermediate group's (the latest local place before the last global hop), and, with extra
 * global VCs, the Valiant hop there. The hops after it are not limited, so from every place
 * it may take the rest of its path still climbs the sequence (Theorem 1). FOGSim also keeps an
 * intermediate group's hops to the first two segments (localVcInter); dfly does not: on VAL's
 * sequence with extra global VCs (8/4) that leaves the two local hops of the intermediate
 * group no climbing escape, and the watchdog found the deadlock (VAL, ADV+1 at 0.9 on h2).
 */
static ASIC_ALWAYS_INLINE int flex_group_end(const struct asic *as, const struct asic_pkt *pk,
					     const uint8_t *kind, unsigned m, unsigned own)
{
	const struct dfly_topo *t = as->topo;

	if (as->regs->knobs.flexvc_sets != DFLY_FLEXVC_SETS_GROUP ||
	    as->group != pk->src_node / t->p / t->a || as->group == pk->dst_node / t->p / t->a)
		return -1;
	for (unsigned q = own; q < m; q++)
		if (kind[q] == DFLY_PORT_GLOBAL)
			return (int)q - 1;
	return -1;
}

/* The VCs (bit mask) a hop may use whose path from here, this hop included, has the link kinds
 * @p path[0..n) (the hop's own first), on mode @p M's sequence; *safe = the VC of the hop's own
 * place, or with vcs.flexvc_sets = "group" of the last place of its kind within its group's
 * segments (flex_group_end()). 0 when the path does not fit the sequence (the caller keeps the
 * role VC). */
static ASIC_ALWAYS_INLINE uint8_t flex_place(const struct asic *as, const struct asic_pkt *pk,
					     const uint8_t *path, unsigned n, uint8_t *safe,
					     bool group, const uint32_t M)
{
	uint8_t kind[FLEX_SEQ_MAX], vc[FLEX_SEQ_MAX], allow = 0;
	unsigned own, m = flex_seq(as, pk, kind, vc, &own, M);
	int ptr = (int)m - 1, pos = -1;

	if (n == 0)
		return 0;
	for (int j = (int)n - 1; j >= 0; j--) {
		while (ptr >= 0 && kind[ptr] != path[j])
			ptr--;
		if (ptr < 0)
			return 0;
		pos = ptr--;
	}
	if (group && path[0] == DFLY_PORT_LOCAL) {
		/* every place before pos still has the rest of the path after it: an escape */
		int end = flex_group_end(as, pk, kind, m, own);

		for (int q = end < pos ? end : -1; q >= 0; q--) {
			if (kind[q] == path[0]) {
				pos = q;
				break;
			}
		}
	}
	for (int q = 0; q <= pos; q++)
		if (kind[q] == path[0])
			allow |= (uint8_t)(1u << vc[q]);
	*safe = vc[pos];
	return allow;
}

/* The VCs the hop out of this router may use (bit mask), for a packet going to @p target and,
 * when @p towards_root, from there to @p dst_router; *safe = the VC of its own place. 0 when
 * the remaining path does not fit the sequence (the caller keeps the role VC). */
static ASIC_ALWAYS_INLINE uint8_t flex_allow(const struct asic *as, const struct asic_pkt *pk,
					     uint32_t target, uint32_t dst_router,
					     bool towards_root, uint8_t *safe, const uint32_t M)
{
	struct dfly_hop hops[6];
	uint8_t path[6];
	unsigned n;

	n = dfly_topo_min_path(as->topo, as->router, target, pk->dst_node, hops);
	if (towards_root)
		n += dfly_topo_min_path(as->topo, target, dst_router, pk->dst_node, hops + n);
	for (unsigned j = 0; j < n; j++)
		path[j] = (uint8_t)hops[j].kind;
	return flex_place(as, pk, path, n, safe, true, M);
}

/* Choose the VC of a FlexVC hop for this allocation round among the allowed ones with credits
 * for the whole packet; none has: the safe VC (the packet waits there, stalls count there). */
void asic_flex_pick(struct asic *as, struct asic_pkt *pk)
{
	const struct asic_out *out = &as->out[pk->out_port];
	uint32_t m = pk->vc_allow, ok[DFLY_MAX_VCS], n = 0, best = pk->vc_safe;
	int32_t most = -1;

	while (m) {
		uint32_t v = (uint32_t)__builtin_ctz(m);

		m &= m - 1;
		if (credits_avail(out, v) < (int32_t)pk->len)
			continue;
		ok[n++] = v;
		if (credits_avail(out, v) >= most) { /* JSQ: ties go to the higher index */
			most = credits_avail(out, v);
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

/* FlexVC on the hop the route stage chose (not towards a node): the VCs it may take and the safe
 * one, on mode @p M's reference sequence. */
static ASIC_ALWAYS_INLINE void flex_route(struct asic *as, struct asic_pkt *pk, uint32_t target,
					  uint32_t dst_router, bool towards_root, const uint32_t M)
{
	if (as->regs->knobs.flexvc != DFLY_FLEXVC_OFF &&
	    dfly_topo_port_kind(as->topo, pk->out_port) != DFLY_PORT_TERMINAL) {
		uint8_t safe = pk->out_vc;

		pk->vc_allow = flex_allow(as, pk, target, dst_router, towards_root, &safe, M);
		pk->out_vc = pk->vc_safe = safe;
	}
}

/* The source-adaptive modes' FlexVC (route_src.c): the Valiant sequence, on which every path
 * they take, minimal or Valiant, has its places (spec §2.4). */
void asic_flex_route_src(struct asic *as, struct asic_pkt *pk, uint32_t target, uint32_t dst_router,
			 bool towards_root)
{
	flex_route(as, pk, target, dst_router, towards_root, DFLY_MODE_VAL);
}

/*
 * The in-transit modes' FlexVC (route_transit.c; thesis §5.2.1, §5.2.3, §5.3.4): the VCs a hop
 * out of @p port may use, and its safe VC, when the packet goes on from the router at the far
 * end of @p port by the link kinds @p then[0..nthen), or, @p then NULL, by the minimal path
 * from there. The place is computed the same way for every hop, on the in-transit escape
 * sequence l0 g1 l2 g3 l4 (extra VCs first): the hop's own kind, then the rest. A minimal hop
 * (its rest minimal) is a safe hop (Definition 1): its place follows the place the packet holds
 * now. A misroute is an opportunistic hop (Definition 2): its place may be at or before the one
 * the packet holds; the escape from the buffer it enters is the rest of the path, which climbs
 * from there; the caller takes it only where some allowed VC can hold the packet at once
 * ("otherwise, packets revert to the corresponding safe path", §5.2.1). @return the mask, or 0
 * (a terminal port, or a path that does not fit: the caller keeps the role VC).
 */
uint8_t asic_flex_transit(const struct asic *as, const struct asic_pkt *pk, uint32_t port,
			  const uint8_t *then, unsigned nthen, uint8_t *safe)
{
	const struct dfly_topo *t = as->topo;
	uint32_t kind = dfly_topo_port_kind(t, port), peer, peer_port;
	struct dfly_hop hops[3];
	uint8_t path[8];
	unsigned n = 1;

	if (kind == DFLY_PORT_TERMINAL ||
	    dfly_topo_port_peer(t, as->router, port, &peer, &peer_port) != 0)
		return 0;
	path[0] = (uint8_t)kind;
	if (then != NULL) {
		for (unsigned j = 0; j < nthen && n < sizeof(path); j++)
			path[n++] = then[j];
	} else {
		unsigned m = dfly_topo_min_path(t, peer, pk->dst_node / t->p, pk->dst_node, hops);

		for (unsigned j = 0; j < m; j++)
			path[n++] = (uint8_t)hops[j].kind;
	}
	return flex_place(as, pk, path, n, safe, false, DFLY_MODE_OLM);
}

/* The route stage of oblivious mode @p M (MIN or VAL) for the head @p pk at input @p in_port. */
static ASIC_ALWAYS_INLINE void route_obl(struct asic *as, struct asic_pkt *pk, uint32_t in_port,
					 const uint32_t M)
{
	const struct dfly_topo *t = as->topo;
	uint32_t dst_router = pk->dst_node / t->p;
	uint32_t dst_group = dst_router / t->a;
	uint32_t target;
	bool towards_root;

	pk->trig = ASIC_REASON_NONE;
	dec_reset(&pk->dec);
	if (!(pk->flags & ASIC_PKT_ROUTED)) {
		/* source decision (again after a recompute) */
		pk->flags |= ASIC_PKT_ROUTED;
		pk->val_router = ASIC_NONE;
		pk->reason = ASIC_REASON_NONE;
		if (M == DFLY_MODE_VAL)
			route_take_val(as, pk, dst_group, M);
	} else if (pk->flags & ASIC_PKT_DECIDING) {
		/* a source-adaptive decision pending when the mode register changed: it goes on
		 * being re-evaluated until granted, as before the change */
		asic_src_decide(as, pk, dst_group, in_port >= t->p);
	}
	target = route_path(as, pk, in_port, dst_router, dst_group, &towards_root);
	flex_route(as, pk, target, dst_router, towards_root, M);
}

void asic_route_MIN(struct asic *as, struct asic_pkt *pk, uint32_t in_port)
{
	route_obl(as, pk, in_port, DFLY_MODE_MIN);
}

void asic_route_VAL(struct asic *as, struct asic_pkt *pk, uint32_t in_port)
{
	route_obl(as, pk, in_port, DFLY_MODE_VAL);
}
