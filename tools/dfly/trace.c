/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `dfly trace`: read captures (include/dfly/trace.h), merged by time, and print or write as CSV
 * what the routing did: latency distribution, hop counts, path kinds, % misrouted over time,
 * per-link load, per-node injected and accepted load with the unfairness metrics of spec §8.5,
 * drops by reason and the decisions by reason.
 *
 * Which packets count. A packet is counted when its HOST_TX record (the tail reaching the
 * destination node) is read; --window A:B keeps the packets ejected in cycles [A, B), ejection
 * cycle = tail − links.terminal_latency − size + 1, which is the set `dfly sim` measures over
 * sim.warmup .. sim.warmup + sim.measure. Latency = tail − generation cycle (spec ).
 * Injected load per node: HOST_RX records in the window; accepted: the counted HOST_TX. Link
 * load: PORT_TX records in the window, phits over the window's cycles.
 *
 * A file is read to its end or it is an error: a truncated or corrupt file (pcap_next_ex
 * returns PCAP_ERROR, not PCAP_ERROR_BREAK) is named with the byte offset of the record that
 * failed, and a file whose records hold no dfly frame is named with the EtherTypes it holds;
 * both exit 1, so that a partial or foreign capture is never taken for a short run.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmds.h"
#include "dfly/trace.h"
#include "dfly/wire.h"
#include "netcfg.h"

#define TRACE_MAX_FILES 256
#define LAT_MAX         (1u << 20)
#define TRACE_ET_SLOTS  4 /* EtherTypes other than dfly's named in a file's message */

/** One input file, read record by record in the merge by time. */
struct tsrc {
	pcap_t *pc;            /**< the open capture */
	const char *path;      /**< as given on the command line */
	int dlt;               /**< its link type: DFLY_TRACE_DLT_META or _ETH */
	struct pcap_pkthdr *h; /**< the pending record's header (valid while live) */
	const u_char *data;    /**< the pending record's bytes (valid while live) */
	bool live;             /**< a record is pending */
	bool failed;           /**< reading stopped on an error before the end of the file */
	uint64_t nrec;         /**< records read */
	uint64_t ndfly;        /**< of them, dfly frames (EtherType 0x88B5 or 0x88B6) */
	uint64_t nshort;       /**< of them, too short for an EtherType or a bad metadata header */
	struct {
		uint16_t et;  /**< an EtherType other than dfly's */
		uint64_t n;   /**< frames of it */
	} et[TRACE_ET_SLOTS]; /**< the first other EtherTypes met, in that order */
	uint64_t et_more;     /**< frames of other EtherTypes beyond those slots */
};

struct link_load {
	uint64_t pkts, phits;
};

struct tstate {
	const struct dfly_topo *topo; /* NULL without --config */
	uint32_t lat_terminal;
	struct dfly_wire_limits lim;
	uint64_t from, to; /* window of ejection cycles */
	bool windowed;
	uint32_t bin;
	/* packets */
	uint64_t pkts, phits, nonmin, glob_mis, lhops, ghops, lat_max;
	double lat_sum;
	uint32_t *lat_hist;
	uint64_t kind[6]; /* min, -G-, -GL, LG-, LGL, in-transit */
	/* bins by generation cycle */
	uint64_t *bin_n, *bin_mis;
	uint64_t nbins;
	/* per node, per link */
	uint64_t *inj, *acc; /* [nodes] */
	uint32_t nodes_seen;
	struct link_load *link; /* [routers * radix] */
	uint64_t first_cycle, last_cycle;
	/* events */
	uint64_t records, per_point[DFLY_TRACE_POINT_COUNT], drops[DFLY_DROP_COUNT];
	uint64_t decision[DFLY_ROUTE_CTR_COUNT], trigger[DFLY_ROUTE_CTR_COUNT];
	uint64_t ctrl, bad, other;
};

static const char *const kind_names[6] = {"min", "-G-", "-GL", "LG-", "LGL", "in-transit"};
static const char *const point_names[DFLY_TRACE_POINT_COUNT] = {
#define X(E, n, d) #n,
    DFLY_FOREACH_TRACE_POINT(X)
#undef X
};

static void usage_trace(FILE *f)
{
	fprintf(
	    f,
	    "usage: dfly trace FILE... [--config CFG [--set PATH=VALUE]...] [--window A:B]\n"
	    "                  [--bin N] [--csv PREFIX] [--cycle-ns X]\n"
	    "\n"
	    "Read pcap captures written by dfly sim --capture or dfly-switch (format:\n"
	    "include/dfly/trace.h), several files merged by time, and report what the routing\n"
	    "did: packets delivered, latency (avg, p50, p99, max; tail at the node minus\n"
	    "generation, cycles), local and global hops, path kinds (min, -G-, -GL, LG-, LGL,\n"
	    "in-transit misroutes), %% misrouted (nonminimal) and %% globally misrouted, %%\n"
	    "misrouted over time in bins of generation cycles, per-link load (PORT_TX records),\n"
	    "per-node injected (HOST_RX) and accepted (HOST_TX) load with the unfairness\n"
	    "metrics of spec 8.5 (min, max/min, CoV), drops by reason, decisions by reason.\n"
	    "Packet statistics need metadata records (capture.meta = true); a plain Ethernet\n"
	    "capture gives link loads and header fields only.\n"
	    "\n"
	    "options:\n"
	    "  --config CFG      the network file of the run: needed for path kinds, the\n"
	    "                    terminal latency of --window and the decoder's id limits\n"
	    "  --set PATH=VALUE  a setting of CFG, as given to dfly sim\n"
	    "  --window A:B      count the packets ejected in cycles [A, B): the set dfly sim\n"
	    "                    measures with sim.warmup = A and sim.measure = B - A\n"
	    "  --bin N           bin width of the misrouted-over-time series (default 100)\n"
	    "  --csv PREFIX      write PREFIX-summary.csv, -bins.csv, -links.csv, -nodes.csv\n"
	    "  --cycle-ns X      ns per cycle for Ethernet captures without metadata (default 1)\n"
	    "  --help            this text\n"
	    "\n"
	    "Exit status: 0 on success, also when a file holds no record at all (a capture\n"
	    "whose points saw no traffic; a warning says so). 1 if a file\n"
	    "  - could not be opened, or its link type is not 147 or 1;\n"
	    "  - could not be read to its end (truncated or corrupt): the message names the\n"
	    "    file, the record and the byte offset where reading failed; the report\n"
	    "    counts the records before it;\n"
	    "  - has records but none is a dfly frame (EtherType 0x88B5 or 0x88B6), e.g. a\n"
	    "    capture of the hosts' IP traffic: the message counts the EtherTypes found.\n"
	    "    An error, not a warning, like a wrong link type: the report's zeros would\n"
	    "    otherwise pass for a measurement;\n"
	    "  - or holds malformed records.\n"
	    "2 on a usage error.\n");
}

/* Next record of @p s; false at the end of the file or on a read error, which it prints (the
 * file, the record and its byte offset) and marks in s->failed. */
static bool tsrc_next(struct tsrc *s)
{
	FILE *f = pcap_file(s->pc);
	long off = f != NULL ? ftell(f) : -1; /* where the next record starts */
	int rc = pcap_next_ex(s->pc, &s->h, &s->data);

	s->live = rc == 1;
	if (s->live) {
		s->nrec++;
		return true;
	}
	if (rc == PCAP_ERROR_BREAK) /* the end of the file, between two records */
		return false;
	s->failed = true;
	fprintf(stderr, "dfly trace: %s: reading record %" PRIu64, s->path, s->nrec + 1);
	if (off >= 0)
		fprintf(stderr, " at byte %ld", off);
	fprintf(stderr, " failed: %s; the report counts the %" PRIu64 " records before it\n",
		rc == PCAP_ERROR ? pcap_geterr(s->pc) : "unexpected return of pcap_next_ex",
		s->nrec);
	return false;
}

/* Count a record of @p s by the EtherType of its frame, -1 if it has none (too short, or a
 * metadata header that does not hold). */
static void tsrc_count(struct tsrc *s, int et)
{
	unsigned i;

	if (et == DFLY_WIRE_ETHERTYPE_DATA || et == DFLY_WIRE_ETHERTYPE_CTRL ||
	    et == DFLY_WIRE_ETHERTYPE_BUNDLE) {
		s->ndfly++;
		return;
	}
	if (et < 0) {
		s->nshort++;
		return;
	}
	for (i = 0; i < TRACE_ET_SLOTS && s->et[i].n && s->et[i].et != et; i++)
		;
	if (i == TRACE_ET_SLOTS) {
		s->et_more++;
		return;
	}
	s->et[i].et = (uint16_t)et;
	s->et[i].n++;
}

/* A file that has records but no dfly frame: say what it holds. @return true if so. */
static bool tsrc_foreign(const struct tsrc *s)
{
	const char *what = s->dlt == DFLY_TRACE_DLT_META ? "records" : "frames";

	if (s->nrec == 0 || s->ndfly > 0)
		return false;
	fprintf(stderr,
		"dfly trace: %s: %" PRIu64 " %s, none of them dfly frames (EtherType 0x%04x data, "
		"0x%04x control or 0x%04x bundle):",
		s->path, s->nrec, what, DFLY_WIRE_ETHERTYPE_DATA, DFLY_WIRE_ETHERTYPE_CTRL,
		DFLY_WIRE_ETHERTYPE_BUNDLE);
	for (unsigned i = 0; i < TRACE_ET_SLOTS && s->et[i].n; i++)
		fprintf(stderr, "%s0x%04x x%" PRIu64, i ? ", " : " ethertype ", s->et[i].et,
			s->et[i].n);
	if (s->et_more)
		fprintf(stderr, ", other EtherTypes x%" PRIu64, s->et_more);
	if (s->nshort)
		fprintf(stderr, "%s%" PRIu64 " without an EtherType (%s)",
			s->nshort < s->nrec ? ", " : " ", s->nshort,
			s->dlt == DFLY_TRACE_DLT_META
			    ? "a bad metadata header or a frame under 14 bytes"
			    : "under 14 bytes");
	fputs("\n", stderr);
	return true;
}

static uint64_t ts_ns(const struct pcap_pkthdr *h)
{
	return (uint64_t)h->ts.tv_sec * 1000000000ull + (uint64_t)h->ts.tv_usec;
}

static uint16_t get16(const u_char *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get32(const u_char *p)
{
	return (uint32_t)get16(p) << 16 | get16(p + 2);
}

static uint64_t get64(const u_char *p)
{
	return (uint64_t)get32(p) << 32 | get32(p + 4);
}

static unsigned path_kind(const struct tstate *st, const struct dfly_wire_data *d)
{
	struct dfly_hop hops[3];
	unsigned n;

	if (!(d->flags & DFLY_WIRE_F_NONMIN))
		return 0;
	if (d->via_router == DFLY_WIRE_NO_ROUTER || st->topo == NULL)
		return d->via_router == DFLY_WIRE_NO_ROUTER ? 5 : 4;
	n = dfly_topo_min_path(st->topo, d->src_node / st->topo->p, d->via_router, d->dst_node,
			       hops);
	if (n == 1)
		return 1;
	if (n == 2)
		return hops[0].kind == DFLY_PORT_GLOBAL ? 2 : 3;
	return 4;
}

static void count_packet(struct tstate *st, const struct dfly_wire_data *d, uint64_t tail)
{
	uint64_t lat = tail >= d->gen_cycle ? tail - d->gen_cycle : 0;
	uint32_t sg, dg;

	st->pkts++;
	st->phits += d->size_phits;
	st->lat_sum += (double)lat;
	if (lat > st->lat_max)
		st->lat_max = lat;
	st->lat_hist[lat < LAT_MAX ? lat : LAT_MAX - 1]++;
	st->nonmin += (d->flags & DFLY_WIRE_F_NONMIN) != 0;
	st->lhops += d->path_lhops;
	st->ghops += d->global_hops;
	if (st->topo != NULL) {
		sg = d->src_node / (st->topo->p * st->topo->a);
		dg = d->dst_node / (st->topo->p * st->topo->a);
		st->glob_mis += d->global_hops > (sg != dg ? 1u : 0u);
	}
	st->kind[path_kind(st, d)]++;
	{
		uint64_t b = d->gen_cycle / st->bin;

		if (b >= st->nbins) {
			uint64_t n = b + 1 + st->nbins;
			uint64_t *x = realloc(st->bin_n, n * sizeof(*x));
			uint64_t *y = realloc(st->bin_mis, n * sizeof(*y));

			if (x == NULL || y == NULL) {
				free(x ? x : st->bin_n);
				free(y ? y : st->bin_mis);
				st->bin_n = st->bin_mis = NULL;
				st->nbins = 0;
				return;
			}
			memset(x + st->nbins, 0, (n - st->nbins) * sizeof(*x));
			memset(y + st->nbins, 0, (n - st->nbins) * sizeof(*y));
			st->bin_n = x;
			st->bin_mis = y;
			st->nbins = n;
		}
		st->bin_n[b]++;
		st->bin_mis[b] += (d->flags & DFLY_WIRE_F_NONMIN) != 0;
	}
	if (st->acc != NULL && d->dst_node < st->nodes_seen)
		st->acc[d->dst_node] += d->size_phits;
}

static bool in_window(const struct tstate *st, uint64_t c)
{
	return !st->windowed || (c >= st->from && c < st->to);
}

/* One record of a metadata capture. @return the EtherType of its frame, -1 if the metadata
 * header does not hold or the frame is too short for one. */
static int meta_record(struct tstate *st, const struct pcap_pkthdr *h, const u_char *p)
{
	uint32_t caplen = h->caplen, mlen, router, port;
	uint8_t point;
	uint64_t cycle;
	const u_char *f;
	struct dfly_wire_data d;
	uint16_t et;

	if (caplen < DFLY_TRACE_META_LEN || get32(p) != DFLY_TRACE_MAGIC ||
	    p[4] != DFLY_TRACE_VERSION || p[5] >= DFLY_TRACE_POINT_COUNT) {
		st->bad++;
		return -1;
	}
	mlen = get16(p + 6);
	if (mlen < DFLY_TRACE_META_LEN || mlen > caplen) {
		st->bad++;
		return -1;
	}
	point = p[5];
	router = get32(p + 8);
	port = get16(p + 12);
	cycle = get64(p + 16);
	st->records++;
	st->per_point[point]++;
	if (cycle < st->first_cycle)
		st->first_cycle = cycle;
	if (cycle > st->last_cycle)
		st->last_cycle = cycle;
	if (point == DFLY_TRACE_DROP && get16(p + 28) < DFLY_DROP_COUNT)
		st->drops[get16(p + 28)]++;
	f = p + mlen;
	caplen -= mlen;
	if (caplen < DFLY_WIRE_ETH_LEN) {
		st->bad++;
		return -1;
	}
	et = get16(f + 12);
	if (et == DFLY_WIRE_ETHERTYPE_CTRL || et == DFLY_WIRE_ETHERTYPE_BUNDLE) {
		st->ctrl++;
		return et;
	}
	if (et != DFLY_WIRE_ETHERTYPE_DATA) {
		st->other++;
		return et;
	}
	/* the payload may be cut by the snap length: decode the header with the full length */
	if (caplen < DFLY_WIRE_ETH_LEN + DFLY_WIRE_DATA_HDR_LEN) {
		st->bad++;
		return et;
	}
	{
		size_t flen = h->len - mlen;
		uint8_t *full = malloc(flen);
		int rc;

		if (full == NULL) {
			st->bad++;
			return et;
		}
		memset(full, 0, flen);
		memcpy(full, f, caplen < flen ? caplen : flen);
		rc = dfly_wire_data_decode(full, flen, &st->lim, &d);
		free(full);
		if (rc < 0) {
			st->bad++;
			return et;
		}
	}
	if (point == DFLY_TRACE_PORT_TX) {
		uint16_t dec = get16(p + 24), trig = get16(p + 26);

		if (dec < DFLY_ROUTE_CTR_COUNT)
			st->decision[dec]++;
		if (trig < DFLY_ROUTE_CTR_COUNT)
			st->trigger[trig]++;
		if (st->topo != NULL && router < st->topo->routers && port < st->topo->radix &&
		    in_window(st, cycle)) {
			struct link_load *l = &st->link[router * st->topo->radix + port];

			l->pkts++;
			l->phits += d.size_phits;
		}
	} else if (point == DFLY_TRACE_HOST_RX) {
		if (st->inj != NULL && d.src_node < st->nodes_seen && in_window(st, cycle))
			st->inj[d.src_node] += d.size_phits;
	} else if (point == DFLY_TRACE_HOST_TX) {
		uint64_t ej = cycle + 1 >= (uint64_t)st->lat_terminal + d.size_phits
				  ? cycle + 1 - st->lat_terminal - d.size_phits
				  : 0;

		if (in_window(st, ej))
			count_packet(st, &d, cycle);
	}
	return et;
}

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

static void lat_pcts(const struct tstate *st, uint64_t *p50, uint64_t *p99)
{
	uint64_t acc = 0;
	bool have50 = false;

	*p50 = *p99 = 0;
	for (uint32_t b = 0; b < LAT_MAX && st->pkts; b++) {
		acc += st->lat_hist[b];
		if (!have50 && acc * 2 >= st->pkts) {
			*p50 = b;
			have50 = true;
		}
		if (acc * 100 >= st->pkts * 99) {
			*p99 = b;
			break;
		}
	}
}

/* Unfairness over routers (spec 8.5): per-router injected phits per node and cycle. */
static void unfair(const struct tstate *st, const uint64_t *per_node, double span, double *mn,
		   double *mxmn, double *cov)
{
	const struct dfly_topo *t = st->topo;
	double sum = 0, sum2 = 0, lo = INFINITY, hi = 0;

	*mn = *mxmn = *cov = 0;
	if (t == NULL || per_node == NULL || span <= 0)
		return;
	for (uint32_t r = 0; r < t->routers; r++) {
		double x = 0;

		for (uint32_t k = 0; k < t->p; k++)
			x += (double)per_node[r * t->p + k];
		x /= span * t->p;
		sum += x;
		sum2 += x * x;
		lo = x < lo ? x : lo;
		hi = x > hi ? x : hi;
	}
	*mn = lo;
	*mxmn = lo > 0 ? hi / lo : 0;
	{
		double mu = sum / t->routers, var = sum2 / t->routers - mu * mu;

		*cov = mu > 0 ? sqrt(var > 0 ? var : 0) / mu : 0;
	}
}

static int write_csvs(const struct tstate *st, const char *prefix, double span)
{
	char path[1024];
	FILE *f;
	uint64_t p50, p99;
	const struct dfly_topo *t = st->topo;

	lat_pcts(st, &p50, &p99);
	snprintf(path, sizeof(path), "%s-summary.csv", prefix);
	f = fopen(path, "w");
	if (f == NULL)
		goto err;
	fprintf(f, "packets,lat_avg,lat_p50,lat_p99,lat_max,misrouted_pct,global_misrouted_pct,"
		   "lhops_avg,ghops_avg,min,g,gl,lg,lgl,in_transit,records,ctrl,malformed\n");
	fprintf(f, "%" PRIu64 ",%.3f,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.4f,%.4f,%.4f,%.4f",
		st->pkts, st->pkts ? st->lat_sum / st->pkts : 0, p50, p99, st->lat_max,
		pct(st->nonmin, st->pkts), pct(st->glob_mis, st->pkts),
		st->pkts ? (double)st->lhops / st->pkts : 0,
		st->pkts ? (double)st->ghops / st->pkts : 0);
	for (int k = 0; k < 6; k++)
		fprintf(f, ",%" PRIu64, st->kind[k]);
	fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", st->records, st->ctrl, st->bad);
	fclose(f);

	snprintf(path, sizeof(path), "%s-bins.csv", prefix);
	f = fopen(path, "w");
	if (f == NULL)
		goto err;
	fprintf(f, "gen_cycle,packets,misrouted_pct\n");
	for (uint64_t b = 0; b < st->nbins; b++)
		if (st->bin_n[b])
			fprintf(f, "%" PRIu64 ",%" PRIu64 ",%.3f\n", b * st->bin, st->bin_n[b],
				pct(st->bin_mis[b], st->bin_n[b]));
	fclose(f);

	if (t != NULL) {
		snprintf(path, sizeof(path), "%s-links.csv", prefix);
		f = fopen(path, "w");
		if (f == NULL)
			goto err;
		fprintf(f, "router,port,kind,packets,phits,load\n");
		for (uint32_t r = 0; r < t->routers; r++)
			for (uint32_t p = t->first_local; p < t->radix; p++) {
				const struct link_load *l = &st->link[r * t->radix + p];

				fprintf(f, "%u,%u,%s,%" PRIu64 ",%" PRIu64 ",%.5f\n", r, p,
					p < t->first_global ? "local" : "global", l->pkts, l->phits,
					span > 0 ? (double)l->phits / span : 0);
			}
		fclose(f);
		snprintf(path, sizeof(path), "%s-nodes.csv", prefix);
		f = fopen(path, "w");
		if (f == NULL)
			goto err;
		fprintf(f, "node,router,injected,accepted\n");
		for (uint32_t n = 0; n < t->nodes; n++)
			fprintf(f, "%u,%u,%.5f,%.5f\n", n, n / t->p,
				span > 0 ? (double)st->inj[n] / span : 0,
				span > 0 ? (double)st->acc[n] / span : 0);
		fclose(f);
	}
	printf("# CSV written to %s-{summary,bins%s}.csv\n", prefix, t ? ",links,nodes" : "");
	return 0;
err:
	fprintf(stderr, "dfly trace: %s: %s\n", path, strerror(errno));
	return -1;
}

static void report(const struct tstate *st, double span)
{
	uint64_t p50, p99, busiest = 0;
	double mn, mxmn, cov, amn, amxmn, acov;
	const struct dfly_topo *t = st->topo;

	lat_pcts(st, &p50, &p99);
	printf("records: %" PRIu64 " (", st->records);
	for (int k = 0; k < DFLY_TRACE_POINT_COUNT; k++)
		printf("%s%s %" PRIu64, k ? ", " : "", point_names[k], st->per_point[k]);
	printf("); control frames %" PRIu64 ", malformed %" PRIu64 "\n", st->ctrl, st->bad);
	printf("packets: %" PRIu64 " delivered%s\n", st->pkts,
	       st->windowed ? " (ejected in the window)" : "");
	if (st->pkts) {
		printf("latency (cycles): avg %.2f, p50 %" PRIu64 ", p99 %" PRIu64 ", max %" PRIu64
		       "\n",
		       st->lat_sum / st->pkts, p50, p99, st->lat_max);
		printf("hops: local %.3f, global %.3f\n", (double)st->lhops / st->pkts,
		       (double)st->ghops / st->pkts);
		printf("misrouted: %.2f%% nonminimal", pct(st->nonmin, st->pkts));
		if (t != NULL)
			printf(", %.2f%% globally misrouted", pct(st->glob_mis, st->pkts));
		printf("\npaths:");
		for (int k = 0; k < 6; k++)
			printf(" %s %" PRIu64 " (%.1f%%)", kind_names[k], st->kind[k],
			       pct(st->kind[k], st->pkts));
		printf("\n");
	}
	for (int k = 0; k < DFLY_DROP_COUNT; k++)
		if (st->drops[k])
			printf("drop.%s: %" PRIu64 "\n", dfly_drop_names[k], st->drops[k]);
	for (int k = 0; k < DFLY_ROUTE_CTR_COUNT; k++)
		if (st->decision[k] || st->trigger[k])
			printf("decision %s: %" PRIu64 "%s\n", dfly_route_ctr_names[k],
			       st->decision[k] + st->trigger[k],
			       st->trigger[k] ? " (as trigger)" : "");
	if (t != NULL && span > 0) {
		uint32_t br = 0, bp = 0;

		for (uint32_t r = 0; r < t->routers; r++)
			for (uint32_t p = t->first_local; p < t->radix; p++)
				if (st->link[r * t->radix + p].phits > busiest) {
					busiest = st->link[r * t->radix + p].phits;
					br = r;
					bp = p;
				}
		printf("busiest link: router %u port %u (%s), load %.4f phits/cycle\n", br, bp,
		       bp < t->first_global ? "local" : "global", (double)busiest / span);
		unfair(st, st->inj, span, &mn, &mxmn, &cov);
		unfair(st, st->acc, span, &amn, &amxmn, &acov);
		printf("injected per router: min %.4f, max/min %.3f, CoV %.3f phits/(node*cycle)\n",
		       mn, mxmn, cov);
		printf("accepted per router: min %.4f, max/min %.3f, CoV %.3f\n", amn, amxmn, acov);
	}
}

int cmd_trace(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"config", required_argument, NULL, 'c'}, {"set", required_argument, NULL, 's'},
	    {"window", required_argument, NULL, 'w'}, {"bin", required_argument, NULL, 'b'},
	    {"csv", required_argument, NULL, 'o'},    {"cycle-ns", required_argument, NULL, 'n'},
	    {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0},
	};
	static struct tsrc src[TRACE_MAX_FILES];
	const char *cfg_path = NULL, *csv = NULL, *sets[64];
	struct dfly_netcfg cfg;
	struct dfly_topo *topo = NULL;
	struct tstate st = {.bin = 100, .lat_terminal = 1, .first_cycle = UINT64_MAX};
	double cycle_ns = 1.0, span;
	char err[DFLY_NETCFG_ERRLEN], ebuf[PCAP_ERRBUF_SIZE];
	int nsets = 0, nsrc = 0, opt, status = 0;

	optind = 1;
	while ((opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			cfg_path = optarg;
			break;
		case 's':
			if (nsets >= 64) {
				fprintf(stderr, "dfly trace: too many --set options\n");
				return 2;
			}
			sets[nsets++] = optarg;
			break;
		case 'w': {
			char *end;

			st.from = strtoull(optarg, &end, 10);
			if (*end != ':' || end == optarg) {
				fprintf(stderr, "dfly trace: --window %s: expected A:B\n", optarg);
				return 2;
			}
			st.to = strtoull(end + 1, &end, 10);
			if (*end != '\0' || st.to <= st.from) {
				fprintf(stderr,
					"dfly trace: --window %s: expected A:B with A < B\n",
					optarg);
				return 2;
			}
			st.windowed = true;
			break;
		}
		case 'b': {
			char *end;
			unsigned long v = strtoul(optarg, &end, 10);

			if (*end != '\0' || v == 0 || v > 100000000) {
				fprintf(stderr, "dfly trace: --bin %s: expected 1..100000000\n",
					optarg);
				return 2;
			}
			st.bin = (uint32_t)v;
			break;
		}
		case 'o':
			csv = optarg;
			break;
		case 'n': {
			char *end;

			cycle_ns = strtod(optarg, &end);
			if (end == optarg || *end != '\0' || !(cycle_ns > 0) || isinf(cycle_ns)) {
				fprintf(stderr,
					"dfly trace: --cycle-ns %s: expected a number > 0\n",
					optarg);
				return 2;
			}
			break;
		}
		case 'h':
			usage_trace(stdout);
			return 0;
		default:
			return dfly_cli_opt_error("dfly trace", opts, opt, argv);
		}
	}
	if (optind >= argc)
		return dfly_cli_usage_error("dfly trace", "a capture file (FILE.pcap) is required");
	if (cfg_path != NULL) {
		if (dfly_netcfg_load(&cfg, cfg_path, sets, nsets, err, sizeof(err)) != 0) {
			fprintf(stderr, "dfly trace: %s\n", err);
			return 2;
		}
		topo = dfly_topo_create(cfg.p, cfg.a, cfg.h, cfg.t, cfg.arr, cfg.sigma);
		if (topo == NULL) {
			fprintf(stderr, "dfly trace: %s: bad topology\n", cfg_path);
			return 2;
		}
		st.topo = topo;
		st.lat_terminal = cfg.lat_terminal;
		cycle_ns = cfg.cycle_ns;
		dfly_wire_limits_init(&st.lim, topo, DFLY_MAX_VCS, 65535);
		st.nodes_seen = topo->nodes;
		st.inj = calloc(topo->nodes, sizeof(*st.inj));
		st.acc = calloc(topo->nodes, sizeof(*st.acc));
		st.link = calloc((size_t)topo->routers * topo->radix, sizeof(*st.link));
		if (st.inj == NULL || st.acc == NULL || st.link == NULL) {
			fprintf(stderr, "dfly trace: out of memory\n");
			status = 2;
			goto out;
		}
	} else {
		st.lim = (struct dfly_wire_limits){.nodes = UINT32_MAX - 1,
						   .routers = UINT32_MAX - 1,
						   .p = 1,
						   .a = 1,
						   .h = 1,
						   .t = 1,
						   .vcs = DFLY_MAX_VCS,
						   .max_phits = 65535};
	}
	st.lat_hist = calloc(LAT_MAX, sizeof(*st.lat_hist));
	if (st.lat_hist == NULL) {
		fprintf(stderr, "dfly trace: out of memory\n");
		status = 2;
		goto out;
	}
	for (int i = optind; i < argc; i++) {
		struct tsrc *s;

		if (nsrc >= TRACE_MAX_FILES) {
			fprintf(stderr, "dfly trace: more than %d files\n", TRACE_MAX_FILES);
			status = 2;
			goto out;
		}
		s = &src[nsrc];
		s->path = argv[i];
		s->pc = pcap_open_offline_with_tstamp_precision(argv[i], PCAP_TSTAMP_PRECISION_NANO,
								ebuf);
		if (s->pc == NULL) {
			/* libpcap names the file in some messages ("x: No such file or
			 * directory") and not in others ("unknown file format") */
			if (strstr(ebuf, argv[i]) != NULL)
				fprintf(stderr, "dfly trace: %s\n", ebuf);
			else
				fprintf(stderr, "dfly trace: %s: %s\n", argv[i], ebuf);
			status = 1;
			goto out;
		}
		nsrc++;
		s->dlt = pcap_datalink(s->pc);
		if (s->dlt != DFLY_TRACE_DLT_META && s->dlt != DFLY_TRACE_DLT_ETH) {
			fprintf(stderr,
				"dfly trace: %s: link type %d is not a dfly capture (147 or 1)\n",
				argv[i], s->dlt);
			status = 1;
			goto out;
		}
		tsrc_next(s);
	}
	/* merge by time */
	for (;;) {
		struct tsrc *best = NULL;

		for (int i = 0; i < nsrc; i++)
			if (src[i].live && (best == NULL || ts_ns(src[i].h) < ts_ns(best->h)))
				best = &src[i];
		if (best == NULL)
			break;
		if (best->dlt == DFLY_TRACE_DLT_META) {
			tsrc_count(best, meta_record(&st, best->h, best->data));
		} else {
			/* plain Ethernet: header fields and link loads are not attributable to a
			 * port without metadata; count the frames by type */
			uint64_t c = (uint64_t)((double)ts_ns(best->h) / cycle_ns);

			st.records++;
			if (c < st.first_cycle)
				st.first_cycle = c;
			if (c > st.last_cycle)
				st.last_cycle = c;
			if (best->h->caplen >= DFLY_WIRE_ETH_LEN &&
			    (get16(best->data + 12) == DFLY_WIRE_ETHERTYPE_CTRL ||
			     get16(best->data + 12) == DFLY_WIRE_ETHERTYPE_BUNDLE))
				st.ctrl++;
			else
				st.other++;
			tsrc_count(best, best->h->caplen >= DFLY_WIRE_ETH_LEN
					     ? get16(best->data + 12)
					     : -1);
		}
		tsrc_next(best);
	}
	for (int i = 0; i < nsrc; i++) {
		if (src[i].failed || tsrc_foreign(&src[i]))
			status = 1;
		else if (src[i].nrec == 0)
			fprintf(stderr, "dfly trace: warning: %s: no records\n", src[i].path);
	}
	span = st.windowed  ? (double)(st.to - st.from)
	       : st.records ? (double)(st.last_cycle - st.first_cycle + 1)
			    : 0;
	report(&st, span);
	if (csv != NULL && write_csvs(&st, csv, span) < 0)
		status = 1;
	if (st.bad)
		status = 1;
out:
	for (int i = 0; i < nsrc; i++)
		pcap_close(src[i].pc);
	free(st.lat_hist);
	free(st.bin_n);
	free(st.bin_mis);
	free(st.inj);
	free(st.acc);
	free(st.link);
	dfly_topo_destroy(topo);
	return status;
}
