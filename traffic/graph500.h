/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Graph500's synthetic traffic model (spec §7.7; thesis §2.2, Fig. 2.11; LIA §5.3), run to
 * completion: the BFS one level at a time. In a level every process sends its point-to-point
 * messages (queries to uniformly random other processes, c_s per message at most), then an
 * end-of-level signal to every other process carrying how many packets it sent there; when a
 * process has every signal and every announced packet, an all-reduce follows (a reduce to the
 * root's process, a broadcast from it). When every process has the broadcast the model starts
 * the next level or ends (the graph traversed or the level limit reached).
 *
 * The state machine is FOGSim v5's graph500Generator (generator/graph500Generator.cc) with its
 * equations and rules: the level-total draw from the normal distribution of eq. 2.5–2.17, the
 * correction of the level total by the queries not yet explored, the sending-node proportion
 * and effective destinations of eq. 2.3–2.4, the message fill rule, the level-end test of its
 * main loop (dgflySimulator.cc). What differs, and why:
 * - the end-of-level signal carries its count (FOGSim adds it at the receiver when the signal
 *   is sent): the receiver learns it when the signal arrives, which it waits for in both;
 * - a message is `message_packets` packets (spec §7.7 PROPOSAL: ⌈4096 B / packet⌉; FOGSim: 1),
 *   each carrying its share of the queries; a share is consumed when its packet arrives;
 * - a process offers a new message, once its last packet is in and while it is not consuming
 *   (t_q per query, FOGSim's receptionPendingCycles), with the chance per cycle 1/(L/λ − L + 1),
 *   λ = min(1, L·t_c/(t_q·c_s)) (eq. 2.20, L the message's phits): the mean gap between
 *   messages is L/λ, as FOGSim's draw each cycle from L cycles after its last message.
 *
 * Processes are served by the lane of their node's router: dfly_g5_offer() and
 * dfly_g5_receive() of a process run on one thread at a time. dfly_g5_next_level() runs between
 * batches, on one thread.
 */
#ifndef DFLY_TRAFFIC_GRAPH500_H
#define DFLY_TRAFFIC_GRAPH500_H

#include <stdbool.h>
#include <stdint.h>

#include "dfly/rng.h"

/** Levels whose end a run records. */
#define DFLY_G5_LEVELS 16

/** The coefficient set of C in eq. 2.8 (spec §7.7). */
enum dfly_g5_coef {
	DFLY_G5_COEF_THESIS = 0, /**< (−0.81 + 0.8411·ln s)·exp(−(l − 2.8)²/30), thesis eq. 2.8 */
	DFLY_G5_COEF_FOGSIM, /**< (−1.105 + 1.01·ln s)·exp(−(l − 3.2)²/8), FOGSim v5 */
};

/** The model's inputs. */
struct dfly_g5_params {
	uint32_t scale;       /**< s: 2^s vertices */
	uint32_t edge_factor; /**< f_e */
	uint32_t coalescing;  /**< c_s, queries per message at most */
	double query_cycles;  /**< t_q/t_c: cycles to consume one query */
	uint32_t root_degree; /**< d_r; 0: drawn from the lognormal of eq. 2.18–2.19 */
	uint32_t max_levels;  /**< levels at most (LIA: 5; FOGSim's default 9) */
	uint32_t msg_packets; /**< packets per message */
	uint32_t pkt_phits;   /**< phits per packet */
	enum dfly_g5_coef coef;
};

/** What a packet carries (asic_pkt.app): its kind in the top two bits, a count below. */
#define DFLY_G5_APP_P2P      (0u << 30) /**< a message's packet; value: its queries */
#define DFLY_G5_APP_SIGNAL   (1u << 30) /**< end of level; value: packets sent to the receiver */
#define DFLY_G5_APP_REDUCE   (2u << 30) /**< all-reduce, to the root's process */
#define DFLY_G5_APP_BCAST    (3u << 30) /**< all-reduce, from the root's process */
#define DFLY_G5_APP_KIND(a)  ((a) & (3u << 30))
#define DFLY_G5_APP_VALUE(a) ((a) & ((1u << 30) - 1))

/** One process. */
struct dfly_g5_proc {
	struct dfly_rng rng;
	uint8_t state;        /**< enum in graph500.c */
	uint32_t node;        /**< the node running it */
	int64_t msgs_left;    /**< messages still to start this level */
	int64_t q_left;       /**< queries still to send this level */
	uint32_t msg_dst;     /**< process the current message goes to */
	uint32_t msg_q;       /**< queries of the current message not yet in a packet */
	uint32_t msg_pk;      /**< packets of the current message still to offer */
	uint32_t next;        /**< next process to signal (or to broadcast to) */
	uint32_t sig_rx;      /**< end-of-level signals received */
	int64_t expect;       /**< packets the signals announced, less those received */
	uint32_t ar_rx;       /**< root: reduce packets received */
	uint64_t busy_until;  /**< consuming received queries until this cycle */
	uint64_t rx_queries;  /**< queries received this level */
	uint64_t lvl_msgs;    /**< messages started this level */
	uint64_t lvl_queries; /**< queries sent this level */
	uint32_t *sent_to;    /**< [process] packets sent there this level */
};

/** The model over a network's nodes. */
struct dfly_g5 {
	struct dfly_g5_params p;
	uint32_t n;          /**< processes */
	uint32_t *node_proc; /**< [node] its process, or UINT32_MAX (idle node) */
	struct dfly_g5_proc *proc;
	uint32_t root;           /**< the root vertex's process */
	uint32_t root_degree;    /**< d_r as drawn or set */
	uint32_t level;          /**< the current level, 0 first */
	bool done;               /**< the last level ended */
	int64_t total;           /**< 2^(s+1)·f_e·(n − 1)/n: queries of the whole BFS at most */
	int64_t remain;          /**< queries not yet received */
	int64_t rem_minus_means; /**< total less the level means drawn so far (FOGSim) */
	uint64_t p_msg;          /**< per-cycle chance of a new message · 2^64 (eq. 2.20) */
	uint64_t level_msgs[DFLY_G5_LEVELS];    /**< messages per level (at its end) */
	uint64_t level_queries[DFLY_G5_LEVELS]; /**< queries sent per level (at its end) */
};

/**
 * Set up the model over @p nodes nodes: @p n processes, process i on node @p proc_node[i]
 * (n ≤ nodes; the other nodes stay idle), level 0 ready (the root's process sends, the others
 * wait for its signal). Draws (root, root degree, per-process streams) come from @p seed.
 * @return 0, -EINVAL (n < 2, a zero size, a node twice) or -ENOMEM.
 */
int dfly_g5_init(struct dfly_g5 *g, const struct dfly_g5_params *p, const uint32_t *proc_node,
		 uint32_t n, uint32_t nodes, uint64_t seed);
void dfly_g5_fini(struct dfly_g5 *g);

/** The message's packets, phits: λ's L of eq. 2.20. */
static inline uint64_t dfly_g5_msg_phits(const struct dfly_g5_params *p)
{
	return (uint64_t)p->msg_packets * p->pkt_phits;
}

/**
 * Node @p node at cycle @p now, its last packet injected: does it offer a packet? If so, its
 * destination node in @p dst and what it carries in @p app (asic_pkt.app).
 */
bool dfly_g5_offer(struct dfly_g5 *g, uint32_t node, uint64_t now, uint32_t *dst, uint32_t *app);

/** Node @p node received a packet carrying @p app at cycle @p now. */
void dfly_g5_receive(struct dfly_g5 *g, uint32_t node, uint32_t app, uint64_t now);

/** Has every process ended the current level (has the broadcast)? */
bool dfly_g5_level_over(const struct dfly_g5 *g);

/**
 * The level is over at @p now: account what it received; end the model (g->done), or start the
 * next level (every process draws its queries). @return true if a level started.
 */
bool dfly_g5_next_level(struct dfly_g5 *g, uint64_t now);

/** Mean and standard deviation of E_l, edges explored in level @p l ≥ 1, for root degree
 *  @p dr (eq. 2.5–2.17, the cap of eq. 2.5 not applied). */
void dfly_g5_moments(const struct dfly_g5_params *p, uint32_t l, double dr, double *mean,
		     double *sd);

/** Messages for @p q queries among @p n processes: n'·⌈q/(n'·c_s)⌉, n' the effective
 *  destinations ⌊max(1, n·(1 − (1 − 1/n)^q))⌋ (eq. 2.3–2.4, FOGSim's rounding). */
int64_t dfly_g5_messages(int64_t q, uint32_t n, uint32_t cs);

#endif /* DFLY_TRAFFIC_GRAPH500_H */
