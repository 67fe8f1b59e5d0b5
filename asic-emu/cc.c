/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Contention counters of the switch ASIC model (spec §5.2, §5.6): a packet counts on cc[its
 * minimal output towards the final destination] from the moment its header is at the head of an
 * input VC until its tail has left that input buffer; a packet that entered the group (injection
 * or global input) with a remote destination group D counts on the ECtN partial[D] over the
 * same interval. The packet behind one that is crossing the crossbar from the same VC is not at
 * the head until that one's tail has left (routing.cc.head = tail, CBAR §III-B, FOGSim's
 * caHandler::update, which counts only VCs that are not sending); with routing.cc.head = grant
 * it counts from the grant of the one ahead. Also their from-scratch check and the Filtered
 * estimate. The triggers that read them are in route_transit.c.
 */
#include <string.h>

#include "asic_priv.h"

static inline uint32_t cc_min_port(const struct asic *as, const struct asic_pkt *pk)
{
	return dfly_topo_min_port(as->topo, as->router, pk->dst_node / as->topo->p, pk->dst_node);
}

/* @p pk is now first in its input VC (pk->vc) of @p in_port: its header is at the head, unless
 * the packet ahead of it is still crossing from that VC (then, with routing.cc.head = tail, it
 * is counted when that one's tail leaves, asic_cc_release). */
void asic_cc_head(struct asic *as, uint32_t in_port, const struct asic_pkt *pk)
{
	struct asic_in *in = &as->in[in_port];
	uint32_t D;

	if (((as->cc_rel_mask >> in_port) & 1u) && in->cc_vc == pk->vc &&
	    as->regs->knobs.cc_head_at_tail) {
		in->cc_pend = 1;
		return;
	}
	D = cc_group(as, in_port, pk);
	as->regs->mech.cc[pk->min_port]++;
	if (D != CC_NO_GROUP) {
		as->regs->mech.ectn_partial[D]++;
		ectn_combined_update(as, D);
	}
}

/* Tails that have left their input buffer by @p tick release their counts; the packet each one
 * held back (routing.cc.head = tail) is at the head now. */
void asic_cc_release(struct asic *as, uint64_t tick)
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
		if (in->cc_pend) {
			in->cc_pend = 0;
			asic_cc_head(as, i, ivc_head(&in->vc[in->cc_vc]));
		}
	}
}

/*
 * The equivalent form of spec §5.2, recomputed from scratch: head packets not yet granted (but
 * not one held back behind a crossing tail, routing.cc.head = tail) plus packets whose tail has
 * not left the input, by minimal output (and ECtN group). @return 0 if it equals the
 * event-driven counters, else -1.
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

			if (ivc_count(q) == 0 ||
			    (((as->cc_rel_mask >> i) & 1u) && in->cc_pend && in->cc_vc == v))
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
void asic_cc_filter(struct asic *as)
{
	struct dfly_regs_mech_ctrs *m = &as->regs->mech;
	uint64_t a = as->regs->knobs.cc_alpha_q8;

	for (uint32_t o = 0; o < as->radix; o++)
		m->cc_est_q8[o] =
		    (uint32_t)((a * m->cc_est_q8[o] + (256 - a) * ((uint64_t)m->cc[o] << 8)) >> 8);
}
