/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The edge of the network (traffic/), one implementation for both clocks (DESIGN.md §1, §5):
 * the nodes' sources generate packets (gen.h), inject them into their router's injection
 * queues (generate-or-skip, or an unbounded source queue, spec §3.8), and the sinks take what
 * the routers deliver and account it (counts, latency sums and histogram, misrouting and hops,
 * the delivery tap). The virtual-time fabric (sim/fabric.c) and dfly-switch
 * (dataplane/switch.c) both drive their ASICs' node ports through this module only, so a node
 * behaves the same whichever clock runs it.
 *
 * A struct dfly_edge is what the nodes of a network share: the generators, the source queues,
 * the measurement window, the tap. A struct dfly_edge_lane is what one thread (a dfly sim lane,
 * a dfly-switch lcore) writes: its counts, its latency histogram, its packet ids, where its
 * packets come from (struct dfly_edge_pool_ops). Lanes count apart and are folded
 * (dfly_edge_stats_add): no lane shares a cache line with another's counts. A router's nodes
 * are served by one lane at a time.
 */
#ifndef DFLY_TRAFFIC_EDGE_H
#define DFLY_TRAFFIC_EDGE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "asic.h"
#include "dfly/regs.h"
#include "dfly/topo.h"
#include "gen.h"

/** One delivered packet, as the delivery tap sees it. */
struct dfly_delivery {
	uint32_t src_node, dst_node;
	uint64_t gen_cycle;  /**< generation cycle */
	uint64_t inj_cycle;  /**< cycle it left the injection queue */
	uint64_t tail_cycle; /**< cycle its tail reached the destination node */
	uint16_t len;        /**< phits */
	uint8_t lhops, ghops;
	bool nonmin;           /**< a nonminimal decision was committed (VAL, UGAL, PB, PAR, OLM) */
	bool global_misrouted; /**< took more global hops than its minimal path (spec §8.4) */
	bool host;             /**< a host's frame (dfly-switch, or replayed: dfly verify) */
};

/** The delivery record of ejection @p ej (a delivery, not a drop) in @p topo. */
void dfly_delivery_of(const struct dfly_topo *topo, const struct asic_ejection *ej,
		      struct dfly_delivery *d);

/**
 * The delivery record's line of @p d (dfly-switch --snapshots, dfly verify): "delivery TAIL
 * SRC DST GEN INJ LEN LHOPS GHOPS NONMIN gen|host" and a newline, into @p buf (@p len bytes).
 * @return as snprintf.
 */
int dfly_delivery_format(const struct dfly_delivery *d, char *buf, size_t len);

/** Called for every delivered packet (whole run, not only the measurement window). */
typedef void dfly_delivery_fn(void *ctx, const struct dfly_delivery *d);

/** Latency histogram buckets, cycles (the last one is "this many or more"). */
#define DFLY_EDGE_LAT_BUCKETS (1u << 18)

/**
 * What a lane's sources and sinks count: totals over the whole run, then the measurement window
 * (m_*: generation attempts made, and packets delivered, while the window is open).
 */
struct dfly_edge_stats {
	uint64_t gen_total;   /**< packets accepted by an injection queue */
	uint64_t dlv_total;   /**< generated packets delivered */
	uint64_t drop_inj;    /**< generated packets no injection VC had room for (skipped) */
	uint64_t drop_nobuf;  /**< generation attempts with no packet buffer */
	uint64_t drop_fabric; /**< generated packets the fabric discarded (drop.link_dead) */
	uint64_t queued_src;  /**< in unbounded source queues (a lane's: a difference, may wrap) */
	uint64_t last_delivery; /**< latest cycle a packet was delivered */
	uint64_t m_attempts, m_pkts, m_phits, m_nonmin, m_hops, m_lhops, m_ghops;
	uint64_t m_rep_pkts, m_rep_phits; /**< traffic.reqrep: the replies among m_pkts, m_phits */
	double m_rep_lat_sum;             /**< traffic.reqrep: the replies' latency sum */
	double m_lat_sum, m_net_lat_sum;  /**< sums of integers below 2^53: exact in any order */
	uint64_t m_lat_max;
};

/**
 * Where a lane's packet descriptors come from and go back to: dfly sim's packet pools, or
 * dfly-switch's mbufs. Burst-shaped: at most one alloc and one free call per router and cycle
 * on the generating side, one free per ejection burst on the sinking side.
 */
struct dfly_edge_pool_ops {
	/** Fill @p pkts with up to @p n descriptors for new packets (the edge sets every field).
	 *  Required. @return how many (fewer than @p n: out of buffers). */
	unsigned (*alloc_burst)(void *pool, struct asic_pkt **pkts, unsigned n);
	/** Take back @p n packets (skipped at the source, delivered or discarded). Required. */
	void (*free_burst)(void *pool, struct asic_pkt **pkts, unsigned n);
};

/** A node's unbounded source queue (traffic.source = "unbounded"), and its replies waiting
 *  for injection (traffic.reqrep: a node never refuses a request, spec 7.5). */
struct dfly_edge_node {
	struct asic_pkt *q_head, *q_tail;
	uint64_t q_len;
	struct asic_pkt *r_head, *r_tail;
};

/** The nodes of a network, shared by every lane. */
struct dfly_edge {
	const struct dfly_topo *topo;
	struct dfly_gen *gen; /**< the nodes' sources (the caller's) */
	const bool *gen_node; /**< [node]: runs a generator; NULL: every node does */
	uint32_t pkt_phits;   /**< size of a generated packet */
	bool unbounded;       /**< unbounded source queues, else generate-or-skip */
	/** request-reply (traffic.reqrep, spec 7.5): a delivered request becomes, in the same
	 *  descriptor, a reply of its size from its destination to its source, generated at the
	 *  tail's arrival, queued at that node and injected before its new requests (it counts
	 *  in queued_src while it waits); the caller generates requests at half the load */
	bool reqrep;
	/** a workload (all-to-all, spec 7.6): a node draws its next packet only once its last
	 *  one left the source queue (set with unbounded: the one not injected waits there) */
	bool closed_loop;
	struct dfly_edge_node *node; /**< [node] */
	/** the measurement window is open (dfly sim: from sim.warmup for sim.measure cycles;
	 *  dfly-switch: always, packets counted by measure_from) */
	bool measuring;
	/** packets generated before this cycle are not measured (dfly-switch: sim.warmup after
	 *  every device port came up, UINT64_MAX until then; dfly sim: 0) */
	_Atomic uint64_t measure_from;
	dfly_delivery_fn *tap; /**< every delivery, or NULL */
	void *tap_ctx;
};

/** What one thread of the edge writes. Aligned: lanes of different threads never share a
 *  cache line. */
struct dfly_edge_lane {
	_Alignas(64) struct dfly_edge_stats *st; /**< where it counts: own, or totals it owns */
	struct dfly_edge_stats own;
	uint32_t *lat_hist; /**< [DFLY_EDGE_LAT_BUCKETS], the window's latencies */
	uint32_t next_id;   /**< id of its next packet (what a capture samples and tags by) */
	struct dfly_edge *edge;
	const struct dfly_edge_pool_ops *ops;
	void *pool;
	/** the edge's capture point: a generated packet skipped for want of injection room is
	 *  a DFLY_TRACE_DROP event (drop.inj_full) at its terminal port, when @p trace_points
	 *  has that point; NULL: none */
	asic_trace_fn *trace;
	void *trace_ctx;
	uint32_t trace_points;
};

/**
 * Set up the nodes of @p topo: sources @p gen (the caller's, it outlives the edge), packets of
 * @p pkt_phits, unbounded source queues if @p unbounded, generators at the nodes @p gen_node
 * marks (NULL: every node). The window is closed, measure_from 0. @return 0 or -ENOMEM.
 */
int dfly_edge_init(struct dfly_edge *e, const struct dfly_topo *topo, struct dfly_gen *gen,
		   uint32_t pkt_phits, bool unbounded, const bool *gen_node);
/** Free what dfly_edge_init() allocated (packets still queued belong to their pools). */
void dfly_edge_fini(struct dfly_edge *e);

/**
 * Set up a lane of @p e counting into its own stats, its packets from @p ops on @p pool, its
 * ids from @p first_id. @return 0 or -ENOMEM.
 */
int dfly_edge_lane_init(struct dfly_edge_lane *ln, struct dfly_edge *e,
			const struct dfly_edge_pool_ops *ops, void *pool, uint32_t first_id);
/** Free the lane's histogram. Accepts a lane never initialised (zeroed). */
void dfly_edge_lane_fini(struct dfly_edge_lane *ln);

/**
 * The nodes of router @p as at cycle @p now: each unbounded source first retries what it
 * queued, then each generator node draws whether it generates (gen.h) and where to, and offers
 * its packet; a packet no injection VC has room for is queued (unbounded) or skipped and counted
 * (drop.inj_full in @p regs, the router's register file). Node by node, in node order: the
 * draws come from per-node streams, so neither the order of the routers nor the lane matters.
 * @return packets injected.
 */
unsigned dfly_edge_generate(struct dfly_edge_lane *ln, struct asic *as, struct dfly_regs *regs,
			    uint64_t now);

/**
 * A host's frame entering at node @p node (terminal port @p port of router @p as) at cycle
 * @p now, to node @p dst, @p len phits: its descriptor @p pk set up as a host frame (not a
 * generator's: ASIC_PKT_SYNTH clear, no edge statistics) and offered to the injection queue;
 * refused when no injection VC has room, counted as drop.inj_full in @p regs. dfly-switch's
 * host ports and dfly sim's replay of a run's host ingress (dfly verify) both come here.
 * @return true if injected (false: @p pk is the caller's to free).
 */
bool dfly_edge_inject_host(struct asic *as, struct dfly_regs *regs, uint32_t port,
			   struct asic_pkt *pk, uint32_t node, uint32_t dst, uint32_t len,
			   uint64_t now);

/**
 * One ejection burst of router @p as at cycle @p now (at most 64): generated packets
 * (ASIC_PKT_SYNTH) are accounted (the tap, the window's statistics) and freed, or counted as
 * discarded by the fabric; any other packet (a host frame of dfly-switch, delivered or dropped)
 * is left in @p host, @p nhost of them, for the caller. @return ejections taken (0: none left).
 */
unsigned dfly_edge_collect_burst(struct dfly_edge_lane *ln, struct asic *as, uint64_t now,
				 struct asic_ejection *host, unsigned *nhost);

/** Host frames of a dfly_edge_collect_burst() where no host takes them (dfly sim replaying a
 *  run's host ingress, dfly_fabric_inject_host()): the tap sees each one delivered, the lane's
 *  pool takes them back. */
void dfly_edge_sink_host(struct dfly_edge_lane *ln, const struct asic_ejection *host,
			 unsigned nhost);

/** Every ejection of @p as up to @p now, for drivers without hosts (dfly sim). */
static inline void dfly_edge_collect(struct dfly_edge_lane *ln, struct asic *as, uint64_t now)
{
	struct asic_ejection host[64];
	unsigned nhost = 0;

	while (dfly_edge_collect_burst(ln, as, now, host, &nhost) > 0) {
		if (nhost > 0)
			dfly_edge_sink_host(ln, host, nhost);
		nhost = 0;
	}
}

/** Add @p from to @p to (maxima as maxima). */
void dfly_edge_stats_add(struct dfly_edge_stats *to, const struct dfly_edge_stats *from);

/**
 * Latency percentiles of the window over the histograms of @p n lanes, @p pkts packets in all:
 * the smallest latency at least half (@p p50) and 99 % (@p p99) of them do not exceed. Both 0
 * without packets.
 */
void dfly_edge_lat_percentiles(const struct dfly_edge_lane *const *lanes, uint32_t n, uint64_t pkts,
			       uint64_t *p50, uint64_t *p99);

#endif /* DFLY_TRAFFIC_EDGE_H */
