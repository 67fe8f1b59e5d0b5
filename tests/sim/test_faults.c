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
 * And a global link down and up (routing.failover, h2, UN 0.3, seed 1):
 *   - MIN, router 0's port 5 down 2000..2799: nothing crosses it either way; the MIN traffic of
 *     that group pair goes Valiant (55 packets at the source, 1 moved in transit at router 0);
 *     both groups' tables hold the row; back up, it carries traffic again at once and nothing
 *     more is misrouted;
 *   - PB: the link's bits are set (both VCs) in every PB table of its group while it is down and
 *     clear again after;
 *   - VAL, router 5's port 6 down for good: every router outside the two groups learns the
 *     pair; the 30 packets that had only that link left are discarded when it is dead
 *     (router.link_dead_cycles) and exactly those, everything else is delivered.
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
#include "dfly/wire.h"
#include "simtest.h"

#define ANY_DEAD UINT64_MAX /* drain_check(): whatever drop.link_dead says, all accounted */

/* Drain and check: every packet delivered or discarded behind a dead link (counted). */
static void drain_check(struct dfly_fabric *fab, uint64_t want_dead, uint64_t min_gen)
{
	char err[256];
	uint64_t gen, dlv, drop;

	/* under load first: conservation with packets in flight, every VC's cached head */
	if (dfly_fabric_check_invariants(fab, false, err, sizeof(err)) != 0) {
		fprintf(stderr, "invariants under load: %s\n", err);
		fail();
	}
	dfly_fabric_set_load(fab, 0);
	for (int i = 0; i < 200 && dfly_fabric_in_flight(fab) != 0; i++)
		assert_int_equal(dfly_fabric_step(fab, 200), 0);
	assert_int_equal(dfly_fabric_in_flight(fab), 0);
	assert_int_equal(dfly_fabric_step(fab, 1000), 0); /* the last credits cross their links */
	if (dfly_fabric_check_invariants(fab, true, err, sizeof(err)) != 0) {
		fprintf(stderr, "invariants: %s\n", err);
		fail();
	}
	dfly_fabric_totals(fab, &gen, &dlv, &drop);
	printf("# generated %llu delivered %llu discarded behind a dead link %llu\n",
	       (unsigned long long)gen, (unsigned long long)dlv,
	       (unsigned long long)drop_sum(fab, DFLY_DROP_LINK_DEAD));
	assert_true(gen > min_gen);
	assert_int_equal(drop, 0); /* at injection */
	if (want_dead == ANY_DEAD)
		want_dead = drop_sum(fab, DFLY_DROP_LINK_DEAD);
	assert_int_equal(drop_sum(fab, DFLY_DROP_LINK_DEAD), want_dead);
	assert_int_equal(gen, dlv + want_dead);
}

static void test_fw_stop_ectn(void **state)
{
	const char *sets[] = {"routing.mechanism=ectn", "traffic.load=0.3",
			      "router.firmware_ttl=500", "routing.ectn.age=3"};
	char err[DFLY_NETCFG_ERRLEN];
	struct dfly_netcfg cfg;
	struct dfly_fabric *fab;
	const struct dfly_regs *r5;

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
	drain_check(fab, 0, 10000);
	dfly_fabric_destroy(fab);
}

/* ---------------------------------------------------------------------------------------------
 * A global link down and back up (routing.failover). h2 (p=2 a=4 h=2, g = 9), UN 0.3. Router 0's
 * global port 5 leads to group X.
 */

/* The bank of table @p t the ASIC of @p r uses now. */
static const void *live_tbl(const struct dfly_fabric *fab, uint32_t r, enum dfly_tbl t)
{
	const struct dfly_regs *rg = dfly_fabric_regs(fab, r);

	return (const char *)&rg->tables[dfly_regs_tbl_gen(rg, t) & 1] + dfly_tbl_offset(t);
}

static uint64_t fw_sum(const struct dfly_fabric *fab, enum fw_stat s)
{
	uint64_t v = 0;

	for (uint32_t r = 0; r < dfly_fabric_topo(fab)->routers; r++)
		v += fw_stat_get(fw_stats(dfly_fabric_fw(fab, r)), s);
	return v;
}

static uint64_t tx_pkts(const struct dfly_fabric *fab, uint32_t r, uint32_t port)
{
	return dfly_fabric_regs(fab, r)->port_ctr[port][DFLY_TX_PKTS];
}

/* h2 under @p mech at UN 0.3, seed 1, stepped to cycle 2000. */
static struct dfly_fabric *start_h2(const char *mech)
{
	const char *sets[] = {mech, "traffic.load=0.3"};
	char err[DFLY_NETCFG_ERRLEN];
	struct dfly_netcfg cfg;
	struct dfly_fabric *fab;

	load_cfg(&cfg, "h2", sets, 2);
	fab = dfly_fabric_create(&cfg, 1, err, sizeof(err));
	if (fab == NULL)
		fprintf(stderr, "%s\n", err);
	assert_non_null(fab);
	assert_int_equal(dfly_fabric_step(fab, 2000), 0);
	return fab;
}

static void test_link_down_min(void **state)
{
	struct dfly_fabric *fab = start_h2("routing.mechanism=min");
	uint32_t pr, pp, X;
	uint64_t tx0, txp, nonmin;

	(void)state;
	assert_int_equal(dfly_topo_port_peer(dfly_fabric_topo(fab), 0, 5, &pr, &pp), 0);
	X = pr / dfly_fabric_topo(fab)->a;
	assert_int_equal(route_sum(fab, DFLY_ROUTE_FAIL_NONMIN), 0);
	assert_int_equal(route_sum(fab, DFLY_ROUTE_INJ_VAL), 0); /* MIN: nothing nonminimal */
	tx0 = tx_pkts(fab, 0, 5);
	txp = tx_pkts(fab, pr, pp);
	assert_int_equal(dfly_fabric_link_set_down(fab, 0, 5, true), 0);
	assert_int_equal(dfly_fabric_step(fab, 800), 0); /* down 2000 .. 2799 */
	/* nothing crossed it, both ways */
	assert_int_equal(tx_pkts(fab, 0, 5), tx0);
	assert_int_equal(tx_pkts(fab, pr, pp), txp);
	/* MIN traffic between group 0 and group X went around it */
	printf("# MIN, link 0:5 (to group %u) down 2000..2799: fail_nonmin %llu fail_reroute %llu "
	       "fail_wait %llu inj_val %llu link_state frames %llu\n",
	       X, (unsigned long long)route_sum(fab, DFLY_ROUTE_FAIL_NONMIN),
	       (unsigned long long)route_sum(fab, DFLY_ROUTE_FAIL_REROUTE),
	       (unsigned long long)route_sum(fab, DFLY_ROUTE_FAIL_WAIT),
	       (unsigned long long)route_sum(fab, DFLY_ROUTE_INJ_VAL),
	       (unsigned long long)fw_sum(fab, FW_STAT_FAIL_TX));
	nonmin = route_sum(fab, DFLY_ROUTE_FAIL_NONMIN);
	assert_int_equal(nonmin, 55); /* deterministic for seed 1 */
	assert_int_equal(route_sum(fab, DFLY_ROUTE_FAIL_REROUTE), 1);
	assert_int_equal(route_sum(fab, DFLY_ROUTE_FAIL_WAIT), 0);
	assert_int_equal(route_sum(fab, DFLY_ROUTE_INJ_VAL), nonmin);
	assert_int_equal(fw_sum(fab, FW_STAT_FAIL_CHANGES), 2); /* both ends */
	/* the routers of both groups know the row */
	for (uint32_t r = 0; r < 4; r++) {
		const struct dfly_tbl_fail *f = live_tbl(fab, r, DFLY_TBL_FAIL);

		assert_int_equal(f->down[0], 1u << 0); /* router 0, global port q = 0 */
	}
	/* back up: used again at once, both ways, and the misrouting stops */
	assert_int_equal(dfly_fabric_link_set_down(fab, 0, 5, false), 0);
	assert_int_equal(dfly_fabric_step(fab, 200), 0); /* 2800 .. 2999 */
	nonmin = route_sum(fab, DFLY_ROUTE_FAIL_NONMIN);
	assert_true(tx_pkts(fab, 0, 5) > tx0);
	assert_true(tx_pkts(fab, pr, pp) > txp);
	tx0 = tx_pkts(fab, 0, 5);
	assert_int_equal(dfly_fabric_step(fab, 1000), 0); /* 3000 .. 3999 */
	assert_int_equal(route_sum(fab, DFLY_ROUTE_FAIL_NONMIN), nonmin);
	assert_true(tx_pkts(fab, 0, 5) > tx0);
	assert_int_equal(fw_sum(fab, FW_STAT_FAIL_CHANGES), 4);
	drain_check(fab, 0, 10000);
	dfly_fabric_destroy(fab);
}

/* PB: the down link's saturation bit is set in every PB table of its group while it is down. */
static void test_link_down_pb(void **state)
{
	struct dfly_fabric *fab = start_h2("routing.mechanism=pb");

	(void)state;
	assert_int_equal(dfly_fabric_link_set_down(fab, 0, 5, true), 0);
	assert_int_equal(dfly_fabric_step(fab, 600), 0);
	for (uint32_t r = 0; r < 4; r++) {
		const struct dfly_tbl_pb *pb = live_tbl(fab, r, DFLY_TBL_PB);

		assert_int_equal(pb->sat[0][0], 0x3); /* both global VCs of router 0's port q = 0 */
	}
	printf("# PB, link 0:5 down 2000..2599: src_nonmin_sat %llu fail_nonmin %llu "
	       "fail_redraw %llu fail_wait %llu\n",
	       (unsigned long long)route_sum(fab, DFLY_ROUTE_SRC_NONMIN_SAT),
	       (unsigned long long)route_sum(fab, DFLY_ROUTE_FAIL_NONMIN),
	       (unsigned long long)route_sum(fab, DFLY_ROUTE_FAIL_REDRAW),
	       (unsigned long long)route_sum(fab, DFLY_ROUTE_FAIL_WAIT));
	assert_int_equal(route_sum(fab, DFLY_ROUTE_SRC_NONMIN_SAT) > 0, 1);
	assert_int_equal(route_sum(fab, DFLY_ROUTE_FAIL_REDRAW), 14);
	assert_int_equal(route_sum(fab, DFLY_ROUTE_FAIL_NONMIN), 0); /* the bit did it first */
	assert_int_equal(dfly_fabric_link_set_down(fab, 0, 5, false), 0);
	assert_int_equal(dfly_fabric_step(fab, 100), 0);
	for (uint32_t r = 0; r < 4; r++) {
		const struct dfly_tbl_pb *pb = live_tbl(fab, r, DFLY_TBL_PB);

		assert_int_equal(pb->sat[0][0] & 0x1, 0); /* G0 (minimal traffic) clear again */
	}
	drain_check(fab, 0, 5000);
	dfly_fabric_destroy(fab);
}

/* VAL, link 5:6 down for good: the network learns it (every router), Valiant paths avoid it;
 * the packets past their first global hop that can only use it are discarded once it is dead
 * (router.link_dead_cycles = 1000), counted; every other packet is delivered. */
static void test_link_dead_val(void **state)
{
	struct dfly_fabric *fab = start_h2("routing.mechanism=val");
	uint64_t dead;

	(void)state;
	assert_int_equal(dfly_fabric_link_set_down(fab, 5, 6, true), 0);
	assert_int_equal(dfly_fabric_step(fab, 3000), 0);
	/* every router outside the two groups holds the pair in its table */
	for (uint32_t r = 0; r < dfly_fabric_topo(fab)->routers; r++) {
		const struct dfly_tbl_fail *f = live_tbl(fab, r, DFLY_TBL_FAIL);
		uint32_t pr, pp;

		dfly_topo_port_peer(dfly_fabric_topo(fab), 5, 6, &pr, &pp);
		if (r / 4 == 1 || r / 4 == pr / 4)
			continue;
		assert_int_equal(f->npairs, 1);
	}
	dead = drop_sum(fab, DFLY_DROP_LINK_DEAD);
	printf("# VAL, link 5:6 down from 2000 for good: fail_redraw %llu fail_reroute %llu "
	       "fail_wait %llu link_dead %llu learnt %llu\n",
	       (unsigned long long)route_sum(fab, DFLY_ROUTE_FAIL_REDRAW),
	       (unsigned long long)route_sum(fab, DFLY_ROUTE_FAIL_REROUTE),
	       (unsigned long long)route_sum(fab, DFLY_ROUTE_FAIL_WAIT), (unsigned long long)dead,
	       (unsigned long long)fw_sum(fab, FW_STAT_FAIL_LEARNT));
	assert_int_equal(dead, 30);
	/* what waited at the dead link is exactly what it discarded */
	assert_int_equal(route_sum(fab, DFLY_ROUTE_FAIL_WAIT), dead);
	/* nothing more is lost after that: the drain delivers the rest */
	drain_check(fab, dead, 10000);
	dfly_fabric_destroy(fab);
}

/* ---------------------------------------------------------------------------------------------
 * Control frames lost or late on every link (asic_link_set_ctrl_fault, dfly sim --ctrl-fault),
 * one kind at a time. h2, UN 0.3, seed 1.
 */

static struct dfly_fabric *start_ctrl_fault(const char *mech, uint32_t types, uint32_t loss_ppm,
					    uint32_t delay)
{
	const char *sets[] = {mech, "traffic.load=0.3"};
	struct dfly_fabric_opts o = {
	    .ctrl_types = types, .ctrl_loss_ppm = loss_ppm, .ctrl_delay = delay};
	char err[DFLY_NETCFG_ERRLEN];
	struct dfly_netcfg cfg;
	struct dfly_fabric *fab;

	load_cfg(&cfg, "h2", sets, 2);
	fab = dfly_fabric_create_opts(&cfg, 1, &o, err, sizeof(err));
	if (fab == NULL)
		fprintf(stderr, "%s\n", err);
	assert_non_null(fab);
	return fab;
}

/* PB_STATE all lost: no router ever learns a neighbour's bits; PB still routes (on its own
 * bits and UGAL), and nothing but the frames is lost. */
static void test_ctrl_pb_lost(void **state)
{
	struct dfly_fabric *fab =
	    start_ctrl_fault("routing.mechanism=pb", 1u << DFLY_WIRE_CTRL_PB_STATE, 1000000, 0);
	const struct dfly_topo *t = dfly_fabric_topo(fab);

	(void)state;
	assert_int_equal(dfly_fabric_step(fab, 3000), 0);
	/* the firmware queued a frame per local port per cycle; all but the last cycle's left
	 * and were lost */
	assert_int_equal(fw_sum(fab, FW_STAT_PB_TX), 3000ull * t->routers * (t->a - 1));
	assert_int_equal(drop_sum(fab, DFLY_DROP_CTRL_FAULT), 2999ull * t->routers * (t->a - 1));
	assert_int_equal(fw_sum(fab, FW_STAT_RX_PB_STATE), 0);
	for (uint32_t r = 0; r < t->routers; r++) {
		const struct dfly_tbl_pb *pb = live_tbl(fab, r, DFLY_TBL_PB);

		for (uint32_t rho = 0; rho < t->a; rho++)
			for (uint32_t q = 0; rho != r % t->a && q < t->h; q++)
				assert_int_equal(pb->sat[rho][q], 0);
	}
	drain_check(fab, 0, 5000);
	dfly_fabric_destroy(fab);
}

/* ECTN_PARTIAL half lost: at cycle 3050 (no array in flight: they leave at 0 mod 100 and take
 * 11 cycles) every array queued was either lost or received. */
static void test_ctrl_ectn_half_lost(void **state)
{
	struct dfly_fabric *fab = start_ctrl_fault("routing.mechanism=ectn",
						   1u << DFLY_WIRE_CTRL_ECTN_PARTIAL, 500000, 0);
	uint64_t tx, lost, rx;

	(void)state;
	assert_int_equal(dfly_fabric_step(fab, 3051), 0);
	tx = fw_sum(fab, FW_STAT_ECTN_TX);
	lost = drop_sum(fab, DFLY_DROP_CTRL_FAULT);
	rx = fw_sum(fab, FW_STAT_RX_ECTN_PARTIAL);
	printf("# ECtN, half the arrays lost: queued %llu lost %llu received %llu\n",
	       (unsigned long long)tx, (unsigned long long)lost, (unsigned long long)rx);
	assert_int_equal(tx, 31ull * 36 * 3);
	assert_int_equal(lost + rx, tx);
	assert_int_equal(lost, 1651); /* deterministic for seed 1; about half */
	drain_check(fab, 0, 5000);
	dfly_fabric_destroy(fab);
}

/* PB_STATE 500 cycles late: every frame is late, routing goes on, nothing is lost. */
static void test_ctrl_pb_late(void **state)
{
	struct dfly_fabric *fab =
	    start_ctrl_fault("routing.mechanism=pb", 1u << DFLY_WIRE_CTRL_PB_STATE, 0, 500);
	const struct dfly_topo *t = dfly_fabric_topo(fab);

	(void)state;
	assert_int_equal(dfly_fabric_step(fab, 3000), 0);
	assert_int_equal(port_sum(fab, DFLY_CTRL_DELAYED), port_sum(fab, DFLY_CTRL_TX));
	/* the first arrive at 1 + 10 + 500: 3000 − 511 cycles of frames received per port */
	assert_int_equal(fw_sum(fab, FW_STAT_RX_PB_STATE), 2489ull * t->routers * (t->a - 1));
	assert_int_equal(drop_sum(fab, DFLY_DROP_CTRL_FAULT), 0);
	drain_check(fab, 0, 5000);
	dfly_fabric_destroy(fab);
}

/* LINK_STATE all lost, a global link down for good under VAL: nobody is told, so only the
 * link's own routers act (their hardware bit): packets that reach them are moved to another of
 * their global ports or, past their first global hop, discarded once the link is dead. */
static void test_ctrl_link_state_lost(void **state)
{
	struct dfly_fabric *fab =
	    start_ctrl_fault("routing.mechanism=val", 1u << DFLY_WIRE_CTRL_LINK_STATE, 1000000, 0);
	uint64_t dead;

	(void)state;
	assert_int_equal(dfly_fabric_step(fab, 2000), 0);
	assert_int_equal(dfly_fabric_link_set_down(fab, 5, 6, true), 0);
	assert_int_equal(dfly_fabric_step(fab, 3000), 0);
	assert_int_equal(fw_sum(fab, FW_STAT_FAIL_RX), 0);
	assert_int_equal(fw_sum(fab, FW_STAT_FAIL_LEARNT), 0);
	assert_int_equal(drop_sum(fab, DFLY_DROP_CTRL_FAULT), fw_sum(fab, FW_STAT_FAIL_TX));
	assert_true(route_sum(fab, DFLY_ROUTE_FAIL_REROUTE) > 0);
	dead = drop_sum(fab, DFLY_DROP_LINK_DEAD);
	printf("# VAL, link 5:6 down for good, every LINK_STATE lost: fail_reroute %llu "
	       "fail_wait %llu link_dead %llu (30 when told)\n",
	       (unsigned long long)route_sum(fab, DFLY_ROUTE_FAIL_REROUTE),
	       (unsigned long long)route_sum(fab, DFLY_ROUTE_FAIL_WAIT), (unsigned long long)dead);
	assert_true(dead > 30);
	drain_check(fab, ANY_DEAD, 10000); /* more are discarded while it drains */
	dfly_fabric_destroy(fab);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fw_stop_ectn), cmocka_unit_test(test_link_down_min),
	    cmocka_unit_test(test_link_down_pb), cmocka_unit_test(test_link_dead_val),
	    cmocka_unit_test(test_ctrl_pb_lost), cmocka_unit_test(test_ctrl_ectn_half_lost),
	    cmocka_unit_test(test_ctrl_pb_late), cmocka_unit_test(test_ctrl_link_state_lost),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
