/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The host edge of an emulated router (DESIGN.md §5): what a host port of dfly-switch does with
 * the ordinary Ethernet a real host sends (a namespace over tap or af_packet, a VM, a machine).
 * The host is Dragonfly node N. The edge router looks the destination MAC up in the host table
 * and carries the frame unchanged, as the payload of a 0x88B5 data packet of type
 * DFLY_WIRE_PKT_HOST, to the node that owns that MAC, whose host port hands it out as is. ARP
 * works without flooding: the edge router answers ARP requests itself from the table (proxy ARP,
 * IP → MAC of the host that owns the IP), so `ping` and `iperf3` run unchanged; every other
 * broadcast or multicast frame is dropped. Frames a host sends with EtherType 0x88B5 or 0x88B6,
 * untagged or behind one 802.1Q tag, are spoofing attempts: dropped and counted.
 *
 * Portable C (libc and include/dfly only, no DPDK, libpcap or libconfig): the config loader, the
 * testbed generator, the DPDK host ports and the unit tests all use it. The table is built once
 * on the control path; lookups and dp_host_classify() allocate nothing and never log.
 */
#ifndef DP_HOST_H
#define DP_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "dfly/regs.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DP_HOST_ETHERTYPE_ARP  0x0806u /**< ARP */
#define DP_HOST_ETHERTYPE_IPV4 0x0800u /**< IPv4: the ARP protocol type answered */
#define DP_HOST_ARP_LEN        42u     /**< ARP request/reply for IPv4 over Ethernet, unpadded */
#define DP_HOST_MAC_STRLEN     18u     /**< "02:00:00:00:00:01" and its NUL */
#define DP_HOST_IPV4_STRLEN    16u     /**< "255.255.255.255" and its NUL */

/** One host: the node it is, its MAC and its IPv4 address. */
struct dp_host_entry {
	uint32_t node;  /**< Dragonfly node id, < nodes_total */
	uint8_t mac[6]; /**< the host's MAC: unicast (I/G bit clear), not all-zero */
	uint32_t ip;    /**< IPv4 address in host byte order; 0 = none (never answered by ARP) */
};

/** The host table of a network (opaque): every host, looked up by MAC, node or IP. */
struct dp_host_table;

/** What to do with a frame a host sent (dp_host_classify()). */
enum dp_host_verdict {
	DP_HOST_FORWARD = 0, /**< carry it unchanged to node *dst_node */
	DP_HOST_REPLY = 1,   /**< send the *reply_len bytes of reply back to the host (proxy ARP) */
	DP_HOST_DROP = 2,    /**< drop it and count *why (enum dfly_drop) */
};

/**
 * Validate @p n host entries and build a table of copies of them. Each entry must have a node
 * < @p nodes_total, a unicast non-zero MAC and an IP that is 0 (none) or a unicast host address
 * (not in 0.0.0.0/8, 127.0.0.0/8 or 224.0.0.0 and above); no two entries may share a node, a
 * MAC or a non-zero IP. Entries are checked in order, so the error names the first bad entry,
 * e.g. "hosts[3]: mac 02:00:00:00:00:01 already used by hosts[1]". An empty table (n = 0, @p e
 * may be NULL) is valid.
 *
 * @param out          receives the table on success, NULL on error
 * @param err          receives one line (no newline) describing the error; may be NULL
 * @param errlen       size of @p err
 * @return 0, -EINVAL (an invalid entry, described in @p err) or -ENOMEM.
 */
int dp_host_table_create(struct dp_host_table **out, const struct dp_host_entry *e, unsigned n,
			 uint32_t nodes_total, char *err, size_t errlen);

/** Free a table. NULL is accepted. */
void dp_host_table_destroy(struct dp_host_table *t);

/** @return the number of entries of @p t. */
unsigned dp_host_table_count(const struct dp_host_table *t);

/** @return entry @p i of @p t (in the order given to create), or NULL if @p i ≥ count. */
const struct dp_host_entry *dp_host_table_get(const struct dp_host_table *t, unsigned i);

/**
 * Look a host up by MAC, O(log n), no allocation. @return the entry (valid until the table is
 * destroyed) or NULL.
 */
const struct dp_host_entry *dp_host_by_mac(const struct dp_host_table *t, const uint8_t mac[6]);

/** Look a host up by node, O(log n). @return the entry or NULL. */
const struct dp_host_entry *dp_host_by_node(const struct dp_host_table *t, uint32_t node);

/** Look a host up by IPv4 address (host byte order), O(log n). @return the entry, or NULL (and
 *  always NULL for 0). */
const struct dp_host_entry *dp_host_by_ip(const struct dp_host_table *t, uint32_t ip);

/**
 * Classify one frame that the host of node @p in_node sent, in this order:
 *  1. len < 14 (or a 0x8100 tag cut short): DROP HOST_BAD_FRAME;
 *  2. EtherType 0x88B5 or 0x88B6, untagged or behind one 0x8100 tag: DROP HOST_SPOOF;
 *  3. len > @p max_frame: DROP HOST_BAD_FRAME;
 *  4. destination MAC with the I/G bit set (broadcast, multicast):
 *     - an untagged broadcast ARP frame shorter than 42 bytes: DROP HOST_BAD_FRAME;
 *     - an untagged broadcast ARP request (htype 1, ptype 0x0800, hlen 6, plen 4, oper 1) with
 *       a unicast sender MAC, for an IP of another host of the table and not a gratuitous one
 *       (spa ≠ tpa): REPLY with the 42-byte ARP reply of the target host (Ethernet dst = the
 *       asker's sha, src = the target's MAC, oper 2, sha/spa = the target, tha/tpa = the asker's
 *       sha/spa), not padded (the caller or the NIC pads it to 60 bytes);
 *     - anything else (ARP for an unknown IP or for the asker itself, gratuitous ARP, ARP replies,
 *       malformed ARP, IPv6 ND, mDNS, ...): DROP HOST_NON_UNICAST;
 *  5. unicast to a MAC of the table: FORWARD to its node, but to @p in_node itself DROP
 *     HOST_UNKNOWN_DST; unicast to any other MAC: DROP HOST_UNKNOWN_DST.
 * Only the first @p len bytes of @p frame are read. The caller counts the verdict
 * (DFLY_DROP_*, DFLY_ARP_REPLIES, DFLY_HOST_RX).
 *
 * @param max_frame    the largest host frame the fabric carries, bytes (dp_host_max_frame())
 * @param dst_node     FORWARD: receives the destination node
 * @param reply        REPLY: receives the reply frame; must hold DP_HOST_ARP_LEN bytes, or
 *                     requests that would be answered are dropped as HOST_NON_UNICAST
 * @param reply_size   bytes available at @p reply
 * @param reply_len    REPLY: receives the reply length (DP_HOST_ARP_LEN)
 * @param why          DROP: receives the enum dfly_drop reason
 * @return the verdict; only the output of that verdict is written.
 */
enum dp_host_verdict dp_host_classify(const struct dp_host_table *t, uint32_t in_node,
				      const uint8_t *frame, size_t len, size_t max_frame,
				      uint32_t *dst_node, uint8_t *reply, size_t reply_size,
				      size_t *reply_len, enum dfly_drop *why);

/**
 * Emulated size of a carried host frame of @p frame_len bytes:
 * ⌈(DFLY_WIRE_DATA_HDR_LEN + frame_len) / phit_bytes⌉ phits, at least 1 (saturates at
 * UINT32_MAX). @return the size in phits, or 0 if @p phit_bytes is 0.
 */
uint32_t dp_host_frame_phits(size_t frame_len, uint32_t phit_bytes);

/**
 * The largest host frame, in bytes, that fits in @p max_phits phits of @p phit_bytes bytes (the
 * inverse of dp_host_frame_phits(), for the config check against the hosts' MTU):
 * max_phits·phit_bytes − DFLY_WIRE_DATA_HDR_LEN, or 0 if not even the header fits.
 */
size_t dp_host_max_frame(uint32_t max_phits, uint32_t phit_bytes);

/**
 * Parse a MAC written as exactly six colon-separated pairs of hex digits (either case), e.g.
 * "02:df:00:00:00:01"; nothing before or after. @return 0 or -EINVAL (@p mac then unchanged).
 */
int dp_host_parse_mac(const char *s, uint8_t mac[6]);

/**
 * Parse a dotted-quad IPv4 address, e.g. "10.0.0.1": exactly four decimal numbers 0..255 of one
 * to three digits, no leading zeros (so "010" is not read as octal), no spaces, nothing after.
 * @return 0 with @p ip in host byte order, or -EINVAL (@p ip then unchanged).
 */
int dp_host_parse_ipv4(const char *s, uint32_t *ip);

/** Write @p mac as "xx:xx:xx:xx:xx:xx" (lower-case) into @p buf of DP_HOST_MAC_STRLEN bytes. */
void dp_host_format_mac(const uint8_t mac[6], char buf[DP_HOST_MAC_STRLEN]);

/** Write @p ip (host byte order) as a dotted quad into @p buf of DP_HOST_IPV4_STRLEN bytes. */
void dp_host_format_ipv4(uint32_t ip, char buf[DP_HOST_IPV4_STRLEN]);

/**
 * The default MAC of node @p node that a testbed generator gives a host: 02:df:00:NN:NN:NN,
 * locally administered unicast, with the low 24 bits of the node id (unique below 2^24 nodes).
 */
void dp_host_default_mac(uint32_t node, uint8_t mac[6]);

/**
 * The default IPv4 address of node @p node: @p base_ip + node + 1 (host byte order), so with the
 * base 10.B.0.0 node 0 is 10.B.0.1 and node 255 is 10.B.1.0. Consecutive: in a /16 the nodes
 * below 65534 get distinct host addresses other than the network and the broadcast address.
 */
uint32_t dp_host_default_ip(uint32_t base_ip, uint32_t node);

#ifdef __cplusplus
}
#endif

#endif /* DP_HOST_H */
