/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Whole-network runs of the patterns bursty-un (spec §7.3) and mix (§7.2, A-7.2) on h2 under MIN
 * at load 0.1, 1000 cycles of warm-up and 3000 measured, seed 9 (bursty-un with B = 5 and 20,
 * mix with mix_un = 0.5 and 0, i.e. ADV+1 only): exact counts on emulated time,
 * the run of 2 threads identical to the run of one (the ON/OFF chains are per node), and the
 * invariants after the drain (run_keep(): generated = delivered with nothing in flight, credits
 * restored, queues drained, no fabric drop). The accepted load is the offered one within 10%:
 * 3000 cycles of 72 sources, bursty ones more variable than Bernoulli's.
 */
#include <math.h>
#include <string.h>

#include "simtest.h"

struct expect {
	const char *pattern;
	uint64_t delivered; /**< packets delivered in the window */
	uint64_t generated; /**< packets accepted by the injection queues, whole run */
};

static void run_pattern(const struct expect *x, const char *extra)
{
	char pat[64];
	const char *sets[] = {"routing.mechanism=min", pat,   "traffic.load=0.1", "sim.warmup=1000",
			      "sim.measure=3000",      extra, "sim.threads=2"};
	int nsets = extra != NULL ? 6 : 5;
	struct dfly_netcfg cfg;
	struct dfly_sim_result r, r2;

	snprintf(pat, sizeof(pat), "traffic.pattern=%s", x->pattern);
	load_cfg(&cfg, "h2", sets, nsets);
	run(&cfg, 9, &r);
	printf("# %s%s%s: delivered %llu, generated %llu, accepted %.4f\n", x->pattern,
	       extra ? " " : "", extra ? extra : "", (unsigned long long)r.pkts_delivered,
	       (unsigned long long)r.gen_total, r.accepted);
	assert_int_equal(r.pkts_delivered, x->delivered);
	assert_int_equal(r.gen_total, x->generated);
	assert_int_equal(r.in_flight, 0);
	assert_true(fabs(r.accepted / 0.1 - 1) < 0.1);
	/* same run on 2 threads */
	if (extra == NULL) {
		sets[5] = sets[6];
		nsets = 6;
	} else {
		nsets = 7;
	}
	load_cfg(&cfg, "h2", sets, nsets);
	run(&cfg, 9, &r2);
	r.wall_s = r2.wall_s = 0;
	assert_memory_equal(&r, &r2, sizeof(r));
}

static void test_bursty(void **state)
{
	static const struct expect x = {"bursty-un", 2706, 3523};

	(void)state;
	run_pattern(&x, NULL);
}

static void test_bursty_b20(void **state)
{
	static const struct expect x = {"bursty-un", 2594, 3606};

	(void)state;
	run_pattern(&x, "traffic.burst_length=20");
}

static void test_mix(void **state)
{
	static const struct expect x = {"mix", 2626, 3531};

	(void)state;
	run_pattern(&x, NULL);
}

static void test_mix_adv(void **state)
{
	static const struct expect x = {"mix", 2633, 3531};

	(void)state;
	run_pattern(&x, "traffic.mix_un=0");
}

/*
 * All-to-all (spec §7.6) on h2 (72 nodes, 8-phit packets) under MIN, consecutive and random
 * placement, seed 9: every ordered pair once (72 · 71 packets delivered, all in the window), the
 * invariants after the run, exact completion times, completion at least the sanity bound
 * (N − 1) · L = 568 cycles (a node injects at most a phit per cycle), random placement faster
 * than consecutive (each consecutive round is an adversarial shift under MIN, LIA §6.5), and the
 * run on 2 threads identical.
 */
static void run_a2a(const char *placement, uint64_t completion)
{
	const char *sets[] = {"routing.mechanism=min", "traffic.pattern=all-to-all", placement,
			      "sim.threads=1"};
	struct dfly_netcfg cfg;
	struct dfly_sim_result r, r2;

	load_cfg(&cfg, "h2", sets, 4);
	run(&cfg, 9, &r);
	printf("# all-to-all %s: completion %llu, delivered %llu, accepted %.4f\n", placement,
	       (unsigned long long)r.completion, (unsigned long long)r.pkts_delivered, r.accepted);
	assert_int_equal(r.pkts_delivered, 72 * 71);
	assert_int_equal(r.dlv_total, 72 * 71);
	assert_true(r.completion >= 71 * 8);
	assert_int_equal(r.completion, completion);
	sets[3] = "sim.threads=2";
	load_cfg(&cfg, "h2", sets, 4);
	run(&cfg, 9, &r2);
	r.wall_s = r2.wall_s = 0;
	assert_memory_equal(&r, &r2, sizeof(r));
}

static void test_all_to_all(void **state)
{
	(void)state;
	run_a2a("traffic.placement=consecutive", 1201);
	run_a2a("traffic.placement=random", 775);
}

/*
 * Halo3D (spec §7.8, proposal-defined) on h2 under MIN: 72 processes on the 6 x 4 x 3 grid, cube 8
 * (62 packets of 8 phits per process and iteration), 2 iterations, random placement (the
 * default): every packet delivered, the exact completion, the second iteration after the
 * first's last delivery (988) and the barrier (looked at every 16 cycles: released at 992), plus
 * the compute phase with traffic.halo.compute = 500 (released at 1,504: 2,485 = 1,973 + 512), the
 * run of 2 threads identical.
 */
static void run_halo(const char *compute, uint64_t end1, uint64_t completion)
{
	const char *sets[] = {"routing.mechanism=min",
			      "traffic.pattern=halo3d",
			      "traffic.halo.cube=8",
			      "traffic.halo.iterations=2",
			      compute,
			      "sim.threads=1"};
	struct dfly_netcfg cfg;
	struct dfly_sim_result r, r2;

	load_cfg(&cfg, "h2", sets, 6);
	run(&cfg, 9, &r);
	printf("# halo3d %s: first iteration ends %llu, completion %llu, delivered %llu\n", compute,
	       (unsigned long long)r.halo_iter_end[0], (unsigned long long)r.completion,
	       (unsigned long long)r.pkts_delivered);
	assert_int_equal(r.pkts_delivered, 2 * 72 * 62);
	assert_int_equal(r.dlv_total, 2 * 72 * 62);
	assert_int_equal(r.halo_iter_end[0], end1);
	assert_int_equal(r.completion, completion);
	sets[5] = "sim.threads=2";
	load_cfg(&cfg, "h2", sets, 6);
	run(&cfg, 9, &r2);
	r.wall_s = r2.wall_s = 0;
	assert_memory_equal(&r, &r2, sizeof(r));
}

static void test_halo3d(void **state)
{
	(void)state;
	run_halo("traffic.halo.compute=0", 988, 1973);
	run_halo("traffic.halo.compute=500", 988, 2485);
}

/*
 * Graph500 (spec §7.7) on h2, s = 12 (LIA's f_e = 16, c_s = 256, 5 levels at most, d_r = 3),
 * one packet per message (FOGSim's mapping), t_q = 0: every process a node, the run to
 * completion under MIN and VAL with the exact completion and level ends, every packet
 * generated delivered, the same messages per level under both (the model's draws do not
 * depend on the network), and the run of 2 threads identical.
 */
static void run_g500(const char *mech, uint64_t end1, uint64_t completion)
{
	const char *sets[] = {mech, "traffic.pattern=graph500", "traffic.graph500.scale=12",
			      "traffic.graph500.message_packets=1", "sim.threads=1"};
	struct dfly_netcfg cfg;
	struct dfly_sim_result r, r2;
	uint64_t msgs = 0;

	load_cfg(&cfg, "h2", sets, 5);
	run(&cfg, 9, &r);
	printf("# graph500 %s: %u levels, level 1 ends %llu, completion %llu, delivered %llu\n",
	       mech, r.g5_levels, (unsigned long long)r.g5_level_end[1],
	       (unsigned long long)r.completion, (unsigned long long)r.dlv_total);
	assert_int_equal(r.g5_levels, 4);
	assert_int_equal(r.g5_level_msgs[0], 2);
	assert_int_equal(r.g5_level_msgs[1], 5112);
	assert_int_equal(r.g5_level_msgs[2], 4969);
	assert_int_equal(r.g5_level_msgs[3], 4564);
	for (uint32_t l = 0; l < r.g5_levels; l++)
		msgs += r.g5_level_msgs[l];
	/* messages, signals (the root's 71 at level 0, 72·71 a level after), 71 reduce and 71
	 * broadcast packets a level */
	assert_int_equal(r.dlv_total, msgs + 71 + 3 * 72 * 71 + 4 * 2 * 71);
	assert_int_equal(r.gen_total, r.dlv_total);
	assert_int_equal(r.completion, r.g5_level_end[3]);
	assert_int_equal(r.g5_level_end[1], end1);
	assert_int_equal(r.completion, completion);
	sets[4] = "sim.threads=2";
	load_cfg(&cfg, "h2", sets, 5);
	run(&cfg, 9, &r2);
	r.wall_s = r2.wall_s = 0;
	assert_memory_equal(&r, &r2, sizeof(r));
}

static void test_graph500(void **state)
{
	(void)state;
	run_g500("routing.mechanism=min", 4573, 10420);
	run_g500("routing.mechanism=val", 6592, 15622);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_bursty),     cmocka_unit_test(test_bursty_b20),
	    cmocka_unit_test(test_mix),        cmocka_unit_test(test_mix_adv),
	    cmocka_unit_test(test_all_to_all), cmocka_unit_test(test_halo3d),
	    cmocka_unit_test(test_graph500),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
