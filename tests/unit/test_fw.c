/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of the firmware (control/fw.c) against hand-built register contents, with no ASIC:
 * the tests set the downstream-occupancy gauges, put encoded control frames into cpu_rx, call
 * fw_tick() and check what the firmware wrote (cpu_tx frames, the published PB table, the
 * in-band vector, the counters). Covered: the PB saturation formula at its exact boundary (F = 2
 * and F = 1.2 in 1/256 units), Q̄ over all channels vs the other channels (and h = 1), per-VC vs
 * per-port bits, PB_STATE reception into table rows with sender checks, the broadcast and its
 * period, the double-buffered table (single-threaded EBUSY deferral and a two-thread torn-read
 * check), in-band mode A, the timer facility, and ECtN: the sum of received copies, the
 * broadcast, and the lighter modes (sparse = full, deltas with a lost frame and the refresh,
 * async sends and their rate limit, the published sum in every mode).
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
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "fw.h"

/* One router's register file and firmware on a canonical Dragonfly. */
struct bench {
	struct dfly_topo *topo;
	struct dfly_regs *regs;
	struct fw *fw;
	uint32_t router;
	struct dfly_wire_limits lim;
};

static void bench_init(struct bench *b, uint32_t p, uint32_t a, uint32_t h, uint32_t router,
		       const struct fw_params *par)
{
	b->topo = dfly_topo_create(p, a, h, 1, DFLY_ARR_PALMTREE, -1);
	assert_non_null(b->topo);
	b->regs = calloc(1, sizeof(*b->regs));
	assert_non_null(b->regs);
	dfly_regs_init(b->regs, router, b->topo->radix);
	b->router = router;
	dfly_wire_limits_init(&b->lim, b->topo, DFLY_MAX_VCS, FW_MAX_PHITS);
	b->fw = NULL;
	if (par != NULL) {
		b->fw = fw_create(b->topo, router, b->regs, par);
		assert_non_null(b->fw);
	}
}

static void bench_fini(struct bench *b)
{
	fw_destroy(b->fw);
	free(b->regs);
	dfly_topo_destroy(b->topo);
}

static struct fw_params pb_params(uint32_t vg, uint32_t f_q8, int32_t t)
{
	struct fw_params par;

	fw_params_init(&par);
	par.vc_global = vg;
	par.pb_enabled = true;
	par.pb_f_q8 = f_q8;
	par.pb_t = t;
	return par;
}

static void set_q(struct bench *b, uint32_t q, uint32_t v, int64_t occ)
{
	b->regs->vc_gauge[b->topo->first_global + q][v][DFLY_VC_DOWN_OCC] = occ;
}

static uint64_t stat(const struct bench *b, enum fw_stat s)
{
	return fw_stat_get(fw_stats(b->fw), s);
}

/* One emulated cycle without an ASIC: its step acquires the tables, then the firmware ticks. */
static void cycle(struct bench *b, uint64_t now)
{
	dfly_regs_tbl_acquire(b->regs, DFLY_TBL_PB);
	fw_tick(b->fw, now);
}

/* The ASIC side: acquire the PB table and copy it out. */
static struct dfly_tbl_pb acquire_pb(struct bench *b)
{
	struct dfly_tbl_pb t;

	memcpy(&t, dfly_regs_tbl_acquire(b->regs, DFLY_TBL_PB), sizeof(t));
	return t;
}

/* A PB_STATE frame from @p src with vector @p sat into cpu_rx on @p port. */
static void rx_pb(struct bench *b, uint32_t port, uint32_t src, uint8_t h, uint8_t vg,
		  const uint8_t *sat, uint64_t now)
{
	struct dfly_wire_ctrl m;
	uint8_t buf[128];
	int len;

	memset(&m, 0, sizeof(m));
	m.type = DFLY_WIRE_CTRL_PB_STATE;
	m.src_router = src;
	m.pb.h = h;
	m.pb.vg = vg;
	memcpy(m.pb.sat, sat, h);
	len = dfly_wire_ctrl_encode(buf, sizeof(buf), NULL, &m);
	assert_true(len > 0);
	assert_int_equal(
	    dfly_cpu_ring_put(&b->regs->cpu_rx, (uint16_t)port, now, buf, (uint16_t)len), 0);
}

/* Empty cpu_tx, checking that every frame is the PB_STATE of @p sat; @return frames per port. */
static unsigned drain_tx(struct bench *b, const uint8_t *sat, unsigned per_port[DFLY_MAX_PORTS])
{
	const struct dfly_cpu_slot *s;
	unsigned n = 0;

	memset(per_port, 0, sizeof(unsigned) * DFLY_MAX_PORTS);
	while ((s = dfly_cpu_ring_peek(&b->regs->cpu_tx)) != NULL) {
		struct dfly_wire_ctrl m;

		assert_int_equal(dfly_wire_ctrl_decode(s->frame, s->len, &b->lim, &m), 0);
		assert_int_equal(m.type, DFLY_WIRE_CTRL_PB_STATE);
		assert_int_equal(m.src_router, b->router);
		assert_int_equal(m.pb.h, b->topo->h);
		if (sat != NULL)
			assert_memory_equal(m.pb.sat, sat, b->topo->h);
		assert_true(s->port < DFLY_MAX_PORTS);
		per_port[s->port]++;
		n++;
		dfly_cpu_ring_pop(&b->regs->cpu_tx);
	}
	return n;
}

/* ---------------------------------------------------------------------------------------------
 * Negative tests first
 */

static void test_create_errors(void **state)
{
	struct fw_params par = pb_params(2, 512, 0);
	struct bench b;

	(void)state;
	bench_init(&b, 2, 4, 2, 5, NULL);
	errno = 0;
	assert_null(fw_create(NULL, 5, b.regs, &par));
	assert_int_equal(errno, EINVAL);
	assert_null(fw_create(b.topo, 5, NULL, &par));
	assert_null(fw_create(b.topo, 5, b.regs, NULL));
	assert_null(fw_create(b.topo, b.topo->routers, b.regs, &par));
	assert_null(fw_create(b.topo, 6, b.regs, &par)); /* regs of router 5 */
	par.vc_global = 0;
	assert_null(fw_create(b.topo, 5, b.regs, &par));
	par.vc_global = DFLY_MAX_VCS + 1;
	assert_null(fw_create(b.topo, 5, b.regs, &par));
	par = pb_params(2, 512, 0);
	par.pb_period = 0;
	assert_null(fw_create(b.topo, 5, b.regs, &par));
	par.pb_enabled = false; /* the period only matters with PB */
	b.fw = fw_create(b.topo, 5, b.regs, &par);
	assert_non_null(b.fw);
	fw_destroy(b.fw);
	par = pb_params(2, FW_PB_F_Q8_MAX + 1, 0);
	errno = 0;
	assert_null(fw_create(b.topo, 5, b.regs, &par));
	assert_int_equal(errno, EINVAL);
	par = pb_params(2, 512, 0);
	b.regs->magic = 0;
	assert_null(fw_create(b.topo, 5, b.regs, &par));
	b.regs->magic = DFLY_REGS_MAGIC;
	b.regs->nvcs[b.topo->first_global] = 1; /* the ASIC has one global VC, PB wants two */
	assert_null(fw_create(b.topo, 5, b.regs, &par));
	b.regs->nvcs[b.topo->first_global] = 2;
	b.fw = fw_create(b.topo, 5, b.regs, &par);
	assert_non_null(b.fw);
	fw_destroy(b.fw);
	b.fw = NULL;
	/* ECtN: the mode and its parameters */
	fw_params_init(&par);
	par.ectn_enabled = true;
	par.ectn_mode = FW_ECTN_MODE_COUNT;
	assert_null(fw_create(b.topo, 5, b.regs, &par));
	par.ectn_mode = FW_ECTN_INCREMENTAL;
	par.ectn_refresh = 0;
	assert_null(fw_create(b.topo, 5, b.regs, &par));
	par.ectn_refresh = 1;
	par.ectn_async_delta = 0;
	assert_null(fw_create(b.topo, 5, b.regs, &par));
	par.ectn_async_delta = DFLY_WIRE_ECTN_SAT + 1; /* a 4-bit counter never moves by 16 */
	assert_null(fw_create(b.topo, 5, b.regs, &par));
	par.ectn_async_delta = DFLY_WIRE_ECTN_SAT;
	par.ectn_async_min_gap = 0;
	errno = 0;
	assert_null(fw_create(b.topo, 5, b.regs, &par));
	assert_int_equal(errno, EINVAL);
	par.ectn_async_min_gap = 1;
	b.fw = fw_create(b.topo, 5, b.regs, &par);
	assert_non_null(b.fw);
	fw_destroy(NULL);
	bench_fini(&b);
}

/* ---------------------------------------------------------------------------------------------
 * 1. The saturation formula at its boundary
 */

static void test_pb_boundary_f2(void **state)
{
	struct fw_params par = pb_params(1, 512, 24); /* F = 2, T = 24 phits, Q̄ over all */
	struct bench b;

	(void)state;
	bench_init(&b, 2, 4, 4, 5, &par);
	/* Q0·256·4 = 512·(Q0 + 30) + 24·256·4  ⇔  Q0 = 78: equal, not saturated */
	set_q(&b, 0, 0, 78);
	set_q(&b, 1, 0, 10);
	set_q(&b, 2, 0, 10);
	set_q(&b, 3, 0, 10);
	fw_tick(b.fw, 0);
	assert_int_equal(fw_pb_own(b.fw, 0), 0);
	set_q(&b, 0, 0, 79); /* one phit more */
	cycle(&b, 1);
	assert_int_equal(fw_pb_own(b.fw, 0), 1);
	for (uint32_t q = 1; q < 4; q++)
		assert_int_equal(fw_pb_own(b.fw, q), 0);
	/* the published table carries the own row (ρ = 1), acquired as the ASIC would */
	assert_int_equal(acquire_pb(&b).sat[1][0], 1);
	assert_int_equal(stat(&b, FW_STAT_PB_RECOMPUTE), 2);
	assert_int_equal(stat(&b, FW_STAT_PB_BITS_SET), 1);
	assert_int_equal(stat(&b, FW_STAT_PB_FLIPS), 1);
	bench_fini(&b);
}

static void test_pb_boundary_f12(void **state)
{
	/* F = 1.2 as 307/256, T = 40 phits: Q0·1024 = 307·(Q0 + S') + 40·1024 at Q0 = 347,
	 * S' = 677 (225 + 226 + 226); exact only in integers */
	struct fw_params par = pb_params(1, 307, 40);
	struct bench b;

	(void)state;
	bench_init(&b, 2, 4, 4, 5, &par);
	set_q(&b, 0, 0, 347);
	set_q(&b, 1, 0, 225);
	set_q(&b, 2, 0, 226);
	set_q(&b, 3, 0, 226);
	fw_tick(b.fw, 0);
	assert_int_equal(fw_pb_own(b.fw, 0), 0);
	set_q(&b, 0, 0, 348);
	fw_tick(b.fw, 1);
	assert_int_equal(fw_pb_own(b.fw, 0), 1);
	fw_destroy(b.fw);

	/* The contract is F = f_q8/256 exactly, not 1.2: Q0 = 300, S' = 700, T = 0 gives
	 * 300·1024 = 307200 > 307·1000 = 307000 (set), whereas 300 > 1.2·250 = 300 is false. */
	par = pb_params(1, 307, 0);
	b.fw = fw_create(b.topo, 5, b.regs, &par);
	assert_non_null(b.fw);
	set_q(&b, 0, 0, 300);
	set_q(&b, 1, 0, 233);
	set_q(&b, 2, 0, 233);
	set_q(&b, 3, 0, 234);
	fw_tick(b.fw, 2);
	assert_int_equal(fw_pb_own(b.fw, 0), 1);
	set_q(&b, 0, 0, 299); /* 299·1024 = 306176 ≤ 307·999 = 306693 */
	fw_tick(b.fw, 3);
	assert_int_equal(fw_pb_own(b.fw, 0), 0);
	bench_fini(&b);
}

/* ---------------------------------------------------------------------------------------------
 * 2. Q̄ with and without the channel itself
 */

static void test_pb_avg_all_vs_other(void **state)
{
	struct fw_params par = pb_params(1, 512, 0);
	struct bench b;

	(void)state;
	/* h = 2, Q = [30, 10], F = 2, T = 0. all: Q̄ = 20, 30 > 40 no. other: Q̄ = 10, 30 > 20. */
	bench_init(&b, 2, 4, 2, 5, &par);
	set_q(&b, 0, 0, 30);
	set_q(&b, 1, 0, 10);
	fw_tick(b.fw, 0);
	assert_int_equal(fw_pb_own(b.fw, 0), 0);
	assert_int_equal(fw_pb_own(b.fw, 1), 0);
	fw_destroy(b.fw);
	par.pb_avg_other = true;
	b.fw = fw_create(b.topo, 5, b.regs, &par);
	assert_non_null(b.fw);
	fw_tick(b.fw, 0);
	assert_int_equal(fw_pb_own(b.fw, 0), 1);
	assert_int_equal(fw_pb_own(b.fw, 1), 0); /* 10 > 2·30 no */
	/* boundary of 'other': Q0·256·1 > 512·Q1 ⇔ Q0 > 2·Q1 */
	set_q(&b, 0, 0, 20);
	fw_tick(b.fw, 1);
	assert_int_equal(fw_pb_own(b.fw, 0), 0);
	set_q(&b, 0, 0, 21);
	fw_tick(b.fw, 2);
	assert_int_equal(fw_pb_own(b.fw, 0), 1);
	bench_fini(&b);

	/* h = 1 with 'other': no other channel, Q̄ = 0, so the bit is Q > T. */
	par = pb_params(1, 512, 8);
	par.pb_avg_other = true;
	bench_init(&b, 1, 2, 1, 1, &par);
	set_q(&b, 0, 0, 8);
	fw_tick(b.fw, 0);
	assert_int_equal(fw_pb_own(b.fw, 0), 0);
	set_q(&b, 0, 0, 9);
	fw_tick(b.fw, 1);
	assert_int_equal(fw_pb_own(b.fw, 0), 1);
	fw_destroy(b.fw);
	/* h = 1 with 'all': Q̄ = Q, Q > 2Q + 8 never holds */
	par.pb_avg_other = false;
	b.fw = fw_create(b.topo, 1, b.regs, &par);
	assert_non_null(b.fw);
	set_q(&b, 0, 0, 1000);
	fw_tick(b.fw, 0);
	assert_int_equal(fw_pb_own(b.fw, 0), 0);
	bench_fini(&b);
}

/* ---------------------------------------------------------------------------------------------
 * 3. Per-VC vs per-port
 */

static void test_pb_per_vc_vs_per_port(void **state)
{
	struct fw_params par = pb_params(2, 512, 0);
	struct bench b;

	(void)state;
	/* h = 4, 2 VCs, F = 2, T = 0, Q̄ over all.
	 * Case 1: VC0 = [40, 0, 0, 0], VC1 = [0, 20, 20, 20].
	 *   per VC: VC0 Q̄ = 10, 40 > 20 → (0,0) set; VC1 Q̄ = 15, 20 > 30 no.
	 *   per port: [40, 20, 20, 20], Q̄ = 25, 40 > 50 no → nothing. */
	bench_init(&b, 2, 4, 4, 5, &par);
	set_q(&b, 0, 0, 40);
	set_q(&b, 1, 1, 20);
	set_q(&b, 2, 1, 20);
	set_q(&b, 3, 1, 20);
	fw_tick(b.fw, 0);
	assert_int_equal(fw_pb_own(b.fw, 0), 0x1);
	for (uint32_t q = 1; q < 4; q++)
		assert_int_equal(fw_pb_own(b.fw, q), 0);
	fw_destroy(b.fw);
	par.pb_per_vc = false;
	b.fw = fw_create(b.topo, 5, b.regs, &par);
	assert_non_null(b.fw);
	fw_tick(b.fw, 0);
	for (uint32_t q = 0; q < 4; q++)
		assert_int_equal(fw_pb_own(b.fw, q), 0);

	/* Case 2: VC0 = [40, 0, 0, 0], VC1 = [20, 10, 10, 10].
	 *   per port: [60, 10, 10, 10], Q̄ = 22.5, 60 > 45 → both VC bits of port 0.
	 *   per VC: VC0 → (0,0); VC1 Q̄ = 12.5, 20 > 25 no. */
	set_q(&b, 1, 1, 10);
	set_q(&b, 2, 1, 10);
	set_q(&b, 3, 1, 10);
	set_q(&b, 0, 1, 20);
	cycle(&b, 1);
	assert_int_equal(fw_pb_own(b.fw, 0), 0x3);
	for (uint32_t q = 1; q < 4; q++)
		assert_int_equal(fw_pb_own(b.fw, q), 0);
	assert_int_equal(acquire_pb(&b).sat[1][0], 0x3);
	fw_destroy(b.fw);
	par.pb_per_vc = true;
	b.fw = fw_create(b.topo, 5, b.regs, &par);
	assert_non_null(b.fw);
	fw_tick(b.fw, 2);
	assert_int_equal(fw_pb_own(b.fw, 0), 0x1);
	bench_fini(&b);
}

/* ---------------------------------------------------------------------------------------------
 * 4. PB_STATE reception
 */

static void test_pb_rx_rows(void **state)
{
	struct fw_params par = pb_params(2, 512, 0);
	struct bench b;
	struct dfly_tbl_pb t;
	const uint8_t v6[4] = {0x1, 0x2}, v4[4] = {0x3, 0x0}, v7[4] = {0x3, 0x3}, v1[4] = {0x1};
	uint32_t gpeer, gpeer_port;
	uint8_t junk[40] = {0};
	char *out = NULL;
	size_t outlen = 0;
	FILE *f;

	(void)state;
	/* h = 2, a = 4: router 5 is group 1, ρ 1. Local ports 2, 3, 4 lead to ρ 2, 3, 0, i.e.
	 * routers 6, 7, 4. */
	bench_init(&b, 2, 4, 2, 5, &par);
	assert_int_equal(dfly_topo_local_peer(b.topo, 1, 2), 2);
	assert_int_equal(dfly_topo_local_peer(b.topo, 1, 4), 0);
	rx_pb(&b, 2, 6, 2, 2, v6, 0);
	rx_pb(&b, 4, 4, 2, 2, v4, 0);
	rx_pb(&b, 2, 7, 2, 2, v7, 0); /* router 7 is the peer of port 3, not 2 */
	rx_pb(&b, 3, 9, 2, 2, v7, 0); /* router 9 is in group 2 */
	rx_pb(&b, 3, 7, 2, 1, v1, 0); /* vg 1 ≠ 2 */
	rx_pb(&b, 3, 7, 3, 2, v7, 0); /* h 3 ≠ 2: the decoder refuses it */
	rx_pb(&b, 0, 7, 2, 2, v7, 0); /* terminal port */
	/* a HELLO from the global peer (another group) is not group scoped: accepted, unhandled */
	{
		struct dfly_wire_ctrl m;
		uint8_t buf[64];
		int len;

		assert_int_equal(
		    dfly_topo_port_peer(b.topo, 5, b.topo->first_global, &gpeer, &gpeer_port), 0);
		dfly_wire_hello_fill(&m, b.topo, gpeer, gpeer_port, 0);
		len = dfly_wire_ctrl_encode(buf, sizeof(buf), NULL, &m);
		assert_true(len > 0);
		assert_int_equal(dfly_cpu_ring_put(&b.regs->cpu_rx, (uint16_t)b.topo->first_global,
						   0, buf, (uint16_t)len),
				 0);
	}
	assert_int_equal(dfly_cpu_ring_put(&b.regs->cpu_rx, 3, 0, junk, sizeof(junk)), 0);
	fw_tick(b.fw, 0);

	t = acquire_pb(&b);
	assert_memory_equal(t.sat[2], v6, 2);
	assert_memory_equal(t.sat[0], v4, 2);
	assert_int_equal(t.sat[3][0], 0); /* never heard from router 7 with a valid frame */
	assert_int_equal(t.sat[3][1], 0);
	assert_int_equal(t.sat[1][0], 0); /* own row, zero occupancy */
	assert_int_equal(t.sat[1][1], 0);
	for (uint32_t rho = 4; rho < DFLY_MAX_A; rho++)
		for (uint32_t q = 0; q < DFLY_MAX_H; q++)
			assert_int_equal(t.sat[rho][q], 0);
	assert_null(dfly_cpu_ring_peek(&b.regs->cpu_rx)); /* drained completely */

	assert_int_equal(stat(&b, FW_STAT_RX_FRAMES), 9);
	assert_int_equal(stat(&b, FW_STAT_RX_PB_STATE), 3);
	assert_int_equal(stat(&b, FW_STAT_PB_RX_ROWS), 2);
	assert_int_equal(stat(&b, FW_STAT_PB_BAD_SHAPE), 1);
	assert_int_equal(stat(&b, FW_STAT_RX_WRONG_PEER), 1);
	assert_int_equal(stat(&b, FW_STAT_RX_OTHER_GROUP), 1);
	assert_int_equal(stat(&b, FW_STAT_RX_DECODE_ERR), 2);
	assert_int_equal(stat(&b, FW_STAT_RX_BAD_PORT), 1);
	assert_int_equal(stat(&b, FW_STAT_RX_HELLO), 1);
	assert_int_equal(stat(&b, FW_STAT_RX_UNHANDLED), 1);
	/* the partition of rx_frames */
	assert_int_equal(stat(&b, FW_STAT_RX_FRAMES),
			 stat(&b, FW_STAT_RX_CREDIT) + stat(&b, FW_STAT_RX_PB_STATE) +
			     stat(&b, FW_STAT_RX_ECTN_PARTIAL) + stat(&b, FW_STAT_RX_HELLO) +
			     stat(&b, FW_STAT_RX_ACK) + stat(&b, FW_STAT_RX_BAD_PORT) +
			     stat(&b, FW_STAT_RX_DECODE_ERR) + stat(&b, FW_STAT_RX_OTHER_GROUP) +
			     stat(&b, FW_STAT_RX_WRONG_PEER));

	/* a newer vector replaces the row; rows not refreshed keep their last value */
	rx_pb(&b, 2, 6, 2, 2, v7, 1);
	fw_tick(b.fw, 1);
	t = acquire_pb(&b);
	assert_memory_equal(t.sat[2], v7, 2);
	assert_memory_equal(t.sat[0], v4, 2);
	assert_int_equal(atomic_load(&b.regs->fw.heartbeat), 2); /* ticked through cycle 1 */

	/* fw_dump prints exactly the non-zero counters */
	f = open_memstream(&out, &outlen);
	assert_non_null(f);
	fw_dump(b.fw, f);
	fclose(f);
	assert_non_null(strstr(out, "  fw.rx_frames 10\n"));
	assert_non_null(strstr(out, "rx_wrong_peer 1\n"));
	assert_null(strstr(out, "rx_credit"));
	free(out);
	bench_fini(&b);
}

/* ---------------------------------------------------------------------------------------------
 * 5. Broadcast
 */

static void test_pb_broadcast(void **state)
{
	struct fw_params par = pb_params(2, 512, 0);
	unsigned per_port[DFLY_MAX_PORTS];
	const uint8_t own[4] = {0x2, 0, 0, 0};
	struct bench b;

	(void)state;
	/* a = 4, h = 4: VC1 = [40, 0, 0, 0] marks (0, 1) */
	bench_init(&b, 2, 4, 4, 5, &par);
	set_q(&b, 0, 1, 40);
	fw_tick(b.fw, 0);
	assert_int_equal(drain_tx(&b, own, per_port), 3);
	for (uint32_t port = b.topo->first_local; port < b.topo->first_global; port++)
		assert_int_equal(per_port[port], 1);
	assert_int_equal(stat(&b, FW_STAT_PB_TX), 3);
	assert_int_equal(stat(&b, FW_STAT_TX_FRAMES), 3);
	fw_tick(b.fw, 1);
	assert_int_equal(drain_tx(&b, own, per_port), 3);
	dfly_regs_tbl_acquire(b.regs, DFLY_TBL_PB);
	fw_destroy(b.fw);

	/* period 4: frames only at ticks 0, 4, 8; a publication only when the rows change (the
	 * first one: the rows of a fresh instance differ from nothing published) */
	par.pb_period = 4;
	b.fw = fw_create(b.topo, 5, b.regs, &par);
	assert_non_null(b.fw);
	for (uint64_t now = 0; now < 12; now++) {
		uint64_t gen = dfly_regs_tbl_gen(b.regs, DFLY_TBL_PB);

		fw_tick(b.fw, now);
		assert_int_equal(drain_tx(&b, own, per_port), now % 4 == 0 ? 3 : 0);
		assert_int_equal(dfly_regs_tbl_gen(b.regs, DFLY_TBL_PB) - gen, now == 0);
		dfly_regs_tbl_acquire(b.regs, DFLY_TBL_PB); /* the ASIC's step of now + 1 */
	}
	assert_int_equal(stat(&b, FW_STAT_TBL_UNCHANGED), 2);
	assert_int_equal(stat(&b, FW_STAT_PB_RECOMPUTE), 3);
	assert_int_equal(stat(&b, FW_STAT_TIMER_RUNS), 3);

	/* a full tx ring is counted, not blocking: 64 slots, 3 frames per tick */
	for (uint64_t now = 12; now < 12 + 4 * 22; now++)
		fw_tick(b.fw, now);
	assert_int_equal(stat(&b, FW_STAT_TX_RING_FULL), 22 * 3 - DFLY_CPU_RING_SLOTS);
	assert_int_equal(drain_tx(&b, own, per_port), DFLY_CPU_RING_SLOTS);
	fw_destroy(b.fw);

	/* send_unchanged off: a frame per neighbour only when the own vector changes */
	par.pb_period = 1;
	par.pb_send_unchanged = false;
	b.fw = fw_create(b.topo, 5, b.regs, &par);
	assert_non_null(b.fw);
	fw_tick(b.fw, 0);
	assert_int_equal(drain_tx(&b, own, per_port), 3); /* first vector */
	dfly_regs_tbl_acquire(b.regs, DFLY_TBL_PB);
	fw_tick(b.fw, 1);
	assert_int_equal(drain_tx(&b, own, per_port), 0); /* unchanged */
	assert_int_equal(stat(&b, FW_STAT_PB_TX_UNCHANGED), 3);
	set_q(&b, 0, 1, 0); /* (0, 1) clears: the frames carry the new vector */
	fw_tick(b.fw, 2);
	assert_int_equal(drain_tx(&b, (const uint8_t[DFLY_MAX_H]){0}, per_port), 3);
	bench_fini(&b);
}

/* ---------------------------------------------------------------------------------------------
 * 6. Table publication never exposes a torn table
 */

static void test_tbl_busy_single_thread(void **state)
{
	struct fw_params par = pb_params(1, 512, 0);
	struct bench b;
	struct dfly_tbl_pb live;
	const struct dfly_tbl_pb *asic;

	(void)state;
	bench_init(&b, 2, 4, 2, 5, &par); /* h = 2: Q0 > Q0 + Q1 never; use 'other' */
	fw_destroy(b.fw);
	par.pb_avg_other = true;
	b.fw = fw_create(b.topo, 5, b.regs, &par);
	assert_non_null(b.fw);

	set_q(&b, 0, 0, 10); /* 10 > 2·0: port 0 saturated */
	fw_tick(b.fw, 0);
	assert_int_equal(dfly_regs_tbl_gen(b.regs, DFLY_TBL_PB), 1);
	asic = dfly_regs_tbl_acquire(b.regs, DFLY_TBL_PB); /* the ASIC uses generation 1 */
	assert_int_equal(asic->sat[1][0], 1);
	memcpy(&live, asic, sizeof(live));

	/* tick 1 publishes generation 2 into the other bank; the ASIC does not step */
	set_q(&b, 0, 0, 0);
	set_q(&b, 1, 0, 10);
	fw_tick(b.fw, 1);
	assert_int_equal(dfly_regs_tbl_gen(b.regs, DFLY_TBL_PB), 2);
	/* tick 2 must not touch the bank of generation 1 the ASIC may still read */
	set_q(&b, 1, 0, 0);
	fw_tick(b.fw, 2);
	assert_int_equal(dfly_regs_tbl_gen(b.regs, DFLY_TBL_PB), 2);
	assert_int_equal(stat(&b, FW_STAT_TBL_BUSY), 1);
	assert_memory_equal(asic, &live, sizeof(live));
	/* the ASIC steps: acquires generation 2 (port 1 saturated) */
	asic = dfly_regs_tbl_acquire(b.regs, DFLY_TBL_PB);
	assert_int_equal(asic->sat[1][0], 0);
	assert_int_equal(asic->sat[1][1], 1);
	/* the deferred publication goes out at the next tick */
	fw_tick(b.fw, 3);
	assert_int_equal(dfly_regs_tbl_gen(b.regs, DFLY_TBL_PB), 3);
	assert_int_equal(stat(&b, FW_STAT_TBL_PUBLISH), 3);
	asic = dfly_regs_tbl_acquire(b.regs, DFLY_TBL_PB);
	assert_int_equal(asic->sat[1][1], 0);
	fw_destroy(b.fw);

	/* with period 4 the retry happens on a tick that is not a period tick */
	par.pb_period = 4;
	b.fw = fw_create(b.topo, 5, b.regs, &par);
	assert_non_null(b.fw);
	fw_tick(b.fw, 0); /* gen 4, not acquired */
	assert_int_equal(dfly_regs_tbl_gen(b.regs, DFLY_TBL_PB), 4);
	fw_tick(b.fw, 1);
	fw_tick(b.fw, 2);
	fw_tick(b.fw, 3);
	set_q(&b, 0, 0, 10);
	fw_tick(b.fw, 4); /* EBUSY */
	assert_int_equal(dfly_regs_tbl_gen(b.regs, DFLY_TBL_PB), 4);
	assert_int_equal(stat(&b, FW_STAT_TBL_BUSY), 1);
	fw_tick(b.fw, 5); /* still not acquired: busy again */
	assert_int_equal(stat(&b, FW_STAT_TBL_BUSY), 2);
	dfly_regs_tbl_acquire(b.regs, DFLY_TBL_PB);
	fw_tick(b.fw, 6);
	assert_int_equal(dfly_regs_tbl_gen(b.regs, DFLY_TBL_PB), 5);
	asic = dfly_regs_tbl_acquire(b.regs, DFLY_TBL_PB);
	assert_int_equal(asic->sat[1][0], 1);
	fw_tick(b.fw, 7); /* nothing pending */
	assert_int_equal(dfly_regs_tbl_gen(b.regs, DFLY_TBL_PB), 5);
	bench_fini(&b);
}

#define TORN_ITERS 200000u

struct torn {
	struct dfly_regs *regs;
	atomic_bool done;
	uint64_t reads; /* reader: banks checked */
	uint64_t torn;  /* reader: banks whose bytes were not all the same */
	uint64_t stale; /* reader: banks whose bytes were not their generation */
	uint64_t busy;  /* writer: EBUSY answers */
};

static void *torn_writer(void *arg)
{
	struct torn *tt = arg;

	for (uint32_t i = 0; i < TORN_ITERS; i++) {
		uint64_t gen = dfly_regs_tbl_gen(tt->regs, DFLY_TBL_PB);
		struct dfly_tbl_pb *t;

		while ((t = dfly_regs_tbl_begin(tt->regs, DFLY_TBL_PB)) == NULL) {
			tt->busy++;
			sched_yield();
		}
		/* fill byte by byte, so a reader of this bank would see a mixture */
		for (size_t k = 0; k < sizeof(*t); k++)
			((volatile uint8_t *)t)[k] = (uint8_t)(gen + 1);
		dfly_regs_tbl_publish(tt->regs, DFLY_TBL_PB);
	}
	atomic_store(&tt->done, true);
	return NULL;
}

static void *torn_reader(void *arg)
{
	struct torn *tt = arg;
	uint8_t last = 0;

	while (!atomic_load(&tt->done)) {
		/* the ASIC protocol: acquire once, read the whole bank, then acquire again */
		const volatile uint8_t *bank = dfly_regs_tbl_acquire(tt->regs, DFLY_TBL_PB);
		uint8_t gen = (uint8_t)atomic_load(&tt->regs->tbl_seen[DFLY_TBL_PB]);
		uint8_t first = bank[0];
		bool torn = false;

		for (size_t k = 1; k < sizeof(struct dfly_tbl_pb); k++)
			if (bank[k] != first)
				torn = true;
		tt->torn += torn;
		tt->stale += first != gen;
		tt->reads++;
		if (gen == last)
			sched_yield(); /* nothing new: let the writer run (2-CPU machines) */
		last = gen;
	}
	return NULL;
}

static void test_tbl_torn_two_threads(void **state)
{
	struct dfly_regs *regs = calloc(1, sizeof(*regs));
	struct torn tt = {.regs = regs};
	pthread_t w, r;

	(void)state;
	assert_non_null(regs);
	dfly_regs_init(regs, 0, 7);
	atomic_init(&tt.done, false);
	assert_int_equal(pthread_create(&r, NULL, torn_reader, &tt), 0);
	assert_int_equal(pthread_create(&w, NULL, torn_writer, &tt), 0);
	assert_int_equal(pthread_join(w, NULL), 0);
	assert_int_equal(pthread_join(r, NULL), 0);
	print_message("torn-table test: %u publications, %llu reads, %llu EBUSY\n", TORN_ITERS,
		      (unsigned long long)tt.reads, (unsigned long long)tt.busy);
	assert_int_equal(dfly_regs_tbl_gen(regs, DFLY_TBL_PB), TORN_ITERS);
	assert_int_equal(tt.torn, 0);
	assert_int_equal(tt.stale, 0);
	assert_true(tt.reads >= TORN_ITERS - 1); /* every publication but the last was acquired */
	free(regs);
}

/* ---------------------------------------------------------------------------------------------
 * 7. In-band mode A
 */

static void test_pb_inband(void **state)
{
	struct fw_params par = pb_params(2, 512, 0);
	struct dfly_tbl_pb t;
	struct bench b;

	(void)state;
	par.pb_inband = true;
	par.pb_avg_other = true;
	/* h = 2, vg = 2, router 5 (ρ 1). VC1 = [10, 0] marks (0,1); VC0 = [0, 10] marks (1,0).
	 * Vector bits q·2 + v: (0,1) → bit 1, (1,0) → bit 2. */
	bench_init(&b, 2, 4, 2, 5, &par);
	set_q(&b, 0, 1, 10);
	set_q(&b, 1, 0, 10);
	fw_tick(b.fw, 0);
	assert_int_equal(atomic_load(&b.regs->fw.pb_own_vec), 0x6);
	assert_null(dfly_cpu_ring_peek(&b.regs->cpu_tx)); /* no frames in band */
	t = acquire_pb(&b);
	assert_int_equal(t.sat[1][0], 0x2);
	assert_int_equal(t.sat[1][1], 0x1);

	/* PB_STATE frames are not used in band */
	{
		const uint8_t v[2] = {3, 3};

		rx_pb(&b, 2, 6, 2, 2, v, 1);
	}
	/* local port 2's peer is ρ 2: vector 0b1001 → (0,0) and (1,1); bits above h·vg dropped */
	b.regs->mech.pb_rx_vec[2] = 0x9 | 0xf0;
	b.regs->mech.pb_rx_count[2] = 1;
	fw_tick(b.fw, 1);
	assert_int_equal(stat(&b, FW_STAT_RX_UNHANDLED), 1);
	t = acquire_pb(&b);
	assert_int_equal(t.sat[2][0], 0x1);
	assert_int_equal(t.sat[2][1], 0x2);
	assert_int_equal(t.sat[3][0], 0);
	assert_int_equal(t.sat[0][0], 0);
	/* the vector changes but the count does not: nothing new arrived */
	b.regs->mech.pb_rx_vec[2] = 0x2;
	fw_tick(b.fw, 2);
	t = acquire_pb(&b);
	assert_int_equal(t.sat[2][0], 0x1);
	assert_int_equal(t.sat[2][1], 0x2);
	/* now it arrives; port 4's peer is ρ 0 */
	b.regs->mech.pb_rx_count[2] = 2;
	b.regs->mech.pb_rx_vec[4] = 0x4;
	b.regs->mech.pb_rx_count[4] = 7;
	fw_tick(b.fw, 3);
	t = acquire_pb(&b);
	assert_int_equal(t.sat[2][0], 0x2);
	assert_int_equal(t.sat[2][1], 0);
	assert_int_equal(t.sat[0][0], 0);
	assert_int_equal(t.sat[0][1], 0x1);
	assert_int_equal(stat(&b, FW_STAT_PB_INBAND_RX), 3);
	assert_int_equal(stat(&b, FW_STAT_PB_TX), 0);
	/* the own vector follows the occupancy */
	set_q(&b, 0, 1, 0);
	fw_tick(b.fw, 4);
	assert_int_equal(atomic_load(&b.regs->fw.pb_own_vec), 0x4);
	bench_fini(&b);

	/* h·vg > 32 does not fit the register: h = 8, vg = 5 → 40 bits */
	par = pb_params(5, 512, 0);
	par.pb_inband = true;
	bench_init(&b, 1, 2, 8, 0, NULL);
	errno = 0;
	assert_null(fw_create(b.topo, 0, b.regs, &par));
	assert_int_equal(errno, EINVAL);
	par.vc_global = 4; /* 32 bits: fits */
	b.fw = fw_create(b.topo, 0, b.regs, &par);
	assert_non_null(b.fw);
	par.pb_inband = false; /* out of band has no such limit */
	par.vc_global = 5;
	fw_destroy(b.fw);
	b.fw = fw_create(b.topo, 0, b.regs, &par);
	assert_non_null(b.fw);
	bench_fini(&b);
}

/* ---------------------------------------------------------------------------------------------
 * 8. Timers
 */

struct fires {
	uint64_t at[64];
	unsigned n;
	unsigned order[64]; /* which timer, for the ordering check */
	unsigned id;
};

struct timer_arg {
	struct fires *log;
	unsigned id;
};

static void timer_cb(struct fw *fw, uint64_t now, void *arg)
{
	struct timer_arg *ta = arg;

	(void)fw;
	assert_true(ta->log->n < 64);
	ta->log->at[ta->log->n] = now;
	ta->log->order[ta->log->n] = ta->id;
	ta->log->n++;
}

static void test_timers(void **state)
{
	struct fw_params par;
	struct bench b;
	struct fires log = {0};
	struct timer_arg a100 = {&log, 1}, a30 = {&log, 2};

	(void)state;
	fw_params_init(&par); /* no PB: no timer of its own */
	bench_init(&b, 2, 4, 2, 5, &par);
	assert_int_equal(fw_timer_add(b.fw, "bad", 0, 0, timer_cb, &a100), -EINVAL);
	assert_int_equal(fw_timer_add(b.fw, "bad", 1, 0, NULL, &a100), -EINVAL);
	assert_int_equal(fw_timer_add(b.fw, "t100", 100, 0, timer_cb, &a100), 0);
	assert_int_equal(fw_timer_add(b.fw, "t30", 100, 30, timer_cb, &a30), 1);
	for (uint64_t now = 0; now <= 1000; now++)
		fw_tick(b.fw, now);
	/* t100 at 0, 100, …, 1000 (11), t30 at 30, 130, …, 930 (10) */
	assert_int_equal(log.n, 21);
	for (unsigned i = 0, k100 = 0, k30 = 0; i < log.n; i++) {
		if (log.order[i] == 1) {
			assert_int_equal(log.at[i], 100 * k100);
			k100++;
		} else {
			assert_int_equal(log.at[i], 100 * k30 + 30);
			k30++;
		}
	}
	assert_int_equal(stat(&b, FW_STAT_TIMER_RUNS), 21);
	assert_int_equal(stat(&b, FW_STAT_TIMER_MISSED), 0);
	assert_int_equal(stat(&b, FW_STAT_TICKS), 1001);
	assert_int_equal(atomic_load(&b.regs->fw.heartbeat), 1001);

	/* skipped cycles: 1000 → 1250 misses 1100, 1200 (t100) and 1030, 1130, 1230 (t30) */
	log.n = 0;
	fw_tick(b.fw, 1250);
	assert_int_equal(log.n, 0);
	assert_int_equal(stat(&b, FW_STAT_TIMER_MISSED), 5);
	fw_tick(b.fw, 1300);
	assert_int_equal(log.n, 1);
	assert_int_equal(log.at[0], 1300);
	fw_destroy(b.fw);

	/* same cycle: registration order; a firmware started late does not count missed ones */
	b.fw = fw_create(b.topo, 5, b.regs, &par);
	assert_non_null(b.fw);
	log.n = 0;
	assert_int_equal(fw_timer_add(b.fw, "t30", 100, 30, timer_cb, &a30), 0);
	assert_int_equal(fw_timer_add(b.fw, "t10", 10, 0, timer_cb, &a100), 1);
	for (uint64_t now = 5025; now <= 5130; now++)
		fw_tick(b.fw, now);
	assert_int_equal(stat(&b, FW_STAT_TIMER_MISSED), 0);
	/* 5030 (t30 then t100, same cycle, registration order), 5040 … 5130 */
	assert_int_equal(log.at[0], 5030);
	assert_int_equal(log.order[0], 2);
	assert_int_equal(log.at[1], 5030);
	assert_int_equal(log.order[1], 1);
	assert_int_equal(log.n, 2 + 11); /* t30: 5030, 5130; t10: 5030, 5040, …, 5130 */
	assert_int_equal(log.at[log.n - 2], 5130);
	assert_int_equal(log.order[log.n - 2], 2);
	bench_fini(&b);

	/* the timer table is bounded */
	bench_init(&b, 2, 4, 2, 5, &par);
	for (unsigned i = 0; i < FW_MAX_TIMERS; i++)
		assert_int_equal(fw_timer_add(b.fw, "t", 1, 0, timer_cb, &a100), (int)i);
	assert_int_equal(fw_timer_add(b.fw, "t", 1, 0, timer_cb, &a100), -ENOSPC);
	bench_fini(&b);
}

/* ---------------------------------------------------------------------------------------------
 * ECtN (spec §5.6). h = 2, a = 4, g = 9: router 5 is group 1, ρ 1; local ports 2, 3, 4 lead to
 * routers 6, 7, 4. Arrays carry g − 1 = 8 counters, index k for group k (k < 1) or k + 1.
 */

static struct fw_params ectn_params(uint32_t period, bool own_live)
{
	struct fw_params par;

	fw_params_init(&par);
	par.ectn_enabled = true;
	par.ectn_period = period;
	par.ectn_own_live = own_live;
	return par;
}

/* An ECTN_PARTIAL frame from @p src with counters @p ctr (by index) into cpu_rx on @p port. */
static void rx_ectn(struct bench *b, uint32_t port, uint32_t src, const uint8_t *ctr, uint8_t epoch,
		    uint64_t now)
{
	struct dfly_wire_ctrl m;
	uint8_t buf[DFLY_CPU_FRAME_MAX];
	int len;

	memset(&m, 0, sizeof(m));
	m.type = DFLY_WIRE_CTRL_ECTN_PARTIAL;
	m.src_router = src;
	m.ectn.epoch = epoch;
	m.ectn.n = (uint16_t)(b->topo->g - 1);
	memcpy(m.ectn.ctr, ctr, m.ectn.n);
	len = dfly_wire_ctrl_encode(buf, sizeof(buf), NULL, &m);
	assert_true(len > 0);
	assert_int_equal(
	    dfly_cpu_ring_put(&b->regs->cpu_rx, (uint16_t)port, now, buf, (uint16_t)len), 0);
}

/* One cycle: the ASIC's step acquires the tables, then the firmware ticks. */
static void ectn_cycle(struct bench *b, uint64_t now)
{
	dfly_regs_tbl_acquire(b->regs, DFLY_TBL_ECTN);
	fw_tick(b->fw, now);
}

/* The published ECtN table equals exp[k] (by index) for every remote group, 0 for my group. */
static void assert_ectn_tbl(struct bench *b, const uint32_t *exp)
{
	const struct dfly_tbl_ectn *t = dfly_regs_tbl_acquire(b->regs, DFLY_TBL_ECTN);
	uint32_t G = 1;

	for (uint32_t D = 0; D < b->topo->g; D++)
		assert_int_equal(t->combined[D], D == G ? 0 : exp[dfly_wire_ectn_index(G, D)]);
	for (uint32_t D = b->topo->g; D < DFLY_MAX_GROUPS; D++)
		assert_int_equal(t->combined[D], 0);
}

/* Empty cpu_tx, checking every frame is this router's ECTN_PARTIAL of @p ctr, @p epoch. */
static unsigned drain_ectn_tx(struct bench *b, const uint8_t *ctr, uint8_t epoch,
			      unsigned per_port[DFLY_MAX_PORTS])
{
	const struct dfly_cpu_slot *s;
	unsigned n = 0;

	memset(per_port, 0, sizeof(unsigned) * DFLY_MAX_PORTS);
	while ((s = dfly_cpu_ring_peek(&b->regs->cpu_tx)) != NULL) {
		struct dfly_wire_ctrl m;

		assert_int_equal(dfly_wire_ctrl_decode(s->frame, s->len, &b->lim, &m), 0);
		assert_int_equal(m.type, DFLY_WIRE_CTRL_ECTN_PARTIAL);
		assert_int_equal(m.src_router, b->router);
		assert_int_equal(m.ectn.epoch, epoch);
		assert_int_equal(m.ectn.n, b->topo->g - 1);
		assert_memory_equal(m.ectn.ctr, ctr, b->topo->g - 1);
		assert_true(s->port < DFLY_MAX_PORTS);
		per_port[s->port]++;
		n++;
		dfly_cpu_ring_pop(&b->regs->cpu_tx);
	}
	return n;
}

/*
 * combined = sum of the last received copies (the ASIC adds its live own partial): two peers'
 * arrays sum; a second array from one peer replaces its first; with no new frame (lost or
 * late) the previous copies stay in use across further ticks and periods.
 */
static void test_ectn_rx_combined(void **state)
{
	struct fw_params par = ectn_params(100, true);
	struct bench b;
	const uint8_t a6[8] = {1, 2, 3, 4, 5, 6, 7, 15}, a4[8] = {10, 0, 1, 0, 2, 0, 3, 15};
	const uint8_t a6b[8] = {0, 9, 0, 0, 1, 1, 0, 2};
	uint32_t exp[8];
	unsigned per_port[DFLY_MAX_PORTS];

	(void)state;
	bench_init(&b, 2, 4, 2, 5, &par);
	ectn_cycle(&b, 0); /* the broadcast of an empty partial */
	assert_int_equal(stat(&b, FW_STAT_ECTN_TX), 3);
	drain_ectn_tx(&b, (const uint8_t[8]){0}, 0, per_port);
	/* the ASIC's own live partial is not the firmware's business with ectn_own_live */
	for (uint32_t D = 0; D < b.topo->g; D++)
		b.regs->mech.ectn_partial[D] = (uint16_t)(D + 3);

	rx_ectn(&b, 2, 6, a6, 0, 1);
	rx_ectn(&b, 4, 4, a4, 0, 1);
	ectn_cycle(&b, 1);
	assert_int_equal(stat(&b, FW_STAT_ECTN_RX), 2);
	for (int k = 0; k < 8; k++)
		exp[k] = (uint32_t)a6[k] + a4[k];
	assert_ectn_tbl(&b, exp);

	/* router 6 again: its new array replaces the old one */
	rx_ectn(&b, 2, 6, a6b, 0, 2);
	ectn_cycle(&b, 2);
	assert_int_equal(stat(&b, FW_STAT_ECTN_RX), 3);
	for (int k = 0; k < 8; k++)
		exp[k] = (uint32_t)a6b[k] + a4[k];
	assert_ectn_tbl(&b, exp);

	/* nothing arrives for three periods: the last copies stay */
	for (uint64_t c = 3; c <= 350; c++) {
		ectn_cycle(&b, c);
		assert_ectn_tbl(&b, exp);
	}
	assert_int_equal(stat(&b, FW_STAT_ECTN_RX), 3);
	assert_int_equal(stat(&b, FW_STAT_ECTN_TX), 3 * 4); /* cycles 0, 100, 200, 300 */

	/* a frame from a router of another group, or on the wrong port, changes nothing */
	rx_ectn(&b, 3, 9, a6, 3, 351);
	rx_ectn(&b, 3, 6, a6, 3, 351);
	ectn_cycle(&b, 351);
	assert_int_equal(stat(&b, FW_STAT_ECTN_RX), 3);
	assert_int_equal(stat(&b, FW_STAT_RX_OTHER_GROUP), 1);
	assert_int_equal(stat(&b, FW_STAT_RX_WRONG_PEER), 1);
	assert_ectn_tbl(&b, exp);
	bench_fini(&b);
}

/*
 * A neighbour that stops sending (its firmware stopped, its link is down) ages out: with
 * ectn_age = 3 periods of 100 cycles, router 6's copy (last applied at cycle 1) counts until
 * the timer of cycle 300 (299 cycles old) and is dropped at the timer of cycle 400; router 4,
 * which keeps sending, keeps its copy. A new array from router 6 counts again at once.
 */
static void test_ectn_age(void **state)
{
	struct fw_params par = ectn_params(100, true);
	struct bench b;
	const uint8_t a6[8] = {1, 2, 3, 4, 5, 6, 7, 15}, a4[8] = {10, 0, 1, 0, 2, 0, 3, 15};
	uint32_t both[8], only4[8];

	(void)state;
	par.ectn_age = 3;
	bench_init(&b, 2, 4, 2, 5, &par);
	for (int k = 0; k < 8; k++) {
		both[k] = (uint32_t)a6[k] + a4[k];
		only4[k] = a4[k];
	}
	for (uint64_t c = 0; c <= 520; c++) {
		if (c == 1)
			rx_ectn(&b, 2, 6, a6, 0, c);
		if (c == 1 || c == 250 || c == 450)
			rx_ectn(&b, 4, 4, a4, (uint8_t)(c / 100), c);
		if (c == 510)
			rx_ectn(&b, 2, 6, a6, 5, c);
		ectn_cycle(&b, c);
		while (dfly_cpu_ring_peek(&b.regs->cpu_tx) != NULL)
			dfly_cpu_ring_pop(&b.regs->cpu_tx);
		if (c >= 1 && c < 400)
			assert_ectn_tbl(&b, both);
		else if (c >= 400 && c < 510)
			assert_ectn_tbl(&b, only4);
		else if (c >= 510)
			assert_ectn_tbl(&b, both);
	}
	assert_int_equal(stat(&b, FW_STAT_ECTN_AGED), 1);
	bench_fini(&b);
}

/*
 * The broadcast: at cycle 0 mod period, one ECTN_PARTIAL per local port carrying the own
 * partial (regs->mech.ectn_partial) at that moment, 4-bit saturated; nothing in between.
 * With ectn_own_live off, the published table also holds the own snapshot.
 */
static void test_ectn_broadcast(void **state)
{
	struct fw_params par = ectn_params(50, true);
	struct bench b;
	uint8_t want[8];
	unsigned per_port[DFLY_MAX_PORTS];

	(void)state;
	bench_init(&b, 2, 4, 2, 5, &par);
	for (uint32_t D = 0; D < b.topo->g; D++)
		b.regs->mech.ectn_partial[D] = (uint16_t)(D * 4); /* 0, 4, ..., 32 */
	b.regs->mech.ectn_partial[1] = 99;                        /* own group: never sent */
	for (uint32_t D = 0; D < b.topo->g; D++)
		if (D != 1)
			want[dfly_wire_ectn_index(1, D)] = (uint8_t)(D * 4 > 15 ? 15 : D * 4);
	assert_int_equal(want[0], 0);
	assert_int_equal(want[1], 8);
	assert_int_equal(want[2], 12);
	assert_int_equal(want[3], 15);
	assert_int_equal(want[7], 15);

	ectn_cycle(&b, 0);
	assert_int_equal(drain_ectn_tx(&b, want, 0, per_port), 3);
	assert_int_equal(per_port[2], 1);
	assert_int_equal(per_port[3], 1);
	assert_int_equal(per_port[4], 1);
	assert_int_equal(stat(&b, FW_STAT_ECTN_TX), 3);
	assert_int_equal(stat(&b, FW_STAT_ECTN_SATURATED), 5); /* groups 4, 5, 6, 7, 8 */

	/* nothing until the next period, whatever the partial does */
	b.regs->mech.ectn_partial[0] = 7;
	want[0] = 7;
	for (uint64_t c = 1; c < 50; c++) {
		ectn_cycle(&b, c);
		assert_null(dfly_cpu_ring_peek(&b.regs->cpu_tx));
	}
	ectn_cycle(&b, 50);
	assert_int_equal(drain_ectn_tx(&b, want, 1, per_port), 3);
	assert_int_equal(per_port[2] + per_port[3] + per_port[4], 3);
	assert_int_equal(stat(&b, FW_STAT_ECTN_TX), 6);
	bench_fini(&b);

	/* own_live off: the table is own snapshot + received copies */
	par = ectn_params(50, false);
	bench_init(&b, 2, 4, 2, 5, &par);
	for (uint32_t D = 0; D < b.topo->g; D++)
		b.regs->mech.ectn_partial[D] = (uint16_t)D;
	{
		const uint8_t a7[8] = {1, 1, 1, 1, 1, 1, 1, 1};
		uint32_t exp[8];

		rx_ectn(&b, 3, 7, a7, 0, 0);
		ectn_cycle(&b, 0);
		for (uint32_t D = 0; D < b.topo->g; D++)
			if (D != 1)
				exp[dfly_wire_ectn_index(1, D)] = D + 1;
		assert_ectn_tbl(&b, exp);
	}
	bench_fini(&b);
}

/* ---------------------------------------------------------------------------------------------
 * ECtN lighter alternatives (spec §5.6, CBAR §VI-B): SPARSE, INCREMENTAL, ASYNC. Senders are
 * firmware benches of their own; their frames are carried by hand into the receiver's cpu_rx,
 * on the port the topology puts them on (or dropped, to lose one).
 */

static struct fw_params ectn_mode_params(uint32_t period, enum fw_ectn_mode mode)
{
	struct fw_params par = ectn_params(period, true);

	par.ectn_mode = mode;
	return par;
}

/* Take every frame @p from queued; check they are one ECTN_PARTIAL (same bytes on each local
 * port) and decode it into @p m. Deliver it to @p to (NULL: lost). @return frames taken. */
static unsigned carry_ectn(struct bench *from, struct bench *to, struct dfly_wire_ctrl *m,
			   uint64_t now)
{
	const struct dfly_cpu_slot *s;
	uint8_t first[DFLY_CPU_FRAME_MAX];
	uint16_t first_len = 0;
	unsigned n = 0;

	while ((s = dfly_cpu_ring_peek(&from->regs->cpu_tx)) != NULL) {
		uint32_t peer, peer_port;

		if (n == 0) {
			memcpy(first, s->frame, s->len);
			first_len = s->len;
			assert_int_equal(dfly_wire_ctrl_decode(s->frame, s->len, &from->lim, m), 0);
			assert_int_equal(m->type, DFLY_WIRE_CTRL_ECTN_PARTIAL);
			assert_int_equal(m->src_router, from->router);
		} else {
			assert_int_equal(s->len, first_len);
			assert_memory_equal(s->frame, first, first_len);
		}
		assert_int_equal(
		    dfly_topo_port_peer(from->topo, from->router, s->port, &peer, &peer_port), 0);
		if (to != NULL && peer == to->router)
			assert_int_equal(dfly_cpu_ring_put(&to->regs->cpu_rx, (uint16_t)peer_port,
							   now, s->frame, s->len),
					 0);
		dfly_cpu_ring_pop(&from->regs->cpu_tx);
		n++;
	}
	return n;
}

/* Counters listed in @p m (list formats), and a check that they are exactly those of @p want. */
static unsigned listed(const struct dfly_wire_ctrl *m, const bool *want)
{
	unsigned n = 0;

	for (uint32_t k = 0; k < DFLY_WIRE_ECTN_MAX; k++) {
		bool has = dfly_wire_ectn_has(&m->ectn, k);

		if (k < m->ectn.n)
			assert_int_equal(has, want[k]);
		else
			assert_false(has);
		n += has;
	}
	return n;
}

/*
 * SPARSE carries the information of FULL: from the same partial array, a SPARSE sender lists
 * exactly the non-zero counters (4-bit saturated), and a receiver of either publishes the same
 * table; a later SPARSE array replaces the whole copy (a counter back to 0 is not listed, and
 * reads 0); an all-zero array is an empty list.
 */
static void test_ectn_sparse(void **state)
{
	struct fw_params pf = ectn_mode_params(100, FW_ECTN_FULL);
	struct fw_params ps = ectn_mode_params(100, FW_ECTN_SPARSE);
	struct bench f, s, rf, rs;
	struct dfly_wire_ctrl mf, ms;
	uint16_t part[9] = {3, 99, 0, 20, 0, 1, 15, 0, 16}; /* by group; group 1 is the own */
	bool want[8];
	uint32_t exp[8];

	(void)state;
	bench_init(&f, 2, 4, 2, 6, &pf); /* senders: router 6, ρ 2 of group 1 */
	bench_init(&s, 2, 4, 2, 6, &ps);
	bench_init(&rf, 2, 4, 2, 5, &pf); /* receivers: router 5 */
	bench_init(&rs, 2, 4, 2, 5, &ps);
	for (uint64_t c = 0; c <= 200; c += 100) {
		uint32_t nz = 0;

		if (c == 100) {
			part[0] = 0; /* back to 0: no longer listed */
			part[5] = 7;
		}
		if (c == 200)
			memset(part, 0, sizeof(part));
		for (uint32_t D = 0; D < 9; D++) {
			f.regs->mech.ectn_partial[D] = part[D];
			s.regs->mech.ectn_partial[D] = part[D];
			if (D != 1) {
				uint32_t k = dfly_wire_ectn_index(1, D);

				want[k] = part[D] != 0;
				exp[k] = part[D] > 15 ? 15 : part[D];
				nz += want[k];
			}
		}
		ectn_cycle(&f, c);
		ectn_cycle(&s, c);
		assert_int_equal(carry_ectn(&f, &rf, &mf, c), 3);
		assert_int_equal(carry_ectn(&s, &rs, &ms, c), 3);
		assert_int_equal(mf.ectn.format, DFLY_WIRE_ECTN_FULL);
		assert_int_equal(ms.ectn.format, DFLY_WIRE_ECTN_SPARSE);
		assert_int_equal(ms.ectn.epoch, c / 100);
		assert_int_equal(listed(&ms, want), nz);
		/* the same counters, zeros where nothing is listed */
		assert_memory_equal(ms.ectn.ctr, mf.ectn.ctr, 8);
		for (uint32_t k = 0; k < 8; k++)
			assert_int_equal(ms.ectn.ctr[k], exp[k]);
		ectn_cycle(&rf, c + 10);
		ectn_cycle(&rs, c + 10);
		assert_ectn_tbl(&rf, exp);
		assert_ectn_tbl(&rs, exp);
	}
	/* 5, 4 and 0 entries, on 3 ports each */
	assert_int_equal(stat(&s, FW_STAT_ECTN_TX_SPARSE), 9);
	assert_int_equal(stat(&s, FW_STAT_ECTN_TX), 9);
	assert_int_equal(stat(&s, FW_STAT_ECTN_TX_FULL), 0);
	assert_int_equal(stat(&s, FW_STAT_ECTN_TX_ENTRIES), 3 * (5 + 4 + 0));
	assert_int_equal(stat(&s, FW_STAT_ECTN_SATURATED), stat(&f, FW_STAT_ECTN_SATURATED));
	assert_int_equal(stat(&f, FW_STAT_ECTN_TX_FULL), 9);
	assert_int_equal(stat(&f, FW_STAT_ECTN_TX_ENTRIES), 0);
	assert_int_equal(stat(&rs, FW_STAT_ECTN_RX), 3);
	assert_int_equal(stat(&rs, FW_STAT_ECTN_GAPS), 0);
	bench_fini(&f);
	bench_fini(&s);
	bench_fini(&rf);
	bench_fini(&rs);
}

/*
 * INCREMENTAL, period 10, refresh 6 (FULL at periods 0 and 6): deltas list the changed counters,
 * an unchanged array still goes as an empty DELTA; the receiver applies them in order. Period 3
 * is lost on the way: the delta of period 4 reveals the gap (counted), and the receiver keeps
 * the copy of period 2, ignoring periods 4 and 5 (counted), until the FULL of period 6 puts it
 * back in step; period 7's delta applies again. Router 4 sends one FULL array at the start so
 * that the table is a sum of two copies. A DELTA from router 7, never heard before, is a gap.
 */
static void test_ectn_incremental(void **state)
{
	struct fw_params pi = ectn_mode_params(10, FW_ECTN_INCREMENTAL);
	struct bench snd, r;
	struct dfly_wire_ctrl m;
	const uint8_t a4[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	/* the sender's partial per period (by group, 9 groups, own group 1 unused) */
	static const uint16_t part[8][9] = {
	    {1, 0, 0, 0, 0, 0, 0, 0, 0},  /* 0: FULL */
	    {1, 0, 4, 0, 0, 0, 0, 0, 30}, /* 1: 2 changes (30 → 15) */
	    {1, 0, 4, 0, 0, 0, 0, 0, 31}, /* 2: none (31 → 15 as well): empty DELTA */
	    {0, 0, 4, 2, 0, 0, 0, 0, 15}, /* 3: 2 changes, lost */
	    {0, 0, 4, 2, 9, 0, 0, 0, 15}, /* 4: 1 change: gap found */
	    {0, 0, 4, 2, 9, 0, 3, 0, 15}, /* 5: 1 change: still out of step */
	    {0, 0, 4, 2, 9, 0, 3, 0, 15}, /* 6: FULL (refresh) */
	    {0, 0, 5, 2, 9, 0, 3, 0, 15}, /* 7: 1 change, applied */
	};
	static const unsigned nent[8] = {0, 2, 0, 2, 1, 1, 0, 1};
	uint32_t copy[8] = {0}, exp[8];

	(void)state;
	pi.ectn_refresh = 6;
	bench_init(&snd, 2, 4, 2, 6, &pi);
	bench_init(&r, 2, 4, 2, 5, &pi);
	rx_ectn(&r, 4, 4, a4, 0, 0);
	for (unsigned k = 0; k < 8; k++) {
		uint64_t c = 10 * k;
		bool lost = k == 3;

		for (uint32_t D = 0; D < 9; D++)
			snd.regs->mech.ectn_partial[D] = part[k][D];
		ectn_cycle(&snd, c);
		assert_int_equal(carry_ectn(&snd, lost ? NULL : &r, &m, c), 3);
		assert_int_equal(m.ectn.epoch, k);
		assert_int_equal(m.ectn.format,
				 k == 0 || k == 6 ? DFLY_WIRE_ECTN_FULL : DFLY_WIRE_ECTN_DELTA);
		if (m.ectn.format == DFLY_WIRE_ECTN_DELTA) {
			bool want[8];

			for (uint32_t D = 0; D < 9; D++)
				if (D != 1)
					want[dfly_wire_ectn_index(1, D)] =
					    (part[k][D] > 15 ? 15 : part[k][D]) !=
					    (part[k - 1][D] > 15 ? 15 : part[k - 1][D]);
			assert_int_equal(listed(&m, want), nent[k]);
		}
		/* what the receiver should hold: in step except after the loss, until period 6 */
		if (k < 3 || k >= 6)
			for (uint32_t D = 0; D < 9; D++)
				if (D != 1)
					copy[dfly_wire_ectn_index(1, D)] =
					    part[k][D] > 15 ? 15 : part[k][D];
		for (uint32_t i = 0; i < 8; i++)
			exp[i] = copy[i] + a4[i];
		/* the copy is used at every cycle until the next frame */
		for (uint64_t t = c; t < c + 10; t++) {
			ectn_cycle(&r, t);
			assert_ectn_tbl(&r, exp);
		}
		assert_int_equal(stat(&r, FW_STAT_ECTN_GAPS), k < 4 ? 0 : 1);
		assert_int_equal(stat(&r, FW_STAT_ECTN_DELTA_STALE), k < 4 ? 0 : k < 6 ? k - 3 : 2);
	}
	/* router 4's FULL + periods 0, 1, 2, 6, 7 applied; 4 and 5 not */
	assert_int_equal(stat(&r, FW_STAT_ECTN_RX), 1 + 5);
	assert_int_equal(stat(&r, FW_STAT_RX_ECTN_PARTIAL), 1 + 7);
	assert_int_equal(stat(&snd, FW_STAT_ECTN_TX_FULL), 3 * 2);
	assert_int_equal(stat(&snd, FW_STAT_ECTN_TX_DELTA), 3 * 6);
	assert_int_equal(stat(&snd, FW_STAT_ECTN_TX_ENTRIES), 3 * (2 + 0 + 2 + 1 + 1 + 1));
	assert_int_equal(stat(&snd, FW_STAT_ECTN_TX), 3 * 8);

	/* a DELTA from a sender never heard from (router 7): a gap, nothing applied */
	{
		struct dfly_wire_ctrl d;
		uint8_t buf[DFLY_CPU_FRAME_MAX];
		int len;

		memset(&d, 0, sizeof(d));
		d.type = DFLY_WIRE_CTRL_ECTN_PARTIAL;
		d.src_router = 7;
		d.ectn.format = DFLY_WIRE_ECTN_DELTA;
		d.ectn.epoch = 1;
		d.ectn.n = 8;
		dfly_wire_ectn_add(&d.ectn, 0, 9);
		len = dfly_wire_ctrl_encode(buf, sizeof(buf), NULL, &d);
		assert_true(len > 0);
		assert_int_equal(dfly_cpu_ring_put(&r.regs->cpu_rx, 3, 80, buf, (uint16_t)len), 0);
		ectn_cycle(&r, 80);
		assert_int_equal(stat(&r, FW_STAT_ECTN_GAPS), 2);
		assert_ectn_tbl(&r, exp);
	}
	bench_fini(&snd);
	bench_fini(&r);
}

/*
 * ASYNC, period 100, delta 4, min gap 10: the periodic FULL array as in mode 0, plus a FULL
 * array at once when an own counter (4-bit) has moved by 4 or more from the last array sent, up
 * or down, no sooner than 10 cycles after the last send of either kind.
 */
static void test_ectn_async(void **state)
{
	struct fw_params pa = ectn_mode_params(100, FW_ECTN_ASYNC);
	struct bench b, r;
	struct dfly_wire_ctrl m;
	uint64_t sends[16];
	unsigned nsends = 0;

	(void)state;
	bench_init(&b, 2, 4, 2, 6, &pa);
	bench_init(&r, 2, 4, 2, 5, &pa);
	for (uint64_t c = 0; c <= 230; c++) {
		uint16_t *p = b.regs->mech.ectn_partial;

		switch (c) {
		case 1:
			p[0] = 3; /* a move of 3: nothing */
			break;
		case 5:
			p[0] = 4; /* 4: due now, held until 10 (the periodic send at 0) */
			break;
		case 12:
			p[2] = 40; /* 0 → 15: due, held until 20 */
			break;
		case 30:
			p[0] = 1; /* down by 3 from 4: nothing */
			break;
		case 31:
			p[0] = 0; /* down by 4: at once (31 − 20 ≥ 10) */
			break;
		case 95:
			p[3] = 4; /* at once; the periodic send at 100 goes all the same */
			break;
		case 101:
			p[3] = 8; /* held until 110: 10 cycles after the periodic send */
			break;
		case 150:
			p[0] = 20;
			p[2] = 16; /* 15 → 15 (saturated): no move; group 0: at once */
			break;
		default:
			break;
		}
		ectn_cycle(&b, c);
		if (carry_ectn(&b, &r, &m, c) != 0) {
			assert_true(nsends < 16);
			sends[nsends++] = c;
			assert_int_equal(m.ectn.format, DFLY_WIRE_ECTN_FULL);
			assert_int_equal(m.ectn.epoch, c / 100);
			for (uint32_t D = 0; D < 9; D++)
				if (D != 1)
					assert_int_equal(m.ectn.ctr[dfly_wire_ectn_index(1, D)],
							 p[D] > 15 ? 15 : p[D]);
		}
		ectn_cycle(&r, c);
	}
	{
		static const uint64_t want[] = {0, 10, 20, 31, 95, 100, 110, 150, 200};

		assert_int_equal(nsends, sizeof(want) / sizeof(want[0]));
		for (unsigned i = 0; i < nsends; i++)
			assert_int_equal(sends[i], want[i]);
	}
	assert_int_equal(stat(&b, FW_STAT_ECTN_ASYNC_TX), 6);
	/* held at 5..9, 12..19, 101..109 */
	assert_int_equal(stat(&b, FW_STAT_ECTN_ASYNC_HELD), 5 + 8 + 9);
	assert_int_equal(stat(&b, FW_STAT_ECTN_TX), 3 * 9);
	assert_int_equal(stat(&b, FW_STAT_ECTN_TX_FULL), 3 * 9);
	/* the receiver holds the last array: 20 → 15, 16 → 15, 8 */
	{
		uint32_t exp[8] = {0};

		exp[dfly_wire_ectn_index(1, 0)] = 15;
		exp[dfly_wire_ectn_index(1, 2)] = 15;
		exp[dfly_wire_ectn_index(1, 3)] = 8;
		assert_ectn_tbl(&r, exp);
		assert_int_equal(stat(&r, FW_STAT_ECTN_RX), 9);
	}
	bench_fini(&b);
	bench_fini(&r);
}

/* splitmix64 of the combined-table test; its seed is printed (DFLY_TEST_SEED overrides). */
static uint64_t ectn_rng_state;

static uint32_t ectn_rng(void)
{
	uint64_t z = (ectn_rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (uint32_t)((z ^ (z >> 31)) >> 32);
}

/*
 * In every mode, a whole group (routers 4..7) exchanging random partial arrays for 40 periods of
 * 10 cycles, each frame delivered the cycle after it was queued: after every tick, each
 * router's published table is the sum of the arrays the other three last sent (4-bit), with
 * the own snapshot added when the own partial is not live. No gap anywhere.
 */
static void test_ectn_modes_sum(void **state)
{
	static const char *const names[] = {"full", "sparse", "incremental", "async"};
	uint64_t seed = 0x5eed0ec7aULL;
	const char *env = getenv("DFLY_TEST_SEED");

	(void)state;
	if (env != NULL)
		seed = strtoull(env, NULL, 0);
	printf("test_ectn_modes_sum: seed %#llx (set DFLY_TEST_SEED to override)\n",
	       (unsigned long long)seed);
	for (int mode = 0; mode < FW_ECTN_MODE_COUNT; mode++) {
		for (int live = 0; live < 2; live++) {
			struct fw_params par = ectn_mode_params(10, (enum fw_ectn_mode)mode);
			struct bench b[4];
			uint8_t sent[4][9] = {{0}}, seen[4][9] = {{0}};
			uint64_t frames = 0;

			par.ectn_own_live = live;
			par.ectn_refresh = 3;
			par.ectn_async_min_gap = 3;
			ectn_rng_state = seed;
			for (uint32_t i = 0; i < 4; i++)
				bench_init(&b[i], 2, 4, 2, 4 + i, &par);
			for (uint64_t c = 0; c < 400; c++) {
				/* now and then, a few counters move, by up to ±20 */
				for (uint32_t i = 0; i < 4; i++)
					for (uint32_t D = 0; D < 9; D++)
						if (D != 1 && ectn_rng() % 32 == 0)
							b[i].regs->mech.ectn_partial[D] =
							    (uint16_t)(ectn_rng() % 21);
				for (uint32_t i = 0; i < 4; i++)
					ectn_cycle(&b[i], c);
				/* carry this tick's frames: each sender's frames reach all three */
				for (uint32_t i = 0; i < 4; i++) {
					const struct dfly_cpu_slot *s;
					bool sent_now = false;

					while ((s = dfly_cpu_ring_peek(&b[i].regs->cpu_tx)) !=
					       NULL) {
						uint32_t peer, pp;

						assert_int_equal(dfly_topo_port_peer(b[i].topo,
										     4 + i, s->port,
										     &peer, &pp),
								 0);
						assert_int_equal(
						    dfly_cpu_ring_put(&b[peer - 4].regs->cpu_rx,
								      (uint16_t)pp, c, s->frame,
								      s->len),
						    0);
						dfly_cpu_ring_pop(&b[i].regs->cpu_tx);
						sent_now = true;
						frames++;
					}
					for (uint32_t D = 0; D < 9 && sent_now; D++) {
						uint16_t v = b[i].regs->mech.ectn_partial[D];

						sent[i][D] = (uint8_t)(v > 15 ? 15 : v);
					}
				}
				/* each table: the own array sent now (not live), the others' arrays
				 * delivered before this tick */
				for (uint32_t i = 0; i < 4; i++) {
					uint32_t exp[8];

					for (uint32_t D = 0; D < 9; D++) {
						uint32_t sum = live ? 0 : sent[i][D];

						if (D == 1)
							continue;
						for (uint32_t j = 0; j < 4; j++)
							if (j != i)
								sum += seen[j][D];
						exp[dfly_wire_ectn_index(1, D)] = sum;
					}
					assert_ectn_tbl(&b[i], exp);
				}
				/* the own snapshot counts at once; received arrays next tick */
				memcpy(seen, sent, sizeof(seen));
			}
			for (uint32_t i = 0; i < 4; i++) {
				if (stat(&b[i], FW_STAT_ECTN_GAPS) != 0 ||
				    stat(&b[i], FW_STAT_ECTN_DELTA_STALE) != 0 ||
				    stat(&b[i], FW_STAT_RX_ECTN_PARTIAL) !=
					stat(&b[i], FW_STAT_ECTN_RX))
					fail_msg("mode %s: router %u found gaps", names[mode],
						 4 + i);
				assert_int_equal(stat(&b[i], FW_STAT_ECTN_TX),
						 stat(&b[i], FW_STAT_ECTN_TX_FULL) +
						     stat(&b[i], FW_STAT_ECTN_TX_SPARSE) +
						     stat(&b[i], FW_STAT_ECTN_TX_DELTA));
				/* each mode used its own format (the test is not vacuous) */
				if (mode == FW_ECTN_SPARSE)
					assert_int_equal(stat(&b[i], FW_STAT_ECTN_TX_SPARSE),
							 40 * 3);
				else if (mode == FW_ECTN_INCREMENTAL)
					assert_int_equal(stat(&b[i], FW_STAT_ECTN_TX_DELTA),
							 (40 - 14) * 3); /* FULL: 14 of 40 */
				else if (mode == FW_ECTN_ASYNC)
					assert_true(stat(&b[i], FW_STAT_ECTN_ASYNC_TX) > 0);
				else
					assert_int_equal(stat(&b[i], FW_STAT_ECTN_TX_FULL), 40 * 3);
				bench_fini(&b[i]);
			}
			/* 40 periods x 3 frames x 4 routers, and more in async */
			if (mode == FW_ECTN_ASYNC)
				assert_true(frames > 40 * 12);
			else
				assert_int_equal(frames, 40 * 12);
		}
	}
}

/* ---------------------------------------------------------------------------------------------
 * Failover (routing.failover): LINK_STATE frames, the group rows, relayed pairs and their ageing.
 * p=2 a=4 h=2 (g = 9), router 5: group 1, rho 1; local ports 2-4, global ports 5 and 6.
 */

static void rx_ls(struct bench *b, uint32_t port, uint32_t src, uint16_t down,
		  const struct dfly_wire_fail_pair *e, uint8_t n, uint64_t now)
{
	struct dfly_wire_ctrl m;
	uint8_t buf[DFLY_CPU_FRAME_MAX];
	int len;

	memset(&m, 0, sizeof(m));
	m.type = DFLY_WIRE_CTRL_LINK_STATE;
	m.src_router = src;
	m.ls.h = (uint8_t)b->topo->h;
	m.ls.down = down;
	m.ls.n = n;
	memcpy(m.ls.e, e, n * sizeof(*e));
	len = dfly_wire_ctrl_encode(buf, sizeof(buf), NULL, &m);
	assert_true(len > 0);
	assert_int_equal(
	    dfly_cpu_ring_put(&b->regs->cpu_rx, (uint16_t)port, now, buf, (uint16_t)len), 0);
}

/* Empty cpu_tx: every frame a LINK_STATE equal to the first; @return frames, ports in @p mask. */
static unsigned drain_ls(struct bench *b, struct dfly_wire_ctrl *first, uint64_t *mask)
{
	const struct dfly_cpu_slot *s;
	unsigned n = 0;

	*mask = 0;
	while ((s = dfly_cpu_ring_peek(&b->regs->cpu_tx)) != NULL) {
		struct dfly_wire_ctrl m;

		assert_int_equal(dfly_wire_ctrl_decode(s->frame, s->len, &b->lim, &m), 0);
		if (m.type == DFLY_WIRE_CTRL_PB_STATE) { /* PB runs beside it */
			dfly_cpu_ring_pop(&b->regs->cpu_tx);
			continue;
		}
		assert_int_equal(m.type, DFLY_WIRE_CTRL_LINK_STATE);
		if (n == 0)
			*first = m;
		else
			assert_memory_equal(&m.ls, &first->ls, sizeof(m.ls));
		*mask |= 1ull << s->port;
		n++;
		dfly_cpu_ring_pop(&b->regs->cpu_tx);
	}
	return n;
}

static void fail_cycle(struct bench *b, uint64_t now)
{
	dfly_regs_tbl_acquire(b->regs, DFLY_TBL_FAIL);
	dfly_regs_tbl_acquire(b->regs, DFLY_TBL_PB);
	fw_tick(b->fw, now);
}

static struct dfly_tbl_fail acquire_fail(struct bench *b)
{
	struct dfly_tbl_fail t;

	memcpy(&t, dfly_regs_tbl_acquire(b->regs, DFLY_TBL_FAIL), sizeof(t));
	return t;
}

static void test_fail_link_state(void **state)
{
	struct fw_params par = pb_params(2, 512, 0);
	struct bench b;
	struct dfly_wire_ctrl m;
	struct dfly_tbl_fail t;
	uint64_t mask;
	uint32_t X, from4;
	const struct dfly_wire_fail_pair p08 = {.a = 0, .b = 8, .ttl = 2};
	const struct dfly_wire_fail_pair p08weak = {.a = 0, .b = 8, .ttl = 1};
	unsigned frames = 0;

	(void)state;
	par.fail_enabled = true;
	par.fail_period = 100;
	par.fail_age = 3;
	bench_init(&b, 2, 4, 2, 5, &par);
	X = dfly_topo_global_peer(b.topo, 5, 1).router / b.topo->a;
	from4 = dfly_topo_local_port(b.topo, 1, 0);
	/* nothing down: nothing said */
	for (uint64_t c = 0; c < 10; c++)
		fail_cycle(&b, c);
	assert_int_equal(drain_ls(&b, &m, &mask), 0);
	assert_int_equal(fw_pb_own(b.fw, 1), 0);

	/* global port 6 (q = 1) goes down: at once, on every port but that one */
	atomic_store(&b.regs->ports_down, 1ull << 6);
	fail_cycle(&b, 10);
	assert_int_equal(drain_ls(&b, &m, &mask), 4);
	assert_int_equal(mask, 0x3cu); /* ports 2-5 */
	assert_int_equal(m.src_router, 5);
	assert_int_equal(m.ls.down, 0x2);
	assert_int_equal(m.ls.n, 1);
	assert_int_equal(m.ls.e[0].a, X < 1 ? X : 1);
	assert_int_equal(m.ls.e[0].b, X < 1 ? 1 : X);
	assert_int_equal(m.ls.e[0].ttl, 3);
	assert_int_equal(stat(&b, FW_STAT_FAIL_CHANGES), 1);
	t = acquire_fail(&b);
	assert_int_equal(t.down[1], 0x2);
	assert_int_equal(t.npairs, 0); /* my group's links are in the rows */
	/* PB marks it saturated, every VC */
	assert_int_equal(fw_pb_own(b.fw, 1), 0x3);
	assert_int_equal(fw_pb_own(b.fw, 0), 0);

	/* router 4 (rho 0) says its port q = 0 is down and relays 0-8 with ttl 2: learnt, and
	 * passed on at once with ttl 1 */
	for (uint64_t c = 11; c < 20; c++)
		fail_cycle(&b, c);
	rx_ls(&b, from4, 4, 0x1, &p08, 1, 20);
	fail_cycle(&b, 20);
	assert_int_equal(drain_ls(&b, &m, &mask), 4);
	assert_int_equal(m.ls.n, 2);
	assert_int_equal(m.ls.e[1].a, 0);
	assert_int_equal(m.ls.e[1].b, 8);
	assert_int_equal(m.ls.e[1].ttl, 1);
	t = acquire_fail(&b);
	assert_int_equal(t.down[0], 0x1);
	assert_int_equal(t.down[1], 0x2);
	assert_int_equal(t.npairs, 1);
	assert_int_equal(t.pair[0][0], 0);
	assert_int_equal(t.pair[0][1], 8);
	assert_int_equal(stat(&b, FW_STAT_FAIL_LEARNT), 1);
	assert_int_equal(stat(&b, FW_STAT_FAIL_ROWS), 1);

	/* refreshes every period while something is down; router 4 refreshes at 250, a weaker
	 * copy (ttl 1) at 350 does not: the row and the pair are gone at the timer of 600
	 * (250 + 3 periods = 550), not before */
	for (uint64_t c = 21; c < 700; c++) {
		if (c == 250)
			rx_ls(&b, from4, 4, 0x1, &p08, 1, c);
		if (c == 350)
			rx_ls(&b, 5, dfly_topo_global_peer(b.topo, 5, 0).router, 0, &p08weak, 1, c);
		fail_cycle(&b, c);
		frames += drain_ls(&b, &m, &mask);
		t = acquire_fail(&b);
		if (c < 600) {
			assert_int_equal(t.npairs, 1);
			assert_int_equal(t.down[0], 0x1);
		} else {
			assert_int_equal(t.npairs, 0);
			assert_int_equal(t.down[0], 0);
		}
	}
	assert_int_equal(frames, 4 * 6); /* timers 100 .. 600 */
	assert_int_equal(stat(&b, FW_STAT_FAIL_AGED), 2);
	assert_int_equal(stat(&b, FW_STAT_FAIL_RX), 3);

	/* back up: said at once (no entries), on all five ports, then silence */
	atomic_store(&b.regs->ports_down, 0);
	fail_cycle(&b, 700);
	assert_int_equal(drain_ls(&b, &m, &mask), 5);
	assert_int_equal(mask, 0x7cu);
	assert_int_equal(m.ls.down, 0);
	assert_int_equal(m.ls.n, 0);
	t = acquire_fail(&b);
	assert_int_equal(t.down[1], 0);
	assert_int_equal(t.npairs, 0);
	assert_int_equal(fw_pb_own(b.fw, 1), 0);
	for (uint64_t c = 701; c < 1000; c++)
		fail_cycle(&b, c);
	assert_int_equal(drain_ls(&b, &m, &mask), 0);
	assert_int_equal(stat(&b, FW_STAT_FAIL_CHANGES), 2);
	bench_fini(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_create_errors),
	    cmocka_unit_test(test_pb_boundary_f2),
	    cmocka_unit_test(test_pb_boundary_f12),
	    cmocka_unit_test(test_pb_avg_all_vs_other),
	    cmocka_unit_test(test_pb_per_vc_vs_per_port),
	    cmocka_unit_test(test_pb_rx_rows),
	    cmocka_unit_test(test_pb_broadcast),
	    cmocka_unit_test(test_tbl_busy_single_thread),
	    cmocka_unit_test(test_tbl_torn_two_threads),
	    cmocka_unit_test(test_pb_inband),
	    cmocka_unit_test(test_timers),
	    cmocka_unit_test(test_ectn_rx_combined),
	    cmocka_unit_test(test_ectn_age),
	    cmocka_unit_test(test_ectn_broadcast),
	    cmocka_unit_test(test_ectn_sparse),
	    cmocka_unit_test(test_ectn_incremental),
	    cmocka_unit_test(test_ectn_async),
	    cmocka_unit_test(test_ectn_modes_sum),
	    cmocka_unit_test(test_fail_link_state),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
