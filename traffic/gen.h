/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Synthetic traffic (spec §7): per-node Bernoulli sources and the spatial patterns UN, ADV+N,
 * ADVc and PERM. One module serves the virtual-time fabric of `dfly sim` and the generator
 * ports of dfly-switch (DESIGN.md §5), so a generator node draws the same destinations in both.
 *
 * Each node has its own PRNG stream, seeded (seed, node): whether a node generates in a cycle
 * and where its packet goes depend only on the seed, the node and how many draws it made, never
 * on which process or lcore runs it.
 */
#ifndef DFLY_GEN_H
#define DFLY_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include "dfly/rng.h"
#include "dfly/topo.h"
#include "netcfg.h"

/** One node's source state. */
struct dfly_gen_node {
	struct dfly_rng rng;
	uint32_t perm_dst; /**< PERM: the node's fixed destination */
};

/** The generators of every node of a network (only the nodes a driver runs are drawn from). */
struct dfly_gen {
	const struct dfly_topo *topo;
	enum dfly_pattern pattern;
	int adv_offset;
	uint64_t seed;
	uint64_t p_gen; /**< per-cycle generation probability · 2^64 */
	bool on;        /**< load > 0 */
	struct dfly_gen_node *node;
};

/**
 * Set up the sources of every node of @p topo for @p pattern (PERM draws its derangement here)
 * at @p load phits/(node·cycle) with packets of @p pkt_phits. @return 0, -EINVAL or -ENOMEM.
 */
int dfly_gen_init(struct dfly_gen *g, const struct dfly_topo *topo, enum dfly_pattern pattern,
		  int adv_offset, double load, uint32_t pkt_phits, uint64_t seed);
void dfly_gen_fini(struct dfly_gen *g);

/** Change the load (phits/(node·cycle)); 0 stops generation. */
void dfly_gen_set_load(struct dfly_gen *g, double load, uint32_t pkt_phits);

/** Change the pattern. @return 0 or -EINVAL (unknown pattern, ADV offset ≡ 0 mod g). */
int dfly_gen_set_pattern(struct dfly_gen *g, enum dfly_pattern pattern, int adv_offset);

/** Does node @p n generate a packet this cycle? (One Bernoulli draw when the load is > 0.) */
static inline bool dfly_gen_fire(struct dfly_gen *g, uint32_t n)
{
	return g->on && dfly_rng_chance(&g->node[n].rng, g->p_gen);
}

/** Destination of the next packet of node @p n under the current pattern. */
uint32_t dfly_gen_pick_dst(struct dfly_gen *g, uint32_t n);

#endif /* DFLY_GEN_H */
