/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of the ASIC model (asic-emu/) on hand-built networks, driven cycle by cycle:
 * the exact timing of a packet through pipeline, crossbar and links; credits reserved at grant
 * and returned when the tail leaves the input buffer, with link latency; back-pressure when the
 * downstream buffer holds one packet; VC assignment by hop role for Valiant; drops with a named
 * reason for a bad VC; injection refusal when full; the table double-buffer protocol; control
 * frames charged to their link (A-5.6); DAMQ input buffers (spec §3.9): the credit accounting
 * at its boundaries, the pool taken by one VC while another keeps its reserve, 0% and 100%
 * reserves (100% is the static model, timing and stalls), the access penalty.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <errno.h>
#include <stdbool.h>

#include "asic.h"
#include "dfly/wire.h"

struct net {
	struct dfly_topo *topo;
	struct asic **as;
	struct dfly_regs *regs;
	struct asic_link **links;
	uint32_t nlinks;
};

static const uint8_t map_min[DFLY_ROLE_COUNT] = {
    [DFLY_ROLE_S1] = 0, [DFLY_ROLE_G1] = 0, [DFLY_ROLE_D2] = 1};
static const uint8_t map_val[DFLY_ROLE_COUNT] = {
    [DFLY_ROLE_S1] = 0, [DFLY_ROLE_G1] = 0, [DFLY_ROLE_I1] = 1,
    [DFLY_ROLE_I2] = 2, [DFLY_ROLE_G2] = 1, [DFLY_ROLE_D2] = 3};

static struct asic_params default_params(uint32_t buf_local)
{
	struct asic_params par = {
	    .speedup = 2,
	    .pipe_route = 2,
	    .pipe_xbar = 3,
	    .alloc_iters = 1,
	    .in_arb = DFLY_ARB_RR,
	    .out_arb = DFLY_ARB_RR,
	    .vcs = {3, 4, 2},
	    .buf = {256, buf_local, 256},
	    .buf_out = 32,
	    .lat_terminal = 1,
	    .inj_select = DFLY_INJ_JSQ,
	    .phit_bytes = 10,
	};
	return par;
}

static void net_build(struct net *n, uint32_t p, uint32_t a, uint32_t h,
		      const struct asic_params *par, enum dfly_route_mode mode, const uint8_t *map)
{
	n->topo = dfly_topo_create(p, a, h, 1, DFLY_ARR_PALMTREE, -1);
	assert_non_null(n->topo);
	n->as = calloc(n->topo->routers, sizeof(*n->as));
	n->regs = calloc(n->topo->routers, sizeof(*n->regs));
	n->links = calloc((size_t)n->topo->routers * n->topo->radix, sizeof(*n->links));
	n->nlinks = 0;
	for (uint32_t r = 0; r < n->topo->routers; r++) {
		n->as[r] = asic_create(n->topo, r, par, &n->regs[r], 42);
		assert_non_null(n->as[r]);
		n->regs[r].knobs.mode = mode;
		n->regs[r].knobs.val_variant = DFLY_VAL_LGL;
		memcpy(n->regs[r].knobs.vc_map, map, DFLY_ROLE_COUNT);
	}
	for (uint32_t r = 0; r < n->topo->routers; r++) {
		for (uint32_t port = n->topo->first_local; port < n->topo->radix; port++) {
			uint32_t pr, pp;

			assert_int_equal(dfly_topo_port_peer(n->topo, r, port, &pr, &pp), 0);
			n->links[n->nlinks] = asic_link_create(
			    n->as[r], port, n->as[pr], pp,
			    dfly_topo_port_kind(n->topo, port) == DFLY_PORT_LOCAL ? 10 : 100);
			assert_non_null(n->links[n->nlinks]);
			n->nlinks++;
		}
	}
}

static void net_free(struct net *n)
{
	for (uint32_t l = 0; l < n->nlinks; l++)
		asic_link_destroy(n->links[l]);
	for (uint32_t r = 0; r < n->topo->routers; r++)
		asic_destroy(n->as[r]);
	free(n->as);
	free(n->regs);
	free(n->links);
	dfly_topo_destroy(n->topo);
}

/* Step every router through cycle @p c and collect ejections into @p out. */
static unsigned net_cycle(struct net *n, uint64_t c, struct asic_ejection *out, unsigned max)
{
	unsigned got = 0;

	for (uint32_t r = 0; r < n->topo->routers; r++)
		asic_step(n->as[r], c);
	for (uint32_t r = 0; r < n->topo->routers; r++)
		got += asic_eject_burst(n->as[r], out + got, max - got);
	return got;
}

static void pkt_init(struct asic_pkt *pk, uint32_t src, uint32_t dst, uint64_t gen)
{
	memset(pk, 0, sizeof(*pk));
	pk->src_node = src;
	pk->dst_node = dst;
	pk->val_router = ASIC_NONE;
	pk->len = 8;
	pk->gen_cycle = gen;
}

static void assert_drained(struct net *n)
{
	char why[200];

	for (uint32_t r = 0; r < n->topo->routers; r++) {
		int rc = asic_check_drained(n->as[r], why, sizeof(why));

		if (rc)
			fprintf(stderr, "%s\n", why);
		assert_int_equal(rc, 0);
	}
	for (uint32_t l = 0; l < n->nlinks; l++) {
		assert_int_equal(asic_link_pkts(n->links[l]), 0);
		assert_int_equal(asic_link_credits(n->links[l]), 0);
	}
}

/* Negative: bad parameters and link wiring are refused. */
static void test_create_errors(void **state)
{
	struct dfly_topo *t = dfly_topo_create(1, 2, 1, 1, DFLY_ARR_PALMTREE, -1);
	struct asic_params par = default_params(32);
	struct dfly_regs regs[2];
	struct asic *a, *b;

	(void)state;
	par.speedup = 0;
	assert_null(asic_create(t, 0, &par, &regs[0], 1));
	par = default_params(32);
	par.vcs[1] = DFLY_MAX_VCS + 1;
	assert_null(asic_create(t, 0, &par, &regs[0], 1));
	par = default_params(32);
	par.phit_bytes = 0;
	assert_null(asic_create(t, 0, &par, &regs[0], 1));
	par = default_params(32);
	assert_null(asic_create(t, t->routers, &par, &regs[0], 1));
	a = asic_create(t, 0, &par, &regs[0], 1);
	b = asic_create(t, 1, &par, &regs[1], 1);
	assert_non_null(a);
	assert_non_null(b);
	/* terminal port 0 cannot carry a fabric link; a local port cannot feed a global one */
	assert_null(asic_link_create(a, 0, b, 0, 10));
	assert_null(asic_link_create(a, t->first_local, b, t->first_global, 10));
	assert_null(asic_link_create(a, t->first_local, b, t->first_local, 0));
	{
		struct asic_link *l = asic_link_create(a, t->first_local, b, t->first_local, 10);

		assert_non_null(l);
		/* each port takes one link */
		assert_null(asic_link_create(a, t->first_local, b, t->first_local, 10));
		asic_link_destroy(l);
	}
	asic_destroy(a);
	asic_destroy(b);
	asic_destroy(NULL);
	dfly_topo_destroy(t);
}

/*
 * One packet, router 0 → router 1 of group 0 (p=1, a=2, h=1): generated at cycle 0, the head
 * reaches router 0 at 1 (terminal link), requests at 3 (route pipeline 2), is granted at 3,
 * enters the output FIFO at 6 (crossbar 3), leaves at 6, reaches router 1 at 16 (local link 10),
 * granted at 18, leaves at 21 to the node; the tail arrives at 21 + 1 + 8 − 1 = 29.
 * At router 1 the crossbar cannot outrun the arriving tail: the tail leaves the input buffer at
 * cycle 24 (head 16 + 8 phits), so the credit reaches router 0 at 34.
 */
static void single_packet_timing(bool credit_at_tail, uint64_t credit_back)
{
	struct asic_params par = default_params(32);
	struct net n;
	struct asic_pkt pk;
	struct asic_ejection ej[4];
	uint32_t out0 = 1; /* router 0's only local port (p = 1) */
	uint64_t tail = 0;

	par.credit_at_tail = credit_at_tail;
	net_build(&n, 1, 2, 1, &par, DFLY_MODE_MIN, map_min);
	pkt_init(&pk, 0, 1, 0);
	assert_true(asic_inject(n.as[0], 0, &pk, 0));
	for (uint64_t c = 0; c < 60; c++) {
		if (net_cycle(&n, c, ej, 4)) {
			assert_ptr_equal(ej[0].pkt, &pk);
			assert_int_equal(ej[0].drop, 0);
			tail = ej[0].tail_cycle;
		}
		asic_sync_gauges(n.as[0]);
		/* credits: reserved at the grant (cycle 3), back at credit_back */
		if (c < 3 || c >= credit_back)
			assert_int_equal(n.regs[0].vc_gauge[out0][1][DFLY_VC_CREDITS], 32);
		else
			assert_int_equal(n.regs[0].vc_gauge[out0][1][DFLY_VC_CREDITS], 24);
	}
	assert_int_equal(tail, 29);
	assert_int_equal(pk.inj_cycle, 3);
	assert_int_equal(pk.lhops, 1);
	assert_int_equal(pk.ghops, 0);
	/* intra-group minimal hop: role D2, the last local VC of the 2/1 map */
	assert_int_equal(n.regs[1].vc_ctr[1][1][DFLY_VC_ENQ_PKTS], 1);
	assert_int_equal(n.regs[0].route[DFLY_ROUTE_INJ_MIN], 1);
	assert_int_equal(n.regs[0].route[DFLY_ROUTE_HOP_LOCAL], 1);
	assert_int_equal(n.regs[1].route[DFLY_ROUTE_EJECT], 1);
	assert_int_equal(n.regs[0].port_ctr[out0][DFLY_LINK_BUSY_CYCLES], 8);
	assert_int_equal(n.regs[0].port_ctr[out0][DFLY_CREDITS_RX], 8);
	assert_int_equal(n.regs[1].port_ctr[1][DFLY_CREDITS_TX], 8);
	assert_drained(&n);
	net_free(&n);
}

static void test_single_packet_timing_tail(void **state)
{
	(void)state;
	single_packet_timing(true, 34);
}

/* FOGSim's release point: router 1 returns the credit at its grant (18), back at 28. */
static void test_single_packet_timing_grant(void **state)
{
	(void)state;
	single_packet_timing(false, 28);
}

/*
 * Back-pressure: the downstream local VC holds exactly one packet (8 phits). The second packet
 * (generated at 0, serialised behind the first on the node link: head at router 0 at 9) must
 * wait for the first one's credit (back at 34): granted 34, out 37, at router 1 at 47, granted
 * 49, out 52, tail at the node 52 + 8 = 60. With the credit returned at the grant (back at 28):
 * granted 28, out 31, at router 1 at 41, granted 43, out 46, tail 54.
 */
/*
 * A 2-router network (p=1, a=2, h=1) built with @p par, and @p npk packets from node 0 to node
 * 1 injected at cycle 0, their ids 0 .. npk-1.
 */
static void send_0_to_1(struct net *n, const struct asic_params *par, struct asic_pkt *pk,
			unsigned npk)
{
	net_build(n, 1, 2, 1, par, DFLY_MODE_MIN, map_min);
	for (unsigned i = 0; i < npk; i++) {
		pkt_init(&pk[i], 0, 1, 0);
		pk[i].id = i;
		assert_true(asic_inject(n->as[0], 0, &pk[i], 0));
	}
}

/* Run @p n for cycles [@p from, @p to): the tail cycle of each packet delivered in tails[id]. */
static void run_tails(struct net *n, uint64_t from, uint64_t to, uint64_t *tails)
{
	struct asic_ejection ej[8];

	for (uint64_t c = from; c < to; c++) {
		unsigned got = net_cycle(n, c, ej, 8);

		for (unsigned k = 0; k < got; k++)
			tails[ej[k].pkt->id] = ej[k].tail_cycle;
	}
}

/*
 * Two packets from node 0 to node 1 of a 2-router network built with @p par, run for 100
 * cycles: their tail cycles in @p tails, @return router 0's credit stalls on port 0. The caller
 * checks what else it needs on @p n and frees it.
 */
static uint64_t two_packets(struct net *n, const struct asic_params *par, uint64_t tails[2])
{
	static struct asic_pkt pk[2]; /* static: the network points at them after we return */
	uint64_t stalls = 0;

	send_0_to_1(n, par, pk, 2);
	tails[0] = tails[1] = 0;
	run_tails(n, 0, 100, tails);
	for (int v = 0; v < 3; v++)
		stalls += n->regs[0].vc_ctr[0][v][DFLY_VC_CREDIT_STALL];
	return stalls;
}

static void backpressure(bool credit_at_tail, uint64_t credit_back, uint64_t tail2)
{
	struct asic_params par = default_params(8);
	struct net n;
	uint64_t tails[2], stalls;

	par.credit_at_tail = credit_at_tail;
	stalls = two_packets(&n, &par, tails);
	assert_int_equal(tails[0], 29);
	assert_int_equal(tails[1], tail2);
	/* the second head (ready at 11) waited for its credit, every tick counted as a stall */
	assert_int_equal(stalls, (credit_back - 11) * 2);
	assert_drained(&n);
	net_free(&n);
}

static void test_backpressure_tail(void **state)
{
	(void)state;
	backpressure(true, 34, 60);
}

static void test_backpressure_grant(void **state)
{
	(void)state;
	backpressure(false, 28, 54);
}

/*
 * links.terminal_serialise = false (asic_params.inj_unpaced, FOGSim's generator writing each
 * packet into the injection buffer as it is generated): four 8-phit packets injected at cycle
 * 0 on node 0 (p=1, a=2, h=1; the local VC holds all 32 phits) all arrive with the first one,
 * head at 1, tail at 9, instead of one after another on the node's link (heads at 1, 9, 17,
 * 25). The output's link still carries one phit a cycle, so their tails reach node 1 8 cycles
 * apart as before (29, 37, 45, 53), but they cross the crossbar as soon as it is free: the
 * first is granted at 3 and its tail leaves the input at 9 (cut-through: it cannot outrun its
 * own tail), then one every 8 phits / speedup 2 = 4 cycles, 9, 13, 17, instead of at 3, 11,
 * 19, 27 behind their heads.
 */
static void terminal_pacing(bool unpaced, const uint64_t want_inj[4])
{
	struct asic_params par = default_params(32);
	struct net n;
	struct asic_pkt pk[4];
	uint64_t tails[4] = {0};

	par.inj_unpaced = unpaced;
	send_0_to_1(&n, &par, pk, 4);
	run_tails(&n, 0, 120, tails);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(pk[i].inj_cycle, want_inj[i]);
		assert_int_equal(tails[i], 29 + 8 * (uint64_t)i);
	}
	assert_drained(&n);
	net_free(&n);
}

static void test_terminal_paced(void **state)
{
	static const uint64_t inj[4] = {3, 11, 19, 27};

	(void)state;
	terminal_pacing(false, inj);
}

static void test_terminal_unpaced(void **state)
{
	static const uint64_t inj[4] = {3, 9, 13, 17};

	(void)state;
	terminal_pacing(true, inj);
}

/*
 * Link-rate emulation off (asic_params.no_link_rate, clock.link_rate = false): a packet holds
 * a link or crossbar port for one cycle, whatever its length. Four 8-phit packets from node 0
 * to node 1 (p=1, a=2, h=1; the local VC holds all 32 phits) follow each other one cycle apart:
 * heads at router 0 at 1..4 (node link: one cycle each), granted 3..6, out 6..9, at router 1
 * 16..19, granted 18..21, out 21..24; each tail reaches the node with its head, one cycle
 * later (terminal link): 22..25, where the link rate makes the first 29 (single_packet_timing)
 * and spaces the others 8 cycles apart. Buffers and credits still count phits: 8 per packet.
 */
static void test_no_link_rate(void **state)
{
	struct asic_params par = default_params(32);
	struct net n;
	struct asic_pkt pk[4];
	uint64_t tails[4] = {0};
	uint32_t out0 = 1;

	(void)state;
	par.no_link_rate = true;
	send_0_to_1(&n, &par, pk, 4);
	run_tails(&n, 0, 11, tails);
	/* after cycle 10 all four are granted at router 0: 4 × 8 phits of the 32 credits reserved
	 */
	asic_sync_gauges(n.as[0]);
	assert_int_equal(n.regs[0].vc_gauge[out0][1][DFLY_VC_CREDITS], 0);
	run_tails(&n, 11, 80, tails);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(pk[i].inj_cycle, 3 + i);
		assert_int_equal(tails[i], 22 + i);
	}
	assert_int_equal(n.regs[0].port_ctr[out0][DFLY_LINK_BUSY_CYCLES], 4);
	assert_int_equal(n.regs[0].port_ctr[out0][DFLY_TX_PHITS], 32);
	assert_int_equal(n.regs[0].port_ctr[out0][DFLY_CREDITS_RX], 32);
	assert_int_equal(n.regs[1].route[DFLY_ROUTE_EJECT], 4);
	assert_drained(&n);
	net_free(&n);
}

/*
 * A-5.6, knobs.ctrl_charge: a CPU-port control frame on router 0's local link (p=1, a=2, h=1),
 * next to two packets to router 1 (generated at 0; out of router 0 at 6 and 14 uncharged, the
 * first one on the link 6..13). The frame is a CREDIT of 3 entries: 38 bytes, 24 after the
 * Ethernet header, 3 phits of 10 bytes. Queued for the step of cycle @p frame_at.
 */
struct ctrl_run {
	uint64_t frame_rx; /* cycle the frame reached router 1's CPU port */
	uint64_t tails[2]; /* tail cycles of the two packets at node 1 */
	uint64_t busy;     /* router 0's link_busy_cycles on the local port */
};

static struct ctrl_run ctrl_charge_run(bool charge, uint64_t frame_at)
{
	struct asic_params par = default_params(32);
	struct dfly_wire_ctrl m = {.type = DFLY_WIRE_CTRL_CREDIT, .src_router = 0};
	struct ctrl_run r = {0};
	uint8_t frame[64];
	struct net n;
	struct asic_pkt pk[2];
	struct asic_ejection ej[4];
	const uint32_t out0 = 1;
	int len;

	m.credit.n = 1; /* any 38-byte control frame: 3 phits of 16 bytes */
	m.credit.e[0].phits = 8;
	len = dfly_wire_ctrl_encode(frame, sizeof(frame), NULL, &m);
	assert_int_equal(len, 38);
	net_build(&n, 1, 2, 1, &par, DFLY_MODE_MIN, map_min);
	for (uint32_t k = 0; k < n.topo->routers; k++)
		n.regs[k].knobs.ctrl_charge = charge;
	for (int i = 0; i < 2; i++) {
		pkt_init(&pk[i], 0, 1, 0);
		pk[i].id = (uint32_t)i;
		assert_true(asic_inject(n.as[0], 0, &pk[i], 0));
	}
	for (uint64_t c = 0; c < 100; c++) {
		const struct dfly_cpu_slot *sl;
		unsigned got;

		if (c == frame_at)
			assert_int_equal(dfly_cpu_ring_put(&n.regs[0].cpu_tx, (uint16_t)out0, c,
							   frame, (uint16_t)len),
					 0);
		got = net_cycle(&n, c, ej, 4);
		for (unsigned k = 0; k < got; k++)
			r.tails[ej[k].pkt->id] = ej[k].tail_cycle;
		if ((sl = dfly_cpu_ring_peek(&n.regs[1].cpu_rx)) != NULL) {
			assert_int_equal(sl->len, len);
			assert_int_equal(sl->port, 1);
			r.frame_rx = sl->cycle;
			dfly_cpu_ring_pop(&n.regs[1].cpu_rx);
		}
	}
	assert_int_equal(n.regs[0].port_ctr[out0][DFLY_CTRL_TX], 1);
	assert_int_equal(n.regs[1].port_ctr[1][DFLY_CTRL_RX], 1);
	assert_int_equal(n.regs[0].port_ctr[out0][DFLY_TX_PHITS], 16);
	r.busy = n.regs[0].port_ctr[out0][DFLY_LINK_BUSY_CYCLES];
	assert_drained(&n);
	net_free(&n);
	return r;
}

static void test_ctrl_charge(void **state)
{
	struct ctrl_run r;

	(void)state;
	/* out of band (default): the frame takes no link time, the packets do not see it */
	r = ctrl_charge_run(false, 6);
	assert_int_equal(r.frame_rx, 6 + 10);
	assert_int_equal(r.tails[0], 29);
	assert_int_equal(r.tails[1], 37);
	assert_int_equal(r.busy, 16);
	r = ctrl_charge_run(false, 7);
	assert_int_equal(r.frame_rx, 7 + 10);
	assert_int_equal(r.tails[0], 29);
	assert_int_equal(r.tails[1], 37);

	/* charged, on a free link at 6: the frame holds it 6..8 and arrives at 6 + 3 + 10; the
	 * first packet, in the FIFO at 6, starts at 9 (tail 29 + 3) and holds the link until 16,
	 * so the second, ready at 14, leaves at 17 */
	r = ctrl_charge_run(true, 6);
	assert_int_equal(r.frame_rx, 19);
	assert_int_equal(r.tails[0], 32);
	assert_int_equal(r.tails[1], 37 + 3);
	assert_int_equal(r.busy, 16 + 3);

	/* charged, at 7: the link carries the first packet until 13, so the frame goes 14..16
	 * and arrives at 14 + 3 + 10 = 27; the second packet, ready at 14, waits until 17 */
	r = ctrl_charge_run(true, 7);
	assert_int_equal(r.frame_rx, 27);
	assert_int_equal(r.tails[0], 29);
	assert_int_equal(r.tails[1], 37 + 3);
	assert_int_equal(r.busy, 16 + 3);
}

/*
 * Valiant on h=2 (4/2 VCs): every packet uses each role's VC at most once, local VC indices and
 * global VC indices strictly increase along the path, S_ROOT is outside the source and
 * destination groups, and the packet is marked nonminimal.
 */
static void test_val_roles(void **state)
{
	struct asic_params par = default_params(32);
	struct net n;
	enum { NPKT = 200 };
	struct asic_pkt *pk = calloc(NPKT, sizeof(*pk));
	struct asic_ejection ej[64];
	unsigned done = 0;
	uint64_t prev_l[4] = {0}, prev_g[2] = {0}; /* VC counters before the current packet */

	(void)state;
	net_build(&n, 2, 4, 2, &par, DFLY_MODE_VAL, map_val);
	for (uint32_t i = 0; i < NPKT; i++) {
		uint32_t src = (i * 7) % n.topo->nodes, dst = (i * 13 + 5) % n.topo->nodes;

		if (dst == src)
			dst = (dst + 1) % n.topo->nodes;
		pkt_init(&pk[i], src, dst, 0);
		pk[i].id = i;
		/* one packet at a time, so the VC counters' deltas belong to it */
		assert_true(asic_inject(n.as[src / 2], src % 2, &pk[i], i * 2000));
		for (uint64_t c = i * 2000; c < i * 2000 + 2000; c++) {
			unsigned got = net_cycle(&n, c, ej, 64);

			for (unsigned k = 0; k < got; k++) {
				struct asic_pkt *p = ej[k].pkt;
				uint32_t G = p->val_router / 4, Gs = p->src_node / 8,
					 Gd = p->dst_node / 8;

				assert_int_equal(ej[k].drop, 0);
				assert_true(p->flags & ASIC_PKT_NONMIN);
				assert_true(G != Gs && G != Gd);
				assert_int_equal(p->ghops, 2);
				assert_true(p->lhops <= 4);
				done++;
			}
		}
		/* VC use along this packet's path: each local VC at most once, globals G0 + G1 */
		{
			uint64_t lv[4] = {0}, gv[2] = {0};

			for (uint32_t r = 0; r < n.topo->routers; r++) {
				for (uint32_t port = n.topo->first_local; port < n.topo->radix;
				     port++) {
					for (uint32_t v = 0; v < 4; v++) {
						uint64_t x =
						    n.regs[r].vc_ctr[port][v][DFLY_VC_OUT_VC_PKTS];

						if (port < n.topo->first_global)
							lv[v] += x;
						else if (v < 2)
							gv[v] += x;
					}
				}
			}
			for (int v = 0; v < 4; v++) {
				assert_true(lv[v] - prev_l[v] <= 1);
				prev_l[v] = lv[v];
			}
			for (int v = 0; v < 2; v++) {
				assert_int_equal(gv[v] - prev_g[v], 1);
				prev_g[v] = gv[v];
			}
		}
	}
	assert_int_equal(done, NPKT);
	assert_drained(&n);
	net_free(&n);
	free(pk);
}

/*
 * FlexVC (spec §2.4) with one packet in flight at a time, so every allowed VC has all its
 * credits and the policy alone decides. MIN on 4/2 VCs: the reference sequence is the unused
 * VCs l2 l3 g1, then l0 g0 l1 (S1 G1 D2). S1 may use l2 l3 l0, G1 g1 g0, D2 any local: HIGHEST
 * puts every local hop on VC 3 and the global hop on VC 1, LOWEST everything on VC 0, off the
 * role map (l0, g0, l1). VAL uses all of 4/2: LOWEST puts every hop on VC 0, HIGHEST keeps the
 * role map except where a hop's role is not its latest place (below).
 */
static uint32_t flexvc_sets; /* vcs.flexvc_sets of the next flexvc_hops_class() */

static void flexvc_hops_class(enum dfly_route_mode mode, const uint8_t *map, uint32_t sel,
			      int reqrep, uint64_t lv[4], uint64_t gv[2])
{
	struct asic_params par = default_params(32);
	struct net n;
	enum { NPKT = 60 };
	struct asic_pkt *pk = calloc(NPKT, sizeof(*pk));
	struct asic_ejection ej[64];
	unsigned done = 0;

	net_build(&n, 2, 4, 2, &par, mode, map);
	for (uint32_t r = 0; r < n.topo->routers; r++) {
		n.regs[r].knobs.flexvc = sel;
		n.regs[r].knobs.flexvc_sets = flexvc_sets;
		if (reqrep) { /* MIN's 2/1 twice: the reply class from l2, g1 */
			n.regs[r].knobs.reply_vc[DFLY_PORT_LOCAL] = 2;
			n.regs[r].knobs.reply_vc[DFLY_PORT_GLOBAL] = 1;
		}
	}
	for (uint32_t i = 0; i < NPKT; i++) {
		uint32_t src = (i * 7) % n.topo->nodes, dst = (i * 13 + 5) % n.topo->nodes;

		if (dst == src)
			dst = (dst + 1) % n.topo->nodes;
		pkt_init(&pk[i], src, dst, 0);
		if (reqrep > 1)
			pk[i].flags |= ASIC_PKT_REPLY;
		assert_true(asic_inject(n.as[src / 2], src % 2, &pk[i], i * 2000));
		for (uint64_t c = i * 2000; c < i * 2000 + 2000; c++) {
			unsigned got = net_cycle(&n, c, ej, 64);

			for (unsigned k = 0; k < got; k++)
				assert_int_equal(ej[k].drop, 0);
			done += got;
		}
	}
	assert_int_equal(done, NPKT);
	memset(lv, 0, 4 * sizeof(*lv));
	memset(gv, 0, 2 * sizeof(*gv));
	for (uint32_t r = 0; r < n.topo->routers; r++)
		for (uint32_t port = n.topo->first_local; port < n.topo->radix; port++)
			for (uint32_t v = 0; v < 4; v++) {
				uint64_t x = n.regs[r].vc_ctr[port][v][DFLY_VC_OUT_VC_PKTS];

				if (port < n.topo->first_global)
					lv[v] += x;
				else if (v < 2)
					gv[v] += x;
			}
	assert_drained(&n);
	net_free(&n);
	free(pk);
}

static void flexvc_hops(enum dfly_route_mode mode, const uint8_t *map, uint32_t sel, uint64_t lv[4],
			uint64_t gv[2])
{
	flexvc_hops_class(mode, map, sel, 0, lv, gv);
}

/*
 * Request-reply (traffic.reqrep) under MIN with 4/2 VCs, 2/1 per class (spec 2.2, 2.4): a
 * request keeps to l0 l1 g0, a reply to l2 l3 g1 on its role map; under FlexVC a reply may also
 * take the request VCs (the concatenated sequence, request VCs first: thesis Theorem 2), a
 * request never the reply VCs. LOWEST shows it: replies then travel on l0 and g0.
 */
static void test_reqrep_classes(void **state)
{
	uint64_t lv[4], gv[2];

	(void)state;
	flexvc_hops_class(DFLY_MODE_MIN, map_min, DFLY_FLEXVC_OFF, 1, lv, gv);
	assert_true(lv[0] > 0 && lv[1] > 0 && gv[0] > 0);
	assert_true(lv[2] == 0 && lv[3] == 0 && gv[1] == 0);
	flexvc_hops_class(DFLY_MODE_MIN, map_min, DFLY_FLEXVC_OFF, 2, lv, gv);
	assert_true(lv[2] > 0 && lv[3] > 0 && gv[1] > 0);
	assert_true(lv[0] == 0 && lv[1] == 0 && gv[0] == 0);
	/* FlexVC, HIGHEST: each class's own role VCs are its latest places */
	flexvc_hops_class(DFLY_MODE_MIN, map_min, DFLY_FLEXVC_HIGHEST, 1, lv, gv);
	assert_true(lv[0] > 0 && lv[1] > 0 && gv[0] > 0);
	assert_true(lv[2] == 0 && lv[3] == 0 && gv[1] == 0);
	flexvc_hops_class(DFLY_MODE_MIN, map_min, DFLY_FLEXVC_HIGHEST, 2, lv, gv);
	assert_true(lv[2] > 0 && lv[3] > 0 && gv[1] > 0);
	assert_true(lv[0] == 0 && lv[1] == 0 && gv[0] == 0);
	/* LOWEST: a reply takes the first request VC of each kind; a request too */
	flexvc_hops_class(DFLY_MODE_MIN, map_min, DFLY_FLEXVC_LOWEST, 2, lv, gv);
	assert_true(lv[0] > 0 && gv[0] > 0);
	assert_true(lv[1] == 0 && lv[2] == 0 && lv[3] == 0 && gv[1] == 0);
	flexvc_hops_class(DFLY_MODE_MIN, map_min, DFLY_FLEXVC_LOWEST, 1, lv, gv);
	assert_true(lv[0] > 0 && gv[0] > 0);
	assert_true(lv[1] == 0 && lv[2] == 0 && lv[3] == 0 && gv[1] == 0);
	/* JSQ with equal credits, requests: the higher of l0 l1 where both are allowed (D2),
	 * never a reply VC */
	flexvc_hops_class(DFLY_MODE_MIN, map_min, DFLY_FLEXVC_JSQ, 1, lv, gv);
	assert_true(lv[1] > 0 && gv[0] > 0 && lv[2] == 0 && lv[3] == 0 && gv[1] == 0);
}

/*
 * traffic.reply = consume (FOGSim v5 ioqSwitchModule::checkConsumePort): a request crosses the
 * crossbar to its node port only while that node's reply injection VCs (the last half: VCs 1
 * and 2 of 3) have room for its reply, so it waits in its input VC and a reply to the same node
 * passes it. Node 1 (router 0) keeps its reply VCs full for 300 cycles with replies of its own
 * to node 2, whose local link is held down meanwhile; node 0 sends node 1 a request Q at cycle 0
 * and a reply P at cycle 1. With "consume" P reaches node 1 first and the request's wait is
 * counted (reply_wait); with "queue" Q does, and nothing waits.
 */
static void reply_gate_run(uint32_t consume, uint64_t *first_id, uint64_t *wait)
{
	struct asic_params par = default_params(32);
	struct net n;
	enum { NFILL = 200 };
	struct asic_pkt *pk = calloc(NFILL + 2, sizeof(*pk));
	struct asic_ejection ej[64];
	struct dfly_hop hop[4];
	struct asic_pkt reply;
	unsigned done = 0, filled = 0;

	net_build(&n, 2, 4, 2, &par, DFLY_MODE_MIN, map_min);
	for (uint32_t r = 0; r < n.topo->routers; r++) {
		n.regs[r].knobs.reply_consume = consume;
		n.regs[r].knobs.reply_vc[DFLY_PORT_LOCAL] = 2;
		n.regs[r].knobs.reply_vc[DFLY_PORT_GLOBAL] = 1;
	}
	assert_int_equal(dfly_topo_min_path(n.topo, 0, 1, 2, hop), 1);
	assert_int_equal(asic_port_set_down(n.as[0], hop[0].port, true), 0);
	pkt_init(&pk[NFILL], 0, 1, 0); /* Q, a generated request */
	pk[NFILL].flags = ASIC_PKT_SYNTH;
	pk[NFILL].id = 1;
	assert_true(asic_inject(n.as[0], 0, &pk[NFILL], 0));
	pkt_init(&pk[NFILL + 1], 0, 1, 1); /* P, a reply */
	pk[NFILL + 1].flags = ASIC_PKT_REPLY;
	pk[NFILL + 1].id = 2;
	*first_id = 0;
	for (uint64_t c = 0; c < 20000 && done < filled + 2; c++) {
		unsigned got;

		while (c < 300 && filled < NFILL) {
			pkt_init(&pk[filled], 1, 2, c);
			pk[filled].flags = ASIC_PKT_REPLY;
			pk[filled].id = 100 + filled;
			if (!asic_inject(n.as[0], 1, &pk[filled], c))
				break;
			filled++;
		}
		if (c == 1)
			assert_true(asic_inject(n.as[0], 0, &pk[NFILL + 1], 1));
		if (c == 300)
			assert_int_equal(asic_port_set_down(n.as[0], hop[0].port, false), 0);
		got = net_cycle(&n, c, ej, 64);
		for (unsigned k = 0; k < got; k++) {
			assert_int_equal(ej[k].drop, 0);
			if (*first_id == 0 && ej[k].pkt->dst_node == 1)
				*first_id = ej[k].pkt->id;
			if (consume && ej[k].pkt->id == 1) {
				/* the edge's part: Q's reply into the room kept for it */
				pkt_init(&reply, 1, 0, c);
				reply.flags = ASIC_PKT_SYNTH | ASIC_PKT_REPLY;
				reply.id = 3;
				assert_true(asic_inject(n.as[0], 1, &reply, c));
				filled++;
			}
		}
		done += got;
	}
	assert_true(filled < NFILL); /* the fill stopped at full VCs, not at the array's end */
	assert_int_equal(done, filled + 2);
	for (uint64_t c = 20000; c < 21000; c++) /* the last credits come home */
		assert_int_equal(net_cycle(&n, c, ej, 64), 0);
	*wait = n.regs[0].port_ctr[1][DFLY_REPLY_WAIT];
	assert_drained(&n);
	net_free(&n);
	free(pk);
}

static void test_reply_consume_gate(void **state)
{
	uint64_t first, wait;

	(void)state;
	reply_gate_run(1, &first, &wait);
	assert_int_equal(first, 2); /* the reply P passed the waiting request Q */
	assert_true(wait > 0);
	reply_gate_run(0, &first, &wait);
	assert_int_equal(first, 1);
	assert_int_equal(wait, 0);
}

static void test_flexvc_allowed(void **state)
{
	uint64_t lv[4], gv[2];

	(void)state;
	flexvc_hops(DFLY_MODE_MIN, map_min, DFLY_FLEXVC_OFF, lv, gv);
	assert_true(lv[0] > 0 && lv[1] > 0 && gv[0] > 0);
	assert_true(lv[2] == 0 && lv[3] == 0 && gv[1] == 0);
	flexvc_hops(DFLY_MODE_MIN, map_min, DFLY_FLEXVC_HIGHEST, lv, gv);
	assert_true(lv[3] > 0 && gv[1] > 0);
	assert_true(lv[0] == 0 && lv[1] == 0 && lv[2] == 0 && gv[0] == 0);
	flexvc_hops(DFLY_MODE_MIN, map_min, DFLY_FLEXVC_LOWEST, lv, gv);
	assert_true(lv[0] > 0 && gv[0] > 0);
	assert_true(lv[1] == 0 && lv[2] == 0 && lv[3] == 0 && gv[1] == 0);
	/* JSQ with equal credits takes the highest index */
	flexvc_hops(DFLY_MODE_MIN, map_min, DFLY_FLEXVC_JSQ, lv, gv);
	assert_true(lv[3] > 0 && lv[0] == 0 && lv[1] == 0 && lv[2] == 0 && gv[0] == 0);

	flexvc_hops(DFLY_MODE_VAL, map_val, DFLY_FLEXVC_LOWEST, lv, gv);
	assert_true(lv[0] > 0 && gv[0] > 0);
	assert_true(lv[1] == 0 && lv[2] == 0 && lv[3] == 0 && gv[1] == 0);
	{
		uint64_t hl[4], hg[2], ol[4], og[2];

		flexvc_hops(DFLY_MODE_VAL, map_val, DFLY_FLEXVC_HIGHEST, hl, hg);
		flexvc_hops(DFLY_MODE_VAL, map_val, DFLY_FLEXVC_OFF, ol, og);
		/* the same hops, at the latest place of each: an I1 hop with no I2 after it
		 * (S_ROOT is the exit router) may take l2 instead of its role's l1 */
		assert_memory_equal(hg, og, sizeof(hg));
		assert_true(hl[0] == ol[0] && hl[3] == ol[3] && ol[3] > 0 && og[1] > 0);
		assert_true(hl[1] + hl[2] == ol[1] + ol[2]);
		assert_true(hl[2] > ol[2]);
	}
}

/*
 * vcs.flexvc_sets = "group" (FOGSim's source-group VCs): MIN on 4/2, sequence l2 l3 g1 | l0 g0
 * l1; the source group's segment ends before the first global place (g1): l2 l3. LOWEST shows
 * the boundary: on "path" every local hop takes l0 (S1 may use l2 l3 l0); on "group" a hop
 * leaving the source group takes l2 (l0 is the intermediate side of g1), a hop in the
 * destination group (D2, and every hop of a packet inside its own group) still l0; HIGHEST:
 * S1 on l3 either way. No packet of either ever takes l1 under LOWEST, and globals are as on
 * "path".
 */
static void test_flexvc_group(void **state)
{
	uint64_t lv[4], gv[2], pl[4], pg[2];

	(void)state;
	flexvc_hops(DFLY_MODE_MIN, map_min, DFLY_FLEXVC_LOWEST, pl, pg);
	flexvc_sets = DFLY_FLEXVC_SETS_GROUP;
	flexvc_hops(DFLY_MODE_MIN, map_min, DFLY_FLEXVC_LOWEST, lv, gv);
	flexvc_sets = DFLY_FLEXVC_SETS_PATH;
	assert_true(pl[0] > 0 && pl[2] == 0);
	assert_true(lv[2] > 0 && lv[0] > 0 && lv[1] == 0 && lv[3] == 0);
	assert_true(lv[0] + lv[2] == pl[0]);
	assert_memory_equal(gv, pg, sizeof(gv));
	flexvc_sets = DFLY_FLEXVC_SETS_GROUP;
	flexvc_hops(DFLY_MODE_MIN, map_min, DFLY_FLEXVC_HIGHEST, lv, gv);
	flexvc_sets = DFLY_FLEXVC_SETS_PATH;
	flexvc_hops(DFLY_MODE_MIN, map_min, DFLY_FLEXVC_HIGHEST, pl, pg);
	assert_memory_equal(lv, pl, sizeof(lv));
	assert_memory_equal(gv, pg, sizeof(gv));
}

/* A packet arriving with a VC the port does not have is dropped and counted, never queued. */
static void test_bad_vc_dropped(void **state)
{
	struct asic_params par = default_params(32);
	struct net n;
	struct asic_pkt pk;
	struct asic_ejection ej[4];
	struct asic_link *l;
	unsigned got = 0;

	(void)state;
	net_build(&n, 1, 2, 1, &par, DFLY_MODE_MIN, map_min);
	l = n.links[0]; /* router 0 local → router 1 */
	pkt_init(&pk, 0, 1, 0);
	pk.vc = 7;
	assert_true(asic_link_push_data(l, &pk, 5)); /* as if router 0 had sent it */
	for (uint64_t c = 0; c < 10; c++)
		got += net_cycle(&n, c, ej + got, 4 - got);
	assert_int_equal(got, 1);
	assert_int_equal(ej[0].drop, 1 + DFLY_DROP_BAD_VC);
	assert_int_equal(n.regs[1].drop[DFLY_DROP_BAD_VC], 1);
	assert_int_equal(asic_pkts_held(n.as[1]), 0);
	net_free(&n);
}

/* Step router 1 of @p n alone through @p c; the first ejection's cycle or UINT64_MAX. */
static uint64_t cal_step(struct net *n, uint64_t c)
{
	struct asic_ejection ej[4];

	asic_step(n->as[1], c);
	return asic_eject_burst(n->as[1], ej, 4) ? ej[0].tail_cycle : UINT64_MAX;
}

/*
 * The arrival calendar (ASIC_CAL_SLOTS): whatever a link's receiver is told is due arrives at
 * exactly that step, whether it fits the calendar, lies beyond it (polled), is already late, or
 * falls in cycles the driver skipped; credits and control records likewise. A packet with a VC
 * the port lacks is dropped the cycle it arrives, which dates its arrival.
 */
static void test_calendar(void **state)
{
	struct asic_params par = default_params(32);
	struct net n;
	struct asic_pkt pk[5];
	struct asic_link *l, *back = NULL;
	uint64_t c, seen, far = ASIC_CAL_SLOTS + 500;
	uint32_t vec = 0x5;

	(void)state;
	net_build(&n, 1, 2, 1, &par, DFLY_MODE_MIN, map_min);
	l = n.links[0]; /* router 0 local → router 1 */
	for (uint32_t k = 0; k < n.nlinks; k++)
		if (n.links[k]->up == n.as[1] && n.links[k]->down == n.as[0])
			back = n.links[k]; /* router 1 → router 0: its credits reach router 1 */
	assert_non_null(back);
	for (int k = 0; k < 5; k++) {
		pkt_init(&pk[k], 0, 1, 0);
		pk[k].vc = 7;
	}
	/* 1. beyond the calendar: polled, taken at its due cycle, not before */
	assert_true(asic_link_push_data(l, &pk[0], far));
	for (c = 0, seen = UINT64_MAX; c <= far && seen == UINT64_MAX; c++)
		seen = cal_step(&n, c);
	assert_int_equal(seen, far);
	/* 2. the last slot the calendar holds and the first it does not, side by side */
	assert_true(asic_link_push_data(l, &pk[1], far + ASIC_CAL_SLOTS));
	assert_true(asic_link_push_data(l, &pk[2], far + ASIC_CAL_SLOTS + 1));
	for (seen = UINT64_MAX; seen == UINT64_MAX; c++)
		seen = cal_step(&n, c);
	assert_int_equal(seen, far + ASIC_CAL_SLOTS);
	assert_int_equal(cal_step(&n, c), far + ASIC_CAL_SLOTS + 1);
	c++;
	/* 3. late (due before the next step): taken at the next step */
	assert_true(asic_link_push_data(l, &pk[3], 5));
	assert_int_equal(cal_step(&n, c), c);
	c++;
	/* 4. due in cycles the driver skips: taken at the step it makes */
	assert_true(asic_link_push_data(l, &pk[4], c + 10));
	assert_int_equal(cal_step(&n, c), UINT64_MAX);
	assert_int_equal(cal_step(&n, c + 40), c + 40);
	c += 41;
	/* 5. credits (a line is FIFO: in due order), one in the calendar and one beyond it, and
	 * a control record */
	assert_true(asic_link_push_credit(back, 0, 4, c + 7));
	assert_true(asic_link_push_credit(back, 0, 3, c + far));
	assert_true(asic_link_push_ctrl(l, ASIC_CTRL_PB_INFO, &vec, sizeof(vec), c + 9));
	for (uint64_t k = 0; k <= far; k++) {
		uint64_t rx = n.regs[1].port_ctr[back->up_port][DFLY_CREDITS_RX];

		cal_step(&n, c + k);
		rx = n.regs[1].port_ctr[back->up_port][DFLY_CREDITS_RX] - rx;
		assert_int_equal(rx, k == 7 ? 4 : k == far ? 3 : 0);
		assert_int_equal(n.regs[1].mech.pb_rx_count[l->down_port], k >= 9 ? 1 : 0);
	}
	assert_int_equal(n.regs[1].drop[DFLY_DROP_BAD_VC], 5);
	net_free(&n);
}

/*
 * asic_link_set_lag (dfly sim's sim.batch): routers stepped 10 cycles each in a row (the local
 * links' latency), the receiver after the sender, give the state of cycle-by-cycle stepping. The
 * sender's firmware queues 8 control frames per cycle on one local link, more than its control
 * line holds: the same frames are dropped as ctrl_link_full and the same arrive, at the same
 * cycles, and the line's buffer grew once, for the frames the lagging receiver had not taken.
 */
struct lag_run {
	struct dfly_regs regs[6];
	uint64_t rx_sum, rx_n;
	uint32_t cb_size, cb_cap;
};

static void lag_run(bool batch, struct lag_run *out)
{
	struct asic_params par = default_params(32);
	struct dfly_wire_ctrl m = {.type = DFLY_WIRE_CTRL_CREDIT, .src_router = 0};
	uint8_t frame[64];
	struct net n;
	struct asic_link *l = NULL;
	const uint32_t out0 = 1, B = batch ? 10 : 1;
	int len;

	m.credit.n = 1;
	m.credit.e[0].phits = 8;
	len = dfly_wire_ctrl_encode(frame, sizeof(frame), NULL, &m);
	assert_true(len > 0);
	net_build(&n, 1, 2, 1, &par, DFLY_MODE_MIN, map_min);
	for (uint32_t k = 0; k < n.nlinks; k++) {
		if (batch)
			assert_int_equal(asic_link_set_lag(n.links[k], B - 1), 0);
		if (n.links[k]->up == n.as[0] && n.links[k]->up_port == out0)
			l = n.links[k];
	}
	assert_non_null(l);
	assert_ptr_equal(l->down, n.as[1]);
	memset(out, 0, sizeof(*out));
	for (uint64_t c0 = 0; c0 < 60; c0 += B)
		for (uint32_t r = 0; r < n.topo->routers; r++)
			for (uint64_t c = c0; c < c0 + B; c++) {
				const struct dfly_cpu_slot *sl;

				for (int f = 0; r == 0 && c < 40 && f < 8; f++)
					assert_int_equal(dfly_cpu_ring_put(&n.regs[0].cpu_tx,
									   (uint16_t)out0, c, frame,
									   (uint16_t)len),
							 0);
				asic_step(n.as[r], c);
				while (r == 1 &&
				       (sl = dfly_cpu_ring_peek(&n.regs[1].cpu_rx)) != NULL) {
					out->rx_sum += sl->cycle * 1000003 + sl->port;
					out->rx_n++;
					dfly_cpu_ring_pop(&n.regs[1].cpu_rx);
				}
			}
	memcpy(out->regs, n.regs, sizeof(out->regs));
	out->cb_size = l->cb_mask + 1;
	out->cb_cap = l->cb_cap;
	assert_int_equal(asic_link_ctrl_bytes(l), 0);
	net_free(&n);
}

static void test_link_lag(void **state)
{
	static struct lag_run a, b;

	(void)state;
	lag_run(false, &a);
	lag_run(true, &b);
	assert_true(a.regs[0].drop[DFLY_DROP_CTRL_LINK_FULL] > 0);
	assert_true(a.regs[0].port_ctr[1][DFLY_CTRL_TX] > 0);
	assert_int_equal(a.rx_n, a.regs[0].port_ctr[1][DFLY_CTRL_TX]);
	assert_int_equal(a.rx_n + a.regs[0].drop[DFLY_DROP_CTRL_LINK_FULL], 40 * 8);
	assert_int_equal(b.rx_n, a.rx_n);
	assert_int_equal(b.rx_sum, a.rx_sum);
	for (int r = 0; r < 6; r++)
		assert_memory_equal(&b.regs[r], &a.regs[r], sizeof(a.regs[r]));
	assert_int_equal(a.cb_size, a.cb_cap);
	assert_int_equal(b.cb_cap, a.cb_cap);
	assert_int_equal(b.cb_size, 2 * b.cb_cap); /* grew once, for the lagging receiver */
}

/* Injection refuses a packet when no injection VC has room, and reports the room left. */
static void test_injection_full(void **state)
{
	struct asic_params par = default_params(32);
	struct net n;
	struct asic_pkt pk[3 * 32 + 1];
	unsigned accepted = 0;

	(void)state;
	par.buf[DFLY_PORT_TERMINAL] = 256;
	net_build(&n, 1, 2, 1, &par, DFLY_MODE_MIN, map_min);
	assert_int_equal(asic_inject_room(n.as[0], 0), 256);
	for (unsigned i = 0; i < 3 * 32 + 1; i++) {
		pkt_init(&pk[i], 0, 1, 0);
		accepted += asic_inject(n.as[0], 0, &pk[i], 0);
	}
	assert_int_equal(accepted, 3 * 32);
	assert_int_equal(asic_inject_room(n.as[0], 0), 0);
	assert_int_equal(asic_pkts_held(n.as[0]), 3 * 32);
	net_free(&n);
}

/* Each input VC caches its head and the head's ready tick for the allocator: the check follows
 * the ring through pushes and grants, and catches a head whose ready tick changed behind it. */
static void test_head_cache(void **state)
{
	struct asic_params par = default_params(32);
	struct asic_ejection ej[64];
	struct net n;
	struct asic_pkt pk[40];
	char why[200];
	unsigned got = 0;

	(void)state;
	par.buf[DFLY_PORT_TERMINAL] = 256;
	net_build(&n, 1, 2, 1, &par, DFLY_MODE_MIN, map_min);
	for (unsigned i = 0; i < 40; i++) {
		pkt_init(&pk[i], 0, 1 + i % 3, 0);
		assert_true(asic_inject(n.as[0], 0, &pk[i], 0));
	}
	/* 40 packets, then the credits' way back */
	for (uint64_t c = 0; c < 3000; c++) {
		for (uint32_t r = 0; r < n.topo->routers; r++)
			assert_int_equal(asic_check_heads(n.as[r], why, sizeof(why)), 0);
		got += net_cycle(&n, c, ej, 64);
	}
	assert_int_equal(got, 40);
	assert_drained(&n);
	/* a head the VC did not see change */
	pkt_init(&pk[0], 0, 1, 0);
	assert_true(asic_inject(n.as[0], 0, &pk[0], 6000));
	assert_int_equal(asic_check_heads(n.as[0], why, sizeof(why)), 0);
	pk[0].ready_tick++;
	assert_int_equal(asic_check_heads(n.as[0], why, sizeof(why)), -1);
	assert_non_null(strstr(why, "router 0 port 0 VC"));
	pk[0].ready_tick--;
	/* a settled route the allocator keeps for a blocked head (port, VC, length): packets to
	 * router 1 with no credits towards it, so the head waits */
	{
		uint32_t o = dfly_topo_min_port(n.topo, 0, 1, 1);

		for (uint32_t v = 0; v < par.vcs[DFLY_PORT_LOCAL]; v++)
			asic_debug_set_credits(n.as[0], o, v, 0);
	}
	for (unsigned i = 1; i < 4; i++) {
		pkt_init(&pk[i], 0, 1, 6000);
		assert_true(asic_inject(n.as[0], 0, &pk[i], 6000));
	}
	for (uint64_t c = 6000; c < 6100; c++) {
		assert_int_equal(asic_check_heads(n.as[0], why, sizeof(why)), 0);
		got += net_cycle(&n, c, ej, 64);
	}
	assert_int_equal(asic_check_heads(n.as[0], why, sizeof(why)), 0);
	for (unsigned i = 0; i < 4; i++) {
		assert_int_equal(pk[i].inj_cycle, 0); /* none could go */
		pk[i].len++;
	}
	assert_int_equal(asic_check_heads(n.as[0], why, sizeof(why)), -1);
	assert_non_null(strstr(why, "cached route"));
	net_free(&n);
}

/* Tables: the firmware cannot overwrite a bank until the ASIC has switched to the last one. */
static void test_table_double_buffer(void **state)
{
	struct asic_params par = default_params(32);
	struct net n;
	struct dfly_tbl_ugal *t;
	struct dfly_tbl_pb *pb;

	(void)state;
	net_build(&n, 1, 2, 1, &par, DFLY_MODE_MIN, map_min);
	assert_int_equal(dfly_regs_check(&n.regs[0]), 0);
	t = dfly_regs_tbl_begin(&n.regs[0], DFLY_TBL_UGAL);
	assert_non_null(t);
	assert_ptr_equal(t, &n.regs[0].tables[1].ugal);
	t->t[3] = 77;
	dfly_regs_tbl_publish(&n.regs[0], DFLY_TBL_UGAL);
	/* the ASIC has not stepped: a second publication of that table must wait ... */
	assert_null(dfly_regs_tbl_begin(&n.regs[0], DFLY_TBL_UGAL));
	assert_int_equal(errno, EBUSY);
	/* ... but another table has its own generation */
	pb = dfly_regs_tbl_begin(&n.regs[0], DFLY_TBL_PB);
	assert_ptr_equal(pb, &n.regs[0].tables[1].pb);
	asic_step(n.as[0], 0);
	assert_int_equal(atomic_load(&n.regs[0].tbl_seen[DFLY_TBL_UGAL]), 1);
	t = dfly_regs_tbl_begin(&n.regs[0], DFLY_TBL_UGAL);
	assert_non_null(t);
	assert_ptr_equal(t, &n.regs[0].tables[0].ugal);
	assert_int_equal(t->t[3], 77); /* the new bank starts as a copy of the live one */
	assert_int_equal(
	    ((const struct dfly_tbl_ugal *)dfly_regs_tbl_acquire(&n.regs[0], DFLY_TBL_UGAL))->t[3],
	    77);
	n.regs[0].magic = 0;
	assert_int_equal(dfly_regs_check(&n.regs[0]), -EPROTO);
	net_free(&n);
}

/* ---------------------------------------------------------------------------------------------
 * Route-stage decisions on hand-built congestion (asic_route_probe + asic_debug_set_credits).
 * Network p=1 a=2 h=1 (g = 3): router 0 has one global port; a packet to the group that port
 * leads to goes minimally on it, and every Valiant path leaves on the local port to router 1.
 */

struct dec_net {
	struct net n;
	uint32_t gport, lport, dst_node, dst_group, rho, q;
};

static void dec_build(struct dec_net *d, enum dfly_route_mode mode, const uint8_t *map)
{
	struct asic_params par = default_params(32);
	const struct dfly_topo *t;

	net_build(&d->n, 1, 2, 1, &par, mode, map);
	t = d->n.topo;
	d->gport = t->first_global;
	d->lport = t->first_local;
	d->dst_group = dfly_topo_global_peer(t, 0, 0).router / t->a;
	d->dst_node = d->dst_group * t->a * t->p; /* router 0 of that group */
	dfly_topo_link_to_group(t, 0, d->dst_group, 0, &d->rho, &d->q);
	for (uint32_t r = 0; r < t->routers; r++) {
		d->n.regs[r].knobs.ugal_f_q8 = 512; /* F = 2 */
		d->n.regs[r].knobs.ugal_t = 8;      /* T = 1 packet of 8 phits */
		d->n.regs[r].knobs.nonmin_needs_credits = 1;
		d->n.regs[r].knobs.olm_x_pct = 50;
	}
}

static struct asic_pkt dec_probe(struct dec_net *d, uint32_t in_port)
{
	struct asic_pkt pk;

	pkt_init(&pk, 0, d->dst_node, 0);
	pk.reason = ASIC_REASON_NONE;
	asic_route_probe(d->n.as[0], &pk, in_port);
	return pk;
}

/* UGAL-L: minimal iff Q_min <= 2 Q_val + T, on the hop's VC (boundary: equal is minimal). */
static void test_ugal_per_vc_boundary(void **state)
{
	struct dec_net d;
	struct asic_pkt pk;

	(void)state;
	dec_build(&d, DFLY_MODE_UGAL, map_val);
	assert_int_equal(d.gport, 2); /* p + a - 1 */
	/* Q_val = 4 on the local port's VC L0 (S1); Q_min on the global port's VC G0 (G1) */
	asic_debug_set_credits(d.n.as[0], d.lport, 0, 32 - 4);
	asic_debug_set_credits(d.n.as[0], d.gport, 0, 256 - 16); /* 16 <= 2*4 + 8 */
	pk = dec_probe(&d, 0);
	assert_int_equal(pk.out_port, d.gport);
	assert_int_equal(pk.val_router, ASIC_NONE);
	assert_int_equal(pk.reason, DFLY_ROUTE_SRC_MIN_UGAL);
	asic_debug_set_credits(d.n.as[0], d.gport, 0, 256 - 17); /* 17 > 16 */
	pk = dec_probe(&d, 0);
	assert_int_equal(pk.out_port, d.lport);
	assert_int_equal(pk.out_vc, 0);
	assert_true(pk.flags & ASIC_PKT_NONMIN);
	assert_int_equal(pk.val_router / d.n.topo->a, 3 - d.dst_group); /* the third group */
	assert_int_equal(pk.reason, DFLY_ROUTE_SRC_NONMIN_UGAL);
	/* occupancy of another VC of the global port does not count per VC */
	asic_debug_set_credits(d.n.as[0], d.gport, 0, 256 - 16);
	asic_debug_set_credits(d.n.as[0], d.gport, 1, 256 - 100);
	pk = dec_probe(&d, 0);
	assert_int_equal(pk.reason, DFLY_ROUTE_SRC_MIN_UGAL);
	/* ... but it does per port: Q_min = 116 > 2*4 + 8 */
	d.n.regs[0].knobs.ugal_per_port = 1;
	pk = dec_probe(&d, 0);
	assert_int_equal(pk.reason, DFLY_ROUTE_SRC_NONMIN_UGAL);
	/* per port, Q_val counts every local VC too: 4 + 50 → 116 <= 2*54 + 8 */
	asic_debug_set_credits(d.n.as[0], d.lport, 3, 32 - 30);
	asic_debug_set_credits(d.n.as[0], d.lport, 2, 32 - 20);
	pk = dec_probe(&d, 0);
	assert_int_equal(pk.reason, DFLY_ROUTE_SRC_MIN_UGAL);
	/* a nonminimal choice whose first hop has no credits for the packet goes minimal */
	d.n.regs[0].knobs.ugal_per_port = 0;
	asic_debug_set_credits(d.n.as[0], d.lport, 2, 32);
	asic_debug_set_credits(d.n.as[0], d.lport, 3, 32);
	asic_debug_set_credits(d.n.as[0], d.lport, 0, 7); /* Q_val = 25, room 7 < 8 */
	asic_debug_set_credits(d.n.as[0], d.gport, 0, 256 - 60);
	pk = dec_probe(&d, 0);
	assert_int_equal(pk.out_port, d.gport);
	assert_int_equal(pk.reason, DFLY_ROUTE_NONMIN_NO_CANDIDATE);
	/* intra-group destination: minimal whatever the queues say (A-4.8) */
	pkt_init(&pk, 0, 1, 0);
	asic_route_probe(d.n.as[0], &pk, 0);
	assert_int_equal(pk.out_port, d.lport);
	assert_int_equal(pk.reason, DFLY_ROUTE_SRC_MIN_INTRA);
	net_free(&d.n);
}

/*
 * routing.ugal.remove_rtt (IAR's BookSim, remove_credit_rtt): Q less the link's credit round
 * trip, 2 × latency phits (local 10 → 20, global 100 → 200), clamped at 0. Nothing is in the
 * output FIFOs here, so Q' = max(0, Q − 2·latency).
 */
static void test_ugal_remove_rtt(void **state)
{
	struct dec_net d;
	struct asic_pkt pk;

	(void)state;
	dec_build(&d, DFLY_MODE_UGAL, map_val);
	/* Q_val = 4 on L0, Q_min = 208 on G0: 208 > 2*4 + 8 without, 8 <= 2*0 + 8 with */
	asic_debug_set_credits(d.n.as[0], d.lport, 0, 32 - 4);
	asic_debug_set_credits(d.n.as[0], d.gport, 0, 256 - 208);
	pk = dec_probe(&d, 0);
	assert_int_equal(pk.reason, DFLY_ROUTE_SRC_NONMIN_UGAL);
	assert_int_equal(pk.dec.q_min, 208);
	assert_int_equal(pk.dec.q_val, 4);
	d.n.regs[0].knobs.ugal_remove_rtt = 1;
	pk = dec_probe(&d, 0);
	assert_int_equal(pk.reason, DFLY_ROUTE_SRC_MIN_UGAL);
	assert_int_equal(pk.dec.q_min, 8);
	assert_int_equal(pk.dec.q_val, 0);
	asic_debug_set_credits(d.n.as[0], d.gport, 0, 256 - 209); /* 9 > 8 */
	pk = dec_probe(&d, 0);
	assert_int_equal(pk.reason, DFLY_ROUTE_SRC_NONMIN_UGAL);
	assert_int_equal(pk.dec.q_min, 9);
	/* the local hop's 20: Q_val = 24 → 4, so Q_min up to 216 (16 <= 2*4 + 8) stays minimal */
	asic_debug_set_credits(d.n.as[0], d.lport, 0, 32 - 24);
	asic_debug_set_credits(d.n.as[0], d.gport, 0, 256 - 216);
	pk = dec_probe(&d, 0);
	assert_int_equal(pk.reason, DFLY_ROUTE_SRC_MIN_UGAL);
	assert_int_equal(pk.dec.q_val, 4);
	asic_debug_set_credits(d.n.as[0], d.gport, 0, 256 - 217);
	pk = dec_probe(&d, 0);
	assert_int_equal(pk.reason, DFLY_ROUTE_SRC_NONMIN_UGAL);
	/* per port: the round trip comes off the sum of the VCs once, 24 + 10 − 20 = 14 */
	d.n.regs[0].knobs.ugal_per_port = 1;
	asic_debug_set_credits(d.n.as[0], d.lport, 1, 32 - 10);
	asic_debug_set_credits(d.n.as[0], d.gport, 1, 256 - 19); /* 217 + 19 − 200 = 36 */
	pk = dec_probe(&d, 0);
	assert_int_equal(pk.dec.q_val, 14);
	assert_int_equal(pk.dec.q_min, 36);
	assert_int_equal(pk.reason, DFLY_ROUTE_SRC_MIN_UGAL); /* 36 <= 2*14 + 8 */
	net_free(&d.n);
}

/*
 * routing.ugal.commitment (IAR's BookSim, track_routing_commitment): Q also counts the packets at
 * the router's input heads already routed to that output and not yet granted. A head that cannot
 * go anywhere (the minimal global VC and the Valiant local VC both short of credits for 8 phits)
 * waits routed to the minimal port; a second decision then reads its 8 phits on Q_min.
 */
static void test_ugal_commitment(void **state)
{
	struct dec_net d;
	struct asic_pkt pk, a;
	struct asic_ejection ej[4];

	(void)state;
	dec_build(&d, DFLY_MODE_UGAL, map_val);
	asic_debug_set_credits(d.n.as[0], d.gport, 0, 4); /* Q_min = 252 */
	asic_debug_set_credits(d.n.as[0], d.lport, 0, 4); /* Q_val = 28 */
	pkt_init(&a, 0, d.dst_node, 0);
	assert_true(asic_inject(d.n.as[0], 0, &a, 0));
	for (uint64_t c = 0; c < 20; c++)
		assert_int_equal(net_cycle(&d.n, c, ej, 4), 0);
	/* UGAL sends it away, no Valiant candidate has credits: it waits on the minimal hop */
	assert_int_equal(a.out_port, d.gport);
	assert_int_equal(a.out_vc, 0);
	pk = dec_probe(&d, 0);
	assert_int_equal(pk.dec.q_min, 252);
	assert_int_equal(pk.dec.q_val, 28);
	d.n.regs[0].knobs.ugal_commitment = 1;
	pk = dec_probe(&d, 0);
	assert_int_equal(pk.dec.q_min, 252 + 8);
	assert_int_equal(pk.dec.q_val, 28);
	/* the deciding head itself is not counted: the waiting one re-decides on 252 */
	d.n.regs[0].knobs.reevaluate = 1;
	assert_int_equal(net_cycle(&d.n, 20, ej, 4), 0);
	assert_int_equal(a.dec.q_min, 252);
	/* per port: every VC's heads, here still the one */
	d.n.regs[0].knobs.ugal_per_port = 1;
	pk = dec_probe(&d, 0);
	assert_true(pk.dec.q_min >= 252 + 8);
	d.n.regs[0].knobs.ugal_commitment = 0;
	{
		int32_t q0 = pk.dec.q_min;

		pk = dec_probe(&d, 0);
		assert_int_equal(pk.dec.q_min, q0 - 8);
	}
	net_free(&d.n);
}

/*
 * routing.ugal.weight = "hops" (FOGSim v5, routing/ugal.cc and routing/pb.cc misrouteCondition()):
 * minimal iff Q_min·H_min <= Q_val·H_val + T, H the router hops of each path (the Valiant one
 * through S_ROOT), in place of Q_min <= F·Q_val + T.
 */
static void test_ugal_weight_hops(void **state)
{
	struct dec_net d;
	struct asic_pkt pk;
	struct dfly_hop hp[6];
	const struct dfly_topo *t;
	uint32_t dr, ig, hmin, hval = 0, b;

	(void)state;
	dec_build(&d, DFLY_MODE_UGAL, map_val);
	t = d.n.topo;
	dr = d.dst_node / t->p;
	ig = 3 - d.dst_group; /* the third group: every Valiant path crosses it */
	hmin = dfly_topo_min_path(t, 0, dr, d.dst_node, hp);
	for (uint32_t r = ig * t->a; r < (ig + 1) * t->a; r++) {
		uint32_t h = dfly_topo_min_path(t, 0, r, d.dst_node, hp) +
			     dfly_topo_min_path(t, r, dr, d.dst_node, hp);

		if (hval == 0)
			hval = h;
		assert_int_equal(h, hval); /* whichever router of it is drawn */
	}
	assert_true(hmin >= 1 && hmin <= 2);
	assert_true(hval >= 4 && hval <= 5);
	b = (4 * hval + 8) / hmin; /* the largest minimal Q_min against Q_val = 4, T = 8 */
	assert_true(b != 16);      /* the F = 2 boundary: 2*4 + 8 */
	asic_debug_set_credits(d.n.as[0], d.lport, 0, 32 - 4);
	/* between the two boundaries the two rules disagree */
	asic_debug_set_credits(d.n.as[0], d.gport, 0, 256 - (b < 16 ? b + 1 : b));
	pk = dec_probe(&d, 0);
	assert_int_equal(pk.reason, b < 16 ? DFLY_ROUTE_SRC_MIN_UGAL : DFLY_ROUTE_SRC_NONMIN_UGAL);
	d.n.regs[0].knobs.ugal_hops = 1;
	pk = dec_probe(&d, 0);
	assert_int_equal(pk.reason, b < 16 ? DFLY_ROUTE_SRC_NONMIN_UGAL : DFLY_ROUTE_SRC_MIN_UGAL);
	/* the boundary of Q_min·H_min <= Q_val·H_val + T, equal being minimal */
	asic_debug_set_credits(d.n.as[0], d.gport, 0, 256 - b);
	pk = dec_probe(&d, 0);
	assert_int_equal(pk.reason, DFLY_ROUTE_SRC_MIN_UGAL);
	assert_int_equal(pk.dec.q_min, (int32_t)b);
	assert_int_equal(pk.dec.q_val, 4);
	asic_debug_set_credits(d.n.as[0], d.gport, 0, 256 - (b + 1));
	pk = dec_probe(&d, 0);
	assert_int_equal(pk.reason, DFLY_ROUTE_SRC_NONMIN_UGAL);
	assert_true(pk.flags & ASIC_PKT_NONMIN);
	/* below both boundaries both rules go minimal */
	asic_debug_set_credits(d.n.as[0], d.gport, 0, 256 - (b < 16 ? b : 16));
	pk = dec_probe(&d, 0);
	assert_int_equal(pk.reason, DFLY_ROUTE_SRC_MIN_UGAL);
	d.n.regs[0].knobs.ugal_hops = 0;
	pk = dec_probe(&d, 0);
	assert_int_equal(pk.reason, DFLY_ROUTE_SRC_MIN_UGAL);
	net_free(&d.n);
}

/*
 * FOGSim v5 generatorModule::determinePaths(), as written there (its coordinates: group H,
 * router A; the consecutive arrangement's link ranges), for the Valiant node's router vA of
 * group vH: the minimal and Valiant path lengths FOGSim weighs UGAL-L's queues with.
 */
static void fogsim_determine_paths(uint32_t h, uint32_t sourceA, uint32_t sourceH, uint32_t destA,
				   uint32_t destH, uint32_t valA, uint32_t valH, uint32_t *min_path,
				   uint32_t *val_path)
{
	uint32_t m = 0, v = 0;

	if (sourceH == destH) {
		if (sourceA != destA)
			m++;
	} else {
		m++;
		if (sourceH > destH) {
			if (!(destH >= sourceA * h && destH < sourceA * h + h))
				m++;
			if (!(sourceH >= destA * h + 1 && sourceH < destA * h + h + 1))
				m++;
		}
		if (sourceH < destH) {
			if (!(destH >= sourceA * h + 1 && destH < sourceA * h + h + 1))
				m++;
			if (!(sourceH >= destA * h && sourceH < destA * h + h))
				m++;
		}
	}
	if (sourceH == valH) {
		if (sourceA != valA)
			v++;
	} else {
		v++;
		if (sourceH > valH && !(valH >= sourceA * h && valH < sourceA * h + h))
			v++;
		if (sourceH < valH && !(valH >= sourceA * h + 1 && valH < sourceA * h + h + 1))
			v++;
	}
	if (valH == destH) {
		if (valA != destA)
			v++;
	} else {
		v++;
		if (valH > destH) {
			if (!(destH >= valA * h && destH < valA * h + h))
				v++;
			if (!(valH >= destA * h + 1 && valH < destA * h + h + 1))
				v++;
		}
		if (valH < destH) {
			if (!(destH >= valA * h + 1 && destH < valA * h + h + 1))
				v++;
			if (!(valH >= destA * h && valH < destA * h + h))
				v++;
		}
	}
	*min_path = m;
	*val_path = v;
}

/*
 * routing.ugal.weight = "fogsim": UGAL-L weighs each queue by the path length FOGSim v5 gives
 * it (fogsim_determine_paths() above, S_ROOT's router for the Valiant node's), not by the hops
 * the packet takes. On p = 1, a = 4, h = 2 (palm tree, 9 groups), from router 0 to the first
 * router of every other group, Q_val = 4, T = 8: each decision, over Q_min = 0 .. 60, is
 * FOGSim's boundary Q_min·H_min <= Q_val·H_val + T, and for some destination and S_ROOT that
 * boundary is not the one of the true hops ("hops").
 */
static void test_ugal_weight_fogsim(void **state)
{
	struct asic_params par = default_params(32);
	struct net n;
	const struct dfly_topo *t;
	unsigned differ = 0, checked = 0;

	(void)state;
	net_build(&n, 1, 4, 2, &par, DFLY_MODE_UGAL, map_val);
	t = n.topo;
	for (uint32_t r = 0; r < t->routers; r++) {
		n.regs[r].knobs.ugal_f_q8 = 512;
		n.regs[r].knobs.ugal_t = 8;
		n.regs[r].knobs.ugal_hops = 2;
	}
	for (uint32_t dg = 1; dg < t->g; dg++) {
		uint32_t dst = dg * t->a * t->p, dr = dst / t->p;
		uint32_t min_port = dfly_topo_min_port(t, 0, dr, dst);

		for (uint32_t qmin = 0; qmin <= 60; qmin++) {
			struct asic_pkt pk;
			struct dfly_hop hp[6];
			uint32_t fm, fv, root, val_port, tm, tv;
			bool fogsim_min, hops_min;

			asic_debug_set_credits(
			    n.as[0], min_port, 0,
			    (dfly_topo_port_kind(t, min_port) == DFLY_PORT_GLOBAL ? 256 : 32) -
				qmin);
			pkt_init(&pk, 0, dst, 0);
			pk.reason = ASIC_REASON_NONE;
			asic_route_probe(n.as[0], &pk, 0);
			root = pk.cand_root;
			val_port = dfly_topo_min_port(t, 0, root, dst);
			if (val_port == min_port || pk.dec.q_min != (int32_t)qmin)
				continue; /* one port for both, or Q_val is this port's */
			fogsim_determine_paths(t->h, 0, 0, dr % t->a, dr / t->a, root % t->a,
					       root / t->a, &fm, &fv);
			fogsim_min = (int64_t)qmin * fm <= (int64_t)pk.dec.q_val * fv + 8;
			assert_int_equal(pk.reason, fogsim_min ? DFLY_ROUTE_SRC_MIN_UGAL
							       : DFLY_ROUTE_SRC_NONMIN_UGAL);
			tm = dfly_topo_min_path(t, 0, dr, dst, hp);
			tv = dfly_topo_min_path(t, 0, root, dst, hp) +
			     dfly_topo_min_path(t, root, dr, dst, hp);
			hops_min = (int64_t)qmin * tm <= (int64_t)pk.dec.q_val * tv + 8;
			differ += fogsim_min != hops_min;
			checked++;
		}
		asic_debug_set_credits(n.as[0], min_port, 0,
				       dfly_topo_port_kind(t, min_port) == DFLY_PORT_GLOBAL ? 256
											    : 32);
	}
	printf("# ugal weight fogsim: %u decisions checked, %u differ from the true hops'\n",
	       checked, differ);
	assert_true(checked > 100);
	assert_true(differ > 0);
	net_free(&n);
}

/*
 * vcs.assign = "next" (FOGSim v5 vcMngmt::nextChannel) on MIN's path L0 G0 L1 and on the VAL
 * path L0 G0 L1 L2 G1 L3 (knobs.vc_seq as dfly_netcfg_knobs() builds them): a packet within its
 * group takes L0 (its role D2: L1 / L3), a minimal packet's final local hop L1 (VAL's role D2:
 * L3), the local hop after a second global hop the next place (L3); with the knob off, the
 * roles' VCs.
 */
static void test_vc_assign_next(void **state)
{
	struct asic_params par = default_params(32);
	const uint8_t seq_min[] = {DFLY_PORT_LOCAL << 4 | 0, DFLY_PORT_GLOBAL << 4 | 0,
				   DFLY_PORT_LOCAL << 4 | 1};
	const uint8_t seq_val[] = {DFLY_PORT_LOCAL << 4 | 0,  DFLY_PORT_GLOBAL << 4 | 0,
				   DFLY_PORT_LOCAL << 4 | 1,  DFLY_PORT_LOCAL << 4 | 2,
				   DFLY_PORT_GLOBAL << 4 | 1, DFLY_PORT_LOCAL << 4 | 3};
	struct {
		enum dfly_route_mode mode;
		const uint8_t *map, *seq;
		uint32_t n, intra_role, arrive_role;
	} c[] = {{DFLY_MODE_MIN, map_min, seq_min, 3, 1, 1},
		 {DFLY_MODE_UGAL, map_val, seq_val, 6, 3, 3}};

	(void)state;
	for (unsigned k = 0; k < 2; k++) {
		struct net n;
		const struct dfly_topo *t;
		struct asic_pkt pk;
		uint32_t dg, in_g, r_in, dst_other;

		net_build(&n, 1, 4, 2, &par, c[k].mode, c[k].map);
		t = n.topo;
		for (int next = 0; next <= 1; next++) {
			for (uint32_t r = 0; r < t->routers; r++) {
				n.regs[r].knobs.vc_next = (uint32_t)next;
				n.regs[r].knobs.vc_seq_n = c[k].n;
				memcpy(n.regs[r].knobs.vc_seq, c[k].seq, c[k].n);
			}
			/* from the node of router 0 to that of router 1 of its group */
			pkt_init(&pk, 0, 1 * t->p, 0);
			pk.reason = ASIC_REASON_NONE;
			asic_route_probe(n.as[0], &pk, 0);
			assert_int_equal(dfly_topo_port_kind(t, pk.out_port), DFLY_PORT_LOCAL);
			assert_int_equal(pk.out_vc, next ? 0 : c[k].intra_role);
			/* minimal, arrived in the destination group on G0 at the router its global
			 * link lands on, for another router of that group */
			dg = dfly_topo_global_peer(t, 0, 0).router / t->a;
			r_in = dfly_topo_global_peer(t, 0, 0).router;
			in_g = t->first_global + dfly_topo_global_peer(t, 0, 0).q;
			dst_other = (r_in % t->a == 0 ? r_in + 1 : dg * t->a) * t->p;
			pkt_init(&pk, 0, dst_other, 0);
			pk.reason = ASIC_REASON_NONE;
			pk.flags = ASIC_PKT_ROUTED;
			pk.ghops = 1;
			pk.vc = 0;
			asic_route_probe(n.as[r_in], &pk, in_g);
			assert_int_equal(dfly_topo_port_kind(t, pk.out_port), DFLY_PORT_LOCAL);
			assert_int_equal(pk.out_vc, next ? 1 : c[k].arrive_role);
			if (c[k].mode != DFLY_MODE_MIN)
				continue;
			/* request-reply, MIN 2/1 a class: a reply climbs its class's copy (L2 L3,
			 * G1), the same places shifted by the class's first VC of each kind */
			for (uint32_t r = 0; r < t->routers; r++) {
				n.regs[r].knobs.reply_vc[DFLY_PORT_LOCAL] = 2;
				n.regs[r].knobs.reply_vc[DFLY_PORT_GLOBAL] = 1;
			}
			pkt_init(&pk, 0, 1 * t->p, 0);
			pk.reason = ASIC_REASON_NONE;
			pk.flags = ASIC_PKT_REPLY;
			asic_route_probe(n.as[0], &pk, 0);
			assert_int_equal(pk.out_vc, next ? 2 : 3);
			pkt_init(&pk, 0, dst_other, 0);
			pk.reason = ASIC_REASON_NONE;
			pk.flags = ASIC_PKT_ROUTED | ASIC_PKT_REPLY;
			pk.ghops = 1;
			pk.vc = 1; /* G0 of the reply class */
			asic_route_probe(n.as[r_in], &pk, in_g);
			assert_int_equal(pk.out_vc, 3);
			for (uint32_t r = 0; r < t->routers; r++)
				memset(n.regs[r].knobs.reply_vc, 0,
				       sizeof(n.regs[r].knobs.reply_vc));
		}
		net_free(&n);
	}
}

/* PB: the minimal global channel's bit (on the VC minimal packets use) forces nonminimal. */
static void test_pb_saturation_bit(void **state)
{
	struct dec_net d;
	struct asic_pkt pk;
	struct dfly_tbl_pb *tb;

	(void)state;
	dec_build(&d, DFLY_MODE_PB, map_val);
	pk = dec_probe(&d, 0);
	assert_int_equal(pk.reason, DFLY_ROUTE_SRC_MIN_UGAL); /* empty queues, no bits */
	tb = dfly_regs_tbl_begin(&d.n.regs[0], DFLY_TBL_PB);
	assert_non_null(tb);
	tb->sat[d.rho][d.q] = 1u << 1; /* VC 1 (G2 traffic) only: not the minimal VC */
	dfly_regs_tbl_publish(&d.n.regs[0], DFLY_TBL_PB);
	pk = dec_probe(&d, 0);
	assert_int_equal(pk.reason, DFLY_ROUTE_SRC_MIN_UGAL);
	tb = dfly_regs_tbl_begin(&d.n.regs[0], DFLY_TBL_PB);
	assert_non_null(tb);
	tb->sat[d.rho][d.q] = 1u << 0;
	dfly_regs_tbl_publish(&d.n.regs[0], DFLY_TBL_PB);
	pk = dec_probe(&d, 0);
	assert_int_equal(pk.out_port, d.lport);
	assert_true(pk.flags & ASIC_PKT_NONMIN);
	assert_int_equal(pk.reason, DFLY_ROUTE_SRC_NONMIN_SAT);
	/* the same bit under UGAL mode is ignored */
	d.n.regs[0].knobs.mode = DFLY_MODE_UGAL;
	pk = dec_probe(&d, 0);
	assert_int_equal(pk.reason, DFLY_ROUTE_SRC_MIN_UGAL);
	net_free(&d.n);
}

static const uint8_t map_olm[DFLY_ROLE_COUNT] = {
    [DFLY_ROLE_S1] = 0, [DFLY_ROLE_S2] = 0, [DFLY_ROLE_G1] = 0, [DFLY_ROLE_I1] = 0,
    [DFLY_ROLE_I2] = 1, [DFLY_ROLE_G2] = 1, [DFLY_ROLE_D1] = 1, [DFLY_ROLE_D2] = 2};

/* OLM at injection: CRG candidates need occ%(c) <= 50% occ%(min) and room for the packet.
 * p=1 a=2 h=2 (g = 5): router 0 has two global ports. */
static void test_olm_trigger(void **state)
{
	struct asic_params par = default_params(32);
	struct net n;
	struct asic_pkt pk;
	const struct dfly_topo *t;
	uint32_t g0, g1, dst;

	(void)state;
	net_build(&n, 1, 2, 2, &par, DFLY_MODE_OLM, map_olm);
	t = n.topo;
	n.regs[0].knobs.olm_x_pct = 50;
	g0 = t->first_global;
	g1 = t->first_global + 1;
	dst = dfly_topo_global_peer(t, 0, 0).router * t->p; /* minimal: global port 0 */
	pkt_init(&pk, 0, dst, 0);
	pk.reason = ASIC_REASON_NONE;
	asic_route_probe(n.as[0], &pk, 0);
	assert_int_equal(pk.out_port, g0); /* minimal hop free: no misrouting considered */
	assert_int_equal(pk.reason, ASIC_REASON_NONE);
	asic_debug_set_credits(n.as[0], g0, 0, 8); /* 248 used: can still take a packet */
	asic_route_probe(n.as[0], &pk, 0);
	assert_int_equal(pk.out_port, g0);
	assert_int_equal(pk.reason, ASIC_REASON_NONE);
	asic_debug_set_credits(n.as[0], g0, 0, 6);         /* Q_min = 250 (97.66%): blocked */
	asic_debug_set_credits(n.as[0], g1, 0, 256 - 125); /* 125*256*100 == 50*250*256: valid */
	asic_route_probe(n.as[0], &pk, 0);
	assert_int_equal(pk.out_port, g1);
	assert_int_equal(pk.out_vc, 0);
	assert_int_equal(pk.pend_flags, ASIC_PKT_NONMIN); /* the grant counts INJ_GLOBAL_MISROUTE */
	assert_int_equal(pk.reason, ASIC_REASON_NONE);
	asic_debug_set_credits(n.as[0], g1, 0, 256 - 126); /* one phit more: invalid */
	asic_route_probe(n.as[0], &pk, 0);
	assert_int_equal(pk.out_port, g0);
	assert_int_equal(pk.reason, DFLY_ROUTE_OLM_NO_CANDIDATE);
	/* the minimum-occupancy condition */
	asic_debug_set_credits(n.as[0], g1, 0, 256 - 125);
	n.regs[0].knobs.olm_min_pct = 98; /* 97.66% < 98% */
	pk.reason = ASIC_REASON_NONE;     /* a new router: nothing sticky */
	asic_route_probe(n.as[0], &pk, 0);
	assert_int_equal(pk.out_port, g0);
	assert_int_equal(pk.reason, ASIC_REASON_NONE);
	n.regs[0].knobs.olm_min_pct = 0;
	/* mandatory global: any global port with credits, here the only one with room */
	asic_debug_set_credits(n.as[0], g1, 0, 256);
	asic_debug_set_credits(n.as[0], g0, 0, 4);
	pkt_init(&pk, 0, 1, 0); /* destination in the own group: would be local */
	pk.flags = ASIC_PKT_NONMIN | ASIC_PKT_MANDATORY_GLOBAL | ASIC_PKT_ROUTED;
	pk.reason = ASIC_REASON_NONE;
	asic_route_probe(n.as[0], &pk, t->first_local);
	assert_int_equal(pk.out_port, g1);
	assert_int_equal(pk.reason, DFLY_ROUTE_OLM_MANDATORY_GLOBAL);
	net_free(&n);
}

/*
 * FlexVC for the in-transit modes (vcs.flexvc; thesis §5.2.1, §5.2.3, §5.3.4): each hop may use
 * the VCs of its kind at or before its place on the escape sequence l0 g1 l2 g3 l4 (3/2 VCs,
 * exactly the in-transit family's), its place the latest from which the rest of its path (this
 * hop, then: minimal from its far end; after a source-group local misroute, the mandatory
 * global hop and l g l) still climbs. Probed at the route stage (p = 1, a = 4, h = 2: g = 9),
 * knob HIGHEST, so vc_allow is the rule and out_vc the safe VC.
 */

/* The first router whose minimal path from @p from has the link kinds @p kinds ("lgl", "g",
 * "l", ...), or UINT32_MAX. */
static uint32_t find_dst(const struct dfly_topo *t, uint32_t from, const char *kinds)
{
	for (uint32_t d = 0; d < t->routers; d++) {
		struct dfly_hop hops[3];
		unsigned n = dfly_topo_min_path(t, from, d, d * t->p, hops), j;

		if (d == from || n != strlen(kinds))
			continue;
		for (j = 0; j < n; j++)
			if ((kinds[j] == 'g') != (hops[j].kind == DFLY_PORT_GLOBAL))
				break;
		if (j == n)
			return d;
	}
	return UINT32_MAX;
}

/* Every VC of output @p port of router @p r holds @p credits (UINT32_MAX: its capacity). */
static void set_port_credits(struct net *n, uint32_t r, uint32_t port, uint32_t credits)
{
	bool g = dfly_topo_port_kind(n->topo, port) == DFLY_PORT_GLOBAL;

	for (uint32_t v = 0; v < (g ? 2u : 3u); v++)
		asic_debug_set_credits(n->as[r], port, v,
				       credits == UINT32_MAX ? (g ? 256 : 32) : (int32_t)credits);
}

static void transit_probe(struct net *n, uint32_t r, struct asic_pkt *pk, uint32_t dst,
			  uint16_t flags, uint8_t ghops, uint32_t in_port)
{
	pkt_init(pk, 0, dst * n->topo->p, 0);
	pk->flags = (uint16_t)(flags | ASIC_PKT_ROUTED);
	pk->ghops = ghops;
	pk->grp_lhops = in_port >= n->topo->first_local && in_port < n->topo->first_global;
	pk->reason = ASIC_REASON_NONE;
	asic_route_probe(n->as[r], pk, in_port);
}

static void test_flexvc_transit_minimal(void **state)
{
	struct asic_params par = default_params(32);
	struct asic_pkt pk;
	struct net n;
	const struct dfly_topo *t;
	uint32_t g0, g1, d;

	(void)state;
	par.vcs[DFLY_PORT_LOCAL] = 3;
	net_build(&n, 1, 4, 2, &par, DFLY_MODE_OLM, map_olm);
	t = n.topo;
	for (uint32_t r = 0; r < t->routers; r++) {
		n.regs[r].knobs.flexvc = DFLY_FLEXVC_HIGHEST;
		n.regs[r].knobs.olm_x_pct = 50;
	}
	/* minimal hops are safe hops: a global hop with one local after it at g3, so G0 or G1;
	 * the first of l g l at l2, so L0 or L1; the last hop at l4, any local VC. Without
	 * FlexVC: the role VCs G0, L0, L2 */
	d = find_dst(t, 0, "gl");
	transit_probe(&n, 0, &pk, d, 0, 0, 0);
	assert_int_equal(dfly_topo_port_kind(t, pk.out_port), DFLY_PORT_GLOBAL);
	assert_int_equal(pk.vc_allow, 0x3);
	assert_int_equal(pk.out_vc, 1);
	d = find_dst(t, 0, "lgl");
	transit_probe(&n, 0, &pk, d, 0, 0, 0);
	assert_int_equal(pk.vc_allow, 0x3);
	assert_int_equal(pk.out_vc, 1);
	d = find_dst(t, 0, "l");
	transit_probe(&n, 0, &pk, d, 0, 0, 0);
	assert_int_equal(pk.vc_allow, 0x7);
	assert_int_equal(pk.out_vc, 2);
	n.regs[0].knobs.flexvc = DFLY_FLEXVC_OFF;
	transit_probe(&n, 0, &pk, find_dst(t, 0, "lgl"), 0, 0, 0);
	assert_int_equal(pk.vc_allow, 0);
	assert_int_equal(pk.out_vc, 0);
	transit_probe(&n, 0, &pk, find_dst(t, 0, "l"), 0, 0, 0);
	assert_int_equal(pk.out_vc, 2);

	/* OLM's credit trigger reads the VCs the minimal hop may use: G0 unable to take the
	 * packet, G1 free, is not a blocked minimal hop under FlexVC (it is without). g0: the
	 * minimal port, g1 the other global port */
	d = find_dst(t, 0, "gl");
	g0 = asic_min_port(n.as[0], d);
	g1 = g0 == t->first_global ? g0 + 1 : t->first_global;
	asic_debug_set_credits(n.as[0], g0, 0, 6);
	transit_probe(&n, 0, &pk, d, 0, 0, 0);
	assert_int_equal(pk.out_port, g1); /* FlexVC off: G0 alone, blocked: misrouted */
	n.regs[0].knobs.flexvc = DFLY_FLEXVC_HIGHEST;
	transit_probe(&n, 0, &pk, d, 0, 0, 0);
	assert_int_equal(pk.out_port, g0);
	assert_int_equal(pk.reason, ASIC_REASON_NONE);
	assert_int_equal(pk.vc_allow, 0x3);
	/* both blocked, 500 of 512 phits used (97.66%): a CRG hop's place is g1 (a global hop
	 * and a whole minimal path after it), so only its G0 counts, valid up to 50% of 97.66%:
	 * 125 of 256 phits, 125*512*100 == 50*500*256 */
	asic_debug_set_credits(n.as[0], g0, 1, 6);
	asic_debug_set_credits(n.as[0], g1, 0, 256 - 125);
	transit_probe(&n, 0, &pk, d, 0, 0, 0);
	assert_int_equal(pk.out_port, g1);
	assert_int_equal(pk.vc_allow, 0x1);
	assert_int_equal(pk.out_vc, 0);
	assert_int_equal(pk.pend_flags, ASIC_PKT_NONMIN);
	asic_debug_set_credits(n.as[0], g1, 0, 256 - 126); /* one phit more: invalid */
	transit_probe(&n, 0, &pk, d, 0, 0, 0);
	assert_int_equal(pk.out_port, g0);
	assert_int_equal(pk.reason, DFLY_ROUTE_OLM_NO_CANDIDATE);
	/* G0 of the candidate unable to take the packet, its G1 empty: G1 is beyond a CRG hop's
	 * place (no global VC would be left for the second global hop), so no candidate */
	asic_debug_set_credits(n.as[0], g1, 0, 7);
	asic_debug_set_credits(n.as[0], g1, 1, 256);
	transit_probe(&n, 0, &pk, d, 0, 0, 0);
	assert_int_equal(pk.out_port, g0);
	assert_int_equal(pk.reason, DFLY_ROUTE_OLM_NO_CANDIDATE);
	assert_int_equal(pk.out_vc, 1); /* waits on the safe VC of its minimal hop */
	net_free(&n);
}

/* The local misroutes (Hybrid with th_h = 0 and FOGSim's any-candidate flag: every decision
 * point misroutes to a candidate that can take the packet; all but one candidate blocked). */
static void test_flexvc_transit_misroutes(void **state)
{
	struct asic_params par = default_params(32);
	struct asic_pkt pk;
	struct net n;
	const struct dfly_topo *t;
	uint32_t r, d, mp, in_g, c;

	(void)state;
	par.vcs[DFLY_PORT_LOCAL] = 3;
	net_build(&n, 1, 4, 2, &par, DFLY_MODE_HYBRID, map_olm);
	t = n.topo;
	for (r = 0; r < t->routers; r++) {
		n.regs[r].knobs.flexvc = DFLY_FLEXVC_HIGHEST;
		n.regs[r].knobs.hyb_th = 0;
		n.regs[r].knobs.hyb_any = 1;
	}
	in_g = t->first_global;

	/* I1, a local misroute in an intermediate group (router 4, group 1), arrived by a global
	 * hop: the misroute, then the minimal path from its far end. With t = 1 only the minimal
	 * router holds the global link onwards, so the misroute leads to a router without it (l,
	 * then l g l): l0, L0 alone (below the G0 the packet holds: an opportunistic hop) */
	r = 4;
	d = find_dst(t, r, "lgl");
	mp = asic_min_port(n.as[r], d);
	for (c = t->first_local; c < t->first_global; c++) {
		uint32_t peer, pp;
		struct dfly_hop hops[3];

		if (c == mp)
			continue;
		for (uint32_t o = t->first_local; o < t->first_global; o++)
			set_port_credits(&n, r, o, o == c ? UINT32_MAX : 0);
		transit_probe(&n, r, &pk, d, ASIC_PKT_NONMIN, 1, in_g);
		assert_int_equal(pk.out_port, c);
		assert_int_equal(pk.reason, DFLY_ROUTE_OLM_LOCAL_INTER);
		dfly_topo_port_peer(t, r, c, &peer, &pp);
		assert_int_equal(dfly_topo_min_path(t, peer, d, d, hops), 3);
		assert_int_equal(pk.vc_allow, 0x1);
		assert_int_equal(pk.out_vc, 0);
	}

	/* D1, in the destination group: the misroute, then one local hop: l2, L0 or L1 */
	d = find_dst(t, r, "l");
	mp = asic_min_port(n.as[r], d);
	c = mp == t->first_local ? t->first_local + 1 : t->first_local;
	for (uint32_t o = t->first_local; o < t->first_global; o++)
		set_port_credits(&n, r, o, o == c ? UINT32_MAX : 0);
	transit_probe(&n, r, &pk, d, 0, 1, in_g);
	assert_int_equal(pk.out_port, c);
	assert_int_equal(pk.reason, DFLY_ROUTE_OLM_LOCAL_DST);
	assert_int_equal(pk.vc_allow, 0x3);
	assert_int_equal(pk.out_vc, 1);
	for (uint32_t o = t->first_local; o < t->first_global; o++)
		set_port_credits(&n, r, o, UINT32_MAX);

	/* NRG, a local misroute in the source group (router 0, arrived on a local port, still
	 * minimal, its minimal hop global): the misroute, the mandatory global hop, then up to
	 * l g l: the whole escape sequence, so l0 and L0 alone. Its L0 unable to take the packet
	 * and L1, L2 empty: no candidate (from L1 no escape climbs l g l g l) */
	r = 0;
	d = find_dst(t, r, "gl");
	mp = asic_min_port(n.as[r], d);
	c = t->first_local + 1;
	for (uint32_t o = t->first_local; o < t->first_global; o++)
		set_port_credits(&n, r, o, o == c ? UINT32_MAX : 0);
	transit_probe(&n, r, &pk, d, 0, 0, t->first_local);
	assert_int_equal(pk.out_port, c);
	assert_int_equal(pk.reason, DFLY_ROUTE_OLM_LOCAL_SRC);
	assert_int_equal(pk.pend_flags, ASIC_PKT_NONMIN | ASIC_PKT_MANDATORY_GLOBAL);
	assert_int_equal(pk.vc_allow, 0x1);
	assert_int_equal(pk.out_vc, 0);
	asic_debug_set_credits(n.as[r], c, 0, 7);
	transit_probe(&n, r, &pk, d, 0, 0, t->first_local);
	assert_int_equal(pk.out_port, mp);
	assert_int_equal(pk.reason, DFLY_ROUTE_OLM_NO_CANDIDATE);
	for (uint32_t o = t->first_local; o < t->first_global; o++)
		set_port_credits(&n, r, o, UINT32_MAX);

	/* the mandatory global hop (at the router the NRG hop reached): a global hop then a
	 * minimal path, to the destination's group (g, then l) at g3, G0 or G1, to another
	 * (g, then up to l g l) at g1, G0 alone */
	c = mp == t->first_global ? mp + 1 : t->first_global; /* the other global port */
	set_port_credits(&n, r, c, 0);
	transit_probe(&n, r, &pk, d, ASIC_PKT_NONMIN | ASIC_PKT_MANDATORY_GLOBAL, 0,
		      t->first_local);
	assert_int_equal(pk.out_port, mp);
	assert_int_equal(pk.reason, DFLY_ROUTE_OLM_MANDATORY_GLOBAL);
	assert_int_equal(pk.vc_allow, 0x3);
	assert_int_equal(pk.out_vc, 1);
	set_port_credits(&n, r, c, UINT32_MAX);
	set_port_credits(&n, r, mp, 0);
	transit_probe(&n, r, &pk, d, ASIC_PKT_NONMIN | ASIC_PKT_MANDATORY_GLOBAL, 0,
		      t->first_local);
	assert_int_equal(pk.out_port, c);
	assert_int_equal(pk.vc_allow, 0x1);
	assert_int_equal(pk.out_vc, 0);
	set_port_credits(&n, r, mp, UINT32_MAX);
	net_free(&n);

	/* 4/2 VCs: the extra local VC goes first in the sequence (thesis §5.2.3: "additional VCs
	 * of any type can be inserted at the start"), l3 l0 g0 l1 g1 l2: every local hop may use
	 * it, the NRG hop L3 or L0 */
	par.vcs[DFLY_PORT_LOCAL] = 4;
	net_build(&n, 1, 4, 2, &par, DFLY_MODE_HYBRID, map_olm);
	t = n.topo;
	for (r = 0; r < t->routers; r++) {
		n.regs[r].knobs.flexvc = DFLY_FLEXVC_HIGHEST;
		n.regs[r].knobs.hyb_th = 0;
		n.regs[r].knobs.hyb_any = 1;
	}
	d = find_dst(t, 0, "gl");
	transit_probe(&n, 0, &pk, d, 0, 0, t->first_local);
	assert_int_equal(pk.reason, DFLY_ROUTE_OLM_LOCAL_SRC);
	assert_int_equal(pk.vc_allow, 0x9);
	assert_int_equal(pk.out_vc, 0);
	d = find_dst(t, 0, "l");
	transit_probe(&n, 0, &pk, d, 0, 0, 0);
	assert_int_equal(pk.vc_allow, 0xf);
	assert_int_equal(pk.out_vc, 2);
	net_free(&n);
}

/*
 * Request-reply in transit (traffic.reqrep; thesis §5.1.1, §5.2.2, Table 5.4, §5.3.4): requests
 * on the first VCs of a port, replies on the last ones (knobs.reply_vc: where the reply class
 * starts). p = 1, a = 4, h = 2 (g = 9), as the FlexVC probes above.
 */

/* The in-transit network with @p vl / @p vg VCs, the reply class from local VC @p rl and global
 * VC @p rg, FlexVC @p sel; OLM (its trigger off while nothing is congested: minimal hops), or
 * Hybrid with th_h = 0 and the any-candidate flag (every decision point misroutes to a candidate
 * that can take the packet). */
static void rr_net(struct net *n, enum dfly_route_mode mode, uint32_t vl, uint32_t vg, uint32_t rl,
		   uint32_t rg, uint32_t sel)
{
	struct asic_params par = default_params(32);

	par.vcs[DFLY_PORT_LOCAL] = vl;
	par.vcs[DFLY_PORT_GLOBAL] = vg;
	net_build(n, 1, 4, 2, &par, mode, map_olm);
	for (uint32_t r = 0; r < n->topo->routers; r++) {
		n->regs[r].knobs.flexvc = sel;
		n->regs[r].knobs.olm_x_pct = 50;
		n->regs[r].knobs.hyb_th = 0;
		n->regs[r].knobs.hyb_any = 1;
		n->regs[r].knobs.reply_vc[DFLY_PORT_LOCAL] = rl;
		n->regs[r].knobs.reply_vc[DFLY_PORT_GLOBAL] = rg;
	}
}

/* Every VC of output @p port of router @p r holds @p credits (UINT32_MAX: its capacity); the
 * port has @p nvc VCs. */
static void set_port_credits_n(struct net *n, uint32_t r, uint32_t port, uint32_t nvc,
			       uint32_t credits)
{
	bool g = dfly_topo_port_kind(n->topo, port) == DFLY_PORT_GLOBAL;

	for (uint32_t v = 0; v < nvc; v++)
		asic_debug_set_credits(n->as[r], port, v,
				       credits == UINT32_MAX ? (g ? 256 : 32) : (int32_t)credits);
}

/*
 * Without FlexVC, 6/4 VCs: each class its own copy of l0 l0 g1 l0 l2 g3 l4 (thesis §5.1.1: the
 * path doubled), the reply class from l3 and g2. A reply's hop takes its role's VC in the reply
 * class, and its trigger and candidates read only the reply VCs: a request VC never stands in
 * for a reply VC (the classes share no buffer, so no cycle spans them).
 */
static void test_reqrep_transit_classes(void **state)
{
	struct asic_pkt pk;
	struct net n;
	const struct dfly_topo *t;
	uint32_t d, g0, g1, r, mp, c;

	(void)state;
	rr_net(&n, DFLY_MODE_OLM, 6, 4, 3, 2, DFLY_FLEXVC_OFF);
	t = n.topo;
	/* minimal hops: S1, G1, D2 at l0 g0 l2 for a request, l3 g2 l5 for a reply */
	d = find_dst(t, 0, "gl");
	transit_probe(&n, 0, &pk, d, 0, 0, 0);
	assert_int_equal(pk.out_vc, 0);
	transit_probe(&n, 0, &pk, d, ASIC_PKT_REPLY, 0, 0);
	assert_int_equal(dfly_topo_port_kind(t, pk.out_port), DFLY_PORT_GLOBAL);
	assert_int_equal(pk.out_vc, 2);
	assert_int_equal(pk.vc_allow, 0);
	transit_probe(&n, 0, &pk, find_dst(t, 0, "lgl"), ASIC_PKT_REPLY, 0, 0);
	assert_int_equal(pk.out_vc, 3);
	transit_probe(&n, 0, &pk, find_dst(t, 0, "l"), 0, 0, 0);
	assert_int_equal(pk.out_vc, 2);
	transit_probe(&n, 0, &pk, find_dst(t, 0, "l"), ASIC_PKT_REPLY, 0, 0);
	assert_int_equal(pk.out_vc, 5);

	/* OLM's credit trigger on the reply's own VC: G2 of the minimal port blocked (250 of 256
	 * phits), the other global port's G2 valid up to 125 phits (50 % of 97.66 %) */
	g0 = asic_min_port(n.as[0], d);
	g1 = g0 == t->first_global ? g0 + 1 : t->first_global;
	asic_debug_set_credits(n.as[0], g0, 2, 6);
	transit_probe(&n, 0, &pk, d, 0, 0, 0);
	assert_int_equal(pk.out_port, g0); /* a request: its G0 is free, not misrouted */
	assert_int_equal(pk.out_vc, 0);
	asic_debug_set_credits(n.as[0], g1, 2, 256 - 125);
	transit_probe(&n, 0, &pk, d, ASIC_PKT_REPLY, 0, 0);
	assert_int_equal(pk.out_port, g1);
	assert_int_equal(pk.out_vc, 2);
	assert_int_equal(pk.pend_flags, ASIC_PKT_NONMIN);
	asic_debug_set_credits(n.as[0], g1, 2, 256 - 126); /* one phit more: invalid */
	transit_probe(&n, 0, &pk, d, ASIC_PKT_REPLY, 0, 0);
	assert_int_equal(pk.out_port, g0);
	assert_int_equal(pk.out_vc, 2);
	assert_int_equal(pk.reason, DFLY_ROUTE_OLM_NO_CANDIDATE);
	/* the candidate's reply VC unable to take the packet, its request VCs empty: no candidate
	 * (a reply never takes a request VC without FlexVC) */
	asic_debug_set_credits(n.as[0], g1, 2, 7);
	transit_probe(&n, 0, &pk, d, ASIC_PKT_REPLY, 0, 0);
	assert_int_equal(pk.out_port, g0);
	assert_int_equal(pk.reason, DFLY_ROUTE_OLM_NO_CANDIDATE);
	/* ... and the minimal G0 blocked, its G2 free: a reply is not misrouted */
	asic_debug_set_credits(n.as[0], g1, 2, 256);
	asic_debug_set_credits(n.as[0], g0, 2, 256);
	asic_debug_set_credits(n.as[0], g0, 0, 6);
	transit_probe(&n, 0, &pk, d, ASIC_PKT_REPLY, 0, 0);
	assert_int_equal(pk.out_port, g0);
	assert_int_equal(pk.reason, ASIC_REASON_NONE);
	asic_debug_set_credits(n.as[0], g0, 0, 256);

	/* the mandatory global hop of a reply: G1's role in the reply class, G2 */
	transit_probe(&n, 0, &pk, d, ASIC_PKT_REPLY | ASIC_PKT_NONMIN | ASIC_PKT_MANDATORY_GLOBAL,
		      0, t->first_local);
	assert_int_equal(pk.reason, DFLY_ROUTE_OLM_MANDATORY_GLOBAL);
	assert_int_equal(pk.out_vc, 2);
	net_free(&n);

	/* the local misroutes of a reply: S2 and I1 at l3 (index 0 of its class), D1 at l4 */
	rr_net(&n, DFLY_MODE_HYBRID, 6, 4, 3, 2, DFLY_FLEXVC_OFF);
	t = n.topo;
	d = find_dst(t, 0, "gl");
	transit_probe(&n, 0, &pk, d, ASIC_PKT_REPLY, 0, t->first_local);
	assert_int_equal(pk.reason, DFLY_ROUTE_OLM_LOCAL_SRC);
	assert_int_equal(pk.out_vc, 3);
	r = 4;
	transit_probe(&n, r, &pk, find_dst(t, r, "lgl"), ASIC_PKT_REPLY | ASIC_PKT_NONMIN, 1,
		      t->first_global);
	assert_int_equal(pk.reason, DFLY_ROUTE_OLM_LOCAL_INTER);
	assert_int_equal(pk.out_vc, 3);
	d = find_dst(t, r, "l");
	transit_probe(&n, r, &pk, d, ASIC_PKT_REPLY, 1, t->first_global);
	assert_int_equal(pk.reason, DFLY_ROUTE_OLM_LOCAL_DST);
	assert_int_equal(pk.out_vc, 4);
	transit_probe(&n, r, &pk, d, 0, 1, t->first_global);
	assert_int_equal(pk.out_vc, 1);
	/* D1's reply VC L4 unable to take the packet on every candidate, their L1 empty: no
	 * candidate, the reply waits on its minimal hop's L5 */
	mp = asic_min_port(n.as[r], d);
	for (c = t->first_local; c < t->first_global; c++)
		if (c != mp)
			asic_debug_set_credits(n.as[r], c, 4, 7);
	transit_probe(&n, r, &pk, d, ASIC_PKT_REPLY, 1, t->first_global);
	assert_int_equal(pk.out_port, mp);
	assert_int_equal(pk.out_vc, 5);
	net_free(&n);
}

/*
 * FlexVC, 5/3 VCs: 3/2 requests + 2/1 replies (thesis Table 5.4: in-transit paths
 * opportunistic). A request is placed on its class's escape sequence l0 g0 l1 g1 l2; a reply
 * on that sequence followed by its class's own, sized for minimal paths: l0 g0 l1 g1 l2 l3 g2
 * l4 (thesis §5.2.2). HIGHEST: vc_allow is the rule, out_vc the safe VC. A reply's minimal hops
 * end in its class (its safe VCs l3 g2 l4) and may use every request VC before them; its
 * misroutes reach down into the request VCs (thesis §5.2.2: "opportunistic reply hops in
 * nonminimal paths can leverage lower-index request VCs"); a request never has a reply VC.
 */
static void test_reqrep_transit_flexvc(void **state)
{
	struct asic_pkt pk;
	struct net n;
	const struct dfly_topo *t;
	uint32_t d, r, mp, c;

	(void)state;
	rr_net(&n, DFLY_MODE_OLM, 5, 3, 3, 2, DFLY_FLEXVC_HIGHEST);
	t = n.topo;
	/* safe hops. A reply's g l: g2 (G0-G2), l g l: l3 (L0-L3), l: l4 (any local) */
	d = find_dst(t, 0, "gl");
	transit_probe(&n, 0, &pk, d, ASIC_PKT_REPLY, 0, 0);
	assert_int_equal(pk.vc_allow, 0x7);
	assert_int_equal(pk.out_vc, 2);
	transit_probe(&n, 0, &pk, find_dst(t, 0, "lgl"), ASIC_PKT_REPLY, 0, 0);
	assert_int_equal(pk.vc_allow, 0xf);
	assert_int_equal(pk.out_vc, 3);
	transit_probe(&n, 0, &pk, find_dst(t, 0, "l"), ASIC_PKT_REPLY, 0, 0);
	assert_int_equal(pk.vc_allow, 0x1f);
	assert_int_equal(pk.out_vc, 4);
	/* a request's: g1 (G0-G1), l1 (L0-L1), l2 (L0-L2): never a reply VC */
	transit_probe(&n, 0, &pk, d, 0, 0, 0);
	assert_int_equal(pk.vc_allow, 0x3);
	assert_int_equal(pk.out_vc, 1);
	transit_probe(&n, 0, &pk, find_dst(t, 0, "lgl"), 0, 0, 0);
	assert_int_equal(pk.vc_allow, 0x3);
	assert_int_equal(pk.out_vc, 1);
	transit_probe(&n, 0, &pk, find_dst(t, 0, "l"), 0, 0, 0);
	assert_int_equal(pk.vc_allow, 0x7);
	assert_int_equal(pk.out_vc, 2);
	/* the mandatory global hop of a reply: to another group (g, then l g l) at g1, G0-G1;
	 * into the destination's group (g l) at g2 */
	mp = asic_min_port(n.as[0], d);
	c = mp == t->first_global ? mp + 1 : t->first_global;
	set_port_credits_n(&n, 0, c, 3, 0);
	transit_probe(&n, 0, &pk, d, ASIC_PKT_REPLY | ASIC_PKT_NONMIN | ASIC_PKT_MANDATORY_GLOBAL,
		      0, t->first_local);
	assert_int_equal(pk.out_port, mp);
	assert_int_equal(pk.vc_allow, 0x7);
	assert_int_equal(pk.out_vc, 2);
	set_port_credits_n(&n, 0, c, 3, UINT32_MAX);
	set_port_credits_n(&n, 0, mp, 3, 0);
	transit_probe(&n, 0, &pk, d, ASIC_PKT_REPLY | ASIC_PKT_NONMIN | ASIC_PKT_MANDATORY_GLOBAL,
		      0, t->first_local);
	assert_int_equal(pk.out_port, c);
	assert_int_equal(pk.vc_allow, 0x3);
	assert_int_equal(pk.out_vc, 1);
	set_port_credits_n(&n, 0, mp, 3, UINT32_MAX);
	net_free(&n);

	rr_net(&n, DFLY_MODE_HYBRID, 5, 3, 3, 2, DFLY_FLEXVC_HIGHEST);
	t = n.topo;
	/* CRG at injection: a global hop and a whole minimal path after it: the reply's g1,
	 * G0-G1 (the request's: g0, G0 alone) */
	d = find_dst(t, 0, "gl");
	transit_probe(&n, 0, &pk, d, ASIC_PKT_REPLY, 0, 0);
	assert_int_equal(pk.pend_flags, ASIC_PKT_NONMIN);
	assert_int_equal(pk.vc_allow, 0x3);
	assert_int_equal(pk.out_vc, 1);
	transit_probe(&n, 0, &pk, d, 0, 0, 0);
	assert_int_equal(pk.vc_allow, 0x1);
	assert_int_equal(pk.out_vc, 0);
	/* NRG: the misroute, the mandatory global hop, then up to l g l: l1 for a reply (L0-L1),
	 * l0 for a request. Its L0 and L1 unable to take the reply, L2-L4 empty: no candidate
	 * (from L2 no escape climbs l g l g l to the reply class's end) */
	transit_probe(&n, 0, &pk, d, ASIC_PKT_REPLY, 0, t->first_local);
	assert_int_equal(pk.reason, DFLY_ROUTE_OLM_LOCAL_SRC);
	assert_int_equal(pk.vc_allow, 0x3);
	assert_int_equal(pk.out_vc, 1);
	transit_probe(&n, 0, &pk, d, 0, 0, t->first_local);
	assert_int_equal(pk.reason, DFLY_ROUTE_OLM_LOCAL_SRC);
	assert_int_equal(pk.vc_allow, 0x1);
	mp = asic_min_port(n.as[0], d);
	for (c = t->first_local; c < t->first_global; c++) {
		asic_debug_set_credits(n.as[0], c, 0, 7);
		asic_debug_set_credits(n.as[0], c, 1, 7);
	}
	transit_probe(&n, 0, &pk, d, ASIC_PKT_REPLY, 0, t->first_local);
	assert_int_equal(pk.out_port, mp);
	assert_int_equal(pk.reason, DFLY_ROUTE_OLM_NO_CANDIDATE);
	for (c = t->first_local; c < t->first_global; c++)
		set_port_credits_n(&n, 0, c, 5, UINT32_MAX);
	/* I1 (l, then l g l): l2, L0-L2; D1 (l, then l): l3, L0-L3 */
	r = 4;
	transit_probe(&n, r, &pk, find_dst(t, r, "lgl"), ASIC_PKT_REPLY | ASIC_PKT_NONMIN, 1,
		      t->first_global);
	assert_int_equal(pk.reason, DFLY_ROUTE_OLM_LOCAL_INTER);
	assert_int_equal(pk.vc_allow, 0x7);
	assert_int_equal(pk.out_vc, 2);
	transit_probe(&n, r, &pk, find_dst(t, r, "l"), ASIC_PKT_REPLY, 1, t->first_global);
	assert_int_equal(pk.reason, DFLY_ROUTE_OLM_LOCAL_DST);
	assert_int_equal(pk.vc_allow, 0xf);
	assert_int_equal(pk.out_vc, 3);
	net_free(&n);

	/* a reply class of 3/2 (6/4 VCs): the reply's own part is the whole escape sequence, so
	 * its NRG hop is placed at l3 (L0-L3), a request's still at l0 */
	rr_net(&n, DFLY_MODE_HYBRID, 6, 4, 3, 2, DFLY_FLEXVC_HIGHEST);
	t = n.topo;
	d = find_dst(t, 0, "gl");
	transit_probe(&n, 0, &pk, d, ASIC_PKT_REPLY, 0, t->first_local);
	assert_int_equal(pk.reason, DFLY_ROUTE_OLM_LOCAL_SRC);
	assert_int_equal(pk.vc_allow, 0xf);
	assert_int_equal(pk.out_vc, 3);
	transit_probe(&n, 0, &pk, d, 0, 0, t->first_local);
	assert_int_equal(pk.vc_allow, 0x1);
	assert_int_equal(pk.out_vc, 0);
	net_free(&n);
}

/* The route stage and allocator are specialised per mode and picked at a step boundary: a mode
 * register written between steps (here between probes) takes effect at the next one, either
 * way, and a value outside the enum routes as UGAL-L. p=1 a=2 h=2 (g = 5). */
static void test_mode_switch(void **state)
{
	struct asic_params par = default_params(32);
	struct net n;
	struct asic_pkt pk;
	uint32_t dst;

	(void)state;
	net_build(&n, 1, 2, 2, &par, DFLY_MODE_MIN, map_min);
	dst = dfly_topo_global_peer(n.topo, 0, 0).router * n.topo->p; /* another group */
	pkt_init(&pk, 0, dst, 0);
	asic_route_probe(n.as[0], &pk, 0);
	assert_int_equal(pk.val_router, ASIC_NONE);
	assert_int_equal(pk.out_port, asic_min_port(n.as[0], dst));
	assert_int_equal(pk.flags & (ASIC_PKT_NONMIN | ASIC_PKT_DECIDING), 0);

	n.regs[0].knobs.mode = DFLY_MODE_VAL;
	memcpy(n.regs[0].knobs.vc_map, map_val, DFLY_ROLE_COUNT);
	pkt_init(&pk, 0, dst, 0);
	asic_route_probe(n.as[0], &pk, 0);
	assert_true(pk.val_router != ASIC_NONE);
	assert_true(pk.flags & ASIC_PKT_NONMIN);

	n.regs[0].knobs.mode = DFLY_MODE_COUNT + 3;
	pkt_init(&pk, 0, dst, 0);
	asic_route_probe(n.as[0], &pk, 0);
	assert_true(pk.flags & ASIC_PKT_DECIDING); /* a source-adaptive decision, not yet granted */

	n.regs[0].knobs.mode = DFLY_MODE_MIN;
	memcpy(n.regs[0].knobs.vc_map, map_min, DFLY_ROLE_COUNT);
	pkt_init(&pk, 0, dst, 0);
	asic_route_probe(n.as[0], &pk, 0);
	assert_int_equal(pk.val_router, ASIC_NONE);
	assert_int_equal(pk.out_port, asic_min_port(n.as[0], dst));
	assert_int_equal(pk.flags & (ASIC_PKT_NONMIN | ASIC_PKT_DECIDING), 0);
	net_free(&n);
}

/* ---------------------------------------------------------------------------------------------
 * Contention counters (spec §5.2) and the ECtN partial array (spec §5.6).
 * Network p=2 a=4 h=2 (g = 9): router 0 is group 0, ρ 0; node 8 is router 4 (group 1).
 */

static uint32_t cc_sum(const struct dfly_regs *r, uint32_t radix)
{
	uint32_t s = 0;

	for (uint32_t o = 0; o < radix; o++)
		s += r->mech.cc[o];
	return s;
}

static uint32_t partial_sum(const struct dfly_regs *r)
{
	uint32_t s = 0;

	for (uint32_t D = 0; D < DFLY_MAX_GROUPS; D++)
		s += r->mech.ectn_partial[D];
	return s;
}

/* Every router's event-driven counters equal the recompute, and no check ever failed. */
static void assert_cc_consistent(struct net *n)
{
	for (uint32_t r = 0; r < n->topo->routers; r++) {
		assert_int_equal(asic_cc_recompute_check(n->as[r]), 0);
		assert_int_equal(asic_cc_mismatches(n->as[r]), 0);
	}
}

static void assert_cc_zero(struct net *n)
{
	for (uint32_t r = 0; r < n->topo->routers; r++) {
		assert_int_equal(cc_sum(&n->regs[r], n->topo->radix), 0);
		assert_int_equal(partial_sum(&n->regs[r]), 0);
	}
}

/*
 * Two packets injected at the same time on two injection VCs of one port (JSQ: VC 0, then the
 * emptier VC 1) are both heads: cc[minimal port] == 2 before any grant, and both count on the
 * ECtN partial of their remote destination group. Timing (S = 2, pipeline 2): packet A is
 * granted at tick 6 and its tail leaves the input at tick 18 (cut-through behind the terminal
 * link: (1 + 8)·2); packet B, serialised behind A on the node link, is granted at tick 22 and
 * its tail leaves at tick 34. So cc[m] = 2 through cycle 8, 1 through cycle 16, 0 from 17.
 */
static void test_cc_two_inj_vcs(void **state)
{
	struct asic_params par = default_params(32);
	struct net n;
	struct asic_pkt pk[2];
	struct asic_ejection ej[4];
	uint32_t m, delivered = 0;

	(void)state;
	net_build(&n, 2, 4, 2, &par, DFLY_MODE_MIN, map_min);
	for (uint32_t r = 0; r < n.topo->routers; r++)
		n.regs[r].knobs.cc_check = 1;
	m = dfly_topo_min_port(n.topo, 0, 8 / 2, 8);
	assert_true(m >= n.topo->first_local); /* a fabric port: the packet stays a while */
	for (int i = 0; i < 2; i++) {
		pkt_init(&pk[i], 0, 8, 0);
		assert_true(asic_inject(n.as[0], 0, &pk[i], 0));
	}
	assert_int_equal(pk[0].vc, 0);
	assert_int_equal(pk[1].vc, 1);
	assert_int_equal(n.regs[0].mech.cc[m], 2);
	assert_int_equal(cc_sum(&n.regs[0], n.topo->radix), 2);
	assert_int_equal(n.regs[0].mech.ectn_partial[1], 2);
	assert_int_equal(partial_sum(&n.regs[0]), 2);
	assert_int_equal(asic_cc_recompute_check(n.as[0]), 0);
	for (uint64_t c = 0; c < 400; c++) {
		uint32_t want = c <= 8 ? 2 : c <= 16 ? 1 : 0;

		delivered += net_cycle(&n, c, ej, 4);
		if (c < 3)
			assert_int_equal(n.regs[0].port_ctr[0][DFLY_XBAR_IN_GRANTS], 0);
		assert_int_equal(n.regs[0].mech.cc[m], want);
		assert_int_equal(cc_sum(&n.regs[0], n.topo->radix), want);
		assert_int_equal(n.regs[0].mech.ectn_partial[1], want);
		assert_cc_consistent(&n);
	}
	assert_int_equal(delivered, 2);
	assert_cc_zero(&n);
	assert_drained(&n);
	net_free(&n);
}

/*
 * Two packets on ONE injection VC (DFLY_INJ_DEST: same destination, same VC): only the head
 * counts, so cc[m] == 1 until the first is granted (tick 6, cycle 3). With routing.cc.head =
 * grant (@p at_tail false) the second then counts too while the first's tail is still in the
 * input (until tick 18): 2 for cycles 3..8, then 1 until the second's tail leaves (tick 34),
 * then 0. With routing.cc.head = tail its header reaches the buffer head only when the first's
 * tail has left (tick 18): cc[m] stays 1 from the first's arrival to the second's departure.
 */
static void cc_behind_head(bool at_tail)
{
	struct asic_params par = default_params(32);
	struct net n;
	struct asic_pkt pk[2];
	struct asic_ejection ej[4];
	uint32_t m, delivered = 0;

	par.inj_select = DFLY_INJ_DEST;
	net_build(&n, 2, 4, 2, &par, DFLY_MODE_MIN, map_min);
	for (uint32_t r = 0; r < n.topo->routers; r++) {
		n.regs[r].knobs.cc_check = 1;
		n.regs[r].knobs.cc_head_at_tail = at_tail;
	}
	m = dfly_topo_min_port(n.topo, 0, 8 / 2, 8);
	for (int i = 0; i < 2; i++) {
		pkt_init(&pk[i], 0, 8, 0);
		assert_true(asic_inject(n.as[0], 0, &pk[i], 0));
	}
	assert_int_equal(pk[0].vc, pk[1].vc);
	assert_int_equal(n.regs[0].mech.cc[m], 1);
	assert_int_equal(cc_sum(&n.regs[0], n.topo->radix), 1);
	assert_int_equal(n.regs[0].mech.ectn_partial[1], 1);
	assert_int_equal(asic_cc_recompute_check(n.as[0]), 0);
	for (uint64_t c = 0; c < 400; c++) {
		uint32_t want = at_tail   ? (c <= 16 ? 1 : 0)
				: c < 3   ? 1
				: c <= 8  ? 2
				: c <= 16 ? 1
					  : 0;

		delivered += net_cycle(&n, c, ej, 4);
		assert_int_equal(n.regs[0].port_ctr[0][DFLY_XBAR_IN_GRANTS], c < 3    ? 0
									     : c < 11 ? 1
										      : 2);
		assert_int_equal(n.regs[0].mech.cc[m], want);
		assert_int_equal(cc_sum(&n.regs[0], n.topo->radix), want);
		assert_int_equal(n.regs[0].mech.ectn_partial[1], want);
		assert_cc_consistent(&n);
	}
	assert_int_equal(delivered, 2);
	assert_cc_zero(&n);
	assert_drained(&n);
	net_free(&n);
}

static void test_cc_behind_head(void **state)
{
	(void)state;
	cc_behind_head(false);
	cc_behind_head(true);
}

/*
 * Base mode with th = 1: a packet's own increment fires the trigger, so every packet with a
 * valid candidate is misrouted. The misrouted packet keeps counting on its MINIMAL port (not
 * the port it took, which it never increments) until its tail leaves, and everything returns
 * to zero once drained; the recompute form agrees at every cycle on every router.
 */
static void test_cc_misroute_release(void **state)
{
	struct asic_params par = default_params(32);
	struct net n;
	struct asic_pkt pk[6];
	struct asic_ejection ej[8];
	uint32_t m, delivered = 0;
	bool seen_grant = false;

	(void)state;
	net_build(&n, 2, 4, 2, &par, DFLY_MODE_BASE, map_olm);
	for (uint32_t r = 0; r < n.topo->routers; r++) {
		n.regs[r].knobs.cc_th = 1;
		n.regs[r].knobs.cc_check = 1;
	}
	m = dfly_topo_min_port(n.topo, 0, 8 / 2, 8);
	pkt_init(&pk[0], 0, 8, 0);
	assert_true(asic_inject(n.as[0], 0, &pk[0], 0));
	/* more traffic from other routers so other counters move too */
	for (int i = 1; i < 6; i++) {
		uint32_t src = (uint32_t)i * 5 % n.topo->nodes;

		pkt_init(&pk[i], src, (src + 37) % n.topo->nodes, 0);
		assert_true(asic_inject(n.as[src / 2], src % 2, &pk[i], 0));
	}
	for (uint64_t c = 0; c < 3000; c++) {
		delivered += net_cycle(&n, c, ej, 8);
		assert_cc_consistent(&n);
		if (!seen_grant && n.regs[0].port_ctr[0][DFLY_XBAR_IN_GRANTS] == 1) {
			/* granted at tick 6: misrouted, still counted on m only, until tick 18 */
			seen_grant = true;
			assert_int_equal(c, 3);
			assert_int_not_equal(pk[0].out_port, m);
			assert_int_equal(n.regs[0].route[DFLY_ROUTE_CC_TRIG_CONTENTION], 1);
			assert_int_equal(n.regs[0].mech.cc[m], 1);
			assert_int_equal(n.regs[0].mech.cc[pk[0].out_port], 0);
			assert_int_equal(n.regs[0].mech.ectn_partial[1], 1);
		}
		if (seen_grant && c == 8)
			assert_int_equal(n.regs[0].mech.cc[m], 1);
		if (seen_grant && c == 9)
			assert_int_equal(n.regs[0].mech.cc[m], 0);
	}
	assert_true(seen_grant);
	assert_int_equal(delivered, 6);
	assert_cc_zero(&n);
	assert_drained(&n);
	net_free(&n);
}

/*
 * ECtN partial at router 4 (group 1, ρ 0), fed by hand through half links: a local-input
 * packet to a remote group counts on cc but not on the partial; injection and global-input
 * packets to remote group 3 count on partial[3]; injection and global-input packets to the
 * router's own group count on cc only.
 */
/*
 * The ASIC's minimal-port table agrees with dfly_topo_min_port() for every router and every
 * destination node, on palmtree and consecutive arrangements, with and without trunks.
 */
static void test_min_port_table(void **state)
{
	static const struct {
		uint32_t p, a, h, t;
		enum dfly_arrangement arr;
		int sigma;
	} nets[] = {
	    {2, 4, 2, 1, DFLY_ARR_PALMTREE, -1}, {4, 8, 4, 2, DFLY_ARR_PALMTREE, 1},
	    {2, 4, 2, 4, DFLY_ARR_PALMTREE, -1}, {3, 6, 3, 1, DFLY_ARR_CONSECUTIVE, -1},
	    {1, 2, 1, 1, DFLY_ARR_PALMTREE, -1},
	};
	struct asic_params par = default_params(32);
	struct dfly_regs *regs = calloc(1, sizeof(*regs));
	uint64_t checked = 0;

	(void)state;
	assert_non_null(regs);
	for (size_t n = 0; n < sizeof(nets) / sizeof(nets[0]); n++) {
		struct dfly_topo *t = dfly_topo_create(nets[n].p, nets[n].a, nets[n].h, nets[n].t,
						       nets[n].arr, nets[n].sigma);

		assert_non_null(t);
		for (uint32_t r = 0; r < t->routers; r++) {
			struct asic *as = asic_create(t, r, &par, regs, 1);

			assert_non_null(as);
			for (uint32_t d = 0; d < t->nodes; d++) {
				uint32_t want = dfly_topo_min_port(t, r, d / t->p, d);

				if (asic_min_port(as, d) != want)
					fail_msg("net %zu router %u node %u: %u, want %u", n, r, d,
						 asic_min_port(as, d), want);
				checked++;
			}
			asic_destroy(as);
		}
		dfly_topo_destroy(t);
	}
	assert_true(checked > 10000);
	free(regs);
}

/* Half links on every fabric port of @p as (the driver's side: dfly-switch's device ports),
 * local ones 10 cycles long, global ones 100. */
static void half_links(const struct dfly_topo *t, struct asic *as, struct asic_link **lin,
		       struct asic_link **lout)
{
	for (uint32_t port = t->first_local; port < t->radix; port++) {
		uint32_t lat = dfly_topo_port_kind(t, port) == DFLY_PORT_LOCAL ? 10 : 100;

		lin[port] = asic_link_create_half(as, port, false, lat);
		lout[port] = asic_link_create_half(as, port, true, lat);
		assert_non_null(lin[port]);
		assert_non_null(lout[port]);
	}
}

static void half_links_destroy(const struct dfly_topo *t, struct asic_link **lin,
			       struct asic_link **lout)
{
	for (uint32_t port = t->first_local; port < t->radix; port++) {
		asic_link_destroy(lin[port]);
		asic_link_destroy(lout[port]);
	}
}

/* A half link hands the driver each packet, and each credit return, at the cycle it is due,
 * and says which: what dfly-switch's link and credit timing counters compare with. */
static void test_half_link_due(void **state)
{
	struct asic_params par = default_params(32);
	struct dfly_topo *t = dfly_topo_create(2, 4, 2, 1, DFLY_ARR_PALMTREE, -1);
	struct dfly_regs *regs = calloc(1, sizeof(*regs));
	struct asic_link *lin[DFLY_MAX_PORTS] = {0}, *lout[DFLY_MAX_PORTS] = {0};
	const uint32_t R = 4, dst = 3 * 4 * 2 + 1; /* node 25, group 3 */
	struct asic_pkt pk[3], *got;
	struct asic *as;
	uint32_t mp;
	uint64_t due = 0, seen[3];
	int k = 0;

	(void)state;
	assert_non_null(t);
	assert_non_null(regs);
	as = asic_create(t, R, &par, regs, 7);
	assert_non_null(as);
	regs->knobs.mode = DFLY_MODE_MIN;
	memcpy(regs->knobs.vc_map, map_min, DFLY_ROLE_COUNT);
	half_links(t, as, lin, lout);
	mp = dfly_topo_min_port(t, R, R * 2, dst);
	for (int i = 0; i < 3; i++) {
		pkt_init(&pk[i], R * 2, dst, 0);
		assert_true(asic_inject(as, 0, &pk[i], 0));
	}
	for (uint64_t c = 0; c < 400 && k < 3; c++) {
		asic_step(as, c);
		/* not before its cycle: the first cycle it comes out is the one it was due */
		while ((got = asic_link_pop_data(lout[mp], c, &due)) != NULL) {
			assert_ptr_equal(got, &pk[k]);
			assert_true(due == c);
			seen[k++] = due;
		}
	}
	assert_int_equal(k, 3);
	/* back to back on the link: one packet (8 phits) after the other */
	assert_true(seen[1] == seen[0] + 8 && seen[2] == seen[1] + 8);
	assert_null(asic_link_pop_data(lout[mp], UINT64_MAX, NULL));

	/* a packet from a half link's peer: its credits come back on that link's credit line,
	 * each handed out at the cycle it was due (the due a CREDIT frame carries) */
	{
		uint32_t lp = t->first_local;
		uint64_t cdue = 0, phits_back = 0;
		uint16_t ph;
		uint8_t vc;

		pkt_init(&pk[0], 0, dst, 500);
		pk[0].flags = ASIC_PKT_ROUTED;
		assert_true(asic_link_push_data(lin[lp], &pk[0], 500));
		for (uint64_t c = 500; c < 900 && phits_back < 8; c++) {
			asic_step(as, c);
			while (asic_link_pop_data(lout[mp], c, NULL) != NULL)
				;
			while (asic_link_pop_credit(lin[lp], c, &vc, &ph, &cdue)) {
				assert_true(cdue == c);
				phits_back += ph;
			}
		}
		assert_true(phits_back == 8);
		assert_false(asic_link_pop_credit(lin[lp], UINT64_MAX, &vc, &ph, NULL));
	}
	half_links_destroy(t, lin, lout);
	asic_destroy(as);
	dfly_topo_destroy(t);
	free(regs);
}

static void test_ectn_partial_inputs(void **state)
{
	struct asic_params par = default_params(32);
	struct dfly_topo *t = dfly_topo_create(2, 4, 2, 1, DFLY_ARR_PALMTREE, -1);
	struct dfly_regs *regs = calloc(1, sizeof(*regs));
	struct asic *as;
	struct asic_link *lin[DFLY_MAX_PORTS] = {0}, *lout[DFLY_MAX_PORTS] = {0};
	struct asic_pkt pk[5];
	struct asic_ejection ej[8];
	const uint32_t R = 4, dst3 = 3 * 4 * 2 + 1, dst_own = 6 * 2; /* node 25 (group 3), 12 */
	uint32_t m3, mown, lport, gport0, gport1;

	(void)state;
	assert_non_null(t);
	assert_non_null(regs);
	as = asic_create(t, R, &par, regs, 7);
	assert_non_null(as);
	regs->knobs.mode = DFLY_MODE_MIN;
	regs->knobs.ectn_own_live = 1;
	memcpy(regs->knobs.vc_map, map_min, DFLY_ROLE_COUNT);
	half_links(t, as, lin, lout);
	lport = t->first_local;
	gport0 = t->first_global;
	gport1 = t->first_global + 1;
	m3 = dfly_topo_min_port(t, R, dst3 / 2, dst3);
	mown = dfly_topo_min_port(t, R, dst_own / 2, dst_own);
	assert_int_not_equal(m3, mown);

	pkt_init(&pk[0], 2, dst3, 0); /* local input, remote group: cc only */
	pkt_init(&pk[1], 0, dst3, 0); /* global input, remote group: cc + partial */
	pk[1].ghops = 1;
	pkt_init(&pk[2], R * 2, dst3, 0);        /* injection, remote group: cc + partial */
	pkt_init(&pk[3], R * 2 + 1, dst_own, 0); /* injection, own group: cc only */
	pkt_init(&pk[4], 1, dst_own, 0);         /* global input, own group: cc only */
	pk[4].ghops = 1;
	assert_true(asic_link_push_data(lin[lport], &pk[0], 0));
	assert_true(asic_link_push_data(lin[gport0], &pk[1], 0));
	assert_true(asic_link_push_data(lin[gport1], &pk[4], 0));

	/* the local-input packet alone: counted on cc, not on the partial */
	asic_step(as, 0);
	assert_int_equal(regs->mech.cc[m3], 2);
	assert_int_equal(regs->mech.ectn_partial[3], 1);
	assert_int_equal(regs->mech.cc[mown], 1);
	assert_int_equal(partial_sum(regs), 1);
	assert_int_equal(regs->mech.ectn_combined[3], 1); /* empty table + live own partial */
	assert_int_equal(asic_cc_recompute_check(as), 0);

	assert_true(asic_inject(as, 0, &pk[2], 1));
	assert_true(asic_inject(as, 1, &pk[3], 1));
	assert_int_equal(regs->mech.cc[m3], 3);
	assert_int_equal(regs->mech.cc[mown], 2);
	assert_int_equal(cc_sum(regs, t->radix), 5);
	assert_int_equal(regs->mech.ectn_partial[3], 2);
	assert_int_equal(regs->mech.ectn_partial[1], 0); /* own group never counts */
	assert_int_equal(partial_sum(regs), 2);
	assert_int_equal(regs->mech.ectn_combined[3], 2);
	assert_int_equal(asic_cc_recompute_check(as), 0);

	regs->knobs.cc_check = 1;
	for (uint64_t c = 1; c < 300; c++) {
		asic_step(as, c);
		asic_eject_burst(as, ej, 8);
		assert_int_equal(asic_cc_recompute_check(as), 0);
	}
	assert_int_equal(asic_cc_mismatches(as), 0);
	assert_int_equal(cc_sum(regs, t->radix), 0);
	assert_int_equal(partial_sum(regs), 0);
	assert_int_equal(regs->mech.ectn_combined[3], 0);
	assert_int_equal(asic_pkts_held(as), 0);
	half_links_destroy(t, lin, lout);
	asic_destroy(as);
	free(regs);
	dfly_topo_destroy(t);
}

/*
 * Safe mode (knobs.fw_ttl): a firmware whose heartbeat is fw_ttl cycles old is taken for
 * stopped and its tables are ignored. Router 0 of h=1 (3 groups) with the firmware's ECtN
 * table saying 5 for group 2: used while the heartbeat is fresh, ignored (combined = the own
 * live partial, 0) once it is 100 cycles old, used again when the firmware ticks; every cycle
 * in safe mode counts route.fw_expired.
 */
static void test_fw_ttl_safe_mode(void **state)
{
	struct asic_params par = default_params(32);
	struct net n;
	struct dfly_tbl_ectn *e;

	(void)state;
	net_build(&n, 1, 2, 1, &par, DFLY_MODE_ECTN, map_min);
	n.regs[0].knobs.ectn_own_live = 1;
	n.regs[0].knobs.fw_ttl = 100;
	e = dfly_regs_tbl_begin(&n.regs[0], DFLY_TBL_ECTN);
	assert_non_null(e);
	e->combined[2] = 5;
	dfly_regs_tbl_publish(&n.regs[0], DFLY_TBL_ECTN);
	/* before cycle fw_ttl nobody is late */
	asic_step(n.as[0], 50);
	assert_int_equal(n.regs[0].mech.ectn_combined[2], 5);
	/* a tick at cycle 100 (heartbeat 101): alive at 199, stopped at 200 */
	atomic_store(&n.regs[0].fw.heartbeat, 101);
	asic_step(n.as[0], 199);
	assert_int_equal(n.regs[0].mech.ectn_combined[2], 5);
	assert_int_equal(n.regs[0].route[DFLY_ROUTE_FW_EXPIRED], 0);
	asic_step(n.as[0], 200);
	assert_int_equal(n.regs[0].mech.ectn_combined[2], 0);
	asic_step(n.as[0], 201);
	assert_int_equal(n.regs[0].route[DFLY_ROUTE_FW_EXPIRED], 2);
	/* the firmware is back */
	atomic_store(&n.regs[0].fw.heartbeat, 202);
	asic_step(n.as[0], 202);
	assert_int_equal(n.regs[0].mech.ectn_combined[2], 5);
	assert_int_equal(n.regs[0].route[DFLY_ROUTE_FW_EXPIRED], 2);
	/* fw_ttl 0: never */
	n.regs[0].knobs.fw_ttl = 0;
	asic_step(n.as[0], 100000);
	assert_int_equal(n.regs[0].mech.ectn_combined[2], 5);
	net_free(&n);
}

/* ---------------------------------------------------------------------------------------------
 * Failover (routing.failover, PROPOSAL). p=1 a=2 h=2 (g = 5): router 0 (group 0) has global
 * ports g0, g1; router 1 has two more. MIN with the VAL VC positions (what the loader sets).
 */

static void fail_table(struct net *n, uint32_t r, uint16_t down1, const uint16_t (*pairs)[2],
		       uint32_t npairs)
{
	struct dfly_tbl_fail *f = dfly_regs_tbl_begin(&n->regs[r], DFLY_TBL_FAIL);

	assert_non_null(f);
	memset(f, 0, sizeof(*f));
	f->down[1] = down1;
	for (uint32_t i = 0; i < npairs; i++) {
		f->pair[i][0] = pairs[i][0];
		f->pair[i][1] = pairs[i][1];
	}
	f->npairs = npairs;
	dfly_regs_tbl_publish(&n->regs[r], DFLY_TBL_FAIL);
}

static struct asic_pkt fail_probe(struct net *n, uint32_t dst, uint32_t in_port)
{
	struct asic_pkt pk;

	pkt_init(&pk, 0, dst, 0);
	pk.reason = ASIC_REASON_NONE;
	asic_route_probe(n->as[0], &pk, in_port);
	return pk;
}

static void test_failover_route(void **state)
{
	struct asic_params par = default_params(32);
	struct net n;
	struct asic_pkt pk;
	const struct dfly_topo *t;
	uint32_t g0, g1, D, D1, dst, others[3], no = 0;
	uint16_t pairs[2][2];

	(void)state;
	net_build(&n, 1, 2, 2, &par, DFLY_MODE_MIN, map_val);
	t = n.topo;
	for (uint32_t r = 0; r < t->routers; r++) {
		n.regs[r].knobs.failover = 1;
		n.regs[r].knobs.vc_d2_long = 3;
		n.regs[r].knobs.vc_map[DFLY_ROLE_D2] = 1; /* MIN's own; 3 after two global hops */
	}
	g0 = t->first_global;
	g1 = g0 + 1;
	D = dfly_topo_global_peer(t, 0, 0).router / t->a;  /* through g0 */
	D1 = dfly_topo_global_peer(t, 0, 1).router / t->a; /* through g1 */
	dst = D * t->a * t->p;
	for (uint32_t G = 1; G < t->g; G++)
		if (G != D)
			others[no++] = G;
	assert_int_equal(no, 3);

	/* all links up: minimal */
	pk = fail_probe(&n, dst, 0);
	assert_int_equal(pk.out_port, g0);
	assert_int_equal(pk.val_router, ASIC_NONE);
	assert_int_equal(pk.reason, ASIC_REASON_NONE);

	/* g0 down (the hardware bit): at injection, a Valiant path whose first link is up */
	assert_int_equal(asic_port_set_down(n.as[0], g0, true), 0);
	assert_true(asic_port_is_down(n.as[0], g0));
	assert_int_equal(asic_port_set_down(n.as[0], 0, true), -EINVAL); /* a terminal port */
	for (int i = 0; i < 20; i++) {
		pk = fail_probe(&n, dst, 0);
		assert_true(pk.flags & ASIC_PKT_NONMIN);
		assert_int_equal(pk.reason, DFLY_ROUTE_FAIL_NONMIN);
		assert_int_not_equal(pk.out_port, g0);
		assert_int_not_equal(pk.val_router / t->a, D);
		assert_int_not_equal(pk.val_router / t->a, 0);
		assert_int_equal(pk.out_vc, 0); /* S1 or G1 */
	}
	/* in transit (from router 1): another global port of this router, -G- */
	pk = fail_probe(&n, dst, t->first_local);
	assert_int_equal(pk.out_port, g1);
	assert_int_equal(pk.out_vc, 0);
	assert_int_equal(pk.val_router, dfly_topo_global_peer(t, 0, 1).router);
	assert_int_equal(pk.reason, DFLY_ROUTE_FAIL_REROUTE);
	/* ... unless the group behind g1 has lost its link to D: then it waits */
	pairs[0][0] = (uint16_t)(D1 < D ? D1 : D);
	pairs[0][1] = (uint16_t)(D1 < D ? D : D1);
	fail_table(&n, 0, 0, pairs, 1);
	pk = fail_probe(&n, dst, t->first_local);
	assert_int_equal(pk.out_port, g0);
	assert_int_equal(pk.reason, DFLY_ROUTE_FAIL_WAIT);
	/* both own global ports down: waits too */
	fail_table(&n, 0, 0, NULL, 0);
	asic_port_set_down(n.as[0], g1, true);
	pk = fail_probe(&n, dst, t->first_local);
	assert_int_equal(pk.out_port, g0);
	assert_int_equal(pk.reason, DFLY_ROUTE_FAIL_WAIT);
	/* ... and at injection every Valiant path goes through router 1 */
	pk = fail_probe(&n, dst, 0);
	assert_int_equal(pk.out_port, t->first_local);
	assert_int_equal(pk.reason, DFLY_ROUTE_FAIL_NONMIN);
	asic_port_set_down(n.as[0], g1, false);

	/* the network said (G, D) is down for two of the three other groups: only the third is
	 * drawn as intermediate group */
	for (uint32_t i = 0; i < 2; i++) {
		pairs[i][0] = (uint16_t)(others[i] < D ? others[i] : D);
		pairs[i][1] = (uint16_t)(others[i] < D ? D : others[i]);
	}
	fail_table(&n, 0, 0, pairs, 2);
	for (int i = 0; i < 30; i++) {
		pk = fail_probe(&n, dst, 0);
		assert_int_equal(pk.reason, DFLY_ROUTE_FAIL_NONMIN);
		assert_int_equal(pk.val_router / t->a, others[2]);
	}

	/* the link is back; router 1's g-port to D1's group... : a row of the group table */
	asic_port_set_down(n.as[0], g0, false);
	fail_table(&n, 0, 0, NULL, 0);
	pk = fail_probe(&n, dst, 0);
	assert_int_equal(pk.out_port, g0);
	assert_int_equal(pk.reason, ASIC_REASON_NONE);
	{
		/* router 1's global port 0 leads to group X: a packet for X from router 0 goes
		 * minimally through router 1 unless the row says that port is down */
		uint32_t X = dfly_topo_global_peer(t, 1, 0).router / t->a;
		uint32_t dx = X * t->a * t->p;

		pk = fail_probe(&n, dx, 0);
		assert_int_equal(pk.out_port, t->first_local);
		assert_int_equal(pk.val_router, ASIC_NONE);
		fail_table(&n, 0, 0x1, NULL, 0);
		pk = fail_probe(&n, dx, 0);
		assert_int_equal(pk.reason, DFLY_ROUTE_FAIL_NONMIN);
		assert_int_not_equal(pk.val_router / t->a, X);
		/* safe mode ignores the firmware's rows (its own bits still count) */
		n.regs[0].knobs.fw_ttl = 10;
		n.regs[0].cycle = 1000;
		pk = fail_probe(&n, dx, 0);
		assert_int_equal(pk.out_port, t->first_local);
		assert_int_equal(pk.val_router, ASIC_NONE);
		/* failover off: the table is not read */
		n.regs[0].knobs.fw_ttl = 0;
		n.regs[0].knobs.failover = 0;
		pk = fail_probe(&n, dx, 0);
		assert_int_equal(pk.val_router, ASIC_NONE);
	}
	net_free(&n);
}

/* A packet that can only leave through a down link waits; once the link has been down for
 * knobs.link_dead cycles it is discarded there (drop.link_dead) and its credits come back.
 * Control frames for a down port are not sent (drop.ctrl_port_down). */
static void test_link_dead(void **state)
{
	struct asic_params par = default_params(32);
	struct net n;
	struct asic_pkt pk;
	struct asic_ejection ej[4];
	const struct dfly_topo *t;
	uint32_t g0, dst;
	unsigned got = 0;
	uint8_t frame[64];
	struct dfly_wire_ctrl m = {.type = DFLY_WIRE_CTRL_ACK, .src_router = 0};
	int len;

	(void)state;
	net_build(&n, 1, 2, 1, &par, DFLY_MODE_MIN, map_min);
	t = n.topo;
	g0 = t->first_global;
	dst = dfly_topo_global_peer(t, 0, 0).router * t->p;
	n.regs[0].knobs.link_dead = 500;
	assert_int_equal(asic_port_set_down(n.as[0], g0, true), 0);
	pkt_init(&pk, 0, dst, 0);
	assert_true(asic_inject(n.as[0], 0, &pk, 0));
	for (uint64_t c = 0; c < 499; c++)
		got += net_cycle(&n, c, ej + got, 4 - got);
	assert_int_equal(got, 0);
	assert_int_equal(asic_pkts_held(n.as[0]), 1);
	assert_int_equal(n.regs[0].vc_ctr[g0][0][DFLY_VC_OUT_VC_PKTS], 0);
	/* dead from cycle 500 (down since 0): granted, discarded at the next output stage */
	for (uint64_t c = 499; c < 510; c++)
		got += net_cycle(&n, c, ej + got, 4 - got);
	assert_int_equal(got, 1);
	assert_int_equal(ej[0].drop, 1 + DFLY_DROP_LINK_DEAD);
	assert_int_equal(n.regs[0].drop[DFLY_DROP_LINK_DEAD], 1);
	assert_int_equal(n.regs[0].port_ctr[g0][DFLY_TX_PKTS], 0);
	/* a control frame for the down port */
	len = dfly_wire_ctrl_encode(frame, sizeof(frame), NULL, &m);
	assert_true(len > 0);
	assert_int_equal(
	    dfly_cpu_ring_put(&n.regs[0].cpu_tx, (uint16_t)g0, 510, frame, (uint16_t)len), 0);
	net_cycle(&n, 510, ej, 4);
	assert_int_equal(n.regs[0].drop[DFLY_DROP_CTRL_PORT_DOWN], 1);
	assert_int_equal(n.regs[0].port_ctr[g0][DFLY_CTRL_TX], 0);
	/* back up: credits are whole, nothing held */
	asic_port_set_down(n.as[0], g0, false);
	for (uint64_t c = 511; c < 800; c++)
		net_cycle(&n, c, ej, 4);
	assert_drained(&n);
	net_free(&n);
}

/* ---------------------------------------------------------------------------------------------
 * DAMQ input buffers (spec §3.9): the VCs of a local port share buf × VCs phits, each VC with a
 * reserve of @p res phits; the upstream router's credits see a VC's free reserve plus the free
 * pool. Local ports of default_params(): 4 VCs.
 */
static struct asic_params damq_params(uint32_t buf_local, uint32_t res_local)
{
	struct asic_params par = default_params(buf_local);

	par.damq = true;
	par.damq_res[DFLY_PORT_LOCAL] = res_local;
	par.damq_res[DFLY_PORT_GLOBAL] = par.buf[DFLY_PORT_GLOBAL]; /* global ports static */
	return par;
}

/* Router 0's output @p o with its downstream VCs at occupancies @p occ[0..3] (set by hand). */
static void damq_set_occ(struct net *n, uint32_t o, uint32_t cap, const int32_t occ[4])
{
	for (uint32_t v = 0; v < 4; v++)
		asic_debug_set_credits(n->as[0], o, v, (int32_t)cap - occ[v]);
}

static void damq_assert_avail(struct net *n, uint32_t o, int32_t a0, int32_t a1, int32_t a2,
			      int32_t a3, uint32_t pool_used)
{
	struct asic_damq_stat st;

	asic_damq_stat(n->as[0], o, &st);
	assert_int_equal(st.pool_used, pool_used);
	assert_int_equal(asic_credits_avail(n->as[0], o, 0), a0);
	assert_int_equal(asic_credits_avail(n->as[0], o, 1), a1);
	assert_int_equal(asic_credits_avail(n->as[0], o, 2), a2);
	assert_int_equal(asic_credits_avail(n->as[0], o, 3), a3);
}

/*
 * The upstream accounting at its boundaries, occupancies set by hand on router 0's local output
 * (32 phits per VC, 4 VCs: 128 per port). 75%: reserve 24, pool 4 × 8 = 32, a VC holds at most
 * 56. 0%: no reserve, pool 128. 100%: no pool, exactly the static counters.
 */
static void test_damq_accounting(void **state)
{
	struct asic_params par = damq_params(32, 24);
	struct asic_damq_stat st;
	struct net n;
	uint32_t o = 1; /* router 0's local port (p = 1, a = 2, h = 1) */

	(void)state;
	net_build(&n, 1, 2, 1, &par, DFLY_MODE_MIN, map_min);
	asic_damq_stat(n.as[0], o, &st);
	assert_int_equal(st.reserve, 24);
	assert_int_equal(st.pool_cap, 32);
	asic_sync_gauges(n.as[0]);
	assert_int_equal(n.regs[0].vc_cap[o], 56);
	assert_int_equal(n.regs[0].vc_gauge[o][0][DFLY_VC_CREDITS], 56);
	/* empty: every VC may take its reserve and the whole pool */
	damq_assert_avail(&n, o, 56, 56, 56, 56, 0);
	/* VC0's reserve full, the pool untouched: VC0 has the pool left, the others all */
	damq_set_occ(&n, o, 56, (const int32_t[4]){24, 0, 0, 0});
	damq_assert_avail(&n, o, 32, 56, 56, 56, 0);
	/* one phit into the pool */
	damq_set_occ(&n, o, 56, (const int32_t[4]){25, 0, 0, 0});
	damq_assert_avail(&n, o, 31, 55, 55, 55, 1);
	/* the pool exhausted by VC0 alone: VC0 has nothing, the others still have their reserve */
	damq_set_occ(&n, o, 56, (const int32_t[4]){56, 0, 0, 0});
	damq_assert_avail(&n, o, 0, 24, 24, 24, 32);
	damq_set_occ(&n, o, 56, (const int32_t[4]){56, 16, 24, 0});
	damq_assert_avail(&n, o, 0, 8, 0, 24, 32);
	/* the pool shared: VC0 16 phits in it, VC1 6; 10 left for everyone */
	damq_set_occ(&n, o, 56, (const int32_t[4]){40, 30, 0, 0});
	damq_assert_avail(&n, o, 10, 10, 34, 34, 22);
	/* the whole port full: 4 × 24 reserve + 32 pool = 128 phits, the static memory */
	damq_set_occ(&n, o, 56, (const int32_t[4]){56, 24, 24, 24});
	damq_assert_avail(&n, o, 0, 0, 0, 0, 32);
	damq_set_occ(&n, o, 56, (const int32_t[4]){0, 0, 0, 0});
	damq_assert_avail(&n, o, 56, 56, 56, 56, 0);
	net_free(&n);

	/* 0%: all shared; one VC may hold the whole port and starve the others */
	par = damq_params(32, 0);
	net_build(&n, 1, 2, 1, &par, DFLY_MODE_MIN, map_min);
	asic_damq_stat(n.as[0], o, &st);
	assert_int_equal(st.reserve, 0);
	assert_int_equal(st.pool_cap, 128);
	damq_assert_avail(&n, o, 128, 128, 128, 128, 0);
	damq_set_occ(&n, o, 128, (const int32_t[4]){100, 0, 0, 0});
	damq_assert_avail(&n, o, 28, 28, 28, 28, 100);
	damq_set_occ(&n, o, 128, (const int32_t[4]){128, 0, 0, 0});
	damq_assert_avail(&n, o, 0, 0, 0, 0, 128);
	damq_set_occ(&n, o, 128, (const int32_t[4]){0, 0, 0, 0});
	net_free(&n);

	/* 100%: no pool, the static counters */
	par = damq_params(32, 32);
	net_build(&n, 1, 2, 1, &par, DFLY_MODE_MIN, map_min);
	asic_damq_stat(n.as[0], o, &st);
	assert_int_equal(st.reserve, 32);
	assert_int_equal(st.pool_cap, 0);
	asic_sync_gauges(n.as[0]);
	assert_int_equal(n.regs[0].vc_cap[o], 32);
	damq_set_occ(&n, o, 32, (const int32_t[4]){32, 8, 0, 0});
	damq_assert_avail(&n, o, 0, 24, 32, 32, 0);
	damq_set_occ(&n, o, 32, (const int32_t[4]){0, 0, 0, 0});
	net_free(&n);
}

/*
 * backpressure() with DAMQ local ports of 8 phits per VC (4 VCs: 32 per port). With a 100%
 * reserve the second packet waits for the first one's credit exactly as in static mode (tails
 * 29 and 54, the same credit stalls); with 0% or 50% (a reserve of 4 phits, half a packet) it
 * takes pool space at once and follows 8 cycles behind (tail 37), no stall. The pool is empty
 * again once the credits are back.
 */
static void damq_two_packets(uint32_t res, uint64_t tail2, uint64_t stalls_want,
			     uint64_t allocs_want)
{
	struct asic_params par = damq_params(8, res);
	struct asic_damq_stat st;
	struct net n;
	uint64_t tails[2], stalls;

	stalls = two_packets(&n, &par, tails);
	assert_int_equal(tails[0], 29);
	assert_int_equal(tails[1], tail2);
	assert_int_equal(stalls, stalls_want);
	asic_damq_stat(n.as[0], 1, &st);
	assert_int_equal(st.pool_allocs, allocs_want);
	assert_int_equal(st.pool_used, 0);
	assert_drained(&n);
	net_free(&n);
}

static void test_damq_two_packets(void **state)
{
	(void)state;
	damq_two_packets(8, 54, (28 - 11) * 2, 0); /* 100%: backpressure(false, 28, 54) */
	damq_two_packets(0, 37, 0, 2);             /* 0%: both packets in the pool */
	damq_two_packets(4, 37, 0, 2);             /* 50%: 4 reserve + 4 pool phits each */
}

/*
 * One VC exhausts the pool while another keeps its reserve. Local ports of 16 phits per VC,
 * reserve @p res. Router 1's global output is blocked by hand (no credits), so packets from
 * node 0 to the group behind it (S1 hop: local VC0) pile up in router 1's local input VC0: its
 * reserve plus the whole pool, @p held packets (the next one stalls at router 0). Then two
 * packets to node 1 (D2 hop: local VC1), generated at 200: with a reserve of 8 the first goes at
 * once (tail 229, single_packet_timing) and the second waits for its credit (tail 254, as in
 * backpressure()); with no reserve neither can go until the global output is unblocked at 300.
 */
static void damq_exhaust(uint32_t res, uint32_t held, uint64_t tail_a, uint64_t tail_b)
{
	struct asic_params par = damq_params(16, res);
	struct asic_damq_stat st;
	struct net n;
	struct asic_pkt pk[12];
	struct asic_ejection ej[16];
	uint64_t tails[12] = {0};
	uint32_t o = 1, g1 = 0, remote = 0, npk = held + 1;

	net_build(&n, 1, 2, 1, &par, DFLY_MODE_MIN, map_min);
	g1 = n.topo->first_global; /* router 1's global port */
	for (uint32_t d = n.topo->p * n.topo->a; d < n.topo->nodes && remote == 0; d++)
		if (dfly_topo_min_port(n.topo, 0, d / n.topo->p, d) == o)
			remote = d; /* a node reached through router 1's global link */
	assert_int_not_equal(remote, 0);
	asic_debug_set_credits(n.as[1], g1, 0, 0);
	for (uint32_t i = 0; i < npk; i++) {
		pkt_init(&pk[i], 0, remote, 0);
		pk[i].id = i;
		assert_true(asic_inject(n.as[0], 0, &pk[i], 0));
	}
	for (uint64_t c = 0; c < 200; c++)
		assert_int_equal(net_cycle(&n, c, ej, 16), 0);
	asic_damq_stat(n.as[0], o, &st);
	assert_int_equal(st.pool_used, 64 - 4 * res);
	assert_int_equal(st.pool_allocs, res == 0 ? held : held - res / 8);
	assert_int_equal(asic_credits_avail(n.as[0], o, 0), 0);
	assert_int_equal(asic_credits_avail(n.as[0], o, 1), (int32_t)res);
	for (uint32_t i = npk; i < npk + 2; i++) {
		pkt_init(&pk[i], 0, 1, 200);
		pk[i].id = i;
		assert_true(asic_inject(n.as[0], 0, &pk[i], 200));
	}
	for (uint64_t c = 200; c < 800; c++) {
		unsigned got;

		if (c == 300) /* unblock: the pile drains */
			asic_debug_set_credits(n.as[1], g1, 0, (int32_t)par.buf[DFLY_PORT_GLOBAL]);
		got = net_cycle(&n, c, ej, 16);
		for (unsigned k = 0; k < got; k++) {
			assert_int_equal(ej[k].drop, 0);
			tails[ej[k].pkt->id] = ej[k].tail_cycle;
		}
	}
	if (tail_a != 0) {
		assert_int_equal(tails[npk], tail_a);
		assert_int_equal(tails[npk + 1], tail_b);
	} else {
		assert_true(tails[npk] > 300 && tails[npk + 1] > 300);
	}
	for (uint32_t i = 0; i < npk + 2; i++)
		assert_int_not_equal(tails[i], 0);
	asic_damq_stat(n.as[0], o, &st);
	assert_int_equal(st.pool_used, 0);
	assert_drained(&n);
	net_free(&n);
}

static void test_damq_exhaust(void **state)
{
	(void)state;
	damq_exhaust(8, 5, 229, 254); /* 50%: VC0 holds 8 + 32 phits, VC1 keeps its 8 */
	damq_exhaust(0, 8, 0, 0);     /* 0%: VC0 holds all 64, VC1 waits (the deadlock's seed) */
}

/*
 * buffers.damq_penalty: 3 cycles per write into and per read out of a DAMQ input. The single
 * packet of single_packet_timing (router 0's input is the node's: static) is ready at router 1
 * 3 cycles later (granted 21) and reaches its output FIFO 3 cycles later again (27): tail 35.
 */
static void test_damq_penalty(void **state)
{
	struct asic_params par = damq_params(32, 24);
	struct net n;
	struct asic_pkt pk;
	struct asic_ejection ej[4];
	uint64_t tail = 0;

	(void)state;
	par.damq_penalty = 3;
	net_build(&n, 1, 2, 1, &par, DFLY_MODE_MIN, map_min);
	pkt_init(&pk, 0, 1, 0);
	assert_true(asic_inject(n.as[0], 0, &pk, 0));
	for (uint64_t c = 0; c < 80; c++)
		if (net_cycle(&n, c, ej, 4))
			tail = ej[0].tail_cycle;
	assert_int_equal(tail, 35);
	assert_drained(&n);
	net_free(&n);
}

/*
 * RES (spec §4.9, IAR §3.4), the owner's rule at its boundary: one router (router 0 of p = 1,
 * a = 4, h = 2) on half links, reservation requests pushed on a local input as its neighbour
 * would send them. A request is granted iff R_GC <= 2·R̄ + T: R = 2·R̄ + T grants, one more
 * phit refuses, and a grant adds the packet's length to R. The reply goes back on the same local
 * port one link latency later, the cookie echoed. A request for a port beyond h is a decode
 * drop. R left in an empty router fails the drain check.
 */
static int res_ask(struct asic *as, struct asic_link **lin, struct asic_link **lout, uint32_t port,
		   uint64_t *c, uint32_t cookie, uint32_t rbar, uint16_t len, uint8_t gc)
{
	struct asic_res_flit f = {.cookie = cookie, .rbar = rbar, .len = len, .gc = gc};
	uint8_t buf[64];
	enum asic_ctrl_kind kind;
	uint16_t got;
	int grant = -1;

	assert_true(asic_link_push_ctrl(lin[port], ASIC_CTRL_RES_REQ, &f, sizeof(f), *c));
	for (uint64_t end = *c + 15; *c < end; (*c)++) {
		asic_step(as, *c);
		while (asic_link_pop_ctrl(lout[port], *c, &kind, buf, sizeof(buf), &got)) {
			struct asic_res_flit r;

			assert_int_equal(kind, ASIC_CTRL_RES_REP);
			assert_int_equal(got, sizeof(r));
			memcpy(&r, buf, sizeof(r));
			assert_int_equal(r.cookie, cookie);
			grant = r.grant;
		}
	}
	return grant;
}

static void test_res_owner_rule(void **state)
{
	struct asic_params par = default_params(32);
	struct dfly_topo *t = dfly_topo_create(1, 4, 2, 1, DFLY_ARR_PALMTREE, -1);
	struct dfly_regs *regs = calloc(1, sizeof(*regs));
	struct asic_link *lin[DFLY_MAX_PORTS] = {0}, *lout[DFLY_MAX_PORTS] = {0};
	struct asic *as;
	uint32_t L, G0, G1;
	uint64_t c = 1;
	char why[200];

	(void)state;
	assert_non_null(t);
	assert_non_null(regs);
	as = asic_create(t, 0, &par, regs, 1);
	assert_non_null(as);
	regs->knobs.mode = DFLY_MODE_RES;
	regs->knobs.res_t = 4;
	memcpy(regs->knobs.vc_map, map_val, DFLY_ROLE_COUNT);
	half_links(t, as, lin, lout);
	L = t->first_local + 1;
	G0 = t->first_global;
	G1 = t->first_global + 1;
	/* R = 0 <= 2·0 + 4: granted, R = 5 */
	assert_int_equal(res_ask(as, lin, lout, L, &c, 7, 0, 5, 0), 1);
	assert_int_equal(regs->port_ctr[G0][DFLY_RES_R], 5);
	/* R = 5 = 2·0 + 4 + 1: refused, R unchanged */
	assert_int_equal(res_ask(as, lin, lout, L, &c, 8, 0, 5, 0), 0);
	assert_int_equal(regs->port_ctr[G0][DFLY_RES_R], 5);
	/* another channel keeps its own R */
	assert_int_equal(res_ask(as, lin, lout, L, &c, 9, 0, 1, 1), 1);
	assert_int_equal(regs->port_ctr[G1][DFLY_RES_R], 1);
	/* T = 5: R = 5 = 2·0 + 5 is granted, R = 10 */
	regs->knobs.res_t = 5;
	assert_int_equal(res_ask(as, lin, lout, L, &c, 10, 0, 5, 0), 1);
	assert_int_equal(regs->port_ctr[G0][DFLY_RES_R], 10);
	/* R̄ counts twice: 10 <= 2·3 + 5 = 11, granted; then 15 > 11, refused */
	assert_int_equal(res_ask(as, lin, lout, L, &c, 11, 3, 5, 0), 1);
	assert_int_equal(res_ask(as, lin, lout, L, &c, 12, 3, 5, 0), 0);
	assert_int_equal(regs->port_ctr[G0][DFLY_RES_R], 15);
	/* a port beyond h: no reply, a decode drop */
	assert_int_equal(res_ask(as, lin, lout, L, &c, 13, 0, 5, 2), -1);
	assert_int_equal(regs->drop[DFLY_DROP_DECODE], 1);
	assert_int_equal(regs->route[DFLY_ROUTE_RES_GRANT], 4);
	assert_int_equal(regs->route[DFLY_ROUTE_RES_DENY], 2);
	assert_int_equal(regs->port_ctr[L][DFLY_RES_REP_TX], 6);
	/* each reply held the link one cycle */
	assert_int_equal(regs->port_ctr[L][DFLY_LINK_BUSY_CYCLES], 6);
	/* reservations never used: the drain check names them */
	assert_int_equal(asic_check_drained(as, why, sizeof(why)), -EBUSY);
	assert_non_null(strstr(why, "RES: R of global output"));
	half_links_destroy(t, lin, lout);
	asic_destroy(as);
	free(regs);
	dfly_topo_destroy(t);
}

/*
 * RES at the source: a packet to a group whose minimal global channel belongs to a neighbour
 * sends one request flit (its length, R̄ = 0) on the local port to that neighbour when its head
 * reaches the router, and does not move until the reply comes: a grant sends it minimally
 * (towards the owner, no Valiant router), a refusal on a Valiant path. A packet whose channel
 * is the source router's own is decided at once (granted: R = 0), without flits.
 */
static void res_source_run(bool grant)
{
	struct asic_params par = default_params(32);
	struct dfly_topo *t = dfly_topo_create(1, 4, 2, 1, DFLY_ARR_PALMTREE, -1);
	struct dfly_regs *regs = calloc(1, sizeof(*regs));
	struct asic_link *lin[DFLY_MAX_PORTS] = {0}, *lout[DFLY_MAX_PORTS] = {0};
	struct asic_pkt pk, own;
	struct asic_res_flit f;
	struct asic *as;
	uint32_t D = UINT32_MAX, Down = UINT32_MAX, rho, q, P, sent_port = UINT32_MAX;
	struct asic_pkt *out = NULL;
	enum asic_ctrl_kind kind;
	uint8_t buf[64];
	uint16_t got;
	uint64_t c;

	assert_non_null(t);
	for (uint32_t G = 1; G < t->g; G++) {
		dfly_topo_link_to_group(t, 0, G, 0, &rho, &q);
		if (rho == 1 && D == UINT32_MAX)
			D = G;
		if (rho == 0 && Down == UINT32_MAX)
			Down = G;
	}
	assert_true(D != UINT32_MAX && Down != UINT32_MAX);
	as = asic_create(t, 0, &par, regs, 1);
	assert_non_null(as);
	regs->knobs.mode = DFLY_MODE_RES;
	regs->knobs.res_t = 4;
	regs->knobs.val_variant = DFLY_VAL_LGL;
	memcpy(regs->knobs.vc_map, map_val, DFLY_ROLE_COUNT);
	half_links(t, as, lin, lout);
	P = dfly_topo_local_port(t, 0, 1);
	asic_step(as, 0); /* the mode register is taken at a step: RES's state */
	pkt_init(&pk, 0, D * t->a * t->p, 1);
	assert_true(asic_inject(as, 0, &pk, 1));
	pkt_init(&own, 0, Down * t->a * t->p, 1);
	assert_true(asic_inject(as, 0, &own, 1));
	for (c = 1; c < 60; c++) {
		asic_step(as, c);
		for (uint32_t port = t->first_local; port < t->radix; port++) {
			while (asic_link_pop_ctrl(lout[port], c, &kind, buf, sizeof(buf), &got)) {
				assert_int_equal(kind, ASIC_CTRL_RES_REQ);
				assert_int_equal(port, P);
				memcpy(&f, buf, sizeof(f));
			}
			struct asic_pkt *x;

			while ((x = asic_link_pop_data(lout[port], c, NULL)) != NULL)
				assert_ptr_equal(x, &own); /* decided at once: it goes */
		}
	}
	assert_int_equal(regs->port_ctr[P][DFLY_RES_REQ_TX], 1);
	assert_int_equal(f.len, 8);
	assert_int_equal(f.rbar, 0);
	assert_int_equal(asic_pkts_held(as), 1);                /* waits for its reply */
	assert_int_equal(regs->route[DFLY_ROUTE_RES_GRANT], 1); /* the own channel's */
	f.grant = grant;
	assert_true(asic_link_push_ctrl(lin[P], ASIC_CTRL_RES_REP, &f, sizeof(f), c));
	for (uint64_t end = c + 150; c < end && out == NULL; c++) {
		asic_step(as, c);
		for (uint32_t port = t->first_local; port < t->radix && out == NULL; port++) {
			struct asic_pkt *x = asic_link_pop_data(lout[port], c, NULL);

			/* the other one is on its global link, 100 cycles long */
			if (x != NULL && x != &own)
				out = x, sent_port = port;
		}
	}
	assert_ptr_equal(out, &pk);
	if (grant) {
		assert_int_equal(sent_port, P);
		assert_int_equal(out->val_router, ASIC_NONE);
		assert_true(out->flags & ASIC_PKT_RES_MIN);
		assert_int_equal(regs->route[DFLY_ROUTE_RES_MIN], 2);
	} else {
		assert_true(out->val_router != ASIC_NONE);
		assert_true(out->flags & ASIC_PKT_NONMIN);
		assert_false(out->flags & ASIC_PKT_RES_MIN);
		assert_int_equal(regs->route[DFLY_ROUTE_RES_VAL], 1);
	}
	assert_int_equal(asic_pkts_held(as), 0);
	/* from its head's arrival (cycle 2) to the reply (cycle 60) */
	assert_int_equal(regs->route[DFLY_ROUTE_RES_WAIT_CYCLES], 58);
	half_links_destroy(t, lin, lout);
	asic_destroy(as);
	free(regs);
	dfly_topo_destroy(t);
}

/*
 * RES and a dead local link (router.link_dead_cycles): a request queued for the link to its
 * owner, when that link goes down before the flit leaves, is settled once the link is dead:
 * refused, so its packet goes Valiant on another port instead of waiting for ever; a packet
 * injected while the link is down is refused at once, without a flit.
 */
static void test_res_dead_link(void **state)
{
	struct asic_params par = default_params(32);
	struct dfly_topo *t = dfly_topo_create(1, 4, 2, 1, DFLY_ARR_PALMTREE, -1);
	struct dfly_regs *regs = calloc(1, sizeof(*regs));
	struct asic_link *lin[DFLY_MAX_PORTS] = {0}, *lout[DFLY_MAX_PORTS] = {0};
	struct asic_pkt pk[2];
	uint32_t D = UINT32_MAX, rho, q, P, left = 0;
	struct asic *as;

	(void)state;
	for (uint32_t G = 1; G < t->g && D == UINT32_MAX; G++) {
		dfly_topo_link_to_group(t, 0, G, 0, &rho, &q);
		if (rho == 1)
			D = G;
	}
	as = asic_create(t, 0, &par, regs, 1);
	assert_non_null(as);
	regs->knobs.mode = DFLY_MODE_RES;
	regs->knobs.res_t = 4;
	regs->knobs.val_variant = DFLY_VAL_LGL;
	regs->knobs.link_dead = 20;
	memcpy(regs->knobs.vc_map, map_val, DFLY_ROLE_COUNT);
	half_links(t, as, lin, lout);
	P = dfly_topo_local_port(t, 0, 1);
	asic_step(as, 0);
	pkt_init(&pk[0], 0, D * t->a * t->p, 1);
	assert_true(asic_inject(as, 0, &pk[0], 1));
	assert_int_equal(asic_port_set_down(as, P, true), 0);
	for (uint64_t c = 1; c < 400; c++) {
		if (c == 100) { /* down by now: refused at once */
			pkt_init(&pk[1], 0, D * t->a * t->p, 100);
			assert_true(asic_inject(as, 0, &pk[1], c));
		}
		asic_step(as, c);
		for (uint32_t port = t->first_local; port < t->radix; port++) {
			struct asic_pkt *x;

			while ((x = asic_link_pop_data(lout[port], c, NULL)) != NULL) {
				assert_true(port != P);
				assert_true(x->flags & ASIC_PKT_NONMIN);
				left++;
			}
		}
	}
	assert_int_equal(left, 2);
	assert_int_equal(regs->port_ctr[P][DFLY_RES_REQ_TX], 0);
	assert_int_equal(regs->route[DFLY_ROUTE_RES_VAL], 2);
	assert_int_equal(asic_pkts_held(as), 0);
	half_links_destroy(t, lin, lout);
	asic_destroy(as);
	free(regs);
	dfly_topo_destroy(t);
}

static void test_res_source(void **state)
{
	(void)state;
	res_source_run(true);
	res_source_run(false);
}

/*
 * minCred (routing.mincred, spec §2.4, thesis §5.2.4): an output counts, beside the credits, the
 * downstream phits of minimally routed packets; the credit a packet's tail frees downstream goes
 * back with a minimal flag, and only a flagged credit takes them off. p = 1, a = 2, h = 1: node 0
 * to node 1 (router 0's local output 1), a minimal 8-phit packet: down_occ_min is 8 while
 * down_occ is, and both 0 once the credit is back. The same packet flagged nonminimal (as a
 * Valiant decision leaves it) holds down_occ only. Without the knob the gauge is never written.
 */
static void mincred_run(bool nonmin, bool knob, int64_t *max_min, int64_t *max_occ)
{
	struct asic_params par = default_params(32);
	struct asic_ejection ej[8];
	struct asic_pkt pk;
	struct net n;
	const uint32_t o = 1;

	net_build(&n, 1, 2, 1, &par, DFLY_MODE_MIN, map_min);
	for (uint32_t r = 0; r < n.topo->routers; r++)
		n.regs[r].knobs.mincred = knob;
	pkt_init(&pk, 0, 1, 0);
	if (nonmin)
		pk.flags |= ASIC_PKT_NONMIN; /* routed minimally, counted as a Valiant decision */
	assert_true(asic_inject(n.as[0], 0, &pk, 0));
	*max_min = *max_occ = 0;
	for (uint64_t c = 0; c < 100; c++) {
		int64_t m = 0, d = 0;

		for (uint32_t v = 0; v < DFLY_MAX_VCS; v++) {
			m += n.regs[0].vc_gauge[o][v][DFLY_VC_DOWN_OCC_MIN];
			d += n.regs[0].vc_gauge[o][v][DFLY_VC_DOWN_OCC];
		}
		net_cycle(&n, c, ej, 8);
		assert_true(m <= d);
		*max_min = m > *max_min ? m : *max_min;
		*max_occ = d > *max_occ ? d : *max_occ;
	}
	for (uint32_t v = 0; v < DFLY_MAX_VCS; v++) {
		assert_int_equal(n.regs[0].vc_gauge[o][v][DFLY_VC_DOWN_OCC_MIN], 0);
		assert_int_equal(n.regs[0].vc_gauge[o][v][DFLY_VC_DOWN_OCC], 0);
	}
	assert_drained(&n);
	net_free(&n);
}

static void test_mincred(void **state)
{
	int64_t mn, occ;

	(void)state;
	mincred_run(false, true, &mn, &occ);
	assert_int_equal(mn, 8);
	assert_int_equal(occ, 8);
	mincred_run(true, true, &mn, &occ);
	assert_int_equal(mn, 0);
	assert_int_equal(occ, 8);
	mincred_run(false, false, &mn, &occ);
	assert_int_equal(mn, 0);
	assert_int_equal(occ, 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_create_errors),
	    cmocka_unit_test(test_bad_vc_dropped),
	    cmocka_unit_test(test_calendar),
	    cmocka_unit_test(test_link_lag),
	    cmocka_unit_test(test_injection_full),
	    cmocka_unit_test(test_head_cache),
	    cmocka_unit_test(test_single_packet_timing_tail),
	    cmocka_unit_test(test_single_packet_timing_grant),
	    cmocka_unit_test(test_backpressure_tail),
	    cmocka_unit_test(test_backpressure_grant),
	    cmocka_unit_test(test_terminal_paced),
	    cmocka_unit_test(test_terminal_unpaced),
	    cmocka_unit_test(test_no_link_rate),
	    cmocka_unit_test(test_min_port_table),
	    cmocka_unit_test(test_fw_ttl_safe_mode),
	    cmocka_unit_test(test_failover_route),
	    cmocka_unit_test(test_link_dead),
	    cmocka_unit_test(test_ctrl_charge),
	    cmocka_unit_test(test_val_roles),
	    cmocka_unit_test(test_flexvc_allowed),
	    cmocka_unit_test(test_flexvc_group),
	    cmocka_unit_test(test_reqrep_classes),
	    cmocka_unit_test(test_reply_consume_gate),
	    cmocka_unit_test(test_res_owner_rule),
	    cmocka_unit_test(test_res_source),
	    cmocka_unit_test(test_res_dead_link),
	    cmocka_unit_test(test_mincred),
	    cmocka_unit_test(test_table_double_buffer),
	    cmocka_unit_test(test_ugal_per_vc_boundary),
	    cmocka_unit_test(test_ugal_remove_rtt),
	    cmocka_unit_test(test_ugal_commitment),
	    cmocka_unit_test(test_ugal_weight_hops),
	    cmocka_unit_test(test_ugal_weight_fogsim),
	    cmocka_unit_test(test_vc_assign_next),
	    cmocka_unit_test(test_pb_saturation_bit),
	    cmocka_unit_test(test_olm_trigger),
	    cmocka_unit_test(test_flexvc_transit_minimal),
	    cmocka_unit_test(test_flexvc_transit_misroutes),
	    cmocka_unit_test(test_reqrep_transit_classes),
	    cmocka_unit_test(test_reqrep_transit_flexvc),
	    cmocka_unit_test(test_mode_switch),
	    cmocka_unit_test(test_half_link_due),
	    cmocka_unit_test(test_cc_two_inj_vcs),
	    cmocka_unit_test(test_cc_behind_head),
	    cmocka_unit_test(test_cc_misroute_release),
	    cmocka_unit_test(test_ectn_partial_inputs),
	    cmocka_unit_test(test_damq_accounting),
	    cmocka_unit_test(test_damq_two_packets),
	    cmocka_unit_test(test_damq_exhaust),
	    cmocka_unit_test(test_damq_penalty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
