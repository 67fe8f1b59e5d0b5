/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mkpcap: the fixture writer of the Wireshark dissector test (tools/wireshark/dfly.lua). It
 * builds frames with the real codec (dfly_wire_data_encode(), dfly_wire_ctrl_encode()) and the
 * metadata layout of include/dfly/trace.h, writes them to pcap files with nanosecond timestamps,
 * and writes next to them what tshark must print for each: check_dissector.sh runs tshark with
 * the dissector and diffs. Malformed frames are named by the real decoders
 * (dfly_wire_*_decode()), so the dissector is held to the decoder's first error.
 *
 *   mkpcap DIR           write DIR/{frames,meta,malformed,malformed-meta}.pcap, DIR/<name>.check
 *   mkpcap --lua-tables  print the generated block of dfly.lua (constants and name tables) from
 *                        the headers' X-macro lists; check_tables.sh diffs it with the file.
 *
 * A .check file: line 1 the pcap file, line 2 the display filter, line 3 the fields (separated by
 * spaces), then the expected `tshark -T fields` rows. names.check: line 2 is the pattern of the
 * `tshark -V` lines to keep. malformed*.check: rows "frame<TAB>error name".
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>

#include "dfly/regs.h"
#include "dfly/topo.h"
#include "dfly/trace.h"
#include "dfly/wire.h"

#define BUF_LEN  4096
#define SNAPLEN  65535
#define CYCLE_NS 2 /* timestamps: cycle × CYCLE_NS, as dfly sim with clock.cycle_ns = 2 */
#define OFF      DFLY_WIRE_ETH_LEN
#define ROW_LEN  65536

/* Names the headers give as enums, not X-macros, indexed by their enum values. */
static const char *const port_kind_names[] = {
    [DFLY_PORT_TERMINAL] = "terminal",
    [DFLY_PORT_LOCAL] = "local",
    [DFLY_PORT_GLOBAL] = "global",
};
static const char *const lia_level_names[] = {
    [DFLY_LIA_BENIGN] = "benign",
    [DFLY_LIA_MIX] = "mix",
    [DFLY_LIA_ADV] = "adv",
};
static const char *const ectn_fmt_names[DFLY_WIRE_ECTN_FMT_COUNT] = {
    [DFLY_WIRE_ECTN_FULL] = "full",
    [DFLY_WIRE_ECTN_SPARSE] = "sparse",
    [DFLY_WIRE_ECTN_DELTA] = "delta",
};
static const char *const arrangement_names[] = {
    [DFLY_ARR_PALMTREE] = "palmtree",
    [DFLY_ARR_CONSECUTIVE] = "consecutive",
};
#define NAMES_LEN(a) (sizeof(a) / sizeof((a)[0]))

#define DFLY__NAME(E, n, d) #n,
static const char *const trace_point_names[DFLY_TRACE_POINT_COUNT] = {
    DFLY_FOREACH_TRACE_POINT(DFLY__NAME)};
#undef DFLY__NAME

/* ---------------------------------------------------------------------------------------------
 * --lua-tables
 */

static void lua_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			putchar('\\');
		putchar(*s);
	}
	putchar('"');
}

static void lua_names(const char *var, const char *const *names, unsigned first, unsigned n)
{
	printf("local %s = {\n", var);
	for (unsigned i = first; i < n; i++) {
		printf("    [%u] = ", i);
		lua_str(names[i]);
		printf(",\n");
	}
	printf("}\n");
}

static void lua_tables(void)
{
	printf("local WIRE_VERSION = %u\n", DFLY_WIRE_VERSION);
	printf("local ETHERTYPE_DATA = 0x%04x\n", DFLY_WIRE_ETHERTYPE_DATA);
	printf("local ETHERTYPE_CTRL = 0x%04x\n", DFLY_WIRE_ETHERTYPE_CTRL);
	printf("local DATA_HDR_LEN = %u\n", DFLY_WIRE_DATA_HDR_LEN);
	printf("local CTRL_HDR_LEN = %u\n", DFLY_WIRE_CTRL_HDR_LEN);
	printf("local ETHERTYPE_BUNDLE = 0x%04x\n", DFLY_WIRE_ETHERTYPE_BUNDLE);
	printf("local BUNDLE_HDR_LEN = %u\n", DFLY_WIRE_BUNDLE_HDR_LEN);
	printf("local BUNDLE_MAX = %u\n", DFLY_WIRE_BUNDLE_MAX);
	printf("local ETH_LEN = %u\n", DFLY_WIRE_ETH_LEN);
	printf("local ETH_MIN_BODY = %u\n", DFLY_WIRE_ETH_MIN_BODY);
	printf("local NO_ROUTER = 0x%08x\n", DFLY_WIRE_NO_ROUTER);
	printf("local MAX_GLOBAL_HOPS = %u\n", DFLY_WIRE_MAX_GLOBAL_HOPS);
	printf("local MAX_LOCAL_HOPS = %u\n", DFLY_WIRE_MAX_LOCAL_HOPS);
	printf("local CREDIT_MAX = %u\n", DFLY_WIRE_CREDIT_MAX);
	printf("local ECTN_MAX = %u\n", DFLY_WIRE_ECTN_MAX);
	printf("local ECTN_LIST_MAX = %u\n", DFLY_WIRE_ECTN_LIST_MAX);
	printf("local FAIL_MAX = %u\n", DFLY_WIRE_FAIL_MAX);
	printf("local MAX_H = %u\n", DFLY_MAX_H);
	printf("local MAX_VCS = %u\n", DFLY_MAX_VCS);
	printf("local F_NONMIN = 0x%02x\n", DFLY_WIRE_F_NONMIN);
	printf("local F_PHASE = 0x%02x\n", DFLY_WIRE_F_PHASE);
	printf("local F_MANDATORY_GLOBAL = 0x%02x\n", DFLY_WIRE_F_MANDATORY_GLOBAL);
	printf("local F_LOCAL_MISROUTE_DONE = 0x%02x\n", DFLY_WIRE_F_LOCAL_MISROUTE_DONE);
	printf("local F_REPLY = 0x%02x\n", DFLY_WIRE_F_REPLY);
	printf("local F_PB = 0x%02x\n", DFLY_WIRE_F_PB);
	printf("local F_NOINTER = 0x%02x\n", DFLY_WIRE_F_NOINTER);
	printf("local F_RES_MIN = 0x%02x\n", DFLY_WIRE_F_RES_MIN);
	printf("local RES_LEN = %u\n", DFLY_WIRE_RES_LEN);
	printf("local F_ALL = 0x%02x\n", DFLY_WIRE_F_ALL);
	printf("local CREDIT_F_MIN = 0x%02x\n", DFLY_WIRE_CREDIT_F_MIN);
	printf("local CREDIT_F_ABS = 0x%02x\n", DFLY_WIRE_CREDIT_F_ABS);
	printf("local CREDIT_F_ALL = 0x%02x\n", DFLY_WIRE_CREDIT_F_ALL);
	printf("local ACK_F_NAK = 0x%02x\n", DFLY_WIRE_ACK_F_NAK);
	printf("local TRACE_MAGIC = 0x%08x\n", DFLY_TRACE_MAGIC);
	printf("local TRACE_VERSION = %u\n", DFLY_TRACE_VERSION);
	printf("local TRACE_META_LEN = %u\n", DFLY_TRACE_META_LEN);
	printf("local TRACE_NONE = 0x%04x\n", DFLY_TRACE_NONE);
	printf("local TRACE_F_NONMIN = 0x%02x\n", DFLY_TRACE_F_NONMIN);
	printf("local TRACE_F_VALIANT = 0x%02x\n", DFLY_TRACE_F_VALIANT);
	printf("local TRACE_F_PHASE1 = 0x%02x\n", DFLY_TRACE_F_PHASE1);
	printf("local TRACE_F_SAT = 0x%02x\n", DFLY_TRACE_F_SAT);
	printf("local TRACE_F_L1 = 0x%02x\n", DFLY_TRACE_F_L1);
	printf("local TRACE_F_L2 = 0x%02x\n", DFLY_TRACE_F_L2);
	printf("local TRACE_F_ALL = 0x%02x\n", DFLY_TRACE_F_NONMIN | DFLY_TRACE_F_VALIANT |
						   DFLY_TRACE_F_PHASE1 | DFLY_TRACE_F_SAT |
						   DFLY_TRACE_F_L1 | DFLY_TRACE_F_L2);
	printf("local LEVEL_NONE = 0xff\n");
#define DFLY__VAL(E, n, d) printf("local PKT_%s = %u\n", #E, DFLY_WIRE_PKT_##E);
	DFLY_FOREACH_WIRE_PKT(DFLY__VAL)
#undef DFLY__VAL
#define DFLY__VAL(E, n, d) printf("local CTRL_%s = %u\n", #E, DFLY_WIRE_CTRL_##E);
	DFLY_FOREACH_WIRE_CTRL(DFLY__VAL)
#undef DFLY__VAL
	printf("local ECTN_FULL = %u\n", DFLY_WIRE_ECTN_FULL);
	/* the wire.c name tables are static; the X-macros give the same strings */
#define DFLY__NAME(E, n, d) #n,
	{
		static const char *const p2[] = {"none", DFLY_FOREACH_WIRE_PKT(DFLY__NAME)};
		static const char *const c2[] = {"none", DFLY_FOREACH_WIRE_CTRL(DFLY__NAME)};

		_Static_assert(NAMES_LEN(p2) == DFLY_WIRE_PKT_COUNT, "packet types");
		_Static_assert(NAMES_LEN(c2) == DFLY_WIRE_CTRL_COUNT, "control types");
		lua_names("pkt_names", p2, 1, DFLY_WIRE_PKT_COUNT);
		lua_names("ctrl_names", c2, 1, DFLY_WIRE_CTRL_COUNT);
	}
#undef DFLY__NAME
	lua_names("ectn_fmt_names", ectn_fmt_names, 0, DFLY_WIRE_ECTN_FMT_COUNT);
	lua_names("arrangement_names", arrangement_names, 0, NAMES_LEN(arrangement_names));
	printf("local wire_err_descs = {\n");
	for (int e = 1; e < DFLY_WIRE_E_COUNT; e++) {
		printf("    %s = ", dfly_wire_err_name(e));
		lua_str(dfly_wire_err_desc(e));
		printf(",\n");
	}
	printf("}\n");
	lua_names("trace_point_names", trace_point_names, 0, DFLY_TRACE_POINT_COUNT);
	printf("local TRACE_DROP = %u\n", DFLY_TRACE_DROP);
	lua_names("port_kind_names", port_kind_names, 0, NAMES_LEN(port_kind_names));
	lua_names("lia_level_names", lia_level_names, 0, NAMES_LEN(lia_level_names));
	lua_names("drop_names", dfly_drop_names, 0, DFLY_DROP_COUNT);
	lua_names("route_ctr_names", dfly_route_ctr_names, 0, DFLY_ROUTE_CTR_COUNT);
}

/* ---------------------------------------------------------------------------------------------
 * Output: pcap files and .check files
 */

/** One pcap file being written. */
struct pcap_out {
	pcap_t *pcap;          /**< dead handle of the file's link type */
	pcap_dumper_t *dumper; /**< the file */
	const char *name;      /**< file name inside DIR */
	unsigned frames;       /**< frames written: the last one's frame.number */
};

/** One .check file: expected rows of one tshark run. */
struct check {
	FILE *f;           /**< the open .check file */
	char row[ROW_LEN]; /**< the row being built */
	size_t len;        /**< bytes in row */
};

static const char *out_dir;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "mkpcap: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static void pcap_out_open(struct pcap_out *o, const char *name, int dlt)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", out_dir, name);
	o->name = name;
	o->frames = 0;
	o->pcap = pcap_open_dead_with_tstamp_precision(dlt, SNAPLEN, PCAP_TSTAMP_PRECISION_NANO);
	if (o->pcap == NULL)
		die("pcap_open_dead failed");
	o->dumper = pcap_dump_open(o->pcap, path);
	if (o->dumper == NULL)
		die("%s: %s", path, pcap_geterr(o->pcap));
}

static void pcap_out_close(struct pcap_out *o)
{
	pcap_dump_close(o->dumper);
	pcap_close(o->pcap);
}

/* Write a record of @p caplen bytes for a frame of @p len bytes; its frame number. */
static unsigned dump_cut(struct pcap_out *o, uint64_t cycle, const uint8_t *b, size_t caplen,
			 size_t len)
{
	struct pcap_pkthdr h = {0};
	uint64_t ns = cycle * CYCLE_NS;

	h.ts.tv_sec = (time_t)(ns / 1000000000u);
	h.ts.tv_usec = (suseconds_t)(ns % 1000000000u); /* nanoseconds with the NANO precision */
	h.caplen = (bpf_u_int32)caplen;
	h.len = (bpf_u_int32)len;
	pcap_dump((u_char *)o->dumper, &h, b);
	return ++o->frames;
}

static unsigned dump(struct pcap_out *o, uint64_t cycle, const uint8_t *b, size_t len)
{
	return dump_cut(o, cycle, b, len, len);
}

static void check_open(struct check *c, const char *name, const struct pcap_out *o,
		       const char *filter, const char *fields)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s.check", out_dir, name);
	c->f = fopen(path, "w");
	if (c->f == NULL)
		die("%s: %s", path, strerror(errno));
	fprintf(c->f, "%s\n%s\n%s\n", o->name, filter, fields);
	c->len = 0;
}

static void check_close(struct check *c)
{
	if (fclose(c->f) != 0)
		die("writing a .check file: %s", strerror(errno));
}

/* Append to the row being built: a separator unless @p sep is 0, then the formatted text. */
static void vput(struct check *c, char sep, const char *fmt, va_list ap)
{
	int n;

	if (sep != 0 && c->len + 1 < sizeof(c->row))
		c->row[c->len++] = sep;
	n = vsnprintf(c->row + c->len, sizeof(c->row) - c->len, fmt, ap);
	if (n < 0 || (size_t)n >= sizeof(c->row) - c->len)
		die("row too long");
	c->len += (size_t)n;
}

/* A new column. */
static void col(struct check *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void col(struct check *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vput(c, c->len == 0 ? 0 : '\t', fmt, ap);
	va_end(ap);
}

/* One more occurrence of a field in the current column: tshark joins them with ','. */
static void more(struct check *c, bool first, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void more(struct check *c, bool first, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vput(c, first ? (c->len == 0 ? 0 : '\t') : ',', fmt, ap);
	va_end(ap);
}

static void row_end(struct check *c)
{
	fprintf(c->f, "%.*s\n", (int)c->len, c->row);
	c->len = 0;
}

/* Append bytes as tshark prints a bytes field: hex digits, no separator. */
static void hex_col(struct check *c, const uint8_t *b, size_t n)
{
	col(c, "%s", "");
	for (size_t i = 0; i < n; i++) {
		if (c->len + 3 > sizeof(c->row))
			die("row too long");
		c->len += (size_t)snprintf(c->row + c->len, 3, "%02x", b[i]);
	}
}

static void names_line(struct check *c, const char *label, const char *name, unsigned v)
{
	fprintf(c->f, "%s: %s (%u)\n", label, name, v);
}

/* ---------------------------------------------------------------------------------------------
 * Frames
 */

/** Everything being written. */
struct ctx {
	struct pcap_out frames;      /**< valid data and control frames (DLT_EN10MB) */
	struct pcap_out meta;        /**< valid metadata records (DLT_USER0) */
	struct pcap_out bad;         /**< one malformed frame per kind of error (DLT_EN10MB) */
	struct pcap_out bad_meta;    /**< malformed metadata records (DLT_USER0) */
	struct check data;           /**< data frames of frames.pcap */
	struct check credit;         /**< CREDIT frames */
	struct check pb;             /**< PB_STATE frames */
	struct check ectn;           /**< ECTN_PARTIAL frames, all three formats */
	struct check hello;          /**< HELLO frames */
	struct check ack;            /**< ACK frames */
	struct check ls;             /**< LINK_STATE frames */
	struct pcap_out bundles;     /**< valid BUNDLE frames (DLT_EN10MB) */
	struct check bundle;         /**< BUNDLE frames */
	struct check meta_ck;        /**< metadata records */
	struct check names;          /**< value names of meta.pcap (tshark -V) */
	struct check malformed;      /**< malformed.pcap: frame, error */
	struct check malformed_meta; /**< malformed-meta.pcap: frame, error */
	uint64_t cycle;              /**< timestamp of the next record */
};

static struct ctx X;

static const struct dfly_wire_eth ETH = {
    .dst = {0x02, 0xdf, 0x00, 0x00, 0x01, 0x03},
    .src = {0x02, 0xdf, 0x00, 0x00, 0x00, 0x05},
};

/* Limits the malformed frames are decoded with: only the topology-free checks can fail (the
 * dissector knows no topology). ECtN frames carry a·h/t = 9 counters, PB frames h = 3. */
static const struct dfly_wire_limits LIM = {
    .nodes = UINT32_MAX,
    .routers = UINT32_MAX,
    .p = 2,
    .a = 3,
    .h = 3,
    .t = 1,
    .vcs = DFLY_MAX_VCS,
    .max_phits = UINT16_MAX,
};

/* An ARP request from 10.0.0.1 for 10.0.0.2: the payload of the HOST packets. */
static const uint8_t ARP_FRAME[42] = {
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06,
    0x00, 0x01, 0x08, 0x00, 0x06, 0x04, 0x00, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01,
    10,   0,    0,    1,    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 10,   0,    0,    2,
};

static uint64_t next_cycle(void)
{
	X.cycle += 1000 + X.cycle % 7;
	return X.cycle;
}

static size_t enc_data(uint8_t *b, const struct dfly_wire_data *d, const uint8_t *payload)
{
	int n = dfly_wire_data_encode(b, BUF_LEN, &ETH, d, payload);

	if (n < 0)
		die("data encode: %s", dfly_wire_err_name(n));
	return (size_t)n;
}

static size_t enc_ctrl(uint8_t *b, const struct dfly_wire_ctrl *m)
{
	int n = dfly_wire_ctrl_encode(b, BUF_LEN, &ETH, m);

	if (n < 0)
		die("ctrl encode (type %u): %s", m->type, dfly_wire_err_name(n));
	return (size_t)n;
}

/* Insert an 802.1Q tag with VLAN id @p vid after the MAC addresses; the new length. */
static size_t add_vlan(uint8_t *b, size_t len, uint16_t vid)
{
	memmove(b + 16, b + 12, len - 12);
	b[12] = 0x81;
	b[13] = 0x00;
	b[14] = (uint8_t)(vid >> 8 & 0x0f);
	b[15] = (uint8_t)vid;
	return len + 4;
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)(v >> 16));
	put16(p + 2, (uint16_t)v);
}

static uint8_t payload_byte(size_t i)
{
	return (uint8_t)(0xa0 + i * 7);
}

/* ---- data frames ------------------------------------------------------------------------ */

/* The data columns of a frame (after frame.number, eth.type and vlan.id). */
static void data_cols(struct check *c, const struct dfly_wire_data *d, const uint8_t *payload,
		      size_t captured)
{
	col(c, "%u", DFLY_WIRE_VERSION);
	col(c, "%u", d->type);
	col(c, "0x%02x", d->flags);
	for (unsigned bit = 0; bit < 8; bit++)
		col(c, "%u", d->flags >> bit & 1);
	col(c, "%u", d->global_hops);
	col(c, "%u", d->local_hops);
	col(c, "%u", d->vc);
	col(c, "%u", d->size_phits);
	col(c, "%" PRIu32, d->src_node);
	col(c, "%" PRIu32, d->dst_node);
	col(c, "%" PRIu32, d->via_router);
	col(c, "%" PRIu32, d->seq);
	col(c, "%" PRIu64, d->gen_cycle);
	col(c, "0x%08" PRIx32, d->pb_vec);
	col(c, "0x%08" PRIx32, d->tag);
	col(c, "%u", d->payload_len);
	col(c, "%u", d->path_lhops);
	col(c, "0x00");
	col(c, "%" PRIu32, d->inj_delay);
	if (d->type != DFLY_WIRE_PKT_HOST && captured > 0)
		hex_col(c, payload, captured);
	else
		col(c, "%s", "");
}

#define DATA_FIELDS                                                                                \
	"frame.number eth.type vlan.id dfly.version dfly.type dfly.flags dfly.nonmin dfly.phase "  \
	"dfly.mandatory_global dfly.local_misroute_done dfly.reply dfly.pb dfly.nointer "          \
	"dfly.res_min dfly.ghops dfly.lhops dfly.vc dfly.size_phits dfly.src_node "                \
	"dfly.dst_node dfly.via_router dfly.seq dfly.gen_cycle dfly.pb_vec dfly.tag "              \
	"dfly.payload_len dfly.path_lhops dfly.reserved dfly.inj_delay dfly.payload dfly.trailer " \
	"_ws.expert.message"

/* Encode @p d (with @p payload, or a generated one), optionally tagged, and cut to @p caplen
 * bytes (0: whole), write it to frames.pcap and its expected row. */
static void data_frame(const struct dfly_wire_data *d, const uint8_t *payload, uint16_t vid,
		       size_t caplen)
{
	uint8_t b[BUF_LEN], gen[BUF_LEN];
	size_t len, hdr, captured;
	unsigned fno;

	if (payload == NULL) {
		for (size_t i = 0; i < d->payload_len; i++)
			gen[i] = payload_byte(i);
		payload = gen;
	}
	len = enc_data(b, d, payload);
	if (vid != 0)
		len = add_vlan(b, len, vid);
	hdr = len - d->payload_len;
	if (caplen == 0)
		caplen = len;
	captured = caplen > hdr ? caplen - hdr : 0;
	fno = dump_cut(&X.frames, next_cycle(), b, caplen, len);

	col(&X.data, "%u", fno);
	col(&X.data, "%s", vid != 0 ? "0x8100" : "0x88b5");
	if (d->type == DFLY_WIRE_PKT_HOST)
		more(&X.data, false, "0x%02x%02x", payload[12], payload[13]);
	if (vid != 0)
		col(&X.data, "%u", vid);
	else
		col(&X.data, "%s", "");
	data_cols(&X.data, d, payload, captured);
	col(&X.data, "%s", ""); /* trailer */
	col(&X.data, "%s", ""); /* no expert info */
	row_end(&X.data);
}

static void data_frames(void)
{
	static const uint8_t flag_sets[] = {
	    0,
	    DFLY_WIRE_F_NONMIN,
	    DFLY_WIRE_F_PHASE,
	    DFLY_WIRE_F_MANDATORY_GLOBAL,
	    DFLY_WIRE_F_LOCAL_MISROUTE_DONE,
	    DFLY_WIRE_F_REPLY,
	    DFLY_WIRE_F_NOINTER,
	    DFLY_WIRE_F_NONMIN | DFLY_WIRE_F_PHASE,
	    DFLY_WIRE_F_NONMIN | DFLY_WIRE_F_MANDATORY_GLOBAL,
	    DFLY_WIRE_F_NONMIN | DFLY_WIRE_F_PHASE | DFLY_WIRE_F_LOCAL_MISROUTE_DONE,
	    DFLY_WIRE_F_NONMIN | DFLY_WIRE_F_NOINTER | DFLY_WIRE_F_REPLY,
	    DFLY_WIRE_F_ALL & ~DFLY_WIRE_F_PB,
	};
	struct dfly_wire_data d;

	/* synth packets with every flag set of interest; the PB ones carry a vector */
	for (unsigned i = 0; i < sizeof(flag_sets); i++) {
		for (unsigned pb = 0; pb < 2; pb++) {
			memset(&d, 0, sizeof(d));
			d.type = DFLY_WIRE_PKT_SYNTH;
			d.flags = (uint8_t)(flag_sets[i] | (pb ? DFLY_WIRE_F_PB : 0));
			d.global_hops = (uint8_t)(i % (DFLY_WIRE_MAX_GLOBAL_HOPS + 1));
			d.local_hops = (uint8_t)(i % (DFLY_WIRE_MAX_LOCAL_HOPS + 1));
			d.vc = (uint8_t)(i % DFLY_MAX_VCS);
			d.size_phits = (uint16_t)(1 + i * 3);
			d.src_node = 3 * i + pb;
			d.dst_node = 1000 + 17 * i;
			d.via_router = d.flags & DFLY_WIRE_F_NONMIN ? 40 + i : DFLY_WIRE_NO_ROUTER;
			d.seq = 100 * i + pb;
			d.gen_cycle = 1000000007ull * i + pb;
			d.pb_vec = pb ? 0x80000001u ^ (i << 8) : 0;
			d.tag = 0xdf000000u | i;
			d.payload_len = (uint16_t)(i % 4 == 0 ? 0 : i * 5);
			d.path_lhops = (uint8_t)(i * 2 % 7);
			d.inj_delay = 13u * i;
			data_frame(&d, NULL, 0, 0);
		}
	}

	/* an IAR information flit: 1 phit, no payload, the PB vector */
	memset(&d, 0, sizeof(d));
	d.type = DFLY_WIRE_PKT_INFO;
	d.flags = DFLY_WIRE_F_PB;
	d.size_phits = 1;
	d.src_node = 7;
	d.dst_node = 8;
	d.via_router = DFLY_WIRE_NO_ROUTER;
	d.pb_vec = 0x0000f00f;
	data_frame(&d, NULL, 0, 0);

	/* RES flits (spec §4.9): a request and a granted reply, 1 phit and a 12-byte body */
	{
		struct dfly_wire_res r = {.cookie = 0x11223344, .rbar = 57, .len = 10, .gc = 3};
		uint8_t body[DFLY_WIRE_RES_LEN];

		memset(&d, 0, sizeof(d));
		d.type = DFLY_WIRE_PKT_RES_REQ;
		d.size_phits = 1;
		d.via_router = DFLY_WIRE_NO_ROUTER;
		d.payload_len = DFLY_WIRE_RES_LEN;
		dfly_wire_res_put(body, &r);
		data_frame(&d, body, 0, 0);
		d.type = DFLY_WIRE_PKT_RES_REP;
		r.grant = 1;
		dfly_wire_res_put(body, &r);
		data_frame(&d, body, 0, 0);
	}

	/* a host frame (ARP request), handed to the eth dissector */
	memset(&d, 0, sizeof(d));
	d.type = DFLY_WIRE_PKT_HOST;
	d.flags = DFLY_WIRE_F_PHASE;
	d.size_phits = 4;
	d.src_node = 1;
	d.dst_node = 2;
	d.via_router = DFLY_WIRE_NO_ROUTER;
	d.seq = 9;
	d.gen_cycle = 77;
	d.payload_len = sizeof(ARP_FRAME);
	d.tag = 1;
	data_frame(&d, ARP_FRAME, 0, 0);

	/* every field at its largest */
	memset(&d, 0, sizeof(d));
	d.type = DFLY_WIRE_PKT_SYNTH;
	d.flags = DFLY_WIRE_F_ALL;
	d.global_hops = DFLY_WIRE_MAX_GLOBAL_HOPS;
	d.local_hops = DFLY_WIRE_MAX_LOCAL_HOPS;
	d.vc = UINT8_MAX;
	d.size_phits = UINT16_MAX;
	d.src_node = UINT32_MAX - 1;
	d.dst_node = UINT32_MAX;
	d.via_router = UINT32_MAX - 1;
	d.seq = UINT32_MAX;
	d.gen_cycle = UINT64_MAX;
	d.pb_vec = UINT32_MAX;
	d.tag = UINT32_MAX;
	d.payload_len = 1;
	d.path_lhops = UINT8_MAX;
	d.inj_delay = UINT32_MAX;
	data_frame(&d, NULL, 0, 0);

	/* behind an 802.1Q tag */
	memset(&d, 0, sizeof(d));
	d.type = DFLY_WIRE_PKT_SYNTH;
	d.flags = DFLY_WIRE_F_NONMIN;
	d.size_phits = 8;
	d.src_node = 5;
	d.dst_node = 6;
	d.via_router = 12;
	d.payload_len = 3;
	data_frame(&d, NULL, 42, 0);

	/* as dfly sim writes them: a zero payload cut to the snap length (not malformed) */
	memset(&d, 0, sizeof(d));
	d.type = DFLY_WIRE_PKT_SYNTH;
	d.size_phits = 16;
	d.src_node = 10;
	d.dst_node = 20;
	d.via_router = DFLY_WIRE_NO_ROUTER;
	d.gen_cycle = 123456;
	d.inj_delay = 5;
	d.payload_len = 16 * 16 - DFLY_WIRE_DATA_HDR_LEN;
	{
		uint8_t zeros[BUF_LEN] = {0};

		data_frame(&d, zeros, 0, DFLY_WIRE_ETH_LEN + DFLY_WIRE_DATA_HDR_LEN + 10);
	}
}

/* ---- control frames --------------------------------------------------------------------- */

#define CTRL_FIELDS                                                                                \
	"frame.number vlan.id dfly.ctrl.version dfly.ctrl.type dfly.ctrl.body_len "                \
	"dfly.ctrl.src_router"

/* Encode @p m, optionally tagged and padded with zeros to @p pad_to bytes, write it to
 * frames.pcap and start its expected row in @p c (the CTRL_FIELDS columns); the padding bytes. */
/* The frame of @p len bytes in @p b (room for a tag and padding), tagged with @p vid if not 0
 * and padded with zeros to @p pad_to bytes, written to @p o; its row in @p c starts with the
 * frame number and the VLAN id. @return the padding bytes. */
static size_t frame_out(struct check *c, struct pcap_out *o, uint8_t *b, size_t len, uint16_t vid,
			size_t pad_to)
{
	size_t pad = 0;

	if (vid != 0)
		len = add_vlan(b, len, vid);
	if (pad_to > len) {
		pad = pad_to - len;
		memset(b + len, 0, pad);
		len = pad_to;
	}
	col(c, "%u", dump(o, next_cycle(), b, len));
	if (vid != 0)
		col(c, "%u", vid);
	else
		col(c, "%s", "");
	return pad;
}

static size_t ctrl_frame(struct check *c, const struct dfly_wire_ctrl *m, uint16_t vid,
			 size_t pad_to)
{
	uint8_t b[BUF_LEN];
	size_t len = enc_ctrl(b, m);
	size_t body_len = len - DFLY_WIRE_ETH_LEN - DFLY_WIRE_CTRL_HDR_LEN;
	size_t pad = frame_out(c, &X.frames, b, len, vid, pad_to);

	col(c, "%u", DFLY_WIRE_VERSION);
	col(c, "%u", m->type);
	col(c, "%zu", body_len);
	col(c, "%" PRIu32, m->src_router);
	return pad;
}

static void pad_col(struct check *c, size_t pad)
{
	static const uint8_t zeros[64];

	if (pad > 0)
		hex_col(c, zeros, pad);
	else
		col(c, "%s", "");
}

static void credit_frame(const struct dfly_wire_ctrl *m, size_t pad_to)
{
	struct check *c = &X.credit;
	size_t pad = ctrl_frame(c, m, 0, pad_to);

	col(c, "%u", m->credit.n);
	col(c, "000000");
	col(c, "%" PRIu64, m->credit.due);
	for (unsigned i = 0; i < m->credit.n; i++)
		more(c, i == 0, "%u", m->credit.e[i].vc);
	for (unsigned i = 0; i < m->credit.n; i++)
		more(c, i == 0, "0x%02x", m->credit.e[i].flags);
	for (unsigned i = 0; i < m->credit.n; i++)
		more(c, i == 0, "%u", m->credit.e[i].flags & DFLY_WIRE_CREDIT_F_MIN ? 1 : 0);
	for (unsigned i = 0; i < m->credit.n; i++)
		more(c, i == 0, "%u", m->credit.e[i].flags & DFLY_WIRE_CREDIT_F_ABS ? 1 : 0);
	for (unsigned i = 0; i < m->credit.n; i++)
		more(c, i == 0, "%u", m->credit.e[i].phits);
	pad_col(c, pad);
	col(c, "%s", "");
	row_end(c);
}

static void pb_frame(const struct dfly_wire_ctrl *m)
{
	struct check *c = &X.pb;
	uint8_t bits[DFLY_MAX_H * DFLY_MAX_VCS / 8] = {0};
	size_t nbytes = ((size_t)m->pb.h * m->pb.vg + 7) / 8;

	ctrl_frame(c, m, 0, 0);
	col(c, "%u", m->pb.h);
	col(c, "%u", m->pb.vg);
	col(c, "0000");
	for (unsigned q = 0; q < m->pb.h; q++)
		for (unsigned v = 0; v < m->pb.vg; v++)
			if (m->pb.sat[q] >> v & 1)
				bits[(q * m->pb.vg + v) / 8] |=
				    (uint8_t)(1u << ((q * m->pb.vg + v) % 8));
	hex_col(c, bits, nbytes);
	for (unsigned q = 0; q < m->pb.h; q++)
		more(c, q == 0, "0x%02x", m->pb.sat[q]);
	col(c, "%s", "");
	row_end(c);
}

static void ectn_frame(const struct dfly_wire_ctrl *m)
{
	struct check *c = &X.ectn;
	const struct dfly_wire_ectn *ec = &m->ectn;
	bool first = true;
	unsigned m_ent = 0;

	ctrl_frame(c, m, 0, 0);
	col(c, "%u", ec->epoch);
	col(c, "%u", ec->format);
	col(c, "%u", ec->n);
	if (ec->format == DFLY_WIRE_ECTN_FULL) {
		col(c, "%s", "");
		for (unsigned k = 0; k < ec->n; k++)
			more(c, k == 0, "%u", ec->ctr[k] > 15 ? 15 : ec->ctr[k]);
		col(c, "%s", "");
		col(c, "%s", "");
		col(c, "%s", "");
	} else {
		for (unsigned k = 0; k < ec->n; k++)
			m_ent += dfly_wire_ectn_has(ec, k);
		col(c, "%u", m_ent);
		col(c, "%s", "");
		first = true;
		for (unsigned k = 0; k < ec->n; k++) {
			if (dfly_wire_ectn_has(ec, k)) {
				more(c, first, "0x%04x", k << 4 | (ec->ctr[k] & 0xf));
				first = false;
			}
		}
		if (first)
			col(c, "%s", "");
		first = true;
		for (unsigned k = 0; k < ec->n; k++) {
			if (dfly_wire_ectn_has(ec, k)) {
				more(c, first, "%u", k);
				first = false;
			}
		}
		if (first)
			col(c, "%s", "");
		first = true;
		for (unsigned k = 0; k < ec->n; k++) {
			if (dfly_wire_ectn_has(ec, k)) {
				more(c, first, "%u", ec->ctr[k] & 0xf);
				first = false;
			}
		}
		if (first)
			col(c, "%s", "");
	}
	col(c, "%s", "");
	row_end(c);
}

static void hello_frame(const struct dfly_wire_ctrl *m)
{
	struct check *c = &X.hello;
	size_t pad = ctrl_frame(c, m, 0, 0);

	col(c, "%u", m->hello.port);
	col(c, "%u", m->hello.arr);
	col(c, "%d", m->hello.sigma);
	col(c, "%u", m->hello.p);
	col(c, "%u", m->hello.a);
	col(c, "%u", m->hello.h);
	col(c, "%u", m->hello.t);
	col(c, "0x%08" PRIx32, m->hello.cfg_hash);
	pad_col(c, pad);
	col(c, "%s", "");
	row_end(c);
}

static void ack_frame(const struct dfly_wire_ctrl *m, uint16_t vid, size_t pad_to)
{
	struct check *c = &X.ack;
	size_t pad = ctrl_frame(c, m, vid, pad_to);

	col(c, "%" PRIu32, m->ack.ack);
	col(c, "0x%02x", m->ack.flags);
	col(c, "%u", m->ack.flags & DFLY_WIRE_ACK_F_NAK);
	col(c, "000000");
	col(c, "%" PRIu64, m->ack.taken);
	pad_col(c, pad);
	col(c, "%s", "");
	row_end(c);
}

static void ls_frame(const struct dfly_wire_ctrl *m, size_t pad_to)
{
	struct check *c = &X.ls;
	size_t pad = ctrl_frame(c, m, 0, pad_to);

	col(c, "%u", m->ls.h);
	col(c, "%u", m->ls.n);
	col(c, "0x%04x", m->ls.down);
	if (m->ls.n == 0) {
		for (int k = 0; k < 4; k++)
			col(c, "%s", "");
	}
	for (unsigned i = 0; i < m->ls.n; i++)
		more(
		    c, i == 0, "0x%08x",
		    (unsigned)(m->ls.e[i].a | m->ls.e[i].b << 11 | (unsigned)m->ls.e[i].ttl << 22));
	for (unsigned i = 0; i < m->ls.n; i++)
		more(c, i == 0, "%u", m->ls.e[i].a);
	for (unsigned i = 0; i < m->ls.n; i++)
		more(c, i == 0, "%u", m->ls.e[i].b);
	for (unsigned i = 0; i < m->ls.n; i++)
		more(c, i == 0, "%u", m->ls.e[i].ttl);
	pad_col(c, pad);
	col(c, "%s", "");
	row_end(c);
}

static void ctrl_frames(void)
{
	struct dfly_wire_ctrl m;

	/* CREDIT: one entry, a mix of min and absolute entries, a full frame (also padded) */
	memset(&m, 0, sizeof(m));
	m.type = DFLY_WIRE_CTRL_CREDIT;
	m.src_router = 3;
	m.credit.n = 1;
	m.credit.due = 4242;
	m.credit.e[0] = (struct dfly_wire_credit){.vc = 2, .flags = 0, .phits = 8};
	credit_frame(&m, 0);
	m.credit.e[0].flags = DFLY_WIRE_CREDIT_F_MIN;
	m.credit.due = DFLY_WIRE_CREDIT_NO_DUE;
	credit_frame(&m, 60);
	m.src_router = 35;
	m.credit.n = 4;
	m.credit.e[1] =
	    (struct dfly_wire_credit){.vc = 0, .flags = DFLY_WIRE_CREDIT_F_ABS, .phits = 0};
	m.credit.e[2] = (struct dfly_wire_credit){
	    .vc = 7, .flags = DFLY_WIRE_CREDIT_F_ABS | DFLY_WIRE_CREDIT_F_MIN, .phits = 65535};
	m.credit.e[3] = (struct dfly_wire_credit){.vc = 1, .flags = 0, .phits = 1};
	credit_frame(&m, 0);
	m.credit.n = DFLY_WIRE_CREDIT_MAX;
	for (unsigned i = 0; i < m.credit.n; i++)
		m.credit.e[i] = (struct dfly_wire_credit){.vc = (uint8_t)(i % 8),
							  .flags = (uint8_t)(i % 4),
							  .phits = (uint16_t)(i * 97 + 1)};
	credit_frame(&m, 0);

	/* PB_STATE: whole bytes, padding bits, the largest */
	memset(&m, 0, sizeof(m));
	m.type = DFLY_WIRE_CTRL_PB_STATE;
	m.src_router = 4;
	m.pb.h = 2;
	m.pb.vg = 4;
	m.pb.sat[0] = 0x5;
	m.pb.sat[1] = 0x8;
	pb_frame(&m);
	m.pb.h = 3;
	m.pb.vg = 3;
	m.pb.sat[0] = 0x7;
	m.pb.sat[1] = 0x0;
	m.pb.sat[2] = 0x6;
	pb_frame(&m);
	m.pb.h = 1;
	m.pb.vg = 1;
	m.pb.sat[0] = 1;
	pb_frame(&m);
	m.pb.h = DFLY_MAX_H;
	m.pb.vg = DFLY_MAX_VCS;
	for (unsigned q = 0; q < DFLY_MAX_H; q++)
		m.pb.sat[q] = (uint8_t)(q * 37 + 1);
	pb_frame(&m);

	/* ECTN_PARTIAL: FULL (even n, odd n, the largest n, saturation), SPARSE and DELTA */
	memset(&m, 0, sizeof(m));
	m.type = DFLY_WIRE_CTRL_ECTN_PARTIAL;
	m.src_router = 6;
	m.ectn.epoch = 17;
	m.ectn.format = DFLY_WIRE_ECTN_FULL;
	m.ectn.n = 8;
	for (unsigned k = 0; k < 8; k++)
		m.ectn.ctr[k] = (uint8_t)(k * 2 + 1);
	ectn_frame(&m);
	m.ectn.n = 9;
	m.ectn.epoch = 255;
	m.ectn.ctr[8] = 200; /* written as 15 */
	ectn_frame(&m);
	m.ectn.n = DFLY_WIRE_ECTN_MAX;
	m.ectn.epoch = 0;
	for (unsigned k = 0; k < DFLY_WIRE_ECTN_MAX; k++)
		m.ectn.ctr[k] = (uint8_t)(k * 7 % 16);
	ectn_frame(&m);

	memset(&m.ectn, 0, sizeof(m.ectn));
	m.ectn.format = DFLY_WIRE_ECTN_SPARSE;
	m.ectn.epoch = 3;
	m.ectn.n = 9;
	ectn_frame(&m); /* all zero: no entries */
	dfly_wire_ectn_add(&m.ectn, 0, 4);
	dfly_wire_ectn_add(&m.ectn, 5, 15);
	dfly_wire_ectn_add(&m.ectn, 8, 1);
	ectn_frame(&m);

	memset(&m.ectn, 0, sizeof(m.ectn));
	m.ectn.format = DFLY_WIRE_ECTN_DELTA;
	m.ectn.epoch = 4;
	m.ectn.n = 9;
	ectn_frame(&m); /* nothing changed */
	dfly_wire_ectn_add(&m.ectn, 2, 0);
	dfly_wire_ectn_add(&m.ectn, 3, 9);
	ectn_frame(&m);
	memset(&m.ectn, 0, sizeof(m.ectn));
	m.ectn.format = DFLY_WIRE_ECTN_DELTA;
	m.ectn.epoch = 5;
	m.ectn.n = DFLY_WIRE_ECTN_MAX;
	for (unsigned i = 0; i < DFLY_WIRE_ECTN_LIST_MAX; i++)
		dfly_wire_ectn_add(&m.ectn, i * 3 + 1, (uint8_t)(i % 16));
	ectn_frame(&m);

	/* HELLO: both arrangements and orientations, with and without a configuration hash */
	memset(&m, 0, sizeof(m));
	m.type = DFLY_WIRE_CTRL_HELLO;
	m.src_router = 11;
	m.hello = (struct dfly_wire_hello){.port = 3,
					   .arr = DFLY_ARR_PALMTREE,
					   .sigma = 1,
					   .p = 2,
					   .a = 4,
					   .h = 2,
					   .t = 1,
					   .cfg_hash = 0};
	hello_frame(&m);
	m.src_router = 1023;
	m.hello = (struct dfly_wire_hello){.port = 40,
					   .arr = DFLY_ARR_CONSECUTIVE,
					   .sigma = -1,
					   .p = 8,
					   .a = 16,
					   .h = 8,
					   .t = 2,
					   .cfg_hash = 0xdeadbeef};
	hello_frame(&m);

	/* ACK: ack, NAK, padded to the Ethernet minimum, behind a tag */
	memset(&m, 0, sizeof(m));
	m.type = DFLY_WIRE_CTRL_ACK;
	m.src_router = 2;
	m.ack.ack = 12345;
	m.ack.taken = 987654321;
	ack_frame(&m, 0, 0);
	m.ack.ack = UINT32_MAX;
	m.ack.flags = DFLY_WIRE_ACK_F_NAK;
	m.ack.taken = DFLY_WIRE_ACK_NONE;
	ack_frame(&m, 0, 60);
	m.ack.ack = 0;
	m.ack.taken = 0;
	ack_frame(&m, 7, 64);

	/* LINK_STATE: a router back up (nothing down, padded), one with its own link and relays,
	 * the largest (64 entries, the widest group ids) */
	memset(&m, 0, sizeof(m));
	m.type = DFLY_WIRE_CTRL_LINK_STATE;
	m.src_router = 6;
	m.ls.h = 2;
	ls_frame(&m, 60);
	m.ls.down = 0x2;
	m.ls.n = 2;
	m.ls.e[0] = (struct dfly_wire_fail_pair){.a = 1, .b = 4, .ttl = 3};
	m.ls.e[1] = (struct dfly_wire_fail_pair){.a = 0, .b = 8, .ttl = 1};
	ls_frame(&m, 0);
	m.ls.n = DFLY_WIRE_FAIL_MAX;
	for (unsigned i = 0; i < m.ls.n; i++)
		m.ls.e[i] =
		    (struct dfly_wire_fail_pair){.a = (uint16_t)(i % 8),
						 .b = 8,
						 .ttl = (uint8_t)(1 + i % DFLY_WIRE_FAIL_TTL_MAX)};
	ls_frame(&m, 0);
}

/* ---- metadata records ------------------------------------------------------------------- */

/** A metadata header (trace.h), host order. */
struct meta {
	uint8_t point;     /**< enum dfly_trace_point */
	uint32_t router;   /**< router */
	uint16_t port;     /**< port */
	uint8_t vc;        /**< VC */
	uint8_t kind;      /**< enum dfly_port_kind */
	uint64_t cycle;    /**< emulated cycle */
	uint16_t decision; /**< enum dfly_route_ctr or DFLY_TRACE_NONE */
	uint16_t trigger;  /**< enum dfly_route_ctr or DFLY_TRACE_NONE */
	uint16_t drop;     /**< enum dfly_drop or DFLY_TRACE_NONE */
	uint8_t flags;     /**< DFLY_TRACE_F_* */
	uint8_t level;     /**< enum dfly_lia_level or 0xff */
	int32_t q_min;     /**< Q_min or -1 */
	int32_t q_val;     /**< Q_val or -1 */
	int32_t t;         /**< T */
	uint16_t cc;       /**< contention counter or DFLY_TRACE_NONE */
	uint16_t combined; /**< ECtN combined or DFLY_TRACE_NONE */
};

static void meta_put(uint8_t *b, const struct meta *m)
{
	put32(b + 0, DFLY_TRACE_MAGIC);
	b[4] = DFLY_TRACE_VERSION;
	b[5] = m->point;
	put16(b + 6, DFLY_TRACE_META_LEN);
	put32(b + 8, m->router);
	put16(b + 12, m->port);
	b[14] = m->vc;
	b[15] = m->kind;
	put32(b + 16, (uint32_t)(m->cycle >> 32));
	put32(b + 20, (uint32_t)m->cycle);
	put16(b + 24, m->decision);
	put16(b + 26, m->trigger);
	put16(b + 28, m->drop);
	b[30] = m->flags;
	b[31] = m->level;
	put32(b + 32, (uint32_t)m->q_min);
	put32(b + 36, (uint32_t)m->q_val);
	put32(b + 40, (uint32_t)m->t);
	put16(b + 44, m->cc);
	put16(b + 46, m->combined);
}

/** A frame inside a metadata record. */
struct inner {
	bool is_data;            /**< data frame, else control */
	struct dfly_wire_data d; /**< is_data */
	struct dfly_wire_ctrl m; /**< !is_data */
};

#define INNER_MAX 12
static struct inner inners[INNER_MAX];
static unsigned n_inners;

static void inners_init(void)
{
	struct inner *in;

	for (unsigned i = 0; i < 3; i++) {
		in = &inners[n_inners++];
		in->is_data = true;
		in->d.type = DFLY_WIRE_PKT_SYNTH;
		in->d.flags = (uint8_t)(i == 1 ? DFLY_WIRE_F_NONMIN : 0);
		in->d.size_phits = (uint16_t)(4 + i);
		in->d.src_node = 100 + i;
		in->d.dst_node = 200 + 3 * i;
		in->d.via_router = i == 1 ? 7 : DFLY_WIRE_NO_ROUTER;
		in->d.payload_len = (uint16_t)(i * 8);
	}
	in = &inners[n_inners++];
	in->is_data = true;
	in->d.type = DFLY_WIRE_PKT_INFO;
	in->d.flags = DFLY_WIRE_F_PB;
	in->d.pb_vec = 3;
	in->d.size_phits = 1;
	in->d.src_node = 4;
	in->d.dst_node = 5;
	in->d.via_router = DFLY_WIRE_NO_ROUTER;

	in = &inners[n_inners++];
	in->m.type = DFLY_WIRE_CTRL_CREDIT;
	in->m.src_router = 9;
	in->m.credit.n = 1;
	in->m.credit.e[0] = (struct dfly_wire_credit){.vc = 1, .flags = 1, .phits = 4};
	in = &inners[n_inners++];
	in->m.type = DFLY_WIRE_CTRL_PB_STATE;
	in->m.src_router = 10;
	in->m.pb.h = 2;
	in->m.pb.vg = 2;
	in->m.pb.sat[1] = 2;
	for (unsigned f = 0; f < DFLY_WIRE_ECTN_FMT_COUNT; f++) {
		in = &inners[n_inners++];
		in->m.type = DFLY_WIRE_CTRL_ECTN_PARTIAL;
		in->m.src_router = 11 + f;
		in->m.ectn.format = (uint8_t)f;
		in->m.ectn.n = 9;
		dfly_wire_ectn_add(&in->m.ectn, 4, 6);
	}
	for (unsigned a = 0; a < NAMES_LEN(arrangement_names); a++) {
		in = &inners[n_inners++];
		in->m.type = DFLY_WIRE_CTRL_HELLO;
		in->m.src_router = 20 + a;
		in->m.hello = (struct dfly_wire_hello){
		    .port = 2, .arr = (uint8_t)a, .sigma = 1, .p = 2, .a = 4, .h = 2, .t = 1};
	}
	in = &inners[n_inners++];
	in->m.type = DFLY_WIRE_CTRL_ACK;
	in->m.src_router = 30;
	in->m.ack.ack = 99;
	if (n_inners > INNER_MAX)
		die("too many inner frames");
}

#define META_FIELDS                                                                                \
	"frame.number frame.time_epoch dfly.meta.magic dfly.meta.version dfly.meta.point "         \
	"dfly.meta.hdr_len dfly.meta.router dfly.meta.port dfly.meta.vc dfly.meta.port_kind "      \
	"dfly.meta.cycle dfly.meta.decision dfly.meta.trigger dfly.meta.drop_reason "              \
	"dfly.meta.flags dfly.meta.nonmin dfly.meta.valiant dfly.meta.phase1 dfly.meta.sat "       \
	"dfly.meta.l1 dfly.meta.l2 dfly.meta.flags.reserved dfly.meta.level dfly.meta.q_min "      \
	"dfly.meta.q_val dfly.meta.t dfly.meta.cc dfly.meta.ectn_combined eth.type dfly.type "     \
	"dfly.src_node dfly.dst_node dfly.payload_len dfly.payload dfly.ctrl.type "                \
	"dfly.ctrl.src_router _ws.expert.message"

/* Write a record: @p m, then inner frame @p in cut to @p cut bytes (0: whole). */
static void meta_record(const struct meta *m, const struct inner *in, size_t cut)
{
	uint8_t b[BUF_LEN];
	size_t len, caplen;
	uint64_t ns = m->cycle * CYCLE_NS;
	struct check *c = &X.meta_ck;
	unsigned fno;
	const char *lv;

	meta_put(b, m);
	if (in->is_data) {
		uint8_t payload[BUF_LEN];

		for (size_t i = 0; i < in->d.payload_len; i++)
			payload[i] = payload_byte(i);
		len = DFLY_TRACE_META_LEN + enc_data(b + DFLY_TRACE_META_LEN, &in->d, payload);
	} else {
		len = DFLY_TRACE_META_LEN + enc_ctrl(b + DFLY_TRACE_META_LEN, &in->m);
	}
	caplen = cut != 0 ? DFLY_TRACE_META_LEN + cut : len;
	fno = dump_cut(&X.meta, m->cycle, b, caplen, len);

	col(c, "%u", fno);
	col(c, "%" PRIu64 ".%09" PRIu64, ns / 1000000000u, ns % 1000000000u);
	col(c, "0x%08x", DFLY_TRACE_MAGIC);
	col(c, "%u", DFLY_TRACE_VERSION);
	col(c, "%u", m->point);
	col(c, "%u", DFLY_TRACE_META_LEN);
	col(c, "%" PRIu32, m->router);
	col(c, "%u", m->port);
	col(c, "%u", m->vc);
	col(c, "%u", m->kind);
	col(c, "%" PRIu64, m->cycle);
	col(c, "%u", m->decision);
	col(c, "%u", m->trigger);
	col(c, "%u", m->drop);
	col(c, "0x%02x", m->flags);
	for (unsigned bit = 0; bit < 6; bit++)
		col(c, "%u", m->flags >> bit & 1);
	col(c, "0x00");
	col(c, "%u", m->level);
	col(c, "%" PRId32, m->q_min);
	col(c, "%" PRId32, m->q_val);
	col(c, "%" PRId32, m->t);
	col(c, "%u", m->cc);
	col(c, "%u", m->combined);
	if (in->is_data) {
		size_t captured = in->d.payload_len;

		if (cut != 0)
			captured = cut > DFLY_WIRE_ETH_LEN + DFLY_WIRE_DATA_HDR_LEN
				       ? cut - DFLY_WIRE_ETH_LEN - DFLY_WIRE_DATA_HDR_LEN
				       : 0;
		col(c, "0x88b5");
		col(c, "%u", in->d.type);
		col(c, "%" PRIu32, in->d.src_node);
		col(c, "%" PRIu32, in->d.dst_node);
		col(c, "%u", in->d.payload_len);
		if (captured > 0) {
			uint8_t payload[BUF_LEN];

			for (size_t i = 0; i < captured; i++)
				payload[i] = payload_byte(i);
			hex_col(c, payload, captured);
		} else {
			col(c, "%s", "");
		}
		col(c, "%s", "");
		col(c, "%s", "");
	} else {
		col(c, "0x88b6");
		for (unsigned i = 0; i < 5; i++)
			col(c, "%s", "");
		col(c, "%u", in->m.type);
		col(c, "%" PRIu32, in->m.src_router);
	}
	col(c, "%s", "");
	row_end(c);

	/* the names the tree shows, in tree order */
	names_line(&X.names, "Capture point", trace_point_names[m->point], m->point);
	names_line(&X.names, "Port kind", port_kind_names[m->kind], m->kind);
	names_line(&X.names, "Decision",
		   m->decision == DFLY_TRACE_NONE ? "none" : dfly_route_ctr_names[m->decision],
		   m->decision);
	names_line(&X.names, "Trigger",
		   m->trigger == DFLY_TRACE_NONE ? "none" : dfly_route_ctr_names[m->trigger],
		   m->trigger);
	names_line(&X.names, "Drop reason",
		   m->drop == DFLY_TRACE_NONE ? "none" : dfly_drop_names[m->drop], m->drop);
	lv = m->level == 0xff ? "none" : lia_level_names[m->level];
	names_line(&X.names, "LIA level", lv, m->level);
	if (in->is_data) {
		names_line(&X.names, "Packet type", dfly_wire_pkt_name(in->d.type), in->d.type);
	} else {
		names_line(&X.names, "Control type", dfly_wire_ctrl_name(in->m.type), in->m.type);
		if (in->m.type == DFLY_WIRE_CTRL_ECTN_PARTIAL)
			names_line(&X.names, "ECtN format", ectn_fmt_names[in->m.ectn.format],
				   in->m.ectn.format);
		if (in->m.type == DFLY_WIRE_CTRL_HELLO)
			names_line(&X.names, "Arrangement", arrangement_names[in->m.hello.arr],
				   in->m.hello.arr);
	}
}

static void meta_records(void)
{
	static const uint16_t triggers[] = {
	    DFLY_TRACE_NONE,          DFLY_ROUTE_CC_TRIG_CONTENTION, DFLY_ROUTE_CC_TRIG_CREDIT,
	    DFLY_ROUTE_CC_TRIG_ECTN,  DFLY_ROUTE_LIA_LEVEL_BENIGN,   DFLY_ROUTE_LIA_LEVEL_MIX,
	    DFLY_ROUTE_LIA_LEVEL_ADV,
	};
	static const uint8_t levels[] = {DFLY_LIA_BENIGN, DFLY_LIA_MIX, DFLY_LIA_ADV, 0xff};
	static const uint8_t live_points[] = {DFLY_TRACE_HOST_RX, DFLY_TRACE_HOST_TX,
					      DFLY_TRACE_PORT_RX, DFLY_TRACE_PORT_TX,
					      DFLY_TRACE_VC_ENQ};
	unsigned r = 0;
	struct meta m;

	_Static_assert(sizeof(live_points) + 1 == DFLY_TRACE_POINT_COUNT,
		       "every capture point but DROP");
	/* every point with no decision */
	for (unsigned p = 0; p < sizeof(live_points); p++, r++) {
		memset(&m, 0, sizeof(m));
		m.point = live_points[p];
		m.router = p;
		m.port = (uint16_t)(p * 3);
		m.kind = (uint8_t)(p % 3);
		m.cycle = next_cycle();
		m.decision = m.trigger = m.drop = DFLY_TRACE_NONE;
		m.level = 0xff;
		m.q_min = m.q_val = -1;
		m.cc = m.combined = DFLY_TRACE_NONE;
		meta_record(&m, &inners[r % n_inners], 0);
	}
	/* every route counter as a decision, with every trigger, level, flag bit */
	for (unsigned d = 0; d < DFLY_ROUTE_CTR_COUNT; d++, r++) {
		memset(&m, 0, sizeof(m));
		m.point = live_points[d % sizeof(live_points)];
		m.router = 1000 + d;
		m.port = (uint16_t)(d % 9);
		m.vc = (uint8_t)(d % 4);
		m.kind = (uint8_t)(d % 3);
		m.cycle = next_cycle();
		m.decision = (uint16_t)d;
		m.trigger = triggers[d % NAMES_LEN(triggers)];
		m.drop = DFLY_TRACE_NONE;
		m.flags = (uint8_t)(d * 11 % 64);
		m.level = levels[d % sizeof(levels)];
		m.q_min = d % 5 == 0 ? -1 : (int32_t)(d * 7);
		m.q_val = d % 4 == 0 ? -1 : (int32_t)(d * 3 + 1);
		m.t = d % 3 == 0 ? 0 : (int32_t)d * 10 - 100;
		m.cc = d % 2 == 0 ? DFLY_TRACE_NONE : (uint16_t)d;
		m.combined = d % 3 == 1 ? DFLY_TRACE_NONE : (uint16_t)(d * 2);
		meta_record(&m, &inners[r % n_inners], 0);
	}
	/* every route counter as a trigger */
	for (unsigned d = 0; d < DFLY_ROUTE_CTR_COUNT; d++, r++) {
		memset(&m, 0, sizeof(m));
		m.point = DFLY_TRACE_PORT_TX;
		m.router = d;
		m.port = 4;
		m.kind = DFLY_PORT_GLOBAL;
		m.cycle = next_cycle();
		m.decision = DFLY_ROUTE_SRC_NONMIN_UGAL;
		m.trigger = (uint16_t)d;
		m.drop = DFLY_TRACE_NONE;
		m.level = DFLY_LIA_MIX;
		m.q_min = 10;
		m.q_val = 2;
		m.t = 5;
		m.cc = 1;
		m.combined = 2;
		meta_record(&m, &inners[r % n_inners], 0);
	}
	/* every drop reason */
	for (unsigned d = 0; d < DFLY_DROP_COUNT; d++, r++) {
		memset(&m, 0, sizeof(m));
		m.point = DFLY_TRACE_DROP;
		m.router = 7;
		m.port = (uint16_t)d;
		m.vc = (uint8_t)(d % 3);
		m.kind = (uint8_t)(d % 3);
		m.cycle = next_cycle();
		m.decision = d % 2 ? DFLY_TRACE_NONE : DFLY_ROUTE_INJ_MIN;
		m.trigger = DFLY_TRACE_NONE;
		m.drop = (uint16_t)d;
		m.level = 0xff;
		m.q_min = m.q_val = -1;
		m.cc = m.combined = DFLY_TRACE_NONE;
		meta_record(&m, &inners[r % n_inners], 0);
	}
	/* the largest values; a data frame cut to the snap length (dfly sim: zero payload) */
	memset(&m, 0, sizeof(m));
	m.point = DFLY_TRACE_PORT_TX;
	m.router = UINT32_MAX;
	m.port = UINT16_MAX - 1;
	m.vc = UINT8_MAX;
	m.kind = DFLY_PORT_LOCAL;
	m.cycle = (1ull << 60) + 12345; /* 64 bits; the pcap header holds 32-bit seconds */
	m.decision = DFLY_ROUTE_EJECT;
	m.trigger = DFLY_TRACE_NONE;
	m.drop = DFLY_TRACE_NONE;
	m.flags = 0x3f;
	m.level = DFLY_LIA_ADV;
	m.q_min = INT32_MAX;
	m.q_val = INT32_MIN;
	m.t = -1;
	m.cc = UINT16_MAX - 1;
	m.combined = 0;
	{
		struct inner in = {.is_data = true};

		in.d.type = DFLY_WIRE_PKT_SYNTH;
		in.d.size_phits = 20;
		in.d.src_node = 1;
		in.d.dst_node = 2;
		in.d.via_router = DFLY_WIRE_NO_ROUTER;
		in.d.payload_len = 300;
		meta_record(&m, &in, DFLY_WIRE_ETH_LEN + DFLY_WIRE_DATA_HDR_LEN + 6);
	}
}

/* ---- BUNDLE frames (bundle.pcap) -------------------------------------------------------- */

static void bad_frame(const uint8_t *b, size_t len, const char *want, const char *what);

#define BUNDLE_FIELDS                                                                              \
	"frame.number vlan.id dfly.bundle.version dfly.bundle.reserved dfly.bundle.n "             \
	"dfly.ctrl.type dfly.ctrl.src_router dfly.ctrl.body_len dfly.bundle.padding "              \
	"_ws.expert.message"

/* A BUNDLE of the @p n frames @p m, built with the codec. */
static size_t bundle_build(uint8_t *b, const struct dfly_wire_ctrl *m, unsigned n)
{
	uint8_t f[BUF_LEN];
	int len = dfly_wire_bundle_start(b, BUF_LEN, &ETH);

	for (unsigned i = 0; i < n && len > 0; i++) {
		size_t fl = enc_ctrl(f, &m[i]);

		len = dfly_wire_bundle_add(b, BUF_LEN, (size_t)len, f, fl);
	}
	if (len < 0)
		die("bundle: %s", dfly_wire_err_name(len));
	return (size_t)len;
}

static void bundle_frame(const struct dfly_wire_ctrl *m, unsigned n, uint16_t vid, size_t pad_to)
{
	struct check *c = &X.bundle;
	uint8_t b[BUF_LEN], f[BUF_LEN];
	size_t pad = frame_out(c, &X.bundles, b, bundle_build(b, m, n), vid, pad_to);

	col(c, "%u", DFLY_WIRE_VERSION);
	col(c, "0x00");
	col(c, "%u", n);
	for (unsigned i = 0; i < n; i++)
		more(c, i == 0, "%u", m[i].type);
	for (unsigned i = 0; i < n; i++)
		more(c, i == 0, "%" PRIu32, m[i].src_router);
	for (unsigned i = 0; i < n; i++)
		more(c, i == 0, "%zu",
		     enc_ctrl(f, &m[i]) - DFLY_WIRE_ETH_LEN - DFLY_WIRE_CTRL_HDR_LEN);
	pad_col(c, pad);
	col(c, "%s", "");
	row_end(c);
}

/* The firmware frames a router sends on one port: PB_STATE, ECTN_PARTIAL, LINK_STATE. */
static void bundle_msgs(struct dfly_wire_ctrl *m)
{
	memset(m, 0, 4 * sizeof(*m));
	m[0].type = DFLY_WIRE_CTRL_PB_STATE;
	m[0].src_router = 9;
	m[0].pb.h = (uint8_t)LIM.h;
	m[0].pb.vg = 2;
	m[0].pb.sat[0] = 2;
	m[1] = m[0];
	m[1].pb.sat[0] = 0;
	m[1].pb.sat[LIM.h - 1] = 3;
	m[2].type = DFLY_WIRE_CTRL_ECTN_PARTIAL;
	m[2].src_router = 9;
	m[2].ectn.epoch = 7;
	m[2].ectn.format = DFLY_WIRE_ECTN_FULL;
	m[2].ectn.n = (uint16_t)(LIM.a * LIM.h / LIM.t);
	for (unsigned k = 0; k < m[2].ectn.n; k++)
		m[2].ectn.ctr[k] = (uint8_t)(k % 16);
	m[3].type = DFLY_WIRE_CTRL_LINK_STATE;
	m[3].src_router = 9;
	m[3].ls.h = (uint8_t)LIM.h;
	m[3].ls.n = 1;
	m[3].ls.down = 1;
	m[3].ls.e[0] = (struct dfly_wire_fail_pair){.a = 1, .b = 4, .ttl = 3};
}

static void bundle_frames(void)
{
	struct dfly_wire_ctrl m[4];

	bundle_msgs(m);
	bundle_frame(m, 2, 0, 0);      /* two PB_STATE, short: no padding */
	bundle_frame(m, 2, 0, 60);     /* the same padded by a NIC */
	bundle_frame(m, 4, 0, 0);      /* every firmware frame */
	bundle_frame(m + 2, 2, 12, 0); /* ECTN_PARTIAL and LINK_STATE behind a tag */
	bundle_frame(m + 1, 1, 0, 0);  /* one record (the sender never makes one, a peer may) */
}

static void malformed_bundle(void)
{
	struct dfly_wire_ctrl m[4];
	uint8_t b[BUF_LEN], f[BUF_LEN];
	size_t len, rec0;

	bundle_msgs(m);
	rec0 = enc_ctrl(f, &m[0]) - OFF; /* the first record's bytes */
	len = bundle_build(b, m, 3);
	bad_frame(b, OFF + 3, "truncated", "bundle header cut");
	b[OFF] = 1;
	bad_frame(b, len, "bad_version", "bundle version 1");
	b[OFF] = DFLY_WIRE_VERSION;
	b[OFF + 1] = 0x80;
	bad_frame(b, len, "reserved", "bundle reserved byte");
	b[OFF + 1] = 0;
	put16(b + OFF + 2, 0);
	bad_frame(b, len, "bad_count", "bundle of no record");
	put16(b + OFF + 2, 4);
	bad_frame(b, len, "bad_count", "bundle n above its records");
	put16(b + OFF + 2, 3);
	b[OFF + DFLY_WIRE_BUNDLE_HDR_LEN + rec0] = 9;
	bad_frame(b, len, "bad_version", "bundle record version 9");
	b[OFF + DFLY_WIRE_BUNDLE_HDR_LEN + rec0] = DFLY_WIRE_VERSION;
	bad_frame(b, OFF + DFLY_WIRE_BUNDLE_HDR_LEN + rec0 + 5, "truncated",
		  "bundle record header cut");
	bad_frame(b, len - 1, "truncated", "bundle record body cut");
	memset(b + len, 0, 8);
	bad_frame(b, len + 8, "bad_count", "bundle tail beyond the padding");
	b[OFF + DFLY_WIRE_BUNDLE_HDR_LEN + rec0 + 1] = DFLY_WIRE_CTRL_COUNT;
	bad_frame(b, len, "bad_type", "bundle record of an unknown type");
}

/* ---- malformed frames ------------------------------------------------------------------- */

/* Write a malformed frame; the decoder must name it @p want (a fixture error otherwise). */
static void bad_frame(const uint8_t *b, size_t len, const char *want, const char *what)
{
	enum dfly_wire_class cls = dfly_wire_classify(b, len);
	struct dfly_wire_data d;
	struct dfly_wire_ctrl m;
	int rc;
	unsigned fno;

	if (cls == DFLY_WIRE_CLASS_DATA)
		rc = dfly_wire_data_decode(b, len, &LIM, &d);
	else if (cls == DFLY_WIRE_CLASS_CTRL)
		rc = dfly_wire_ctrl_decode(b, len, &LIM, &m);
	else if (cls == DFLY_WIRE_CLASS_BUNDLE) {
		/* its framing, then its records in order: the first error of either */
		struct dfly_wire_bundle_iter it;
		uint8_t r[BUF_LEN];
		int n;

		rc = dfly_wire_bundle_open(b, len, &it);
		while (rc >= 0 && (n = dfly_wire_bundle_next(&it, r, sizeof(r))) > 0)
			rc = dfly_wire_ctrl_decode(r, (size_t)n, &LIM, &m);
		if (rc > 0)
			rc = 0;
	} else
		die("%s: not a fabric frame", what);
	if (rc == 0 || strcmp(dfly_wire_err_name(rc), want) != 0)
		die("%s: decoder says %s, fixture wants %s", what, dfly_wire_err_name(rc), want);
	fno = dump(&X.bad, next_cycle(), b, len);
	fprintf(X.malformed.f, "%u\t%s\n", fno, want);
}

static void data_base(struct dfly_wire_data *d)
{
	memset(d, 0, sizeof(*d));
	d->type = DFLY_WIRE_PKT_SYNTH;
	d->size_phits = 2;
	d->src_node = 1;
	d->dst_node = 2;
	d->via_router = DFLY_WIRE_NO_ROUTER;
	d->payload_len = 4;
}

/* Encode @p d, set byte @p off after the EtherType to @p v (off < 0: no change). */
static size_t data_mut(uint8_t *b, const struct dfly_wire_data *d, int off, uint8_t v)
{
	size_t len = enc_data(b, d, NULL);

	if (off >= 0)
		b[OFF + off] = v;
	return len;
}

static void malformed_data(void)
{
	uint8_t b[BUF_LEN] = {0};
	struct dfly_wire_data d;
	size_t len;

	data_base(&d);
	len = data_mut(b, &d, -1, 0);
	bad_frame(b, OFF + 30, "truncated", "data header cut");
	bad_frame(b, OFF + 50, "truncated", "payload cut");
	data_mut(b, &d, 0, 1);
	bad_frame(b, len, "bad_version", "data version 1");
	data_mut(b, &d, 1, 0);
	bad_frame(b, len, "bad_type", "data type 0");
	data_mut(b, &d, 1, DFLY_WIRE_PKT_COUNT);
	bad_frame(b, len, "bad_type", "data type past the last");
	data_mut(b, &d, 43, 1);
	bad_frame(b, len, "reserved", "data reserved byte");
	data_mut(b, &d, 35, 1);
	bad_frame(b, len, "reserved", "PB vector without the PB flag");
	data_mut(b, &d, 3, DFLY_WIRE_MAX_GLOBAL_HOPS + 1);
	bad_frame(b, len, "bad_hops", "global hops");
	data_mut(b, &d, 4, DFLY_WIRE_MAX_LOCAL_HOPS + 1);
	bad_frame(b, len, "bad_hops", "local hops");
	data_mut(b, &d, 7, 0);
	bad_frame(b, len, "bad_size", "size 0");
	data_mut(b, &d, -1, 0);
	bad_frame(b, len + 3, "bad_size", "bytes after the payload");

	d.type = DFLY_WIRE_PKT_INFO;
	d.size_phits = 1;
	d.payload_len = 0;
	len = data_mut(b, &d, 7, 2);
	bad_frame(b, len, "bad_size", "info flit of 2 phits");
	d.type = DFLY_WIRE_PKT_RES_REQ;
	d.size_phits = 1;
	d.payload_len = DFLY_WIRE_RES_LEN;
	len = data_mut(b, &d, 41, 4);
	bad_frame(b, len - 8, "bad_size", "RES flit with a 4-byte body");
	d.type = DFLY_WIRE_PKT_HOST;
	d.payload_len = 20;
	len = data_mut(b, &d, 41, 10);
	bad_frame(b, len - 10, "bad_size", "host payload shorter than an Ethernet header");
}

/* Encode @p m, set body byte @p off to @p v (off < 0: no change). */
static size_t ctrl_mut(uint8_t *b, const struct dfly_wire_ctrl *m, int off, uint8_t v)
{
	size_t len = enc_ctrl(b, m);

	if (off >= 0)
		b[OFF + DFLY_WIRE_CTRL_HDR_LEN + off] = v;
	return len;
}

/* Set the control header's body_len of an encoded frame. */
static void set_body_len(uint8_t *b, uint16_t n)
{
	put16(b + OFF + 2, n);
}

static void malformed_ctrl(void)
{
	uint8_t b[BUF_LEN] = {0};
	struct dfly_wire_ctrl m;
	size_t len;

	/* header */
	memset(&m, 0, sizeof(m));
	m.type = DFLY_WIRE_CTRL_ACK;
	m.src_router = 1;
	len = ctrl_mut(b, &m, -1, 0);
	bad_frame(b, OFF + 5, "truncated", "control header cut");
	b[OFF] = 0;
	bad_frame(b, len, "bad_version", "control version 0");
	ctrl_mut(b, &m, -1, 0);
	b[OFF + 1] = 0;
	bad_frame(b, len, "bad_type", "control type 0");
	b[OFF + 1] = DFLY_WIRE_CTRL_COUNT;
	bad_frame(b, len, "bad_type", "control type past the last");
	ctrl_mut(b, &m, -1, 0);
	bad_frame(b, len - 4, "truncated", "ACK body cut");
	set_body_len(b, 12);
	bad_frame(b, len - 4, "bad_count", "ACK body of 12 bytes");
	ctrl_mut(b, &m, -1, 0);
	bad_frame(b, OFF + 47, "bad_count", "tail beyond the Ethernet padding");
	ctrl_mut(b, &m, 4, 0x02);
	bad_frame(b, len, "reserved", "ACK flag bit 1");
	ctrl_mut(b, &m, 6, 1);
	bad_frame(b, len, "reserved", "ACK reserved byte");

	/* CREDIT */
	memset(&m, 0, sizeof(m));
	m.type = DFLY_WIRE_CTRL_CREDIT;
	m.src_router = 2;
	m.credit.n = 2;
	m.credit.e[0] = (struct dfly_wire_credit){.vc = 1, .phits = 3};
	m.credit.e[1] = (struct dfly_wire_credit){.vc = 2, .phits = 4};
	len = ctrl_mut(b, &m, 0, 3);
	bad_frame(b, len, "bad_count", "credit n 3 in a body for 2");
	ctrl_mut(b, &m, -1, 0);
	set_body_len(b, 2);
	bad_frame(b, len, "bad_count", "credit body_len 2");
	ctrl_mut(b, &m, 0, 0);
	bad_frame(b, len, "bad_count", "credit n 0");
	ctrl_mut(b, &m, 2, 1);
	bad_frame(b, len, "reserved", "credit reserved byte");
	ctrl_mut(b, &m, 12 + 4 + 1, 0x04);
	bad_frame(b, len, "reserved", "credit entry flag bit 2");
	ctrl_mut(b, &m, 12 + 3, 0);
	bad_frame(b, len, "bad_size", "credit of 0 phits");

	/* PB_STATE, h = 3 as in LIM */
	memset(&m, 0, sizeof(m));
	m.type = DFLY_WIRE_CTRL_PB_STATE;
	m.src_router = 3;
	m.pb.h = 3;
	m.pb.vg = 3; /* 9 bits: 2 bytes, 7 padding bits */
	m.pb.sat[2] = 4;
	len = ctrl_mut(b, &m, 0, 0);
	bad_frame(b, len, "bad_count", "PB h 0");
	ctrl_mut(b, &m, 1, 0);
	bad_frame(b, len, "bad_vc", "PB vg 0");
	ctrl_mut(b, &m, 1, DFLY_MAX_VCS + 1);
	bad_frame(b, len, "bad_vc", "PB vg past the largest");
	ctrl_mut(b, &m, 1, 2);
	bad_frame(b, len, "bad_count", "PB body length not h*vg bits");
	ctrl_mut(b, &m, 3, 1);
	bad_frame(b, len, "reserved", "PB reserved byte");
	ctrl_mut(b, &m, 5, 0x80);
	bad_frame(b, len, "reserved", "PB padding bit");

	/* ECTN_PARTIAL, n = 9 as in LIM */
	memset(&m, 0, sizeof(m));
	m.type = DFLY_WIRE_CTRL_ECTN_PARTIAL;
	m.src_router = 4;
	m.ectn.format = DFLY_WIRE_ECTN_FULL;
	m.ectn.n = 9;
	m.ectn.ctr[3] = 5;
	len = ctrl_mut(b, &m, 1, DFLY_WIRE_ECTN_FMT_COUNT);
	bad_frame(b, len, "bad_format", "ECtN format past the last");
	ctrl_mut(b, &m, 3, 0);
	bad_frame(b, len, "bad_count", "ECtN n 0");
	ctrl_mut(b, &m, -1, 0);
	set_body_len(b, (uint16_t)(len - OFF - DFLY_WIRE_CTRL_HDR_LEN + 1));
	bad_frame(b, len + 1, "bad_count", "ECtN FULL body longer than n counters");
	ctrl_mut(b, &m, 4 + 4, 0x10);
	bad_frame(b, len, "reserved", "ECtN FULL unused last nibble");
	m.ectn.format = DFLY_WIRE_ECTN_SPARSE;
	dfly_wire_ectn_add(&m.ectn, 1, 2);
	dfly_wire_ectn_add(&m.ectn, 6, 3);
	len = ctrl_mut(b, &m, 5, 3);
	bad_frame(b, len, "bad_count", "ECtN list m 3 in a body for 2");
	ctrl_mut(b, &m, 5, 10);
	bad_frame(b, len, "bad_count", "ECtN list m > n");
	ctrl_mut(b, &m, 9, 0x93); /* second entry: index 9 = n */
	bad_frame(b, len, "bad_index", "ECtN list index n");
	ctrl_mut(b, &m, 9, 0x03); /* second entry: index 0 after 1 */
	bad_frame(b, len, "unsorted", "ECtN list unsorted");
	ctrl_mut(b, &m, 9, 0x13); /* second entry: index 1 again */
	bad_frame(b, len, "unsorted", "ECtN list duplicate index");
	m.ectn.format = DFLY_WIRE_ECTN_DELTA;
	len = ctrl_mut(b, &m, -1, 0);
	set_body_len(b, 5);
	bad_frame(b, len, "bad_count", "ECtN list body shorter than its fixed part");

	/* HELLO */
	memset(&m, 0, sizeof(m));
	m.type = DFLY_WIRE_CTRL_HELLO;
	m.src_router = 5;
	m.hello = (struct dfly_wire_hello){
	    .port = 2, .arr = 0, .sigma = 1, .p = 2, .a = 3, .h = 3, .t = 1};
	len = ctrl_mut(b, &m, -1, 0);
	set_body_len(b, 12);
	bad_frame(b, len - 4, "bad_count", "HELLO body of 12 bytes");
	ctrl_mut(b, &m, -1, 0);
	bad_frame(b, len - 1, "truncated", "HELLO body cut");

	/* LINK_STATE (h = 3, as LIM; entry 0 = 1 | 4 << 11 | 3 << 22, bytes 00 c0 20 01) */
	memset(&m, 0, sizeof(m));
	m.type = DFLY_WIRE_CTRL_LINK_STATE;
	m.src_router = 5;
	m.ls.h = 3;
	m.ls.n = 1;
	m.ls.e[0] = (struct dfly_wire_fail_pair){.a = 1, .b = 4, .ttl = 3};
	len = ctrl_mut(b, &m, 1, 2); /* n = 2 for one entry */
	bad_frame(b, len, "bad_count", "LINK_STATE n larger than the body");
	ctrl_mut(b, &m, 3, 0x08); /* own port 3 down with h = 3 */
	bad_frame(b, len, "reserved", "LINK_STATE down bit beyond h");
	ctrl_mut(b, &m, 4, 0x04); /* entry bit 26 */
	bad_frame(b, len, "reserved", "LINK_STATE reserved entry bit");
	ctrl_mut(b, &m, 7, 0x04); /* a = 4 = b */
	bad_frame(b, len, "bad_router", "LINK_STATE groups a = b");
	ctrl_mut(b, &m, 5, 0x00); /* ttl bits 22-23 cleared (24-25 are 0): ttl 0 */
	bad_frame(b, len, "bad_router", "LINK_STATE ttl 0");
	len = ctrl_mut(b, &m, -1, 0);
	set_body_len(b, 6);
	bad_frame(b, len, "bad_count", "LINK_STATE body of 6 bytes");
}

/* Write a malformed metadata record named @p want (the dissector's names). */
static void bad_meta(const uint8_t *b, size_t len, const char *want)
{
	unsigned fno = dump(&X.bad_meta, next_cycle(), b, len);

	fprintf(X.malformed_meta.f, "%u\t%s\n", fno, want);
}

static void malformed_meta(void)
{
	uint8_t b[BUF_LEN];
	struct meta m = {.point = DFLY_TRACE_PORT_TX,
			 .router = 1,
			 .port = 3,
			 .kind = DFLY_PORT_GLOBAL,
			 .cycle = 10,
			 .decision = DFLY_ROUTE_SRC_MIN_UGAL,
			 .trigger = DFLY_TRACE_NONE,
			 .drop = DFLY_TRACE_NONE,
			 .level = 0xff,
			 .q_min = 1,
			 .q_val = 2,
			 .cc = DFLY_TRACE_NONE,
			 .combined = DFLY_TRACE_NONE};
	struct meta mm;
	struct dfly_wire_data d;
	size_t len;

	data_base(&d);
	meta_put(b, &m);
	len = DFLY_TRACE_META_LEN + enc_data(b + DFLY_TRACE_META_LEN, &d, NULL);

	bad_meta(b, 30, "truncated");
	bad_meta(b, DFLY_TRACE_META_LEN, "truncated");
	bad_meta(b, DFLY_TRACE_META_LEN + 10, "truncated");
	b[0] = 'X';
	bad_meta(b, len, "bad_magic");
	meta_put(b, &m);
	b[4] = DFLY_TRACE_VERSION + 1;
	bad_meta(b, len, "bad_version");
	meta_put(b, &m);
	put16(b + 6, 40);
	bad_meta(b, len, "bad_len");
	mm = m;
	mm.point = DFLY_TRACE_POINT_COUNT;
	meta_put(b, &mm);
	bad_meta(b, len, "bad_point");
	mm = m;
	mm.kind = 3;
	meta_put(b, &mm);
	bad_meta(b, len, "bad_port_kind");
	mm = m;
	mm.decision = DFLY_ROUTE_CTR_COUNT;
	meta_put(b, &mm);
	bad_meta(b, len, "bad_counter");
	mm = m;
	mm.trigger = 1000;
	meta_put(b, &mm);
	bad_meta(b, len, "bad_counter");
	mm = m;
	mm.drop = DFLY_DROP_DECODE;
	meta_put(b, &mm);
	bad_meta(b, len, "bad_drop");
	mm = m;
	mm.point = DFLY_TRACE_DROP;
	meta_put(b, &mm);
	bad_meta(b, len, "bad_drop");
	mm.drop = DFLY_DROP_COUNT;
	meta_put(b, &mm);
	bad_meta(b, len, "bad_drop");
	mm = m;
	mm.flags = 0x40;
	meta_put(b, &mm);
	bad_meta(b, len, "reserved");
	mm = m;
	mm.level = 3;
	meta_put(b, &mm);
	bad_meta(b, len, "bad_level");
	/* a good header, a malformed frame: the wire error of the frame */
	meta_put(b, &m);
	b[DFLY_TRACE_META_LEN + OFF] = 9;
	bad_meta(b, len, "bad_version");
	len = DFLY_TRACE_META_LEN + enc_data(b + DFLY_TRACE_META_LEN, &d, NULL);
	bad_meta(b, len - 1, "truncated");
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "--lua-tables") == 0) {
		lua_tables();
		return 0;
	}
	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: mkpcap DIR | mkpcap --lua-tables\n");
		return 2;
	}
	out_dir = argv[1];

	pcap_out_open(&X.frames, "frames.pcap", DFLY_TRACE_DLT_ETH);
	pcap_out_open(&X.meta, "meta.pcap", DFLY_TRACE_DLT_META);
	pcap_out_open(&X.bad, "malformed.pcap", DFLY_TRACE_DLT_ETH);
	pcap_out_open(&X.bad_meta, "malformed-meta.pcap", DFLY_TRACE_DLT_META);
	check_open(&X.data, "data", &X.frames, "dfly", DATA_FIELDS);
	check_open(&X.credit, "credit", &X.frames, "dfly.ctrl.type == 1",
		   CTRL_FIELDS " dfly.ctrl.credit.n dfly.ctrl.reserved dfly.ctrl.credit.due "
			       "dfly.ctrl.credit.vc "
			       "dfly.ctrl.credit.flags dfly.ctrl.credit.min dfly.ctrl.credit.abs "
			       "dfly.ctrl.credit.phits dfly.ctrl.padding _ws.expert.message");
	check_open(&X.pb, "pb_state", &X.frames, "dfly.ctrl.type == 2",
		   CTRL_FIELDS " dfly.ctrl.pb.h dfly.ctrl.pb.vg dfly.ctrl.reserved "
			       "dfly.ctrl.pb.bits dfly.ctrl.pb.sat _ws.expert.message");
	check_open(&X.ectn, "ectn_partial", &X.frames, "dfly.ctrl.type == 3",
		   CTRL_FIELDS " dfly.ctrl.ectn.epoch dfly.ctrl.ectn.format dfly.ctrl.ectn.n "
			       "dfly.ctrl.ectn.m dfly.ctrl.ectn.counter dfly.ctrl.ectn.entry "
			       "dfly.ctrl.ectn.index dfly.ctrl.ectn.value _ws.expert.message");
	check_open(&X.hello, "hello", &X.frames, "dfly.ctrl.type == 4",
		   CTRL_FIELDS " dfly.ctrl.hello.port dfly.ctrl.hello.arr dfly.ctrl.hello.sigma "
			       "dfly.ctrl.hello.p dfly.ctrl.hello.a dfly.ctrl.hello.h "
			       "dfly.ctrl.hello.t dfly.ctrl.hello.cfg_hash dfly.ctrl.padding "
			       "_ws.expert.message");
	check_open(&X.ack, "ack", &X.frames, "dfly.ctrl.type == 5",
		   CTRL_FIELDS " dfly.ctrl.ack.ack dfly.ctrl.ack.flags dfly.ctrl.ack.nak "
			       "dfly.ctrl.reserved dfly.ctrl.ack.taken dfly.ctrl.padding "
			       "_ws.expert.message");
	check_open(&X.ls, "link_state", &X.frames, "dfly.ctrl.type == 6",
		   CTRL_FIELDS
		   " dfly.ctrl.ls.h dfly.ctrl.ls.n dfly.ctrl.ls.down dfly.ctrl.ls.entry "
		   "dfly.ctrl.ls.group_a dfly.ctrl.ls.group_b dfly.ctrl.ls.ttl "
		   "dfly.ctrl.padding _ws.expert.message");
	pcap_out_open(&X.bundles, "bundle.pcap", DFLY_TRACE_DLT_ETH);
	check_open(&X.bundle, "bundle", &X.bundles, "dfly.bundle", BUNDLE_FIELDS);
	check_open(&X.meta_ck, "meta", &X.meta, "dfly.meta", META_FIELDS);
	check_open(&X.names, "names", &X.meta, "dfly.meta",
		   "^ *(Capture point|Port kind|Decision|Trigger|Drop reason|LIA level|"
		   "Packet type|Control type|ECtN format|Arrangement): ");
	check_open(&X.malformed, "malformed", &X.bad, "", "");
	check_open(&X.malformed_meta, "malformed-meta", &X.bad_meta, "", "");

	data_frames();
	ctrl_frames();
	bundle_frames();
	inners_init();
	meta_records();
	malformed_data();
	malformed_ctrl();
	malformed_bundle();
	malformed_meta();

	check_close(&X.data);
	check_close(&X.credit);
	check_close(&X.pb);
	check_close(&X.ectn);
	check_close(&X.hello);
	check_close(&X.ack);
	check_close(&X.ls);
	check_close(&X.bundle);
	check_close(&X.meta_ck);
	check_close(&X.names);
	check_close(&X.malformed);
	check_close(&X.malformed_meta);
	pcap_out_close(&X.frames);
	pcap_out_close(&X.meta);
	pcap_out_close(&X.bad);
	pcap_out_close(&X.bad_meta);
	pcap_out_close(&X.bundles);
	printf("mkpcap: %u frames, %u metadata records, %u + %u malformed, in %s\n",
	       X.frames.frames, X.meta.frames, X.bad.frames, X.bad_meta.frames, out_dir);
	return 0;
}
