/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfly-switch: the emulated routers of a deployment, in real time, on DPDK ports.
 *
 *   dfly-switch [EAL options] -- DEPLOYMENT.cfg [--set PATH=VALUE]... [--duration S]
 *               [--counters FILE] [--check] [--quiet]
 *
 * The ASIC model is the one of dfly sim (asic-emu/); the firmware is the one of dfly sim
 * (control/), as a control thread here or as dfly-controld. Each lcore owns a set of routers and
 * steps them to the wall clock mapped to emulated cycles (clock.cycle_ns of the network file):
 * read the devices, step every cycle up to now (at most run.max_steps per slice), send what is
 * due, repeat. Links between two routers of one lcore are the model's in-memory links; all
 * others cross a device (port.c).
 */
/* rte_intr_instance_alloc() and its setters, for intr_thread_park(), are experimental in 22.11 */
#define ALLOW_EXPERIMENTAL_API

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_interrupts.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_pdump.h>
#include <rte_telemetry.h>

#include <pcap/pcap.h>

#include "capture.h"
#include "cli.h"
#include "dfly/log.h"
#include "dp.h"
#include "peer.h"
#include "port.h"

#define MAX_SETS       64
#define FW_MAX_CATCHUP 100000u

RTE_LOG_REGISTER(dp_logtype, dfly.switch, INFO);

/* The portable libraries' log (include/dfly/log.h) in rte_log: a log type per component,
 * dfly.asic, dfly.fw, ..., so --log-level=dfly.fw:debug and the telemetry's log settings
 * reach them; rte_log filters by its own levels. */
static int lib_logtype[DFLY_LOG_TYPE_COUNT];

static void lib_log(enum dfly_log_type type, enum dfly_log_level level, const char *msg)
{
	rte_log(RTE_LOG_ERR + (uint32_t)level, lib_logtype[type], "dfly-switch: %s: %s\n",
		dfly_log_type_name(type), msg);
}

static void lib_log_init(void)
{
	for (int t = 0; t < DFLY_LOG_TYPE_COUNT; t++) {
		char name[32];

		snprintf(name, sizeof(name), "dfly.%s", dfly_log_type_name((enum dfly_log_type)t));
		lib_logtype[t] = rte_log_register_type_and_pick_level(name, RTE_LOG_NOTICE);
		if (lib_logtype[t] < 0)
			lib_logtype[t] = dp_logtype;
		dfly_log_set_level((enum dfly_log_type)t, DFLY_LOG_DEBUG);
	}
	dfly_log_set_handler(lib_log);
}

/* set by SIGINT and SIGTERM (and by main on the way out): every loop ends */
static volatile sig_atomic_t stop;

/* What the process holds: set up by plan(), run by run(), reported by report(). One instance
 * (app), which the telemetry callbacks and the capture and firmware threads reach. */
struct app {
	struct dp_deploy dep;
	struct dfly_topo *topo;
	struct dp_env env;
	struct dfly_gen gen;
	struct dfly_edge edge; /* the generator nodes (traffic/edge.h), a lane per lcore */
	struct dp_host_table *hosts;
	struct dp_router *rt; /* [router], only hosted ones are set up */
	struct dp_lcore *lc;
	uint32_t nlc;
	struct dp_port **ports; /* every device port */
	uint32_t nports;
	struct asic_link **links; /* in-process links */
	uint32_t nlinks;
	uint64_t epoch_ns;
	uint64_t stop_ns; /* when the lcores stopped touching the devices (0: they never ran) */
	double cycle_ns;
	pthread_t fw_thread;
	bool fw_running;
	bool quiet;
	bool pdump; /* rte_pdump_init() succeeded: dpdk-dumpcap and dpdk-pdump can attach */
	struct dfly_capture *cap; /* --capture: the writer, or NULL */
	pthread_t cap_thread;
	bool cap_running;
	_Atomic bool cap_stop; /* the lcores stopped: the capture thread writes the rest, ends */
	struct dfly_capture_stats cap_st;
	struct dp_peer **peers; /* loopback peers (dev "peer"), polled by the main lcore */
	uint32_t npeers;
	bool free_run;      /* --free-run: the clock does not follow the wall */
	uint32_t gen_frame; /* --gen-frame: bytes of payload frame of a generated packet */
	uint32_t gen_phits; /* phits of a generated packet */
	/* --lockstep (lcore_lockstep()): the model's results, exactly, in real time */
	bool lockstep;
	uint64_t ls_stop;      /* --cycles N: step cycles 0 .. N-1, then hold (0: no end) */
	uint64_t ls_wait_ns;   /* --lockstep-wait-ms: a silent peer is waited for this long */
	uint64_t snap_every;   /* --snapshot-every K: register files at every K-th cycle */
	const char *snap_path; /* --snapshots FILE */
	bool ls_done;          /* every lcore reached --cycles (said once) */
	char ls_verdict[256];
};

static struct app app;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static inline uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

static inline uint32_t max_u32(uint32_t a, uint32_t b)
{
	return a > b ? a : b;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t clock_cycle(uint64_t now_ns)
{
	return now_ns <= app.epoch_ns ? 0
				      : (uint64_t)((double)(now_ns - app.epoch_ns) / app.cycle_ns);
}

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "usage: dfly-switch [EAL options] -- DEPLOYMENT.cfg [options]\n"
	    "\n"
	    "Run the emulated Dragonfly routers a deployment file assigns to this process, in "
	    "real\n"
	    "time, on DPDK ports (see dataplane/README.md and configs/README.md).\n"
	    "\n"
	    "EAL options come first. Without hugepages or NICs use\n"
	    "  --no-huge -m 512 --no-pci --no-shconf   (or a unique --file-prefix)\n"
	    "With hugepages (reserved and mounted; dfly testbed --hugepages N does both) and a\n"
	    "unique --file-prefix, DPDK's own tools attach to the running process: "
	    "dpdk-proc-info,\n"
	    "dpdk-dumpcap -i PORT and dpdk-pdump (each with the same --file-prefix); the line\n"
	    "at start says which mode runs. Telemetry (dpdk-telemetry.py) works in both.\n"
	    "and list the lcores with -l (e.g. -l 0 or -l 0-1). Devices are created from the\n"
	    "deployment file (net_memif, net_af_packet, net_tap, net_vhost, net_pcap, "
	    "net_ring...).\n"
	    "\n"
	    "options (after --):\n"
	    "  --set PATH=VALUE   override a setting of the network file (repeatable)\n"
	    "  --duration S       stop S (> 0) seconds after cycle 0 (the epoch) (default:\n"
	    "                     run.duration_s; 0 there = until SIGINT)\n"
	    "  --epoch-ns NS      CLOCK_MONOTONIC time of cycle 0, shared by every process of a\n"
	    "                     testbed so latencies across processes are measured on one clock\n"
	    "                     (default: run.epoch_ns, 0 = this process's start)\n"
	    "  --gen-seconds S    the generators stop S seconds after cycle 0 (the network then "
	    "drains,\n"
	    "                     so generated = delivered can be checked at exit)\n"
	    "  --exit-drained     with --gen-seconds: exit as soon as every packet this process\n"
	    "                     generated has been delivered in it, or at --duration, whichever\n"
	    "                     comes first (a deployment whose traffic stays inside the\n"
	    "                     process, e.g. with loopback peers: dfly bench dataplane)\n"
	    "  --lockstep         step the model exactly as dfly sim does it (dfly verify checks\n"
	    "                     it): every frame leaves as soon as its router puts it on the\n"
	    "                     link, behind a SYNC frame with its due cycle, and enters the\n"
	    "                     peer at exactly that cycle; a bare SYNC gives the peer our\n"
	    "                     next cycle, and a router steps a cycle only when every fabric\n"
	    "                     input's peer has stepped far enough (its next cycle + the\n"
	    "                     link's latency). The firmware ticks inline after each cycle\n"
	    "                     (firmware = \"thread\" or \"none\"). Stepping starts once every\n"
	    "                     fabric port is up and its peer heard. Liveness (link.dead_us)\n"
	    "                     is off: the model has no link failures unless configured\n"
	    "  --cycles N         with --lockstep: step cycles 0 .. N-1, say so on stderr, then\n"
	    "                     hold (the links stay served) until the end\n"
	    "  --lockstep-wait-ms W  a peer that stepped and then went silent is waited for W ms\n"
	    "                     (default 100), then the lcore steps on without it, as real\n"
	    "                     time demands: the run is exact only up to that cycle (the\n"
	    "                     exit report and the lockstep_breach counter say where)\n"
	    "  --snapshots FILE   with --snapshot-every K: the register files (and firmware\n"
	    "                     counters) of every hosted router at every K-th cycle and at\n"
	    "                     --cycles, as dfly sim --counters writes them, for dfly verify,\n"
	    "                     with the run's records: the nodes that generate, every host\n"
	    "                     frame that entered an ASIC (its cycle, node, destination,\n"
	    "                     length) and every packet delivered\n"
	    "  --counters FILE    write the final counters there (default: standard output)\n"
	    "  --capture FILE     capture the routers' traffic to a pcap file (format:\n"
	    "                     include/dfly/trace.h) with the network file's capture.*\n"
	    "                     settings (points, routers, ports, sample, snaplen,\n"
	    "                     rotate_kb, meta; also capture.file, which a process that\n"
	    "                     hosts part of the routers writes as FILE-r<first router>);\n"
	    "                     wall-clock timestamps,\n"
	    "                     the emulated cycle in the metadata. The lcores never wait:\n"
	    "                     a full capture ring loses the record and counts it\n"
	    "  --free-run         step as fast as the lcores can, not to the wall clock\n"
	    "                     (benchmarks: dfly bench dataplane); latencies stay in\n"
	    "                     cycles, each lcore has its own clock\n"
	    "  --gen-frame BYTES  generated packets carry a BYTES-byte frame (payload),\n"
	    "                     sized in phits as a host frame; default: header only,\n"
	    "                     packet.phits long\n"
	    "  --check            load and check the deployment, print a summary, start nothing\n"
	    "  --quiet            no progress lines\n"
	    "  -h, --help         this text\n"
	    "  --version          the version and the commit it was built from\n"
	    "\n"
	    "SIGINT or SIGTERM stops it cleanly and prints the final counters.\n");
}

/* ---------------------------------------------------------------------------------------------
 * Set-up
 */

static int dev_open(const struct dp_dev_cfg *dc, struct dp_port *p, char *err, size_t errlen)
{
	struct rte_eth_conf conf = {0};
	struct rte_eth_dev_info info;
	uint16_t pid;
	int rc;

	snprintf(p->name, sizeof(p->name), "%s", dc->name);
	if (rte_eth_dev_get_port_by_name(dc->name, &pid) != 0) {
		rc = rte_vdev_init(dc->name, dc->args);
		if (rc < 0) {
			snprintf(err, errlen, "%s:%d: dev %s (args \"%s\"): cannot create: %s",
				 app.dep.path, dc->line, dc->name, dc->args, rte_strerror(-rc));
			return -1;
		}
		p->vdev = true;
		if (rte_eth_dev_get_port_by_name(dc->name, &pid) != 0) {
			snprintf(err, errlen, "%s:%d: dev %s: not an Ethernet device", app.dep.path,
				 dc->line, dc->name);
			return -1;
		}
	}
	p->eth = pid;
	rc = rte_eth_dev_info_get(pid, &info);
	if (rc == 0)
		rc = rte_eth_dev_configure(pid, 1, 1, &conf);
	if (rc == 0)
		rc = rte_eth_rx_queue_setup(pid, 0, RTE_MIN(1024u, info.rx_desc_lim.nb_max),
					    rte_eth_dev_socket_id(pid), NULL, app.env.mp);
	if (rc == 0)
		rc = rte_eth_tx_queue_setup(pid, 0, RTE_MIN(1024u, info.tx_desc_lim.nb_max),
					    rte_eth_dev_socket_id(pid), NULL);
	if (rc == 0)
		rc = rte_eth_dev_start(pid);
	if (rc < 0) {
		snprintf(err, errlen, "%s:%d: dev %s: cannot configure/start: %s", app.dep.path,
			 dc->line, dc->name, rte_strerror(-rc));
		return -1;
	}
	rte_eth_promiscuous_enable(pid); /* not all drivers support it; frames are checked */
	if (strncmp(dc->name, "net_af_packet", 13) == 0 ||
	    strncmp(dc->name, "eth_af_packet", 13) == 0) {
		/* DPDK 22.11's af_packet opens its socket for ETH_P_ALL before binding it to the
		 * interface: what other interfaces carried meanwhile is in the ring. Discard it. */
		struct rte_mbuf *junk[DP_BURST];
		uint16_t n;

		while ((n = rte_eth_rx_burst(pid, 0, junk, DP_BURST)) > 0)
			rte_pktmbuf_free_bulk(junk, n);
	}
	return 0;
}

static struct dp_lcore *lcore_of(uint32_t router)
{
	for (uint32_t i = 0; i < app.nlc; i++)
		for (uint32_t k = 0; k < app.lc[i].nrt; k++)
			if (app.lc[i].rt[k]->id == router)
				return &app.lc[i];
	return NULL;
}

static int add_port(struct dp_port *p)
{
	struct dp_port **np = realloc(app.ports, (app.nports + 1) * sizeof(*np));
	struct dp_lcore *lc = p->rt->lc;
	struct dp_port **lp = realloc(lc->ports, (lc->nports + 1) * sizeof(*lp));

	if (np == NULL || lp == NULL)
		return -1;
	app.ports = np;
	lc->ports = lp;
	app.ports[app.nports++] = p;
	lc->ports[lc->nports++] = p;
	p->rt->dev[p->port] = p;
	return 0;
}

static int fabric_port_init(struct dp_port *p, uint32_t lat, char *err, size_t errlen)
{
	const struct dfly_topo *t = app.topo;

	p->kind = DP_PORT_FABRIC;
	dfly_topo_port_peer(t, p->rt->id, p->port, &p->peer_router, &p->peer_port);
	dp_fabric_mac(p->rt->id, p->port, p->mac);
	dp_fabric_mac(p->peer_router, p->peer_port, p->peer_mac);
	p->out = asic_link_create_half(p->rt->as, p->port, true, lat);
	p->in = asic_link_create_half(p->rt->as, p->port, false, lat);
	if (p->out == NULL || p->in == NULL || dp_llr_tx_init(&p->tx, app.dep.link.replay) < 0) {
		snprintf(err, errlen, "router %u port %u: cannot create its link state: %s",
			 p->rt->id, p->port, strerror(errno));
		return -1;
	}
	dp_llr_rx_init(&p->rx);
	p->rx_taken = DFLY_WIRE_ACK_NONE;
	dfly_rng_seed(&p->loss_rng, app.dep.net.seed, 0x300000000ull + p->rt->id * 256u + p->port);
	p->nvc_in = p->rt->regs->nvcs[p->port];
	p->rt->regs->link_state[p->port] = DFLY_LINK_WAIT_HELLO;
	p->lat = lat;
	p->ls_due = DFLY_WIRE_SYNC_NONE;
	p->ls_fault = UINT64_MAX;
	p->ls_stop = app.ls_stop;
	return 0;
}

/* The name DPDK gave ethdev @p id (rte_eth_from_rings prefixes "net_ring_"). */
static void eth_name(uint16_t id, char *name, size_t len)
{
	char nm[RTE_ETH_NAME_MAX_LEN] = "";

	rte_eth_dev_get_name_by_port(id, nm);
	snprintf(name, len, "%s", nm);
}

/* Routers linked in-process but stepped by different lcores talk through a pair of rings
 * presented as ethdevs (net_ring), with the same framing as any device. */
static int ring_pair(struct dp_router *a, uint32_t pa, struct dp_router *b, uint32_t pb,
		     uint32_t lat, char *err, size_t errlen)
{
	char n[RTE_RING_NAMESIZE];
	struct rte_ring *ab, *ba;
	struct dp_port *x = calloc(1, sizeof(*x)), *y = calloc(1, sizeof(*y));
	int ia, ib;

	snprintf(n, sizeof(n), "dfly_r%u_%u", a->id, pa);
	ab = rte_ring_create(n, 4096, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
	snprintf(n, sizeof(n), "dfly_r%u_%u", b->id, pb);
	ba = rte_ring_create(n, 4096, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
	if (x == NULL || y == NULL || ab == NULL || ba == NULL) {
		snprintf(err, errlen, "cannot create the rings of router %u port %u", a->id, pa);
		free(x);
		free(y);
		return -1;
	}
	snprintf(n, sizeof(n), "dfly_ring_%u_%u", a->id, pa);
	ia = rte_eth_from_rings(n, &ba, 1, &ab, 1, (unsigned)SOCKET_ID_ANY);
	if (ia >= 0)
		eth_name((uint16_t)ia, x->name, sizeof(x->name));
	snprintf(n, sizeof(n), "dfly_ring_%u_%u", b->id, pb);
	ib = rte_eth_from_rings(n, &ab, 1, &ba, 1, (unsigned)SOCKET_ID_ANY);
	if (ib >= 0)
		eth_name((uint16_t)ib, y->name, sizeof(y->name));
	if (ia < 0 || ib < 0) {
		snprintf(err, errlen, "cannot create the ring ports of router %u port %u", a->id,
			 pa);
		free(x);
		free(y);
		return -1;
	}
	x->rt = a;
	x->port = pa;
	y->rt = b;
	y->port = pb;
	for (int k = 0; k < 2; k++) {
		struct dp_port *p = k ? y : x;
		struct dp_dev_cfg dc = {.line = 0};

		snprintf(dc.name, sizeof(dc.name), "%s", p->name);
		if (dev_open(&dc, p, err, errlen) < 0 ||
		    fabric_port_init(p, lat, err, errlen) < 0 || add_port(p) < 0)
			return -1;
	}
	return 0;
}

/* @p n lcores' shares, zeroed, each on cache lines of its own (free() frees them). */
static struct dp_lcore *lcores_alloc(uint32_t n)
{
	struct dp_lcore *lc = aligned_alloc(RTE_CACHE_LINE_SIZE, n * sizeof(*lc));

	if (lc != NULL)
		memset(lc, 0, n * sizeof(*lc));
	return lc;
}

static int setup_routers(char *err, size_t errlen)
{
	const struct dfly_netcfg *cfg = &app.dep.net;
	const struct dfly_topo *t = app.topo;
	struct asic_params par = {0};
	struct fw_params fp;

	dfly_netcfg_asic_params(cfg, &par);
	/* host frames can be as short as a minimum Ethernet frame */
	if (app.dep.nhosts)
		par.min_pkt_phits =
		    min_u32(dp_host_frame_phits(60, cfg->phit_bytes), cfg->pkt_phits);
	par.min_pkt_phits = min_u32(par.min_pkt_phits, app.gen_phits);
	dfly_netcfg_fw_params(cfg, &fp);

	app.rt = calloc(t->routers, sizeof(*app.rt));
	if (app.rt == NULL)
		goto nomem;
	for (uint32_t r = 0; r < t->routers; r++) {
		struct dp_router *rt = &app.rt[r];

		if (!app.dep.hosted[r])
			continue;
		rt->id = r;
		if (app.dep.instance[0]) {
			int rc = dfly_regs_shm_create(&rt->shm, app.dep.instance, r, t->radix);

			if (rc < 0) {
				dfly_regs_shm_create_msg(err, errlen, app.dep.instance, r, rc);
				return -1;
			}
			rt->regs = rt->shm.regs;
		} else {
			rt->regs = aligned_alloc(64, (sizeof(struct dfly_regs) + 63) / 64 * 64);
			if (rt->regs == NULL)
				goto nomem;
		}
		rt->as = asic_create(t, r, &par, rt->regs, app.dep.net.seed);
		if (rt->as == NULL) {
			snprintf(err, errlen, "router %u: cannot create ASIC: %s", r,
				 strerror(errno));
			return -1;
		}
		dfly_netcfg_knobs(cfg, &rt->regs->knobs);
		if (app.dep.firmware == DP_FW_THREAD) {
			rt->fw = fw_create(t, r, rt->regs, &fp);
			if (rt->fw == NULL) {
				snprintf(err, errlen, "router %u: cannot create firmware: %s", r,
					 strerror(errno));
				return -1;
			}
		}
	}
	/* lcores */
	if (app.dep.nlcores == 0) {
		app.nlc = 1;
		app.lc = lcores_alloc(1);
		if (app.lc == NULL)
			goto nomem;
		app.lc[0].lcore = rte_get_main_lcore();
		app.lc[0].rt = calloc(app.dep.nhosted, sizeof(*app.lc[0].rt));
		if (app.lc[0].rt == NULL)
			goto nomem;
		for (uint32_t r = 0; r < t->routers; r++)
			if (app.dep.hosted[r])
				app.lc[0].rt[app.lc[0].nrt++] = &app.rt[r];
	} else {
		app.nlc = app.dep.nlcores;
		app.lc = lcores_alloc(app.nlc);
		if (app.lc == NULL)
			goto nomem;
		for (uint32_t i = 0; i < app.nlc; i++) {
			const struct dp_lcore_cfg *c = &app.dep.lcores[i];

			if (!rte_lcore_is_enabled(c->lcore)) {
				snprintf(err, errlen,
					 "%s: lcores[%u]: lcore %u is not enabled (EAL option -l)",
					 app.dep.path, i, c->lcore);
				return -1;
			}
			app.lc[i].lcore = c->lcore;
			app.lc[i].rt = calloc(c->nrouters, sizeof(*app.lc[i].rt));
			if (app.lc[i].rt == NULL)
				goto nomem;
			for (uint32_t k = 0; k < c->nrouters; k++)
				app.lc[i].rt[app.lc[i].nrt++] = &app.rt[c->routers[k]];
		}
	}
	for (uint32_t i = 0; i < app.nlc; i++)
		for (uint32_t k = 0; k < app.lc[i].nrt; k++)
			app.lc[i].rt[k]->lc = &app.lc[i];
	/* in-process links (same lcore) and ring pairs (different lcores) */
	app.links = calloc((size_t)t->routers * t->radix, sizeof(*app.links));
	if (app.links == NULL)
		goto nomem;
	for (uint32_t r = 0; r < t->routers; r++) {
		if (!app.dep.hosted[r])
			continue;
		for (uint32_t port = t->first_local; port < t->radix; port++) {
			uint32_t pr, pp;
			uint32_t lat = dfly_topo_port_kind(t, port) == DFLY_PORT_LOCAL
					   ? cfg->lat_local
					   : cfg->lat_global;

			dfly_topo_port_peer(t, r, port, &pr, &pp);
			if (!app.dep.hosted[pr])
				continue;
			if (lcore_of(r) == lcore_of(pr)) {
				struct asic_link *l =
				    asic_link_create(app.rt[r].as, port, app.rt[pr].as, pp, lat);
				if (l == NULL) {
					snprintf(err, errlen, "link %u:%u -> %u:%u: %s", r, port,
						 pr, pp, strerror(errno));
					return -1;
				}
				app.links[app.nlinks++] = l;
			} else if (r < pr && ring_pair(&app.rt[r], port, &app.rt[pr], pp, lat, err,
						       errlen) < 0) {
				return -1;
			}
		}
	}
	return 0;
nomem:
	snprintf(err, errlen, "out of memory");
	return -1;
}

/*
 * A fabric port whose device is "peer": a ring pair, the router's end a fabric port like any
 * other, the far end a loopback peer (peer.h) that the main lcore polls.
 */
static int peer_pair(struct dp_port *p, const struct dp_port_cfg *pc, char *err, size_t errlen)
{
	const struct dfly_netcfg *cfg = &app.dep.net;
	bool local = dfly_topo_port_kind(app.topo, pc->port) == DFLY_PORT_LOCAL;
	char n[RTE_RING_NAMESIZE];
	struct rte_ring *to_peer, *from_peer;
	struct dp_port far = {0};
	struct dp_dev_cfg dc = {.line = pc->dev.line};
	struct dp_peer **np;
	int id;

	snprintf(n, sizeof(n), "dfly_pr%u_%u", pc->router, pc->port);
	to_peer = rte_ring_create(n, 4096, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
	snprintf(n, sizeof(n), "dfly_pp%u_%u", pc->router, pc->port);
	from_peer = rte_ring_create(n, 4096, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
	snprintf(n, sizeof(n), "dfly_peer_r%u_%u", pc->router, pc->port);
	id = to_peer && from_peer
		 ? rte_eth_from_rings(n, &from_peer, 1, &to_peer, 1, (unsigned)SOCKET_ID_ANY)
		 : -1;
	if (id >= 0)
		eth_name((uint16_t)id, dc.name, sizeof(dc.name));
	if (id < 0 || dev_open(&dc, p, err, errlen) < 0) {
		if (id < 0)
			snprintf(err, errlen,
				 "%s:%d: router %u port %u: cannot create the rings "
				 "of its peer",
				 app.dep.path, pc->dev.line, pc->router, pc->port);
		return -1;
	}
	snprintf(n, sizeof(n), "dfly_peer_f%u_%u", pc->router, pc->port);
	id = rte_eth_from_rings(n, &to_peer, 1, &from_peer, 1, (unsigned)SOCKET_ID_ANY);
	if (id < 0) {
		snprintf(err, errlen, "%s:%d: router %u port %u: cannot create its peer's port",
			 app.dep.path, pc->dev.line, pc->router, pc->port);
		return -1;
	}
	eth_name((uint16_t)id, dc.name, sizeof(dc.name));
	if (dev_open(&dc, &far, err, errlen) < 0)
		return -1;
	np = realloc(app.peers, (app.npeers + 1) * sizeof(*np));
	if (np == NULL)
		return -1;
	app.peers = np;
	np[app.npeers] = dp_peer_create(&app.env, far.eth, pc->router, pc->port,
					local ? cfg->vc_local : cfg->vc_global,
					local ? cfg->buf_local : cfg->buf_global);
	if (np[app.npeers] == NULL) {
		snprintf(err, errlen, "router %u port %u: cannot create its peer: %s", pc->router,
			 pc->port, strerror(errno));
		return -1;
	}
	if (pc->dev.args[0] != '\0') {
		/* "faults=N": N bad frames of every kind among the good traffic (peer.h) */
		unsigned long each;
		char *end;

		if (strncmp(pc->dev.args, "faults=", 7) != 0 ||
		    (each = strtoul(pc->dev.args + 7, &end, 10)) > 1000000 || *end != '\0') {
			snprintf(
			    err, errlen,
			    "%s:%d: router %u port %u: peer args \"%s\": expected \"faults=N\" "
			    "(N bad frames of every kind, 0..1000000)",
			    app.dep.path, pc->dev.line, pc->router, pc->port, pc->dev.args);
			return -1;
		}
		dp_peer_faults(np[app.npeers], (uint32_t)each);
	}
	app.npeers++;
	return 0;
}

static int setup_devices(char *err, size_t errlen)
{
	const struct dfly_topo *t = app.topo;
	const struct dfly_netcfg *cfg = &app.dep.net;

	for (uint32_t i = 0; i < app.dep.nports; i++) {
		const struct dp_port_cfg *pc = &app.dep.ports[i];
		struct dp_port *p = calloc(1, sizeof(*p));
		uint32_t lat = dfly_topo_port_kind(t, pc->port) == DFLY_PORT_LOCAL
				   ? cfg->lat_local
				   : cfg->lat_global;
		bool peer = strcmp(pc->dev.name, DP_DEV_PEER) == 0;

		if (p == NULL)
			return -1;
		p->rt = &app.rt[pc->router];
		p->port = pc->port;
		if ((peer ? peer_pair(p, pc, err, errlen) : dev_open(&pc->dev, p, err, errlen)) <
			0 ||
		    fabric_port_init(p, lat, err, errlen) < 0 || add_port(p) < 0) {
			free(p);
			return -1;
		}
	}
	for (uint32_t i = 0; i < app.dep.nhosts; i++) {
		const struct dp_host_cfg *hc = &app.dep.hosts[i];
		struct dp_port *p;

		if (!hc->has_dev)
			continue;
		p = calloc(1, sizeof(*p));
		if (p == NULL)
			return -1;
		p->kind = DP_PORT_HOST;
		p->rt = &app.rt[hc->node / t->p];
		p->port = hc->node % t->p;
		p->node = hc->node;
		memcpy(p->mac, hc->mac, 6);
		if (dev_open(&hc->dev, p, err, errlen) < 0 || add_port(p) < 0) {
			free(p);
			return -1;
		}
		p->rt->term[p->port] = DP_TERM_HOST;
	}
	/* generators */
	for (uint32_t n = 0; n < t->nodes; n++) {
		struct dp_router *rt = &app.rt[n / t->p];

		if (!app.dep.gen[n])
			continue;
		rt->lc->ngen++;
		rt->ngen++;
		rt->term[n % t->p] = DP_TERM_GEN;
	}
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * The lcore loop
 */

/*
 * The generator nodes' packets are mbufs of the pool (the descriptor in the private area; with
 * --gen-frame, BYTES of zero payload): struct dfly_edge_pool_ops of every lcore's edge lane.
 */
static unsigned gen_alloc_burst(void *pool, struct asic_pkt **pkts, unsigned n)
{
	struct app *a = pool;
	unsigned k;

	for (k = 0; k < n; k++) {
		struct rte_mbuf *m = rte_pktmbuf_alloc(a->env.mp);

		if (m == NULL)
			break;
		if (a->gen_frame && rte_pktmbuf_append(m, (uint16_t)a->gen_frame) == NULL) {
			rte_pktmbuf_free(m);
			break;
		}
		pkts[k] = dp_mbuf_pkt(m);
	}
	return k;
}

static void gen_free_burst(void *pool, struct asic_pkt **pkts, unsigned n)
{
	struct rte_mbuf *m[64];

	(void)pool;
	while (n > 0) {
		unsigned k = n < 64 ? n : 64;

		for (unsigned i = 0; i < k; i++)
			m[i] = dp_pkt_mbuf(pkts[i]);
		rte_pktmbuf_free_bulk(m, k);
		pkts += k;
		n -= k;
	}
}

static const struct dfly_edge_pool_ops gen_pool_ops = {
    .alloc_burst = gen_alloc_burst,
    .free_burst = gen_free_burst,
};

/* Lockstep with --snapshots: the delivery record (dfly verify), into the snapshots of the
 * lcore that delivered it (the destination router's). The edge's tap for generated packets. */
static void tap_record(void *ctx, const struct dfly_delivery *d)
{
	char line[160];

	(void)ctx;
	dfly_delivery_format(d, line, sizeof(line));
	fputs(line, app.rt[d->dst_node / app.topo->p].lc->snap);
}

/* ... and for a host frame, delivered in collect() */
static void record_delivery(const struct asic_ejection *ej)
{
	struct dfly_delivery d;

	dfly_delivery_of(app.topo, ej, &d);
	tap_record(NULL, &d);
}

/* What router @p rt delivered by cycle @p now: the generators' packets to the lcore's edge lane,
 * host frames to their host port. */
static void collect(struct dp_lcore *lc, struct dp_router *rt, uint64_t now)
{
	struct asic_ejection host[64];
	unsigned nh = 0;

	while (dfly_edge_collect_burst(&lc->edge, rt->as, now, host, &nh) > 0) {
		for (unsigned k = 0; k < nh; k++) {
			struct rte_mbuf *m = dp_pkt_mbuf(host[k].pkt);
			uint32_t port = host[k].pkt->dst_node % app.topo->p;

			if (host[k].drop) {
				/* counted by its reason in regs->drop */
				rte_pktmbuf_free(m);
			} else if (rt->term[port] == DP_TERM_HOST && rt->dev[port] != NULL) {
				lc->host_frames++;
				if (lc->snap != NULL)
					record_delivery(&host[k]);
				dp_host_deliver(rt->dev[port], m);
			} else {
				rt->regs->drop[DFLY_DROP_HOST_UNKNOWN_DST]++;
				rte_pktmbuf_free(m);
			}
		}
		nh = 0;
	}
}

/* Cycle lc->cur of the lcore's routers: their generator nodes' sources, the ASICs, the sinks. */
static void step_cycle(struct dp_lcore *lc)
{
	for (uint32_t k = 0; k < lc->nrt; k++)
		if (lc->rt[k]->ngen)
			dfly_edge_generate(&lc->edge, lc->rt[k]->as, lc->rt[k]->regs, lc->cur);
	for (uint32_t k = 0; k < lc->nrt; k++)
		asic_step(lc->rt[k]->as, lc->cur);
	for (uint32_t k = 0; k < lc->nrt; k++)
		collect(lc, lc->rt[k], lc->cur);
}

/* Lockstep: the register files of the lcore's routers at cycle @p c (every cycle before it
 * stepped), firmware counters too, as dfly sim's --counters writes them. */
static void snapshot(struct dp_lcore *lc, uint64_t c)
{
	if (lc->snap == NULL)
		return;
	for (uint32_t k = 0; k < lc->nrt; k++) {
		struct dp_router *rt = lc->rt[k];

		asic_sync_gauges(rt->as);
		fprintf(lc->snap, "# snapshot cycle %" PRIu64 "\n", c);
		dfly_regs_dump(rt->regs, lc->snap);
		if (rt->fw != NULL)
			fw_dump(rt->fw, lc->snap);
	}
}

/*
 * One lockstep slice (--lockstep): read the devices; step while every fabric input's horizon
 * allows (the peer's next cycle, from its SYNC, plus the link's latency: nothing the peer has
 * yet to step can be due before), each cycle as dfly sim steps it: generate, step, collect,
 * then the firmware's tick; send. Nothing moves before every fabric port is up and its peer
 * heard. A peer that has stepped and then stays silent longer than --lockstep-wait-ms (a
 * stopped process) is not waited for: the lcore steps on, as real time demands, and the run is
 * exact only up to the cycle it stepped past (a breach, counted and reported).
 */
static void lcore_lockstep(struct dp_lcore *lc)
{
	uint32_t max_steps = app.dep.run.max_steps;
	uint64_t now_ns = mono_ns(), horizon = UINT64_MAX;
	uint64_t stop_at = app.ls_stop ? app.ls_stop : UINT64_MAX;
	struct dp_port *block = NULL;
	unsigned io = 0, steps = 0;
	bool ready = true;

	for (uint32_t i = 0; i < lc->nports; i++) {
		struct dp_port *p = lc->ports[i];

		if (p->kind == DP_PORT_FABRIC) {
			io += dp_fabric_rx(p, &app.env, lc->cur, now_ns);
			if (p->rt->regs->link_state[p->port] != DFLY_LINK_UP || !p->ls_heard) {
				ready = false;
			} else if (p->ls_through1 + p->lat - 1 < horizon) {
				horizon = p->ls_through1 + p->lat - 1;
				block = p;
			}
		} else {
			io += dp_host_rx(p, &app.env, lc->cur);
		}
	}
	if (ready) {
		uint64_t target = horizon < stop_at - 1 ? horizon : stop_at - 1;

		if (lc->cur > target && lc->cur < stop_at && block != NULL &&
		    block->ls_through1 > 0) {
			/* blocked by a peer that has stepped before: how long? */
			if (lc->ls_block_ns == 0) {
				lc->ls_block_ns = now_ns;
			} else if (now_ns - lc->ls_block_ns > app.ls_wait_ns) {
				target = lc->cur + max_steps - 1 < stop_at - 1
					     ? lc->cur + max_steps - 1
					     : stop_at - 1;
				block->rt->regs->port_ctr[block->port][DFLY_LOCKSTEP_BREACH] +=
				    target - lc->cur + 1;
				dp_lockstep_fault(block, lc->cur,
						  "stepped on without the peer (silent longer than "
						  "--lockstep-wait-ms)");
			}
		} else if (lc->cur <= target) {
			lc->ls_block_ns = 0;
		}
		while (lc->cur <= target && steps < max_steps) {
			step_cycle(lc);
			for (uint32_t k = 0; k < lc->nrt; k++)
				if (lc->rt[k]->fw != NULL)
					fw_tick(lc->rt[k]->fw, lc->cur);
			lc->cur++;
			steps++;
			if (app.snap_every && (lc->cur % app.snap_every == 0 || lc->cur == stop_at))
				snapshot(lc, lc->cur);
		}
	}
	for (uint32_t i = 0; i < lc->nports; i++) {
		struct dp_port *p = lc->ports[i];

		if (p->kind == DP_PORT_FABRIC)
			dp_fabric_tx(p, &app.env, lc->cur, now_ns);
		else
			dp_port_flush(p);
	}
	atomic_store_explicit(&lc->done_cycle, lc->cur, memory_order_relaxed);
	if (steps == 0 && io == 0) {
		/* waiting for a peer: with run.idle = "sleep" leave the core to it (a testbed of
		 * more processes than free cores would otherwise spin away the peer's time) */
		if (app.dep.run.idle == DP_IDLE_SLEEP) {
			struct timespec ts = {0, 20000};

			nanosleep(&ts, NULL);
		} else {
			rte_pause();
		}
	}
}

/* One slice: read the devices, step up to the clock (at most run.max_steps cycles), send. */
static void lcore_slice(struct dp_lcore *lc)
{
	uint32_t max_steps = app.dep.run.max_steps;

	if (app.lockstep) {
		lcore_lockstep(lc);
		return;
	}

	{
		uint64_t now_ns = mono_ns();
		uint64_t target = app.free_run ? lc->cur + max_steps - 1 : clock_cycle(now_ns);
		unsigned io = 0, steps = 0;

		for (uint32_t i = 0; i < lc->nports; i++) {
			struct dp_port *p = lc->ports[i];

			io += p->kind == DP_PORT_FABRIC ? dp_fabric_rx(p, &app.env, lc->cur, now_ns)
							: dp_host_rx(p, &app.env, lc->cur);
		}
		while (lc->cur <= target && steps < max_steps) {
			step_cycle(lc);
			lc->cur++;
			steps++;
		}
		if (lc->cur <= target) {
			lc->slices_full++;
			if (target - lc->cur > lc->behind_max)
				lc->behind_max = target - lc->cur;
		}
		for (uint32_t i = 0; i < lc->nports; i++) {
			struct dp_port *p = lc->ports[i];

			if (p->kind == DP_PORT_FABRIC)
				dp_fabric_tx(p, &app.env, lc->cur, now_ns);
			else
				dp_port_flush(p);
		}
		atomic_store_explicit(&lc->done_cycle, lc->cur, memory_order_relaxed);
		if (steps == 0 && io == 0) {
			/* idle until the next cycle (or 20 µs), leaving the core to others; a
			 * machine that wakes us late is measured (run.idle = "spin" avoids it) */
			uint64_t wait = (uint64_t)app.cycle_ns;

			if (wait >= 2000 && app.dep.run.idle == DP_IDLE_SLEEP) {
				struct timespec ts = {0, (long)(wait > 20000 ? 20000 : wait)};
				uint64_t t0 = mono_ns(), late;

				nanosleep(&ts, NULL);
				late = mono_ns() - t0;
				late =
				    late > (uint64_t)ts.tv_nsec ? late - (uint64_t)ts.tv_nsec : 0;
				lc->sleeps++;
				if (late > lc->sleep_late_max_ns)
					lc->sleep_late_max_ns = late;
			} else {
				rte_pause();
			}
		}
	}
}

static int lcore_main(void *arg)
{
	struct dp_lcore *lc = arg;

	while (!stop)
		lcore_slice(lc);
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Capture (include/dfly/trace.h). An lcore formats the records of its routers into its own
 * ring; a control thread writes them to the pcap file. A full ring loses the record and counts
 * it: the packet path never waits for the disk. Timestamps are the wall clock (CLOCK_REALTIME);
 * the metadata carries the emulated cycle.
 */

#define DP_CAP_SLOTS 8192u /* records per lcore ring (power of two) */

struct dp_cap_ring {
	_Atomic uint32_t head; /* next slot the writer reads */
	_Atomic uint32_t tail; /* next slot the lcore fills */
	uint32_t stride;       /* bytes per slot: header + snap length */
	uint8_t *slots;
	uint8_t *scratch; /* the whole record before the snap length cuts it */
	size_t scratch_len;
	uint64_t full, sampled_out, errors; /* written by the lcore only */
};

static void cap_trace(void *ctx, const struct asic *as, const struct asic_trace_ev *ev)
{
	struct dp_cap_ring *r = ctx;
	struct pcap_pkthdr h;
	struct timespec ts;
	uint32_t tail, head;
	uint8_t *slot;
	int rc = dfly_capture_format(dfly_capture_cfg(app.cap), asic_router_id(as), ev, r->scratch,
				     r->scratch_len, &h);

	if (rc == DFLY_CAPTURE_SAMPLED_OUT)
		r->sampled_out++;
	if (rc < 0)
		r->errors++;
	if (rc != 0)
		return;
	tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
	head = atomic_load_explicit(&r->head, memory_order_acquire);
	if (tail - head >= DP_CAP_SLOTS) {
		r->full++;
		return;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	h.ts.tv_sec = ts.tv_sec;
	h.ts.tv_usec = ts.tv_nsec; /* nanoseconds: the file is nano-precision */
	slot = r->slots + (size_t)(tail & (DP_CAP_SLOTS - 1)) * r->stride;
	memcpy(slot, &h, sizeof(h));
	memcpy(slot + sizeof(h), r->scratch, h.caplen);
	atomic_store_explicit(&r->tail, tail + 1, memory_order_release);
}

/* The edge's capture point (a generator's packet skipped for want of injection room,
 * drop.inj_full), of the selected routers, into the lcore's ring as the ASICs' events. */
static void cap_edge_trace(void *ctx, const struct asic *as, const struct asic_trace_ev *ev)
{
	if (dfly_capture_selects(app.cap, asic_router_id(as)))
		cap_trace(ctx, as, ev);
}

/* Write what the rings hold. @return records written. */
static uint64_t cap_drain(void)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < app.nlc; i++) {
		struct dp_cap_ring *r = app.lc[i].cap;
		uint32_t head, tail;

		if (r == NULL)
			continue;
		head = atomic_load_explicit(&r->head, memory_order_relaxed);
		tail = atomic_load_explicit(&r->tail, memory_order_acquire);
		while (head != tail) {
			const uint8_t *slot =
			    r->slots + (size_t)(head & (DP_CAP_SLOTS - 1)) * r->stride;
			struct pcap_pkthdr h;

			memcpy(&h, slot, sizeof(h));
			dfly_capture_write(app.cap, &h, slot + sizeof(h));
			head++;
			n++;
		}
		atomic_store_explicit(&r->head, head, memory_order_release);
	}
	return n;
}

static void *cap_main(void *arg)
{
	(void)arg;
	while (!atomic_load_explicit(&app.cap_stop, memory_order_relaxed)) {
		if (cap_drain() == 0) {
			struct timespec ts = {0, 1000000};

			nanosleep(&ts, NULL);
		}
	}
	cap_drain();
	return NULL;
}

/* Open the writer and give every lcore a ring; attach it to the selected routers. */
static int cap_setup(const char *path, char *err, size_t errlen)
{
	const struct dfly_netcfg *c = &app.dep.net;
	uint8_t *map = calloc(app.topo->routers, 1);
	bool any = false;

	/* a process none of whose routers is selected writes no file */
	if (map == NULL || dfly_netcfg_parse_list(c->cap_routers, app.topo->routers, map) != 0) {
		snprintf(err, errlen, "capture.routers: bad list '%s'", c->cap_routers);
		free(map);
		return -1;
	}
	for (uint32_t r = 0; r < app.topo->routers; r++)
		any |= map[r] && app.dep.hosted[r];
	free(map);
	if (!any)
		return 0;
	app.cap = dfly_capture_open_netcfg(c, app.topo, path, err, errlen);
	if (app.cap == NULL)
		return -1;
	for (uint32_t i = 0; i < app.nlc; i++) {
		struct dp_lcore *lc = &app.lc[i];
		struct dp_cap_ring *r = calloc(1, sizeof(*r));

		if (r == NULL)
			goto nomem;
		lc->cap = r;
		r->stride = (uint32_t)((sizeof(struct pcap_pkthdr) + c->cap_snaplen + 7) / 8 * 8);
		r->slots = malloc((size_t)DP_CAP_SLOTS * r->stride);
		r->scratch_len = DFLY_TRACE_META_LEN + DFLY_WIRE_ETH_LEN + 65536;
		r->scratch = malloc(r->scratch_len);
		if (r->slots == NULL || r->scratch == NULL)
			goto nomem;
		for (uint32_t k = 0; k < lc->nrt; k++)
			if (dfly_capture_selects(app.cap, lc->rt[k]->id))
				asic_set_trace(lc->rt[k]->as, cap_trace, r, c->cap_points);
		lc->edge.trace = cap_edge_trace;
		lc->edge.trace_ctx = r;
		lc->edge.trace_points = c->cap_points;
	}
	return 0;
nomem:
	snprintf(err, errlen, "capture: out of memory");
	return -1;
}

/* After the lcores stopped: the last records, the losses, close. */
static void cap_finish(void)
{
	if (app.cap == NULL)
		return;
	atomic_store(&app.cap_stop, true);
	if (app.cap_running)
		pthread_join(app.cap_thread, NULL);
	cap_drain();
	for (uint32_t i = 0; i < app.nlc; i++) {
		struct dp_cap_ring *r = app.lc[i].cap;

		if (r == NULL)
			continue;
		dfly_capture_count(app.cap, DFLY_CAPTURE_RING_FULL, r->full);
		dfly_capture_count(app.cap, DFLY_CAPTURE_SAMPLED_OUT, r->sampled_out);
		dfly_capture_count(app.cap, -EINVAL, r->errors);
	}
	for (uint32_t r = 0; r < app.topo->routers; r++)
		if (app.rt[r].as != NULL)
			asic_set_trace(app.rt[r].as, NULL, NULL, 0);
	for (uint32_t i = 0; i < app.nlc; i++)
		app.lc[i].edge.trace = NULL;
	dfly_capture_close(app.cap, &app.cap_st);
	app.cap = NULL;
}

/* The firmware as a control thread: each router's firmware follows its ASIC (fw_follow). */
static void *fw_main(void *arg)
{
	(void)arg;
	while (!stop) {
		uint64_t ticks = 0;

		for (uint32_t r = 0; r < app.topo->routers; r++) {
			struct dp_router *rt = &app.rt[r];

			if (rt->fw != NULL)
				ticks += fw_follow(rt->fw, &rt->fw_next, FW_MAX_CATCHUP,
						   &rt->fw_skipped);
		}
		if (ticks == 0) {
			struct timespec ts = {0, 20000};

			nanosleep(&ts, NULL);
		}
	}
	return NULL;
}

/* ---------------------------------------------------------------------------------------------
 * Telemetry: /dfly/routers, /dfly/router,R, /dfly/port,R,P
 * Dictionary names may hold only letters, digits, '_' and '/' (DPDK refuses others, e.g. '.',
 * with -EINVAL): "drop_host_spoof", "route_hop_global", "vc0_enq_pkts".
 */

static struct dp_router *tel_find(const char *params)
{
	char *end;
	unsigned long r;

	if (params == NULL || *params == '\0')
		return NULL;
	r = strtoul(params, &end, 10);
	if ((*end != '\0' && *end != ',') || r >= app.topo->routers || app.rt[r].regs == NULL)
		return NULL;
	return &app.rt[r];
}

static int tel_routers(const char *cmd, const char *params, struct rte_tel_data *d)
{
	(void)cmd;
	(void)params;
	rte_tel_data_start_array(d, RTE_TEL_INT_VAL);
	for (uint32_t r = 0; r < app.topo->routers; r++)
		if (app.dep.hosted[r])
			rte_tel_data_add_array_int(d, (int)r);
	return 0;
}

static int tel_router(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct dp_router *rt = tel_find(params);
	const struct dfly_regs *g;

	(void)cmd;
	if (rt == NULL)
		return -EINVAL;
	g = rt->regs;
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "router", rt->id);
	rte_tel_data_add_dict_u64(d, "cycle", g->cycle);
	rte_tel_data_add_dict_u64(d, "ports", g->nports);
	rte_tel_data_add_dict_string(d, "mechanism", dfly_mode_name(g->knobs.mode));
	for (int c = 0; c < DFLY_DROP_COUNT; c++) {
		char k[64];

		snprintf(k, sizeof(k), "drop_%s", dfly_drop_names[c]);
		rte_tel_data_add_dict_u64(d, k, g->drop[c]);
	}
	for (int c = 0; c < DFLY_ROUTE_CTR_COUNT; c++) {
		char k[64];

		snprintf(k, sizeof(k), "route_%s", dfly_route_ctr_names[c]);
		rte_tel_data_add_dict_u64(d, k, g->route[c]);
	}
	return 0;
}

static int tel_port(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct dp_router *rt = tel_find(params);
	const char *comma = params ? strchr(params, ',') : NULL;
	const struct dfly_regs *g;
	unsigned long port;
	char *end;

	(void)cmd;
	if (rt == NULL || comma == NULL)
		return -EINVAL;
	port = strtoul(comma + 1, &end, 10);
	if (*end != '\0' || port >= rt->regs->nports)
		return -EINVAL;
	g = rt->regs;
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "link_state", dfly_link_state_name(g->link_state[port]));
	if (rt->dev[port] != NULL)
		rte_tel_data_add_dict_string(d, "dev", rt->dev[port]->name);
	for (int c = 0; c < DFLY_PORT_CTR_COUNT; c++)
		rte_tel_data_add_dict_u64(d, dfly_port_ctr_names[c], g->port_ctr[port][c]);
	for (uint32_t v = 0; v < g->nvcs[port]; v++) {
		for (int c = 0; c < DFLY_VC_CTR_COUNT; c++) {
			char k[64];

			snprintf(k, sizeof(k), "vc%u_%s", v, dfly_vc_ctr_names[c]);
			rte_tel_data_add_dict_u64(d, k, g->vc_ctr[port][v][c]);
		}
		for (int c = 0; c < DFLY_VC_GAUGE_COUNT; c++) {
			char k[64];

			snprintf(k, sizeof(k), "vc%u_%s", v, dfly_vc_gauge_names[c]);
			rte_tel_data_add_dict_int(d, k, (int)g->vc_gauge[port][v][c]);
		}
	}
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Reports
 */

/* What every lcore's generator nodes and host ports counted (read while they run). */
struct sink_totals {
	struct dfly_edge_stats e;
	uint64_t host_frames;
};

static void sink_totals(struct sink_totals *tot)
{
	memset(tot, 0, sizeof(*tot));
	for (uint32_t i = 0; i < app.nlc; i++) {
		dfly_edge_stats_add(&tot->e, &app.lc[i].edge.own);
		tot->host_frames += app.lc[i].host_frames;
	}
}

/* Latency percentiles of the window over every lcore (@p pkts packets in all). */
static void percentiles(uint64_t pkts, uint64_t *p50, uint64_t *p99)
{
	const struct dfly_edge_lane **lanes = calloc(app.nlc, sizeof(*lanes));

	*p50 = *p99 = 0;
	if (lanes == NULL)
		return;
	for (uint32_t i = 0; i < app.nlc; i++)
		lanes[i] = &app.lc[i].edge;
	dfly_edge_lat_percentiles(lanes, app.nlc, pkts, p50, p99);
	free(lanes);
}

/* The last cycle done by the slowest (@p max false) or the fastest lcore. */
static uint64_t lcore_cycle(bool max)
{
	uint64_t m = max ? 0 : UINT64_MAX;

	for (uint32_t i = 0; i < app.nlc; i++) {
		uint64_t c = atomic_load_explicit(&app.lc[i].done_cycle, memory_order_relaxed);

		if (max ? c > m : c < m)
			m = c;
	}
	return m;
}

static void progress(double t, uint64_t c0)
{
	struct sink_totals s;
	uint64_t cyc = lcore_cycle(false), retx = 0;

	sink_totals(&s);
	for (uint32_t i = 0; i < app.nports; i++)
		retx += app.ports[i]->st.retx;
	fprintf(stderr,
		"dfly-switch: t=%.1fs cycle %" PRIu64 " (%.2fx real time) generated %" PRIu64
		" delivered %" PRIu64 " lat %.1f misrouted %.1f%% host frames %" PRIu64
		" retx %" PRIu64 "\n",
		t, cyc, t > 0 ? (double)(cyc - c0) * app.cycle_ns / (t * 1e9) : 0.0, s.e.gen_total,
		s.e.dlv_total, s.e.m_pkts ? s.e.m_lat_sum / (double)s.e.m_pkts : 0.0,
		s.e.m_pkts ? 100.0 * (double)s.e.m_nonmin / (double)s.e.m_pkts : 0.0, s.host_frames,
		retx);
}

/*
 * One line summing a timing family (port.c: TIMED, then LATE, _CYCLES, _MAX, EARLY, _CYCLES,
 * _MAX) over every fabric device port: "NAME timing: N WHAT, ... cycles off a UNIT ...".
 * Nothing without fabric device ports. dfly testbed parses the line (testbed.c: timing_add()):
 * WHAT must not contain ", ".
 */
static void timing_report(FILE *f, enum dfly_port_ctr timed, const char *name, const char *what,
			  const char *unit)
{
	uint64_t t[7] = {0};
	bool any = false;

	for (uint32_t i = 0; i < app.nports; i++) {
		const struct dp_port *p = app.ports[i];
		const uint64_t *c = p->rt->regs->port_ctr[p->port] + timed;

		if (p->kind != DP_PORT_FABRIC)
			continue;
		any = true;
		for (int k = 0; k < 7; k++)
			t[k] = k == 3 || k == 6 ? RTE_MAX(t[k], c[k]) : t[k] + c[k];
	}
	if (!any)
		return;
	fprintf(f,
		"%s timing: %" PRIu64 " %s, %" PRIu64 " late and %" PRIu64 " early by more than "
		"2 cycles (%.2f cycles off a %s on average; worst %" PRIu64 " late, %" PRIu64
		" early)\n",
		name, t[0], what, t[1], t[4], t[0] ? (double)(t[2] + t[5]) / (double)t[0] : 0.0,
		unit, t[3], t[6]);
}

static void final_report(FILE *f, double wall)
{
	struct sink_totals s;
	uint64_t held = 0, link_pkts = 0, p50, p99;

	sink_totals(&s);
	for (uint32_t r = 0; r < app.topo->routers; r++)
		if (app.rt[r].as != NULL)
			held += asic_pkts_held(app.rt[r].as);
	for (uint32_t i = 0; i < app.nlinks; i++)
		link_pkts += asic_link_pkts(app.links[i]);
	fprintf(f, "# dfly-switch %s: %u routers, %.2f s, cycle %" PRIu64 "\n", app.dep.path,
		app.dep.nhosted, wall, lcore_cycle(false));
	fprintf(f,
		"generated %" PRIu64 " delivered %" PRIu64 " gen_drops %" PRIu64
		" host_frames %" PRIu64 " held_in_routers %" PRIu64 " on_inprocess_links %" PRIu64
		" fabric_drops %" PRIu64 "\n",
		s.e.gen_total, s.e.dlv_total, s.e.drop_inj + s.e.drop_nobuf, s.host_frames, held,
		link_pkts, s.e.drop_fabric);
	{
		uint64_t sw = 0;

		for (uint32_t r = 0; r < app.topo->routers; r++)
			for (uint32_t o = 0; app.rt[r].regs != NULL && o < app.topo->radix; o++)
				sw += app.rt[r].regs->port_ctr[o][DFLY_TX_PKTS];
		/* what the routers' crossbars forwarded: dfly bench dataplane reads this line */
		fprintf(f, "switched %" PRIu64 " packets in %.3f s: %.3f Mpps\n", sw, wall,
			wall > 0 ? (double)sw / wall / 1e6 : 0.0);
	}
	fprintf(f,
		"measured %" PRIu64 " packets generated from cycle %" PRIu64
		" (sim.warmup after every device port came up)\n",
		s.e.m_pkts, atomic_load(&app.edge.measure_from));
	percentiles(s.e.m_pkts, &p50, &p99);
	if (s.e.m_pkts)
		fprintf(
		    f,
		    "latency avg %.1f p50 %" PRIu64 " p99 %" PRIu64 " max %" PRIu64
		    " network %.1f cycles; misrouted %.2f%%; hops %.2f (local %.2f global %.2f)\n",
		    s.e.m_lat_sum / (double)s.e.m_pkts, p50, p99, s.e.m_lat_max,
		    s.e.m_net_lat_sum / (double)s.e.m_pkts,
		    100.0 * (double)s.e.m_nonmin / (double)s.e.m_pkts,
		    (double)s.e.m_hops / (double)s.e.m_pkts,
		    (double)s.e.m_lhops / (double)s.e.m_pkts,
		    (double)s.e.m_ghops / (double)s.e.m_pkts);
	timing_report(f, DFLY_LINK_TIMED, "link", "packets timed by the peers' ACKs", "packet");
	timing_report(f, DFLY_CREDIT_TIMED, "credit", "CREDIT frames with new credits timed",
		      "frame");
	if (app.cap_st.files)
		fprintf(
		    f,
		    "capture: %" PRIu64 " records, %" PRIu64 " bytes in %u file(s); lost %" PRIu64
		    " (capture ring full), %" PRIu64 " errors; %" PRIu64 " left out by the "
		    "sampling, %" PRIu64 " cut to the snap length\n",
		    app.cap_st.records, app.cap_st.bytes, app.cap_st.files, app.cap_st.ring_full,
		    app.cap_st.errors, app.cap_st.sampled_out, app.cap_st.truncated);
	for (uint32_t i = 0; i < app.npeers; i++) {
		const struct dp_peer_stats *ps = dp_peer_stats(app.peers[i]);

		fprintf(f,
			"peer %u: rx_data %" PRIu64 " tx_data %" PRIu64 " held %" PRIu64
			" rx_ctrl %" PRIu64 " fw_frames %" PRIu64 " info %" PRIu64 " gap %" PRIu64
			" no_room %" PRIu64 " (bad_frame %" PRIu64 " nak %" PRIu64
			" overflow %" PRIu64 ") errors %" PRIu64 "\n",
			i, ps->rx_data, ps->tx_data, ps->rx_data - ps->tx_data, ps->rx_ctrl,
			ps->fw_frames, ps->info, ps->gap, ps->no_room, ps->bad_frame, ps->nak,
			ps->overflow, ps->errors);
		for (int k = 0; k < DP_PEER_FAULT_COUNT; k++)
			if (ps->faults[k])
				fprintf(f, "peer %u: sent %" PRIu64 " bad frames: %s\n", i,
					ps->faults[k], dp_peer_fault_descs[k]);
	}
	for (uint32_t i = 0; i < app.nlc && !app.free_run; i++)
		if (app.lc[i].slices_full)
			fprintf(f,
				"lcore %u fell behind the clock in %" PRIu64
				" slices (at most %" PRIu64
				" cycles): raise clock.cycle_ns to run in real time\n",
				app.lc[i].lcore, app.lc[i].slices_full, app.lc[i].behind_max);
	for (uint32_t i = 0; i < app.nlc; i++)
		fprintf(f,
			"lcore %u idle: run.idle = \"%s\", %" PRIu64
			" sleeps, woken at most %.3f ms "
			"late\n",
			app.lc[i].lcore, app.dep.run.idle == DP_IDLE_SPIN ? "spin" : "sleep",
			app.lc[i].sleeps, (double)app.lc[i].sleep_late_max_ns * 1e-6);
	for (uint32_t i = 0; i < app.nlc; i++)
		for (uint32_t k = 0; k < app.lc[i].nports; k++) {
			const struct dp_port *p = app.lc[i].ports[k];

			if (p->kind == DP_PORT_FABRIC && p->stalls)
				fprintf(f,
					"router %u port %u (%s): %" PRIu64
					" polling gaps over %llu ms "
					"(at most %.1f ms), left out of link.dead_us\n",
					p->rt->id, p->port, p->name, p->stalls,
					DP_STALL_NS / 1000000ull, (double)p->stall_max_ns * 1e-6);
		}
	for (uint32_t r = 0; r < app.topo->routers; r++) {
		if (app.rt[r].regs == NULL)
			continue;
		dfly_regs_dump(app.rt[r].regs, f);
		if (app.rt[r].fw != NULL)
			fw_dump(app.rt[r].fw, f);
	}
}

/* ---------------------------------------------------------------------------------------------
 * Tear-down
 */

/*
 * DPDK 22.11's EAL leaves its interrupt thread running through rte_eal_cleanup(), and that
 * thread keeps registrations whose memory is gone: memif's server frees its listening socket's
 * interrupt handle without unregistering it, and a control channel closed while its callback
 * runs (the peer disconnecting as the processes of a testbed stop together) is unregistered
 * later, by that thread. The next time the thread rebuilds its epoll set, after
 * rte_eal_cleanup() has unmapped DPDK's heap, it faults (under ASan the fault report deadlocks
 * with the leak check at exit: the process never ends). So before the clean-up the thread is
 * parked for good in the callback of an eventfd of ours, which it runs after the events it was
 * handling; it is never woken, and the process ends around it.
 */
static int intr_parked;
/* reachable to the end, for LeakSanitizer (volatile: a pointer only stored is optimised out) */
static struct rte_intr_handle *volatile intr_park_handle;

static void intr_park_cb(void *arg __rte_unused)
{
	__atomic_store_n(&intr_parked, 1, __ATOMIC_RELEASE);
	for (;;)
		pause();
}

static void intr_thread_park(void)
{
	struct timespec ts = {0, 1000000};
	struct rte_intr_handle *h;
	uint64_t one = 1;
	int fd;

	/* an eventfd of our own: the alarm's callback would not do, as rte_eal_cleanup() waits
	 * for that one to return */
	fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	h = rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_PRIVATE);
	intr_park_handle = h;
	if (fd < 0 || h == NULL || rte_intr_type_set(h, RTE_INTR_HANDLE_EXT) != 0 ||
	    rte_intr_fd_set(h, fd) != 0 || rte_intr_callback_register(h, intr_park_cb, NULL) != 0 ||
	    write(fd, &one, sizeof(one)) != sizeof(one)) {
		DP_LOG(WARNING, "cannot park the DPDK interrupt thread\n");
		return; /* the handle and fd stay: the thread may still see them */
	}
	for (int i = 0; i < 2000 && !__atomic_load_n(&intr_parked, __ATOMIC_ACQUIRE); i++)
		nanosleep(&ts, NULL);
	if (!__atomic_load_n(&intr_parked, __ATOMIC_ACQUIRE))
		DP_LOG(WARNING, "the DPDK interrupt thread did not answer in 2 s\n");
}

/*
 * Closing a memif device disconnects the peer process, whose DPDK interrupt thread then unmaps
 * the shared rings while that process's lcore may still be sending or receiving on them (the
 * PMD does not guard against it: the lcore faults). The processes of a testbed stop at one
 * instant (duration and --gen-seconds count from the shared epoch; `dfly testbed down` signals
 * them together), so each waits DP_CLOSE_LINGER_MS after its own lcores stopped before it
 * closes anything; by then every peer has stopped touching the devices too.
 */
#define DP_CLOSE_LINGER_MS 300u

static void close_linger(void)
{
	uint64_t until = app.stop_ns + DP_CLOSE_LINGER_MS * 1000000ull, now;
	bool fabric = false;

	for (uint32_t i = 0; i < app.nports; i++)
		fabric |= app.ports[i]->kind == DP_PORT_FABRIC;
	if (!fabric || app.stop_ns == 0)
		return;
	while ((now = mono_ns()) < until) {
		struct timespec ts = {0, (long)(until - now)};

		nanosleep(&ts, NULL);
	}
}

static void teardown(void)
{
	close_linger();
	for (uint32_t i = 0; i < app.nports; i++) {
		struct dp_port *p = app.ports[i];
		void *fr[64];
		unsigned n;

		rte_pktmbuf_free_bulk(p->txq, p->ntx);
		while ((n = dp_llr_tx_drain(&p->tx, fr, 64)) > 0)
			rte_pktmbuf_free_bulk((struct rte_mbuf **)fr, n);
		dp_llr_tx_fini(&p->tx);
		rte_eth_dev_stop(p->eth);
		rte_eth_dev_close(p->eth);
		if (p->vdev)
			rte_vdev_uninit(p->name);
	}
	if (app.nports > 0)
		intr_thread_park();
	for (uint32_t i = 0; i < app.npeers; i++)
		dp_peer_destroy(app.peers[i]);
	free(app.peers);
	/* packets still inside the ASICs and links point into mbufs freed with the pool */
	for (uint32_t i = 0; i < app.nlinks; i++)
		asic_link_destroy(app.links[i]);
	for (uint32_t i = 0; i < app.nports; i++) {
		asic_link_destroy(app.ports[i]->out);
		asic_link_destroy(app.ports[i]->in);
		free(app.ports[i]);
	}
	for (uint32_t r = 0; app.topo && r < app.topo->routers; r++) {
		struct dp_router *rt = &app.rt[r];

		if (app.rt == NULL)
			break;
		fw_destroy(rt->fw);
		asic_destroy(rt->as);
		if (rt->shm.regs != NULL) {
			dfly_regs_shm_unlink(app.dep.instance, r);
			dfly_regs_shm_close(&rt->shm);
		} else {
			free(rt->regs);
		}
	}
	for (uint32_t i = 0; i < app.nlc; i++) {
		if (app.lc[i].cap != NULL) {
			free(app.lc[i].cap->slots);
			free(app.lc[i].cap->scratch);
			free(app.lc[i].cap);
		}
		free(app.lc[i].rt);
		free(app.lc[i].ports);
		dfly_edge_lane_fini(&app.lc[i].edge);
	}
	free(app.lc);
	free(app.rt);
	free(app.links);
	free(app.ports);
	dfly_edge_fini(&app.edge);
	dfly_gen_fini(&app.gen);
	dp_host_table_destroy(app.hosts);
	dfly_topo_destroy(app.topo);
	dp_deploy_free(&app.dep);
}

/* ---------------------------------------------------------------------------------------------
 * main: parse the options, plan (load, check and set up everything), run (the clock, the
 * threads and the main lcore's loop until the end), report (the final counters)
 */

/* What the options after -- ask for. */
struct sw_opts {
	const char *sets[MAX_SETS];
	int nsets;
	const char *counters; /* --counters FILE, or NULL: standard output */
	const char *cap_path; /* --capture FILE, or capture.file, or NULL */
	char cap_name[512];   /* capture.file made one per process */
	double duration;      /* --duration S, or < 0 */
	uint64_t epoch;       /* --epoch-ns NS, or 0 */
	double gen_seconds;   /* --gen-seconds S, or < 0 */
	bool check, exit_drained;
};

/* Option @p word (or @p alias, may be NULL) anywhere on the command line: -h/--help, --version,
 * answered before the EAL starts anything (the EAL's own -h would print its usage instead). */
static bool asked(int argc, char **argv, const char *word, const char *alias)
{
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], word) == 0 || (alias != NULL && strcmp(argv[i], alias) == 0))
			return true;
	return false;
}

/*
 * rte_eal_init() with standard output to /dev/null: after an option it does not know, the EAL
 * prints its whole usage (about 100 lines) there, below the one line that matters (glibc's,
 * on stderr, as the EAL's log is). @return what rte_eal_init() returned.
 */
static int eal_init(int argc, char **argv)
{
	int null = open("/dev/null", O_WRONLY), saved = -1, rc;

	fflush(stdout);
	if (null >= 0) {
		saved = dup(STDOUT_FILENO);
		if (saved >= 0)
			dup2(null, STDOUT_FILENO);
		close(null);
	}
	rc = rte_eal_init(argc, argv);
	fflush(stdout);
	if (saved >= 0) {
		dup2(saved, STDOUT_FILENO);
		close(saved);
	}
	return rc;
}

/* The options after the EAL's (after --). */
static const struct option opts[] = {{"set", required_argument, NULL, 's'},
				     {"duration", required_argument, NULL, 'd'},
				     {"epoch-ns", required_argument, NULL, 'e'},
				     {"gen-seconds", required_argument, NULL, 'g'},
				     {"counters", required_argument, NULL, 'c'},
				     {"check", no_argument, NULL, 'k'},
				     {"capture", required_argument, NULL, 'P'},
				     {"quiet", no_argument, NULL, 'q'},
				     {"free-run", no_argument, NULL, 'F'},
				     {"gen-frame", required_argument, NULL, 'G'},
				     {"exit-drained", no_argument, NULL, 'D'},
				     {"lockstep", no_argument, NULL, 'L'},
				     {"cycles", required_argument, NULL, 'N'},
				     {"lockstep-wait-ms", required_argument, NULL, 'W'},
				     {"snapshots", required_argument, NULL, 'S'},
				     {"snapshot-every", required_argument, NULL, 'K'},
				     {"help", no_argument, NULL, 'h'},
				     {NULL, 0, NULL, 0}};

/* One of dfly-switch's options before --, where the EAL would refuse it with its whole usage:
 * say where it goes instead. @return 0, or the exit status. */
static int misplaced(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		for (const struct option *p = opts; p->name != NULL; p++)
			if (strncmp(argv[i], "--", 2) == 0 &&
			    strncmp(argv[i] + 2, p->name, strlen(p->name)) == 0 &&
			    (argv[i][2 + strlen(p->name)] == '\0' ||
			     argv[i][2 + strlen(p->name)] == '='))
				return dfly_cli_usage_error("dfly-switch",
							    "--%s goes after the EAL options and "
							    "--, with the deployment file",
							    p->name);
	return 0;
}

/* The options after the EAL's, and the deployment file they name. @return -1 to go on, else the
 * exit status. */
static int parse(int argc, char **argv, struct sw_opts *o)
{
	char err[1024];
	int opt;

	memset(o, 0, sizeof(*o));
	o->duration = -1;
	o->gen_seconds = -1;
	optind = 1;
	while ((opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (opt) {
		case 's':
			if (o->nsets == MAX_SETS) {
				fprintf(stderr, "dfly-switch: more than %d --set\n", MAX_SETS);
				goto usage;
			}
			o->sets[o->nsets++] = optarg;
			break;
		case 'd':
			if (dfly_cli_parse_seconds("dfly-switch", "--duration", optarg, 1e9,
						   &o->duration) != 0)
				goto usage;
			break;
		case 'c':
			o->counters = optarg;
			break;
		case 'e':
			if (dfly_cli_parse_u64("dfly-switch", "--epoch-ns", optarg, 1, UINT64_MAX,
					       "nanoseconds (CLOCK_MONOTONIC)", &o->epoch) != 0)
				goto usage;
			break;
		case 'g':
			if (dfly_cli_parse_seconds("dfly-switch", "--gen-seconds", optarg, 1e9,
						   &o->gen_seconds) != 0)
				goto usage;
			break;
		case 'k':
			o->check = true;
			break;
		case 'P':
			o->cap_path = optarg;
			break;
		case 'q':
			app.quiet = true;
			break;
		case 'F':
			app.free_run = true;
			break;
		case 'D':
			o->exit_drained = true;
			break;
		case 'L':
			app.lockstep = true;
			break;
		case 'N':
			if (dfly_cli_parse_u64("dfly-switch", "--cycles", optarg, 1, UINT64_MAX / 2,
					       "cycles", &app.ls_stop) != 0)
				goto usage;
			break;
		case 'W': {
			uint64_t ms;

			if (dfly_cli_parse_u64("dfly-switch", "--lockstep-wait-ms", optarg, 1,
					       3600000, "milliseconds", &ms) != 0)
				goto usage;
			app.ls_wait_ns = ms * 1000000ull;
			break;
		}
		case 'S':
			app.snap_path = optarg;
			break;
		case 'K':
			if (dfly_cli_parse_u64("dfly-switch", "--snapshot-every", optarg, 1,
					       UINT64_MAX / 2, "cycles", &app.snap_every) != 0)
				goto usage;
			break;
		case 'G': {
			char *end;
			unsigned long v = strtoul(optarg, &end, 10);

			if (*end || v == 0 || v > 9000) {
				fprintf(stderr, "dfly-switch: --gen-frame %s: bytes 1..9000\n",
					optarg);
				goto usage;
			}
			app.gen_frame = (uint32_t)v;
			break;
		}
		case 'h':
			usage(stdout);
			return 0;
		default:
			rte_eal_cleanup();
			return dfly_cli_opt_error("dfly-switch", opts, opt, argv);
		}
	}
	if (!app.lockstep && (app.ls_stop || app.ls_wait_ns || app.snap_path || app.snap_every)) {
		fprintf(stderr, "dfly-switch: --cycles, --lockstep-wait-ms, --snapshots and "
				"--snapshot-every need --lockstep\n");
		rte_eal_cleanup();
		return 2;
	}
	if (app.lockstep && (o->gen_seconds >= 0 || o->exit_drained || app.free_run)) {
		fprintf(stderr,
			"dfly-switch: --lockstep steps the model as dfly sim does: "
			"--gen-seconds, --exit-drained and --free-run do not apply (--cycles "
			"N ends it)\n");
		rte_eal_cleanup();
		return 2;
	}
	if ((app.snap_path != NULL) != (app.snap_every != 0)) {
		fprintf(stderr,
			"dfly-switch: --snapshots FILE and --snapshot-every K go together\n");
		rte_eal_cleanup();
		return 2;
	}
	if (app.lockstep && app.ls_wait_ns == 0)
		app.ls_wait_ns = 100000000ull; /* 100 ms */
	if (o->exit_drained && o->gen_seconds < 0) {
		fprintf(stderr, "dfly-switch: --exit-drained needs --gen-seconds\n");
		rte_eal_cleanup();
		return 2;
	}
	if (optind != argc - 1) {
		rte_eal_cleanup();
		if (optind < argc - 1)
			return dfly_cli_usage_error("dfly-switch", "unexpected argument '%s'",
						    argv[optind + 1]);
		return dfly_cli_usage_error("dfly-switch",
					    "a deployment file is required (after the EAL "
					    "options and --)");
	}
	if (dp_deploy_load(&app.dep, argv[optind], o->sets, o->nsets, err, sizeof(err)) < 0) {
		fprintf(stderr, "dfly-switch: %s\n", err);
		rte_eal_cleanup();
		return 2;
	}
	return -1;
usage:
	rte_eal_cleanup();
	return DFLY_CLI_USAGE;
}

/*
 * DPDK's own tools attach as secondary processes (dpdk-proc-info, dpdk-dumpcap, dpdk-pdump):
 * they need this process's shared configuration and memory, which a run on hugepages without
 * --no-shconf has. The capture tools also need the pdump framework's server here. One line says
 * which mode runs and why.
 */
static void attach_tools(void)
{
	char pfx[PATH_MAX];
	const char *dir = rte_eal_get_runtime_dir();
	const char *base = strrchr(dir, '/');

	snprintf(pfx, sizeof(pfx), "%s", base != NULL ? base + 1 : dir);
	if (rte_eal_has_hugepages() && rte_pdump_init() == 0) {
		app.pdump = true;
		if (!app.quiet)
			fprintf(
			    stderr,
			    "dfly-switch: hugepage memory, shared: dpdk-proc-info, dpdk-dumpcap "
			    "and dpdk-pdump attach with --file-prefix %s\n",
			    pfx);
		return;
	}
	if (!app.quiet)
		fprintf(stderr,
			"dfly-switch: %s: DPDK's tools (dpdk-proc-info, dpdk-dumpcap, dpdk-pdump) "
			"cannot attach; telemetry (dpdk-telemetry.py -f %s) can\n",
			rte_eal_has_hugepages() ? "no shared configuration (--no-shconf)"
						: "no hugepages (--no-huge)",
			pfx);
}

/* The packet buffers, the environment of the ports, the generators and their edge. @return 0
 * or the exit status. */
static int plan_traffic(void)
{
	const struct dfly_netcfg *nc = &app.dep.net;
	uint32_t n = app.dep.run.mbufs;
	unsigned priv = RTE_ALIGN(sizeof(struct dp_mbuf_priv), RTE_MBUF_PRIV_ALIGN);
	uint32_t minbuf = dfly_netcfg_min_buf(nc);
	uint32_t vcs = max_u32(nc->vc_inj, max_u32(nc->vc_local, nc->vc_global));

	if (n == 0) {
		uint64_t want =
		    8192 + (uint64_t)app.dep.nhosted * app.topo->radix * (nc->buf_global / 2 + 64);

		n = (uint32_t)RTE_MIN(want, 262143u);
	}
	app.env.mp = rte_pktmbuf_pool_create("dfly_mbufs", n, 256, (uint16_t)priv,
					     RTE_MBUF_DEFAULT_BUF_SIZE, rte_socket_id());
	if (app.env.mp == NULL) {
		fprintf(stderr,
			"dfly-switch: cannot allocate %u packet buffers: %s (raise EAL -m or "
			"lower run.mbufs)\n",
			n, rte_strerror(rte_errno));
		return 1;
	}
	app.env.topo = app.topo;
	app.env.link = &app.dep.link;
	app.env.hosts = app.hosts;
	app.env.phit_bytes = nc->phit_bytes;
	app.env.lockstep = app.lockstep;
	app.env.host_max_frame = RTE_MIN(dp_host_max_frame(minbuf, nc->phit_bytes),
					 (size_t)RTE_MBUF_DEFAULT_DATAROOM - 64);
	app.env.host_max_phits = dp_host_frame_phits(app.env.host_max_frame, nc->phit_bytes);
	app.gen_phits =
	    app.gen_frame ? dp_host_frame_phits(app.gen_frame, nc->phit_bytes) : nc->pkt_phits;
	if (app.gen_phits > minbuf) {
		fprintf(stderr,
			"dfly-switch: --gen-frame %u: a %u-phit packet does not fit the smallest "
			"buffer of %s (%u phits)\n",
			app.gen_frame, app.gen_phits, app.dep.network, minbuf);
		return 2;
	}
	dfly_wire_limits_init(
	    &app.env.lim, app.topo, vcs,
	    max_u32(max_u32(app.env.host_max_phits, nc->pkt_phits), app.gen_phits));
	if (dfly_netcfg_workload(nc)) {
		fprintf(stderr,
			"dfly-switch: %s: traffic.pattern %s is a workload run to completion in "
			"dfly sim only\n",
			nc->path, dfly_netcfg_workload_name(nc));
		return 1;
	}
	if (nc->reqrep) {
		/* the edge answers requests (traffic/edge.c), but a reply's injection by a port
		 * that does not generate, and the per-class figures, are not wired here yet */
		fprintf(stderr,
			"dfly-switch: %s: traffic.reqrep runs in dfly sim only (not built "
			"for dfly-switch's generator ports)\n",
			nc->path);
		return 1;
	}
	if (dfly_gen_init(&app.gen, app.topo, nc->pattern, nc->adv_offset, nc->load,
			  nc->link_rate ? app.gen_phits : 1, nc->seed) < 0 ||
	    dfly_gen_set_shape(&app.gen, nc->burst_len, nc->mix_un) < 0 ||
	    dfly_gen_set_advc_groups(&app.gen, nc->advc_groups) < 0 ||
	    (nc->mix_noffs > 0 &&
	     dfly_gen_set_mix_offsets(&app.gen, nc->mix_offs, nc->mix_noffs) < 0)) {
		fprintf(stderr, "dfly-switch: traffic: cannot set up the generators\n");
		return 1;
	}
	if (dfly_edge_init(&app.edge, app.topo, &app.gen, app.gen_phits,
			   nc->source == DFLY_SRC_UNBOUNDED, app.dep.gen) < 0) {
		fprintf(stderr, "dfly-switch: out of memory\n");
		return 1;
	}
	/* open the whole run; measured: packets generated from measure_from (in lockstep from
	 * sim.warmup, as in dfly sim: cycle 0 is the same everywhere) */
	app.edge.measuring = true;
	atomic_store(&app.edge.measure_from, app.lockstep ? nc->warmup : UINT64_MAX);
	if (app.lockstep && app.dep.firmware == DP_FW_EXTERNAL) {
		fprintf(stderr, "dfly-switch: --lockstep: the firmware ticks inline after each "
				"cycle, so firmware = \"thread\" or \"none\" (not dfly-controld, "
				"which runs on its own clock)\n");
		return 2;
	}
	return 0;
}

/* Below this many ns per cycle no lcore keeps up with the clock: stepping a router through one
 * cycle takes it microseconds (a few hundred thousand router-cycles per second; dfly testbed
 * warns at the same bound). */
#define CYCLE_NS_REAL_TIME 1000.0

/*
 * clock.cycle_ns too short for real time, said once: a network file written for dfly sim has 1 ns
 * (a 1 GHz router), and run as it is the routers would crawl at a few thousandths of real time,
 * far behind the wall clock, with nothing but "fell behind" at the end to say why.
 */
static void warn_cycle_ns(void)
{
	if (app.free_run || app.cycle_ns >= CYCLE_NS_REAL_TIME)
		return;
	fprintf(stderr,
		"dfly-switch: warning: clock.cycle_ns = %g: every emulated cycle is %g ns of real "
		"time, which no lcore keeps up with (a router-cycle takes it microseconds), so the "
		"routers will run far slower than real time; set e.g. --set "
		"clock.cycle_ns=10000 (10 us per cycle), or --free-run for a benchmark\n",
		app.cycle_ns, app.cycle_ns);
}

/*
 * Set up everything the deployment names: routers, devices, generators, telemetry.
 * @return -1 to run, 0 when done (--check), else the exit status.
 */
static int plan(const struct sw_opts *o)
{
	char err[1024];
	struct dp_host_entry *e;
	int rc;

	if (o->duration >= 0)
		app.dep.run.duration_s = o->duration;
	if (o->epoch)
		app.dep.run.epoch_ns = o->epoch;
	app.cycle_ns = app.dep.net.cycle_ns;
	app.topo = dfly_topo_create(app.dep.net.p, app.dep.net.a, app.dep.net.h, app.dep.net.t,
				    app.dep.net.arr, app.dep.net.sigma);
	e = calloc(app.dep.nhosts + 1, sizeof(*e));
	for (uint32_t i = 0; e && i < app.dep.nhosts; i++) {
		e[i].node = app.dep.hosts[i].node;
		memcpy(e[i].mac, app.dep.hosts[i].mac, 6);
		e[i].ip = app.dep.hosts[i].ip;
	}
	if (e == NULL || app.topo == NULL ||
	    dp_host_table_create(&app.hosts, e, app.dep.nhosts, app.topo->nodes, err, sizeof(err)) <
		0) {
		fprintf(stderr, "dfly-switch: %s\n", e ? err : "out of memory");
		free(e);
		return 2;
	}
	free(e);
	if (o->check) {
		printf("%s: network %s, %u of %u routers here, %u device ports, %u hosts, firmware "
		       "%s, "
		       "register files %s\n",
		       app.dep.path, app.dep.network, app.dep.nhosted, app.topo->routers,
		       app.dep.nports, app.dep.nhosts, dp_fw_mode_name(app.dep.firmware),
		       app.dep.instance[0] ? app.dep.instance : "in process memory");
		warn_cycle_ns();
		return 0;
	}
	if ((rc = plan_traffic()) != 0)
		return rc;
	if (setup_routers(err, sizeof(err)) < 0 || setup_devices(err, sizeof(err)) < 0) {
		fprintf(stderr, "dfly-switch: %s\n", err);
		return 1;
	}
	for (uint32_t i = 0; i < app.nlc; i++) {
		/* packet ids: lcore i's from i << 28 */
		if (dfly_edge_lane_init(&app.lc[i].edge, &app.edge, &gen_pool_ops, &app, i << 28) <
		    0) {
			fprintf(stderr, "dfly-switch: out of memory\n");
			return 1;
		}
	}
	rte_telemetry_register_cmd("/dfly/routers", tel_routers, "Routers hosted here.");
	rte_telemetry_register_cmd(
	    "/dfly/router", tel_router,
	    "Router summary, drops and routing decisions. Parameter: router");
	rte_telemetry_register_cmd("/dfly/port", tel_port,
				   "Port and VC counters. Parameters: router,port");
	attach_tools();
	warn_cycle_ns();
	return -1;
}

/* Cycle 0 at the shared epoch, or now (@p t0): every lcore and firmware starts at @return. */
static uint64_t run_clock(uint64_t t0)
{
	uint64_t c0;

	app.epoch_ns = app.dep.run.epoch_ns ? app.dep.run.epoch_ns : t0;
	c0 = app.lockstep ? 0 : clock_cycle(t0); /* lockstep: cycle 0, as in dfly sim */
	for (uint32_t i = 0; i < app.nlc; i++) {
		app.lc[i].cur = c0;
		atomic_store(&app.lc[i].done_cycle, c0);
		for (uint32_t k = 0; k < app.lc[i].nrt; k++) {
			struct dp_router *rt = app.lc[i].rt[k];

			/* the firmware ticks cycle c once steps > c */
			atomic_store(&rt->regs->steps, c0);
			rt->fw_next = c0;
		}
	}
	return c0;
}

/* --capture, or capture.file (a testbed's processes share the network file: one file each).
 * @return 0 or the exit status. */
static int run_capture(struct sw_opts *o)
{
	char err[1024];

	if (o->cap_path == NULL && app.dep.net.cap_file[0] != '\0') {
		o->cap_path = app.dep.net.cap_file;
		if (app.dep.nhosted < app.topo->routers) {
			const char *cp = o->cap_path;
			const char *dot = strrchr(cp, '.'), *sl = strrchr(cp, '/');
			uint32_t first = 0;

			while (!app.dep.hosted[first])
				first++;
			if (dot == NULL || (sl != NULL && dot < sl))
				dot = cp + strlen(cp);
			snprintf(o->cap_name, sizeof(o->cap_name), "%.*s-r%u%s", (int)(dot - cp),
				 cp, first, *dot ? dot : ".pcap");
			o->cap_path = o->cap_name;
		}
	}
	if (o->cap_path == NULL)
		return 0;
	if (cap_setup(o->cap_path, err, sizeof(err)) < 0) {
		fprintf(stderr, "dfly-switch: %s\n", err);
		return 2;
	}
	if (app.cap != NULL && pthread_create(&app.cap_thread, NULL, cap_main, NULL) != 0) {
		DP_LOG(ERR, "cannot start the capture thread\n");
		return 1;
	}
	app.cap_running = app.cap != NULL;
	return 0;
}

/*
 * The main thread's watch, between two slices of its own lcore's share: the end (duration, or
 * --exit-drained), the generators' stop (--gen-seconds), progress lines, the measurement
 * window's start. @return true to stop.
 */
/* Lockstep: "exact" or where the run stopped being exact (the earliest fault of any port). */
static const char *lockstep_verdict(void)
{
	const struct dp_port *f = NULL;

	for (uint32_t i = 0; i < app.nports; i++) {
		const struct dp_port *p = app.ports[i];

		if (p->kind == DP_PORT_FABRIC && p->ls_fault != UINT64_MAX &&
		    (f == NULL || p->ls_fault < f->ls_fault))
			f = p;
	}
	if (f == NULL)
		snprintf(app.ls_verdict, sizeof(app.ls_verdict), "exact");
	else
		snprintf(app.ls_verdict, sizeof(app.ls_verdict),
			 "not exact from cycle %" PRIu64 ": router %u port %u (to router %u): %s",
			 f->ls_fault, f->rt->id, f->port, f->peer_router, f->ls_why);
	return app.ls_verdict;
}

static bool run_watch(const struct sw_opts *o, uint64_t now, uint64_t t0, uint64_t c0,
		      uint64_t *next_progress, uint64_t *drained_at)
{
	/* both count from cycle 0, which the processes of a testbed share, so they stop
	 * generating and stop together (a memif peer must not close its end while this one
	 * still uses the device: see teardown()) */
	int64_t since_epoch = (int64_t)(now - app.epoch_ns);

	if (app.dep.run.duration_s > 0 && (double)since_epoch >= app.dep.run.duration_s * 1e9)
		return true;
	if (o->gen_seconds >= 0 && app.gen.on && (double)since_epoch >= o->gen_seconds * 1e9)
		app.gen.on = false; /* read by the lcores; a late cycle is harmless */
	if (o->exit_drained && !app.gen.on) {
		/* drained twice, the second time once every lcore has stepped a cycle after the
		 * first: a packet a late cycle generated (it read gen.on before the store) would
		 * show as generated > delivered */
		struct sink_totals s;

		sink_totals(&s);
		if (s.e.gen_total != s.e.dlv_total + s.e.drop_fabric || s.e.queued_src != 0)
			*drained_at = UINT64_MAX;
		else if (*drained_at == UINT64_MAX)
			*drained_at = lcore_cycle(true);
		else if (lcore_cycle(false) > *drained_at + 1)
			return true;
	}
	if (app.lockstep && app.ls_stop && !app.ls_done && lcore_cycle(false) >= app.ls_stop) {
		app.ls_done = true;
		fprintf(stderr, "dfly-switch: lockstep: cycle %" PRIu64 " reached (%s)\n",
			app.ls_stop, lockstep_verdict());
	}
	if (!app.quiet && app.dep.run.stats_interval_s > 0 && now >= *next_progress) {
		progress((double)(now - t0) / 1e9, c0);
		*next_progress += (uint64_t)(app.dep.run.stats_interval_s * 1e9);
	}
	if (atomic_load_explicit(&app.edge.measure_from, memory_order_relaxed) == UINT64_MAX) {
		bool all_up = true;

		for (uint32_t i = 0; i < app.nports && all_up; i++)
			all_up =
			    app.ports[i]->kind == DP_PORT_HOST ||
			    app.ports[i]->rt->regs->link_state[app.ports[i]->port] == DFLY_LINK_UP;
		if (all_up)
			atomic_store(&app.edge.measure_from,
				     lcore_cycle(false) + app.dep.net.warmup);
	}
	return false;
}

/*
 * Start the clock, the firmware and capture threads and the other lcores; step the main
 * lcore's share and watch until the end; stop everything. @p t0: the start (mono_ns).
 * @return 0 or the exit status (the final report is written either way).
 */
static int run(struct sw_opts *o, uint64_t *t0)
{
	struct dp_lcore *mine = NULL;
	uint64_t c0, next_progress;
	uint64_t drained_at = UINT64_MAX; /* cycle of the first poll that saw the network drained */
	int status = 0;

	*t0 = mono_ns();
	c0 = run_clock(*t0);
	if (!app.quiet)
		fprintf(
		    stderr,
		    "dfly-switch: %u routers on %u lcores, %u device ports, %u generator nodes, "
		    "firmware %s, cycle %.0f ns, starting at cycle %" PRIu64 "\n",
		    app.dep.nhosted, app.nlc, app.nports, app.lc ? app.lc[0].ngen : 0,
		    dp_fw_mode_name(app.dep.firmware), app.cycle_ns, c0);
	for (uint32_t i = 0; app.snap_path != NULL && i < app.nlc; i++) {
		struct dp_lcore *lc = &app.lc[i];

		lc->snap = open_memstream(&lc->snap_buf, &lc->snap_len);
		if (lc->snap == NULL) {
			DP_LOG(ERR, "--snapshots: %s\n", strerror(errno));
			return -1;
		}
		/* the nodes of its routers that generate (a line per router: lines stay short
		 * whatever the network): dfly verify's model runs those only */
		for (uint32_t k = 0; k < lc->nrt; k++) {
			const struct dp_router *rt = lc->rt[k];

			fputs("generators", lc->snap);
			for (uint32_t q = 0; q < app.topo->p; q++)
				if (rt->term[q] == DP_TERM_GEN)
					fprintf(lc->snap, " %" PRIu32, rt->id * app.topo->p + q);
			fputs("\n", lc->snap);
		}
	}
	if (app.snap_path != NULL) {
		/* and every delivery (a host's too: collect()) */
		app.edge.tap = tap_record;
		app.edge.tap_ctx = NULL;
	}
	if (app.dep.firmware == DP_FW_THREAD && !app.lockstep) {
		/* lockstep: the lcores tick the firmware themselves, after each cycle */
		if (pthread_create(&app.fw_thread, NULL, fw_main, NULL) != 0) {
			DP_LOG(ERR, "cannot start the firmware thread\n");
			return -1;
		}
		app.fw_running = true;
	}
	if ((status = run_capture(o)) != 0)
		stop = 1;
	for (uint32_t i = 0; i < app.nlc && status == 0; i++)
		if (app.lc[i].lcore != rte_get_main_lcore() &&
		    rte_eal_remote_launch(lcore_main, &app.lc[i], app.lc[i].lcore) != 0) {
			DP_LOG(ERR, "cannot launch lcore %u\n", app.lc[i].lcore);
			stop = 1;
		}
	next_progress = *t0 + (uint64_t)(app.dep.run.stats_interval_s * 1e9);
	for (uint32_t i = 0; i < app.nlc; i++)
		if (app.lc[i].lcore == rte_get_main_lcore())
			mine = &app.lc[i];
	/* the main lcore steps its share in slices and watches the clock in between */
	while (!stop) {
		uint64_t now = mono_ns();

		if (run_watch(o, now, *t0, c0, &next_progress, &drained_at))
			break;
		if (mine != NULL)
			lcore_slice(mine);
		if (app.npeers) {
			now = mono_ns();
			for (uint32_t i = 0; i < app.npeers; i++)
				dp_peer_poll(app.peers[i], now);
		} else if (mine == NULL) {
			struct timespec ts = {0, 1000000};

			nanosleep(&ts, NULL);
		}
	}
	stop = 1;
	rte_eal_mp_wait_lcore();
	app.stop_ns = mono_ns();
	if (app.fw_running)
		pthread_join(app.fw_thread, NULL);
	cap_finish();
	return status;
}

/* The final counters, to --counters FILE or standard output. */
static void report(const struct sw_opts *o, uint64_t t0)
{
	FILE *cf = stdout;

	if (o->counters != NULL) {
		cf = fopen(o->counters, "w");
		if (cf == NULL) {
			fprintf(stderr, "dfly-switch: %s: %s\n", o->counters, strerror(errno));
			cf = stdout;
		}
	}
	final_report(cf, (double)(mono_ns() - t0) / 1e9);
	if (app.lockstep)
		fprintf(cf, "# lockstep: cycle %" PRIu64 ", %s\n", lcore_cycle(false),
			lockstep_verdict());
	if (cf != stdout)
		fclose(cf);
	if (app.snap_path != NULL) {
		FILE *sf = fopen(app.snap_path, "w");

		if (sf == NULL)
			fprintf(stderr, "dfly-switch: %s: %s\n", app.snap_path, strerror(errno));
		for (uint32_t i = 0; i < app.nlc; i++) {
			if (app.lc[i].snap == NULL)
				continue;
			fclose(app.lc[i].snap);
			app.lc[i].snap = NULL;
			if (sf != NULL)
				fwrite(app.lc[i].snap_buf, 1, app.lc[i].snap_len, sf);
			free(app.lc[i].snap_buf);
		}
		if (sf != NULL)
			fprintf(sf, "# lockstep: %s\n", lockstep_verdict());
		if (sf != NULL && fclose(sf) != 0)
			fprintf(stderr, "dfly-switch: %s: %s\n", app.snap_path, strerror(errno));
	}
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	struct sw_opts o;
	uint64_t t0 = 0;
	int eal, status;

	if (asked(argc, argv, "--help", "-h")) {
		usage(stdout);
		return 0;
	}
	if (asked(argc, argv, "--version", NULL)) {
		dfly_cli_print_version(stdout, "dfly-switch");
		return 0;
	}
	/* from the start: a signal while plan() sets up (register files in /dev/shm, devices)
	 * must still end in teardown(), not leave them behind */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if ((status = misplaced(argc, argv)) != 0)
		return status;
	eal = eal_init(argc, argv);
	if (eal < 0) /* the help says which EAL options a machine without hugepages needs */
		return dfly_cli_usage_error("dfly-switch", "EAL initialisation failed: %s",
					    rte_strerror(rte_errno));
	argc -= eal;
	argv += eal;
	lib_log_init();
	if ((status = parse(argc, argv, &o)) >= 0)
		return status;
	status = plan(&o);
	if (status < 0 && stop) {
		fprintf(stderr, "dfly-switch: stopped by a signal while setting up\n");
		status = 0;
	}
	if (status < 0) {
		status = run(&o, &t0);
		if (status >= 0)
			report(&o, t0);
		else
			status = 1;
	}
	teardown();
	if (app.pdump)
		rte_pdump_uninit();
	if (app.env.mp != NULL)
		rte_mempool_free(app.env.mp);
	rte_eal_cleanup();
	return status;
}
