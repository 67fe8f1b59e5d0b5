/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The PiggyBack state machine of the firmware (spec §4.6; IAR eq. 3, thesis eq. 1.3, A-4.1,
 * ), a struct fw_mech (fw_mech.h): own saturation bits from the downstream occupancy gauges
 * every pb_period cycles, the group table (DFLY_TBL_PB), and the exchange with the other routers
 * of the group, out of band (PB_STATE frames) or in band (regs->fw.pb_own_vec, pb_rx_vec).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fw_mech.h"

_Static_assert(sizeof(((struct dfly_tbl_pb *)0)->sat[0][0]) * 8 >= DFLY_MAX_VCS,
	       "a PB table entry must hold one bit per VC");

/** PiggyBack state (spec §4.6). */
struct fw_pb {
	uint8_t own[DFLY_MAX_H];              /* own bits per global port q (bit v = VC v) */
	uint8_t rows[DFLY_MAX_A][DFLY_MAX_H]; /* group table as I know it; rows[rho] = own */
	uint64_t rx_count[DFLY_MAX_PORTS];    /* mode A: last pb_rx_count seen per input port */
	uint8_t vmask;                        /* (1 << vc_global) − 1 */
	bool dirty;                           /* a publication is pending (EBUSY last time) */
	uint8_t published[DFLY_MAX_A][DFLY_MAX_H]; /* rows of the last published generation */
	bool ever_published;
	uint8_t sent[DFLY_MAX_H]; /* own bits of the last PB_STATE broadcast */
	bool ever_sent;
	uint64_t tried; /* cycle of the last publication attempt + 1 */
};

static inline struct fw_pb *pb_of(const struct fw *fw)
{
	return fw_state(fw, DFLY_FW_PB);
}

uint8_t fw_pb_own(const struct fw *fw, uint32_t q)
{
	if (pb_of(fw) == NULL || q >= fw->topo->h)
		return 0;
	return pb_of(fw)->own[q];
}

/*
 * S = Q > F·Q̄ + T with Q̄ = @p sum / n, n the channels averaged, in exact integers:
 * Q·256·n > f_q8·sum + T·256·n. @p total is the sum over all h channels, the channel itself
 * included. With 'other' and h = 1 no channel is averaged: Q̄ = 0 (n = 1, sum = 0).
 * Magnitudes: Q ≤ 2^27 (a whole port of clamped VCs), sums ≤ 2^31, f_q8 ≤ 2^16: < 2^48.
 */
static bool pb_saturated(const struct fw_params *par, int64_t q, int64_t total, uint32_t h)
{
	int64_t sum = total, n = h;

	if (par->pb_avg_other) {
		sum -= q;
		n = h - 1;
		if (n == 0) {
			n = 1;
			sum = 0;
		}
	}
	return q * 256 * n > (int64_t)par->pb_f_q8 * sum + (int64_t)par->pb_t * 256 * n;
}

/* Downstream occupancy Q of global port @p q, VC @p v, clamped to [0, FW_PB_Q_MAX]. */
static int64_t pb_occ(const struct fw *fw, uint32_t q, uint32_t v)
{
	int64_t x =
	    fw->regs->vc_gauge[fw->topo->first_global + q][v]
			      [fw->par.pb_mincred ? DFLY_VC_DOWN_OCC_MIN : DFLY_VC_DOWN_OCC];

	if (x < 0)
		return 0;
	return x > FW_PB_Q_MAX ? FW_PB_Q_MAX : x;
}

static void pb_compute(struct fw *fw)
{
	const struct fw_params *par = &fw->par;
	uint32_t h = fw->topo->h, vg = par->vc_global;
	int64_t occ[DFLY_MAX_H][DFLY_MAX_VCS], port[DFLY_MAX_H], total = 0;
	uint8_t bits[DFLY_MAX_H] = {0};
	uint64_t set = 0, flips = 0;

	for (uint32_t q = 0; q < h; q++) {
		port[q] = 0;
		for (uint32_t v = 0; v < vg; v++) {
			occ[q][v] = pb_occ(fw, q, v);
			port[q] += occ[q][v];
		}
		total += port[q];
	}
	if (par->pb_per_vc) {
		for (uint32_t v = 0; v < vg; v++) {
			int64_t vtotal = 0;

			for (uint32_t q = 0; q < h; q++)
				vtotal += occ[q][v];
			for (uint32_t q = 0; q < h; q++)
				if (pb_saturated(par, occ[q][v], vtotal, h))
					bits[q] |= (uint8_t)(1u << v);
		}
	} else {
		for (uint32_t q = 0; q < h; q++)
			if (pb_saturated(par, port[q], total, h))
				bits[q] = pb_of(fw)->vmask;
	}
	{
		/* a global link that is down is saturated: nothing it holds moves */
		uint64_t down = atomic_load_explicit(&fw->regs->ports_down, memory_order_relaxed) >>
				fw->topo->first_global;

		for (uint32_t q = 0; q < h; q++)
			if ((down >> q) & 1u)
				bits[q] = pb_of(fw)->vmask;
	}
	for (uint32_t q = 0; q < h; q++) {
		set += (uint64_t)__builtin_popcount(bits[q]);
		flips += (uint64_t)__builtin_popcount(bits[q] ^ pb_of(fw)->own[q]);
		pb_of(fw)->own[q] = bits[q];
		pb_of(fw)->rows[fw->rho][q] = bits[q];
	}
	fw_stat_add(fw, FW_STAT_PB_RECOMPUTE, 1);
	fw_stat_add(fw, FW_STAT_PB_BITS_SET, set);
	fw_stat_add(fw, FW_STAT_PB_FLIPS, flips);
}

/* Mode B: one PB_STATE frame with the own vector to each of the a − 1 local ports. */
static void pb_broadcast(struct fw *fw)
{
	struct dfly_wire_ctrl m;
	uint8_t buf[DFLY_WIRE_ETH_LEN + DFLY_WIRE_CTRL_HDR_LEN + 4 + DFLY_MAX_H * DFLY_MAX_VCS / 8];
	int len;

	memset(&m, 0, sizeof(m));
	m.type = DFLY_WIRE_CTRL_PB_STATE;
	m.src_router = fw->router;
	m.pb.h = (uint8_t)fw->topo->h;
	m.pb.vg = (uint8_t)fw->par.vc_global;
	memcpy(m.pb.sat, pb_of(fw)->own, fw->topo->h);
	if (!fw->par.pb_send_unchanged && pb_of(fw)->ever_sent &&
	    memcmp(pb_of(fw)->sent, pb_of(fw)->own, fw->topo->h) == 0) {
		/* the neighbours already hold this vector: their rows stay exactly the same */
		fw_stat_add(fw, FW_STAT_PB_TX_UNCHANGED, fw->topo->a - 1);
		return;
	}
	len = dfly_wire_ctrl_encode(buf, sizeof(buf), NULL, &m);
	if (len < 0) {
		fw_stat_add(fw, FW_STAT_TX_ENCODE_ERR, fw->topo->a - 1);
		return;
	}
	{
		bool all = true;

		for (uint32_t port = fw->topo->first_local; port < fw->topo->first_global; port++) {
			if (fw_tx_frame(fw, port, buf, len) == 0)
				fw_stat_add(fw, FW_STAT_PB_TX, 1);
			else
				all = false;
		}
		/* only a vector every neighbour was sent counts as known to them: after a full
		 * ring the next period sends again even if nothing changed */
		memcpy(pb_of(fw)->sent, pb_of(fw)->own, fw->topo->h);
		pb_of(fw)->ever_sent = all;
	}
}

/* Mode B: a PB_STATE from the peer of local port @p port (sender already checked). */
static void pb_rx(struct fw *fw, uint32_t port, const struct dfly_wire_ctrl *m)
{
	uint32_t rho = dfly_topo_rho_of(fw->topo, m->src_router);

	(void)port;
	if (m->pb.h != fw->topo->h || m->pb.vg != fw->par.vc_global) {
		fw_stat_add(fw, FW_STAT_PB_BAD_SHAPE, 1);
		return;
	}
	memcpy(pb_of(fw)->rows[rho], m->pb.sat, fw->topo->h);
	fw_stat_add(fw, FW_STAT_PB_RX_ROWS, 1);
}

/* Mode A: the vector as the ASIC piggybacks it, bit q·vg + v. */
static uint32_t pb_vec_pack(const struct fw *fw, const uint8_t *sat)
{
	uint32_t vec = 0, vg = fw->par.vc_global;

	for (uint32_t q = 0; q < fw->topo->h; q++)
		vec |= (uint32_t)sat[q] << (q * vg);
	return vec;
}

/* Mode A: new vectors received in band on the local input ports become their peers' rows. */
static void pb_inband_rx(struct fw *fw)
{
	const struct dfly_topo *topo = fw->topo;
	const struct dfly_regs_mech_ctrs *mech = &fw->regs->mech;
	uint32_t vg = fw->par.vc_global;

	for (uint32_t port = topo->first_local; port < topo->first_global; port++) {
		uint64_t count = mech->pb_rx_count[port];
		uint32_t vec, rho;

		if (count == pb_of(fw)->rx_count[port])
			continue;
		pb_of(fw)->rx_count[port] = count;
		vec = mech->pb_rx_vec[port];
		rho = dfly_topo_local_peer(topo, fw->rho, port);
		for (uint32_t q = 0; q < topo->h; q++)
			pb_of(fw)->rows[rho][q] = (uint8_t)(vec >> (q * vg)) & pb_of(fw)->vmask;
		fw_stat_add(fw, FW_STAT_PB_INBAND_RX, 1);
	}
}

/* Write the group table into the ASIC's inactive bank, or defer if it is still in use. */
static void pb_publish(struct fw *fw, uint64_t now)
{
	struct dfly_tbl_pb *t;

	pb_of(fw)->tried = now + 1;
	if (!pb_of(fw)->dirty && pb_of(fw)->ever_published &&
	    memcmp(pb_of(fw)->published, pb_of(fw)->rows, sizeof(pb_of(fw)->rows)) == 0) {
		/* the live bank already holds these rows: nothing to publish */
		fw_stat_add(fw, FW_STAT_TBL_UNCHANGED, 1);
		return;
	}
	t = dfly_regs_tbl_begin(fw->regs, DFLY_TBL_PB);
	if (t == NULL) {
		/* EBUSY: the ASIC still reads the other bank; try again next tick. */
		pb_of(fw)->dirty = true;
		fw_stat_add(fw, FW_STAT_TBL_BUSY, 1);
		return;
	}
	memset(t, 0, sizeof(*t));
	for (uint32_t rho = 0; rho < fw->topo->a; rho++)
		memcpy(t->sat[rho], pb_of(fw)->rows[rho], fw->topo->h);
	dfly_regs_tbl_publish(fw->regs, DFLY_TBL_PB);
	memcpy(pb_of(fw)->published, pb_of(fw)->rows, sizeof(pb_of(fw)->rows));
	pb_of(fw)->ever_published = true;
	pb_of(fw)->dirty = false;
	fw_stat_add(fw, FW_STAT_TBL_PUBLISH, 1);
}

/* Every pb_period cycles: in-band rows, recompute, send (B) or expose (A) the own bits, publish. */
static void pb_timer(struct fw *fw, uint64_t now, void *arg)
{
	(void)arg;
	if (fw->par.pb_inband)
		pb_inband_rx(fw);
	pb_compute(fw);
	if (fw->par.pb_inband)
		atomic_store_explicit(&fw->regs->fw.pb_own_vec, pb_vec_pack(fw, pb_of(fw)->own),
				      memory_order_release);
	else
		pb_broadcast(fw);
	pb_publish(fw, now);
}

/* After the timers: a deferred publication goes out as soon as the ASIC has made room. */
static void pb_tick(struct fw *fw, void *state, uint64_t now)
{
	struct fw_pb *pb = state;

	if (pb->dirty && pb->tried != now + 1)
		pb_publish(fw, now);
}

/* Mode B: a PB_STATE frame; in band (mode A) PB takes none. */
static int pb_rx_frame(struct fw *fw, void *state, uint32_t port, const struct dfly_wire_ctrl *m)
{
	(void)state;
	if (fw->par.pb_inband)
		return -ENOTSUP;
	pb_rx(fw, port, m);
	return 0;
}

static bool pb_wanted(const struct fw_params *par)
{
	return par->pb_enabled;
}

static bool pb_params_ok(const struct dfly_topo *topo, const struct fw_params *par)
{
	if (par->pb_period < 1 || par->pb_f_q8 > FW_PB_F_Q8_MAX)
		return false;
	if (par->pb_inband && (uint64_t)topo->h * par->vc_global > 32)
		return false;
	return true;
}

static void *pb_init(struct fw *fw)
{
	struct fw_pb *pb = calloc(1, sizeof(*pb));

	if (pb == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	pb->vmask = (uint8_t)((1u << fw->par.vc_global) - 1);
	if (fw_timer_add(fw, "pb", fw->par.pb_period, 0, pb_timer, NULL) < 0) {
		free(pb);
		errno = EINVAL;
		return NULL;
	}
	return pb;
}

const struct fw_mech fw_mech_pb = {
    .name = "pb",
    .machines = DFLY_FW_BIT(PB),
    .rx_types = FW_CTRL_BIT(PB_STATE),
    .rx_group = FW_CTRL_BIT(PB_STATE),
    .wanted = pb_wanted,
    .params_ok = pb_params_ok,
    .init = pb_init,
    .rx = pb_rx_frame,
    .tick = pb_tick,
};
