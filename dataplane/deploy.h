/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Deployment file of dfly-switch (DESIGN.md §6): where the network of a network file runs. One
 * libconfig file per dfly-switch process says which routers it hosts and on which lcores, which
 * device realises each fabric port whose peer router is not hosted here, which host (MAC, IPv4,
 * device) is which node, which nodes run the synthetic generators, and the link-layer timers.
 *
 *   network = "h1.cfg";             # the network file, relative to this file
 *   instance = "tb";                # register files in /dev/shm/dfly.tb.r<N> ("" = process memory)
 *   firmware = "thread";            # "thread" | "external" (dfly-controld) | "none"
 *   routers = [0, 1, 2];            # routers hosted here
 *   lcores = ( { lcore = 0; routers = [0, 1, 2]; } );   # optional; default: all on the main lcore
 *   ports = ( { router = 2; port = 2; dev = "net_memif0"; args = "role=server,socket=/tmp/s"; } );
 *   hosts = ( { node = 0; mac = "02:df:00:00:00:00"; ip = "10.0.0.1";
 *               dev = "net_tap0"; args = "iface=dfh0"; } );   # dev only for nodes hosted here
 *   generators = "all";             # "all" | "none" | [nodes]: hosted nodes without a host
 *   link = { replay = 1024; rto_us = 2000; ack_every = 16; ack_delay_us = 20;
 *            keepalive_us = 1000; nak_us = 500; credit_delay_us = 10; credit_refresh_us = 1000;
 *            hello_us = 100000; dead_us = 200000; bundle = true; };
 *   run = { duration_s = 0.0; stats_interval_s = 1.0; max_steps = 64; mbufs = 0; epoch_ns = 0;
 *           idle = "sleep"; };          # "sleep" | "spin": what an lcore with nothing due does
 *
 * Every error names the file, the line and the setting; nothing starts with an invalid file.
 */
#ifndef DP_DEPLOY_H
#define DP_DEPLOY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "netcfg.h"

#define DP_MAX_LCORES   64u
#define DP_DEV_NAME_MAX 64u
#define DP_DEV_ARGS_MAX 256u

/** Who runs the firmware of the hosted routers. */
enum dp_fw_mode {
	DP_FW_THREAD = 0, /**< a control thread of dfly-switch runs the control/ firmware */
	DP_FW_EXTERNAL,   /**< dfly-controld attaches to the shared-memory register files */
	DP_FW_NONE,       /**< nobody: the ASICs run on the tables the configuration wrote */
};

/** A DPDK virtual device (created with rte_vdev_init) or a probed device by name. */
struct dp_dev_cfg {
	char name[DP_DEV_NAME_MAX]; /**< "net_memif0", "net_tap3", "0000:01:00.0" */
	char args[DP_DEV_ARGS_MAX]; /**< devargs, "" for none */
	int line;                   /**< line in the deployment file */
};

/** Device name of a fabric port whose far end is an in-process loopback peer (peer.h). */
#define DP_DEV_PEER "peer"

/** A fabric port realised by a device. */
struct dp_port_cfg {
	uint32_t router, port;
	struct dp_dev_cfg dev;
};

/** A host: a node reached through a device (or, when not hosted here, only its addresses). */
struct dp_host_cfg {
	uint32_t node;
	uint8_t mac[6];
	uint32_t ip; /**< IPv4, host byte order, 0 = none */
	bool has_dev;
	struct dp_dev_cfg dev;
	int line;
};

/** Routers stepped by one lcore. */
struct dp_lcore_cfg {
	uint32_t lcore;
	uint32_t nrouters;
	uint32_t *routers;
};

/** Link-layer parameters of device-backed fabric ports (microseconds of real time). */
struct dp_link_cfg {
	uint32_t replay;            /**< replay buffer (frames, power of two), default 1024 */
	uint32_t rto_us;            /**< retry timer, default 2000 */
	uint32_t ack_every;         /**< ACK after this many accepted frames, default 16 */
	uint32_t ack_delay_us;      /**< ...or this long after the first unacked one, default 20 */
	uint32_t keepalive_us;      /**< ACK at least this often, default 1000 */
	uint32_t nak_us;            /**< repeat a NAK after this long, default 500 */
	uint32_t credit_delay_us;   /**< batch credit returns this long at most, default 10 */
	uint32_t credit_refresh_us; /**< resend the running totals this often, default 1000 */
	uint32_t hello_us;          /**< HELLO period once up (10 ms until then), default 100000 */
	uint32_t dead_us;           /**< an up link with no valid frame from the peer for this long
				       is declared down (the ASIC routes around it); 0 = never,
				       default 200000 (ACK keepalives come every keepalive_us) */
	uint32_t loss_ppm;          /**< testing: discard this many per million received fabric
				       frames, as a lossy medium would (where netem is missing) */
	bool bundle;                /**< send the firmware frames of one transmit, when two or
				       more, as one BUNDLE frame (wire.h), default true; false:
				       one Ethernet frame each. Lockstep never bundles */
};

/** What an lcore does when nothing is due (run.idle). */
enum dp_idle {
	DP_IDLE_SLEEP = 0, /**< nanosleep until the next cycle (at most 20 µs) when the cycle is
				≥ 2 µs: leaves the core to other processes (default) */
	DP_IDLE_SPIN,      /**< never sleep: on a dedicated core, no late wake-ups */
};

/** Run parameters. */
struct dp_run_cfg {
	double duration_s;       /**< stop after this long; 0 = until SIGINT/SIGTERM */
	double stats_interval_s; /**< progress line period; 0 = none */
	uint32_t max_steps;      /**< cycles an lcore steps between two device polls, default 64 */
	uint32_t mbufs;          /**< packet buffers; 0 = sized from the hosted routers */
	uint64_t epoch_ns;       /**< CLOCK_MONOTONIC ns of cycle 0 (shared by a testbed's
				      processes); 0 = this process's start */
	enum dp_idle idle;       /**< run.idle, default DP_IDLE_SLEEP */
};

/** A loaded deployment. */
struct dp_deploy {
	char path[512];    /**< the deployment file */
	char network[512]; /**< the network file, resolved */
	struct dfly_netcfg net;
	char instance[64];
	enum dp_fw_mode firmware;
	uint32_t routers; /**< routers of the network */
	bool *hosted;     /**< [router] */
	uint32_t nhosted;
	struct dp_lcore_cfg *lcores;
	uint32_t nlcores; /**< 0: every hosted router on the main lcore */
	struct dp_port_cfg *ports;
	uint32_t nports;
	struct dp_host_cfg *hosts;
	uint32_t nhosts;
	bool *gen; /**< [node] runs a generator here */
	struct dp_link_cfg link;
	struct dp_run_cfg run;
};

/**
 * Load @p path, its network file (with the @p nsets "PATH=VALUE" overrides applied to the network
 * file) and check everything against the topology. @return 0, or -ENOENT / -EINVAL with one line
 * "FILE:LINE: SETTING: what is wrong" in @p err.
 */
int dp_deploy_load(struct dp_deploy *d, const char *path, const char *const *sets, int nsets,
		   char *err, size_t errlen);

void dp_deploy_free(struct dp_deploy *d);

/** "thread", "external", "none". */
const char *dp_fw_mode_name(enum dp_fw_mode m);

#endif /* DP_DEPLOY_H */
