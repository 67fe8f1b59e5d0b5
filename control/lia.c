/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * LIA, TPR and ACOR state machines (lia.h; spec §6, §4.11, §4.12), and at the end the struct
 * fw_mech that runs them in the firmware (fw_mech.h).
 */
#include "lia.h"
#include "fw_mech.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct lia {
	const struct dfly_topo *topo;
	struct dfly_regs *regs;
	struct lia_params par;
	uint32_t router, group;
	uint32_t nsnap;          /* window/bucket + 1 snapshots of the running totals */
	uint32_t oldest;         /* index of the oldest snapshot */
	uint32_t *snap;          /* [nsnap][g] */
	uint32_t *E;             /* [g] extended counters, hundredths */
	uint64_t *R;             /* [2h+1] remote counters R', index k + h */
	uint64_t *rsum;          /* [2h+1] running totals of R' over recomputations */
	uint64_t nsum;           /* recomputations summed into rsum */
	struct dfly_tbl_lia tbl; /* what the tables should hold */
	int32_t *t;              /* [g] T per group, phits */
	bool dirty_lia, dirty_ugal;
	uint64_t acor_base; /* head waits at the start of the ACOR window */
	struct lia_stats st;
};

void lia_params_init(struct lia_params *p)
{
	memset(p, 0, sizeof(*p));
	p->window = 200;
	p->bucket = 10;
	p->w100 = 10;
	p->gpsth = 5;
	p->sgc = 3;
	p->rcth = 20;
	p->li_low = 3;
	p->li_high = 5;
	p->t_level[DFLY_LIA_BENIGN] = 15;
	p->t_level[DFLY_LIA_MIX] = -3;
	p->t_level[DFLY_LIA_ADV] = -15;
	p->pkt_phits = 8;
	p->update = 1;
	p->shorten = true;
	p->acor_window = 500;
	p->it1 = 15;
	p->it2 = 50;
	p->dt1 = 5;
	p->dt2 = 15;
}

int32_t lia_offset(const struct dfly_topo *t, uint32_t G, uint32_t D)
{
	int32_t d = (int32_t)((D + t->g - G) % t->g);

	return d > (int32_t)(t->g / 2) ? d - (int32_t)t->g : d;
}

/* Group at signed offset @p d from @p G. */
static inline uint32_t group_at(const struct dfly_topo *t, uint32_t G, int64_t d)
{
	int64_t x = ((int64_t)G + d) % (int64_t)t->g;

	return (uint32_t)(x < 0 ? x + t->g : x);
}

uint64_t lia_remote(const struct dfly_topo *t, uint32_t G, const uint32_t *E, int32_t k)
{
	int32_t h = (int32_t)t->h;
	uint64_t r = 0;

	for (int32_t j = -(h - 1); j <= h - 1; j++)
		r += (uint64_t)(h - (j < 0 ? -j : j)) * E[group_at(t, G, (int64_t)k * h + j)];
	return r;
}

bool lia_use_l1(const struct dfly_topo *t, uint32_t router, const uint32_t *E, uint64_t gpsth100,
		uint32_t sgc)
{
	uint32_t busy = 0;

	for (uint32_t q = 0; q < t->h; q++) {
		uint32_t D = dfly_topo_group_of(t, dfly_topo_global_peer(t, router, q).router);

		busy += E[D] > gpsth100;
	}
	return busy >= sgc;
}

bool lia_keep_l2(const struct dfly_topo *t, uint32_t G, uint32_t D, const uint64_t *R,
		 uint64_t rcth_scaled)
{
	int32_t d = lia_offset(t, G, D), s = d < 0 ? -1 : 1, a = d < 0 ? -d : d;
	int32_t h = (int32_t)t->h, k = a / h, m = a % h;

	if (k >= 1 && R[s * k + h] > rcth_scaled)
		return true;
	if (m > 0 && R[s * (k + 1) + h] > rcth_scaled)
		return true;
	return false;
}

enum dfly_lia_level lia_level(uint64_t E, const struct lia_params *p)
{
	if (E <= 100ull * p->li_low)
		return DFLY_LIA_BENIGN;
	return E <= 100ull * p->li_high ? DFLY_LIA_MIX : DFLY_LIA_ADV;
}

uint8_t lia_acor_next(uint8_t level, uint64_t count, const struct lia_params *p)
{
	switch (level) {
	case 0:
		return count > p->it1 ? 1 : 0;
	case 1:
		if (count > p->it2)
			return 2;
		return count < p->dt1 ? 0 : 1;
	default:
		return count < p->dt2 ? 1 : 2;
	}
}

struct lia *lia_create(const struct dfly_topo *topo, uint32_t router, struct dfly_regs *regs,
		       const struct lia_params *p)
{
	struct lia *l;

	if (topo == NULL || regs == NULL || p == NULL || router >= topo->routers ||
	    topo->g > DFLY_MAX_GROUPS || p->bucket == 0 || p->window == 0 ||
	    p->window % p->bucket != 0 || p->window / p->bucket > LIA_MAX_SLOTS || p->update == 0 ||
	    p->acor_window == 0 || p->li_low > p->li_high) {
		errno = EINVAL;
		return NULL;
	}
	l = calloc(1, sizeof(*l));
	if (l == NULL)
		return NULL;
	l->topo = topo;
	l->regs = regs;
	l->par = *p;
	if (l->par.tpr)
		l->par.w100 = 0;
	l->router = router;
	l->group = dfly_topo_group_of(topo, router);
	l->nsnap = p->window / p->bucket + 1;
	l->snap = calloc((size_t)l->nsnap * topo->g, sizeof(*l->snap));
	l->E = calloc(topo->g, sizeof(*l->E));
	l->R = calloc(2 * topo->h + 1, sizeof(*l->R));
	l->rsum = calloc(2 * topo->h + 1, sizeof(*l->rsum));
	l->t = calloc(topo->g, sizeof(*l->t));
	if (l->snap == NULL || l->E == NULL || l->R == NULL || l->rsum == NULL || l->t == NULL) {
		lia_destroy(l);
		errno = ENOMEM;
		return NULL;
	}
	l->dirty_lia = l->dirty_ugal = true; /* the first tick writes both tables whole */
	return l;
}

void lia_destroy(struct lia *l)
{
	if (l == NULL)
		return;
	free(l->snap);
	free(l->E);
	free(l->R);
	free(l->rsum);
	free(l->t);
	free(l);
}

/* Injection heads that waited (vc_ctr HEAD_WAIT of the injection VCs), a running total. */
static uint64_t inj_head_waits(const struct lia *l)
{
	uint64_t n = 0;

	for (uint32_t port = 0; port < l->topo->p; port++)
		for (uint32_t v = 0; v < l->regs->nvcs[port] && v < DFLY_MAX_VCS; v++)
			n += l->regs->vc_ctr[port][v][DFLY_VC_HEAD_WAIT];
	return n;
}

static void recompute(struct lia *l)
{
	const struct dfly_topo *t = l->topo;
	const struct dfly_regs_mech_ctrs *m = &l->regs->mech;
	const uint32_t *old = l->snap + (size_t)l->oldest * t->g;
	uint64_t gpsth = 100ull * l->par.gpsth, rcth = 100ull * t->h * l->par.rcth;
	int32_t h = (int32_t)t->h;

	l->st.recompute++;
	for (uint32_t D = 0; D < t->g; D++) {
		uint64_t e = D == l->group ? 0
					   : 100ull * (uint32_t)(m->lia_injected[D] - old[D]) +
						 (uint64_t)l->par.w100 * m->lia_stored[D];

		l->E[D] = (uint32_t)(e > UINT32_MAX ? UINT32_MAX : e);
	}
	if (!l->par.tpr || l->par.observe) {
		for (int32_t k = -h; k <= h; k++) {
			l->R[k + h] = k == 0 ? 0 : lia_remote(t, l->group, l->E, k);
			l->rsum[k + h] += l->R[k + h];
		}
		l->nsum++;
	}
	if (!l->par.enabled)
		return; /* observe only: the counters, no decisions */
	if (!l->par.tpr) {
		bool l1;

		l1 = !l->par.shorten || lia_use_l1(t, l->router, l->E, gpsth, l->par.sgc);
		if (l1 != (bool)l->tbl.use_l1) {
			l->tbl.use_l1 = l1;
			l->dirty_lia = true;
			l->st.l1_flips++;
		}
	}
	for (uint32_t D = 0; D < t->g; D++) {
		uint8_t lv, l2;
		int32_t T;

		if (D == l->group)
			continue;
		lv = (uint8_t)lia_level(l->E[D], &l->par);
		l2 = l->par.tpr ? 0 : !l->par.shorten ? 1 : lia_keep_l2(t, l->group, D, l->R, rcth);
		if (lv != l->tbl.level[D]) {
			l->tbl.level[D] = lv;
			l->dirty_lia = true;
			l->st.level_flips++;
		}
		if (l2 != l->tbl.l2[D]) {
			l->tbl.l2[D] = l2;
			l->dirty_lia = true;
			l->st.l2_flips++;
		}
		T = l->par.t_level[lv] * (int32_t)l->par.pkt_phits;
		if (T != l->t[D]) {
			l->t[D] = T;
			l->dirty_ugal = true;
		}
	}
}

static void publish(struct lia *l)
{
	if (l->dirty_lia) {
		struct dfly_tbl_lia *tb = dfly_regs_tbl_begin(l->regs, DFLY_TBL_LIA);

		if (tb == NULL) {
			l->st.busy++;
		} else {
			*tb = l->tbl;
			dfly_regs_tbl_publish(l->regs, DFLY_TBL_LIA);
			l->dirty_lia = false;
			l->st.publish++;
		}
	}
	if (l->dirty_ugal && (l->par.enabled)) {
		struct dfly_tbl_ugal *tu = dfly_regs_tbl_begin(l->regs, DFLY_TBL_UGAL);

		if (tu == NULL) {
			l->st.busy++;
		} else {
			memset(tu, 0, sizeof(*tu));
			memcpy(tu->t, l->t, sizeof(*l->t) * l->topo->g);
			dfly_regs_tbl_publish(l->regs, DFLY_TBL_UGAL);
			l->dirty_ugal = false;
			l->st.publish++;
		}
	}
}

void lia_tick(struct lia *l, uint64_t now)
{
	const struct dfly_topo *t = l->topo;

	if (l->par.enabled || l->par.observe) {
		if (now % l->par.bucket == 0) {
			/* the slot of the oldest snapshot takes the totals at this bucket start */
			uint32_t *s = l->snap + (size_t)l->oldest * t->g;

			for (uint32_t D = 0; D < t->g; D++)
				s[D] = l->regs->mech.lia_injected[D];
			l->oldest = (l->oldest + 1) % l->nsnap;
		}
		if (now % l->par.update == 0)
			recompute(l);
	}
	if (l->par.acor && now % l->par.acor_window == 0) {
		uint64_t w = inj_head_waits(l);
		uint8_t lv = now == 0 ? l->tbl.acor_level
				      : lia_acor_next(l->tbl.acor_level, w - l->acor_base, &l->par);

		l->acor_base = w;
		if (lv != l->tbl.acor_level) {
			l->tbl.acor_level = lv;
			l->dirty_lia = true;
			l->st.acor_changes++;
		}
	}
	if (l->par.enabled || l->par.acor)
		publish(l); /* observe alone publishes nothing */
}

const struct lia_stats *lia_stats(const struct lia *l)
{
	return &l->st;
}

const uint32_t *lia_E(const struct lia *l)
{
	return l->E;
}

const uint64_t *lia_R(const struct lia *l)
{
	return l->R;
}

const uint64_t *lia_R_sums(const struct lia *l, uint64_t *n)
{
	*n = l->nsum;
	return l->rsum;
}

/* ---------------------------------------------------------------------------------------------
 * The firmware's view: a struct fw_mech (fw_mech.h) for the LIA, TPR and ACOR machines
 */

static bool lia_fw_wanted(const struct fw_params *par)
{
	return par->lia.enabled || par->lia.acor || par->lia.observe;
}

static void *lia_fw_init(struct fw *fw)
{
	return lia_create(fw->topo, fw->router, fw->regs, &fw->par.lia);
}

static void lia_fw_fini(struct fw *fw, void *state)
{
	(void)fw;
	lia_destroy(state);
}

/* After the firmware's timers and the other machines' publications: window, recomputation,
 * publication; the machine's figures become the firmware's lia_* and acor_* counters. */
static void lia_fw_tick(struct fw *fw, void *state, uint64_t now)
{
	const struct lia_stats *ls;

	lia_tick(state, now);
	ls = lia_stats(state);
	fw->st.lia_recompute = ls->recompute;
	fw->st.lia_publish = ls->publish;
	fw->st.lia_busy = ls->busy;
	fw->st.lia_l1_flips = ls->l1_flips;
	fw->st.lia_l2_flips = ls->l2_flips;
	fw->st.lia_level_flips = ls->level_flips;
	fw->st.acor_changes = ls->acor_changes;
}

const struct fw_mech fw_mech_lia = {
    .name = "lia",
    .machines = DFLY_FW_BIT(LIA) | DFLY_FW_BIT(TPR) | DFLY_FW_BIT(ACOR),
    .wanted = lia_fw_wanted,
    .init = lia_fw_init,
    .fini = lia_fw_fini,
    .tick = lia_fw_tick,
};
