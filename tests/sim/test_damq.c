/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DAMQ input buffers on a whole network (spec §3.9, thesis §5.3.1; issue 25): h2 with a 75%
 * reserve per VC under UN (MIN) and ADV+1 (VAL), exact figures for a fixed seed and the
 * invariants after the drain (packets conserved, credits and the pools back, queues empty);
 * a 100% reserve gives static partitioning's run bit for bit; a 0% reserve deadlocks at
 * saturation (thesis §5.3.1) and the watchdog reports it. Every run prints its seed.
 */
#include <string.h>

#include "asic.h"
#include "simtest.h"

/* Pool allocations and pool phits still in use, summed over every output of every router. */
static void pool_sum(const struct dfly_fabric *fab, uint64_t *allocs, uint64_t *used)
{
	const struct dfly_topo *t = dfly_fabric_topo(fab);

	*allocs = *used = 0;
	for (uint32_t r = 0; r < t->routers; r++) {
		for (uint32_t p = 0; p < t->radix; p++) {
			struct asic_damq_stat st;

			asic_damq_stat(dfly_fabric_asic(fab, r), p, &st);
			*allocs += st.pool_allocs;
			*used += st.pool_used;
		}
	}
}

/* One run of h2 with @p sets and buffers.mode/damq_reserve appended; pool figures out. */
static void run_buf(const char *const *sets, int n, const char *mode, const char *reserve,
		    struct dfly_sim_result *r, uint64_t *allocs)
{
	const char *all[16];
	struct dfly_netcfg cfg;
	struct dfly_fabric *fab;
	uint64_t used;

	assert_true(n + 2 <= 16);
	memcpy(all, sets, (size_t)n * sizeof(*sets));
	all[n] = mode;
	all[n + 1] = reserve;
	load_cfg(&cfg, "h2", all, n + 2);
	fab = run_keep(&cfg, 11, r);
	pool_sum(fab, allocs, &used);
	printf("# %s %s: pool allocations %llu\n", mode, reserve, (unsigned long long)*allocs);
	assert_int_equal(used, 0); /* every pool phit came back with its credit */
	dfly_fabric_destroy(fab);
	r->wall_s = 0;
}

/*
 * @p sets under static buffers, DAMQ 100% and DAMQ 75%: the first two identical, no pool; the
 * third with the pool used and the figures given.
 */
static void damq_vs_static(const char *const *sets, int n, uint64_t dlv, uint64_t gen,
			   uint64_t window, double lat)
{
	struct dfly_sim_result st, full, d75;
	uint64_t a_st, a_full, a_75;

	run_buf(sets, n, "buffers.mode=static", "buffers.damq_reserve=0.75", &st, &a_st);
	run_buf(sets, n, "buffers.mode=damq", "buffers.damq_reserve=1", &full, &a_full);
	run_buf(sets, n, "buffers.mode=damq", "buffers.damq_reserve=0.75", &d75, &a_75);
	assert_memory_equal(&st, &full, sizeof(st));
	assert_int_equal(a_st, 0);
	assert_int_equal(a_full, 0);
	assert_true(a_75 > 0);
	printf("# DAMQ 75%%: delivered %llu (window %llu), lat %.4f\n",
	       (unsigned long long)d75.dlv_total, (unsigned long long)d75.pkts_delivered,
	       d75.lat_avg);
	assert_int_equal(d75.dlv_total, dlv);
	assert_int_equal(d75.gen_total, gen);
	assert_int_equal(d75.pkts_delivered, window);
	assert_true(d75.lat_avg > lat - 0.005 && d75.lat_avg < lat + 0.005);
}

static void test_damq_un_min(void **state)
{
	const char *sets[] = {"routing.mechanism=min", "traffic.pattern=un", "traffic.load=0.8",
			      "sim.warmup=3000", "sim.measure=5000"};

	(void)state;
	/* static: latency 210.98, p99 531; DAMQ 75%: 190.01, p99 354 (thesis §5.3.2.1: DAMQ
	 * lowers the latency before saturation), both accept all 0.8 */
	damq_vs_static(sets, 5, 57545, 57545, 36000, 190.0148);
}

static void test_damq_adv1_val(void **state)
{
	const char *sets[] = {"routing.mechanism=val", "traffic.pattern=adv+1", "traffic.load=0.45",
			      "sim.warmup=3000", "sim.measure=5000"};

	(void)state;
	/* beyond VAL's saturation: static accepts 0.3765 (latency 988.26), DAMQ 75% 0.3742
	 * (993.12): no gain under ADV (thesis §5.3.2.1) */
	damq_vs_static(sets, 5, 31420, 31420, 16837, 993.1239);
}

/*
 * Thesis §5.3.1: with no reserve, MIN with 2/1 VCs deadlocks at saturation (VC0 takes whole
 * ports, nothing can move to VC1). The run must end with the watchdog's report, not hang.
 */
static void test_damq_zero_reserve_deadlock(void **state)
{
	const char *sets[] = {"routing.mechanism=min",  "traffic.pattern=un",
			      "traffic.load=1.0",       "vcs.local=2",
			      "vcs.global=1",           "buffers.mode=damq",
			      "buffers.damq_reserve=0", "sim.warmup=3000",
			      "sim.measure=3000",       "sim.watchdog=2000"};
	char err[DFLY_NETCFG_ERRLEN];
	struct dfly_netcfg cfg;
	struct dfly_sim_result r;
	struct dfly_fabric *fab;
	int rc;

	(void)state;
	load_cfg(&cfg, "h2", sets, 10);
	fab = dfly_fabric_create(&cfg, 1, err, sizeof(err));
	assert_non_null(fab);
	rc = dfly_fabric_run(fab, &r, false);
	printf("# seed 1 DAMQ 0%% reserve: rc %d deadlock %d cycles %llu: %s\n", rc, r.deadlock,
	       (unsigned long long)r.cycles, r.why);
	assert_int_not_equal(rc, 0);
	assert_true(r.deadlock);
	assert_non_null(strstr(r.why, "deadlock"));
	assert_true(r.in_flight > 0);
	dfly_fabric_destroy(fab);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_damq_un_min),
	    cmocka_unit_test(test_damq_adv1_val),
	    cmocka_unit_test(test_damq_zero_reserve_deadlock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
