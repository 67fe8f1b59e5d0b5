/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `dfly testbed`: a whole testbed on one machine from a network file. The plan (this header)
 * decides which dfly-switch process hosts which routers, which device realises every link that
 * crosses two processes, and which nodes are hosts in network namespaces; it then writes one
 * deployment file per process (dataplane/deploy.h). testbed.c creates the namespaces and veth
 * pairs, starts the processes and tears everything down again. The plan does no I/O besides
 * writing the files, and is unit-tested (tests/unit/test_testbed.c).
 */
#ifndef DFLY_TESTBED_H
#define DFLY_TESTBED_H

#include <stdbool.h>
#include <stdint.h>

#include "dfly/topo.h"
#include "netcfg.h"

#define TB_NAME_MAX   7u  /**< bytes of a testbed name, NUL included: interface names ≤ 15 */
#define TB_IFNAME_MAX 16u /**< IFNAMSIZ */
#define TB_DEV_MAX    64u
#define TB_ARGS_MAX   256u
#define TB_PATH_MAX   512u
#define TB_IP_BASE    0x0a4d0000u /**< 10.77.0.0/16: node n is 10.77.0.0 + n + 1 */
#define TB_IP_PREFIX  16u

/** How the routers are spread over dfly-switch processes. */
enum tb_split {
	TB_SPLIT_ONE = 0, /**< every router in one process; links in memory */
	TB_SPLIT_GROUP,   /**< one process per group */
	TB_SPLIT_ROUTER,  /**< one process per router */
};

/** The device of a link between two processes. */
enum tb_link {
	TB_LINK_MEMIF = 0, /**< net_memif over a unix socket (server: the lower process) */
	TB_LINK_VETH,      /**< net_af_packet on the two ends of a veth pair */
};

/** How hosts attach. */
enum tb_hosts {
	TB_HOSTS_NONE = 0, /**< no hosts: every node may run a generator */
	TB_HOSTS_VETH,     /**< namespace, veth pair, net_af_packet on the switch end */
	TB_HOSTS_TAP,      /**< namespace, net_tap moved into it once dfly-switch has it open */
};

/** Who runs the firmware. */
enum tb_fw {
	TB_FW_THREAD = 0, /**< a control thread in each dfly-switch */
	TB_FW_CONTROLD,   /**< one dfly-controld for the whole testbed */
};

struct tb_opts {
	const char *network;    /**< the network file (made absolute by the plan) */
	const char *dir;        /**< directory of the generated files, logs and state */
	char name[TB_NAME_MAX]; /**< testbed name: [a-z0-9], 1..6 characters */
	enum tb_split split;
	enum tb_link link;
	enum tb_hosts hosts;
	const char *host_nodes; /**< node LIST ("0-5,8") that are hosts; NULL = every node */
	bool generators;        /**< nodes that are not hosts run the synthetic generators */
	enum tb_fw firmware;
	uint32_t loss_ppm; /**< link.loss_ppm of every device fabric link (testing, no netem) */
	uint32_t dead_us;  /**< link.dead_us of every process; 0 = the deployment default */
	uint32_t cores;    /**< lcores the processes are spread over (process i on i mod cores) */
	const char *const *sets; /**< --set PATH=VALUE for the network file */
	int nsets;
};

/** A link whose two ends are in different processes. */
struct tb_xlink {
	uint32_t router[2], port[2]; /**< [0]: the end in the lower process */
	uint32_t proc[2];
	char dev[2][TB_DEV_MAX];     /**< DPDK device names, unique within each process */
	char args[2][TB_ARGS_MAX];   /**< devargs */
	char veth[2][TB_IFNAME_MAX]; /**< TB_LINK_VETH: the veth ends; "" for memif */
	char sock[TB_PATH_MAX];      /**< TB_LINK_MEMIF: the socket path */
};

/** A node that is a host. */
struct tb_host {
	uint32_t node, router, proc;
	uint8_t mac[6];
	uint32_t ip;                /**< host byte order */
	char ns[32];                /**< its network namespace */
	char ifname[TB_IFNAME_MAX]; /**< the switch end (veth) or the tap */
	char dev[TB_DEV_MAX];       /**< DPDK device in the hosting process */
	char args[TB_ARGS_MAX];
};

struct tb_plan {
	struct tb_opts o;
	char network[TB_PATH_MAX]; /**< absolute */
	char dir[TB_PATH_MAX];     /**< absolute */
	struct dfly_netcfg net;
	struct dfly_topo *topo;
	uint32_t routers, nodes;
	uint32_t nproc;
	uint32_t *proc_of; /**< [router] → process */
	struct tb_xlink *xl;
	uint32_t nxl;
	struct tb_host *host;
	uint32_t nhost;
	bool *is_host; /**< [node] */
	/**
	 * The dfly-switch processes run in namespaces of their own, NAME-s<i>, when any device is
	 * af_packet or tap: DPDK 22.11's af_packet names its fanout group getpid() ^ ifindex, so
	 * two processes of one namespace can collide (EINVAL), and it reads every interface of its
	 * namespace until its socket is bound. Otherwise (memif only) they run in the caller's.
	 */
	bool proc_ns;
};

/** Parse a testbed name. @return 0 or -EINVAL. */
int tb_name_check(const char *name);

/**
 * Load the network file and decide everything. @return 0, or a negative errno with one line in
 * @p err (a network-file error names its file and line).
 */
int tb_plan_build(struct tb_plan *p, const struct tb_opts *o, char *err, size_t errlen);

/** DIR/p<i>.cfg of process @p i. */
void tb_plan_cfg_path(const struct tb_plan *p, uint32_t i, char *buf, size_t len);

/** Write DIR/p<i>.cfg for every process. @return 0 or -errno with @p err. */
int tb_plan_write(const struct tb_plan *p, char *err, size_t errlen);

/** The namespace of process @p i ("" when !proc_ns). */
void tb_plan_proc_ns(const struct tb_plan *p, uint32_t i, char *buf, size_t len);

/** The routers of process @p i as a LIST ("0-2"). */
void tb_plan_routers(const struct tb_plan *p, uint32_t i, char *buf, size_t len);

void tb_plan_free(struct tb_plan *p);

const char *tb_split_name(enum tb_split s);
const char *tb_link_name(enum tb_link l);
const char *tb_hosts_name(enum tb_hosts h);

#endif /* DFLY_TESTBED_H */
