/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of the transient-experiment recorder (traffic/transient.c; docs/spec.md §7.4,
 * §8.6): synthetic deliveries go in, and the bins, the carried series, the moving average, the
 * reaction time, the steady and peak figures and the CSV text come out with exact expected
 * values. Negative tests first. No fabric, no randomness: every series is built by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transient.h"

/* A delivered packet generated at @p gen, tail delivered at @p tail. */
static struct dfly_delivery pkt(uint64_t gen, uint64_t tail, bool misrouted, bool nonmin)
{
	struct dfly_delivery d = {
	    .gen_cycle = gen,
	    .inj_cycle = gen,
	    .tail_cycle = tail,
	    .len = 8,
	    .nonmin = nonmin,
	    .global_misrouted = misrouted,
	};

	return d;
}

static struct dfly_transient *make(uint64_t t0, uint64_t pre, uint64_t post, uint32_t bin,
				   enum dfly_transient_by by)
{
	struct dfly_transient_params p = {.t0 = t0, .pre = pre, .post = post, .bin = bin, .by = by};
	struct dfly_transient *rec = dfly_transient_create(&p);

	assert_non_null(rec);
	return rec;
}

/* Add @p per packets generated at cycle t0 + rel (latency @p lat), @p mis of them misrouted. */
static void add_at(struct dfly_transient *rec, int64_t rel, unsigned per, unsigned mis,
		   uint64_t lat)
{
	uint64_t gen = (uint64_t)((int64_t)dfly_transient_params(rec)->t0 + rel);

	for (unsigned k = 0; k < per; k++) {
		struct dfly_delivery d = pkt(gen, gen + lat, k < mis, k < mis);

		assert_true(dfly_transient_add(rec, &d));
	}
}

static void summarize(const struct dfly_transient *rec, struct dfly_transient_summary *s)
{
	assert_int_equal(dfly_transient_summarize(rec, s), 0);
}

static void test_create_invalid(void **state)
{
	struct dfly_transient_params p = {.t0 = 100, .pre = 10, .post = 0};

	(void)state;
	errno = 0;
	assert_null(dfly_transient_create(&p));
	assert_int_equal(errno, EINVAL);
	p.post = 10;
	p.steady_pct = 101;
	errno = 0;
	assert_null(dfly_transient_create(&p));
	assert_int_equal(errno, EINVAL);
	p.steady_pct = 0;
	p.pre = UINT32_MAX;
	errno = 0;
	assert_null(dfly_transient_create(&p));
	assert_int_equal(errno, EINVAL);
	dfly_transient_destroy(NULL);
}

static void test_defaults_and_rounding(void **state)
{
	struct dfly_transient_params p = {.t0 = 100, .pre = 5, .post = 10, .bin = 4};
	struct dfly_transient *rec = dfly_transient_create(&p);
	const struct dfly_transient_params *e;

	(void)state;
	assert_non_null(rec);
	e = dfly_transient_params(rec);
	assert_int_equal(e->bin, 4);
	assert_int_equal(e->pre, 8);
	assert_int_equal(e->post, 12);
	assert_int_equal(e->ma_cycles, 10);
	assert_true(e->tol_pp == 5.0);
	assert_int_equal(e->steady_pct, 20);
	assert_int_equal(e->by, DFLY_TRANSIENT_BY_GEN);
	assert_int_equal(dfly_transient_nbins(rec), 5);
	assert_int_equal(dfly_transient_bin_t0(rec), 2);
	assert_int_equal(dfly_transient_bin_get(rec, 0)->cycle, -8);
	assert_int_equal(dfly_transient_bin_get(rec, 1)->cycle, -4);
	assert_int_equal(dfly_transient_bin_get(rec, 2)->cycle, 0);
	assert_int_equal(dfly_transient_bin_get(rec, 4)->cycle, 8);
	dfly_transient_destroy(rec);

	p.bin = 0; /* 0 means 1 */
	rec = dfly_transient_create(&p);
	assert_non_null(rec);
	assert_int_equal(dfly_transient_params(rec)->bin, 1);
	assert_int_equal(dfly_transient_nbins(rec), 15);
	dfly_transient_destroy(rec);
}

/* Window [t0 − pre, t0 + post) = [90, 120): 89 and 120 are out, 90 and 119 in. */
static void test_out_of_window(void **state)
{
	struct dfly_transient *rec = make(100, 10, 20, 1, DFLY_TRANSIENT_BY_GEN);
	struct dfly_delivery d;
	struct dfly_transient_summary s;

	(void)state;
	d = pkt(89, 95, true, true);
	assert_false(dfly_transient_add(rec, &d));
	d = pkt(120, 130, true, true);
	assert_false(dfly_transient_add(rec, &d));
	d = pkt(UINT64_MAX - 5, UINT64_MAX, true, true);
	assert_false(dfly_transient_add(rec, &d));
	d = pkt(0, 7, true, true);
	assert_false(dfly_transient_add(rec, &d));
	d = pkt(90, 97, false, false);
	assert_true(dfly_transient_add(rec, &d));
	d = pkt(119, 125, false, false);
	assert_true(dfly_transient_add(rec, &d));
	assert_int_equal(dfly_transient_bin_get(rec, 0)->packets, 1);
	assert_int_equal(dfly_transient_bin_get(rec, 29)->packets, 1);
	summarize(rec, &s);
	assert_int_equal(s.packets, 2);
	assert_true(s.steady_misrouted == 0.0);
	dfly_transient_destroy(rec);

	/* a window that starts before cycle 0 (t0 < pre) */
	rec = make(3, 10, 5, 1, DFLY_TRANSIENT_BY_GEN);
	d = pkt(0, 4, false, false);
	assert_true(dfly_transient_add(rec, &d));
	assert_int_equal(dfly_transient_bin_get(rec, 7)->packets, 1);
	assert_int_equal(dfly_transient_bin_get(rec, 7)->cycle, -3);
	d = pkt(8, 9, false, false);
	assert_false(dfly_transient_add(rec, &d));
	dfly_transient_destroy(rec);
}

/* Exact bins of width 5 around t0 = 100, pre 10, post 20. */
static void test_bins_exact(void **state)
{
	struct dfly_transient *rec = make(100, 10, 20, 5, DFLY_TRANSIENT_BY_GEN);
	struct dfly_transient_point pts[6];
	const struct dfly_transient_bin *b;
	struct dfly_delivery d[] = {
	    pkt(90, 110, true, false),   /* bin 0 (cycle -10), latency 20 */
	    pkt(94, 99, false, true),    /* bin 0, latency 5 */
	    pkt(100, 130, false, false), /* bin 2 (cycle 0), latency 30 */
	    pkt(119, 125, true, true),   /* bin 5 (cycle 15), latency 6 */
	};

	(void)state;
	for (unsigned i = 0; i < 4; i++)
		assert_true(dfly_transient_add(rec, &d[i]));
	assert_int_equal(dfly_transient_nbins(rec), 6);
	b = dfly_transient_bin_get(rec, 0);
	assert_int_equal(b->cycle, -10);
	assert_int_equal(b->packets, 2);
	assert_int_equal(b->lat_sum, 25);
	assert_int_equal(b->lat_max, 20);
	assert_int_equal(b->misrouted, 1);
	assert_int_equal(b->nonmin, 1);
	assert_int_equal(dfly_transient_bin_get(rec, 1)->packets, 0);
	b = dfly_transient_bin_get(rec, 2);
	assert_int_equal(b->packets, 1);
	assert_int_equal(b->lat_sum, 30);
	assert_int_equal(b->misrouted, 0);
	b = dfly_transient_bin_get(rec, 5);
	assert_int_equal(b->cycle, 15);
	assert_int_equal(b->packets, 1);
	assert_int_equal(b->lat_max, 6);
	assert_int_equal(b->misrouted, 1);
	assert_int_equal(b->nonmin, 1);

	dfly_transient_series(rec, pts);
	assert_true(pts[0].lat_avg == 12.5);
	assert_true(pts[0].misrouted_pct == 50.0);
	assert_true(pts[0].nonmin_pct == 50.0);
	/* empty bin 1 carries bin 0's averages */
	assert_int_equal(pts[1].packets, 0);
	assert_true(pts[1].lat_avg == 12.5);
	assert_true(pts[1].misrouted_pct == 50.0);
	assert_int_equal(pts[1].lat_max, 0);
	assert_true(pts[2].lat_avg == 30.0);
	assert_true(pts[2].misrouted_pct == 0.0);
	assert_true(pts[3].lat_avg == 30.0);
	assert_true(pts[4].misrouted_pct == 0.0);
	assert_true(pts[5].lat_avg == 6.0);
	assert_true(pts[5].misrouted_pct == 100.0);
	assert_true(pts[5].nonmin_pct == 100.0);
	/* MA over ceil(10 / 5) = 2 bins */
	assert_true(pts[0].misrouted_ma == 50.0);
	assert_true(pts[1].misrouted_ma == 50.0);
	assert_true(pts[2].misrouted_ma == 25.0);
	assert_true(pts[5].misrouted_ma == 50.0);
	dfly_transient_destroy(rec);
}

/* The same packet lands in different bins by generation and by tail cycle. */
static void test_gen_vs_tail(void **state)
{
	struct dfly_transient *g = make(100, 10, 40, 10, DFLY_TRANSIENT_BY_GEN);
	struct dfly_transient *t = make(100, 10, 40, 10, DFLY_TRANSIENT_BY_TAIL);
	struct dfly_delivery d = pkt(95, 130, true, true);
	struct dfly_delivery old = pkt(50, 105, false, false);

	(void)state;
	assert_true(dfly_transient_add(g, &d));
	assert_true(dfly_transient_add(t, &d));
	assert_int_equal(dfly_transient_bin_get(g, 0)->packets, 1); /* cycle -10 */
	assert_int_equal(dfly_transient_bin_get(g, 0)->lat_sum, 35);
	assert_int_equal(dfly_transient_bin_get(g, 4)->packets, 0);
	assert_int_equal(dfly_transient_bin_get(t, 4)->packets, 1); /* cycle 30 */
	assert_int_equal(dfly_transient_bin_get(t, 4)->cycle, 30);
	assert_int_equal(dfly_transient_bin_get(t, 4)->lat_sum, 35);
	assert_int_equal(dfly_transient_bin_get(t, 0)->packets, 0);
	/* generated before the window, delivered inside it: only the tail binning sees it */
	assert_false(dfly_transient_add(g, &old));
	assert_true(dfly_transient_add(t, &old));
	assert_int_equal(dfly_transient_bin_get(t, 1)->packets, 1); /* cycle 0 */
	assert_int_equal(dfly_transient_bin_get(t, 1)->lat_max, 55);
	dfly_transient_destroy(g);
	dfly_transient_destroy(t);
}

/*
 * Step: 0% misrouted until cycle 37, 100% from 37 on (one packet per cycle, bins of 1). The
 * steady value is 100 and the 10-cycle MA at cycle c counts the 100s among c−9 … c: it first
 * reaches the band [95, 105] when all ten are 100, i.e. c − 9 = 37. Reaction time = 46.
 * Latency: 20 before t0, a bump of 80 for cycles 10 … 19, 30 afterwards.
 */
static void test_reaction_step(void **state)
{
	struct dfly_transient *rec = make(1000, 50, 200, 1, DFLY_TRANSIENT_BY_GEN);
	struct dfly_transient_summary s;

	(void)state;
	for (int64_t c = -50; c < 200; c++)
		add_at(rec, c, 1, c >= 37, c < 0 ? 20 : c >= 10 && c < 20 ? 80 : 30);
	dfly_transient_end_run(rec);
	summarize(rec, &s);
	assert_int_equal(s.runs, 1);
	assert_int_equal(s.packets, 250);
	assert_int_equal(s.reaction, 46);
	assert_true(s.steady_misrouted == 100.0);
	assert_true(s.steady_nonmin == 100.0);
	assert_true(s.pre_misrouted == 0.0);
	assert_true(s.pre_lat == 20.0);
	assert_true(s.peak_lat == 80.0);
	assert_int_equal(s.peak_cycle, 10);
	assert_int_equal(s.lat_max, 80);
	assert_true(s.steady_lat == 30.0);
	dfly_transient_destroy(rec);
}

/*
 * Steady value 0 (MIN-like decay, why the band is in percentage points): 100% until cycle 20,
 * 0% from then on. The MA is ≤ 5 only when all ten bins are 0: c − 9 = 20, reaction time 29.
 */
static void test_reaction_to_zero(void **state)
{
	struct dfly_transient *rec = make(1000, 20, 100, 1, DFLY_TRANSIENT_BY_GEN);
	struct dfly_transient_summary s;

	(void)state;
	for (int64_t c = -20; c < 100; c++)
		add_at(rec, c, 1, c < 20, 10);
	summarize(rec, &s);
	assert_true(s.steady_misrouted == 0.0);
	assert_true(s.pre_misrouted == 100.0);
	assert_int_equal(s.reaction, 29);
	dfly_transient_destroy(rec);
}

/*
 * Overshoot: 0% before t0, 100% for cycles 0 … 49, then 50% (two packets per cycle). Steady 50.
 * The MA crosses the band on the way up (cycles 4–5) but leaves it: it only counts once it
 * stays. At cycle c ≥ 50 the window holds k = 59 − c bins at 100: MA = 50 + 5k, inside the band
 * [45, 55] (edges included) for k ≤ 1, i.e. from c = 58. Reaction time = 58.
 */
static void test_reaction_overshoot(void **state)
{
	struct dfly_transient *rec = make(1000, 20, 300, 1, DFLY_TRANSIENT_BY_GEN);
	struct dfly_transient_point pts[320];
	struct dfly_transient_summary s;

	(void)state;
	for (int64_t c = -20; c < 300; c++)
		add_at(rec, c, 2, c < 0 ? 0 : c < 50 ? 2 : 1, 10);
	dfly_transient_series(rec, pts);
	assert_true(pts[20 + 4].misrouted_ma == 50.0); /* in the band on the way up */
	assert_true(pts[20 + 57].misrouted_ma == 60.0);
	assert_true(pts[20 + 58].misrouted_ma == 55.0);
	summarize(rec, &s);
	assert_true(s.steady_misrouted == 50.0);
	assert_int_equal(s.reaction, 58);
	dfly_transient_destroy(rec);
}

/* A square wave (period 100: 50 cycles at 0%, 50 at 100%) never settles: -1. */
static void test_reaction_never(void **state)
{
	struct dfly_transient *rec = make(1000, 0, 1000, 1, DFLY_TRANSIENT_BY_GEN);
	struct dfly_transient_summary s;

	(void)state;
	for (int64_t c = 0; c < 1000; c++)
		add_at(rec, c, 1, c % 100 >= 50, 10);
	summarize(rec, &s);
	assert_true(s.steady_misrouted == 50.0);
	assert_int_equal(s.reaction, -1);
	assert_true(s.pre_misrouted == 0.0);
	dfly_transient_destroy(rec);
}

/*
 * Empty bins carry the previous value: no packets for cycles −10 … −6, 100% for −5 … 29, none
 * for 30 … 59, 100% for 60 … 99. The leading empty bins (before any packet) read 0; the gap
 * carries 100, so the MA is 100 from cycle 4 on (window −5 … 4) and the reaction time is 4. Had
 * the gap read 0, it would be 69.
 */
static void test_empty_bins_carry(void **state)
{
	struct dfly_transient *rec = make(1000, 10, 100, 1, DFLY_TRANSIENT_BY_GEN);
	struct dfly_transient_point pts[110];
	struct dfly_transient_summary s;

	(void)state;
	for (int64_t c = -5; c < 100; c++)
		if (c < 30 || c >= 60)
			add_at(rec, c, 1, 1, 40);
	dfly_transient_series(rec, pts);
	assert_int_equal(pts[0].packets, 0);
	assert_true(pts[0].misrouted_pct == 0.0);
	assert_true(pts[0].lat_avg == 0.0);
	assert_int_equal(pts[10 + 45].packets, 0);
	assert_true(pts[10 + 45].misrouted_pct == 100.0);
	assert_true(pts[10 + 45].lat_avg == 40.0);
	assert_true(pts[10 + 45].misrouted_ma == 100.0);
	assert_true(pts[10 + 3].misrouted_ma == 90.0);
	assert_true(pts[10 + 4].misrouted_ma == 100.0);
	summarize(rec, &s);
	assert_int_equal(s.reaction, 4);
	assert_true(s.steady_misrouted == 100.0);
	assert_true(s.steady_lat == 40.0);
	dfly_transient_destroy(rec);
}

/* Bins of 5 cycles: the 10-cycle MA spans 2 bins; a step at cycle 35 settles at bin 40. */
static void test_reaction_wide_bins(void **state)
{
	struct dfly_transient *rec = make(1000, 20, 200, 5, DFLY_TRANSIENT_BY_GEN);
	struct dfly_transient_summary s;

	(void)state;
	for (int64_t c = -20; c < 200; c++)
		add_at(rec, c, 1, c >= 35, 10);
	summarize(rec, &s);
	assert_int_equal(s.reaction, 40);
	dfly_transient_destroy(rec);
}

/*
 * Two runs (seeds) accumulate: run 1 with t0 = 100, run 2 rebased to t0 = 500. Bin 0 gets one
 * packet of latency 10 from run 1 and three of latency 30 from run 2: the reported average is
 * over all packets, (10 + 90) / 4 = 25, and 1 of 4 misrouted = 25%.
 */
static void test_several_runs(void **state)
{
	struct dfly_transient *rec = make(100, 0, 10, 1, DFLY_TRANSIENT_BY_GEN);
	struct dfly_transient_point pts[10];
	struct dfly_transient_summary s;
	struct dfly_delivery d;

	(void)state;
	d = pkt(100, 110, true, true);
	assert_true(dfly_transient_add(rec, &d));
	dfly_transient_end_run(rec);
	dfly_transient_set_t0(rec, 500);
	d = pkt(100, 130, false, false);
	assert_false(dfly_transient_add(rec, &d)); /* run 1's window is gone */
	for (int k = 0; k < 3; k++) {
		d = pkt(500, 530, false, false);
		assert_true(dfly_transient_add(rec, &d));
	}
	dfly_transient_end_run(rec);
	dfly_transient_series(rec, pts);
	assert_int_equal(pts[0].packets, 4);
	assert_true(pts[0].lat_avg == 25.0);
	assert_int_equal(pts[0].lat_max, 30);
	assert_true(pts[0].misrouted_pct == 25.0);
	summarize(rec, &s);
	assert_int_equal(s.runs, 2);
	assert_int_equal(s.packets, 4);
	dfly_transient_destroy(rec);
}

/* The CSV text, byte for byte. */
static void test_csv(void **state)
{
	struct dfly_transient *rec = make(10, 2, 3, 1, DFLY_TRANSIENT_BY_GEN);
	struct dfly_delivery d[] = {
	    pkt(8, 20, false, false),
	    pkt(10, 13, true, true),
	    pkt(10, 17, false, true),
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	for (unsigned i = 0; i < 3; i++)
		assert_true(dfly_transient_add(rec, &d[i]));
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(dfly_transient_write_csv(rec, f), 0);
	assert_int_equal(fclose(f), 0);
	assert_string_equal(buf, "cycle,packets,lat_avg,lat_max,misrouted_pct,nonmin_pct,"
				 "misrouted_ma10\n"
				 "-2,1,12.000,12,0.000,0.000,0.000\n"
				 "-1,0,12.000,0,0.000,0.000,0.000\n"
				 "0,2,5.000,7,50.000,100.000,16.667\n"
				 "1,0,5.000,0,50.000,100.000,25.000\n"
				 "2,0,5.000,0,50.000,100.000,30.000\n");
	free(buf);

	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(dfly_transient_dump_summary(rec, f), 0);
	assert_int_equal(fclose(f), 0);
	/* steady = last bin (20% of 3 bins rounds to 1) = 50; the MA never gets within 5 pp */
	assert_non_null(strstr(buf, "reaction time:      -1 (never settles)"));
	free(buf);
	dfly_transient_destroy(rec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_create_invalid),
	    cmocka_unit_test(test_defaults_and_rounding),
	    cmocka_unit_test(test_out_of_window),
	    cmocka_unit_test(test_bins_exact),
	    cmocka_unit_test(test_gen_vs_tail),
	    cmocka_unit_test(test_reaction_step),
	    cmocka_unit_test(test_reaction_to_zero),
	    cmocka_unit_test(test_reaction_overshoot),
	    cmocka_unit_test(test_reaction_never),
	    cmocka_unit_test(test_empty_bins_carry),
	    cmocka_unit_test(test_reaction_wide_bins),
	    cmocka_unit_test(test_several_runs),
	    cmocka_unit_test(test_csv),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
