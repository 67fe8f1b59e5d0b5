/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfly bench counters: the contention, ECtN and LIA counter updates of the switch ASIC model
 * timed alone, outside a running network.
 */
#include <stdlib.h>
#include <time.h>

#include "asic_priv.h"

/* ---------------------------------------------------------------------------------------------
 * dfly bench counters: the counter updates alone
 */

double asic_bench_counters(const struct dfly_topo *topo, const struct asic_params *par,
			   enum asic_bench_ctr which, uint64_t npk)
{
	enum { NPK = 1024 };
	struct dfly_regs *regs = calloc(1, sizeof(*regs));
	struct asic_pkt *pk = calloc(NPK, sizeof(*pk));
	struct asic *as = regs && pk ? asic_create(topo, 0, par, regs, 1) : NULL;
	uint32_t in = which == ASIC_BENCH_CC ? topo->first_local : 0;
	uint32_t remote = topo->nodes - topo->p * topo->a;
	struct dfly_rng rng;
	struct timespec t0, t1;
	double ns = -1;

	if (as == NULL || remote == 0)
		goto out;
	asic_acquire_tables(as, 0);
	dfly_rng_seed(&rng, 1, 2);
	for (uint32_t i = 0; i < NPK; i++) {
		/* destinations in remote groups, uniformly */
		pk[i].dst_node = topo->p * topo->a + dfly_rng_below(&rng, remote);
		pk[i].len = 8;
		pkt_cache(as, &pk[i]); /* as ivc_push does */
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (uint64_t n = 0; n < npk; n++) {
		const struct asic_pkt *p = &pk[n & (NPK - 1)];
		uint32_t D = p->dst_node / topo->p / topo->a;
		struct dfly_regs_mech_ctrs *m = &regs->mech;

		switch (which) {
		case ASIC_BENCH_NONE:
			m->cc[D & 7] += (uint16_t)(p->dst_node & 1);
			break;
		case ASIC_BENCH_CC:
		case ASIC_BENCH_ALL:
			if (which == ASIC_BENCH_ALL)
				m->lia_stored[D]++; /* asic_inject */
			asic_cc_head(as, in, p);
			__asm__ volatile("" ::: "memory");
			cc_crossing(as, in, p, 0);
			__asm__ volatile("" ::: "memory");
			asic_cc_release(as, 0);
			break;
		case ASIC_BENCH_ECTN:
			m->ectn_partial[D]++;
			ectn_combined_update(as, D);
			__asm__ volatile("" ::: "memory");
			m->ectn_partial[D]--;
			ectn_combined_update(as, D);
			break;
		case ASIC_BENCH_LIA:
			m->lia_stored[D]++;
			__asm__ volatile("" ::: "memory");
			m->lia_stored[D]--;
			m->lia_injected[D]++;
			break;
		}
		__asm__ volatile("" ::: "memory");
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ns = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) /
	     (double)npk;
out:
	asic_destroy(as);
	free(pk);
	free(regs);
	return ns;
}
