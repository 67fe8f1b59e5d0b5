/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CRT, Credit Round Trip (routing.mechanism = "crt", spec §4.8, IAR §3.1; issue 25) on a whole
 * network: h2 (p = 2, a = 4, h = 2) under ADV+1 at 0.4 and UN at 0.2, 1000 cycles of warm-up and
 * 3000 measured, seed 9:
 * - the invariants after the drain (run_keep(): packets conserved, every credit home, held ones
 *   included, queues empty), exact delivered counts, the run on 2 threads identical;
 * - credits are held only at local inputs (crt_held, crt_held_cycles are 0 on every terminal and
 *   global port), and under ADV+1 they are: the global channels' round trips grow (crt_td, a
 *   gauge of the global ports) and the local inputs feeding them hold credits;
 * - at UN 0.2 the holds are fewer than under ADV+1.
 */
#include <string.h>

#include "simtest.h"

struct crt_sums {
	uint64_t held_local, held_other, cycles, td_max;
};

static void crt_sums(const struct dfly_fabric *fab, struct crt_sums *s)
{
	const struct dfly_topo *t = dfly_fabric_topo(fab);

	memset(s, 0, sizeof(*s));
	for (uint32_t r = 0; r < t->routers; r++) {
		const struct dfly_regs *g = dfly_fabric_regs(fab, r);

		for (uint32_t p = 0; p < t->radix; p++) {
			uint64_t h = g->port_ctr[p][DFLY_CRT_HELD];

			if (p >= t->first_local && p < t->first_global)
				s->held_local += h;
			else
				s->held_other += h + g->port_ctr[p][DFLY_CRT_HELD_CYCLES];
			s->cycles += g->port_ctr[p][DFLY_CRT_HELD_CYCLES];
			if (p >= t->first_global && g->port_ctr[p][DFLY_CRT_TD] > s->td_max)
				s->td_max = g->port_ctr[p][DFLY_CRT_TD];
		}
	}
}

static void run_crt(const char *pattern, const char *load, uint64_t delivered, struct crt_sums *s)
{
	const char *sets[] = {"routing.mechanism=crt", pattern,        load, "sim.warmup=1000",
			      "sim.measure=3000",      "sim.threads=1"};
	struct dfly_netcfg cfg;
	struct dfly_sim_result r, r2;
	struct dfly_fabric *fab;

	load_cfg(&cfg, "h2", sets, 6);
	fab = run_keep(&cfg, 9, &r);
	crt_sums(fab, s);
	dfly_fabric_destroy(fab);
	printf("# crt %s %s: delivered %llu; held at local inputs %llu for %llu cycles, elsewhere "
	       "%llu; largest t_d %llu\n",
	       pattern, load, (unsigned long long)r.pkts_delivered,
	       (unsigned long long)s->held_local, (unsigned long long)s->cycles,
	       (unsigned long long)s->held_other, (unsigned long long)s->td_max);
	assert_int_equal(r.pkts_delivered, delivered);
	assert_int_equal(s->held_other, 0);
	sets[5] = "sim.threads=2";
	load_cfg(&cfg, "h2", sets, 6);
	run(&cfg, 9, &r2);
	r.wall_s = r2.wall_s = 0;
	assert_memory_equal(&r, &r2, sizeof(r));
}

static void test_crt_adv(void **state)
{
	struct crt_sums adv, un;

	(void)state;
	run_crt("traffic.pattern=adv+1", "traffic.load=0.4", 9383, &adv);
	assert_true(adv.held_local > 0 && adv.cycles > 0 && adv.td_max > 0);
	run_crt("traffic.pattern=un", "traffic.load=0.2", 5304, &un);
	assert_true(un.held_local < adv.held_local);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_crt_adv),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
