/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RES, Reservation routing (routing.mechanism = "res", spec §4.9, IAR §3.4; issue 25) on a whole
 * network: h2 (p = 2, a = 4, h = 2, 8-phit packets) under ADV+1 at 0.4 and UN at 0.2, 1000 cycles
 * of warm-up and 3000 measured, seed 9:
 * - the invariants after the drain (run_keep(): packets conserved, credits home, queues empty,
 *   and every reservation used: R = 0 on every global channel, no packet waiting, no flit
 *   queued), exact delivered counts, the run on 2 threads identical;
 * - the flits' accounting: every request answered (Σ res_req_tx = Σ res_rep_tx), every owner
 *   decision a packet's (Σ res_grant = Σ res_min, Σ res_deny = Σ res_val), flits only on local
 *   links, and a reply takes at least the local round trip (2 × 10 cycles) on average;
 * - ADV+1 is refused more often than UN, and RES accepts at least what UGAL-L does under ADV+1
 *   (IAR §5.1: RES's decisions are exact where UGAL-L's local queues are not).
 */
#include <string.h>

#include "simtest.h"

struct res_sums {
	uint64_t req, rep, req_other, grant, deny, rmin, rval, wait;
};

static void res_sums(const struct dfly_fabric *fab, struct res_sums *s)
{
	const struct dfly_topo *t = dfly_fabric_topo(fab);

	memset(s, 0, sizeof(*s));
	for (uint32_t r = 0; r < t->routers; r++) {
		const struct dfly_regs *g = dfly_fabric_regs(fab, r);

		for (uint32_t p = 0; p < t->radix; p++) {
			uint64_t n =
			    g->port_ctr[p][DFLY_RES_REQ_TX] + g->port_ctr[p][DFLY_RES_REP_TX];

			if (p >= t->first_local && p < t->first_global) {
				s->req += g->port_ctr[p][DFLY_RES_REQ_TX];
				s->rep += g->port_ctr[p][DFLY_RES_REP_TX];
			} else {
				s->req_other += n;
			}
		}
	}
	s->grant = route_sum(fab, DFLY_ROUTE_RES_GRANT);
	s->deny = route_sum(fab, DFLY_ROUTE_RES_DENY);
	s->rmin = route_sum(fab, DFLY_ROUTE_RES_MIN);
	s->rval = route_sum(fab, DFLY_ROUTE_RES_VAL);
	s->wait = route_sum(fab, DFLY_ROUTE_RES_WAIT_CYCLES);
}

static void run_res(const char *mech, const char *pattern, const char *load, uint64_t delivered,
		    struct res_sums *s, double *accepted)
{
	char m[64];
	const char *sets[] = {
	    m, pattern, load, "sim.warmup=1000", "sim.measure=3000", "sim.threads=1"};
	struct dfly_netcfg cfg;
	struct dfly_sim_result r, r2;
	struct dfly_fabric *fab;

	snprintf(m, sizeof(m), "routing.mechanism=%s", mech);
	load_cfg(&cfg, "h2", sets, 6);
	fab = run_keep(&cfg, 9, &r);
	res_sums(fab, s);
	dfly_fabric_destroy(fab);
	*accepted = r.accepted;
	printf("# %s %s %s: delivered %llu, accepted %.4f; flits %llu requests, %llu replies; "
	       "%llu granted, %llu refused; %.1f cycles per reply\n",
	       mech, pattern, load, (unsigned long long)r.pkts_delivered, r.accepted,
	       (unsigned long long)s->req, (unsigned long long)s->rep, (unsigned long long)s->grant,
	       (unsigned long long)s->deny, s->req ? (double)s->wait / (double)s->req : 0.0);
	assert_int_equal(r.pkts_delivered, delivered);
	if (strcmp(mech, "res") != 0)
		return;
	assert_int_equal(s->req, s->rep);
	assert_int_equal(s->req_other, 0);
	assert_int_equal(s->grant, s->rmin);
	assert_int_equal(s->deny, s->rval);
	assert_true(s->req > 0 && s->req <= s->grant + s->deny);
	assert_true(s->wait >= 2 * 10 * s->req);
	sets[5] = "sim.threads=2";
	load_cfg(&cfg, "h2", sets, 6);
	run(&cfg, 9, &r2);
	r.wall_s = r2.wall_s = 0;
	assert_memory_equal(&r, &r2, sizeof(r));
}

static void test_res(void **state)
{
	struct res_sums adv, un, ug;
	double acc_res, acc_ugal, acc_un;

	(void)state;
	run_res("res", "traffic.pattern=adv+1", "traffic.load=0.4", 10689, &adv, &acc_res);
	run_res("ugal", "traffic.pattern=adv+1", "traffic.load=0.4", 9381, &ug, &acc_ugal);
	assert_true(acc_res >= acc_ugal);
	run_res("res", "traffic.pattern=un", "traffic.load=0.2", 5287, &un, &acc_un);
	assert_true((double)un.deny / (double)(un.grant + un.deny) <
		    (double)adv.deny / (double)(adv.grant + adv.deny));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_res),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
