/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Faults on a whole network in virtual time (issue #9): a router's firmware stops and restarts
 * under load. h2 (9 groups of 4 routers), ECtN, UN 0.3, router.firmware_ttl = 500,
 * routing.ectn.age = 3 periods of 100 cycles; router 5 (group 1) loses its firmware at cycle
 * 2000 and gets it back at 3001:
 *   - its ASIC is in safe mode from cycle 2499 (the last tick was 1999: heartbeat 2000,
 *     2000 + 500 <= c + 1) to 3001 included (the restarted firmware ticks after that step):
 *     route.fw_expired = 503 exactly, and meanwhile its combined array is its own live partial;
 *   - its neighbours in group 1 (routers 4, 6, 7) drop its ECtN copy once each (its last array
 *     arrived at 1910, the timer of 2300 finds it 390 cycles old), nobody else ages anything;
 *   - the network drains: every generated packet delivered, credits and queues back.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "fabric.h"
#include "fw.h"
#include "netcfg.h"
#include "simtest.h"

static void test_fw_stop_ectn(void **state)
{
	const char *sets[] = {"routing.mechanism=ectn", "traffic.load=0.3",
			      "router.firmware_ttl=500", "routing.ectn.age=3"};
	char err[DFLY_NETCFG_ERRLEN];
	struct dfly_netcfg cfg;
	struct dfly_fabric *fab;
	const struct dfly_regs *r5;
	uint64_t gen, dlv, drop;

	(void)state;
	load_cfg(&cfg, "h2", sets, 4);
	fab = dfly_fabric_create(&cfg, 1, err, sizeof(err));
	assert_non_null(fab);
	r5 = dfly_fabric_regs(fab, 5);
	assert_int_equal(dfly_fabric_step(fab, 2000), 0); /* cycles 0 .. 1999 */
	assert_int_equal(r5->route[DFLY_ROUTE_FW_EXPIRED], 0);
	assert_int_equal(dfly_fabric_fw_set_stopped(fab, 5, true), 0);
	assert_int_equal(dfly_fabric_step(fab, 1001), 0); /* 2000 .. 3000 */
	assert_int_equal(r5->route[DFLY_ROUTE_FW_EXPIRED], 3000 - 2499 + 1);
	for (uint32_t D = 0; D < dfly_fabric_topo(fab)->g; D++)
		assert_int_equal(r5->mech.ectn_combined[D], r5->mech.ectn_partial[D]);
	for (uint32_t r = 0; r < dfly_fabric_topo(fab)->routers; r++) {
		uint64_t aged = fw_stat_get(fw_stats(dfly_fabric_fw(fab, r)), FW_STAT_ECTN_AGED);

		assert_int_equal(aged, r == 4 || r == 6 || r == 7 ? 1 : 0);
	}
	assert_int_equal(dfly_fabric_fw_set_stopped(fab, 5, false), 0);
	assert_int_equal(dfly_fabric_step(fab, 1000), 0); /* 3001 .. 4000 */
	assert_int_equal(r5->route[DFLY_ROUTE_FW_EXPIRED], 3000 - 2499 + 1 + 1);
	for (uint32_t r = 0; r < dfly_fabric_topo(fab)->routers; r++)
		assert_int_equal(fw_stat_get(fw_stats(dfly_fabric_fw(fab, r)), FW_STAT_ECTN_AGED),
				 r == 4 || r == 6 || r == 7 ? 1 : 0);
	/* drain: everything generated is delivered, credits and queues are back */
	dfly_fabric_set_load(fab, 0);
	for (int i = 0; i < 100 && dfly_fabric_in_flight(fab) != 0; i++)
		assert_int_equal(dfly_fabric_step(fab, 200), 0);
	assert_int_equal(dfly_fabric_in_flight(fab), 0);
	assert_int_equal(dfly_fabric_step(fab, 1000), 0); /* the last credits cross their links */
	if (dfly_fabric_check_invariants(fab, true, err, sizeof(err)) != 0) {
		fprintf(stderr, "invariants: %s\n", err);
		fail();
	}
	dfly_fabric_totals(fab, &gen, &dlv, &drop);
	printf("# firmware of router 5 stopped 2000..3000: generated %llu delivered %llu, "
	       "fw_expired %llu\n",
	       (unsigned long long)gen, (unsigned long long)dlv,
	       (unsigned long long)r5->route[DFLY_ROUTE_FW_EXPIRED]);
	assert_true(gen > 10000);
	assert_int_equal(gen, dlv);
	assert_int_equal(drop, 0);
	dfly_fabric_destroy(fab);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fw_stop_ectn),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
