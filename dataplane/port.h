/* SPDX-License-Identifier: BSD-3-Clause */
/* Device ports of dfly-switch (port.c): fabric links on Ethernet, host edges. */
#ifndef DP_PORT_H
#define DP_PORT_H

#include <stdint.h>

#include <rte_mempool.h>

#include "dfly/wire.h"
#include "dp.h"

/** What every port of the process shares (read-only while running). */
struct dp_env {
	const struct dfly_topo *topo;
	struct dfly_wire_limits lim;    /**< decoder limits */
	const struct dp_link_cfg *link; /**< link-layer timers */
	struct rte_mempool *mp;
	const struct dp_host_table *hosts;
	size_t host_max_frame;   /**< largest host frame carried (bytes) */
	uint32_t host_max_phits; /**< its size in phits */
	uint32_t phit_bytes;
	/** lockstep (dfly-switch --lockstep): frames leave as soon as the model puts them on the
	 *  link, each timed frame behind a SYNC with its due cycle, and a bare SYNC after each
	 *  transmit gives the peer our horizon; the receiver takes each frame at its due cycle */
	bool lockstep;
};

/** Lockstep: port @p p stopped being exact at @p cycle (the earliest is kept), because @p why. */
void dp_lockstep_fault(struct dp_port *p, uint64_t cycle, const char *why);

/** The MAC of a router's fabric port: 02:df:fe:RR:RR:PP. */
void dp_fabric_mac(uint32_t router, uint32_t port, uint8_t mac[6]);

/** Read a burst from a fabric port's device; packets are due at cycle @p cur. @return frames. */
unsigned dp_fabric_rx(struct dp_port *p, const struct dp_env *env, uint64_t cur, uint64_t now_ns);

/** Send what is due by cycle @p cur (data, resends, control, credits, ACKs, HELLO) and flush. */
void dp_fabric_tx(struct dp_port *p, const struct dp_env *env, uint64_t cur, uint64_t now_ns);

/**
 * Log a message of port @p p's link events (down, up, miswired) at @p level (RTE_LOG_*), at most
 * DP_LOG_BURST per second: they follow frames from the peer, so a flapping or miswired link
 * cannot flood the log. Those left out are counted and said with the next one logged.
 */
void dp_port_log(struct dp_port *p, uint64_t now_ns, uint32_t level, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/** Read what the host sent, as far as the injection queue has room. @return frames read. */
unsigned dp_host_rx(struct dp_port *p, const struct dp_env *env, uint64_t cur);

/** A host frame reached its node: queue it for the host's device. */
void dp_host_deliver(struct dp_port *p, struct rte_mbuf *m);

/** Offer the queued frames to the device. */
void dp_port_flush(struct dp_port *p);

#endif /* DP_PORT_H */
