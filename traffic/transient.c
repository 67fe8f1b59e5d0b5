/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Transient-experiment recorder (transient.h; docs/spec.md §7.4, §8.6): bins the packets the
 * fabric's delivery tap reports around the pattern switch at t0, and turns the bins into the
 * per-cycle series, the reaction time and the latency figures that `dfly transient` prints and
 * writes as CSV. Pure computation on emulated time: no fabric internals, no clock, no I/O
 * besides the FILE given to the writers.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "transient.h"

/* Largest window accepted, in bins (the bins are 48 bytes each). */
#define MAX_BINS (1u << 26)

/* Slack on the settling band, so that a value exactly on its edge counts as inside. */
#define BAND_EPS 1e-9

struct dfly_transient {
	struct dfly_transient_params p;  /**< effective parameters (defaults filled, rounded) */
	uint32_t npre;                   /**< bins before t0 */
	uint32_t npost;                  /**< bins from t0 on */
	unsigned runs;                   /**< dfly_transient_end_run calls */
	struct dfly_transient_bin *bins; /**< npre + npost bins, bin 0 starts at t0 − pre */
};

struct dfly_transient *dfly_transient_create(const struct dfly_transient_params *p)
{
	struct dfly_transient *rec;
	uint64_t npre, npost;
	uint32_t bin = p->bin ? p->bin : 1;

	if (p->post == 0 || p->steady_pct > 100) {
		errno = EINVAL;
		return NULL;
	}
	npre = (p->pre + bin - 1) / bin;
	npost = (p->post + bin - 1) / bin;
	if (npre + npost > MAX_BINS) {
		errno = EINVAL;
		return NULL;
	}
	rec = calloc(1, sizeof(*rec));
	if (rec == NULL)
		return NULL;
	rec->p = *p;
	rec->p.bin = bin;
	rec->p.pre = npre * bin;
	rec->p.post = npost * bin;
	if (rec->p.ma_cycles == 0)
		rec->p.ma_cycles = DFLY_TRANSIENT_MA_CYCLES;
	if (!(rec->p.tol_pp > 0))
		rec->p.tol_pp = DFLY_TRANSIENT_TOL_PP;
	if (rec->p.steady_pct == 0)
		rec->p.steady_pct = DFLY_TRANSIENT_STEADY_PCT;
	rec->npre = (uint32_t)npre;
	rec->npost = (uint32_t)npost;
	rec->bins = calloc(npre + npost, sizeof(*rec->bins));
	if (rec->bins == NULL) {
		free(rec);
		errno = ENOMEM;
		return NULL;
	}
	for (uint32_t i = 0; i < rec->npre + rec->npost; i++)
		rec->bins[i].cycle = ((int64_t)i - (int64_t)rec->npre) * bin;
	return rec;
}

void dfly_transient_destroy(struct dfly_transient *rec)
{
	if (rec == NULL)
		return;
	free(rec->bins);
	free(rec);
}

const struct dfly_transient_params *dfly_transient_params(const struct dfly_transient *rec)
{
	return &rec->p;
}

void dfly_transient_set_t0(struct dfly_transient *rec, uint64_t t0)
{
	rec->p.t0 = t0;
}

bool dfly_transient_add(struct dfly_transient *rec, const struct dfly_delivery *d)
{
	uint64_t at = rec->p.by == DFLY_TRANSIENT_BY_TAIL ? d->tail_cycle : d->gen_cycle;
	uint64_t lat = d->tail_cycle >= d->gen_cycle ? d->tail_cycle - d->gen_cycle : 0;
	struct dfly_transient_bin *b;
	uint64_t off;

	/* window [t0 − pre, t0 + post), computed without going below cycle 0 */
	if (at + rec->p.pre < rec->p.t0 || at >= rec->p.t0 + rec->p.post)
		return false;
	off = at + rec->p.pre - rec->p.t0;
	b = &rec->bins[off / rec->p.bin];
	/* sums and a maximum, taken atomically: the tap may be called from several threads at
	 * once (sim.threads with sim.batch), and in any order they give the same bin */
	__atomic_fetch_add(&b->packets, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&b->lat_sum, lat, __ATOMIC_RELAXED);
	{
		uint64_t m = __atomic_load_n(&b->lat_max, __ATOMIC_RELAXED);

		while (lat > m && !__atomic_compare_exchange_n(&b->lat_max, &m, lat, true,
							       __ATOMIC_RELAXED, __ATOMIC_RELAXED))
			;
	}
	__atomic_fetch_add(&b->misrouted, (uint64_t)d->global_misrouted, __ATOMIC_RELAXED);
	__atomic_fetch_add(&b->nonmin, (uint64_t)d->nonmin, __ATOMIC_RELAXED);
	return true;
}

void dfly_transient_tap(void *rec, const struct dfly_delivery *d)
{
	dfly_transient_add(rec, d);
}

void dfly_transient_end_run(struct dfly_transient *rec)
{
	rec->runs++;
}

uint32_t dfly_transient_nbins(const struct dfly_transient *rec)
{
	return rec->npre + rec->npost;
}

const struct dfly_transient_bin *dfly_transient_bin_get(const struct dfly_transient *rec,
							uint32_t i)
{
	return &rec->bins[i];
}

uint32_t dfly_transient_bin_t0(const struct dfly_transient *rec)
{
	return rec->npre;
}

void dfly_transient_series(const struct dfly_transient *rec, struct dfly_transient_point *pts)
{
	uint32_t n = rec->npre + rec->npost;
	uint32_t nma = (rec->p.ma_cycles + rec->p.bin - 1) / rec->p.bin;
	double lat = 0, mis = 0, nm = 0;

	for (uint32_t i = 0; i < n; i++) {
		const struct dfly_transient_bin *b = &rec->bins[i];
		struct dfly_transient_point *pt = &pts[i];
		uint32_t first = i + 1 > nma ? i + 1 - nma : 0;
		double ma_sum = 0;

		if (b->packets) {
			lat = (double)b->lat_sum / (double)b->packets;
			mis = 100.0 * (double)b->misrouted / (double)b->packets;
			nm = 100.0 * (double)b->nonmin / (double)b->packets;
		}
		pt->cycle = b->cycle;
		pt->packets = b->packets;
		pt->lat_avg = lat;
		pt->lat_max = b->lat_max;
		pt->misrouted_pct = mis;
		pt->nonmin_pct = nm;
		/* moving average over the last nma bins (fewer at the start of the window); the
		 * sum is recomputed rather than slid so that no rounding accumulates */
		for (uint32_t j = first; j <= i; j++)
			ma_sum += pts[j].misrouted_pct;
		pt->misrouted_ma = ma_sum / (double)(i + 1 - first);
	}
}

int dfly_transient_summarize(const struct dfly_transient *rec, struct dfly_transient_summary *sum)
{
	uint32_t n = rec->npre + rec->npost, z = rec->npre;
	uint32_t nsteady = (uint32_t)((uint64_t)rec->npost * rec->p.steady_pct / 100);
	struct dfly_transient_point *pts = calloc(n, sizeof(*pts));
	double s_mis = 0, s_nm = 0, s_lat = 0;
	uint32_t k;

	if (pts == NULL)
		return -ENOMEM;
	dfly_transient_series(rec, pts);
	memset(sum, 0, sizeof(*sum));
	sum->runs = rec->runs;
	for (uint32_t i = 0; i < n; i++)
		sum->packets += pts[i].packets;

	for (uint32_t i = 0; i < z; i++) {
		sum->pre_misrouted += pts[i].misrouted_pct;
		sum->pre_lat += pts[i].lat_avg;
	}
	if (z) {
		sum->pre_misrouted /= z;
		sum->pre_lat /= z;
	}

	if (nsteady == 0)
		nsteady = 1;
	for (uint32_t i = n - nsteady; i < n; i++) {
		s_mis += pts[i].misrouted_pct;
		s_nm += pts[i].nonmin_pct;
		s_lat += pts[i].lat_avg;
	}
	sum->steady_misrouted = s_mis / nsteady;
	sum->steady_nonmin = s_nm / nsteady;
	sum->steady_lat = s_lat / nsteady;

	sum->peak_cycle = pts[z].cycle;
	sum->peak_lat = pts[z].lat_avg;
	for (uint32_t i = z; i < n; i++) {
		if (pts[i].lat_avg > sum->peak_lat) {
			sum->peak_lat = pts[i].lat_avg;
			sum->peak_cycle = pts[i].cycle;
		}
		if (pts[i].lat_max > sum->lat_max)
			sum->lat_max = pts[i].lat_max;
	}

	/* reaction time: walk back from the last bin while the MA stays in the band */
	for (k = n; k > z; k--)
		if (fabs(pts[k - 1].misrouted_ma - sum->steady_misrouted) >
		    rec->p.tol_pp + BAND_EPS)
			break;
	sum->reaction = k == n ? -1 : pts[k].cycle;
	free(pts);
	return 0;
}

int dfly_transient_write_csv(const struct dfly_transient *rec, FILE *f)
{
	uint32_t n = rec->npre + rec->npost;
	struct dfly_transient_point *pts = calloc(n, sizeof(*pts));

	if (pts == NULL)
		return -ENOMEM;
	dfly_transient_series(rec, pts);
	fprintf(f, "cycle,packets,lat_avg,lat_max,misrouted_pct,nonmin_pct,misrouted_ma%u\n",
		rec->p.ma_cycles);
	for (uint32_t i = 0; i < n; i++)
		fprintf(f, "%lld,%llu,%.3f,%llu,%.3f,%.3f,%.3f\n", (long long)pts[i].cycle,
			(unsigned long long)pts[i].packets, pts[i].lat_avg,
			(unsigned long long)pts[i].lat_max, pts[i].misrouted_pct, pts[i].nonmin_pct,
			pts[i].misrouted_ma);
	free(pts);
	return ferror(f) ? -EIO : 0;
}

int dfly_transient_dump_summary(const struct dfly_transient *rec, FILE *f)
{
	const struct dfly_transient_params *p = &rec->p;
	struct dfly_transient_summary s;
	int rc = dfly_transient_summarize(rec, &s);

	if (rc)
		return rc;
	fprintf(f,
		"# window [-%llu, +%llu) cycles around t0, bins of %u cycle(s) by %s cycle, "
		"%u run(s), %llu packets\n",
		(unsigned long long)p->pre, (unsigned long long)p->post, p->bin,
		p->by == DFLY_TRANSIENT_BY_TAIL ? "delivery" : "generation", s.runs,
		(unsigned long long)s.packets);
	if (s.reaction >= 0)
		fprintf(f, "reaction time:      %lld cycles", (long long)s.reaction);
	else
		fprintf(f, "reaction time:      -1 (never settles)");
	fprintf(f, " (%u-cycle MA of %% globally misrouted within +-%g pp of the steady value)\n",
		p->ma_cycles, p->tol_pp);
	fprintf(f, "misrouted %%:        before %.2f, steady %.2f (last %u%% of the window)\n",
		s.pre_misrouted, s.steady_misrouted, p->steady_pct);
	fprintf(f, "nonminimal %%:       steady %.2f\n", s.steady_nonmin);
	fprintf(f,
		"latency (cycles):   before %.1f, peak %.1f at cycle %+lld, steady %.1f, "
		"max packet %llu\n",
		s.pre_lat, s.peak_lat, (long long)s.peak_cycle, s.steady_lat,
		(unsigned long long)s.lat_max);
	return 0;
}
