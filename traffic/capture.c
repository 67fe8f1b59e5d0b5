/* SPDX-License-Identifier: BSD-3-Clause */
/* Packet capture of the virtual-time fabric (capture.h). */
#include "capture.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dfly/log.h"
#include "dfly/trace.h"
#include "dfly/wire.h"
#include "netcfg.h"

struct dfly_capture {
	struct dfly_capture_cfg cfg;
	const struct dfly_topo *topo;
	char *path;       /* owned copy of cfg.path */
	uint8_t *routers; /* owned copy, or NULL */
	pcap_t *dead;
	pcap_dumper_t *dump;
	uint64_t file_bytes; /* bytes in the current file */
	struct dfly_capture_stats st;
	uint8_t buf[DFLY_TRACE_META_LEN + 65536];
};

static int open_file(struct dfly_capture *c, char *err, size_t errlen)
{
	char name[PATH_MAX];

	if (c->st.files == 0)
		snprintf(name, sizeof(name), "%s", c->path);
	else
		snprintf(name, sizeof(name), "%s.%u", c->path, c->st.files);
	c->dump = pcap_dump_open(c->dead, name);
	if (c->dump == NULL) {
		snprintf(err, errlen, "capture: %s: %s", name, pcap_geterr(c->dead));
		return -EIO;
	}
	c->st.files++;
	c->file_bytes = 24; /* the pcap file header */
	c->st.bytes += 24;
	return 0;
}

struct dfly_capture *dfly_capture_open(const struct dfly_capture_cfg *cfg,
				       const struct dfly_topo *topo, char *err, size_t errlen)
{
	struct dfly_capture *c;

	if (cfg->path == NULL || cfg->path[0] == '\0' || cfg->sample == 0 ||
	    cfg->snaplen < DFLY_CAPTURE_SNAP_MIN || cfg->snaplen > DFLY_CAPTURE_SNAP_MAX ||
	    cfg->points == 0 || cfg->cycle_ns <= 0 || cfg->phit_bytes == 0) {
		snprintf(err, errlen,
			 "capture: bad settings (file, points, sample >= 1, snaplen "
			 "%u..%u)",
			 DFLY_CAPTURE_SNAP_MIN, DFLY_CAPTURE_SNAP_MAX);
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (c == NULL) {
		snprintf(err, errlen, "capture: out of memory");
		return NULL;
	}
	c->cfg = *cfg;
	c->topo = topo;
	c->path = strdup(cfg->path);
	if (cfg->routers != NULL) {
		c->routers = malloc(topo->routers);
		if (c->routers != NULL)
			memcpy(c->routers, cfg->routers, topo->routers);
	}
	c->dead = pcap_open_dead_with_tstamp_precision(
	    cfg->meta ? DFLY_TRACE_DLT_META : DFLY_TRACE_DLT_ETH, (int)cfg->snaplen,
	    PCAP_TSTAMP_PRECISION_NANO);
	if (c->path == NULL || (cfg->routers != NULL && c->routers == NULL) || c->dead == NULL) {
		snprintf(err, errlen, "capture: out of memory");
		dfly_capture_close(c, NULL);
		return NULL;
	}
	if (open_file(c, err, errlen) < 0) {
		dfly_capture_close(c, NULL);
		return NULL;
	}
	return c;
}

struct dfly_capture *dfly_capture_open_netcfg(const struct dfly_netcfg *nc,
					      const struct dfly_topo *topo, const char *path,
					      char *err, size_t errlen)
{
	struct dfly_capture_cfg cc = {
	    .path = path,
	    .points = nc->cap_points,
	    .ports = nc->cap_ports,
	    .sample = nc->cap_sample,
	    .snaplen = nc->cap_snaplen,
	    .rotate_bytes = (uint64_t)nc->cap_rotate_kb << 10,
	    .meta = nc->cap_meta,
	    .cycle_ns = nc->cycle_ns,
	    .phit_bytes = nc->phit_bytes,
	};
	struct dfly_capture *c;
	uint8_t *map = NULL;

	if (strcmp(nc->cap_routers, "all") != 0) {
		map = calloc(topo->routers, 1);
		if (map == NULL ||
		    dfly_netcfg_parse_list(nc->cap_routers, topo->routers, map) != 0) {
			snprintf(err, errlen, "capture.routers: bad list '%s'", nc->cap_routers);
			free(map);
			return NULL;
		}
	}
	cc.routers = map;
	c = dfly_capture_open(&cc, topo, err, errlen);
	free(map);
	return c;
}

bool dfly_capture_selects(const struct dfly_capture *cap, uint32_t router)
{
	return cap->routers == NULL || cap->routers[router];
}

void dfly_capture_attach(struct dfly_capture *cap, struct asic *as)
{
	if (dfly_capture_selects(cap, asic_router_id(as)))
		asic_set_trace(as, dfly_capture_trace, cap, cap->cfg.points);
}

static inline void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)(v >> 16));
	put16(p + 2, (uint16_t)v);
}

static inline void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)(v >> 32));
	put32(p + 4, (uint32_t)v);
}

/* 1 in N by packet: the same packets at every point (splitmix of source and generation). */
static bool sampled(uint32_t n, const struct asic_pkt *pk)
{
	uint64_t x = ((uint64_t)pk->src_node << 40) ^ pk->gen_cycle ^ ((uint64_t)pk->id << 20);

	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	x ^= x >> 31;
	return x % n == 0;
}

static void write_meta(uint8_t *m, uint32_t router, const struct asic_trace_ev *ev)
{
	const struct asic_pkt *pk = ev->pkt;
	uint8_t flags = 0;

	memset(m, 0, DFLY_TRACE_META_LEN);
	put32(m, DFLY_TRACE_MAGIC);
	m[4] = DFLY_TRACE_VERSION;
	m[5] = ev->point;
	put16(m + 6, DFLY_TRACE_META_LEN);
	put32(m + 8, router);
	put16(m + 12, ev->port);
	m[14] = ev->vc;
	m[15] = ev->kind;
	put64(m + 16, ev->cycle);
	put16(m + 28, ev->drop);
	if (pk == NULL) {
		put16(m + 24, DFLY_TRACE_NONE);
		put16(m + 26, DFLY_TRACE_NONE);
		m[31] = 0xff;
		put32(m + 32, UINT32_MAX);
		put32(m + 36, UINT32_MAX);
		put16(m + 44, DFLY_TRACE_NONE);
		put16(m + 46, DFLY_TRACE_NONE);
		return;
	}
	if (pk->flags & ASIC_PKT_NONMIN)
		flags |= DFLY_TRACE_F_NONMIN;
	if (pk->val_router != ASIC_NONE)
		flags |= DFLY_TRACE_F_VALIANT;
	if (pk->flags & ASIC_PKT_PHASE1)
		flags |= DFLY_TRACE_F_PHASE1;
	flags |= pk->dec.flags & (DFLY_TRACE_F_SAT | DFLY_TRACE_F_L1 | DFLY_TRACE_F_L2);
	put16(m + 24, pk->dec.reason == 0xff ? DFLY_TRACE_NONE : pk->dec.reason);
	put16(m + 26, pk->dec.trig == 0xff ? DFLY_TRACE_NONE : pk->dec.trig);
	m[30] = flags;
	m[31] = pk->dec.level;
	put32(m + 32, (uint32_t)pk->dec.q_min);
	put32(m + 36, (uint32_t)pk->dec.q_val);
	put32(m + 40, (uint32_t)pk->dec.t);
	put16(m + 44, pk->dec.cc);
	put16(m + 46, pk->dec.combined);
}

int dfly_capture_format(const struct dfly_capture_cfg *cfg, uint32_t router,
			const struct asic_trace_ev *ev, uint8_t *buf, size_t size,
			struct pcap_pkthdr *h)
{
	uint32_t off = cfg->meta ? DFLY_TRACE_META_LEN : 0, len;
	double ns;

	if (!(cfg->ports >> ev->port & 1u))
		return DFLY_CAPTURE_SKIP;
	if (ev->pkt != NULL) {
		struct dfly_wire_data d;
		uint32_t bytes = (uint32_t)ev->pkt->len * cfg->phit_bytes;
		size_t need;
		int n;

		if (cfg->sample > 1 && !sampled(cfg->sample, ev->pkt))
			return DFLY_CAPTURE_SAMPLED_OUT;
		asic_pkt_wire(ev->pkt, &d);
		d.type = DFLY_WIRE_PKT_SYNTH;
		if (ev->point == DFLY_TRACE_PORT_TX || ev->point == DFLY_TRACE_HOST_TX)
			d.vc = ev->vc;
		d.payload_len =
		    (uint16_t)(bytes > DFLY_WIRE_DATA_HDR_LEN + 65000u ? 65000u
			       : bytes > DFLY_WIRE_DATA_HDR_LEN ? bytes - DFLY_WIRE_DATA_HDR_LEN
								: 0);
		need = off + DFLY_WIRE_ETH_LEN + DFLY_WIRE_DATA_HDR_LEN + (size_t)d.payload_len;
		if (need > size)
			return -ENOSPC;
		/* the payload is zeros: encode into a zeroed buffer */
		memset(buf + off, 0, need - off);
		n = dfly_wire_data_encode(buf + off, size - off, NULL, &d, NULL);
		if (n < 0)
			return -EINVAL;
		len = (uint32_t)n;
	} else {
		if ((size_t)off + ev->len > size)
			return -ENOSPC;
		len = ev->len;
		memcpy(buf + off, ev->frame, len);
	}
	if (cfg->meta)
		write_meta(buf, router, ev);
	len += off;
	ns = (double)ev->cycle * cfg->cycle_ns;
	h->ts.tv_sec = (time_t)(ns / 1e9);
	h->ts.tv_usec = (suseconds_t)fmod(ns, 1e9); /* nanoseconds: the file is nano-precision */
	h->len = len;
	h->caplen = len < cfg->snaplen ? len : cfg->snaplen;
	return 0;
}

int dfly_capture_write(struct dfly_capture *c, const struct pcap_pkthdr *h, const uint8_t *data)
{
	if (h->caplen < h->len)
		c->st.truncated++;
	if (c->cfg.rotate_bytes && c->file_bytes + 16 + h->caplen > c->cfg.rotate_bytes &&
	    c->file_bytes > 24) {
		char err[256];

		pcap_dump_close(c->dump);
		c->dump = NULL;
		if (open_file(c, err, sizeof(err)) < 0) {
			DFLY_LOG_RL(DFLY_LOG_TRAFFIC, DFLY_LOG_ERR, "capture: %s", err);
			c->st.errors++;
			return -EIO;
		}
	}
	if (c->dump == NULL) {
		c->st.errors++;
		return -EIO;
	}
	pcap_dump((u_char *)c->dump, h, data);
	c->file_bytes += 16 + h->caplen;
	c->st.bytes += 16 + h->caplen;
	c->st.records++;
	return 0;
}

void dfly_capture_count(struct dfly_capture *c, int why, uint64_t n)
{
	if (why == DFLY_CAPTURE_SAMPLED_OUT)
		c->st.sampled_out += n;
	else if (why == DFLY_CAPTURE_RING_FULL)
		c->st.ring_full += n;
	else if (why < 0)
		c->st.errors += n;
}

const struct dfly_capture_cfg *dfly_capture_cfg(const struct dfly_capture *c)
{
	return &c->cfg;
}

void dfly_capture_trace(void *ctx, const struct asic *as, const struct asic_trace_ev *ev)
{
	struct dfly_capture *c = ctx;
	struct pcap_pkthdr h;
	int rc = dfly_capture_format(&c->cfg, asic_router_id(as), ev, c->buf, sizeof(c->buf), &h);

	if (rc != 0) {
		dfly_capture_count(c, rc, 1);
		return;
	}
	dfly_capture_write(c, &h, c->buf);
}

int dfly_capture_close(struct dfly_capture *c, struct dfly_capture_stats *st)
{
	int rc = 0;

	if (c == NULL)
		return 0;
	if (c->dump != NULL) {
		if (pcap_dump_flush(c->dump) != 0)
			rc = -EIO;
		pcap_dump_close(c->dump);
	}
	if (st != NULL)
		*st = c->st;
	if (c->dead != NULL)
		pcap_close(c->dead);
	free(c->routers);
	free(c->path);
	free(c);
	return rc;
}
