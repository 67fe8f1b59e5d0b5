/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The network configuration of dfly (DESIGN.md §6): what is emulated (topology, router, buffers,
 * VCs, links, packet, routing mechanism, traffic, measurement protocol), read from a libconfig
 * file with `--set PATH=VALUE` overrides. Every error names the file, the line and the setting;
 * nothing starts with an invalid configuration. Every PROPOSAL of docs/spec.md that concerns
 * these settings is a setting here, with the proposed default.
 *
 * Used by `dfly sim` (tools/) and later by dfly-switch (dataplane/). Not used inside asic-emu/.
 */
#ifndef DFLY_NETCFG_H
#define DFLY_NETCFG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dfly/mode.h"
#include "dfly/regs.h"
#include "dfly/topo.h"

/** Most group offsets traffic.mix_offsets (the adv-mix pattern) lists. */
#define DFLY_MIX_MAX_OFFSETS 8

/** Spatial traffic patterns (spec §7.2). */
enum dfly_pattern {
	DFLY_PAT_UN = 0, /**< "un": uniform over all other nodes */
	DFLY_PAT_ADV,    /**< "adv+N" / "adv-N": uniform node of group (G + N) mod g */
	DFLY_PAT_ADVC,   /**< "advc": uniform node of groups G+1 … G+h (σ = −1) */
	DFLY_PAT_PERM,   /**< "perm": fixed random node-level derangement */
	DFLY_PAT_C1,     /**< "c1": four areas of consecutive groups, UN / ADV+1 / ADV+h / ADVc */
	DFLY_PAT_C2,     /**< "c2": odd nodes ADV+1, even nodes ADV+h, each to its own parity */
	DFLY_PAT_BURSTY, /**< "bursty-un": ON/OFF sources, a uniform destination per burst */
	DFLY_PAT_MIX,    /**< "mix": UN with probability traffic.mix_un, else ADV+1, per packet */
	DFLY_PAT_A2A,    /**< "all-to-all": linear shift to completion (spec 7.6), a workload */
	DFLY_PAT_HALO,   /**< "halo3d": 27-point stencil iterations (spec 7.8), a workload */
	DFLY_PAT_G500,   /**< "graph500": the BFS's synthetic model (spec 7.7), a workload */
	DFLY_PAT_ADVMIX, /**< "adv-mix": an even mix of ADV+N over traffic.mix_offsets, per packet
			  */
	DFLY_PAT_COUNT
};

/** What a node does with a generated packet when no injection VC has room (spec §3.8). */
enum dfly_source_mode {
	DFLY_SRC_SKIP = 0,  /**< "skip": drop the attempt, count it as offered-not-injected */
	DFLY_SRC_UNBOUNDED, /**< "unbounded": keep it in an unbounded source queue */
};

/**
 * When a router frees buffer space a departing packet held (spec §3.3, A-3.3). EARLY is the
 * FOGSim reading [xcheck]: the input slot and its credit at the grant, the output FIFO slot when
 * the head starts onto the link; safe whenever the space cannot be refilled before the last
 * phit has left (link latency ≥ packet drain time). TAIL holds the space until the tail leaves.
 */
enum dfly_release {
	DFLY_REL_EARLY = 0, /**< "grant" (input/credit) or "start" (output): default */
	DFLY_REL_TAIL,      /**< "tail": when the packet's last phit leaves */
};

/** Input buffer organisation of local and global ports (spec §3.9). */
enum dfly_buf_mode {
	DFLY_BUF_STATIC = 0, /**< "static": one fixed partition per VC (default) */
	DFLY_BUF_DAMQ,       /**< "damq": the port's VCs share its memory, a reserve per VC */
};

/** Occupancy granularity for UGAL's Q and PB's bits. */
enum dfly_occ {
	DFLY_OCC_VC = 0, /**< "vc": per VC */
	DFLY_OCC_PORT,   /**< "port": whole port */
};

/** PB's Q̄. */
enum dfly_pb_avg {
	DFLY_PB_AVG_ALL = 0, /**< "all": every global channel of the router, itself included */
	DFLY_PB_AVG_OTHER,   /**< "other": the other global channels (IAR) */
};

/** PB information exchange. */
enum dfly_pb_exchange {
	DFLY_PB_OOB = 0, /**< "oob": PB_STATE control frames every period (thesis/FOGSim) */
	DFLY_PB_INBAND,  /**< "inband": piggybacked in data headers + info flits (IAR) */
};

/** Every setting, with its path in the file and its default. */
struct dfly_netcfg {
	char path[512]; /**< file the configuration came from */

	/* topology.* */
	uint32_t p, a, h, t; /**< topology.{p,a,h,t}; no default (required), t = 1 */
	enum dfly_arrangement
	    arr;   /**< topology.arrangement: "palmtree" (default) | "consecutive" */
	int sigma; /**< topology.sigma: -1 (default, spec §1.4) or +1 */

	/* router.* */
	uint32_t speedup;         /**< router.speedup: internal speedup S, default 2 */
	uint32_t pipe_route;      /**< router.route_cycles: RO+IA+OA, default 2 (A-3.1) */
	uint32_t pipe_xbar;       /**< router.xbar_cycles: crossbar traversal, default 3 */
	uint32_t alloc_iters;     /**< router.alloc_iters: allocator iterations, default 1 */
	enum dfly_arb in_arb;     /**< router.input_arbiter: "rr" (default) | "lrs" | "age" */
	enum dfly_arb out_arb;    /**< router.output_arbiter: "rr" (default) | "lrs" | "age" */
	bool in_transit_priority; /**< router.in_transit_priority: default false */
	enum dfly_release credit_release; /**< router.credit_release: "grant" (default) | "tail" */
	enum dfly_release output_release; /**< router.output_release: "start" (default) | "tail" */
	int node_port;      /**< router.node_port: 0 "fifo" (default) | 1 "consume" (FOGSim) */
	int allocations;    /**< router.allocations: 0 "speedup" (default) | 1 "one" (FOGSim) */
	int input_rr;       /**< router.input_rr: 0 "grant" (default) | 1 "request" (FOGSim) */
	uint32_t fw_ttl;    /**< router.firmware_ttl: safe mode after this many silent cycles */
	uint32_t link_dead; /**< router.link_dead_cycles: discard what waits for a dead link */
	bool ctrl_charge;   /**< router.ctrl_charge: control frames occupy their link, default false
				 the papers did not charge them) */

	/* buffers.* (phits) */
	uint32_t buf_inj;      /**< buffers.injection: per injection VC, default 256 */
	uint32_t buf_local;    /**< buffers.local: per local input VC, default 32 */
	uint32_t buf_global;   /**< buffers.global: per global input VC, default 256 */
	uint32_t buf_out;      /**< buffers.output: per output port FIFO, default 32 */
	int buf_mode;          /**< buffers.mode: enum dfly_buf_mode, default "static" */
	double damq_reserve;   /**< buffers.damq_reserve: share of a VC's size reserved to it,
				    default 0.75 (spec §3.9) */
	uint32_t damq_penalty; /**< buffers.damq_penalty: cycles per DAMQ write and read, 0 */

	/* vcs.* */
	uint32_t vc_inj;    /**< vcs.injection: default 3 */
	uint32_t vc_local;  /**< vcs.local: default 4 */
	uint32_t vc_global; /**< vcs.global: default 2 */
	int flexvc;         /**< vcs.flexvc: enum dfly_flexvc_sel, default 0 "off" (spec 2.4) */
	int flexvc_sets;    /**< vcs.flexvc_sets: enum dfly_flexvc_sets, default 0 "path" */
	int vc_assign;      /**< vcs.assign: 0 "role" (default, spec 2.2) | 1 "next" (FOGSim v5
				 vcMngmt::nextChannel) */
	uint32_t vc_reply_local;  /**< vcs.reply_local: reply class's local VCs (0: half) */
	uint32_t vc_reply_global; /**< vcs.reply_global: reply class's global VCs (0: half) */

	/* links.* (cycles) */
	uint32_t lat_local;      /**< links.local_latency: default 10 */
	uint32_t lat_global;     /**< links.global_latency: default 100 */
	uint32_t lat_terminal;   /**< links.terminal_latency: node↔router, default 1 */
	bool terminal_serialise; /**< links.terminal_serialise: default true */

	/* packet.* and clock.* */
	uint32_t pkt_phits;  /**< packet.phits: packet length L, default 8 */
	uint32_t phit_bytes; /**< packet.phit_bytes: default 10 */
	bool link_rate;      /**< clock.link_rate: one phit per cycle per link (true) */
	double cycle_ns;     /**< clock.cycle_ns: ns per cycle (pcap timestamps, real time), 1.0 */

	/* routing.* */
	enum dfly_route_mode mode;         /**< routing.mechanism: "min" | "val"; required */
	enum dfly_val_variant val_variant; /**< routing.val.path_a: "lgl" (default) | "lg-" | ... */
	bool val_recompute;                /**< routing.val.recompute: default false (spec §4.3) */
	enum dfly_val_exclude val_exclude; /**< routing.val.exclude: "src+dst" (default) | "src" */
	bool cand_credits; /**< routing.candidate_credits: default true (spec §4.1) */
	bool reevaluate;   /**< routing.reevaluate: default true (A-3.4) */
	double ugal_f;     /**< routing.ugal.f: F of UGAL-L, default 2 (IAR eq. 2) */
	double ugal_t;     /**< routing.ugal.t: T in packets, default 3 */
	double res_t;      /**< routing.res.t: RES's T in packets, default 3 (IAR §4.1, CFG-I) */
	bool mincred; /**< routing.mincred: the misrouting decision reads the occupancy of minimally
			   routed packets only (spec 2.4, thesis 5.2.4); default false */
	enum dfly_occ ugal_occ;  /**< routing.ugal.occupancy: "vc" (default, A-4.4) | "port" */
	bool ugal_remove_rtt;    /**< routing.ugal.remove_rtt: Q without the link's credit round
				      trip (IAR's BookSim); default false (spec §3.3) */
	bool ugal_commitment;    /**< routing.ugal.commitment: Q also counts the heads routed to
				      the output, not yet granted (IAR's BookSim); default false */
	int ugal_weight;         /**< routing.ugal.weight: 0 "f" (default, IAR eq. 2) | 1 "hops"
				      (FOGSim v5: each queue times its path's router hops) | 2
				      "fogsim" (those hops as FOGSim v5 counts them) */
	double pb_f;             /**< routing.pb.f: F of the saturation bit, default 2 (A-4.3) */
	double pb_t;             /**< routing.pb.t: T in packets, default 3 (CBAR Table I) */
	enum dfly_pb_avg pb_avg; /**< routing.pb.average: "all" (default, A-4.1) | "other" */
	enum dfly_occ pb_bits;   /**< routing.pb.bits: "vc" (default) | "port" */
	enum dfly_pb_exchange pb_exchange; /**< routing.pb.exchange: "oob" (default) | "inband" */
	uint32_t pb_period;                /**< routing.pb.period: cycles, default 1 (A-4.2) */
	uint32_t pb_piggy_every; /**< routing.pb.piggyback_every: default 1 (IAR §6.5: 100 ok) */
	bool pb_send_unchanged;  /**< routing.pb.send_unchanged: default true (A-4.2) */
	uint32_t olm_x_pct;      /**< routing.olm.threshold_pct: X, default 50 (CBAR Table I) */
	uint32_t olm_min_pct;    /**< routing.olm.min_occupancy_pct: default 0 (FOGSim th_min) */
	bool olm_sat;            /**< routing.olm.saturation: default true (FOGSim's CGA) */
	double olm_sat_f;        /**< routing.olm.saturation_f: F, default 1.5 (FOGSim) */
	double olm_sat_t;        /**< routing.olm.saturation_t: T in packets, default 5 (FOGSim) */
	/* contention counters (spec §5) */
	uint32_t cc_th;       /**< routing.cc.threshold: th, default 6 (CBAR Table I) */
	int cc_compare;       /**< routing.cc.compare: 0 ">=" (default, A-5.1) | 1 ">" */
	double cc_alpha;      /**< routing.cc.alpha: Filtered α, default 0.5 (A-5.4) */
	bool cc_weighted;     /**< routing.cc.weighted: probabilistic trigger, default false */
	bool cc_check;        /**< routing.cc.check: recompute and compare every cycle (debug) */
	int cc_candidate;     /**< routing.cc.candidate: 0 "now" (default) | 1 "credits" */
	int cc_head;          /**< routing.cc.head: 0 "tail" (default) | 1 "grant" */
	int cand_draw;        /**< routing.candidate_draw: 0 "all" (default) | 1 "one" (FOGSim) */
	uint32_t hyb_th;      /**< routing.hybrid.threshold: th_h, default 7 (CBAR; thesis 8) */
	uint32_t hyb_y_pct;   /**< routing.hybrid.credit_pct: Y, default 35 (CBAR Table I) */
	bool hyb_any;         /**< routing.hybrid.any_candidate: FOGSim flag, default false */
	uint32_t ectn_thc;    /**< routing.ectn.threshold: thc, default 10 (CBAR Table I) */
	uint32_t ectn_period; /**< routing.ectn.period: cycles between broadcasts, default 100 */
	/* routing.lia.* (spec §6.9; TPR shares window, bucket, levels and T) and routing.acor.* */
	uint32_t lia_window;  /**< routing.lia.window: HW, cycles, default 200 */
	uint32_t lia_bucket;  /**< routing.lia.bucket: B, cycles, default 10 */
	double lia_w;         /**< routing.lia.w: weight of stored packets, default 0.1 */
	uint32_t lia_gpsth;   /**< routing.lia.gpsth: default 5 packets */
	uint32_t lia_sgc;     /**< routing.lia.sgc: default 3 */
	uint32_t lia_rcth;    /**< routing.lia.rcth: default 20 packets */
	uint32_t lia_li_low;  /**< routing.lia.li_low: default 3 packets */
	uint32_t lia_li_high; /**< routing.lia.li_high: default 5 packets */
	double lia_t[3];      /**< routing.lia.t_benign / t_mix / t_adv: +15, -3, -15 packets */
	uint32_t lia_update;  /**< routing.lia.update: cycles between recomputations, default 1 */
	bool lia_shorten;     /**< routing.lia.shorten: L1/L2 decided (default) or LGL always */
	uint32_t acor_window; /**< routing.acor.window: HI, cycles, default 500 */
	uint32_t acor_it1, acor_it2, acor_dt1, acor_dt2; /**< routing.acor.*: 15, 50, 5, 15 */
	/* capture.* (include/dfly/trace.h; `dfly sim --capture`) */
	char cap_file[256];     /**< capture.file: "" (default) captures nothing */
	uint32_t cap_points;    /**< capture.points: mask of enum dfly_trace_point, default all */
	char cap_routers[256];  /**< capture.routers: "all" (default) or a list like 0-5,8 */
	uint64_t cap_ports;     /**< capture.ports: mask of ports, default all */
	uint32_t cap_sample;    /**< capture.sample: 1 in N packets, default 1 */
	uint32_t cap_snaplen;   /**< capture.snaplen: bytes per record kept, default 256 */
	uint32_t cap_rotate_kb; /**< capture.rotate_kb: new file every N KiB, 0 (default) never */
	bool cap_meta;          /**< capture.meta: metadata records (DLT_USER0), default true */
	int ectn_own;           /**< routing.ectn.own: 0 "live" (default, A-5.6) | 1 "broadcast" */
	int ectn_mode; /**< routing.ectn.mode: enum fw_ectn_mode, 0 "full" (default) | 1 "sparse" |
			    2 "incremental" | 3 "async" (spec 5.6 lighter alternatives 1-3) */
	uint32_t ectn_refresh;       /**< routing.ectn.refresh: incremental, default 10 periods */
	uint32_t ectn_async_delta;   /**< routing.ectn.async_delta: async, default 4 */
	uint32_t ectn_async_min_gap; /**< routing.ectn.async_min_gap: async, default 10 cycles */
	uint32_t ectn_age; /**< routing.ectn.age: periods before a silent neighbour's copy is 0 */
	int fail_mode;     /**< routing.failover.enabled: 0 "auto" (default) | 1 "on" | 2 "off" */
	uint32_t fail_period; /**< routing.failover.period: LINK_STATE refresh, default 100 */
	uint32_t fail_age;    /**< routing.failover.age: periods before a silent row clears (4) */

	/* traffic.* */
	enum dfly_pattern pattern; /**< traffic.pattern: "un" (default) | "adv+N" | ... */
	int adv_offset;            /**< N of adv+N / adv-N; 1 for mix (its ADV+1) */
	double burst_len;          /**< traffic.burst_length: bursty-un's B, packets */
	double mix_un;             /**< traffic.mix_un: mix's share of UN packets */
	uint32_t advc_groups;      /**< traffic.advc_groups: ADVc's consecutive groups, 0 = h */
	int mix_offs[DFLY_MIX_MAX_OFFSETS]; /**< traffic.mix_offsets: adv-mix's group offsets */
	uint32_t mix_noffs;                 /**< how many (0: none given) */
	bool reqrep;                        /**< traffic.reqrep: request-reply (spec 7.5) */
	int placement; /**< traffic.placement: 0 consecutive, 1 random, 2 default (the workload's:
			    all-to-all and graph500 consecutive, halo3d random;
			  dfly_netcfg_placement_random())
			*/
	uint32_t halo_dims[3]; /**< traffic.halo.px, .py, .pz: the process grid; 0, 0, 0 = auto */
	int reply_consume;     /**< traffic.reply: 0 "queue" (default), 1 "consume" (FOGSim) */
	uint32_t halo_cube;    /**< traffic.halo.cube: a process's cube side, elements (32) */
	uint32_t halo_iters;   /**< traffic.halo.iterations: default 3 */
	uint64_t halo_compute; /**< traffic.halo.compute: cycles between barrier and iteration */
	/* traffic.graph500.* (spec 7.7; defaults LIA 5.3's s, f_e, c_s, levels, d_r) */
	uint32_t g5_scale;        /**< .scale: s (20) */
	uint32_t g5_edge_factor;  /**< .edge_factor: f_e (16) */
	uint32_t g5_coalescing;   /**< .coalescing: c_s (256) */
	double g5_query_cycles;   /**< .query_cycles: t_q/t_c (0: network-bound, no consumption) */
	uint32_t g5_root_degree;  /**< .root_degree: d_r (3); 0 drawn (eq. 2.18) */
	uint32_t g5_max_levels;   /**< .max_levels: 5 */
	uint32_t g5_processes;    /**< .processes: 0 every node */
	uint32_t g5_msg_packets;  /**< .message_packets: 0 = ceil(4096 B / packet) */
	int g5_coef;              /**< .coefficients: 0 "thesis", 1 "fogsim" */
	uint64_t workload_cycles; /**< sim.workload_cycles: a workload's cycle limit */
	double load;              /**< traffic.load: phits/(node·cycle), default 0.1 */
	enum dfly_inj_select inj_select; /**< traffic.injection_vc: "jsq" (default) | ... */
	enum dfly_source_mode source;    /**< traffic.source: "skip" (default) | "unbounded" */

	/* sim.* (cycles) */
	uint64_t warmup;   /**< sim.warmup: default 60000 */
	uint64_t measure;  /**< sim.measure: default 60000 */
	uint64_t drain;    /**< sim.drain: max cycles to drain after measuring, default 200000 */
	uint64_t watchdog; /**< sim.watchdog: cycles without delivery with packets queued, 10000 */
	uint64_t seed;     /**< sim.seed: default 1 */
	uint32_t seeds;    /**< sim.seeds: runs per load with seed, seed+1, …; default 1 */
	uint32_t threads;  /**< sim.threads: threads stepping the routers of a cycle; default 1
			    (DFLY_SIM_THREADS in the environment of dfly sim, dfly transient
			    and the sim tests overrides it: their front-ends set it here) */
	bool batch;        /**< sim.batch: one thread steps each router several cycles in a row
			    (up to the smallest link latency), the same results; default true */
	bool lia_remote;   /**< sim.lia_remote: the firmware keeps LIA's remote counters R_k
			    whatever the mechanism, and dfly sim reports their mean over the
			    measurement window (packets per routing.lia.window); default false */
};

/** Longest error message dfly_netcfg_load() writes. */
#define DFLY_NETCFG_ERRLEN 512

/**
 * Read @p path, apply the @p nsets overrides "PATH=VALUE" in order, validate, and fill @p cfg.
 *
 * On error nothing in @p cfg may be used; @p err receives one line of the form
 *   "FILE:LINE: SETTING: what is wrong (what was expected)"
 * or, for an override, "--set PATH=VALUE: SETTING: what is wrong".
 *
 * @return 0, -ENOENT (file missing), -EINVAL (syntax, type, range or consistency error).
 */
int dfly_netcfg_load(struct dfly_netcfg *cfg, const char *path, const char *const *sets, int nsets,
		     char *err, size_t errlen);

/**
 * dfly_netcfg_load() where errors name override i by @p labels[i] instead of "--set SETS[i]"
 * (@p labels, or an entry of it, may be NULL: "--set"). A front-end that turns one of its own
 * options into a setting (dfly sim --seeds -3 into sim.seeds=-3) names the option the user
 * typed: "--seeds -3: sim.seeds: -3 is out of range (expected 1..10000)".
 */
int dfly_netcfg_load_labelled(struct dfly_netcfg *cfg, const char *path, const char *const *sets,
			      const char *const *labels, int nsets, char *err, size_t errlen);

/** Write the effective configuration as a libconfig file (reloadable, all settings). */
void dfly_netcfg_dump(const struct dfly_netcfg *cfg, FILE *f);

/** One setting of a network file as the loader's table describes it (docs/configuration.md). */
struct dfly_netcfg_setting {
	const char *path; /**< dotted path, e.g. "router.speedup" */
	const char *type; /**< "integer", "number", "boolean" or "string" */
	bool required;    /**< no default: the file or a --set must give it */
	char def[64];     /**< the default as a file writes it ("2", "0.5", "true", "\"rr\""); "" if
			       required */
	char valid[192];  /**< what the loader accepts for it alone: "1..8", "rr, lrs, age"; "" when
			       the description says (free-form strings); rules that tie settings
			       together (VCs per mechanism, buffers that hold a packet) are not here
			   */
	const char *doc;  /**< one-line description (also the comment of dfly_netcfg_dump()) */
};

/**
 * Describe setting @p i of the loader's table, in table order (groups left out), so that a
 * reference generated from it cannot miss a setting or disagree with the loader.
 *
 * @return 0, or -ENOENT when @p i is past the last setting.
 */
int dfly_netcfg_setting_get(size_t i, struct dfly_netcfg_setting *s);

/* Mechanism names (routing.mechanism): dfly_mode_name() and dfly_mode_lookup() of the registry,
 * dfly/mode.h. Pattern names: dfly_pattern_name() below. */

/**
 * Parse a list of ids below @p max ("all", or "0-5,8") into @p map (max bytes, 1 = listed;
 * may be NULL to only check). @return 0 or -EINVAL.
 */
int dfly_netcfg_parse_list(const char *s, uint32_t max, uint8_t *map);

/** Parse capture point names ("all" or "port_tx,host_rx"). @return 0 or -EINVAL. */
int dfly_netcfg_parse_points(const char *s, uint32_t *mask);
const char *dfly_pattern_name(const struct dfly_netcfg *cfg, char *buf, size_t len);

/** Whether routing.failover runs for @p cfg ("auto": every mode but MIN without 4/2 VCs). */
bool dfly_netcfg_failover(const struct dfly_netcfg *cfg);

/** Is the pattern a workload run to completion (all-to-all, halo3d, graph500)? */
bool dfly_netcfg_workload(const struct dfly_netcfg *cfg);

/** The workload's name ("all-to-all", "halo3d", "graph500"), or NULL for a steady pattern. */
const char *dfly_netcfg_workload_name(const struct dfly_netcfg *cfg);

/** graph500: packets per message (traffic.graph500.message_packets, 0: ceil(4096 B / packet),
 *  spec 7.7 PROPOSAL). */
uint32_t dfly_netcfg_g5_msg_packets(const struct dfly_netcfg *cfg);

/** Are the workload's tasks placed on a random permutation of the nodes (traffic.placement,
 *  "default": all-to-all consecutive, halo3d random)? */
bool dfly_netcfg_placement_random(const struct dfly_netcfg *cfg);

/** traffic.reqrep: the VCs of the reply class per port (the last ones); 0, 0 without it. */
void dfly_netcfg_reply_vcs(const struct dfly_netcfg *cfg, uint32_t *local, uint32_t *global);

/**
 * VCs the configured mechanism needs per local and global port (spec §2.2): MIN 2/1; VAL with a
 * router S_ROOT (lgl, -gl) 4/2; VAL-group (lg-, -g-) 3/2. Also fills the role → VC map.
 */
void dfly_netcfg_vc_needs(const struct dfly_netcfg *cfg, uint32_t *local, uint32_t *global,
			  uint8_t vc_map[DFLY_ROLE_COUNT]);

/** The ASIC knobs the configuration sets (mode, Valiant, UGAL, PB in-band, OLM, VC map). */
void dfly_netcfg_knobs(const struct dfly_netcfg *cfg, struct dfly_regs_knobs *k);

struct asic_params;
/** The ASIC parameters the configuration sets (router, buffers, VCs, releases, phit bytes);
 *  min_pkt_phits is the generators' packet length. */
void dfly_netcfg_asic_params(const struct dfly_netcfg *cfg, struct asic_params *par);

/** The smallest buffer a packet crosses (injection, local, global input VC or output FIFO). */
uint32_t dfly_netcfg_min_buf(const struct dfly_netcfg *cfg);

struct fw_params;
/** The firmware parameters the configuration sets (PB; T converted from packets to phits). */
void dfly_netcfg_fw_params(const struct dfly_netcfg *cfg, struct fw_params *fp);

#endif /* DFLY_NETCFG_H */
