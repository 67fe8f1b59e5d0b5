/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of the LIA / TPR / ACOR firmware (control/lia.c, spec §6, §4.11, §4.12):
 *  - the five remote-counter examples of spec §6.4 on h = 6 (g = 73): R_3's triangular
 *    weights, the {+2,+4} and {+3,+9} mixes, {+9,+11} making R_2 binding, the wrap-around of
 *    R_6 and R_-6, one flow of 60 packets at Δ = 8 giving R_1 = 40 and R_2 = 20;
 *  - the L1 rule at its boundaries (G = GPSTh is not busy, SGC−1 busy groups keep nothing);
 *  - the L2 rule for k = 0 (only R_±1) and m = 0 (only R_±k);
 *  - the three T levels at their boundaries;
 *  - the integer form equal to the real form on random counters;
 *  - the machine on a register file: the window of the running totals (B = 1 and B = 10),
 *    E = 100·inj + w100·stor, the tables it publishes, TPR ignoring the stored packets, ACOR's
 *    levels;
 *  - observe (sim.lia_remote) without LIA: E and R' computed, their running totals over the
 *    recomputations exact (lia_R_sums()), no table published.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <math.h>

#include "lia.h"

/* E (hundredths) of every group of @p t seen from group G: E[G + d] = e(d). */
static void set_E(const struct dfly_topo *t, uint32_t G, uint32_t *E, int32_t d, uint32_t v)
{
	int32_t x = ((int32_t)G + d) % (int32_t)t->g;

	E[x < 0 ? x + (int32_t)t->g : x] = v;
}

static struct dfly_topo *h6(void)
{
	struct dfly_topo *t = dfly_topo_create(6, 12, 6, 1, DFLY_ARR_PALMTREE, -1);

	assert_non_null(t);
	assert_int_equal(t->g, 73);
	return t;
}

/* Example 1: R_3 = Σ_{d=13}^{23} (6 − |d − 18|)/6 · G_d, nothing else. */
static void test_remote_r3(void **state)
{
	struct dfly_topo *t = h6();
	uint32_t E[73], G = 5;
	uint64_t want = 0;

	(void)state;
	for (int32_t d = -36; d <= 36; d++)
		set_E(t, G, E, d, d == 0 ? 0 : (uint32_t)(1000 + 37 * (d + 36)));
	for (int32_t d = 13; d <= 23; d++)
		want += (uint64_t)(6 - abs(d - 18)) * (1000 + 37 * (d + 36));
	assert_int_equal(lia_remote(t, G, E, 3), want);
	dfly_topo_destroy(t);
}

/* Examples 2 and 3: the mixes of LIA §6.1.2. */
static void test_remote_mixes(void **state)
{
	struct dfly_topo *t = h6();
	uint32_t E[73];
	const uint32_t G = 40, x = 700, y = 1300;

	(void)state;
	memset(E, 0, sizeof(E));
	set_E(t, G, E, 2, x);
	set_E(t, G, E, 4, y);
	assert_int_equal(lia_remote(t, G, E, 1), 2 * x + 4 * y);
	/* equal traffic: {+2,+4} and {+3,+9} make R_1 grow at the same rate */
	set_E(t, G, E, 4, x);
	assert_int_equal(lia_remote(t, G, E, 1), 6 * x);
	memset(E, 0, sizeof(E));
	set_E(t, G, E, 3, x);
	set_E(t, G, E, 9, x);
	assert_int_equal(lia_remote(t, G, E, 1), 6 * x);
	/* {+9,+11}: R_1 = 3/6 G9 + 1/6 G11, R_2 = 3/6 G9 + 5/6 G11: R_2 binds */
	memset(E, 0, sizeof(E));
	set_E(t, G, E, 9, x);
	set_E(t, G, E, 11, y);
	assert_int_equal(lia_remote(t, G, E, 1), 3 * x + 1 * y);
	assert_int_equal(lia_remote(t, G, E, 2), 3 * x + 5 * y);
	set_E(t, G, E, 11, x);
	assert_true(lia_remote(t, G, E, 2) > lia_remote(t, G, E, 1));
	dfly_topo_destroy(t);
}

/* Example 4: R_6 covers 31..36 and 37..41 ≡ −36..−32; R_−6 covers −31..−36 and −37..−41 ≡
 * 36..32. Both describe the link type l_±6 (LIA footnote 2). */
static void test_remote_wrap(void **state)
{
	static const struct {
		int32_t d;
		uint32_t w6, wm6;
	} w[] = {
	    {31, 1, 0},  {32, 2, 1},  {33, 3, 2},  {34, 4, 3},  {35, 5, 4},  {36, 6, 5},
	    {-36, 5, 6}, {-35, 4, 5}, {-34, 3, 4}, {-33, 2, 3}, {-32, 1, 2}, {-31, 0, 1},
	};
	struct dfly_topo *t = h6();
	uint32_t E[73];
	const uint32_t G = 0;

	(void)state;
	for (int32_t d = -36; d <= 36; d++) {
		uint64_t w6 = 0, wm6 = 0;

		if (d == 0)
			continue;
		for (unsigned i = 0; i < sizeof(w) / sizeof(w[0]); i++)
			if (w[i].d == d) {
				w6 = w[i].w6;
				wm6 = w[i].wm6;
			}
		memset(E, 0, sizeof(E));
		set_E(t, G, E, d, 100);
		assert_int_equal(lia_remote(t, G, E, 6), 100 * w6);
		assert_int_equal(lia_remote(t, G, E, -6), 100 * wm6);
	}
	dfly_topo_destroy(t);
}

/* Example 5: one flow, G_8 = 60 packets: R_1 = 40, R_2 = 20, every other R = 0. */
static void test_remote_single_flow(void **state)
{
	struct dfly_topo *t = h6();
	uint32_t E[73];
	const uint32_t G = 17;

	(void)state;
	memset(E, 0, sizeof(E));
	set_E(t, G, E, 8, 100 * 60);
	for (int32_t k = -6; k <= 6; k++) {
		uint64_t R, want = k == 1 ? 40 : k == 2 ? 20 : 0;

		if (k == 0)
			continue;
		R = lia_remote(t, G, E, k);
		/* R' = 100·h·R */
		assert_int_equal(R, 100 * 6 * want);
	}
	dfly_topo_destroy(t);
}

/* L1 at its boundaries: busy iff E > 100·GPSTh; keep L1 iff busy ≥ SGC. */
static void test_l1_rule(void **state)
{
	struct dfly_topo *t = h6();
	uint32_t E[73], router = 3 * 12 + 5, att[6];

	(void)state;
	for (uint32_t q = 0; q < 6; q++)
		att[q] = dfly_topo_group_of(t, dfly_topo_global_peer(t, router, q).router);
	memset(E, 0, sizeof(E));
	for (uint32_t q = 0; q < 6; q++)
		E[att[q]] = 500; /* G = 5 = GPSTh: not busy */
	assert_false(lia_use_l1(t, router, E, 500, 3));
	E[att[0]] = E[att[1]] = 501;
	assert_false(lia_use_l1(t, router, E, 500, 3)); /* SGC − 1 busy */
	E[att[4]] = 501;
	assert_true(lia_use_l1(t, router, E, 500, 3));
	/* groups not attached to this router never count */
	memset(E, 0, sizeof(E));
	for (uint32_t D = 0; D < 73; D++)
		E[D] = 10000;
	for (uint32_t q = 0; q < 6; q++)
		E[att[q]] = 0;
	assert_false(lia_use_l1(t, router, E, 500, 1));
	assert_true(lia_use_l1(t, router, E, 500, 0));
	dfly_topo_destroy(t);
}

/* L2 for k = 0 (|Δ| < h: only R_{s·1}) and m = 0 (|Δ| = k·h: only R_{s·k}). */
static void test_l2_rule(void **state)
{
	struct dfly_topo *t = h6();
	uint64_t R[13], th = 100 * 6 * 20;
	const uint32_t G = 10;

	(void)state;
	memset(R, 0, sizeof(R));
	/* Δ = +4: k = 0, m = 4: only R_1 */
	R[6 + 1] = th;
	assert_false(lia_keep_l2(t, G, (G + 4) % 73, R, th));
	R[6 + 1] = th + 1;
	assert_true(lia_keep_l2(t, G, (G + 4) % 73, R, th));
	R[6 + 1] = 0;
	R[6 + 2] = R[6 - 1] = 10 * th; /* not checked for Δ = +4 */
	assert_false(lia_keep_l2(t, G, (G + 4) % 73, R, th));
	/* Δ = −4: only R_−1 */
	assert_true(lia_keep_l2(t, G, (G + 73 - 4) % 73, R, th));
	/* Δ = +12: k = 2, m = 0: only R_2 */
	memset(R, 0, sizeof(R));
	R[6 + 3] = R[6 + 1] = 10 * th;
	assert_false(lia_keep_l2(t, G, (G + 12) % 73, R, th));
	R[6 + 2] = th + 1;
	assert_true(lia_keep_l2(t, G, (G + 12) % 73, R, th));
	/* Δ = +8: k = 1, m = 2: R_1 and R_2 */
	memset(R, 0, sizeof(R));
	R[6 + 2] = th + 1;
	assert_true(lia_keep_l2(t, G, (G + 8) % 73, R, th));
	R[6 + 2] = th;
	R[6 + 1] = th + 1;
	assert_true(lia_keep_l2(t, G, (G + 8) % 73, R, th));
	R[6 + 1] = th;
	assert_false(lia_keep_l2(t, G, (G + 8) % 73, R, th));
	/* Δ = +36 = 6·6: k = 6, m = 0: only R_6 */
	memset(R, 0, sizeof(R));
	R[6 + 6] = th + 1;
	assert_true(lia_keep_l2(t, G, (G + 36) % 73, R, th));
	assert_int_equal(lia_offset(t, G, (G + 36) % 73), 36);
	assert_int_equal(lia_offset(t, G, (G + 37) % 73), -36);
	dfly_topo_destroy(t);
}

/* Levels: benign iff G ≤ LI_l, mix iff LI_l < G ≤ LI_h, adversarial above (hundredths). */
static void test_levels(void **state)
{
	struct lia_params p;

	(void)state;
	lia_params_init(&p);
	assert_int_equal(lia_level(0, &p), DFLY_LIA_BENIGN);
	assert_int_equal(lia_level(300, &p), DFLY_LIA_BENIGN);
	assert_int_equal(lia_level(301, &p), DFLY_LIA_MIX);
	assert_int_equal(lia_level(500, &p), DFLY_LIA_MIX);
	assert_int_equal(lia_level(501, &p), DFLY_LIA_ADV);
	p.li_low = p.li_high = 4;
	assert_int_equal(lia_level(400, &p), DFLY_LIA_BENIGN);
	assert_int_equal(lia_level(401, &p), DFLY_LIA_ADV);
}

/* The integer form (E = 100·ext, R' = 100·h·R) decides exactly as the real form. */
static void test_integer_equals_real(void **state)
{
	struct dfly_topo *t = h6();
	uint32_t E[73], seed = 12345;
	double ext[73];
	const uint32_t G = 30;

	(void)state;
	for (int round = 0; round < 200; round++) {
		uint64_t R[13];
		double Rr[13];

		for (uint32_t D = 0; D < 73; D++) {
			uint32_t inj, stor;

			seed = seed * 1103515245u + 12345u;
			inj = (seed >> 16) % 12;
			seed = seed * 1103515245u + 12345u;
			stor = (seed >> 16) % 40;
			if (D == G)
				inj = stor = 0;
			E[D] = 100 * inj + 10 * stor;
			ext[D] = inj + 0.1 * stor;
		}
		for (int32_t k = -6; k <= 6; k++) {
			Rr[k + 6] = 0;
			R[k + 6] = 0;
			if (k == 0)
				continue;
			for (int32_t j = -5; j <= 5; j++) {
				int32_t x = ((int32_t)G + k * 6 + j) % 73;

				Rr[k + 6] += (6.0 - abs(j)) / 6.0 * ext[x < 0 ? x + 73 : x];
			}
			R[k + 6] = lia_remote(t, G, E, k);
			assert_true(fabs((double)R[k + 6] - 600.0 * Rr[k + 6]) < 1e-6);
		}
		for (uint32_t D = 0; D < 73; D++) {
			int32_t d = lia_offset(t, G, D), s = d < 0 ? -1 : 1, a = abs(d), k = a / 6,
				m = a % 6;
			bool keep = false;

			if (D == G)
				continue;
			if (k >= 1 && Rr[s * k + 6] > 20.0 + 1e-9)
				keep = true;
			if (m > 0 && Rr[s * (k + 1) + 6] > 20.0 + 1e-9)
				keep = true;
			assert_int_equal(lia_keep_l2(t, G, D, R, 100 * 6 * 20), keep);
		}
	}
	dfly_topo_destroy(t);
}

/* ACOR (§4.12 PROPOSAL): one level per window, thresholds strict. */
static void test_acor(void **state)
{
	struct lia_params p;

	(void)state;
	lia_params_init(&p);
	assert_int_equal(lia_acor_next(0, 15, &p), 0);
	assert_int_equal(lia_acor_next(0, 16, &p), 1);
	assert_int_equal(lia_acor_next(0, 1000, &p), 1); /* one level at a time */
	assert_int_equal(lia_acor_next(1, 50, &p), 1);
	assert_int_equal(lia_acor_next(1, 51, &p), 2);
	assert_int_equal(lia_acor_next(1, 5, &p), 1);
	assert_int_equal(lia_acor_next(1, 4, &p), 0);
	assert_int_equal(lia_acor_next(2, 15, &p), 2);
	assert_int_equal(lia_acor_next(2, 14, &p), 1);
	assert_int_equal(lia_acor_next(2, 0, &p), 1);
}

/* ---------------------------------------------------------------------------------------------
 * The machine on a register file (h = 2: g = 9, a = 4)
 */

struct rig {
	struct dfly_topo *t;
	struct dfly_regs *regs;
	struct lia *l;
};

static void rig_init(struct rig *r, const struct lia_params *p, uint32_t router)
{
	r->t = dfly_topo_create(2, 4, 2, 1, DFLY_ARR_PALMTREE, -1);
	assert_non_null(r->t);
	r->regs = calloc(1, sizeof(*r->regs));
	assert_non_null(r->regs);
	dfly_regs_init(r->regs, router, r->t->radix);
	for (uint32_t port = 0; port < r->t->p; port++)
		r->regs->nvcs[port] = 3;
	r->l = lia_create(r->t, router, r->regs, p);
	assert_non_null(r->l);
}

static void rig_fini(struct rig *r)
{
	lia_destroy(r->l);
	free(r->regs);
	dfly_topo_destroy(r->t);
}

/* The ASIC's step of @p now (acknowledging the tables), then the firmware's tick. */
static void rig_tick(struct rig *r, uint64_t now)
{
	dfly_regs_tbl_acquire(r->regs, DFLY_TBL_LIA);
	dfly_regs_tbl_acquire(r->regs, DFLY_TBL_UGAL);
	lia_tick(r->l, now);
}

/* Per-cycle window (B = 1): a packet counted at cycle c is in E from c to c + HW − 1. */
static void test_window_exact(void **state)
{
	struct lia_params p;
	struct rig r;
	const uint32_t D = 5;

	(void)state;
	lia_params_init(&p);
	p.enabled = true;
	p.window = 20;
	p.bucket = 1;
	rig_init(&r, &p, 0); /* group 0 */
	for (uint64_t c = 0; c < 100; c++) {
		if (c == 30 || c == 31 || c == 45)
			r.regs->mech.lia_injected[D]++;
		rig_tick(&r, c);
		{
			uint32_t n =
			    (c >= 30 && c < 50) + (c >= 31 && c < 51) + (c >= 45 && c < 65);

			if (lia_E(r.l)[D] != 100 * n)
				fail_msg("cycle %llu: E = %u, expected %u", (unsigned long long)c,
					 lia_E(r.l)[D], 100 * n);
		}
	}
	/* stored packets weigh w = 0.1 */
	r.regs->mech.lia_stored[D] = 7;
	rig_tick(&r, 100);
	assert_int_equal(lia_E(r.l)[D], 70);
	rig_fini(&r);
}

/* Buckets of 10: the window spans HW to HW + B − 1 cycles. */
static void test_window_buckets(void **state)
{
	struct lia_params p;
	struct rig r;
	const uint32_t D = 3;

	(void)state;
	lia_params_init(&p);
	p.enabled = true; /* 200 cycles, buckets of 10 */
	rig_init(&r, &p, 0);
	for (uint64_t c = 0; c <= 420; c++) {
		if (c == 5)
			r.regs->mech.lia_injected[D]++; /* in the bucket of cycles 1..10 */
		rig_tick(&r, c);
		if (c >= 5 && c < 210)
			assert_int_equal(lia_E(r.l)[D], 100);
		if (c >= 210)
			assert_int_equal(lia_E(r.l)[D], 0);
	}
	rig_fini(&r);
}

/* Tables: levels and T per destination group, L1 and L2; TPR ignores stored packets. */
static void test_tables(void **state)
{
	struct lia_params p;
	struct rig r;
	const struct dfly_tbl_lia *tl;
	const struct dfly_tbl_ugal *tu;

	(void)state;
	lia_params_init(&p);
	p.enabled = true;
	p.bucket = 1;
	rig_init(&r, &p, 1);              /* router 1, group 0 */
	r.regs->mech.lia_injected[2] = 4; /* mix */
	r.regs->mech.lia_injected[3] = 6; /* adversarial */
	r.regs->mech.lia_stored[4] = 30;  /* 3.0: benign */
	r.regs->mech.lia_stored[5] = 31;  /* 3.1: mix */
	rig_tick(&r, 0);
	rig_tick(&r, 1); /* acknowledge */
	tl = dfly_regs_tbl_acquire(r.regs, DFLY_TBL_LIA);
	tu = dfly_regs_tbl_acquire(r.regs, DFLY_TBL_UGAL);
	assert_int_equal(tl->level[1], DFLY_LIA_BENIGN);
	assert_int_equal(tl->level[2], DFLY_LIA_MIX);
	assert_int_equal(tl->level[3], DFLY_LIA_ADV);
	assert_int_equal(tl->level[4], DFLY_LIA_BENIGN);
	assert_int_equal(tl->level[5], DFLY_LIA_MIX);
	assert_int_equal(tu->t[1], 15 * 8);
	assert_int_equal(tu->t[2], -3 * 8);
	assert_int_equal(tu->t[3], -15 * 8);
	/* h = 2: R_1 of group 0 sums offsets 1..3 with weights 1, 2, 1 → (1·0 + 2·4 + 1·6)/2 = 7
	 * packets (stored ones at 4 and 5 are outside); RCTh 20: L2 skipped everywhere */
	assert_int_equal(lia_R(r.l)[2 + 1], 100 * (2 * 4 + 1 * 6));
	for (uint32_t D = 1; D < 9; D++)
		assert_int_equal(tl->l2[D], 0);
	assert_int_equal(tl->use_l1, 0);
	rig_fini(&r);

	/* shorten = false (LIA §6.1.1): the same counters, levels and T, but L1 and L2 kept for
	 * every destination group (Path A LGL), though every R is below RCTh and no group busy */
	p.shorten = false;
	rig_init(&r, &p, 1);
	r.regs->mech.lia_injected[2] = 4;
	r.regs->mech.lia_injected[3] = 6;
	rig_tick(&r, 0);
	rig_tick(&r, 1);
	tl = dfly_regs_tbl_acquire(r.regs, DFLY_TBL_LIA);
	tu = dfly_regs_tbl_acquire(r.regs, DFLY_TBL_UGAL);
	assert_int_equal(lia_R(r.l)[2 + 1], 100 * (2 * 4 + 1 * 6));
	assert_int_equal(tl->use_l1, 1);
	for (uint32_t D = 1; D < 9; D++)
		assert_int_equal(tl->l2[D], 1);
	assert_int_equal(tl->level[2], DFLY_LIA_MIX);
	assert_int_equal(tl->level[3], DFLY_LIA_ADV);
	assert_int_equal(tu->t[3], -15 * 8);
	rig_fini(&r);
	p.shorten = true;

	p.tpr = true;
	rig_init(&r, &p, 1);
	r.regs->mech.lia_stored[4] = 1000;
	rig_tick(&r, 0);
	assert_int_equal(lia_E(r.l)[4], 0);
	rig_fini(&r);
}

/* Observe without LIA running: the counters and their running totals, no table published. */
static void test_observe(void **state)
{
	struct lia_params p;
	struct rig r;
	uint64_t n, want = 0;
	const uint64_t *sum;

	(void)state;
	lia_params_init(&p);
	p.observe = true; /* enabled stays false: val, say */
	p.window = 20;
	p.bucket = 1;
	rig_init(&r, &p, 1); /* router 1, group 0; h = 2 */
	for (uint64_t c = 0; c < 50; c++) {
		if (c == 10 || c == 12)
			r.regs->mech.lia_injected[2]++; /* offset +2: R_1 weight 2 */
		if (c == 11)
			r.regs->mech.lia_injected[3]++; /* offset +3: R_1 weight 1, R_2 weight 1 */
		lia_tick(r.l, c);
		/* R'_1 = 100·(2·inj_2 + 1·inj_3) while each is in its 20-cycle window */
		want +=
		    100 * (2 * ((c >= 10 && c < 30) + (c >= 12 && c < 32)) + (c >= 11 && c < 31));
	}
	sum = lia_R_sums(r.l, &n);
	assert_int_equal(n, 50);
	assert_int_equal(sum[2 + 1], want);
	assert_int_equal(sum[2 + 1], 100 * (2 * 20 + 2 * 20 + 20));
	/* R_2 (offsets 3..5, weights 1, 2, 1): inj_3 with weight 1 */
	assert_int_equal(sum[2 + 2], 100 * 20);
	assert_int_equal(sum[2 - 1] + sum[2 - 2], 0);
	assert_int_equal(dfly_regs_tbl_gen(r.regs, DFLY_TBL_LIA), 0);
	assert_int_equal(dfly_regs_tbl_gen(r.regs, DFLY_TBL_UGAL), 0);
	rig_fini(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_remote_r3),      cmocka_unit_test(test_remote_mixes),
	    cmocka_unit_test(test_remote_wrap),    cmocka_unit_test(test_remote_single_flow),
	    cmocka_unit_test(test_l1_rule),        cmocka_unit_test(test_l2_rule),
	    cmocka_unit_test(test_levels),         cmocka_unit_test(test_integer_equals_real),
	    cmocka_unit_test(test_acor),           cmocka_unit_test(test_window_exact),
	    cmocka_unit_test(test_window_buckets), cmocka_unit_test(test_tables),
	    cmocka_unit_test(test_observe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
