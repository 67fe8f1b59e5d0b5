/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The routing firmware (DESIGN.md §3): one instance beside each emulated switch ASIC. It sees the
 * ASIC only through the register file (include/dfly/regs.h): it reads counters and gauges, writes
 * knobs, the firmware registers and the double-buffered tables, and exchanges 0x88B6 control
 * frames (include/dfly/wire.h) with the other routers through the two CPU-port rings. It runs on
 * emulated time: the driver (the virtual-time fabric, or the real-time loop of dfly-switch /
 * dfly-controld) calls fw_tick() once per cycle, after the ASIC has stepped that cycle.
 *
 * Per tick, in this order:
 *   1. drain regs->cpu_rx: decode every frame, check that it came from the router the topology
 *      puts at the other end of its port (and, for group-scoped messages, from my own group),
 *      and hand it to its mechanism;
 *   2. every running mechanism's poll (failover's own links), then the timers that are due, in
 *      registration order, then every mechanism's tick (a table publication the ASIC had not
 *      made room for, ECtN's immediate broadcasts, LIA's window): the mechanisms are struct
 *      fw_mech ops tables (fw_mech.h), run in the fixed order of fw_mechs[];
 *   3. write regs->fw.heartbeat = now.
 *
 * Timing, as the virtual-time fabric sees it: a frame queued on cpu_tx at cycle c leaves at the
 * ASIC's step of cycle c + 1 and arrives after the link latency; a frame is handled at the
 * fw_tick of the cycle it arrives; a table published at cycle c is used from the ASIC's step of
 * cycle c + 1.
 *
 * Mechanisms today, one file each (pb.c, ectn.c, failover.c, lia.c): PiggyBack (spec §4.6),
 * out of band (mode B, PB_STATE frames, default) or in band (mode A, the IAR piggyback through
 * regs->fw.pb_own_vec and regs->mech.pb_rx_vec); ECtN (spec §5.6), the whole partial array every
 * period or one of the lighter alternatives (enum fw_ectn_mode; the async mode also checks its
 * own partial array at every tick, after the timers); failover (LINK_STATE); LIA, TPR and ACOR.
 */
#ifndef FW_H
#define FW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "dfly/mode.h"
#include "dfly/regs.h"
#include "dfly/topo.h"
#include "dfly/wire.h"
#include "lia.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FW_MAX_TIMERS  16u             /**< timers one firmware instance can hold */
#define FW_PB_F_Q8_MAX 65536u          /**< largest PB factor F accepted: 256.0 */
#define FW_PB_Q_MAX    ((1 << 24) - 1) /**< occupancies above this (phits) are clamped */
#define FW_MAX_PHITS   4096u           /**< largest packet the decoder limits allow (phits) */

/**
 * What an ECtN broadcast carries (spec §5.6 "Lighter alternatives", CBAR §VI-B, thesis §4.2.3).
 * Every mode sends at cycle mod ectn_period = 0 on every local port; the receiver handles every
 * ECTN_PARTIAL format whatever its own mode (the format byte says what a frame is).
 */
enum fw_ectn_mode {
	/** the whole array (format FULL) every period: mode 0, the papers' */
	FW_ECTN_FULL = 0,
	/** the non-zero counters only (format SPARSE; the receiver reads the others as 0 and
	 *  replaces its whole copy): the same information, a list instead of an array */
	FW_ECTN_SPARSE,
	/** the counters that changed since the last array sent (format DELTA, possibly empty so
	 *  that "nothing changed" differs from "lost"); the whole array (FULL) every ectn_refresh
	 *  periods and as the first broadcast. A receiver applies a DELTA only if its epoch
	 *  follows the last one it applied from that sender; otherwise it has found a gap: it
	 *  keeps its copy as it is and ignores the sender's deltas until the next FULL (or
	 *  SPARSE) array */
	FW_ECTN_INCREMENTAL,
	/** the whole array every period (a longer period than 100 is the point: 500 say), plus at
	 *  once, checked every cycle, when an own counter differs from the last array sent by at
	 *  least ectn_async_delta, if the last send of either kind is at least ectn_async_min_gap
	 *  cycles old */
	FW_ECTN_ASYNC,
	FW_ECTN_MODE_COUNT
};

/** Static parameters of one firmware instance. Fill with fw_params_init(), then override. */
struct fw_params {
	uint32_t vc_global; /**< VCs per global port (1..DFLY_MAX_VCS) */
	bool pb_enabled;    /**< run the PB state machine */
	uint32_t pb_period; /**< cycles between recomputations/broadcasts, ≥ 1 (default 1) */
	/** F in 1/256 units (2.0 = 512, 1.2 ≈ 307), ≤ FW_PB_F_Q8_MAX: bit set iff
	 *  Q·256 > pb_f_q8·Q̄ + pb_t·256, evaluated exactly in integers */
	uint32_t pb_f_q8;
	int32_t pb_t; /**< T in phits (the caller converts from packets) */
	/** Q̄ over the router's OTHER global channels (IAR); false: over ALL of them, the channel
	 *  itself included (LIA/FOGSim, spec default). With h = 1 and 'other', Q̄ = 0. */
	bool pb_avg_other;
	/** One bit per (global port, VC), computed per VC index (default); false: one bit per port
	 *  from the whole-port occupancy, replicated into every VC bit of that port */
	bool pb_per_vc;
	bool pb_mincred; /* routing.mincred: Q is what minimally routed packets hold (spec 2.4) */
	/** IAR in-band mode A: no PB_STATE frames; the own vector goes to regs->fw.pb_own_vec (bit
	 *  q·vc_global + v) and neighbours' vectors are read from regs->mech.pb_rx_vec[P] when
	 *  regs->mech.pb_rx_count[P] of local input port P changes. Needs h·vc_global ≤ 32. */
	bool pb_inband;
	/** Mode B: send PB_STATE every period even when the vector has not changed (default,
	 *  spec ). false sends only changes: the neighbours' rows, hence every routing
	 *  decision, are exactly the same, with far fewer frames (a simulation speed option). */
	bool pb_send_unchanged;
	/** Run the ECtN state machine (spec §5.6): every ectn_period cycles (at cycle mod period
	 *  = 0, synchronised over the group) send the own partial array, 4-bit saturating, in an
	 *  ECTN_PARTIAL frame on every local port; keep the latest array of each sender; publish
	 *  DFLY_TBL_ECTN = the sum of the received copies (+ the own snapshot unless
	 *  ectn_own_live, in which case the ASIC adds its live partial). */
	bool ectn_enabled;
	uint32_t ectn_period;        /**< ≥ 1, default 100 */
	bool ectn_own_live;          /**< default true (A-5.6) */
	enum fw_ectn_mode ectn_mode; /**< default FW_ECTN_FULL */
	uint32_t ectn_refresh;       /**< INCREMENTAL: FULL every this many periods, ≥ 1 (10) */
	uint32_t ectn_async_delta;   /**< ASYNC: change that sends at once, 1..15 (default 4) */
	uint32_t ectn_async_min_gap; /**< ASYNC: cycles from the last send, ≥ 1 (default 10) */
	/** periods without an array from a neighbour after which its copy counts 0 (the copy of a
	 *  router whose firmware stopped ages out); 0 = never (default 25) */
	uint32_t ectn_age;
	/** Failover (routing.failover, PROPOSAL): tell every neighbour which of my global links
	 *  are down (regs.ports_down) and relay what I learnt (LINK_STATE frames on every fabric
	 *  port, at once when my links change and every fail_period cycles while anything is
	 *  known to be down); publish DFLY_TBL_FAIL. What is not refreshed for fail_age periods
	 *  is taken as up again (the ASIC's own bits still hold its own ports). */
	bool fail_enabled;
	uint32_t fail_period; /**< ≥ 1, default 100 */
	uint32_t fail_age;    /**< ≥ 1, default 4 */
	/** LIA / TPR (spec §6, §4.11) and ACOR (§4.12) machines (lia.h); off by default */
	struct lia_params lia;
};

/**
 * Firmware counters, X(ENUM, name, description). The RX_<type> entries are in the order of
 * DFLY_FOREACH_WIRE_CTRL, the ECTN_TX_<format> ones in the order of enum dfly_wire_ectn_fmt.
 * Partitions: rx_frames = Σ rx_<type> + rx_bad_port + rx_decode_err + rx_other_group +
 * rx_wrong_peer; ectn_tx = ectn_tx_full + ectn_tx_sparse + ectn_tx_delta; with ECtN on,
 * rx_ectn_partial = ectn_rx + ectn_delta_stale + ectn_bad_shape.
 */
#define FW_FOREACH_STAT(X)                                                                         \
	X(TICKS, ticks, "fw_tick calls")                                                           \
	X(RX_FRAMES, rx_frames, "control frames taken from the CPU rx ring")                       \
	X(RX_CREDIT, rx_credit, "CREDIT frames accepted (decoded, sender checked)")                \
	X(RX_PB_STATE, rx_pb_state, "PB_STATE frames accepted (decoded, sender checked)")          \
	X(RX_ECTN_PARTIAL, rx_ectn_partial,                                                        \
	  "ECTN_PARTIAL frames accepted (decoded, sender checked)")                                \
	X(RX_HELLO, rx_hello, "HELLO frames accepted (decoded, sender checked)")                   \
	X(RX_ACK, rx_ack, "ACK frames accepted (decoded, sender checked)")                         \
	X(RX_LINK_STATE, rx_link_state, "LINK_STATE frames accepted (decoded, sender checked)")    \
	X(RX_SYNC, rx_sync, "SYNC frames accepted (link-level lockstep: never handed up)")         \
	X(RX_BAD_PORT, rx_bad_port, "frames handed up on a port that is not a fabric port")        \
	X(RX_DECODE_ERR, rx_decode_err, "frames rejected by the wire decoder")                     \
	X(RX_OTHER_GROUP, rx_other_group,                                                          \
	  "group-scoped frames (PB_STATE, ECTN_PARTIAL) from a router outside my group")           \
	X(RX_WRONG_PEER, rx_wrong_peer,                                                            \
	  "frames whose src_router is not the router at the other end of their port")              \
	X(RX_UNHANDLED, rx_unhandled, "accepted frames of a type no enabled mechanism handles")    \
	X(TX_FRAMES, tx_frames, "control frames queued on the CPU tx ring")                        \
	X(TX_RING_FULL, tx_ring_full, "control frames not sent: CPU tx ring full")                 \
	X(TX_ENCODE_ERR, tx_encode_err, "control frames not sent: the encoder refused them")       \
	X(TBL_PUBLISH, tbl_publish, "table generations published (all tables)")                    \
	X(TBL_UNCHANGED, tbl_unchanged,                                                            \
	  "publications skipped: the live bank already held the same rows")                        \
	X(TBL_BUSY, tbl_busy,                                                                      \
	  "publications deferred: the ASIC had not acknowledged the previous generation (EBUSY)")  \
	X(TIMER_RUNS, timer_runs, "timer callbacks run")                                           \
	X(TIMER_MISSED, timer_missed, "timer expiries skipped: fw_tick was not called that cycle") \
	X(PB_RECOMPUTE, pb_recompute, "PB: recomputations of the own saturation bits")             \
	X(PB_BITS_SET, pb_bits_set, "PB: own saturation bits set, summed over recomputations")     \
	X(PB_FLIPS, pb_flips, "PB: own saturation bits that changed at a recomputation")           \
	X(PB_TX, pb_tx, "PB: PB_STATE frames queued (mode B)")                                     \
	X(PB_TX_UNCHANGED, pb_tx_unchanged,                                                        \
	  "PB: PB_STATE frames not sent because the vector had not changed (send_unchanged off)")  \
	X(PB_RX_ROWS, pb_rx_rows, "PB: rows updated from received PB_STATE frames (mode B)")       \
	X(PB_BAD_SHAPE, pb_bad_shape, "PB: PB_STATE whose vg differs from mine (or h), dropped")   \
	X(PB_INBAND_RX, pb_inband_rx, "PB: rows updated from in-band vectors (mode A)")            \
	X(ECTN_TX, ectn_tx, "ECtN: ECTN_PARTIAL frames queued (one per local port per broadcast)") \
	X(ECTN_RX, ectn_rx,                                                                        \
	  "ECtN: received arrays applied to their sender's copy (FULL and SPARSE replace it, "     \
	  "DELTA updates it)")                                                                     \
	X(ECTN_SATURATED, ectn_saturated,                                                          \
	  "ECtN: own partial counters above 15 sent as 15 (4-bit encoding)")                       \
	X(ECTN_BAD_SHAPE, ectn_bad_shape,                                                          \
	  "ECtN: ECTN_PARTIAL whose counter count is not a*h/t, dropped")                          \
	X(ECTN_TX_FULL, ectn_tx_full, "ECtN: frames queued with the whole array (format FULL)")    \
	X(ECTN_TX_SPARSE, ectn_tx_sparse,                                                          \
	  "ECtN: frames queued with the non-zero counters only (format SPARSE)")                   \
	X(ECTN_TX_DELTA, ectn_tx_delta,                                                            \
	  "ECtN: frames queued with the counters changed since the last array (format DELTA)")     \
	X(ECTN_TX_ENTRIES, ectn_tx_entries,                                                        \
	  "ECtN: list entries in the SPARSE and DELTA frames queued, summed over frames")          \
	X(ECTN_GAPS, ectn_gaps,                                                                    \
	  "ECtN: gaps found: a DELTA whose epoch does not follow the last array applied from its " \
	  "sender (a frame was lost)")                                                             \
	X(ECTN_DELTA_STALE, ectn_delta_stale,                                                      \
	  "ECtN: DELTA frames not applied: the copy is out of step with its sender since a gap, "  \
	  "and stays as it is until the sender's next FULL array")                                 \
	X(ECTN_ASYNC_TX, ectn_async_tx,                                                            \
	  "ECtN async: immediate broadcasts (a FULL frame per local port) on a change >= delta")   \
	X(ECTN_ASYNC_HELD, ectn_async_held,                                                        \
	  "ECtN async: cycles an immediate broadcast was due but held back by async_min_gap")      \
	X(ECTN_AGED, ectn_aged,                                                                    \
	  "ECtN: neighbours' copies dropped (zeroed) because no array came from them for "         \
	  "ectn_age periods (a neighbour's firmware stopped, or its link is down)")                \
	X(LIA_RECOMPUTE, lia_recompute, "LIA/TPR: recomputations of counters and decisions")       \
	X(LIA_PUBLISH, lia_publish, "LIA/TPR/ACOR: LIA and UGAL table generations published")      \
	X(LIA_BUSY, lia_busy, "LIA/TPR/ACOR: publications deferred (previous not acknowledged)")   \
	X(LIA_L1_FLIPS, lia_l1_flips, "LIA: changes of the switch's L1 flag")                      \
	X(LIA_L2_FLIPS, lia_l2_flips, "LIA: changes of a destination group's L2 decision")         \
	X(LIA_LEVEL_FLIPS, lia_level_flips, "LIA/TPR: changes of a destination group's level")     \
	X(ACOR_CHANGES, acor_changes, "PB-ACOR: changes of the Path-A level")                      \
	X(FAIL_CHANGES, fail_changes, "failover: changes of my own global links' down vector")     \
	X(FAIL_TX, fail_tx, "failover: LINK_STATE frames queued (one per fabric port per send)")   \
	X(FAIL_RX, fail_rx, "failover: LINK_STATE frames received")                                \
	X(FAIL_ROWS, fail_rows, "failover: group rows changed by a LINK_STATE from my group")      \
	X(FAIL_LEARNT, fail_learnt, "failover: down group pairs learnt (new) from LINK_STATE")     \
	X(FAIL_OVERFLOW, fail_overflow,                                                            \
	  "failover: down pairs not kept or not sent: more than 64 (table or frame full)")         \
	X(FAIL_AGED, fail_aged,                                                                    \
	  "failover: neighbours' down rows cleared because no LINK_STATE refreshed them for "      \
	  "fail_age periods")

#define FW__ENUM(E, n, d) FW_STAT_##E,
enum fw_stat { FW_FOREACH_STAT(FW__ENUM) FW_STAT_COUNT };
#undef FW__ENUM

/** Firmware counters (one field per FW_FOREACH_STAT entry, in that order). */
struct fw_stats {
#define FW__FIELD(E, n, d) uint64_t n;
	FW_FOREACH_STAT(FW__FIELD)
#undef FW__FIELD
};

/** Counter names (snake_case, as printed by fw_dump()) and descriptions. */
extern const char *const fw_stat_names[FW_STAT_COUNT];
extern const char *const fw_stat_descs[FW_STAT_COUNT];

struct fw;

/**
 * A timer callback, run from fw_tick() at step 2.
 * @param now the current cycle (an expiry of the timer).
 * @param arg the pointer given to fw_timer_add().
 */
typedef void fw_timer_fn(struct fw *fw, uint64_t now, void *arg);

/** Fill @p par with the defaults: vc_global 2, PB off, period 1, F = 2, T = 0, Q̄ over all
 *  channels, per-VC bits, out of band; ECtN off, period 100, own partial live, mode FULL,
 *  refresh 10 periods, async delta 4 and min gap 10 cycles. */
void fw_params_init(struct fw_params *par);

/**
 * Switch on the state machines of @p machines (DFLY_FW_BIT()s, dfly/mode.h: what a mode's registry
 * entry names, dfly_mode_fw(), plus DFLY_FW_BIT(FAILOVER) where failover runs) and off the others:
 * pb_enabled, ectn_enabled, lia.enabled (LIA or TPR), lia.tpr, lia.acor and fail_enabled.
 */
void fw_params_enable(struct fw_params *par, uint32_t machines);

/**
 * Create the firmware of router @p router of @p topo, driving the ASIC whose register file is
 * @p regs. The register file must already be initialised (dfly_regs_init() or asic_create()) for
 * that router; @p topo and @p regs must outlive the firmware. @p par is copied.
 *
 * @return the firmware, or NULL with errno EINVAL (NULL argument, router out of range, regs not
 *   valid or of another router, vc_global not in 1..DFLY_MAX_VCS or above the VC count the
 *   register file declares for the global ports (regs->nvcs, when non-zero), a > DFLY_MAX_A,
 *   h > DFLY_MAX_H, PB enabled with pb_period 0 or pb_f_q8 > FW_PB_F_Q8_MAX, in-band PB with
 *   h·vc_global > 32, ECtN enabled with ectn_period 0, g − 1 > DFLY_WIRE_ECTN_MAX, an unknown
 *   ectn_mode, ectn_refresh 0, ectn_async_delta not in 1..15 or ectn_async_min_gap 0) or
 *   ENOMEM.
 */
struct fw *fw_create(const struct dfly_topo *topo, uint32_t router, struct dfly_regs *regs,
		     const struct fw_params *par);

/** Free a firmware instance; NULL is accepted. The register file is left as it is. */
void fw_destroy(struct fw *fw);

/**
 * Run one emulated cycle: drain cpu_rx, run due timers, write the heartbeat (see the top of this
 * file). Call once per cycle, after the ASIC stepped cycle @p now; @p now increases by 1 each
 * call (a skipped cycle is tolerated: timer expiries it held are counted in timer_missed).
 */
void fw_tick(struct fw *fw, uint64_t now);

/**
 * Register a timer: @p fn runs at every cycle c ≥ @p phase with (c − phase) mod @p period = 0,
 * at step 2 of fw_tick(c). Timers run in registration order. A timer added while the firmware
 * runs starts at its next expiry (it never fires for past cycles).
 *
 * @param name for diagnostics (not copied: a string literal).
 * @return the timer id (≥ 0), or -EINVAL (@p period 0 or @p fn NULL), -ENOSPC (FW_MAX_TIMERS).
 */
int fw_timer_add(struct fw *fw, const char *name, uint64_t period, uint64_t phase, fw_timer_fn *fn,
		 void *arg);

/** Counters of @p fw. */
/** The LIA / TPR / ACOR machine of @p fw (lia.h), or NULL when none runs. */
const struct lia *fw_lia(const struct fw *fw);

const struct fw_stats *fw_stats(const struct fw *fw);

/** Value of counter @p s of @p st (0 if @p s is out of range). */
uint64_t fw_stat_get(const struct fw_stats *st, enum fw_stat s);

/** Print every non-zero counter, one "name value" line each. */
void fw_dump(const struct fw *fw, FILE *f);

/**
 * PB: own saturation bits of global port @p q (bit v = VC v) from the last recomputation;
 * 0 if PB is disabled or @p q ≥ h.
 */
uint8_t fw_pb_own(const struct fw *fw, uint32_t q);

/**
 * Real-time follower: tick every cycle the ASIC has completed since the last call (regs->steps
 * > c), starting at *@p next. If the ASIC is more than @p max_catchup cycles ahead, the cycles
 * in between are skipped (added to *@p skipped) and the firmware resumes at the ASIC's last
 * cycle: its timers catch up once (fw_tick runs expiries that were missed only once).
 *
 * @return the number of ticks run.
 */
uint64_t fw_follow(struct fw *fw, uint64_t *next, uint64_t max_catchup, uint64_t *skipped);

#ifdef __cplusplus
}
#endif

#endif /* FW_H */
