/* chart: the sift tables sift-plot draws, one table of kinds, each recognising its table by
 * the header and drawing it as an inert gnuplot script. */
#include "chart.h"
#include "diff.h"
#include "gil.h"
#include "threadtab.h"
#include "toptab.h"
#include "tputout.h"

#include "frame.h"
#include "intern.h"
#include "xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Non-zero when the whole cell is a finite number, in *out. */
static int number(const char *s, double *out)
{
	char *end;
	if (!s || !*s)
		return 0;
	*out = strtod(s, &end);
	return *end == '\0' && isfinite(*out);
}

static void spec_init(struct chart_spec *s, const char *what)
{
	snprintf(s->what, sizeof s->what, "%s", what);
	s->label[0] = s->label[1] = s->alt[0] = s->alt[1] = s->value[0] = s->value[1] = -1;
}

/* Non-zero when t's n columns from `at` are named as the producer's schema says: names[i],
 * or alt[i] where alt and alt[i] are given. */
static int has_columns(const struct tsv *t, size_t at, const char *const *names, const char *const *alt,
		       size_t n)
{
	if (at + n > t->ncols)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (strcmp(t->head[at + i], names[i]) != 0 &&
		    !(alt && alt[i] && strcmp(t->head[at + i], alt[i]) == 0))
			return 0;
	return 1;
}

/* A ranked table of one or two key columns then the n columns of a schema: rows labelled
 * by the keys ("A / B"), the figure in column `value` of the schema (-1: none). Returns
 * the number of key columns, 0 when no match. */
static size_t match_keyed(const struct tsv *t, struct chart_spec *s, const char *const *names,
			  const char *const *alt, size_t ncols, int value)
{
	for (size_t k = 1; k <= 2; k++) {
		if (t->ncols != k + ncols || !has_columns(t, k, names, alt, ncols))
			continue;
		char what[128];
		snprintf(what, sizeof what, k == 2 ? "%s / %s" : "%s", t->head[0], t->head[1]);
		spec_init(s, what);
		s->label[0] = 0;
		s->label[1] = k == 2 ? 1 : -1;
		s->value[0] = value >= 0 ? (int)k + value : -1;
		return k;
	}
	return 0;
}

/* sift-top: KEY [KEY2] then toptab's columns (older tables lack the last, cum_pct). */
static int match_top(const struct tsv *t, struct chart_spec *s)
{
	return match_keyed(t, s, toptab_columns, NULL, TOPTAB_NCOLS, TOPTAB_SELF_PCT) > 0 ||
	       match_keyed(t, s, toptab_columns, NULL, TOPTAB_CUM_PCT, TOPTAB_SELF_PCT) > 0;
}

/* sift-diff: KEY [KEY2] then diff's columns up to the flag (the counts' and shares' names
 * with --total or --per-work too), then (since significance) the interval, p, q and sig,
 * then (since t tests, in all but text) the test, then with 2+ inputs per side the spread.
 * Fills names and alt with the columns asked for; returns how many. */
static size_t diff_schema(int tests, int test, int spread, const char **names, const char **alt)
{
	size_t n = 0;
	for (size_t c = 0; c < DIFF_NCOLS; c++) {
		if ((c >= DIFF_COL_CI_LOW && c < DIFF_COL_TEST && !tests) || (c == DIFF_COL_TEST && !test) ||
		    (c >= DIFF_COL_BEFORE_MIN && !spread))
			continue;
		names[n] = diff_columns[c];
		alt[n++] = diff_columns_alt[c];
	}
	return n;
}

/* A table with intervals: the delta drawn with its interval, significant rows marked. */
static int match_diff_ci(const struct tsv *t, struct chart_spec *s)
{
	static const int forms[4][2] = { { 1, 1 }, { 1, 0 }, { 0, 1 }, { 0, 0 } }; /* test, spread */
	const char *names[DIFF_NCOLS], *alt[DIFF_NCOLS];
	size_t k = 0;
	for (size_t f = 0; f < 4 && !k; f++) {
		size_t n = diff_schema(1, forms[f][0], forms[f][1], names, alt);
		k = match_keyed(t, s, names, alt, n, -1);
	}
	s->value[0] = (int)k + DIFF_COL_DELTA;
	s->value[1] = -1;
	return k > 0;
}

/* An older table without intervals: before and after side by side. */
static int match_diff(const struct tsv *t, struct chart_spec *s)
{
	size_t k = match_keyed(t, s, diff_columns, diff_columns_alt, DIFF_COL_CI_LOW, -1);
	s->value[0] = (int)k + DIFF_COL_BEFORE_SHARE;
	s->value[1] = (int)k + DIFF_COL_AFTER_SHARE;
	return k > 0;
}

/* Does the header hold names[0, n) from column at on? */
static int has_schema(const struct tsv *t, size_t at, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (at + i >= t->ncols || strcmp(t->head[at + i], names[i]) != 0)
			return 0;
	return 1;
}

/* sift-tput's series (tputout.h); loss is optional (older or hand-made series stop at unit). */
static int match_series(const struct tsv *t, struct chart_spec *s)
{
	if (!has_schema(t, 0, tputout_series_columns, TPUTOUT_LOSS))
		return 0;
	spec_init(s, "throughput");
	s->value[0] = TPUTOUT_VALUE;
	return 1;
}

/* Non-zero when every row holds the same text in column c. */
static int same_in_all(const struct tsv *t, int c)
{
	for (size_t r = 1; r < t->nrows; r++)
		if (strcmp(t->rows[r][c], t->rows[0][c]) != 0)
			return 0;
	return 1;
}

/* sift-tput --stats: one box per source (and unit, when the table holds several). */
static int match_stats(const struct tsv *t, struct chart_spec *s)
{
	if (t->ncols != TPUTOUT_STATS_NCOLS || !has_schema(t, 0, tputout_stats_columns, TPUTOUT_STATS_NCOLS))
		return 0;
	spec_init(s, "throughput");
	s->label[0] = 0;
	s->label[1] = same_in_all(t, 1) ? -1 : 1;
	return 1;
}

/* sift-tput --compare: the speedup and its interval, one point per unit (before_batches
 * after_batches since batch-median t tests). */
static int match_compare(const struct tsv *t, struct chart_spec *s)
{
	const char *const *names = tputout_compare_columns;
	size_t head = TPUTOUT_CMP_BEFORE_BATCHES, tail = TPUTOUT_CMP_NCOLS - TPUTOUT_CMP_SPEEDUP;
	if (!(t->ncols == TPUTOUT_CMP_NCOLS && has_schema(t, 0, names, TPUTOUT_CMP_NCOLS)) &&
	    !(t->ncols == head + tail && has_schema(t, 0, names, head) && has_schema(t, head, names + TPUTOUT_CMP_SPEEDUP, tail)))
		return 0;
	spec_init(s, "speedup, after versus before (95% interval)");
	s->label[0] = 0;
	s->value[0] = tsv_col(t, names[TPUTOUT_CMP_SPEEDUP]);
	return 1;
}

/* Non-zero when some row has a number in column c. */
static int any_number(const struct tsv *t, int c)
{
	double v;
	for (size_t r = 0; r < t->nrows; r++)
		if (number(t->rows[r][c], &v))
			return 1;
	return 0;
}

/* sift-threads: CPU per thread, labelled by the thread's name, else its tid (and OS name);
 * without --cpu the CPU columns are empty and the bars show active snapshots. */
static int match_threads(const struct tsv *t, struct chart_spec *s)
{
	if (t->ncols != THREADTAB_NCOLS || !has_columns(t, 0, threadtab_columns, NULL, THREADTAB_NCOLS))
		return 0;
	spec_init(s, "thread");
	s->label[0] = THREADTAB_THREAD;
	s->alt[0] = THREADTAB_TID;
	s->alt[1] = THREADTAB_OS_THREAD;
	s->value[0] = any_number(t, THREADTAB_CPU_MEAN) ? THREADTAB_CPU_MEAN : THREADTAB_ACTIVE;
	return 1;
}

/* sift-gil's keys table (profiles): KEY [KEY2] then gil's key columns. */
static int match_gil(const struct tsv *t, struct chart_spec *s)
{
	return match_keyed(t, s, gil_key_columns, NULL, GIL_KEY_NCOLS, GIL_COL_SHARE_PCT) > 0;
}

/* sift-gil --dumps keys table: KEY [KEY2] then its dump columns. */
static int match_gil_dumps(const struct tsv *t, struct chart_spec *s)
{
	return match_keyed(t, s, gil_dumps_columns, NULL, GIL_DUMPS_NCOLS, GIL_DUMPS_GIL_PCT) > 0;
}

/* sift-top --by window[,KEY] or KEY,window: a time series of keys; label[0] is the window
 * column, label[1] the key's (-1 for window alone). */
static int match_window(const struct tsv *t, struct chart_spec *s)
{
	const char *window = frame_key_names[KEY_WINDOW];
	size_t k = match_keyed(t, s, toptab_columns, NULL, TOPTAB_NCOLS, TOPTAB_SELF_PCT);
	int w = k >= 1 && strcmp(t->head[0], window) == 0 ? 0 :
		k == 2 && strcmp(t->head[1], window) == 0 ? 1 : -1;
	if (w < 0)
		return 0;
	snprintf(s->what, sizeof s->what, "%s", k == 2 ? t->head[1 - w] : "window");
	s->label[0] = w;
	s->label[1] = k == 2 ? 1 - w : -1;
	return 1;
}

typedef int chart_match_fn(const struct tsv *t, struct chart_spec *s);
typedef void chart_draw_fn(FILE *out, const struct tsv *t, const struct chart_spec *s,
			   const struct chart_opts *o);
static chart_draw_fn draw_bars, draw_pairs, draw_delta, draw_series, draw_boxes, draw_speedup,
	draw_areas;

struct chart_kind {
	const char *name;
	chart_match_fn *match;     /* non-zero (and s filled in) when the header is this table */
	chart_draw_fn *draw;       /* the datablock and plot, after the preamble */
	enum { TITLE_WHAT, TITLE_FIGURE_BY, TITLE_BEFORE_AFTER, TITLE_DELTA, TITLE_OVER_TIME } title;
	int any_column;            /* --column may draw another column (one figure per row) */
};

/* Headers are matched whole, so a tool's changed header fails loudly here instead of
 * drawing the wrong column. Adding a table is one row here; the first match wins. */
static const struct chart_kind kinds[] = {
	{ "diff", match_diff_ci, draw_delta, TITLE_DELTA, 0 },
	{ "diff", match_diff, draw_pairs, TITLE_BEFORE_AFTER, 0 },
	{ "window", match_window, draw_areas, TITLE_OVER_TIME, 1 },
	{ "top", match_top, draw_bars, TITLE_FIGURE_BY, 1 },
	{ "series", match_series, draw_series, TITLE_WHAT, 1 },
	{ "stats", match_stats, draw_boxes, TITLE_WHAT, 0 },
	{ "compare", match_compare, draw_speedup, TITLE_WHAT, 0 },
	{ "threads", match_threads, draw_bars, TITLE_FIGURE_BY, 1 },
	{ "gil", match_gil, draw_bars, TITLE_FIGURE_BY, 1 },
	{ "gil dumps", match_gil_dumps, draw_bars, TITLE_FIGURE_BY, 1 },
};

/* A row's label: its label columns joined by " / ", shortened for the axis. */
static size_t row_label(const struct tsv *t, const struct chart_spec *s, size_t r, size_t width,
			char *buf, size_t cap)
{
	char *joined = NULL;
	size_t len = 0, jcap = 0;
	const int *cols = s->alt[0] >= 0 && !t->rows[r][s->label[0]][0] ? s->alt : s->label;
	for (int i = 0; i < 2; i++) {
		if (cols[i] < 0 || !t->rows[r][cols[i]][0])
			continue;
		const char *cell = t->rows[r][cols[i]];
		size_t n = strlen(cell);
		joined = xgrow(joined, &jcap, len + n + 4, 1);
		if (len)
			memcpy(joined + len, " / ", 3), len += 3;
		memcpy(joined + len, cell, n);
		len += n;
	}
	size_t n = frame_shorten(joined ? joined : "", len, width, buf, cap);
	free(joined);
	return n;
}

static void axis_label(FILE *out, const char *axis, const char *text)
{
	fprintf(out, "set %slabel ", axis);
	gnuplot_quote(out, text, strlen(text), 0);
	putc('\n', out);
}

/* Category tics: ("label" pos, ...); labels are formats to gnuplot, hence GNUPLOT_FORMAT. */
static void tics(FILE *out, const char *axis, char **labels, const double *pos, size_t n)
{
	fprintf(out, "set %stics (", axis);
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputs(", ", out);
		gnuplot_quote(out, labels[i], strlen(labels[i]), GNUPLOT_FORMAT);
		putc(' ', out);
		gnuplot_number(out, pos[i]);
	}
	fputs(")\n", out);
}

/* The rows drawn as bars: those with a figure in every value column, at most limit. */
static size_t pick_rows(const struct tsv *t, const struct chart_spec *s, const struct chart_opts *o,
			size_t *picked, double (*vals)[2])
{
	size_t n = 0;
	for (size_t r = 0; r < t->nrows && (o->limit == 0 || n < o->limit); r++) {
		double v[2] = { 0, 0 };
		int ok = 1;
		for (int i = 0; i < 2; i++)
			if (s->value[i] >= 0)
				ok &= number(t->rows[r][s->value[i]], &v[i]);
		if (!ok)
			continue;
		picked[n] = r;
		vals[n][0] = v[0];
		vals[n][1] = v[1];
		n++;
	}
	return n;
}

/* Horizontal bars, first row on top; shared by single and paired bars. */
static void draw_hbars(FILE *out, const struct tsv *t, const struct chart_spec *s,
			const struct chart_opts *o, int pairs)
{
	size_t *picked = xmalloc((t->nrows + 1) * sizeof *picked);
	double (*vals)[2] = xmalloc((t->nrows + 1) * sizeof *vals);
	size_t n = pick_rows(t, s, o, picked, vals);
	char **labels = xmalloc((n + 1) * sizeof *labels);
	double *pos = xmalloc((n + 1) * sizeof *pos);
	size_t cap = o->label_width * 4 + 8;
	for (size_t i = 0; i < n; i++) {
		labels[i] = xmalloc(cap);
		row_label(t, s, picked[i], o->label_width, labels[i], cap);
		pos[i] = (double)(n - 1 - i);
	}
	gnuplot_block_begin(out, "D");
	for (size_t i = 0; i < n; i++) {
		gnuplot_number(out, pos[i]);
		for (int k = 0; k < 1 + pairs; k++) {
			putc(' ', out);
			gnuplot_number(out, vals[i][k]);
		}
		putc('\n', out);
	}
	gnuplot_block_end(out);
	if (n)
		tics(out, "y", labels, pos, n);
	fprintf(out, "set yrange [-0.6:%zu.4]\n", n ? n - 1 : 0);
	fputs("set ytics scale 0\nset grid xtics\nset style fill solid 0.85 border -1\n", out);
	/* Bars start at zero; a table of zeros (or negatives) still gets an axis. */
	fputs("set xrange [0:*]\nset offsets 0, graph 0.05, 0, 0\n", out);
	const char *figure = t->head[s->value[0]];
	if (pairs) /* before_pct / before_rate: say what both bars measure */
		figure = strstr(figure, "_rate") ? "samples per 1,000 units of work" : "% of samples";
	axis_label(out, "x", figure);
	if (pairs) {
		/* The extra height keeps the key clear of the axis label (pngcairo overlaps them). */
		fputs("set key below horizontal spacing 1.5 height 1\n", out);
		fputs("plot $D using ($2/2):($1+0.2):(0):2:($1+0.02):($1+0.38) with boxxyerror lc rgb \"#8c8c8c\" title \"before\", \\\n"
		      "     $D using ($3/2):($1-0.2):(0):3:($1-0.38):($1-0.02) with boxxyerror lc rgb \"#c0392b\" title \"after\"\n",
		      out);
	} else {
		fputs("unset key\n", out);
		fputs("plot $D using ($2/2):1:(0):2:($1-0.4):($1+0.4) with boxxyerror lc rgb \"#4878a8\"\n", out);
	}
	for (size_t i = 0; i < n; i++)
		free(labels[i]);
	free(labels);
	free(pos);
	free(vals);
	free(picked);
}

static void draw_bars(FILE *out, const struct tsv *t, const struct chart_spec *s,
			const struct chart_opts *o)
{
	draw_hbars(out, t, s, o, 0);
}

static void draw_pairs(FILE *out, const struct tsv *t, const struct chart_spec *s,
			const struct chart_opts *o)
{
	draw_hbars(out, t, s, o, 1);
}

/* The change per row as a bar from zero with its 95% interval as an error bar; significant
 * rows in colour and marked "*", the others grey. Rows with no change take no space. */
static void draw_delta(FILE *out, const struct tsv *t, const struct chart_spec *s,
		       const struct chart_opts *o)
{
	int col = s->value[0], sig = tsv_col(t, diff_columns[DIFF_COL_SIG]);
	size_t *picked = xmalloc((t->nrows + 1) * sizeof *picked), n = 0;
	for (size_t r = 0; r < t->nrows && (o->limit == 0 || n < o->limit); r++) {
		double v;
		if (number(t->rows[r][col], &v) && v != 0)
			picked[n++] = r;
	}
	char **labels = xmalloc((n + 1) * sizeof *labels);
	double *pos = xmalloc((n + 1) * sizeof *pos);
	size_t cap = o->label_width * 4 + 8;
	gnuplot_block_begin(out, "D");
	for (size_t i = 0; i < n; i++) {
		const char *const *row = (const char *const *)t->rows[picked[i]];
		int marked = row[sig][0] == '*';
		double v = 0, lo, hi;
		number(row[col], &v);
		if (!number(row[col + 3], &lo) || !number(row[col + 4], &hi))
			lo = hi = v; /* untested: no interval to draw */
		labels[i] = xmalloc(cap + 2);
		size_t len = marked ? 2 : 0;
		memcpy(labels[i], "* ", len);
		row_label(t, s, picked[i], o->label_width, labels[i] + len, cap);
		pos[i] = (double)(n - 1 - i);
		const double cells[] = { pos[i], v, lo, hi, marked };
		for (size_t c = 0; c < 5; c++) {
			if (c)
				putc(' ', out);
			gnuplot_number(out, cells[c]);
		}
		putc('\n', out);
	}
	gnuplot_block_end(out);
	if (n)
		tics(out, "y", labels, pos, n);
	fprintf(out, "set yrange [-0.6:%zu.4]\n", n ? n - 1 : 0);
	fputs("set ytics scale 0\nset grid xtics\nset style fill solid 0.85 border -1\n", out);
	fputs("set offsets graph 0.05, graph 0.05, 0, 0\n"
	      "set arrow from 0, graph 0 to 0, graph 1 nohead lc rgb \"#000000\"\n", out);
	axis_label(out, "x", strstr(t->head[col], "_rate") ? "change in samples per 1,000 units of work"
							   : "change in points of % of samples");
	fputs("set key below horizontal spacing 1.5 height 1\n", out);
	if (n)
		fputs("plot $D using ($2/2):($5 > 0 ? $1 : 1/0):(0):2:($1-0.35):($1+0.35) with boxxyerror lc rgb \"#c0392b\" title \"* significant (q < 0.05)\", \\\n"
		      "     $D using ($2/2):($5 > 0 ? 1/0 : $1):(0):2:($1-0.35):($1+0.35) with boxxyerror lc rgb \"#b0b0b0\" title \"within noise\", \\\n"
		      "     $D using 2:1:3:4 with xerrorbars lc rgb \"#000000\" pt 0 title \"95% interval\"\n",
		      out);
	else
		fputs("plot 1/0 notitle\n", out);
	for (size_t i = 0; i < n; i++)
		free(labels[i]);
	free(labels);
	free(pos);
	free(picked);
}

/* Seconds since 1970 of "YYYY-MM-DD[T ]HH:MM:SS[.,frac]", or a plain number. */
static int parse_time(const char *s, double *out)
{
	if (number(s, out))
		return 1;
	struct tm tm = { 0 };
	int consumed = 0;
	if (sscanf(s, "%4d-%2d-%2d%*1[T ]%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
		   &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &consumed) != 6)
		return 0;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	double frac = 0;
	if (s[consumed] == '.' || s[consumed] == ',') {
		const char *digits = s + consumed + 1;
		frac = atof(digits) / pow(10, (double)strspn(digits, "0123456789"));
	}
	*out = (double)timegm(&tm) + frac;
	return 1;
}

/* One line per group (source, then rank when a source has several), in order of appearance. */
static void draw_series(FILE *out, const struct tsv *t, const struct chart_spec *s,
			const struct chart_opts *o)
{
	int csrc = 0, crank = 2, cx = o->x_time ? 4 : 3, cunit = 6;
	size_t ngroups = 0, gcap = 0;
	struct group { size_t first; size_t *rows; size_t n, cap; uint32_t unit; } *groups = NULL;
	int by_rank = 0;
	double t0 = NAN;
	/* Ranks split lines only when some source has more than one: each row against its
	 * source's first row, found by key (comparing every pair was quadratic). */
	intern *keys = intern_new();
	size_t *first = NULL, ncap = 0;
	char *key = NULL;
	size_t kcap = 0;
	for (size_t r = 0; r < t->nrows && !by_rank; r++) {
		size_t seen = intern_count(keys);
		uint32_t id = intern_add(keys, t->rows[r][csrc], strlen(t->rows[r][csrc]));
		if (id == seen) {
			first = xgrow(first, &ncap, (size_t)id + 1, sizeof *first);
			first[id] = r;
		}
		by_rank = strcmp(t->rows[first[id]][crank], t->rows[r][crank]) != 0;
	}
	intern_free(keys);
	free(first);
	/* Group by "SOURCE\tRANK\tUNIT" (fields hold no tab): intern ids are group numbers. A
	 * unit is a panel of its own: tokens/s and MFU% on one axis would say nothing. */
	keys = intern_new();
	intern *units = intern_new();
	for (size_t r = 0; r < t->nrows; r++) {
		double x, y;
		if (!number(t->rows[r][s->value[0]], &y) ||
		    !(o->x_time ? parse_time(t->rows[r][cx], &x) : number(t->rows[r][cx], &x)))
			continue;
		size_t ls = strlen(t->rows[r][csrc]), lr = by_rank ? strlen(t->rows[r][crank]) : 0;
		size_t lu = strlen(t->rows[r][cunit]);
		key = xgrow(key, &kcap, ls + lr + lu + 3, 1);
		memcpy(key, t->rows[r][csrc], ls);
		key[ls] = '\t';
		memcpy(key + ls + 1, t->rows[r][crank], lr);
		key[ls + 1 + lr] = '\t';
		memcpy(key + ls + 2 + lr, t->rows[r][cunit], lu);
		size_t g = intern_add(keys, key, ls + lr + lu + 2);
		if (g == ngroups) {
			groups = xgrow(groups, &gcap, ngroups + 1, sizeof *groups);
			groups[ngroups++] = (struct group){ r, NULL, 0, 0, intern_add(units, t->rows[r][cunit], lu) };
		}
		groups[g].rows = xgrow(groups[g].rows, &groups[g].cap, groups[g].n + 1, sizeof(size_t));
		groups[g].rows[groups[g].n++] = r;
	}
	intern_free(keys);
	free(key);
	gnuplot_block_begin(out, "D");
	for (size_t g = 0; g < ngroups; g++) {
		if (g)
			fputs("\n\n", out); /* gnuplot's index separator */
		/* Each line starts at 0 s: runs recorded at different times still overlay. */
		t0 = NAN;
		for (size_t i = 0; i < groups[g].n && o->x_time; i++) {
			double x = 0;
			parse_time(t->rows[groups[g].rows[i]][cx], &x);
			if (!(t0 <= x))
				t0 = x;
		}
		for (size_t i = 0; i < groups[g].n; i++) {
			char **row = t->rows[groups[g].rows[i]];
			double x = 0, y = 0;
			if (o->x_time)
				parse_time(row[cx], &x), x = round((x - t0) * 1e6) / 1e6; /* no float noise */
			else
				number(row[cx], &x);
			number(row[s->value[0]], &y);
			gnuplot_number(out, x);
			putc(' ', out);
			gnuplot_number(out, y);
			putc('\n', out);
		}
	}
	gnuplot_block_end(out);
	size_t nunits = intern_count(units);
	fputs("set grid\nset key bottom right\nset yrange [0:*]\n", out);
	if (nunits > 1)
		fprintf(out, "set multiplot layout %zu,1\n", nunits);
	if (!ngroups) {
		axis_label(out, "x", o->x_time ? "seconds" : "step");
		axis_label(out, "y", "value");
		fputs("set xrange [0:1]\nplot 1/0 notitle\n", out);
	}
	for (uint32_t u = 0; u < nunits; u++) {
		axis_label(out, "x", o->x_time ? "seconds" : "step");
		axis_label(out, "y", intern_str(units, u, NULL));
		const char *lead = "plot";
		for (size_t g = 0; g < ngroups; g++) {
			if (groups[g].unit != u)
				continue;
			char **f = t->rows[groups[g].first];
			char title[512];
			snprintf(title, sizeof title, by_rank ? "%s rank %s" : "%s", f[csrc], f[crank]);
			fprintf(out, "%s $D index %zu using 1:2 with lines lw 2 title ", lead, g);
			gnuplot_quote(out, title, strlen(title), 0);
			lead = ", \\\n    ";
		}
		putc('\n', out);
	}
	if (nunits > 1)
		fputs("unset multiplot\n", out);
	for (size_t g = 0; g < ngroups; g++)
		free(groups[g].rows);
	free(groups);
	intern_free(units);
}

struct area_key { uint32_t id; double sum; };

static int cmp_area_keys(const void *pa, const void *pb)
{
	const struct area_key *a = pa, *b = pb;
	if (a->sum != b->sum)
		return a->sum < b->sum ? 1 : -1;
	return (a->id > b->id) - (a->id < b->id);  /* ties: first seen first */
}

static int cmp_doubles(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;
	return (a > b) - (a < b);
}

/* Index of x in the sorted xs[n] (present). */
static size_t find_x(const double *xs, size_t n, double x)
{
	size_t lo = 0, hi = n;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;
		if (xs[mid] <= x)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* A time series of keys as stacked areas: x the window's start, one area per key for the
 * first limit keys by their sum over all windows, the rest summed as "(other)". The
 * datablock holds each window's running sums, top area drawn first, each down to 0. */
/* Distinct colours for stacked areas, in order (gnuplot's default cycle repeats after 8);
 * "(other)" is grey. */
enum { AREA_COLOURS = 12 };
static const char *const area_colours[AREA_COLOURS] = {
	"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948",
	"#b07aa1", "#ff9da7", "#9c755f", "#17becf", "#8c564b", "#1f3a93",
};

static void draw_areas(FILE *out, const struct tsv *t, const struct chart_spec *s,
		       const struct chart_opts *o)
{
	int cw = s->label[0], ck = s->label[1], cv = s->value[0];
	intern *keys = intern_new();
	struct area_key *ks = NULL;
	size_t kcap = 0, nx = 0;
	double *xs = xcalloc(t->nrows + 1, sizeof *xs);
	for (size_t r = 0; r < t->nrows; r++) {
		double x, v;
		if (!number(t->rows[r][cw], &x) || !number(t->rows[r][cv], &v))
			continue;
		const char *key = ck >= 0 ? t->rows[r][ck] : "all";
		size_t seen = intern_count(keys);
		uint32_t id = intern_add(keys, key, strlen(key));
		if (id == seen) {
			ks = xgrow(ks, &kcap, seen + 1, sizeof *ks);
			ks[id] = (struct area_key){ id, 0 };
		}
		ks[id].sum += v;
		xs[nx++] = x;
	}
	size_t nkeys = intern_count(keys), nzero = 0;
	qsort(xs, nx, sizeof *xs, cmp_doubles);
	size_t nw = 0;
	for (size_t i = 0; i < nx; i++)
		if (nw == 0 || xs[i] != xs[nw - 1])
			xs[nw++] = xs[i];
	qsort(ks, nkeys, sizeof *ks, cmp_area_keys);
	while (nzero < nkeys && !(ks[nkeys - 1 - nzero].sum > 0))
		nzero++;  /* keys with nothing to stack (total-only rows) get no area */
	size_t drawn = nkeys - nzero;
	size_t shown = o->limit && o->limit < drawn ? (size_t)o->limit : drawn;
	if (shown > AREA_COLOURS)  /* no two areas of one colour: the rest is "(other)" */
		shown = AREA_COLOURS;
	size_t nareas = shown + (shown < drawn);
	uint32_t *area_of = xcalloc(nkeys + 1, sizeof *area_of);  /* key id -> area, UINT32_MAX none */
	for (size_t i = 0; i < nkeys; i++)
		area_of[ks[i].id] = i < shown ? (uint32_t)i : i < drawn ? (uint32_t)shown : UINT32_MAX;
	double *grid = xcalloc(nw * nareas + 1, sizeof *grid);
	for (size_t r = 0; r < t->nrows; r++) {
		double x, v;
		if (!number(t->rows[r][cw], &x) || !number(t->rows[r][cv], &v))
			continue;
		const char *key = ck >= 0 ? t->rows[r][ck] : "all";
		uint32_t id = intern_add(keys, key, strlen(key));
		if (area_of[id] != UINT32_MAX)
			grid[find_x(xs, nw, x) * nareas + area_of[id]] += v;
	}
	gnuplot_block_begin(out, "D");
	for (size_t w = 0; w < nw; w++) {
		double sum = 0;
		gnuplot_number(out, xs[w]);
		for (size_t a = 0; a < nareas; a++) {
			sum += grid[w * nareas + a];
			putc(' ', out);
			gnuplot_number(out, sum);
		}
		putc('\n', out);
	}
	gnuplot_block_end(out);
	axis_label(out, "x", "seconds (window start)");
	axis_label(out, "y", t->head[cv]);
	fputs("set grid\nset key outside right top\nset yrange [0:*]\nset style fill solid 0.75 noborder\n", out);
	if (!nw || !nareas)
		fputs("set xrange [0:1]\nplot 1/0 notitle\n", out);
	for (size_t a = nareas; nw && a-- > 0;) {
		char label[1024];
		if (a < shown) {
			size_t len;
			const char *key = intern_str(keys, ks[a].id, &len);
			frame_shorten(key, len, o->label_width, label, sizeof label);
		} else {
			snprintf(label, sizeof label, "(other)");
		}
		fprintf(out, "%s $D using 1:%zu with filledcurves x1 lc rgb \"%s\" title ",
			a + 1 == nareas ? "plot" : ", \\\n    ", a + 2, a < shown ? area_colours[a] : "#b0b0b0");
		gnuplot_quote(out, label, strlen(label), 0);
	}
	if (nw && nareas)
		putc('\n', out);
	free(grid);
	free(area_of);
	free(ks);
	free(xs);
	intern_free(keys);
}

/* sift-tput --stats rows as boxes: p5..p95, whiskers min..max, the median in red. The
 * stats carry no quartiles; p5/p95 are the figures the tool already trims warm-up for. */
/* One panel of boxes: the rows whose unit (column 1) is unit, or every row when NULL, in
 * datablock name; ylabel names the unit when the panel holds one. */
static void boxes_panel(FILE *out, const struct tsv *t, const struct chart_spec *s, const struct chart_opts *o,
			const char *unit, const char *name)
{
	int need[5] = { tsv_col(t, "p5"), tsv_col(t, "p95"), tsv_col(t, "min"), tsv_col(t, "max"),
			tsv_col(t, "median") };
	size_t cap = o->label_width * 4 + 8, n = 0;
	char **labels = xmalloc((t->nrows + 1) * sizeof *labels);
	double *pos = xmalloc((t->nrows + 1) * sizeof *pos);
	gnuplot_block_begin(out, name);
	for (size_t r = 0; r < t->nrows && (o->limit == 0 || n < o->limit); r++) {
		double v[5];
		int ok = !unit || strcmp(t->rows[r][1], unit) == 0;
		for (int i = 0; i < 5 && ok; i++)
			ok &= number(t->rows[r][need[i]], &v[i]);
		if (!ok)
			continue;
		labels[n] = xmalloc(cap);
		row_label(t, s, r, o->label_width, labels[n], cap);
		pos[n] = (double)(n + 1);
		gnuplot_number(out, pos[n]);
		for (int i = 0; i < 5; i++) {
			putc(' ', out);
			gnuplot_number(out, v[i]);
		}
		putc('\n', out);
		n++;
	}
	gnuplot_block_end(out);
	if (n)
		tics(out, "x", labels, pos, n);
	fprintf(out, "set xrange [0.4:%zu.6]\n", n);
	fputs("set xtics scale 0\nset grid ytics\nset yrange [0:*]\nunset key\n"
	      "set style fill solid 0.5 border -1\nset boxwidth 0.5\n", out);
	/* One unit: name it on the axis (the labels then hold only the sources). */
	const char *one = unit ? unit : s->label[1] < 0 && t->nrows ? t->rows[0][1] : "";
	char ylabel[256];
	snprintf(ylabel, sizeof ylabel, "%s%sbox p5-p95, whiskers min-max, median", one, *one ? ": " : "");
	axis_label(out, "y", ylabel);
	if (n)
		fprintf(out, "plot $%s using 1:2:4:5:3 with candlesticks lc rgb \"#4878a8\" whiskerbars, \\\n"
			"     $%s using 1:6:6:6:6 with candlesticks lc rgb \"#c0392b\" lw 2\n", name, name);
	else
		fputs("plot 1/0 notitle\n", out);
	for (size_t i = 0; i < n; i++)
		free(labels[i]);
	free(labels);
	free(pos);
}

/* --stats: a box per source; several units are a panel each, each on its own axis. */
static void draw_boxes(FILE *out, const struct tsv *t, const struct chart_spec *s,
			const struct chart_opts *o)
{
	if (s->label[1] < 0) {
		boxes_panel(out, t, s, o, NULL, "D");
		return;
	}
	intern *units = intern_new();
	for (size_t r = 0; r < t->nrows; r++)
		intern_add(units, t->rows[r][1], strlen(t->rows[r][1]));
	struct chart_spec one = *s;
	one.label[1] = -1;  /* the panel names its unit: labels hold the source alone */
	size_t nunits = intern_count(units);
	fprintf(out, "set multiplot layout %zu,1\n", nunits);
	for (uint32_t u = 0; u < nunits; u++) {
		char name[32];
		snprintf(name, sizeof name, "D%u", (unsigned)u);
		boxes_panel(out, t, &one, o, intern_str(units, u, NULL), name);
	}
	fputs("unset multiplot\n", out);
	intern_free(units);
}

/* sift-tput --compare rows: the speedup as a point with its 95% interval as error bars,
 * one per unit labelled "UNIT (verdict)", against a dashed line at 1 (no change). */
static void draw_speedup(FILE *out, const struct tsv *t, const struct chart_spec *s,
			const struct chart_opts *o)
{
	int need[3] = { tsv_col(t, "speedup"), tsv_col(t, "ci_low"), tsv_col(t, "ci_high") };
	int cverdict = tsv_col(t, "verdict");
	size_t cap = o->label_width * 4 + 8, n = 0;
	char **labels = xmalloc((t->nrows + 1) * sizeof *labels);
	double *pos = xmalloc((t->nrows + 1) * sizeof *pos);
	double lo = 1, hi = 1; /* the range always shows the no-change line */
	gnuplot_block_begin(out, "D");
	for (size_t r = 0; r < t->nrows && (o->limit == 0 || n < o->limit); r++) {
		double v[3];
		int ok = 1;
		for (int i = 0; i < 3; i++)
			ok &= number(t->rows[r][need[i]], &v[i]);
		if (!ok)
			continue;
		const char *unit = t->rows[r][s->label[0]], *verdict = t->rows[r][cverdict];
		size_t len = strlen(unit) + strlen(verdict) + 4;
		char *text = xmalloc(len);
		snprintf(text, len, *verdict ? "%s (%s)" : "%s", unit, verdict);
		labels[n] = xmalloc(cap);
		frame_shorten(text, strlen(text), o->label_width, labels[n], cap);
		free(text);
		pos[n] = (double)(n + 1);
		gnuplot_number(out, pos[n]);
		for (int i = 0; i < 3; i++) {
			putc(' ', out);
			gnuplot_number(out, v[i]);
			lo = fmin(lo, v[i]);
			hi = fmax(hi, v[i]);
		}
		putc('\n', out);
		n++;
	}
	gnuplot_block_end(out);
	if (n)
		tics(out, "x", labels, pos, n);
	double pad = (hi - lo) * 0.15 + 0.01;
	fprintf(out, "set xrange [0.4:%zu.6]\nset yrange [", n);
	gnuplot_number(out, round((lo - pad) * 1000) / 1000);
	putc(':', out);
	gnuplot_number(out, round((hi + pad) * 1000) / 1000);
	fputs("]\nset xtics scale 0\nset grid ytics\nunset key\n", out);
	axis_label(out, "y", "speedup (above 1: faster), 95% interval");
	if (n)
		fputs("plot 1 with lines dt 2 lc rgb \"#8c8c8c\", \\\n"
		      "     $D using 1:2:3:4 with yerrorbars pt 7 ps 1.5 lw 2 lc rgb \"#c0392b\"\n", out);
	else
		fputs("plot 1/0 notitle\n", out);
	for (size_t i = 0; i < n; i++)
		free(labels[i]);
	free(labels);
	free(pos);
}

const struct chart_kind *chart_recognise(const struct tsv *t, struct chart_spec *s)
{
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (kinds[i].match(t, s))
			return &kinds[i];
	return NULL;
}

const char *chart_kind_name(const struct chart_kind *k)
{
	return k->name;
}

int chart_set_column(const struct chart_kind *k, const struct tsv *t, struct chart_spec *s,
		     const char *name)
{
	int c = tsv_col(t, name);
	if (c < 0 || !k->any_column)
		return -1;
	s->value[0] = c;
	return 0;
}

void chart_write(FILE *out, const struct chart_kind *k, const struct tsv *t,
		 const struct chart_spec *s, const struct chart_opts *o)
{
	struct gnuplot_page page = o->page;
	char title[256];
	if (!page.title) {
		const char *figure = s->value[0] >= 0 ? t->head[s->value[0]] : "";
		if (k->title == TITLE_FIGURE_BY)
			snprintf(title, sizeof title, "%s by %s", figure, s->what);
		else if (k->title == TITLE_OVER_TIME)
			snprintf(title, sizeof title, "%s by %s over time", figure, s->what);
		else if (k->title == TITLE_BEFORE_AFTER) /* older tables do not say self or total */
			snprintf(title, sizeof title, "%s: before and after", s->what);
		else if (k->title == TITLE_DELTA)
			snprintf(title, sizeof title, "%s change by %s: after - before, 95%% intervals",
				 strstr(t->head[s->label[1] >= 0 ? 2 : 1], "_total") ? "total" : "self", s->what);
		else
			snprintf(title, sizeof title, "%s", s->what);
		page.title = title;
	}
	gnuplot_begin(out, &page);
	k->draw(out, t, s, o);
}
