/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The state and bandwidth model of a router (state.h). Storage follows IAR §6.6: the metric is
 * the bits a router stores, the baseline its input buffers (allocators and crossbars are the same
 * for every mechanism, and UGAL's comparison is part of the baseline router); each mechanism adds
 * what its route stage and firmware keep per router. Control bandwidth is the share of one local
 * link, each direction, its frames or flits take: per period for the firmware's broadcasts, at
 * offered load 1 for what travels per packet. Frame sizes are the wire format's own (encoded here
 * with dfly_wire_ctrl_encode); a frame holds its link for its bytes after the Ethernet header,
 * in phits, as router.ctrl_charge charges it.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dfly/mode.h"
#include "dfly/wire.h"
#include "state.h"

/* Bits to count 0..n. */
static uint32_t bits_for(uint64_t n)
{
	uint32_t b = 0;

	while (b < 64 && (n >> b) != 0)
		b++;
	return b ? b : 1;
}

/* Phits a control frame @p m holds a link for (its bytes after the Ethernet header). */
static uint32_t frame_phits(const struct dfly_netcfg *cfg, const struct dfly_wire_ctrl *m)
{
	uint8_t buf[DFLY_CPU_FRAME_MAX];
	int len = dfly_wire_ctrl_encode(buf, sizeof(buf), NULL, m);

	if (len <= (int)DFLY_WIRE_ETH_LEN)
		return 0;
	return (uint32_t)((len - DFLY_WIRE_ETH_LEN + cfg->phit_bytes - 1) / cfg->phit_bytes);
}

/* The contention counters (spec §5.2): one per output port, wide enough for every packet the
 * router's input buffers hold. */
static uint64_t cc_bits(const struct dfly_netcfg *cfg, uint64_t in_phits, uint32_t *w)
{
	uint32_t radix = cfg->p + cfg->a - 1 + cfg->h;

	*w = bits_for(in_phits / cfg->pkt_phits);
	return (uint64_t)radix * *w;
}

static void row_pb(const struct dfly_netcfg *cfg, struct dfly_state_row *r)
{
	uint32_t per = cfg->pb_bits == DFLY_OCC_VC ? cfg->vc_global : 1;
	uint32_t phit_bits = 8 * cfg->phit_bytes;

	r->bits = (uint64_t)cfg->a * cfg->h * per;
	snprintf(r->what, sizeof(r->what), "saturation table: a*h = %u channels x %u bit%s",
		 cfg->a * cfg->h, per, per > 1 ? "s (one per global VC)" : "");
	if (cfg->pb_exchange == DFLY_PB_INBAND) {
		r->bw = (double)cfg->h * per /
			((double)cfg->pkt_phits * phit_bits * cfg->pb_piggy_every);
		snprintf(r->bw_what, sizeof(r->bw_what),
			 "in band: h*%u bits on 1 packet in %u of %u bits (IAR: h/length)", per,
			 cfg->pb_piggy_every, cfg->pkt_phits * phit_bits);
	} else {
		struct dfly_wire_ctrl m = {.type = DFLY_WIRE_CTRL_PB_STATE};
		uint32_t ph;

		m.pb.h = (uint8_t)cfg->h;
		m.pb.vg = (uint8_t)(cfg->pb_bits == DFLY_OCC_VC ? cfg->vc_global : 1);
		ph = frame_phits(cfg, &m);
		r->bw = (double)ph / cfg->pb_period;
		snprintf(r->bw_what, sizeof(r->bw_what),
			 "out of band: a PB_STATE frame of %u phit%s per %u cycle%s to each "
			 "neighbour",
			 ph, ph == 1 ? "" : "s", cfg->pb_period, cfg->pb_period == 1 ? "" : "s");
	}
}

static void row_res(const struct dfly_netcfg *cfg, struct dfly_state_row *r)
{
	uint64_t F = (uint64_t)cfg->vc_global * cfg->buf_global;
	uint32_t w = bits_for(F);
	uint64_t tau = 2ull * cfg->lat_local;
	uint64_t wait = (uint64_t)cfg->p * 2 * tau * 8 * cfg->phit_bytes;
	double g = (double)cfg->a * cfg->h / cfg->t + 1;

	r->bits = (uint64_t)cfg->h * w;
	r->alt_bits = r->bits + wait;
	snprintf(r->alt_what, sizeof(r->alt_what), "with IAR's separate waiting buffer");
	snprintf(r->what, sizeof(r->what),
		 "R counters h x %u bits (F = %llu phits); waiting in the injection buffer "
		 "(IAR's separate buffer, p x 2*tau = %llu phits, would add %llu bits)",
		 w, (unsigned long long)F, (unsigned long long)(cfg->p * 2 * tau),
		 (unsigned long long)wait);
	/* a packet to another group (1 - 1/g) whose channel is at another router ((a-1)/a) sends
	 * a request and gets a reply on a local link: per link and direction, at load 1 */
	r->bw = 2.0 * cfg->p * (1 - 1 / g) / ((double)cfg->a * cfg->pkt_phits);
	snprintf(r->bw_what, sizeof(r->bw_what),
		 "a request and a reply flit of 1 phit per packet of %u phits to another group",
		 cfg->pkt_phits);
}

unsigned dfly_state_model(const struct dfly_netcfg *cfg, struct dfly_state_row *rows, unsigned max)
{
	uint32_t phit_bits = 8 * cfg->phit_bytes, w;
	uint64_t in_phits = (uint64_t)cfg->p * cfg->vc_inj * cfg->buf_inj +
			    (uint64_t)(cfg->a - 1) * cfg->vc_local * cfg->buf_local +
			    (uint64_t)cfg->h * cfg->vc_global * cfg->buf_global;
	unsigned n = 0;

	if (max == 0)
		return 0;
	memset(rows, 0, sizeof(*rows) * max);
	rows[0].name = "baseline";
	rows[0].modelled = 1;
	rows[0].bits = rows[0].alt_bits = in_phits * phit_bits;
	snprintf(rows[0].what, sizeof(rows[0].what),
		 "input buffers: %ux%ux%u + %ux%ux%u + %ux%ux%u phits of %u bits", cfg->p,
		 cfg->vc_inj, cfg->buf_inj, cfg->a - 1, cfg->vc_local, cfg->buf_local, cfg->h,
		 cfg->vc_global, cfg->buf_global, phit_bits);
	n = 1;
	for (uint32_t m = 0; m < DFLY_MODE_COUNT && n < max; m++) {
		struct dfly_state_row *r = &rows[n++];

		r->name = dfly_mode_name(m);
		r->modelled = 1;
		switch ((enum dfly_route_mode)m) {
		case DFLY_MODE_MIN:
		case DFLY_MODE_VAL:
			snprintf(r->what, sizeof(r->what), "none (oblivious)");
			break;
		case DFLY_MODE_UGAL:
			snprintf(r->what, sizeof(r->what),
				 "none: UGAL's comparison is the baseline router's (IAR 6.6)");
			break;
		case DFLY_MODE_UGAL_G:
			snprintf(r->what, sizeof(r->what),
				 "none: an oracle reading other routers' queues (no hardware)");
			break;
		case DFLY_MODE_OLM:
			snprintf(r->what, sizeof(r->what),
				 "none: reads the occupancy the baseline keeps");
			break;
		case DFLY_MODE_PB:
			row_pb(cfg, r);
			break;
		case DFLY_MODE_PB_ACOR:
			row_pb(cfg, r);
			r->bits += 2;
			strncat(r->what, ", + ACOR's Path-A level (2 bits)",
				sizeof(r->what) - strlen(r->what) - 1);
			break;
		case DFLY_MODE_PAR: {
			uint32_t lp, gp, lu, gu;

			dfly_mode_vc_needs(DFLY_MODE_PAR, false, &lp, &gp, NULL);
			dfly_mode_vc_needs(DFLY_MODE_UGAL, false, &lu, &gu, NULL);
			r->bits = ((uint64_t)(cfg->a - 1) * (lp - lu) * cfg->buf_local +
				   (uint64_t)cfg->h * (gp - gu) * cfg->buf_global) *
				  phit_bits;
			snprintf(r->what, sizeof(r->what),
				 "VCs: %u/%u where UGAL needs %u/%u (one more local VC per local "
				 "port)",
				 lp, gp, lu, gu);
			/* IAR §6.6 charges PAR "an additional VC per input port": its router
			 * provisions every port alike (3 VCs each), so the extra VC is on the
			 * global and node ports too */
			r->alt_bits = ((uint64_t)cfg->p * cfg->buf_inj +
				       (uint64_t)(cfg->a - 1) * cfg->buf_local +
				       (uint64_t)cfg->h * cfg->buf_global) *
				      phit_bits;
			snprintf(r->alt_what, sizeof(r->alt_what),
				 "with IAR's extra VC on every input port");
			break;
		}
		case DFLY_MODE_BASE:
		case DFLY_MODE_HYBRID:
			r->bits = cc_bits(cfg, in_phits, &w);
			snprintf(r->what, sizeof(r->what),
				 "contention counters: one per port, %u bits", w);
			break;
		case DFLY_MODE_FILTERED:
			r->bits = cc_bits(cfg, in_phits, &w);
			r->bits += r->bits / w * (w + 8);
			snprintf(r->what, sizeof(r->what),
				 "contention counters (%u bits) and their filtered estimates (%u "
				 "bits: 8 fractional, alpha in 1/256), one per port",
				 w, w + 8);
			break;
		case DFLY_MODE_ECTN: {
			uint32_t cnt = cfg->a * cfg->h / cfg->t, wc = bits_for(15ull * cfg->a);
			struct dfly_wire_ctrl f = {.type = DFLY_WIRE_CTRL_ECTN_PARTIAL};
			uint32_t ph;

			r->bits =
			    cc_bits(cfg, in_phits, &w) + (uint64_t)cnt * 4 + (uint64_t)cnt * wc;
			snprintf(
			    r->what, sizeof(r->what),
			    "contention counters (%u bits per port), the partial array (%u x 4 "
			    "bits) and the combined one (%u x %u bits)",
			    w, cnt, cnt, wc);
			f.ectn.n = (uint16_t)cnt;
			f.ectn.format = DFLY_WIRE_ECTN_FULL;
			ph = frame_phits(cfg, &f);
			r->bw = (double)ph / cfg->ectn_period;
			snprintf(
			    r->bw_what, sizeof(r->bw_what),
			    "an ECTN_PARTIAL frame of %u phits per %u cycles to each neighbour", ph,
			    cfg->ectn_period);
			break;
		}
		case DFLY_MODE_CRT: {
			uint32_t k = bits_for(2ull * cfg->lat_global - 1) + 1;
			uint64_t F = (uint64_t)cfg->vc_global * cfg->buf_global;

			r->bits = (uint64_t)k * cfg->h + (uint64_t)k * cfg->h * F;
			snprintf(r->what, sizeof(r->what),
				 "t_d registers k*h and timestamp queues k*h*F, k = %u bits "
				 "(log2 of the global round trip, + 1), F = %llu phits (IAR 6.6)",
				 k, (unsigned long long)F);
			break;
		}
		case DFLY_MODE_RES:
			row_res(cfg, r);
			break;
		default:
			r->modelled = 0;
			snprintf(r->what, sizeof(r->what), "not modelled");
			break;
		}
		if (r->modelled && r->alt_bits == 0)
			r->alt_bits = r->bits;
	}
	return n;
}
