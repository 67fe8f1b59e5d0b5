/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CPU port of the switch ASIC model: control frames arriving on the fabric links go up to the
 * firmware's rx ring; frames the firmware queued leave on their link's control line (charged on
 * the link with knobs.ctrl_charge), subject to the link's control-frame fault.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "asic_priv.h"
#include "dfly/wire.h"

/* Control frames due on the incoming links go up the CPU port (fabric ports only: terminal
 * ports have no control line, so a host can never reach the firmware). */
void asic_rx_ctrl(struct asic *as, uint64_t now, uint64_t m)
{
	uint8_t buf[DFLY_CPU_FRAME_MAX];

	while (m) {
		uint32_t i = ctz64(m);
		struct asic_link *l = as->in[i].link;
		uint16_t len;
		uint8_t kind;

		m &= m - 1;
		while (asic_ctrl_pop(l, now, &kind, &len, buf, sizeof(buf))) {
			if (kind == ASIC_CTRL_PB_INFO) {
				uint32_t vec;

				memcpy(&vec, buf, sizeof(vec));
				pb_rx(as, i, vec);
				continue;
			}
			if (kind == ASIC_CTRL_RES_REQ || kind == ASIC_CTRL_RES_REP) {
				asic_res_rx(as, i, kind, buf, len, now);
				continue;
			}
			if (len > DFLY_CPU_FRAME_MAX ||
			    dfly_wire_classify(buf, len) != DFLY_WIRE_CLASS_CTRL) {
				as->regs->drop[DFLY_DROP_DECODE]++;
				continue;
			}
			if (TRACING(as, DFLY_TRACE_PORT_RX))
				asic_trace_frame(as, i, DFLY_TRACE_PORT_RX, buf, len, now);
			if (dfly_cpu_ring_put(&as->regs->cpu_rx, (uint16_t)i, now, buf, len) < 0) {
				as->regs->drop[DFLY_DROP_CPU_RX_FULL]++;
				continue;
			}
			as->regs->port_ctr[i][DFLY_CTRL_RX]++;
		}
		/* a far input stays polled until both its lines are empty */
		far_done(&as->in_far, i, &l->d_tail, l->d_head, &l->cb_tail, l->cb_head);
	}
}

/* Cycles a control frame of @p len bytes holds its link when charged: its bytes after the
 * Ethernet header (the fabric link carries the control header and body; MACs and EtherType
 * belong to the emulation's transport) in whole phits, at least one. */
static uint32_t ctrl_phits(const struct asic *as, uint16_t len)
{
	uint32_t bytes = len > DFLY_WIRE_ETH_LEN ? len - DFLY_WIRE_ETH_LEN : 0;
	uint32_t phits = (bytes + as->par.phit_bytes - 1) / as->par.phit_bytes;

	return phits && !as->par.no_link_rate ? phits : 1;
}

/* Is control frame @p sl of a type the link's fault covers (asic_link_set_ctrl_fault)? */
static inline bool ctrl_fault_covers(const struct asic_link *l, const struct dfly_cpu_slot *sl)
{
	uint8_t type;

	if (l->cf_types == 0 || sl->len <= DFLY_WIRE_ETH_LEN + 1)
		return false;
	type = sl->frame[DFLY_WIRE_ETH_LEN + 1];
	return type < 32 && ((l->cf_types >> type) & 1u);
}

/* A control-frame fault on its link: is this frame lost? */
static bool ctrl_fault_lost(struct asic_link *l, const struct dfly_cpu_slot *sl)
{
	if (l->cf_loss_ppm == 0 || !ctrl_fault_covers(l, sl))
		return false;
	return dfly_rng_below(&l->cf_rng, 1000000) < l->cf_loss_ppm;
}

int asic_link_set_ctrl_fault(struct asic_link *l, uint32_t types, uint32_t loss_ppm, uint32_t delay,
			     uint64_t seed)
{
	uint32_t want =
	    pow2_at_least((l->latency + delay + 2) * 64 + 2 * (16 + DFLY_CPU_FRAME_MAX));

	if (want > l->cb_cap) {
		/* late frames stay on the line longer: room for delay cycles more of them; a buffer
		 * doubled up front (asic_link_set_lag on threads) stays doubled */
		uint32_t size = l->cb_mask + 1 > l->cb_cap ? 2 * want : want;
		uint8_t *nb;

		if (l->cb_head != l->cb_tail)
			return -EBUSY;
		nb = calloc(size, 1);
		if (nb == NULL)
			return -ENOMEM;
		free(l->cbuf);
		l->cbuf = nb;
		l->cb_mask = size - 1;
		l->cb_cap = want;
		l->cb_head = l->cb_tail = l->cb_shead = 0;
	}
	l->cf_types = types;
	l->cf_loss_ppm = loss_ppm;
	l->cf_delay = delay;
	dfly_rng_seed(&l->cf_rng, seed, 0xcf00000000ull + (uint64_t)l->up_port);
	return 0;
}

/*
 * Frames the firmware queued on the CPU port leave on their port's control line: out of band,
 * arriving after the link latency; or, with knobs.ctrl_charge, serialised on the link
 * like a packet: from the cycle the link is free (after the packet on it, or an earlier frame)
 * for ctrl_phits() cycles, during which the data behind it waits; the whole frame is there at
 * start + ctrl_phits + latency. PB information flits (pb_info_flits) are not CPU frames.
 */
void asic_tx_cpu(struct asic *as, uint64_t now)
{
	const struct dfly_cpu_slot *sl;
	bool charge = as->regs->knobs.ctrl_charge != 0;

	while ((sl = dfly_cpu_ring_peek(&as->regs->cpu_tx)) != NULL) {
		uint32_t o = sl->port;

		if (o >= as->radix || as->out[o].link == NULL || sl->len > DFLY_CPU_FRAME_MAX) {
			as->regs->drop[DFLY_DROP_CPU_TX_BAD]++;
		} else if ((as->down_mask >> o) & 1u) {
			as->regs->drop[DFLY_DROP_CTRL_PORT_DOWN]++;
		} else if (ctrl_fault_lost(as->out[o].link, sl)) {
			as->regs->drop[DFLY_DROP_CTRL_FAULT]++;
		} else {
			struct asic_out *out = &as->out[o];
			uint64_t start = now, ser = 0, late = 0;

			if (out->link->cf_delay && ctrl_fault_covers(out->link, sl))
				late = out->link->cf_delay;
			if (charge) {
				start = out->link_free > now ? out->link_free : now;
				ser = ctrl_phits(as, sl->len);
			}
			if (!asic_ctrl_push(out->link, now, start + ser + out->link->latency + late,
					    ASIC_CTRL_FRAME, sl->frame, sl->len)) {
				as->regs->drop[DFLY_DROP_CTRL_LINK_FULL]++;
			} else {
				as->regs->port_ctr[o][DFLY_CTRL_TX]++;
				if (late)
					as->regs->port_ctr[o][DFLY_CTRL_DELAYED]++;
				if (TRACING(as, DFLY_TRACE_PORT_TX))
					asic_trace_frame(as, o, DFLY_TRACE_PORT_TX, sl->frame,
							 sl->len, start);
				if (charge) {
					out->link_free = start + ser;
					as->regs->port_ctr[o][DFLY_LINK_BUSY_CYCLES] += ser;
				}
			}
		}
		dfly_cpu_ring_pop(&as->regs->cpu_tx);
	}
}
