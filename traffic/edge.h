/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The edge of the network (traffic/): what a sink sees of a delivered packet. The virtual-time
 * fabric (sim/fabric.h) hands every delivery to a tap of this type; recorders such as the
 * transient experiments (transient.h) depend on this record only, not on the fabric.
 */
#ifndef DFLY_TRAFFIC_EDGE_H
#define DFLY_TRAFFIC_EDGE_H

#include <stdbool.h>
#include <stdint.h>

/** One delivered packet, as the delivery tap sees it. */
struct dfly_delivery {
	uint32_t src_node, dst_node;
	uint64_t gen_cycle;  /**< generation cycle */
	uint64_t inj_cycle;  /**< cycle it left the injection queue */
	uint64_t tail_cycle; /**< cycle its tail reached the destination node */
	uint16_t len;	     /**< phits */
	uint8_t lhops, ghops;
	bool nonmin;	       /**< a nonminimal decision was committed (VAL, UGAL, PB, PAR, OLM) */
	bool global_misrouted; /**< took more global hops than its minimal path (spec §8.4) */
};

/** Called for every delivered packet (whole run, not only the measurement window). */
typedef void dfly_delivery_fn(void *ctx, const struct dfly_delivery *d);

#endif /* DFLY_TRAFFIC_EDGE_H */
