/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of Graph500's synthetic model (traffic/graph500.c, spec §7.7, thesis §2.2):
 * - the moments of E_l (eq. 2.5–2.17) at LIA's s = 20, f_e = 16, d_r = 3 for levels 1–5 with
 *   the thesis's C and FOGSim's, against the values of the equations evaluated apart (Python,
 *   math module) to 1e-9;
 * - the messages of eq. 2.3–2.4 with FOGSim's rounding;
 * - the state machine over an ideal network (every packet arrives 5 cycles after its offer):
 *   8 processes on nodes 0–7 of 10 (8 and 9 idle, never offering), s = 10, f_e = 16, c_s = 16,
 *   3 packets per message. Level 0: only the root sends messages, every other process sends
 *   only its reduce packet; every later level: n(n − 1) signals, n − 1 reduce and n − 1
 *   broadcast packets; every message its 3 packets to one process, at most c_s queries; the
 *   queries sent equal the queries received, level by level; the model ends within 5 levels;
 * - consumption: t_q = 10 cycles per query, a message of 5 queries received at cycle 100 holds
 *   the next message until cycle 150; λ = L/(t_q·c_s) (eq. 2.20), the chance per cycle
 *   1/(L/λ − L + 1) = 1/2553 for L = 8, t_q = 10, c_s = 256;
 * - refusals: fewer than 2 processes, a node given twice.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <errno.h>
#include <math.h>

#include "graph500.h"

static void test_moments(void **state)
{
	static const double thesis[5][2] = {
	    {4.38106e+06, 16648},  {1.87249e+07, 3.58117e+06}, {1.57852e+07, 3.58117e+06},
	    {1.94756e+06, 800114}, {66592.1, 4855.56},
	};
	static const double fogsim[5][2] = {
	    {15935.2, 16648},      {5.94639e+06, 3.58117e+06}, {9.02819e+08, 3.58117e+06},
	    {2.46423e+07, 800114}, {7683.43, 4855.56},
	};
	struct dfly_g5_params p = {.scale = 20, .edge_factor = 16};
	double m, sd;

	(void)state;
	for (uint32_t l = 1; l <= 5; l++) {
		p.coef = DFLY_G5_COEF_THESIS;
		dfly_g5_moments(&p, l, 3, &m, &sd);
		/* the table holds 6 significant digits */
		assert_true(fabs(m / thesis[l - 1][0] - 1) < 1e-5);
		assert_true(fabs(sd / thesis[l - 1][1] - 1) < 1e-5);
		p.coef = DFLY_G5_COEF_FOGSIM;
		dfly_g5_moments(&p, l, 3, &m, &sd);
		assert_true(fabs(m / fogsim[l - 1][0] - 1) < 1e-5);
		assert_true(fabs(sd / fogsim[l - 1][1] - 1) < 1e-5);
	}
}

static void test_messages(void **state)
{
	(void)state;
	/* n' = ⌊72·(1 − (71/72)^1000)⌋ = 71 destinations, one message each */
	assert_int_equal(dfly_g5_messages(1000, 72, 256), 71);
	/* 100,000 queries: 72 destinations (n' truncates to 72), ⌈100000/(72·256)⌉ = 6 each */
	assert_int_equal(dfly_g5_messages(100000, 72, 256), 432);
	assert_int_equal(dfly_g5_messages(3, 72, 256), 2);
	assert_int_equal(dfly_g5_messages(190, 5256, 256), 186);
	assert_int_equal(dfly_g5_messages(0, 72, 256), 0);
}

/* An ideal network: packets in flight arrive 5 cycles after their offer. */
struct inflight {
	uint32_t src, dst, app;
	uint64_t due;
};

#define NODES 10u
#define NPROC 8u

static void test_levels(void **state)
{
	static const uint32_t proc_node[NPROC] = {0, 1, 2, 3, 4, 5, 6, 7};
	struct dfly_g5_params p = {
	    .scale = 10,
	    .edge_factor = 16,
	    .coalescing = 16,
	    .query_cycles = 0,
	    .root_degree = 3,
	    .max_levels = 5,
	    .msg_packets = 3,
	    .pkt_phits = 4,
	};
	struct dfly_g5 g;
	size_t cap = 1u << 20, nq = 0;
	struct inflight *q = calloc(cap, sizeof(*q));
	uint64_t sig = 0, red = 0, bc = 0, p2p = 0, q_sent = 0, q_rx = 0, now = 0;
	uint32_t levels = 0, msg_left[NPROC] = {0}, msg_dst[NPROC] = {0};

	(void)state;
	assert_non_null(q);
	assert_int_equal(dfly_g5_init(&g, &p, proc_node, NPROC, NODES, 7), 0);
	assert_int_equal(g.root_degree, 3);
	/* 2^11 · 16 · 7/8 */
	assert_int_equal(g.total, 28672);
	while (!g.done) {
		for (uint32_t n = 0; n < NODES; n++) {
			uint32_t dst, app, pr = n;

			if (!dfly_g5_offer(&g, n, now, &dst, &app))
				continue;
			assert_true(n < NPROC);
			assert_true(dst < NPROC && dst != n);
			assert_true(nq < cap);
			q[nq++] = (struct inflight){n, dst, app, now + 5};
			switch (DFLY_G5_APP_KIND(app)) {
			case DFLY_G5_APP_P2P:
				/* a message's packets go back to back to one process */
				if (msg_left[pr] == 0) {
					msg_left[pr] = 3;
					msg_dst[pr] = dst;
				}
				assert_int_equal(dst, msg_dst[pr]);
				msg_left[pr]--;
				/* share ≤ ⌈c_s / 3⌉ */
				assert_true(DFLY_G5_APP_VALUE(app) <= 6);
				if (g.level == 0)
					assert_int_equal(n, g.proc[g.root].node);
				p2p++;
				q_sent += DFLY_G5_APP_VALUE(app);
				break;
			case DFLY_G5_APP_SIGNAL:
				/* every message complete before the signals */
				assert_int_equal(msg_left[pr], 0);
				sig++;
				break;
			case DFLY_G5_APP_REDUCE:
				assert_int_equal(dst, g.proc[g.root].node);
				red++;
				break;
			default:
				assert_int_equal(n, g.proc[g.root].node);
				bc++;
				break;
			}
		}
		now++;
		/* deliver what is due (FIFO: the dues are in order) */
		{
			size_t k = 0, w = 0;

			for (; k < nq; k++) {
				if (q[k].due <= now) {
					if (DFLY_G5_APP_KIND(q[k].app) == DFLY_G5_APP_P2P)
						q_rx += DFLY_G5_APP_VALUE(q[k].app);
					dfly_g5_receive(&g, q[k].dst, q[k].app, now);
				} else {
					q[w++] = q[k];
				}
			}
			nq = w;
		}
		if (dfly_g5_level_over(&g)) {
			assert_int_equal(nq, 0);
			assert_int_equal(q_sent, q_rx);
			assert_int_equal(red, NPROC - 1);
			assert_int_equal(bc, NPROC - 1);
			/* level 0: the root signals everyone; later: everyone everyone */
			assert_int_equal(sig, g.level == 0 ? NPROC - 1 : NPROC * (NPROC - 1));
			assert_int_equal(p2p % 3, 0);
			levels++;
			dfly_g5_next_level(&g, now);
			assert_int_equal(g.level_msgs[levels - 1] * 3, p2p);
			assert_int_equal(g.level_queries[levels - 1], q_sent);
			sig = red = bc = p2p = q_sent = q_rx = 0;
		}
		assert_true(now < 10000000);
	}
	printf("# graph500 ideal network: %u levels in %llu cycles, messages", levels,
	       (unsigned long long)now);
	for (uint32_t l = 0; l < levels; l++)
		printf(" %llu", (unsigned long long)g.level_msgs[l]);
	printf(", queries left %lld\n", (long long)g.remain);
	assert_true(levels >= 2 && levels <= 5);
	assert_int_equal(g.level_msgs[0], dfly_g5_messages(3 /* ⌈3·7/8⌉ */, NPROC, 16));
	dfly_g5_fini(&g);
	free(q);
}

static void test_consumption(void **state)
{
	static const uint32_t proc_node[2] = {0, 1};
	struct dfly_g5_params p = {
	    .scale = 10,
	    .edge_factor = 16,
	    .coalescing = 256,
	    .query_cycles = 10,
	    .root_degree = 3,
	    .max_levels = 5,
	    .msg_packets = 1,
	    .pkt_phits = 8,
	};
	struct dfly_g5 g;
	uint32_t dst, app, root;
	uint64_t t;

	(void)state;
	assert_int_equal(dfly_g5_init(&g, &p, proc_node, 2, 2, 3), 0);
	/* λ = L/(t_q·c_s) = 8/2560 phits per cycle: a mean gap of 2,560 cycles */
	assert_true(fabs(ldexp((double)g.p_msg, -64) - 1.0 / 2553) < 1e-15);
	root = g.proc[g.root].node;
	dfly_g5_receive(&g, root, DFLY_G5_APP_P2P | 5, 100);
	assert_int_equal(g.proc[g.root].busy_until, 150);
	for (t = 100; t < 150; t++)
		assert_false(dfly_g5_offer(&g, root, t, &dst, &app));
	while (!dfly_g5_offer(&g, root, t, &dst, &app))
		assert_true(++t < 150 + 100000);
	assert_int_equal(dst, 1 - root);
	assert_int_equal(DFLY_G5_APP_KIND(app), DFLY_G5_APP_P2P);
	/* d_r = 3 over 2 processes: ⌈3/2⌉ = 2 queries, one message */
	assert_int_equal(DFLY_G5_APP_VALUE(app), 2);
	dfly_g5_fini(&g);
}

static void test_refused(void **state)
{
	static const uint32_t twice[3] = {0, 2, 2};
	struct dfly_g5_params p = {
	    .scale = 10,
	    .edge_factor = 16,
	    .coalescing = 256,
	    .root_degree = 3,
	    .max_levels = 5,
	    .msg_packets = 1,
	    .pkt_phits = 8,
	};
	struct dfly_g5 g;

	(void)state;
	assert_int_equal(dfly_g5_init(&g, &p, twice, 1, 4, 1), -EINVAL);
	assert_int_equal(dfly_g5_init(&g, &p, twice, 3, 4, 1), -EINVAL);
	assert_int_equal(dfly_g5_init(&g, &p, twice, 3, 2, 1), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_moments), cmocka_unit_test(test_messages),
	    cmocka_unit_test(test_levels),  cmocka_unit_test(test_consumption),
	    cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
