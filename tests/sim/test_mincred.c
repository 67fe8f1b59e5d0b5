/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * FlexVC with source-adaptive routing and minCred (vcs.flexvc, routing.mincred; spec §2.4,
 * thesis §5.2.4, §5.3.3; issue 25) on a whole network: h2, PB with per-port sensing
 * (routing.pb.bits = "port"), 1000 cycles of warm-up and 3000 measured, seed 9:
 * - the invariants after the drain (run_keep(): packets conserved, credits home, queues empty,
 *   and every output's minimal count back to 0), exact delivered counts, 2 threads identical;
 * - under ADV+1 at 0.45, FlexVC lets minimal and Valiant packets share the global VCs, so PB
 *   without minCred loses the minimal link's saturation and accepts less than base PB; with
 *   minCred it accepts more than without (the thesis's §5.3.3.2 finding);
 * - request-reply PB on FlexVC's 6/3 VCs (4/2 requests + 2/1 replies, thesis §5.3.3.2) with
 *   minCred under UN at 0.6: every request answered, the run drains;
 * - the VC sets (vcs.flexvc_sets) under ADV+1 at 1.0, past saturation: on "path" (spec §2.4)
 *   a minimal packet's first local hop may take the VCs placed in the intermediate group
 *   (l0-l2 of 4/2), the congestion of the minimal global link fills them, and Valiant traffic
 *   crossing that group waits behind it: FlexVC-minCred accepts less than base PB; on "group"
 *   (FOGSim's source-group VCs, l0 only here) it accepts more than base PB, as thesis Fig.
 *   5.10c has it; the same with request-reply on 6/3.
 */
#include <string.h>

#include "simtest.h"

static void run_pb(const char *const *extra, int nextra, uint64_t delivered, double *accepted)
{
	const char *sets[16] = {"routing.mechanism=pb", "routing.pb.bits=port", "sim.warmup=1000",
				"sim.measure=3000", "sim.threads=1"};
	struct dfly_netcfg cfg;
	struct dfly_sim_result r, r2;
	struct dfly_fabric *fab;
	int n = 5;

	for (int i = 0; i < nextra; i++)
		sets[n++] = extra[i];
	load_cfg(&cfg, "h2", sets, n);
	fab = run_keep(&cfg, 9, &r);
	dfly_fabric_destroy(fab);
	printf("# pb");
	for (int i = 0; i < nextra; i++)
		printf(" %s", extra[i]);
	printf(": delivered %llu, accepted %.4f, misrouted %.1f%%\n",
	       (unsigned long long)r.pkts_delivered, r.accepted, r.misrouted_pct);
	assert_int_equal(r.pkts_delivered, delivered);
	*accepted = r.accepted;
	sets[4] = "sim.threads=2";
	load_cfg(&cfg, "h2", sets, n);
	run(&cfg, 9, &r2);
	r.wall_s = r2.wall_s = 0;
	assert_memory_equal(&r, &r2, sizeof(r));
}

static void test_mincred_adv(void **state)
{
	double base, flex, flexmc;

	(void)state;
	run_pb((const char *const[]){"traffic.pattern=adv+1", "traffic.load=0.45"}, 2, 11705,
	       &base);
	run_pb(
	    (const char *const[]){"traffic.pattern=adv+1", "traffic.load=0.45", "vcs.flexvc=jsq"},
	    3, 10484, &flex);
	run_pb((const char *const[]){"traffic.pattern=adv+1", "traffic.load=0.45", "vcs.flexvc=jsq",
				     "routing.mincred=true"},
	       4, 11886, &flexmc);
	assert_true(flex < base);
	assert_true(flexmc > flex);
}

static void test_mincred_reqrep(void **state)
{
	double acc;

	(void)state;
	run_pb((const char *const[]){"traffic.pattern=un", "traffic.load=0.6",
				     "traffic.reqrep=true", "vcs.local=6", "vcs.global=3",
				     "vcs.reply_local=2", "vcs.reply_global=1", "vcs.flexvc=jsq",
				     "routing.mincred=true"},
	       9, 16022, &acc);
}

static void test_flexvc_sets(void **state)
{
	double base, path, group, rr;

	(void)state;
	run_pb((const char *const[]){"traffic.pattern=adv+1", "traffic.load=1"}, 2, 12622, &base);
	run_pb((const char *const[]){"traffic.pattern=adv+1", "traffic.load=1", "vcs.flexvc=jsq",
				     "routing.mincred=true"},
	       4, 9591, &path);
	run_pb((const char *const[]){"traffic.pattern=adv+1", "traffic.load=1", "vcs.flexvc=jsq",
				     "routing.mincred=true", "vcs.flexvc_sets=group"},
	       5, 13956, &group);
	assert_true(path < base);
	assert_true(group > base);
	run_pb((const char *const[]){"traffic.pattern=adv+1", "traffic.load=1",
				     "traffic.reqrep=true", "vcs.local=6", "vcs.global=3",
				     "vcs.reply_local=2", "vcs.reply_global=1", "vcs.flexvc=jsq",
				     "routing.mincred=true", "vcs.flexvc_sets=group"},
	       10, 13505, &rr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_mincred_adv),
	    cmocka_unit_test(test_mincred_reqrep),
	    cmocka_unit_test(test_flexvc_sets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
