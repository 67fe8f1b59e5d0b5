/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * FOGSim's router rules as settings (docs/router-model.md "Against FOGSim's router",
 * docs/claims-notes.md H39): router.node_port = "consume" (a node port is granted a packet only
 * when its node could consume it now; FOGSim v5 outputArbiter::checkPort → checkConsume) and
 * router.allocations = "one" (one allocation round a cycle; FOGSim's switchModule::action). On
 * a whole network, h2, MIN under UN at 1.0, 1000 cycles of warm-up and 3000 measured, seed 9:
 * - the invariants after the drain (run(): packets conserved, credits home, queues empty),
 *   exact delivered counts, 2 threads identical, for each of the four combinations;
 * - the node-port rule lowers MIN's saturation, and with one round a cycle lowers it further
 *   (h4, 3k + 3k cycles: 0.747 → 0.739 → 0.6825, FOGSim 0.683; the notes);
 * - at 0.01 (nearly zero load) neither rule changes the latency by more than 1-2 %.
 * And all of FOGSim's rules together (the profile docs/router-model.md measures against FOGSim:
 * also router.input_rr = "request", FOGSim's 0 + 5 pipeline split, links.terminal_serialise =
 * false, traffic.injection_vc = "dest-block"), FlexVC 4/2 under UN at 1.0: exact counts, and
 * that with the two rules a refused head's input round robin must move on (input_rr =
 * "request", as FOGSim's cosArbiter does) for FlexVC's extra VCs to be served: on h4, FlexVC 8/4
 * accepts 0.814 with the pointer moving only at the grant, 0.907 with it moving at the request
 * (FOGSim 0.899). And PB on FOGSim's rules with its source decision added one setting at a time
 * (test_pb_rules()): exact counts, each lowering the saturation and raising the misrouted share.
 */
#include <string.h>

#include "simtest.h"

/*
 * h2 with @p sets, whose last one is "sim.threads=1", seed 9: @p delivered packets exactly,
 * the same results again on 2 threads; @p r gets the run's.
 */
static void run_checked(const char **sets, unsigned n, const char *what, uint64_t delivered,
			struct dfly_sim_result *r)
{
	struct dfly_netcfg cfg;
	struct dfly_sim_result r2;

	load_cfg(&cfg, "h2", sets, n);
	run(&cfg, 9, r);
	printf("# %s: delivered %llu, accepted %.4f, latency %.2f\n", what,
	       (unsigned long long)r->pkts_delivered, r->accepted, r->lat_avg);
	assert_int_equal(r->pkts_delivered, delivered);
	sets[n - 1] = "sim.threads=2";
	load_cfg(&cfg, "h2", sets, n);
	run(&cfg, 9, &r2);
	r->wall_s = r2.wall_s = 0;
	assert_memory_equal(r, &r2, sizeof(*r));
}

static double run_min(const char *pattern_load[2], const char *node_port, const char *allocs,
		      uint64_t delivered, double *lat)
{
	char np[64], al[64], what[160];
	const char *sets[] = {"routing.mechanism=min",
			      pattern_load[0],
			      pattern_load[1],
			      "sim.warmup=1000",
			      "sim.measure=3000",
			      np,
			      al,
			      "sim.threads=1"};
	struct dfly_sim_result r;

	snprintf(np, sizeof(np), "router.node_port=%s", node_port);
	snprintf(al, sizeof(al), "router.allocations=%s", allocs);
	snprintf(what, sizeof(what), "min %s %s, node_port %s, allocations %s", pattern_load[0],
		 pattern_load[1], node_port, allocs);
	run_checked(sets, sizeof(sets) / sizeof(sets[0]), what, delivered, &r);
	if (lat != NULL)
		*lat = r.lat_avg;
	return r.accepted;
}

static void test_saturation(void **state)
{
	const char *un[2] = {"traffic.pattern=un", "traffic.load=1.0"};
	double fifo, consume, consume_one, one;

	(void)state;
	fifo = run_min(un, "fifo", "speedup", 22051, NULL);
	one = run_min(un, "fifo", "one", 22037, NULL);
	consume = run_min(un, "consume", "speedup", 21616, NULL);
	consume_one = run_min(un, "consume", "one", 20512, NULL);
	assert_true(consume < fifo);
	assert_true(consume_one < consume);
	assert_true(consume_one < one);
}

static void test_zero_load(void **state)
{
	const char *low[2] = {"traffic.pattern=un", "traffic.load=0.01"};
	double a, b, c;

	(void)state;
	run_min(low, "fifo", "speedup", 233, &a);
	run_min(low, "fifo", "one", 233, &b);
	run_min(low, "consume", "one", 233, &c);
	printf("# zero-load latency: %.3f %.3f %.3f\n", a, b, c);
	assert_true(b >= a && b - a < 0.01 * a);
	assert_true(c >= b && c - b < 0.02 * b);
}

/* FOGSim's router rules but its input round robin (docs/router-model.md), as settings */
#define FOGSIM_RULES                                                                               \
	"router.node_port=consume", "router.allocations=one", "router.route_cycles=0",             \
	    "router.xbar_cycles=5", "links.terminal_serialise=false",                              \
	    "traffic.injection_vc=dest-block"

/* FlexVC 4/2 under UN at 1.0 with FOGSim's rules, the input round robin moving at @p input_rr */
static double run_profile(const char *input_rr, uint64_t delivered)
{
	char rr[64];
	const char *sets[] = {"routing.mechanism=min",
			      "traffic.pattern=un",
			      "traffic.load=1.0",
			      "vcs.flexvc=jsq",
			      "vcs.local=4",
			      "vcs.global=2",
			      FOGSIM_RULES,
			      "sim.warmup=1000",
			      "sim.measure=3000",
			      rr,
			      "sim.threads=1"};
	char what[96];
	struct dfly_sim_result r;

	snprintf(rr, sizeof(rr), "router.input_rr=%s", input_rr);
	snprintf(what, sizeof(what), "FOGSim's rules, FlexVC 4/2, input_rr %s", input_rr);
	run_checked(sets, sizeof(sets) / sizeof(sets[0]), what, delivered, &r);
	return r.accepted;
}

static void test_profile(void **state)
{
	double grant, request;

	(void)state;
	grant = run_profile("grant", 22288);
	request = run_profile("request", 23914);
	assert_true(request > grant);
}

/*
 * PB under UN at 1.0 with FOGSim's router rules (as run_profile()) and the settings that give
 * FOGSim v5's PB its saturation (docs/claims-notes.md, H13's session-34 note), added one at a
 * time: routing.candidate_credits = false (pb.cc misrouteCondition() decides without the
 * Valiant port's credits), vcs.assign = "next" (vcMngmt::nextChannel), routing.ugal.weight =
 * "fogsim" (generatorModule::determinePaths()). Each lowers the accepted load and raises the
 * misrouted share (h4, 3k + 5k cycles: 0.692, 0.686, 0.667, 0.656; FOGSim 0.652).
 */
static void test_pb_rules(void **state)
{
	static const char *const add[] = {"routing.candidate_credits=false", "vcs.assign=next",
					  "routing.ugal.weight=fogsim"};
	static const uint64_t delivered[] = {20704, 19941, 19440, 19312};
	const char *sets[] = {"routing.mechanism=pb",
			      "routing.pb.send_unchanged=false",
			      "routing.val.path_a=lg-",
			      "routing.ugal.weight=hops",
			      "traffic.pattern=un",
			      "traffic.load=1.0",
			      "router.input_rr=request",
			      FOGSIM_RULES,
			      "sim.warmup=1000",
			      "sim.measure=3000",
			      NULL,
			      NULL,
			      NULL,
			      NULL};
	/* the fixed settings, then the first k of add[] and "sim.threads=1" */
	const unsigned fixed = sizeof(sets) / sizeof(sets[0]) - 4;
	double acc = 2, misr = -1;

	(void)state;
	for (unsigned k = 0; k <= 3; k++) {
		struct dfly_sim_result r;
		char what[96];

		for (unsigned i = 0; i < k; i++)
			sets[fixed + i] = add[i];
		sets[fixed + k] = "sim.threads=1";
		snprintf(what, sizeof(what), "FOGSim's rules, PB, + %s",
			 k ? add[k - 1] : "nothing");
		run_checked(sets, fixed + k + 1, what, delivered[k], &r);
		printf("#   misrouted %.2f %%\n", r.misrouted_pct);
		assert_true(r.accepted < acc);
		assert_true(r.misrouted_pct > misr);
		acc = r.accepted;
		misr = r.misrouted_pct;
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_saturation),
	    cmocka_unit_test(test_zero_load),
	    cmocka_unit_test(test_profile),
	    cmocka_unit_test(test_pb_rules),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
