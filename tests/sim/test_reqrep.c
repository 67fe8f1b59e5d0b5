/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Request-reply traffic (traffic.reqrep, spec §7.5, §2.2, §2.4; issue 25) on a whole network:
 * h2 under MIN with 4/2 VCs (2/1 per class) and VAL with 8/4 (4/2 per class), UN at 0.3
 * (requests at 0.15, replies the rest), 1000 cycles of warm-up and 3000 measured, seed 9:
 * - exact counts on emulated time, and the run of 2 threads identical to the run of one;
 * - the invariants after the drain (run_keep(): every packet accepted by an injection queue
 *   delivered, credits home, queues empty, no fabric drop), and every request answered: the
 *   packets delivered over the whole run are twice the requests (one reply each);
 * - replies carry half the accepted load, within the 10 % the window's sampling allows;
 * - the classes on their VCs: per (link kind, VC) output counters show requests on the first
 *   half and replies on the second, with the same hop counts on both halves under MIN (a
 *   reply retraces its request's minimal path in reverse: the same local and global hops);
 * - FlexVC, LOWEST: a reply may take the request VCs (thesis Theorem 2), so the reply VCs
 *   stay empty, and the run still drains.
 */
#include <math.h>
#include <string.h>

#include "simtest.h"

/* Packets sent per VC over every local (lv) and global (gv) port of every router. */
static void vc_sums(const struct dfly_fabric *fab, uint64_t lv[8], uint64_t gv[8])
{
	const struct dfly_topo *t = dfly_fabric_topo(fab);

	memset(lv, 0, 8 * sizeof(*lv));
	memset(gv, 0, 8 * sizeof(*gv));
	for (uint32_t r = 0; r < t->routers; r++)
		for (uint32_t p = t->first_local; p < t->radix; p++)
			for (uint32_t v = 0; v < 8; v++) {
				uint64_t x =
				    dfly_fabric_regs(fab, r)->vc_ctr[p][v][DFLY_VC_OUT_VC_PKTS];

				if (p < t->first_global)
					lv[v] += x;
				else
					gv[v] += x;
			}
}

static struct dfly_fabric *run_rr(const char *mech, const char *vl, const char *vg,
				  const char *extra, const char *threads, struct dfly_sim_result *r)
{
	const char *sets[] = {mech,
			      vl,
			      vg,
			      "traffic.reqrep=true",
			      "traffic.load=0.3",
			      "sim.warmup=1000",
			      "sim.measure=3000",
			      threads,
			      extra};
	struct dfly_netcfg cfg;

	load_cfg(&cfg, "h2", sets, extra != NULL ? 9 : 8);
	return run_keep(&cfg, 9, r);
}

static void check_classes(const char *mech, const char *vl, const char *vg, unsigned half_l,
			  unsigned half_g, uint64_t delivered, uint64_t total)
{
	struct dfly_sim_result r, r2;
	struct dfly_fabric *fab = run_rr(mech, vl, vg, NULL, "sim.threads=1", &r);
	uint64_t lv[8], gv[8], req_l = 0, rep_l = 0, req_g = 0, rep_g = 0;

	vc_sums(fab, lv, gv);
	dfly_fabric_destroy(fab);
	for (unsigned v = 0; v < 2 * half_l; v++)
		*(v < half_l ? &req_l : &rep_l) += lv[v];
	for (unsigned v = 0; v < 2 * half_g; v++)
		*(v < half_g ? &req_g : &rep_g) += gv[v];
	printf("# %s: delivered %llu (whole run %llu), accepted %.4f, replies %.4f; local VCs "
	       "req %llu rep %llu, global req %llu rep %llu\n",
	       mech, (unsigned long long)r.pkts_delivered, (unsigned long long)r.dlv_total,
	       r.accepted, r.accepted_rep, (unsigned long long)req_l, (unsigned long long)rep_l,
	       (unsigned long long)req_g, (unsigned long long)rep_g);
	assert_int_equal(r.pkts_delivered, delivered);
	assert_int_equal(r.dlv_total, total);
	assert_int_equal(r.dlv_total % 2, 0); /* every request answered once */
	assert_true(fabs(r.accepted / 0.3 - 1) < 0.1);
	assert_true(fabs(r.accepted_rep / (r.accepted / 2) - 1) < 0.1);
	/* every packet crossed at least one local or global hop on its class's VCs */
	assert_true(req_l > 0 && rep_l > 0 && req_g > 0 && rep_g > 0);
	for (unsigned v = 2 * half_l; v < 8; v++)
		assert_int_equal(lv[v], 0);
	for (unsigned v = 2 * half_g; v < 8; v++)
		assert_int_equal(gv[v], 0);
	if (strcmp(mech, "routing.mechanism=min") == 0) {
		assert_int_equal(req_l, rep_l);
		assert_int_equal(req_g, rep_g);
	}
	/* the same run on 2 threads */
	dfly_fabric_destroy(run_rr(mech, vl, vg, NULL, "sim.threads=2", &r2));
	r.wall_s = r2.wall_s = 0;
	assert_memory_equal(&r, &r2, sizeof(r));
}

static void test_min(void **state)
{
	(void)state;
	check_classes("routing.mechanism=min", "vcs.local=4", "vcs.global=2", 2, 1, 7892, 10566);
}

static void test_val(void **state)
{
	(void)state;
	check_classes("routing.mechanism=val", "vcs.local=8", "vcs.global=4", 4, 2, 7892, 10566);
}

static void test_flexvc_lowest(void **state)
{
	struct dfly_sim_result r;
	struct dfly_fabric *fab = run_rr("routing.mechanism=min", "vcs.local=4", "vcs.global=2",
					 "vcs.flexvc=lowest", "sim.threads=1", &r);
	uint64_t lv[8], gv[8];

	(void)state;
	vc_sums(fab, lv, gv);
	dfly_fabric_destroy(fab);
	printf("# flexvc lowest: delivered %llu, local VCs %llu %llu %llu %llu, global %llu %llu\n",
	       (unsigned long long)r.pkts_delivered, (unsigned long long)lv[0],
	       (unsigned long long)lv[1], (unsigned long long)lv[2], (unsigned long long)lv[3],
	       (unsigned long long)gv[0], (unsigned long long)gv[1]);
	assert_true(lv[0] > 0 && gv[0] > 0);
	assert_true(lv[2] == 0 && lv[3] == 0 && gv[1] == 0);
	assert_int_equal(r.dlv_total % 2, 0);
}

/*
 * traffic.reply at saturation (h2, MIN 4/2, UN at 1.0, 3000 + 5000 cycles): "consume" (FOGSim's
 * checkConsumePort and checkConsume: requests on the first half of the injection VCs, replies on
 * the rest) lets a request cross to its node port only while its node's reply VCs have room for
 * its reply and those of the requests granted before it, and ejects it only when its reply fits,
 * so requests wait in their input VCs (reply_wait counts those cycles), not in front of the
 * replies to the same node; "queue" (the default) ejects at once and never waits.
 * Every request is answered either way, with no deadlock (the injection VCs split by class: the
 * first build of "consume" without the split deadlocked here, requests waiting at ejection for
 * room that new requests held).
 */
static uint64_t reply_run(const char *mode, struct dfly_sim_result *r)
{
	const char *sets[] = {"routing.mechanism=min", "vcs.local=4",      "vcs.global=2",
			      "traffic.reqrep=true",   "traffic.load=1.0", "sim.warmup=3000",
			      "sim.measure=5000",      "sim.threads=1",    mode};
	struct dfly_netcfg cfg;
	struct dfly_fabric *fab;
	uint64_t wait;

	load_cfg(&cfg, "h2", sets, 9);
	fab = run_keep(&cfg, 9, r);
	wait = port_sum(fab, DFLY_REPLY_WAIT);
	dfly_fabric_destroy(fab);
	printf("# %s: accepted %.4f (replies %.4f), delivered %llu of %llu, reply_wait %llu\n",
	       mode, r->accepted, r->accepted_rep, (unsigned long long)r->pkts_delivered,
	       (unsigned long long)r->dlv_total, (unsigned long long)wait);
	return wait;
}

static void test_reply_modes(void **state)
{
	struct dfly_sim_result c, q;

	(void)state;
	assert_int_equal(reply_run("traffic.reply=consume", &c), 13295);
	assert_int_equal(c.pkts_delivered, 37470);
	assert_int_equal(reply_run("traffic.reply=queue", &q), 0);
	assert_int_equal(q.pkts_delivered, 39244);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_min),
	    cmocka_unit_test(test_val),
	    cmocka_unit_test(test_flexvc_lowest),
	    cmocka_unit_test(test_reply_modes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
