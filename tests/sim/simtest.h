/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Helpers of the whole-network tests: load a reference configuration of configs/ with
 * overrides, and run it to the end asserting that no deadlock happened and that every invariant
 * held after the drain. Included by one test file each (static functions).
 */
#ifndef DFLY_SIMTEST_H
#define DFLY_SIMTEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "fabric.h"
#include "netcfg.h"

#ifndef DFLY_SOURCE_DIR
#define DFLY_SOURCE_DIR "."
#endif

static inline void load_cfg(struct dfly_netcfg *cfg, const char *name, const char *const *sets,
			    int n)
{
	char path[512], err[DFLY_NETCFG_ERRLEN];
	int rc;

	snprintf(path, sizeof(path), "%s/configs/%s.cfg", DFLY_SOURCE_DIR, name);
	rc = dfly_netcfg_load(cfg, path, sets, n, err, sizeof(err));
	if (rc != 0)
		fprintf(stderr, "%s\n", err);
	assert_int_equal(rc, 0);
	{
		/* DFLY_SIM_THREADS=N overrides sim.threads: the whole suite can be run threaded to
		 * show it gives the same results (the test's part; the fabric reads no
		 * environment) */
		const char *env = getenv("DFLY_SIM_THREADS");

		if (env != NULL && *env != '\0') {
			char *end;
			unsigned long v = strtoul(env, &end, 10);

			assert_true(*end == '\0' && v >= 1 && v <= 64);
			cfg->threads = (uint32_t)v;
		}
	}
}

/* A route counter summed over every router. */
static inline uint64_t route_sum(const struct dfly_fabric *fab, enum dfly_route_ctr c)
{
	uint64_t n = 0;

	for (uint32_t r = 0; r < dfly_fabric_topo(fab)->routers; r++)
		n += dfly_fabric_regs(fab, r)->route[c];
	return n;
}

/* A port counter summed over every port of every router. */
static inline uint64_t port_sum(const struct dfly_fabric *fab, enum dfly_port_ctr c)
{
	uint64_t n = 0;

	for (uint32_t r = 0; r < dfly_fabric_topo(fab)->routers; r++)
		for (uint32_t p = 0; p < dfly_fabric_topo(fab)->radix; p++)
			n += dfly_fabric_regs(fab, r)->port_ctr[p][c];
	return n;
}

/* A drop counter summed over every router. */
static inline uint64_t drop_sum(const struct dfly_fabric *fab, enum dfly_drop d)
{
	uint64_t n = 0;

	for (uint32_t r = 0; r < dfly_fabric_topo(fab)->routers; r++)
		n += dfly_fabric_regs(fab, r)->drop[d];
	return n;
}

/* One full run (warm-up, measurement, drain); prints its figures and asserts the invariants.
 * Returns the fabric for counter checks (the caller destroys it). */
static inline struct dfly_fabric *run_keep(const struct dfly_netcfg *cfg, uint64_t seed,
					   struct dfly_sim_result *res)
{
	char err[DFLY_NETCFG_ERRLEN], pat[32];
	struct dfly_fabric *fab = dfly_fabric_create(cfg, seed, err, sizeof(err));
	int rc;

	if (fab == NULL)
		fprintf(stderr, "%s\n", err);
	assert_non_null(fab);
	rc = dfly_fabric_run(fab, res, false);
	dfly_pattern_name(cfg, pat, sizeof(pat));
	printf("# seed %llu h=%u %s %s load %.3f: accepted %.4f lat %.2f p99 %.0f misrouted %.1f%% "
	       "hops %.3f inj-drops %llu cycles %llu\n",
	       (unsigned long long)seed, cfg->h, dfly_mode_name(cfg->mode), pat, cfg->load,
	       res->accepted, res->lat_avg, res->lat_p99, res->misrouted_pct, res->hops_avg,
	       (unsigned long long)res->drop_inj, (unsigned long long)res->cycles);
	if (rc != 0 || !res->invariants_ok || !res->drained)
		fprintf(stderr, "why: %s\n", res->why);
	assert_int_equal(rc, 0);
	assert_false(res->deadlock);
	assert_true(res->drained);
	assert_true(res->invariants_ok);
	assert_int_equal(res->drop_fabric, 0);
	assert_int_equal(res->gen_total, res->dlv_total);
	return fab;
}

static inline void run(const struct dfly_netcfg *cfg, uint64_t seed, struct dfly_sim_result *res)
{
	dfly_fabric_destroy(run_keep(cfg, seed, res));
}

#endif /* DFLY_SIMTEST_H */
