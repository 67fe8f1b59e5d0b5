/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Capture points of the switch ASIC model (include/dfly/trace.h): the callback a driver sets,
 * and the events the stages hand it (data packets and control frames). Off, a point costs one
 * mask test (TRACING in asic_priv.h).
 */
#include "asic_priv.h"

void asic_trace_pkt(struct asic *as, uint8_t point, uint32_t port, uint8_t vc,
		    const struct asic_pkt *pk, uint64_t cycle, uint16_t drop)
{
	struct asic_trace_ev ev = {
	    .point = point,
	    .vc = vc,
	    .kind = (uint8_t)dfly_topo_port_kind(as->topo, port),
	    .port = (uint16_t)port,
	    .drop = drop,
	    .cycle = cycle,
	    .pkt = pk,
	};

	as->trace_fn(as->trace_ctx, as, &ev);
}

void asic_trace_frame(struct asic *as, uint32_t port, uint8_t point, const void *frame,
		      uint16_t len, uint64_t cycle)
{
	struct asic_trace_ev ev = {
	    .point = point,
	    .kind = (uint8_t)dfly_topo_port_kind(as->topo, port),
	    .port = (uint16_t)port,
	    .drop = DFLY_TRACE_NONE,
	    .cycle = cycle,
	    .frame = frame,
	    .len = len,
	};

	as->trace_fn(as->trace_ctx, as, &ev);
}

void asic_set_trace(struct asic *as, asic_trace_fn *fn, void *ctx, uint32_t points)
{
	as->trace_fn = fn;
	as->trace_ctx = ctx;
	as->trace_mask = fn != NULL ? points & ((1u << DFLY_TRACE_POINT_COUNT) - 1) : 0;
}
