/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Synthetic traffic (spec §7): per-node Bernoulli sources and the spatial patterns UN, ADV+N,
 * ADVc, PERM, C1, C2 and the concurrent mix; Bursty-UN's ON/OFF sources (§7.3). One module
 * serves the virtual-time fabric of `dfly sim` and the generator ports of dfly-switch
 * (DESIGN.md §5), so a generator node draws the same destinations in both.
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
	uint32_t perm_dst;  /**< PERM: the node's fixed destination */
	uint32_t burst_dst; /**< BURSTY: the current burst's destination (valid while ON) */
	uint32_t pkt_dst;   /**< BURSTY: destination of the packet the last fire() generated */
	bool burst_on;      /**< BURSTY: the source is ON */
	uint32_t a2a_task;  /**< A2A: the task this node runs (traffic.placement) */
	uint32_t a2a_round; /**< A2A: round j of its next packet, 1 .. N-1; N: done */
};

/** Default of traffic.burst_length: B = 5 packets (spec §7.3, thesis §5.3). */
#define DFLY_GEN_BURST_LEN 5.0
/** Default of traffic.mix_un: half the packets UN (spec §7.2 gives no default). */
#define DFLY_GEN_MIX_UN 0.5

/** The generators of every node of a network (only the nodes a driver runs are drawn from). */
struct dfly_gen {
	const struct dfly_topo *topo;
	enum dfly_pattern pattern;
	int adv_offset;
	uint64_t seed;
	uint64_t p_gen;   /**< per-cycle generation probability · 2^64 */
	bool on;          /**< load > 0 */
	double p_on;      /**< load / packet phits: P_ON of Bursty-UN (eq. 1.4) */
	double burst_len; /**< BURSTY: B, mean packets per burst (traffic.burst_length) */
	uint64_t p_leave; /**< BURSTY: p_on→off = 1/B, · 2^64 (eq. 1.6) */
	uint64_t p_enter; /**< BURSTY: p_off→on = P_ON/(B + P_ON·(1 − B)), · 2^64 (eq. 1.7) */
	uint64_t p_mix_un;  /**< MIX: probability of a UN packet · 2^64 (traffic.mix_un) */
	uint32_t *a2a_node; /**< A2A: [task] the node running it */
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

/**
 * Change the pattern; @p adv_offset is ADV+N's N, and the adversarial offset of MIX (1: ADV+1).
 * BURSTY starts every source OFF. @return 0 or -EINVAL (unknown pattern, ADV or MIX offset ≡ 0
 * mod g).
 */
int dfly_gen_set_pattern(struct dfly_gen *g, enum dfly_pattern pattern, int adv_offset);

/**
 * Set Bursty-UN's mean burst length @p burst_len (B ≥ 1 packets) and the concurrent mix's UN
 * share @p mix_un (in [0, 1]); dfly_gen_init() starts with DFLY_GEN_BURST_LEN and
 * DFLY_GEN_MIX_UN. @return 0 or -EINVAL (out of range).
 */
int dfly_gen_set_shape(struct dfly_gen *g, double burst_len, double mix_un);

/**
 * All-to-all's task placement (spec 7.6): task i on node i, or with @p random a uniform
 * permutation drawn from the seed (its own stream). Starts every node at round 1. @return 0,
 * -EINVAL (pattern not all-to-all) or -ENOMEM.
 */
int dfly_gen_set_placement(struct dfly_gen *g, bool random);

/** All-to-all: has every node sent its N - 1 packets? */
bool dfly_gen_done(const struct dfly_gen *g);

/** Bursty-UN's step of node @p n's ON/OFF chain (dfly_gen_fire()). */
bool dfly_gen_fire_bursty(struct dfly_gen *g, uint32_t n);

/**
 * Does node @p n generate a packet this cycle? One Bernoulli draw when the load is > 0; under
 * BURSTY, one step of the node's ON/OFF chain; under A2A, whether it has packets left (the load
 * does not apply: the edge offers its next packet once the last one is injected).
 */
static inline bool dfly_gen_fire(struct dfly_gen *g, uint32_t n)
{
	if (g->pattern == DFLY_PAT_A2A) /* a workload: every packet, as fast as injected */
		return g->node[n].a2a_round < g->topo->nodes;
	if (!g->on)
		return false;
	if (g->pattern == DFLY_PAT_BURSTY)
		return dfly_gen_fire_bursty(g, n);
	return dfly_rng_chance(&g->node[n].rng, g->p_gen);
}

/**
 * Destination of the next packet of node @p n under the current pattern (BURSTY: the packet
 * the last dfly_gen_fire() of @p n generated; it draws nothing).
 */
uint32_t dfly_gen_pick_dst(struct dfly_gen *g, uint32_t n);

#endif /* DFLY_GEN_H */
