/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Synthetic traffic (spec §7): per-node Bernoulli sources and the spatial patterns UN, ADV+N,
 * ADVc, PERM, C1, C2, the concurrent mix and the even mix of adversarial offsets (adv-mix);
 * Bursty-UN's ON/OFF sources (§7.3); the workloads run to completion, all-to-all (§7.6) and Halo3D
 * (§7.8). One module serves the virtual-time fabric of `dfly sim` and the generator ports of
 * dfly-switch (DESIGN.md §5), so a generator node draws the same destinations in both.
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
#include "graph500.h"
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
	uint32_t halo_iter; /**< HALO: iterations this node has sent in full */
	uint32_t halo_k;    /**< HALO: its next packet in the current iteration, 0 .. ppi - 1 */
};

/** Halo3D's message to one neighbour (spec §7.8): the offset in the grid and its packets. */
struct dfly_gen_halo_msg {
	int8_t d[3];
	uint32_t pkts;
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
	uint64_t p_mix_un;    /**< MIX: probability of a UN packet · 2^64 (traffic.mix_un) */
	uint32_t advc_groups; /**< ADVC: destination groups G+1 … G+n, n (0: h) */
	int mix_offs[DFLY_MIX_MAX_OFFSETS]; /**< ADVMIX: the offsets, each reduced into [1, g) */
	uint32_t mix_noffs;                 /**< ADVMIX: how many (dfly_gen_init(): 1, {+1}) */
	uint32_t *a2a_node; /**< A2A, HALO: [task] the node running it (the placement) */
	struct dfly_gen_node *node;
	/* HALO (spec §7.8, proposal-defined): the process grid, the messages of an iteration */
	uint32_t halo_dims[3];                 /**< P_x, P_y, P_z; their product is N */
	struct dfly_gen_halo_msg halo_msg[26]; /**< faces, edges, corners that are not the node */
	uint32_t halo_nmsg;                    /**< messages per node and iteration */
	uint32_t halo_ppi;                     /**< packets per node and iteration */
	uint32_t halo_iters;                   /**< iterations to run */
	uint32_t halo_open;                    /**< iterations released by the barrier so far */
	struct dfly_g5 *g5; /**< G500: the model (dfly_gen_set_graph500()), or NULL */
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
 * ADVc's destination groups: the @p n groups G+1 … G+n after the source group G (0: all h of
 * them, spec §7.2, as dfly_gen_init() starts; traffic.advc_groups). @return 0 or -EINVAL
 * (n > h).
 */
int dfly_gen_set_advc_groups(struct dfly_gen *g, uint32_t n);

/**
 * adv-mix's group offsets (LIA §6.1.2's mixes, e.g. {+2, +4}): a packet of node n in group G goes
 * to a uniform node of group (G + N) mod g, N drawn uniformly among the @p n offsets @p offs, per
 * packet; one draw picks both (uniform over offsets × nodes of a group), so every offset
 * gets 1/n of the packets. dfly_gen_init() starts with {+1} (adv-mix = ADV+1). @return 0 or
 * -EINVAL (n = 0, n > DFLY_MIX_MAX_OFFSETS, an offset ≡ 0 mod g, or two naming the same group).
 */
int dfly_gen_set_mix_offsets(struct dfly_gen *g, const int *offs, uint32_t n);

/**
 * All-to-all's task placement (spec 7.6): task i on node i, or with @p random a uniform
 * permutation drawn from the seed (its own stream). Starts every node at round 1. @return 0,
 * -EINVAL (pattern not all-to-all) or -ENOMEM.
 */
int dfly_gen_set_placement(struct dfly_gen *g, bool random);

/**
 * Halo3D (spec §7.8 PROPOSAL): processes on a periodic @p dims[0] × [1] × [2] grid (0, 0, 0: the
 * most cubic factorisation of the node count), each sending per iteration one message to each
 * of its 26 neighbours that is not itself, of c²·8, c·8 and 8 bytes for a face, an edge and a
 * corner of its cube of side @p cube elements, in packets of @p pkt_bytes; @p iters iterations,
 * the first released at once; placement as dfly_gen_set_placement(). @return 0, -EINVAL (not
 * halo3d, a grid whose product is not the node count, or a zero size) or -ENOMEM.
 */
int dfly_gen_set_halo(struct dfly_gen *g, const uint32_t dims[3], uint32_t cube, uint32_t pkt_bytes,
		      uint32_t iters, bool random);

/** Halo3D's grid for @p nodes processes: the factorisation a·b·c = nodes with the smallest
 *  largest factor (then the largest smallest), sorted descending into @p dims. */
void dfly_gen_halo_grid(uint32_t nodes, uint32_t dims[3]);

/** Halo3D: release the next iteration (the barrier passed). @return the iterations released. */
uint32_t dfly_gen_halo_release(struct dfly_gen *g);

/**
 * Graph500 (spec §7.7): @p p's model over the processes, placed as dfly_gen_set_placement()
 * (@p processes on the first nodes of the placement; 0: every node). @return 0, -EINVAL (not
 * graph500, a bad parameter) or -ENOMEM.
 */
int dfly_gen_set_graph500(struct dfly_gen *g, const struct dfly_g5_params *p, uint32_t processes,
			  bool random);

/** The workloads: has every node sent all its packets (all-to-all: N - 1; Halo3D: every
 *  iteration's)? */
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
	if (g->pattern == DFLY_PAT_HALO) /* the released iterations' packets, as fast */
		return g->node[n].halo_iter < g->halo_open;
	if (g->pattern == DFLY_PAT_G500) /* the edge asks the model (dfly_g5_offer()) */
		return false;
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
