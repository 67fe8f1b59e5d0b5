/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of the wire format v2 codec (include/dfly/wire.h, asic-emu/wire.c). Negative tests
 * first: every decoder error on a frame mutated at its documented offset, every truncation length
 * (each decoded from a heap block of exactly that size, so a sanitizer build catches any read
 * past the end), oversized tails, and every encoder refusal. Then golden byte images that pin
 * the layout, round trips of every field at its boundaries, the HELLO miswiring check against a
 * real topology, and a mutation sweep from a printed seed (override with DFLY_TEST_SEED) that
 * requires each decoder to return 0 or a named error, and an accepted frame to re-encode to the
 * same bytes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dfly/wire.h"

/* Assert that @p rc is -DFLY_WIRE_E_<E>, naming both errors on failure. */
#define ASSERT_ERR(rc, E)                                                                          \
	do {                                                                                       \
		int rc_ = (rc);                                                                    \
		if (rc_ != -DFLY_WIRE_E_##E)                                                       \
			fail_msg("%s:%d: got %d (%s), want %s", __FILE__, __LINE__, rc_,           \
				 dfly_wire_err_name(rc_), #E);                                     \
	} while (0)

/* Assert with a formatted message; used inside loops to name the failing case. */
#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		if (!(cond))                                                                       \
			fail_msg(__VA_ARGS__);                                                     \
	} while (0)

#define OFF     DFLY_WIRE_ETH_LEN /* first byte after the EtherType, untagged */
#define BUF_LEN 2048

/* ---- deterministic PRNG (splitmix64) ---------------------------------------------------- */

static uint64_t prng_seed = 0x3a5e0f1b2c4d6e7fULL;
static uint64_t prng_state;

static uint32_t prng_next(void)
{
	uint64_t z = (prng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (uint32_t)((z ^ (z >> 31)) >> 32);
}

/* ---- fixtures ---------------------------------------------------------------------------- */

/* p=2, a=4, h=2, t=1: g=9, 36 routers, 72 nodes, radix 7; 4 VCs, packets up to 16 phits. */
static const struct dfly_wire_limits LIM = {
    .nodes = 72,
    .routers = 36,
    .p = 2,
    .a = 4,
    .h = 2,
    .t = 1,
    .vcs = 4,
    .max_phits = 16,
};

static const struct dfly_wire_eth ETH = {
    .dst = {0x02, 0xdf, 0x00, 0x00, 0x01, 0x03},
    .src = {0x02, 0xdf, 0x00, 0x00, 0x00, 0x05},
};

static const uint8_t PAYLOAD[5] = {0xa0, 0xa1, 0xa2, 0xa3, 0xa4};

/* A data header with every field distinct and at a boundary where it has one. */
static struct dfly_wire_data data_max(void)
{
	struct dfly_wire_data d = {
	    .type = DFLY_WIRE_PKT_SYNTH,
	    .flags = DFLY_WIRE_F_ALL,
	    .global_hops = 2,
	    .local_hops = 3,
	    .vc = 3,
	    .size_phits = 16,
	    .src_node = 0,
	    .dst_node = 71,
	    .via_router = 35,
	    .seq = 0xfedcba98u,
	    .gen_cycle = 0x0102030405060708ULL,
	    .pb_vec = 0xdeadbeefu,
	    .tag = 0x11223344u,
	    .payload_len = sizeof(PAYLOAD),
	    .path_lhops = 0x5a,
	    .inj_delay = 0x0a0b0c0du,
	};
	return d;
}

/* The smallest legal values. */
static struct dfly_wire_data data_min(void)
{
	struct dfly_wire_data d = {
	    .type = DFLY_WIRE_PKT_SYNTH,
	    .size_phits = 1,
	    .via_router = DFLY_WIRE_NO_ROUTER,
	};
	return d;
}

static int encode_data(uint8_t *buf, const struct dfly_wire_data *d)
{
	int n = dfly_wire_data_encode(buf, BUF_LEN, &ETH, d, d->payload_len ? PAYLOAD : NULL);

	CHECK(n > 0, "data encode failed: %d (%s)", n, dfly_wire_err_name(n));
	return n;
}

static int encode_ctrl(uint8_t *buf, const struct dfly_wire_ctrl *m)
{
	int n = dfly_wire_ctrl_encode(buf, BUF_LEN, &ETH, m);

	CHECK(n > 0, "ctrl encode failed: %d (%s)", n, dfly_wire_err_name(n));
	return n;
}

static struct dfly_wire_ctrl ctrl_credit(unsigned n)
{
	struct dfly_wire_ctrl m = {.type = DFLY_WIRE_CTRL_CREDIT, .src_router = 35};

	m.credit.n = (uint8_t)n;
	m.credit.due = 0x1112131415161718ull;
	for (unsigned i = 0; i < n; i++) {
		m.credit.e[i].vc = (uint8_t)(i % LIM.vcs);
		m.credit.e[i].flags = i % 2 ? DFLY_WIRE_CREDIT_F_MIN : 0;
		m.credit.e[i].phits = (uint16_t)(i == 0 ? 1 : i == 1 ? 0xffff : 0x100 + i);
	}
	return m;
}

static struct dfly_wire_ctrl ctrl_pb(unsigned vg)
{
	struct dfly_wire_ctrl m = {.type = DFLY_WIRE_CTRL_PB_STATE, .src_router = 7};

	m.pb.h = 2;
	m.pb.vg = (uint8_t)vg;
	m.pb.sat[0] = (uint8_t)(1u << (vg - 1)); /* top VC of port 0 */
	m.pb.sat[1] = 1;                         /* VC 0 of port 1 */
	return m;
}

static struct dfly_wire_ctrl ctrl_ectn(void)
{
	struct dfly_wire_ctrl m = {.type = DFLY_WIRE_CTRL_ECTN_PARTIAL, .src_router = 4};

	m.ectn.epoch = 0xc3;
	m.ectn.n = 8;
	for (unsigned k = 0; k < 8; k++)
		m.ectn.ctr[k] = (uint8_t)(k * 2 + 1); /* 1, 3, .., 15 */
	return m;
}

/* A list body: SPARSE with counters 0 = 1, 3 = 15, 7 = 9 (the last index), or an empty DELTA. */
static struct dfly_wire_ctrl ctrl_ectn_list(unsigned format)
{
	struct dfly_wire_ctrl m = {.type = DFLY_WIRE_CTRL_ECTN_PARTIAL, .src_router = 4};

	m.ectn.epoch = 0x5a;
	m.ectn.format = (uint8_t)format;
	m.ectn.n = 8;
	if (format == DFLY_WIRE_ECTN_SPARSE) {
		dfly_wire_ectn_add(&m.ectn, 0, 1);
		dfly_wire_ectn_add(&m.ectn, 3, 15);
		dfly_wire_ectn_add(&m.ectn, 7, 9);
	}
	return m;
}

static struct dfly_wire_ctrl ctrl_hello(void)
{
	struct dfly_wire_ctrl m = {.type = DFLY_WIRE_CTRL_HELLO, .src_router = 35};

	m.hello.port = 6; /* radix − 1 */
	m.hello.arr = DFLY_ARR_PALMTREE;
	m.hello.sigma = -1;
	m.hello.p = 2;
	m.hello.a = 4;
	m.hello.h = 2;
	m.hello.t = 1;
	m.hello.cfg_hash = 0xcafef00du;
	return m;
}

static struct dfly_wire_ctrl ctrl_ack(void)
{
	struct dfly_wire_ctrl m = {.type = DFLY_WIRE_CTRL_ACK, .src_router = 0};

	m.ack.ack = 0x80000001u;
	m.ack.flags = DFLY_WIRE_ACK_F_NAK;
	m.ack.taken = 0x0102030405060708ull;
	return m;
}

/* Failover: router 5 (group 1) has global port 1 down; it knows groups 1-4 and 0-8 are cut. */
static struct dfly_wire_ctrl ctrl_link_state(void)
{
	struct dfly_wire_ctrl m = {.type = DFLY_WIRE_CTRL_LINK_STATE, .src_router = 5};

	m.ls.h = 2;
	m.ls.down = 0x2;
	m.ls.n = 2;
	m.ls.e[0] = (struct dfly_wire_fail_pair){.a = 1, .b = 4, .ttl = 3};
	m.ls.e[1] = (struct dfly_wire_fail_pair){.a = 0, .b = 8, .ttl = 15};
	return m;
}

#define NSAMPLES 8 /* control frames ctrl_samples() fills */

/* One valid control frame of each type and ECtN format (PB with vg = 3, which leaves padding
 * bits; an ECtN DELTA with no entry). */
static int ctrl_samples(struct dfly_wire_ctrl *m)
{
	m[0] = ctrl_credit(DFLY_WIRE_CREDIT_MAX);
	m[1] = ctrl_pb(3);
	m[2] = ctrl_ectn();
	m[3] = ctrl_hello();
	m[4] = ctrl_ack();
	m[5] = ctrl_ectn_list(DFLY_WIRE_ECTN_SPARSE);
	m[6] = ctrl_ectn_list(DFLY_WIRE_ECTN_DELTA);
	m[7] = ctrl_link_state();
	return NSAMPLES;
}

/* Insert an 802.1Q tag (VID 5) after the MACs; @return the new length. */
static size_t add_vlan(uint8_t *dst, const uint8_t *src, size_t len)
{
	memcpy(dst, src, 12);
	dst[12] = 0x81;
	dst[13] = 0x00;
	dst[14] = 0x00;
	dst[15] = 0x05;
	memcpy(dst + 16, src + 12, len - 12);
	return len + DFLY_WIRE_VLAN_LEN;
}

/* Decode from a heap block of exactly @p len bytes. */
static int data_decode_exact(const uint8_t *buf, size_t len, struct dfly_wire_data *d)
{
	uint8_t *b = malloc(len ? len : 1);
	int rc;

	assert_non_null(b);
	memcpy(b, buf, len);
	rc = dfly_wire_data_decode(b, len, &LIM, d);
	free(b);
	return rc;
}

static int ctrl_decode_exact(const uint8_t *buf, size_t len, const struct dfly_wire_limits *lim,
			     struct dfly_wire_ctrl *m)
{
	uint8_t *b = malloc(len ? len : 1);
	int rc;

	assert_non_null(b);
	memcpy(b, buf, len);
	rc = dfly_wire_ctrl_decode(b, len, lim, m);
	free(b);
	return rc;
}

static void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* ==== negative tests ====================================================================== */

static void test_err_names(void **state)
{
	(void)state;
	assert_int_equal(DFLY_WIRE_OK, 0);
	assert_int_equal(DFLY_WIRE_E_TRUNCATED, 1);
	assert_string_equal(dfly_wire_err_name(0), "ok");
	assert_string_equal(dfly_wire_err_name(-DFLY_WIRE_E_TRUNCATED), "truncated");
	assert_string_equal(dfly_wire_err_name(DFLY_WIRE_E_TRUNCATED), "truncated");
	assert_string_equal(dfly_wire_err_name(-DFLY_WIRE_E_BAD_ETHERTYPE), "bad_ethertype");
	assert_string_equal(dfly_wire_err_name(-DFLY_WIRE_E_BAD_VERSION), "bad_version");
	assert_string_equal(dfly_wire_err_name(-DFLY_WIRE_E_BAD_TYPE), "bad_type");
	assert_string_equal(dfly_wire_err_name(-DFLY_WIRE_E_BAD_NODE), "bad_node");
	assert_string_equal(dfly_wire_err_name(-DFLY_WIRE_E_BAD_ROUTER), "bad_router");
	assert_string_equal(dfly_wire_err_name(-DFLY_WIRE_E_BAD_VC), "bad_vc");
	assert_string_equal(dfly_wire_err_name(-DFLY_WIRE_E_BAD_SIZE), "bad_size");
	assert_string_equal(dfly_wire_err_name(-DFLY_WIRE_E_BAD_HOPS), "bad_hops");
	assert_string_equal(dfly_wire_err_name(-DFLY_WIRE_E_BAD_COUNT), "bad_count");
	assert_string_equal(dfly_wire_err_name(-DFLY_WIRE_E_BAD_PORT), "bad_port");
	assert_string_equal(dfly_wire_err_name(-DFLY_WIRE_E_RESERVED), "reserved");
	assert_string_equal(dfly_wire_err_name(-DFLY_WIRE_E_NOSPC), "nospc");
	assert_string_equal(dfly_wire_err_name(-DFLY_WIRE_E_BAD_TOPO), "bad_topo");
	assert_string_equal(dfly_wire_err_name(-DFLY_WIRE_E_MISWIRED), "miswired");
	assert_string_equal(dfly_wire_err_name(-DFLY_WIRE_E_BAD_FORMAT), "bad_format");
	assert_string_equal(dfly_wire_err_name(-DFLY_WIRE_E_BAD_INDEX), "bad_index");
	assert_string_equal(dfly_wire_err_name(-DFLY_WIRE_E_UNSORTED), "unsorted");
	assert_int_equal(DFLY_WIRE_E_MISWIRED, 15); /* values stay: new errors go at the end */
	assert_int_equal(DFLY_WIRE_E_COUNT, 19);
	assert_string_equal(dfly_wire_err_name(DFLY_WIRE_E_COUNT), "unknown");
	assert_string_equal(dfly_wire_err_name(-DFLY_WIRE_E_COUNT), "unknown");
	assert_string_equal(dfly_wire_err_name(INT_MIN), "unknown");
	assert_string_equal(dfly_wire_err_name(INT_MAX), "unknown");
	assert_string_equal(dfly_wire_err_desc(-DFLY_WIRE_E_TRUNCATED),
			    "frame shorter than its headers and declared contents");
	assert_string_equal(dfly_wire_err_desc(INT_MIN), "unknown error");
	for (int i = 1; i < DFLY_WIRE_E_COUNT; i++)
		for (int j = 0; j < i; j++)
			CHECK(strcmp(dfly_wire_err_name(i), dfly_wire_err_name(j)) != 0,
			      "errors %d and %d share a name", i, j);

	assert_string_equal(dfly_wire_pkt_name(0), "unknown");
	assert_string_equal(dfly_wire_pkt_name(DFLY_WIRE_PKT_SYNTH), "synth");
	assert_string_equal(dfly_wire_pkt_name(DFLY_WIRE_PKT_HOST), "host");
	assert_string_equal(dfly_wire_pkt_name(DFLY_WIRE_PKT_INFO), "info");
	assert_string_equal(dfly_wire_pkt_name(DFLY_WIRE_PKT_COUNT), "unknown");
	assert_string_equal(dfly_wire_ctrl_name(0), "unknown");
	assert_string_equal(dfly_wire_ctrl_name(DFLY_WIRE_CTRL_CREDIT), "credit");
	assert_string_equal(dfly_wire_ctrl_name(DFLY_WIRE_CTRL_PB_STATE), "pb_state");
	assert_string_equal(dfly_wire_ctrl_name(DFLY_WIRE_CTRL_ECTN_PARTIAL), "ectn_partial");
	assert_string_equal(dfly_wire_ctrl_name(DFLY_WIRE_CTRL_HELLO), "hello");
	assert_string_equal(dfly_wire_ctrl_name(DFLY_WIRE_CTRL_ACK), "ack");
	assert_string_equal(dfly_wire_ctrl_name(DFLY_WIRE_CTRL_COUNT), "unknown");
	/* wire values of the types are part of the contract */
	assert_int_equal(DFLY_WIRE_PKT_SYNTH, 1);
	assert_int_equal(DFLY_WIRE_PKT_INFO, 3);
	assert_int_equal(DFLY_WIRE_PKT_RES_REQ, 4);
	assert_int_equal(DFLY_WIRE_PKT_RES_REP, 5);
	assert_string_equal(dfly_wire_pkt_name(DFLY_WIRE_PKT_RES_REQ), "res_req");
	assert_int_equal(DFLY_WIRE_CTRL_CREDIT, 1);
	assert_int_equal(DFLY_WIRE_CTRL_ACK, 5);
}

static void test_classify_other(void **state)
{
	uint8_t b[64] = {0};

	(void)state;
	put_be16(b + 12, DFLY_WIRE_ETHERTYPE_DATA);
	for (size_t len = 0; len < 14; len++)
		CHECK(dfly_wire_classify(b, len) == DFLY_WIRE_CLASS_OTHER, "len %zu", len);
	put_be16(b + 12, 0x0800);
	assert_int_equal(dfly_wire_classify(b, 60), DFLY_WIRE_CLASS_OTHER);
	put_be16(b + 12, 0x88B8); /* the next EtherType after BUNDLE's */
	assert_int_equal(dfly_wire_classify(b, 60), DFLY_WIRE_CLASS_OTHER);
	put_be16(b + 12, 0xB588); /* byte-swapped */
	assert_int_equal(dfly_wire_classify(b, 60), DFLY_WIRE_CLASS_OTHER);
	/* tagged, but cut before the inner EtherType */
	put_be16(b + 12, 0x8100);
	put_be16(b + 16, DFLY_WIRE_ETHERTYPE_DATA);
	for (size_t len = 14; len < 18; len++)
		CHECK(dfly_wire_classify(b, len) == DFLY_WIRE_CLASS_OTHER, "len %zu", len);
	/* two tags: only one is looked through */
	put_be16(b + 16, 0x8100);
	put_be16(b + 20, DFLY_WIRE_ETHERTYPE_DATA);
	assert_int_equal(dfly_wire_classify(b, 60), DFLY_WIRE_CLASS_OTHER);
	/* 802.1ad outer tag is not looked through */
	put_be16(b + 12, 0x88A8);
	put_be16(b + 16, DFLY_WIRE_ETHERTYPE_DATA);
	assert_int_equal(dfly_wire_classify(b, 60), DFLY_WIRE_CLASS_OTHER);
}

static void test_data_truncated_every_length(void **state)
{
	uint8_t b[BUF_LEN], t[BUF_LEN];
	struct dfly_wire_data d = data_max(), out;
	int n = encode_data(b, &d);
	size_t tn = add_vlan(t, b, (size_t)n);

	(void)state;
	assert_int_equal(n, 14 + 48 + 5);
	for (size_t len = 0; len < (size_t)n; len++)
		ASSERT_ERR(data_decode_exact(b, len, &out), TRUNCATED);
	for (size_t len = 0; len < tn; len++)
		ASSERT_ERR(data_decode_exact(t, len, &out), TRUNCATED);
	assert_int_equal(data_decode_exact(b, (size_t)n, &out), 0);
	assert_int_equal(data_decode_exact(t, tn, &out), 0);
	/* a header declaring more payload than the frame holds */
	put_be16(b + OFF + 40, 6);
	ASSERT_ERR(data_decode_exact(b, (size_t)n, &out), TRUNCATED);
	put_be16(b + OFF + 40, 0xffff);
	ASSERT_ERR(data_decode_exact(b, (size_t)n, &out), TRUNCATED);
}

static void test_data_bad_ethertype(void **state)
{
	uint8_t b[BUF_LEN], t[BUF_LEN];
	struct dfly_wire_data d = data_min(), out;
	int n = encode_data(b, &d);

	(void)state;
	put_be16(b + 12, DFLY_WIRE_ETHERTYPE_CTRL);
	ASSERT_ERR(data_decode_exact(b, (size_t)n, &out), BAD_ETHERTYPE);
	put_be16(b + 12, 0x0800);
	ASSERT_ERR(data_decode_exact(b, (size_t)n, &out), BAD_ETHERTYPE);
	put_be16(b + 12, 0xB588);
	ASSERT_ERR(data_decode_exact(b, (size_t)n, &out), BAD_ETHERTYPE);
	/* a data frame is not a control frame either */
	put_be16(b + 12, DFLY_WIRE_ETHERTYPE_DATA);
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &(struct dfly_wire_ctrl){0}),
		   BAD_ETHERTYPE);
	/* tagged with a foreign inner EtherType */
	size_t tn = add_vlan(t, b, (size_t)n);
	put_be16(t + 16, 0x86DD);
	ASSERT_ERR(data_decode_exact(t, tn, &out), BAD_ETHERTYPE);
}

static void test_data_bad_version(void **state)
{
	static const uint8_t bad[] = {0, 1, 3, 0x81, 0xff}; /* 1: before the ACK's taken */
	uint8_t b[BUF_LEN];
	struct dfly_wire_data d = data_max(), out;
	int n = encode_data(b, &d);

	(void)state;
	for (size_t i = 0; i < sizeof(bad); i++) {
		b[OFF + 0] = bad[i];
		ASSERT_ERR(data_decode_exact(b, (size_t)n, &out), BAD_VERSION);
	}
	/* the version is checked before the length of the payload */
	b[OFF + 0] = 1;
	ASSERT_ERR(data_decode_exact(b, 14 + 48, &out), BAD_VERSION);
}

static void test_data_bad_type(void **state)
{
	static const uint8_t bad[] = {0, DFLY_WIRE_PKT_COUNT, 0x7f, 0xff};
	uint8_t b[BUF_LEN];
	struct dfly_wire_data d = data_max(), out;
	int n = encode_data(b, &d);

	(void)state;
	for (size_t i = 0; i < sizeof(bad); i++) {
		b[OFF + 1] = bad[i];
		ASSERT_ERR(data_decode_exact(b, (size_t)n, &out), BAD_TYPE);
	}
}

static void test_data_bad_node(void **state)
{
	uint8_t b[BUF_LEN];
	struct dfly_wire_data d = data_max(), out;
	int n = encode_data(b, &d);

	(void)state;
	put_be32(b + OFF + 8, 72); /* src = nodes */
	ASSERT_ERR(data_decode_exact(b, (size_t)n, &out), BAD_NODE);
	put_be32(b + OFF + 8, UINT32_MAX);
	ASSERT_ERR(data_decode_exact(b, (size_t)n, &out), BAD_NODE);
	put_be32(b + OFF + 8, 71);
	assert_int_equal(data_decode_exact(b, (size_t)n, &out), 0);
	put_be32(b + OFF + 12, 72); /* dst = nodes */
	ASSERT_ERR(data_decode_exact(b, (size_t)n, &out), BAD_NODE);
	put_be32(b + OFF + 12, 0x80000000u);
	ASSERT_ERR(data_decode_exact(b, (size_t)n, &out), BAD_NODE);
}

static void test_data_bad_router(void **state)
{
	uint8_t b[BUF_LEN];
	struct dfly_wire_data d = data_max(), out;
	int n = encode_data(b, &d);

	(void)state;
	put_be32(b + OFF + 16, 36); /* via = routers */
	ASSERT_ERR(data_decode_exact(b, (size_t)n, &out), BAD_ROUTER);
	put_be32(b + OFF + 16, UINT32_MAX - 1);
	ASSERT_ERR(data_decode_exact(b, (size_t)n, &out), BAD_ROUTER);
	put_be32(b + OFF + 16, DFLY_WIRE_NO_ROUTER);
	assert_int_equal(data_decode_exact(b, (size_t)n, &out), 0);
	assert_int_equal(out.via_router, DFLY_WIRE_NO_ROUTER);
}

static void test_data_bad_vc(void **state)
{
	uint8_t b[BUF_LEN];
	struct dfly_wire_data d = data_max(), out;
	int n = encode_data(b, &d);

	(void)state;
	b[OFF + 5] = 4; /* = vcs */
	ASSERT_ERR(data_decode_exact(b, (size_t)n, &out), BAD_VC);
	b[OFF + 5] = 0xff;
	ASSERT_ERR(data_decode_exact(b, (size_t)n, &out), BAD_VC);
}

static void test_data_bad_size(void **state)
{
	uint8_t b[BUF_LEN];
	struct dfly_wire_data d = data_max(), out;
	int n = encode_data(b, &d);

	(void)state;
	put_be16(b + OFF + 6, 0);
	ASSERT_ERR(data_decode_exact(b, (size_t)n, &out), BAD_SIZE);
	put_be16(b + OFF + 6, 17); /* max_phits + 1 */
	ASSERT_ERR(data_decode_exact(b, (size_t)n, &out), BAD_SIZE);
	put_be16(b + OFF + 6, 0xffff);
	ASSERT_ERR(data_decode_exact(b, (size_t)n, &out), BAD_SIZE);
	put_be16(b + OFF + 6, 16);
	/* bytes after the payload: a data frame is never padded */
	b[n] = 0;
	ASSERT_ERR(data_decode_exact(b, (size_t)n + 1, &out), BAD_SIZE);
	put_be16(b + OFF + 40, 4); /* payload_len one short of the frame */
	ASSERT_ERR(data_decode_exact(b, (size_t)n, &out), BAD_SIZE);

	/* INFO: exactly one phit and no payload */
	d = data_min();
	d.type = DFLY_WIRE_PKT_INFO;
	n = encode_data(b, &d);
	put_be16(b + OFF + 6, 2);
	ASSERT_ERR(data_decode_exact(b, (size_t)n, &out), BAD_SIZE);
	put_be16(b + OFF + 6, 1);
	put_be16(b + OFF + 40, 1);
	ASSERT_ERR(data_decode_exact(b, (size_t)n + 1, &out), BAD_SIZE);

	/* RES_REQ and RES_REP: one phit and a 12-byte body */
	d = data_min();
	d.type = DFLY_WIRE_PKT_RES_REQ;
	ASSERT_ERR(dfly_wire_data_encode(b, BUF_LEN, &ETH, &d, NULL), BAD_SIZE);
	d.payload_len = DFLY_WIRE_RES_LEN;
	d.size_phits = 2;
	ASSERT_ERR(dfly_wire_data_encode(b, BUF_LEN, &ETH, &d, NULL), BAD_SIZE);
	{
		struct dfly_wire_res r = {.cookie = 0x01020304, .rbar = 99, .len = 10, .gc = 1}, r2;
		uint8_t body[DFLY_WIRE_RES_LEN];
		static const uint8_t want[DFLY_WIRE_RES_LEN] = {1, 2,  3, 4,  0, 0,
								0, 99, 0, 10, 1, 0};

		d.size_phits = 1;
		dfly_wire_res_put(body, &r);
		assert_memory_equal(body, want, sizeof(want)); /* big-endian, in field order */
		n = dfly_wire_data_encode(b, BUF_LEN, &ETH, &d, body);
		assert_int_equal(n, 14 + 48 + 12);
		assert_int_equal(data_decode_exact(b, (size_t)n, &out), 0);
		assert_int_equal(dfly_wire_res_get(b + out.payload_off, out.type, &LIM, &r2), 0);
		assert_memory_equal(&r, &r2, sizeof(r));
		/* a request carries no grant; a reply's is 0 or 1 */
		r.grant = 1;
		dfly_wire_res_put(body, &r);
		ASSERT_ERR(dfly_wire_res_get(body, DFLY_WIRE_PKT_RES_REQ, &LIM, &r2), RESERVED);
		assert_int_equal(dfly_wire_res_get(body, DFLY_WIRE_PKT_RES_REP, &LIM, &r2), 0);
		r.grant = 2;
		dfly_wire_res_put(body, &r);
		ASSERT_ERR(dfly_wire_res_get(body, DFLY_WIRE_PKT_RES_REP, &LIM, &r2), RESERVED);
		/* the channel is one of the owner's h; a length of 1..max_phits */
		r.grant = 0;
		r.gc = (uint8_t)LIM.h;
		dfly_wire_res_put(body, &r);
		ASSERT_ERR(dfly_wire_res_get(body, DFLY_WIRE_PKT_RES_REQ, &LIM, &r2), BAD_PORT);
		r.gc = 0;
		r.len = 0;
		dfly_wire_res_put(body, &r);
		ASSERT_ERR(dfly_wire_res_get(body, DFLY_WIRE_PKT_RES_REQ, &LIM, &r2), BAD_SIZE);
		r.len = (uint16_t)(LIM.max_phits + 1);
		dfly_wire_res_put(body, &r);
		ASSERT_ERR(dfly_wire_res_get(body, DFLY_WIRE_PKT_RES_REQ, &LIM, &r2), BAD_SIZE);
		ASSERT_ERR(dfly_wire_res_get(body, DFLY_WIRE_PKT_INFO, &LIM, &r2), BAD_TYPE);
	}

	/* HOST: at least an Ethernet header of payload */
	static const uint8_t host[14] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0x08, 0x00};
	d = data_min();
	d.type = DFLY_WIRE_PKT_HOST;
	d.payload_len = 14;
	n = dfly_wire_data_encode(b, BUF_LEN, &ETH, &d, host);
	assert_int_equal(n, 14 + 48 + 14);
	assert_int_equal(data_decode_exact(b, (size_t)n, &out), 0);
	put_be16(b + OFF + 40, 13);
	ASSERT_ERR(data_decode_exact(b, (size_t)n - 1, &out), BAD_SIZE);
}

static void test_data_bad_hops(void **state)
{
	uint8_t b[BUF_LEN];
	struct dfly_wire_data d = data_max(), out;
	int n = encode_data(b, &d);

	(void)state;
	b[OFF + 3] = 3;
	ASSERT_ERR(data_decode_exact(b, (size_t)n, &out), BAD_HOPS);
	b[OFF + 3] = 0xff;
	ASSERT_ERR(data_decode_exact(b, (size_t)n, &out), BAD_HOPS);
	b[OFF + 3] = 2;
	b[OFF + 4] = 4;
	ASSERT_ERR(data_decode_exact(b, (size_t)n, &out), BAD_HOPS);
	b[OFF + 4] = 3;
	assert_int_equal(data_decode_exact(b, (size_t)n, &out), 0);
}

static void test_data_reserved(void **state)
{
	uint8_t b[BUF_LEN], ref[BUF_LEN];
	struct dfly_wire_data d = data_max(), out;
	int n = encode_data(ref, &d);

	(void)state;
	/* every bit of the flags byte is defined (DFLY_WIRE_F_RES_MIN took the last one) */
	assert_int_equal(DFLY_WIRE_F_ALL, 0xff);
	/* a PB vector without the PB flag */
	memcpy(b, ref, (size_t)n);
	b[OFF + 2] &= (uint8_t)~DFLY_WIRE_F_PB;
	ASSERT_ERR(data_decode_exact(b, (size_t)n, &out), RESERVED);
	/* the reserved byte 43 */
	memcpy(b, ref, (size_t)n);
	b[OFF + 43] = 0x01;
	ASSERT_ERR(data_decode_exact(b, (size_t)n, &out), RESERVED);
}

static void test_data_encode_errors(void **state)
{
	uint8_t b[BUF_LEN];
	struct dfly_wire_data d;

	(void)state;
	/* too small: every size below the frame, and nothing written */
	d = data_max();
	for (size_t size = 0; size < 14 + 48 + 5; size++) {
		memset(b, 0x5a, sizeof(b));
		ASSERT_ERR(dfly_wire_data_encode(b, size, &ETH, &d, PAYLOAD), NOSPC);
		for (size_t i = 0; i < sizeof(b); i++)
			CHECK(b[i] == 0x5a, "size %zu: byte %zu written", size, i);
	}
	assert_int_equal(dfly_wire_data_encode(b, 14 + 48 + 5, &ETH, &d, PAYLOAD), 67);

	d = data_max();
	d.type = 0;
	ASSERT_ERR(dfly_wire_data_encode(b, BUF_LEN, &ETH, &d, PAYLOAD), BAD_TYPE);
	d.type = DFLY_WIRE_PKT_COUNT;
	ASSERT_ERR(dfly_wire_data_encode(b, BUF_LEN, &ETH, &d, PAYLOAD), BAD_TYPE);
	d = data_max();
	d.flags = 0x80;
	ASSERT_ERR(dfly_wire_data_encode(b, BUF_LEN, &ETH, &d, PAYLOAD), RESERVED);
	d.flags = 0; /* pb_vec still set */
	ASSERT_ERR(dfly_wire_data_encode(b, BUF_LEN, &ETH, &d, PAYLOAD), RESERVED);
	d = data_max();
	d.global_hops = 3;
	ASSERT_ERR(dfly_wire_data_encode(b, BUF_LEN, &ETH, &d, PAYLOAD), BAD_HOPS);
	d = data_max();
	d.local_hops = 4;
	ASSERT_ERR(dfly_wire_data_encode(b, BUF_LEN, &ETH, &d, PAYLOAD), BAD_HOPS);
	d = data_max();
	d.size_phits = 0;
	ASSERT_ERR(dfly_wire_data_encode(b, BUF_LEN, &ETH, &d, PAYLOAD), BAD_SIZE);
	d = data_min();
	d.type = DFLY_WIRE_PKT_INFO;
	d.size_phits = 2;
	ASSERT_ERR(dfly_wire_data_encode(b, BUF_LEN, &ETH, &d, NULL), BAD_SIZE);
	d.size_phits = 1;
	d.payload_len = 1;
	ASSERT_ERR(dfly_wire_data_encode(b, BUF_LEN, &ETH, &d, PAYLOAD), BAD_SIZE);
	d = data_min();
	d.type = DFLY_WIRE_PKT_HOST;
	d.payload_len = 13;
	ASSERT_ERR(dfly_wire_data_encode(b, BUF_LEN, &ETH, &d, NULL), BAD_SIZE);
}

static void test_ctrl_truncated_every_length(void **state)
{
	struct dfly_wire_ctrl m[NSAMPLES], out;
	uint8_t b[BUF_LEN], t[BUF_LEN];
	int nm = ctrl_samples(m);

	(void)state;
	for (int k = 0; k < nm; k++) {
		int n = encode_ctrl(b, &m[k]);
		size_t tn = add_vlan(t, b, (size_t)n);

		for (size_t len = 0; len < (size_t)n; len++) {
			int rc = ctrl_decode_exact(b, len, &LIM, &out);

			CHECK(rc == -DFLY_WIRE_E_TRUNCATED, "%s len %zu/%d: %s",
			      dfly_wire_ctrl_name(m[k].type), len, n, dfly_wire_err_name(rc));
		}
		for (size_t len = 0; len < tn; len++) {
			int rc = ctrl_decode_exact(t, len, &LIM, &out);

			CHECK(rc == -DFLY_WIRE_E_TRUNCATED, "tagged %s len %zu/%zu: %s",
			      dfly_wire_ctrl_name(m[k].type), len, tn, dfly_wire_err_name(rc));
		}
		CHECK(ctrl_decode_exact(b, (size_t)n, &LIM, &out) == 0, "%s",
		      dfly_wire_ctrl_name(m[k].type));
		CHECK(ctrl_decode_exact(t, tn, &LIM, &out) == 0, "tagged %s",
		      dfly_wire_ctrl_name(m[k].type));
	}
}

static void test_ctrl_bad_ethertype(void **state)
{
	struct dfly_wire_ctrl m = ctrl_ack(), out;
	uint8_t b[BUF_LEN];
	int n = encode_ctrl(b, &m);

	(void)state;
	put_be16(b + 12, DFLY_WIRE_ETHERTYPE_DATA);
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_ETHERTYPE);
	put_be16(b + 12, 0x0806);
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_ETHERTYPE);
	/* a control frame is not a data frame either */
	put_be16(b + 12, DFLY_WIRE_ETHERTYPE_CTRL);
	ASSERT_ERR(data_decode_exact(b, (size_t)n, &(struct dfly_wire_data){0}), BAD_ETHERTYPE);
}

static void test_ctrl_bad_version_and_type(void **state)
{
	static const uint8_t bad_ver[] = {0, 1, 3, 0xff};
	static const uint8_t bad_type[] = {0, DFLY_WIRE_CTRL_COUNT, 0x80, 0xff};
	struct dfly_wire_ctrl m[NSAMPLES], out;
	uint8_t b[BUF_LEN];
	int nm = ctrl_samples(m);

	(void)state;
	for (int k = 0; k < nm; k++) {
		int n = encode_ctrl(b, &m[k]);

		for (size_t i = 0; i < sizeof(bad_ver); i++) {
			b[OFF + 0] = bad_ver[i];
			ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_VERSION);
		}
		b[OFF + 0] = DFLY_WIRE_VERSION;
		for (size_t i = 0; i < sizeof(bad_type); i++) {
			b[OFF + 1] = bad_type[i];
			ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_TYPE);
		}
	}
}

static void test_ctrl_bad_router(void **state)
{
	struct dfly_wire_ctrl m[NSAMPLES], out;
	uint8_t b[BUF_LEN];
	int nm = ctrl_samples(m);

	(void)state;
	for (int k = 0; k < nm; k++) {
		int n = encode_ctrl(b, &m[k]);

		put_be32(b + OFF + 4, 36);
		ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_ROUTER);
		put_be32(b + OFF + 4, UINT32_MAX);
		ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_ROUTER);
		put_be32(b + OFF + 4, 35);
		assert_int_equal(ctrl_decode_exact(b, (size_t)n, &LIM, &out), 0);
		assert_int_equal(out.src_router, 35);
	}
}

static void test_ctrl_bad_body_len(void **state)
{
	struct dfly_wire_ctrl m[NSAMPLES], out;
	uint8_t b[BUF_LEN];
	int nm = ctrl_samples(m);

	(void)state;
	for (int k = 0; k < nm; k++) {
		int n = encode_ctrl(b, &m[k]);
		uint16_t body_len = (uint16_t)(n - 14 - 8);

		/* shorter than the body: the counts inside disagree (or the type's fixed size) */
		put_be16(b + OFF + 2, (uint16_t)(body_len - 1));
		ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_COUNT);
		put_be16(b + OFF + 2, 0);
		ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_COUNT);
		put_be16(b + OFF + 2, 0xffff);
		ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_COUNT);
		/* longer, with the bytes present */
		put_be16(b + OFF + 2, (uint16_t)(body_len + 1));
		b[n] = 0;
		int rc = ctrl_decode_exact(b, (size_t)n + 1, &LIM, &out);

		CHECK(rc == -DFLY_WIRE_E_BAD_COUNT, "%s: %s", dfly_wire_ctrl_name(m[k].type),
		      dfly_wire_err_name(rc));
	}
}

static void test_ctrl_tail(void **state)
{
	struct dfly_wire_ctrl m = ctrl_ack(), out;
	uint8_t b[BUF_LEN] = {0}, t[BUF_LEN];
	int n = encode_ctrl(b, &m);
	size_t tn;

	(void)state;
	assert_int_equal(n, 38);
	/* Ethernet padding up to the 60-byte minimum is accepted... */
	for (size_t len = (size_t)n; len <= 60; len++)
		CHECK(ctrl_decode_exact(b, len, &LIM, &out) == 0, "len %zu", len);
	/* ...a longer tail is not */
	ASSERT_ERR(ctrl_decode_exact(b, 61, &LIM, &out), BAD_COUNT);
	ASSERT_ERR(ctrl_decode_exact(b, 200, &LIM, &out), BAD_COUNT);
	/* behind a tag the minimum moves by the tag */
	tn = add_vlan(t, b, 60);
	assert_int_equal(tn, 64);
	assert_int_equal(ctrl_decode_exact(t, 64, &LIM, &out), 0);
	t[64] = 0;
	ASSERT_ERR(ctrl_decode_exact(t, 65, &LIM, &out), BAD_COUNT);
	/* a frame already past the minimum has no padding at all */
	m = ctrl_credit(DFLY_WIRE_CREDIT_MAX);
	n = encode_ctrl(b, &m);
	assert_int_equal(n, 14 + 8 + 12 + 4 * 32);
	b[n] = 0;
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n + 1, &LIM, &out), BAD_COUNT);
}

static void test_credit_errors(void **state)
{
	struct dfly_wire_ctrl m = ctrl_credit(2), out;
	uint8_t b[BUF_LEN], ref[BUF_LEN];
	int n = encode_ctrl(ref, &m);
	const size_t body = OFF + 8, e1 = body + 12 + 4;

	(void)state;
	assert_int_equal(n, 14 + 8 + 12 + 8);
	/* n = 0, and n disagreeing with body_len */
	memcpy(b, ref, (size_t)n);
	b[body] = 0;
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_COUNT);
	b[body] = 1;
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_COUNT);
	b[body] = 3;
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_COUNT);
	/* n above the maximum with a matching body_len */
	m = ctrl_credit(DFLY_WIRE_CREDIT_MAX);
	n = encode_ctrl(b, &m);
	b[body] = DFLY_WIRE_CREDIT_MAX + 1;
	put_be16(b + OFF + 2, 12 + 4 * (DFLY_WIRE_CREDIT_MAX + 1));
	memset(b + n, 0, 4);
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n + 4, &LIM, &out), BAD_COUNT);
	b[body] = 0xff;
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n + 4, &LIM, &out), BAD_COUNT);

	m = ctrl_credit(2);
	n = encode_ctrl(ref, &m);
	memcpy(b, ref, (size_t)n);
	b[e1 + 0] = 4; /* vc = vcs */
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_VC);
	memcpy(b, ref, (size_t)n);
	put_be16(b + e1 + 2, 0); /* phits 0 */
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_SIZE);
	for (unsigned bit = 2; bit < 8; bit++) {
		memcpy(b, ref, (size_t)n);
		b[e1 + 1] |= (uint8_t)(1u << bit);
		ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), RESERVED);
	}
	for (size_t i = 1; i < 4; i++) {
		memcpy(b, ref, (size_t)n);
		b[body + i] = 0x80;
		ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), RESERVED);
	}
}

static void test_pb_errors(void **state)
{
	struct dfly_wire_ctrl m = ctrl_pb(3), out;
	uint8_t b[BUF_LEN], ref[BUF_LEN];
	int n = encode_ctrl(ref, &m);
	const size_t body = OFF + 8;
	struct dfly_wire_limits lim = LIM;

	(void)state;
	assert_int_equal(n, 14 + 8 + 4 + 1); /* 2·3 = 6 bits */
	/* h must be the topology's */
	memcpy(b, ref, (size_t)n);
	b[body + 0] = 1;
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_COUNT);
	b[body + 0] = 0;
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_COUNT);
	b[body + 0] = 3; /* 9 bits: the length no longer matches either */
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_COUNT);
	lim.h = 3;
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &lim, &out), BAD_COUNT);
	/* vg: 0, above the VC count, above DFLY_MAX_VCS */
	memcpy(b, ref, (size_t)n);
	b[body + 1] = 0;
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_VC);
	b[body + 1] = 4; /* = vcs: allowed, 8 bits still fit the one byte */
	assert_int_equal(ctrl_decode_exact(b, (size_t)n, &LIM, &out), 0);
	b[body + 1] = 5;
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_VC);
	lim = LIM;
	lim.vcs = 100;
	b[body + 1] = DFLY_MAX_VCS + 1;
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &lim, &out), BAD_VC);
	/* padding bits 6 and 7 of the vector, and the reserved u16 */
	for (unsigned bit = 6; bit < 8; bit++) {
		memcpy(b, ref, (size_t)n);
		b[body + 4] |= (uint8_t)(1u << bit);
		ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), RESERVED);
	}
	for (size_t i = 2; i < 4; i++) {
		memcpy(b, ref, (size_t)n);
		b[body + i] = 1;
		ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), RESERVED);
	}
}

static void test_ectn_errors(void **state)
{
	struct dfly_wire_ctrl m = ctrl_ectn(), out;
	uint8_t b[BUF_LEN], ref[BUF_LEN];
	int n = encode_ctrl(ref, &m);
	const size_t body = OFF + 8;
	struct dfly_wire_limits lim = LIM;

	(void)state;
	assert_int_equal(n, 14 + 8 + 4 + 4);
	/* n must be a·h/t = 8 */
	memcpy(b, ref, (size_t)n);
	put_be16(b + body + 2, 7); /* 7 counters also take 4 bytes */
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_COUNT);
	put_be16(b + body + 2, 0);
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_COUNT);
	put_be16(b + body + 2, 8);
	lim.t = 2; /* a·h/t = 4 */
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &lim, &out), BAD_COUNT);
	lim.t = 0; /* nonsense limits, no division by zero */
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &lim, &out), BAD_COUNT);
	/* the format byte (reserved, 0, before the list formats): a FULL body read as a list
	 * has the wrong length; an unknown format is named as such, whatever the length */
	memcpy(b, ref, (size_t)n);
	b[body + 1] = DFLY_WIRE_ECTN_SPARSE;
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_COUNT);
	b[body + 1] = DFLY_WIRE_ECTN_DELTA;
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_COUNT);
	b[body + 1] = DFLY_WIRE_ECTN_FMT_COUNT;
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_FORMAT);
	b[body + 1] = 0xff;
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_FORMAT);
	put_be16(b + body + 2, 0); /* before the count */
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_FORMAT);
	/* an odd count leaves the last high nibble unused: it must be 0 */
	lim = LIM;
	lim.a = 7;
	lim.h = 1; /* 7 counters */
	m.ectn.n = 7;
	n = encode_ctrl(b, &m);
	assert_int_equal(n, 14 + 8 + 4 + 4);
	assert_int_equal(ctrl_decode_exact(b, (size_t)n, &lim, &out), 0);
	assert_int_equal(b[body + 4 + 3], 13); /* counter 6 alone in the low nibble */
	b[body + 4 + 3] |= 0x10;
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &lim, &out), RESERVED);
}

/* Set the 16-bit entry @p i of the list body at @p b + @p body to @p index, @p value. */
static void put_entry(uint8_t *b, size_t body, unsigned i, unsigned index, unsigned value)
{
	put_be16(b + body + 6 + 2 * i, (uint16_t)(index << 4 | value));
}

static void test_ectn_list_errors(void **state)
{
	struct dfly_wire_ctrl m = ctrl_ectn_list(DFLY_WIRE_ECTN_SPARSE), out;
	uint8_t b[BUF_LEN], ref[BUF_LEN];
	int n = encode_ctrl(ref, &m);
	const size_t body = OFF + 8;
	struct dfly_wire_limits lim = LIM;

	(void)state;
	assert_int_equal(n, 14 + 8 + 6 + 2 * 3);
	for (unsigned fmt = DFLY_WIRE_ECTN_SPARSE; fmt <= DFLY_WIRE_ECTN_DELTA; fmt++) {
		memcpy(b, ref, (size_t)n);
		b[body + 1] = (uint8_t)fmt;
		assert_int_equal(ctrl_decode_exact(b, (size_t)n, &LIM, &out), 0);
		assert_int_equal(out.ectn.format, fmt);
		/* n must still be a·h/t */
		put_be16(b + body + 2, 7);
		ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_COUNT);
		put_be16(b + body + 2, 8);
		lim.t = 2;
		ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &lim, &out), BAD_COUNT);
		lim = LIM;
	}
	/* entry index ≥ n, at the first, a middle and the last entry */
	for (unsigned i = 0; i < 3; i++) {
		static const unsigned bad[3][3] = {{8, 9, 10}, {0, 8, 9}, {0, 3, 0xfff}};

		memcpy(b, ref, (size_t)n);
		for (unsigned j = 0; j < 3; j++)
			put_entry(b, body, j, bad[i][j], 1);
		ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_INDEX);
	}
	/* the last index n − 1 is fine, its value any 4 bits */
	memcpy(b, ref, (size_t)n);
	put_entry(b, body, 2, 7, 0);
	assert_int_equal(ctrl_decode_exact(b, (size_t)n, &LIM, &out), 0);
	assert_true(dfly_wire_ectn_has(&out.ectn, 7));
	assert_int_equal(out.ectn.ctr[7], 0);
	/* duplicate and unsorted indices */
	memcpy(b, ref, (size_t)n);
	put_entry(b, body, 1, 0, 2); /* 0, 0, 7 */
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), UNSORTED);
	memcpy(b, ref, (size_t)n);
	put_entry(b, body, 2, 3, 2); /* 0, 3, 3 */
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), UNSORTED);
	memcpy(b, ref, (size_t)n);
	put_entry(b, body, 0, 5, 2); /* 5, 3, 7 */
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), UNSORTED);
	/* a truncated list: m says more entries than body_len holds, and the frame ends there */
	memcpy(b, ref, (size_t)n);
	put_be16(b + body + 4, 4);
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_COUNT);
	memcpy(b, ref, (size_t)n);
	put_be16(b + OFF + 2, 6 + 2 * 2); /* two entries' room, m = 3 */
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n - 2, &LIM, &out), BAD_COUNT);
	put_be16(b + OFF + 2, 6 + 2 * 2 + 1); /* an entry cut in half */
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n - 1, &LIM, &out), BAD_COUNT);
	/* ...or fewer than body_len holds (bytes present) */
	memcpy(b, ref, (size_t)n);
	put_be16(b + body + 4, 2);
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_COUNT);
	/* m above n: 9 entries in room for 9 */
	memset(b, 0, sizeof(b));
	memcpy(b, ref, (size_t)n);
	put_be16(b + OFF + 2, 6 + 2 * 9);
	put_be16(b + body + 4, 9);
	for (unsigned i = 0; i < 9; i++)
		put_entry(b, body, i, i, 1);
	ASSERT_ERR(ctrl_decode_exact(b, 14 + 8 + 6 + 2 * 9, &LIM, &out), BAD_COUNT);
	/* a list body too short for its fixed part */
	memcpy(b, ref, (size_t)n);
	put_be16(b + OFF + 2, 5);
	ASSERT_ERR(ctrl_decode_exact(b, 14 + 8 + 5, &LIM, &out), BAD_COUNT);
	/* the frame shorter than body_len is TRUNCATED, as for every type */
	ASSERT_ERR(ctrl_decode_exact(ref, (size_t)n - 1, &LIM, &out), TRUNCATED);
}

static void test_hello_bad_port(void **state)
{
	struct dfly_wire_ctrl m = ctrl_hello(), out;
	uint8_t b[BUF_LEN];
	int n = encode_ctrl(b, &m);

	(void)state;
	put_be16(b + OFF + 8, 7); /* radix */
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_PORT);
	put_be16(b + OFF + 8, 0xffff);
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_PORT);
	put_be16(b + OFF + 8, 1); /* a terminal port */
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_PORT);
	put_be16(b + OFF + 8, 0);
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_PORT);
	put_be16(b + OFF + 8, 2); /* the first local port */
	assert_int_equal(ctrl_decode_exact(b, (size_t)n, &LIM, &out), 0);
	assert_int_equal(out.hello.port, 2);
}

static void test_ack_errors(void **state)
{
	struct dfly_wire_ctrl m = ctrl_ack(), out;
	uint8_t b[BUF_LEN], ref[BUF_LEN];
	int n = encode_ctrl(ref, &m);

	(void)state;
	for (unsigned bit = 1; bit < 8; bit++) {
		memcpy(b, ref, (size_t)n);
		b[OFF + 8 + 4] |= (uint8_t)(1u << bit);
		ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), RESERVED);
	}
	for (size_t i = 5; i < 8; i++) {
		memcpy(b, ref, (size_t)n);
		b[OFF + 8 + i] = 1;
		ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), RESERVED);
	}
}

static void test_link_state_golden_roundtrip(void **state)
{
	/* Ethernet, header {2, 6, 12, 5}, body {h 2, n 2, down 0x0002}, entries 1|4<<11|3<<22 =
	 * 0x00c02001 and 0|8<<11|15<<22 = 0x03c04000 */
	static const uint8_t want[] = {0x02, 0xdf, 0x00, 0x00, 0x01, 0x03, 0x02, 0xdf, 0x00,
				       0x00, 0x00, 0x05, 0x88, 0xb6, 0x02, 0x06, 0x00, 0x0c,
				       0x00, 0x00, 0x00, 0x05, 0x02, 0x02, 0x00, 0x02, 0x00,
				       0xc0, 0x20, 0x01, 0x03, 0xc0, 0x40, 0x00};
	struct dfly_wire_ctrl m = ctrl_link_state(), out;
	uint8_t b[BUF_LEN];
	int n = encode_ctrl(b, &m);

	(void)state;
	assert_int_equal(n, sizeof(want));
	assert_memory_equal(b, want, sizeof(want));
	assert_int_equal(ctrl_decode_exact(b, (size_t)n, &LIM, &out), 0);
	assert_int_equal(out.type, DFLY_WIRE_CTRL_LINK_STATE);
	assert_int_equal(out.src_router, 5);
	assert_int_equal(out.ls.h, 2);
	assert_int_equal(out.ls.down, 2);
	assert_int_equal(out.ls.n, 2);
	assert_int_equal(out.ls.e[0].a, 1);
	assert_int_equal(out.ls.e[0].b, 4);
	assert_int_equal(out.ls.e[0].ttl, 3);
	assert_int_equal(out.ls.e[1].a, 0);
	assert_int_equal(out.ls.e[1].b, 8);
	assert_int_equal(out.ls.e[1].ttl, 15);
	/* no entries: a router saying its own links are up again */
	m.ls.n = 0;
	m.ls.down = 0;
	n = encode_ctrl(b, &m);
	assert_int_equal(n, DFLY_WIRE_ETH_LEN + DFLY_WIRE_CTRL_HDR_LEN + 4);
	assert_int_equal(ctrl_decode_exact(b, (size_t)n, &LIM, &out), 0);
	assert_int_equal(out.ls.n, 0);
	/* the largest: 64 entries */
	m.ls.n = DFLY_WIRE_FAIL_MAX;
	for (unsigned i = 0; i < DFLY_WIRE_FAIL_MAX; i++)
		m.ls.e[i] = (struct dfly_wire_fail_pair){
		    .a = (uint16_t)(i % 8), .b = 8, .ttl = (uint8_t)(1 + i % 15)};
	n = encode_ctrl(b, &m);
	assert_int_equal(n, DFLY_WIRE_ETH_LEN + DFLY_WIRE_CTRL_HDR_LEN + 4 + 4 * 64);
	assert_int_equal(ctrl_decode_exact(b, (size_t)n, &LIM, &out), 0);
	assert_int_equal(out.ls.e[63].a, 7);
	assert_int_equal(out.ls.e[63].ttl, 1 + 63 % 15);
}

static void test_link_state_errors(void **state)
{
	struct dfly_wire_ctrl m = ctrl_link_state(), out, x;
	uint8_t b[BUF_LEN], ref[BUF_LEN];
	int n = encode_ctrl(ref, &m);
	size_t e0 = OFF + 8 + 4; /* first entry, little end last (big-endian u32) */

	(void)state;
	/* h differs from the topology's */
	memcpy(b, ref, (size_t)n);
	b[OFF + 8] = 3;
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_COUNT);
	/* n does not match the body */
	memcpy(b, ref, (size_t)n);
	b[OFF + 8 + 1] = 1;
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_COUNT);
	memcpy(b, ref, (size_t)n);
	b[OFF + 8 + 1] = DFLY_WIRE_FAIL_MAX + 1;
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_COUNT);
	/* a down bit beyond h */
	memcpy(b, ref, (size_t)n);
	b[OFF + 8 + 3] |= 0x4;
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), RESERVED);
	/* reserved entry bits */
	for (unsigned bit = 26; bit < 32; bit++) {
		memcpy(b, ref, (size_t)n);
		b[e0 + 3 - bit / 8] |= (uint8_t)(1u << (bit % 8));
		ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), RESERVED);
	}
	/* a = b, a > b, b = g (9 groups), ttl 0 */
	memcpy(b, ref, (size_t)n);
	b[e0 + 3] = 0x04 | 0x00; /* a = 4 (low bits), b stays 4 */
	b[e0 + 2] = 0x20;
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_ROUTER);
	x = m;
	x.ls.e[0] = (struct dfly_wire_fail_pair){.a = 1, .b = 9, .ttl = 3};
	n = encode_ctrl(b, &x);
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n, &LIM, &out), BAD_ROUTER);
	x.ls.e[0] = (struct dfly_wire_fail_pair){.a = 1, .b = 2, .ttl = 0};
	ASSERT_ERR(dfly_wire_ctrl_encode(b, BUF_LEN, &ETH, &x), BAD_ROUTER);
	x.ls.e[0] = (struct dfly_wire_fail_pair){.a = 2, .b = 1, .ttl = 1};
	ASSERT_ERR(dfly_wire_ctrl_encode(b, BUF_LEN, &ETH, &x), BAD_ROUTER);
	x.ls.e[0] = (struct dfly_wire_fail_pair){.a = 1, .b = 2, .ttl = 16};
	ASSERT_ERR(dfly_wire_ctrl_encode(b, BUF_LEN, &ETH, &x), BAD_ROUTER);
	/* encoder: h out of range, too many entries, a down bit beyond h */
	x = m;
	x.ls.h = 0;
	ASSERT_ERR(dfly_wire_ctrl_encode(b, BUF_LEN, &ETH, &x), BAD_COUNT);
	x = m;
	x.ls.n = DFLY_WIRE_FAIL_MAX + 1;
	ASSERT_ERR(dfly_wire_ctrl_encode(b, BUF_LEN, &ETH, &x), BAD_COUNT);
	x = m;
	x.ls.down = 0x4;
	ASSERT_ERR(dfly_wire_ctrl_encode(b, BUF_LEN, &ETH, &x), RESERVED);
}

static void test_ctrl_encode_errors(void **state)
{
	struct dfly_wire_ctrl m[NSAMPLES], x;
	uint8_t b[BUF_LEN];
	int nm = ctrl_samples(m);

	(void)state;
	/* too small: every size below each frame, and nothing written */
	for (int k = 0; k < nm; k++) {
		int n = encode_ctrl(b, &m[k]);

		for (size_t size = 0; size < (size_t)n; size++) {
			memset(b, 0x5a, sizeof(b));
			ASSERT_ERR(dfly_wire_ctrl_encode(b, size, &ETH, &m[k]), NOSPC);
			for (size_t i = 0; i < sizeof(b); i++)
				CHECK(b[i] == 0x5a, "%s size %zu: byte %zu written",
				      dfly_wire_ctrl_name(m[k].type), size, i);
		}
	}
	x = m[4];
	x.type = 0;
	ASSERT_ERR(dfly_wire_ctrl_encode(b, BUF_LEN, &ETH, &x), BAD_TYPE);
	x.type = DFLY_WIRE_CTRL_COUNT;
	ASSERT_ERR(dfly_wire_ctrl_encode(b, BUF_LEN, &ETH, &x), BAD_TYPE);

	x = ctrl_credit(1);
	x.credit.n = 0;
	ASSERT_ERR(dfly_wire_ctrl_encode(b, BUF_LEN, &ETH, &x), BAD_COUNT);
	x.credit.n = DFLY_WIRE_CREDIT_MAX + 1;
	ASSERT_ERR(dfly_wire_ctrl_encode(b, BUF_LEN, &ETH, &x), BAD_COUNT);
	x = ctrl_credit(3);
	x.credit.e[2].phits = 0;
	ASSERT_ERR(dfly_wire_ctrl_encode(b, BUF_LEN, &ETH, &x), BAD_SIZE);
	x = ctrl_credit(3);
	x.credit.e[2].flags = 0x04;
	ASSERT_ERR(dfly_wire_ctrl_encode(b, BUF_LEN, &ETH, &x), RESERVED);
	/* an absolute (running-total) entry may be 0, and round-trips */
	x = ctrl_credit(3);
	x.credit.e[2].flags = DFLY_WIRE_CREDIT_F_ABS;
	x.credit.e[2].phits = 0;
	{
		struct dfly_wire_ctrl y;
		int len = dfly_wire_ctrl_encode(b, BUF_LEN, &ETH, &x);

		assert_true(len > 0);
		assert_int_equal(dfly_wire_ctrl_decode(b, (size_t)len, &LIM, &y), 0);
		assert_int_equal(y.credit.e[2].flags, DFLY_WIRE_CREDIT_F_ABS);
		assert_int_equal(y.credit.e[2].phits, 0);
		/* the same entry without the flag is refused by the decoder */
		b[14 + 8 + 12 + 4 * 2 + 1] = 0;
		ASSERT_ERR(dfly_wire_ctrl_decode(b, (size_t)len, &LIM, &y), BAD_SIZE);
		b[14 + 8 + 12 + 4 * 2 + 1] = 0x04;
		ASSERT_ERR(dfly_wire_ctrl_decode(b, (size_t)len, &LIM, &y), RESERVED);
	}

	x = ctrl_pb(2);
	x.pb.h = 0;
	ASSERT_ERR(dfly_wire_ctrl_encode(b, BUF_LEN, &ETH, &x), BAD_COUNT);
	x.pb.h = DFLY_MAX_H + 1;
	ASSERT_ERR(dfly_wire_ctrl_encode(b, BUF_LEN, &ETH, &x), BAD_COUNT);
	x = ctrl_pb(2);
	x.pb.vg = 0;
	ASSERT_ERR(dfly_wire_ctrl_encode(b, BUF_LEN, &ETH, &x), BAD_VC);
	x.pb.vg = DFLY_MAX_VCS + 1;
	ASSERT_ERR(dfly_wire_ctrl_encode(b, BUF_LEN, &ETH, &x), BAD_VC);
	x = ctrl_pb(2);
	x.pb.sat[1] = 0x04; /* VC 2 of a 2-VC port */
	ASSERT_ERR(dfly_wire_ctrl_encode(b, BUF_LEN, &ETH, &x), RESERVED);

	x = ctrl_ectn();
	x.ectn.n = 0;
	ASSERT_ERR(dfly_wire_ctrl_encode(b, BUF_LEN, &ETH, &x), BAD_COUNT);
	x.ectn.n = DFLY_WIRE_ECTN_MAX + 1;
	ASSERT_ERR(dfly_wire_ctrl_encode(b, BUF_LEN, &ETH, &x), BAD_COUNT);
	x = ctrl_ectn();
	x.ectn.format = DFLY_WIRE_ECTN_FMT_COUNT;
	ASSERT_ERR(dfly_wire_ctrl_encode(b, BUF_LEN, &ETH, &x), BAD_FORMAT);
	x = ctrl_ectn_list(DFLY_WIRE_ECTN_SPARSE);
	x.ectn.n = 0;
	ASSERT_ERR(dfly_wire_ctrl_encode(b, BUF_LEN, &ETH, &x), BAD_COUNT);
	x = ctrl_ectn_list(DFLY_WIRE_ECTN_DELTA);
	dfly_wire_ectn_add(&x.ectn, 8, 1); /* index n */
	ASSERT_ERR(dfly_wire_ctrl_encode(b, BUF_LEN, &ETH, &x), BAD_INDEX);
	x = ctrl_ectn_list(DFLY_WIRE_ECTN_DELTA);
	dfly_wire_ectn_add(&x.ectn, DFLY_WIRE_ECTN_MAX - 1, 1); /* in the last bitmap word */
	ASSERT_ERR(dfly_wire_ctrl_encode(b, BUF_LEN, &ETH, &x), BAD_INDEX);
	/* one entry more than a list may hold */
	x = ctrl_ectn_list(DFLY_WIRE_ECTN_SPARSE);
	x.ectn.n = DFLY_WIRE_ECTN_MAX;
	for (unsigned k = 0; k <= DFLY_WIRE_ECTN_LIST_MAX; k++)
		dfly_wire_ectn_add(&x.ectn, k * 3, 1);
	ASSERT_ERR(dfly_wire_ctrl_encode(b, BUF_LEN, &ETH, &x), BAD_COUNT);

	x = ctrl_ack();
	x.ack.flags = 0x02;
	ASSERT_ERR(dfly_wire_ctrl_encode(b, BUF_LEN, &ETH, &x), RESERVED);
}

static void test_hello_check_rejects(void **state)
{
	struct dfly_topo *topo = dfly_topo_create(2, 4, 2, 1, DFLY_ARR_PALMTREE, 1);
	struct dfly_topo *other = dfly_topo_create(2, 4, 2, 1, DFLY_ARR_PALMTREE, -1);
	struct dfly_wire_ctrl m;
	uint32_t pr, pp;

	(void)state;
	assert_non_null(topo);
	assert_non_null(other);
	/* router 0, local port 2: the peer is router 1, local port 2 + (a − 2 − 0) = 4 */
	assert_int_equal(dfly_topo_port_peer(topo, 0, 2, &pr, &pp), 0);
	assert_int_equal(pr, 1);
	assert_int_equal(pp, 4);
	dfly_wire_hello_fill(&m, topo, pr, pp, 0x1234);
	assert_int_equal(dfly_wire_hello_check(&m, topo, 0, 2, 0x1234), 0);

	ASSERT_ERR(dfly_wire_hello_check(&m, topo, 0, 3, 0x1234), MISWIRED);  /* other port */
	ASSERT_ERR(dfly_wire_hello_check(&m, topo, 2, 2, 0x1234), MISWIRED);  /* other router */
	ASSERT_ERR(dfly_wire_hello_check(&m, topo, 0, 1, 0x1234), BAD_PORT);  /* terminal */
	ASSERT_ERR(dfly_wire_hello_check(&m, topo, 0, 7, 0x1234), BAD_PORT);  /* radix */
	ASSERT_ERR(dfly_wire_hello_check(&m, topo, 36, 2, 0x1234), BAD_PORT); /* router */
	ASSERT_ERR(dfly_wire_hello_check(&m, topo, 0, 2, 0x4321), BAD_TOPO);  /* config hash */
	assert_int_equal(dfly_wire_hello_check(&m, topo, 0, 2, 0), 0); /* hash not compared */
	ASSERT_ERR(dfly_wire_hello_check(&m, other, 0, 2, 0x1234), BAD_TOPO); /* σ */

	struct dfly_wire_ctrl x = m;
	x.hello.port = 5; /* the right router, another of its ports */
	ASSERT_ERR(dfly_wire_hello_check(&x, topo, 0, 2, 0), MISWIRED);
	x = m;
	x.hello.p = 3;
	ASSERT_ERR(dfly_wire_hello_check(&x, topo, 0, 2, 0), BAD_TOPO);
	x = m;
	x.hello.a = 8;
	ASSERT_ERR(dfly_wire_hello_check(&x, topo, 0, 2, 0), BAD_TOPO);
	x = m;
	x.hello.h = 4;
	ASSERT_ERR(dfly_wire_hello_check(&x, topo, 0, 2, 0), BAD_TOPO);
	x = m;
	x.hello.t = 2;
	ASSERT_ERR(dfly_wire_hello_check(&x, topo, 0, 2, 0), BAD_TOPO);
	x = m;
	x.hello.arr = DFLY_ARR_CONSECUTIVE;
	ASSERT_ERR(dfly_wire_hello_check(&x, topo, 0, 2, 0), BAD_TOPO);
	x = ctrl_ack();
	ASSERT_ERR(dfly_wire_hello_check(&x, topo, 0, 2, 0), BAD_TYPE);

	dfly_topo_destroy(topo);
	dfly_topo_destroy(other);
}

/* ==== positive tests ====================================================================== */

static void test_classify(void **state)
{
	uint8_t b[BUF_LEN], t[BUF_LEN];
	struct dfly_wire_data d = data_min();
	struct dfly_wire_ctrl m = ctrl_ack();
	int n;

	(void)state;
	n = encode_data(b, &d);
	assert_int_equal(dfly_wire_classify(b, (size_t)n), DFLY_WIRE_CLASS_DATA);
	assert_int_equal(dfly_wire_classify(b, 14), DFLY_WIRE_CLASS_DATA); /* EtherType only */
	assert_int_equal(dfly_wire_classify(t, add_vlan(t, b, (size_t)n)), DFLY_WIRE_CLASS_DATA);
	assert_int_equal(dfly_wire_classify(t, 18), DFLY_WIRE_CLASS_DATA);
	n = encode_ctrl(b, &m);
	assert_int_equal(dfly_wire_classify(b, (size_t)n), DFLY_WIRE_CLASS_CTRL);
	assert_int_equal(dfly_wire_classify(t, add_vlan(t, b, (size_t)n)), DFLY_WIRE_CLASS_CTRL);
}

static void test_data_golden(void **state)
{
	static const uint8_t want[14 + 48 + 5] = {
	    /* Ethernet */
	    0x02, 0xdf, 0x00, 0x00, 0x01, 0x03, 0x02, 0xdf, 0x00, 0x00, 0x00, 0x05, 0x88, 0xb5,
	    /* version, type, flags, global hops, local hops, vc, size */
	    0x02, 0x01, 0xff, 0x02, 0x03, 0x03, 0x00, 0x10,
	    /* src 0, dst 71, via 35, seq */
	    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x47, 0x00, 0x00, 0x00, 0x23, 0xfe, 0xdc,
	    0xba, 0x98,
	    /* generation cycle */
	    0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	    /* pb_vec, tag, payload_len, path local hops, reserved, injection delay */
	    0xde, 0xad, 0xbe, 0xef, 0x11, 0x22, 0x33, 0x44, 0x00, 0x05, 0x5a, 0x00, 0x0a, 0x0b,
	    0x0c, 0x0d,
	    /* payload */
	    0xa0, 0xa1, 0xa2, 0xa3, 0xa4};
	uint8_t b[BUF_LEN];
	struct dfly_wire_data d = data_max();
	int n = encode_data(b, &d);

	(void)state;
	assert_int_equal(n, sizeof(want));
	assert_memory_equal(b, want, sizeof(want));
	/* NULL MACs are zeros */
	n = dfly_wire_data_encode(b, BUF_LEN, NULL, &d, PAYLOAD);
	assert_int_equal(n, sizeof(want));
	for (int i = 0; i < 12; i++)
		assert_int_equal(b[i], 0);
	assert_memory_equal(b + 12, want + 12, sizeof(want) - 12);
}

static void assert_data_equal(const struct dfly_wire_data *x, const struct dfly_wire_data *y)
{
	assert_int_equal(x->type, y->type);
	assert_int_equal(x->flags, y->flags);
	assert_int_equal(x->global_hops, y->global_hops);
	assert_int_equal(x->local_hops, y->local_hops);
	assert_int_equal(x->vc, y->vc);
	assert_int_equal(x->size_phits, y->size_phits);
	assert_int_equal(x->src_node, y->src_node);
	assert_int_equal(x->dst_node, y->dst_node);
	assert_int_equal(x->via_router, y->via_router);
	assert_int_equal(x->seq, y->seq);
	assert_int_equal(x->gen_cycle, y->gen_cycle);
	assert_int_equal(x->pb_vec, y->pb_vec);
	assert_int_equal(x->tag, y->tag);
	assert_int_equal(x->payload_len, y->payload_len);
	assert_int_equal(x->path_lhops, y->path_lhops);
	assert_int_equal(x->inj_delay, y->inj_delay);
}

static void test_data_roundtrip(void **state)
{
	uint8_t b[BUF_LEN], t[BUF_LEN];
	struct dfly_wire_data d, out;
	int n;

	(void)state;
	/* every field at its maximum */
	d = data_max();
	d.src_node = 71;
	d.seq = UINT32_MAX;
	d.gen_cycle = UINT64_MAX;
	d.pb_vec = UINT32_MAX;
	d.tag = UINT32_MAX;
	n = encode_data(b, &d);
	assert_int_equal(data_decode_exact(b, (size_t)n, &out), 0);
	assert_data_equal(&out, &d);
	assert_int_equal(out.payload_off, 62);
	assert_memory_equal(b + out.payload_off, PAYLOAD, sizeof(PAYLOAD));
	/* and behind a tag */
	size_t tn = add_vlan(t, b, (size_t)n);
	assert_int_equal(data_decode_exact(t, tn, &out), 0);
	assert_data_equal(&out, &d);
	assert_int_equal(out.payload_off, 66);
	assert_memory_equal(t + out.payload_off, PAYLOAD, sizeof(PAYLOAD));

	/* every field at its minimum */
	d = data_min();
	d.dst_node = 0;
	n = encode_data(b, &d);
	assert_int_equal(n, 62);
	assert_int_equal(data_decode_exact(b, (size_t)n, &out), 0);
	assert_data_equal(&out, &d);

	/* each flag alone */
	for (unsigned bit = 0; bit < 8; bit++) {
		d = data_min();
		d.flags = (uint8_t)(1u << bit);
		n = encode_data(b, &d);
		assert_int_equal(b[OFF + 2], 1u << bit);
		assert_int_equal(data_decode_exact(b, (size_t)n, &out), 0);
		assert_int_equal(out.flags, 1u << bit);
	}
	assert_int_equal(DFLY_WIRE_F_NONMIN | DFLY_WIRE_F_PHASE | DFLY_WIRE_F_MANDATORY_GLOBAL |
			     DFLY_WIRE_F_LOCAL_MISROUTE_DONE | DFLY_WIRE_F_REPLY | DFLY_WIRE_F_PB |
			     DFLY_WIRE_F_NOINTER | DFLY_WIRE_F_RES_MIN,
			 DFLY_WIRE_F_ALL);

	/* INFO flit and HOST frame */
	d = data_min();
	d.type = DFLY_WIRE_PKT_INFO;
	d.flags = DFLY_WIRE_F_PB;
	d.pb_vec = 0x5;
	n = encode_data(b, &d);
	assert_int_equal(data_decode_exact(b, (size_t)n, &out), 0);
	assert_data_equal(&out, &d);
}

static void test_data_rewrite_in_place(void **state)
{
	uint8_t b[BUF_LEN];
	struct dfly_wire_data d = data_max(), out;
	int n = encode_data(b, &d);

	(void)state;
	/* forwarding: new VC, one more hop, new sequence; the payload stays where it is */
	d.vc = 0;
	d.global_hops = 1;
	d.local_hops = 0;
	d.seq = 7;
	assert_int_equal(dfly_wire_data_encode(b, (size_t)n, &ETH, &d, NULL), n);
	assert_int_equal(data_decode_exact(b, (size_t)n, &out), 0);
	assert_data_equal(&out, &d);
	assert_memory_equal(b + 62, PAYLOAD, sizeof(PAYLOAD));
}

static void test_credit_golden_roundtrip(void **state)
{
	static const uint8_t want[] = {0x02, 0xdf, 0x00, 0x00, 0x01, 0x03, 0x02, 0xdf, 0x00, 0x00,
				       0x00, 0x05, 0x88, 0xb6,
				       /* version, type CREDIT, body_len 20, src_router 35 */
				       0x02, 0x01, 0x00, 0x14, 0x00, 0x00, 0x00, 0x23,
				       /* n = 2, reserved */
				       0x02, 0x00, 0x00, 0x00,
				       /* due */
				       0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18,
				       /* {vc 0, -, 1 phit}, {vc 1, min, 65535 phits} */
				       0x00, 0x00, 0x00, 0x01, 0x01, 0x01, 0xff, 0xff};
	struct dfly_wire_ctrl m = ctrl_credit(2), out;
	uint8_t b[BUF_LEN];
	int n = encode_ctrl(b, &m);

	(void)state;
	assert_int_equal(n, sizeof(want));
	assert_memory_equal(b, want, sizeof(want));

	m = ctrl_credit(DFLY_WIRE_CREDIT_MAX);
	n = encode_ctrl(b, &m);
	assert_int_equal(ctrl_decode_exact(b, (size_t)n, &LIM, &out), 0);
	assert_int_equal(out.type, DFLY_WIRE_CTRL_CREDIT);
	assert_int_equal(out.src_router, 35);
	assert_int_equal(out.credit.n, DFLY_WIRE_CREDIT_MAX);
	assert_true(out.credit.due == 0x1112131415161718ull);
	m.credit.due = DFLY_WIRE_CREDIT_NO_DUE;
	n = encode_ctrl(b, &m);
	assert_int_equal(ctrl_decode_exact(b, (size_t)n, &LIM, &out), 0);
	assert_true(out.credit.due == DFLY_WIRE_CREDIT_NO_DUE);
	for (unsigned i = 0; i < DFLY_WIRE_CREDIT_MAX; i++) {
		assert_int_equal(out.credit.e[i].vc, i % 4);
		assert_int_equal(out.credit.e[i].flags, i % 2 ? DFLY_WIRE_CREDIT_F_MIN : 0);
		assert_int_equal(out.credit.e[i].phits, m.credit.e[i].phits);
	}
	assert_int_equal(out.credit.e[3].vc, 3); /* vcs − 1 */
}

static void test_pb_golden_roundtrip(void **state)
{
	static const uint8_t want_body[] = {0x02, 0x03, 0x00, 0x00, 0x0c};
	struct dfly_wire_ctrl m = ctrl_pb(3), out;
	struct dfly_wire_limits lim = LIM;
	uint8_t b[BUF_LEN];
	int n = encode_ctrl(b, &m);

	(void)state;
	/* h = 2, vg = 3: bit 2 (q 0, v 2) and bit 3 (q 1, v 0) -> 0x0c */
	assert_int_equal(n, 14 + 8 + sizeof(want_body));
	assert_int_equal(b[OFF + 1], DFLY_WIRE_CTRL_PB_STATE);
	assert_int_equal(b[OFF + 3], sizeof(want_body));
	assert_memory_equal(b + OFF + 8, want_body, sizeof(want_body));

	/* every pattern of h = 2, vg = 2 */
	for (unsigned pat = 0; pat < 16; pat++) {
		m = ctrl_pb(2);
		m.pb.sat[0] = pat & 3;
		m.pb.sat[1] = pat >> 2;
		n = encode_ctrl(b, &m);
		assert_int_equal(b[OFF + 8 + 4], pat);
		assert_int_equal(ctrl_decode_exact(b, (size_t)n, &LIM, &out), 0);
		assert_int_equal(out.pb.h, 2);
		assert_int_equal(out.pb.vg, 2);
		assert_int_equal(out.pb.sat[0], pat & 3);
		assert_int_equal(out.pb.sat[1], pat >> 2);
		for (unsigned q = 2; q < DFLY_MAX_H; q++)
			assert_int_equal(out.pb.sat[q], 0);
	}

	/* the largest vector: h = 16, vg = 8, 128 bits */
	lim.h = DFLY_MAX_H;
	lim.vcs = DFLY_MAX_VCS;
	m = ctrl_pb(2);
	m.pb.h = DFLY_MAX_H;
	m.pb.vg = DFLY_MAX_VCS;
	for (unsigned q = 0; q < DFLY_MAX_H; q++)
		m.pb.sat[q] = (uint8_t)(q * 37 + 1);
	n = encode_ctrl(b, &m);
	assert_int_equal(n, 14 + 8 + 4 + 16);
	for (unsigned q = 0; q < DFLY_MAX_H; q++)
		assert_int_equal(b[OFF + 8 + 4 + q], (uint8_t)(q * 37 + 1)); /* byte q = port q */
	assert_int_equal(ctrl_decode_exact(b, (size_t)n, &lim, &out), 0);
	assert_memory_equal(out.pb.sat, m.pb.sat, DFLY_MAX_H);
}

static void test_ectn_golden_roundtrip(void **state)
{
	static const uint8_t want_body[] = {0xc3, 0x00, 0x00, 0x08, 0x31, 0x75, 0xb9, 0xfd};
	struct dfly_wire_ctrl m = ctrl_ectn(), out;
	struct dfly_wire_limits lim = LIM;
	uint8_t b[BUF_LEN];
	int n = encode_ctrl(b, &m);

	(void)state;
	/* counters 1, 3, .., 15: even index in the low nibble */
	assert_int_equal(n, 14 + 8 + sizeof(want_body));
	assert_int_equal(b[OFF + 1], DFLY_WIRE_CTRL_ECTN_PARTIAL);
	assert_memory_equal(b + OFF + 8, want_body, sizeof(want_body));
	assert_int_equal(ctrl_decode_exact(b, (size_t)n, &LIM, &out), 0);
	assert_int_equal(out.src_router, 4);
	assert_int_equal(out.ectn.epoch, 0xc3);
	assert_int_equal(out.ectn.n, 8);
	for (unsigned k = 0; k < 8; k++)
		assert_int_equal(out.ectn.ctr[k], k * 2 + 1);

	/* all zero, then saturation of values above 15 */
	memset(m.ectn.ctr, 0, sizeof(m.ectn.ctr));
	n = encode_ctrl(b, &m);
	assert_int_equal(ctrl_decode_exact(b, (size_t)n, &LIM, &out), 0);
	for (unsigned k = 0; k < 8; k++)
		assert_int_equal(out.ectn.ctr[k], 0);
	static const uint8_t big[8] = {15, 16, 17, 100, 200, 255, 14, 0};
	static const uint8_t sat[8] = {15, 15, 15, 15, 15, 15, 14, 0};
	memcpy(m.ectn.ctr, big, sizeof(big));
	n = encode_ctrl(b, &m);
	assert_int_equal(b[OFF + 8 + 4], 0xff);
	assert_int_equal(b[OFF + 8 + 7], 0x0e);
	assert_int_equal(ctrl_decode_exact(b, (size_t)n, &LIM, &out), 0);
	assert_memory_equal(out.ectn.ctr, sat, sizeof(sat));

	/* the largest array: 1023 counters (odd) */
	lim.a = DFLY_WIRE_ECTN_MAX;
	lim.h = 1;
	lim.t = 1;
	m.ectn.n = DFLY_WIRE_ECTN_MAX;
	for (unsigned k = 0; k < DFLY_WIRE_ECTN_MAX; k++)
		m.ectn.ctr[k] = (uint8_t)(k % 16);
	n = encode_ctrl(b, &m);
	assert_int_equal(n, 14 + 8 + 4 + 512);
	assert_int_equal(ctrl_decode_exact(b, (size_t)n, &lim, &out), 0);
	assert_int_equal(out.ectn.n, DFLY_WIRE_ECTN_MAX);
	assert_memory_equal(out.ectn.ctr, m.ectn.ctr, DFLY_WIRE_ECTN_MAX);
}

static void test_ectn_list_golden_roundtrip(void **state)
{
	/* epoch, format, n = 8, m = 3, entries {0, 1}, {3, 15}, {7, 9} as index << 4 | value */
	static const uint8_t want_body[] = {0x5a, 0x01, 0x00, 0x08, 0x00, 0x03,
					    0x00, 0x01, 0x00, 0x3f, 0x00, 0x79};
	static const uint8_t want_ctr[8] = {1, 0, 0, 15, 0, 0, 0, 9};
	struct dfly_wire_ctrl m = ctrl_ectn_list(DFLY_WIRE_ECTN_SPARSE), out;
	struct dfly_wire_limits lim = LIM;
	uint8_t b[BUF_LEN];
	int n = encode_ctrl(b, &m);

	(void)state;
	assert_int_equal(n, 14 + 8 + sizeof(want_body));
	assert_int_equal(b[OFF + 1], DFLY_WIRE_CTRL_ECTN_PARTIAL);
	assert_int_equal(b[OFF + 2] << 8 | b[OFF + 3], sizeof(want_body));
	assert_memory_equal(b + OFF + 8, want_body, sizeof(want_body));
	memset(&out, 0xee, sizeof(out)); /* every counter not listed must come back 0 */
	assert_int_equal(ctrl_decode_exact(b, (size_t)n, &LIM, &out), 0);
	assert_int_equal(out.src_router, 4);
	assert_int_equal(out.ectn.epoch, 0x5a);
	assert_int_equal(out.ectn.format, DFLY_WIRE_ECTN_SPARSE);
	assert_int_equal(out.ectn.n, 8);
	assert_memory_equal(out.ectn.ctr, want_ctr, 8);
	for (unsigned k = 0; k < DFLY_WIRE_ECTN_MAX; k++)
		CHECK(dfly_wire_ectn_has(&out.ectn, k) == (k == 0 || k == 3 || k == 7), "k %u", k);

	/* DELTA: the same layout with format 2; ctr[] of counters not listed is not written,
	 * values above 15 saturate */
	m.ectn.format = DFLY_WIRE_ECTN_DELTA;
	m.ectn.ctr[1] = 0xab;
	m.ectn.ctr[7] = 200;
	n = encode_ctrl(b, &m);
	assert_int_equal(b[OFF + 8 + 1], DFLY_WIRE_ECTN_DELTA);
	assert_int_equal(b[OFF + 8 + 11], 0x7f);
	assert_int_equal(ctrl_decode_exact(b, (size_t)n, &LIM, &out), 0);
	assert_int_equal(out.ectn.format, DFLY_WIRE_ECTN_DELTA);
	assert_int_equal(out.ectn.ctr[1], 0);
	assert_int_equal(out.ectn.ctr[7], 15);

	/* an empty list: 6 bytes of body, below the Ethernet minimum (padding accepted) */
	m = ctrl_ectn_list(DFLY_WIRE_ECTN_DELTA);
	n = encode_ctrl(b, &m);
	assert_int_equal(n, 14 + 8 + 6);
	assert_int_equal(b[OFF + 8 + 4], 0);
	assert_int_equal(b[OFF + 8 + 5], 0);
	memset(b + n, 0, 60 - (size_t)n);
	assert_int_equal(ctrl_decode_exact(b, 60, &LIM, &out), 0);
	assert_int_equal(out.ectn.format, DFLY_WIRE_ECTN_DELTA);
	for (unsigned k = 0; k < 8; k++)
		assert_false(dfly_wire_ectn_has(&out.ectn, k));

	/* the longest list: DFLY_WIRE_ECTN_LIST_MAX entries up to index 1022, 544 bytes */
	lim.a = DFLY_WIRE_ECTN_MAX;
	lim.h = 1;
	lim.t = 1;
	m = ctrl_ectn_list(DFLY_WIRE_ECTN_SPARSE);
	memset(m.ectn.listed, 0, sizeof(m.ectn.listed));
	m.ectn.n = DFLY_WIRE_ECTN_MAX;
	for (unsigned i = 0; i < DFLY_WIRE_ECTN_LIST_MAX; i++)
		dfly_wire_ectn_add(&m.ectn, DFLY_WIRE_ECTN_MAX - 1 - 3 * i, (uint8_t)(i % 16));
	n = encode_ctrl(b, &m);
	assert_int_equal(n, DFLY_CPU_FRAME_MAX);
	assert_int_equal(b[n - 2] << 8 | b[n - 1], (DFLY_WIRE_ECTN_MAX - 1) << 4 | 0);
	assert_int_equal(ctrl_decode_exact(b, (size_t)n, &lim, &out), 0);
	assert_memory_equal(out.ectn.listed, m.ectn.listed, sizeof(m.ectn.listed));
	for (unsigned k = 0; k < DFLY_WIRE_ECTN_MAX; k++)
		CHECK(out.ectn.ctr[k] == (dfly_wire_ectn_has(&m.ectn, k) ? m.ectn.ctr[k] : 0),
		      "k %u", k);
}

static void test_ectn_group_index(void **state)
{
	(void)state;
	/* g = 9: sender in group 4 lists groups 0, 1, 2, 3, 5, 6, 7, 8 */
	static const uint32_t want[8] = {0, 1, 2, 3, 5, 6, 7, 8};

	for (uint32_t k = 0; k < 8; k++) {
		assert_int_equal(dfly_wire_ectn_group(4, k), want[k]);
		assert_int_equal(dfly_wire_ectn_index(4, want[k]), k);
	}
	for (uint32_t G = 0; G < 9; G++)
		for (uint32_t k = 0; k < 8; k++) {
			uint32_t D = dfly_wire_ectn_group(G, k);

			CHECK(D != G && D < 9, "G %u k %u -> %u", G, k, D);
			CHECK(dfly_wire_ectn_index(G, D) == k, "G %u k %u", G, k);
		}
}

static void test_hello_golden_roundtrip(void **state)
{
	static const uint8_t want_body[] = {0x00, 0x06, 0x00, 0xff, 0x00, 0x02, 0x00, 0x04,
					    0x00, 0x02, 0x00, 0x01, 0xca, 0xfe, 0xf0, 0x0d};
	struct dfly_wire_ctrl m = ctrl_hello(), out;
	uint8_t b[BUF_LEN];
	int n = encode_ctrl(b, &m);

	(void)state;
	assert_int_equal(n, 14 + 8 + 16);
	assert_int_equal(b[OFF + 1], DFLY_WIRE_CTRL_HELLO);
	assert_memory_equal(b + OFF + 8, want_body, sizeof(want_body));
	assert_int_equal(ctrl_decode_exact(b, (size_t)n, &LIM, &out), 0);
	assert_int_equal(out.src_router, 35);
	assert_int_equal(out.hello.port, 6);
	assert_int_equal(out.hello.arr, DFLY_ARR_PALMTREE);
	assert_int_equal(out.hello.sigma, -1);
	assert_int_equal(out.hello.p, 2);
	assert_int_equal(out.hello.a, 4);
	assert_int_equal(out.hello.h, 2);
	assert_int_equal(out.hello.t, 1);
	assert_int_equal(out.hello.cfg_hash, 0xcafef00du);
	m.hello.sigma = 1;
	n = encode_ctrl(b, &m);
	assert_int_equal(b[OFF + 8 + 3], 0x01);
	assert_int_equal(ctrl_decode_exact(b, (size_t)n, &LIM, &out), 0);
	assert_int_equal(out.hello.sigma, 1);
}

static void test_hello_every_link(void **state)
{
	struct dfly_topo *topo = dfly_topo_create(2, 4, 2, 1, DFLY_ARR_PALMTREE, 1);
	struct dfly_wire_limits lim;
	struct dfly_wire_ctrl m, out;
	uint8_t b[BUF_LEN];
	unsigned links = 0;

	(void)state;
	assert_non_null(topo);
	dfly_wire_limits_init(&lim, topo, 4, 16);
	assert_int_equal(lim.nodes, 72);
	assert_int_equal(lim.routers, 36);
	assert_int_equal(lim.p, 2);
	assert_int_equal(lim.a, 4);
	assert_int_equal(lim.h, 2);
	assert_int_equal(lim.t, 1);
	assert_int_equal(lim.vcs, 4);
	assert_int_equal(lim.max_phits, 16);
	/* the HELLO each end sends crosses the wire and passes the other end's check */
	for (uint32_t r = 0; r < topo->routers; r++) {
		for (uint32_t port = topo->first_local; port < topo->radix; port++) {
			uint32_t pr, pp;
			int n, rc;

			assert_int_equal(dfly_topo_port_peer(topo, r, port, &pr, &pp), 0);
			dfly_wire_hello_fill(&m, topo, pr, pp, 0xabcdef01u);
			n = encode_ctrl(b, &m);
			assert_int_equal(ctrl_decode_exact(b, (size_t)n, &lim, &out), 0);
			rc = dfly_wire_hello_check(&out, topo, r, port, 0xabcdef01u);
			CHECK(rc == 0, "router %u port %u: %s", r, port, dfly_wire_err_name(rc));
			/* the same frame on the next fabric port of r is a miswiring */
			uint32_t wrong = port + 1 < topo->radix ? port + 1 : topo->first_local;
			ASSERT_ERR(dfly_wire_hello_check(&out, topo, r, wrong, 0xabcdef01u),
				   MISWIRED);
			links++;
		}
	}
	assert_int_equal(links, 36 * 5);
	dfly_topo_destroy(topo);
}

static void test_ack_golden_roundtrip(void **state)
{
	static const uint8_t want[] = {0x02, 0xdf, 0x00, 0x00, 0x01, 0x03, 0x02, 0xdf, 0x00, 0x00,
				       0x00, 0x05, 0x88, 0xb6, 0x02, 0x05, 0x00, 0x10, 0x00, 0x00,
				       0x00, 0x00, 0x80, 0x00, 0x00, 0x01, 0x01, 0x00, 0x00, 0x00,
				       /* taken 0x0102030405060708 */
				       0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08};
	static const uint32_t acks[] = {0, 1, 0x7fffffffu, 0x80000000u, UINT32_MAX};
	static const uint64_t taken[] = {0, 1, 0x0102030405060708ull, DFLY_WIRE_ACK_NONE};
	struct dfly_wire_ctrl m = ctrl_ack(), out;
	uint8_t b[BUF_LEN];
	int n = encode_ctrl(b, &m);

	(void)state;
	assert_int_equal(n, sizeof(want));
	assert_memory_equal(b, want, sizeof(want));
	for (size_t i = 0; i < sizeof(acks) / sizeof(acks[0]); i++) {
		for (uint8_t f = 0; f < 2; f++) {
			m.ack.ack = acks[i];
			m.ack.flags = f;
			m.ack.taken = taken[(i + f) % (sizeof(taken) / sizeof(taken[0]))];
			n = encode_ctrl(b, &m);
			assert_int_equal(ctrl_decode_exact(b, (size_t)n, &LIM, &out), 0);
			assert_int_equal(out.type, DFLY_WIRE_CTRL_ACK);
			assert_int_equal(out.ack.ack, acks[i]);
			assert_int_equal(out.ack.flags, f);
			assert_true(out.ack.taken == m.ack.taken);
		}
	}
	/* the old 8-byte body (wire v1) is refused by its length */
	n = encode_ctrl(b, &m);
	b[OFF + 3] = 8;
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n - 8, &LIM, &out), BAD_COUNT);
}

/* SYNC (lockstep): Ethernet, header {2, 7, 16, 0}, next and due big-endian; a bare horizon
 * has due 0xff..ff; any other body length is refused. */
static void test_sync_golden_roundtrip(void **state)
{
	static const uint8_t want[] = {0x02, 0xdf, 0x00, 0x00, 0x01, 0x03, 0x02, 0xdf, 0x00, 0x00,
				       0x00, 0x05, 0x88, 0xb6, 0x02, 0x07, 0x00, 0x10, 0x00, 0x00,
				       0x00, 0x00, /* next 0x0102030405060708 */
				       0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
				       /* due 0x1112131415161718 */
				       0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18};
	static const uint64_t v[] = {0, 1, 0x0102030405060708ull, DFLY_WIRE_SYNC_NONE};
	struct dfly_wire_ctrl m = {.type = DFLY_WIRE_CTRL_SYNC, .src_router = 0}, out;
	uint8_t b[BUF_LEN];
	int n;

	(void)state;
	m.sync.next = 0x0102030405060708ull;
	m.sync.due = 0x1112131415161718ull;
	n = encode_ctrl(b, &m);
	assert_int_equal(n, sizeof(want));
	assert_memory_equal(b, want, sizeof(want));
	assert_string_equal(dfly_wire_ctrl_name(DFLY_WIRE_CTRL_SYNC), "sync");
	for (size_t i = 0; i < 4; i++) {
		m.sync.next = v[i];
		m.sync.due = v[3 - i];
		n = encode_ctrl(b, &m);
		assert_int_equal(ctrl_decode_exact(b, (size_t)n, &LIM, &out), 0);
		assert_int_equal(out.type, DFLY_WIRE_CTRL_SYNC);
		assert_true(out.sync.next == v[i] && out.sync.due == v[3 - i]);
	}
	b[OFF + 3] = 8;
	ASSERT_ERR(ctrl_decode_exact(b, (size_t)n - 8, &LIM, &out), BAD_COUNT);
}

static void test_seq_before(void **state)
{
	(void)state;
	assert_true(dfly_wire_seq_before(1, 2));
	assert_false(dfly_wire_seq_before(2, 1));
	assert_false(dfly_wire_seq_before(5, 5));
	assert_true(dfly_wire_seq_before(UINT32_MAX, 0)); /* wrap */
	assert_false(dfly_wire_seq_before(0, UINT32_MAX));
	assert_true(dfly_wire_seq_before(0, 0x7fffffffu));
	assert_false(dfly_wire_seq_before(0, 0x80000001u)); /* more than 2^31 ahead: behind */
}

/* Random mutations of valid frames: only 0 or a named error, and accepted frames are canonical. */
static void test_mutation_sweep(void **state)
{
	uint8_t ref[NSAMPLES + 3][BUF_LEN], b[BUF_LEN], re[BUF_LEN];
	size_t ref_len[NSAMPLES + 3];
	struct dfly_wire_ctrl m[NSAMPLES];
	struct dfly_wire_data d;
	unsigned accepted = 0, nref = 0;

	(void)state;
	prng_state = prng_seed;
	d = data_max();
	ref_len[nref] = (size_t)encode_data(ref[nref], &d);
	nref++;
	d = data_min();
	ref_len[nref] = (size_t)encode_data(ref[nref], &d);
	nref++;
	for (int k = 0, nm = ctrl_samples(m); k < nm; k++) {
		ref_len[nref] = (size_t)encode_ctrl(ref[nref], &m[k]);
		nref++;
	}
	ref_len[nref] = add_vlan(ref[nref], ref[0], ref_len[0]);
	nref++;

	for (unsigned iter = 0; iter < 200000; iter++) {
		unsigned k = prng_next() % nref, flips = 1 + prng_next() % 3;
		size_t len = ref_len[k];
		struct dfly_wire_data dd;
		struct dfly_wire_ctrl mm;
		int rc;

		memcpy(b, ref[k], BUF_LEN);
		for (unsigned f = 0; f < flips; f++)
			b[prng_next() % len] ^= (uint8_t)(1u << (prng_next() % 8));
		if (prng_next() % 4 == 0)
			len = prng_next() % (len + 8);

		rc = data_decode_exact(b, len, &dd);
		CHECK(rc <= 0 && rc > -DFLY_WIRE_E_COUNT, "iter %u: data rc %d", iter, rc);
		if (rc == 0 && !(b[12] == 0x81 && b[13] == 0x00)) {
			struct dfly_wire_eth eth;

			memcpy(eth.dst, b, 6);
			memcpy(eth.src, b + 6, 6);
			int n = dfly_wire_data_encode(re, BUF_LEN, &eth, &dd, b + dd.payload_off);
			CHECK(n == (int)len && memcmp(re, b, len) == 0,
			      "iter %u: data not canonical", iter);
			accepted++;
		}
		rc = ctrl_decode_exact(b, len, &LIM, &mm);
		CHECK(rc <= 0 && rc > -DFLY_WIRE_E_COUNT, "iter %u: ctrl rc %d", iter, rc);
		if (rc == 0 && !(b[12] == 0x81 && b[13] == 0x00)) {
			struct dfly_wire_eth eth;

			memcpy(eth.dst, b, 6);
			memcpy(eth.src, b + 6, 6);
			int n = dfly_wire_ctrl_encode(re, BUF_LEN, &eth, &mm);
			CHECK(n > 0 && (size_t)n <= len && memcmp(re, b, (size_t)n) == 0,
			      "iter %u: ctrl not canonical", iter);
			accepted++;
		}
	}
	/* MAC flips, payload flips and in-range id changes are accepted: the sweep is not vacuous
	 */
	CHECK(accepted > 10000, "only %u mutated frames accepted", accepted);
}

/* BUNDLE: control frames of one sender in one Ethernet frame. Each record comes back out as the
 * exact frame that went in (the encoder's MACs are the BUNDLE's), and decodes as it did. */
static void test_bundle_roundtrip(void **state)
{
	struct dfly_wire_ctrl in[3] = {ctrl_pb(2), ctrl_ectn(), ctrl_link_state()}, out;
	uint8_t f[3][BUF_LEN], b[BUF_LEN], r[BUF_LEN], t[BUF_LEN];
	struct dfly_wire_bundle_iter it;
	int fl[3], len, n;

	(void)state;
	len = dfly_wire_bundle_start(b, sizeof(b), &ETH);
	assert_int_equal(len, DFLY_WIRE_ETH_LEN + DFLY_WIRE_BUNDLE_HDR_LEN);
	for (unsigned i = 0; i < 3; i++) {
		fl[i] = encode_ctrl(f[i], &in[i]);
		n = dfly_wire_bundle_add(b, sizeof(b), (size_t)len, f[i], (size_t)fl[i]);
		assert_int_equal(n, len + fl[i] - (int)DFLY_WIRE_ETH_LEN);
		len = n;
	}
	assert_int_equal(dfly_wire_classify(b, (size_t)len), DFLY_WIRE_CLASS_BUNDLE);
	assert_int_equal(b[12], 0x88);
	assert_int_equal(b[13], 0xb7);
	assert_int_equal(b[14], DFLY_WIRE_VERSION);
	assert_int_equal(b[15], 0);
	assert_int_equal(b[16] << 8 | b[17], 3);
	/* untagged and behind one 802.1Q tag */
	for (unsigned tagged = 0; tagged < 2; tagged++) {
		size_t l = tagged ? add_vlan(t, b, (size_t)len) : (size_t)len;

		assert_int_equal(dfly_wire_bundle_open(tagged ? t : b, l, &it), 3);
		for (unsigned i = 0; i < 3; i++) {
			n = dfly_wire_bundle_next(&it, r, sizeof(r));
			assert_int_equal(n, fl[i]);
			assert_memory_equal(r, f[i], (size_t)n);
			assert_int_equal(dfly_wire_ctrl_decode(r, (size_t)n, &LIM, &out), 0);
			assert_int_equal(out.type, in[i].type);
			assert_int_equal(out.src_router, in[i].src_router);
		}
		assert_int_equal(dfly_wire_bundle_next(&it, r, sizeof(r)), 0);
	}
	/* a record needs room for its frame */
	assert_int_equal(dfly_wire_bundle_open(b, (size_t)len, &it), 3);
	ASSERT_ERR(dfly_wire_bundle_next(&it, r, (size_t)fl[0] - 1), NOSPC);
}

/* A BUNDLE holds at most DFLY_WIRE_BUNDLE_MAX bytes after its EtherType: the frame that would
 * pass it is refused (the sender starts another), whatever room the buffer has. */
static void test_bundle_full(void **state)
{
	struct dfly_wire_ctrl m = ctrl_pb(2);
	uint8_t f[BUF_LEN], b[BUF_LEN];
	struct dfly_wire_bundle_iter it;
	int fl = encode_ctrl(f, &m), len, n, k = 0;
	int rec = fl - (int)DFLY_WIRE_ETH_LEN;

	(void)state;
	len = dfly_wire_bundle_start(b, sizeof(b), NULL);
	while ((n = dfly_wire_bundle_add(b, sizeof(b), (size_t)len, f, (size_t)fl)) > 0) {
		len = n;
		k++;
	}
	ASSERT_ERR(n, NOSPC);
	assert_int_equal(k, (int)(DFLY_WIRE_BUNDLE_MAX - DFLY_WIRE_BUNDLE_HDR_LEN) / rec);
	assert_true(len - (int)DFLY_WIRE_ETH_LEN + rec > (int)DFLY_WIRE_BUNDLE_MAX);
	assert_int_equal(dfly_wire_bundle_open(b, (size_t)len, &it), k);
	/* the buffer's own size binds too */
	len = dfly_wire_bundle_start(b, sizeof(b), NULL);
	ASSERT_ERR(
	    dfly_wire_bundle_add(b, (size_t)len + (size_t)rec - 1, (size_t)len, f, (size_t)fl),
	    NOSPC);
	ASSERT_ERR(
	    dfly_wire_bundle_start(b, DFLY_WIRE_ETH_LEN + DFLY_WIRE_BUNDLE_HDR_LEN - 1, NULL),
	    NOSPC);
}

/* Every framing error of a BUNDLE, each by its reason; records are not decoded here. */
static void test_bundle_errors(void **state)
{
	struct dfly_wire_ctrl m = ctrl_pb(2), a = ctrl_credit(8);
	uint8_t f[BUF_LEN], g[BUF_LEN], b[BUF_LEN], x[BUF_LEN];
	struct dfly_wire_bundle_iter it;
	int fl = encode_ctrl(f, &m), gl = encode_ctrl(g, &a), len;

	(void)state;
	len = dfly_wire_bundle_start(b, sizeof(b), &ETH);
	/* not a control frame, not a BUNDLE */
	ASSERT_ERR(dfly_wire_bundle_add(b, sizeof(b), (size_t)len, f, DFLY_WIRE_ETH_LEN + 7),
		   TRUNCATED);
	memcpy(x, f, (size_t)fl);
	x[13] = 0xb5;
	ASSERT_ERR(dfly_wire_bundle_add(b, sizeof(b), (size_t)len, x, (size_t)fl), BAD_ETHERTYPE);
	ASSERT_ERR(dfly_wire_bundle_add(x, sizeof(x), (size_t)fl, f, (size_t)fl), BAD_ETHERTYPE);
	ASSERT_ERR(dfly_wire_bundle_add(b, sizeof(b), (size_t)len, f, (size_t)fl + 1), BAD_COUNT);
	/* no record */
	ASSERT_ERR(dfly_wire_bundle_open(b, (size_t)len, &it), BAD_COUNT);
	len = dfly_wire_bundle_add(b, sizeof(b), (size_t)len, f, (size_t)fl);
	len = dfly_wire_bundle_add(b, sizeof(b), (size_t)len, g, (size_t)gl);
	assert_int_equal(dfly_wire_bundle_open(b, (size_t)len, &it), 2);
	assert_true(len > 60); /* past the Ethernet minimum: no tail is padding */
	/* header fields */
	ASSERT_ERR(dfly_wire_bundle_open(f, (size_t)fl, &it), BAD_ETHERTYPE);
	ASSERT_ERR(dfly_wire_bundle_open(b, 17, &it), TRUNCATED);
	memcpy(x, b, (size_t)len);
	x[14] = 1;
	ASSERT_ERR(dfly_wire_bundle_open(x, (size_t)len, &it), BAD_VERSION);
	memcpy(x, b, (size_t)len);
	x[15] = 1;
	ASSERT_ERR(dfly_wire_bundle_open(x, (size_t)len, &it), RESERVED);
	/* n above the records there are, or below them (a long tail) */
	memcpy(x, b, (size_t)len);
	x[17] = 3;
	ASSERT_ERR(dfly_wire_bundle_open(x, (size_t)len, &it), BAD_COUNT);
	x[17] = 1;
	ASSERT_ERR(dfly_wire_bundle_open(x, (size_t)len, &it), BAD_COUNT);
	/* a record's version; a record cut short */
	memcpy(x, b, (size_t)len);
	x[18 + fl - DFLY_WIRE_ETH_LEN] = 9;
	ASSERT_ERR(dfly_wire_bundle_open(x, (size_t)len, &it), BAD_VERSION);
	ASSERT_ERR(dfly_wire_bundle_open(b, (size_t)len - 1, &it), TRUNCATED);
	ASSERT_ERR(dfly_wire_bundle_open(b, (size_t)(18 + fl - DFLY_WIRE_ETH_LEN + 3), &it),
		   TRUNCATED);
	/* Ethernet padding after a short BUNDLE is accepted, as after a control frame */
	len = dfly_wire_bundle_start(b, sizeof(b), &ETH);
	len = dfly_wire_bundle_add(b, sizeof(b), (size_t)len, f, (size_t)fl);
	assert_true(len < 60);
	memset(b + len, 0, (size_t)(60 - len));
	assert_int_equal(dfly_wire_bundle_open(b, 60, &it), 1);
	assert_int_equal(dfly_wire_bundle_next(&it, x, sizeof(x)), fl);
	assert_memory_equal(x, f, (size_t)fl);
	ASSERT_ERR(dfly_wire_bundle_open(b, 61, &it), BAD_COUNT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    /* negative */
	    cmocka_unit_test(test_err_names),
	    cmocka_unit_test(test_classify_other),
	    cmocka_unit_test(test_data_truncated_every_length),
	    cmocka_unit_test(test_data_bad_ethertype),
	    cmocka_unit_test(test_data_bad_version),
	    cmocka_unit_test(test_data_bad_type),
	    cmocka_unit_test(test_data_bad_node),
	    cmocka_unit_test(test_data_bad_router),
	    cmocka_unit_test(test_data_bad_vc),
	    cmocka_unit_test(test_data_bad_size),
	    cmocka_unit_test(test_data_bad_hops),
	    cmocka_unit_test(test_data_reserved),
	    cmocka_unit_test(test_data_encode_errors),
	    cmocka_unit_test(test_ctrl_truncated_every_length),
	    cmocka_unit_test(test_ctrl_bad_ethertype),
	    cmocka_unit_test(test_ctrl_bad_version_and_type),
	    cmocka_unit_test(test_ctrl_bad_router),
	    cmocka_unit_test(test_ctrl_bad_body_len),
	    cmocka_unit_test(test_ctrl_tail),
	    cmocka_unit_test(test_link_state_golden_roundtrip),
	    cmocka_unit_test(test_link_state_errors),
	    cmocka_unit_test(test_credit_errors),
	    cmocka_unit_test(test_pb_errors),
	    cmocka_unit_test(test_ectn_errors),
	    cmocka_unit_test(test_ectn_list_errors),
	    cmocka_unit_test(test_hello_bad_port),
	    cmocka_unit_test(test_ack_errors),
	    cmocka_unit_test(test_ctrl_encode_errors),
	    cmocka_unit_test(test_hello_check_rejects),
	    /* positive */
	    cmocka_unit_test(test_classify),
	    cmocka_unit_test(test_data_golden),
	    cmocka_unit_test(test_data_roundtrip),
	    cmocka_unit_test(test_data_rewrite_in_place),
	    cmocka_unit_test(test_credit_golden_roundtrip),
	    cmocka_unit_test(test_pb_golden_roundtrip),
	    cmocka_unit_test(test_ectn_golden_roundtrip),
	    cmocka_unit_test(test_ectn_list_golden_roundtrip),
	    cmocka_unit_test(test_ectn_group_index),
	    cmocka_unit_test(test_hello_golden_roundtrip),
	    cmocka_unit_test(test_hello_every_link),
	    cmocka_unit_test(test_ack_golden_roundtrip),
	    cmocka_unit_test(test_sync_golden_roundtrip),
	    cmocka_unit_test(test_seq_before),
	    cmocka_unit_test(test_mutation_sweep),
	    cmocka_unit_test(test_bundle_roundtrip),
	    cmocka_unit_test(test_bundle_full),
	    cmocka_unit_test(test_bundle_errors),
	};
	const char *seed = getenv("DFLY_TEST_SEED");

	if (seed != NULL)
		prng_seed = strtoull(seed, NULL, 0);
	printf("test_wire: seed %#" PRIx64 " (set DFLY_TEST_SEED to override)\n", prng_seed);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
