/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Network configuration loader (netcfg.h, DESIGN.md §6). One table lists every setting of
 * struct dfly_netcfg with its path, type, default and range. The loader reads a libconfig file,
 * applies the `--set PATH=VALUE` overrides, rejects unknown names, wrong types and out-of-range
 * values, then checks the rules that tie settings together (topology sizes, VCs per routing
 * mechanism, buffers that hold a packet). The same table drives dfly_netcfg_dump(), so no setting
 * can be loadable and missing from a dump. Lives in tools/: libconfig never enters asic-emu/.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <libconfig.h>

#include "asic.h"
#include "fw.h"
#include "netcfg.h"
#include "dfly/trace.h"

/* Enum members are stored through an int (table-driven loader). */
_Static_assert(sizeof(enum dfly_arrangement) == sizeof(int), "enum size");
_Static_assert(sizeof(enum dfly_arb) == sizeof(int), "enum size");
_Static_assert(sizeof(enum dfly_inj_select) == sizeof(int), "enum size");
_Static_assert(sizeof(enum dfly_source_mode) == sizeof(int), "enum size");

#define NC_PATH_MAX 256      /**< longest setting path */
#define NC_BUF_MAX  16777216 /**< largest buffer, phits (2^24) */
#define NC_LAT_MAX  1000000  /**< largest latency, cycles */

/** How a setting is typed in the file and stored in the struct. */
enum nc_kind {
	NC_GROUP, /**< a group of settings; no field */
	NC_U32,   /**< integer → uint32_t */
	NC_U64,   /**< integer (32 or 64 bit) → uint64_t */
	NC_INT,   /**< integer → int */
	NC_DBL,   /**< number → double */
	NC_BOOL,  /**< true/false → bool */
	NC_ENUM,  /**< string from names[] → enum (stored as int) */
	NC_STR,   /**< string with its own parse/print functions */
};

/** Parse a string value into @p cfg; on error write the message (after "SETTING: ") to msg. */
typedef int nc_parse_fn(struct dfly_netcfg *cfg, const char *val, char *msg, size_t len);
/** Print the value of a NC_STR setting (without quotes). */
typedef void nc_print_fn(const struct dfly_netcfg *cfg, char *buf, size_t len);

/** One setting of the file. */
struct nc_setting {
	const char *path;      /**< dotted path, e.g. "router.speedup" */
	enum nc_kind kind;     /**< type */
	size_t off;            /**< offset of the field in struct dfly_netcfg (not NC_GROUP/STR) */
	bool required;         /**< no default: must be in the file or a --set */
	int64_t def, min, max; /**< integer, bool and enum-index default; integer range */
	double ddef, dmin, dmax;  /**< NC_DBL default and range */
	const char *sdef;         /**< NC_STR default (NULL if required) */
	const char *const *names; /**< NC_ENUM names, NULL-terminated; index = enum value */
	nc_parse_fn *parse;       /**< NC_STR parser */
	nc_print_fn *print;       /**< NC_STR printer */
	const char *doc;          /**< one-line description, written as a comment by the dump */
};

static const char *const nc_arr_names[] = {"palmtree", "consecutive", NULL};
static const char *const nc_arb_names[] = {"rr", "lrs", "age", NULL};
static const char *const nc_inj_names[] = {"jsq", "random", "dest", "dest-block", NULL};
static const char *const nc_src_names[] = {"skip", "unbounded", NULL};
static const char *const nc_place_names[] = {"consecutive", "random", "default", NULL};
/* traffic.reply, index = knobs.reply_consume */
static const char *const nc_reply_names[] = {"queue", "consume", NULL};
static const char *const nc_excl_names[] = {"src+dst", "src", NULL};
static const char *const nc_crel_names[] = {"grant", "tail", NULL};
static const char *const nc_orel_names[] = {"start", "tail", NULL};
static const char *const nc_node_port_names[] = {"fifo", "consume", NULL};
static const char *const nc_allocs_names[] = {"speedup", "one", NULL};
static const char *const nc_in_rr_names[] = {"grant", "request", NULL};

/* Mechanisms: the registry, dfly/mode.h (every one of spec §4–§6 is implemented). */
static const char *const nc_cmp_names[] = {">=", ">", NULL};
static const char *const nc_cccand_names[] = {"now", "credits", NULL};
static const char *const nc_cchead_names[] = {"tail", "grant", NULL};
static const char *const nc_draw_names[] = {"all", "one", NULL};
static const char *const nc_own_names[] = {"live", "broadcast", NULL};
static const char *const nc_fail_names[] = {"auto", "on", "off", NULL};
/* in enum dfly_flexvc_sel order */
static const char *const nc_bufmode_names[] = {"static", "damq", NULL};
static const char *const nc_flexvc_names[] = {"off", "jsq", "highest", "lowest", "random", NULL};
/* in enum dfly_flexvc_sets order */
static const char *const nc_flexvc_sets_names[] = {"path", "group", NULL};
/** ECtN broadcast contents, index = enum fw_ectn_mode. */
static const char *const nc_ectn_mode_names[] = {"full", "sparse", "incremental", "async", NULL};
static const char *const nc_occ_names[] = {"vc", "port", NULL};
static const char *const nc_weight_names[] = {"f", "hops", "fogsim", NULL};
static const char *const nc_assign_names[] = {"role", "next", NULL};
static const char *const nc_pbavg_names[] = {"all", "other", NULL};
static const char *const nc_pbx_names[] = {"oob", "inband", NULL};
static const char *const nc_g5coef_names[] = {"thesis", "fogsim", NULL};

static nc_parse_fn nc_parse_mechanism, nc_parse_path_a, nc_parse_pattern, nc_parse_mix_offsets,
    nc_parse_cap_file, nc_parse_cap_points, nc_parse_cap_routers, nc_parse_cap_ports;
static void nc_print_pattern_offsets(const struct dfly_netcfg *cfg, const char *sep, char *buf,
				     size_t len);
static nc_print_fn nc_print_mechanism, nc_print_path_a, nc_print_pattern, nc_print_mix_offsets,
    nc_print_cap_file, nc_print_cap_points, nc_print_cap_routers, nc_print_cap_ports;

/* One setting per line reads best as a table. */
/* clang-format off */
#define NC_OFF(field) offsetof(struct dfly_netcfg, field)
#define NC_G(p) {.path = p, .kind = NC_GROUP}
#define NC_I(p, k, field, d, lo, hi, text)                                                         \
	{.path = p, .kind = k, .off = NC_OFF(field), .def = d, .min = lo, .max = hi, .doc = text}
#define NC_REQ(p, field, lo, hi, text)                                                             \
	{.path = p, .kind = NC_U32, .off = NC_OFF(field), .required = true, .min = lo, .max = hi,  \
	 .doc = text}
#define NC_D(p, field, d, lo, hi, text)                                                            \
	{.path = p, .kind = NC_DBL, .off = NC_OFF(field), .ddef = d, .dmin = lo, .dmax = hi,       \
	 .doc = text}
#define NC_B(p, field, d, text)                                                                    \
	{.path = p, .kind = NC_BOOL, .off = NC_OFF(field), .def = d, .doc = text}
#define NC_E(p, field, n, text)                                                                    \
	{.path = p, .kind = NC_ENUM, .off = NC_OFF(field), .names = n, .doc = text}
/* an enumeration whose default is not its first name */
#define NC_ED(p, field, n, d, text)                                                                \
	{.path = p, .kind = NC_ENUM, .off = NC_OFF(field), .names = n, .def = d, .doc = text}
/* "min | val | ...": the registry's names (dfly/mode.h), one literal skipping the first " | " */
#define NC__MECH_NAME(E, n, f, v, fw, tb, h) " | " n
#define NC_MECHANISMS                        (DFLY_FOREACH_MODE(NC__MECH_NAME) + 3)
#define NC_S(p, req, d, fn, text)                                                                  \
	{.path = p, .kind = NC_STR, .required = req, .sdef = d, .parse = nc_parse_##fn,            \
	 .print = nc_print_##fn, .doc = text}

/**
 * Every setting, grouped (a group's members follow it contiguously; dfly_netcfg_dump() relies on
 * it). docs/configuration.md is generated from it (scripts/gen-configuration.c).
 */
static const struct nc_setting nc_settings[] = {
	NC_G("topology"),
	NC_REQ("topology.p", p, 1, DFLY_MAX_PORTS, "terminals (nodes) per router"),
	NC_REQ("topology.a", a, 1, DFLY_MAX_A, "routers per group"),
	NC_REQ("topology.h", h, 1, DFLY_MAX_H, "global links per router"),
	NC_I("topology.t", NC_U32, t, 1, 1, DFLY_MAX_A, "trunking: global links per group pair"),
	NC_E("topology.arrangement", arr, nc_arr_names, "global links: palmtree | consecutive"),
	NC_I("topology.sigma", NC_INT, sigma, -1, INT_MIN, INT_MAX, "palmtree orientation: -1 | +1"),

	NC_G("router"),
	NC_I("router.speedup", NC_U32, speedup, 2, 1, 8, "internal speedup S"),
	NC_I("router.route_cycles", NC_U32, pipe_route, 2, 0, NC_LAT_MAX, "RO+IA+OA, cycles"),
	NC_I("router.xbar_cycles", NC_U32, pipe_xbar, 3, 1, NC_LAT_MAX, "crossbar traversal, cycles"),
	NC_I("router.alloc_iters", NC_U32, alloc_iters, 1, 1, 8, "allocator iterations"),
	NC_E("router.input_arbiter", in_arb, nc_arb_names, "rr | lrs | age"),
	NC_E("router.output_arbiter", out_arb, nc_arb_names, "rr | lrs | age"),
	NC_B("router.in_transit_priority", in_transit_priority, false,
	     "output arbiter prefers transit over injection"),
	NC_E("router.credit_release", credit_release, nc_crel_names,
	     "input slot + credit freed at: grant | tail"),
	NC_E("router.output_release", output_release, nc_orel_names,
	     "output FIFO slot freed at: start | tail"),
	NC_E("router.node_port", node_port, nc_node_port_names,
	     "a node port takes a packet while its FIFO has room | only when its node can "
	     "consume it now (FOGSim)"),
	NC_E("router.allocations", allocations, nc_allocs_names,
	     "allocation rounds a cycle: router.speedup | one (FOGSim)"),
	NC_E("router.input_rr", input_rr, nc_in_rr_names,
	     "input round robin moves past the VC it granted | the VC it asked for, granted "
	     "or not (FOGSim)"),
	NC_B("router.ctrl_charge", ctrl_charge, false,
	     "control frames occupy their output link (A-5.6; false: out of band, free)"),
	NC_I("router.firmware_ttl", NC_U32, fw_ttl, 1000000, 0, UINT32_MAX,
	     "cycles without a firmware tick before the ASIC ignores its tables (0: never)"),
	NC_I("router.link_dead_cycles", NC_U32, link_dead, 1000, 0, UINT32_MAX,
	     "cycles a link may be down before what can only use it is discarded (0: never)"),

	NC_G("buffers"),
	NC_I("buffers.injection", NC_U32, buf_inj, 256, 1, NC_BUF_MAX, "phits per injection VC"),
	NC_I("buffers.local", NC_U32, buf_local, 32, 1, NC_BUF_MAX, "phits per local input VC"),
	NC_I("buffers.global", NC_U32, buf_global, 256, 1, NC_BUF_MAX, "phits per global input VC"),
	NC_I("buffers.output", NC_U32, buf_out, 32, 1, NC_BUF_MAX, "phits per output port FIFO"),
	NC_E("buffers.mode", buf_mode, nc_bufmode_names,
	     "local and global input ports: static (one partition per VC) | damq (the port's VCs "
	     "share its memory, buffers.local or .global × VCs, spec §3.9)"),
	NC_D("buffers.damq_reserve", damq_reserve, 0.75, 0.0, 1.0,
	     "damq: share of a VC's size reserved to it, rounded down to phits; the rest of the "
	     "port's memory is one pool (0: all shared, may deadlock; 1: exactly static)"),
	NC_I("buffers.damq_penalty", NC_U32, damq_penalty, 0, 0, NC_LAT_MAX,
	     "damq: cycles added to each write into and each read out of a DAMQ input buffer"),

	NC_G("vcs"),
	NC_I("vcs.injection", NC_U32, vc_inj, 3, 1, DFLY_MAX_VCS, "VCs per injection port"),
	NC_I("vcs.local", NC_U32, vc_local, 4, 1, DFLY_MAX_VCS, "VCs per local port"),
	NC_I("vcs.global", NC_U32, vc_global, 2, 1, DFLY_MAX_VCS, "VCs per global port"),
	NC_E("vcs.flexvc", flexvc, nc_flexvc_names,
	     "FlexVC VC choice (every mechanism but par): off | jsq | highest | lowest | random"),
	NC_E("vcs.flexvc_sets", flexvc_sets, nc_flexvc_sets_names,
	     "FlexVC: the VCs a hop may use. path (spec 2.4): every place at or before the hop's "
	     "own on its safe path; group (FOGSim v5 flexVc.cc): as path, a local hop kept within "
	     "the places of the group it is in (a minimal hop in the source group: the source "
	     "group's VCs)"),
	NC_E("vcs.assign", vc_assign, nc_assign_names,
	     "the VC of a hop. role (spec 2.2 PROPOSAL): its role's place on the mechanism's "
	     "reference path. next (FOGSim v5 vcMngmt::nextChannel): the first place of its "
	     "port's kind after the place of the VC the packet is in, so a minimal packet's final "
	     "local hop takes L1 and a packet within its group L0 (not with FlexVC or the "
	     "in-transit mechanisms)"),
	NC_I("vcs.reply_local", NC_U32, vc_reply_local, 0, 0, DFLY_MAX_VCS,
	     "traffic.reqrep: local VCs of the reply class, the last ones; 0 = half"),
	NC_I("vcs.reply_global", NC_U32, vc_reply_global, 0, 0, DFLY_MAX_VCS,
	     "traffic.reqrep: global VCs of the reply class, the last ones; 0 = half"),

	NC_G("links"),
	NC_I("links.local_latency", NC_U32, lat_local, 10, 1, NC_LAT_MAX, "cycles"),
	NC_I("links.global_latency", NC_U32, lat_global, 100, 1, NC_LAT_MAX, "cycles"),
	NC_I("links.terminal_latency", NC_U32, lat_terminal, 1, 1, NC_LAT_MAX,
	     "node <-> router, cycles"),
	NC_B("links.terminal_serialise", terminal_serialise, true,
	     "a node sends its packets one after another at one phit a cycle (false: each "
	     "enters the injection buffer as it is generated, FOGSim)"),

	NC_G("packet"),
	NC_I("packet.phits", NC_U32, pkt_phits, 8, 1, 4096, "packet length L"),
	NC_I("packet.phit_bytes", NC_U32, phit_bytes, 10, 1, 4096, "bytes per phit"),

	NC_G("clock"),
	NC_D("clock.cycle_ns", cycle_ns, 1.0, 0.001, 1e6, "ns per cycle"),
	NC_B("clock.link_rate", link_rate, true,
	     "a link carries one phit per cycle (false: one packet per cycle; dfly-switch only)"),

	NC_G("routing"),
	NC_S("routing.mechanism", true, NULL, mechanism, NC_MECHANISMS),
	NC_B("routing.candidate_credits", cand_credits, true,
	     "nonminimal candidate needs credits for the packet (spec 4.1)"),
	NC_B("routing.reevaluate", reevaluate, true,
	     "re-decide a waiting head every allocation round (A-3.4)"),
	NC_B("routing.mincred", mincred, false,
	     "source-adaptive: decide on the occupancy of minimal packets only (spec 2.4)"),
	NC_E("routing.candidate_draw", cand_draw, nc_draw_names,
	     "in-transit modes: all valid candidates | one port of the range drawn (FOGSim)"),
	NC_G("routing.ugal"),
	NC_D("routing.ugal.f", ugal_f, 2.0, 0.0, 64.0, "F of Q_min <= F*Q_val + T"),
	NC_D("routing.ugal.t", ugal_t, 3.0, -1000.0, 1000.0, "T in packets (x packet.phits)"),
	NC_E("routing.ugal.occupancy", ugal_occ, nc_occ_names, "Q per hop VC | whole port"),
	NC_B("routing.ugal.remove_rtt", ugal_remove_rtt, false,
	     "Q without the link's credit round trip, 2*latency phits (IAR's BookSim)"),
	NC_B("routing.ugal.commitment", ugal_commitment, false,
	     "Q also counts the heads routed to the output, not yet granted (IAR's BookSim)"),
	NC_E("routing.ugal.weight", ugal_weight, nc_weight_names,
	     "Q_min <= F*Q_val + T | Q_min*H_min <= Q_val*H_val + T, H hops (FOGSim) | the "
	     "same with H as FOGSim v5 counts it (generatorModule::determinePaths: the "
	     "consecutive arrangement's hops whatever the arrangement; S_ROOT's router stands "
	     "for the Valiant node's)"),
	NC_G("routing.res"),
	NC_D("routing.res.t", res_t, 3.0, -1000.0, 1000.0,
	     "RES: grant iff R <= 2*R_avg + T; T in packets (x packet.phits), 3 (IAR 4.1)"),
	NC_G("routing.pb"),
	NC_D("routing.pb.f", pb_f, 2.0, 0.0, 64.0, "F of S = Q > F*Qavg + T"),
	NC_D("routing.pb.t", pb_t, 3.0, -1000.0, 1000.0, "T in packets (x packet.phits)"),
	NC_E("routing.pb.average", pb_avg, nc_pbavg_names, "Qavg over: all | other channels"),
	NC_E("routing.pb.bits", pb_bits, nc_occ_names, "saturation bit per global VC | port"),
	NC_E("routing.pb.exchange", pb_exchange, nc_pbx_names,
	     "oob PB_STATE frames | inband piggyback"),
	NC_I("routing.pb.period", NC_U32, pb_period, 1, 1, 1000000, "cycles between broadcasts"),
	NC_I("routing.pb.piggyback_every", NC_U32, pb_piggy_every, 1, 1, 1000000,
	     "inband: vector on 1 of N packets"),
	NC_B("routing.pb.send_unchanged", pb_send_unchanged, true,
	     "oob: send every period (false: changes only, same decisions)"),
	NC_G("routing.olm"),
	NC_I("routing.olm.threshold_pct", NC_U32, olm_x_pct, 50, 0, 1000,
	     "candidate valid iff occ%(c) <= X% * occ%(min)"),
	NC_I("routing.olm.min_occupancy_pct", NC_U32, olm_min_pct, 0, 0, 100,
	     "consider misrouting only if occ%(min) >= this"),
	NC_B("routing.olm.saturation", olm_sat, true,
	     "misroute off a minimal global hop only if its link is saturated, Q > F*Qavg + T over "
	     "the router's global links (FOGSim's CGA; false: whenever the hop is blocked)"),
	NC_D("routing.olm.saturation_f", olm_sat_f, 1.5, 0.0, 64.0, "F of Q > F*Qavg + T"),
	NC_D("routing.olm.saturation_t", olm_sat_t, 5.0, -1000.0, 1000.0,
	     "T in packets (x packet.phits)"),
	NC_G("routing.cc"),
	NC_I("routing.cc.threshold", NC_U32, cc_th, 6, 1, 4096,
	     "th: misroute iff cc[min] >= th (Base, Filtered, ECtN hops)"),
	NC_E("routing.cc.compare", cc_compare, nc_cmp_names, "the trigger's comparison: >= | >"),
	NC_D("routing.cc.alpha", cc_alpha, 0.5, 0.0, 0.996, "Filtered: est = a*est + (1-a)*cc"),
	NC_B("routing.cc.weighted", cc_weighted, false,
	     "fire with probability (cc-th+1)/(th+1) above th"),
	NC_B("routing.cc.check", cc_check, false,
	     "recompute the counters every cycle and compare (debug)"),
	NC_E("routing.cc.candidate", cc_candidate, nc_cccand_names,
	     "a candidate takes the packet this round | has downstream credits"),
	NC_E("routing.cc.head", cc_head, nc_cchead_names,
	     "the packet behind a crossing one counts once its tail left | at the grant"),
	NC_G("routing.hybrid"),
	NC_I("routing.hybrid.threshold", NC_U32, hyb_th, 7, 1, 4096,
	     "th_h of the contention trigger (CBAR 7, thesis 8)"),
	NC_I("routing.hybrid.credit_pct", NC_U32, hyb_y_pct, 35, 0, 1000,
	     "credit trigger: occ%(c) <= Y% * occ%(min)"),
	NC_B("routing.hybrid.any_candidate", hyb_any, false,
	     "FOGSim: any candidate once the contention trigger fired"),
	NC_G("routing.ectn"),
	NC_I("routing.ectn.threshold", NC_U32, ectn_thc, 10, 1, 65535,
	     "thc: global misroute at injection iff combined[D] >= thc"),
	NC_I("routing.ectn.period", NC_U32, ectn_period, 100, 1, 1000000,
	     "cycles between partial-array broadcasts (synchronised)"),
	NC_E("routing.ectn.own", ectn_own, nc_own_names,
	     "own partial in the combined array: live | broadcast snapshot"),
	NC_E("routing.ectn.mode", ectn_mode, nc_ectn_mode_names,
	     "broadcast: full | sparse | incremental | async (spec 5.6 alternatives)"),
	NC_I("routing.ectn.refresh", NC_U32, ectn_refresh, 10, 1, 1000000,
	     "incremental: the full array every N periods"),
	NC_I("routing.ectn.async_delta", NC_U32, ectn_async_delta, 4, 1, 15,
	     "async: send at once when an own counter moved by >= this"),
	NC_I("routing.ectn.async_min_gap", NC_U32, ectn_async_min_gap, 10, 1, 1000000,
	     "async: cycles from any send to an immediate one, at least"),
	NC_I("routing.ectn.age", NC_U32, ectn_age, 25, 0, 1000000,
	     "periods without an array from a neighbour before its copy counts 0 (0: never)"),
	NC_G("routing.failover"),
	NC_E("routing.failover.enabled", fail_mode, nc_fail_names,
	     "route around down global links: auto (on unless MIN lacks 4/2 VCs, or in transit "
	     "under FlexVC) | on | off"),
	NC_I("routing.failover.period", NC_U32, fail_period, 100, 1, 1000000,
	     "cycles between LINK_STATE refreshes while a link is down"),
	NC_I("routing.failover.age", NC_U32, fail_age, 4, 1, 1000000,
	     "periods without a refresh before a neighbour's down link counts as up"),
	NC_G("routing.lia"),
	NC_I("routing.lia.window", NC_U32, lia_window, 200, 1, 1000000,
	     "HW: cycles of injected traffic counted (LIA, TPR)"),
	NC_I("routing.lia.bucket", NC_U32, lia_bucket, 10, 1, 1000000,
	     "ring-buffer bucket, cycles; divides window (1: per cycle)"),
	NC_D("routing.lia.w", lia_w, 0.1, 0.0, 100.0, "ext = inj + w*stor; a multiple of 0.01"),
	NC_I("routing.lia.gpsth", NC_U32, lia_gpsth, 5, 0, 1000000,
	     "L1: an attached group is busy iff G > GPSTh (packets)"),
	NC_I("routing.lia.sgc", NC_U32, lia_sgc, 3, 0, 64, "L1: keep L1 iff >= SGC attached groups busy"),
	NC_I("routing.lia.rcth", NC_U32, lia_rcth, 20, 0, 1000000,
	     "L2: skip L2 iff every checked R <= RCTh (packets)"),
	NC_I("routing.lia.li_low", NC_U32, lia_li_low, 3, 0, 1000000, "benign iff G <= LI_l"),
	NC_I("routing.lia.li_high", NC_U32, lia_li_high, 5, 0, 1000000,
	     "mix iff LI_l < G <= LI_h, adversarial above"),
	NC_D("routing.lia.t_benign", lia_t[0], 15.0, -1000.0, 1000.0, "T when benign, packets"),
	NC_D("routing.lia.t_mix", lia_t[1], -3.0, -1000.0, 1000.0, "T when mix, packets"),
	NC_D("routing.lia.t_adv", lia_t[2], -15.0, -1000.0, 1000.0, "T when adversarial, packets"),
	NC_I("routing.lia.update", NC_U32, lia_update, 1, 1, 1000000,
	     "cycles between recomputations of the counters"),
	NC_B("routing.lia.shorten", lia_shorten, true,
	     "false: Path A stays LGL (L1 and L2 kept), the counters modulate T only (LIA 6.1.1)"),
	NC_G("routing.acor"),
	NC_I("routing.acor.window", NC_U32, acor_window, 500, 1, 1000000,
	     "HI: cycles per ACOR window (PB-ACOR)"),
	NC_I("routing.acor.it1", NC_U32, acor_it1, 15, 0, 100000000, "-G- -> -GL iff waits > IT1"),
	NC_I("routing.acor.it2", NC_U32, acor_it2, 50, 0, 100000000, "-GL -> LGL iff waits > IT2"),
	NC_I("routing.acor.dt1", NC_U32, acor_dt1, 5, 0, 100000000, "-GL -> -G- iff waits < DT1"),
	NC_I("routing.acor.dt2", NC_U32, acor_dt2, 15, 0, 100000000, "LGL -> -GL iff waits < DT2"),
	NC_G("routing.val"),
	NC_S("routing.val.path_a", false, "lgl", path_a, "lgl | lg- | -gl | -g-"),
	NC_B("routing.val.recompute", val_recompute, false,
	     "redraw S_ROOT when the injection head is not granted"),
	NC_E("routing.val.exclude", val_exclude, nc_excl_names,
	     "groups S_ROOT may not be in: src+dst | src"),

	NC_G("traffic"),
	NC_S("traffic.pattern", false, "un", pattern,
	     "un | adv+N | adv-N | advc | perm | c1 | c2 | bursty-un | mix | adv-mix | all-to-all"),
	NC_D("traffic.load", load, 0.1, 0.0, 1.0, "phits/(node*cycle)"),
	NC_D("traffic.burst_length", burst_len, 5.0, 1.0, 10000.0,
	     "bursty-un: B, mean packets per burst to one destination (thesis 5.3: 5)"),
	NC_I("traffic.advc_groups", NC_U32, advc_groups, 0, 0, 64,
	     "advc: destinations in the n groups G+1 ... G+n (0: n = h, spec 7.2; h-1 is "
	     "FOGSim v5's ADVc, whose steady.cc draws the group distance from 0 .. h-2)"),
	NC_D("traffic.mix_un", mix_un, 0.5, 0.0, 1.0,
	     "mix: probability that a packet is UN, else ADV+1 (spec 7.2 gives none)"),
	NC_S("traffic.mix_offsets", false, "", mix_offsets,
	     "adv-mix: the group offsets N of ADV+N, e.g. \"+2,+4\" (LIA 6.1.2); each packet "
	     "draws one of them uniformly (A-7.2: per packet), then a uniform node of that group"),
	NC_ED("traffic.placement", placement, nc_place_names, 2,
	     "workloads: tasks on nodes consecutive (task i on node i) | random | default "
	     "(all-to-all consecutive, spec 7.6; halo3d random, spec 7.8; graph500 "
	     "consecutive, thesis 2.3.2)"),
	NC_E("traffic.reply", reply_consume, nc_reply_names,
	     "request-reply: queue, a request leaves at once and its reply waits in the node's "
	     "unbounded queue | consume, it crosses to its node port only while the node's reply "
	     "VCs have room for its reply and those granted before it, and leaves only when its "
	     "reply fits; replies on the last half of the injection VCs (FOGSim's "
	     "checkConsumePort, checkConsume)"),
	NC_B("traffic.reqrep", reqrep, false,
	     "request-reply (spec 7.5): requests of the pattern at half the load, each answered "
	     "by a same-size reply on the reply VCs (every mechanism but par)"),
	NC_E("traffic.injection_vc", inj_select, nc_inj_names,
	     "the injection VC of a new packet (spec 3.8): jsq, the one with the most room | "
	     "random, uniform among those with room | dest, destination node mod the VC count | "
	     "dest-block, destination node x VCs / nodes, blocks of consecutive destinations "
	     "per VC (FOGSim's VcInjectionPolicy = DEST); dest and dest-block use only that VC"),
	NC_G("traffic.halo"),
	NC_I("traffic.halo.px", NC_U32, halo_dims[0], 0, 0, 65536,
	     "halo3d: process grid P_x (px, py, pz all 0: the most cubic grid of the nodes)"),
	NC_I("traffic.halo.py", NC_U32, halo_dims[1], 0, 0, 65536, "halo3d: process grid P_y"),
	NC_I("traffic.halo.pz", NC_U32, halo_dims[2], 0, 0, 65536, "halo3d: process grid P_z"),
	NC_I("traffic.halo.cube", NC_U32, halo_cube, 32, 1, 4096,
	     "halo3d: side c of a process's cube, elements of 8 B (spec 7.8 PROPOSAL: 32)"),
	NC_I("traffic.halo.iterations", NC_U32, halo_iters, 3, 1, 1000000,
	     "halo3d: iterations, each ended by a barrier (the spec gives no count)"),
	NC_I("traffic.halo.compute", NC_U64, halo_compute, 0, 0, INT64_MAX,
	     "halo3d: cycles of compute between the barrier and the next iteration"),
	NC_G("traffic.graph500"),
	NC_I("traffic.graph500.scale", NC_U32, g5_scale, 20, 1, 40,
	     "graph500: scale s, 2^s vertices (LIA 5.3: 20)"),
	NC_I("traffic.graph500.edge_factor", NC_U32, g5_edge_factor, 16, 1, 1024,
	     "graph500: edge factor f_e (LIA 5.3: 16)"),
	NC_I("traffic.graph500.coalescing", NC_U32, g5_coalescing, 256, 1, 1u << 20,
	     "graph500: c_s, queries per message at most (spec 7.7: 256)"),
	NC_D("traffic.graph500.query_cycles", g5_query_cycles, 0.0, 0.0, 1e9,
	     "graph500: t_q in cycles, a query's consumption; sets the messages' rate (eq. 2.20); "
	     "0: no consumption, the network's rate"),
	NC_I("traffic.graph500.root_degree", NC_U32, g5_root_degree, 3, 0, 1u << 30,
	     "graph500: d_r, the root vertex's degree (LIA 5.3: 3); 0: drawn from the "
	     "lognormal of eq. 2.18-2.19"),
	NC_I("traffic.graph500.max_levels", NC_U32, g5_max_levels, 5, 1, 64,
	     "graph500: BFS levels at most (LIA 5.3: 5; FOGSim's default 9)"),
	NC_I("traffic.graph500.processes", NC_U32, g5_processes, 0, 0, 1u << 30,
	     "graph500: processes, on the first nodes of traffic.placement; the others idle "
	     "(0: every node)"),
	NC_I("traffic.graph500.message_packets", NC_U32, g5_msg_packets, 0, 0, 65535,
	     "graph500: packets per message (0: ceil(4096 B / packet), spec 7.7 PROPOSAL; "
	     "FOGSim: 1)"),
	NC_E("traffic.graph500.coefficients", g5_coef, nc_g5coef_names,
	     "graph500: C of eq. 2.8, thesis | fogsim (FOGSim v5's constants)"),
	NC_E("traffic.source", source, nc_src_names,
	     "a packet generated while no injection VC can take it (spec 3.8): skip, dropped and "
	     "counted as offered but not injected | unbounded, it waits in the node's unbounded "
	     "source queue"),

	NC_G("capture"),
	NC_S("capture.file", false, "", cap_file, "pcap file of dfly sim's capture; \"\" = none"),
	NC_S("capture.points", false, "all", cap_points,
	     "host_rx,host_tx,port_rx,port_tx,vc_enq,drop | all"),
	NC_S("capture.routers", false, "all", cap_routers, "routers captured: all | 0-5,8"),
	NC_S("capture.ports", false, "all", cap_ports, "ports captured: all | 0,3-5"),
	NC_I("capture.sample", NC_U32, cap_sample, 1, 1, 1000000000, "1 in N packets"),
	NC_I("capture.snaplen", NC_U32, cap_snaplen, 256, 110, 65535,
	     "bytes kept per record (>= 48 + 14 + 48: every header)"),
	NC_I("capture.rotate_kb", NC_U32, cap_rotate_kb, 0, 0, 1000000,
	     "start FILE.1, FILE.2, ... every N KiB; 0 never"),
	NC_B("capture.meta", cap_meta, true, "metadata records (DLT_USER0), else Ethernet frames"),
	NC_G("sim"),
	NC_I("sim.warmup", NC_U64, warmup, 60000, 0, INT64_MAX, "cycles, statistics discarded"),
	NC_I("sim.measure", NC_U64, measure, 60000, 1, INT64_MAX, "cycles measured"),
	NC_I("sim.drain", NC_U64, drain, 200000, 0, INT64_MAX, "max cycles to drain"),
	NC_I("sim.workload_cycles", NC_U64, workload_cycles, 20000000, 1, INT64_MAX,
	     "cycle limit of a workload run to completion (all-to-all, halo3d, graph500); reached: the run "
	     "fails"),
	NC_I("sim.watchdog", NC_U64, watchdog, 10000, 1, INT64_MAX,
	     "cycles without delivery with packets queued"),
	NC_I("sim.seed", NC_U64, seed, 1, 0, INT64_MAX, "first seed"),
	NC_I("sim.seeds", NC_U32, seeds, 1, 1, 10000, "runs per load: seed, seed+1, ..."),
	NC_I("sim.threads", NC_U32, threads, 1, 1, 64,
	     "threads stepping the routers of each cycle (same results for any number)"),
	NC_B("sim.batch", batch, true,
	     "step each router over the links' lookahead (their smallest latency) in one go, "
	     "while its state is in cache (same results)"),
	NC_B("sim.lia_remote", lia_remote, false,
	     "measure LIA's remote counters R_k (spec 6.4) over the measurement window, whatever "
	     "the mechanism (the firmware counts; where LIA does not run it decides nothing): "
	     "dfly sim reports their mean over routers, --counters per router, in packets per "
	     "routing.lia.window cycles (x packet.phits for phits)"),
};
/* clang-format on */

#define NC_NSETTINGS (sizeof(nc_settings) / sizeof(nc_settings[0]))

/** A setting (or group) that a --set created or changed. */
struct nc_override {
	char path[NC_PATH_MAX]; /**< dotted path */
	const char *set;        /**< the "PATH=VALUE" argument responsible */
	const char *label;      /**< how errors name it (the option typed), NULL: "--set SET" */
};

/** State of one dfly_netcfg_load() call. */
struct nc_ctx {
	config_t lc;             /**< the parsed file */
	const char *file;        /**< file name as given */
	struct nc_override *ovs; /**< settings touched by --set, in order */
	size_t nov;              /**< entries used in ovs */
	size_t cap;              /**< entries allocated in ovs */
	char *err;               /**< error line */
	size_t errlen;           /**< size of err */
};

/* ---------------------------------------------------------------------------------------------
 * Table look-ups and names
 */

static const struct nc_setting *nc_find(const char *path)
{
	for (size_t i = 0; i < NC_NSETTINGS; i++)
		if (strcmp(nc_settings[i].path, path) == 0)
			return &nc_settings[i];
	return NULL;
}

/** Comma-separated names of the known members of group @p prefix ("" for the root). */
static void nc_children(const char *prefix, char *buf, size_t len)
{
	size_t plen = strlen(prefix), used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NC_NSETTINGS; i++) {
		const char *p = nc_settings[i].path;

		if (plen > 0) {
			if (strncmp(p, prefix, plen) != 0 || p[plen] != '.')
				continue;
			p += plen + 1;
		}
		if (strchr(p, '.') != NULL)
			continue;
		int n = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", p);
		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
	}
}

static const char *nc_type_name(int type)
{
	switch (type) {
	case CONFIG_TYPE_GROUP:
		return "group";
	case CONFIG_TYPE_INT:
		return "integer";
	case CONFIG_TYPE_INT64:
		return "64-bit integer";
	case CONFIG_TYPE_FLOAT:
		return "float";
	case CONFIG_TYPE_STRING:
		return "string";
	case CONFIG_TYPE_BOOL:
		return "boolean";
	case CONFIG_TYPE_ARRAY:
		return "array";
	case CONFIG_TYPE_LIST:
		return "list";
	default:
		return "unknown type";
	}
}

static const char *nc_expected(enum nc_kind kind)
{
	switch (kind) {
	case NC_GROUP:
		return "a group";
	case NC_U32:
	case NC_U64:
	case NC_INT:
		return "an integer";
	case NC_DBL:
		return "a number";
	case NC_BOOL:
		return "true or false";
	case NC_ENUM:
	case NC_STR:
		return "a string";
	}
	return "?";
}

static int nc_name_index(const char *const *names, const char *val)
{
	for (int i = 0; names[i] != NULL; i++)
		if (strcmp(names[i], val) == 0)
			return i;
	return -1;
}

static void nc_join(const char *const *names, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; names[i] != NULL; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", names[i]);
		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
	}
}

const char *dfly_pattern_name(const struct dfly_netcfg *cfg, char *buf, size_t len)
{
	switch (cfg->pattern) {
	case DFLY_PAT_UN:
		snprintf(buf, len, "un");
		break;
	case DFLY_PAT_ADV:
		snprintf(buf, len, "adv%+d", cfg->adv_offset);
		break;
	case DFLY_PAT_ADVC:
		snprintf(buf, len, "advc");
		break;
	case DFLY_PAT_PERM:
		snprintf(buf, len, "perm");
		break;
	case DFLY_PAT_C1:
		snprintf(buf, len, "c1");
		break;
	case DFLY_PAT_C2:
		snprintf(buf, len, "c2");
		break;
	case DFLY_PAT_BURSTY:
		snprintf(buf, len, "bursty-un");
		break;
	case DFLY_PAT_MIX:
		snprintf(buf, len, "mix");
		break;
	case DFLY_PAT_ADVMIX: {
		/* "adv-mix+2+4": no comma, the name is a CSV field */
		char offs[8 * DFLY_MIX_MAX_OFFSETS + 1];

		nc_print_pattern_offsets(cfg, "", offs, sizeof(offs));
		snprintf(buf, len, "adv-mix%s", offs);
		break;
	}
	case DFLY_PAT_A2A:
		snprintf(buf, len,
			 dfly_netcfg_placement_random(cfg) ? "all-to-all-random" : "all-to-all");
		break;
	case DFLY_PAT_HALO:
		snprintf(buf, len,
			 dfly_netcfg_placement_random(cfg) ? "halo3d" : "halo3d-consecutive");
		break;
	case DFLY_PAT_G500:
		snprintf(buf, len,
			 dfly_netcfg_placement_random(cfg) ? "graph500-random" : "graph500");
		break;
	default:
		snprintf(buf, len, "?");
		break;
	}
	return buf;
}

/* ---------------------------------------------------------------------------------------------
 * String-valued settings
 */

static int nc_parse_mechanism(struct dfly_netcfg *cfg, const char *val, char *msg, size_t len)
{
	int m = dfly_mode_lookup(val);
	char names[256];

	if (m >= 0) {
		cfg->mode = (enum dfly_route_mode)m;
		return 0;
	}
	dfly_mode_list(0, names, sizeof(names));
	snprintf(msg, len, "unknown mechanism '%s' (expected one of: %s)", val, names);
	return -1;
}

static void nc_print_mechanism(const struct dfly_netcfg *cfg, char *buf, size_t len)
{
	snprintf(buf, len, "%s", dfly_mode_name(cfg->mode));
}

static int nc_parse_path_a(struct dfly_netcfg *cfg, const char *val, char *msg, size_t len)
{
	int v = dfly_val_variant_parse(val);

	if (v < 0) {
		snprintf(msg, len,
			 "unknown Path-A variant '%s' (expected one of: lgl, lg-, -gl, -g-)", val);
		return -1;
	}
	cfg->val_variant = (enum dfly_val_variant)v;
	return 0;
}

static void nc_print_path_a(const struct dfly_netcfg *cfg, char *buf, size_t len)
{
	snprintf(buf, len, "%s", dfly_val_variant_name(cfg->val_variant));
}

static int nc_parse_pattern(struct dfly_netcfg *cfg, const char *val, char *msg, size_t len)
{
	static const char *const fixed[] = {"un",     "advc",      "perm",   "c1",
					    "c2",     "bursty-un", "mix",    "all-to-all",
					    "halo3d", "graph500",  "adv-mix"};
	static const enum dfly_pattern fixed_pat[] = {
	    DFLY_PAT_UN,   DFLY_PAT_ADVC,   DFLY_PAT_PERM,  DFLY_PAT_C1,
	    DFLY_PAT_C2,   DFLY_PAT_BURSTY, DFLY_PAT_MIX,   DFLY_PAT_A2A,
	    DFLY_PAT_HALO, DFLY_PAT_G500,   DFLY_PAT_ADVMIX};

	cfg->adv_offset = 0;
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		if (strcmp(val, fixed[i]) == 0) {
			cfg->pattern = fixed_pat[i];
			/* mix's adversarial share is ADV+1 (spec §7.2) */
			cfg->adv_offset = cfg->pattern == DFLY_PAT_MIX;
			return 0;
		}
	}
	if (strncmp(val, "adv", 3) == 0 && (val[3] == '+' || val[3] == '-')) {
		const char *digits = val + 4;
		char *end;
		long n;

		errno = 0;
		n = strtol(digits, &end, 10);
		if (!isdigit((unsigned char)digits[0]) || *end != '\0' || errno != 0 ||
		    n > INT_MAX) {
			snprintf(msg, len,
				 "bad pattern '%s' (expected adv+N or adv-N with an integer N)",
				 val);
			return -1;
		}
		cfg->pattern = DFLY_PAT_ADV;
		cfg->adv_offset = val[3] == '-' ? -(int)n : (int)n;
		return 0;
	}
	snprintf(msg, len,
		 "unknown pattern '%s' (expected one of: un, adv+N, adv-N, advc, perm, c1, c2, "
		 "bursty-un, mix, adv-mix, all-to-all, halo3d, graph500)",
		 val);
	return -1;
}

static void nc_print_pattern_offsets(const struct dfly_netcfg *cfg, const char *sep, char *buf,
				     size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < cfg->mix_noffs; i++) {
		int n = snprintf(buf + used, len - used, "%s%+d", i ? sep : "", cfg->mix_offs[i]);

		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
	}
}

/* traffic.mix_offsets: "" or signed integers separated by commas ("+2,+4", "3, -9"). Which
 * offsets a network can take (not 0 mod g, not twice the same group) is checked once g is known
 * (nc_check). */
static int nc_parse_mix_offsets(struct dfly_netcfg *cfg, const char *val, char *msg, size_t len)
{
	const char *p = val;

	cfg->mix_noffs = 0;
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '\0')
		return 0;
	for (;;) {
		char *end;
		long n;

		while (isspace((unsigned char)*p))
			p++;
		errno = 0;
		n = strtol(p, &end, 10);
		if (end == p || !(isdigit((unsigned char)*p) || *p == '+' || *p == '-') ||
		    errno != 0 || n > INT_MAX || n < -INT_MAX) {
			snprintf(msg, len,
				 "bad offset list '%s' (expected signed integers separated by "
				 "commas, e.g. \"+2,+4\")",
				 val);
			return -1;
		}
		if (cfg->mix_noffs == DFLY_MIX_MAX_OFFSETS) {
			snprintf(msg, len, "'%s' lists more than %u offsets (expected at most %u)",
				 val, DFLY_MIX_MAX_OFFSETS, DFLY_MIX_MAX_OFFSETS);
			return -1;
		}
		cfg->mix_offs[cfg->mix_noffs++] = (int)n;
		p = end;
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '\0')
			return 0;
		if (*p++ != ',') {
			snprintf(msg, len,
				 "bad offset list '%s' (expected signed integers separated by "
				 "commas, e.g. \"+2,+4\")",
				 val);
			return -1;
		}
	}
}

static void nc_print_mix_offsets(const struct dfly_netcfg *cfg, char *buf, size_t len)
{
	nc_print_pattern_offsets(cfg, ",", buf, len);
}

int dfly_netcfg_parse_list(const char *s, uint32_t max, uint8_t *map)
{
	const char *p = s;

	if (map != NULL)
		memset(map, strcmp(s, "all") == 0, max);
	if (strcmp(s, "all") == 0)
		return 0;
	if (*p == '\0')
		return -EINVAL;
	while (*p) {
		char *end;
		unsigned long a, b;

		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		a = b = strtoul(p, &end, 10);
		p = end;
		if (*p == '-') {
			if (!isdigit((unsigned char)p[1]))
				return -EINVAL;
			b = strtoul(p + 1, &end, 10);
			p = end;
		}
		if (b < a || b >= max)
			return -EINVAL;
		for (unsigned long i = a; map != NULL && i <= b; i++)
			map[i] = 1;
		if (*p == ',' && p[1] != '\0')
			p++;
		else if (*p)
			return -EINVAL;
	}
	return 0;
}

static const char *const nc_point_names[] = {
#define X(E, n, d) #n,
    DFLY_FOREACH_TRACE_POINT(X)
#undef X
	NULL};

int dfly_netcfg_parse_points(const char *s, uint32_t *mask)
{
	const char *p = s;

	*mask = 0;
	if (strcmp(s, "all") == 0) {
		*mask = (1u << DFLY_TRACE_POINT_COUNT) - 1;
		return 0;
	}
	while (*p) {
		size_t n = strcspn(p, ",");
		int k;

		for (k = 0; nc_point_names[k] != NULL; k++)
			if (strlen(nc_point_names[k]) == n && strncmp(p, nc_point_names[k], n) == 0)
				break;
		if (nc_point_names[k] == NULL)
			return -EINVAL;
		*mask |= 1u << k;
		p += n;
		if (*p == ',')
			p++;
	}
	return *mask ? 0 : -EINVAL;
}

static int nc_parse_cap_file(struct dfly_netcfg *cfg, const char *val, char *msg, size_t len)
{
	if (strlen(val) >= sizeof(cfg->cap_file)) {
		snprintf(msg, len, "longer than %zu characters", sizeof(cfg->cap_file) - 1);
		return -1;
	}
	snprintf(cfg->cap_file, sizeof(cfg->cap_file), "%s", val);
	return 0;
}

static void nc_print_cap_file(const struct dfly_netcfg *cfg, char *buf, size_t len)
{
	snprintf(buf, len, "%s", cfg->cap_file);
}

static int nc_parse_cap_points(struct dfly_netcfg *cfg, const char *val, char *msg, size_t len)
{
	char names[160];

	if (dfly_netcfg_parse_points(val, &cfg->cap_points) == 0)
		return 0;
	nc_join(nc_point_names, names, sizeof(names));
	snprintf(msg, len, "bad capture point list '%s' (expected all, or some of: %s)", val,
		 names);
	return -1;
}

static void nc_print_cap_points(const struct dfly_netcfg *cfg, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	if (cfg->cap_points == (1u << DFLY_TRACE_POINT_COUNT) - 1) {
		snprintf(buf, len, "all");
		return;
	}
	for (int k = 0; k < DFLY_TRACE_POINT_COUNT && used < len; k++)
		if (cfg->cap_points >> k & 1u)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "," : "",
						 nc_point_names[k]);
}

static int nc_parse_cap_routers(struct dfly_netcfg *cfg, const char *val, char *msg, size_t len)
{
	if (strlen(val) >= sizeof(cfg->cap_routers) ||
	    dfly_netcfg_parse_list(val, UINT32_MAX, NULL) != 0) {
		snprintf(msg, len, "bad router list '%s' (expected all, or ids like 0-5,8)", val);
		return -1;
	}
	snprintf(cfg->cap_routers, sizeof(cfg->cap_routers), "%s", val);
	return 0;
}

static void nc_print_cap_routers(const struct dfly_netcfg *cfg, char *buf, size_t len)
{
	snprintf(buf, len, "%s", cfg->cap_routers);
}

static int nc_parse_cap_ports(struct dfly_netcfg *cfg, const char *val, char *msg, size_t len)
{
	uint8_t map[DFLY_MAX_PORTS];

	if (dfly_netcfg_parse_list(val, DFLY_MAX_PORTS, map) != 0) {
		snprintf(msg, len,
			 "bad port list '%s' (expected all, or ports like 0,3-5 below %d)", val,
			 DFLY_MAX_PORTS);
		return -1;
	}
	cfg->cap_ports = 0;
	for (int i = 0; i < DFLY_MAX_PORTS; i++)
		if (map[i])
			cfg->cap_ports |= 1ull << i;
	return 0;
}

static void nc_print_cap_ports(const struct dfly_netcfg *cfg, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	if (cfg->cap_ports == (DFLY_MAX_PORTS >= 64 ? ~0ull : (1ull << DFLY_MAX_PORTS) - 1)) {
		snprintf(buf, len, "all");
		return;
	}
	for (int i = 0; i < DFLY_MAX_PORTS && used < len; i++)
		if (cfg->cap_ports >> i & 1u)
			used +=
			    (size_t)snprintf(buf + used, len - used, "%s%d", used ? "," : "", i);
}

static void nc_print_pattern(const struct dfly_netcfg *cfg, char *buf, size_t len)
{
	dfly_pattern_name(cfg, buf, len);
}

/* ---------------------------------------------------------------------------------------------
 * Field access
 */

static void nc_store_int(struct dfly_netcfg *cfg, const struct nc_setting *s, int64_t v)
{
	char *field = (char *)cfg + s->off;

	switch (s->kind) {
	case NC_U32: {
		uint32_t u = (uint32_t)v;
		memcpy(field, &u, sizeof(u));
		break;
	}
	case NC_U64: {
		uint64_t u = (uint64_t)v;
		memcpy(field, &u, sizeof(u));
		break;
	}
	case NC_INT:
	case NC_ENUM: {
		int i = (int)v;
		memcpy(field, &i, sizeof(i));
		break;
	}
	case NC_BOOL: {
		bool b = v != 0;
		memcpy(field, &b, sizeof(b));
		break;
	}
	default:
		break;
	}
}

static int64_t nc_load_int(const struct dfly_netcfg *cfg, const struct nc_setting *s)
{
	const char *field = (const char *)cfg + s->off;

	switch (s->kind) {
	case NC_U32: {
		uint32_t u;
		memcpy(&u, field, sizeof(u));
		return u;
	}
	case NC_U64: {
		uint64_t u;
		memcpy(&u, field, sizeof(u));
		return (int64_t)u;
	}
	case NC_INT:
	case NC_ENUM: {
		int i;
		memcpy(&i, field, sizeof(i));
		return i;
	}
	case NC_BOOL: {
		bool b;
		memcpy(&b, field, sizeof(b));
		return b;
	}
	default:
		return 0;
	}
}

static void nc_store_double(struct dfly_netcfg *cfg, const struct nc_setting *s, double v)
{
	memcpy((char *)cfg + s->off, &v, sizeof(v));
}

static double nc_load_double(const struct dfly_netcfg *cfg, const struct nc_setting *s)
{
	double v;

	memcpy(&v, (const char *)cfg + s->off, sizeof(v));
	return v;
}

/** Shortest "%g" that reads back as @p v, always with a '.' or an exponent (a libconfig float). */
static void nc_fmt_double(double v, char *buf, size_t len)
{
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	if (strpbrk(buf, ".eEn") == NULL && strlen(buf) + 3 <= len)
		strcat(buf, ".0");
}

/* ---------------------------------------------------------------------------------------------
 * Errors: "FILE:LINE: SETTING: message", "FILE: SETTING: message", "--set P=V: SETTING: message"
 */

/** The --set that created or last changed @p path, or NULL. */
static const struct nc_override *nc_override_of(const struct nc_ctx *c, const char *path)
{
	for (size_t i = c->nov; i-- > 0;)
		if (strcmp(c->ovs[i].path, path) == 0)
			return &c->ovs[i];
	return NULL;
}

/** How errors name an override: its label (the option the user typed), or "--set SET". */
static void nc_set_name(const char *set, const char *label, char *buf, size_t len)
{
	if (label != NULL)
		snprintf(buf, len, "%s", label);
	else
		snprintf(buf, len, "--set %s", set);
}

/** Where to blame @p path: its --set, its line, the line of its closest group, or the file. */
static void nc_where(const struct nc_ctx *c, const char *path, char *buf, size_t len)
{
	const struct nc_override *ov = nc_override_of(c, path);
	char p[NC_PATH_MAX];

	if (ov != NULL) {
		nc_set_name(ov->set, ov->label, buf, len);
		strncat(buf, ": ", len - strlen(buf) - 1);
		return;
	}
	snprintf(p, sizeof(p), "%s", path);
	for (;;) {
		const config_setting_t *s = config_lookup(&c->lc, p);
		char *dot;

		if (s != NULL && config_setting_source_line(s) > 0 &&
		    nc_override_of(c, p) == NULL) {
			const char *file = config_setting_source_file(s);

			snprintf(buf, len, "%s:%u: ", file ? file : c->file,
				 (unsigned)config_setting_source_line(s));
			return;
		}
		dot = strrchr(p, '.');
		if (dot == NULL)
			break;
		*dot = '\0';
	}
	snprintf(buf, len, "%s: ", c->file);
}

/** Replace line breaks so the message stays one line. */
static void nc_one_line(char *s)
{
	for (; *s != '\0'; s++)
		if (*s == '\n' || *s == '\r')
			*s = ' ';
}

__attribute__((format(printf, 3, 4))) static int nc_fail(struct nc_ctx *c, const char *path,
							 const char *fmt, ...)
{
	char where[NC_PATH_MAX + 64], msg[DFLY_NETCFG_ERRLEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	nc_where(c, path, where, sizeof(where));
	snprintf(c->err, c->errlen, "%s%s: %s", where, path, msg);
	nc_one_line(c->err);
	return -EINVAL;
}

/** Error without a setting location: "PREFIX: message". */
__attribute__((format(printf, 2, 3))) static int nc_fail_raw(struct nc_ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->err, c->errlen, fmt, ap);
	va_end(ap);
	nc_one_line(c->err);
	return -EINVAL;
}

/* ---------------------------------------------------------------------------------------------
 * --set PATH=VALUE
 */

static int nc_record(struct nc_ctx *c, const char *path, const char *set, const char *label)
{
	if (c->nov == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 16;
		struct nc_override *ovs = realloc(c->ovs, cap * sizeof(*ovs));

		if (ovs == NULL)
			return -ENOMEM;
		c->ovs = ovs;
		c->cap = cap;
	}
	snprintf(c->ovs[c->nov].path, sizeof(c->ovs[c->nov].path), "%s", path);
	c->ovs[c->nov].set = set;
	c->ovs[c->nov].label = label;
	c->nov++;
	return 0;
}

/** A libconfig setting name: [A-Za-z*][-A-Za-z0-9_*]*. */
static bool nc_is_name(const char *s, size_t n)
{
	if (n == 0 || !(isalpha((unsigned char)s[0]) || s[0] == '*'))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!(isalnum((unsigned char)s[i]) || s[i] == '-' || s[i] == '_' || s[i] == '*'))
			return false;
	return true;
}

static bool nc_parse_i64(const char *v, int64_t *out)
{
	int base = 10;
	const char *digits = v;
	char *end;
	long long n;

	if (*digits == '+' || *digits == '-')
		digits++;
	if (digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X'))
		base = 16;
	if (!isdigit((unsigned char)digits[0]))
		return false;
	errno = 0;
	n = strtoll(v, &end, base);
	if (errno != 0 || *end != '\0')
		return false;
	*out = n;
	return true;
}

static bool nc_parse_f64(const char *v, double *out)
{
	char *end;
	double d;

	if (!(isdigit((unsigned char)*v) || *v == '+' || *v == '-' || *v == '.'))
		return false;
	errno = 0;
	d = strtod(v, &end);
	if (errno != 0 || *end != '\0' || end == v || !isfinite(d))
		return false;
	*out = d;
	return true;
}

static bool nc_parse_bool(const char *v, int *out)
{
	if (strcasecmp(v, "true") == 0)
		*out = 1;
	else if (strcasecmp(v, "false") == 0)
		*out = 0;
	else
		return false;
	return true;
}

/** A typed --set value. */
struct nc_value {
	int type;  /**< CONFIG_TYPE_* */
	int64_t i; /**< INT, INT64 */
	double d;  /**< FLOAT */
	int b;     /**< BOOL */
	char *s;   /**< STRING (allocated) */
};

/** Convert @p v to @p type; @return false if it does not convert. */
static bool nc_convert(const char *v, int type, struct nc_value *out)
{
	size_t n = strlen(v);

	out->type = type;
	switch (type) {
	case CONFIG_TYPE_INT:
	case CONFIG_TYPE_INT64:
		if (!nc_parse_i64(v, &out->i))
			return false;
		out->type =
		    out->i >= INT_MIN && out->i <= INT_MAX ? CONFIG_TYPE_INT : CONFIG_TYPE_INT64;
		return true;
	case CONFIG_TYPE_FLOAT:
		return nc_parse_f64(v, &out->d);
	case CONFIG_TYPE_BOOL:
		return nc_parse_bool(v, &out->b);
	case CONFIG_TYPE_STRING:
		if (n >= 2 && v[0] == '"' && v[n - 1] == '"')
			out->s = strndup(v + 1, n - 2);
		else
			out->s = strdup(v);
		return out->s != NULL;
	default:
		return false;
	}
}

/** Type of a new setting from the syntax of @p v. */
static int nc_infer(const char *v)
{
	size_t n = strlen(v);
	int64_t i;
	double d;
	int b;

	if (n >= 2 && v[0] == '"' && v[n - 1] == '"')
		return CONFIG_TYPE_STRING;
	if (nc_parse_bool(v, &b))
		return CONFIG_TYPE_BOOL;
	if (nc_parse_i64(v, &i))
		return CONFIG_TYPE_INT;
	if (nc_parse_f64(v, &d))
		return CONFIG_TYPE_FLOAT;
	return CONFIG_TYPE_STRING;
}

static int nc_kind_type(enum nc_kind kind)
{
	switch (kind) {
	case NC_U32:
	case NC_U64:
	case NC_INT:
		return CONFIG_TYPE_INT;
	case NC_DBL:
		return CONFIG_TYPE_FLOAT;
	case NC_BOOL:
		return CONFIG_TYPE_BOOL;
	case NC_ENUM:
	case NC_STR:
		return CONFIG_TYPE_STRING;
	default:
		return CONFIG_TYPE_GROUP;
	}
}

static const char *nc_type_expected(int type)
{
	switch (type) {
	case CONFIG_TYPE_INT:
	case CONFIG_TYPE_INT64:
		return "an integer";
	case CONFIG_TYPE_FLOAT:
		return "a number";
	case CONFIG_TYPE_BOOL:
		return "true or false";
	default:
		return "a string";
	}
}

static void nc_set_value(config_setting_t *s, const struct nc_value *v)
{
	switch (v->type) {
	case CONFIG_TYPE_INT:
		config_setting_set_int(s, (int)v->i);
		break;
	case CONFIG_TYPE_INT64:
		config_setting_set_int64(s, v->i);
		break;
	case CONFIG_TYPE_FLOAT:
		config_setting_set_float(s, v->d);
		break;
	case CONFIG_TYPE_BOOL:
		config_setting_set_bool(s, v->b);
		break;
	case CONFIG_TYPE_STRING:
		config_setting_set_string(s, v->s);
		break;
	default:
		break;
	}
}

/**
 * Apply one "PATH=VALUE": a known setting takes the value in its table type, an existing unknown
 * setting keeps its type, a new unknown setting gets the type of VALUE's syntax. Missing groups
 * on the way are created. Everything touched is recorded for error reporting.
 */
static int nc_apply_set(struct nc_ctx *c, const char *set, const char *label)
{
	const char *eq = strchr(set, '='), *value, *comp;
	config_setting_t *grp = config_root_setting(&c->lc), *m;
	const struct nc_setting *known;
	struct nc_value v = {0};
	char path[NC_PATH_MAX], *last, who[NC_PATH_MAX + 64];
	int type, rc;

	nc_set_name(set, label, who, sizeof(who));

	if (eq == NULL || eq == set)
		return nc_fail_raw(c, "%s: expected PATH=VALUE", who);
	if ((size_t)(eq - set) >= sizeof(path))
		return nc_fail_raw(c, "%s: setting path too long", who);
	memcpy(path, set, (size_t)(eq - set));
	path[eq - set] = '\0';
	value = eq + 1;

	/* Walk (and create) the groups of the path. */
	comp = path;
	for (;;) {
		const char *dot = strchr(comp, '.');
		size_t n = dot ? (size_t)(dot - comp) : strlen(comp);
		char name[NC_PATH_MAX], prefix[NC_PATH_MAX];

		if (!nc_is_name(comp, n))
			return nc_fail_raw(c, "%s: bad setting path '%s'", who, path);
		if (dot == NULL)
			break;
		memcpy(name, comp, n);
		name[n] = '\0';
		memcpy(prefix, path, (size_t)(dot - path));
		prefix[dot - path] = '\0';
		m = config_setting_get_member(grp, name);
		if (m == NULL) {
			m = config_setting_add(grp, name, CONFIG_TYPE_GROUP);
			if (m == NULL)
				return nc_fail_raw(c, "%s: %s: cannot create group", who, prefix);
			rc = nc_record(c, prefix, set, label);
			if (rc < 0)
				return rc;
		} else if (!config_setting_is_group(m)) {
			return nc_fail_raw(c, "%s: %s: not a group", who, prefix);
		}
		grp = m;
		comp = dot + 1;
	}
	last = path + (comp - path);

	m = config_setting_get_member(grp, last);
	known = nc_find(path);
	if (known != NULL)
		type = nc_kind_type(known->kind);
	else if (m != NULL)
		type = config_setting_type(m);
	else
		type = nc_infer(value);
	if (type == CONFIG_TYPE_GROUP || type == CONFIG_TYPE_ARRAY || type == CONFIG_TYPE_LIST)
		return nc_fail_raw(c, "%s: %s: is a %s (expected the path of a single setting)",
				   who, path, nc_type_name(type));
	if (!nc_convert(value, type, &v))
		return nc_fail_raw(c, "%s: %s: expected %s", who, path, nc_type_expected(type));

	if (m != NULL && config_setting_type(m) != v.type) {
		config_setting_remove(grp, last);
		m = NULL;
	}
	if (m == NULL)
		m = config_setting_add(grp, last, v.type);
	if (m == NULL) {
		free(v.s);
		return nc_fail_raw(c, "%s: %s: cannot create setting", who, path);
	}
	nc_set_value(m, &v);
	free(v.s);
	return nc_record(c, path, set, label);
}

/* ---------------------------------------------------------------------------------------------
 * Reading and checking
 */

/** Reject names the table does not know, and scalars where a group is expected. */
static int nc_check_names(struct nc_ctx *c, const config_setting_t *grp, const char *prefix)
{
	int n = config_setting_length(grp);

	for (int i = 0; i < n; i++) {
		const config_setting_t *s = config_setting_get_elem(grp, (unsigned)i);
		const struct nc_setting *known;
		char path[NC_PATH_MAX], list[320];
		int rc;

		snprintf(path, sizeof(path), "%s%s%s", prefix, *prefix ? "." : "",
			 config_setting_name(s));
		known = nc_find(path);
		if (known == NULL) {
			nc_children(prefix, list, sizeof(list));
			return nc_fail(c, path, "unknown setting (expected one of: %s)", list);
		}
		if (known->kind != NC_GROUP)
			continue;
		if (!config_setting_is_group(s))
			return nc_fail(c, path, "wrong type: %s (expected a group)",
				       nc_type_name(config_setting_type(s)));
		rc = nc_check_names(c, s, path);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int nc_range_error(struct nc_ctx *c, const struct nc_setting *s, int64_t v)
{
	if (s->max == INT64_MAX)
		return nc_fail(c, s->path, "%" PRId64 " is out of range (expected >= %" PRId64 ")",
			       v, s->min);
	return nc_fail(c, s->path,
		       "%" PRId64 " is out of range (expected %" PRId64 "..%" PRId64 ")", v, s->min,
		       s->max);
}

/** Fill one setting from the file, or from its default. */
static int nc_read_one(struct nc_ctx *c, struct dfly_netcfg *cfg, const struct nc_setting *s)
{
	const config_setting_t *cs = config_lookup(&c->lc, s->path);
	char msg[DFLY_NETCFG_ERRLEN], list[128];
	int type, idx;
	int64_t i;
	double d;

	if (s->kind == NC_GROUP)
		return 0;
	if (cs == NULL) {
		if (s->required)
			return nc_fail(c, s->path, "missing required setting");
		switch (s->kind) {
		case NC_DBL:
			nc_store_double(cfg, s, s->ddef);
			return 0;
		case NC_STR:
			return s->parse(cfg, s->sdef, msg, sizeof(msg)) == 0 ? 0 : -EINVAL;
		default:
			nc_store_int(cfg, s, s->def);
			return 0;
		}
	}

	type = config_setting_type(cs);
	switch (s->kind) {
	case NC_U32:
	case NC_U64:
	case NC_INT:
		if (type != CONFIG_TYPE_INT && type != CONFIG_TYPE_INT64)
			break;
		i = type == CONFIG_TYPE_INT ? config_setting_get_int(cs)
					    : config_setting_get_int64(cs);
		if (i < s->min || i > s->max)
			return nc_range_error(c, s, i);
		nc_store_int(cfg, s, i);
		return 0;
	case NC_DBL:
		if (type == CONFIG_TYPE_INT)
			d = config_setting_get_int(cs);
		else if (type == CONFIG_TYPE_INT64)
			d = (double)config_setting_get_int64(cs);
		else if (type == CONFIG_TYPE_FLOAT)
			d = config_setting_get_float(cs);
		else
			break;
		if (!(d >= s->dmin && d <= s->dmax))
			return nc_fail(c, s->path, "%g is out of range (expected %g..%g)", d,
				       s->dmin, s->dmax);
		nc_store_double(cfg, s, d);
		return 0;
	case NC_BOOL:
		if (type != CONFIG_TYPE_BOOL)
			break;
		nc_store_int(cfg, s, config_setting_get_bool(cs));
		return 0;
	case NC_ENUM:
		if (type != CONFIG_TYPE_STRING)
			break;
		idx = nc_name_index(s->names, config_setting_get_string(cs));
		if (idx < 0) {
			nc_join(s->names, list, sizeof(list));
			return nc_fail(c, s->path, "unknown value '%s' (expected one of: %s)",
				       config_setting_get_string(cs), list);
		}
		nc_store_int(cfg, s, idx);
		return 0;
	case NC_STR:
		if (type != CONFIG_TYPE_STRING)
			break;
		if (s->parse(cfg, config_setting_get_string(cs), msg, sizeof(msg)) < 0)
			return nc_fail(c, s->path, "%s", msg);
		return 0;
	case NC_GROUP:
		return 0;
	}
	return nc_fail(c, s->path, "wrong type: %s (expected %s)", nc_type_name(type),
		       nc_expected(s->kind));
}

/** "S1=L0 D2=L1" for the roles of @p used that travel on local (or global) ports. */
static void nc_role_list(const uint8_t map[DFLY_ROLE_COUNT], unsigned used, bool global, char *buf,
			 size_t len)
{
	static const char *const names[DFLY_ROLE_COUNT] = {"S1", "S2", "G1", "I1",
							   "I2", "G2", "D1", "D2"};
	size_t off = 0;

	buf[0] = '\0';
	for (int r = 0; r < DFLY_ROLE_COUNT; r++) {
		bool is_global = r == DFLY_ROLE_G1 || r == DFLY_ROLE_G2;
		int n;

		if (!(used & (1u << r)) || is_global != global)
			continue;
		n = snprintf(buf + off, len - off, "%s%s=%c%u", off ? " " : "", names[r],
			     global ? 'G' : 'L', map[r]);
		if (n < 0 || (size_t)n >= len - off)
			break;
		off += (size_t)n;
	}
}

/* VAL-group (3/2 VCs): S_ROOT is the landing router of the global link the path takes. With
 * trunking the minimal route towards S_ROOT may land on another of the t links' routers and
 * need a local hop to it, so t > 1 uses the 4/2 map. */
static bool nc_val_group(const struct dfly_netcfg *cfg)
{
	return (cfg->val_variant == DFLY_VAL_LG_ || cfg->val_variant == DFLY_VAL__G_) &&
	       cfg->t == 1;
}

/** PB's state machine runs (PB, PB-ACOR). */
static bool nc_pb(const struct dfly_netcfg *cfg)
{
	return dfly_mode_runs(cfg->mode, DFLY_FW_PB);
}

/** Does the mechanism route nonminimally at all (a Valiant path, a misroute)? */
static bool nc_nonmin(const struct dfly_netcfg *cfg)
{
	return dfly_mode_vcs(cfg->mode) != DFLY_VCS_MIN;
}

/** Roles a mechanism's reference path uses (bit r = role r), spec §2.2. */
static unsigned nc_roles_used(const struct dfly_netcfg *cfg)
{
	return dfly_mode_roles(cfg->mode, nc_val_group(cfg));
}

/* traffic.reqrep: @p total VCs of one link kind hold a reply class of @p reply and a request
 * class of the rest, each at least @p need (the mechanism's reference path). The error names the
 * reply setting when the file set it (@p explicit_reply), else the VC count. */
static int nc_check_class(struct nc_ctx *c, const struct dfly_netcfg *cfg, const char *kind,
			  bool explicit_reply, uint32_t total, uint32_t reply, uint32_t need,
			  uint32_t need_reply)
{
	char path[32];

	if (reply >= need_reply && total >= reply + need)
		return 0;
	snprintf(path, sizeof(path), "vcs.%s%s", explicit_reply ? "reply_" : "", kind);
	if (need_reply != need)
		return nc_fail(c, path,
			       "request-reply with %s under FlexVC needs %" PRIu32 " %s request "
			       "VCs and %" PRIu32 " reply VCs: %" PRIu32 " request + %" PRIu32
			       " reply (spec 2.4)",
			       dfly_mode_name(cfg->mode), need, kind, need_reply,
			       total > reply ? total - reply : 0, reply);
	return nc_fail(c, path,
		       "request-reply with %s needs %" PRIu32 " %s VCs per class: %" PRIu32
		       " request + %" PRIu32 " reply (spec 2.2)",
		       dfly_mode_name(cfg->mode), need, kind, total > reply ? total - reply : 0,
		       reply);
}

static int nc_check_vcs(struct nc_ctx *c, const struct dfly_netcfg *cfg)
{
	uint8_t map[DFLY_ROLE_COUNT];
	uint32_t need_l, need_g;
	int rc;
	char what[64], roles[64];

	dfly_netcfg_vc_needs(cfg, &need_l, &need_g, map);
	if (cfg->reqrep && cfg->reply_consume == 1 && cfg->vc_inj < 2)
		return nc_fail(c, "vcs.injection",
			       "request-reply with traffic.reply = \"consume\" needs at least 2 "
			       "injection VCs (requests take the first half, replies the rest, as "
			       "FOGSim does; %" PRIu32 ")",
			       cfg->vc_inj);
	if (cfg->reqrep && dfly_netcfg_workload(cfg))
		return nc_fail(c, "traffic.reqrep",
			       "request-reply on the %s workload is not built (spec 7.5 defines it "
			       "on the steady patterns)",
			       dfly_netcfg_workload_name(cfg));
	if (cfg->reqrep) {
		uint32_t rl, rg, min_l, min_g;
		bool fx = cfg->flexvc != DFLY_FLEXVC_OFF;
		char names[256];

		dfly_mode_vc_needs(DFLY_MODE_MIN, false, &min_l, &min_g, NULL);
		if (!dfly_mode_is(cfg->mode, DFLY_MODEF_REQREP))
			return nc_fail(c, "traffic.reqrep",
				       "request-reply is built for %s, not %s: its hops are not "
				       "placed in request and reply VC classes (spec 2.2, 7.5)",
				       dfly_mode_list(DFLY_MODEF_REQREP, names, sizeof(names)),
				       dfly_mode_name(cfg->mode));
		dfly_netcfg_reply_vcs(cfg, &rl, &rg);
		/* each class its own copy of the reference path (spec 2.2's doubled path: 2 x 3/2
		 * = 6/4 in transit, OLM's opportunistic hops within their class); under FlexVC the
		 * replies may also take the request VCs, so their class needs only the minimal
		 * path's (spec 2.4, thesis Theorem 2: the thesis's 4/2 + 2/1, in transit 3/2 + 2/1
		 * = 5/3, Table 5.4) */
		if ((rc = nc_check_class(c, cfg, "local", cfg->vc_reply_local != 0, cfg->vc_local,
					 rl, need_l, fx ? min_l : need_l)) != 0 ||
		    (rc = nc_check_class(c, cfg, "global", cfg->vc_reply_global != 0,
					 cfg->vc_global, rg, need_g, fx ? min_g : need_g)) != 0)
			return rc;
		if (cfg->reply_consume == 1 && fx && (rl < need_l || rg < need_g))
			return nc_fail(
			    c, "traffic.reply",
			    "\"consume\" with a reply class sized for minimal paths (%" PRIu32
			    "/%" PRIu32 " VCs, %s needs %" PRIu32 "/%" PRIu32
			    ") can deadlock: a Valiant reply waits on request VCs while "
			    "requests wait at their nodes for replies (use \"queue\", or "
			    "full classes)",
			    rl, rg, dfly_mode_name(cfg->mode), need_l, need_g);
	}
	if (dfly_mode_is(cfg->mode, DFLY_MODEF_PATH_A))
		snprintf(what, sizeof(what), "%s with path_a %s%s", dfly_mode_name(cfg->mode),
			 dfly_val_variant_name(cfg->val_variant),
			 nc_val_group(cfg) ? " (VAL-group)" : "");
	else
		snprintf(what, sizeof(what), "%s", dfly_mode_name(cfg->mode));
	if (cfg->vc_local < need_l) {
		nc_role_list(map, nc_roles_used(cfg), false, roles, sizeof(roles));
		return nc_fail(c, "vcs.local",
			       "too few VCs for %s: %" PRIu32 " (expected >= %" PRIu32
			       ": %s; spec 2.2)",
			       what, cfg->vc_local, need_l, roles);
	}
	if (cfg->vc_global < need_g) {
		nc_role_list(map, nc_roles_used(cfg), true, roles, sizeof(roles));
		return nc_fail(c, "vcs.global",
			       "too few VCs for %s: %" PRIu32 " (expected >= %" PRIu32
			       ": %s; spec 2.2)",
			       what, cfg->vc_global, need_g, roles);
	}
	if (cfg->flexvc != DFLY_FLEXVC_OFF && !dfly_mode_is(cfg->mode, DFLY_MODEF_FLEXVC)) {
		char names[256];

		return nc_fail(c, "vcs.flexvc",
			       "FlexVC is not built for %s: its hops are not placed on a FlexVC "
			       "sequence (FlexVC is built for %s; spec 2.4)",
			       dfly_mode_name(cfg->mode),
			       dfly_mode_list(DFLY_MODEF_FLEXVC, names, sizeof(names)));
	}
	if (cfg->flexvc_sets != DFLY_FLEXVC_SETS_PATH &&
	    (cfg->flexvc == DFLY_FLEXVC_OFF || dfly_mode_is(cfg->mode, DFLY_MODEF_IN_TRANSIT)))
		return nc_fail(c, "vcs.flexvc_sets",
			       "\"%s\" needs FlexVC on an oblivious or source-adaptive mechanism "
			       "(vcs.flexvc = \"%s\", %s; the in-transit mechanisms place their "
			       "hops themselves, thesis 5.2.1)",
			       nc_flexvc_sets_names[cfg->flexvc_sets], nc_flexvc_names[cfg->flexvc],
			       dfly_mode_name(cfg->mode));
	if (cfg->vc_assign == 1 &&
	    (cfg->flexvc != DFLY_FLEXVC_OFF || dfly_mode_vcs(cfg->mode) == DFLY_VCS_TRANSIT))
		return nc_fail(
		    c, "vcs.assign",
		    "\"next\" places a hop after the place of the VC the packet is in on "
		    "one reference path: not with FlexVC (vcs.flexvc = \"%s\") or the "
		    "in-transit mechanisms' opportunistic hops (%s)",
		    nc_flexvc_names[cfg->flexvc], dfly_mode_name(cfg->mode));
	return 0;
}

/* An in-transit mechanism with FlexVC on (route_transit.c). */
static bool nc_transit_flexvc(const struct dfly_netcfg *cfg)
{
	return cfg->flexvc != DFLY_FLEXVC_OFF && dfly_mode_is(cfg->mode, DFLY_MODEF_IN_TRANSIT);
}

/*
 * Failover (routing.failover): does it run? Every mode but MIN has VCs for a Valiant path. MIN
 * (2/1) can misroute around a down link only with the VAL VCs (4/2): minimal packets keep their
 * VCs (l0 g1 l2 of the reference l0 g1 l2 l3 g4 l5, a skip), misrouted ones climb the rest. Not
 * under FlexVC, whose MIN sequence has no Valiant positions.
 */
static bool nc_fail_possible(const struct dfly_netcfg *cfg)
{
	/* in transit under FlexVC: a failover hop keeps its role's VC, which a packet that took a
	 * later VC under FlexVC would wait on below its place; not combined (nc_check) */
	if (nc_transit_flexvc(cfg))
		return false;
	/* RES: a reserved packet moved off its channel would leave its phits in that channel's
	 * R for ever (res.c); reservations and failover are not combined */
	if (cfg->mode == DFLY_MODE_RES)
		return false;
	if (nc_nonmin(cfg))
		return true;
	/* request-reply: the VCs above MIN's are the reply class's */
	return cfg->vc_local >= 4 && cfg->vc_global >= 2 && cfg->flexvc == DFLY_FLEXVC_OFF &&
	       !cfg->reqrep;
}

bool dfly_netcfg_workload(const struct dfly_netcfg *cfg)
{
	return dfly_netcfg_workload_name(cfg) != NULL;
}

const char *dfly_netcfg_workload_name(const struct dfly_netcfg *cfg)
{
	switch (cfg->pattern) {
	case DFLY_PAT_A2A:
		return "all-to-all";
	case DFLY_PAT_HALO:
		return "halo3d";
	case DFLY_PAT_G500:
		return "graph500";
	default:
		return NULL;
	}
}

uint32_t dfly_netcfg_g5_msg_packets(const struct dfly_netcfg *cfg)
{
	uint32_t pkt = cfg->pkt_phits * cfg->phit_bytes;

	if (cfg->g5_msg_packets != 0)
		return cfg->g5_msg_packets;
	return (4096 + pkt - 1) / pkt;
}

bool dfly_netcfg_placement_random(const struct dfly_netcfg *cfg)
{
	return cfg->placement == 1 || (cfg->placement == 2 && cfg->pattern == DFLY_PAT_HALO);
}

bool dfly_netcfg_failover(const struct dfly_netcfg *cfg)
{
	return cfg->fail_mode == 1 || (cfg->fail_mode == 0 && nc_fail_possible(cfg));
}

/* Does mode @p m decide on occupancy at the source (UGAL-L's Q, PB's bits), which minCred
 * reads? Not the in-transit ones (ECtN's source decision reads its arrays), not RES. */
static bool nc_mincred_ok(uint32_t m)
{
	return dfly_mode_is(m, DFLY_MODEF_SOURCE) && !dfly_mode_is(m, DFLY_MODEF_IN_TRANSIT) &&
	       m != DFLY_MODE_RES;
}

/** Rules that tie settings together, once every setting has a valid value on its own. */
static int nc_check(struct nc_ctx *c, const struct dfly_netcfg *cfg)
{
	static const struct {
		const char *path;
		size_t off;
	} bufs[] = {
	    {"buffers.injection", NC_OFF(buf_inj)},
	    {"buffers.local", NC_OFF(buf_local)},
	    {"buffers.global", NC_OFF(buf_global)},
	    {"buffers.output", NC_OFF(buf_out)},
	};
	uint32_t radix, g;
	struct dfly_topo *topo;
	int rc;

	if (cfg->a % cfg->t != 0)
		return nc_fail(c, "topology.t",
			       "%" PRIu32 " does not divide topology.a = %" PRIu32
			       " (expected a divisor of a)",
			       cfg->t, cfg->a);
	if (cfg->sigma != 1 && cfg->sigma != -1)
		return nc_fail(c, "topology.sigma", "%d is out of range (expected -1 or +1)",
			       cfg->sigma);
	if (cfg->arr == DFLY_ARR_CONSECUTIVE && cfg->t != 1)
		return nc_fail(c, "topology.arrangement",
			       "consecutive needs topology.t = 1 (t = %" PRIu32 ")", cfg->t);
	radix = cfg->p + cfg->a - 1 + cfg->h;
	if (radix > DFLY_MAX_PORTS)
		return nc_fail(c, "topology",
			       "radix p + a - 1 + h = %" PRIu32 " is too large (expected <= %d)",
			       radix, DFLY_MAX_PORTS);
	g = cfg->a * cfg->h / cfg->t + 1;
	if (g > DFLY_MAX_GROUPS)
		return nc_fail(c, "topology",
			       "g = a*h/t + 1 = %" PRIu32 " groups is too many (expected <= %d)", g,
			       DFLY_MAX_GROUPS);
	topo = dfly_topo_create(cfg->p, cfg->a, cfg->h, cfg->t, cfg->arr, cfg->sigma);
	if (topo == NULL)
		return nc_fail(c, "topology", "rejected by dfly_topo_create: %s", strerror(errno));
	dfly_topo_destroy(topo);

	if (cfg->pattern == DFLY_PAT_HALO) {
		const uint32_t *P = cfg->halo_dims;
		uint64_t nodes = (uint64_t)cfg->p * cfg->a * g;

		if ((P[0] || P[1] || P[2]) && (uint64_t)P[0] * P[1] * P[2] != nodes)
			return nc_fail(c, "traffic.halo.px",
				       "the process grid %" PRIu32 " x %" PRIu32 " x %" PRIu32
				       " is not the network's %" PRIu64
				       " nodes (expected px * py * pz = %" PRIu64
				       ", or all three 0 for the most cubic grid)",
				       P[0], P[1], P[2], nodes, nodes);
		if (nodes < 2)
			return nc_fail(c, "traffic.pattern",
				       "halo3d needs at least 2 processes (the network has %" PRIu64
				       " node)",
				       nodes);
	}
	if (cfg->pattern == DFLY_PAT_G500) {
		uint64_t nodes = (uint64_t)cfg->p * cfg->a * g;
		uint64_t n = cfg->g5_processes ? cfg->g5_processes : nodes;

		if (n > nodes || n < 2)
			return nc_fail(c, "traffic.graph500.processes",
				       "%" PRIu64 " processes on a network of %" PRIu64
				       " nodes (expected 2 to %" PRIu64 ")",
				       n, nodes, nodes);
		if ((uint64_t)n * n * sizeof(uint32_t) > (8ull << 30))
			return nc_fail(c, "traffic.graph500.processes",
				       "%" PRIu64 " processes need %" PRIu64
				       " MiB for the per-pair packet counts of the end-of-level "
				       "signals (expected at most 8 GiB)",
				       n, n * n * 4 >> 20);
	}
	if (nc_nonmin(cfg) && g < 3)
		return nc_fail(c, "routing.mechanism",
			       "%s needs at least 3 groups (g = %" PRIu32
			       "; expected a*h/t + 1 >= 3)",
			       dfly_mode_name(cfg->mode), g);
	if (dfly_mode_is(cfg->mode, DFLY_MODEF_T1) && cfg->t != 1)
		return nc_fail(c, "topology.t", "%s is defined for t = 1 (A-6.12; t = %" PRIu32 ")",
			       dfly_mode_name(cfg->mode), cfg->t);
	if (cfg->lia_window % cfg->lia_bucket != 0 ||
	    cfg->lia_window / cfg->lia_bucket > LIA_MAX_SLOTS)
		return nc_fail(c, "routing.lia.bucket",
			       "%" PRIu32 " does not divide routing.lia.window = %" PRIu32
			       " into at most %u buckets",
			       cfg->lia_bucket, cfg->lia_window, LIA_MAX_SLOTS);
	if (fabs(cfg->lia_w * 100.0 - round(cfg->lia_w * 100.0)) > 1e-6)
		return nc_fail(c, "routing.lia.w",
			       "%g is not a multiple of 0.01 (the firmware keeps 100*ext exactly)",
			       cfg->lia_w);
	if (cfg->lia_li_low > cfg->lia_li_high)
		return nc_fail(c, "routing.lia.li_low",
			       "%" PRIu32 " is above routing.lia.li_high = %" PRIu32,
			       cfg->lia_li_low, cfg->lia_li_high);
	if (nc_pb(cfg) && cfg->pb_exchange == DFLY_PB_INBAND && cfg->h * cfg->vc_global > 32)
		return nc_fail(c, "routing.pb.exchange",
			       "inband carries at most 32 bits in the data header (h * vcs.global "
			       "= %" PRIu32 "; expected <= 32)",
			       cfg->h * cfg->vc_global);
	if (nc_pb(cfg) && cfg->pb_avg == DFLY_PB_AVG_ALL && cfg->pb_f >= cfg->h)
		return nc_fail(c, "routing.pb.f",
			       "%g with routing.pb.average = \"all\" and h = %" PRIu32
			       " can never mark a channel: Q > F*(sum of the h queues)/h + T needs "
			       "F < h (expected F < h, or average = \"other\")",
			       cfg->pb_f, cfg->h);
	if (cfg->mincred && !nc_mincred_ok(cfg->mode)) {
		char names[256] = "";

		for (uint32_t m = 0; m < DFLY_MODE_COUNT; m++)
			if (nc_mincred_ok(m))
				snprintf(names + strlen(names), sizeof(names) - strlen(names),
					 "%s%s", names[0] ? ", " : "", dfly_mode_name(m));
		if (dfly_mode_is(cfg->mode, DFLY_MODEF_IN_TRANSIT))
			return nc_fail(
			    c, "routing.mincred",
			    "%s decides in transit: minCred (spec 2.4) is built for the source "
			    "decisions of %s; the thesis found separate credits for minimally "
			    "routed packets give in-transit routing no acceptable performance "
			    "(thesis 5.4; use a contention trigger: base, filtered, hybrid, ectn)",
			    dfly_mode_name(cfg->mode), names);
		return nc_fail(
		    c, "routing.mincred",
		    "%s does not decide on occupancy at the source: minCred (spec 2.4) is "
		    "for UGAL-L's and PB's comparisons (%s)",
		    dfly_mode_name(cfg->mode), names);
	}
	if (cfg->fail_mode == 1 && cfg->mode == DFLY_MODE_RES)
		return nc_fail(
		    c, "routing.failover.enabled",
		    "\"on\" with routing.mechanism = \"res\": a reserved packet moved off "
		    "its global channel would hold that channel's reservation for ever; "
		    "use \"auto\" (off for res)");
	if (cfg->fail_mode == 1 && nc_transit_flexvc(cfg))
		return nc_fail(
		    c, "routing.failover.enabled",
		    "\"on\" with %s under FlexVC (vcs.flexvc = \"%s\"): routing around a down "
		    "link in transit under FlexVC is not built; use \"auto\" (off here) or "
		    "vcs.flexvc = \"off\"",
		    dfly_mode_name(cfg->mode), nc_flexvc_names[cfg->flexvc]);
	if (cfg->fail_mode == 1 && !nc_fail_possible(cfg))
		return nc_fail(
		    c, "routing.failover.enabled",
		    "MIN can route around a down link only with 4 local and 2 global VCs "
		    "and FlexVC off (vcs.local %" PRIu32 ", vcs.global %" PRIu32 "); "
		    "use \"auto\" to run without failover",
		    cfg->vc_local, cfg->vc_global);
	rc = nc_check_vcs(c, cfg);
	if (rc < 0)
		return rc;

	for (size_t i = 0; i < sizeof(bufs) / sizeof(bufs[0]); i++) {
		uint32_t v;

		memcpy(&v, (const char *)cfg + bufs[i].off, sizeof(v));
		if (v < cfg->pkt_phits)
			return nc_fail(c, bufs[i].path,
				       "%" PRIu32 " phits is smaller than a packet (expected >= "
				       "packet.phits = %" PRIu32 ")",
				       v, cfg->pkt_phits);
	}

	if (cfg->pattern == DFLY_PAT_ADV && ((int64_t)cfg->adv_offset % g + g) % g == 0) {
		char name[32];

		return nc_fail(c, "traffic.pattern",
			       "'%s' sends every packet to its own group (expected N mod g != 0, "
			       "g = %" PRIu32 ")",
			       dfly_pattern_name(cfg, name, sizeof(name)), g);
	}
	if (dfly_netcfg_parse_list(cfg->cap_routers, g * cfg->a, NULL) != 0)
		return nc_fail(c, "capture.routers",
			       "'%s' names a router outside 0..%" PRIu32 " (expected all, or ids "
			       "like 0-5,8)",
			       cfg->cap_routers, g * cfg->a - 1);
	if (cfg->pattern == DFLY_PAT_C1 && g / 4 <= cfg->h)
		return nc_fail(c, "traffic.pattern",
			       "c1 splits the g = %" PRIu32 " groups into 4 areas of %" PRIu32
			       ", and ADV+h inside an area needs more than h = %" PRIu32
			       " groups (expected g/4 > h)",
			       g, g / 4, cfg->h);
	if (cfg->pattern == DFLY_PAT_C2 && cfg->h % g == 0)
		return nc_fail(c, "traffic.pattern", "c2's ADV+h needs h mod g != 0");
	if (cfg->advc_groups > cfg->h)
		return nc_fail(c, "traffic.advc_groups",
			       "%" PRIu32 " groups, but a router's global links reach h = %" PRIu32
			       " (expected 0 .. h; 0 means h)",
			       cfg->advc_groups, cfg->h);
	if (cfg->pattern == DFLY_PAT_MIX && g < 2)
		return nc_fail(c, "traffic.pattern", "mix's ADV+1 needs g >= 2 groups");
	if (cfg->pattern == DFLY_PAT_ADVMIX && cfg->mix_noffs == 0)
		return nc_fail(c, "traffic.mix_offsets",
			       "adv-mix needs at least one group offset (expected e.g. \"+2,+4\")");
	/* checked whatever the pattern: a transient may switch to adv-mix later */
	{
		for (uint32_t i = 0; i < cfg->mix_noffs; i++) {
			int64_t r = ((int64_t)cfg->mix_offs[i] % g + g) % g;

			if (r == 0)
				return nc_fail(c, "traffic.mix_offsets",
					       "offset %+d sends its packets to their own group "
					       "(expected N mod g != 0, g = %" PRIu32 ")",
					       cfg->mix_offs[i], g);
			for (uint32_t j = 0; j < i; j++)
				if (((int64_t)cfg->mix_offs[j] % g + g) % g == r)
					return nc_fail(
					    c, "traffic.mix_offsets",
					    "offsets %+d and %+d name the same group (expected "
					    "distinct offsets mod g, g = %" PRIu32 ")",
					    cfg->mix_offs[j], cfg->mix_offs[i], g);
		}
	}
	return 0;
}

int dfly_netcfg_load(struct dfly_netcfg *cfg, const char *path, const char *const *sets, int nsets,
		     char *err, size_t errlen)
{
	return dfly_netcfg_load_labelled(cfg, path, sets, NULL, nsets, err, errlen);
}

int dfly_netcfg_load_labelled(struct dfly_netcfg *cfg, const char *path, const char *const *sets,
			      const char *const *labels, int nsets, char *err, size_t errlen)
{
	struct nc_ctx c = {.file = path};
	char dummy[DFLY_NETCFG_ERRLEN], *dir = NULL, *slash;
	struct stat st;
	FILE *f;
	int rc;

	c.err = err != NULL && errlen > 0 ? err : dummy;
	c.errlen = err != NULL && errlen > 0 ? errlen : sizeof(dummy);
	c.err[0] = '\0';
	memset(cfg, 0, sizeof(*cfg));
	config_init(&c.lc);

	f = fopen(path, "r");
	if (f == NULL)
		rc = -errno;
	else if (fstat(fileno(f), &st) < 0)
		rc = -errno;
	else
		rc = S_ISDIR(st.st_mode) ? -EISDIR : 0;
	if (f != NULL)
		fclose(f);
	if (rc < 0) {
		snprintf(c.err, c.errlen, "%s: cannot open: %s", path, strerror(-rc));
		goto out;
	}

	/* @include is resolved relative to the file's directory. */
	dir = strdup(path);
	if (dir == NULL) {
		rc = -ENOMEM;
		snprintf(c.err, c.errlen, "%s: %s", path, strerror(ENOMEM));
		goto out;
	}
	slash = strrchr(dir, '/');
	if (slash != NULL) {
		*slash = '\0';
		config_set_include_dir(&c.lc, *dir ? dir : "/");
	}

	if (config_read_file(&c.lc, path) != CONFIG_TRUE) {
		if (config_error_type(&c.lc) == CONFIG_ERR_PARSE) {
			rc = nc_fail_raw(&c, "%s:%d: syntax error: %s",
					 config_error_file(&c.lc) ? config_error_file(&c.lc) : path,
					 config_error_line(&c.lc), config_error_text(&c.lc));
		} else {
			rc = -EIO;
			snprintf(c.err, c.errlen, "%s: cannot read: %s", path,
				 config_error_text(&c.lc));
		}
		goto out;
	}

	for (int i = 0; i < nsets; i++) {
		rc = nc_apply_set(&c, sets[i], labels != NULL ? labels[i] : NULL);
		if (rc < 0)
			goto out;
	}

	rc = nc_check_names(&c, config_root_setting(&c.lc), "");
	if (rc < 0)
		goto out;
	for (size_t i = 0; i < NC_NSETTINGS; i++) {
		rc = nc_read_one(&c, cfg, &nc_settings[i]);
		if (rc < 0)
			goto out;
	}
	rc = nc_check(&c, cfg);
	if (rc < 0)
		goto out;
	snprintf(cfg->path, sizeof(cfg->path), "%s", path);
out:
	if (rc == -ENOMEM && c.err[0] == '\0')
		snprintf(c.err, c.errlen, "%s: %s", path, strerror(ENOMEM));
	free(dir);
	free(c.ovs);
	config_destroy(&c.lc);
	return rc;
}

/* ---------------------------------------------------------------------------------------------
 * Dump
 */

/** Number of leading groups two dotted paths share. */
static int nc_common_depth(const char *x, const char *y)
{
	int depth = 0;

	for (;;) {
		const char *dx = strchr(x, '.'), *dy = strchr(y, '.');

		if (dx == NULL || dy == NULL || dx - x != dy - y || strncmp(x, y, (size_t)(dx - x)))
			return depth;
		depth++;
		x = dx + 1;
		y = dy + 1;
	}
}

static int nc_depth(const char *path)
{
	int depth = 0;

	for (; *path != '\0'; path++)
		depth += *path == '.';
	return depth;
}

static void nc_indent(FILE *f, int depth)
{
	for (int i = 0; i < depth; i++)
		fputc('\t', f);
}

void dfly_netcfg_dump(const struct dfly_netcfg *cfg, FILE *f)
{
	const char *prev = "";
	int open = 0;

	fprintf(f, "# dfly network configuration: every setting, effective values");
	if (cfg->path[0] != '\0')
		fprintf(f, " (read from %s)", cfg->path);
	fprintf(f, ".\n# Every setting, its default and range: docs/configuration.md.\n");

	for (size_t i = 0; i < NC_NSETTINGS; i++) {
		const struct nc_setting *s = &nc_settings[i];
		const char *leaf = strrchr(s->path, '.');
		char val[128], line[192];
		int keep;

		if (s->kind == NC_GROUP)
			continue;
		/* Close the groups not shared with the previous setting, open the new ones. */
		keep = nc_common_depth(prev, s->path);
		while (open > keep) {
			open--;
			nc_indent(f, open);
			fprintf(f, "};\n");
		}
		while (open < nc_depth(s->path)) {
			const char *start = s->path, *end;

			for (int d = 0; d < open; d++)
				start = strchr(start, '.') + 1;
			end = strchr(start, '.');
			if (open == 0)
				fputc('\n', f);
			nc_indent(f, open);
			fprintf(f, "%.*s = {\n", (int)(end - start), start);
			open++;
		}
		leaf = leaf ? leaf + 1 : s->path;

		switch (s->kind) {
		case NC_U32:
		case NC_U64: {
			int64_t v = nc_load_int(cfg, s);

			snprintf(val, sizeof(val), "%" PRId64 "%s", v, v > INT_MAX ? "L" : "");
			break;
		}
		case NC_INT:
			snprintf(val, sizeof(val), "%" PRId64, nc_load_int(cfg, s));
			break;
		case NC_DBL:
			nc_fmt_double(nc_load_double(cfg, s), val, sizeof(val));
			break;
		case NC_BOOL:
			snprintf(val, sizeof(val), "%s", nc_load_int(cfg, s) ? "true" : "false");
			break;
		case NC_ENUM: {
			int64_t idx = nc_load_int(cfg, s), n = 0;

			while (s->names[n] != NULL)
				n++;
			snprintf(val, sizeof(val), "\"%s\"",
				 idx >= 0 && idx < n ? s->names[idx] : "?");
			break;
		}
		case NC_STR: {
			char name[64];

			s->print(cfg, name, sizeof(name));
			snprintf(val, sizeof(val), "\"%s\"", name);
			break;
		}
		case NC_GROUP:
			break;
		}
		snprintf(line, sizeof(line), "%s = %s;", leaf, val);
		nc_indent(f, open);
		fprintf(f, "%-*s # %s\n", 36 - 8 * open, line, s->doc);
		prev = s->path;
	}
	while (open > 0) {
		open--;
		nc_indent(f, open);
		fprintf(f, "};\n");
	}
}

/* ---------------------------------------------------------------------------------------------
 * The table, described (docs/configuration.md)
 */

/** Write an integer bound: 2^32-1 and the like read better as powers of two. */
static void nc_fmt_bound(int64_t v, char *buf, size_t len)
{
	if (v == UINT32_MAX)
		snprintf(buf, len, "2^32-1");
	else if (v == NC_BUF_MAX)
		snprintf(buf, len, "2^24");
	else
		snprintf(buf, len, "%" PRId64, v);
}

int dfly_netcfg_setting_get(size_t i, struct dfly_netcfg_setting *d)
{
	const struct nc_setting *s = NULL;
	struct dfly_netcfg defaults;
	char lo[32], hi[32];

	for (size_t k = 0, n = 0; k < NC_NSETTINGS; k++) {
		if (nc_settings[k].kind == NC_GROUP)
			continue;
		if (n++ == i) {
			s = &nc_settings[k];
			break;
		}
	}
	if (s == NULL)
		return -ENOENT;
	memset(d, 0, sizeof(*d));
	d->path = s->path;
	d->required = s->required || (s->kind == NC_STR && s->sdef == NULL);
	d->doc = s->doc;
	switch (s->kind) {
	case NC_U32:
	case NC_U64:
	case NC_INT:
		d->type = "integer";
		if (!d->required)
			snprintf(d->def, sizeof(d->def), "%" PRId64, s->def);
		nc_fmt_bound(s->min, lo, sizeof(lo));
		nc_fmt_bound(s->max, hi, sizeof(hi));
		if (s->min == INT_MIN && s->max == INT_MAX)
			d->valid[0] = '\0'; /* checked with the settings it depends on */
		else if (s->max == INT64_MAX)
			snprintf(d->valid, sizeof(d->valid), ">= %s", lo);
		else
			snprintf(d->valid, sizeof(d->valid), "%s..%s", lo, hi);
		break;
	case NC_DBL:
		d->type = "number";
		nc_fmt_double(s->ddef, d->def, sizeof(d->def));
		snprintf(lo, sizeof(lo), "%.10g", s->dmin);
		snprintf(hi, sizeof(hi), "%.10g", s->dmax);
		snprintf(d->valid, sizeof(d->valid), "%s..%s", lo, hi);
		break;
	case NC_BOOL:
		d->type = "boolean";
		snprintf(d->def, sizeof(d->def), "%s", s->def ? "true" : "false");
		snprintf(d->valid, sizeof(d->valid), "true, false");
		break;
	case NC_ENUM: {
		size_t used = 0;

		d->type = "string";
		snprintf(d->def, sizeof(d->def), "\"%s\"", s->names[s->def]);
		for (size_t k = 0; s->names[k] != NULL && used < sizeof(d->valid); k++)
			used += (size_t)snprintf(d->valid + used, sizeof(d->valid) - used, "%s%s",
						 k ? ", " : "", s->names[k]);
		break;
	}
	case NC_STR:
		d->type = "string";
		if (d->required)
			break;
		/* the printer of the parsed default, so the default is what the loader makes of it
		 */
		memset(&defaults, 0, sizeof(defaults));
		if (s->parse(&defaults, s->sdef, lo, sizeof(lo)) == 0) {
			s->print(&defaults, hi, sizeof(hi));
			snprintf(d->def, sizeof(d->def), "\"%s\"", hi);
		} else {
			snprintf(d->def, sizeof(d->def), "\"%s\"", s->sdef);
		}
		break;
	case NC_GROUP:
		break;
	}
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * VC requirements (spec §2.2)
 */

void dfly_netcfg_reply_vcs(const struct dfly_netcfg *cfg, uint32_t *local, uint32_t *global)
{
	*local = *global = 0;
	if (!cfg->reqrep)
		return;
	*local = cfg->vc_reply_local != 0 ? cfg->vc_reply_local : cfg->vc_local / 2;
	*global = cfg->vc_reply_global != 0 ? cfg->vc_reply_global : cfg->vc_global / 2;
}

void dfly_netcfg_vc_needs(const struct dfly_netcfg *cfg, uint32_t *local, uint32_t *global,
			  uint8_t vc_map[DFLY_ROLE_COUNT])
{
	dfly_mode_vc_needs(cfg->mode, nc_val_group(cfg), local, global, vc_map);
}

/* ---------------------------------------------------------------------------------------------
 * What the configuration sets in the ASIC and the firmware
 */

void dfly_netcfg_knobs(const struct dfly_netcfg *cfg, struct dfly_regs_knobs *k)
{
	uint32_t l, g;

	k->mode = cfg->mode;
	k->val_variant = cfg->val_variant;
	k->val_recompute = cfg->val_recompute;
	k->val_exclude = cfg->val_exclude;
	k->flexvc = (uint32_t)cfg->flexvc;
	k->flexvc_sets = (uint32_t)cfg->flexvc_sets;
	if (cfg->reqrep) {
		uint32_t rl, rg;

		/* the request class: the first VCs; the reply class's start */
		dfly_netcfg_reply_vcs(cfg, &rl, &rg);
		k->reply_vc[DFLY_PORT_LOCAL] = cfg->vc_local - rl;
		k->reply_vc[DFLY_PORT_GLOBAL] = cfg->vc_global - rg;
		k->reply_consume = cfg->reply_consume == 1;
	}
	k->in_transit_priority = cfg->in_transit_priority;
	k->ugal_f_q8 = (uint32_t)lround(cfg->ugal_f * 256.0);
	k->ugal_t = (int32_t)lround(cfg->ugal_t * cfg->pkt_phits);
	k->res_t = (int32_t)lround(cfg->res_t * cfg->pkt_phits);
	k->mincred = cfg->mincred;
	k->ugal_per_port = cfg->ugal_occ == DFLY_OCC_PORT;
	k->ugal_remove_rtt = cfg->ugal_remove_rtt;
	k->ugal_commitment = cfg->ugal_commitment;
	k->ugal_hops = (uint32_t)cfg->ugal_weight;
	k->nonmin_needs_credits = cfg->cand_credits;
	k->reevaluate = cfg->reevaluate;
	k->pb_per_vc = cfg->pb_bits == DFLY_OCC_VC;
	k->pb_inband = nc_pb(cfg) && cfg->pb_exchange == DFLY_PB_INBAND;
	k->pb_piggy_every = cfg->pb_piggy_every;
	k->olm_x_pct = cfg->olm_x_pct;
	k->olm_min_pct = cfg->olm_min_pct;
	k->olm_sat = cfg->olm_sat;
	k->olm_sat_f_pct = (uint32_t)lround(cfg->olm_sat_f * 100.0);
	k->olm_sat_t = (int32_t)lround(cfg->olm_sat_t * cfg->pkt_phits);
	k->cc_th = cfg->cc_th;
	k->cc_strict = cfg->cc_compare == 1;
	k->cc_alpha_q8 = (uint32_t)lround(cfg->cc_alpha * 256.0);
	k->cc_weighted = cfg->cc_weighted;
	k->cc_check = cfg->cc_check;
	k->cc_cand_now = cfg->cc_candidate == 0;
	k->cc_head_at_tail = cfg->cc_head == 0;
	k->cand_draw_one = cfg->cand_draw == 1;
	k->hyb_th = cfg->hyb_th;
	k->hyb_y_pct = cfg->hyb_y_pct;
	k->hyb_any = cfg->hyb_any;
	k->ectn_thc = cfg->ectn_thc;
	k->ectn_own_live = cfg->ectn_own == 0;
	k->ctrl_charge = cfg->ctrl_charge;
	k->fw_ttl = cfg->fw_ttl;
	k->link_dead = cfg->link_dead;
	dfly_netcfg_vc_needs(cfg, &l, &g, k->vc_map);
	k->failover = dfly_netcfg_failover(cfg);
	k->vc_d2_long = k->vc_map[DFLY_ROLE_D2];
	if (k->failover && !nc_nonmin(cfg)) {
		/* the VAL positions for packets misrouted around a down link (nc_fail_possible) */
		k->vc_map[DFLY_ROLE_I1] = 1;
		k->vc_map[DFLY_ROLE_I2] = 2;
		k->vc_map[DFLY_ROLE_G2] = 1;
		k->vc_d2_long = 3;
	}
	k->vc_next = 0;
	k->vc_seq_n = 0;
	memset(k->vc_seq, 0, sizeof(k->vc_seq));
	if (cfg->vc_assign == 1) {
		/* the reference path in order (enum dfly_role is path order): the places of the
		 * roles it uses, MIN's under failover those of VAL's path it climbs (above) */
		unsigned roles = dfly_mode_roles(cfg->mode, nc_val_group(cfg));

		if (k->failover && !nc_nonmin(cfg))
			roles |= dfly_mode_roles(DFLY_MODE_VAL, false);
		k->vc_next = 1;
		for (uint32_t r = 0; r < DFLY_ROLE_COUNT; r++) {
			uint32_t kind = r == DFLY_ROLE_G1 || r == DFLY_ROLE_G2 ? DFLY_PORT_GLOBAL
									       : DFLY_PORT_LOCAL;
			uint32_t v = r == DFLY_ROLE_D2 ? k->vc_d2_long : k->vc_map[r];

			if ((roles >> r) & 1u)
				k->vc_seq[k->vc_seq_n++] = (uint8_t)(kind << 4 | v);
		}
	}
}

void dfly_netcfg_fw_params(const struct dfly_netcfg *cfg, struct fw_params *fp)
{
	fw_params_init(fp);
	fp->vc_global = cfg->vc_global;
	/* the machines the mechanism's registry entry names, and failover where it runs */
	fw_params_enable(fp, dfly_mode_fw(cfg->mode) |
				 (dfly_netcfg_failover(cfg) ? DFLY_FW_BIT(FAILOVER) : 0));
	fp->pb_period = cfg->pb_period;
	fp->pb_f_q8 = (uint32_t)lround(cfg->pb_f * 256.0);
	fp->pb_t = (int32_t)lround(cfg->pb_t * cfg->pkt_phits);
	fp->pb_avg_other = cfg->pb_avg == DFLY_PB_AVG_OTHER;
	fp->pb_per_vc = cfg->pb_bits == DFLY_OCC_VC;
	fp->pb_mincred = cfg->mincred;
	fp->pb_inband = cfg->pb_exchange == DFLY_PB_INBAND;
	fp->pb_send_unchanged = cfg->pb_send_unchanged;
	fp->ectn_period = cfg->ectn_period;
	fp->ectn_own_live = cfg->ectn_own == 0;
	fp->ectn_mode = (enum fw_ectn_mode)cfg->ectn_mode;
	fp->ectn_refresh = cfg->ectn_refresh;
	fp->ectn_async_delta = cfg->ectn_async_delta;
	fp->ectn_async_min_gap = cfg->ectn_async_min_gap;
	fp->ectn_age = cfg->ectn_age;
	fp->fail_period = cfg->fail_period;
	fp->fail_age = cfg->fail_age;
	fp->lia.window = cfg->lia_window;
	fp->lia.bucket = cfg->lia_bucket;
	fp->lia.w100 = (uint32_t)lround(cfg->lia_w * 100.0);
	fp->lia.gpsth = cfg->lia_gpsth;
	fp->lia.sgc = cfg->lia_sgc;
	fp->lia.rcth = cfg->lia_rcth;
	fp->lia.li_low = cfg->lia_li_low;
	fp->lia.li_high = cfg->lia_li_high;
	for (int i = 0; i < 3; i++)
		fp->lia.t_level[i] = (int32_t)lround(cfg->lia_t[i]);
	fp->lia.pkt_phits = cfg->pkt_phits;
	fp->lia.update = cfg->lia_update;
	fp->lia.shorten = cfg->lia_shorten;
	fp->lia.observe = cfg->lia_remote;
	fp->lia.acor_window = cfg->acor_window;
	fp->lia.it1 = cfg->acor_it1;
	fp->lia.it2 = cfg->acor_it2;
	fp->lia.dt1 = cfg->acor_dt1;
	fp->lia.dt2 = cfg->acor_dt2;
}

void dfly_netcfg_asic_params(const struct dfly_netcfg *cfg, struct asic_params *par)
{
	memset(par, 0, sizeof(*par));
	par->speedup = cfg->speedup;
	par->pipe_route = cfg->pipe_route;
	par->pipe_xbar = cfg->pipe_xbar;
	par->alloc_iters = cfg->alloc_iters;
	par->in_arb = cfg->in_arb;
	par->out_arb = cfg->out_arb;
	par->vcs[DFLY_PORT_TERMINAL] = cfg->vc_inj;
	par->vcs[DFLY_PORT_LOCAL] = cfg->vc_local;
	par->vcs[DFLY_PORT_GLOBAL] = cfg->vc_global;
	par->buf[DFLY_PORT_TERMINAL] = cfg->buf_inj;
	par->buf[DFLY_PORT_LOCAL] = cfg->buf_local;
	par->buf[DFLY_PORT_GLOBAL] = cfg->buf_global;
	par->buf_out = cfg->buf_out;
	par->lat_terminal = cfg->lat_terminal;
	par->inj_select = cfg->inj_select;
	par->credit_at_tail = cfg->credit_release == DFLY_REL_TAIL;
	par->out_free_at_tail = cfg->output_release == DFLY_REL_TAIL;
	par->node_consume = cfg->node_port == 1;
	par->alloc_once = cfg->allocations == 1;
	par->in_rr_request = cfg->input_rr == 1;
	par->inj_unpaced = !cfg->terminal_serialise;
	par->min_pkt_phits = cfg->pkt_phits;
	par->phit_bytes = cfg->phit_bytes;
	par->no_link_rate = !cfg->link_rate;
	if (cfg->buf_mode == DFLY_BUF_DAMQ) {
		par->damq = true;
		par->damq_penalty = cfg->damq_penalty;
		for (uint32_t k = DFLY_PORT_LOCAL; k <= DFLY_PORT_GLOBAL; k++)
			par->damq_res[k] = (uint32_t)floor(cfg->damq_reserve * par->buf[k] + 1e-9);
	}
}

uint32_t dfly_netcfg_min_buf(const struct dfly_netcfg *cfg)
{
	uint32_t m = cfg->buf_inj;

	if (cfg->buf_local < m)
		m = cfg->buf_local;
	if (cfg->buf_global < m)
		m = cfg->buf_global;
	if (cfg->buf_out < m)
		m = cfg->buf_out;
	return m;
}
