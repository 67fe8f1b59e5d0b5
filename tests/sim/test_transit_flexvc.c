/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * FlexVC with in-transit adaptive routing (vcs.flexvc with olm, base; thesis §5.2.3, §5.3.4,
 * claim H44; issue 25 item 4) on a whole network: h2 at the family's minimal VCs, 3 local and 2
 * global (thesis Table 5.3: in-transit paths are opportunistic with 3/2), JSQ, full load (1.0),
 * 1000 cycles of warm-up and 3000 measured, seed 9, under UN and ADV+1:
 * - no deadlock, the invariants after the drain (run_keep(): packets conserved, credits home,
 *   queues empty), exact delivered counts;
 * - every in-transit decision point was taken (local misroutes in the source, intermediate and
 *   destination groups, mandatory global hops), so each of FlexVC's placements carried traffic;
 * - 2 threads give the same result as 1.
 */
#include <string.h>

#include "simtest.h"

struct transit_counts {
	uint64_t delivered, local_src, local_inter, local_dst, mandatory;
	double accepted;
};

static void run_transit(const char *mech, const char *pattern, struct transit_counts *out)
{
	char m[64], p[64];
	const char *sets[] = {m,
			      p,
			      "traffic.load=1.0",
			      "vcs.local=3",
			      "vcs.global=2",
			      "vcs.flexvc=jsq",
			      "sim.warmup=1000",
			      "sim.measure=3000",
			      "sim.threads=1"};
	const int n = (int)(sizeof(sets) / sizeof(sets[0]));
	struct dfly_netcfg cfg;
	struct dfly_sim_result r, r2;
	struct dfly_fabric *fab;

	snprintf(m, sizeof(m), "routing.mechanism=%s", mech);
	snprintf(p, sizeof(p), "traffic.pattern=%s", pattern);
	load_cfg(&cfg, "h2", sets, n);
	fab = run_keep(&cfg, 9, &r);
	out->delivered = r.pkts_delivered;
	out->accepted = r.accepted;
	out->local_src = route_sum(fab, DFLY_ROUTE_OLM_LOCAL_SRC);
	out->local_inter = route_sum(fab, DFLY_ROUTE_OLM_LOCAL_INTER);
	out->local_dst = route_sum(fab, DFLY_ROUTE_OLM_LOCAL_DST);
	out->mandatory = route_sum(fab, DFLY_ROUTE_OLM_MANDATORY_GLOBAL);
	dfly_fabric_destroy(fab);
	printf("# %s %s flexvc 3/2: delivered %llu, accepted %.4f, local misroutes src %llu "
	       "inter %llu dst %llu, mandatory global %llu\n",
	       mech, pattern, (unsigned long long)out->delivered, out->accepted,
	       (unsigned long long)out->local_src, (unsigned long long)out->local_inter,
	       (unsigned long long)out->local_dst, (unsigned long long)out->mandatory);
	assert_int_equal(out->mandatory, out->local_src); /* every NRG hop is followed by one */
	sets[n - 1] = "sim.threads=2";
	load_cfg(&cfg, "h2", sets, n);
	run(&cfg, 9, &r2);
	r.wall_s = r2.wall_s = 0;
	assert_memory_equal(&r, &r2, sizeof(r));
}

static void expect(const struct transit_counts *c, uint64_t delivered, uint64_t src, uint64_t inter,
		   uint64_t dst)
{
	assert_int_equal(c->delivered, delivered);
	assert_int_equal(c->local_src, src);
	assert_int_equal(c->local_inter, inter);
	assert_int_equal(c->local_dst, dst);
}

/* OLM's credit trigger; Base's contention trigger ("In-transit Cta"). Under ADV+1 the
 * contention trigger accepts more than the credit trigger at the same VCs (H44's direction:
 * with FlexVC the credit trigger cannot tell the minimal path's congestion, thesis §5.3.4) */
static double olm_adv;

static void test_olm_flexvc(void **state)
{
	struct transit_counts c;

	(void)state;
	run_transit("olm", "un", &c);
	expect(&c, 24118, 757, 919, 1353);
	run_transit("olm", "adv+1", &c);
	expect(&c, 14188, 3122, 2386, 97);
	olm_adv = c.accepted;
}

static void test_base_flexvc(void **state)
{
	struct transit_counts c;

	(void)state;
	run_transit("base", "un", &c);
	expect(&c, 24445, 525, 244, 1665);
	run_transit("base", "adv+1", &c);
	expect(&c, 15169, 5911, 0, 4395);
	assert_true(olm_adv > 0 && c.accepted > olm_adv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_olm_flexvc),
	    cmocka_unit_test(test_base_flexvc),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
