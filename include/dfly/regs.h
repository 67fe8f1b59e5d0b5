/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The ASIC register file (layout: DFLY_REGS_VERSION): the only state the switch ASIC model
 * (asic-emu) and its firmware (control) share (DESIGN.md §3). A plain struct with a magic, a layout
 * version and a size, so it can live in process memory (dfly sim) or in a POSIX shared-memory
 * object mapped by dfly-controld.
 *
 * Ownership:
 *   - counters and gauges: one writer, the ASIC; anybody reads them.
 *   - knobs and tables: one writer, the firmware (or the configuration loader before start).
 *     Multi-word tables are double buffered, each table on its own generation number: the
 *     firmware fills the inactive bank of one table and publishes it by bumping that table's
 *     generation; the ASIC switches banks only at a step boundary and acknowledges the
 *     generation it uses, so it never reads a half-written table.
 *   - the CPU port: two single-producer/single-consumer rings of encoded 0x88B6 control frames,
 *     firmware → ASIC (sent on a named fabric port) and ASIC → firmware (received, with the
 *     port). Control frames are accepted only on fabric ports.
 *
 * Every counter family is declared once as an X-macro list X(ENUM, name, description): the enum,
 * the name strings, the telemetry keys and the CSV columns all come from the same list.
 */
#ifndef DFLY_REGS_H
#define DFLY_REGS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dfly/topo.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DFLY_REGS_MAGIC   0x59464c44u /**< "DLFY" little-endian */
#define DFLY_REGS_VERSION 25u         /**< bump on any layout change */

#define DFLY_MAX_VCS 8  /**< VCs per port */
#define DFLY_MAX_A   32 /**< routers per group */
#define DFLY_MAX_H   16 /**< global ports per router */

/* ---------------------------------------------------------------------------------------------
 * Counter families
 */

/** Per-port counters (index: port). */
#define DFLY_FOREACH_PORT_CTR(X)                                                                   \
	X(RX_PKTS, rx_pkts, "packets whose head arrived at an input VC of this port")              \
	X(RX_PHITS, rx_phits, "phits received on this port")                                       \
	X(TX_PKTS, tx_pkts, "packets transmitted on this port's link")                             \
	X(TX_PHITS, tx_phits, "phits transmitted on this port's link")                             \
	X(XBAR_IN_GRANTS, xbar_in_grants, "crossbar grants won by this input port")                \
	X(XBAR_OUT_GRANTS, xbar_out_grants, "crossbar grants given by this output port")           \
	X(LINK_BUSY_CYCLES, link_busy_cycles, "cycles this output link carried a phit")            \
	X(CREDITS_RX, credits_rx, "credit phits received from the downstream router")              \
	X(CREDITS_TX, credits_tx, "credit phits returned to the upstream router")                  \
	X(CTRL_TX, ctrl_tx, "control frames sent on this port (out of band)")                      \
	X(CTRL_RX, ctrl_rx, "control frames received on this port and handed to the firmware")     \
	X(PB_PIGGY_TX, pb_piggy_tx, "data packets that carried the PB vector (in-band mode)")      \
	X(PB_INFO_TX, pb_info_tx, "PB information flits sent on this idle link (in-band mode)")    \
	X(PB_RX, pb_rx, "PB vectors received on this port in band (piggybacked or info flit)")     \
	/* dataplane (dfly-switch): the port's Ethernet side, written by the lcore that owns it */ \
	X(WIRE_TX_FRAMES, wire_tx_frames, "Ethernet frames the device took (all kinds, resends)")  \
	X(WIRE_RX_FRAMES, wire_rx_frames, "Ethernet frames received from the device")              \
	X(WIRE_TX_BUSY, wire_tx_busy, "frames the device refused (kept and offered again)")        \
	X(WIRE_RX_LOST, wire_rx_lost,                                                              \
	  "frames discarded on purpose by link.loss_ppm (loss testing)")                           \
	X(WIRE_TX_BUNDLES, wire_tx_bundles,                                                        \
	  "BUNDLE frames sent: the firmware frames of one transmit, two or more, in one frame")    \
	X(WIRE_TX_BUNDLED, wire_tx_bundled, "firmware frames that left inside a BUNDLE")           \
	X(WIRE_RX_BUNDLES, wire_rx_bundles, "BUNDLE frames received (each record taken alone)")    \
	X(LINK_TIMED, link_timed,                                                                  \
	  "packets sent here whose arrival cycle the peer reported (the last one before each "     \
	  "ACK)")                                                                                  \
	X(LINK_LATE, link_late,                                                                    \
	  "of those, taken by the peer's router 3+ cycles after due: the link ran long")           \
	X(LINK_LATE_CYCLES, link_late_cycles, "cycles they were late, summed")                     \
	X(LINK_LATE_MAX, link_late_max, "the latest of them, cycles (a high-water mark)")          \
	X(LINK_EARLY, link_early,                                                                  \
	  "of those, taken 3+ cycles before due: the link ran short (peer lcore behind the "       \
	  "clock)")                                                                                \
	X(LINK_EARLY_CYCLES, link_early_cycles, "cycles they were early, summed")                  \
	X(LINK_EARLY_MAX, link_early_max, "the earliest of them, cycles (a high-water mark)")      \
	X(CREDIT_TIMED, credit_timed,                                                              \
	  "CREDIT frames from the peer with new credits and the cycle the newest was due")         \
	X(CREDIT_LATE, credit_late,                                                                \
	  "of those, taken here 3+ cycles after due: the credit line ran long")                    \
	X(CREDIT_LATE_CYCLES, credit_late_cycles, "cycles they were late, summed")                 \
	X(CREDIT_LATE_MAX, credit_late_max, "the latest of them, cycles (a high-water mark)")      \
	X(CREDIT_EARLY, credit_early,                                                              \
	  "of those, taken 3+ cycles before due: the credit line ran short (this lcore behind)")   \
	X(CREDIT_EARLY_CYCLES, credit_early_cycles, "cycles they were early, summed")              \
	X(CREDIT_EARLY_MAX, credit_early_max, "the earliest of them, cycles (a high-water mark)")  \
	X(LLR_RETX, llr_retx, "data frames sent again by link-level retry")                        \
	X(LLR_TIMEOUTS, llr_timeouts, "go-back-N restarts by the retry timer (no ack in time)")    \
	X(LLR_NAK_TX, llr_nak_tx, "NAKs sent: a gap in sequence numbers was seen")                 \
	X(LLR_NAK_RX, llr_nak_rx, "NAKs received: go-back-N restarts asked by the peer")           \
	X(LLR_DUP_RX, llr_dup_rx, "data frames received again (already accepted): discarded")      \
	X(LLR_GAP_RX, llr_gap_rx, "data frames after a gap: discarded, the peer resends them")     \
	X(ACK_TX, ack_tx, "link-level ACK frames sent")                                            \
	X(ACK_RX, ack_rx, "link-level ACK frames received")                                        \
	X(CREDIT_FRAMES_TX, credit_frames_tx, "CREDIT frames sent (batched, cumulative)")          \
	X(CREDIT_FRAMES_RX, credit_frames_rx, "CREDIT frames received")                            \
	X(HELLO_TX, hello_tx, "HELLO frames sent")                                                 \
	X(HELLO_RX, hello_rx, "HELLO frames received")                                             \
	X(HOST_RX, host_rx, "frames received from the host on this terminal port")                 \
	X(HOST_TX, host_tx, "frames delivered to the host on this terminal port")                  \
	X(ARP_REPLIES, arp_replies, "ARP requests from the host answered by the edge router")      \
	X(LINK_DOWNS, link_downs,                                                                  \
	  "times this fabric link was declared down: no frame from the peer for link.dead_us")     \
	X(LINK_UPS, link_ups, "times this fabric link came back up after being declared down")     \
	X(CTRL_DELAYED, ctrl_delayed,                                                              \
	  "control frames sent late on purpose by a link fault (dfly sim --ctrl-fault)")           \
	X(CRT_HELD, crt_held,                                                                      \
	  "CRT: credits of this local input held back for a global channel's round-trip delay")    \
	X(CRT_HELD_CYCLES, crt_held_cycles, "CRT: cycles those credits were held, summed")         \
	X(CRT_TD, crt_td,                                                                          \
	  "CRT: t_d of this global channel, the latest credit round trip less the zero-load one "  \
	  "(a gauge, cycles)")                                                                     \
	X(RES_REQ_TX, res_req_tx, "RES: reservation request flits sent on this local link")        \
	X(RES_REP_TX, res_rep_tx, "RES: reservation reply flits sent on this local link")          \
	X(RES_R, res_r,                                                                            \
	  "RES: R of this global channel, phits reserved and not yet sent on it (a gauge)")        \
	X(REPLY_WAIT, reply_wait,                                                                  \
	  "request-reply, traffic.reply = consume: cycles a request waited for room for its "      \
	  "reply in this node port's injection buffer (at the crossbar or at the port)")           \
	/* dataplane, lockstep (dfly-switch --lockstep): where the run stopped being exact */      \
	X(LOCKSTEP_LATE, lockstep_late,                                                            \
	  "lockstep: frames from the peer taken after the cycle they were due (the router had "    \
	  "stepped past it)")                                                                      \
	X(LOCKSTEP_BREACH, lockstep_breach,                                                        \
	  "lockstep: cycles stepped past this link's horizon (the peer silent longer than "        \
	  "--lockstep-wait)")

/** Per (port, VC) counters; the input side of the VC unless stated. */
#define DFLY_FOREACH_VC_CTR(X)                                                                     \
	X(ENQ_PKTS, enq_pkts, "packets that entered this input VC")                                \
	X(DEQ_PKTS, deq_pkts, "packets whose tail left this input VC")                             \
	X(HEAD_WAIT, head_wait, "allocation rounds a routed head waited without a grant")          \
	X(CREDIT_STALL, credit_stall,                                                              \
	  "allocation rounds a head waited for downstream credits of its chosen VC")               \
	X(OUT_VC_PKTS, out_vc_pkts, "packets sent on this port with this VC (output side)")

/** Per (port, VC) gauges: current values, not totals. */
#define DFLY_FOREACH_VC_GAUGE(X)                                                                   \
	X(OCC, occ, "phits stored or reserved in this input VC")                                   \
	X(OCC_HWM, occ_hwm, "high-water mark of occ")                                              \
	X(CREDITS, credits, "credits (phits) the output holds for the downstream input VC")        \
	X(DOWN_OCC, down_occ,                                                                      \
	  "phits of the downstream input VC this output has used (capacity - credits): the Q of "  \
	  "UGAL and PB")                                                                           \
	X(DOWN_OCC_MIN, down_occ_min,                                                              \
	  "routing.mincred: the part of down_occ that minimally routed packets hold, the Q of "    \
	  "UGAL and PB under minCred (spec 2.4)")

/** Named drop reasons (per router). The fabric itself never drops: every entry is an edge or a
 *  malformed-input drop. (Frames the link-level retry discards and has resent are not drops:
 *  see the llr_* port counters.) */
#define DFLY_FOREACH_DROP(X)                                                                       \
	X(INJ_FULL, inj_full, "generated packet found no injection VC with room")                  \
	X(BAD_DST, bad_dst, "destination node out of range")                                       \
	X(BAD_VC, bad_vc, "VC out of range for the port")                                          \
	X(BAD_PORT, bad_port, "packet arrived on a port that cannot carry it")                     \
	X(NO_ROOM, no_room, "packet arrived with no credit reserved (flow-control violation)")     \
	X(DECODE, decode,                                                                          \
	  "frame rejected by the wire decoder for its size, counts, reserved bits or format "      \
	  "(truncation, version, type and ranges are decode_* below)")                             \
	X(CTRL_HOST, ctrl_host, "control frame offered on a terminal (host) port")                 \
	X(CPU_RX_FULL, cpu_rx_full, "control frame received while the CPU rx ring was full")       \
	X(CPU_TX_BAD, cpu_tx_bad,                                                                  \
	  "CPU tx frame for a port that is not a fabric port, or too long")                        \
	X(CTRL_LINK_FULL, ctrl_link_full, "control frame found the link's control line full")      \
	X(HOST_SPOOF, host_spoof, "frame with EtherType 0x88B5/6/7 offered by a host")             \
	X(HOST_UNKNOWN_DST, host_unknown_dst,                                                      \
	  "host frame to a unicast MAC that is not in the host table, or to the sender itself")    \
	X(HOST_NON_UNICAST, host_non_unicast,                                                      \
	  "host broadcast/multicast frame other than an ARP request for a known address")          \
	X(HOST_BAD_FRAME, host_bad_frame,                                                          \
	  "host frame shorter than an Ethernet header, or larger than the largest packet")         \
	X(HOST_TX_FULL, host_tx_full, "decapsulated frame refused by the host port's device")      \
	X(FABRIC_OTHER, fabric_other,                                                              \
	  "frame on a fabric port that is not 0x88B5, 0x88B6 or 0x88B7")                           \
	X(LINK_DOWN, link_down, "frame received on a port held down (no HELLO yet, or miswired)")  \
	X(CTRL_UNSUPPORTED, ctrl_unsupported,                                                      \
	  "control frame of a kind this port does not accept (e.g. CREDIT on an in-process link)") \
	X(NOT_PEER, not_peer,                                                                      \
	  "CREDIT/ACK/PB/ECtN frame whose sender is not the router this port is wired to")         \
	X(NO_MBUF, no_mbuf,                                                                        \
	  "no packet buffer to build a frame (a data frame stays in the replay "                   \
	  "buffer and is sent again)")                                                             \
	X(DECODE_TRUNCATED, decode_truncated, "frame shorter than its headers and contents")       \
	X(DECODE_VERSION, decode_version, "header version is not DFLY_WIRE_VERSION")               \
	X(DECODE_TYPE, decode_type, "unknown packet or control message type")                      \
	X(DECODE_RANGE, decode_range,                                                              \
	  "node, router, VC, hop count, port or list index out of range of the network")           \
	X(CTRL_PORT_DOWN, ctrl_port_down,                                                          \
	  "control frame from the CPU port for a port whose link is down: not sent")               \
	X(LINK_DEAD, link_dead,                                                                    \
	  "packet that could only leave through a link down for router.link_dead_cycles or more "  \
	  "(no way around it): discarded at that output")                                          \
	X(CTRL_FAULT, ctrl_fault,                                                                  \
	  "control frame lost on purpose by a link fault (dfly sim --ctrl-fault)")

/**
 * Routing decisions (per router). Decision counters count once per packet at its decision point,
 * when the decision is committed (the packet is granted); the INJ_* family partitions the packets
 * that left this router's injection queues.
 */
#define DFLY_FOREACH_ROUTE_CTR(X)                                                                  \
	X(INJ_MIN, inj_min, "packets injected on their minimal path")                              \
	X(INJ_VAL, inj_val, "packets injected towards a Valiant intermediate router")              \
	X(INJ_MIN_NO_INTERMEDIATE, inj_min_no_intermediate,                                        \
	  "nonminimal routing wanted but no intermediate group exists (g < 3): minimal")           \
	X(INJ_GLOBAL_MISROUTE, inj_global_misroute,                                                \
	  "packets injected onto a global misroute of the current router (OLM, CRG)")              \
	X(SRC_MIN_INTRA, src_min_intra,                                                            \
	  "source-adaptive: destination in the source group, minimal (A-4.8)")                     \
	X(SRC_MIN_UGAL, src_min_ugal,                                                              \
	  "source-adaptive: minimal, UGAL inequality held (and PB bit clear)")                     \
	X(SRC_NONMIN_UGAL, src_nonmin_ugal, "source-adaptive: nonminimal, UGAL inequality failed") \
	X(SRC_NONMIN_SAT, src_nonmin_sat,                                                          \
	  "PB: nonminimal, saturation bit of the minimal global channel set")                      \
	X(NONMIN_NO_CANDIDATE, nonmin_no_candidate,                                                \
	  "nonminimal chosen but the candidate had no credits for the packet: minimal (spec 4.1)") \
	X(PAR_TRANSIT_NONMIN, par_transit_nonmin,                                                  \
	  "PAR: changed to nonminimal in transit in the source group (UGAL failed)")               \
	X(PAR_TRANSIT_MIN, par_transit_min,                                                        \
	  "PAR: re-evaluated in transit in the source group, stayed minimal")                      \
	X(OLM_LOCAL_SRC, olm_local_src,                                                            \
	  "in transit (OLM, contention): local misroute in the source group (NRG), global next")   \
	X(OLM_MANDATORY_GLOBAL, olm_mandatory_global,                                              \
	  "in transit (OLM, contention): global hop taken under the mandatory_global rule")        \
	X(OLM_LOCAL_INTER, olm_local_inter,                                                        \
	  "in transit (OLM, contention): local misroute in the intermediate group (+L)")           \
	X(OLM_LOCAL_DST, olm_local_dst,                                                            \
	  "in transit (OLM, contention): local misroute in the destination group (+L)")            \
	X(OLM_NO_CANDIDATE, olm_no_candidate,                                                      \
	  "in transit: misrouting allowed here, trigger not met or no valid candidate: minimal")   \
	X(CC_TRIG_CONTENTION, cc_trig_contention,                                                  \
	  "contention modes: misroutes decided by the contention trigger (cc or filtered)")        \
	X(CC_TRIG_CREDIT, cc_trig_credit, "Hybrid: misroutes decided by the credit trigger only")  \
	X(CC_TRIG_ECTN, cc_trig_ectn,                                                              \
	  "ECtN: global misroutes at injection decided by the combined array")                     \
	X(PATH_MIN, path_min, "packets to another group injected on their minimal path")           \
	X(PATH_G, path_g, "packets injected on a -G- Valiant path (global hop to S_ROOT)")         \
	X(PATH_GL, path_gl, "packets injected on a -GL Valiant path (global, local to S_ROOT)")    \
	X(PATH_LG, path_lg, "packets injected on an LG- Valiant path (local, global to S_ROOT)")   \
	X(PATH_LGL, path_lgl, "packets injected on an LGL Valiant path (local, global, local)")    \
	X(LIA_LEVEL_BENIGN, lia_level_benign,                                                      \
	  "LIA/TPR: source decisions with the destination group's level benign (T high)")          \
	X(LIA_LEVEL_MIX, lia_level_mix, "LIA/TPR: source decisions with the level mix")            \
	X(LIA_LEVEL_ADV, lia_level_adv, "LIA/TPR: source decisions with the level adversarial")    \
	X(VAL_REACHED, val_reached, "packets that reached their intermediate router here")         \
	X(HOP_LOCAL, hop_local, "packets granted to a local output")                               \
	X(HOP_GLOBAL, hop_global, "packets granted to a global output")                            \
	X(EJECT, eject, "packets granted to a terminal output")                                    \
	X(FW_EXPIRED, fw_expired,                                                                  \
	  "cycles stepped in safe mode: the firmware's heartbeat older than knobs.fw_ttl, its "    \
	  "tables (PB bits, ECtN copies, LIA levels, UGAL T) ignored")                             \
	X(FAIL_NONMIN, fail_nonmin,                                                                \
	  "failover: sent nonminimally at the source because its minimal global link is down")     \
	X(FAIL_REDRAW, fail_redraw,                                                                \
	  "failover: Valiant router drawn again because the first global link to it is down")      \
	X(FAIL_REROUTE, fail_reroute,                                                              \
	  "failover: in transit in the source group, moved to another global link of this "        \
	  "router because the one it was heading for is down")                                     \
	X(FAIL_WAIT, fail_wait,                                                                    \
	  "failover: granted to a down link with no way around it from here (past its first "      \
	  "global hop, or no usable global port): after the link returned, or discarded there "    \
	  "once it is dead (drop.link_dead)")                                                      \
	X(RES_MIN, res_min, "RES: minimal at the source, the reservation was granted")             \
	X(RES_VAL, res_val, "RES: Valiant at the source, the reservation was refused")             \
	X(RES_GRANT, res_grant,                                                                    \
	  "RES: reservations of this router's global channels granted (R <= 2 R_avg + T)")         \
	X(RES_DENY, res_deny, "RES: reservations of this router's global channels refused")        \
	X(RES_WAIT_CYCLES, res_wait_cycles,                                                        \
	  "RES: cycles packets of this router's injection buffers waited for their reply, summed")

#define DFLY__ENUM(E, n, d) DFLY_##E,
enum dfly_port_ctr { DFLY_FOREACH_PORT_CTR(DFLY__ENUM) DFLY_PORT_CTR_COUNT };
#undef DFLY__ENUM
#define DFLY__ENUM(E, n, d) DFLY_VC_##E,
enum dfly_vc_ctr { DFLY_FOREACH_VC_CTR(DFLY__ENUM) DFLY_VC_CTR_COUNT };
enum dfly_vc_gauge { DFLY_FOREACH_VC_GAUGE(DFLY__ENUM) DFLY_VC_GAUGE_COUNT };
#undef DFLY__ENUM
#define DFLY__ENUM(E, n, d) DFLY_DROP_##E,
enum dfly_drop { DFLY_FOREACH_DROP(DFLY__ENUM) DFLY_DROP_COUNT };

/** The drop reason of a frame a wire decoder rejected with @p err (-DFLY_WIRE_E_x or its
 *  negation): decode_truncated, decode_version, decode_type, decode_range, or decode. */
enum dfly_drop dfly_drop_of_wire_err(int err);
#undef DFLY__ENUM
#define DFLY__ENUM(E, n, d) DFLY_ROUTE_##E,
enum dfly_route_ctr { DFLY_FOREACH_ROUTE_CTR(DFLY__ENUM) DFLY_ROUTE_CTR_COUNT };
#undef DFLY__ENUM

/** Names (snake_case, used as CSV columns and telemetry keys) and descriptions. */
extern const char *const dfly_port_ctr_names[DFLY_PORT_CTR_COUNT];
extern const char *const dfly_vc_ctr_names[DFLY_VC_CTR_COUNT];
extern const char *const dfly_vc_gauge_names[DFLY_VC_GAUGE_COUNT];
extern const char *const dfly_drop_names[DFLY_DROP_COUNT];
extern const char *const dfly_route_ctr_names[DFLY_ROUTE_CTR_COUNT];
extern const char *const dfly_drop_descs[DFLY_DROP_COUNT];
extern const char *const dfly_route_ctr_descs[DFLY_ROUTE_CTR_COUNT];

/* ---------------------------------------------------------------------------------------------
 * Knobs and tables
 */

/* enum dfly_route_mode, the routing mode register's values, is generated by the mechanism
 * registry (dfly/mode.h, included below after the table list it refers to). */

/** Hop roles (spec §2.2), index of the role → VC map. */
enum dfly_role {
	DFLY_ROLE_S1 = 0, /**< first local hop in the source group */
	DFLY_ROLE_S2,     /**< second local hop in the source group */
	DFLY_ROLE_G1,     /**< first global hop */
	DFLY_ROLE_I1,     /**< first local hop in the intermediate group (towards S_ROOT) */
	DFLY_ROLE_I2,     /**< minimal local hop in the intermediate group towards the exit */
	DFLY_ROLE_G2,     /**< second global hop */
	DFLY_ROLE_D1,     /**< local misroute hop in the destination group */
	DFLY_ROLE_D2,     /**< final local hop in the destination group */
	DFLY_ROLE_COUNT
};

/** Injection VC selection at the node (spec §3.8). */
enum dfly_inj_select {
	DFLY_INJ_JSQ = 0,    /**< the VC with the most free space (default) */
	DFLY_INJ_RANDOM,     /**< uniform among VCs with room */
	DFLY_INJ_DEST,       /**< destination node mod VC count */
	DFLY_INJ_DEST_BLOCK, /**< destination node · VC count / nodes: contiguous blocks of
				  destinations per VC (FOGSim's DEST [xcheck]) */
};

/** Arbiter policy (spec §3.6). */
enum dfly_arb {
	DFLY_ARB_RR = 0, /**< round robin, pointer moves on grant (default) */
	DFLY_ARB_LRS,    /**< least recently served */
	DFLY_ARB_AGE,    /**< oldest packet (by generation cycle) first */
};

/** FlexVC VC selection among the allowed VCs of a hop (spec §2.4; thesis §5.3.6). */
enum dfly_flexvc_sel {
	DFLY_FLEXVC_OFF = 0, /**< FlexVC off: every hop uses its role's VC (spec §2.2) */
	DFLY_FLEXVC_JSQ,     /**< the allowed VC with the most credits (default when on) */
	DFLY_FLEXVC_HIGHEST, /**< the latest allowed position of the reference sequence */
	DFLY_FLEXVC_LOWEST,  /**< the earliest allowed position */
	DFLY_FLEXVC_RANDOM,  /**< uniform among the allowed VCs with credits */
};

/** FlexVC: which VCs a hop may use (vcs.flexvc_sets; spec §2.4). */
enum dfly_flexvc_sets {
	/** every place at or before the hop's own on the safe path, placed from the end of the
	 *  reference sequence (spec §2.4, thesis §5.2.1: "the maximum amount of VCs minus the
	 *  remaining hops") */
	DFLY_FLEXVC_SETS_PATH = 0,
	/** as "path", a local hop kept within the places of the group the packet is in (FOGSim
	 *  v5 flexVc.cc: localVcSource / localVcInter / localVcDest) */
	DFLY_FLEXVC_SETS_GROUP,
};

/** Knobs: scalar registers, written before start or by firmware; read every step. */
struct dfly_regs_knobs {
	uint32_t mode;          /**< enum dfly_route_mode (dfly/mode.h) */
	uint32_t val_variant;   /**< enum dfly_val_variant */
	uint32_t val_recompute; /**< redraw S_ROOT when the injection head is not granted */
	uint32_t val_exclude;   /**< enum dfly_val_exclude */
	uint8_t vc_map[DFLY_ROLE_COUNT]; /**< VC index used by each hop role */
	uint32_t in_transit_priority; /**< output arbiter prefers transit over injection inputs */
	/* UGAL-L (spec §4.5): route minimally iff Q_min·256 ≤ f_q8·Q_val + t·256 */
	uint32_t ugal_f_q8;     /**< F in 1/256 units (2.0 = 512) */
	int32_t ugal_t;         /**< T in phits (the config's packets × packet length) */
	uint32_t ugal_per_port; /**< compare whole-port occupancy instead of the hop's VC */
	/** Spec §4.1: a nonminimal candidate is valid only if its VC has credits for the packet */
	uint32_t nonmin_needs_credits;
	/** re-evaluate a source-adaptive decision every allocation round until granted
	 *  (same S_ROOT); 0 fixes it when the head first routes */
	uint32_t reevaluate;
	/* PB (spec §4.6) */
	uint32_t pb_per_vc;      /**< saturation bits per global VC (else one bit per port) */
	uint32_t pb_inband;      /**< IAR mode: piggyback the own vector on local data packets */
	uint32_t pb_piggy_every; /**< in-band: piggyback on one packet in N per local port */
	/* OLM (spec §4.10): considered while the minimal hop is blocked and occ%(min) ≥
	 * olm_min_pct; candidate valid iff occ%(c) ≤ olm_x_pct% · occ%(min) */
	uint32_t olm_x_pct;
	uint32_t olm_min_pct;
	/* Contention counters (spec §5): misroute iff cc[m] ≥ cc_th (> with cc_strict); a
	 * candidate is valid iff cc[c] < cc_th (≤ with cc_strict) and it has credits */
	uint32_t cc_th;       /**< Base / Filtered / ECtN local threshold th (packets) */
	uint32_t cc_strict;   /**< A-5.1: compare with '>' instead of '≥' */
	uint32_t cc_alpha_q8; /**< Filtered: α in 1/256 (est = α·est + (1−α)·cc per cycle) */
	uint32_t cc_weighted; /**< WEIGHTED trigger: misroute with probability (cc−th+1)/(th+1) */
	uint32_t hyb_th;      /**< Hybrid contention threshold th_h */
	uint32_t hyb_y_pct;   /**< Hybrid credit trigger: occ%(c) ≤ Y%·occ%(min) */
	uint32_t hyb_any;     /**< Hybrid, FOGSim flag: any candidate once the contention trigger
				   fired (else only candidates with cc[c] < th_h) */
	uint32_t ectn_thc;    /**< ECtN combined threshold thc */
	uint32_t ectn_own_live; /**< A-5.6: combined = live own partial + received (else the table
				     holds the firmware's whole sum, own snapshot included) */
	uint32_t cc_check;      /**< debug: recompute every counter each cycle and compare */
	/** FlexVC (spec §2.4), oblivious and source-adaptive modes: enum dfly_flexvc_sel, 0 = off
	 */
	uint32_t flexvc;
	/** a control frame from the CPU port occupies its output link like a packet: it
	 *  starts when the link is free, takes ⌈(frame bytes − Ethernet header) / phit bytes⌉
	 *  cycles (asic_params.phit_bytes), delays the data behind it and counts in
	 *  link_busy_cycles; it arrives at start + those cycles + link latency. 0 (default, the
	 *  papers): out of band, free, arriving after the link latency. */
	uint32_t ctrl_charge;
	/** router.firmware_ttl: cycles without a firmware tick after which the ASIC ignores the
	 *  firmware's tables (safe mode: routing on local information only); 0 = never */
	uint32_t fw_ttl;
	/** routing.failover: route around global links that are down (own ports from
	 *  regs.ports_down, the group's from DFLY_TBL_FAIL); 0 = packets wait for the link */
	uint32_t failover;
	/** VC of the final local hop of a packet that took two global hops; 0 = vc_map[D2]. MIN
	 *  under failover: 3 (its minimal packets keep D2 = 1, a skip of the VAL sequence) */
	uint32_t vc_d2_long;
	/** router.link_dead_cycles: a link down this long is dead: what can only leave through it
	 *  is discarded (drop.link_dead) instead of waiting; 0 = wait for ever */
	uint32_t link_dead;
	/** routing.ugal.remove_rtt: Q_min and Q_val of UGAL-L (and of PB's, PAR's, UGAL-G's, LIA's
	 *  UGAL comparison) leave out the link's credit round trip: the phits committed in the
	 *  output FIFO, plus max(0, the rest − 2 × link latency) (IAR's BookSim: remove_credit_rtt,
	 *  route_src.c ugal_q()); 0 (default, spec §3.3): capacity − credits */
	uint32_t ugal_remove_rtt;
	/** OLM and Hybrid's credit trigger, FOGSim's CGA restriction: misrouting off a minimal
	 *  global hop needs that link saturated among this router's global links, 100·h·Q >
	 *  olm_sat_f_pct·ΣQ + 100·h·olm_sat_t (Q of the hop's VC); 0 = no restriction */
	uint32_t olm_sat;
	uint32_t olm_sat_f_pct; /**< F in percent (FOGSim: 150) */
	int32_t olm_sat_t;      /**< T in phits (the config's packets × packet length) */
	/** routing.cc.candidate (Base, Filtered, Hybrid's contention trigger, ECtN's pick at the
	 *  source router): 1 "now" (default), a candidate must take the packet in this allocation
	 *  round: crossbar output free, room in its output FIFO, downstream credits (port_feasible,
	 *  the test OLM uses; FOGSim's validMisroutePort [xcheck]); 0 "credits": downstream credits
	 *  only, a chosen candidate may then hold the head until it frees */
	uint32_t cc_cand_now;
	/** routing.cc.head: 1 "tail" (default), a packet behind the one crossing from the same
	 *  input VC counts on cc and the ECtN partial array once that one's tail has left the
	 *  buffer: its header is at the buffer head only then (CBAR §III-B; FOGSim counts a VC that
	 *  is not sending); 0 "grant": as soon as the one ahead is granted */
	uint32_t cc_head_at_tail;
	/** routing.candidate_draw (OLM and the contention modes): 1 "one", one port of the decision
	 *  point's misrouting range (all its global, or all its local ports, the minimal one
	 *  included) is drawn uniformly and only it may be taken (FOGSim's
	 *  olm::nominateCandidates [xcheck]); 0 "all" (default), uniform among the valid
	 *  candidates (CBAR §IV-A; spec §4.10, §5.3) */
	uint32_t cand_draw_one;
	/** traffic.reqrep (spec §2.4, §7.5): the VC classes. 0: one class. Else the request
	 *  class has the first reply_vc[kind] VCs of each link kind (local, global: index
	 *  DFLY_PORT_LOCAL, DFLY_PORT_GLOBAL), the reply class the rest; a reply's role VC is
	 *  vc_map[role] + reply_vc[kind] and under FlexVC it may also take any request VC of the
	 *  kind (the concatenated sequence of thesis Theorem 2) */
	uint32_t reply_vc[3];
	/** routing.res.t (spec §4.9, IAR §3.4): a reservation of global channel GC is granted iff
	 *  R_GC ≤ 2·R̄ + res_t, R̄ the average R of the requesting router's global channels; phits
	 *  (the config's packets × packet length) */
	int32_t res_t;
	/** routing.mincred (spec §2.4, thesis §5.2.4): each output also counts the downstream
	 *  phits of minimally routed packets (credits carry a minimal flag), and the misrouting
	 *  decision (UGAL-L's Q, PB's saturation bits) reads that count instead of the total */
	uint32_t mincred;
	/** traffic.reply = "consume" (request-reply): a request crosses the crossbar to its node
	 *  port only while the node's reply injection VCs (the last half) have room for its reply
	 *  and those of the requests granted before it, and is ejected only when its reply fits;
	 *  requests take the first half (FOGSim: ioqSwitchModule::checkConsumePort,
	 *  generatorModule::checkConsume, injPetVcs/injResVcs); 0 "queue" (default):
	 *  ejected at once, the reply waiting in the node's unbounded reply queue */
	uint32_t reply_consume;
	/** vcs.flexvc_sets: enum dfly_flexvc_sets (the oblivious and source-adaptive modes) */
	uint32_t flexvc_sets;
	/** routing.ugal.commitment: Q_min and Q_val of UGAL-L (and of PB's, PAR's, CRT's, LIA's,
	 *  TPR's, PB-ACOR's UGAL comparison) also count the packets at this router's input heads
	 *  already routed to that output (to the hop's VC, or to any with ugal_per_port) and not
	 *  yet granted (route_src.c ugal_commit()): IAR's own simulator's routing commitment
	 *  (BookSim, track_routing_commitment, IQRouter::GetUsedCredit / GetCredit, set with
	 *  remove_credit_rtt in every dragonfly config of its SRP_IAR branch); 0 (default) */
	uint32_t ugal_commitment;
	/** routing.ugal.weight = "hops": the UGAL comparison of every mode that decides at the
	 *  source (and PAR's) weighs each queue by its path's router hops, Q_min*H_min <=
	 *  Q_val*H_val + T (FOGSim v5 routing/ugal.cc and routing/pb.cc misrouteCondition(),
	 *  generatorModule's minPathLength / valPathLength), in place of Q_min <= F*Q_val + T
	 *  (IAR eq. 2, thesis eq. 1.2; 0, the default); 2 = "fogsim": the same with H_min and
	 *  H_val as FOGSim v5 generatorModule::determinePaths() counts them, by the consecutive
	 *  arrangement's formula whatever the arrangement (route_src.c fogsim_paths()) */
	uint32_t ugal_hops;
	/** vcs.assign = "next" (FOGSim v5 vcMngmt::nextChannel): a hop takes the first place of
	 *  its port's kind after the place of the VC the packet is in, on the mode's reference
	 *  path vc_seq (vc_seq_n places, each kind << 4 | VC, in path order); a packet fresh from
	 *  its node starts before the first place. 0 (default, spec §2.2): its role's place
	 *  (vc_map) */
	uint32_t vc_next;
	uint32_t vc_seq_n;
	uint8_t vc_seq[DFLY_ROLE_COUNT];
};

/**
 * Double-buffered tables, X(ENUM, name, description), each with its own generation: enum
 * dfly_tbl (DFLY_TBL_<ENUM>), struct dfly_regs_tables (member <name> of type struct
 * dfly_tbl_<name>, in this order: the layout), dfly_tbl_offset(), dfly_tbl_size() and
 * dfly_tbl_name() all come from this list. The order is an ABI (tbl_gen[], tbl_seen[], the
 * register file in shared memory): append only, and bump DFLY_REGS_VERSION.
 */
#define DFLY_FOREACH_TBL(X)                                                                        \
	X(PB, pb, "PiggyBack: the group's saturation bits (PB, PB-ACOR)")                          \
	X(UGAL, ugal, "UGAL threshold T per destination group (LIA, TPR)")                         \
	X(ECTN, ectn, "ECtN: the combined array per destination group")                            \
	X(LIA, lia, "LIA: L1/L2 flags and traffic levels; PB-ACOR: the Path-A level")              \
	X(FAIL, fail, "failover: the group's down global links and the network's down pairs")

#define DFLY__ENUM(E, n, d) DFLY_TBL_##E,
enum dfly_tbl { DFLY_FOREACH_TBL(DFLY__ENUM) DFLY_TBL_COUNT };
#undef DFLY__ENUM

/** Bit of table @p E in a mask of tables (the registry's "tables a mode reads"). */
#define DFLY_TBL_BIT(E) (1u << DFLY_TBL_##E)

/* The mechanism registry: enum dfly_route_mode (knobs.mode) and its families. It refers to the
 * hop roles and the tables above. */
#include "dfly/mode.h"

/** PiggyBack: group saturation bits [ρ][q] (bit v = global port q of router ρ of this group,
 *  VC v, saturated). Written by the PB firmware. */
struct dfly_tbl_pb {
	uint8_t sat[DFLY_MAX_A][DFLY_MAX_H];
};

/** UGAL / LIA / TPR: threshold T in phits per destination group. */
struct dfly_tbl_ugal {
	int32_t t[DFLY_MAX_GROUPS];
};

/** ECtN (spec §5.6): per destination group, the sum of the partial arrays last received from
 *  the other routers of the group (knobs.ectn_own_live: the ASIC adds its own live partial), or
 *  the whole combined array with the own snapshot (ectn_own_live = 0). Written by firmware. */
struct dfly_tbl_ectn {
	uint16_t combined[DFLY_MAX_GROUPS];
};

/** LIA traffic levels of a destination group (spec §6.8). */
enum dfly_lia_level {
	DFLY_LIA_BENIGN = 0, /**< G ≤ LI_l */
	DFLY_LIA_MIX,        /**< LI_l < G ≤ LI_h */
	DFLY_LIA_ADV,        /**< G > LI_h */
};

/** LIA (spec §6.5–§6.8) and PB-ACOR (§4.12): the Path-A shape the ASIC draws S_ROOT with and the
 *  traffic level per destination group (the T of each group is in struct dfly_tbl_ugal).
 *  Written by firmware. */
struct dfly_tbl_lia {
	uint8_t use_l1;                 /**< LIA: keep the first local hop (LG-, LGL) */
	uint8_t acor_level;             /**< PB-ACOR: 0 -G-, 1 -GL, 2 LGL */
	uint8_t l2[DFLY_MAX_GROUPS];    /**< LIA: keep the second local hop, per dst group */
	uint8_t level[DFLY_MAX_GROUPS]; /**< enum dfly_lia_level per dst group */
};

/** Failover (routing.failover): the global links that are down, as the firmware knows them
 *  (its own from regs.ports_down, the others from LINK_STATE frames). Bit q of down[ρ] = global
 *  port q of router ρ of this group is down. The ASIC uses its own ports'
 *  hardware bits (regs.ports_down) for its own entry, whatever the table says. */
#define DFLY_FAIL_MAX_PAIRS 64u /**< down group pairs the failover table holds */

struct dfly_tbl_fail {
	uint16_t down[DFLY_MAX_A];
	/** the network's down global links as group pairs (a < b), from LINK_STATE relays: a
	 *  Valiant router in group I is not drawn for destination group D if (I, D) is here */
	uint32_t npairs;
	uint16_t pair[DFLY_FAIL_MAX_PAIRS][2];
};

/** One bank of every table, in DFLY_FOREACH_TBL order. */
struct dfly_regs_tables {
#define DFLY__TBL_FIELD(E, n, d) struct dfly_tbl_##n n; /**< DFLY_TBL_##E */
	DFLY_FOREACH_TBL(DFLY__TBL_FIELD)
#undef DFLY__TBL_FIELD
};

/** Counters the ASIC keeps for mechanisms to come (one writer: the ASIC). */
struct dfly_regs_mech_ctrs {
	uint16_t cc[DFLY_MAX_PORTS];             /**< contention counter per output port (§5.2) */
	uint32_t cc_est_q8[DFLY_MAX_PORTS];      /**< Filtered estimate per output, 1/256 units */
	uint16_t ectn_partial[DFLY_MAX_GROUPS];  /**< ECtN partial array per remote group */
	uint16_t ectn_combined[DFLY_MAX_GROUPS]; /**< ECtN combined array as the ASIC uses it */
	/** LIA/TPR (spec §6.2): packets towards each remote group whose tail left an injection
	 *  buffer, a running total (wraps; the firmware windows it) */
	uint32_t lia_injected[DFLY_MAX_GROUPS];
	/** LIA (spec §6.2): packets towards each remote group in the injection buffers now (from
	 *  asic_inject() until the tail leaves) */
	uint32_t lia_stored[DFLY_MAX_GROUPS];
	/* PB in-band (IAR) reception: latest vector per local input port and how many arrived.
	 * The ASIC stores the vector, then bumps the count; a reader that sees a new count then
	 * reads a vector at least as new. */
	_Atomic uint32_t pb_rx_vec[DFLY_MAX_PORTS];
	_Atomic uint64_t pb_rx_count[DFLY_MAX_PORTS];
};

/**
 * The arrays of struct dfly_regs_mech_ctrs that readers show as gauges (`dfly stats`),
 * X(ENUM, scope, name, field, per, description): field is the member of struct
 * dfly_regs_mech_ctrs, per PORT (shown as port<P>.<name>) or GROUP (<scope>.<name>.g<D>, scope
 * the mechanism that owns it). A mechanism's new ASIC array is a line here.
 */
#define DFLY_FOREACH_MECH_ARRAY(X)                                                                 \
	X(CC, "cc", cc, cc, PORT, "contention counter per output port (spec 5.2)")                 \
	X(CC_EST, "cc", cc_est_q8, cc_est_q8, PORT, "Filtered estimate per output, 1/256 units")   \
	X(ECTN_PARTIAL, "ectn", partial, ectn_partial, GROUP, "ECtN partial array (spec 5.6)")     \
	X(ECTN_COMBINED, "ectn", combined, ectn_combined, GROUP, "ECtN combined array")            \
	X(LIA_INJECTED, "lia", injected, lia_injected, GROUP,                                      \
	  "LIA packets injected per group, a running total (spec 6.2)")                            \
	X(LIA_STORED, "lia", stored, lia_stored, GROUP, "LIA packets in the injection buffers")

/* ---------------------------------------------------------------------------------------------
 * CPU port
 */

#define DFLY_CPU_RING_SLOTS 64u  /**< frames per ring (power of two) */
#define DFLY_CPU_FRAME_MAX  544u /**< bytes: the largest control frame (ECTN_PARTIAL, g = 1024) */

/** One control frame on the CPU port. */
struct dfly_cpu_slot {
	uint16_t port; /**< ASIC port it leaves on (tx) or arrived on (rx) */
	uint16_t len;  /**< frame bytes */
	uint32_t reserved;
	uint64_t cycle; /**< emulated cycle it was queued (tx) or received (rx) */
	uint8_t frame[DFLY_CPU_FRAME_MAX]; /**< the Ethernet frame, EtherType 0x88B6 */
};

/** A single-producer/single-consumer ring: the producer moves tail, the consumer head. */
struct dfly_cpu_ring {
	_Atomic uint32_t head;
	_Atomic uint32_t tail;
	uint64_t full; /**< producer: frames refused because the ring was full */
	struct dfly_cpu_slot slot[DFLY_CPU_RING_SLOTS];
};

/** Producer: queue a frame. @return 0 or -ENOBUFS (ring full, counted) / -EMSGSIZE. */
int dfly_cpu_ring_put(struct dfly_cpu_ring *r, uint16_t port, uint64_t cycle, const void *frame,
		      uint16_t len);
/** Consumer: the oldest frame, or NULL if empty. Release it with dfly_cpu_ring_pop(). */
const struct dfly_cpu_slot *dfly_cpu_ring_peek(struct dfly_cpu_ring *r);
void dfly_cpu_ring_pop(struct dfly_cpu_ring *r);

/** Firmware-written registers that are not knobs (read by the ASIC every packet). */
struct dfly_regs_fw {
	_Atomic uint32_t pb_own_vec; /**< PB in-band: own saturation vector, bit q·vg + v */
	_Atomic uint64_t heartbeat;  /**< 1 + the cycle of the firmware's last tick (0: never) */
};

/** State of a fabric port realised by a device (dfly-switch); in-process links stay UNUSED. */
enum dfly_link_state {
	DFLY_LINK_UNUSED = 0, /**< no device: an in-process link, a terminal port, or dfly sim */
	DFLY_LINK_WAIT_HELLO, /**< device up, no valid HELLO from the peer yet: kept down */
	DFLY_LINK_UP,         /**< HELLO verified: the peer is the one the topology expects */
	DFLY_LINK_MISWIRED,   /**< HELLO names another router/port or network: kept down */
};

/** "unused", "wait_hello", "up", "miswired" (or "unknown"). */
const char *dfly_link_state_name(unsigned st);

/** The register file of one ASIC. */
struct dfly_regs {
	uint32_t magic;                  /**< DFLY_REGS_MAGIC */
	uint32_t version;                /**< DFLY_REGS_VERSION */
	uint32_t size;                   /**< sizeof(struct dfly_regs) */
	uint32_t router;                 /**< global router id this file belongs to */
	uint32_t nports;                 /**< ports in use (the radix) */
	uint32_t nvcs[DFLY_MAX_PORTS];   /**< VCs in use per input port */
	uint32_t vc_cap[DFLY_MAX_PORTS]; /**< phits per VC of the downstream input (fabric ports) */
	uint32_t ngroups; /**< groups of the network: entries of the per-group mech arrays */

	/* ASIC-written */
	uint64_t cycle;         /**< emulated cycle last stepped */
	_Atomic uint64_t steps; /**< asic_step() calls completed: the firmware may tick < steps */
	uint64_t port_ctr[DFLY_MAX_PORTS][DFLY_PORT_CTR_COUNT];
	uint64_t vc_ctr[DFLY_MAX_PORTS][DFLY_MAX_VCS][DFLY_VC_CTR_COUNT];
	int64_t vc_gauge[DFLY_MAX_PORTS][DFLY_MAX_VCS][DFLY_VC_GAUGE_COUNT];
	uint64_t drop[DFLY_DROP_COUNT];
	uint64_t route[DFLY_ROUTE_CTR_COUNT];
	struct dfly_regs_mech_ctrs mech;
	_Atomic uint64_t tbl_seen[DFLY_TBL_COUNT]; /**< generation of each table the ASIC uses */
	struct dfly_cpu_ring cpu_rx;        /**< ASIC → firmware: control frames received */
	uint8_t link_state[DFLY_MAX_PORTS]; /**< enum dfly_link_state, per port (dataplane) */
	uint32_t link_peer[DFLY_MAX_PORTS]; /**< router·256 + port the last HELLO named */
	/** bit p: the link of fabric port p is down (asic_port_set_down(): dfly sim's link faults,
	 *  dfly-switch's HELLO liveness). A down port sends nothing; failover routes around it */
	_Atomic uint64_t ports_down;

	/* firmware-written */
	struct dfly_regs_knobs knobs;
	struct dfly_regs_fw fw;
	_Atomic uint64_t tbl_gen[DFLY_TBL_COUNT]; /**< published generation; bank = gen & 1 */
	struct dfly_regs_tables tables[2];        /**< double buffer */
	struct dfly_cpu_ring cpu_tx;              /**< firmware → ASIC: control frames to send */

	/* lockstep doorbells (dfly sim ↔ dfly-controld): dfly_regs_sleep(), dfly_regs_wake() */
	_Atomic uint32_t lockstep;       /**< 1: the driver wakes steps sleepers every cycle */
	_Atomic uint32_t steps_sleepers; /**< firmware processes asleep on steps */
	_Atomic uint32_t hb_sleepers;    /**< drivers asleep on fw.heartbeat */
};

/*
 * Lockstep across processes without spinning: a side that waits for the other's counter
 * (steps, fw.heartbeat) sleeps on it, a futex on its low 32 bits, after counting itself in a
 * sleepers word; the writer stores the counter, then wakes only if that word is non-zero. The
 * sleeper's read-modify-write and the writer's fence order the two (a store of the counter
 * either is seen before the sleep, or sees the sleeper). A sleeping side leaves its core to the
 * other, so a loaded machine costs a wake-up per handoff, not a scheduler slice.
 */
/** Sleep until *@p ctr ≥ @p want or @p timeout_ns passed (or a spurious wake: re-check). */
void dfly_regs_sleep(const _Atomic uint64_t *ctr, uint64_t want, _Atomic uint32_t *sleepers,
		     long timeout_ns);
/** After storing *@p ctr: wake whoever sleeps on it. */
void dfly_regs_wake(const _Atomic uint64_t *ctr, const _Atomic uint32_t *sleepers);

/** Initialise a register file in place: magic, version, size, zeroed counters, gen 0. */
void dfly_regs_init(struct dfly_regs *regs, uint32_t router, uint32_t nports);

/** @return 0 if @p regs has the right magic, version and size; -EPROTO otherwise. */
int dfly_regs_check(const struct dfly_regs *regs);

/** Offset (inside struct dfly_regs_tables) of table @p t; 0 if @p t is not a table (callers
 *  check @p t < DFLY_TBL_COUNT first: dfly_regs_tbl_begin() does). */
static inline size_t dfly_tbl_offset(enum dfly_tbl t)
{
	switch (t) {
#define DFLY__TBL_OFF(E, n, d)                                                                     \
	case DFLY_TBL_##E:                                                                         \
		return offsetof(struct dfly_regs_tables, n);
		DFLY_FOREACH_TBL(DFLY__TBL_OFF)
#undef DFLY__TBL_OFF
	case DFLY_TBL_COUNT:
		break;
	}
	return 0;
}

/** Size of table @p t; 0 if @p t is not a table. */
static inline size_t dfly_tbl_size(enum dfly_tbl t)
{
	switch (t) {
#define DFLY__TBL_SIZE(E, n, d)                                                                    \
	case DFLY_TBL_##E:                                                                         \
		return sizeof(struct dfly_tbl_##n);
		DFLY_FOREACH_TBL(DFLY__TBL_SIZE)
#undef DFLY__TBL_SIZE
	case DFLY_TBL_COUNT:
		break;
	}
	return 0;
}

/** Name of table @p t ("pb", "ugal", "ectn", "lia", "fail"), or "?" if @p t is not a table. */
static inline const char *dfly_tbl_name(enum dfly_tbl t)
{
	switch (t) {
#define DFLY__TBL_NAME(E, n, d)                                                                    \
	case DFLY_TBL_##E:                                                                         \
		return #n;
		DFLY_FOREACH_TBL(DFLY__TBL_NAME)
#undef DFLY__TBL_NAME
	case DFLY_TBL_COUNT:
		break;
	}
	return "?";
}

/**
 * Firmware side: the inactive bank of table @p t, filled with a copy of the live bank (so a
 * writer changes only what it means to), or NULL (errno EBUSY) while the ASIC has not yet
 * switched to the last published generation of that table, or NULL (errno EINVAL) if @p t is
 * not a table.
 */
void *dfly_regs_tbl_begin(struct dfly_regs *regs, enum dfly_tbl t);

/** Firmware side: publish the bank of table @p t returned by dfly_regs_tbl_begin(). */
void dfly_regs_tbl_publish(struct dfly_regs *regs, enum dfly_tbl t);

/** Generation of table @p t the firmware last published. */
static inline uint64_t dfly_regs_tbl_gen(const struct dfly_regs *regs, enum dfly_tbl t)
{
	return atomic_load_explicit(&regs->tbl_gen[t], memory_order_acquire);
}

/** ASIC side, at a step boundary: the current bank of table @p t, acknowledging it. */
static inline const void *dfly_regs_tbl_acquire(struct dfly_regs *regs, enum dfly_tbl t)
{
	uint64_t gen = atomic_load_explicit(&regs->tbl_gen[t], memory_order_acquire);

	atomic_store_explicit(&regs->tbl_seen[t], gen, memory_order_release);
	return (const char *)&regs->tables[gen & 1] + dfly_tbl_offset(t);
}

/** Print every non-zero counter of @p regs, one "name value" line each. */
void dfly_regs_dump(const struct dfly_regs *regs, FILE *f);

#ifdef __cplusplus
}
#endif

#endif /* DFLY_REGS_H */
