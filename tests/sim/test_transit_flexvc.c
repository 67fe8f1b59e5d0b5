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
 *
 * Request-reply in transit (traffic.reqrep, spec §7.5; thesis §5.2.2, §5.3.4, Table 5.4), the
 * same h2, full load and seed, 1000 + 2000 cycles: OLM and Base with the family's 3/2 per
 * class and no FlexVC (6/4 VCs), and with FlexVC on 3/2 requests + 2/1 replies (5/3, the reply
 * class sized for minimal paths), under UN and ADV+1: no deadlock, the drain's invariants,
 * every request answered (the packets of the whole run twice the requests), exact delivered
 * counts and decision points, every VC of both classes used, without FlexVC the classes apart
 * (as many first global hops on the reply class's G2 as on the requests' G0), 2 threads
 * identical under ADV+1. Accepted at 1.0, UN / ADV+1: OLM 0.8549 / 0.5829 (6/4), 0.9115 /
 * 0.5536 (5/3 FlexVC); Base 0.9040 / 0.5451, 0.9185 / 0.5227. ~20 s with the runs above.
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

/* One request-reply run of @p mech under @p pattern: without FlexVC on 6/4 VCs (3/2 per
 * class, the default halves), with it on 5/3 (3/2 + 2/1); under ADV+1 the same on 2 threads. */
static void run_rr(const char *mech, const char *pattern, bool flexvc, struct transit_counts *out)
{
	char m[64], p[64];
	const char *sets[12] = {
	    m, p, "traffic.reqrep=true", "traffic.load=1.0", "sim.warmup=1000", "sim.measure=2000"};
	int n = 6;
	unsigned nl = flexvc ? 5 : 6, ng = flexvc ? 3 : 4;
	struct dfly_netcfg cfg;
	struct dfly_sim_result r, r2;
	struct dfly_fabric *fab;
	uint64_t lv[8], gv[8];

	snprintf(m, sizeof(m), "routing.mechanism=%s", mech);
	snprintf(p, sizeof(p), "traffic.pattern=%s", pattern);
	if (flexvc) {
		sets[n++] = "vcs.local=5";
		sets[n++] = "vcs.global=3";
		sets[n++] = "vcs.reply_local=2";
		sets[n++] = "vcs.reply_global=1";
		sets[n++] = "vcs.flexvc=jsq";
	} else {
		sets[n++] = "vcs.local=6";
		sets[n++] = "vcs.global=4";
	}
	sets[n++] = "sim.threads=1";
	load_cfg(&cfg, "h2", sets, n);
	fab = run_keep(&cfg, 9, &r);
	out->delivered = r.pkts_delivered;
	out->accepted = r.accepted;
	out->local_src = route_sum(fab, DFLY_ROUTE_OLM_LOCAL_SRC);
	out->local_inter = route_sum(fab, DFLY_ROUTE_OLM_LOCAL_INTER);
	out->local_dst = route_sum(fab, DFLY_ROUTE_OLM_LOCAL_DST);
	out->mandatory = route_sum(fab, DFLY_ROUTE_OLM_MANDATORY_GLOBAL);
	vc_sums(fab, lv, gv);
	dfly_fabric_destroy(fab);
	printf("# %s %s reqrep %s: delivered %llu (whole run %llu), accepted %.4f (replies "
	       "%.4f), local misroutes src %llu inter %llu dst %llu, mandatory global %llu; "
	       "local VCs %llu %llu %llu %llu %llu %llu, global %llu %llu %llu %llu\n",
	       mech, pattern, flexvc ? "flexvc 3/2+2/1" : "6/4",
	       (unsigned long long)r.pkts_delivered, (unsigned long long)r.dlv_total, r.accepted,
	       r.accepted_rep, (unsigned long long)out->local_src,
	       (unsigned long long)out->local_inter, (unsigned long long)out->local_dst,
	       (unsigned long long)out->mandatory, (unsigned long long)lv[0],
	       (unsigned long long)lv[1], (unsigned long long)lv[2], (unsigned long long)lv[3],
	       (unsigned long long)lv[4], (unsigned long long)lv[5], (unsigned long long)gv[0],
	       (unsigned long long)gv[1], (unsigned long long)gv[2], (unsigned long long)gv[3]);
	assert_int_equal(r.dlv_total % 2, 0); /* every request answered once */
	assert_true(r.accepted_rep > 0);
	assert_int_equal(out->mandatory, out->local_src);
	/* every VC of both classes carried traffic; none beyond the port's */
	for (unsigned v = 0; v < 8; v++) {
		assert_true((v < nl) == (lv[v] > 0));
		assert_true((v < ng) == (gv[v] > 0));
	}
	/* without FlexVC the classes share no VC: every request to another group takes one
	 * first global hop (G1's role, on G0, minimal or CRG or mandatory), its reply one on the
	 * reply class's copy, G2 */
	if (!flexvc)
		assert_int_equal(gv[0], gv[2]);
	if (strcmp(pattern, "adv+1") != 0)
		return;
	sets[n - 1] = "sim.threads=2";
	load_cfg(&cfg, "h2", sets, n);
	run(&cfg, 9, &r2);
	r.wall_s = r2.wall_s = 0;
	assert_memory_equal(&r, &r2, sizeof(r));
}

static void test_reqrep_olm(void **state)
{
	struct transit_counts c;

	(void)state;
	run_rr("olm", "un", false, &c);
	expect(&c, 15389, 560, 684, 5282);
	run_rr("olm", "adv+1", false, &c);
	expect(&c, 10492, 6585, 3593, 817);
	run_rr("olm", "un", true, &c);
	expect(&c, 16407, 659, 227, 1444);
	run_rr("olm", "adv+1", true, &c);
	expect(&c, 9965, 6369, 1077, 874);
}

static void test_reqrep_base(void **state)
{
	struct transit_counts c;

	(void)state;
	run_rr("base", "un", false, &c);
	expect(&c, 16272, 140, 22, 954);
	run_rr("base", "adv+1", false, &c);
	expect(&c, 9811, 10366, 868, 3106);
	run_rr("base", "un", true, &c);
	expect(&c, 16533, 150, 24, 556);
	run_rr("base", "adv+1", true, &c);
	expect(&c, 9409, 10201, 1019, 2398);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_olm_flexvc),
	    cmocka_unit_test(test_base_flexvc),
	    cmocka_unit_test(test_reqrep_olm),
	    cmocka_unit_test(test_reqrep_base),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
