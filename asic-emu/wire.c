/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Wire format v2 codec (include/dfly/wire.h): encoders and validating decoders for the data and
 * control frames of a fabric link. Every access goes through the byte helpers below, after a
 * length check, so no input can make a decoder read outside the buffer, dereference an unaligned
 * pointer or overflow a signed integer. The layout table lives in wire.h; the offsets here are
 * the same numbers, named.
 */
#include <string.h>

#include "dfly/wire.h"

/* Data header offsets (from the first byte after the EtherType). */
#define D_VERSION 0
#define D_TYPE    1
#define D_FLAGS   2
#define D_GHOPS   3
#define D_LHOPS   4
#define D_VC      5
#define D_SIZE    6
#define D_SRC     8
#define D_DST     12
#define D_VIA     16
#define D_SEQ     20
#define D_GEN     24
#define D_PB      32
#define D_TAG     36
#define D_PLEN    40
#define D_PLHOPS  42
#define D_RSVD8   43
#define D_INJDLY  44

/* Control header offsets. */
#define C_VERSION  0
#define C_TYPE     1
#define C_BODY_LEN 2
#define C_SRC      4

/* Body layouts (offsets from the start of the body). */
#define CREDIT_FIXED 12u /* n, reserved u8, reserved u16, due u64 */
#define CREDIT_ENTRY 4u  /* vc, flags, phits */
#define PB_FIXED     4u  /* h, vg, reserved u16 */
#define ECTN_FIXED   4u  /* epoch, format, n */
#define ECTN_LIST    6u  /* epoch, format, n, m: the fixed part of a list body */
#define ECTN_ENTRY   2u  /* index << 4 | value */
#define HELLO_LEN    16u
#define ACK_LEN      16u
#define SYNC_LEN     16u
#define LS_FIXED     4u /* LINK_STATE body before the entries */
#define LS_ENTRY     4u

#define HOST_MIN_PAYLOAD 14u /* an encapsulated host frame has at least its Ethernet header */

#define DFLY__NAME(E, n, d) #n,
#define DFLY__DESC(E, n, d) d,
static const char *const err_names[DFLY_WIRE_E_COUNT] = {"ok", DFLY_FOREACH_WIRE_ERR(DFLY__NAME)};
static const char *const err_descs[DFLY_WIRE_E_COUNT] = {"success",
							 DFLY_FOREACH_WIRE_ERR(DFLY__DESC)};
static const char *const pkt_names[DFLY_WIRE_PKT_COUNT] = {"none",
							   DFLY_FOREACH_WIRE_PKT(DFLY__NAME)};
static const char *const ctrl_names[DFLY_WIRE_CTRL_COUNT] = {"none",
							     DFLY_FOREACH_WIRE_CTRL(DFLY__NAME)};
#undef DFLY__NAME
#undef DFLY__DESC

_Static_assert(DFLY_WIRE_ETH_LEN + DFLY_WIRE_CTRL_HDR_LEN + ECTN_LIST +
		       ECTN_ENTRY * DFLY_WIRE_ECTN_LIST_MAX <=
		   DFLY_CPU_FRAME_MAX,
	       "the largest ECtN list frame must fit a CPU-port slot");
_Static_assert(DFLY_WIRE_ECTN_MAX < 1u << 12, "an ECtN list index is 12 bits");

/* ---------------------------------------------------------------------------------------------
 * Byte helpers: big-endian, byte by byte, no alignment assumed.
 */

static inline uint16_t get16(const uint8_t *p)
{
	return (uint16_t)((unsigned)p[0] << 8 | p[1]);
}

static inline uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) << 32 | get32(p + 4);
}

static inline void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)(v >> 32));
	put32(p + 4, (uint32_t)v);
}

/* ---------------------------------------------------------------------------------------------
 * Names, limits, classification
 */

static int err_index(int err)
{
	if (err < 0) {
		if (err < -(int)DFLY_WIRE_E_COUNT)
			return -1;
		err = -err;
	}
	return err < (int)DFLY_WIRE_E_COUNT ? err : -1;
}

const char *dfly_wire_err_name(int err)
{
	int i = err_index(err);

	return i < 0 ? "unknown" : err_names[i];
}

const char *dfly_wire_err_desc(int err)
{
	int i = err_index(err);

	return i < 0 ? "unknown error" : err_descs[i];
}

const char *dfly_wire_pkt_name(unsigned type)
{
	return type > 0 && type < DFLY_WIRE_PKT_COUNT ? pkt_names[type] : "unknown";
}

const char *dfly_wire_ctrl_name(unsigned type)
{
	return type > 0 && type < DFLY_WIRE_CTRL_COUNT ? ctrl_names[type] : "unknown";
}

void dfly_wire_limits_init(struct dfly_wire_limits *lim, const struct dfly_topo *topo, uint32_t vcs,
			   uint32_t max_phits)
{
	lim->nodes = topo->nodes;
	lim->routers = topo->routers;
	lim->p = topo->p;
	lim->a = topo->a;
	lim->h = topo->h;
	lim->t = topo->t;
	lim->vcs = vcs;
	lim->max_phits = max_phits;
}

/*
 * Parse the Ethernet header. @return the offset of the first byte after the EtherType (14, or 18
 * behind one 802.1Q tag) with *ethertype set, or -DFLY_WIRE_E_TRUNCATED.
 */
static int eth_parse(const uint8_t *b, size_t len, uint16_t *ethertype)
{
	uint16_t et;

	if (len < DFLY_WIRE_ETH_LEN)
		return -DFLY_WIRE_E_TRUNCATED;
	et = get16(b + 12);
	if (et != DFLY_WIRE_ETHERTYPE_VLAN) {
		*ethertype = et;
		return DFLY_WIRE_ETH_LEN;
	}
	if (len < DFLY_WIRE_ETH_LEN + DFLY_WIRE_VLAN_LEN)
		return -DFLY_WIRE_E_TRUNCATED;
	*ethertype = get16(b + 16);
	return DFLY_WIRE_ETH_LEN + DFLY_WIRE_VLAN_LEN;
}

enum dfly_wire_class dfly_wire_classify(const void *buf, size_t len)
{
	uint16_t et;

	if (eth_parse(buf, len, &et) < 0)
		return DFLY_WIRE_CLASS_OTHER;
	if (et == DFLY_WIRE_ETHERTYPE_DATA)
		return DFLY_WIRE_CLASS_DATA;
	if (et == DFLY_WIRE_ETHERTYPE_CTRL)
		return DFLY_WIRE_CLASS_CTRL;
	if (et == DFLY_WIRE_ETHERTYPE_BUNDLE)
		return DFLY_WIRE_CLASS_BUNDLE;
	return DFLY_WIRE_CLASS_OTHER;
}

static void eth_write(uint8_t *b, const struct dfly_wire_eth *eth, uint16_t ethertype)
{
	if (eth != NULL) {
		memcpy(b, eth->dst, sizeof(eth->dst));
		memcpy(b + 6, eth->src, sizeof(eth->src));
	} else {
		memset(b, 0, 12);
	}
	put16(b + 12, ethertype);
}

/*
 * Bytes after the end of a message (@p end ≤ @p len): accepted only as Ethernet padding, i.e.
 * while the frame is no longer than the 46-byte minimum after the EtherType at @p off.
 */
static bool tail_ok(size_t off, size_t end, size_t len)
{
	return len == end || len <= off + DFLY_WIRE_ETH_MIN_BODY;
}

/* ---------------------------------------------------------------------------------------------
 * Data frames
 */

/* Checks that need no topology: shared by the encoder and the decoder. */
static int data_check_static(const struct dfly_wire_data *d)
{
	if (d->type == DFLY_WIRE_PKT_NONE || d->type >= DFLY_WIRE_PKT_COUNT)
		return -DFLY_WIRE_E_BAD_TYPE;
	if ((d->flags & ~DFLY_WIRE_F_ALL) != 0 || (!(d->flags & DFLY_WIRE_F_PB) && d->pb_vec != 0))
		return -DFLY_WIRE_E_RESERVED;
	if (d->global_hops > DFLY_WIRE_MAX_GLOBAL_HOPS || d->local_hops > DFLY_WIRE_MAX_LOCAL_HOPS)
		return -DFLY_WIRE_E_BAD_HOPS;
	if (d->size_phits == 0)
		return -DFLY_WIRE_E_BAD_SIZE;
	switch (d->type) {
	case DFLY_WIRE_PKT_HOST:
		if (d->payload_len < HOST_MIN_PAYLOAD)
			return -DFLY_WIRE_E_BAD_SIZE;
		break;
	case DFLY_WIRE_PKT_INFO:
		if (d->size_phits != 1 || d->payload_len != 0)
			return -DFLY_WIRE_E_BAD_SIZE;
		break;
	case DFLY_WIRE_PKT_RES_REQ:
	case DFLY_WIRE_PKT_RES_REP:
		if (d->size_phits != 1 || d->payload_len != DFLY_WIRE_RES_LEN)
			return -DFLY_WIRE_E_BAD_SIZE;
		break;
	default:
		break;
	}
	return 0;
}

int dfly_wire_data_encode(void *buf, size_t size, const struct dfly_wire_eth *eth,
			  const struct dfly_wire_data *d, const void *payload)
{
	size_t total = DFLY_WIRE_ETH_LEN + DFLY_WIRE_DATA_HDR_LEN + (size_t)d->payload_len;
	uint8_t *b = buf, *h = b + DFLY_WIRE_ETH_LEN;
	int rc;

	rc = data_check_static(d);
	if (rc < 0)
		return rc;
	if (size < total)
		return -DFLY_WIRE_E_NOSPC;

	eth_write(b, eth, DFLY_WIRE_ETHERTYPE_DATA);
	h[D_VERSION] = DFLY_WIRE_VERSION;
	h[D_TYPE] = d->type;
	h[D_FLAGS] = d->flags;
	h[D_GHOPS] = d->global_hops;
	h[D_LHOPS] = d->local_hops;
	h[D_VC] = d->vc;
	put16(h + D_SIZE, d->size_phits);
	put32(h + D_SRC, d->src_node);
	put32(h + D_DST, d->dst_node);
	put32(h + D_VIA, d->via_router);
	put32(h + D_SEQ, d->seq);
	put64(h + D_GEN, d->gen_cycle);
	put32(h + D_PB, d->pb_vec);
	put32(h + D_TAG, d->tag);
	put16(h + D_PLEN, d->payload_len);
	h[D_PLHOPS] = d->path_lhops;
	h[D_RSVD8] = 0;
	put32(h + D_INJDLY, d->inj_delay);
	if (payload != NULL && d->payload_len > 0)
		memmove(h + DFLY_WIRE_DATA_HDR_LEN, payload, d->payload_len);
	return (int)total;
}

int dfly_wire_data_decode(const void *buf, size_t len, const struct dfly_wire_limits *lim,
			  struct dfly_wire_data *d)
{
	const uint8_t *b = buf, *h;
	uint16_t et;
	size_t end;
	int off, rc;

	off = eth_parse(b, len, &et);
	if (off < 0)
		return off;
	if (et != DFLY_WIRE_ETHERTYPE_DATA)
		return -DFLY_WIRE_E_BAD_ETHERTYPE;
	if (len < (size_t)off + DFLY_WIRE_DATA_HDR_LEN)
		return -DFLY_WIRE_E_TRUNCATED;
	h = b + off;
	if (h[D_VERSION] != DFLY_WIRE_VERSION)
		return -DFLY_WIRE_E_BAD_VERSION;

	d->type = h[D_TYPE];
	d->flags = h[D_FLAGS];
	d->global_hops = h[D_GHOPS];
	d->local_hops = h[D_LHOPS];
	d->vc = h[D_VC];
	d->size_phits = get16(h + D_SIZE);
	d->src_node = get32(h + D_SRC);
	d->dst_node = get32(h + D_DST);
	d->via_router = get32(h + D_VIA);
	d->seq = get32(h + D_SEQ);
	d->gen_cycle = get64(h + D_GEN);
	d->pb_vec = get32(h + D_PB);
	d->tag = get32(h + D_TAG);
	d->payload_len = get16(h + D_PLEN);
	d->payload_off = (uint16_t)((unsigned)off + DFLY_WIRE_DATA_HDR_LEN);
	d->path_lhops = h[D_PLHOPS];
	d->inj_delay = get32(h + D_INJDLY);

	/* the type first, so an unknown type is reported as such and not by its size rule */
	if (d->type == DFLY_WIRE_PKT_NONE || d->type >= DFLY_WIRE_PKT_COUNT)
		return -DFLY_WIRE_E_BAD_TYPE;
	if (h[D_RSVD8] != 0)
		return -DFLY_WIRE_E_RESERVED;
	end = (size_t)d->payload_off + d->payload_len;
	if (len < end)
		return -DFLY_WIRE_E_TRUNCATED;
	rc = data_check_static(d);
	if (rc < 0)
		return rc;
	if (len != end)
		return -DFLY_WIRE_E_BAD_SIZE;
	if (d->size_phits > lim->max_phits)
		return -DFLY_WIRE_E_BAD_SIZE;
	if (d->vc >= lim->vcs)
		return -DFLY_WIRE_E_BAD_VC;
	if (d->src_node >= lim->nodes || d->dst_node >= lim->nodes)
		return -DFLY_WIRE_E_BAD_NODE;
	if (d->via_router != DFLY_WIRE_NO_ROUTER && d->via_router >= lim->routers)
		return -DFLY_WIRE_E_BAD_ROUTER;
	return 0;
}

void dfly_wire_res_put(void *buf, const struct dfly_wire_res *r)
{
	uint8_t *b = buf;

	put32(b, r->cookie);
	put32(b + 4, r->rbar);
	put16(b + 8, r->len);
	b[10] = r->gc;
	b[11] = r->grant;
}

int dfly_wire_res_get(const void *buf, uint8_t type, const struct dfly_wire_limits *lim,
		      struct dfly_wire_res *r)
{
	const uint8_t *b = buf;

	if (type != DFLY_WIRE_PKT_RES_REQ && type != DFLY_WIRE_PKT_RES_REP)
		return -DFLY_WIRE_E_BAD_TYPE;
	r->cookie = get32(b);
	r->rbar = get32(b + 4);
	r->len = get16(b + 8);
	r->gc = b[10];
	r->grant = b[11];
	if (r->grant > (type == DFLY_WIRE_PKT_RES_REP ? 1u : 0u))
		return -DFLY_WIRE_E_RESERVED;
	if (r->gc >= lim->h)
		return -DFLY_WIRE_E_BAD_PORT;
	if (r->len == 0 || r->len > lim->max_phits)
		return -DFLY_WIRE_E_BAD_SIZE;
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Control frames
 */

static size_t pb_bytes(unsigned h, unsigned vg)
{
	return (h * vg + 7) / 8;
}

static size_t ectn_bytes(unsigned n)
{
	return (n + 1) / 2;
}

static bool ectn_is_list(unsigned format)
{
	return format == DFLY_WIRE_ECTN_SPARSE || format == DFLY_WIRE_ECTN_DELTA;
}

/* Entries of a list body: listed counters below n; *rc set if one is at or above n. */
static unsigned ectn_entries(const struct dfly_wire_ectn *ec, int *rc)
{
	unsigned m = 0;

	for (unsigned w = 0; w < sizeof(ec->listed) / sizeof(ec->listed[0]); w++) {
		uint64_t bits = ec->listed[w];

		while (bits) {
			unsigned k = w * 64 + (unsigned)__builtin_ctzll(bits);

			bits &= bits - 1;
			if (k >= ec->n) {
				*rc = -DFLY_WIRE_E_BAD_INDEX;
				return 0;
			}
			m++;
		}
	}
	return m;
}

/* Body length of @p m, after the encoder's checks; 0 with *rc set on error. */
static size_t ctrl_body_len(const struct dfly_wire_ctrl *m, int *rc)
{
	*rc = 0;
	switch (m->type) {
	case DFLY_WIRE_CTRL_CREDIT:
		if (m->credit.n == 0 || m->credit.n > DFLY_WIRE_CREDIT_MAX)
			break;
		for (unsigned i = 0; i < m->credit.n; i++) {
			if (m->credit.e[i].phits == 0 &&
			    !(m->credit.e[i].flags & DFLY_WIRE_CREDIT_F_ABS)) {
				*rc = -DFLY_WIRE_E_BAD_SIZE;
				return 0;
			}
			if (m->credit.e[i].flags & ~DFLY_WIRE_CREDIT_F_ALL) {
				*rc = -DFLY_WIRE_E_RESERVED;
				return 0;
			}
		}
		return CREDIT_FIXED + CREDIT_ENTRY * (size_t)m->credit.n;
	case DFLY_WIRE_CTRL_PB_STATE:
		if (m->pb.h == 0 || m->pb.h > DFLY_MAX_H)
			break;
		if (m->pb.vg == 0 || m->pb.vg > DFLY_MAX_VCS) {
			*rc = -DFLY_WIRE_E_BAD_VC;
			return 0;
		}
		for (unsigned q = 0; q < m->pb.h; q++) {
			if (m->pb.sat[q] >> m->pb.vg) {
				*rc = -DFLY_WIRE_E_RESERVED;
				return 0;
			}
		}
		return PB_FIXED + pb_bytes(m->pb.h, m->pb.vg);
	case DFLY_WIRE_CTRL_ECTN_PARTIAL: {
		unsigned ent;

		if (m->ectn.n == 0 || m->ectn.n > DFLY_WIRE_ECTN_MAX)
			break;
		if (m->ectn.format == DFLY_WIRE_ECTN_FULL)
			return ECTN_FIXED + ectn_bytes(m->ectn.n);
		if (!ectn_is_list(m->ectn.format)) {
			*rc = -DFLY_WIRE_E_BAD_FORMAT;
			return 0;
		}
		ent = ectn_entries(&m->ectn, rc);
		if (*rc < 0)
			return 0;
		if (ent > DFLY_WIRE_ECTN_LIST_MAX)
			break;
		return ECTN_LIST + ECTN_ENTRY * (size_t)ent;
	}
	case DFLY_WIRE_CTRL_HELLO:
		return HELLO_LEN;
	case DFLY_WIRE_CTRL_ACK:
		if (m->ack.flags & ~DFLY_WIRE_ACK_F_NAK) {
			*rc = -DFLY_WIRE_E_RESERVED;
			return 0;
		}
		return ACK_LEN;
	case DFLY_WIRE_CTRL_SYNC:
		return SYNC_LEN;
	case DFLY_WIRE_CTRL_LINK_STATE:
		if (m->ls.h == 0 || m->ls.h > DFLY_MAX_H || m->ls.n > DFLY_WIRE_FAIL_MAX)
			break;
		if (m->ls.h < 16 && (m->ls.down >> m->ls.h) != 0) {
			*rc = -DFLY_WIRE_E_RESERVED;
			return 0;
		}
		for (unsigned i = 0; i < m->ls.n; i++) {
			const struct dfly_wire_fail_pair *e = &m->ls.e[i];

			if (e->a >= e->b || e->b >= 2048 || e->ttl == 0 ||
			    e->ttl > DFLY_WIRE_FAIL_TTL_MAX) {
				*rc = -DFLY_WIRE_E_BAD_ROUTER;
				return 0;
			}
		}
		return LS_FIXED + LS_ENTRY * (size_t)m->ls.n;
	default:
		*rc = -DFLY_WIRE_E_BAD_TYPE;
		return 0;
	}
	*rc = -DFLY_WIRE_E_BAD_COUNT;
	return 0;
}

static uint8_t ectn_sat(uint8_t v)
{
	return v > DFLY_WIRE_ECTN_SAT ? DFLY_WIRE_ECTN_SAT : v;
}

int dfly_wire_ctrl_encode(void *buf, size_t size, const struct dfly_wire_eth *eth,
			  const struct dfly_wire_ctrl *m)
{
	uint8_t *b = buf, *c = b + DFLY_WIRE_ETH_LEN, *body = c + DFLY_WIRE_CTRL_HDR_LEN;
	size_t body_len, total;
	int rc;

	body_len = ctrl_body_len(m, &rc);
	if (rc < 0)
		return rc;
	total = DFLY_WIRE_ETH_LEN + DFLY_WIRE_CTRL_HDR_LEN + body_len;
	if (size < total)
		return -DFLY_WIRE_E_NOSPC;

	eth_write(b, eth, DFLY_WIRE_ETHERTYPE_CTRL);
	c[C_VERSION] = DFLY_WIRE_VERSION;
	c[C_TYPE] = m->type;
	put16(c + C_BODY_LEN, (uint16_t)body_len);
	put32(c + C_SRC, m->src_router);
	memset(body, 0, body_len);

	switch (m->type) {
	case DFLY_WIRE_CTRL_CREDIT:
		body[0] = m->credit.n;
		put64(body + 4, m->credit.due);
		for (unsigned i = 0; i < m->credit.n; i++) {
			uint8_t *e = body + CREDIT_FIXED + CREDIT_ENTRY * i;

			e[0] = m->credit.e[i].vc;
			e[1] = m->credit.e[i].flags;
			put16(e + 2, m->credit.e[i].phits);
		}
		break;
	case DFLY_WIRE_CTRL_PB_STATE:
		body[0] = m->pb.h;
		body[1] = m->pb.vg;
		for (unsigned q = 0; q < m->pb.h; q++) {
			for (unsigned v = 0; v < m->pb.vg; v++) {
				unsigned i = q * m->pb.vg + v;

				if (m->pb.sat[q] >> v & 1)
					body[PB_FIXED + i / 8] |= (uint8_t)(1u << (i % 8));
			}
		}
		break;
	case DFLY_WIRE_CTRL_ECTN_PARTIAL:
		body[0] = m->ectn.epoch;
		body[1] = m->ectn.format;
		put16(body + 2, m->ectn.n);
		if (m->ectn.format == DFLY_WIRE_ECTN_FULL) {
			for (unsigned k = 0; k < m->ectn.n; k++)
				body[ECTN_FIXED + k / 2] |=
				    (uint8_t)(ectn_sat(m->ectn.ctr[k]) << (k % 2 * 4));
		} else {
			unsigned i = 0;

			put16(body + ECTN_FIXED, (uint16_t)((body_len - ECTN_LIST) / ECTN_ENTRY));
			for (unsigned k = 0; k < m->ectn.n; k++)
				if (dfly_wire_ectn_has(&m->ectn, k))
					put16(body + ECTN_LIST + ECTN_ENTRY * i++,
					      (uint16_t)(k << 4 | ectn_sat(m->ectn.ctr[k])));
		}
		break;
	case DFLY_WIRE_CTRL_HELLO:
		put16(body + 0, m->hello.port);
		body[2] = m->hello.arr;
		body[3] = (uint8_t)m->hello.sigma;
		put16(body + 4, m->hello.p);
		put16(body + 6, m->hello.a);
		put16(body + 8, m->hello.h);
		put16(body + 10, m->hello.t);
		put32(body + 12, m->hello.cfg_hash);
		break;
	case DFLY_WIRE_CTRL_ACK:
		put32(body + 0, m->ack.ack);
		body[4] = m->ack.flags;
		put64(body + 8, m->ack.taken);
		break;
	case DFLY_WIRE_CTRL_SYNC:
		put64(body + 0, m->sync.next);
		put64(body + 8, m->sync.due);
		break;
	case DFLY_WIRE_CTRL_LINK_STATE:
		body[0] = m->ls.h;
		body[1] = m->ls.n;
		put16(body + 2, m->ls.down);
		for (unsigned i = 0; i < m->ls.n; i++)
			put32(body + LS_FIXED + LS_ENTRY * i, (uint32_t)m->ls.e[i].a |
								  (uint32_t)m->ls.e[i].b << 11 |
								  (uint32_t)m->ls.e[i].ttl << 22);
		break;
	default:
		break; /* rejected by ctrl_body_len() */
	}
	return (int)total;
}

static int credit_decode(const uint8_t *body, size_t body_len, const struct dfly_wire_limits *lim,
			 struct dfly_wire_credits *cr)
{
	if (body_len < CREDIT_FIXED)
		return -DFLY_WIRE_E_BAD_COUNT;
	cr->n = body[0];
	if (cr->n == 0 || cr->n > DFLY_WIRE_CREDIT_MAX ||
	    body_len != CREDIT_FIXED + CREDIT_ENTRY * (size_t)cr->n)
		return -DFLY_WIRE_E_BAD_COUNT;
	if (body[1] != 0 || get16(body + 2) != 0)
		return -DFLY_WIRE_E_RESERVED;
	cr->due = get64(body + 4);
	for (unsigned i = 0; i < cr->n; i++) {
		const uint8_t *e = body + CREDIT_FIXED + CREDIT_ENTRY * i;

		cr->e[i].vc = e[0];
		cr->e[i].flags = e[1];
		cr->e[i].phits = get16(e + 2);
		if (cr->e[i].flags & ~DFLY_WIRE_CREDIT_F_ALL)
			return -DFLY_WIRE_E_RESERVED;
		if (cr->e[i].vc >= lim->vcs)
			return -DFLY_WIRE_E_BAD_VC;
		if (cr->e[i].phits == 0 && !(cr->e[i].flags & DFLY_WIRE_CREDIT_F_ABS))
			return -DFLY_WIRE_E_BAD_SIZE;
	}
	return 0;
}

static int pb_decode(const uint8_t *body, size_t body_len, const struct dfly_wire_limits *lim,
		     struct dfly_wire_pb_state *pb)
{
	size_t nbytes;

	if (body_len < PB_FIXED)
		return -DFLY_WIRE_E_BAD_COUNT;
	pb->h = body[0];
	pb->vg = body[1];
	if (pb->h == 0 || pb->h > DFLY_MAX_H || pb->h != lim->h)
		return -DFLY_WIRE_E_BAD_COUNT;
	if (pb->vg == 0 || pb->vg > DFLY_MAX_VCS || pb->vg > lim->vcs)
		return -DFLY_WIRE_E_BAD_VC;
	nbytes = pb_bytes(pb->h, pb->vg);
	if (body_len != PB_FIXED + nbytes)
		return -DFLY_WIRE_E_BAD_COUNT;
	if (get16(body + 2) != 0)
		return -DFLY_WIRE_E_RESERVED;
	/* padding bits after bit h·vg − 1 */
	if ((pb->h * pb->vg) % 8 != 0 && body[PB_FIXED + nbytes - 1] >> (pb->h * pb->vg % 8) != 0)
		return -DFLY_WIRE_E_RESERVED;
	memset(pb->sat, 0, sizeof(pb->sat));
	for (unsigned q = 0; q < pb->h; q++) {
		for (unsigned v = 0; v < pb->vg; v++) {
			unsigned i = q * pb->vg + v;

			if (body[PB_FIXED + i / 8] >> (i % 8) & 1)
				pb->sat[q] |= (uint8_t)(1u << v);
		}
	}
	return 0;
}

/* List body (SPARSE, DELTA) after the fixed part: m entries, indices < n, strictly increasing. */
static int ectn_list_decode(const uint8_t *body, size_t body_len, struct dfly_wire_ectn *ec)
{
	unsigned m;
	int prev = -1;

	if (body_len < ECTN_LIST)
		return -DFLY_WIRE_E_BAD_COUNT;
	m = get16(body + ECTN_FIXED);
	if (m > ec->n || m > DFLY_WIRE_ECTN_LIST_MAX || body_len != ECTN_LIST + ECTN_ENTRY * m)
		return -DFLY_WIRE_E_BAD_COUNT;
	memset(ec->ctr, 0, ec->n);
	for (unsigned i = 0; i < m; i++) {
		uint16_t e = get16(body + ECTN_LIST + ECTN_ENTRY * i);
		unsigned k = e >> 4;

		if (k >= ec->n)
			return -DFLY_WIRE_E_BAD_INDEX;
		if ((int)k <= prev)
			return -DFLY_WIRE_E_UNSORTED;
		prev = (int)k;
		dfly_wire_ectn_add(ec, k, (uint8_t)(e & 0xf));
	}
	return 0;
}

static int ectn_decode(const uint8_t *body, size_t body_len, const struct dfly_wire_limits *lim,
		       struct dfly_wire_ectn *ec)
{
	uint64_t want;

	if (body_len < ECTN_FIXED)
		return -DFLY_WIRE_E_BAD_COUNT;
	ec->epoch = body[0];
	ec->format = body[1];
	ec->n = get16(body + 2);
	memset(ec->listed, 0, sizeof(ec->listed));
	/* the format first: it says how long the body should be */
	if (ec->format >= DFLY_WIRE_ECTN_FMT_COUNT)
		return -DFLY_WIRE_E_BAD_FORMAT;
	want = lim->t != 0 ? (uint64_t)lim->a * lim->h / lim->t : 0;
	if (ec->n == 0 || ec->n > DFLY_WIRE_ECTN_MAX || ec->n != want)
		return -DFLY_WIRE_E_BAD_COUNT;
	if (ectn_is_list(ec->format))
		return ectn_list_decode(body, body_len, ec);
	if (body_len != ECTN_FIXED + ectn_bytes(ec->n))
		return -DFLY_WIRE_E_BAD_COUNT;
	if (ec->n % 2 != 0 && body[ECTN_FIXED + ec->n / 2] >> 4 != 0)
		return -DFLY_WIRE_E_RESERVED;
	for (unsigned k = 0; k < ec->n; k++)
		ec->ctr[k] = body[ECTN_FIXED + k / 2] >> (k % 2 * 4) & 0xf;
	return 0;
}

static int hello_decode(const uint8_t *body, size_t body_len, const struct dfly_wire_limits *lim,
			struct dfly_wire_hello *he)
{
	uint64_t radix = (uint64_t)lim->p + lim->h + (lim->a != 0 ? lim->a - 1 : 0);

	if (body_len != HELLO_LEN)
		return -DFLY_WIRE_E_BAD_COUNT;
	he->port = get16(body + 0);
	he->arr = body[2];
	he->sigma = body[3] < 128 ? (int8_t)body[3] : (int8_t)((int)body[3] - 256);
	he->p = get16(body + 4);
	he->a = get16(body + 6);
	he->h = get16(body + 8);
	he->t = get16(body + 10);
	he->cfg_hash = get32(body + 12);
	if (he->port < lim->p || he->port >= radix)
		return -DFLY_WIRE_E_BAD_PORT;
	return 0;
}

static int ls_decode(const uint8_t *body, size_t body_len, const struct dfly_wire_limits *lim,
		     struct dfly_wire_link_state *ls)
{
	uint32_t groups = lim->a != 0 ? lim->routers / lim->a : 0;

	if (body_len < LS_FIXED)
		return -DFLY_WIRE_E_BAD_COUNT;
	ls->h = body[0];
	ls->n = body[1];
	ls->down = get16(body + 2);
	if (ls->h == 0 || ls->h > DFLY_MAX_H || ls->h != lim->h || ls->n > DFLY_WIRE_FAIL_MAX ||
	    body_len != LS_FIXED + LS_ENTRY * (size_t)ls->n)
		return -DFLY_WIRE_E_BAD_COUNT;
	if (ls->h < 16 && (ls->down >> ls->h) != 0)
		return -DFLY_WIRE_E_RESERVED;
	for (unsigned i = 0; i < ls->n; i++) {
		uint32_t v = get32(body + LS_FIXED + LS_ENTRY * i);
		struct dfly_wire_fail_pair *e = &ls->e[i];

		if (v >> 26 != 0)
			return -DFLY_WIRE_E_RESERVED;
		e->a = (uint16_t)(v & 0x7ff);
		e->b = (uint16_t)(v >> 11 & 0x7ff);
		e->ttl = (uint8_t)(v >> 22 & 0xf);
		if (e->a >= e->b || e->b >= groups || e->ttl == 0)
			return -DFLY_WIRE_E_BAD_ROUTER;
	}
	return 0;
}

static int ack_decode(const uint8_t *body, size_t body_len, struct dfly_wire_ack *ack)
{
	if (body_len != ACK_LEN)
		return -DFLY_WIRE_E_BAD_COUNT;
	ack->ack = get32(body + 0);
	ack->flags = body[4];
	ack->taken = get64(body + 8);
	if ((ack->flags & ~DFLY_WIRE_ACK_F_NAK) != 0 || body[5] != 0 || body[6] != 0 ||
	    body[7] != 0)
		return -DFLY_WIRE_E_RESERVED;
	return 0;
}

/* Bounds of body_len for a type, checked before the body is known to be in the buffer. */
static bool ctrl_body_len_plausible(unsigned type, size_t body_len)
{
	switch (type) {
	case DFLY_WIRE_CTRL_CREDIT:
		return body_len >= CREDIT_FIXED + CREDIT_ENTRY &&
		       body_len <= CREDIT_FIXED + CREDIT_ENTRY * DFLY_WIRE_CREDIT_MAX;
	case DFLY_WIRE_CTRL_PB_STATE:
		return body_len > PB_FIXED && body_len <= PB_FIXED + DFLY_MAX_H * DFLY_MAX_VCS / 8;
	case DFLY_WIRE_CTRL_ECTN_PARTIAL:
		return body_len > ECTN_FIXED &&
		       (body_len <= ECTN_FIXED + ectn_bytes(DFLY_WIRE_ECTN_MAX) ||
			body_len <= ECTN_LIST + ECTN_ENTRY * DFLY_WIRE_ECTN_LIST_MAX);
	case DFLY_WIRE_CTRL_HELLO:
		return body_len == HELLO_LEN;
	case DFLY_WIRE_CTRL_ACK:
		return body_len == ACK_LEN;
	case DFLY_WIRE_CTRL_SYNC:
		return body_len == SYNC_LEN;
	case DFLY_WIRE_CTRL_LINK_STATE:
		return body_len >= LS_FIXED && body_len <= LS_FIXED + LS_ENTRY * DFLY_WIRE_FAIL_MAX;
	default:
		return false;
	}
}

int dfly_wire_ctrl_decode(const void *buf, size_t len, const struct dfly_wire_limits *lim,
			  struct dfly_wire_ctrl *m)
{
	const uint8_t *b = buf, *c, *body;
	size_t body_len, end;
	uint16_t et;
	int off;

	off = eth_parse(b, len, &et);
	if (off < 0)
		return off;
	if (et != DFLY_WIRE_ETHERTYPE_CTRL)
		return -DFLY_WIRE_E_BAD_ETHERTYPE;
	if (len < (size_t)off + DFLY_WIRE_CTRL_HDR_LEN)
		return -DFLY_WIRE_E_TRUNCATED;
	c = b + off;
	if (c[C_VERSION] != DFLY_WIRE_VERSION)
		return -DFLY_WIRE_E_BAD_VERSION;
	m->type = c[C_TYPE];
	if (m->type == DFLY_WIRE_CTRL_NONE || m->type >= DFLY_WIRE_CTRL_COUNT)
		return -DFLY_WIRE_E_BAD_TYPE;
	body_len = get16(c + C_BODY_LEN);
	m->src_router = get32(c + C_SRC);
	if (m->src_router >= lim->routers)
		return -DFLY_WIRE_E_BAD_ROUTER;
	if (!ctrl_body_len_plausible(m->type, body_len))
		return -DFLY_WIRE_E_BAD_COUNT;
	end = (size_t)off + DFLY_WIRE_CTRL_HDR_LEN + body_len;
	if (len < end)
		return -DFLY_WIRE_E_TRUNCATED;
	if (!tail_ok((size_t)off, end, len))
		return -DFLY_WIRE_E_BAD_COUNT;
	body = c + DFLY_WIRE_CTRL_HDR_LEN;

	switch (m->type) {
	case DFLY_WIRE_CTRL_CREDIT:
		return credit_decode(body, body_len, lim, &m->credit);
	case DFLY_WIRE_CTRL_PB_STATE:
		return pb_decode(body, body_len, lim, &m->pb);
	case DFLY_WIRE_CTRL_ECTN_PARTIAL:
		return ectn_decode(body, body_len, lim, &m->ectn);
	case DFLY_WIRE_CTRL_HELLO:
		return hello_decode(body, body_len, lim, &m->hello);
	case DFLY_WIRE_CTRL_LINK_STATE:
		return ls_decode(body, body_len, lim, &m->ls);
	case DFLY_WIRE_CTRL_SYNC:
		m->sync.next = get64(body + 0);
		m->sync.due = get64(body + 8);
		return 0;
	default:
		return ack_decode(body, body_len, &m->ack);
	}
}

/* ---------------------------------------------------------------------------------------------
 * BUNDLE: control frames of one sender in one Ethernet frame
 */

#define B_VERSION 0
#define B_RESV    1
#define B_N       2

int dfly_wire_bundle_start(void *buf, size_t size, const struct dfly_wire_eth *eth)
{
	uint8_t *b = buf, *h = b + DFLY_WIRE_ETH_LEN;

	if (size < DFLY_WIRE_ETH_LEN + DFLY_WIRE_BUNDLE_HDR_LEN)
		return -DFLY_WIRE_E_NOSPC;
	eth_write(b, eth, DFLY_WIRE_ETHERTYPE_BUNDLE);
	h[B_VERSION] = DFLY_WIRE_VERSION;
	h[B_RESV] = 0;
	put16(h + B_N, 0);
	return DFLY_WIRE_ETH_LEN + DFLY_WIRE_BUNDLE_HDR_LEN;
}

int dfly_wire_bundle_add(void *buf, size_t size, size_t len, const void *ctrl, size_t ctrl_len)
{
	uint8_t *b = buf, *h = b + DFLY_WIRE_ETH_LEN;
	const uint8_t *c = ctrl;
	size_t rec;
	uint16_t n;

	if (len < DFLY_WIRE_ETH_LEN + DFLY_WIRE_BUNDLE_HDR_LEN ||
	    get16(b + 12) != DFLY_WIRE_ETHERTYPE_BUNDLE)
		return -DFLY_WIRE_E_BAD_ETHERTYPE;
	if (ctrl_len < DFLY_WIRE_ETH_LEN + DFLY_WIRE_CTRL_HDR_LEN)
		return -DFLY_WIRE_E_TRUNCATED;
	if (get16(c + 12) != DFLY_WIRE_ETHERTYPE_CTRL)
		return -DFLY_WIRE_E_BAD_ETHERTYPE;
	rec = ctrl_len - DFLY_WIRE_ETH_LEN;
	if (rec != DFLY_WIRE_CTRL_HDR_LEN + (size_t)get16(c + DFLY_WIRE_ETH_LEN + C_BODY_LEN))
		return -DFLY_WIRE_E_BAD_COUNT;
	n = get16(h + B_N);
	if (n == UINT16_MAX)
		return -DFLY_WIRE_E_BAD_COUNT;
	if (len + rec > size || len + rec - DFLY_WIRE_ETH_LEN > DFLY_WIRE_BUNDLE_MAX)
		return -DFLY_WIRE_E_NOSPC;
	memcpy(b + len, c + DFLY_WIRE_ETH_LEN, rec);
	put16(h + B_N, (uint16_t)(n + 1));
	return (int)(len + rec);
}

int dfly_wire_bundle_open(const void *buf, size_t len, struct dfly_wire_bundle_iter *it)
{
	const uint8_t *b = buf, *h, *r;
	size_t left, end;
	uint16_t et;
	int off;

	off = eth_parse(b, len, &et);
	if (off < 0)
		return off;
	if (et != DFLY_WIRE_ETHERTYPE_BUNDLE)
		return -DFLY_WIRE_E_BAD_ETHERTYPE;
	if (len < (size_t)off + DFLY_WIRE_BUNDLE_HDR_LEN)
		return -DFLY_WIRE_E_TRUNCATED;
	h = b + off;
	if (h[B_VERSION] != DFLY_WIRE_VERSION)
		return -DFLY_WIRE_E_BAD_VERSION;
	if (h[B_RESV] != 0)
		return -DFLY_WIRE_E_RESERVED;
	it->n = get16(h + B_N);
	it->i = 0;
	if (it->n == 0)
		return -DFLY_WIRE_E_BAD_COUNT;
	memcpy(it->mac, b, sizeof(it->mac));
	it->rec = r = h + DFLY_WIRE_BUNDLE_HDR_LEN;
	left = len - ((size_t)off + DFLY_WIRE_BUNDLE_HDR_LEN);
	/* walk the records once: their headers must chain to the end (or to padding) */
	for (unsigned i = 0; i < it->n; i++) {
		size_t rl;

		if (left < DFLY_WIRE_CTRL_HDR_LEN)
			return left == 0 ? -DFLY_WIRE_E_BAD_COUNT : -DFLY_WIRE_E_TRUNCATED;
		if (r[C_VERSION] != DFLY_WIRE_VERSION)
			return -DFLY_WIRE_E_BAD_VERSION;
		rl = DFLY_WIRE_CTRL_HDR_LEN + (size_t)get16(r + C_BODY_LEN);
		if (left < rl)
			return -DFLY_WIRE_E_TRUNCATED;
		r += rl;
		left -= rl;
	}
	end = (size_t)(r - b);
	if (!tail_ok((size_t)off, end, len))
		return -DFLY_WIRE_E_BAD_COUNT;
	if (end - (size_t)off > DFLY_WIRE_BUNDLE_MAX)
		return -DFLY_WIRE_E_BAD_COUNT;
	it->left = end - (size_t)(it->rec - b);
	return it->n;
}

int dfly_wire_bundle_next(struct dfly_wire_bundle_iter *it, void *out, size_t size)
{
	uint8_t *o = out;
	size_t rl;

	if (it->i >= it->n)
		return 0;
	rl = DFLY_WIRE_CTRL_HDR_LEN + (size_t)get16(it->rec + C_BODY_LEN);
	if (size < DFLY_WIRE_ETH_LEN + rl)
		return -DFLY_WIRE_E_NOSPC;
	memcpy(o, it->mac, sizeof(it->mac));
	put16(o + 12, DFLY_WIRE_ETHERTYPE_CTRL);
	memcpy(o + DFLY_WIRE_ETH_LEN, it->rec, rl);
	it->rec += rl;
	it->left -= rl;
	it->i++;
	return (int)(DFLY_WIRE_ETH_LEN + rl);
}

/* ---------------------------------------------------------------------------------------------
 * HELLO: miswiring detection
 */

void dfly_wire_hello_fill(struct dfly_wire_ctrl *m, const struct dfly_topo *topo, uint32_t router,
			  uint32_t port, uint32_t cfg_hash)
{
	memset(m, 0, sizeof(*m));
	m->type = DFLY_WIRE_CTRL_HELLO;
	m->src_router = router;
	m->hello.port = (uint16_t)port;
	m->hello.arr = (uint8_t)topo->arr;
	m->hello.sigma = (int8_t)(topo->sigma < 0 ? -1 : 1);
	m->hello.p = (uint16_t)topo->p;
	m->hello.a = (uint16_t)topo->a;
	m->hello.h = (uint16_t)topo->h;
	m->hello.t = (uint16_t)topo->t;
	m->hello.cfg_hash = cfg_hash;
}

int dfly_wire_hello_check(const struct dfly_wire_ctrl *m, const struct dfly_topo *topo,
			  uint32_t router, uint32_t port, uint32_t cfg_hash)
{
	const struct dfly_wire_hello *he = &m->hello;
	uint32_t peer_router, peer_port;

	if (m->type != DFLY_WIRE_CTRL_HELLO)
		return -DFLY_WIRE_E_BAD_TYPE;
	if (dfly_topo_port_peer(topo, router, port, &peer_router, &peer_port) < 0)
		return -DFLY_WIRE_E_BAD_PORT;
	if (he->p != topo->p || he->a != topo->a || he->h != topo->h || he->t != topo->t ||
	    he->arr != (unsigned)topo->arr || he->sigma != (topo->sigma < 0 ? -1 : 1) ||
	    (he->cfg_hash != 0 && cfg_hash != 0 && he->cfg_hash != cfg_hash))
		return -DFLY_WIRE_E_BAD_TOPO;
	if (m->src_router != peer_router || he->port != peer_port)
		return -DFLY_WIRE_E_MISWIRED;
	return 0;
}
