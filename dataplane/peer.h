/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Loopback peer: a stand-in for the neighbour at the far end of one fabric port of a router of
 * dfly-switch (deployment port with dev = "peer"). It speaks the fabric link protocol of
 * port.c (HELLO as the neighbour the topology puts there, link-level sequence numbers and
 * ACKs, running-total CREDIT frames both ways) and returns every data packet to its source
 * node: source and destination swapped, the routing state of a packet that has reached its
 * destination's group (no Valiant target, no flags), on the VC it came on. The router then
 * ejects it at the node that generated it. So one router can be measured alone, at full
 * load, with all of its mechanisms on (`dfly bench dataplane`): every packet crosses it twice,
 * once from its generator to a fabric port and once from the fabric port to its node.
 *
 * The peer has an input buffer of the neighbour's size (the network file's buffers.local or
 * buffers.global per VC): it returns a packet's credits to the router when it sends the packet
 * back, so a router that cannot take its packets back stops getting credits, as from a real
 * neighbour. Frames from the router's firmware (PB_STATE, ECTN_PARTIAL) are counted and
 * dropped; the peer sends none (the router's firmware sees silent neighbours).
 *
 * One lcore polls the peers (the main lcore of dfly-switch); a peer is never touched by
 * another thread. The medium between router and peer is an in-process ring pair, which loses
 * nothing: a gap or a NAK is counted (errors), never repaired.
 */
#ifndef DP_PEER_H
#define DP_PEER_H

#include <stdint.h>

#include "port.h"

/** Bad frames a peer sends on purpose (dp_peer_faults), one of each kind per millisecond once
 *  the link is up, with what the router must count for each. */
#define DP_FOREACH_PEER_FAULT(X)                                                                   \
	X(TRUNCATED, "data frame cut to 40 bytes: drop.decode_truncated")                          \
	X(VERSION, "data frame of header version 99: drop.decode_version")                         \
	X(CTRL_TYPE, "control frame of type 200: drop.decode_type")                                \
	X(NODE, "data frame to a node beyond the network: drop.decode_range")                      \
	X(VC, "data frame on a VC beyond any port's: drop.decode_range")                           \
	X(ETHERTYPE, "IPv4 frame on the fabric port: drop.fabric_other")                           \
	X(NOT_PEER, "ACK from a router that is not the neighbour: drop.not_peer")                  \
	X(REPLAY, "data frame with the last sequence number again: port llr_dup_rx")               \
	X(GAP, "data frame 1000 sequence numbers ahead: port llr_gap_rx (and a NAK back)")
#define DP_PEER_FAULT_ENUM_(E, d) DP_PEER_FAULT_##E,
enum dp_peer_fault { DP_FOREACH_PEER_FAULT(DP_PEER_FAULT_ENUM_) DP_PEER_FAULT_COUNT };
#undef DP_PEER_FAULT_ENUM_

/** Counters of one peer. */
struct dp_peer_stats {
	uint64_t rx_data;   /**< data frames accepted from the router */
	uint64_t tx_data;   /**< data frames returned to the router */
	uint64_t rx_ctrl;   /**< control frames received (HELLO, CREDIT, ACK, firmware) */
	uint64_t fw_frames; /**< PB_STATE / ECTN_PARTIAL frames received and dropped */
	uint64_t info;      /**< PB information flits received (sequenced, no buffer) */
	uint64_t errors;    /**< bad_frame + nak + overflow: what must never happen */
	uint64_t bad_frame; /**< undecodable, or not from the router on this link */
	uint64_t nak;       /**< NAKs from the router (it saw a loss of ours) */
	uint64_t overflow;  /**< data beyond the credits we gave, or a bad VC */
	/* repaired by the protocol, counted only */
	uint64_t gap;     /**< data beyond the next sequence number: the router's device
			       refused a copy; we NAK, its replay sends it again */
	uint64_t no_room; /**< control frame not sent (no mbuf, device full): the next
			       ACK or CREDIT (running totals) carries it */
	uint64_t faults[DP_PEER_FAULT_COUNT]; /**< bad frames sent on purpose, per kind */
};

/** What each fault is and what the router counts for it. */
extern const char *const dp_peer_fault_descs[DP_PEER_FAULT_COUNT];

struct dp_peer;

/** Send @p each bad frames of every kind of DP_FOREACH_PEER_FAULT among the good traffic. */
void dp_peer_faults(struct dp_peer *p, uint32_t each);

/**
 * A peer on ethdev @p eth (the other end of the ring pair of router @p router, port @p port),
 * or NULL (errno). @p env gives the topology, mempool, link settings and decode limits;
 * @p buf_phits the neighbour's input buffer per VC; @p nvc its VCs on this link.
 */
struct dp_peer *dp_peer_create(const struct dp_env *env, uint16_t eth, uint32_t router,
			       uint32_t port, uint32_t nvc, uint32_t buf_phits);
void dp_peer_destroy(struct dp_peer *p);

/** Read, answer, return and send what is due. @return frames received. */
unsigned dp_peer_poll(struct dp_peer *p, uint64_t now_ns);

const struct dp_peer_stats *dp_peer_stats(const struct dp_peer *p);

#endif
