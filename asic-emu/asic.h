/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The switch ASIC model (spec §3): a CIOQ virtual cut-through router with per-VC input buffers
 * sized in phits, one output FIFO per port, relative credits reserved at grant and returned over
 * the reverse link with link latency, internal speedup, a pipeline of route/allocation and
 * crossbar stages, and a separable input-first allocator (RR, LRS or age arbiters). The route
 * stage evaluates the routing-mode register (MIN, VAL with every Path-A variant, UGAL-L, PB with
 * the group saturation table, PAR, OLM) and assigns VCs by hop role (spec §2.2). Each output
 * link also has an out-of-band control line: the firmware's control frames (CPU port) and the
 * in-band PB information flits cross it with the link latency (with knobs.ctrl_charge a control
 * frame also holds the link for its length in phits, A-5.6).
 *
 * The model has no I/O and no clock of its own: a driver (the virtual-time fabric of dfly sim,
 * or the real-time lcore loop of dfly-switch) owns the links and calls asic_step() once per
 * emulated cycle. Links are delay lines (struct asic_link) shared by two ASICs; the upstream
 * ASIC pushes, the downstream one pops what is due. Nothing in here calls a function pointer per
 * packet, allocates per packet, or includes DPDK, libpcap or libconfig.
 *
 * Time: one cycle carries one phit per link. The allocator runs S (speedup) ticks per cycle;
 * a granted packet crosses the crossbar at one phit per tick.
 */
#ifndef ASIC_H
#define ASIC_H

#include <stdbool.h>
#include <stdint.h>

#include "dfly/mode.h"
#include "dfly/regs.h"
#include "dfly/trace.h"
#include "dfly/rng.h"
#include "dfly/topo.h"

#define ASIC_NONE UINT32_MAX

/** Packet flags. */
#define ASIC_PKT_NONMIN           0x01u  /**< a nonminimal (Valiant) decision was committed */
#define ASIC_PKT_PHASE1           0x02u  /**< past S_ROOT: routing towards the destination */
#define ASIC_PKT_ROUTED           0x04u  /**< source decision made (S_ROOT drawn or MIN chosen) */
#define ASIC_PKT_NOINTER          0x10u  /**< nonminimal wanted, no intermediate group: minimal */
#define ASIC_PKT_MANDATORY_GLOBAL 0x20u  /**< OLM: the next hop must be global (after NRG) */
#define ASIC_PKT_LMIS_DONE        0x40u  /**< OLM: this group's one local misroute is used */
#define ASIC_PKT_PBVEC            0x80u  /**< carries the in-band PB vector in pb_vec */
#define ASIC_PKT_DECIDING         0x100u /**< source-adaptive decision made here, not yet granted */
#define ASIC_PKT_SYNTH                                                                             \
	0x200u                /**< a generator's packet (dfly-switch): sunk at its node, its       \
				   payload (if any) opaque; else a host frame */
#define ASIC_PKT_REPLY 0x400u /**< class: a reply (traffic.reqrep), else a request */
#define ASIC_PKT_RES_MIN                                                                           \
	0x800u /**< RES: its minimal global channel is reserved for it: routed                     \
		    minimally, and R of that channel drops by its length there */
#define ASIC_PKT_MINCRED                                                                           \
	0x1000u /**< routing.mincred: counted as minimal by the output that sent it here (its      \
		     credit goes back with the minimal flag) */
#define ASIC_REASON_NONE 0xffu /**< no decision counter pending */

/** Modes whose route stage decides in transit, at every head, every allocation round. */
/**
 * UGAL-G (spec §4.5) is an oracle: it reads the queues of the other routers of the group. @p view
 * holds the group's ASICs indexed by rho (the entry of this router included), or NULL (then
 * UGAL-G compares local queues only, like UGAL-L). Virtual-time fabrics only: a real switch
 * cannot see its neighbours' queues.
 */
struct asic;
void asic_set_group_view(struct asic *as, const struct asic *const *view);

/**
 * @p on: other ASICs that push onto this one's links (its neighbours) may be stepped on other
 * threads in the same cycle (dfly sim's sim.threads), so marks on its arrival calendar are
 * atomic. Off (the default): plain. The results are the same either way.
 */
void asic_set_threaded(struct asic *as, bool on);

/** One event at a capture point (include/dfly/trace.h). */
struct asic_trace_ev {
	uint8_t point;              /**< enum dfly_trace_point */
	uint8_t vc;                 /**< input VC, or output VC on port tx */
	uint8_t kind;               /**< enum dfly_port_kind of the port */
	uint16_t port;              /**< port of this router */
	uint16_t drop;              /**< enum dfly_drop for DFLY_TRACE_DROP, else DFLY_TRACE_NONE */
	uint64_t cycle;             /**< emulated cycle of the event */
	const struct asic_pkt *pkt; /**< the data packet, or NULL for a control frame */
	const void *frame;          /**< the control frame (pkt NULL) */
	uint16_t len;               /**< its length in bytes */
};

/** A capture callback; it must not keep @p ev or its packet beyond the call. */
typedef void asic_trace_fn(void *ctx, const struct asic *as, const struct asic_trace_ev *ev);

/**
 * Call @p fn at the capture points of @p points (bit p = enum dfly_trace_point p); 0 or a NULL
 * @p fn turns tracing off. Off, each point costs one test of a mask.
 */
void asic_set_trace(struct asic *as, asic_trace_fn *fn, void *ctx, uint32_t points);

/** Router id of @p as. */
uint32_t asic_router_id(const struct asic *as);

/**
 * Take the link of fabric port @p port down (or back up): the hardware's view of its link
 * (dfly sim's link faults, dfly-switch's HELLO liveness). A down port sends nothing: packets in
 * its output FIFO and control frames wait or are counted (drop.ctrl_port_down); the allocator
 * grants nothing to it; with knobs.failover the route stage routes around it. Written to
 * regs.ports_down, so the firmware sees it. @return 0, or -EINVAL for a terminal port.
 */
int asic_port_set_down(struct asic *as, uint32_t port, bool down);

/** Whether port @p port is held down (asic_port_set_down). */
bool asic_port_is_down(const struct asic *as, uint32_t port);

struct dfly_wire_data;
/**
 * The data header (wire.h) of @p pk as it would cross a link now: flags, hops, VC, size, nodes,
 * S_ROOT, generation cycle, PB vector, tag (pk->id), path local hops, injection delay. type,
 * seq and payload_len are left 0 for the caller.
 */
void asic_pkt_wire(const struct asic_pkt *pk, struct dfly_wire_data *d);

/** OLM and the contention modes: misroutes decided in transit (the registry's family flag). */
static inline bool asic_mode_in_transit(uint32_t mode)
{
	return dfly_mode_is(mode, DFLY_MODEF_IN_TRANSIT);
}

/** The values a routing decision compared (trace metadata, include/dfly/trace.h). */
struct asic_dec {
	int32_t q_min;     /**< occupancy of the minimal first hop (phits), −1 if not compared */
	int32_t q_val;     /**< occupancy of the Valiant candidate's first hop, −1 if none */
	int32_t t;         /**< UGAL's T in phits */
	uint16_t cc;       /**< contention counter of the minimal output, DFLY_TRACE_NONE */
	uint16_t combined; /**< ECtN combined[destination group], DFLY_TRACE_NONE */
	uint8_t level;     /**< LIA/TPR level, 0xff if none */
	uint8_t flags;     /**< DFLY_TRACE_F_SAT, _L1, _L2 */
	uint8_t reason;    /**< the decision counter of the last granted hop, 0xff none */
	uint8_t trig;      /**< its trigger counter, 0xff none */
};

/**
 * Packet descriptor: header fields plus the emulator's side-band metadata. It lives in a pool
 * owned by the driver; the ASIC holds pointers.
 */
struct asic_pkt {
	uint32_t src_node;     /**< generating node */
	uint32_t dst_node;     /**< destination node */
	uint32_t val_router;   /**< Valiant intermediate router S_ROOT, or ASIC_NONE */
	uint16_t len;          /**< size in phits */
	uint8_t vc;            /**< VC of the input buffer it occupies / will occupy */
	uint8_t ghops;         /**< global hops taken */
	uint16_t flags;        /**< ASIC_PKT_* */
	uint16_t pend_flags;   /**< route stage result: flags the hop adds when granted */
	uint8_t lhops;         /**< local hops taken (whole path) */
	uint8_t grp_lhops;     /**< local hops taken in the current group */
	uint8_t out_vc;        /**< route stage result: VC at the next hop */
	uint8_t out_port;      /**< route stage result: output port */
	uint8_t reason;        /**< route stage result: enum dfly_route_ctr to count at the grant */
	uint8_t trig;          /**< route stage result: the trigger counter (CC_TRIG_*) to count */
	uint8_t vc_allow;      /**< FlexVC: VCs (bit mask) the next hop may use; 0 = out_vc only */
	uint8_t vc_safe;       /**< FlexVC: the VC of the hop's place on the safe path */
	uint8_t min_port;      /**< minimal output port here to dst_node (set at buffer entry) */
	uint16_t dst_group;    /**< group of dst_node (set at buffer entry) */
	uint32_t pb_vec;       /**< in-band PB vector (ASIC_PKT_PBVEC), stripped on arrival */
	uint32_t cand_root;    /**< Valiant router drawn for the pending source-adaptive decision */
	uint64_t gen_cycle;    /**< generation cycle (latency is measured from here) */
	uint64_t ready_tick;   /**< tick from which the head may request the allocator */
	uint64_t inj_cycle;    /**< cycle it left the injection queue */
	struct asic_dec dec;   /**< what the last route stage compared (traces) */
	uint32_t id;           /**< driver's handle (e.g. a sequence number) */
	uint32_t app;          /**< driver's payload word (graph500: DFLY_G5_APP_*); unused here */
	struct asic_pkt *next; /**< driver's list link (free list, source queue); unused here */
};

/** One in-flight data packet on a link. */
struct asic_link_pkt {
	struct asic_pkt *pkt;
	uint64_t due; /**< cycle the head reaches the downstream input */
};

/** Kinds of record on a link's out-of-band control line. */
enum asic_ctrl_kind {
	ASIC_CTRL_FRAME = 0, /**< an encoded 0x88B6 control frame from the firmware */
	ASIC_CTRL_PB_INFO,   /**< IAR in-band PB information flit (4-byte vector) */
	ASIC_CTRL_RES_REQ,   /**< RES reservation request flit (struct asic_res_flit) */
	ASIC_CTRL_RES_REP,   /**< RES reservation reply flit (struct asic_res_flit) */
};

/**
 * A RES reservation flit (spec §4.9, IAR §3.4), the body of an ASIC_CTRL_RES_REQ or _REP record:
 * a request from the source router to the router owning the minimal global channel, the reply
 * back. One phit on the local link. The owner echoes @p cookie, which only the source reads.
 */
struct asic_res_flit {
	uint32_t cookie; /**< the source's handle of the waiting packet */
	uint32_t rbar;   /**< request: R̄, the source router's average R (phits) */
	uint16_t len;    /**< request: the packet's length (phits) */
	uint8_t gc;      /**< request: the global port index q (0..h−1) at the owner */
	uint8_t grant;   /**< reply: 1 granted (route MIN), 0 refused (route VAL) */
};

/** One in-flight credit return. */
struct asic_link_credit {
	uint64_t due; /**< cycle the credit reaches the upstream output */
	uint16_t phits;
	uint8_t vc;
	uint8_t min; /**< the phits were a minimally routed packet's (routing.mincred) */
};

/**
 * A unidirectional link (data downstream, credits upstream) between an output port of one ASIC
 * and an input port of another: two constant-latency delay lines, so FIFO order is arrival
 * order. Single producer and single consumer on each line.
 */
struct asic_link {
	uint32_t latency; /**< cycles, for data and credits */
	uint32_t mask;    /**< ring size − 1 (power of two) */
	uint32_t d_head, d_tail;
	uint32_t c_head, c_tail;
	struct asic_link_pkt *data;
	struct asic_link_credit *credit;
	/* control line: records {u64 due, u16 len, u8 kind, pad} + bytes, 8-byte aligned */
	uint8_t *cbuf;
	uint32_t cb_mask, cb_head, cb_tail;
	uint32_t cb_shead; /**< sender's: first byte it may not overwrite (link.c ctrl_room_head) */
	uint32_t cb_cap;   /**< bytes the line holds (cb_mask + 1, or half of it once a lagging
				receiver made it grow) */
	uint32_t lag;      /**< cycles the receiver may be stepped behind the sender, beyond one
				(asic_link_set_lag) */
	struct asic *up;   /**< upstream ASIC (sends data, receives credits) */
	struct asic *down; /**< downstream ASIC */
	uint16_t up_port;  /**< output port on the upstream ASIC */
	uint16_t down_port; /**< input port on the downstream ASIC */
	/* control-frame faults (asic_link_set_ctrl_fault), applied by the sender's CPU port */
	uint32_t cf_types;      /**< bit T: control type T is subject to the fault */
	uint32_t cf_loss_ppm;   /**< lost, per million frames of those types */
	uint32_t cf_delay;      /**< cycles added to each of those frames that is not lost */
	struct dfly_rng cf_rng; /**< the fault's own draws (the routing's stream is untouched) */
};

/** Static parameters of one ASIC (all routers of a network share one). */
struct asic_params {
	uint32_t speedup;      /**< internal speedup S ≥ 1 */
	uint32_t pipe_route;   /**< cycles from head arrival to first allocation request */
	uint32_t pipe_xbar;    /**< cycles from grant to head in the output FIFO */
	uint32_t alloc_iters;  /**< allocator iterations per tick */
	enum dfly_arb in_arb;  /**< input (VC) arbiter */
	enum dfly_arb out_arb; /**< output arbiter */
	uint32_t vcs[3];       /**< VCs per input port kind (terminal = injection, local, global) */
	uint32_t buf[3];       /**< phits per input VC, per port kind */
	uint32_t buf_out;      /**< phits per output FIFO */
	uint32_t lat_terminal; /**< node ↔ router link latency, cycles */
	enum dfly_inj_select inj_select; /**< injection VC selection */
	bool credit_at_tail; /**< free input space + return credit when the tail leaves (else at
				  the grant, FOGSim's reading) */
	uint32_t
	    min_pkt_phits;     /**< smallest packet the driver will send (sizes the rings; 0 = 1) */
	bool out_free_at_tail; /**< free output FIFO space when the tail leaves (else when the
				    head starts onto the link) */
	uint32_t phit_bytes;   /**< bytes a phit carries, ≥ 1: what a control frame costs on
				    its link with knobs.ctrl_charge */
	bool no_link_rate;     /**< clock.link_rate = false: a packet (or control frame) holds a
				    link, node link or crossbar port for one cycle whatever its
				    length (dfly-switch benchmarks); buffers and credits are
				    still counted in phits */
	bool damq;             /**< buffers.mode = "damq": the VCs of each local and global input
				    port share the port's memory, buf[kind] × vcs[kind] phits
				    (spec §3.9); injection ports stay static. false: static */
	uint32_t damq_res[3];  /**< DAMQ: phits reserved for each VC, per port kind (≤ buf[kind]);
				    the rest of the port's memory is the shared pool */
	uint32_t damq_penalty; /**< DAMQ: cycles added to each write into (the head is ready
				    later) and each read out of (it reaches the output FIFO
				    later) a DAMQ input buffer */
	bool node_consume;     /**< router.node_port = "consume" (FOGSim v5,
				    outputArbiter::checkPort → generatorModule::checkConsume): a
				    node port is granted a packet only in a cycle its node could
				    consume it, at least the last delivery's length after that
				    delivery started, with no crossbar-busy test; a head refused
				    there has still taken its input's turn. false: while its FIFO
				    has room */
	bool alloc_once;       /**< router.allocations = "one" (FOGSim v5: switchModule::action
				    allocates once a cycle, the speedup only shortens transfers):
				    one allocation round a cycle instead of router.speedup */
	bool in_rr_request;    /**< router.input_rr = "request" (FOGSim v5: cosArbiter::action
				    calls markServedPort on the VC it puts forward): an input's
				    round-robin pointer moves past the VC it asked for, granted
				    or not. false: past the VC granted (grant()) */
	bool inj_unpaced;      /**< links.terminal_serialise = false (FOGSim v5: generatorModule
				    writes a packet into the injection buffer the cycle it is
				    generated, InjectionDelay = 0): each injected packet arrives
				    over its own length from its injection, not after the node's
				    previous packet (what paces the node is its source: dfly's
				    generators offer at most one packet a cycle, but an unbounded
				    source queue or a workload may offer several). false: the
				    node's link carries one phit a cycle */
};

/** A packet leaving the ASIC towards the driver: delivered to its node, or dropped. */
struct asic_ejection {
	struct asic_pkt *pkt;
	uint64_t tail_cycle; /**< cycle the tail reached the node (or the drop cycle) */
	uint8_t drop;        /**< 0 if delivered, else 1 + enum dfly_drop */
};

struct asic;

/**
 * Create the ASIC of router @p router of @p topo. @p regs is its register file (initialised by
 * this call); knobs and tables must be written before the first step. @p seed seeds its PRNG.
 *
 * @return the ASIC, or NULL with errno EINVAL (bad parameters: speedup, alloc_iters or
 *   phit_bytes 0, VCs per port kind not in 1..DFLY_MAX_VCS, a buffer of 0 phits, radix > 64)
 *   or ENOMEM.
 */
struct asic *asic_create(const struct dfly_topo *topo, uint32_t router,
			 const struct asic_params *par, struct dfly_regs *regs, uint64_t seed);

/** Counter updates timed alone by asic_bench_counters(). */
enum asic_bench_ctr {
	ASIC_BENCH_NONE, /**< the loop and the packet fetch alone */
	ASIC_BENCH_CC,   /**< contention counters: head, crossing, release (local input) */
	ASIC_BENCH_ECTN, /**< ECtN partial array and combined array, at head and release */
	ASIC_BENCH_LIA,  /**< LIA: stored at injection, stored and injected at release */
	ASIC_BENCH_ALL,  /**< an injected packet to a remote group: all of the above */
};

/**
 * Time @p npk packets through the counter-update functions of the ASIC of router 0 of @p topo
 * (dfly bench counters), the rest of the data path left out. @return ns per packet, or -1.
 */
double asic_bench_counters(const struct dfly_topo *topo, const struct asic_params *par,
			   enum asic_bench_ctr which, uint64_t npk);

/** Free an ASIC; NULL is accepted. Packets it holds are not freed (the driver owns them). */
void asic_destroy(struct asic *as);

/**
 * Create a link of @p latency cycles from output @p up_port of @p up to input @p down_port of
 * @p down, and attach it to both. @return the link or NULL (errno EINVAL, EEXIST, ENOMEM).
 */
struct asic_link *asic_link_create(struct asic *up, uint32_t up_port, struct asic *down,
				   uint32_t down_port, uint32_t latency);
void asic_link_destroy(struct asic_link *l);

/**
 * Fault: the firmware control frames of the types in @p types (bit T = enum
 * dfly_wire_ctrl_type T) that leave on link @p l are lost with probability @p loss_ppm per
 * million (drop.ctrl_fault at the sender) and the others arrive @p delay cycles late (the
 * control line stays in order, so frames behind a late one wait for it; port counter
 * ctrl_delayed). @p seed seeds the fault's own draws. types 0 clears the fault. A delay
 * longer than the line holds grows it, which needs the line empty.
 * @return 0, -EBUSY (frames on the line) or -ENOMEM.
 */
int asic_link_set_ctrl_fault(struct asic_link *l, uint32_t types, uint32_t loss_ppm, uint32_t delay,
			     uint64_t seed);

/**
 * Let the receiver of @p l be stepped up to @p lag cycles behind its sender (beyond the one
 * cycle of any order of a cycle's steps): a driver that steps each router several cycles in a
 * row (dfly sim, sim.batch) needs lag = those cycles − 1, at most the link's latency − 1. The
 * rings grow by what the sender can push in @p lag cycles, and the control line keeps its
 * capacity (what counts as full is what it was), its buffer doubling the first time the
 * receiver's lag needs it, so the run is the same; if either end is threaded
 * (asic_set_threaded, to be called first), the buffer has that size from the start, as it
 * cannot move while the receiver reads it (asic_link_set_ctrl_fault keeps it doubled). Needs
 * the link empty. @return 0, -EINVAL (lag ≥ latency), -EBUSY or -ENOMEM.
 */
int asic_link_set_lag(struct asic_link *l, uint32_t lag);

/**
 * Create one half of a link whose other end is not an ASIC of this process (dfly-switch: the
 * link crosses a device). @p out true: the link leaves output @p port of @p as (up = @p as,
 * down = NULL): the driver pops the data and control records due with asic_link_pop_data() /
 * asic_link_pop_ctrl() and sends them, and pushes the credits that come back with
 * asic_link_push_credit(). @p out false: the link enters input @p port (up = NULL, down = @p as):
 * the driver pushes what arrives (asic_link_push_data(), asic_link_push_ctrl()) and pops the
 * credit returns due (asic_link_pop_credit()). The rings hold every packet and credit the
 * downstream buffers allow, so a peer that respects flow control can never overflow them.
 *
 * @return the link or NULL (errno EINVAL: terminal port or out of range; EEXIST; ENOMEM).
 */
struct asic_link *asic_link_create_half(struct asic *as, uint32_t port, bool out, uint32_t latency);

/** Driver side of a half link: the next data packet due by @p now, or NULL; @p due (if not
 *  NULL) gets the cycle it was due (its head at the downstream input), ≤ @p now. */
struct asic_pkt *asic_link_pop_data(struct asic_link *l, uint64_t now, uint64_t *due);
/** Driver side: a packet arrived, due at the input at @p due. @return false if the ring is
 *  full (the peer broke flow control; the caller drops and counts it). */
bool asic_link_push_data(struct asic_link *l, struct asic_pkt *pkt, uint64_t due);
/** Driver side: the next credit return due by @p now, or false; @p due (if not NULL) gets the
 *  cycle it was due at the upstream output, ≤ @p now. */
bool asic_link_pop_credit(struct asic_link *l, uint64_t now, uint8_t *vc, uint16_t *phits,
			  uint64_t *due);
/** Driver side: credits arrived for downstream VC @p vc. @return false if the ring is full. */
bool asic_link_push_credit(struct asic_link *l, uint8_t vc, uint16_t phits, uint64_t due);
/** Driver side: the next control record due by @p now (kind, bytes up to @p max, length). */
bool asic_link_pop_ctrl(struct asic_link *l, uint64_t now, enum asic_ctrl_kind *kind, void *buf,
			uint32_t max, uint16_t *len);
/** Driver side: the kind of the next control record due by @p now, left on the line.
 *  @return false if none is due. */
bool asic_link_peek_ctrl(const struct asic_link *l, uint64_t now, enum asic_ctrl_kind *kind);
/** Driver side: the kind and due cycle of the next control record, whenever it is due (the
 *  lockstep driver sends records ahead, with their due cycle). @return false if none. */
bool asic_link_peek_ctrl_due(const struct asic_link *l, enum asic_ctrl_kind *kind, uint64_t *due);
/** Driver side: a control record arrived. @return false if the control line is full. */
bool asic_link_push_ctrl(struct asic_link *l, enum asic_ctrl_kind kind, const void *buf,
			 uint16_t len, uint64_t due);

/**
 * A node offers a packet at cycle @p now on terminal port @p port. The injection VC is chosen by
 * the configured policy among VCs with room for the whole packet; the packet crosses the
 * terminal link (serialised at one phit per cycle) and may request the allocator after the
 * route pipeline.
 *
 * @return true if accepted, false if no injection VC has room (the caller counts the drop).
 */
bool asic_inject(struct asic *as, uint32_t port, struct asic_pkt *pkt, uint64_t now);

/**
 * The minimal output port from this router towards @p dst_node: dfly_topo_min_port() read from
 * the table asic_create() builds, what every packet entering a buffer caches.
 */
uint32_t asic_min_port(const struct asic *as, uint32_t dst_node);

/** Free phits of the best injection VC of @p port (what the node sees through its credits). */
uint32_t asic_inject_room(const struct asic *as, uint32_t port);

/**
 * Slots of an ASIC's arrival calendar. A step visits only the links something is due on: every
 * push onto a link (the ASIC's own output stage and credit returns, asic_link_push_data(),
 * _credit(), _ctrl()) marks the receiver's slot of the due cycle. A record due ASIC_CAL_SLOTS or
 * more cycles after the receiver's next step makes its port polled every step until the link
 * is empty; one due before the next step is taken at that step, as a polled link would. The
 * papers' links are 10 and 100 cycles long.
 */
#define ASIC_CAL_SLOTS 1024u

/**
 * Advance the ASIC through cycle @p now (called once per cycle, increasing; a driver may skip
 * cycles: what fell due in between is taken at @p now).
 */
void asic_step(struct asic *as, uint64_t now);

/**
 * Start loading, without waiting, what the next asic_step() of @p as reads first (link heads,
 * the packets at the heads of its FIFOs and VCs). A driver that steps many ASICs in a row calls
 * it for the next ASIC before stepping the current one. It changes no state.
 */
void asic_prefetch(const struct asic *as);

/** Touch, without waiting for them, what the steps of cycles @p now + 1 and + 2 will read of
 * the neighbours' writes (link records, arriving packets): for a driver stepping one ASIC
 * several cycles in a row (asic.c, cal_mark in asic_priv.h). It changes nothing. */
void asic_prefetch_due(const struct asic *as, uint64_t now);

/**
 * Take up to @p max delivered (or dropped, see asic_ejection.drop) packets.
 * @return how many were written to @p out.
 */
unsigned asic_eject_burst(struct asic *as, struct asic_ejection *out, unsigned max);

/** Packets currently held (input buffers, crossbar, output FIFOs, terminal links). */
uint64_t asic_pkts_held(const struct asic *as);

/** CRT (spec §4.8): credits this router holds back, not yet returned upstream (0 unless CRT). */
uint32_t asic_crt_held(const struct asic *as);

/**
 * Contention counters (spec §5.2), recomputed from the buffers: head packets not yet granted
 * plus packets whose tail has not left the input, by minimal output; and the ECtN partial array.
 * @return 0 if equal to the event-driven counters in regs->mech, -1 otherwise. With
 * knobs.cc_check the ASIC runs it after every step and counts the differing cycles.
 */
int asic_cc_recompute_check(const struct asic *as);

/** Cycles knobs.cc_check found the recomputed counters different (0 is the only right value). */
uint64_t asic_cc_mismatches(const struct asic *as);

/** Copy occupancy, high-water marks and credits into the register file's gauges. */
void asic_sync_gauges(struct asic *as);

/**
 * Check the drained-state invariants: no packet held, every input VC empty, every output holds
 * its downstream buffer size in credits, no pending release. @return 0 or -EBUSY (first
 * violation described in @p why).
 */
int asic_check_drained(const struct asic *as, char *why, unsigned len);

/**
 * Check that every non-empty input VC's cached head (the packet and its ready tick the
 * allocator reads) is the packet at the head of its ring. @return 0, or -1 with @p why filled.
 */
int asic_check_heads(const struct asic *as, char *why, unsigned len);

/**
 * Diagnostic hook: run the route stage on @p pkt as if its head were ready at input @p in_port
 * now, without queueing it. Fills out_port, out_vc, pend_flags, reason, val_router and the
 * decision flags exactly as the allocator would (and draws from the ASIC's PRNG).
 */
void asic_route_probe(struct asic *as, struct asic_pkt *pkt, uint32_t in_port);

/** What output @p port knows of its downstream input port's DAMQ pool (spec §3.9). */
struct asic_damq_stat {
	uint32_t reserve;     /**< phits reserved per VC (static: the VC's size, no pool) */
	uint32_t pool_cap;    /**< phits of the shared pool (static or 100% reserve: 0) */
	uint32_t pool_used;   /**< pool phits in use (granted, credits not yet back) */
	uint64_t pool_allocs; /**< grants that took pool space, since the start */
};

/** Fill @p st for output @p port (a terminal port has no downstream buffer: all zero). */
void asic_damq_stat(const struct asic *as, uint32_t port, struct asic_damq_stat *st);

/** Phits output @p port may still send on downstream VC @p vc: its credits, less the pool
 * phits the port's other VCs hold (DAMQ); the credit counter itself in static mode. */
int32_t asic_credits_avail(const struct asic *as, uint32_t port, uint32_t vc);

/**
 * Unit-test hook: force the credits output @p port holds for downstream VC @p vc, to build a
 * congestion state by hand. Breaks credit conservation; never call it on a running network.
 */
void asic_debug_set_credits(struct asic *as, uint32_t port, uint32_t vc, int32_t credits);

/** Packets in flight on a link (data direction), credit returns and control bytes in flight. */
uint32_t asic_link_pkts(const struct asic_link *l);
uint32_t asic_link_credits(const struct asic_link *l);
uint32_t asic_link_ctrl_bytes(const struct asic_link *l);

#endif /* ASIC_H */
