/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `dfly plot`: draw the CSVs of the other commands as PNG images with gnuplot. Four kinds:
 * load (dfly sim --csv: latency and accepted load against offered load, the seeds of a point
 * averaged), transient (dfly transient --csv, and so dfly repro transient: latency and %
 * misrouted against the cycle relative to the pattern switch), routers and bins (dfly trace
 * --csv PREFIX: PREFIX-nodes.csv as injected and accepted load per router, PREFIX-bins.csv as %
 * misrouted over time, with the packets per bin; a bin of fewer than --min-packets packets is a
 * gap, not a point).
 *
 * The CSVs are read here, by their header names (no quoting: none of those files needs it), and
 * the points go into the gnuplot script as inline data blocks ($name << EOD), so the script is
 * self-contained: --script writes it instead of running gnuplot, and `gnuplot FILE` draws the
 * same image later or elsewhere. The script picks the terminal itself: pngcairo when gnuplot
 * has it, else png. gnuplot is run with fork/exec, no shell, the script on a pipe to its stdin.
 * scripts/plot-transient.sh (used by dfly repro transient) draws the transient figure with the
 * same look from the CSV files directly.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "cmds.h"

#define PLOT_MAX_FILES   64
#define PLOT_MAX_SERIES  16         /* mechanisms or patterns of a load plot */
#define PLOT_MAX_ROUTERS (1u << 20) /* highest router id + 1 of a nodes CSV */
#define PLOT_MAX_DIM     10000      /* --size, pixels */
/* bins: the fewest packets a bin needs for its % misrouted to be drawn (--min-packets). Below
 * 10, one packet moves a bin by more than 10 points: a bin of 1 packet reads 0 % or 100 %. */
#define PLOT_BINS_MIN_PACKETS 10
_Static_assert(PLOT_BINS_MIN_PACKETS == 10, "dfly plot bins --help says 10");

/* ---------------------------------------------------------------------------------------------
 * CSV files
 */

/** A CSV file read whole: a header of column names, then rows of as many cells. */
struct plot_csv {
	const char *path; /**< as given on the command line */
	char *buf;        /**< the file's text, cut in place into cells */
	char **cell;      /**< [(nrow + 1) * ncol]: row 0 is the header */
	unsigned *line;   /**< [nrow + 1]: line number in the file of each row */
	unsigned ncol;    /**< cells per row: the header's */
	unsigned nrow;    /**< data rows */
};

/** The options of a plot, as parsed (kinds that do not take one leave it unset). */
struct plot_opts {
	const char *out;    /**< --out: the PNG file */
	const char *title;  /**< --title, or NULL */
	const char *metric; /**< --metric: the latency column, or NULL for lat_avg */
	char **labels;      /**< [nfiles]: --labels or the files' stems */
	bool labels_given;  /**< labels are --labels, not the stems */
	bool ma;            /**< --ma: the moving average of % misrouted */
	unsigned min_pkts;  /**< --min-packets: bins with fewer are gaps */
	double ymax;        /**< --ymax: top of the latency axis; NAN: automatic */
	unsigned w, h;      /**< --size; 0: the kind's default */
};

static void plot_csv_free(struct plot_csv *t)
{
	free(t->buf);
	free(t->cell);
	free(t->line);
}

/* Read @p path whole into @p t. Lines starting with '#' and empty lines are skipped; every row
 * must have as many cells as the header. Prints the error. @return 0 or -errno. */
static int plot_csv_read(struct plot_csv *t, const char *path)
{
	size_t len = 0, cap = 0, n, ncell = 0, cellcap = 0, nline = 0;
	unsigned lineno = 0;
	char *p, *next;
	FILE *f;
	int rc = 0;

	*t = (struct plot_csv){.path = path};
	errno = 0;
	f = fopen(path, "r");
	if (f == NULL) {
		rc = -errno;
		fprintf(stderr, "dfly plot: %s: %s\n", path, strerror(errno));
		return rc;
	}
	for (;;) {
		if (len + 4096 + 1 > cap) {
			char *b = realloc(t->buf, cap = cap * 2 + 8192);

			if (b == NULL) {
				rc = -ENOMEM;
				goto err;
			}
			t->buf = b;
		}
		n = fread(t->buf + len, 1, cap - len - 1, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		rc = errno != 0 ? -errno : -EIO;
		goto err;
	}
	t->buf[len] = '\0';
	for (p = t->buf; p != NULL && *p != '\0'; p = next) {
		size_t k, nc = 1;
		char *e;

		lineno++;
		next = strchr(p, '\n');
		if (next != NULL)
			*next++ = '\0';
		e = p + strlen(p);
		if (e > p && e[-1] == '\r')
			*--e = '\0';
		if (*p == '\0' || *p == '#')
			continue;
		for (char *c = p; *c != '\0'; c++)
			nc += *c == ',';
		if (nline == 0)
			t->ncol = (unsigned)nc;
		if (nc != t->ncol) {
			fprintf(stderr, "dfly plot: %s:%u: %zu fields, the header has %u\n", path,
				lineno, nc, t->ncol);
			fclose(f);
			plot_csv_free(t);
			return -EINVAL;
		}
		if (ncell + nc > cellcap) {
			char **c = realloc(t->cell, (cellcap = cellcap * 2 + 64 * nc) * sizeof(*c));
			unsigned *l = realloc(t->line, (cellcap / nc + 1) * sizeof(*l));

			if (c != NULL)
				t->cell = c;
			if (l != NULL)
				t->line = l;
			if (c == NULL || l == NULL) {
				rc = -ENOMEM;
				goto err;
			}
		}
		t->line[nline++] = lineno;
		for (k = 0; k < nc; k++) {
			t->cell[ncell++] = p;
			p = strchr(p, ',');
			if (p != NULL)
				*p++ = '\0';
		}
	}
	fclose(f);
	if (nline == 0) {
		fprintf(stderr, "dfly plot: %s: empty (no header line)\n", path);
		plot_csv_free(t);
		return -EINVAL;
	}
	t->nrow = (unsigned)nline - 1;
	return 0;
err:
	fprintf(stderr, "dfly plot: %s: %s\n", path, strerror(-rc));
	fclose(f);
	plot_csv_free(t);
	return rc;
}

static const char *plot_csv_get(const struct plot_csv *t, unsigned row, unsigned col)
{
	return t->cell[(size_t)(row + 1) * t->ncol + col];
}

/* The index of column @p name (with @p prefix, the first column whose name starts with it).
 * Prints the error. @return the index or -1. */
static int plot_csv_col(const struct plot_csv *t, const char *name, bool prefix)
{
	for (unsigned c = 0; c < t->ncol; c++)
		if (prefix ? strncmp(t->cell[c], name, strlen(name)) == 0
			   : strcmp(t->cell[c], name) == 0)
			return (int)c;
	fprintf(stderr, "dfly plot: %s: no column '%s%s'\n", t->path, name, prefix ? "*" : "");
	return -1;
}

/* Cell (@p row, @p col) as a number. Prints the error. @return 0 or -EINVAL. */
static int plot_csv_num(const struct plot_csv *t, unsigned row, unsigned col, double *v)
{
	const char *s = plot_csv_get(t, row, col);
	char *end;

	*v = strtod(s, &end);
	if (end == s || *end != '\0') {
		fprintf(stderr, "dfly plot: %s:%u: %s '%s' is not a number\n", t->path,
			t->line[row + 1], t->cell[col], s);
		return -EINVAL;
	}
	return 0;
}

/* Check that every row of columns @p cols[0..n) holds a number. @return 0 or -EINVAL. */
static int plot_csv_check_nums(const struct plot_csv *t, const int *cols, unsigned n)
{
	double v;

	for (unsigned r = 0; r < t->nrow; r++)
		for (unsigned k = 0; k < n; k++)
			if (plot_csv_num(t, r, (unsigned)cols[k], &v) != 0)
				return -EINVAL;
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * gnuplot script
 */

/* A gnuplot single-quoted string: a quote is doubled, a line break would end the command. */
static void gp_str(FILE *g, const char *s)
{
	putc('\'', g);
	for (; *s != '\0'; s++) {
		if (*s == '\'')
			putc('\'', g);
		putc(*s == '\n' || *s == '\r' ? ' ' : *s, g);
	}
	putc('\'', g);
}

/* A number of a data block; NaN (no value) as gnuplot reads it. */
static void gp_num(FILE *g, const char *fmt, double v)
{
	if (isfinite(v))
		fprintf(g, fmt, v);
	else
		fputs("NaN", g);
}

/* The script's head: the terminal (pngcairo if this gnuplot has it, else png), the output. */
static void gp_head(FILE *g, const char *kind, const struct plot_opts *o, unsigned w, unsigned h)
{
	if (o->w != 0) {
		w = o->w;
		h = o->h;
	}
	fprintf(g,
		"# dfly plot %s: a gnuplot script with its data inline; run it with gnuplot FILE\n"
		"if (strstrt(GPVAL_TERMINALS, ' pngcairo ') > 0) {\n"
		"\tset terminal pngcairo size %u,%u font ',10'\n"
		"} else {\n"
		"\tset terminal png size %u,%u\n"
		"}\n"
		"set output ",
		kind, w, h, w, h);
	gp_str(g, o->out);
	fputs("\n", g);
}

/* set multiplot with the --title. */
static void gp_multiplot(FILE *g, const struct plot_opts *o, unsigned rows, unsigned cols)
{
	fprintf(g, "set multiplot layout %u,%u title ", rows, cols);
	gp_str(g, o->title != NULL ? o->title : "");
	fputs(" noenhanced\n", g);
}

/* The axis label of a latency column. */
static const char *lat_label(const char *col)
{
	static const char *const names[][2] = {
	    {"lat_avg", "average latency (cycles)"},
	    {"lat_p50", "median latency (cycles)"},
	    {"lat_p99", "99th percentile latency (cycles)"},
	    {"lat_max", "maximum latency (cycles)"},
	    {"net_lat_avg", "average network latency (cycles)"},
	};

	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(col, names[i][0]) == 0)
			return names[i][1];
	return col;
}

/* set yrange of the latency axis: [0:--ymax] or automatic. */
static void gp_lat_range(FILE *g, const struct plot_opts *o, const char *lo)
{
	if (isnan(o->ymax))
		fprintf(g, "set yrange [%s:*]\n", lo);
	else
		fprintf(g, "set yrange [%s:%.17g]\n", lo, o->ymax);
}

/* ---------------------------------------------------------------------------------------------
 * load: dfly sim --csv
 */

/** One point of a load plot: the runs (seeds) of a (pattern, mechanism, offered load). */
struct load_pt {
	unsigned pat, mech; /**< indices into the pattern and mechanism names */
	double offered;     /**< offered column */
	double acc, lat;    /**< sums over the runs of accepted and the latency column */
	unsigned n;         /**< runs */
};

static int load_pt_cmp(const void *a, const void *b)
{
	const struct load_pt *x = a, *y = b;

	if (x->pat != y->pat)
		return x->pat < y->pat ? -1 : 1;
	if (x->mech != y->mech)
		return x->mech < y->mech ? -1 : 1;
	return x->offered < y->offered ? -1 : x->offered > y->offered;
}

/* The index of @p s in @p names[0..*n), added at the end if absent. @return it or -1 if full. */
static int name_index(const char **names, unsigned *n, const char *s)
{
	for (unsigned i = 0; i < *n; i++)
		if (strcmp(names[i], s) == 0)
			return (int)i;
	if (*n >= PLOT_MAX_SERIES)
		return -1;
	names[*n] = s;
	return (int)(*n)++;
}

/* The title and y label of a panel of pattern @p pat. */
static void gp_load_panel(FILE *g, const char *pat, const char *ylabel)
{
	fputs("set title 'pattern ' . ", g);
	gp_str(g, pat);
	fputs(" noenhanced\nset ylabel ", g);
	gp_str(g, ylabel);
	fputs("\n", g);
}

/* plot column @p col of the blocks of pattern @p p, one line per mechanism; accepted (column 2)
 * with the diagonal accepted = offered. */
static void gp_load_plot(FILE *g, const struct load_pt *pt, unsigned npt, unsigned p,
			 const char *const *mechs, unsigned col)
{
	bool first = true;

	fputs("plot ", g);
	for (unsigned i = 0; i < npt; i++) {
		/* the first point of each of the pattern's blocks */
		if (pt[i].pat != p || (i > 0 && pt[i - 1].pat == p && pt[i - 1].mech == pt[i].mech))
			continue;
		fprintf(g, "%s$load_%u_%u using 1:%u with linespoints lt %u pt 7 ps 0.6 title ",
			first ? "" : ", \\\n\t", p, pt[i].mech, col, pt[i].mech + 1);
		gp_str(g, mechs[pt[i].mech]);
		first = false;
	}
	if (col == 2)
		fputs(", \\\n\tx with lines dashtype 2 lc 'gray' title 'offered'", g);
	fputs("\n", g);
}

static int plot_load(FILE *g, const struct plot_csv *csv, unsigned ncsv, const struct plot_opts *o)
{
	const char *metric = o->metric != NULL ? o->metric : "lat_avg";
	const char *mechs[PLOT_MAX_SERIES], *pats[PLOT_MAX_SERIES];
	unsigned nmech = 0, npat = 0, npt = 0, cap = 0;
	struct load_pt *pt = NULL;
	int rc = -EINVAL;

	for (unsigned f = 0; f < ncsv; f++) {
		const struct plot_csv *t = &csv[f];
		int cm = plot_csv_col(t, "mechanism", false);
		int cp = plot_csv_col(t, "pattern", false);
		int co = plot_csv_col(t, "offered", false);
		int ca = plot_csv_col(t, "accepted", false);
		int cl = plot_csv_col(t, metric, false);

		if (cm < 0 || cp < 0 || co < 0 || ca < 0 || cl < 0)
			goto out;
		for (unsigned r = 0; r < t->nrow; r++) {
			int m = name_index(mechs, &nmech, plot_csv_get(t, r, (unsigned)cm));
			int p = name_index(pats, &npat, plot_csv_get(t, r, (unsigned)cp));
			double off, acc, lat;
			unsigned i;

			if (m < 0 || p < 0) {
				fprintf(stderr,
					"dfly plot: %s:%u: more than %d mechanisms or patterns\n",
					t->path, t->line[r + 1], PLOT_MAX_SERIES);
				goto out;
			}
			if (plot_csv_num(t, r, (unsigned)co, &off) != 0 ||
			    plot_csv_num(t, r, (unsigned)ca, &acc) != 0 ||
			    plot_csv_num(t, r, (unsigned)cl, &lat) != 0)
				goto out;
			for (i = 0; i < npt; i++)
				if (pt[i].pat == (unsigned)p && pt[i].mech == (unsigned)m &&
				    pt[i].offered == off)
					break;
			if (i == npt) {
				if (npt == cap) {
					struct load_pt *x;

					cap = cap * 2 + 64;
					x = realloc(pt, cap * sizeof(*x));

					if (x == NULL) {
						fprintf(stderr, "dfly plot: out of memory\n");
						goto out;
					}
					pt = x;
				}
				pt[npt++] = (struct load_pt){
				    .pat = (unsigned)p, .mech = (unsigned)m, .offered = off};
			}
			pt[i].acc += acc;
			pt[i].lat += lat;
			pt[i].n++;
		}
	}
	if (npt == 0) {
		fprintf(stderr, "dfly plot: %s%s: no runs\n", csv[0].path, ncsv > 1 ? "..." : "");
		goto out;
	}
	qsort(pt, npt, sizeof(*pt), load_pt_cmp);

	gp_head(g, "load", o, 1000, 420 * npat);
	/* one block per (pattern, mechanism): $load_P_M, offered accepted metric runs */
	for (unsigned i = 0; i < npt; i++) {
		const struct load_pt *x = &pt[i];

		if (i == 0 || x->pat != pt[i - 1].pat || x->mech != pt[i - 1].mech)
			fprintf(g, "$load_%u_%u << EOD\n# %s %s: offered accepted %s runs\n",
				x->pat, x->mech, mechs[x->mech], pats[x->pat], metric);
		fprintf(g, "%.4f ", x->offered);
		gp_num(g, "%.6f", x->acc / x->n);
		putc(' ', g);
		gp_num(g, "%.6f", x->lat / x->n);
		fprintf(g, " %u\n", x->n);
		if (i + 1 == npt || pt[i + 1].pat != x->pat || pt[i + 1].mech != x->mech)
			fputs("EOD\n", g);
	}
	fputs("set key noenhanced top left\n"
	      "set grid\n"
	      "set xlabel 'offered load (phits per node per cycle)'\n"
	      "set xrange [0:*]\n",
	      g);
	gp_multiplot(g, o, npat, 2);
	for (unsigned p = 0; p < npat; p++) {
		gp_load_panel(g, pats[p], lat_label(metric));
		gp_lat_range(g, o, "0");
		gp_load_plot(g, pt, npt, p, mechs, 3);
		gp_load_panel(g, pats[p], "accepted load (phits per node per cycle)");
		fputs("set yrange [0:*]\n", g);
		gp_load_plot(g, pt, npt, p, mechs, 2);
	}
	fputs("unset multiplot\n", g);
	rc = 0;
out:
	free(pt);
	return rc;
}

/* ---------------------------------------------------------------------------------------------
 * transient: dfly transient --csv; bins: dfly trace --csv PREFIX, PREFIX-bins.csv
 */

/* Data block $NAME_I of file @p i: the cells of columns @p cols[0..n), space-separated. */
static void gp_block(FILE *g, const char *name, unsigned i, const struct plot_csv *t,
		     const int *cols, unsigned n)
{
	fprintf(g, "$%s_%u << EOD\n# %s:", name, i, t->path);
	for (unsigned k = 0; k < n; k++)
		fprintf(g, " %s", t->cell[cols[k]]);
	fputs("\n", g);
	for (unsigned r = 0; r < t->nrow; r++)
		for (unsigned k = 0; k < n; k++)
			fprintf(g, "%s%c", plot_csv_get(t, r, (unsigned)cols[k]),
				k + 1 < n ? ' ' : '\n');
	fputs("EOD\n", g);
}

/* plot $NAME_0 using U with lines title LABEL_0, ... for every file. */
static void gp_lines(FILE *g, const char *name, const char *using, unsigned ncsv,
		     const struct plot_opts *o)
{
	fputs("plot ", g);
	for (unsigned f = 0; f < ncsv; f++) {
		fprintf(g, "%s$%s_%u using %s with lines lt %u title ", f ? ", \\\n\t" : "", name,
			f, using, f + 1);
		gp_str(g, o->labels[f]);
	}
	fputs("\n", g);
}

static int plot_transient(FILE *g, const struct plot_csv *csv, unsigned ncsv,
			  const struct plot_opts *o)
{
	const char *metric = o->metric != NULL ? o->metric : "lat_avg";

	for (unsigned f = 0; f < ncsv; f++) {
		int cols[3] = {plot_csv_col(&csv[f], "cycle", false),
			       plot_csv_col(&csv[f], metric, false),
			       o->ma ? plot_csv_col(&csv[f], "misrouted_ma", true)
				     : plot_csv_col(&csv[f], "misrouted_pct", false)};

		if (cols[0] < 0 || cols[1] < 0 || cols[2] < 0 ||
		    plot_csv_check_nums(&csv[f], cols, 3) != 0)
			return -EINVAL;
		if (f == 0)
			gp_head(g, "transient", o, 1000, 800);
		gp_block(g, "tr", f, &csv[f], cols, 3);
	}
	/* the look of scripts/plot-transient.sh */
	fputs("set key noenhanced top right\n"
	      "set grid\n"
	      "set autoscale xfix\n"
	      "set lmargin at screen 0.09\n"
	      "set rmargin at screen 0.97\n",
	      g);
	gp_multiplot(g, o, 2, 1);
	fputs("set arrow 1 from 0, graph 0 to 0, graph 1 nohead dashtype 2\nset ylabel ", g);
	gp_str(g, lat_label(metric));
	fputs("\nset format x ''\n", g);
	gp_lat_range(g, o, "*");
	gp_lines(g, "tr", "1:2", ncsv, o);
	fprintf(g,
		"set xlabel 'cycle relative to the pattern switch'\n"
		"set format x '%%g'\n"
		"set ylabel '%% globally misrouted%s'\n"
		"set yrange [-2:102]\n"
		"set key bottom right\n",
		o->ma ? " (moving average)" : "");
	gp_lines(g, "tr", "1:3", ncsv, o);
	fputs("unset multiplot\n", g);
	return 0;
}

/* The bin width of a bins CSV: the smallest step between consecutive gen_cycle values (dfly
 * trace writes the bins in order and leaves out the empty ones), 0 with fewer than two bins. */
static double bins_width(const struct plot_csv *t, unsigned cg)
{
	double w = 0, prev = 0, x;

	for (unsigned r = 0; r < t->nrow; r++) {
		plot_csv_num(t, r, cg, &x);
		if (r > 0 && x > prev && (w == 0 || x - prev < w))
			w = x - prev;
		prev = x;
	}
	return w;
}

/* Data block $bins_I of file @p t of bin width @p w: gen_cycle misrouted_pct packets, with
 * misrouted_pct NaN for a bin of fewer than @p min packets and for a bin the file leaves out
 * (no packet), and a last row at the end of the last bin, where the steps of packets end.
 * gnuplot breaks a line at NaN, invalid data; it would join the points on either side of a
 * missing value ("?" with set datafile missing: gnuplot 5 help on that command).
 * @return the bins drawn. */
static unsigned gp_bins_block(FILE *g, unsigned i, const struct plot_csv *t, const int *cols,
			      double w, unsigned min)
{
	double prev = 0, x, n;
	unsigned drawn = 0;

	fprintf(g,
		"$bins_%u << EOD\n# %s: gen_cycle misrouted_pct packets; misrouted_pct NaN (a gap) "
		"where a bin has fewer than %u packets or none; the last row ends the last bin\n",
		i, t->path, min);
	for (unsigned r = 0; r < t->nrow; r++) {
		plot_csv_num(t, r, (unsigned)cols[0], &x);
		plot_csv_num(t, r, (unsigned)cols[1], &n);
		if (r > 0 && w > 0 && x > prev + w)
			fprintf(g, "%.17g NaN 0\n", prev + w);
		if (n >= min) {
			fprintf(g, "%s %s %s\n", plot_csv_get(t, r, (unsigned)cols[0]),
				plot_csv_get(t, r, (unsigned)cols[2]),
				plot_csv_get(t, r, (unsigned)cols[1]));
			drawn++;
		} else {
			fprintf(g, "%s NaN %s\n", plot_csv_get(t, r, (unsigned)cols[0]),
				plot_csv_get(t, r, (unsigned)cols[1]));
		}
		prev = x;
	}
	/* the end of the last bin, where its step of packets ends */
	if (w > 0)
		fprintf(g, "%.17g NaN %s\n", prev + w,
			plot_csv_get(t, t->nrow - 1, (unsigned)cols[1]));
	fputs("EOD\n", g);
	return drawn;
}

/* The label of file @p f: --labels, or the file's stem without -bins, the PREFIX of dfly trace
 * --csv PREFIX that names the run. */
static void gp_bins_label(FILE *g, const struct plot_opts *o, unsigned f)
{
	const char *l = o->labels[f];
	size_t n = strlen(l);
	char *s;

	if (o->labels_given || n <= 5 || strcmp(l + n - 5, "-bins") != 0) {
		gp_str(g, l);
		return;
	}
	s = strndup(l, n - 5);
	gp_str(g, s != NULL ? s : l);
	free(s);
}

static int plot_bins(FILE *g, const struct plot_csv *csv, unsigned ncsv, const struct plot_opts *o)
{
	/* one file without --labels: the series are named by what they show; else by label */
	bool named = ncsv > 1 || o->labels_given;
	double w0 = -1;

	for (unsigned f = 0; f < ncsv; f++) {
		int cols[3] = {plot_csv_col(&csv[f], "gen_cycle", false),
			       plot_csv_col(&csv[f], "packets", false),
			       plot_csv_col(&csv[f], "misrouted_pct", false)};
		double w;

		if (cols[0] < 0 || cols[1] < 0 || cols[2] < 0 ||
		    plot_csv_check_nums(&csv[f], cols, 3) != 0)
			return -EINVAL;
		if (csv[f].nrow == 0) {
			fprintf(stderr, "dfly plot: %s: no bins\n", csv[f].path);
			return -EINVAL;
		}
		if (f == 0)
			gp_head(g, "bins", o, 1000, 500);
		w = bins_width(&csv[f], (unsigned)cols[0]);
		w0 = f == 0 || w == w0 ? w : 0;
		if (gp_bins_block(g, f, &csv[f], cols, w, o->min_pkts) == 0)
			fprintf(stderr,
				"dfly plot: warning: %s: no bin has %u packets or more "
				"(--min-packets): its %% misrouted is not drawn\n",
				csv[f].path, o->min_pkts);
	}
	fputs("set key noenhanced outside top center horizontal\n"
	      "set grid\n"
	      "set autoscale xfix\n"
	      "set xlabel 'generation cycle (start of the bin)'\n"
	      "set ylabel '% misrouted (nonminimal)'\n"
	      "set yrange [-2:102]\n"
	      "set ytics nomirror\n"
	      "set y2label 'packets per bin'\n"
	      "set y2range [0:*]\n"
	      "set y2tics\n"
	      "set title ",
	      g);
	if (o->title != NULL)
		gp_str(g, o->title);
	else if (w0 > 0)
		fprintf(g,
			"'%% of packets misrouted (nonminimal) per bin of %.17g generation cycles'",
			w0);
	else
		fputs("'% of packets misrouted (nonminimal) per bin of generation cycles'", g);
	fprintf(g, " . \"\\n\" . 'gaps: bins of fewer than %u packets' noenhanced\n", o->min_pkts);
	fputs("plot ", g);
	for (unsigned f = 0; f < ncsv; f++) {
		fprintf(g, "%s$bins_%u using 1:2 with linespoints lw 1.5 pt 7 ps 0.5 lt %u title ",
			f ? ", \\\n\t" : "", f, f + 1);
		if (named) {
			gp_bins_label(g, o, f);
			fputs(" . ': % misrouted'", g);
		} else {
			fputs("'% misrouted (nonminimal)'", g);
		}
		fprintf(g,
			", \\\n\t$bins_%u using 1:3 axes x1y2 with steps dashtype 3 lt %u title ",
			f, f + 1);
		if (named) {
			gp_bins_label(g, o, f);
			fputs(" . ': packets'", g);
		} else {
			fputs("'packets per bin (right axis)'", g);
		}
	}
	fputs("\n", g);
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * routers: dfly trace --csv PREFIX, PREFIX-nodes.csv
 */

static int plot_routers(FILE *g, const struct plot_csv *csv, unsigned ncsv,
			const struct plot_opts *o)
{
	const struct plot_csv *t = &csv[0];
	int cr = plot_csv_col(t, "router", false), ci = plot_csv_col(t, "injected", false);
	int ca = plot_csv_col(t, "accepted", false);
	double *inj = NULL, *acc = NULL, mean = 0;
	unsigned nr = 0;
	int rc = -EINVAL;

	(void)ncsv;
	if (cr < 0 || ci < 0 || ca < 0)
		return -EINVAL;
	for (unsigned r = 0; r < t->nrow; r++) {
		double id;

		if (plot_csv_num(t, r, (unsigned)cr, &id) != 0)
			return -EINVAL;
		if (!(id >= 0 && id < PLOT_MAX_ROUTERS) || id != floor(id)) {
			fprintf(stderr, "dfly plot: %s:%u: router '%s' is not an id 0..%u\n",
				t->path, t->line[r + 1], plot_csv_get(t, r, (unsigned)cr),
				PLOT_MAX_ROUTERS - 1);
			return -EINVAL;
		}
		if ((unsigned)id + 1 > nr)
			nr = (unsigned)id + 1;
	}
	if (nr == 0) {
		fprintf(stderr, "dfly plot: %s: no nodes\n", t->path);
		return -EINVAL;
	}
	inj = calloc(nr, sizeof(*inj));
	acc = calloc(nr, sizeof(*acc));
	if (inj == NULL || acc == NULL) {
		fprintf(stderr, "dfly plot: out of memory\n");
		goto out;
	}
	for (unsigned r = 0; r < t->nrow; r++) {
		double id, i, a;

		if (plot_csv_num(t, r, (unsigned)cr, &id) != 0 ||
		    plot_csv_num(t, r, (unsigned)ci, &i) != 0 ||
		    plot_csv_num(t, r, (unsigned)ca, &a) != 0)
			goto out;
		inj[(unsigned)id] += i;
		acc[(unsigned)id] += a;
	}
	gp_head(g, "routers", o, 1000, 500);
	fprintf(g, "$routers << EOD\n# %s: router injected accepted (sums over its nodes)\n",
		t->path);
	for (unsigned r = 0; r < nr; r++) {
		fprintf(g, "%u %.6f %.6f\n", r, inj[r], acc[r]);
		mean += inj[r] / nr;
	}
	fprintf(g,
		"EOD\n"
		"set key noenhanced outside top center horizontal\n"
		"set grid ytics\n"
		"set style fill solid 0.7 border -1\n"
		"set boxwidth 0.4\n"
		"set xrange [-0.7:%u.7]\n"
		"set yrange [0:*]\n"
		"%s"
		"set xlabel 'router'\n"
		"set ylabel 'load (phits per cycle, sum over the router''s nodes)'\n"
		"set title ",
		nr - 1, nr <= 48 ? "set xtics 1\n" : "");
	gp_str(g, o->title != NULL ? o->title : "");
	fprintf(g,
		" noenhanced\n"
		"plot $routers using ($1 - 0.2):2 with boxes lt 1 title 'injected', \\\n"
		"\t$routers using ($1 + 0.2):3 with boxes lt 2 title 'accepted', \\\n"
		"\t%.6f with lines dashtype 2 lc 'black' title 'mean injected'\n",
		mean);
	rc = 0;
out:
	free(inj);
	free(acc);
	return rc;
}

/* ---------------------------------------------------------------------------------------------
 * The command
 */

enum {
	PLOT_O_METRIC = 1 << 0,      /**< --metric */
	PLOT_O_YMAX = 1 << 1,        /**< --ymax */
	PLOT_O_LABELS = 1 << 2,      /**< --labels */
	PLOT_O_MA = 1 << 3,          /**< --ma */
	PLOT_O_MIN_PACKETS = 1 << 4, /**< --min-packets */
};

/** A kind of plot: what it reads and how it draws it. */
struct plot_kind {
	const char *name;     /**< the KIND argument */
	const char *synopsis; /**< the usage line after "dfly plot " */
	const char *help;     /**< what it draws and its own options */
	/** Write the script of @p ncsv files to @p g; prints the error. @return 0 or -errno. */
	int (*draw)(FILE *g, const struct plot_csv *csv, unsigned ncsv, const struct plot_opts *o);
	unsigned max_files; /**< CSV operands accepted (at least one) */
	unsigned opts;      /**< PLOT_O_* the kind takes */
};

static const struct plot_kind plot_kinds[] = {
    {"load", "load CSV... --out FILE.png [--metric COL] [--ymax Y]",
     "Read the CSVs of dfly sim --csv (one row per run) and average the runs of each\n"
     "(mechanism, pattern, offered load), the seeds. Two panels per pattern, side by\n"
     "side: latency against offered load, and accepted against offered load (the\n"
     "dashed diagonal is accepted = offered); one line per mechanism, in the same\n"
     "colour in every panel; one row of panels per pattern, in the order the files\n"
     "first give them. Columns: mechanism, pattern, offered, accepted and the latency\n"
     "column.\n"
     "\n"
     "  --metric COL     the latency column (default lat_avg): lat_p50, lat_p99,\n"
     "                   lat_max, net_lat_avg, or any numeric column (hops_avg...)\n"
     "  --ymax Y         top of the latency axis (default: the highest point), to keep\n"
     "                   a saturated mechanism from flattening the others\n",
     plot_load, PLOT_MAX_FILES, PLOT_O_METRIC | PLOT_O_YMAX},
    {"transient",
     "transient CSV... --out FILE.png [--labels L,...] [--ma]\n"
     "                 [--metric COL] [--ymax Y]",
     "Read the CSVs of dfly transient --csv (also those of dfly repro transient). Two\n"
     "panels sharing the cycle axis (cycles relative to the pattern switch at t0,\n"
     "marked by a dashed line): average latency on top, % globally misrouted below;\n"
     "one line per file, labelled with the file's name without .csv or with --labels.\n"
     "The look of scripts/plot-transient.sh. Columns: cycle, lat_avg, misrouted_pct.\n"
     "\n"
     "  --labels L,...   one label per file, in order\n"
     "  --ma             the moving average of % misrouted (the misrouted_ma* column)\n"
     "  --metric COL     the latency column (default lat_avg; lat_max)\n"
     "  --ymax Y         top of the latency axis\n",
     plot_transient, PLOT_MAX_FILES, PLOT_O_METRIC | PLOT_O_YMAX | PLOT_O_LABELS | PLOT_O_MA},
    {"routers", "routers PREFIX-nodes.csv --out FILE.png",
     "Read the per-node loads of dfly trace --csv PREFIX (PREFIX-nodes.csv: node,\n"
     "router, injected, accepted, in phits per node per cycle), sum the nodes of each\n"
     "router and draw two bars per router, injected and accepted load, with the mean\n"
     "injected load as a dashed line: the unfairness of spec 8.5 at a glance.\n",
     plot_routers, 1, 0},
    {"bins",
     "bins PREFIX-bins.csv... --out FILE.png [--labels L,...]\n"
     "                 [--min-packets N]",
     "Read the % misrouted over time of dfly trace --csv PREFIX (PREFIX-bins.csv:\n"
     "gen_cycle, packets, misrouted_pct; bins of generation cycles, --bin of dfly\n"
     "trace) and draw it: per file, the % misrouted (left axis) and the packets per\n"
     "bin (dotted steps, right axis). A bin of fewer than N packets (default 10:\n"
     "below that one packet moves a bin by more than 10 points, and a bin of one\n"
     "packet reads 0 % or 100 %) and a bin without packets (dfly trace leaves it\n"
     "out) are a gap in the % line, not a point. The title says the bin width and\n"
     "the gap rule; --title replaces its first line. The legend names the series;\n"
     "with several files or --labels they are prefixed by the label: --labels or\n"
     "the PREFIX (the file's name without -bins.csv).\n"
     "\n"
     "  --labels L,...   one label per file, in order\n"
     "  --min-packets N  the fewest packets a bin needs to be drawn (default 10)\n",
     plot_bins, PLOT_MAX_FILES, PLOT_O_LABELS | PLOT_O_MIN_PACKETS},
};

#define PLOT_NKINDS (sizeof(plot_kinds) / sizeof(plot_kinds[0]))

static const char plot_common_help[] =
    "  --out FILE.png   the image to write (required)\n"
    "  --title T        a title above the panels\n"
    "  --size WxH       image size in pixels (default: per kind)\n"
    "  --script FILE    write the gnuplot script (data inline) to FILE, - for stdout,\n"
    "                   and do not run gnuplot: gnuplot FILE draws FILE.png\n"
    "  --help           this text\n";

static const char plot_tail_help[] =
    "\n"
    "CSV files are read by their header names: columns may come in any order and\n"
    "unknown ones are ignored; lines starting with # and empty lines are skipped.\n"
    "gnuplot is run from PATH (scripts/deps.sh installs gnuplot-nox); the image uses\n"
    "its pngcairo terminal when it has one, else png.\n"
    "\n"
    "Exit status: 0 on success; 1 if a file could not be read, lacks a column or\n"
    "holds a malformed row, or gnuplot is missing or failed; 2 on a usage error.\n";

static void usage_plot(FILE *f)
{
	fputs("usage: dfly plot KIND CSV... --out FILE.png [--title T] [--size WxH]\n"
	      "                 [--script FILE] [KIND's options]\n"
	      "\n"
	      "Draw the CSVs of dfly sim, dfly transient, dfly trace (and so of dfly repro) as\n"
	      "a PNG with gnuplot. KIND:\n"
	      "  load       dfly sim --csv: latency and accepted load against offered load,\n"
	      "             seeds averaged, one line per mechanism, a row of panels per pattern\n"
	      "  transient  dfly transient --csv: latency and % misrouted against the cycle\n"
	      "             relative to the pattern switch, one line per file\n"
	      "  routers    dfly trace --csv PREFIX, PREFIX-nodes.csv: injected and accepted\n"
	      "             load per router\n"
	      "  bins       dfly trace --csv PREFIX, PREFIX-bins.csv: % misrouted over time\n"
	      "Each kind's options: dfly plot KIND --help.\n"
	      "\n"
	      "options:\n",
	      f);
	fputs(plot_common_help, f);
	fputs(plot_tail_help, f);
}

static void usage_plot_kind(FILE *f, const struct plot_kind *k)
{
	fprintf(f,
		"usage: dfly plot %s\n"
		"                 [--title T] [--size WxH] [--script FILE]\n"
		"\n",
		k->synopsis);
	fputs(k->help, f);
	fputs("\n", f);
	fputs(plot_common_help, f);
	fputs(plot_tail_help, f);
}

/* Run gnuplot (from PATH) with @p text on its stdin. Prints the error. @return 0 or 1. */
static int plot_gnuplot(const char *text, size_t len)
{
	char *const argv[] = {"gnuplot", NULL};
	void (*old)(int);
	size_t off = 0;
	int fd[2], st, null;
	pid_t pid;

	if (pipe(fd) < 0) {
		fprintf(stderr, "dfly plot: pipe: %s\n", strerror(errno));
		return 1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "dfly plot: fork: %s\n", strerror(errno));
		close(fd[0]);
		close(fd[1]);
		return 1;
	}
	if (pid == 0) {
		if (dup2(fd[0], STDIN_FILENO) < 0)
			_exit(126);
		close(fd[0]);
		close(fd[1]);
		/* nothing of gnuplot's on our stdout: an image with no output set goes there */
		null = open("/dev/null", O_WRONLY);
		if (null >= 0 && null != STDOUT_FILENO) {
			dup2(null, STDOUT_FILENO);
			close(null);
		}
		execvp(argv[0], argv);
		if (errno != ENOENT)
			fprintf(stderr, "dfly plot: gnuplot: %s\n", strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	close(fd[0]);
	/* gnuplot may stop reading (exec failed, an error in the script): its status says why */
	old = signal(SIGPIPE, SIG_IGN);
	while (off < len) {
		ssize_t n = write(fd[1], text + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		off += (size_t)n;
	}
	close(fd[1]);
	signal(SIGPIPE, old);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			fprintf(stderr, "dfly plot: waitpid: %s\n", strerror(errno));
			return 1;
		}
	st = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	if (st == 127) {
		fprintf(stderr, "dfly plot: gnuplot not found in PATH (install gnuplot-nox, e.g. "
				"with scripts/deps.sh; --script FILE writes the script only)\n");
		return 1;
	}
	if (st != 0) {
		fprintf(stderr, "dfly plot: gnuplot failed (exit status %d)\n", st);
		return 1;
	}
	return 0;
}

/* The file name of @p path without its directory and a .csv suffix, allocated. */
static char *plot_stem(const char *path)
{
	const char *b = strrchr(path, '/');
	size_t n;

	b = b != NULL ? b + 1 : path;
	n = strlen(b);
	if (n > 4 && strcmp(b + n - 4, ".csv") == 0)
		n -= 4;
	return strndup(b, n);
}

int cmd_plot(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"out", required_argument, NULL, 'o'},
	    {"title", required_argument, NULL, 't'},
	    {"size", required_argument, NULL, 'S'},
	    {"script", required_argument, NULL, 's'},
	    {"metric", required_argument, NULL, 'm'},
	    {"ymax", required_argument, NULL, 'y'},
	    {"labels", required_argument, NULL, 'l'},
	    {"ma", no_argument, NULL, 'a'},
	    {"min-packets", required_argument, NULL, 'p'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	static const struct {
		int opt;
		unsigned mask;
		const char *name;
	} kind_opts[] = {
	    {'m', PLOT_O_METRIC, "--metric"},           {'y', PLOT_O_YMAX, "--ymax"},
	    {'l', PLOT_O_LABELS, "--labels"},           {'a', PLOT_O_MA, "--ma"},
	    {'p', PLOT_O_MIN_PACKETS, "--min-packets"},
	};
	struct plot_opts o = {.ymax = NAN, .min_pkts = PLOT_BINS_MIN_PACKETS};
	struct plot_csv csv[PLOT_MAX_FILES];
	const struct plot_kind *k = NULL;
	const char *script = NULL, *labels = NULL;
	char *text = NULL, *labelv[PLOT_MAX_FILES] = {NULL}, cmd[64];
	unsigned ncsv = 0, nfiles;
	size_t len = 0;
	FILE *g;
	int opt, status = 0;

	if (argc < 2) {
		usage_plot(stderr);
		return 2;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage_plot(stdout);
		return 0;
	}
	for (unsigned i = 0; i < PLOT_NKINDS; i++)
		if (strcmp(argv[1], plot_kinds[i].name) == 0)
			k = &plot_kinds[i];
	if (k == NULL)
		return dfly_cli_usage_error(
		    "dfly plot", "unknown kind '%s' (load, transient, routers, bins)", argv[1]);
	snprintf(cmd, sizeof(cmd), "dfly plot %s", k->name);
	argc--;
	argv++;
	optind = 1;
	while ((opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		for (unsigned i = 0; i < sizeof(kind_opts) / sizeof(kind_opts[0]); i++)
			if (opt == kind_opts[i].opt && !(k->opts & kind_opts[i].mask)) {
				fprintf(stderr,
					"dfly plot %s: %s does not apply (dfly plot %s --help)\n",
					k->name, kind_opts[i].name, k->name);
				return 2;
			}
		switch (opt) {
		case 'o':
			o.out = optarg;
			break;
		case 't':
			o.title = optarg;
			break;
		case 'S': {
			char *end;
			unsigned long w = strtoul(optarg, &end, 10), h = 0;

			if (*end == 'x')
				h = strtoul(end + 1, &end, 10);
			if (*end != '\0' || w < 100 || h < 100 || w > PLOT_MAX_DIM ||
			    h > PLOT_MAX_DIM || optarg[0] == '-' || strchr(optarg, '+') != NULL) {
				fprintf(stderr,
					"dfly plot: --size %s: expected WxH, 100..%u pixels\n",
					optarg, PLOT_MAX_DIM);
				return 2;
			}
			o.w = (unsigned)w;
			o.h = (unsigned)h;
			break;
		}
		case 's':
			script = optarg;
			break;
		case 'm':
			o.metric = optarg;
			break;
		case 'y': {
			char *end;

			o.ymax = strtod(optarg, &end);
			if (end == optarg || *end != '\0' || !(o.ymax > 0) || isinf(o.ymax)) {
				fprintf(stderr, "dfly plot: --ymax %s: expected a number > 0\n",
					optarg);
				return 2;
			}
			break;
		}
		case 'l':
			labels = optarg;
			break;
		case 'a':
			o.ma = true;
			break;
		case 'p': {
			char *end;
			unsigned long v = strtoul(optarg, &end, 10);

			if (end == optarg || *end != '\0' || optarg[0] == '-' || v > 1000000000) {
				fprintf(stderr,
					"dfly plot: --min-packets %s: expected 0..1000000000\n",
					optarg);
				return 2;
			}
			o.min_pkts = (unsigned)v;
			break;
		}
		case 'h':
			usage_plot_kind(stdout, k);
			return 0;
		default:
			return dfly_cli_opt_error(cmd, opts, opt, argv);
		}
	}
	nfiles = (unsigned)(argc - optind);
	if (nfiles == 0 || o.out == NULL)
		return dfly_cli_usage_error(
		    cmd, "%s", nfiles == 0 ? "no CSV file" : "--out FILE.png is required");
	if (nfiles > k->max_files) {
		fprintf(stderr, "dfly plot %s: %u files, at most %u\n", k->name, nfiles,
			k->max_files);
		return 2;
	}
	o.labels = labelv;
	o.labels_given = labels != NULL;
	if (labels != NULL) {
		/* empty labels are allowed (a,,c): strsep, not strtok */
		char *s = strdup(labels), *p = s;
		unsigned n = 0;

		if (s == NULL) {
			fprintf(stderr, "dfly plot: out of memory\n");
			return 1;
		}
		while (p != NULL && n < nfiles)
			labelv[n++] = strdup(strsep(&p, ","));
		free(s);
		if (n != nfiles || p != NULL) {
			fprintf(stderr,
				"dfly plot: --labels %s: expected %u labels, one per file\n",
				labels, nfiles);
			status = 2;
			goto out;
		}
	} else {
		for (unsigned i = 0; i < nfiles; i++)
			labelv[i] = plot_stem(argv[optind + (int)i]);
	}
	for (unsigned i = 0; i < nfiles; i++)
		if (labelv[i] == NULL) {
			fprintf(stderr, "dfly plot: out of memory\n");
			status = 1;
			goto out;
		}
	for (; ncsv < nfiles; ncsv++)
		if (plot_csv_read(&csv[ncsv], argv[optind + (int)ncsv]) != 0) {
			status = 1;
			goto out;
		}

	g = open_memstream(&text, &len);
	if (g == NULL) {
		fprintf(stderr, "dfly plot: open_memstream: %s\n", strerror(errno));
		status = 1;
		goto out;
	}
	if (k->draw(g, csv, ncsv, &o) != 0)
		status = 1;
	if (fclose(g) != 0 && status == 0) {
		fprintf(stderr, "dfly plot: out of memory\n");
		status = 1;
	}
	if (status != 0)
		goto out;
	if (script != NULL) {
		FILE *f = strcmp(script, "-") == 0 ? stdout : fopen(script, "w");

		if (f == NULL || fwrite(text, 1, len, f) != len ||
		    (f != stdout && fclose(f) != 0) || (f == stdout && fflush(f) != 0)) {
			fprintf(stderr, "dfly plot: %s: %s\n", script, strerror(errno));
			status = 1;
		} else if (f != stdout) {
			printf("%s\n", script);
		}
		goto out;
	}
	/* open the image here, so that an unwritable path is named and gnuplot never falls back
	 * to its stdout; remove it again if gnuplot fails and it did not exist before */
	{
		struct stat sb;
		bool existed = stat(o.out, &sb) == 0;
		int fd = open(o.out, O_WRONLY | O_CREAT, 0666);

		if (fd < 0) {
			fprintf(stderr, "dfly plot: %s: %s\n", o.out, strerror(errno));
			status = 1;
			goto out;
		}
		close(fd);
		status = plot_gnuplot(text, len);
		if (status == 0 && (stat(o.out, &sb) != 0 || sb.st_size == 0)) {
			fprintf(stderr, "dfly plot: %s: gnuplot wrote no image\n", o.out);
			status = 1;
		}
		if (status != 0 && !existed)
			unlink(o.out);
		if (status == 0)
			printf("%s\n", o.out);
	}
out:
	for (unsigned i = 0; i < ncsv; i++)
		plot_csv_free(&csv[i]);
	for (unsigned i = 0; i < PLOT_MAX_FILES; i++)
		free(labelv[i]);
	free(text);
	return status;
}
