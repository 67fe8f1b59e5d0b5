/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The mechanism registry (DESIGN.md §2): every routing mechanism of docs/spec.md §4–§6 declared
 * once, in DFLY_FOREACH_MODE. Everything that used to spell a mechanism's name or test a family
 * by a range of enum values reads this list instead: the routing mode register's values (enum
 * dfly_route_mode, an ABI of the register file), the configuration loader's names and checks
 * (config/netcfg.c), the VC needs (config/netcfg.c, `dfly topo`), the help of `dfly sim`, the
 * repro sweeps, the ASIC's family tests (asic_mode_in_transit()) and the firmware state machines
 * a mode runs (control/fw.c, through struct fw_params).
 *
 * X(ENUM, name, flags, vcs, fw, tables, help):
 *   ENUM    DFLY_MODE_<ENUM>; the list's order is the register's numbering (MIN = 0, VAL = 1,
 *           ...): append only
 *   name    routing.mechanism, as config files, --set, --mechanisms and every output spell it
 *   flags   DFLY_MODEF_* below: the families the mode belongs to
 *   vcs     enum dfly_mode_vcs: the reference VC sequence its paths climb (spec §2.2)
 *   fw      DFLY_FW_BIT(x) of the firmware state machines it runs (DFLY_FOREACH_FW)
 *   tables  DFLY_TBL_BIT(x) of the firmware tables its route stage reads (DFLY_FOREACH_TBL); the
 *           failover table (DFLY_TBL_FAIL) is read by every mode under routing.failover
 *   help    one line for `dfly sim --help`: what it is and its config section
 *
 * Adding a mechanism: its line here, its route stage in asic-emu/, its firmware file in control/
 * (if it runs one), its config section in config/netcfg.c, its tests (docs/ARCHITECTURE.md,
 * "Adding a mechanism").
 */
#ifndef DFLY_MODE_H
#define DFLY_MODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dfly/regs.h" /* enum dfly_tbl, enum dfly_role (regs.h includes this file after them) */

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------
 * Firmware state machines (control/): X(ENUM, name, description)
 */
#define DFLY_FOREACH_FW(X)                                                                         \
	X(PB, pb, "PiggyBack: own saturation bits, exchanged in the group (spec 4.6)")             \
	X(ECTN, ectn, "ECtN: partial arrays broadcast in the group, combined table (spec 5.6)")    \
	X(LIA, lia, "LIA: windowed injection counters, L1/L2 flags, levels and T (spec 6)")        \
	X(TPR, tpr, "TPR: the LIA machine on carried traffic, levels and T only (spec 4.11)")      \
	X(ACOR, acor, "ACOR: the Path-A length per router from head waits (spec 4.12)")            \
	X(FAILOVER, failover, "failover: down global links told and relayed (routing.failover)")

#define DFLY__ENUM(E, n, d) DFLY_FW_##E,
/** A firmware state machine a mode can run. */
enum dfly_fw_machine { DFLY_FOREACH_FW(DFLY__ENUM) DFLY_FW_COUNT };
#undef DFLY__ENUM

/** Bit of firmware machine @p E in a mask of machines. */
#define DFLY_FW_BIT(E) (1u << DFLY_FW_##E)

/* ---------------------------------------------------------------------------------------------
 * Families
 */

/** No adaptive decision: the path is fixed at injection by the mode alone (MIN, VAL). */
#define DFLY_MODEF_OBLIVIOUS (1u << 0)
/** Source-adaptive: minimal or nonminimal decided at injection (UGAL and its descendants). */
#define DFLY_MODEF_SOURCE (1u << 1)
/** In-transit: misroutes decided hop by hop (OLM, the contention modes): the 3/2 VC sequence
 *  with opportunistic hops (asic_mode_in_transit()). */
#define DFLY_MODEF_IN_TRANSIT (1u << 2)
/** Reads the contention counters (spec §5): Base, Filtered, Hybrid, ECtN. */
#define DFLY_MODEF_CC (1u << 3)
/** FlexVC (vcs.flexvc) is built for it (spec §2.4): the oblivious modes, the source-adaptive
 *  ones on the Valiant sequence (their hops take any VC at or before their place on it; with
 *  routing.mincred their decision reads only what minimal packets hold), and the in-transit
 *  ones on the escape sequence of their 3/2 path, l0 g1 l2 g3 l4, their misroutes placed as
 *  opportunistic hops (thesis §5.2.1, §5.2.3, §5.3.4; dfly_mode_opp_roles()) */
#define DFLY_MODEF_FLEXVC (1u << 4)
/** A non-physical oracle: reads other routers' queues; dfly sim only, never batched. */
#define DFLY_MODEF_ORACLE (1u << 5)
/** Its Valiant path is routing.val.path_a: VAL-group (lg-, -g- with t = 1) needs 3/2 VCs. */
#define DFLY_MODEF_PATH_A (1u << 6)
/** Chooses the Path-A shape per packet or per router (-G- to LGL): 4/2 VCs always. */
#define DFLY_MODEF_PATH_PER_PKT (1u << 7)
/** Defined for t = 1 only. */
#define DFLY_MODEF_T1 (1u << 8)
/** Request-reply classes (traffic.reqrep, spec §7.5) are built for it: every mode with FlexVC
 *  built (PAR has neither). A reply's hops take the reply class's copy of the mode's sequence;
 *  under FlexVC they may also take the request VCs (thesis §5.2.2, Theorem 2); in transit the
 *  opportunistic hops reuse an index within their packet's class (route_transit.c) */
#define DFLY_MODEF_REQREP (1u << 9)

/** The reference VC sequence a mode's paths climb (spec §2.2, §5.7). */
enum dfly_mode_vcs {
	DFLY_VCS_MIN = 0, /**< l0 g1 l2: 2 local / 1 global */
	DFLY_VCS_VAL,     /**< l0 g1 l2 l3 g4 l5: 4/2; VAL-group l0 g1 l2 g3 l4: 3/2 (PATH_A) */
	DFLY_VCS_PAR,     /**< l0 l1 g2 l3 l4 g5 l6: 5/2 */
	DFLY_VCS_TRANSIT, /**< l0 l0 g1 l0 l2 g3 l4, opportunistic hops reuse an index: 3/2 */
};

/* ---------------------------------------------------------------------------------------------
 * The registry
 */

/* clang-format off */
/* shorthands of the list (kept defined: the list expands where it is used) */
#define DFLY_MODEF__SRC DFLY_MODEF_SOURCE
/* oblivious and source-adaptive, with FlexVC and request-reply built */
#define DFLY_MODEF__OFV (DFLY_MODEF_OBLIVIOUS | DFLY_MODEF_FLEXVC | DFLY_MODEF_REQREP)
#define DFLY_MODEF__SFV (DFLY_MODEF_SOURCE | DFLY_MODEF_FLEXVC | DFLY_MODEF_REQREP)
/* in transit, FlexVC and request-reply built */
#define DFLY_MODEF__TR  (DFLY_MODEF_IN_TRANSIT | DFLY_MODEF_FLEXVC | DFLY_MODEF_REQREP)
#define DFLY_MODEF__CC  (DFLY_MODEF__TR | DFLY_MODEF_CC)
#define DFLY_FOREACH_MODE(X)                                                                       \
	X(MIN, "min", DFLY_MODEF__OFV, DFLY_VCS_MIN, 0, 0, "oblivious minimal (spec 4.2)")        \
	X(VAL, "val", DFLY_MODEF__OFV | DFLY_MODEF_PATH_A, DFLY_VCS_VAL, 0, 0,                     \
	  "Valiant; routing.val.path_a lgl | lg- | -gl | -g- (spec 4.3)")                          \
	X(UGAL, "ugal", DFLY_MODEF__SFV | DFLY_MODEF_PATH_A, DFLY_VCS_VAL, 0, 0,                   \
	  "UGAL-L; routing.ugal.f, .t in packets, .occupancy vc | port (spec 4.5)")                \
	X(PB, "pb", DFLY_MODEF__SFV | DFLY_MODEF_PATH_A, DFLY_VCS_VAL, DFLY_FW_BIT(PB),            \
	  DFLY_TBL_BIT(PB),                                                                        \
	  "PiggyBack; routing.pb.f, .t, .average all | other, .bits vc | port, .exchange oob | "   \
	  "inband, .period, .piggyback_every, .send_unchanged (spec 4.6)")                         \
	X(PAR, "par", DFLY_MODEF__SRC, DFLY_VCS_PAR, 0, 0,                                         \
	  "PAR, UGAL-L again in the source group; needs vcs.local = 5 (spec 4.7)")                 \
	X(OLM, "olm", DFLY_MODEF__TR, DFLY_VCS_TRANSIT, 0, 0,                                      \
	  "OLM, in transit; routing.olm.threshold_pct, .min_occupancy_pct (spec 4.10)")            \
	X(BASE, "base", DFLY_MODEF__CC, DFLY_VCS_TRANSIT, 0, 0,                                    \
	  "contention counters, Base trigger; routing.cc.* (spec 5.3)")                            \
	X(FILTERED, "filtered", DFLY_MODEF__CC, DFLY_VCS_TRANSIT, 0, 0,                            \
	  "contention counters, filtered trigger; routing.cc.* (spec 5.4)")                        \
	X(HYBRID, "hybrid", DFLY_MODEF__CC, DFLY_VCS_TRANSIT, 0, 0,                                \
	  "contention or credit trigger; routing.cc.*, routing.hybrid.* (spec 5.5)")               \
	X(ECTN, "ectn", DFLY_MODEF__CC | DFLY_MODEF__SRC, DFLY_VCS_TRANSIT, DFLY_FW_BIT(ECTN),     \
	  DFLY_TBL_BIT(ECTN),                                                                      \
	  "ECtN, combined group arrays at injection, then Base; routing.cc.*, routing.ectn.* "     \
	  "(spec 5.6)")                                                                            \
	X(LIA, "lia", DFLY_MODEF__SFV | DFLY_MODEF_PATH_PER_PKT | DFLY_MODEF_T1, DFLY_VCS_VAL,     \
	  DFLY_FW_BIT(LIA), DFLY_TBL_BIT(LIA) | DFLY_TBL_BIT(UGAL),                                \
	  "LIA, path shortening and T per traffic level; routing.lia.* (spec 6)")                  \
	X(TPR, "tpr", DFLY_MODEF__SFV | DFLY_MODEF_PATH_A | DFLY_MODEF_T1, DFLY_VCS_VAL,           \
	  DFLY_FW_BIT(TPR), DFLY_TBL_BIT(LIA) | DFLY_TBL_BIT(UGAL),                                \
	  "TPR, T per level of carried traffic; routing.lia.* (spec 4.11)")                        \
	X(PB_ACOR, "pb-acor", DFLY_MODEF__SFV | DFLY_MODEF_PATH_PER_PKT, DFLY_VCS_VAL,             \
	  DFLY_FW_BIT(PB) | DFLY_FW_BIT(ACOR), DFLY_TBL_BIT(PB) | DFLY_TBL_BIT(LIA),               \
	  "PB with the Path-A length set per router by ACOR; routing.pb.*, routing.acor.* "        \
	  "(spec 4.12)")                                                                           \
	X(UGAL_G, "ugal-g", DFLY_MODEF__SFV | DFLY_MODEF_PATH_A | DFLY_MODEF_ORACLE, DFLY_VCS_VAL, 0, \
	  0, "UGAL-G, global queue information: an oracle, dfly sim only (spec 4.5)")               \
	X(CRT, "crt", DFLY_MODEF__SFV | DFLY_MODEF_PATH_A, DFLY_VCS_VAL, 0, 0,                     \
	  "CRT, UGAL-L with local credits held by the global channel's credit round-trip delay; "  \
	  "routing.ugal.* (spec 4.8)")                                                             \
	X(RES, "res", DFLY_MODEF__SFV | DFLY_MODEF_PATH_A, DFLY_VCS_VAL, 0, 0,                     \
	  "RES, the minimal global channel reserved by a flit to its router: MIN on a grant, VAL " \
	  "on a refusal; routing.res.t in packets (spec 4.9)")
/* clang-format on */

#define DFLY__ENUM(E, n, f, v, fw, tb, h) DFLY_MODE_##E,
/** Routing mode register (knobs.mode): the per-packet decision the route stage evaluates. */
enum dfly_route_mode { DFLY_FOREACH_MODE(DFLY__ENUM) DFLY_MODE_COUNT };
#undef DFLY__ENUM

/* The register file is an ABI: the values must not move. */
_Static_assert(DFLY_MODE_MIN == 0 && DFLY_MODE_VAL == 1 && DFLY_MODE_UGAL == 2 &&
		   DFLY_MODE_PB == 3 && DFLY_MODE_PAR == 4 && DFLY_MODE_OLM == 5 &&
		   DFLY_MODE_BASE == 6 && DFLY_MODE_FILTERED == 7 && DFLY_MODE_HYBRID == 8 &&
		   DFLY_MODE_ECTN == 9 && DFLY_MODE_LIA == 10 && DFLY_MODE_TPR == 11 &&
		   DFLY_MODE_PB_ACOR == 12 && DFLY_MODE_UGAL_G == 13 && DFLY_MODE_CRT == 14 &&
		   DFLY_MODE_RES == 15 && DFLY_MODE_COUNT == 16,
	       "enum dfly_route_mode is the register file's numbering: append only");

/* One column of the registry for mode @p m (a switch generated from the list: constant-folded
 * where @p m is known, a jump table otherwise). */
#define DFLY__MODE_COL(fn, type, col, none)                                                        \
	static inline type fn(uint32_t m)                                                          \
	{                                                                                          \
		switch (m) {                                                                       \
			DFLY_FOREACH_MODE(col)                                                     \
		default:                                                                           \
			break;                                                                     \
		}                                                                                  \
		return none;                                                                       \
	}
#define DFLY__COL_NAME(E, n, f, v, fw, tb, h)                                                      \
	case DFLY_MODE_##E:                                                                        \
		return n;
#define DFLY__COL_FLAGS(E, n, f, v, fw, tb, h)                                                     \
	case DFLY_MODE_##E:                                                                        \
		return f;
#define DFLY__COL_VCS(E, n, f, v, fw, tb, h)                                                       \
	case DFLY_MODE_##E:                                                                        \
		return v;
#define DFLY__COL_FW(E, n, f, v, fw, tb, h)                                                        \
	case DFLY_MODE_##E:                                                                        \
		return fw;
#define DFLY__COL_TBL(E, n, f, v, fw, tb, h)                                                       \
	case DFLY_MODE_##E:                                                                        \
		return tb;
#define DFLY__COL_HELP(E, n, f, v, fw, tb, h)                                                      \
	case DFLY_MODE_##E:                                                                        \
		return h;

/** routing.mechanism name of mode @p m ("min", "val", ...), or "?" if @p m is not a mode. */
DFLY__MODE_COL(dfly_mode_name, const char *, DFLY__COL_NAME, "?")
/** DFLY_MODEF_* of mode @p m (0 if @p m is not a mode). */
DFLY__MODE_COL(dfly_mode_flags, uint32_t, DFLY__COL_FLAGS, 0)
/** enum dfly_mode_vcs of mode @p m (DFLY_VCS_MIN if @p m is not a mode). */
DFLY__MODE_COL(dfly_mode_vcs, enum dfly_mode_vcs, DFLY__COL_VCS, DFLY_VCS_MIN)
/** DFLY_FW_BIT()s of the firmware machines mode @p m runs (0 if none or not a mode). */
DFLY__MODE_COL(dfly_mode_fw, uint32_t, DFLY__COL_FW, 0)
/** DFLY_TBL_BIT()s of the tables mode @p m's route stage reads (0 if none or not a mode). */
DFLY__MODE_COL(dfly_mode_tables, uint32_t, DFLY__COL_TBL, 0)
/** One line of help for mode @p m, or "" if @p m is not a mode. */
DFLY__MODE_COL(dfly_mode_help, const char *, DFLY__COL_HELP, "")

#undef DFLY__MODE_COL
#undef DFLY__COL_NAME
#undef DFLY__COL_FLAGS
#undef DFLY__COL_VCS
#undef DFLY__COL_FW
#undef DFLY__COL_TBL
#undef DFLY__COL_HELP

/** Does mode @p m have every flag of @p flags? (false if @p m is not a mode) */
static inline bool dfly_mode_is(uint32_t m, uint32_t flags)
{
	return m < DFLY_MODE_COUNT && (dfly_mode_flags(m) & flags) == flags;
}

/** Does mode @p m run firmware machine @p fw (enum dfly_fw_machine)? */
static inline bool dfly_mode_runs(uint32_t m, enum dfly_fw_machine fw)
{
	return (dfly_mode_fw(m) >> fw) & 1u;
}

/** The mode named @p name (exact, case-sensitive), or -1. */
static inline int dfly_mode_lookup(const char *name)
{
	for (uint32_t m = 0; name != NULL && m < DFLY_MODE_COUNT; m++)
		if (strcmp(dfly_mode_name(m), name) == 0)
			return (int)m;
	return -1;
}

/** The first mode (in register order) with every flag of @p flags, or -1. */
static inline int dfly_mode_first(uint32_t flags)
{
	for (uint32_t m = 0; m < DFLY_MODE_COUNT; m++)
		if (dfly_mode_is(m, flags))
			return (int)m;
	return -1;
}

/**
 * The names of the modes with every flag of @p flags (0: every mode), in register order,
 * joined by ", " into @p buf (truncated to @p len). @return @p buf.
 */
static inline char *dfly_mode_list(uint32_t flags, char *buf, size_t len)
{
	size_t used = 0;

	if (len == 0)
		return buf;
	buf[0] = '\0';
	for (uint32_t m = 0; m < DFLY_MODE_COUNT; m++) {
		int n;

		if (!dfly_mode_is(m, flags))
			continue;
		n = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", dfly_mode_name(m));
		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
	}
	return buf;
}

/**
 * Roles (bit r = enum dfly_role r) the reference path of mode @p m uses (spec §2.2). @p val_group:
 * the Path-A variant lands on S_ROOT with its global hop (lg- or -g-, t = 1); it matters only to
 * modes with DFLY_MODEF_PATH_A.
 */
static inline unsigned dfly_mode_roles(uint32_t m, bool val_group)
{
	unsigned r = 1u << DFLY_ROLE_S1 | 1u << DFLY_ROLE_G1 | 1u << DFLY_ROLE_D2;

	switch (dfly_mode_vcs(m)) {
	case DFLY_VCS_TRANSIT:
		return (1u << DFLY_ROLE_COUNT) - 1;
	case DFLY_VCS_PAR:
		r |= 1u << DFLY_ROLE_S2 | 1u << DFLY_ROLE_I1;
		/* fall through */
	case DFLY_VCS_VAL:
		r |= 1u << DFLY_ROLE_I2 | 1u << DFLY_ROLE_G2;
		if (!(val_group && dfly_mode_is(m, DFLY_MODEF_PATH_A)))
			r |= 1u << DFLY_ROLE_I1;
		break;
	case DFLY_VCS_MIN:
		break;
	}
	return r;
}

/**
 * Roles (bit r = enum dfly_role r) of mode @p m's reference path that are opportunistic (spec
 * §2.2-§2.3, thesis §1.4.2.2.1, §5.2.1 Definition 2): they reuse an index, so they are not
 * places of the escape sequence, and a packet takes them only where the buffer they enter can
 * hold it at once. The in-transit sequence l0 l0 g1 l0 l2 g3 l4 has three: S2, I1 and D1;
 * its escape sequence is the rest, S1 G1 I2 G2 D2 = l0 g1 l2 g3 l4, the 3/2 sequence of thesis
 * §5.2.3. The other sequences have none.
 */
static inline unsigned dfly_mode_opp_roles(uint32_t m)
{
	if (dfly_mode_vcs(m) != DFLY_VCS_TRANSIT)
		return 0;
	return 1u << DFLY_ROLE_S2 | 1u << DFLY_ROLE_I1 | 1u << DFLY_ROLE_D1;
}

/**
 * VCs mode @p m needs (spec §2.2, A-2.3): @p local / @p global VCs per port and the VC of each hop
 * role (@p vc_map; roles the mode does not use are 0). Any output may be NULL. @p val_group as for
 * dfly_mode_roles().
 */
static inline void dfly_mode_vc_needs(uint32_t m, bool val_group, uint32_t *local, uint32_t *global,
				      uint8_t vc_map[DFLY_ROLE_COUNT])
{
	uint8_t map[DFLY_ROLE_COUNT] = {0};
	uint32_t l, g;

	switch (dfly_mode_vcs(m)) {
	case DFLY_VCS_TRANSIT:
		/* OLM and the contention modes (spec §5.7): l0 l0 g1 l0 l2 g3 l4, opportunistic
		 * hops reuse an index → 3/2 */
		map[DFLY_ROLE_I2] = 1;
		map[DFLY_ROLE_G2] = 1;
		map[DFLY_ROLE_D1] = 1;
		map[DFLY_ROLE_D2] = 2;
		l = 3;
		g = 2;
		break;
	case DFLY_VCS_PAR:
		/* PAR: l0 l1 g2 l3 l4 g5 l6 → 5/2 */
		map[DFLY_ROLE_S2] = 1;
		map[DFLY_ROLE_I1] = 2;
		map[DFLY_ROLE_I2] = 3;
		map[DFLY_ROLE_G2] = 1;
		map[DFLY_ROLE_D2] = 4;
		l = 5;
		g = 2;
		break;
	case DFLY_VCS_VAL:
		if (val_group && dfly_mode_is(m, DFLY_MODEF_PATH_A)) {
			/* VAL-group: l0 g1 l2 g3 l4 → 3/2 */
			map[DFLY_ROLE_I1] = 1; /* unused: S_ROOT is the landing router */
			map[DFLY_ROLE_I2] = 1;
			map[DFLY_ROLE_G2] = 1;
			map[DFLY_ROLE_D2] = 2;
			l = 3;
			g = 2;
		} else {
			/* VAL, UGAL, PB: l0 g1 l2 l3 g4 l5 → 4/2 */
			map[DFLY_ROLE_I1] = 1;
			map[DFLY_ROLE_I2] = 2;
			map[DFLY_ROLE_G2] = 1;
			map[DFLY_ROLE_D2] = 3;
			l = 4;
			g = 2;
		}
		break;
	case DFLY_VCS_MIN:
	default:
		/* MIN: l0 g1 l2 → 2/1 */
		map[DFLY_ROLE_D2] = 1;
		l = 2;
		g = 1;
		break;
	}
	if (local != NULL)
		*local = l;
	if (global != NULL)
		*global = g;
	if (vc_map != NULL)
		memcpy(vc_map, map, sizeof(map));
}

#undef DFLY_MODEF__SRC
#undef DFLY__TR
#undef DFLY_MODEF__CC

#ifdef __cplusplus
}
#endif

#endif /* DFLY_MODE_H */
