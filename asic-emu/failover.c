/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Failover of the switch ASIC model (routing.failover): the router's view of the group's down
 * global links, the ports that went down and died, and the candidate ports both route families
 * draw from when a link of a path is down.
 */
#include "asic_priv.h"

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

/* Is the global link a minimal path from this router towards group @p G uses down? */
bool asic_leg_down(const struct asic *as, uint32_t G, uint32_t dst_node)
{
	const struct dfly_topo *t = as->topo;
	uint32_t rho, q;

	dfly_topo_link_to_group(t, as->group, G, dfly_topo_trunk_select(t, as->router, G, dst_node),
				&rho, &q);
	return gport_down(as, rho, q);
}

/* Are the global link(s) between groups @p a and @p b down, as the network told us? */
bool asic_pair_down(const struct asic *as, uint32_t a, uint32_t b)
{
	const struct dfly_tbl_fail *f = as->tbl_fail;
	uint32_t lo = a < b ? a : b, hi = a < b ? b : a;

	for (uint32_t i = 0; i < f->npairs && i < DFLY_FAIL_MAX_PAIRS; i++)
		if (f->pair[i][0] == lo && f->pair[i][1] == hi)
			return true;
	return false;
}

/* Of the global ports in @p cand, those whose far group can still reach @p dst_group. */
uint64_t asic_fail_filter_globals(const struct asic *as, uint64_t cand, uint32_t dst_group)
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
uint64_t asic_fail_own_cands(const struct asic *as, uint32_t dst_group)
{
	const struct dfly_topo *t = as->topo;
	uint64_t c = 0;

	for (uint32_t q = 0; q < t->h; q++) {
		uint32_t G = dfly_topo_global_peer(t, as->router, q).router / t->a;

		if (G != dst_group && !gport_down(as, as->router % t->a, q) &&
		    !asic_pair_down(as, G, dst_group))
			c |= 1ull << (t->first_global + q);
	}
	return c;
}

/* Uniform among the candidates that can take the packet now, else among all of them. */
uint32_t asic_fail_pick(struct asic *as, const struct asic_pkt *pk, uint64_t cand, uint32_t vc)
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

/* Ports whose link is down, since when, and which are dead (knobs.link_dead). */
void asic_track_down(struct asic *as, uint64_t down, uint64_t now)
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
void asic_fail_view(struct asic *as)
{
	const struct dfly_topo *t = as->topo;
	uint32_t rho = as->router % t->a;

	as->fail_any = false;
	if (!as->fail_knob)
		return;
	for (uint32_t r = 0; r < t->a; r++) {
		as->gdown[r] =
		    r == rho ? (uint16_t)((as->down_mask >> t->first_global) & ((1u << t->h) - 1))
			     : as->tbl_fail->down[r];
		as->fail_any |= as->gdown[r] != 0;
	}
	as->fail_any |= as->tbl_fail->npairs != 0;
}
