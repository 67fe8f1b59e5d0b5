/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Whole-network tests of the contention-counter mechanisms (spec §5, §9.2) in virtual time, every
 * run with routing.cc.check on (the event-driven counters equal the recompute form at every
 * cycle of every router, else the invariants fail) and the usual invariants after the drain
 * (conservation, credits, empty buffers, every counter and partial array back to 0):
 * The properties follow the claims of spec §9.2 on h=2 and h=4; they are not the claims' verdicts,
 * which `dfly repro claims` computes with the spec's tolerances (tests/sim/claims_quick.sh):
 *  - UN (H8's setting): Base, Filtered and ECtN misroute < 1% and their latency equals MIN's within
 * 3% (h=2 at 0.2 and 0.4, h=4 at 0.3);
 *  - ADV+1 0.4 (H10's setting): Base, Hybrid and ECtN accept >= 0.9 x OLM's throughput; on h=2 ECtN
 * has the lowest latency of the counter family, on h=4 (0.3 and 0.4) the lowest of all adaptive
 *    mechanisms, OLM and Hybrid included, and its injection-time misrouting happens;
 *  - H13, UN -> ADV+1 at 0.2 on h=4: Base reaches 80% of its misrouted share within 30 cycles;
 *    ECtN routes exactly like Base until the first partial-array broadcast after the change
 *    (t0 is a broadcast cycle: the arrays sent at t0 describe UN), misroutes at injection only
 *    after the next one, and is then faster than Base;
 *  - H15: after convergence ECtN's latency is flat where PB's oscillates;
 *  - ECtN's lighter alternatives (spec §5.6) at ADV+1 0.4 on h=2: sparse and incremental (no
 *    loss) runs are identical to the full array's; async and charged control frames
 *    keep the invariants and >= 0.9 x its throughput, and a charged frame holds its link 2 phits;
 *  - H10 with and without in-transit priority, p=3 a=6 h=3 with the CFG-T router, ADV+1 0.5:
 *    Base, Hybrid and ECtN hold the load (>= 0.49), misroute 85-93% (FOGSim dcdd75f: 90%),
 *    stay within 1.25 x OLM's latency, ECtN lowest; also with FOGSim's single-candidate draw.
 *    The candidates that cannot take the packet now (routing.cc.candidate = credits, the
 *    behaviour before) lose the load under priority (< 0.46, > 97% misrouted).
 * h=2 (p = 2) is below the threshold rule's range (th <= p, §5.8): OLM and Hybrid are faster
 * than the counter mechanisms there; docs/contention.md gives the figures.
 */
#include "simtest.h"
#include "transient.h"

#include <math.h>
#include <string.h>

#include "fw.h"

#define MAXSETS 16

/* Load @p net with mechanism, pattern, load, the counter check and @p extra settings. */
static void setup(struct dfly_netcfg *cfg, const char *net, const char *mech, const char *pat,
		  const char *load, const char *const *extra, int nextra)
{
	char m[64], p[64], l[64];
	const char *sets[MAXSETS] = {m, p, l, "routing.cc.check=true"};
	int n = 4;

	snprintf(m, sizeof(m), "routing.mechanism=%s", mech);
	snprintf(p, sizeof(p), "traffic.pattern=%s", pat);
	snprintf(l, sizeof(l), "traffic.load=%s", load);
	for (int i = 0; i < nextra && n < MAXSETS; i++)
		sets[n++] = extra[i];
	load_cfg(cfg, net, sets, n);
}

/* h=4 runs: 5,000 cycles of warm-up and of measurement (the file's 10,000 each cost 2x). */
static const char *const h4win[] = {"sim.warmup=5000", "sim.measure=5000"};

static void simx(const char *net, const char *mech, const char *pat, const char *load,
		 struct dfly_sim_result *res, uint64_t *trig_ectn)
{
	struct dfly_netcfg cfg;
	struct dfly_fabric *fab;
	bool h4 = strcmp(net, "h4") == 0;

	setup(&cfg, net, mech, pat, load, h4 ? h4win : NULL, h4 ? 2 : 0);
	fab = run_keep(&cfg, 1, res);
	if (trig_ectn != NULL)
		*trig_ectn = route_sum(fab, DFLY_ROUTE_CC_TRIG_ECTN);
	dfly_fabric_destroy(fab);
}

static void sim(const char *mech, const char *pat, const char *load, struct dfly_sim_result *res,
		uint64_t *trig_ectn)
{
	simx("h2", mech, pat, load, res, trig_ectn);
}

static void test_un_equals_min(void **state)
{
	static const char *const loads[] = {"0.2", "0.4"};

	(void)state;
	for (int i = 0; i < 2; i++) {
		struct dfly_sim_result min, r;
		static const char *const mechs[] = {"base", "filtered", "ectn"};

		sim("min", "un", loads[i], &min, NULL);
		for (int k = 0; k < 3; k++) {
			sim(mechs[k], "un", loads[i], &r, NULL);
			if (!(r.misrouted_pct < 1.0) ||
			    fabs(r.lat_avg - min.lat_avg) > 0.03 * min.lat_avg)
				fail_msg("UN %s %s: misrouted %.2f%%, latency %.2f vs MIN %.2f",
					 loads[i], mechs[k], r.misrouted_pct, r.lat_avg,
					 min.lat_avg);
		}
	}
}

static void test_adv1(void **state)
{
	struct dfly_sim_result olm, base, hyb, filt, ectn;
	uint64_t trig = 0, trig_base = 0;

	(void)state;
	sim("olm", "adv+1", "0.4", &olm, NULL);
	sim("base", "adv+1", "0.4", &base, &trig_base);
	sim("hybrid", "adv+1", "0.4", &hyb, NULL);
	sim("filtered", "adv+1", "0.4", &filt, NULL);
	sim("ectn", "adv+1", "0.4", &ectn, &trig);
	if (base.accepted < 0.9 * olm.accepted || hyb.accepted < 0.9 * olm.accepted ||
	    ectn.accepted < 0.9 * olm.accepted)
		fail_msg("ADV+1 0.4 accepted: OLM %.4f Base %.4f Hybrid %.4f ECtN %.4f",
			 olm.accepted, base.accepted, hyb.accepted, ectn.accepted);
	if (!(ectn.lat_avg < base.lat_avg && ectn.lat_avg < filt.lat_avg))
		fail_msg("ADV+1 0.4 latency: ECtN %.1f, Base %.1f, Filtered %.1f", ectn.lat_avg,
			 base.lat_avg, filt.lat_avg);
	assert_true(trig > 0);          /* ECtN misrouted at injection on the combined array */
	assert_int_equal(trig_base, 0); /* Base never uses it */
	assert_true(base.misrouted_pct > 50.0 && ectn.misrouted_pct > 50.0);
}

/* ---------------------------------------------------------------------------------------------
 * ECtN's lighter alternatives and charged control frames (spec §5.6, A-5.6), h=2
 */

/* Totals over the routers of an ECtN run: firmware counters and the links' time. */
struct ectn_totals {
	uint64_t fw[FW_STAT_COUNT];
	uint64_t busy, tx_phits, ctrl_tx; /* link_busy_cycles, tx_phits, ctrl_tx */
};

/* ECtN at ADV+1 0.4 on h=2 with @p extra settings; its figures and totals. */
static void sim_ectn(const char *const *extra, int nextra, struct dfly_sim_result *res,
		     struct ectn_totals *t)
{
	struct dfly_netcfg cfg;
	struct dfly_fabric *fab;
	const struct dfly_topo *topo;

	setup(&cfg, "h2", "ectn", "adv+1", "0.4", extra, nextra);
	fab = run_keep(&cfg, 1, res);
	topo = dfly_fabric_topo(fab);
	memset(t, 0, sizeof(*t));
	for (uint32_t r = 0; r < topo->routers; r++) {
		const struct dfly_regs *rg = dfly_fabric_regs(fab, r);
		const struct fw *fw = dfly_fabric_fw(fab, r);

		assert_non_null(fw);
		for (int s = 0; s < FW_STAT_COUNT; s++)
			t->fw[s] += fw_stat_get(fw_stats(fw), (enum fw_stat)s);
		for (uint32_t port = 0; port < topo->radix; port++) {
			t->busy += rg->port_ctr[port][DFLY_LINK_BUSY_CYCLES];
			t->tx_phits += rg->port_ctr[port][DFLY_TX_PHITS];
			t->ctrl_tx += rg->port_ctr[port][DFLY_CTRL_TX];
		}
	}
	dfly_fabric_destroy(fab);
}

/* Every figure of two runs, equal (the runs are deterministic: equal means the same run). */
static void assert_same_run(const char *what, const struct dfly_sim_result *a,
			    const struct dfly_sim_result *b)
{
	if (a->accepted != b->accepted || a->lat_avg != b->lat_avg || a->lat_p50 != b->lat_p50 ||
	    a->lat_p99 != b->lat_p99 || a->lat_max != b->lat_max ||
	    a->net_lat_avg != b->net_lat_avg || a->misrouted_pct != b->misrouted_pct ||
	    a->hops_avg != b->hops_avg || a->pkts_delivered != b->pkts_delivered ||
	    a->gen_total != b->gen_total || a->cycles != b->cycles)
		fail_msg("%s differs from full: accepted %.6f vs %.6f, latency %.4f vs %.4f, "
			 "cycles %llu vs %llu",
			 what, b->accepted, a->accepted, b->lat_avg, a->lat_avg,
			 (unsigned long long)b->cycles, (unsigned long long)a->cycles);
}

/*
 * Sparse lists carry exactly the full arrays' values and incremental deltas rebuild them exactly
 * when nothing is lost (the fabric loses no control frame): both runs are the full array's,
 * figure for figure. Async (period 500, the longer base period the option is meant for) and the
 * full array with router.ctrl_charge keep the invariants (run_keep) and at least 0.9 x the full
 * array's throughput; a charged 30-byte ECTN_PARTIAL (16 bytes after the Ethernet header) holds
 * its link 2 phits of 10 bytes.
 */
static void test_ectn_variants(void **state)
{
	static const char *const sparse[] = {"routing.ectn.mode=sparse"};
	static const char *const incr[] = {"routing.ectn.mode=incremental"};
	static const char *const async[] = {"routing.ectn.mode=async", "routing.ectn.period=500"};
	static const char *const charge[] = {"router.ctrl_charge=true"};
	struct dfly_sim_result full, r;
	struct ectn_totals t;

	(void)state;
	sim_ectn(NULL, 0, &full, &t);
	assert_int_equal(t.fw[FW_STAT_ECTN_TX], t.fw[FW_STAT_ECTN_TX_FULL]);
	assert_int_equal(t.busy, t.tx_phits); /* out of band: control frames take no link time */

	sim_ectn(sparse, 1, &r, &t);
	assert_same_run("sparse", &full, &r);
	assert_true(t.fw[FW_STAT_ECTN_TX_SPARSE] > 0);
	assert_int_equal(t.fw[FW_STAT_ECTN_TX], t.fw[FW_STAT_ECTN_TX_SPARSE]);

	sim_ectn(incr, 1, &r, &t);
	assert_same_run("incremental", &full, &r);
	assert_true(t.fw[FW_STAT_ECTN_TX_DELTA] > 0 && t.fw[FW_STAT_ECTN_TX_FULL] > 0);
	assert_int_equal(t.fw[FW_STAT_ECTN_GAPS], 0);
	assert_int_equal(t.fw[FW_STAT_ECTN_DELTA_STALE], 0);
	assert_int_equal(t.fw[FW_STAT_ECTN_RX], t.fw[FW_STAT_ECTN_TX]);

	sim_ectn(async, 2, &r, &t);
	if (r.accepted < 0.9 * full.accepted)
		fail_msg("async accepted %.4f < 0.9 x full %.4f", r.accepted, full.accepted);
	assert_true(t.fw[FW_STAT_ECTN_ASYNC_TX] > 0);
	assert_int_equal(t.fw[FW_STAT_ECTN_RX], t.fw[FW_STAT_ECTN_TX]);

	sim_ectn(charge, 1, &r, &t);
	if (r.accepted < 0.9 * full.accepted)
		fail_msg("charged accepted %.4f < 0.9 x full %.4f", r.accepted, full.accepted);
	assert_true(t.ctrl_tx > 0);
	assert_int_equal(t.ctrl_tx, t.fw[FW_STAT_ECTN_TX]);
	assert_int_equal(t.busy, t.tx_phits + 2 * t.ctrl_tx);
	printf("# ECtN ADV+1 0.4 charged: accepted %.4f latency %.1f (not charged %.4f, %.1f)\n",
	       r.accepted, r.lat_avg, full.accepted, full.lat_avg);
}

/* ---------------------------------------------------------------------------------------------
 * h=4: the CFG-T router on 264 routers
 */

static void test_h4_un(void **state)
{
	struct dfly_sim_result min, r;
	static const char *const mechs[] = {"base", "ectn"};

	(void)state;
	simx("h4", "min", "un", "0.3", &min, NULL);
	for (int k = 0; k < 2; k++) {
		simx("h4", mechs[k], "un", "0.3", &r, NULL);
		printf("# h4 UN 0.3 %s: misrouted %.2f%%, latency %.2f vs MIN %.2f (%+.2f%%)\n",
		       mechs[k], r.misrouted_pct, r.lat_avg, min.lat_avg,
		       100.0 * (r.lat_avg / min.lat_avg - 1.0));
		assert_true(r.misrouted_pct < 1.0);
		assert_true(fabs(r.lat_avg - min.lat_avg) <= 0.03 * min.lat_avg);
	}
}

static void test_h4_adv1(void **state)
{
	static const char *const loads[] = {"0.3", "0.4"};
	static const char *const mechs[] = {"olm", "base", "hybrid", "filtered", "ectn"};
	struct dfly_sim_result r[5];
	uint64_t trig = 0;

	(void)state;
	for (int i = 0; i < 2; i++) {
		for (int k = 0; k < 5; k++)
			simx("h4", mechs[k], "adv+1", loads[i], &r[k], k == 4 ? &trig : NULL);
		printf("# h4 ADV+1 %s latency: OLM %.1f Base %.1f Hybrid %.1f Filtered %.1f ECtN "
		       "%.1f\n",
		       loads[i], r[0].lat_avg, r[1].lat_avg, r[2].lat_avg, r[3].lat_avg,
		       r[4].lat_avg);
		for (int k = 1; k < 5; k++) {
			if (k != 3 && r[k].accepted < 0.9 * r[0].accepted)
				fail_msg("h4 ADV+1 %s: %s accepts %.4f, OLM %.4f", loads[i],
					 mechs[k], r[k].accepted, r[0].accepted);
			if (k != 4 && !(r[4].lat_avg < r[k].lat_avg))
				fail_msg("h4 ADV+1 %s: ECtN latency %.1f not below %s's %.1f",
					 loads[i], r[4].lat_avg, mechs[k], r[k].lat_avg);
		}
		assert_true(trig > 0);
	}
}

/* ---------------------------------------------------------------------------------------------
 * ADV+1 0.5 on p=3 a=6 h=3 (CFG-T router), with and without in-transit priority (H10)
 */

/* @p mech at ADV+1 0.5 on the shrunk CFG-T network, transit priority @p prio, @p extra
 * settings (up to 4), 3,000 + 3,000 cycles, seed 1. */
static void sim_h3(const char *mech, bool prio, const char *const *extra, int nextra,
		   struct dfly_sim_result *res)
{
	const char *sets[MAXSETS] = {
	    "topology.p=3",
	    "topology.a=6",
	    "topology.h=3",
	    "sim.warmup=3000",
	    "sim.measure=3000",
	    prio ? "router.in_transit_priority=true" : "router.in_transit_priority=false"};
	struct dfly_netcfg cfg;
	int n = 6;

	for (int i = 0; i < nextra && n < MAXSETS; i++)
		sets[n++] = extra[i];
	setup(&cfg, "cfg-t", mech, "adv+1", "0.5", sets, n);
	run(&cfg, 1, res);
}

static void test_h3_adv1_priority(void **state)
{
	static const char *const mechs[] = {"base", "hybrid", "ectn"};
	static const char *const fogsim[] = {"routing.candidate_draw=one",
					     "traffic.injection_vc=random"};
	static const char *const old[] = {"routing.cc.candidate=credits"};
	struct dfly_sim_result olm, r[3];

	(void)state;
	sim_h3("olm", false, NULL, 0, &olm);
	for (int p = 0; p < 2; p++) {
		for (int k = 0; k < 3; k++) {
			sim_h3(mechs[k], p == 1, NULL, 0, &r[k]);
			printf("# h3 ADV+1 0.5 %s %s: accepted %.4f latency %.1f misrouted %.1f%% "
			       "(OLM %.4f %.1f %.1f%%)\n",
			       p ? "priority" : "RR", mechs[k], r[k].accepted, r[k].lat_avg,
			       r[k].misrouted_pct, olm.accepted, olm.lat_avg, olm.misrouted_pct);
			if (r[k].accepted < 0.49 || r[k].misrouted_pct < 85.0 ||
			    r[k].misrouted_pct > 93.0 || r[k].lat_avg > 1.25 * olm.lat_avg)
				fail_msg("h3 ADV+1 0.5 %s %s: accepted %.4f, misrouted %.1f%%, "
					 "latency %.1f (OLM %.1f)",
					 p ? "priority" : "RR", mechs[k], r[k].accepted,
					 r[k].misrouted_pct, r[k].lat_avg, olm.lat_avg);
		}
		if (!(r[2].lat_avg < r[0].lat_avg && r[2].lat_avg < r[1].lat_avg &&
		      r[2].lat_avg < olm.lat_avg))
			fail_msg("h3 ADV+1 0.5: ECtN latency %.1f not the lowest", r[2].lat_avg);
		/* FOGSim's reading: one port of the range drawn, random injection VCs */
		sim_h3("base", p == 1, fogsim, 2, &r[0]);
		assert_true(r[0].accepted >= 0.48);
		assert_true(r[0].misrouted_pct > 85.0 && r[0].misrouted_pct < 93.0);
	}
	/* the candidate test of before: heads wait on global ports whose FIFO is full */
	sim_h3("base", true, old, 1, &r[0]);
	assert_true(r[0].accepted < 0.46 && r[0].misrouted_pct > 97.0);
}

/* ---------------------------------------------------------------------------------------------
 * UN -> ADV+1 at 0.2 on h=4 (H13, H15)
 */

#define TR_WARM 3000 /* a multiple of the ECtN period: t0 is a broadcast cycle */
#define TR_POST 1500

struct trun {
	struct dfly_transient *rec;
	uint64_t trig[3]; /* cc_trig_ectn at t0, t0 + 100, t0 + 200 */
};

static void transient_run(const char *mech, const char *const *extra, int nextra, struct trun *tr)
{
	struct dfly_transient_params tp = {.pre = 200, .post = TR_POST, .bin = 1, .t0 = TR_WARM};
	char err[DFLY_NETCFG_ERRLEN];
	struct dfly_netcfg cfg;
	struct dfly_fabric *fab;

	setup(&cfg, "h4", mech, "un", "0.2", extra, nextra);
	fab = dfly_fabric_create(&cfg, 1, err, sizeof(err));
	assert_non_null(fab);
	tr->rec = dfly_transient_create(&tp);
	assert_non_null(tr->rec);
	dfly_fabric_set_tap_concurrent(fab, dfly_transient_tap, tr->rec);
	assert_int_equal(dfly_fabric_step(fab, TR_WARM), 0);
	assert_int_equal(dfly_fabric_set_pattern(fab, DFLY_PAT_ADV, 1), 0);
	for (int k = 0; k < 3; k++) {
		tr->trig[k] = route_sum(fab, DFLY_ROUTE_CC_TRIG_ECTN);
		if (k < 2)
			assert_int_equal(dfly_fabric_step(fab, 100), 0);
	}
	assert_int_equal(dfly_fabric_step(fab, TR_POST - 200 + 500), 0);
	dfly_fabric_set_load(fab, 0);
	for (int i = 0; i < 20000 && dfly_fabric_in_flight(fab); i += 100)
		assert_int_equal(dfly_fabric_step(fab, 100), 0);
	assert_int_equal(dfly_fabric_in_flight(fab), 0);
	assert_int_equal(dfly_fabric_step(fab, 400), 0); /* credits home */
	if (dfly_fabric_check_invariants(fab, true, err, sizeof(err)) != 0)
		fail_msg("%s: %s", mech, err);
	dfly_transient_end_run(tr->rec);
	dfly_fabric_destroy(fab);
}

/* Packet-weighted % misrouted and average latency of the bins starting in [from, to). */
static void window(const struct dfly_transient *rec, int64_t from, int64_t to, double *mis,
		   double *lat)
{
	uint64_t n = 0, m = 0, l = 0;

	for (uint32_t b = 0; b < dfly_transient_nbins(rec); b++) {
		const struct dfly_transient_bin *bin = dfly_transient_bin_get(rec, b);

		if (bin->cycle >= from && bin->cycle < to) {
			n += bin->packets;
			m += bin->misrouted;
			l += bin->lat_sum;
		}
	}
	assert_true(n > 0);
	*mis = 100.0 * (double)m / (double)n;
	*lat = (double)l / (double)n;
}

/* Standard deviation of the 100-cycle average latencies over [+300, +TR_POST): the ~500-cycle
 * oscillation of H15 shows there; ECtN's own 100-cycle broadcast ripple averages out. */
static double lat_sd(const struct dfly_transient *rec)
{
	double s = 0, ss = 0, mis, lat;
	int k = 0;

	for (int64_t c = 300; c < TR_POST; c += 100, k++) {
		window(rec, c, c + 100, &mis, &lat);
		s += lat;
		ss += lat * lat;
	}
	s /= k;
	return sqrt(ss / k - s * s);
}

static void test_h4_transient(void **state)
{
	const char *pbx[] = {"routing.val.recompute=true"};
	struct trun base, ectn, pb;
	double b_pre, b_20, b_st, e_st, lat, b_lat, e_lat, sd_e, sd_pb;
	double e_mis[5], b_mis[5], e_l[5], b_l[5];

	(void)state;
	transient_run("base", NULL, 0, &base);
	transient_run("ectn", NULL, 0, &ectn);
	transient_run("pb", pbx, 1, &pb);

	/* Base: from ~0% under UN to >= 80% of its steady share within 30 cycles */
	window(base.rec, -200, 0, &b_pre, &lat);
	window(base.rec, 20, 30, &b_20, &lat);
	window(base.rec, TR_POST - 300, TR_POST, &b_st, &lat);
	printf("# h4 UN->ADV+1 0.2 Base: misrouted %.1f%% before, %.1f%% in [+20,+30), steady "
	       "%.1f%%\n",
	       b_pre, b_20, b_st);
	assert_true(b_pre < 1.0);
	assert_true(b_20 >= 0.8 * b_st);

	/* ECtN: until the first broadcast after t0 the received copies still describe UN; only the
	 * router's own live partial can trigger an injection misroute, and it rarely
	 * reaches thc alone. The packets generated then route like Base's (same seed). */
	printf("# ECtN injection misroutes: %llu before t0, %llu in [t0, t0+100), %llu in "
	       "[t0+100, t0+200)\n",
	       (unsigned long long)ectn.trig[0], (unsigned long long)(ectn.trig[1] - ectn.trig[0]),
	       (unsigned long long)(ectn.trig[2] - ectn.trig[1]));
	assert_int_equal(ectn.trig[0], 0);
	assert_true(ectn.trig[1] - ectn.trig[0] <= (ectn.trig[2] - ectn.trig[1]) / 100);
	assert_true(ectn.trig[2] - ectn.trig[1] >= 100);
	for (int k = 0; k < 5; k++) {
		window(ectn.rec, 10 * k, 10 * k + 10, &e_mis[k], &e_l[k]);
		window(base.rec, 10 * k, 10 * k + 10, &b_mis[k], &b_l[k]);
		printf("#   [+%d,+%d): ECtN %.2f%% misrouted, latency %.2f; Base %.2f%%, %.2f\n",
		       10 * k, 10 * k + 10, e_mis[k], e_l[k], b_mis[k], b_l[k]);
		assert_true(fabs(e_mis[k] - b_mis[k]) <= 2.0);
		assert_true(fabs(e_l[k] - b_l[k]) <= 0.02 * b_l[k]);
	}
	/* then it drops below Base */
	window(ectn.rec, 150, 300, &lat, &e_lat);
	window(base.rec, 150, 300, &lat, &b_lat);
	window(ectn.rec, TR_POST - 300, TR_POST, &e_st, &lat);
	printf("# latency in [+150,+300): ECtN %.1f, Base %.1f; ECtN steady misrouted %.1f%%\n",
	       e_lat, b_lat, e_st);
	assert_true(e_lat < 0.97 * b_lat);

	/* H15: ECtN flat, PB oscillating */
	sd_e = lat_sd(ectn.rec);
	sd_pb = lat_sd(pb.rec);
	printf("# sd of 100-cycle latency over [+300,+%d): ECtN %.2f, PB %.2f\n", TR_POST, sd_e,
	       sd_pb);
	assert_true(sd_e < 0.5 * sd_pb);

	dfly_transient_destroy(base.rec);
	dfly_transient_destroy(ectn.rec);
	dfly_transient_destroy(pb.rec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_un_equals_min),    cmocka_unit_test(test_adv1),
	    cmocka_unit_test(test_ectn_variants),    cmocka_unit_test(test_h4_un),
	    cmocka_unit_test(test_h4_adv1),          cmocka_unit_test(test_h4_transient),
	    cmocka_unit_test(test_h3_adv1_priority),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
