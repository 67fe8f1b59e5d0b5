/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfly-switch internals (prefix dp_): the emulated routers of one process, the ports realised by
 * DPDK devices, and the lcores that step them in real time (DESIGN.md §1, §4, §5).
 *
 * Ownership: each hosted router, its ASIC, its register-file counters and every device port of
 * it belong to exactly one lcore; only that lcore touches them (no locks on the packet path).
 * The firmware (a control thread, or dfly-controld) talks to the ASIC through the register file
 * only. Packet descriptors (struct asic_pkt) live in the private area of their mbuf.
 */
#ifndef DP_H
#define DP_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_log.h>
#include <rte_mbuf.h>

#include "asic.h"
#include "deploy.h"
#include "dfly/regs.h"
#include "edge.h"
#include "fw.h"
#include "gen.h"
#include "host.h"
#include "llr.h"
#include "regs_shm.h"

#define DP_BURST    32u         /**< frames per rx/tx burst */
#define DP_STALL_NS 10000000ull /**< a gap between two polls of a port this long is a stall */
#define DP_TXQ      256u        /**< frames a port queues for its device between two flushes */
/** link and credit timing: a difference this large (cycles) is another clock, not timed */
#define DP_TIMING_MAX (1ull << 32)

/** dfly-switch's DPDK log type, "dfly.switch" (switch.c; --log-level=dfly.switch:LEVEL). */
extern int dp_logtype;

/** A log message of dfly-switch at @p level (ERR, WARNING, NOTICE, INFO, DEBUG): prefixed
 *  "dfly-switch: ", to standard error as before the log type. Never on the packet path: there,
 *  dp_port_log() (rate-limited). */
#define DP_LOG(level, ...) rte_log(RTE_LOG_##level, dp_logtype, "dfly-switch: " __VA_ARGS__)

/** Messages a port may log per second (dp_port_log()); the rest are counted and said. */
#define DP_LOG_BURST 5u

/** The rate limit of one source of log messages: a window of a second. */
struct dp_log_rl {
	uint64_t win_ns;     /**< start of the current window */
	uint32_t n;          /**< messages logged in it */
	uint32_t suppressed; /**< messages left out since the last one logged */
};

/** The private area of every mbuf of the pool: the packet descriptor first. */
struct dp_mbuf_priv {
	struct asic_pkt pkt; /**< the packet it carries (dp_mbuf_pkt()) */
	uint64_t link_due;   /**< a packet on a fabric link: the cycle it was due at the peer's
				  input (DFLY_WIRE_ACK_NONE: not timed, an INFO flit) */
};

/** The descriptor of the packet an mbuf carries. */
static inline struct asic_pkt *dp_mbuf_pkt(struct rte_mbuf *m)
{
	return &((struct dp_mbuf_priv *)rte_mbuf_to_priv(m))->pkt;
}

/** The cycle a sequenced fabric frame was due (struct dp_mbuf_priv). */
static inline uint64_t *dp_mbuf_due(struct rte_mbuf *m)
{
	return &((struct dp_mbuf_priv *)rte_mbuf_to_priv(m))->link_due;
}

/** The mbuf of a packet descriptor. */
static inline struct rte_mbuf *dp_pkt_mbuf(struct asic_pkt *pk)
{
	return (struct rte_mbuf *)((char *)pk - sizeof(struct rte_mbuf));
}

enum dp_port_kind {
	DP_PORT_FABRIC, /**< a fabric port whose link crosses a device */
	DP_PORT_HOST,   /**< a terminal port whose node is a host behind a device */
};

struct dp_router;
struct dp_cap_ring;

/** A router port realised by a device. */
struct dp_port {
	enum dp_port_kind kind;
	uint16_t eth; /**< ethdev port id */
	bool vdev;    /**< created by us with rte_vdev_init (uninit at exit) */
	char name[DP_DEV_NAME_MAX];
	struct dp_router *rt;
	uint32_t port;       /**< ASIC port */
	uint8_t mac[6];      /**< our MAC on this port */
	uint8_t peer_mac[6]; /**< fabric: the peer's MAC */
	uint32_t peer_router, peer_port;

	/* fabric */
	struct asic_link *out, *in; /**< half links: leaving and entering the ASIC */
	struct dp_llr_tx tx;
	struct dp_llr_rx rx;
	struct dp_llr_stats st;
	uint64_t rx_taken; /**< cycle the last frame accepted was taken (ACK taken), or NONE */
	uint64_t up_cycle; /**< cycle the peer's HELLO brought the link up (link timing) */
	uint16_t cr_total[DFLY_MAX_VCS]; /**< phits freed per VC, running total (we send) */
	uint16_t cr_seen[DFLY_MAX_VCS];  /**< the peer's last running total (we receive) */
	uint32_t nvc_in;                 /**< VCs of our input side (credits we return) */
	bool cr_dirty;
	uint64_t cr_due; /**< cycle the newest credit return since the last CREDIT frame was due */
	uint64_t cr_first_ns, cr_last_ns;
	uint64_t hello_next_ns;
	uint64_t last_rx_ns;      /**< last valid frame from the peer (liveness, link.dead_us) */
	bool dead;                /**< declared down by liveness: the ASIC port is held down */
	uint64_t last_poll_ns;    /**< previous dp_fabric_rx() (stalls are left out of liveness) */
	uint64_t stalls;          /**< polling gaps over DP_STALL_NS */
	uint64_t stall_max_ns;    /**< the longest of them */
	struct dfly_rng loss_rng; /**< link.loss_ppm draws */
	/* lockstep (dp_env.lockstep) */
	uint32_t lat;            /**< the link's latency, cycles */
	uint64_t ls_through1;    /**< the peer's next cycle to step, from its bare SYNC */
	bool ls_heard;           /**< a bare SYNC came: ls_through1 is known */
	uint64_t ls_due;         /**< due cycle of the next timed frame (its SYNC), or NONE */
	uint64_t ls_sent1;       /**< the next cycle our last bare SYNC announced */
	uint64_t ls_sync_ns;     /**< when we sent it */
	uint64_t ls_fault;       /**< first cycle this port was not exact, or UINT64_MAX */
	uint64_t ls_stop;        /**< --cycles N (0: none): faults from N on are not the run's */
	const char *ls_why;      /**< what happened then */
	struct dp_log_rl log_rl; /**< its link events' messages (dp_port_log()) */

	/* host */
	uint32_t node;

	/* frames waiting for the device */
	struct rte_mbuf *txq[DP_TXQ];
	uint16_t ntx;
};

/** Terminal port of a hosted router: what sits at the node. */
enum dp_term {
	DP_TERM_NONE = 0, /**< nothing: the node neither sends nor is a host */
	DP_TERM_GEN,      /**< synthetic generator and sink */
	DP_TERM_HOST,     /**< a host behind a device (struct dp_port) */
};

/** A hosted router. */
struct dp_router {
	uint32_t id;
	struct asic *as;
	struct dfly_regs *regs;
	struct dfly_regs_shm shm; /**< when the register file is in shared memory */
	struct fw *fw;            /**< DP_FW_THREAD: the firmware instance */
	uint64_t fw_next, fw_skipped;
	struct dp_lcore *lc;
	uint32_t ngen;                       /**< generator nodes */
	uint8_t term[DFLY_MAX_PORTS];        /**< enum dp_term per terminal port */
	struct dp_port *dev[DFLY_MAX_PORTS]; /**< device of each port, or NULL */
};

/** One lcore's share; written by that lcore every slice, so on cache lines of its own. */
struct dp_lcore {
	unsigned lcore;
	struct dp_router **rt;
	uint32_t nrt;
	struct dp_port **ports;
	uint32_t nports;
	uint32_t ngen;        /**< generator nodes of my routers */
	uint64_t cur;         /**< next cycle to step */
	uint64_t behind_max;  /**< largest lag seen (cycles the clock was ahead after a slice) */
	uint64_t slices_full; /**< slices that hit max_steps with the clock still ahead */
	uint64_t sleeps;      /**< idle sleeps (run.idle = "sleep") */
	uint64_t sleep_late_max_ns; /**< the latest wake-up after an idle sleep, past its time */
	/** its generator nodes' sources and sinks (traffic/edge.h): the measurement window
	 *  counts packets generated from edge.measure_from, sim.warmup cycles after every device
	 *  port of this process came up */
	struct dfly_edge_lane edge;
	uint64_t host_frames;        /**< host frames delivered to hosts */
	_Atomic uint64_t done_cycle; /**< cur, published for the progress line */
	struct dp_cap_ring *cap;     /**< capture ring of this lcore, or NULL */
	uint64_t ls_block_ns;        /**< lockstep: since when a peer holds us back, or 0 */
	FILE *snap;                  /**< lockstep: its routers' snapshots (--snapshots) */
	char *snap_buf;              /**< their text (open_memstream) */
	size_t snap_len;
} __rte_cache_aligned;

#endif /* DP_H */
