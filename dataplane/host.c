/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The host edge of an emulated router (host.h): the host table (three sorted key arrays over one
 * copy of the entries, searched by binary search) and the per-frame classification with proxy
 * ARP.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dfly/wire.h"
#include "host.h"

/* ARP for IPv4 over Ethernet: offsets from the first byte after the EtherType. */
#define ARP_HTYPE    0  /* u16 hardware type (1: Ethernet) */
#define ARP_PTYPE    2  /* u16 protocol type (0x0800) */
#define ARP_HLEN     4  /* u8 hardware address length (6) */
#define ARP_PLEN     5  /* u8 protocol address length (4) */
#define ARP_OPER     6  /* u16 operation (1 request, 2 reply) */
#define ARP_SHA      8  /* sender hardware address */
#define ARP_SPA      14 /* sender protocol address */
#define ARP_THA      18 /* target hardware address */
#define ARP_TPA      24 /* target protocol address */
#define ARP_BODY_LEN 28 /* the whole body */
_Static_assert(DP_HOST_ARP_LEN == DFLY_WIRE_ETH_LEN + ARP_BODY_LEN, "ARP frame length");

#define ARP_HTYPE_ETHER 1u
#define ARP_OP_REQUEST  1u
#define ARP_OP_REPLY    2u

/* One search key and the index of its entry. */
struct host_key {
	uint64_t key; /* MAC (48 bits, first byte most significant), node or IP */
	unsigned idx; /* index into dp_host_table.ent */
};

struct dp_host_table {
	unsigned n;                /* entries */
	unsigned n_ip;             /* entries with a non-zero IP (length of by_ip) */
	struct dp_host_entry *ent; /* copies of the entries, in the caller's order */
	struct host_key *by_mac;   /* n keys sorted by MAC */
	struct host_key *by_node;  /* n keys sorted by node */
	struct host_key *by_ip;    /* n_ip keys sorted by IP */
};

static inline uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline void wr16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void wr32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline uint64_t mac_key(const uint8_t mac[6])
{
	return (uint64_t)rd16(mac) << 32 | rd32(mac + 2);
}

static inline bool mac_is_group(const uint8_t mac[6])
{
	return (mac[0] & 0x01u) != 0;
}

static bool ip_is_host(uint32_t ip)
{
	uint32_t first = ip >> 24;

	return first != 0 && first != 127 && first < 224;
}

/* ---- the table --------------------------------------------------------------------------- */

static int key_cmp(const void *pa, const void *pb)
{
	const struct host_key *a = pa, *b = pb;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* The entry whose key is @p key, or NULL. */
static const struct dp_host_entry *key_find(const struct dp_host_table *t,
					    const struct host_key *keys, unsigned n, uint64_t key)
{
	unsigned lo = 0, hi = n;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;

		if (keys[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && keys[lo].key == key ? &t->ent[keys[lo].idx] : NULL;
}

/*
 * Sort @p keys and record in @p first[i], for each entry i whose key an earlier entry already
 * has, the index of the first such entry (first[i] = i otherwise). Within a run of equal keys
 * the sort orders by index, so the run's head is the first user.
 */
static void key_sort(struct host_key *keys, unsigned n, unsigned *first)
{
	qsort(keys, n, sizeof(*keys), key_cmp);
	for (unsigned i = 0; i < n; i++)
		first[keys[i].idx] =
		    i > 0 && keys[i - 1].key == keys[i].key ? first[keys[i - 1].idx] : keys[i].idx;
}

static void __attribute__((format(printf, 3, 4)))
set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* Check entry @p i; @return 0 or -EINVAL with the message in @p err. */
static int entry_check(const struct dp_host_entry *e, unsigned i, uint32_t nodes_total,
		       const unsigned *node_first, const unsigned *mac_first,
		       const unsigned *ip_first, char *err, size_t errlen)
{
	char mac[DP_HOST_MAC_STRLEN], ip[DP_HOST_IPV4_STRLEN];
	static const uint8_t zero[6];

	dp_host_format_mac(e->mac, mac);
	dp_host_format_ipv4(e->ip, ip);
	if (e->node >= nodes_total) {
		if (nodes_total == 0)
			set_err(err, errlen, "hosts[%u]: node %u is out of range (no nodes)", i,
				e->node);
		else
			set_err(err, errlen, "hosts[%u]: node %u is out of range (expected 0..%u)",
				i, e->node, nodes_total - 1);
		return -EINVAL;
	}
	if (node_first[i] != i) {
		set_err(err, errlen, "hosts[%u]: node %u already used by hosts[%u]", i, e->node,
			node_first[i]);
		return -EINVAL;
	}
	if (memcmp(e->mac, zero, sizeof(zero)) == 0) {
		set_err(err, errlen, "hosts[%u]: mac %s is all-zero", i, mac);
		return -EINVAL;
	}
	if (mac_is_group(e->mac)) {
		set_err(err, errlen, "hosts[%u]: mac %s is multicast (I/G bit set)", i, mac);
		return -EINVAL;
	}
	if (mac_first[i] != i) {
		set_err(err, errlen, "hosts[%u]: mac %s already used by hosts[%u]", i, mac,
			mac_first[i]);
		return -EINVAL;
	}
	if (e->ip != 0 && !ip_is_host(e->ip)) {
		set_err(err, errlen, "hosts[%u]: ip %s is not a unicast host address", i, ip);
		return -EINVAL;
	}
	if (e->ip != 0 && ip_first[i] != i) {
		set_err(err, errlen, "hosts[%u]: ip %s already used by hosts[%u]", i, ip,
			ip_first[i]);
		return -EINVAL;
	}
	return 0;
}

int dp_host_table_create(struct dp_host_table **out, const struct dp_host_entry *e, unsigned n,
			 uint32_t nodes_total, char *err, size_t errlen)
{
	unsigned *first, *node_first, *mac_first, *ip_first;
	size_t cap = n > 0 ? n : 1; /* calloc(0) may return NULL */
	struct dp_host_table *t;
	int rc;

	*out = NULL;
	set_err(err, errlen, "%s", "");
	if (n > 0 && e == NULL) {
		set_err(err, errlen, "hosts: %u entries but no array", n);
		return -EINVAL;
	}
	t = calloc(1, sizeof(*t));
	first = calloc(cap, 3 * sizeof(*first));
	if (t == NULL || first == NULL) {
		rc = -ENOMEM;
		goto out_free;
	}
	t->n = n;
	t->ent = calloc(cap, sizeof(*t->ent));
	t->by_mac = calloc(cap, sizeof(*t->by_mac));
	t->by_node = calloc(cap, sizeof(*t->by_node));
	t->by_ip = calloc(cap, sizeof(*t->by_ip));
	if (t->ent == NULL || t->by_mac == NULL || t->by_node == NULL || t->by_ip == NULL) {
		rc = -ENOMEM;
		goto out_free;
	}
	if (n > 0)
		memcpy(t->ent, e, n * sizeof(*e));

	node_first = first;
	mac_first = first + cap;
	ip_first = first + 2 * cap;
	for (unsigned i = 0; i < n; i++) {
		t->by_mac[i] = (struct host_key){.key = mac_key(e[i].mac), .idx = i};
		t->by_node[i] = (struct host_key){.key = e[i].node, .idx = i};
		if (e[i].ip != 0)
			t->by_ip[t->n_ip++] = (struct host_key){.key = e[i].ip, .idx = i};
		ip_first[i] = i;
	}
	key_sort(t->by_node, n, node_first);
	key_sort(t->by_mac, n, mac_first);
	key_sort(t->by_ip, t->n_ip, ip_first);

	for (unsigned i = 0; i < n; i++) {
		rc = entry_check(&e[i], i, nodes_total, node_first, mac_first, ip_first, err,
				 errlen);
		if (rc < 0)
			goto out_free;
	}
	free(first);
	*out = t;
	return 0;

out_free:
	if (rc == -ENOMEM)
		set_err(err, errlen, "hosts: %u entries: out of memory", n);
	free(first);
	dp_host_table_destroy(t);
	return rc;
}

void dp_host_table_destroy(struct dp_host_table *t)
{
	if (t == NULL)
		return;
	free(t->ent);
	free(t->by_mac);
	free(t->by_node);
	free(t->by_ip);
	free(t);
}

unsigned dp_host_table_count(const struct dp_host_table *t)
{
	return t->n;
}

const struct dp_host_entry *dp_host_table_get(const struct dp_host_table *t, unsigned i)
{
	return i < t->n ? &t->ent[i] : NULL;
}

const struct dp_host_entry *dp_host_by_mac(const struct dp_host_table *t, const uint8_t mac[6])
{
	return key_find(t, t->by_mac, t->n, mac_key(mac));
}

const struct dp_host_entry *dp_host_by_node(const struct dp_host_table *t, uint32_t node)
{
	return key_find(t, t->by_node, t->n, node);
}

const struct dp_host_entry *dp_host_by_ip(const struct dp_host_table *t, uint32_t ip)
{
	return ip == 0 ? NULL : key_find(t, t->by_ip, t->n_ip, ip);
}

/* ---- classification ---------------------------------------------------------------------- */

static inline enum dp_host_verdict drop(enum dfly_drop *why, enum dfly_drop reason)
{
	*why = reason;
	return DP_HOST_DROP;
}

static inline bool is_fabric_type(uint16_t type)
{
	return type == DFLY_WIRE_ETHERTYPE_DATA || type == DFLY_WIRE_ETHERTYPE_CTRL ||
	       type == DFLY_WIRE_ETHERTYPE_BUNDLE;
}

/*
 * An untagged broadcast ARP frame of at least 42 bytes: answer it if it is a request for
 * another host's IP, else drop it.
 */
static enum dp_host_verdict arp_request(const struct dp_host_table *t, uint32_t in_node,
					const uint8_t *frame, uint8_t *reply, size_t reply_size,
					size_t *reply_len, enum dfly_drop *why)
{
	const uint8_t *arp = frame + DFLY_WIRE_ETH_LEN;
	const uint8_t *sha = arp + ARP_SHA;
	static const uint8_t zero[6];
	const struct dp_host_entry *target;
	uint32_t spa = rd32(arp + ARP_SPA), tpa = rd32(arp + ARP_TPA);
	uint8_t *r = reply, *ra;

	if (rd16(arp + ARP_HTYPE) != ARP_HTYPE_ETHER ||
	    rd16(arp + ARP_PTYPE) != DP_HOST_ETHERTYPE_IPV4 || arp[ARP_HLEN] != 6 ||
	    arp[ARP_PLEN] != 4 || rd16(arp + ARP_OPER) != ARP_OP_REQUEST)
		return drop(why, DFLY_DROP_HOST_NON_UNICAST);
	/* the reply goes to sha: it must be a unicast address */
	if (mac_is_group(sha) || memcmp(sha, zero, sizeof(zero)) == 0)
		return drop(why, DFLY_DROP_HOST_NON_UNICAST);
	if (spa == tpa) /* gratuitous ARP: an announcement, nobody to answer */
		return drop(why, DFLY_DROP_HOST_NON_UNICAST);
	target = dp_host_by_ip(t, tpa);
	if (target == NULL || target->node == in_node)
		return drop(why, DFLY_DROP_HOST_NON_UNICAST);
	if (reply == NULL || reply_size < DP_HOST_ARP_LEN)
		return drop(why, DFLY_DROP_HOST_NON_UNICAST);

	memcpy(r, sha, 6);
	memcpy(r + 6, target->mac, 6);
	wr16(r + 12, DP_HOST_ETHERTYPE_ARP);
	ra = r + DFLY_WIRE_ETH_LEN;
	wr16(ra + ARP_HTYPE, ARP_HTYPE_ETHER);
	wr16(ra + ARP_PTYPE, DP_HOST_ETHERTYPE_IPV4);
	ra[ARP_HLEN] = 6;
	ra[ARP_PLEN] = 4;
	wr16(ra + ARP_OPER, ARP_OP_REPLY);
	memcpy(ra + ARP_SHA, target->mac, 6);
	wr32(ra + ARP_SPA, target->ip);
	memcpy(ra + ARP_THA, sha, 6);
	wr32(ra + ARP_TPA, spa);
	*reply_len = DP_HOST_ARP_LEN;
	return DP_HOST_REPLY;
}

enum dp_host_verdict dp_host_classify(const struct dp_host_table *t, uint32_t in_node,
				      const uint8_t *frame, size_t len, size_t max_frame,
				      uint32_t *dst_node, uint8_t *reply, size_t reply_size,
				      size_t *reply_len, enum dfly_drop *why)
{
	static const uint8_t bcast[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
	const struct dp_host_entry *dst;
	uint16_t type;

	if (len < DFLY_WIRE_ETH_LEN)
		return drop(why, DFLY_DROP_HOST_BAD_FRAME);
	type = rd16(frame + 12);
	if (type == DFLY_WIRE_ETHERTYPE_VLAN) {
		if (len < DFLY_WIRE_ETH_LEN + DFLY_WIRE_VLAN_LEN)
			return drop(why, DFLY_DROP_HOST_BAD_FRAME);
		if (is_fabric_type(rd16(frame + 16)))
			return drop(why, DFLY_DROP_HOST_SPOOF);
	} else if (is_fabric_type(type)) {
		return drop(why, DFLY_DROP_HOST_SPOOF);
	}
	if (len > max_frame)
		return drop(why, DFLY_DROP_HOST_BAD_FRAME);

	if (mac_is_group(frame)) {
		if (type != DP_HOST_ETHERTYPE_ARP || memcmp(frame, bcast, sizeof(bcast)) != 0)
			return drop(why, DFLY_DROP_HOST_NON_UNICAST);
		if (len < DP_HOST_ARP_LEN)
			return drop(why, DFLY_DROP_HOST_BAD_FRAME);
		return arp_request(t, in_node, frame, reply, reply_size, reply_len, why);
	}

	dst = dp_host_by_mac(t, frame);
	if (dst == NULL || dst->node == in_node)
		return drop(why, DFLY_DROP_HOST_UNKNOWN_DST);
	*dst_node = dst->node;
	return DP_HOST_FORWARD;
}

/* ---- sizes ------------------------------------------------------------------------------- */

uint32_t dp_host_frame_phits(size_t frame_len, uint32_t phit_bytes)
{
	uint64_t bytes, phits;

	if (phit_bytes == 0)
		return 0;
	if (frame_len > UINT64_MAX - DFLY_WIRE_DATA_HDR_LEN)
		return UINT32_MAX;
	bytes = (uint64_t)frame_len + DFLY_WIRE_DATA_HDR_LEN;
	phits = bytes / phit_bytes + (bytes % phit_bytes != 0);
	return phits > UINT32_MAX ? UINT32_MAX : (uint32_t)phits;
}

size_t dp_host_max_frame(uint32_t max_phits, uint32_t phit_bytes)
{
	uint64_t bytes = (uint64_t)max_phits * phit_bytes;

	if (bytes <= DFLY_WIRE_DATA_HDR_LEN)
		return 0;
	bytes -= DFLY_WIRE_DATA_HDR_LEN;
	return bytes > SIZE_MAX ? SIZE_MAX : (size_t)bytes;
}

/* ---- text -------------------------------------------------------------------------------- */

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int dp_host_parse_mac(const char *s, uint8_t mac[6])
{
	uint8_t m[6];

	if (s == NULL)
		return -EINVAL;
	for (unsigned i = 0; i < 6; i++) {
		int hi, lo;

		/* s[3i], s[3i+1] are read only after s[3i-1] was a ':' (not the NUL) */
		hi = hex_digit(s[3 * i]);
		if (hi < 0)
			return -EINVAL;
		lo = hex_digit(s[3 * i + 1]);
		if (lo < 0)
			return -EINVAL;
		if (s[3 * i + 2] != (i < 5 ? ':' : '\0'))
			return -EINVAL;
		m[i] = (uint8_t)(hi << 4 | lo);
	}
	memcpy(mac, m, sizeof(m));
	return 0;
}

int dp_host_parse_ipv4(const char *s, uint32_t *ip)
{
	uint32_t v = 0;

	if (s == NULL)
		return -EINVAL;
	for (unsigned i = 0; i < 4; i++) {
		unsigned octet = 0, digits = 0;

		while (*s >= '0' && *s <= '9') {
			if (digits == 3 || (digits == 1 && octet == 0))
				return -EINVAL; /* four digits, or a leading zero */
			octet = octet * 10 + (unsigned)(*s - '0');
			digits++;
			s++;
		}
		if (digits == 0 || octet > 255)
			return -EINVAL;
		if (*s != (i < 3 ? '.' : '\0'))
			return -EINVAL;
		s++;
		v = v << 8 | octet;
	}
	*ip = v;
	return 0;
}

void dp_host_format_mac(const uint8_t mac[6], char buf[DP_HOST_MAC_STRLEN])
{
	snprintf(buf, DP_HOST_MAC_STRLEN, "%02x:%02x:%02x:%02x:%02x:%02x", mac[0], mac[1], mac[2],
		 mac[3], mac[4], mac[5]);
}

void dp_host_format_ipv4(uint32_t ip, char buf[DP_HOST_IPV4_STRLEN])
{
	snprintf(buf, DP_HOST_IPV4_STRLEN, "%u.%u.%u.%u", ip >> 24, (ip >> 16) & 0xffu,
		 (ip >> 8) & 0xffu, ip & 0xffu);
}

void dp_host_default_mac(uint32_t node, uint8_t mac[6])
{
	mac[0] = 0x02;
	mac[1] = 0xdf;
	mac[2] = 0x00;
	mac[3] = (uint8_t)(node >> 16);
	mac[4] = (uint8_t)(node >> 8);
	mac[5] = (uint8_t)node;
}

uint32_t dp_host_default_ip(uint32_t base_ip, uint32_t node)
{
	return base_ip + node + 1;
}
