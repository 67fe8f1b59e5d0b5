/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of the registries (issue 22): the mechanism registry (include/dfly/mode.h), the
 * table list (DFLY_FOREACH_TBL, include/dfly/regs.h) and the firmware's mechanisms (struct
 * fw_mech, control/fw_mech.h). Checked: every mode's name is unique, non-empty and round-trips
 * through dfly_mode_lookup(); the register numbering did not move; the family flags agree with
 * each other and with the VC needs; every firmware machine a mode names is implemented by exactly
 * one registered fw_mech, which keeps its contract; fw_create_with() refuses a mechanism that
 * lacks a required op (as tcp_register_congestion_control() does) or implements a machine twice;
 * the table list's offsets and sizes tile struct dfly_regs_tables.
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

#include "dfly/mode.h"
#include "fw_mech.h"

static void test_mode_names(void **state)
{
	(void)state;
	for (uint32_t m = 0; m < DFLY_MODE_COUNT; m++) {
		const char *n = dfly_mode_name(m);

		assert_non_null(n);
		assert_true(n[0] != '\0');
		assert_int_equal(dfly_mode_lookup(n), (int)m);
		assert_true(dfly_mode_help(m)[0] != '\0');
		for (uint32_t o = m + 1; o < DFLY_MODE_COUNT; o++)
			assert_string_not_equal(n, dfly_mode_name(o));
	}
	assert_string_equal(dfly_mode_name(DFLY_MODE_COUNT), "?");
	assert_int_equal(dfly_mode_lookup("rest"), -1);
	assert_int_equal(dfly_mode_lookup(""), -1);
	assert_int_equal(dfly_mode_lookup(NULL), -1);
	assert_int_equal(dfly_mode_lookup("MIN"), -1);
	assert_false(dfly_mode_is(DFLY_MODE_COUNT, 0));
}

/* The register file is an ABI: today's order and config names. */
static void test_mode_abi(void **state)
{
	static const char *const names[] = {"min",     "val",      "ugal",   "pb",   "par", "olm",
					    "base",    "filtered", "hybrid", "ectn", "lia", "tpr",
					    "pb-acor", "ugal-g",   "crt",    "res"};
	char buf[256];

	(void)state;
	assert_int_equal(DFLY_MODE_COUNT, sizeof(names) / sizeof(names[0]));
	for (uint32_t m = 0; m < DFLY_MODE_COUNT; m++)
		assert_string_equal(dfly_mode_name(m), names[m]);
	assert_int_equal(DFLY_MODE_MIN, 0);
	assert_int_equal(DFLY_MODE_VAL, 1);
	assert_int_equal(DFLY_MODE_UGAL_G, 13);
	assert_int_equal(DFLY_MODE_CRT, 14);
	assert_int_equal(DFLY_MODE_RES, 15);
	assert_string_equal(dfly_mode_list(0, buf, sizeof(buf)),
			    "min, val, ugal, pb, par, olm, base, filtered, hybrid, ectn, lia, tpr, "
			    "pb-acor, ugal-g, crt, res");
	assert_string_equal(
	    dfly_mode_list(DFLY_MODEF_FLEXVC, buf, sizeof(buf)),
	    "min, val, ugal, pb, olm, base, filtered, hybrid, ectn, lia, tpr, pb-acor, "
	    "ugal-g, crt, res");
	assert_string_equal(
	    dfly_mode_list(DFLY_MODEF_REQREP, buf, sizeof(buf)),
	    "min, val, ugal, pb, olm, base, filtered, hybrid, ectn, lia, tpr, pb-acor, "
	    "ugal-g, crt, res");
	assert_string_equal(dfly_mode_list(DFLY_MODEF_CC, buf, sizeof(buf)),
			    "base, filtered, hybrid, ectn");
	assert_string_equal(dfly_mode_list(DFLY_MODEF_IN_TRANSIT, buf, sizeof(buf)),
			    "olm, base, filtered, hybrid, ectn");
	assert_string_equal(dfly_mode_list(DFLY_MODEF_ORACLE, buf, sizeof(buf)), "ugal-g");
	assert_string_equal(dfly_mode_list(DFLY_MODEF_T1, buf, sizeof(buf)), "lia, tpr");
	assert_int_equal(dfly_mode_first(DFLY_MODEF_CC), DFLY_MODE_BASE);
}

/* Flags agree with each other and with the VC sequence they imply. */
static void test_mode_flags_vcs(void **state)
{
	(void)state;
	for (uint32_t m = 0; m < DFLY_MODE_COUNT; m++) {
		uint32_t f = dfly_mode_flags(m), l, g, l2, g2;
		enum dfly_mode_vcs v = dfly_mode_vcs(m);
		uint8_t map[DFLY_ROLE_COUNT];
		unsigned roles = dfly_mode_roles(m, false);
		bool adaptive = f & (DFLY_MODEF_SOURCE | DFLY_MODEF_IN_TRANSIT);

		print_message("mode %s flags %#x vcs %d\n", dfly_mode_name(m), f, (int)v);
		/* oblivious or adaptive, never both, never neither */
		assert_true(!!(f & DFLY_MODEF_OBLIVIOUS) != adaptive);
		/* in transit ⇔ the 3/2 sequence with opportunistic hops */
		assert_true(!!(f & DFLY_MODEF_IN_TRANSIT) == (v == DFLY_VCS_TRANSIT));
		if (f & DFLY_MODEF_CC)
			assert_true(f & DFLY_MODEF_IN_TRANSIT);
		/* FlexVC: the oblivious modes, the source-adaptive ones on the Valiant sequence
		 * (route_src.c places their hops on it), and the in-transit ones on their
		 * escape sequence (route_transit.c) */
		if (f & DFLY_MODEF_FLEXVC)
			assert_true((f & DFLY_MODEF_OBLIVIOUS) || (f & DFLY_MODEF_IN_TRANSIT) ||
				    ((f & DFLY_MODEF_SOURCE) && v == DFLY_VCS_VAL));
		/* request-reply: exactly the modes with FlexVC built (its classes are placed on
		 * the same sequences) */
		assert_true(!!(f & DFLY_MODEF_REQREP) == !!(f & DFLY_MODEF_FLEXVC));
		/* opportunistic roles: the in-transit sequence's only, roles it uses */
		assert_true((dfly_mode_opp_roles(m) != 0) == (v == DFLY_VCS_TRANSIT));
		assert_int_equal(dfly_mode_opp_roles(m) & ~roles, 0);
		/* a Path-A variant (VAL-group) or a per-packet shape: the Valiant sequence, not
		 * both */
		if (f & (DFLY_MODEF_PATH_A | DFLY_MODEF_PATH_PER_PKT))
			assert_int_equal(v, DFLY_VCS_VAL);
		assert_false((f & DFLY_MODEF_PATH_A) && (f & DFLY_MODEF_PATH_PER_PKT));
		/* only the minimal sequence never leaves the minimal path */
		assert_true((v == DFLY_VCS_MIN) == (m == DFLY_MODE_MIN));

		dfly_mode_vc_needs(m, false, &l, &g, map);
		for (int r = 0; r < DFLY_ROLE_COUNT; r++) {
			uint8_t lim = (r == DFLY_ROLE_G1 || r == DFLY_ROLE_G2) ? g : l;

			assert_true(map[r] < lim);
			if (!((roles >> r) & 1u))
				assert_int_equal(map[r], 0);
		}
		assert_true((roles >> DFLY_ROLE_S1) & 1u);
		assert_true((roles >> DFLY_ROLE_D2) & 1u);
		/* what config/netcfg.c and `dfly topo` checked before the registry */
		switch (v) {
		case DFLY_VCS_MIN:
			assert_int_equal(l, 2);
			assert_int_equal(g, 1);
			break;
		case DFLY_VCS_VAL:
			assert_int_equal(l, 4);
			assert_int_equal(g, 2);
			break;
		case DFLY_VCS_PAR:
			assert_int_equal(l, 5);
			assert_int_equal(g, 2);
			break;
		case DFLY_VCS_TRANSIT:
			assert_int_equal(l, 3);
			assert_int_equal(g, 2);
			assert_int_equal(roles, (1u << DFLY_ROLE_COUNT) - 1);
			break;
		}
		/* VAL-group shortens exactly the modes that take routing.val.path_a */
		dfly_mode_vc_needs(m, true, &l2, &g2, NULL);
		if (f & DFLY_MODEF_PATH_A) {
			assert_int_equal(l2, 3);
			assert_int_equal(g2, 2);
			assert_false((dfly_mode_roles(m, true) >> DFLY_ROLE_I1) & 1u);
		} else {
			assert_int_equal(l2, l);
			assert_int_equal(g2, g);
			assert_int_equal(dfly_mode_roles(m, true), roles);
		}
		/* the tables it reads are tables; the machines it runs are machines */
		assert_int_equal(dfly_mode_tables(m) & ~((1u << DFLY_TBL_COUNT) - 1), 0);
		assert_int_equal(dfly_mode_fw(m) & ~((1u << DFLY_FW_COUNT) - 1), 0);
		assert_false(dfly_mode_runs(m, DFLY_FW_FAILOVER)); /* routing.failover, any mode */
	}
	assert_int_equal(dfly_mode_vcs(DFLY_MODE_PAR), DFLY_VCS_PAR);
	assert_true(dfly_mode_is(DFLY_MODE_ECTN, DFLY_MODEF_CC | DFLY_MODEF_SOURCE));
	assert_true(dfly_mode_runs(DFLY_MODE_PB_ACOR, DFLY_FW_PB));
	assert_true(dfly_mode_runs(DFLY_MODE_PB_ACOR, DFLY_FW_ACOR));
}

/* A machine that runs publishes a table its mode reads, and vice versa. */
static void test_mode_fw_tables(void **state)
{
	static const struct {
		enum dfly_fw_machine fw;
		uint32_t tables;
	} writes[] = {
	    {DFLY_FW_PB, DFLY_TBL_BIT(PB)},
	    {DFLY_FW_ECTN, DFLY_TBL_BIT(ECTN)},
	    {DFLY_FW_LIA, DFLY_TBL_BIT(LIA) | DFLY_TBL_BIT(UGAL)},
	    {DFLY_FW_TPR, DFLY_TBL_BIT(LIA) | DFLY_TBL_BIT(UGAL)},
	    {DFLY_FW_ACOR, DFLY_TBL_BIT(LIA)},
	};

	(void)state;
	for (uint32_t m = 0; m < DFLY_MODE_COUNT; m++) {
		uint32_t written = 0;

		for (size_t i = 0; i < sizeof(writes) / sizeof(writes[0]); i++)
			if (dfly_mode_runs(m, writes[i].fw))
				written |= writes[i].tables;
		assert_int_equal(written, dfly_mode_tables(m));
	}
}

/* Every machine a mode names is implemented by exactly one built-in fw_mech, which keeps its
 * contract. */
static void test_fw_mechs(void **state)
{
	uint32_t machines = 0;

	(void)state;
	assert_true(fw_nmechs >= 4);
	assert_ptr_equal(fw_mechs[0], &fw_mech_pb); /* the order of the timers */
	assert_ptr_equal(fw_mechs[1], &fw_mech_ectn);
	assert_ptr_equal(fw_mechs[2], &fw_mech_failover);
	assert_ptr_equal(fw_mechs[3], &fw_mech_lia);
	for (uint32_t i = 0; i < fw_nmechs; i++) {
		const struct fw_mech *m = fw_mechs[i];

		assert_int_equal(fw_mech_check(m), 0);
		assert_non_null(m->wanted);
		assert_non_null(m->init);
		if (m->rx_types)
			assert_non_null(m->rx);
		assert_int_equal(machines & m->machines, 0);
		machines |= m->machines;
	}
	for (uint32_t m = 0; m < DFLY_MODE_COUNT; m++)
		assert_int_equal(dfly_mode_fw(m) & ~machines, 0);
	assert_int_equal(machines, (1u << DFLY_FW_COUNT) - 1);
	/* the group-scoped frames are those of the group exchanges */
	assert_int_equal(fw_mech_pb.rx_group, FW_CTRL_BIT(PB_STATE));
	assert_int_equal(fw_mech_ectn.rx_group, FW_CTRL_BIT(ECTN_PARTIAL));
}

/* fw_params_enable() runs exactly the built-in mechanisms that implement the machines. */
static void test_fw_params_enable(void **state)
{
	(void)state;
	for (uint32_t m = 0; m < DFLY_MODE_COUNT; m++) {
		struct fw_params par;
		uint32_t want = dfly_mode_fw(m), ran = 0;

		fw_params_init(&par);
		fw_params_enable(&par, want);
		for (uint32_t i = 0; i < fw_nmechs; i++)
			if (fw_mechs[i]->wanted(&par))
				ran |= fw_mechs[i]->machines;
		/* every machine wanted runs, and nothing runs that no machine asked for */
		assert_int_equal(want & ~ran, 0);
		for (uint32_t i = 0; i < fw_nmechs; i++)
			if (fw_mechs[i]->wanted(&par))
				assert_int_not_equal(fw_mechs[i]->machines & want, 0);
	}
}

/* A test mechanism: required ops present unless a test removes them. */
static int probe_inits;
static bool probe_wanted(const struct fw_params *par)
{
	(void)par;
	return true;
}
static void *probe_init(struct fw *fw)
{
	(void)fw;
	probe_inits++;
	return calloc(1, 8);
}
static int probe_rx(struct fw *fw, void *st, uint32_t port, const struct dfly_wire_ctrl *m)
{
	(void)fw;
	(void)st;
	(void)port;
	(void)m;
	return 0;
}

static const struct fw_mech probe_ok = {
    .name = "probe",
    .machines = DFLY_FW_BIT(ECTN),
    .rx_types = FW_CTRL_BIT(HELLO),
    .wanted = probe_wanted,
    .init = probe_init,
    .rx = probe_rx,
};

static struct fw *create_with(const struct fw_mech *m, struct dfly_topo **topo,
			      struct dfly_regs *regs)
{
	const struct fw_mech *list[] = {m};
	struct fw_params par;

	fw_params_init(&par);
	*topo = dfly_topo_create(2, 4, 2, 1, DFLY_ARR_PALMTREE, -1);
	assert_non_null(*topo);
	dfly_regs_init(regs, 0, (*topo)->radix);
	errno = 0;
	return fw_create_with(*topo, 0, regs, &par, list, 1);
}

/* Registration refuses a mechanism that lacks a required op, or breaks its contract. */
static void test_fw_mech_refused(void **state)
{
	struct dfly_regs *regs = calloc(1, sizeof(*regs));
	struct dfly_topo *topo;
	struct fw_mech bad[8];
	struct fw *fw;
	int n = 0;

	(void)state;
	assert_non_null(regs);
	for (int i = 0; i < 8; i++)
		bad[i] = probe_ok;
	bad[n++].name = NULL;   /* no name */
	bad[n++].machines = 0;  /* implements nothing */
	bad[n++].wanted = NULL; /* required op missing */
	bad[n++].init = NULL;   /* required op missing */
	bad[n++].rx = NULL;     /* rx_types without rx */
	bad[n].rx_types = 0;    /* rx without rx_types */
	n++;
	bad[n++].rx_group = FW_CTRL_BIT(PB_STATE); /* group-scoped type it does not take */
	bad[n++].machines = 1u << DFLY_FW_COUNT;   /* a machine that does not exist */

	assert_int_equal(fw_mech_check(NULL), -EINVAL);
	for (int i = 0; i < n; i++) {
		print_message("bad mechanism %d\n", i);
		assert_int_equal(fw_mech_check(&bad[i]), -EINVAL);
		probe_inits = 0;
		fw = create_with(&bad[i], &topo, regs);
		assert_null(fw);
		assert_int_equal(errno, EINVAL);
		assert_int_equal(probe_inits, 0); /* refused before anything ran */
		dfly_topo_destroy(topo);
	}
	/* the good one runs, and takes its frames */
	assert_int_equal(fw_mech_check(&probe_ok), 0);
	probe_inits = 0;
	fw = create_with(&probe_ok, &topo, regs);
	assert_non_null(fw);
	assert_int_equal(probe_inits, 1);
	fw_tick(fw, 0);
	fw_destroy(fw);
	dfly_topo_destroy(topo);
	/* a machine implemented twice */
	{
		const struct fw_mech *twice[] = {&probe_ok, &fw_mech_ectn};
		struct fw_params par;

		fw_params_init(&par);
		topo = dfly_topo_create(2, 4, 2, 1, DFLY_ARR_PALMTREE, -1);
		dfly_regs_init(regs, 0, topo->radix);
		assert_null(fw_create_with(topo, 0, regs, &par, twice, 2));
		assert_int_equal(errno, EINVAL);
		dfly_topo_destroy(topo);
	}
	free(regs);
}

/* The table list tiles struct dfly_regs_tables, in order, and names every table once. */
static void test_tables(void **state)
{
	size_t end = 0;

	(void)state;
	for (int t = 0; t < DFLY_TBL_COUNT; t++) {
		size_t off = dfly_tbl_offset((enum dfly_tbl)t),
		       sz = dfly_tbl_size((enum dfly_tbl)t);

		assert_true(off >= end);
		assert_true(sz > 0);
		end = off + sz;
		for (int o = t + 1; o < DFLY_TBL_COUNT; o++)
			assert_string_not_equal(dfly_tbl_name((enum dfly_tbl)t),
						dfly_tbl_name((enum dfly_tbl)o));
	}
	assert_true(end <= sizeof(struct dfly_regs_tables));
	assert_int_equal(dfly_tbl_offset(DFLY_TBL_PB), offsetof(struct dfly_regs_tables, pb));
	assert_int_equal(dfly_tbl_offset(DFLY_TBL_FAIL), offsetof(struct dfly_regs_tables, fail));
	assert_int_equal(dfly_tbl_size(DFLY_TBL_LIA), sizeof(struct dfly_tbl_lia));
	assert_string_equal(dfly_tbl_name(DFLY_TBL_ECTN), "ectn");
	/* no default: falling to LIA's slot any more */
	assert_int_equal(dfly_tbl_size(DFLY_TBL_COUNT), 0);
	assert_string_equal(dfly_tbl_name(DFLY_TBL_COUNT), "?");
	{
		struct dfly_regs *regs = calloc(1, sizeof(*regs));

		assert_non_null(regs);
		dfly_regs_init(regs, 0, 8);
		errno = 0;
		assert_null(dfly_regs_tbl_begin(regs, DFLY_TBL_COUNT));
		assert_int_equal(errno, EINVAL);
		free(regs);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_mode_names),      cmocka_unit_test(test_mode_abi),
	    cmocka_unit_test(test_mode_flags_vcs),  cmocka_unit_test(test_mode_fw_tables),
	    cmocka_unit_test(test_fw_mechs),        cmocka_unit_test(test_fw_params_enable),
	    cmocka_unit_test(test_fw_mech_refused), cmocka_unit_test(test_tables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
