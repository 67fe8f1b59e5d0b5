/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The virtual-time fabric behind `dfly sim` (DESIGN.md §1, §4): builds one ASIC per router of a
 * network configuration, wires every local and global link with its latency, runs the Bernoulli
 * traffic sources and sinks of every node, and steps everything in a fixed order, one emulated
 * cycle at a time, so that the same configuration and seed give byte-identical results.
 *
 * A run is: warm-up, measurement window, drain (generation stopped), then the invariant checks
 * (packets conserved, credits back to buffer sizes, queues drained). A watchdog stops a run that
 * delivers nothing for sim.watchdog cycles while packets are queued (deadlock).
 */
#ifndef DFLY_FABRIC_H
#define DFLY_FABRIC_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "edge.h"
#include "netcfg.h"

struct dfly_fabric;
struct asic;

/** Results of one run (one mechanism, pattern, load and seed). */
/** Iterations of halo3d whose end a result records. */
#define DFLY_SIM_HALO_ITERS 16

struct dfly_sim_result {
	double offered;      /**< configured load, phits/(node·cycle) */
	double generated;    /**< load the sources attempted in the window */
	double accepted;     /**< phits delivered in the window / (window · nodes) */
	double accepted_rep; /**< traffic.reqrep: the replies' part of accepted (requests: the
				  rest) */
	double lat_avg_rep;  /**< traffic.reqrep: the replies' lat_avg */
	uint64_t completion; /**< a workload's (all-to-all, halo3d) completion: its last
				  delivery's cycle; its window is [0, completion] */
	/** halo3d: the cycle of the last delivery of each iteration but the last (the last's is
	 *  completion), the first DFLY_SIM_HALO_ITERS */
	uint64_t halo_iter_end[DFLY_SIM_HALO_ITERS];
	/** graph500: levels run, and the cycle each ended (the last broadcast's delivery) */
	uint32_t g5_levels;
	uint64_t g5_level_end[DFLY_G5_LEVELS];
	uint64_t g5_level_msgs[DFLY_G5_LEVELS]; /**< graph500: messages per level */
	uint32_t g5_root_degree;                /**< graph500: d_r */
	double g5_usage; /**< graph500: phits delivered / (completion · processes) */
	double lat_avg;  /**< cycles, generation → tail delivery, packets delivered in window */
	double lat_p50, lat_p99;
	uint64_t lat_max;
	double net_lat_avg;   /**< cycles, injection-queue exit → tail delivery */
	double misrouted_pct; /**< % of packets delivered in the window with a nonminimal route */
	double hops_avg;      /**< router-to-router hops per delivered packet */
	double lhops_avg, ghops_avg;
	double min_inj; /**< min over routers of injected phits/(node·cycle) (spec §8.5) */
	double max_min; /**< max/min injected per router (0 when min is 0) */
	double cov;     /**< σ/μ of injected per router */
	double jain;    /**< Jain's index (non-reference, spec §8.5) */
	uint64_t pkts_delivered; /**< in the window */
	uint64_t gen_total;      /**< packets accepted by the injection queues, whole run */
	uint64_t dlv_total;      /**< packets delivered, whole run */
	uint64_t drop_inj;       /**< generation attempts with no room (offered, not injected) */
	uint64_t drop_fabric;    /**< packets dropped inside the fabric (must be 0) */
	uint64_t in_flight;      /**< packets still in the network at the end */
	uint64_t cycles;         /**< cycles simulated */
	bool deadlock;           /**< the watchdog fired */
	bool drained;            /**< the network emptied within sim.drain cycles */
	bool invariants_ok;      /**< conservation + credits + queues, checked after the drain */
	char why[256];           /**< first invariant violation or watchdog report */
	bool interrupted;        /**< ended early by dfly_fabric_opts.stop: no drain, no checks */
	double wall_s;           /**< wall-clock seconds (not part of the deterministic output) */
	/** sim.lia_remote: LIA's remote counters R_k (spec §6.4), index k + h (k = −h..h, R_0
	 *  unused), each router's mean over the recomputations of the measurement window, then
	 *  the mean over the lia_r_routers routers; packets per routing.lia.window cycles (the
	 *  firmware's unit, spec §6.2 PROPOSAL, A-6.1: × packet.phits for LIA's phits) */
	double lia_r[2 * DFLY_MAX_H + 1];
	uint32_t lia_r_routers;
};

/**
 * Build the network of @p cfg for a run with @p seed. @return the fabric or NULL with errno
 * (EINVAL, ENOMEM); @p err gets a message.
 */
struct dfly_fabric *dfly_fabric_create(const struct dfly_netcfg *cfg, uint64_t seed, char *err,
				       size_t errlen);
void dfly_fabric_destroy(struct dfly_fabric *fab);

/** A scheduled link fault (dfly sim --link-down): the link of fabric port @p port of router
 *  @p router, both directions, is down from cycle @p down until cycle @p up (back up at the
 *  start of that cycle; 0: never). */
struct dfly_link_fault {
	uint32_t router;
	uint32_t port;
	uint64_t down;
	uint64_t up;
};

/** Where the register files live and who runs the firmware. */
struct dfly_fabric_opts {
	/** non-NULL: every router's register file is the POSIX shared-memory object
	 *  "/dfly.<instance>.r<router>" (created here, mode 0600, removed at destroy) and the
	 *  firmware runs outside, in dfly-controld; each cycle waits for it (lockstep), so the
	 *  run is identical to one with the firmware inside */
	const char *shm_instance;
	/** how long a cycle waits for the external firmware before the ASICs go on without it
	 *  (on their last tables) until it is back in step; 0 means 5000 ms */
	uint32_t fw_wait_ms;
	/** link faults to apply at their cycles (copied) */
	const struct dfly_link_fault *faults;
	uint32_t nfaults;
	/** control-frame faults on every fabric link (asic_link_set_ctrl_fault): the types of
	 *  ctrl_types (bit T = control type T; 0 = none) are lost with ctrl_loss_ppm per million
	 *  and the others delayed ctrl_delay cycles */
	uint32_t ctrl_types;
	uint32_t ctrl_loss_ppm;
	uint32_t ctrl_delay;
	/** packets per chunk of a packet pool (0: 65,536). With sim.threads and sim.batch each
	 *  thread has a pool, and after each batch one with fewer than pool_chunk / 8 (at least
	 *  16) free packets takes some of the richest one's. A pool never changes the results:
	 *  small chunks are for tests (tests/sim/test_threads.c) */
	uint32_t pool_chunk;
	/** non-NULL: dfly_fabric_run ends early once *stop is non-zero (set by a signal
	 *  handler), checked every 1024 cycles at most and while a cycle waits for the external
	 *  firmware; the result says res->interrupted, and the caller destroys the fabric, which
	 *  removes the register files */
	const volatile sig_atomic_t *stop;
	/** [node]: the nodes that run a generator (copied); NULL: every node (dfly verify: the
	 *  run's, where some nodes were hosts) */
	const bool *gen_node;
	/** the shortest packet the ASICs are sized for, phits, if shorter than packet.phits (0:
	 *  packet.phits): host frames dfly_fabric_inject_host() will replay */
	uint32_t min_pkt_phits;
};

/** dfly_fabric_create() with options (NULL: the defaults, firmware inside). */
struct dfly_fabric *dfly_fabric_create_opts(const struct dfly_netcfg *cfg, uint64_t seed,
					    const struct dfly_fabric_opts *o, char *err,
					    size_t errlen);

/**
 * A host's frame entering at node @p node at the current cycle (dfly_fabric_now(), before the
 * cycle's generators), to node @p dst, @p len phits: dfly verify replays a dfly-switch run's
 * host ingress. As dfly-switch's host port does it: a packet that is not a generator's (no
 * edge statistics; the delivery tap sees it as a host frame), refused when no injection VC has
 * room (drop.inj_full). @return 0, 1 refused, or -EINVAL (a node out of range, a length out
 * of dfly_fabric_opts.min_pkt_phits .. the smallest buffer), -ENOMEM.
 */
int dfly_fabric_inject_host(struct dfly_fabric *fab, uint32_t node, uint32_t dst, uint32_t len);

/** The packet pools: chunks allocated (all threads), packets moved between threads' pools. */
void dfly_fabric_pool_stats(const struct dfly_fabric *fab, uint32_t *chunks, uint64_t *moved);

/** Cycles run without the external firmware in step (0 with the firmware inside). */
uint64_t dfly_fabric_fw_absent_cycles(const struct dfly_fabric *fab);

/**
 * Run warm-up, measurement and drain, then check the invariants. @p progress: print a progress
 * line on stderr when the run lasts more than a few seconds.
 * @return 0, -EDEADLK if the watchdog fired (res->why says where), or -EINTR if
 * dfly_fabric_opts.stop ended it (res->interrupted; nothing after the cycle it stopped at).
 */
int dfly_fabric_run(struct dfly_fabric *fab, struct dfly_sim_result *res, bool progress);

/* Lower-level control, for tests and transient experiments. */

/** Step @p cycles cycles with the sources generating at the current load. */
int dfly_fabric_step(struct dfly_fabric *fab, uint64_t cycles);
/** Set the offered load (0 stops generation). */
void dfly_fabric_set_load(struct dfly_fabric *fab, double load);
/** Packets in the network: injection queues, routers, links. */
uint64_t dfly_fabric_in_flight(const struct dfly_fabric *fab);

/** Threads stepping the routers (sim.threads; at most one per router). A
 *  cycle with a capture, UGAL-G or an external firmware is stepped on one. */
uint32_t dfly_fabric_threads(const struct dfly_fabric *fab);
/**
 * Fault: stop (or restart) the firmware of router @p r: its fw_tick is skipped from the next
 * cycle on, so its heartbeat, broadcasts and tables stand still; a restarted firmware resumes
 * at the current cycle (its missed timers are counted). In-process firmware only.
 * @return 0, -EINVAL (no such router, or external firmware) or -ENOMEM.
 */
int dfly_fabric_fw_set_stopped(struct dfly_fabric *fab, uint32_t r, bool stopped);

/**
 * Fault: take the link of fabric port @p port of router @p r down (both directions: both ends'
 * ports, asic_port_set_down()) or back up, from the next cycle on. Packets on the wire arrive;
 * packets granted to a down port wait in its output FIFO; with routing.failover the routers
 * route around it. @return 0, or -EINVAL (no such router, or a terminal port).
 */
int dfly_fabric_link_set_down(struct dfly_fabric *fab, uint32_t r, uint32_t port, bool down);

/** Check conservation, credits and drained queues. @return 0 or -EBUSY with @p why. */
int dfly_fabric_check_invariants(const struct dfly_fabric *fab, bool drained, char *why,
				 size_t len);
/** Register file of router @p r (read-only use). */
const struct dfly_regs *dfly_fabric_regs(const struct dfly_fabric *fab, uint32_t r);
/** The ASIC of router @p r (read-only use: asic_damq_stat(), asic_credits_avail()). */
const struct asic *dfly_fabric_asic(const struct dfly_fabric *fab, uint32_t r);
struct fw;
/** Firmware of router @p r (for its counters), or NULL when it runs outside (dfly-controld). */
const struct fw *dfly_fabric_fw(const struct dfly_fabric *fab, uint32_t r);
/** The topology. */
const struct dfly_topo *dfly_fabric_topo(const struct dfly_fabric *fab);
/** Current cycle. */
uint64_t dfly_fabric_now(const struct dfly_fabric *fab);
/** Totals: packets injected into queues, delivered, dropped at generation. */
void dfly_fabric_totals(const struct dfly_fabric *fab, uint64_t *gen, uint64_t *dlv,
			uint64_t *drop_inj);

struct dfly_capture_stats;

/**
 * Capture the run to pcap file @p path (include/dfly/trace.h) with the capture.* settings of
 * the configuration: points, routers, ports, sampling, snap length, rotation, metadata. Call
 * before the run. @return 0, or a negative errno with the reason in @p err.
 */
int dfly_fabric_capture(struct dfly_fabric *fab, const char *path, char *err, size_t errlen);

/** Close the capture (also done by dfly_fabric_destroy); its counts go to @p st (may be NULL).
 *  @return 0 or -EIO (the file could not be written whole). */
int dfly_fabric_capture_close(struct dfly_fabric *fab, struct dfly_capture_stats *st);

/**
 * Install (or remove, with NULL) the delivery tap. It is called from one thread at a time: with
 * sim.threads and sim.batch, the batches then run on the caller's thread alone.
 */
void dfly_fabric_set_tap(struct dfly_fabric *fab, dfly_delivery_fn *fn, void *ctx);

/**
 * The same, for a tap that may be called from several threads at once (sim.threads with
 * sim.batch: each thread delivers its routers' packets), so the batches keep their threads.
 */
void dfly_fabric_set_tap_concurrent(struct dfly_fabric *fab, dfly_delivery_fn *fn, void *ctx);

/**
 * Switch every node to another spatial pattern from the next generated packet on (transient
 * experiments, spec §7.4). "perm" draws a new derangement from the run's seed.
 * @return 0 or -EINVAL (adv offset that maps a group onto itself).
 */
int dfly_fabric_set_pattern(struct dfly_fabric *fab, enum dfly_pattern pattern, int adv_offset);

/**
 * Write every router's non-zero counters (register file: ports, VCs, gauges, drops, routing
 * decisions), its firmware's counters and sim.inj_window (packets that left its injection
 * buffers during the measurement window, after a run), one "name value" line each, router by
 * router.
 */
void dfly_fabric_dump_counters(const struct dfly_fabric *fab, FILE *f);
/** Bring every router's gauges up to date (asic_sync_gauges()), as before a final dump. */
void dfly_fabric_sync_gauges(struct dfly_fabric *fab);

/** Packets that left router @p r's injection buffers during the measurement window (after a
 *  run; what the unfairness metrics of spec §8.5 are computed from). */
uint64_t dfly_fabric_inj_window(const struct dfly_fabric *fab, uint32_t r);

/** Destination node of a packet from @p src under the configured pattern (for tests). */
uint32_t dfly_fabric_pick_dst(struct dfly_fabric *fab, uint32_t src);

#endif /* DFLY_FABRIC_H */
