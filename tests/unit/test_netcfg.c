/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of the network configuration loader (config/netcfg.c): every error class with
 * its exact message (negative tests first), --set overrides, defaults, the dump → load round
 * trip, the VC maps of spec §2.2, and a load of every file in configs/ (the "CI parses every
 * config" rule: new files are picked up automatically).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "asic.h"
#include "fw.h"
#include "netcfg.h"
#include "state.h"

#ifndef DFLY_SOURCE_DIR
#error "DFLY_SOURCE_DIR must name the source tree (set in tests/unit/meson.build)"
#endif

/* Temporary files of the running test, removed by the teardown. */
#define MAX_TMP 64
static char tmp_paths[MAX_TMP][64];
static int ntmp;

static int teardown(void **state)
{
	(void)state;
	for (int i = 0; i < ntmp; i++)
		unlink(tmp_paths[i]);
	ntmp = 0;
	return 0;
}

/** Write @p text to a new file in /tmp; @return its path. */
static const char *tmp_cfg(const char *text)
{
	char *path;
	FILE *f;
	int fd;

	assert_true(ntmp < MAX_TMP);
	path = tmp_paths[ntmp];
	snprintf(path, sizeof(tmp_paths[0]), "/tmp/dfly-netcfg-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	ntmp++;
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	return path;
}

/*
 * A valid network in 8 lines (line numbers matter: expected errors name them). Tests append
 * their own lines from line 9 on.
 */
#define BASE                                                                                       \
	"topology = {\n"           /* 1 */                                                         \
	"\tp = 2;\n"               /* 2 */                                                         \
	"\ta = 4;\n"               /* 3 */                                                         \
	"\th = 2;\n"               /* 4 */                                                         \
	"};\n"                     /* 5 */                                                         \
	"routing = {\n"            /* 6 */                                                         \
	"\tmechanism = \"min\";\n" /* 7 */                                                         \
	"};\n"                     /* 8 */

/**
 * Load @p text with @p sets, expect @p rc and the error @p expect, in which a leading "FILE" stands
 * for the temporary file's path.
 */
static void expect_error(const char *text, const char *const *sets, int nsets, int rc,
			 const char *expect)
{
	struct dfly_netcfg cfg;
	char err[DFLY_NETCFG_ERRLEN], want[DFLY_NETCFG_ERRLEN];
	const char *path = tmp_cfg(text);

	if (strncmp(expect, "FILE", 4) == 0)
		snprintf(want, sizeof(want), "%s%s", path, expect + 4);
	else
		snprintf(want, sizeof(want), "%s", expect);
	assert_int_equal(dfly_netcfg_load(&cfg, path, sets, nsets, err, sizeof(err)), rc);
	assert_string_equal(err, want);
}

static void load_ok(struct dfly_netcfg *cfg, const char *text, const char *const *sets, int nsets)
{
	char err[DFLY_NETCFG_ERRLEN] = "";
	int rc = dfly_netcfg_load(cfg, tmp_cfg(text), sets, nsets, err, sizeof(err));

	if (rc != 0)
		print_error("unexpected error: %s\n", err);
	assert_int_equal(rc, 0);
}

/* ---------------------------------------------------------------------------------------------
 * File and syntax errors
 */

static void test_missing_file(void **state)
{
	struct dfly_netcfg cfg;
	char err[DFLY_NETCFG_ERRLEN];

	(void)state;
	assert_int_equal(
	    dfly_netcfg_load(&cfg, "/tmp/dfly-netcfg-no-such-file.cfg", NULL, 0, err, sizeof(err)),
	    -ENOENT);
	assert_string_equal(
	    err, "/tmp/dfly-netcfg-no-such-file.cfg: cannot open: No such file or directory");
}

static void test_syntax_error(void **state)
{
	(void)state;
	expect_error(BASE "router = {\n\tspeedup = ;\n};\n", NULL, 0, -EINVAL,
		     "FILE:10: syntax error: syntax error");
	expect_error(BASE "router = {\n\tspeedup = 2;\n\tspeedup = 3;\n};\n", NULL, 0, -EINVAL,
		     "FILE:11: syntax error: duplicate setting name");
}

/* ---------------------------------------------------------------------------------------------
 * Settings one by one: missing, type, range, unknown names, string values
 */

static void test_missing_required(void **state)
{
	(void)state;
	/* The group exists: its line. */
	expect_error("topology = {\n\tp = 2;\n\ta = 4;\n};\nrouting = { mechanism = \"min\"; };\n",
		     NULL, 0, -EINVAL, "FILE:1: topology.h: missing required setting");
	/* No group: the file. */
	expect_error("topology = { p = 2; a = 4; h = 2; };\n", NULL, 0, -EINVAL,
		     "FILE: routing.mechanism: missing required setting");
}

static void test_wrong_type(void **state)
{
	(void)state;
	expect_error(BASE "router = {\n\tspeedup = \"2\";\n};\n", NULL, 0, -EINVAL,
		     "FILE:10: router.speedup: wrong type: string (expected an integer)");
	expect_error(BASE "traffic = {\n\tload = true;\n};\n", NULL, 0, -EINVAL,
		     "FILE:10: traffic.load: wrong type: boolean (expected a number)");
	expect_error(BASE "router = {\n\tin_transit_priority = 1;\n};\n", NULL, 0, -EINVAL,
		     "FILE:10: router.in_transit_priority: wrong type: integer "
		     "(expected true or false)");
	expect_error(BASE "traffic = {\n\tpattern = 1;\n};\n", NULL, 0, -EINVAL,
		     "FILE:10: traffic.pattern: wrong type: integer (expected a string)");
	expect_error(BASE "router = 5;\n", NULL, 0, -EINVAL,
		     "FILE:9: router: wrong type: integer (expected a group)");
	expect_error(BASE "vcs = {\n\tlocal = [4, 2];\n};\n", NULL, 0, -EINVAL,
		     "FILE:10: vcs.local: wrong type: array (expected an integer)");
}

static void test_out_of_range(void **state)
{
	(void)state;
	expect_error(BASE "router = {\n\tspeedup = 9;\n};\n", NULL, 0, -EINVAL,
		     "FILE:10: router.speedup: 9 is out of range (expected 1..8)");
	expect_error(BASE "router = {\n\tspeedup = 0;\n};\n", NULL, 0, -EINVAL,
		     "FILE:10: router.speedup: 0 is out of range (expected 1..8)");
	expect_error(BASE "traffic = {\n\tload = 1.5;\n};\n", NULL, 0, -EINVAL,
		     "FILE:10: traffic.load: 1.5 is out of range (expected 0..1)");
	expect_error(BASE "traffic = {\n\tload = -0.1;\n};\n", NULL, 0, -EINVAL,
		     "FILE:10: traffic.load: -0.1 is out of range (expected 0..1)");
	expect_error(BASE "traffic = {\n\tmix_un = 1.5;\n};\n", NULL, 0, -EINVAL,
		     "FILE:10: traffic.mix_un: 1.5 is out of range (expected 0..1)");
	expect_error(BASE "traffic = {\n\tburst_length = 0.5;\n};\n", NULL, 0, -EINVAL,
		     "FILE:10: traffic.burst_length: 0.5 is out of range (expected 1..10000)");
	expect_error(BASE "sim = {\n\tmeasure = 0;\n};\n", NULL, 0, -EINVAL,
		     "FILE:10: sim.measure: 0 is out of range (expected >= 1)");
	expect_error(BASE "sim = {\n\tseeds = 0;\n};\n", NULL, 0, -EINVAL,
		     "FILE:10: sim.seeds: 0 is out of range (expected 1..10000)");
	expect_error(BASE "vcs = {\n\tlocal = 9;\n};\n", NULL, 0, -EINVAL,
		     "FILE:10: vcs.local: 9 is out of range (expected 1..8)");
	expect_error(BASE, (const char *const[]){"routing.ectn.async_delta=16"}, 1, -EINVAL,
		     "--set routing.ectn.async_delta=16: routing.ectn.async_delta: 16 is out of "
		     "range (expected 1..15)");
	expect_error(BASE, (const char *const[]){"routing.ectn.refresh=0"}, 1, -EINVAL,
		     "--set routing.ectn.refresh=0: routing.ectn.refresh: 0 is out of range "
		     "(expected 1..1000000)");
	expect_error(BASE "buffers = {\n\tlocal = -32;\n};\n", NULL, 0, -EINVAL,
		     "FILE:10: buffers.local: -32 is out of range (expected 1..16777216)");
}

static void test_unknown_setting(void **state)
{
	(void)state;
	expect_error(BASE "router = {\n\tspeedup = 2;\n\tspeedupp = 2;\n};\n", NULL, 0, -EINVAL,
		     "FILE:11: router.speedupp: unknown setting (expected one of: speedup, "
		     "route_cycles, xbar_cycles, alloc_iters, input_arbiter, output_arbiter, "
		     "in_transit_priority, credit_release, output_release, node_port, allocations, "
		     "input_rr, ctrl_charge, "
		     "firmware_ttl, link_dead_cycles)");
	expect_error(BASE "rooter = {\n\tspeedup = 2;\n};\n", NULL, 0, -EINVAL,
		     "FILE:9: rooter: unknown setting (expected one of: topology, router, buffers, "
		     "vcs, links, packet, clock, routing, traffic, capture, sim)");
	expect_error(BASE "speedup = 2;\n", NULL, 0, -EINVAL,
		     "FILE:9: speedup: unknown setting (expected one of: topology, router, "
		     "buffers, vcs, links, packet, clock, routing, traffic, capture, sim)");
	/* Nested groups are checked too. */
	expect_error("topology = { p = 2; a = 4; h = 2; };\nrouting = {\n\tmechanism = \"val\";\n"
		     "\tval = {\n\t\tpath = \"lgl\";\n\t};\n};\n",
		     NULL, 0, -EINVAL,
		     "FILE:5: routing.val.path: unknown setting (expected one of: path_a, "
		     "recompute, exclude)");
}

static void test_sigma(void **state)
{
	(void)state;
	expect_error(
	    BASE, (const char *const[]){"topology.sigma=0"}, 1, -EINVAL,
	    "--set topology.sigma=0: topology.sigma: 0 is out of range (expected -1 or +1)");
}

static void test_unknown_enum_value(void **state)
{
	(void)state;
	expect_error(BASE "router = {\n\tinput_arbiter = \"fifo\";\n};\n", NULL, 0, -EINVAL,
		     "FILE:10: router.input_arbiter: unknown value 'fifo' (expected one of: rr, "
		     "lrs, age)");
	expect_error(BASE, (const char *const[]){"routing.val.path_a=lgx"}, 1, -EINVAL,
		     "--set routing.val.path_a=lgx: routing.val.path_a: unknown Path-A variant "
		     "'lgx' (expected one of: lgl, lg-, -gl, -g-)");
	expect_error(BASE, (const char *const[]){"routing.ectn.mode=delta"}, 1, -EINVAL,
		     "--set routing.ectn.mode=delta: routing.ectn.mode: unknown value 'delta' "
		     "(expected one of: full, sparse, incremental, async)");
}

static void test_mechanism(void **state)
{
	struct dfly_netcfg cfg;

	(void)state;
	expect_error(
	    "topology = { p = 2; a = 4; h = 2; };\nrouting = {\n\tmechanism = \"foo\";\n};\n", NULL,
	    0, -EINVAL,
	    "FILE:3: routing.mechanism: unknown mechanism 'foo' (expected one of: min, "
	    "val, ugal, pb, par, olm, base, filtered, hybrid, ectn, lia, tpr, pb-acor, ugal-g, "
	    "crt, res)");
	/* RES and failover: a reserved packet moved off its channel would hold R for ever */
	expect_error(BASE,
		     (const char *const[]){"routing.mechanism=res", "routing.failover.enabled=on"},
		     2, -EINVAL,
		     "--set routing.failover.enabled=on: routing.failover.enabled: \"on\" with "
		     "routing.mechanism = \"res\": a reserved packet moved off its global channel "
		     "would hold that channel's reservation for ever; use \"auto\" (off for res)");
	/* LIA: t = 1 only; the window in whole buckets; w in hundredths */
	expect_error(BASE, (const char *const[]){"routing.mechanism=lia", "topology.t=2"}, 2,
		     -EINVAL,
		     "--set topology.t=2: topology.t: lia is defined for t = 1 (A-6.12; t = 2)");
	expect_error(BASE, (const char *const[]){"routing.lia.bucket=30"}, 1, -EINVAL,
		     "--set routing.lia.bucket=30: routing.lia.bucket: 30 does not divide "
		     "routing.lia.window = 200 into at most 4096 buckets");
	expect_error(
	    BASE, (const char *const[]){"routing.lia.w=0.125"}, 1, -EINVAL,
	    "--set routing.lia.w=0.125: routing.lia.w: 0.125 is not a multiple of 0.01 (the "
	    "firmware keeps 100*ext exactly)");
	/* the contention modes use OLM's 3/2 VCs (spec 5.7) */
	expect_error(BASE, (const char *const[]){"routing.mechanism=ectn", "vcs.local=2"}, 2,
		     -EINVAL,
		     "--set vcs.local=2: vcs.local: too few VCs for ectn: 2 (expected >= 3: S1=L0 "
		     "S2=L0 I1=L0 I2=L1 D1=L1 D2=L2; spec 2.2)");
	/* FlexVC: every mechanism but PAR (in transit on the 3/2 escape sequence, thesis
	 * 5.3.4); request-reply: the same mechanisms */
	expect_error(
	    BASE, (const char *const[]){"routing.mechanism=par", "vcs.local=5", "vcs.flexvc=jsq"},
	    3, -EINVAL,
	    "--set vcs.flexvc=jsq: vcs.flexvc: FlexVC is not built for par: its hops are "
	    "not placed on a FlexVC sequence (FlexVC is built for min, val, ugal, pb, olm, "
	    "base, filtered, hybrid, ectn, lia, tpr, pb-acor, ugal-g, crt, res; spec 2.4)");
	/* the VC sets: "group" where FlexVC places the hops by a mode's sequence */
	expect_error(BASE, (const char *const[]){"vcs.flexvc_sets=group"}, 1, -EINVAL,
		     "--set vcs.flexvc_sets=group: vcs.flexvc_sets: \"group\" needs FlexVC on "
		     "an oblivious or source-adaptive mechanism (vcs.flexvc = \"off\", min; the "
		     "in-transit mechanisms place their hops themselves, thesis 5.2.1)");
	expect_error(BASE,
		     (const char *const[]){"routing.mechanism=olm", "vcs.local=3", "vcs.flexvc=jsq",
					   "vcs.flexvc_sets=group"},
		     4, -EINVAL,
		     "--set vcs.flexvc_sets=group: vcs.flexvc_sets: \"group\" needs FlexVC on "
		     "an oblivious or source-adaptive mechanism (vcs.flexvc = \"jsq\", olm; the "
		     "in-transit mechanisms place their hops themselves, thesis 5.2.1)");
	load_ok(&cfg, BASE,
		(const char *const[]){"routing.mechanism=ugal", "vcs.flexvc=jsq",
				      "vcs.flexvc_sets=group"},
		3);
	assert_int_equal(cfg.flexvc_sets, DFLY_FLEXVC_SETS_GROUP);
	load_ok(&cfg, BASE,
		(const char *const[]){"routing.mechanism=olm", "vcs.local=3", "vcs.flexvc=jsq"}, 3);
	assert_int_equal(cfg.flexvc, DFLY_FLEXVC_JSQ);
	assert_false(dfly_netcfg_failover(&cfg)); /* auto: off in transit under FlexVC */
	load_ok(&cfg, BASE, (const char *const[]){"routing.mechanism=olm", "vcs.local=3"}, 2);
	assert_true(dfly_netcfg_failover(&cfg)); /* ... on without it, as before */
	expect_error(BASE,
		     (const char *const[]){"routing.mechanism=base", "vcs.flexvc=lowest",
					   "routing.failover.enabled=on"},
		     3, -EINVAL,
		     "--set routing.failover.enabled=on: routing.failover.enabled: \"on\" with "
		     "base under FlexVC (vcs.flexvc = \"lowest\"): routing around a down link in "
		     "transit under FlexVC is not built; use \"auto\" (off here) or vcs.flexvc = "
		     "\"off\"");
	expect_error(
	    BASE, (const char *const[]){"routing.mechanism=ectn", "vcs.local=2", "vcs.flexvc=jsq"},
	    3, -EINVAL,
	    "--set vcs.local=2: vcs.local: too few VCs for ectn: 2 (expected >= 3: S1=L0 "
	    "S2=L0 I1=L0 I2=L1 D1=L1 D2=L2; spec 2.2)");
	expect_error(BASE,
		     (const char *const[]){"routing.mechanism=par", "vcs.local=5", "vcs.global=2",
					   "traffic.reqrep=true"},
		     4, -EINVAL,
		     "--set traffic.reqrep=true: traffic.reqrep: request-reply is built for min, "
		     "val, ugal, pb, olm, base, filtered, hybrid, ectn, lia, tpr, pb-acor, ugal-g, "
		     "crt, res, not par: its hops are not placed in request and reply VC classes "
		     "(spec 2.2, 7.5)");
	/* request-reply in transit (thesis 5.3.4): 3/2 per class without FlexVC (6/4), under
	 * FlexVC 3/2 requests + 2/1 replies (5/3, thesis Table 5.4), not less */
	load_ok(&cfg, BASE,
		(const char *const[]){"routing.mechanism=olm", "traffic.reqrep=true", "vcs.local=6",
				      "vcs.global=4"},
		4);
	assert_true(dfly_netcfg_failover(&cfg)); /* auto: on in transit without FlexVC */
	expect_error(BASE,
		     (const char *const[]){"routing.mechanism=base", "traffic.reqrep=true",
					   "vcs.local=5", "vcs.global=4"},
		     4, -EINVAL,
		     "--set vcs.local=5: vcs.local: request-reply with base needs 3 local VCs per "
		     "class: 3 request + 2 reply (spec 2.2)");
	expect_error(BASE,
		     (const char *const[]){"routing.mechanism=olm", "traffic.reqrep=true",
					   "vcs.local=5", "vcs.global=3", "vcs.reply_local=2",
					   "vcs.reply_global=1"},
		     6, -EINVAL,
		     "--set vcs.reply_local=2: vcs.reply_local: request-reply with olm needs 3 "
		     "local VCs per class: 3 request + 2 reply (spec 2.2)");
	load_ok(&cfg, BASE,
		(const char *const[]){"routing.mechanism=base", "traffic.reqrep=true",
				      "vcs.local=5", "vcs.global=3", "vcs.reply_local=2",
				      "vcs.reply_global=1", "vcs.flexvc=jsq"},
		7);
	assert_false(dfly_netcfg_failover(&cfg)); /* auto: off in transit under FlexVC */
	expect_error(BASE,
		     (const char *const[]){"routing.mechanism=ectn", "traffic.reqrep=true",
					   "vcs.local=5", "vcs.global=2", "vcs.reply_local=2",
					   "vcs.reply_global=1", "vcs.flexvc=jsq"},
		     7, -EINVAL,
		     "--set vcs.reply_global=1: vcs.reply_global: request-reply with ectn under "
		     "FlexVC needs 2 global request VCs and 1 reply VCs: 1 request + 1 reply (spec "
		     "2.4)");
	expect_error(BASE,
		     (const char *const[]){"routing.mechanism=hybrid", "traffic.reqrep=true",
					   "vcs.local=4", "vcs.global=3", "vcs.reply_local=2",
					   "vcs.reply_global=1", "vcs.flexvc=jsq"},
		     7, -EINVAL,
		     "--set vcs.reply_local=2: vcs.reply_local: request-reply with hybrid under "
		     "FlexVC needs 3 local request VCs and 2 reply VCs: 2 request + 2 reply (spec "
		     "2.4)");
	/* traffic.reply = consume splits the injection VCs between the classes (FOGSim) */
	expect_error(BASE,
		     (const char *const[]){"traffic.reqrep=true", "traffic.reply=consume",
					   "vcs.injection=1"},
		     3, -EINVAL,
		     "--set vcs.injection=1: vcs.injection: request-reply with traffic.reply = "
		     "\"consume\" needs at least 2 injection VCs (requests take the first half, "
		     "replies the rest, as FOGSim does; 1)");
	/* ... and it can deadlock with a reply class sized for minimal paths */
	expect_error(
	    BASE,
	    (const char *const[]){"routing.mechanism=pb", "routing.pb.average=other",
				  "traffic.reqrep=true", "vcs.local=6", "vcs.global=3",
				  "vcs.reply_local=2", "vcs.reply_global=1", "vcs.flexvc=jsq",
				  "traffic.reply=consume"},
	    9, -EINVAL,
	    "--set traffic.reply=consume: traffic.reply: \"consume\" with a reply class "
	    "sized for minimal paths (2/1 VCs, pb needs 4/2) can deadlock: a Valiant reply "
	    "waits on request VCs while requests wait at their nodes for replies (use "
	    "\"queue\", or full classes)");
	/* minCred: the source decisions on occupancy only; not in transit, FlexVC or not
	 * (thesis 5.4) */
	expect_error(BASE,
		     (const char *const[]){"routing.mechanism=ectn", "vcs.flexvc=jsq",
					   "routing.mincred=true"},
		     3, -EINVAL,
		     "--set routing.mincred=true: routing.mincred: ectn decides in transit: "
		     "minCred (spec 2.4) is built for the source decisions of ugal, pb, par, lia, "
		     "tpr, pb-acor, ugal-g, crt; the thesis found separate credits for minimally "
		     "routed packets give in-transit routing no acceptable performance (thesis "
		     "5.4; use a contention trigger: base, filtered, hybrid, ectn)");
	expect_error(BASE, (const char *const[]){"routing.mechanism=res", "routing.mincred=true"},
		     2, -EINVAL,
		     "--set routing.mincred=true: routing.mincred: res does not decide on "
		     "occupancy at the source: minCred (spec 2.4) is for UGAL-L's and PB's "
		     "comparisons (ugal, pb, par, lia, tpr, pb-acor, ugal-g, crt)");
	/* under FlexVC a reply class sized for MIN (thesis 4/2 + 2/1) is enough; not smaller */
	load_ok(&cfg, BASE,
		(const char *const[]){"routing.mechanism=pb", "routing.pb.average=other",
				      "traffic.reqrep=true", "vcs.local=6", "vcs.global=3",
				      "vcs.reply_local=2", "vcs.reply_global=1", "vcs.flexvc=jsq"},
		8);
	expect_error(BASE,
		     (const char *const[]){"routing.mechanism=pb", "routing.pb.average=other",
					   "traffic.reqrep=true", "vcs.local=6", "vcs.global=3",
					   "vcs.reply_local=2", "vcs.reply_global=1"},
		     7, -EINVAL,
		     "--set vcs.reply_local=2: vcs.reply_local: request-reply with pb needs 4 "
		     "local VCs per class: 4 request + 2 reply (spec 2.2)");
	expect_error(BASE,
		     (const char *const[]){"routing.mechanism=pb", "routing.pb.average=other",
					   "traffic.reqrep=true", "vcs.local=5", "vcs.global=3",
					   "vcs.reply_local=1", "vcs.reply_global=1",
					   "vcs.flexvc=jsq"},
		     8, -EINVAL,
		     "--set vcs.reply_local=1: vcs.reply_local: request-reply with pb under "
		     "FlexVC needs 4 local request VCs and 2 reply VCs: 4 request + 1 reply (spec "
		     "2.4)");
	expect_error(
	    BASE,
	    (const char *const[]){"routing.mechanism=min", "traffic.reqrep=true", "vcs.local=3"}, 3,
	    -EINVAL,
	    "--set vcs.local=3: vcs.local: request-reply with min needs 2 local VCs per "
	    "class: 2 request + 1 reply (spec 2.2)");
	expect_error(
	    BASE,
	    (const char *const[]){"routing.mechanism=min", "traffic.reqrep=true",
				  "vcs.reply_global=2"},
	    3, -EINVAL,
	    "--set vcs.reply_global=2: vcs.reply_global: request-reply with min needs 1 global "
	    "VCs per class: 0 request + 2 reply (spec 2.2)");
	/* a reply class larger than the port: the request side is 0, not a wrapped count */
	expect_error(
	    BASE,
	    (const char *const[]){"routing.mechanism=min", "traffic.reqrep=true",
				  "vcs.reply_local=8"},
	    3, -EINVAL,
	    "--set vcs.reply_local=8: vcs.reply_local: request-reply with min needs 2 local "
	    "VCs per class: 0 request + 8 reply (spec 2.2)");
	expect_error(BASE, (const char *const[]){"vcs.flexvc=fifo"}, 1, -EINVAL,
		     "--set vcs.flexvc=fifo: vcs.flexvc: unknown value 'fifo' (expected one of: "
		     "off, jsq, highest, lowest, random)");
	/* PAR needs 5/2 VCs, OLM 3/2 (spec 2.2) */
	expect_error(BASE, (const char *const[]){"routing.mechanism=par", "vcs.local=4"}, 2,
		     -EINVAL,
		     "--set vcs.local=4: vcs.local: too few VCs for par: 4 (expected >= 5: S1=L0 "
		     "S2=L1 I1=L2 I2=L3 D2=L4; spec 2.2)");
	/* in-band PB carries h * VCs bits in a 32-bit header field */
	expect_error(
	    "topology = { p = 2; a = 4; h = 9; };\nrouting = {\n\tmechanism = \"pb\";\n"
	    "\tpb = { exchange = \"inband\"; };\n};\nvcs = { global = 4; };\n",
	    NULL, 0, -EINVAL,
	    "FILE:4: routing.pb.exchange: inband carries at most 32 bits in the data header "
	    "(h * vcs.global = 36; expected <= 32)");
	/* PB with Qavg over all h channels can mark nothing when F >= h */
	expect_error(
	    BASE, (const char *const[]){"routing.mechanism=pb"}, 1, -EINVAL,
	    "FILE:6: routing.pb.f: 2 with routing.pb.average = \"all\" "
	    "and h = 2 can never mark a channel: Q > F*(sum of the h queues)/h + T needs F "
	    "< h (expected F < h, or average = \"other\")");
}

static void test_pattern(void **state)
{
	(void)state;
	expect_error(
	    BASE "traffic = {\n\tpattern = \"zipf\";\n};\n", NULL, 0, -EINVAL,
	    "FILE:10: traffic.pattern: unknown pattern 'zipf' (expected one of: un, "
	    "adv+N, adv-N, advc, perm, c1, c2, bursty-un, mix, adv-mix, all-to-all, halo3d, "
	    "graph500)");
	/* graph500: at most the network's nodes, at least 2; its coefficient sets by name */
	expect_error(BASE "traffic = {\n\tpattern = \"graph500\";\n};\n",
		     (const char *const[]){"traffic.graph500.processes=73"}, 1, -EINVAL,
		     "--set traffic.graph500.processes=73: traffic.graph500.processes: 73 "
		     "processes on a network of 72 nodes (expected 2 to 72)");
	expect_error(BASE "traffic = {\n\tpattern = \"graph500\";\n};\n",
		     (const char *const[]){"traffic.graph500.coefficients=booksim"}, 1, -EINVAL,
		     "--set traffic.graph500.coefficients=booksim: traffic.graph500.coefficients: "
		     "unknown value 'booksim' (expected one of: thesis, fogsim)");
	/* halo3d: a process grid must cover the nodes (h2: 72); request-reply is refused */
	expect_error(BASE "traffic = {\n\tpattern = \"halo3d\";\n};\n",
		     (const char *const[]){"traffic.halo.px=5"}, 1, -EINVAL,
		     "--set traffic.halo.px=5: traffic.halo.px: the process grid 5 x 0 x 0 is not "
		     "the network's 72 nodes (expected px * py * pz = 72, or all three 0 for the "
		     "most cubic grid)");
	expect_error(BASE "traffic = {\n\tpattern = \"halo3d\";\n};\n",
		     (const char *const[]){"traffic.reqrep=true"}, 1, -EINVAL,
		     "--set traffic.reqrep=true: traffic.reqrep: request-reply on the halo3d "
		     "workload is not built (spec 7.5 defines it on the steady patterns)");
	/* c1's areas of g/4 groups must hold ADV+h: h2 (g = 9) has areas of 2 groups */
	expect_error(BASE "traffic = {\n\tpattern = \"c1\";\n};\n", NULL, 0, -EINVAL,
		     "FILE:10: traffic.pattern: c1 splits the g = 9 groups into 4 areas of 2, and "
		     "ADV+h inside an area needs more than h = 2 groups (expected g/4 > h)");
	expect_error(BASE "traffic = {\n\tpattern = \"adv+x\";\n};\n", NULL, 0, -EINVAL,
		     "FILE:10: traffic.pattern: bad pattern 'adv+x' (expected adv+N or adv-N with "
		     "an integer N)");
	expect_error(BASE "traffic = {\n\tpattern = \"adv+\";\n};\n", NULL, 0, -EINVAL,
		     "FILE:10: traffic.pattern: bad pattern 'adv+' (expected adv+N or adv-N with "
		     "an integer N)");
	expect_error(
	    BASE "traffic = {\n\tpattern = \"adv1\";\n};\n", NULL, 0, -EINVAL,
	    "FILE:10: traffic.pattern: unknown pattern 'adv1' (expected one of: un, "
	    "adv+N, adv-N, advc, perm, c1, c2, bursty-un, mix, adv-mix, all-to-all, halo3d, "
	    "graph500)");
}

static void test_pattern_own_group(void **state)
{
	(void)state;
	/* BASE has g = 4·2/1 + 1 = 9. */
	expect_error(BASE "traffic = {\n\tpattern = \"adv+0\";\n};\n", NULL, 0, -EINVAL,
		     "FILE:10: traffic.pattern: 'adv+0' sends every packet to its own group "
		     "(expected N mod g != 0, g = 9)");
	expect_error(BASE "traffic = {\n\tpattern = \"adv+9\";\n};\n", NULL, 0, -EINVAL,
		     "FILE:10: traffic.pattern: 'adv+9' sends every packet to its own group "
		     "(expected N mod g != 0, g = 9)");
	expect_error(BASE, (const char *const[]){"traffic.pattern=adv-18"}, 1, -EINVAL,
		     "--set traffic.pattern=adv-18: traffic.pattern: 'adv-18' sends every packet "
		     "to its own group (expected N mod g != 0, g = 9)");
	/* ADVc's groups: 0 (h, the default) .. h */
	{
		struct dfly_netcfg cfg;

		load_ok(&cfg, BASE, NULL, 0);
		assert_int_equal(cfg.advc_groups, 0);
		load_ok(&cfg, BASE, (const char *const[]){"traffic.advc_groups=1"}, 1);
		assert_int_equal(cfg.advc_groups, 1);
	}
	expect_error(BASE, (const char *const[]){"traffic.advc_groups=3"}, 1, -EINVAL,
		     "--set traffic.advc_groups=3: traffic.advc_groups: 3 groups, but a router's "
		     "global links reach h = 2 (expected 0 .. h; 0 means h)");
}

/* ---------------------------------------------------------------------------------------------
 * Consistency rules
 */

static void test_trunking(void **state)
{
	(void)state;
	expect_error("topology = {\n\tp = 2;\n\ta = 4;\n\th = 2;\n\tt = 3;\n};\n"
		     "routing = { mechanism = \"min\"; };\n",
		     NULL, 0, -EINVAL,
		     "FILE:5: topology.t: 3 does not divide topology.a = 4 (expected a divisor of "
		     "a)");
	expect_error("topology = {\n\tp = 2;\n\ta = 4;\n\th = 2;\n\tt = 2;\n"
		     "\tarrangement = \"consecutive\";\n};\nrouting = { mechanism = \"min\"; };\n",
		     NULL, 0, -EINVAL,
		     "FILE:6: topology.arrangement: consecutive needs topology.t = 1 (t = 2)");
}

static void test_topology_size(void **state)
{
	(void)state;
	expect_error("topology = {\n\tp = 32;\n\ta = 32;\n\th = 16;\n};\n"
		     "routing = { mechanism = \"min\"; };\n",
		     NULL, 0, -EINVAL,
		     "FILE:1: topology: radix p + a - 1 + h = 79 is too large (expected <= 64)");
	expect_error("topology = { p = 1; a = 1; h = 1; };\nrouting = {\n\tmechanism = \"val\";\n"
		     "};\n",
		     NULL, 0, -EINVAL,
		     "FILE:3: routing.mechanism: val needs at least 3 groups (g = 2; expected "
		     "a*h/t + 1 >= 3)");
}

static void test_too_few_vcs(void **state)
{
	(void)state;
	expect_error(BASE "vcs = {\n\tlocal = 3;\n};\n",
		     (const char *const[]){"routing.mechanism=val"}, 1, -EINVAL,
		     "FILE:10: vcs.local: too few VCs for val with path_a lgl: 3 (expected >= 4: "
		     "S1=L0 I1=L1 I2=L2 D2=L3; spec 2.2)");
	expect_error(BASE "vcs = {\n\tlocal = 2;\n};\n",
		     (const char *const[]){"routing.mechanism=val", "routing.val.path_a=-g-"}, 2,
		     -EINVAL,
		     "FILE:10: vcs.local: too few VCs for val with path_a -g- (VAL-group): 2 "
		     "(expected >= 3: S1=L0 I2=L1 D2=L2; spec 2.2)");
	expect_error(BASE, (const char *const[]){"vcs.global=1", "routing.mechanism=val"}, 2,
		     -EINVAL,
		     "--set vcs.global=1: vcs.global: too few VCs for val with path_a lgl: 1 "
		     "(expected >= 2: G1=G0 G2=G1; spec 2.2)");
	expect_error(BASE "vcs = {\n\tlocal = 1;\n};\n", NULL, 0, -EINVAL,
		     "FILE:10: vcs.local: too few VCs for min: 1 (expected >= 2: S1=L0 D2=L1; spec "
		     "2.2)");
}

/* routing.failover: "on" needs VCs for a Valiant path; "auto" runs without it for MIN 2/1. */
static void test_failover_vcs(void **state)
{
	(void)state;
	expect_error(BASE "vcs = {\n\tlocal = 2;\n\tglobal = 1;\n};\n",
		     (const char *const[]){"routing.failover.enabled=on"}, 1, -EINVAL,
		     "--set routing.failover.enabled=on: routing.failover.enabled: MIN can route "
		     "around a down link only with 4 local and 2 global VCs and FlexVC off "
		     "(vcs.local 2, vcs.global 1); use \"auto\" to run without failover");
}

static void test_buffer_smaller_than_packet(void **state)
{
	(void)state;
	expect_error(BASE "buffers = {\n\tlocal = 4;\n};\n", NULL, 0, -EINVAL,
		     "FILE:10: buffers.local: 4 phits is smaller than a packet (expected >= "
		     "packet.phits = 8)");
	/* A defaulted buffer is blamed on its group, or on the file when the group is absent. */
	expect_error(BASE "packet = {\n\tphits = 64;\n};\nbuffers = {\n\tglobal = 512;\n};\n", NULL,
		     0, -EINVAL,
		     "FILE:12: buffers.local: 32 phits is smaller than a packet (expected >= "
		     "packet.phits = 64)");
	expect_error(BASE "packet = {\n\tphits = 64;\n};\n", NULL, 0, -EINVAL,
		     "FILE: buffers.local: 32 phits is smaller than a packet (expected >= "
		     "packet.phits = 64)");
}

/* ---------------------------------------------------------------------------------------------
 * --set
 */

static void test_set_errors(void **state)
{
	(void)state;
	expect_error(BASE "router = {\n\tspeedup = 2;\n};\n",
		     (const char *const[]){"router.speedup=fast"}, 1, -EINVAL,
		     "--set router.speedup=fast: router.speedup: expected an integer");
	expect_error(BASE, (const char *const[]){"router.speedup=2.5"}, 1, -EINVAL,
		     "--set router.speedup=2.5: router.speedup: expected an integer");
	expect_error(BASE, (const char *const[]){"traffic.load=high"}, 1, -EINVAL,
		     "--set traffic.load=high: traffic.load: expected a number");
	expect_error(BASE, (const char *const[]){"router.in_transit_priority=yes"}, 1, -EINVAL,
		     "--set router.in_transit_priority=yes: router.in_transit_priority: expected "
		     "true or false");
	expect_error(BASE, (const char *const[]){"router.speedup"}, 1, -EINVAL,
		     "--set router.speedup: expected PATH=VALUE");
	expect_error(BASE, (const char *const[]){"=3"}, 1, -EINVAL,
		     "--set =3: expected PATH=VALUE");
	expect_error(BASE, (const char *const[]){"router..speedup=3"}, 1, -EINVAL,
		     "--set router..speedup=3: bad setting path 'router..speedup'");
	expect_error(BASE, (const char *const[]){"router=3"}, 1, -EINVAL,
		     "--set router=3: router: is a group (expected the path of a single setting)");
	expect_error(BASE, (const char *const[]){"topology.p.x=3"}, 1, -EINVAL,
		     "--set topology.p.x=3: topology.p: not a group");
	/* An existing setting overridden with a bad value is blamed on the --set, not the file. */
	expect_error(BASE "router = {\n\tspeedup = 2;\n};\n",
		     (const char *const[]){"router.speedup=0"}, 1, -EINVAL,
		     "--set router.speedup=0: router.speedup: 0 is out of range (expected 1..8)");
	/* Created settings and groups are checked like the file's. */
	expect_error(BASE, (const char *const[]){"router.speedupp=3"}, 1, -EINVAL,
		     "--set router.speedupp=3: router.speedupp: unknown setting (expected one of: "
		     "speedup, route_cycles, xbar_cycles, alloc_iters, input_arbiter, "
		     "output_arbiter, in_transit_priority, credit_release, output_release, "
		     "node_port, allocations, input_rr, ctrl_charge, firmware_ttl, "
		     "link_dead_cycles)");
	expect_error(BASE, (const char *const[]){"foo.bar=1"}, 1, -EINVAL,
		     "--set foo.bar=1: foo: unknown setting (expected one of: topology, router, "
		     "buffers, vcs, links, packet, clock, routing, traffic, capture, sim)");
}

static void test_set_creates(void **state)
{
	struct dfly_netcfg cfg;

	(void)state;
	/* No router group in the file: created with the setting. */
	load_ok(&cfg, BASE, (const char *const[]){"router.speedup=4"}, 1);
	assert_int_equal(cfg.speedup, 4);
	/* Existing setting, and a float given as an integer. */
	load_ok(&cfg, BASE "router = {\n\tspeedup = 2;\n};\ntraffic = {\n\tload = 0.5;\n};\n",
		(const char *const[]){"router.speedup=3", "traffic.load=1", "sim.seed=5000000000",
				      "router.in_transit_priority=TRUE"},
		4);
	assert_int_equal(cfg.speedup, 3);
	assert_true(cfg.load == 1.0);
	assert_int_equal(cfg.seed, 5000000000ull);
	assert_true(cfg.in_transit_priority);
	/* Later --set wins; the file's required settings can come from --set. */
	load_ok(&cfg, "topology = { p = 2; a = 4; };\n",
		(const char *const[]){"topology.h=2", "routing.mechanism=val",
				      "routing.mechanism=min", "router.speedup=1",
				      "router.speedup=5"},
		5);
	assert_int_equal(cfg.h, 2);
	assert_int_equal(cfg.mode, DFLY_MODE_MIN);
	assert_int_equal(cfg.speedup, 5);
}

static void test_set_mechanism_pattern(void **state)
{
	struct dfly_netcfg cfg;
	char name[32];

	(void)state;
	load_ok(&cfg, BASE, (const char *const[]){"routing.mechanism=val", "traffic.pattern=adv+1"},
		2);
	assert_int_equal(cfg.mode, DFLY_MODE_VAL);
	assert_int_equal(cfg.val_variant, DFLY_VAL_LGL);
	assert_int_equal(cfg.pattern, DFLY_PAT_ADV);
	assert_int_equal(cfg.adv_offset, 1);
	assert_string_equal(dfly_pattern_name(&cfg, name, sizeof(name)), "adv+1");
	assert_string_equal(dfly_mode_name(cfg.mode), "val");

	/* A quoted value is a string. */
	load_ok(&cfg, BASE,
		(const char *const[]){"traffic.pattern=\"adv-2\"", "routing.val.path_a=\"-gl\""},
		2);
	assert_int_equal(cfg.pattern, DFLY_PAT_ADV);
	assert_int_equal(cfg.adv_offset, -2);
	assert_int_equal(cfg.val_variant, DFLY_VAL__GL);
	assert_string_equal(dfly_pattern_name(&cfg, name, sizeof(name)), "adv-2");

	load_ok(&cfg, BASE, (const char *const[]){"traffic.pattern=advc"}, 1);
	assert_string_equal(dfly_pattern_name(&cfg, name, sizeof(name)), "advc");
	load_ok(&cfg, BASE, (const char *const[]){"traffic.pattern=perm"}, 1);
	assert_string_equal(dfly_pattern_name(&cfg, name, sizeof(name)), "perm");
	assert_string_equal(dfly_mode_name(DFLY_MODE_MIN), "min");

	/* bursty-un and mix (spec §7.3, §7.2): their settings; mix's ADV share is ADV+1 */
	load_ok(&cfg, BASE, (const char *const[]){"traffic.pattern=bursty-un"}, 1);
	assert_int_equal(cfg.pattern, DFLY_PAT_BURSTY);
	assert_true(cfg.burst_len == 5.0);
	assert_string_equal(dfly_pattern_name(&cfg, name, sizeof(name)), "bursty-un");
	load_ok(&cfg, BASE, (const char *const[]){"traffic.pattern=mix", "traffic.mix_un=0.25"}, 2);
	assert_int_equal(cfg.pattern, DFLY_PAT_MIX);
	assert_int_equal(cfg.adv_offset, 1);
	assert_true(cfg.mix_un == 0.25);
	assert_string_equal(dfly_pattern_name(&cfg, name, sizeof(name)), "mix");
	load_ok(&cfg, BASE, (const char *const[]){"traffic.pattern=mix"}, 1);
	assert_true(cfg.mix_un == 0.5);
}

/* ---------------------------------------------------------------------------------------------
 * Defaults, dump, VC maps, configs/
 */

static void test_defaults(void **state)
{
	struct dfly_netcfg cfg;
	char name[32];

	(void)state;
	load_ok(&cfg, BASE, NULL, 0);
	assert_string_equal(cfg.path, tmp_paths[0]);
	assert_int_equal(cfg.p, 2);
	assert_int_equal(cfg.a, 4);
	assert_int_equal(cfg.h, 2);
	assert_int_equal(cfg.t, 1);
	assert_int_equal(cfg.arr, DFLY_ARR_PALMTREE);
	assert_int_equal(cfg.sigma, -1);
	assert_int_equal(cfg.speedup, 2);
	assert_int_equal(cfg.pipe_route, 2);
	assert_int_equal(cfg.pipe_xbar, 3);
	assert_int_equal(cfg.alloc_iters, 1);
	assert_int_equal(cfg.in_arb, DFLY_ARB_RR);
	assert_int_equal(cfg.out_arb, DFLY_ARB_RR);
	assert_false(cfg.in_transit_priority);
	assert_int_equal(cfg.credit_release, DFLY_REL_EARLY);
	assert_int_equal(cfg.output_release, DFLY_REL_EARLY);
	assert_false(cfg.ctrl_charge);
	assert_int_equal(cfg.fw_ttl, 1000000);
	assert_int_equal(cfg.ectn_mode, FW_ECTN_FULL);
	assert_int_equal(cfg.ectn_refresh, 10);
	assert_int_equal(cfg.ectn_async_delta, 4);
	assert_int_equal(cfg.ectn_async_min_gap, 10);
	assert_int_equal(cfg.val_exclude, DFLY_VAL_EXCL_SRC_DST);
	assert_int_equal(cfg.buf_inj, 256);
	assert_int_equal(cfg.buf_local, 32);
	assert_int_equal(cfg.buf_global, 256);
	assert_int_equal(cfg.buf_out, 32);
	assert_int_equal(cfg.vc_inj, 3);
	assert_int_equal(cfg.vc_local, 4);
	assert_int_equal(cfg.vc_global, 2);
	assert_int_equal(cfg.lat_local, 10);
	assert_int_equal(cfg.lat_global, 100);
	assert_int_equal(cfg.lat_terminal, 1);
	assert_int_equal(cfg.pkt_phits, 8);
	assert_int_equal(cfg.phit_bytes, 10);
	assert_true(cfg.cycle_ns == 1.0);
	assert_int_equal(cfg.mode, DFLY_MODE_MIN);
	assert_int_equal(cfg.val_variant, DFLY_VAL_LGL);
	assert_false(cfg.val_recompute);
	assert_int_equal(cfg.pattern, DFLY_PAT_UN);
	assert_int_equal(cfg.adv_offset, 0);
	assert_string_equal(dfly_pattern_name(&cfg, name, sizeof(name)), "un");
	assert_true(cfg.load == 0.1);
	assert_int_equal(cfg.inj_select, DFLY_INJ_JSQ);
	assert_int_equal(cfg.cc_candidate, 0); /* routing.cc.candidate = "now" */
	assert_int_equal(cfg.cc_head, 0);      /* routing.cc.head = "tail" */
	assert_int_equal(cfg.cand_draw, 0);    /* routing.candidate_draw = "all" */
	assert_int_equal(cfg.source, DFLY_SRC_SKIP);
	assert_int_equal(cfg.warmup, 60000);
	assert_int_equal(cfg.measure, 60000);
	assert_int_equal(cfg.drain, 200000);
	assert_int_equal(cfg.watchdog, 10000);
	assert_int_equal(cfg.seed, 1);
	assert_int_equal(cfg.seeds, 1);
}

/** Dump @p in, load the dump, and compare the structs (paths aside). */
static void round_trip(const struct dfly_netcfg *in)
{
	struct dfly_netcfg a = *in, b;
	char err[DFLY_NETCFG_ERRLEN] = "", *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int rc;

	assert_non_null(f);
	dfly_netcfg_dump(in, f);
	assert_int_equal(fclose(f), 0);
	rc = dfly_netcfg_load(&b, tmp_cfg(text), NULL, 0, err, sizeof(err));
	if (rc != 0)
		print_error("reloading the dump failed: %s\n%s", err, text);
	assert_int_equal(rc, 0);
	free(text);
	memset(a.path, 0, sizeof(a.path));
	memset(b.path, 0, sizeof(b.path));
	assert_memory_equal(&a, &b, sizeof(a));
}

/* buffers.mode (spec §3.9): static by default; DAMQ's reserve in phits per port kind, rounded
 * down; out-of-range and unknown values refused. */
static void test_damq(void **state)
{
	struct dfly_netcfg cfg;
	struct asic_params par;

	(void)state;
	load_ok(&cfg, BASE, NULL, 0);
	assert_int_equal(cfg.buf_mode, DFLY_BUF_STATIC);
	assert_true(cfg.damq_reserve == 0.75);
	assert_int_equal(cfg.damq_penalty, 0);
	dfly_netcfg_asic_params(&cfg, &par);
	assert_false(par.damq);
	assert_int_equal(par.damq_res[DFLY_PORT_LOCAL], 0);
	load_ok(&cfg, BASE, (const char *const[]){"buffers.mode=damq", "buffers.damq_penalty=3"},
		2);
	dfly_netcfg_asic_params(&cfg, &par);
	assert_true(par.damq);
	assert_int_equal(par.damq_res[DFLY_PORT_TERMINAL], 0);
	assert_int_equal(par.damq_res[DFLY_PORT_LOCAL], 24);
	assert_int_equal(par.damq_res[DFLY_PORT_GLOBAL], 192);
	assert_int_equal(par.damq_penalty, 3);
	/* 0.29 × 100 is 28.999... in binary: still 29 phits */
	load_ok(&cfg, BASE,
		(const char *const[]){"buffers.mode=damq", "buffers.damq_reserve=0.29",
				      "buffers.local=100", "buffers.global=30"},
		4);
	dfly_netcfg_asic_params(&cfg, &par);
	assert_int_equal(par.damq_res[DFLY_PORT_LOCAL], 29);
	assert_int_equal(par.damq_res[DFLY_PORT_GLOBAL], 8);
	expect_error(BASE, (const char *const[]){"buffers.damq_reserve=1.5"}, 1, -EINVAL,
		     "--set buffers.damq_reserve=1.5: buffers.damq_reserve: 1.5 is out of range "
		     "(expected 0..1)");
	expect_error(
	    BASE, (const char *const[]){"buffers.mode=shared"}, 1, -EINVAL,
	    "--set buffers.mode=shared: buffers.mode: unknown value 'shared' (expected one "
	    "of: static, damq)");
}

/* routing.cc.candidate, routing.cc.head, routing.candidate_draw and dest-block injection VCs:
 * their knobs by default and with FOGSim's other readings. */
static void test_cc_readings(void **state)
{
	static const char *const sets[] = {"routing.cc.candidate=credits", "routing.cc.head=grant",
					   "routing.candidate_draw=one",
					   "traffic.injection_vc=dest-block"};
	struct dfly_netcfg cfg;
	struct dfly_regs_knobs k;

	(void)state;
	load_ok(&cfg, BASE, NULL, 0);
	dfly_netcfg_knobs(&cfg, &k);
	assert_int_equal(k.cc_cand_now, 1);
	assert_int_equal(k.cc_head_at_tail, 1);
	assert_int_equal(k.cand_draw_one, 0);
	load_ok(&cfg, BASE, sets, 4);
	dfly_netcfg_knobs(&cfg, &k);
	assert_int_equal(k.cc_cand_now, 0);
	assert_int_equal(k.cc_head_at_tail, 0);
	assert_int_equal(k.cand_draw_one, 1);
	assert_int_equal(cfg.inj_select, DFLY_INJ_DEST_BLOCK);
	round_trip(&cfg);
}

/*
 * vcs.assign (spec 2.2; FOGSim v5 vcMngmt::nextChannel) and routing.ugal.weight = "fogsim": off
 * by default; "next" lays the mechanism's reference path out in knobs.vc_seq (kind << 4 | VC in
 * path order): MIN l0 g0 l1; PB on its VAL-group path (lg-) l0 g0 l1 g1 l2; VAL l0 g0 l1 l2 g1 l3;
 * MIN with 4/2 VCs, where failover runs, the VAL path its failover hops climb. Refused with
 * FlexVC and with the in-transit mechanisms.
 */
static void test_vc_assign(void **state)
{
	enum { L = DFLY_PORT_LOCAL << 4, G = DFLY_PORT_GLOBAL << 4 };
	const uint8_t min[] = {L | 0, G | 0, L | 1}, vg[] = {L | 0, G | 0, L | 1, G | 1, L | 2};
	const uint8_t val[] = {L | 0, G | 0, L | 1, L | 2, G | 1, L | 3};
	struct dfly_netcfg cfg;
	struct dfly_regs_knobs k;

	(void)state;
	load_ok(&cfg, BASE, NULL, 0);
	dfly_netcfg_knobs(&cfg, &k);
	assert_int_equal(k.vc_next, 0);
	assert_int_equal(k.ugal_hops, 0);
	load_ok(&cfg, BASE, (const char *const[]){"vcs.assign=next", "vcs.local=2", "vcs.global=1"},
		3);
	dfly_netcfg_knobs(&cfg, &k);
	assert_int_equal(k.vc_next, 1);
	assert_int_equal(k.vc_seq_n, 3);
	assert_memory_equal(k.vc_seq, min, 3);
	round_trip(&cfg);
	load_ok(&cfg, BASE,
		(const char *const[]){"vcs.assign=next", "routing.mechanism=pb",
				      "routing.val.path_a=lg-", "routing.ugal.weight=fogsim",
				      "routing.pb.average=other"},
		5);
	dfly_netcfg_knobs(&cfg, &k);
	assert_int_equal(k.vc_seq_n, 5);
	assert_memory_equal(k.vc_seq, vg, 5);
	assert_int_equal(k.ugal_hops, 2);
	load_ok(&cfg, BASE, (const char *const[]){"vcs.assign=next", "routing.mechanism=val"}, 2);
	dfly_netcfg_knobs(&cfg, &k);
	assert_int_equal(k.vc_seq_n, 6);
	assert_memory_equal(k.vc_seq, val, 6);
	/* MIN on 4/2 VCs: failover runs and its misrouted packets climb VAL's path */
	load_ok(&cfg, BASE, (const char *const[]){"vcs.assign=next"}, 1);
	dfly_netcfg_knobs(&cfg, &k);
	assert_int_equal(k.failover, 1);
	assert_int_equal(k.vc_seq_n, 6);
	assert_memory_equal(k.vc_seq, val, 6);
	expect_error(
	    BASE,
	    (const char *const[]){"vcs.assign=next", "routing.mechanism=val", "vcs.flexvc=jsq"}, 3,
	    -EINVAL,
	    "--set vcs.assign=next: vcs.assign: \"next\" places a hop after the place of "
	    "the VC the packet is in on one reference path: not with FlexVC (vcs.flexvc = "
	    "\"jsq\") or the in-transit mechanisms' opportunistic hops (val)");
	expect_error(BASE, (const char *const[]){"vcs.assign=next", "routing.mechanism=olm"}, 2,
		     -EINVAL,
		     "--set vcs.assign=next: vcs.assign: \"next\" places a hop after the place of "
		     "the VC the packet is in on one reference path: not with FlexVC (vcs.flexvc = "
		     "\"off\") or the in-transit mechanisms' opportunistic hops (olm)");
}

/*
 * The state model (config/state.c, dfly topo --state) on IAR §6.6's router: CFG-I's 15 ports
 * with 3 VCs each, 32-flit local and injection VCs, 256-flit global ones, 64-bit flits. Exact:
 * baseline (4·3·32 + 7·3·32 + 4·3·256)·64 = 264,192; CRT 9·4 + 9·4·768 = 27,684 (k = 9 for a
 * 100-cycle global link); PB a·h = 32 bits, in band h/(10·64) of a link; RES h·10 bits of R
 * (F = 768), + 4·40 flits of 64 bits with IAR's separate waiting buffer (τ = 2·10); PAR one
 * more local VC on the 7 local ports (5/2 against UGAL's 4/2) = 7·32·64; the contention
 * counters one per port.
 */
static void test_state_model(void **state)
{
	static const char *const sets[] = {"vcs.injection=3",      "vcs.local=3",
					   "vcs.global=3",         "buffers.injection=32",
					   "routing.pb.bits=port", "routing.pb.exchange=inband"};
	struct dfly_state_row r[DFLY_MODE_COUNT + 1];
	char path[512], err[DFLY_NETCFG_ERRLEN];
	struct dfly_netcfg cfg;
	unsigned n;

	(void)state;
	snprintf(path, sizeof(path), "%s/configs/cfg-i.cfg", DFLY_SOURCE_DIR);
	assert_int_equal(dfly_netcfg_load(&cfg, path, sets, 6, err, sizeof(err)), 0);
	n = dfly_state_model(&cfg, r, DFLY_MODE_COUNT + 1);
	assert_int_equal(n, DFLY_MODE_COUNT + 1);
	assert_string_equal(r[0].name, "baseline");
	assert_int_equal(r[0].bits, 264192);
	assert_string_equal(r[1 + DFLY_MODE_CRT].name, "crt");
	assert_int_equal(r[1 + DFLY_MODE_CRT].bits, 27684);
	assert_int_equal(r[1 + DFLY_MODE_PB].bits, 32);
	assert_true(fabs(r[1 + DFLY_MODE_PB].bw - 4.0 / 640) < 1e-12);
	assert_int_equal(r[1 + DFLY_MODE_RES].bits, 40);
	assert_int_equal(r[1 + DFLY_MODE_RES].alt_bits, 40 + 4 * 40 * 64);
	assert_true(fabs(r[1 + DFLY_MODE_RES].bw - 2.0 * 4 * (32.0 / 33) / 80) < 1e-12);
	assert_int_equal(r[1 + DFLY_MODE_PAR].bits, 7 * 32 * 64);
	/* IAR's reading: a VC more on each of the 15 input ports, 352 Kbit in all (IAR Table 1) */
	assert_int_equal(r[1 + DFLY_MODE_PAR].alt_bits, (4 * 32 + 7 * 32 + 4 * 256) * 64);
	assert_int_equal(r[0].bits + r[1 + DFLY_MODE_PAR].alt_bits, 352256);
	assert_int_equal(r[1 + DFLY_MODE_UGAL].bits, 0);
	assert_int_equal(r[1 + DFLY_MODE_BASE].bits, 15 * 9); /* 4,128 phits / 10: 412 packets */
	assert_false(r[1 + DFLY_MODE_LIA].modelled);
	/* PB out of band: a PB_STATE frame per period to each neighbour, whole phits */
	{
		struct dfly_wire_ctrl m = {.type = DFLY_WIRE_CTRL_PB_STATE};
		uint8_t buf[DFLY_CPU_FRAME_MAX];
		int len;
		double bw10;

		m.pb.h = 4;
		m.pb.vg = 1;
		len = dfly_wire_ctrl_encode(buf, sizeof(buf), NULL, &m);
		cfg.pb_exchange = DFLY_PB_OOB;
		cfg.pb_period = 10;
		dfly_state_model(&cfg, r, DFLY_MODE_COUNT + 1);
		bw10 = r[1 + DFLY_MODE_PB].bw;
		assert_true(fabs(bw10 - ceil((len - 14) / 8.0) / 10) < 1e-12);
		cfg.pb_period = 20;
		dfly_state_model(&cfg, r, DFLY_MODE_COUNT + 1);
		assert_true(fabs(r[1 + DFLY_MODE_PB].bw - bw10 / 2) < 1e-12);
	}
}

/* routing.res.t: packets in the file, phits in the knob (IAR's CFG-I threshold 3 by default);
 * RES runs without failover under "auto" */
static void test_res_settings(void **state)
{
	static const char *const sets[] = {"routing.mechanism=res", "routing.res.t=1.5",
					   "packet.phits=10"};
	struct dfly_netcfg cfg;
	struct dfly_regs_knobs k;

	(void)state;
	load_ok(&cfg, BASE, sets, 1);
	dfly_netcfg_knobs(&cfg, &k);
	assert_int_equal(k.mode, DFLY_MODE_RES);
	assert_int_equal(k.res_t, 3 * cfg.pkt_phits);
	assert_false(dfly_netcfg_failover(&cfg));
	load_ok(&cfg, BASE, sets, 3);
	dfly_netcfg_knobs(&cfg, &k);
	assert_int_equal(k.res_t, 15);
	round_trip(&cfg);
}

static void test_dump_round_trip(void **state)
{
	struct dfly_netcfg cfg;

	(void)state;
	load_ok(&cfg, BASE, NULL, 0);
	round_trip(&cfg);
	teardown(NULL);

	/* Every setting away from its default. */
	load_ok(&cfg, BASE,
		(const char *const[]){"topology.t=2",
				      "topology.sigma=1",
				      "router.speedup=3",
				      "router.route_cycles=7",
				      "router.xbar_cycles=4",
				      "router.alloc_iters=2",
				      "router.input_arbiter=lrs",
				      "router.output_arbiter=age",
				      "router.in_transit_priority=true",
				      "router.credit_release=tail",
				      "router.output_release=tail",
				      "router.ctrl_charge=true",
				      "buffers.injection=1000",
				      "buffers.local=64",
				      "buffers.global=2048",
				      "buffers.output=48",
				      "vcs.injection=1",
				      "vcs.local=5",
				      "vcs.global=2",
				      "links.local_latency=15",
				      "links.global_latency=150",
				      "links.terminal_latency=2",
				      "packet.phits=10",
				      "packet.phit_bytes=25",
				      "clock.cycle_ns=0.3",
				      "routing.mechanism=val",
				      "routing.val.path_a=lg-",
				      "routing.val.recompute=true",
				      "routing.val.exclude=src",
				      "routing.candidate_credits=false",
				      "routing.reevaluate=false",
				      "routing.ugal.f=1.5",
				      "routing.ugal.t=-2.5",
				      "routing.ugal.occupancy=port",
				      "routing.pb.f=1.25",
				      "routing.pb.t=5",
				      "routing.pb.average=other",
				      "routing.pb.bits=port",
				      "routing.pb.exchange=inband",
				      "routing.pb.period=3",
				      "routing.pb.piggyback_every=100",
				      "routing.pb.send_unchanged=false",
				      "routing.olm.threshold_pct=35",
				      "routing.olm.min_occupancy_pct=10",
				      "routing.ectn.mode=incremental",
				      "routing.ectn.refresh=7",
				      "routing.ectn.async_delta=15",
				      "routing.ectn.async_min_gap=1000000",
				      "traffic.pattern=adv-2",
				      "traffic.load=0.35",
				      "traffic.injection_vc=dest",
				      "traffic.source=unbounded",
				      "sim.warmup=0",
				      "sim.measure=15000",
				      "sim.drain=1",
				      "sim.watchdog=123456789012",
				      "sim.seed=9000000000000000000",
				      "sim.seeds=10"},
		58);
	assert_false(cfg.reevaluate);
	assert_true(cfg.ctrl_charge);
	assert_int_equal(cfg.ectn_mode, FW_ECTN_INCREMENTAL);
	assert_int_equal(cfg.ectn_refresh, 7);
	assert_int_equal(cfg.ectn_async_delta, 15);
	assert_int_equal(cfg.ectn_async_min_gap, 1000000);
	assert_true(cfg.ugal_t == -2.5);
	assert_int_equal(cfg.pb_exchange, DFLY_PB_INBAND);
	assert_int_equal(cfg.olm_min_pct, 10);
	assert_int_equal(cfg.credit_release, DFLY_REL_TAIL);
	assert_int_equal(cfg.output_release, DFLY_REL_TAIL);
	assert_int_equal(cfg.val_exclude, DFLY_VAL_EXCL_SRC);
	assert_int_equal(cfg.seed, 9000000000000000000ull);
	assert_true(cfg.cycle_ns == 0.3);
	round_trip(&cfg);
}

static void test_vc_needs(void **state)
{
	static const struct {
		enum dfly_route_mode mode;
		enum dfly_val_variant v;
		uint32_t local, global;
		uint8_t map[DFLY_ROLE_COUNT]; /* S1 S2 G1 I1 I2 G2 D1 D2 */
	} cases[] = {
	    {DFLY_MODE_MIN, DFLY_VAL_LGL, 2, 1, {0, 0, 0, 0, 0, 0, 0, 1}},
	    {DFLY_MODE_VAL, DFLY_VAL_LGL, 4, 2, {0, 0, 0, 1, 2, 1, 0, 3}},
	    {DFLY_MODE_VAL, DFLY_VAL__GL, 4, 2, {0, 0, 0, 1, 2, 1, 0, 3}},
	    {DFLY_MODE_VAL, DFLY_VAL_LG_, 3, 2, {0, 0, 0, 1, 1, 1, 0, 2}},
	    {DFLY_MODE_VAL, DFLY_VAL__G_, 3, 2, {0, 0, 0, 1, 1, 1, 0, 2}},
	    {DFLY_MODE_PB, DFLY_VAL_LGL, 4, 2, {0, 0, 0, 1, 2, 1, 0, 3}},
	    {DFLY_MODE_UGAL, DFLY_VAL_LG_, 3, 2, {0, 0, 0, 1, 1, 1, 0, 2}},
	    {DFLY_MODE_PAR, DFLY_VAL_LGL, 5, 2, {0, 1, 0, 2, 3, 1, 0, 4}},
	    {DFLY_MODE_OLM, DFLY_VAL_LGL, 3, 2, {0, 0, 0, 0, 1, 1, 1, 2}},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct dfly_netcfg cfg = {.mode = cases[i].mode, .val_variant = cases[i].v, .t = 1};
		uint8_t map[DFLY_ROLE_COUNT];
		uint32_t l, g;

		memset(map, 0xff, sizeof(map));
		dfly_netcfg_vc_needs(&cfg, &l, &g, map);
		assert_int_equal(l, cases[i].local);
		assert_int_equal(g, cases[i].global);
		assert_memory_equal(map, cases[i].map, sizeof(map));
	}
	/* with trunking, VAL-group paths may land beside S_ROOT and take a local hop: 4/2 */
	{
		struct dfly_netcfg cfg = {
		    .mode = DFLY_MODE_VAL, .val_variant = DFLY_VAL_LG_, .t = 2};
		uint32_t l, g;

		dfly_netcfg_vc_needs(&cfg, &l, &g, NULL);
		assert_int_equal(l, 4);
		assert_int_equal(g, 2);
	}
}

/** Every .cfg file in configs/ loads, as written and with VAL (they all carry 4/2 VCs). */
static void test_configs_dir(void **state)
{
	static const char *const val[] = {"routing.mechanism=val", "traffic.pattern=adv+1"};
	const char *dirname = DFLY_SOURCE_DIR "/configs";
	DIR *dir = opendir(dirname);
	struct dirent *de;
	int n = 0;

	(void)state;
	assert_non_null(dir);
	while ((de = readdir(dir)) != NULL) {
		size_t len = strlen(de->d_name);
		char path[1024], err[DFLY_NETCFG_ERRLEN] = "";
		struct dfly_netcfg cfg;
		int rc;

		if (len < 5 || strcmp(de->d_name + len - 4, ".cfg") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dirname, de->d_name);
		rc = dfly_netcfg_load(&cfg, path, NULL, 0, err, sizeof(err));
		if (rc != 0)
			print_error("%s\n", err);
		assert_int_equal(rc, 0);
		rc = dfly_netcfg_load(&cfg, path, val, 2, err, sizeof(err));
		if (rc != 0)
			print_error("%s\n", err);
		assert_int_equal(rc, 0);
		round_trip(&cfg);
		teardown(NULL);
		n++;
	}
	closedir(dir);
	print_message("loaded %d files from %s\n", n, dirname);
	assert_true(n >= 5);
}

/** The reference files carry the values of spec §0.4. */
static void test_reference_configs(void **state)
{
	struct dfly_netcfg cfg;
	char err[DFLY_NETCFG_ERRLEN] = "";

	(void)state;
	assert_int_equal(
	    dfly_netcfg_load(&cfg, DFLY_SOURCE_DIR "/configs/cfg-t.cfg", NULL, 0, err, sizeof(err)),
	    0);
	assert_int_equal(cfg.p * 100 + cfg.a * 10 + cfg.h, 8 * 100 + 16 * 10 + 8);
	assert_int_equal(cfg.pipe_route + cfg.pipe_xbar, 5);
	assert_int_equal(cfg.buf_inj, 256);
	assert_int_equal(cfg.buf_local, 32);
	assert_int_equal(cfg.buf_global, 256);
	assert_int_equal(cfg.buf_out, 32);
	assert_int_equal(cfg.seeds, 5);

	assert_int_equal(
	    dfly_netcfg_load(&cfg, DFLY_SOURCE_DIR "/configs/cfg-l.cfg", NULL, 0, err, sizeof(err)),
	    0);
	assert_int_equal(cfg.pipe_route + cfg.pipe_xbar, 90);
	assert_int_equal(cfg.buf_local * cfg.phit_bytes, 18000);
	assert_int_equal(cfg.buf_global * cfg.phit_bytes, 45000);
	assert_int_equal(cfg.buf_inj * cfg.phit_bytes, 126000);
	assert_int_equal(cfg.pkt_phits * cfg.phit_bytes, 250);
	assert_int_equal(cfg.vc_inj, 1);
	assert_int_equal(cfg.seeds, 10);
}

#define T(f) cmocka_unit_test_teardown(f, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(test_missing_file),
	    T(test_syntax_error),
	    T(test_missing_required),
	    T(test_wrong_type),
	    T(test_out_of_range),
	    T(test_unknown_setting),
	    T(test_sigma),
	    T(test_unknown_enum_value),
	    T(test_mechanism),
	    T(test_pattern),
	    T(test_pattern_own_group),
	    T(test_trunking),
	    T(test_topology_size),
	    T(test_too_few_vcs),
	    T(test_failover_vcs),
	    T(test_buffer_smaller_than_packet),
	    T(test_set_errors),
	    T(test_set_creates),
	    T(test_set_mechanism_pattern),
	    T(test_defaults),
	    T(test_damq),
	    T(test_cc_readings),
	    T(test_vc_assign),
	    T(test_res_settings),
	    T(test_state_model),
	    T(test_dump_round_trip),
	    T(test_vc_needs),
	    T(test_configs_dir),
	    T(test_reference_configs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
