/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfly topo: a network's topology, link table, minimal-path statistics, the VCs each mechanism
 * needs, and the contention-threshold rule of spec §5.8.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cmds.h"
#include "dfly/wire.h"
#include "netcfg.h"
#include "state.h"

static void usage_topo(FILE *f)
{
	fprintf(
	    f,
	    "usage: dfly topo CONFIG [--set PATH=VALUE]... [--links] [--state]\n"
	    "\n"
	    "Print the topology of CONFIG: sizes, the global links of group 0 (or every group\n"
	    "with --links), the minimal-path hop distribution over all router pairs, and the VCs\n"
	    "each mechanism needs against what the file provides.\n"
	    "\n"
	    "  --state   instead, the state and bandwidth model of a router of CONFIG: the bits\n"
	    "            its input buffers hold (the baseline, IAR 6.6), what each mechanism\n"
	    "            adds, and the share of a local link its control frames or flits take\n");
}

/* The state and bandwidth model (config/state.h) of @p cfg, one line per mechanism. */
static void print_state(const struct dfly_netcfg *cfg)
{
	struct dfly_state_row rows[DFLY_MODE_COUNT + 1];
	unsigned n = dfly_state_model(cfg, rows, DFLY_MODE_COUNT + 1);
	double base = (double)rows[0].bits;

	printf("state per router (bits; IAR 6.6's metric: input buffers, and what each "
	       "mechanism adds)\n");
	printf("  %-9s %12llu  %s\n", rows[0].name, (unsigned long long)rows[0].bits, rows[0].what);
	for (unsigned i = 1; i < n; i++) {
		const struct dfly_state_row *r = &rows[i];

		if (!r->modelled) {
			printf("  %-9s %12s  %s\n", r->name, "-", r->what);
			continue;
		}
		char num[24];

		snprintf(num, sizeof(num), "+%llu", (unsigned long long)r->bits);
		printf("  %-9s %12s  %6.2f%%  %s\n", r->name, num, 100.0 * r->bits / base, r->what);
		if (r->alt_bits != r->bits) {
			snprintf(num, sizeof(num), "+%llu", (unsigned long long)r->alt_bits);
			printf("  %-9s %12s  %6.2f%%  %s\n", "", num, 100.0 * r->alt_bits / base,
			       r->alt_what);
		}
	}
	printf("control bandwidth (share of a local link, each direction)\n");
	for (unsigned i = 1; i < n; i++)
		if (rows[i].modelled && rows[i].bw_what[0])
			printf("  %-9s %7.2f%%  %s\n", rows[i].name, 100.0 * rows[i].bw,
			       rows[i].bw_what);
}

int cmd_topo(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"set", required_argument, NULL, 's'},
	    {"links", no_argument, NULL, 'L'},
	    {"state", no_argument, NULL, 'S'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	const char *sets[DFLY_MAX_SETS];
	int nsets = 0, opt;
	bool all_links = false, state = false;
	struct dfly_netcfg cfg;
	char err[DFLY_NETCFG_ERRLEN];
	struct dfly_topo *t;
	uint64_t shape[4] = {0}, pairs = 0;

	optind = 1;
	while ((opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (opt) {
		case 's':
			if (nsets < DFLY_MAX_SETS)
				sets[nsets++] = optarg;
			break;
		case 'L':
			all_links = true;
			break;
		case 'S':
			state = true;
			break;
		case 'h':
			usage_topo(stdout);
			return 0;
		default:
			return dfly_cli_opt_error("dfly topo", opts, opt, argv);
		}
	}
	if (optind == argc)
		return dfly_cli_usage_error("dfly topo", "a network file (CONFIG) is required");
	if (optind < argc - 1)
		return dfly_cli_usage_error("dfly topo", "unexpected argument '%s'",
					    argv[optind + 1]);
	if (dfly_netcfg_load(&cfg, argv[optind], sets, nsets, err, sizeof(err)) != 0) {
		fprintf(stderr, "dfly topo: %s\n", err);
		return 2;
	}
	if (state) {
		print_state(&cfg);
		return 0;
	}
	t = dfly_topo_create(cfg.p, cfg.a, cfg.h, cfg.t, cfg.arr, cfg.sigma);
	if (t == NULL) {
		fprintf(stderr, "dfly topo: cannot build topology: %s\n", strerror(errno));
		return 2;
	}
	dfly_topo_dump(t, stdout);
	printf("ports: terminal 0..%u, local %u..%u, global %u..%u\n", t->p - 1, t->first_local,
	       t->first_global - 1, t->first_global, t->radix - 1);
	for (uint32_t G = 0; G < (all_links ? t->g : 1); G++) {
		printf("global links of group %u:\n", G);
		for (uint32_t rho = 0; rho < t->a; rho++) {
			printf("  router %u (id %u):", rho, G * t->a + rho);
			for (uint32_t q = 0; q < t->h; q++) {
				struct dfly_gport gp = dfly_topo_global_peer(t, G * t->a + rho, q);

				printf("  q%u->G%u.r%u.q%u", q, gp.router / t->a, gp.router % t->a,
				       gp.q);
			}
			printf("\n");
		}
	}
	for (uint32_t s = 0; s < t->routers; s++) {
		for (uint32_t d = 0; d < t->routers; d++) {
			struct dfly_hop hops[3];

			if (s == d)
				continue;
			shape[dfly_topo_min_path(t, s, d, d * t->p, hops)]++;
			pairs++;
		}
	}
	printf("minimal paths over %llu router pairs: 1 hop %.2f%%, 2 hops %.2f%%, 3 hops %.2f%%, "
	       "average %.3f hops\n",
	       (unsigned long long)pairs, 100.0 * shape[1] / pairs, 100.0 * shape[2] / pairs,
	       100.0 * shape[3] / pairs, (double)(shape[1] + 2 * shape[2] + 3 * shape[3]) / pairs);
	{
		uint32_t l, g;
		uint8_t map[DFLY_ROLE_COUNT];

		dfly_netcfg_vc_needs(&cfg, &l, &g, map);
		printf("VCs: mechanism %s needs %u local / %u global; the file provides %u / %u "
		       "(injection %u)\n",
		       dfly_mode_name(cfg.mode), l, g, cfg.vc_local, cfg.vc_global, cfg.vc_inj);
	}
	dfly_cc_rule(stdout, &cfg, t);
	dfly_topo_destroy(t);
	return 0;
}

uint32_t dfly_cc_rule(FILE *f, const struct dfly_netcfg *cfg, const struct dfly_topo *t)
{
	/* spec §5.8 (CBAR §VI-A): th ≥ 2·v̄ (UN must not trigger), th ≤ p (ADV must); v̄ counts
	 * the VCs packets can occupy: the injection VCs and the 3/2 that the contention modes use
	 * (CFG-T: 85/31 = 2.74) */
	uint32_t l, g, nvc;
	uint8_t map[DFLY_ROLE_COUNT];
	struct dfly_netcfg cc = *cfg;
	double vbar;
	uint32_t lo;

	cc.mode = (enum dfly_route_mode)dfly_mode_first(DFLY_MODEF_CC); /* their VC sequence */
	dfly_netcfg_vc_needs(&cc, &l, &g, map);
	nvc = t->p * cfg->vc_inj + (t->a - 1) * l + t->h * g;
	vbar = (double)nvc / t->radix;
	lo = (uint32_t)ceil(2.0 * vbar - 1e-9);
	if (f == NULL)
		return lo;
	fprintf(f,
		"contention threshold (spec 5.8): %u input VCs (injection %u, local %u, global %u) "
		"over %u ports, v = %.2f; th >= 2v = %u and th <= p = %u: ",
		nvc, cfg->vc_inj, l, g, t->radix, vbar, lo, t->p);
	if (lo <= t->p)
		fprintf(f, "valid %u..%u, pick %u (routing.cc.threshold is %u)\n", lo, t->p, lo,
			cfg->cc_th);
	else
		fprintf(f, "no valid threshold for this radix (routing.cc.threshold is %u)\n",
			cfg->cc_th);
	return lo;
}
