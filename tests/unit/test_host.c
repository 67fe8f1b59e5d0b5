/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of the host edge of dfly-switch (dataplane/host.h, dataplane/host.c). Negative tests
 * first: every host-table error with its exact message (node out of range, duplicate node, MAC
 * and IP, multicast, zero MAC, non-host IP, the first bad entry wins), then lookups, then the
 * classification of hand-built frames: the proxy-ARP reply byte for byte, every ARP that must
 * not be answered, spoofed 0x88B5/0x88B6/0x88B7 frames untagged and behind an 802.1Q tag, broadcast
 * and multicast, unicast to self and to unknown MACs, runts and oversize frames. Every frame is
 * classified from a heap block of exactly its length, so a sanitizer build catches a read past
 * the end. A mutation sweep from a printed seed (override with DFLY_TEST_SEED) classifies
 * mutated ARP requests and random frames and checks that every verdict is consistent with the
 * frame. Then the phit arithmetic at its boundaries and the MAC/IPv4 parsers and defaults.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dfly/wire.h"
#include "host.h"

/* Assert with a formatted message; used inside loops to name the failing case. */
#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		if (!(cond))                                                                       \
			fail_msg(__VA_ARGS__);                                                     \
	} while (0)

#define NODES          72u   /* nodes_total of the fixtures (p=2, a=4, h=2) */
#define MAX_FRAME      1514u /* largest host frame of the fixtures */
#define IP(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (d))

/* The hosts of the classification tests. */
static const struct dp_host_entry HOSTS[] = {
    {.node = 0, .mac = {0x02, 0xdf, 0x00, 0x00, 0x00, 0x00}, .ip = IP(10, 0, 0, 1)},
    {.node = 5, .mac = {0x02, 0xdf, 0x00, 0x00, 0x00, 0x05}, .ip = IP(10, 0, 0, 6)},
    {.node = 71, .mac = {0x02, 0xdf, 0x00, 0x00, 0x00, 0x47}, .ip = IP(10, 0, 0, 72)},
    {.node = 9, .mac = {0x02, 0x00, 0x00, 0x00, 0x00, 0x09}, .ip = 0},
};
#define NHOSTS (sizeof(HOSTS) / sizeof(HOSTS[0]))

static const uint8_t BCAST[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
static const uint8_t UNKNOWN_MAC[6] = {0x02, 0x00, 0x00, 0x00, 0x00, 0x99};

/* ---- table errors -------------------------------------------------------------------------- */

/* Build a table that must fail with -EINVAL and exactly the message @p want. */
static void expect_table_err(const struct dp_host_entry *e, unsigned n, uint32_t nodes_total,
			     const char *want)
{
	struct dp_host_table *t = (struct dp_host_table *)&t; /* not NULL: must be cleared */
	char err[160];
	int rc;

	memset(err, 'x', sizeof(err));
	rc = dp_host_table_create(&t, e, n, nodes_total, err, sizeof(err));
	CHECK(rc == -EINVAL, "want -EINVAL for \"%s\", got %d", want, rc);
	assert_null(t);
	assert_string_equal(err, want);
}

static void test_table_node_range(void **state)
{
	(void)state;
	struct dp_host_entry e[3] = {HOSTS[0], HOSTS[1], HOSTS[2]};

	e[2].node = NODES;
	expect_table_err(e, 3, NODES, "hosts[2]: node 72 is out of range (expected 0..71)");
	e[2].node = UINT32_MAX;
	expect_table_err(e, 3, NODES, "hosts[2]: node 4294967295 is out of range (expected 0..71)");
	expect_table_err(HOSTS, 1, 0, "hosts[0]: node 0 is out of range (no nodes)");
	/* the last node is in range */
	e[2].node = NODES - 1;
	struct dp_host_table *t = NULL;
	assert_int_equal(dp_host_table_create(&t, e, 3, NODES, NULL, 0), 0);
	dp_host_table_destroy(t);
}

static void test_table_duplicates(void **state)
{
	(void)state;
	struct dp_host_entry e[4] = {HOSTS[0], HOSTS[1], HOSTS[2], HOSTS[3]};

	e[2].node = 5;
	expect_table_err(e, 4, NODES, "hosts[2]: node 5 already used by hosts[1]");

	memcpy(e, HOSTS, sizeof(e));
	memcpy(e[1].mac, (uint8_t[6]){0x02, 0x00, 0x00, 0x00, 0x00, 0x01}, 6);
	memcpy(e[3].mac, (uint8_t[6]){0x02, 0x00, 0x00, 0x00, 0x00, 0x01}, 6);
	expect_table_err(e, 4, NODES, "hosts[3]: mac 02:00:00:00:00:01 already used by hosts[1]");

	memcpy(e, HOSTS, sizeof(e));
	e[2].ip = IP(10, 0, 0, 1);
	expect_table_err(e, 4, NODES, "hosts[2]: ip 10.0.0.1 already used by hosts[0]");

	/* three users of one MAC: the second is reported, against the first */
	memcpy(e, HOSTS, sizeof(e));
	memcpy(e[0].mac, e[3].mac, 6);
	memcpy(e[2].mac, e[3].mac, 6);
	expect_table_err(e, 4, NODES, "hosts[2]: mac 02:00:00:00:00:09 already used by hosts[0]");

	/* the node is checked before the MAC, the MAC before the IP */
	memcpy(e, HOSTS, sizeof(e));
	e[2] = e[1];
	expect_table_err(e, 4, NODES, "hosts[2]: node 5 already used by hosts[1]");
	e[2].node = 6;
	expect_table_err(e, 4, NODES, "hosts[2]: mac 02:df:00:00:00:05 already used by hosts[1]");

	/* several hosts without an IP are not duplicates */
	memcpy(e, HOSTS, sizeof(e));
	e[0].ip = 0;
	e[1].ip = 0;
	struct dp_host_table *t = NULL;
	assert_int_equal(dp_host_table_create(&t, e, 4, NODES, NULL, 0), 0);
	assert_null(dp_host_by_ip(t, 0));
	dp_host_table_destroy(t);
}

static void test_table_bad_mac(void **state)
{
	(void)state;
	struct dp_host_entry e[2] = {HOSTS[0], HOSTS[1]};

	memcpy(e[1].mac, (uint8_t[6]){0x01, 0x00, 0x5e, 0x00, 0x00, 0x01}, 6);
	expect_table_err(e, 2, NODES, "hosts[1]: mac 01:00:5e:00:00:01 is multicast (I/G bit set)");
	memcpy(e[1].mac, BCAST, 6);
	expect_table_err(e, 2, NODES, "hosts[1]: mac ff:ff:ff:ff:ff:ff is multicast (I/G bit set)");
	memcpy(e[1].mac, (uint8_t[6]){0x33, 0x33, 0x00, 0x00, 0x00, 0x01}, 6);
	expect_table_err(e, 2, NODES, "hosts[1]: mac 33:33:00:00:00:01 is multicast (I/G bit set)");
	memset(e[0].mac, 0, 6);
	expect_table_err(e, 2, NODES, "hosts[0]: mac 00:00:00:00:00:00 is all-zero");
	/* globally administered unicast is accepted */
	memcpy(e[0].mac, (uint8_t[6]){0x00, 0x1b, 0x21, 0xaa, 0xbb, 0xcc}, 6);
	memcpy(e[1].mac, HOSTS[1].mac, 6);
	struct dp_host_table *t = NULL;
	assert_int_equal(dp_host_table_create(&t, e, 2, NODES, NULL, 0), 0);
	dp_host_table_destroy(t);
}

static void test_table_bad_ip(void **state)
{
	(void)state;
	static const struct {
		uint32_t ip;
		const char *want;
	} cases[] = {
	    {IP(224, 0, 0, 1), "hosts[1]: ip 224.0.0.1 is not a unicast host address"},
	    {IP(239, 255, 255, 250), "hosts[1]: ip 239.255.255.250 is not a unicast host address"},
	    {IP(240, 0, 0, 1), "hosts[1]: ip 240.0.0.1 is not a unicast host address"},
	    {IP(255, 255, 255, 255), "hosts[1]: ip 255.255.255.255 is not a unicast host address"},
	    {IP(127, 0, 0, 1), "hosts[1]: ip 127.0.0.1 is not a unicast host address"},
	    {IP(0, 1, 2, 3), "hosts[1]: ip 0.1.2.3 is not a unicast host address"},
	};
	struct dp_host_entry e[2] = {HOSTS[0], HOSTS[1]};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		e[1].ip = cases[i].ip;
		expect_table_err(e, 2, NODES, cases[i].want);
	}
	/* the edges of the accepted ranges */
	struct dp_host_table *t = NULL;
	e[0].ip = IP(1, 0, 0, 0);
	e[1].ip = IP(223, 255, 255, 255);
	assert_int_equal(dp_host_table_create(&t, e, 2, NODES, NULL, 0), 0);
	dp_host_table_destroy(t);
	e[0].ip = IP(126, 255, 255, 255);
	e[1].ip = IP(128, 0, 0, 0);
	assert_int_equal(dp_host_table_create(&t, e, 2, NODES, NULL, 0), 0);
	dp_host_table_destroy(t);
}

static void test_table_first_error_wins(void **state)
{
	(void)state;
	struct dp_host_entry e[4] = {HOSTS[0], HOSTS[1], HOSTS[2], HOSTS[3]};

	/* entry 1 has a zero MAC, entry 2 a node out of range, entry 3 a node duplicate of 0 */
	memset(e[1].mac, 0, 6);
	e[2].node = 100;
	e[3].node = 0;
	expect_table_err(e, 4, NODES, "hosts[1]: mac 00:00:00:00:00:00 is all-zero");
}

static void test_table_args(void **state)
{
	(void)state;
	struct dp_host_table *t = NULL;
	char err[16];

	expect_table_err(NULL, 2, NODES, "hosts: 2 entries but no array");
	/* a NULL err is accepted; a short one is truncated and terminated */
	assert_int_equal(dp_host_table_create(&t, HOSTS, 1, 0, NULL, 0), -EINVAL);
	assert_null(t);
	assert_int_equal(dp_host_table_create(&t, HOSTS, 1, 0, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "hosts[0]: node ");
	/* success clears err */
	memset(err, 'x', sizeof(err));
	assert_int_equal(dp_host_table_create(&t, HOSTS, NHOSTS, NODES, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	dp_host_table_destroy(t);
	/* an empty table is valid and finds nothing */
	assert_int_equal(dp_host_table_create(&t, NULL, 0, 0, err, sizeof(err)), 0);
	assert_non_null(t);
	assert_int_equal(dp_host_table_count(t), 0);
	assert_null(dp_host_table_get(t, 0));
	assert_null(dp_host_by_mac(t, HOSTS[0].mac));
	assert_null(dp_host_by_node(t, 0));
	assert_null(dp_host_by_ip(t, HOSTS[0].ip));
	dp_host_table_destroy(t);
	dp_host_table_destroy(NULL);
}

/* ---- lookups ------------------------------------------------------------------------------- */

static int table_setup(void **state)
{
	struct dp_host_table *t = NULL;
	char err[160];

	if (dp_host_table_create(&t, HOSTS, NHOSTS, NODES, err, sizeof(err)) != 0) {
		fprintf(stderr, "fixture: %s\n", err);
		return -1;
	}
	*state = t;
	return 0;
}

static int table_teardown(void **state)
{
	dp_host_table_destroy(*state);
	return 0;
}

static void test_lookups(void **state)
{
	const struct dp_host_table *t = *state;

	assert_int_equal(dp_host_table_count(t), NHOSTS);
	for (unsigned i = 0; i < NHOSTS; i++) {
		const struct dp_host_entry *e = dp_host_table_get(t, i);

		assert_non_null(e);
		assert_memory_equal(e, &HOSTS[i], sizeof(*e));
		assert_ptr_equal(dp_host_by_mac(t, HOSTS[i].mac), e);
		assert_ptr_equal(dp_host_by_node(t, HOSTS[i].node), e);
		if (HOSTS[i].ip != 0)
			assert_ptr_equal(dp_host_by_ip(t, HOSTS[i].ip), e);
	}
	assert_null(dp_host_table_get(t, NHOSTS));
	assert_null(dp_host_by_mac(t, UNKNOWN_MAC));
	assert_null(dp_host_by_mac(t, BCAST));
	/* a MAC differing from a known one only in its first byte */
	assert_null(dp_host_by_mac(t, (uint8_t[6]){0x03, 0xdf, 0x00, 0x00, 0x00, 0x05}));
	assert_null(dp_host_by_node(t, 1));
	assert_null(dp_host_by_node(t, 72));
	assert_null(dp_host_by_node(t, UINT32_MAX));
	assert_null(dp_host_by_ip(t, 0)); /* hosts[3] has none */
	assert_null(dp_host_by_ip(t, IP(10, 0, 0, 2)));
	assert_null(dp_host_by_ip(t, UINT32_MAX));
}

/* A large table of default addresses, shuffled: every key found, every gap missed. */
static void test_lookups_large(void **state)
{
	(void)state;
	enum { N = 1000, TOTAL = 2 * N };
	const uint32_t base = IP(10, 7, 0, 0);
	struct dp_host_entry *e = calloc(N, sizeof(*e));
	struct dp_host_table *t = NULL;
	char err[160];

	assert_non_null(e);
	for (unsigned i = 0; i < N; i++) {
		/* even nodes, in a scrambled order (7 is coprime to N) */
		uint32_t node = 2 * ((i * 7u) % N);

		e[i].node = node;
		dp_host_default_mac(node, e[i].mac);
		e[i].ip = dp_host_default_ip(base, node);
	}
	assert_int_equal(dp_host_table_create(&t, e, N, TOTAL, err, sizeof(err)), 0);
	for (uint32_t node = 0; node < TOTAL; node++) {
		uint8_t mac[6];
		const struct dp_host_entry *a, *b, *c;

		dp_host_default_mac(node, mac);
		a = dp_host_by_node(t, node);
		b = dp_host_by_mac(t, mac);
		c = dp_host_by_ip(t, dp_host_default_ip(base, node));
		if (node % 2 == 0) {
			CHECK(a != NULL && a->node == node, "node %u not found by node", node);
			CHECK(b == a && c == a, "node %u: lookups disagree", node);
		} else {
			CHECK(a == NULL && b == NULL && c == NULL, "node %u found", node);
		}
	}
	dp_host_table_destroy(t);
	free(e);
}

/* ---- classification ------------------------------------------------------------------------ */

/* The outputs of one dp_host_classify() call; the sentinels show what was not written. */
struct result {
	enum dp_host_verdict v;
	uint32_t dst_node;
	uint8_t reply[64];
	size_t reply_len;
	enum dfly_drop why;
};

#define SENTINEL_NODE 0xdeadbeefu
#define SENTINEL_LEN  ((size_t)0xabcd)
#define SENTINEL_WHY  DFLY_DROP_COUNT

/* Classify @p len bytes of @p frame, copied into a heap block of exactly that size. */
static struct result classify_n(const struct dp_host_table *t, uint32_t in_node,
				const uint8_t *frame, size_t len, size_t max_frame,
				size_t reply_size)
{
	struct result r;
	uint8_t *copy = NULL;

	r.dst_node = SENTINEL_NODE;
	r.reply_len = SENTINEL_LEN;
	r.why = SENTINEL_WHY;
	memset(r.reply, 0xee, sizeof(r.reply));
	if (len > 0) {
		copy = malloc(len);
		assert_non_null(copy);
		memcpy(copy, frame, len);
	}
	r.v = dp_host_classify(t, in_node, copy, len, max_frame, &r.dst_node, r.reply, reply_size,
			       &r.reply_len, &r.why);
	free(copy);
	return r;
}

static struct result classify(const struct dp_host_table *t, uint32_t in_node, const uint8_t *frame,
			      size_t len)
{
	return classify_n(t, in_node, frame, len, MAX_FRAME, 64);
}

/* Assert a DROP with reason @p why and nothing else written. */
#define ASSERT_DROP(r, WHY)                                                                        \
	do {                                                                                       \
		struct result r_ = (r);                                                            \
		if (r_.v != DP_HOST_DROP || r_.why != DFLY_DROP_##WHY)                             \
			fail_msg("%s:%d: got verdict %d why %d (%s), want DROP %s", __FILE__,      \
				 __LINE__, r_.v, r_.why,                                           \
				 r_.why < DFLY_DROP_COUNT ? dfly_drop_names[r_.why] : "-", #WHY);  \
		assert_int_equal(r_.dst_node, SENTINEL_NODE);                                      \
		assert_int_equal(r_.reply_len, SENTINEL_LEN);                                      \
		assert_int_equal(r_.reply[0], 0xee);                                               \
	} while (0)

/* Assert a FORWARD to @p node and nothing else written. */
#define ASSERT_FORWARD(r, node)                                                                    \
	do {                                                                                       \
		struct result r_ = (r);                                                            \
		if (r_.v != DP_HOST_FORWARD)                                                       \
			fail_msg("%s:%d: got verdict %d why %d, want FORWARD", __FILE__, __LINE__, \
				 r_.v, r_.why);                                                    \
		assert_int_equal(r_.dst_node, (node));                                             \
		assert_int_equal(r_.why, SENTINEL_WHY);                                            \
		assert_int_equal(r_.reply_len, SENTINEL_LEN);                                      \
		assert_int_equal(r_.reply[0], 0xee);                                               \
	} while (0)

/* An Ethernet frame of @p len bytes (≥ 14): header, then bytes 0x00, 0x01, ... */
static void eth_frame(uint8_t *f, size_t len, const uint8_t dst[6], const uint8_t src[6],
		      uint16_t type)
{
	memcpy(f, dst, 6);
	memcpy(f + 6, src, 6);
	f[12] = (uint8_t)(type >> 8);
	f[13] = (uint8_t)type;
	for (size_t i = 14; i < len; i++)
		f[i] = (uint8_t)(i - 14);
}

/*
 * The ARP request host 0 (02:df:00:00:00:00, 10.0.0.1) broadcasts for 10.0.0.6 (host 5), as the
 * Linux kernel sends it, written out byte by byte; padded to 60 bytes as a NIC would.
 */
static const uint8_t ARP_REQ[60] = {
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, /* dst: broadcast */
    0x02, 0xdf, 0x00, 0x00, 0x00, 0x00, /* src: host 0 */
    0x08, 0x06,                         /* EtherType ARP */
    0x00, 0x01,                         /* htype Ethernet */
    0x08, 0x00,                         /* ptype IPv4 */
    0x06, 0x04,                         /* hlen, plen */
    0x00, 0x01,                         /* oper: request */
    0x02, 0xdf, 0x00, 0x00, 0x00, 0x00, /* sha: host 0 */
    0x0a, 0x00, 0x00, 0x01,             /* spa: 10.0.0.1 */
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* tha: unknown */
    0x0a, 0x00, 0x00, 0x06,             /* tpa: 10.0.0.6 */
					/* 18 bytes of padding (zero) */
};

/* The reply the edge router must send back to host 0. */
static const uint8_t ARP_REPLY[42] = {
    0x02, 0xdf, 0x00, 0x00, 0x00, 0x00, /* dst: host 0 */
    0x02, 0xdf, 0x00, 0x00, 0x00, 0x05, /* src: host 5 */
    0x08, 0x06,                         /* EtherType ARP */
    0x00, 0x01,                         /* htype Ethernet */
    0x08, 0x00,                         /* ptype IPv4 */
    0x06, 0x04,                         /* hlen, plen */
    0x00, 0x02,                         /* oper: reply */
    0x02, 0xdf, 0x00, 0x00, 0x00, 0x05, /* sha: host 5 */
    0x0a, 0x00, 0x00, 0x06,             /* spa: 10.0.0.6 */
    0x02, 0xdf, 0x00, 0x00, 0x00, 0x00, /* tha: host 0 */
    0x0a, 0x00, 0x00, 0x01,             /* tpa: 10.0.0.1 */
};

static void test_arp_reply(void **state)
{
	const struct dp_host_table *t = *state;
	struct result r;

	/* padded (60) and unpadded (42): the same reply, 42 bytes, nothing written after it */
	for (size_t len = 42; len <= 60; len += 18) {
		r = classify(t, 0, ARP_REQ, len);
		assert_int_equal(r.v, DP_HOST_REPLY);
		assert_int_equal(r.reply_len, DP_HOST_ARP_LEN);
		assert_memory_equal(r.reply, ARP_REPLY, sizeof(ARP_REPLY));
		assert_int_equal(r.reply[42], 0xee);
		assert_int_equal(r.dst_node, SENTINEL_NODE);
		assert_int_equal(r.why, SENTINEL_WHY);
	}
	/* a reply buffer of exactly 42 bytes is enough */
	r = classify_n(t, 0, ARP_REQ, 42, MAX_FRAME, 42);
	assert_int_equal(r.v, DP_HOST_REPLY);
	assert_memory_equal(r.reply, ARP_REPLY, sizeof(ARP_REPLY));

	/* the reply goes to sha, and tells the asker's spa back: a DAD-style probe (spa 0) from a
	 * host whose Ethernet source differs from sha, for host 71 */
	uint8_t req[42];
	memcpy(req, ARP_REQ, sizeof(req));
	memcpy(req + 6, HOSTS[1].mac, 6);                                      /* eth src */
	memcpy(req + 22, (uint8_t[6]){0x02, 0x11, 0x22, 0x33, 0x44, 0x55}, 6); /* sha */
	memset(req + 28, 0, 4);                                                /* spa 0.0.0.0 */
	memcpy(req + 38, (uint8_t[4]){10, 0, 0, 72}, 4);                       /* tpa */
	r = classify(t, 5, req, sizeof(req));
	assert_int_equal(r.v, DP_HOST_REPLY);
	static const uint8_t want[42] = {
	    0x02, 0x11, 0x22, 0x33, 0x44, 0x55, 0x02, 0xdf, 0x00, 0x00, 0x00, 0x47, 0x08, 0x06,
	    0x00, 0x01, 0x08, 0x00, 0x06, 0x04, 0x00, 0x02, 0x02, 0xdf, 0x00, 0x00, 0x00, 0x47,
	    0x0a, 0x00, 0x00, 0x48, 0x02, 0x11, 0x22, 0x33, 0x44, 0x55, 0x00, 0x00, 0x00, 0x00,
	};
	assert_memory_equal(r.reply, want, sizeof(want));
}

static void test_arp_not_answered(void **state)
{
	const struct dp_host_table *t = *state;
	uint8_t req[60];

	/* for an IP no host has */
	memcpy(req, ARP_REQ, sizeof(req));
	req[41] = 99;
	ASSERT_DROP(classify(t, 0, req, sizeof(req)), HOST_NON_UNICAST);
	memset(req + 38, 0, 4); /* for 0.0.0.0 (hosts[3] has no IP) */
	ASSERT_DROP(classify(t, 0, req, sizeof(req)), HOST_NON_UNICAST);

	/* for the asker's own IP: a DAD probe (spa 0) */
	memcpy(req, ARP_REQ, sizeof(req));
	memset(req + 28, 0, 4);
	req[41] = 1;
	ASSERT_DROP(classify(t, 0, req, sizeof(req)), HOST_NON_UNICAST);

	/* gratuitous (spa == tpa): of the asker's own IP, and even of another host's IP */
	memcpy(req, ARP_REQ, sizeof(req));
	req[41] = 1;
	ASSERT_DROP(classify(t, 0, req, sizeof(req)), HOST_NON_UNICAST);
	memcpy(req, ARP_REQ, sizeof(req));
	req[31] = 6;
	ASSERT_DROP(classify(t, 0, req, sizeof(req)), HOST_NON_UNICAST);

	/* an ARP reply broadcast by a host (gratuitous reply) */
	memcpy(req, ARP_REQ, sizeof(req));
	req[21] = 2;
	ASSERT_DROP(classify(t, 0, req, sizeof(req)), HOST_NON_UNICAST);
	req[21] = 3; /* RARP request */
	ASSERT_DROP(classify(t, 0, req, sizeof(req)), HOST_NON_UNICAST);
	req[20] = 1;
	req[21] = 1; /* oper 0x0101 */
	ASSERT_DROP(classify(t, 0, req, sizeof(req)), HOST_NON_UNICAST);

	/* a wrong htype, ptype, hlen or plen */
	static const struct {
		size_t off;
		uint8_t val;
	} bad[] = {
	    {14, 0x01}, {15, 0x06}, {16, 0x86}, {17, 0x01}, {18, 8}, {18, 0}, {19, 16}, {19, 6},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memcpy(req, ARP_REQ, sizeof(req));
		req[bad[i].off] = bad[i].val;
		struct result r = classify(t, 0, req, sizeof(req));
		CHECK(r.v == DP_HOST_DROP && r.why == DFLY_DROP_HOST_NON_UNICAST,
		      "byte %zu = 0x%02x: verdict %d why %d", bad[i].off, bad[i].val, r.v, r.why);
	}

	/* a sender hardware address the reply could not go to */
	memcpy(req, ARP_REQ, sizeof(req));
	req[22] = 0x03;
	ASSERT_DROP(classify(t, 0, req, sizeof(req)), HOST_NON_UNICAST);
	memset(req + 22, 0, 6);
	ASSERT_DROP(classify(t, 0, req, sizeof(req)), HOST_NON_UNICAST);

	/* to a multicast address that is not broadcast */
	memcpy(req, ARP_REQ, sizeof(req));
	memcpy(req, (uint8_t[6]){0x01, 0x00, 0x5e, 0x00, 0x00, 0x01}, 6);
	ASSERT_DROP(classify(t, 0, req, sizeof(req)), HOST_NON_UNICAST);

	/* behind an 802.1Q tag: not answered */
	uint8_t tagged[64];
	memcpy(tagged, ARP_REQ, 12);
	memcpy(tagged + 12, (uint8_t[4]){0x81, 0x00, 0x00, 0x07}, 4);
	memcpy(tagged + 16, ARP_REQ + 12, 48);
	ASSERT_DROP(classify(t, 0, tagged, sizeof(tagged)), HOST_NON_UNICAST);

	/* no room for the reply */
	ASSERT_DROP(classify_n(t, 0, ARP_REQ, 60, MAX_FRAME, DP_HOST_ARP_LEN - 1),
		    HOST_NON_UNICAST);
	struct result r;
	r.reply_len = SENTINEL_LEN;
	r.why = SENTINEL_WHY;
	r.v = dp_host_classify(t, 0, ARP_REQ, 60, MAX_FRAME, &r.dst_node, NULL, 64, &r.reply_len,
			       &r.why);
	assert_int_equal(r.v, DP_HOST_DROP);
	assert_int_equal(r.why, DFLY_DROP_HOST_NON_UNICAST);
	assert_int_equal(r.reply_len, SENTINEL_LEN);
}

static void test_arp_truncated(void **state)
{
	const struct dp_host_table *t = *state;

	/* every length from a bare Ethernet header to one byte short of the ARP body */
	for (size_t len = 14; len < DP_HOST_ARP_LEN; len++) {
		struct result r = classify(t, 0, ARP_REQ, len);

		CHECK(r.v == DP_HOST_DROP && r.why == DFLY_DROP_HOST_BAD_FRAME,
		      "ARP of %zu bytes: verdict %d why %d", len, r.v, r.why);
	}
}

/* A unicast ARP request (Linux probes a cached neighbour so) goes to the host like any frame. */
static void test_arp_unicast_forwarded(void **state)
{
	const struct dp_host_table *t = *state;
	uint8_t req[60];

	memcpy(req, ARP_REQ, sizeof(req));
	memcpy(req, HOSTS[1].mac, 6);
	memcpy(req + 32, HOSTS[1].mac, 6);
	ASSERT_FORWARD(classify(t, 0, req, sizeof(req)), 5);
}

static void test_spoof(void **state)
{
	const struct dp_host_table *t = *state;
	static const uint16_t types[] = {DFLY_WIRE_ETHERTYPE_DATA, DFLY_WIRE_ETHERTYPE_CTRL,
					 DFLY_WIRE_ETHERTYPE_BUNDLE};
	const uint8_t *dsts[] = {HOSTS[1].mac, HOSTS[0].mac, UNKNOWN_MAC, BCAST};
	uint8_t f[2048 + 4];

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		for (size_t d = 0; d < sizeof(dsts) / sizeof(dsts[0]); d++) {
			/* untagged, from the bare header to beyond max_frame (spoof is checked
			 * first) */
			static const size_t lens[] = {14, 60, MAX_FRAME, MAX_FRAME + 1, 2048};

			for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
				struct result r;

				eth_frame(f, lens[l], dsts[d], HOSTS[0].mac, types[i]);
				r = classify(t, 0, f, lens[l]);
				CHECK(r.v == DP_HOST_DROP && r.why == DFLY_DROP_HOST_SPOOF,
				      "type %04x dst %zu len %zu: verdict %d why %d", types[i], d,
				      lens[l], r.v, r.why);

				/* behind one 802.1Q tag */
				eth_frame(f, lens[l] + 4, dsts[d], HOSTS[0].mac,
					  DFLY_WIRE_ETHERTYPE_VLAN);
				f[14] = 0x00;
				f[15] = 0x07;
				f[16] = (uint8_t)(types[i] >> 8);
				f[17] = (uint8_t)types[i];
				r = classify(t, 0, f, lens[l] + 4);
				CHECK(r.v == DP_HOST_DROP && r.why == DFLY_DROP_HOST_SPOOF,
				      "tagged type %04x dst %zu len %zu: verdict %d why %d",
				      types[i], d, lens[l] + 4, r.v, r.why);
			}
		}
	}
	/* a tag cut short is a bad frame */
	eth_frame(f, 18, HOSTS[1].mac, HOSTS[0].mac, DFLY_WIRE_ETHERTYPE_VLAN);
	f[16] = 0x88;
	f[17] = 0xb5;
	for (size_t len = 14; len < 18; len++)
		ASSERT_DROP(classify(t, 0, f, len), HOST_BAD_FRAME);
	ASSERT_DROP(classify(t, 0, f, 18), HOST_SPOOF);

	/* neighbours of the fabric EtherTypes are ordinary frames */
	eth_frame(f, 60, HOSTS[1].mac, HOSTS[0].mac, 0x88b4);
	ASSERT_FORWARD(classify(t, 0, f, 60), 5);
	eth_frame(f, 60, HOSTS[1].mac, HOSTS[0].mac, 0x88b8);
	ASSERT_FORWARD(classify(t, 0, f, 60), 5);
	/* a tagged IPv4 frame to a known host is carried unchanged */
	eth_frame(f, 64, HOSTS[1].mac, HOSTS[0].mac, DFLY_WIRE_ETHERTYPE_VLAN);
	f[16] = 0x08;
	f[17] = 0x00;
	ASSERT_FORWARD(classify(t, 0, f, 64), 5);
}

static void test_non_unicast(void **state)
{
	const struct dp_host_table *t = *state;
	static const struct {
		uint8_t dst[6];
		uint16_t type;
	} cases[] = {
	    {{0x33, 0x33, 0x00, 0x00, 0x00, 0x01}, 0x86dd}, /* IPv6 all-nodes */
	    {{0x33, 0x33, 0xff, 0x00, 0x00, 0x05}, 0x86dd}, /* IPv6 solicited-node (ND) */
	    {{0x01, 0x00, 0x5e, 0x00, 0x00, 0xfb}, 0x0800}, /* mDNS */
	    {{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, 0x0800}, /* IPv4 broadcast (DHCP) */
	    {{0x01, 0x80, 0xc2, 0x00, 0x00, 0x00}, 0x0026}, /* STP (802.3 length) */
	    {{0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e}, 0x88cc}, /* LLDP */
	    {{0x03, 0xdf, 0x00, 0x00, 0x00, 0x05}, 0x0800}, /* host 5's MAC with the I/G bit */
	};
	uint8_t f[90];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		eth_frame(f, sizeof(f), cases[i].dst, HOSTS[0].mac, cases[i].type);
		struct result r = classify(t, 0, f, sizeof(f));
		CHECK(r.v == DP_HOST_DROP && r.why == DFLY_DROP_HOST_NON_UNICAST,
		      "case %zu: verdict %d why %d", i, r.v, r.why);
	}
	/* a bare header (14 bytes) to a multicast address */
	eth_frame(f, 14, cases[0].dst, HOSTS[0].mac, 0x86dd);
	ASSERT_DROP(classify(t, 0, f, 14), HOST_NON_UNICAST);
}

static void test_unicast(void **state)
{
	const struct dp_host_table *t = *state;
	uint8_t f[MAX_FRAME + 1];

	/* to every other host, from every host */
	for (unsigned s = 0; s < NHOSTS; s++) {
		for (unsigned d = 0; d < NHOSTS; d++) {
			struct result r;

			eth_frame(f, 98, HOSTS[d].mac, HOSTS[s].mac, 0x0800);
			r = classify(t, HOSTS[s].node, f, 98);
			if (s == d)
				CHECK(r.v == DP_HOST_DROP && r.why == DFLY_DROP_HOST_UNKNOWN_DST,
				      "%u to itself: verdict %d why %d", s, r.v, r.why);
			else
				CHECK(r.v == DP_HOST_FORWARD && r.dst_node == HOSTS[d].node &&
					  r.why == SENTINEL_WHY && r.reply_len == SENTINEL_LEN,
				      "%u to %u: verdict %d dst %u", s, d, r.v, r.dst_node);
		}
	}
	/* to itself, and to an unknown MAC */
	eth_frame(f, 98, HOSTS[0].mac, HOSTS[0].mac, 0x0800);
	ASSERT_DROP(classify(t, 0, f, 98), HOST_UNKNOWN_DST);
	eth_frame(f, 98, UNKNOWN_MAC, HOSTS[0].mac, 0x0800);
	ASSERT_DROP(classify(t, 0, f, 98), HOST_UNKNOWN_DST);
	eth_frame(f, 98, (uint8_t[6]){0x02, 0xdf, 0x00, 0x00, 0x00, 0x01}, HOSTS[0].mac, 0x0800);
	ASSERT_DROP(classify(t, 0, f, 98), HOST_UNKNOWN_DST);

	/* the sizes: a bare header and exactly max_frame are carried */
	eth_frame(f, 14, HOSTS[1].mac, HOSTS[0].mac, 0x0800);
	ASSERT_FORWARD(classify(t, 0, f, 14), 5);
	eth_frame(f, MAX_FRAME, HOSTS[1].mac, HOSTS[0].mac, 0x0800);
	ASSERT_FORWARD(classify(t, 0, f, MAX_FRAME), 5);
}

static void test_bad_frame(void **state)
{
	const struct dp_host_table *t = *state;
	uint8_t f[MAX_FRAME + 1];

	/* runts: nothing beyond len is read, not even with len 0 and no buffer */
	eth_frame(f, 14, HOSTS[1].mac, HOSTS[0].mac, 0x0800);
	for (size_t len = 0; len < 14; len++)
		ASSERT_DROP(classify(t, 0, f, len), HOST_BAD_FRAME);
	struct result r = {.why = SENTINEL_WHY};
	r.v = dp_host_classify(t, 0, NULL, 0, MAX_FRAME, &r.dst_node, r.reply, sizeof(r.reply),
			       &r.reply_len, &r.why);
	assert_int_equal(r.v, DP_HOST_DROP);
	assert_int_equal(r.why, DFLY_DROP_HOST_BAD_FRAME);

	/* oversize: unicast, broadcast ARP and multicast alike */
	eth_frame(f, MAX_FRAME + 1, HOSTS[1].mac, HOSTS[0].mac, 0x0800);
	ASSERT_DROP(classify(t, 0, f, MAX_FRAME + 1), HOST_BAD_FRAME);
	memcpy(f, ARP_REQ, sizeof(ARP_REQ));
	ASSERT_DROP(classify(t, 0, f, MAX_FRAME + 1), HOST_BAD_FRAME);
	ASSERT_DROP(classify_n(t, 0, ARP_REQ, 60, 59, 64), HOST_BAD_FRAME);
	eth_frame(f, MAX_FRAME + 1, BCAST, HOSTS[0].mac, 0x86dd);
	ASSERT_DROP(classify(t, 0, f, MAX_FRAME + 1), HOST_BAD_FRAME);
	/* max_frame as computed for a real configuration: 16 phits of 64 bytes */
	size_t max = dp_host_max_frame(16, 64);
	assert_int_equal(max, 976);
	eth_frame(f, max + 1, HOSTS[1].mac, HOSTS[0].mac, 0x0800);
	ASSERT_FORWARD(classify_n(t, 0, f, max, max, 64), 5);
	ASSERT_DROP(classify_n(t, 0, f, max + 1, max, 64), HOST_BAD_FRAME);
}

/* ---- mutation sweep ------------------------------------------------------------------------ */

static uint64_t prng_seed = 0x6f5d1c2b3a490817ULL;
static uint64_t prng_state;

/* splitmix64 */
static uint32_t prng_next(void)
{
	uint64_t z = (prng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (uint32_t)((z ^ (z >> 31)) >> 32);
}

/* Check that verdict @p r is one the frame allows (dp_host_classify's contract). */
static void check_consistent(const struct dp_host_table *t, uint32_t in_node, const uint8_t *f,
			     size_t len, const struct result *r, unsigned iter)
{
	const struct dp_host_entry *dst;

	switch (r->v) {
	case DP_HOST_FORWARD:
		CHECK(len >= 14 && len <= MAX_FRAME, "iter %u: forwarded %zu bytes", iter, len);
		dst = dp_host_by_mac(t, f);
		CHECK(dst != NULL && dst->node == r->dst_node && dst->node != in_node,
		      "iter %u: forwarded to node %u", iter, r->dst_node);
		CHECK(!(f[12] == 0x88 && (f[13] == 0xb5 || f[13] == 0xb6)),
		      "iter %u: forwarded a fabric frame", iter);
		break;
	case DP_HOST_REPLY:
		CHECK(len >= DP_HOST_ARP_LEN && len <= MAX_FRAME && memcmp(f, BCAST, 6) == 0 &&
			  f[12] == 0x08 && f[13] == 0x06 && f[21] == 1,
		      "iter %u: answered a frame that is not an ARP request", iter);
		CHECK(r->reply_len == DP_HOST_ARP_LEN && r->reply[42] == 0xee,
		      "iter %u: reply of %zu bytes", iter, r->reply_len);
		dst = dp_host_by_mac(t, r->reply + 6);
		CHECK(dst != NULL && dst->node != in_node && dst->ip != 0 &&
			  memcmp(r->reply + 22, dst->mac, 6) == 0 &&
			  memcmp(r->reply, f + 22, 6) == 0,
		      "iter %u: inconsistent reply", iter);
		break;
	case DP_HOST_DROP:
		CHECK(r->why == DFLY_DROP_HOST_SPOOF || r->why == DFLY_DROP_HOST_UNKNOWN_DST ||
			  r->why == DFLY_DROP_HOST_NON_UNICAST ||
			  r->why == DFLY_DROP_HOST_BAD_FRAME,
		      "iter %u: drop reason %d", iter, r->why);
		break;
	default:
		fail_msg("iter %u: verdict %d", iter, r->v);
	}
}

static void test_mutations(void **state)
{
	const struct dp_host_table *t = *state;
	unsigned counts[3] = {0, 0, 0};
	uint8_t f[MAX_FRAME + 8];

	prng_state = prng_seed;
	for (unsigned iter = 0; iter < 200000; iter++) {
		uint32_t in_node = HOSTS[prng_next() % NHOSTS].node;
		size_t len;

		if (iter % 2 == 0) {
			/* an ARP request with 1..4 random bytes changed, 30..70 bytes long */
			memcpy(f, ARP_REQ, sizeof(ARP_REQ));
			memset(f + sizeof(ARP_REQ), 0, 16);
			len = 30 + prng_next() % 41;
			for (unsigned k = 1 + prng_next() % 4; k > 0; k--) {
				uint32_t x = prng_next();

				f[x % 46] = (uint8_t)(x >> 16);
			}
			/* often a valid target: any host's IP */
			if (prng_next() % 2)
				memcpy(f + 38,
				       (uint8_t[4]){10, 0, 0, (uint8_t)(1 + prng_next() % 80)}, 4);
		} else {
			/* a random frame: a table, broadcast or random MAC, a chosen EtherType */
			static const uint16_t types[] = {0x0800, 0x0806, 0x86dd, 0x8100,
							 0x88b5, 0x88b6, 0x88b7, 0x88a8};
			len = prng_next() % (MAX_FRAME + 8);
			for (size_t i = 0; i < len; i++)
				f[i] = (uint8_t)prng_next();
			if (len >= 14) {
				uint32_t x = prng_next();

				if (x % 3 == 0)
					memcpy(f, HOSTS[(x >> 8) % NHOSTS].mac, 6);
				else if (x % 3 == 1)
					memcpy(f, BCAST, 6);
				f[12] = (uint8_t)(types[(x >> 16) % 7] >> 8);
				f[13] = (uint8_t)types[(x >> 16) % 7];
			}
			if (len >= 18 && prng_next() % 2) {
				uint16_t inner = types[prng_next() % 7];

				f[16] = (uint8_t)(inner >> 8);
				f[17] = (uint8_t)inner;
			}
		}
		struct result r = classify(t, in_node, f, len);
		check_consistent(t, in_node, f, len, &r, iter);
		counts[r.v]++;
	}
	printf("test_host: %u forwarded, %u replied, %u dropped\n", counts[DP_HOST_FORWARD],
	       counts[DP_HOST_REPLY], counts[DP_HOST_DROP]);
	/* the sweep reaches every verdict */
	assert_true(counts[DP_HOST_FORWARD] > 0 && counts[DP_HOST_REPLY] > 0 &&
		    counts[DP_HOST_DROP] > 0);
}

/* ---- sizes --------------------------------------------------------------------------------- */

static void test_phits(void **state)
{
	(void)state;

	/* 8-byte phits: the 48-byte header is 6 phits */
	assert_int_equal(dp_host_frame_phits(0, 8), 6);
	assert_int_equal(dp_host_frame_phits(1, 8), 7);
	assert_int_equal(dp_host_frame_phits(8, 8), 7);
	assert_int_equal(dp_host_frame_phits(9, 8), 8);
	assert_int_equal(dp_host_frame_phits(14, 8), 8);
	assert_int_equal(dp_host_frame_phits(1514, 8), 196); /* 1562 bytes */
	/* 64-byte phits: 48 + 1514 = 1562 bytes, 25 phits (1600 bytes) */
	assert_int_equal(dp_host_frame_phits(1514, 64), 25);
	assert_int_equal(dp_host_frame_phits(1552, 64), 25);
	assert_int_equal(dp_host_frame_phits(1553, 64), 26);
	assert_int_equal(dp_host_frame_phits(16, 64), 1);
	assert_int_equal(dp_host_frame_phits(17, 64), 2);
	/* at least 1, even with phits larger than the whole packet */
	assert_int_equal(dp_host_frame_phits(0, 4096), 1);
	assert_int_equal(dp_host_frame_phits(0, 1), 48);
	assert_int_equal(dp_host_frame_phits(0, UINT32_MAX), 1);
	/* saturation and the invalid phit size */
	assert_int_equal(dp_host_frame_phits(SIZE_MAX, 1), UINT32_MAX);
	assert_int_equal(dp_host_frame_phits(SIZE_MAX - 47, 1), UINT32_MAX);
	assert_int_equal(dp_host_frame_phits(1514, 0), 0);

	assert_int_equal(dp_host_max_frame(6, 8), 0);
	assert_int_equal(dp_host_max_frame(7, 8), 8);
	assert_int_equal(dp_host_max_frame(25, 64), 1552);
	assert_int_equal(dp_host_max_frame(1, 48), 0);
	assert_int_equal(dp_host_max_frame(1, 49), 1);
	assert_int_equal(dp_host_max_frame(0, 64), 0);
	assert_int_equal(dp_host_max_frame(64, 0), 0);
	assert_true(dp_host_max_frame(UINT32_MAX, UINT32_MAX) ==
		    (size_t)((uint64_t)UINT32_MAX * UINT32_MAX - 48));

	/* the inverse: the largest frame fits, one byte more does not */
	for (uint32_t pb = 1; pb <= 80; pb++) {
		for (uint32_t mp = 1; mp <= 200; mp++) {
			size_t max = dp_host_max_frame(mp, pb);

			if (max > 0)
				CHECK(dp_host_frame_phits(max, pb) == mp,
				      "phit %u max %u: %zu bytes take %u phits", pb, mp, max,
				      dp_host_frame_phits(max, pb));
			else
				CHECK((uint64_t)mp * pb <= 48, "phit %u max %u: nothing fits", pb,
				      mp);
			CHECK(dp_host_frame_phits(max + 1, pb) > mp,
			      "phit %u max %u: %zu bytes still fit", pb, mp, max + 1);
		}
	}
}

/* ---- text and defaults --------------------------------------------------------------------- */

static void test_parse_mac(void **state)
{
	(void)state;
	static const char *const bad[] = {
	    "02:00:00:00:00",      "02:00:00:00:00:0g",  "02:00:00:00:00:01:",
	    "02:00:00:00:00:011",  "02:00:00:00:00:01 ", " 02:00:00:00:00:01",
	    "02-00-00-00-00-01",   "2:0:0:0:0:1",        "",
	    "02:00:00:00:00:",     "0200.0000.0001",     "02:00:00:00:00:00:00",
	    "02::00:00:00:00:01",  "02:00:00:00:00:1",   "0x:00:00:00:00:01",
	    "02:00:00:00:00:01\n", ":02:00:00:00:00:01", "g2:00:00:00:00:01",
	};
	uint8_t mac[6] = {1, 2, 3, 4, 5, 6};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(dp_host_parse_mac(bad[i], mac) == -EINVAL, "\"%s\" accepted", bad[i]);
		assert_memory_equal(mac, ((uint8_t[6]){1, 2, 3, 4, 5, 6}), 6);
	}
	assert_int_equal(dp_host_parse_mac(NULL, mac), -EINVAL);

	assert_int_equal(dp_host_parse_mac("02:00:00:00:00:01", mac), 0);
	assert_memory_equal(mac, ((uint8_t[6]){0x02, 0, 0, 0, 0, 0x01}), 6);
	assert_int_equal(dp_host_parse_mac("02:DF:0a:Bc:9F:ff", mac), 0);
	assert_memory_equal(mac, ((uint8_t[6]){0x02, 0xdf, 0x0a, 0xbc, 0x9f, 0xff}), 6);

	char buf[DP_HOST_MAC_STRLEN];
	dp_host_format_mac(mac, buf);
	assert_string_equal(buf, "02:df:0a:bc:9f:ff");
	dp_host_format_mac(BCAST, buf);
	assert_string_equal(buf, "ff:ff:ff:ff:ff:ff");
}

static void test_parse_ipv4(void **state)
{
	(void)state;
	static const char *const bad[] = {
	    "256.1.1.1",  "1.2.3",      " 1.2.3.4",  "1.2.3.4 ",   "1.2.3.4.", "1.2.3.4.5",
	    "01.2.3.4",   "1.2.3.00",   "1..2.3",    "",           ".1.2.3",   "1.2.3.-4",
	    "1.2.3.1000", "1.2.3.0255", "+1.2.3.4",  "1.2.3.4\n",  "a.b.c.d",  "1.2.3.256",
	    "0x1.2.3.4",  "1.2.3.4/24", "999.1.1.1", "4294967297", "1,2,3,4",  "1.2.3.",
	};
	uint32_t ip = 0x55555555;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(dp_host_parse_ipv4(bad[i], &ip) == -EINVAL, "\"%s\" accepted", bad[i]);
		assert_int_equal(ip, 0x55555555);
	}
	assert_int_equal(dp_host_parse_ipv4(NULL, &ip), -EINVAL);

	assert_int_equal(dp_host_parse_ipv4("10.0.0.1", &ip), 0);
	assert_int_equal(ip, 0x0a000001);
	assert_int_equal(dp_host_parse_ipv4("0.0.0.0", &ip), 0);
	assert_int_equal(ip, 0);
	assert_int_equal(dp_host_parse_ipv4("255.255.255.255", &ip), 0);
	assert_int_equal(ip, 0xffffffff);
	assert_int_equal(dp_host_parse_ipv4("192.168.100.10", &ip), 0);
	assert_int_equal(ip, IP(192, 168, 100, 10));
	assert_int_equal(dp_host_parse_ipv4("1.20.0.199", &ip), 0);
	assert_int_equal(ip, IP(1, 20, 0, 199));

	char buf[DP_HOST_IPV4_STRLEN];
	dp_host_format_ipv4(IP(192, 168, 100, 10), buf);
	assert_string_equal(buf, "192.168.100.10");
	dp_host_format_ipv4(0xffffffff, buf);
	assert_string_equal(buf, "255.255.255.255");
	dp_host_format_ipv4(0, buf);
	assert_string_equal(buf, "0.0.0.0");
}

static void test_defaults(void **state)
{
	(void)state;
	uint8_t mac[6];

	dp_host_default_mac(0, mac);
	assert_memory_equal(mac, ((uint8_t[6]){0x02, 0xdf, 0x00, 0x00, 0x00, 0x00}), 6);
	dp_host_default_mac(0x123456, mac);
	assert_memory_equal(mac, ((uint8_t[6]){0x02, 0xdf, 0x00, 0x12, 0x34, 0x56}), 6);
	dp_host_default_mac(0xab000005, mac); /* only the low 24 bits */
	assert_memory_equal(mac, ((uint8_t[6]){0x02, 0xdf, 0x00, 0x00, 0x00, 0x05}), 6);

	assert_int_equal(dp_host_default_ip(IP(10, 1, 0, 0), 0), IP(10, 1, 0, 1));
	assert_int_equal(dp_host_default_ip(IP(10, 1, 0, 0), 254), IP(10, 1, 0, 255));
	assert_int_equal(dp_host_default_ip(IP(10, 1, 0, 0), 255), IP(10, 1, 1, 0));
	assert_int_equal(dp_host_default_ip(IP(10, 1, 0, 0), 65533), IP(10, 1, 255, 254));

	/* the defaults of a whole h=2 network make a valid table */
	struct dp_host_entry e[NODES];
	struct dp_host_table *t = NULL;
	char err[160];

	for (uint32_t n = 0; n < NODES; n++) {
		e[n].node = n;
		dp_host_default_mac(n, e[n].mac);
		e[n].ip = dp_host_default_ip(IP(10, 0, 0, 0), n);
	}
	assert_int_equal(dp_host_table_create(&t, e, NODES, NODES, err, sizeof(err)), 0);
	dp_host_table_destroy(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_table_node_range),
	    cmocka_unit_test(test_table_duplicates),
	    cmocka_unit_test(test_table_bad_mac),
	    cmocka_unit_test(test_table_bad_ip),
	    cmocka_unit_test(test_table_first_error_wins),
	    cmocka_unit_test(test_table_args),
	    cmocka_unit_test_setup_teardown(test_lookups, table_setup, table_teardown),
	    cmocka_unit_test(test_lookups_large),
	    cmocka_unit_test_setup_teardown(test_arp_reply, table_setup, table_teardown),
	    cmocka_unit_test_setup_teardown(test_arp_not_answered, table_setup, table_teardown),
	    cmocka_unit_test_setup_teardown(test_arp_truncated, table_setup, table_teardown),
	    cmocka_unit_test_setup_teardown(test_arp_unicast_forwarded, table_setup,
					    table_teardown),
	    cmocka_unit_test_setup_teardown(test_spoof, table_setup, table_teardown),
	    cmocka_unit_test_setup_teardown(test_non_unicast, table_setup, table_teardown),
	    cmocka_unit_test_setup_teardown(test_unicast, table_setup, table_teardown),
	    cmocka_unit_test_setup_teardown(test_bad_frame, table_setup, table_teardown),
	    cmocka_unit_test_setup_teardown(test_mutations, table_setup, table_teardown),
	    cmocka_unit_test(test_phits),
	    cmocka_unit_test(test_parse_mac),
	    cmocka_unit_test(test_parse_ipv4),
	    cmocka_unit_test(test_defaults),
	};

	const char *seed = getenv("DFLY_TEST_SEED");

	if (seed != NULL)
		prng_seed = strtoull(seed, NULL, 0);
	printf("test_host: seed %#" PRIx64 " (set DFLY_TEST_SEED to override)\n", prng_seed);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
