/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Trace capture format v1: what `dfly sim --capture` and dfly-switch write to pcap files, and
 * what `dfly trace` and the Wireshark dissector (tools/wireshark/dfly.lua) read.
 *
 * Two kinds of file, both pcap with nanosecond timestamps (pcap_open_dead_with_tstamp_precision,
 * magic 0xa1b23c4d). In `dfly sim` the timestamp is emulated time: cycle × clock.cycle_ns; in
 * dfly-switch it is the wall clock.
 *
 *  - Frames (link type DLT_EN10MB = 1): the Ethernet frames as they cross the capture point:
 *    0x88B5 data frames (wire.h) and 0x88B6 control frames. In `dfly sim`, where packets are
 *    descriptors, the data frame is built from the descriptor with dfly_wire_data_encode() and a
 *    zero payload of size_phits × phit_bytes − 48 bytes (at least 0), then cut to the snap
 *    length.
 *
 *  - Metadata (link type DLT_USER0 = 147): every record is a 48-byte metadata header, all
 *    fields big-endian, followed by the frame (as above, cut to the snap length):
 *
 *       0 u32 magic DFLY_TRACE_MAGIC ("DFLT")
 *       4 u8  version (DFLY_TRACE_VERSION)
 *       5 u8  point (enum dfly_trace_point)
 *       6 u16 metadata header length (48 in v1; the frame starts there)
 *       8 u32 router
 *      12 u16 port
 *      14 u8  VC: the input VC (host/port rx, VC enqueue, drop) or the output VC (port tx)
 *      15 u8  port kind (0 terminal, 1 local, 2 global)
 *      16 u64 cycle (emulated)
 *      24 u16 decision: the enum dfly_route_ctr counter the hop's routing decision counted
 *             (e.g. src_nonmin_ugal, olm_local_src; at the hop out of the injection buffer,
 *             when no such counter applies, the inj_* counter: inj_min, inj_val,
 *             inj_global_misroute, inj_min_no_intermediate), DFLY_TRACE_NONE if none
 *      26 u16 trigger: the trigger counter of that decision (cc_trig_contention, cc_trig_credit,
 *             cc_trig_ectn, lia_level_*), DFLY_TRACE_NONE if none
 *      28 u16 drop reason (enum dfly_drop) for DFLY_TRACE_DROP, else DFLY_TRACE_NONE
 *      30 u8  flags (DFLY_TRACE_F_*)
 *      31 u8  LIA/TPR level of the destination group (enum dfly_lia_level), 0xff if none
 *      32 s32 Q_min: occupancy (phits) of the minimal first hop the decision compared, or −1
 *      36 s32 Q_val: the same for the Valiant candidate, or −1
 *      40 s32 T: UGAL's threshold in phits the decision used (UGAL, PB, LIA, TPR), or 0
 *      44 u16 cc: contention counter of the minimal output at the decision (contention modes),
 *             DFLY_TRACE_NONE if none
 *      46 u16 ECtN combined[destination group] at the decision, DFLY_TRACE_NONE if none
 *      48     frame
 *
 *    The decision fields are those of the route stage whose result the packet carries when it
 *    crosses the point: on port tx, the decision of this hop; on the other points the last one
 *    made (or none).
 */
#ifndef DFLY_TRACE_H
#define DFLY_TRACE_H

#include <stdint.h>

#define DFLY_TRACE_MAGIC    0x44464C54u /**< "DFLT" */
#define DFLY_TRACE_VERSION  1u
#define DFLY_TRACE_META_LEN 48u     /**< metadata header bytes in v1 */
#define DFLY_TRACE_DLT_META 147     /**< DLT_USER0 */
#define DFLY_TRACE_DLT_ETH  1       /**< DLT_EN10MB */
#define DFLY_TRACE_NONE     0xffffu /**< a u16 field that does not apply */

/** Capture points, X(ENUM, name, description). */
#define DFLY_FOREACH_TRACE_POINT(X)                                                                \
	X(HOST_RX, host_rx, "a packet from a node enters its router's injection buffer")           \
	X(HOST_TX, host_tx, "a packet leaves its router for its destination node (ejection)")      \
	X(PORT_RX, port_rx, "a packet's head arrives on a fabric input port")                      \
	X(PORT_TX, port_tx, "a packet is granted a fabric output port (leaves on the link)")       \
	X(VC_ENQ, vc_enq, "a packet is enqueued in an input VC (fabric or injection)")             \
	X(DROP, drop, "a packet or frame is dropped, with the reason")

#define DFLY__TP_ENUM(E, n, d) DFLY_TRACE_##E,
/** Capture points. */
enum dfly_trace_point { DFLY_FOREACH_TRACE_POINT(DFLY__TP_ENUM) DFLY_TRACE_POINT_COUNT };
#undef DFLY__TP_ENUM

/** Metadata flags. */
#define DFLY_TRACE_F_NONMIN  (1u << 0) /**< the packet is committed nonminimal */
#define DFLY_TRACE_F_VALIANT (1u << 1) /**< it has a Valiant router (S_ROOT) */
#define DFLY_TRACE_F_PHASE1  (1u << 2) /**< it has reached S_ROOT */
#define DFLY_TRACE_F_SAT     (1u << 3) /**< PB: the saturation bit of the minimal global channel */
#define DFLY_TRACE_F_L1      (1u << 4) /**< LIA: the switch keeps L1 */
#define DFLY_TRACE_F_L2      (1u << 5) /**< LIA: L2 kept for this destination group */

#endif /* DFLY_TRACE_H */
