/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Whole-network test of the capture (traffic/capture.c, include/dfly/trace.h): a short run
 * captured at every point, read back with libpcap and checked against the simulator itself:
 *  - packet by packet: the HOST_TX records are the delivered packets, in delivery order, with
 *    the same source, destination, generation cycle, tail cycle, hops and nonminimal flag the
 *    delivery tap saw; so count, average latency and misrouted share agree;
 *  - every point's record count equals the ASIC counter of the same event (HOST_RX = packets
 *    generated, VC_ENQ = Σ enq_pkts, PORT_TX = Σ tx_pkts of fabric ports, PORT_RX = packets
 *    that arrived on fabric ports, DROP = drops), control frames included for PB;
 *  - timestamps are emulated time (cycle × cycle_ns) at nanosecond precision, metadata headers
 *    are well formed, every data frame decodes with the wire decoder;
 *  - sampling 1 in 4 keeps whole packets (a sampled packet is seen at host_rx and host_tx);
 *    the snap length cuts records and counts them; rotation splits the files.
 */
#include "simtest.h"

#include <pcap/pcap.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "dfly/trace.h"
#include "dfly/wire.h"

#define MAXD 200000

struct dl {
	uint32_t n;
	struct dfly_delivery d[MAXD];
};

static void tap(void *ctx, const struct dfly_delivery *d)
{
	struct dl *l = ctx;

	if (l->n < MAXD)
		l->d[l->n++] = *d;
}

static uint16_t g16(const u_char *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t g32(const u_char *p)
{
	return (uint32_t)g16(p) << 16 | g16(p + 2);
}

static uint64_t g64(const u_char *p)
{
	return (uint64_t)g32(p) << 32 | g32(p + 4);
}

struct counts {
	uint64_t point[DFLY_TRACE_POINT_COUNT], ctrl_tx, ctrl_rx, truncated;
};

/* Read @p path; compare HOST_TX records with @p l in order (if @p l), count the rest. */
static void read_back(const char *path, const struct dfly_topo *t, double cycle_ns,
		      const struct dl *l, struct counts *c, uint32_t *matched)
{
	char eb[PCAP_ERRBUF_SIZE];
	pcap_t *pc = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, eb);
	struct dfly_wire_limits lim;
	struct pcap_pkthdr *h;
	const u_char *p;

	assert_non_null(pc);
	assert_int_equal(pcap_datalink(pc), DFLY_TRACE_DLT_META);
	assert_int_equal(pcap_get_tstamp_precision(pc), PCAP_TSTAMP_PRECISION_NANO);
	dfly_wire_limits_init(&lim, t, DFLY_MAX_VCS, 65535);
	while (pcap_next_ex(pc, &h, &p) == 1) {
		uint8_t point = p[5];
		uint64_t cycle = g64(p + 16),
			 ns = (uint64_t)h->ts.tv_sec * 1000000000ull + (uint64_t)h->ts.tv_usec;
		const u_char *f = p + DFLY_TRACE_META_LEN;
		uint32_t flen = h->len - DFLY_TRACE_META_LEN;
		struct dfly_wire_data d;
		uint8_t *full;

		assert_true(h->caplen >= DFLY_TRACE_META_LEN);
		assert_int_equal(g32(p), DFLY_TRACE_MAGIC);
		assert_int_equal(p[4], DFLY_TRACE_VERSION);
		assert_int_equal(g16(p + 6), DFLY_TRACE_META_LEN);
		assert_true(point < DFLY_TRACE_POINT_COUNT);
		assert_true(g32(p + 8) < t->routers);
		assert_true(g16(p + 12) < t->radix);
		assert_int_equal(ns, (uint64_t)((double)cycle * cycle_ns));
		c->point[point]++;
		if (h->caplen < h->len)
			c->truncated++;
		if (g16(f + 12) == DFLY_WIRE_ETHERTYPE_CTRL) {
			assert_true(point == DFLY_TRACE_PORT_TX || point == DFLY_TRACE_PORT_RX);
			if (point == DFLY_TRACE_PORT_TX)
				c->ctrl_tx++;
			else
				c->ctrl_rx++;
			continue;
		}
		full = calloc(1, flen);
		assert_non_null(full);
		memcpy(full, f, h->caplen - DFLY_TRACE_META_LEN);
		{
			int rc = dfly_wire_data_decode(full, flen, &lim, &d);

			if (rc != 0)
				fail_msg(
				    "%s: record %llu (point %u, router %u, port %u, cycle %llu): "
				    "data frame does not decode: %s",
				    path,
				    (unsigned long long)(c->point[0] + c->point[1] + c->point[2] +
							 c->point[3] + c->point[4] + c->point[5]),
				    point, g32(p + 8), g16(p + 12), (unsigned long long)cycle,
				    dfly_wire_err_name(rc));
		}
		free(full);
		if (point == DFLY_TRACE_HOST_TX && l != NULL) {
			const struct dfly_delivery *x = &l->d[*matched];

			assert_true(*matched < l->n);
			if (d.src_node != x->src_node || d.dst_node != x->dst_node ||
			    d.gen_cycle != x->gen_cycle || cycle != x->tail_cycle ||
			    d.global_hops != x->ghops || d.path_lhops != x->lhops ||
			    ((d.flags & DFLY_WIRE_F_NONMIN) != 0) != x->nonmin)
				fail_msg("delivery %u: trace %u->%u gen %llu tail %llu, sim %u->%u "
					 "gen %llu tail %llu",
					 *matched, d.src_node, d.dst_node,
					 (unsigned long long)d.gen_cycle, (unsigned long long)cycle,
					 x->src_node, x->dst_node, (unsigned long long)x->gen_cycle,
					 (unsigned long long)x->tail_cycle);
			(*matched)++;
		}
	}
	pcap_close(pc);
}

static uint64_t ctr_sum(const struct dfly_fabric *fab, bool fabric_only, int port_ctr)
{
	const struct dfly_topo *t = dfly_fabric_topo(fab);
	uint64_t n = 0;

	for (uint32_t r = 0; r < t->routers; r++)
		for (uint32_t p = fabric_only ? t->first_local : 0; p < t->radix; p++)
			n += dfly_fabric_regs(fab, r)->port_ctr[p][port_ctr];
	return n;
}

static void test_every_point(void **state)
{
	const char *sets[] = {"routing.mechanism=pb", "traffic.pattern=adv+1",
			      "traffic.load=1.0",     "sim.warmup=500",
			      "sim.measure=1500",     "capture.snaplen=112"};
	static struct dl l;
	char path[] = "/tmp/dfly-cap-XXXXXX", file[64], err[256];
	struct dfly_netcfg cfg;
	struct dfly_fabric *fab;
	struct dfly_sim_result r;
	struct dfly_capture_stats cs;
	struct counts c = {{0}};
	uint32_t matched = 0;
	uint64_t enq = 0;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	snprintf(file, sizeof(file), "%s", path);
	load_cfg(&cfg, "h2", sets, 6);
	fab = dfly_fabric_create(&cfg, 1, err, sizeof(err));
	assert_non_null(fab);
	l.n = 0;
	dfly_fabric_set_tap(fab, tap, &l);
	assert_int_equal(dfly_fabric_capture(fab, file, err, sizeof(err)), 0);
	assert_int_equal(dfly_fabric_run(fab, &r, false), 0);
	assert_true(r.invariants_ok && r.drained);
	assert_int_equal(dfly_fabric_capture_close(fab, &cs), 0);
	assert_int_equal(cs.errors, 0);
	read_back(file, dfly_fabric_topo(fab), cfg.cycle_ns, &l, &c, &matched);
	printf("# capture: %llu records (host_rx %llu host_tx %llu port_rx %llu port_tx %llu "
	       "vc_enq %llu drop %llu), %llu control frames, %llu cut at 112 bytes\n",
	       (unsigned long long)cs.records, (unsigned long long)c.point[0],
	       (unsigned long long)c.point[1], (unsigned long long)c.point[2],
	       (unsigned long long)c.point[3], (unsigned long long)c.point[4],
	       (unsigned long long)c.point[5], (unsigned long long)(c.ctrl_tx + c.ctrl_rx),
	       (unsigned long long)c.truncated);
	/* packet by packet */
	assert_int_equal(matched, l.n);
	assert_int_equal(matched, r.dlv_total);
	/* every point against the ASIC's counters */
	assert_int_equal(c.point[DFLY_TRACE_HOST_RX], r.gen_total);
	assert_int_equal(c.point[DFLY_TRACE_HOST_TX], r.dlv_total);
	for (uint32_t rt = 0; rt < dfly_fabric_topo(fab)->routers; rt++)
		for (uint32_t p = 0; p < dfly_fabric_topo(fab)->radix; p++)
			for (uint32_t v = 0; v < DFLY_MAX_VCS; v++)
				enq += dfly_fabric_regs(fab, rt)->vc_ctr[p][v][DFLY_VC_ENQ_PKTS];
	assert_int_equal(c.point[DFLY_TRACE_VC_ENQ], enq);
	assert_int_equal(c.point[DFLY_TRACE_PORT_TX] - c.ctrl_tx, ctr_sum(fab, true, DFLY_TX_PKTS));
	/* every data packet sent on a link arrived (drained) */
	assert_int_equal(c.point[DFLY_TRACE_PORT_RX] - c.ctrl_rx,
			 c.point[DFLY_TRACE_PORT_TX] - c.ctrl_tx);
	/* PB_STATE frames: sent and received as the ports count them (the last ones of the run
	 * are still on the links) */
	assert_int_equal(c.ctrl_tx, ctr_sum(fab, true, DFLY_CTRL_TX));
	assert_int_equal(c.ctrl_rx, ctr_sum(fab, true, DFLY_CTRL_RX));
	assert_true(c.ctrl_rx > 0);
	assert_int_equal(c.point[DFLY_TRACE_DROP], r.drop_inj);
	assert_true(r.drop_inj > 0); /* saturated: generate-or-skip drops at the edge */
	assert_int_equal(cs.truncated, c.truncated);
	assert_true(c.truncated > 0);
	dfly_fabric_destroy(fab);
	unlink(file);
}

/* One run's capture file, its bytes in *buf (malloc'd), their count returned. */
static size_t capture_bytes(uint32_t threads, uint8_t **buf)
{
	const char *sets[] = {"routing.mechanism=ugal", "traffic.load=0.6", "sim.warmup=300",
			      "sim.measure=700", "capture.sample=3"};
	char path[] = "/tmp/dfly-cap-XXXXXX", err[256];
	struct dfly_netcfg cfg;
	struct dfly_fabric *fab;
	struct dfly_sim_result r;
	struct dfly_capture_stats cs;
	int fd = mkstemp(path);
	FILE *f;
	long n;

	assert_true(fd >= 0);
	close(fd);
	load_cfg(&cfg, "h2", sets, 5);
	cfg.threads = threads;
	fab = dfly_fabric_create(&cfg, 1, err, sizeof(err));
	assert_non_null(fab);
	assert_int_equal(dfly_fabric_threads(fab), threads);
	assert_int_equal(dfly_fabric_capture(fab, path, err, sizeof(err)), 0);
	assert_int_equal(dfly_fabric_run(fab, &r, false), 0);
	assert_true(r.invariants_ok && r.drained);
	assert_int_equal(dfly_fabric_capture_close(fab, &cs), 0);
	assert_true(cs.records > 1000);
	dfly_fabric_destroy(fab);
	f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	*buf = malloc((size_t)n);
	assert_non_null(*buf);
	assert_int_equal(fread(*buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	unlink(path);
	return (size_t)n;
}

/*
 * A capture is the same file on 1 and 2 threads (sim.batch on: a capture steps cycle by cycle,
 * but the fabric keeps a packet pool per thread), sampling 1 in 3 by packet id included.
 */
static void test_threads_same_file(void **state)
{
	uint8_t *a, *b;
	size_t na, nb;

	(void)state;
	unsetenv("DFLY_SIM_THREADS");
	na = capture_bytes(1, &a);
	nb = capture_bytes(2, &b);
	printf("# capture on 1 and 2 threads: %zu and %zu bytes\n", na, nb);
	assert_int_equal(na, nb);
	assert_memory_equal(a, b, na);
	free(a);
	free(b);
}

/* Sampling keeps whole packets; rotation splits the files; a router and port selection. */
static void test_sample_rotate(void **state)
{
	const char *sets[] = {"routing.mechanism=val",
			      "traffic.load=0.2",
			      "sim.warmup=200",
			      "sim.measure=1000",
			      "capture.sample=4",
			      "capture.rotate_kb=16",
			      "capture.points=host_rx,host_tx"};
	char dir[] = "/tmp/dfly-capd-XXXXXX", file[128], err[256];
	struct dfly_netcfg cfg;
	struct dfly_fabric *fab;
	struct dfly_sim_result r;
	struct dfly_capture_stats cs;
	struct counts c = {{0}};
	uint32_t matched = 0;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/s.pcap", dir);
	load_cfg(&cfg, "h2", sets, 7);
	fab = dfly_fabric_create(&cfg, 2, err, sizeof(err));
	assert_non_null(fab);
	assert_int_equal(dfly_fabric_capture(fab, file, err, sizeof(err)), 0);
	assert_int_equal(dfly_fabric_run(fab, &r, false), 0);
	assert_int_equal(dfly_fabric_capture_close(fab, &cs), 0);
	assert_true(cs.files >= 2);
	for (uint32_t k = 0; k < cs.files; k++) {
		char f[160];

		if (k == 0)
			snprintf(f, sizeof(f), "%s", file);
		else
			snprintf(f, sizeof(f), "%s.%u", file, k);
		read_back(f, dfly_fabric_topo(fab), cfg.cycle_ns, NULL, &c, &matched);
		unlink(f);
	}
	printf("# 1 in 4: %llu of %llu packets at host_rx, %llu at host_tx, %u files\n",
	       (unsigned long long)c.point[0], (unsigned long long)r.gen_total,
	       (unsigned long long)c.point[1], cs.files);
	/* whole packets: every sampled packet generated was also delivered (drained) */
	assert_int_equal(c.point[DFLY_TRACE_HOST_RX], c.point[DFLY_TRACE_HOST_TX]);
	assert_int_equal(c.point[DFLY_TRACE_PORT_TX] + c.point[DFLY_TRACE_VC_ENQ], 0);
	assert_true(c.point[DFLY_TRACE_HOST_RX] > r.gen_total / 5);
	assert_true(c.point[DFLY_TRACE_HOST_RX] < r.gen_total / 3);
	assert_int_equal(cs.sampled_out, 2 * (r.gen_total - c.point[DFLY_TRACE_HOST_RX]));
	dfly_fabric_destroy(fab);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_point),
	    cmocka_unit_test(test_sample_rotate),
	    cmocka_unit_test(test_threads_same_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
