/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Wire format v2: the byte layout of the Ethernet frames that cross a fabric link between two
 * emulated routers (DESIGN.md §5), and the codec that turns them into host-order views and back.
 * The ASIC model (asic-emu), the DPDK dataplane, the generators and the capture tools all go
 * through this module; nothing else reads or writes a Dragonfly header byte. Decoding is the
 * trust boundary: every decoder checks lengths, versions, types, reserved bits and every id
 * against the topology sizes before it hands out a value, and never reads outside the buffer.
 *
 * Frames (all multi-byte fields big-endian, offsets from the first byte after the EtherType;
 * that byte is frame offset 14, or 18 behind one 802.1Q tag):
 *
 *   Ethernet: dst MAC [0,6) | src MAC [6,12) | EtherType [12,14)
 *             (or 0x8100 [12,14) | TCI [14,16) | EtherType [16,18))
 *
 *   DATA, EtherType 0x88B5: 48-byte data header, then payload_len bytes of payload.
 *      0 u8  version (2)              1 u8  type (enum dfly_wire_pkt)
 *      2 u8  flags (DFLY_WIRE_F_*)     3 u8  global hops taken (0..2)
 *      4 u8  local hops in this group (0..3)
 *      5 u8  VC                       6 u16 size in phits (1..max_phits)
 *      8 u32 src node                12 u32 dst node
 *     16 u32 Valiant router (S_ROOT) or 0xffffffff
 *     20 u32 link-level retry sequence number
 *     24 u64 generation cycle
 *     32 u32 piggybacked PB vector (0 unless DFLY_WIRE_F_PB)
 *     36 u32 tag (opaque, end to end)  40 u16 payload length
 *     42 u8  local hops, whole path   43 u8  reserved (0)
 *     44 u32 injection delay: cycles from generation to leaving the injection queue
 *            (saturating; the sink's network latency is measured from gen + delay)
 *     48     payload
 *   The header is long enough that a data frame never needs Ethernet padding (14 + 48 ≥ 60), so
 *   the frame length must be exactly header + payload_len.
 *
 *   CONTROL, EtherType 0x88B6: 8-byte control header, then a body of body_len bytes.
 *      0 u8  version (2)   1 u8 type (enum dfly_wire_ctrl_type)   2 u16 body_len
 *      4 u32 src_router (the router that sent the frame)
 *   Bodies (offsets from the start of the body):
 *     CREDIT        0 u8 n (1..DFLY_WIRE_CREDIT_MAX)   1 u8 reserved   2 u16 reserved
 *                   4 u64 due: the cycle the newest credit return counted in the entries was
 *                   due at the receiver, or 0xffffffffffffffff (none new since the sender's
 *                   previous CREDIT frame; a refresh). The receiver, which knows when it took
 *                   them, measures how far real time bent the credit line (credit timing).
 *                   12+4i: u8 vc | u8 flags (bit 0: min_flag, bit 1: absolute) | u16 phits
 *                   (≥ 1; with the absolute flag, a running total mod 2^16, may be 0)
 *                   body_len = 12 + 4n
 *     PB_STATE      0 u8 h (= topology h)   1 u8 vg (global VCs, 1..vcs)   2 u16 reserved
 *                   4 ⌈h·vg/8⌉ bytes: saturation bit q·vg + v in byte (q·vg + v)/8, bit
 *                   (q·vg + v) mod 8 (LSB first); padding bits 0.   body_len = 4 + ⌈h·vg/8⌉
 *     ECTN_PARTIAL  0 u8 epoch   1 u8 format (enum dfly_wire_ectn_fmt)   2 u16 n (= a·h/t, the
 *                   remote groups; 2h²/t when balanced). Counter k is for group k + (k ≥ G), G
 *                   the sender's group (see dfly_wire_ectn_group()); every counter is 0..15.
 *                   format 0, FULL: 4 ⌈n/2⌉ bytes: counter k in byte k/2, low nibble for even
 *                   k, high nibble for odd k; unused last nibble 0.   body_len = 4 + ⌈n/2⌉
 *                   format 1, SPARSE, and 2, DELTA: 4 u16 m (entries, ≤ n and ≤
 *                   DFLY_WIRE_ECTN_LIST_MAX)   6+2i: u16 entry i = index << 4 | value, indices
 *                   < n and strictly increasing.   body_len = 6 + 2m
 *                   SPARSE: the counters not listed are 0 (the whole array, zeros left out).
 *                   DELTA: the counters not listed have not changed since the sender's previous
 *                   array, whose epoch is this one − 1 (mod 256); m may be 0.
 *     HELLO         0 u16 sender port   2 u8 arrangement   3 u8 σ (0x01 or 0xff)
 *                   4 u16 p   6 u16 a   8 u16 h   10 u16 t   12 u32 config hash (0 = none)
 *                   body_len = 16
 *     ACK           0 u32 ack: next sequence number expected (all before it received)
 *                   4 u8 flags (bit 0: NAK, resend from ack)   5 u8[3] reserved
 *                   8 u64 taken: the receiver's emulated cycle when it took frame ack − 1
 *                   into its router, or 0xffffffffffffffff (none taken yet). The sender,
 *                   which knows the cycle that frame was due, measures how far real time
 *                   bent the emulated link (dfly-switch's link_timing counters).
 *                   body_len = 16
 *     LINK_STATE    0 u8 h (= topology h)   1 u8 n (entries, ≤ DFLY_WIRE_FAIL_MAX)
 *                   2 u16 down: bit q set = global port q of the sender is down (bits ≥ h 0)
 *                   4+4i: u32 entry i: bits 0-10 group a, 11-21 group b (a < b < groups),
 *                   22-25 ttl (1..15: hops it may still be relayed), 26-31 reserved (0): the
 *                   global link(s) between groups a and b are down.   body_len = 4 + 4n
 *     SYNC          0 u64 next: the sender's next cycle to step; everything its routers put on
 *                   this link in the cycles before it has been sent before this frame
 *                   8 u64 due: the cycle the sender's next frame on this link (data, flit or
 *                   firmware frame) is due at the receiver's input, or 0xffffffffffffffff
 *                   (none: a bare horizon). Sent only in lockstep (run.lockstep).
 *                   body_len = 16
 *   Control frames are short, so a NIC may pad them to the Ethernet minimum: bytes after the body
 *   are accepted as padding only while the frame is no longer than the minimum (46 bytes after
 *   the EtherType); any longer tail is an error. Encoders never pad and never tag.
 *
 *   BUNDLE, EtherType 0x88B7: several control frames of one sender in one Ethernet frame, a
 *   container of the link layer only (the routers and the firmware see each frame in it as if it
 *   had come alone, in order; nothing of the emulated model counts bundles).
 *      0 u8  version (2)   1 u8 reserved (0)   2 u16 n: records (1..)
 *      4     n records back to back, each a control frame's bytes after its EtherType (control
 *            header and body, as above); the records fill the frame up to Ethernet padding
 *            (the padding rule of control frames). At most DFLY_WIRE_BUNDLE_MAX bytes after the
 *            EtherType (one standard MTU). dfly-switch sends the firmware frames one transmit
 *            of a port produces as one BUNDLE when there are two or more (link.bundle).
 *
 * Errors: decoders and encoders return -DFLY_WIRE_E_x (the list below), not -errno, so a drop
 * can be counted by its precise reason (DFLY_DROP_DECODE and the per-reason names).
 */
#ifndef DFLY_WIRE_H
#define DFLY_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dfly/regs.h"
#include "dfly/topo.h"

#ifdef __cplusplus
extern "C" {
#endif

/** version of both headers; bump on any layout change (2: ACK `taken`, CREDIT `due`) */
#define DFLY_WIRE_VERSION          2u
#define DFLY_WIRE_ETHERTYPE_DATA   0x88B5u /**< data frames */
#define DFLY_WIRE_ETHERTYPE_CTRL   0x88B6u /**< link-level control frames */
#define DFLY_WIRE_ETHERTYPE_BUNDLE 0x88B7u /**< several control frames in one (link layer) */
#define DFLY_WIRE_ETHERTYPE_VLAN   0x8100u /**< one 802.1Q tag is looked through on receive */

#define DFLY_WIRE_ETH_LEN        14u   /**< untagged Ethernet header */
#define DFLY_WIRE_VLAN_LEN       4u    /**< one 802.1Q tag */
#define DFLY_WIRE_ETH_MIN_BODY   46u   /**< minimum bytes after the EtherType (60-byte frame) */
#define DFLY_WIRE_DATA_HDR_LEN   48u   /**< data header, after the EtherType */
#define DFLY_WIRE_CTRL_HDR_LEN   8u    /**< control header, after the EtherType */
#define DFLY_WIRE_BUNDLE_HDR_LEN 4u    /**< BUNDLE header, after the EtherType */
#define DFLY_WIRE_BUNDLE_MAX     1500u /**< bytes of a BUNDLE after its EtherType (one MTU) */

#define DFLY_WIRE_NO_ROUTER       UINT32_MAX /**< via_router value: no Valiant target */
#define DFLY_WIRE_MAX_GLOBAL_HOPS 2u         /**< global hops a packet can take (Valiant: 2) */
#define DFLY_WIRE_MAX_LOCAL_HOPS  3u  /**< local hops in one group (2-bit field of spec §3.2) */
#define DFLY_WIRE_CREDIT_MAX      32u /**< credit entries in one CREDIT frame */
#define DFLY_WIRE_ECTN_MAX        (DFLY_MAX_GROUPS - 1) /**< ECtN counters: one per remote group */
#define DFLY_WIRE_ECTN_SAT        15u                   /**< ECtN counters saturate at 4 bits */
#define DFLY_WIRE_FAIL_MAX        64u /**< LINK_STATE entries (down group pairs) in one frame */
#define DFLY_WIRE_FAIL_TTL_MAX    15u /**< LINK_STATE entry ttl field (4 bits) */
/** Entries in one ECtN list body (SPARSE, DELTA): the largest list frame, 14 + 8 + 6 + 2·258 =
 *  544 bytes, fits DFLY_CPU_FRAME_MAX like the largest FULL one. A sender with more entries
 *  sends the FULL array instead. */
#define DFLY_WIRE_ECTN_LIST_MAX 258u

/** Data header flags. */
#define DFLY_WIRE_F_NONMIN              (1u << 0) /**< a nonminimal decision is committed */
#define DFLY_WIRE_F_PHASE               (1u << 1) /**< 0: towards S_ROOT, 1: towards destination */
#define DFLY_WIRE_F_MANDATORY_GLOBAL    (1u << 2) /**< next router must take a global link (OLM) */
#define DFLY_WIRE_F_LOCAL_MISROUTE_DONE (1u << 3) /**< the group's one local misroute is used */
#define DFLY_WIRE_F_REPLY               (1u << 4) /**< class: 0 request, 1 reply */
#define DFLY_WIRE_F_PB                  (1u << 5) /**< pb_vec carries the in-band PB vector */
#define DFLY_WIRE_F_NOINTER             (1u << 6) /**< nonminimal wanted, no intermediate group */
#define DFLY_WIRE_F_RES_MIN             (1u << 7) /**< RES: its minimal global channel reserved */
#define DFLY_WIRE_F_ALL                 0xffu     /**< every defined flag */

#define DFLY_WIRE_CREDIT_F_MIN (1u << 0) /**< credit entry: phits of minimally routed packets */
/** credit entry: phits is the running total of phits freed in that VC since the link came up,
 *  mod 2^16 (may be 0), not an increment; a lost or repeated frame is repaired by the next one */
#define DFLY_WIRE_CREDIT_F_ABS (1u << 1)
#define DFLY_WIRE_CREDIT_F_ALL 0x03u     /**< every defined credit flag */
#define DFLY_WIRE_ACK_F_NAK    (1u << 0) /**< ACK: a gap was seen, resend from ack */

/** Codec errors, X(ENUM, name, description). Returned negated: -DFLY_WIRE_E_TRUNCATED. */
#define DFLY_FOREACH_WIRE_ERR(X)                                                                   \
	X(TRUNCATED, truncated, "frame shorter than its headers and declared contents")            \
	X(BAD_ETHERTYPE, bad_ethertype, "EtherType is not the one this decoder handles")           \
	X(BAD_VERSION, bad_version, "header version is not DFLY_WIRE_VERSION")                     \
	X(BAD_TYPE, bad_type, "unknown packet or control message type")                            \
	X(BAD_NODE, bad_node, "source or destination node out of range")                           \
	X(BAD_ROUTER, bad_router, "router or group id out of range")                               \
	X(BAD_VC, bad_vc, "VC or VC count out of range")                                           \
	X(BAD_SIZE, bad_size,                                                                      \
	  "size in phits zero or too large, or payload length not matching the frame")             \
	X(BAD_HOPS, bad_hops, "global or local hop count out of range")                            \
	X(BAD_COUNT, bad_count,                                                                    \
	  "entry count out of range, not matching the topology or the frame length")               \
	X(BAD_PORT, bad_port, "port out of range or not a fabric port")                            \
	X(RESERVED, reserved, "a reserved field or flag bit is not zero")                          \
	X(NOSPC, nospc, "output buffer too small for the frame")                                   \
	X(BAD_TOPO, bad_topo, "HELLO fingerprint differs from the local topology")                 \
	X(MISWIRED, miswired, "HELLO sender is not the peer the topology expects on this port")    \
	X(BAD_FORMAT, bad_format, "unknown body format (ECTN_PARTIAL format byte)")                \
	X(BAD_INDEX, bad_index, "list entry index out of range (ECTN_PARTIAL: index >= n)")        \
	X(UNSORTED, unsorted,                                                                      \
	  "list entry indices not strictly increasing (a duplicate or an unsorted entry)")

/** Data packet types, X(ENUM, name, description); wire values start at 1. */
#define DFLY_FOREACH_WIRE_PKT(X)                                                                   \
	X(SYNTH, synth, "generator packet: opaque payload, possibly empty")                        \
	X(HOST, host, "encapsulated host Ethernet frame (payload ≥ 14 bytes)")                     \
	X(INFO, info, "IAR in-band PB information flit: 1 phit, no payload")                       \
	X(RES_REQ, res_req,                                                                        \
	  "RES reservation request flit: 1 phit, a 12-byte body (struct dfly_wire_res)")           \
	X(RES_REP, res_rep, "RES reservation reply flit: 1 phit, a 12-byte body")

/** Control message types, X(ENUM, name, description); wire values start at 1. */
#define DFLY_FOREACH_WIRE_CTRL(X)                                                                  \
	X(CREDIT, credit, "batched credit returns {vc, phits, min_flag}")                          \
	X(PB_STATE, pb_state, "PiggyBack saturation bits of the sender's global VCs")              \
	X(ECTN_PARTIAL, ectn_partial, "ECtN partial contention array")                             \
	X(HELLO, hello, "sender router, port and topology fingerprint")                            \
	X(ACK, ack, "link-level retry: cumulative acknowledgement")                                \
	X(LINK_STATE, link_state, "failover: which of the sender's global links are down")         \
	X(SYNC, sync, "lockstep: the sender's next cycle to step, the next frame's due cycle")

#define DFLY__ENUM(E, n, d) DFLY_WIRE_E_##E,
enum dfly_wire_err { DFLY_WIRE_OK = 0, DFLY_FOREACH_WIRE_ERR(DFLY__ENUM) DFLY_WIRE_E_COUNT };
#undef DFLY__ENUM
#define DFLY__ENUM(E, n, d) DFLY_WIRE_PKT_##E,
enum dfly_wire_pkt {
	DFLY_WIRE_PKT_NONE = 0,
	DFLY_FOREACH_WIRE_PKT(DFLY__ENUM) DFLY_WIRE_PKT_COUNT
};
#undef DFLY__ENUM
#define DFLY__ENUM(E, n, d) DFLY_WIRE_CTRL_##E,
enum dfly_wire_ctrl_type {
	DFLY_WIRE_CTRL_NONE = 0,
	DFLY_FOREACH_WIRE_CTRL(DFLY__ENUM) DFLY_WIRE_CTRL_COUNT
};
#undef DFLY__ENUM

/** ECTN_PARTIAL body formats (byte 1 of the body; was reserved, 0, before the list formats). */
enum dfly_wire_ectn_fmt {
	DFLY_WIRE_ECTN_FULL = 0,   /**< every counter, 4 bits each */
	DFLY_WIRE_ECTN_SPARSE = 1, /**< {index, value} list; counters not listed are 0 */
	DFLY_WIRE_ECTN_DELTA = 2,  /**< {index, value} list; counters not listed are unchanged */
	DFLY_WIRE_ECTN_FMT_COUNT
};

/** What a frame is, from its EtherType. */
enum dfly_wire_class {
	DFLY_WIRE_CLASS_OTHER = 0,  /**< not a fabric frame (or shorter than an Ethernet header) */
	DFLY_WIRE_CLASS_DATA = 1,   /**< EtherType 0x88B5 */
	DFLY_WIRE_CLASS_CTRL = 2,   /**< EtherType 0x88B6 */
	DFLY_WIRE_CLASS_BUNDLE = 3, /**< EtherType 0x88B7 */
};

/**
 * Topology sizes a decoder checks ids against. Fill with dfly_wire_limits_init() or by hand.
 * A zero size rejects every id of that kind.
 */
struct dfly_wire_limits {
	uint32_t nodes;     /**< node ids are < nodes */
	uint32_t routers;   /**< router ids are < routers */
	uint32_t p;         /**< terminals per router */
	uint32_t a;         /**< routers per group */
	uint32_t h;         /**< global ports per router */
	uint32_t t;         /**< trunking; ECtN frames carry a·h/t counters */
	uint32_t vcs;       /**< VC ids are < vcs (the largest VC count of any port) */
	uint32_t max_phits; /**< largest packet size in phits */
};

/** Source and destination MAC addresses written by the encoders. */
struct dfly_wire_eth {
	uint8_t dst[6]; /**< destination MAC */
	uint8_t src[6]; /**< source MAC */
};

/** Host-order view of a data header. */
struct dfly_wire_data {
	uint8_t type;         /**< enum dfly_wire_pkt */
	uint8_t flags;        /**< DFLY_WIRE_F_* */
	uint8_t global_hops;  /**< global hops taken, 0..DFLY_WIRE_MAX_GLOBAL_HOPS */
	uint8_t local_hops;   /**< local hops in the current group, 0..DFLY_WIRE_MAX_LOCAL_HOPS */
	uint8_t vc;           /**< VC of the current hop */
	uint16_t size_phits;  /**< emulated packet size in phits, ≥ 1 */
	uint32_t src_node;    /**< source node id */
	uint32_t dst_node;    /**< destination node id */
	uint32_t via_router;  /**< Valiant intermediate router S_ROOT, or DFLY_WIRE_NO_ROUTER */
	uint32_t seq;         /**< link-level retry sequence number (wraps) */
	uint64_t gen_cycle;   /**< emulated cycle the packet was generated */
	uint32_t pb_vec;      /**< in-band PB vector (IAR mode); 0 unless DFLY_WIRE_F_PB */
	uint32_t tag;         /**< opaque sender id of the packet, carried end to end */
	uint16_t payload_len; /**< payload bytes after the header */
	uint8_t path_lhops;   /**< local hops taken on the whole path (statistics) */
	uint32_t inj_delay;   /**< cycles from generation to leaving the injection queue */
	uint16_t payload_off; /**< decode: payload offset in the frame; ignored by encode */
};

/** Bytes of a RES flit's body (the payload of a RES_REQ or RES_REP data frame). */
#define DFLY_WIRE_RES_LEN 12u

/**
 * The body of a RES flit (spec §4.9), big-endian on the wire: cookie (4 bytes), rbar (4), len
 * (2), gc (1), grant (1). A request carries cookie, rbar, len and gc, grant 0; the reply echoes
 * them with grant 0 or 1.
 */
struct dfly_wire_res {
	uint32_t cookie; /**< the requesting router's handle of the waiting packet, echoed */
	uint32_t rbar;   /**< R̄: the requesting router's average reservation count (phits) */
	uint16_t len;    /**< phits to reserve */
	uint8_t gc;      /**< global port index (0..h−1) of the channel at the owner */
	uint8_t grant;   /**< reply: 1 granted, 0 refused; request: 0 */
};

/** One credit return. */
struct dfly_wire_credit {
	uint8_t vc;     /**< downstream input VC the phits left */
	uint8_t flags;  /**< DFLY_WIRE_CREDIT_F_MIN | DFLY_WIRE_CREDIT_F_ABS */
	uint16_t phits; /**< phits freed, ≥ 1; with F_ABS the running total mod 2^16 */
};

/** CREDIT body. */
struct dfly_wire_credits {
	uint8_t n;    /**< entries, 1..DFLY_WIRE_CREDIT_MAX */
	uint64_t due; /**< cycle the newest credit counted was due, or DFLY_WIRE_CREDIT_NO_DUE */
	struct dfly_wire_credit e[DFLY_WIRE_CREDIT_MAX]; /**< entries [0, n) */
};

/** PB_STATE body: the sender's saturation bits, laid out like dfly_tbl_pb.sat. */
struct dfly_wire_pb_state {
	uint8_t h;               /**< global ports of the sender */
	uint8_t vg;              /**< VCs per global port, 1..DFLY_MAX_VCS */
	uint8_t sat[DFLY_MAX_H]; /**< [q]: bit v set = global port q, VC v saturated; q < h */
};

/**
 * ECTN_PARTIAL body. FULL carries ctr[0, n). The list formats carry the counters k whose bit is
 * set in listed[] (dfly_wire_ectn_add(), dfly_wire_ectn_has()), with their value in ctr[k]: the
 * encoder writes them in increasing k and ignores ctr[] elsewhere; the decoder sets ctr[k] = 0
 * and the bit clear for every counter not listed (so a SPARSE body reads like a FULL one).
 */
struct dfly_wire_ectn {
	uint8_t epoch;                   /**< broadcast epoch (cycle / period, mod 256) */
	uint8_t format;                  /**< enum dfly_wire_ectn_fmt */
	uint16_t n;                      /**< counters: a·h/t */
	uint8_t ctr[DFLY_WIRE_ECTN_MAX]; /**< [k] for group dfly_wire_ectn_group(G, k); 0..15 */
	/** list formats: bit k set = counter k is an entry (FULL: ignored by the encoder, all
	 *  clear after decoding) */
	uint64_t listed[(DFLY_WIRE_ECTN_MAX + 63) / 64];
};

/** HELLO body: who sends on this link and in which network. */
struct dfly_wire_hello {
	uint16_t port;     /**< the sender's port on this link */
	uint8_t arr;       /**< enum dfly_arrangement */
	int8_t sigma;      /**< palmtree orientation, +1 or −1 */
	uint16_t p;        /**< terminals per router */
	uint16_t a;        /**< routers per group */
	uint16_t h;        /**< global ports per router */
	uint16_t t;        /**< trunking */
	uint32_t cfg_hash; /**< hash of the rest of the network configuration; 0 = not compared */
};

/** ACK body. */
struct dfly_wire_ack {
	uint32_t ack;   /**< next sequence number expected; every earlier one was received */
	uint8_t flags;  /**< DFLY_WIRE_ACK_F_NAK */
	uint64_t taken; /**< cycle the receiver took frame ack − 1, or DFLY_WIRE_ACK_NONE */
};

/** Lockstep (run.lockstep): the sender's horizon, and the due cycle of the frame after it. */
struct dfly_wire_sync {
	uint64_t
	    next; /**< the sender's next cycle to step (what the ones before produced is sent) */
	uint64_t due; /**< the next frame's due cycle at the receiver, or DFLY_WIRE_SYNC_NONE */
};

#define DFLY_WIRE_SYNC_NONE     UINT64_MAX /**< SYNC due: no frame follows, a bare horizon */
#define DFLY_WIRE_ACK_NONE      UINT64_MAX /**< ACK taken: no frame taken since the link started */
#define DFLY_WIRE_CREDIT_NO_DUE UINT64_MAX /**< CREDIT due: nothing new, a refresh */

/** One LINK_STATE entry: the global link(s) between groups a < b are down. */
struct dfly_wire_fail_pair {
	uint16_t a;  /**< lower group */
	uint16_t b;  /**< higher group */
	uint8_t ttl; /**< relay hops left, 1..DFLY_WIRE_FAIL_TTL_MAX */
};

/** LINK_STATE body (failover): the sender's own down global ports, and the down links of the
 *  network it knows (its own included), each with the hops it may still travel. */
struct dfly_wire_link_state {
	uint8_t h;                                        /**< global ports of the sender */
	uint8_t n;                                        /**< entries, 0..DFLY_WIRE_FAIL_MAX */
	uint16_t down;                                    /**< bit q: global port q down; q < h */
	struct dfly_wire_fail_pair e[DFLY_WIRE_FAIL_MAX]; /**< entries [0, n) */
};

/** Host-order view of a control frame. */
struct dfly_wire_ctrl {
	uint8_t type;        /**< enum dfly_wire_ctrl_type: selects the union member */
	uint32_t src_router; /**< router that sent the frame */
	union {
		struct dfly_wire_credits credit; /**< DFLY_WIRE_CTRL_CREDIT */
		struct dfly_wire_pb_state pb;    /**< DFLY_WIRE_CTRL_PB_STATE */
		struct dfly_wire_ectn ectn;      /**< DFLY_WIRE_CTRL_ECTN_PARTIAL */
		struct dfly_wire_hello hello;    /**< DFLY_WIRE_CTRL_HELLO */
		struct dfly_wire_ack ack;        /**< DFLY_WIRE_CTRL_ACK */
		struct dfly_wire_link_state ls;  /**< DFLY_WIRE_CTRL_LINK_STATE */
		struct dfly_wire_sync sync;      /**< DFLY_WIRE_CTRL_SYNC */
	};
};

/** Name of an error ("truncated"); @p err may be negated. "ok" for 0, "unknown" if unknown. */
const char *dfly_wire_err_name(int err);

/** Description of an error, as in the X-macro list; @p err may be negated. */
const char *dfly_wire_err_desc(int err);

/** Name of a data packet type ("synth"), or "unknown". */
const char *dfly_wire_pkt_name(unsigned type);

/** Name of a control message type ("credit"), or "unknown". */
const char *dfly_wire_ctrl_name(unsigned type);

/** Fill @p lim from a topology, the largest VC count of any port and the largest packet. */
void dfly_wire_limits_init(struct dfly_wire_limits *lim, const struct dfly_topo *topo, uint32_t vcs,
			   uint32_t max_phits);

/**
 * Classify a frame by its EtherType at offset 12, looking through one 802.1Q tag (0x8100, then
 * the EtherType at offset 16). Only the EtherType is read: a DATA or CTRL frame still has to
 * pass its decoder. Stacked tags (QinQ) are OTHER.
 *
 * @return DFLY_WIRE_CLASS_DATA, DFLY_WIRE_CLASS_CTRL, DFLY_WIRE_CLASS_BUNDLE, or
 *   DFLY_WIRE_CLASS_OTHER (also when @p len is too short to hold the EtherType).
 */
enum dfly_wire_class dfly_wire_classify(const void *buf, size_t len);

/**
 * Encode a data frame: Ethernet header (untagged), data header, payload.
 *
 * @param eth MAC addresses; NULL writes zeros.
 * @param payload d->payload_len bytes to copy after the header; NULL leaves that area of @p buf
 *   untouched (the payload is already in place, e.g. a header rewritten while forwarding). It may
 *   overlap @p buf.
 * @return the frame length (DFLY_WIRE_ETH_LEN + DFLY_WIRE_DATA_HDR_LEN + d->payload_len), or
 *   -DFLY_WIRE_E_NOSPC (@p size too small), -DFLY_WIRE_E_BAD_TYPE, -DFLY_WIRE_E_RESERVED
 *   (undefined flag, or pb_vec ≠ 0 without DFLY_WIRE_F_PB), -DFLY_WIRE_E_BAD_HOPS,
 *   -DFLY_WIRE_E_BAD_SIZE (size_phits 0, or the type's size rule). Ids are not checked against a
 *   topology here; the receiver does that.
 */
int dfly_wire_data_encode(void *buf, size_t size, const struct dfly_wire_eth *eth,
			  const struct dfly_wire_data *d, const void *payload);

/**
 * Decode and validate a data frame (untagged or with one 802.1Q tag). On success @p d holds the
 * header and d->payload_off the offset of the payload in @p buf; on error @p d is unspecified.
 *
 * @return 0, or -DFLY_WIRE_E_TRUNCATED, -DFLY_WIRE_E_BAD_ETHERTYPE (not 0x88B5),
 *   -DFLY_WIRE_E_BAD_VERSION, -DFLY_WIRE_E_BAD_TYPE, -DFLY_WIRE_E_RESERVED,
 *   -DFLY_WIRE_E_BAD_HOPS, -DFLY_WIRE_E_BAD_VC (vc ≥ lim->vcs), -DFLY_WIRE_E_BAD_SIZE
 *   (size_phits 0 or > lim->max_phits, type size rule, bytes after the payload),
 *   -DFLY_WIRE_E_BAD_NODE (src or dst ≥ lim->nodes), -DFLY_WIRE_E_BAD_ROUTER (via_router ≥
 *   lim->routers and not DFLY_WIRE_NO_ROUTER).
 */
int dfly_wire_data_decode(const void *buf, size_t len, const struct dfly_wire_limits *lim,
			  struct dfly_wire_data *d);

/** Write the body of a RES flit into @p b (DFLY_WIRE_RES_LEN bytes). */
void dfly_wire_res_put(void *b, const struct dfly_wire_res *r);

/**
 * Read the body of a RES flit of data type @p type (DFLY_WIRE_PKT_RES_REQ or _REP) from @p b
 * (DFLY_WIRE_RES_LEN bytes, e.g. the payload of a decoded frame).
 * @return 0, -DFLY_WIRE_E_BAD_TYPE (not a RES type), -DFLY_WIRE_E_RESERVED (a request with grant
 *   ≠ 0, a reply with grant > 1), -DFLY_WIRE_E_BAD_PORT (gc ≥ lim->h), -DFLY_WIRE_E_BAD_SIZE
 *   (len 0 or > lim->max_phits).
 */
int dfly_wire_res_get(const void *b, uint8_t type, const struct dfly_wire_limits *lim,
		      struct dfly_wire_res *r);

/**
 * Encode a control frame: Ethernet header (untagged), control header, the body of m->type.
 * ECtN counters above 15 are written as 15 (saturation).
 *
 * @param eth MAC addresses; NULL writes zeros.
 * @return the frame length, or -DFLY_WIRE_E_NOSPC, -DFLY_WIRE_E_BAD_TYPE,
 *   -DFLY_WIRE_E_BAD_COUNT (credit n 0 or > DFLY_WIRE_CREDIT_MAX, PB h 0 or > DFLY_MAX_H, ECtN
 *   n 0 or > DFLY_WIRE_ECTN_MAX, more than DFLY_WIRE_ECTN_LIST_MAX list entries),
 *   -DFLY_WIRE_E_BAD_VC (PB vg 0 or > DFLY_MAX_VCS), -DFLY_WIRE_E_BAD_SIZE (credit phits 0),
 *   -DFLY_WIRE_E_RESERVED (undefined flag bits, PB sat bits ≥ vg), -DFLY_WIRE_E_BAD_FORMAT
 *   (ECtN format ≥ DFLY_WIRE_ECTN_FMT_COUNT), -DFLY_WIRE_E_BAD_INDEX (ECtN list entry ≥ n).
 */
int dfly_wire_ctrl_encode(void *buf, size_t size, const struct dfly_wire_eth *eth,
			  const struct dfly_wire_ctrl *m);

/**
 * Decode and validate a control frame (untagged or with one 802.1Q tag). On error @p m is
 * unspecified; on success only the union member of m->type is meaningful (ECtN: ctr[0, n),
 * PB: sat[0, h), credits: e[0, n)).
 *
 * @return 0, or -DFLY_WIRE_E_TRUNCATED, -DFLY_WIRE_E_BAD_ETHERTYPE (not 0x88B6),
 *   -DFLY_WIRE_E_BAD_VERSION, -DFLY_WIRE_E_BAD_TYPE, -DFLY_WIRE_E_BAD_ROUTER (src_router ≥
 *   lim->routers), -DFLY_WIRE_E_BAD_COUNT (body_len not the one the type and its counts imply,
 *   credit n out of range, PB h ≠ lim->h, ECtN n ≠ lim->a·lim->h/lim->t, ECtN list entry
 *   count m > n or > DFLY_WIRE_ECTN_LIST_MAX or body_len ≠ 6 + 2m — a truncated or overlong
 *   list —, a tail longer than Ethernet padding), -DFLY_WIRE_E_BAD_VC (credit vc ≥ lim->vcs, PB
 *   vg 0 or > lim->vcs), -DFLY_WIRE_E_BAD_SIZE (credit phits 0), -DFLY_WIRE_E_BAD_PORT (HELLO
 *   port < p, a terminal port, or ≥ the radix), -DFLY_WIRE_E_RESERVED,
 *   -DFLY_WIRE_E_BAD_FORMAT (ECtN format byte not an enum dfly_wire_ectn_fmt),
 *   -DFLY_WIRE_E_BAD_INDEX (ECtN list entry index ≥ n), -DFLY_WIRE_E_UNSORTED (ECtN list
 *   entry index ≤ the previous one).
 */
int dfly_wire_ctrl_decode(const void *buf, size_t len, const struct dfly_wire_limits *lim,
			  struct dfly_wire_ctrl *m);

/**
 * Fill @p m with the HELLO that @p router sends on @p port of @p topo.
 */
void dfly_wire_hello_fill(struct dfly_wire_ctrl *m, const struct dfly_topo *topo, uint32_t router,
			  uint32_t port, uint32_t cfg_hash);

/**
 * Check a decoded HELLO received by @p router on @p port: the sender must run the same topology
 * (and configuration, when both hashes are non-zero) and be the peer the topology puts at the
 * other end of that port.
 *
 * @return 0, or -DFLY_WIRE_E_BAD_TYPE (@p m is not a HELLO), -DFLY_WIRE_E_BAD_PORT (@p port is
 *   a terminal port or out of range, or @p router out of range), -DFLY_WIRE_E_BAD_TOPO,
 *   -DFLY_WIRE_E_MISWIRED.
 */
int dfly_wire_hello_check(const struct dfly_wire_ctrl *m, const struct dfly_topo *topo,
			  uint32_t router, uint32_t port, uint32_t cfg_hash);

/**
 * Start a BUNDLE in @p buf: Ethernet header (untagged) and a BUNDLE header with no record.
 *
 * @param eth MAC addresses; NULL writes zeros.
 * @return the frame's length so far (DFLY_WIRE_ETH_LEN + DFLY_WIRE_BUNDLE_HDR_LEN), or
 *   -DFLY_WIRE_E_NOSPC.
 */
int dfly_wire_bundle_start(void *buf, size_t size, const struct dfly_wire_eth *eth);

/**
 * Append the control frame @p ctrl (an untagged frame of @p ctrl_len bytes, as
 * dfly_wire_ctrl_encode() writes it; its Ethernet header is left out) to the BUNDLE of @p len
 * bytes in @p buf. Only the lengths are checked here; the receiver decodes each record.
 *
 * @return the BUNDLE's new length, or -DFLY_WIRE_E_NOSPC (beyond @p size or
 *   DFLY_WIRE_BUNDLE_MAX: send this one and start another), -DFLY_WIRE_E_BAD_ETHERTYPE (@p ctrl
 *   is not an untagged control frame, or @p buf not a BUNDLE), -DFLY_WIRE_E_TRUNCATED or
 *   -DFLY_WIRE_E_BAD_COUNT (@p ctrl_len is not the frame's header and body_len), or
 *   -DFLY_WIRE_E_BAD_COUNT (65,535 records already).
 */
int dfly_wire_bundle_add(void *buf, size_t size, size_t len, const void *ctrl, size_t ctrl_len);

/** Reading a BUNDLE, record by record (dfly_wire_bundle_open(), dfly_wire_bundle_next()). */
struct dfly_wire_bundle_iter {
	const uint8_t *rec; /**< the next record, in the frame */
	size_t left;        /**< bytes of records from rec */
	uint16_t n;         /**< records in the BUNDLE */
	uint16_t i;         /**< records handed out */
	uint8_t mac[12];    /**< the BUNDLE's destination and source MACs */
};

/**
 * Check the framing of a BUNDLE (untagged or with one 802.1Q tag): version, reserved byte, n ≥ 1,
 * and records that fill the frame exactly up to Ethernet padding, each with a control header of
 * version 2 whose body fits. The records' contents are the control decoder's to check.
 *
 * @return n, or -DFLY_WIRE_E_TRUNCATED, -DFLY_WIRE_E_BAD_ETHERTYPE (not 0x88B7),
 *   -DFLY_WIRE_E_BAD_VERSION (the BUNDLE's or a record's), -DFLY_WIRE_E_RESERVED,
 *   -DFLY_WIRE_E_BAD_COUNT (n 0, records short of n or bytes beyond them that are not padding,
 *   more than DFLY_WIRE_BUNDLE_MAX bytes).
 */
int dfly_wire_bundle_open(const void *buf, size_t len, struct dfly_wire_bundle_iter *it);

/**
 * Write the next record of an opened BUNDLE to @p out as a control frame of its own (untagged,
 * with the BUNDLE's MACs), ready for dfly_wire_ctrl_decode().
 *
 * @return its length, 0 when every record has been handed out, or -DFLY_WIRE_E_NOSPC.
 */
int dfly_wire_bundle_next(struct dfly_wire_bundle_iter *it, void *out, size_t size);

/** Group an ECtN counter index @p k refers to, for a sender in group @p src_group. */
static inline uint32_t dfly_wire_ectn_group(uint32_t src_group, uint32_t k)
{
	return k < src_group ? k : k + 1;
}

/** ECtN counter index of remote group @p group (≠ @p src_group) for a sender in @p src_group. */
static inline uint32_t dfly_wire_ectn_index(uint32_t src_group, uint32_t group)
{
	return group < src_group ? group : group - 1;
}

/** List formats: make counter @p k (< DFLY_WIRE_ECTN_MAX) an entry of value @p v. */
static inline void dfly_wire_ectn_add(struct dfly_wire_ectn *ec, uint32_t k, uint8_t v)
{
	ec->ctr[k] = v;
	ec->listed[k / 64] |= 1ull << (k % 64);
}

/** List formats: true if counter @p k (< DFLY_WIRE_ECTN_MAX) is an entry. */
static inline bool dfly_wire_ectn_has(const struct dfly_wire_ectn *ec, uint32_t k)
{
	return (ec->listed[k / 64] >> (k % 64) & 1) != 0;
}

/** True if sequence number @p a comes before @p b, modulo 2^32 (distance < 2^31). */
static inline bool dfly_wire_seq_before(uint32_t a, uint32_t b)
{
	return ((a - b) & 0x80000000u) != 0;
}

#ifdef __cplusplus
}
#endif

#endif /* DFLY_WIRE_H */
