/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim.threads and sim.batch: the routers of a cycle stepped on 2 and 3 threads, each router
 * stepped over the links' lookahead in a row (sim.batch), or both (each thread steps the batches
 * of its routers), give the run of one thread stepping the routers cycle by cycle, bit for bit.
 * For each case the whole network runs that way (sim.batch = false, 1 thread), then batched on
 * 1 thread, on 2 and 3 threads cycle by cycle, batched on 2 and 3 threads, and batched on 2
 * threads whose packet pools grow by 64 packets (so packets keep moving from one thread's pool
 * to the other's, which must happen), from the same seed, and every router's register file
 * (every counter, gauge, table and firmware ring: the whole struct dfly_regs), the totals and
 * every delivery (source, destination, cycles, hops) must be identical. Deliveries are compared
 * as a set: a batch delivers a router's packets of several cycles before the next router's.
 * The cases cover what crosses between routers:
 *   - MIN and UGAL under UN at 0.8 (data and credits on every link);
 *   - PB (a PB_STATE frame on every local link every cycle: the control lines and their room);
 *   - ECtN under ADV+1 with control frames late by 1,500 cycles and 5 % lost (records due
 *     beyond the 1,024-slot arrival calendar: the far lines);
 *   - MIN with 1,500-cycle global links and a global link down and up (far data and credits,
 *     failover);
 *   - OLM (in-transit) and LIA under ADV+1.
 * Each ends drained, with the fabric's invariants (conservation, credits, empty queues).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "dfly/wire.h"
#include "fabric.h"
#include "netcfg.h"
#include "simtest.h"

struct run {
	uint64_t gen, dlv, drop, dlv_hash, ndlv;
	uint64_t pool_moved;
	uint32_t pool_chunks;
	struct dfly_regs *regs; /* [routers] */
	uint32_t routers;
};

static void tap(void *ctx, const struct dfly_delivery *d)
{
	struct run *r = ctx;
	uint64_t v[] = {d->src_node, d->dst_node, d->gen_cycle, d->inj_cycle, d->tail_cycle,
			d->len,      d->lhops,    d->ghops,     d->nonmin};

	uint64_t h = 0xcbf29ce484222325ull;

	/* FNV-1a over the delivery; the sum over deliveries, whatever their order */
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		for (int b = 0; b < 8; b++) {
			h ^= (v[i] >> (8 * b)) & 0xff;
			h *= 0x100000001b3ull;
		}
	/* called from several threads at once with sim.threads and sim.batch */
	__atomic_fetch_add(&r->dlv_hash, h, __ATOMIC_RELAXED);
	__atomic_fetch_add(&r->ndlv, 1, __ATOMIC_RELAXED);
}

struct tcase {
	const char *name, *cfg;
	const char *sets[8];
	int nsets;
	uint64_t cycles;
	struct dfly_fabric_opts opts;
	bool link_flap; /* router 0's port 5 down at 1000, up at 2500 */
};

static void run_case(const struct tcase *tc, uint32_t threads, bool batch, uint32_t pool_chunk,
		     struct run *out)
{
	char err[DFLY_NETCFG_ERRLEN];
	struct dfly_netcfg cfg;
	struct dfly_fabric *fab;
	struct dfly_link_fault lf = {.router = 0, .port = 5, .down = 1000, .up = 2500};
	struct dfly_fabric_opts o = tc->opts;
	uint32_t R;

	load_cfg(&cfg, tc->cfg, tc->sets, tc->nsets);
	o.pool_chunk = pool_chunk;
	cfg.threads = threads;
	cfg.batch = batch;
	if (tc->link_flap) {
		o.faults = &lf;
		o.nfaults = 1;
	}
	fab = dfly_fabric_create_opts(&cfg, cfg.seed, &o, err, sizeof(err));
	if (fab == NULL)
		fprintf(stderr, "%s\n", err);
	assert_non_null(fab);
	R = dfly_fabric_topo(fab)->routers;
	assert_int_equal(dfly_fabric_threads(fab), threads);
	memset(out, 0, sizeof(*out));
	out->dlv_hash = 0;
	dfly_fabric_set_tap_concurrent(fab, tap, out);
	assert_int_equal(dfly_fabric_step(fab, tc->cycles), 0);
	/* drain, then the invariants */
	dfly_fabric_set_load(fab, 0);
	for (int i = 0; i < 100 && dfly_fabric_in_flight(fab) != 0; i++)
		assert_int_equal(dfly_fabric_step(fab, 500), 0);
	assert_int_equal(dfly_fabric_in_flight(fab), 0);
	assert_int_equal(dfly_fabric_step(fab, 4000), 0); /* the last credits cross their links */
	if (dfly_fabric_check_invariants(fab, true, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s, %u threads: invariants: %s\n", tc->name, threads, err);
		fail();
	}
	dfly_fabric_totals(fab, &out->gen, &out->dlv, &out->drop);
	dfly_fabric_pool_stats(fab, &out->pool_chunks, &out->pool_moved);
	out->routers = R;
	out->regs = malloc(R * sizeof(*out->regs));
	assert_non_null(out->regs);
	for (uint32_t r = 0; r < R; r++)
		memcpy(&out->regs[r], dfly_fabric_regs(fab, r), sizeof(*out->regs));
	dfly_fabric_destroy(fab);
}

static void check_case(const struct tcase *tc)
{
	struct run one, many;

	unsetenv("DFLY_SIM_THREADS"); /* the threads are this test's to choose */
	run_case(tc, 1, false, 0, &one);
	assert_true(one.dlv > 1000);
	/* one thread batched; 2 and 3 threads cycle by cycle; 2 and 3 threads batched; 2 threads
	 * batched with packet pools of 64-packet chunks, so that packets freed on one thread's
	 * pool keep being moved to the other's (lanes_balance) */
	for (uint32_t k = 0; k < 6; k++) {
		static const uint32_t threads[] = {1, 2, 3, 2, 3, 2};
		uint32_t n = threads[k], chunk = k == 5 ? 64 : 0;
		bool batch = k == 0 || k >= 3;

		run_case(tc, n, batch, chunk, &many);
		printf("# %s, %u thread(s)%s%s: generated %llu delivered %llu (hash %016llx), "
		       "%u pool chunks, %llu packets moved between pools\n",
		       tc->name, n, batch ? ", sim.batch" : "", chunk ? ", 64-packet chunks" : "",
		       (unsigned long long)many.gen, (unsigned long long)many.dlv,
		       (unsigned long long)many.dlv_hash, many.pool_chunks,
		       (unsigned long long)many.pool_moved);
		if (chunk)
			assert_true(many.pool_moved > 0);
		assert_int_equal(many.gen, one.gen);
		assert_int_equal(many.dlv, one.dlv);
		assert_int_equal(many.drop, one.drop);
		assert_int_equal(many.ndlv, one.ndlv);
		assert_int_equal(many.dlv_hash, one.dlv_hash);
		for (uint32_t r = 0; r < one.routers; r++)
			if (memcmp(&many.regs[r], &one.regs[r], sizeof(*one.regs)) != 0) {
				const uint8_t *a = (const uint8_t *)&one.regs[r];
				const uint8_t *b = (const uint8_t *)&many.regs[r];
				size_t off = 0;

				while (a[off] == b[off])
					off++;
				fprintf(stderr,
					"%s, %u thread(s)%s: router %u's registers differ at byte "
					"%zu\n",
					tc->name, n, batch ? ", sim.batch" : "", r, off);
				fail();
			}
		free(many.regs);
	}
	printf("# %s: 1 thread, cycle by cycle: generated %llu delivered %llu (hash %016llx)\n",
	       tc->name, (unsigned long long)one.gen, (unsigned long long)one.dlv,
	       (unsigned long long)one.dlv_hash);
	free(one.regs);
}

static void test_min_ugal(void **state)
{
	struct tcase a = {
	    "MIN UN 0.8", "h2", {"routing.mechanism=min", "traffic.load=0.8"}, 2, 4000};
	struct tcase b = {
	    "UGAL UN 0.8", "h2", {"routing.mechanism=ugal", "traffic.load=0.8"}, 2, 4000};

	(void)state;
	check_case(&a);
	check_case(&b);
}

static void test_pb(void **state)
{
	struct tcase c = {"PB ADV+1 0.4",
			  "h2",
			  {"routing.mechanism=pb", "traffic.pattern=adv+1", "traffic.load=0.4"},
			  3,
			  4000};

	(void)state;
	check_case(&c);
}

static void test_ectn_late_ctrl(void **state)
{
	struct tcase c = {"ECtN ADV+1 0.4, control frames 1500 cycles late, 5% lost",
			  "h2",
			  {"routing.mechanism=ectn", "traffic.pattern=adv+1", "traffic.load=0.4"},
			  3,
			  5000,
			  {.ctrl_types = 1u << DFLY_WIRE_CTRL_ECTN_PARTIAL,
			   .ctrl_loss_ppm = 50000,
			   .ctrl_delay = 1500}};

	(void)state;
	check_case(&c);
}

static void test_far_links_flap(void **state)
{
	struct tcase c = {"MIN UN 0.3, 1500-cycle global links, one down 1000..2499",
			  "h2",
			  {"routing.mechanism=min", "traffic.load=0.3", "links.global_latency=1500",
			   "buffers.global=3200", "routing.failover.enabled=on"},
			  5,
			  6000,
			  {0},
			  true};

	(void)state;
	check_case(&c);
}

static void test_olm_lia(void **state)
{
	struct tcase a = {"OLM ADV+1 0.5",
			  "h2",
			  {"routing.mechanism=olm", "traffic.pattern=adv+1", "traffic.load=0.5"},
			  3,
			  4000};
	struct tcase b = {"LIA ADV+1 0.5",
			  "h2",
			  {"routing.mechanism=lia", "traffic.pattern=adv+1", "traffic.load=0.5"},
			  3,
			  4000};

	(void)state;
	check_case(&a);
	check_case(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_min_ugal),       cmocka_unit_test(test_pb),
	    cmocka_unit_test(test_ectn_late_ctrl), cmocka_unit_test(test_far_links_flap),
	    cmocka_unit_test(test_olm_lia),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
