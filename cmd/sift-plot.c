/* sift-plot: a sift TSV table or series in, a self-contained gnuplot script out. */
#include "../lib/cli.h"
#include "../lib/err.h"
#include "../lib/gnuplot.h"
#include "../lib/input.h"
#include "../lib/intern.h"
#include "../lib/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum {
	OPT_TERMINAL = 't', OPT_OUTPUT = 'o', OPT_N = 'n', OPT_TITLE = 0x2000, OPT_SIZE,
	OPT_COLUMN, OPT_X, OPT_LABEL_WIDTH,
};

static const struct cli_option options[] = {
	{ "terminal", OPT_TERMINAL, "TERM", "png (default), svg, pdf, dumb (text in the terminal)" },
	{ "output", OPT_OUTPUT, "FILE", "the script's `set output` (default: gnuplot's stdout)" },
	{ "title", OPT_TITLE, "TEXT", "chart title (default: what is drawn)" },
	{ "size", OPT_SIZE, "WxH", "pixels (pdf: at 72 per inch) or, for dumb, characters" },
	{ "top", OPT_N, "N", "bars for the first N rows of a table (default 20; 0: all)" },
	{ "column", OPT_COLUMN, "NAME", "the column bars show (default: the table's main figure)" },
	{ "x", OPT_X, "AXIS", "series: step (default) or time" },
	{ "label-width", OPT_LABEL_WIDTH, "N", "shorten bar labels to N characters (default 48)" },
	{ 0, 0, 0, 0 },
};

static const struct cli_spec spec = {
	"[OPTION]... [FILE]...",
	"Read a sift TSV (sift-top, sift-diff, sift-threads, sift-gil tables; sift-tput series,\n"
	"--stats and --compare), recognised by its header, and write a gnuplot script with the\n"
	"data inline: run it as `sift-plot t.tsv | gnuplot > chart.png`.",
	options,
	"Text from the input never reaches gnuplot as commands: see sift-plot(1), SECURITY.\n"
	"Exit status: 0 ok, 1 unreadable or unrecognised input, 2 usage error.\n",
};

/* The TSV as read: a header and rows of cells, every row as wide as the header. */
struct tsv {
	char **head;
	size_t ncols;
	char ***rows;
	size_t nrows, cap;
	const char *file;     /* of the header, for messages */
};

struct plot_opts {
	struct gnuplot_page page;
	unsigned long long limit;
	const char *column;
	int x_time;
	size_t label_width;
};

/* What a recogniser found: which columns label the rows and which hold the figures. */
struct plot_spec {
	const char *what;     /* for the default title */
	int label[2];         /* label columns, -1 unused */
	int value[2];         /* figure columns (paired bars use both), -1 unused */
};

typedef int plot_match_fn(const struct tsv *t, struct plot_spec *s);
typedef void plot_draw_fn(const struct tsv *t, const struct plot_spec *s, const struct plot_opts *o);

struct plot_recogniser {
	const char *name;
	plot_match_fn *match;
	plot_draw_fn *draw;
};

static int col(const struct tsv *t, const char *name)
{
	for (size_t i = 0; i < t->ncols; i++)
		if (strcmp(t->head[i], name) == 0)
			return (int)i;
	return -1;
}

/* Non-zero when word is one of the '|'-separated names in alts. */
static int one_of(const char *word, const char *alts, size_t alts_len)
{
	size_t n = strlen(word);
	for (const char *p = alts, *end = alts + alts_len; p <= end;) {
		const char *bar = memchr(p, '|', (size_t)(end - p));
		size_t len = bar ? (size_t)(bar - p) : (size_t)(end - p);
		if (len == n && memcmp(p, word, n) == 0)
			return 1;
		if (!bar)
			break;
		p = bar + 1;
	}
	return 0;
}

/* Non-zero when the header's columns from `at` on are the space-separated names
 * ("a|b" accepts either). */
static int has_run(const struct tsv *t, size_t at, const char *names)
{
	for (const char *p = names; *p; at++) {
		size_t len = strcspn(p, " ");
		if (at >= t->ncols || !one_of(t->head[at], p, len))
			return 0;
		p += len;
		p += *p == ' ';
	}
	return 1;
}

static void spec_init(struct plot_spec *s, const char *what)
{
	s->what = what;
	s->label[0] = s->label[1] = s->value[0] = s->value[1] = -1;
}

/* sift-top: KEY [KEY2] self self_pct total total_pct. */
static int match_top(const struct tsv *t, struct plot_spec *s)
{
	for (size_t k = 1; k <= 2; k++) {
		if (t->ncols == k + 4 && has_run(t, k, "self self_pct total total_pct")) {
			spec_init(s, t->head[0]);
			s->label[0] = 0;
			s->label[1] = k == 2 ? 1 : -1;
			s->value[0] = col(t, "self_pct");
			return 1;
		}
	}
	return 0;
}

/* sift-diff: KEY [KEY2] before after before_pct after_pct delta_pts ratio flag (or _rate). */
static int match_diff(const struct tsv *t, struct plot_spec *s)
{
	for (size_t k = 1; k <= 2; k++) {
		if (t->ncols == k + 7 &&
		    has_run(t, k, "before after before_pct|before_rate after_pct|after_rate "
				  "delta_pts|delta_rate ratio flag")) {
			spec_init(s, t->head[0]);
			s->label[0] = 0;
			s->label[1] = k == 2 ? 1 : -1;
			s->value[0] = (int)k + 2;
			s->value[1] = (int)k + 3;
			return 1;
		}
	}
	return 0;
}

static int match_series(const struct tsv *t, struct plot_spec *s)
{
	if (!has_run(t, 0, "source line rank step time value unit"))
		return 0;
	spec_init(s, "throughput");
	s->value[0] = col(t, "value");
	return 1;
}

/* Summary statistics (sift-tput --stats; --compare, whose header is provisional: `side`
 * first): one box per row from its quantile columns. */
static int match_stats(const struct tsv *t, struct plot_spec *s)
{
	if (!has_run(t, 0, "source unit n mean median"))
		return 0;
	spec_init(s, "throughput");
	s->label[0] = 0;
	s->label[1] = 1;
	return 1;
}

static int match_compare(const struct tsv *t, struct plot_spec *s)
{
	if (t->ncols < 2 || strcmp(t->head[0], "side") != 0 || col(t, "median") < 0)
		return 0;
	spec_init(s, "before / after");
	s->label[0] = 0;
	s->label[1] = col(t, "unit");
	return 1;
}

/* sift-threads: pid tid ...: CPU per thread, labelled by name and tid. */
static int match_threads(const struct tsv *t, struct plot_spec *s)
{
	if (!has_run(t, 0, "pid tid"))
		return 0;
	spec_init(s, "thread");
	for (size_t i = 2; i < t->ncols && s->label[0] < 0; i++)
		if (strstr(t->head[i], "name"))
			s->label[0] = (int)i;
	s->label[1] = 1;
	if (s->label[0] < 0)
		s->label[0] = 1, s->label[1] = -1;
	for (size_t i = 2; i < t->ncols && s->value[0] < 0; i++)
		if (strncmp(t->head[i], "cpu", 3) == 0)
			s->value[0] = (int)i;
	if (s->value[0] < 0)
		s->value[0] = col(t, "active");
	return 1;
}

/* sift-gil: KEY ... gil_share. */
static int match_gil(const struct tsv *t, struct plot_spec *s)
{
	if (col(t, "gil_share") <= 0)
		return 0;
	spec_init(s, "GIL share");
	s->label[0] = 0;
	s->value[0] = col(t, "gil_share");
	return 1;
}

static plot_draw_fn draw_bars, draw_pairs, draw_series, draw_boxes;

/* First match wins: more specific headers first. Adding a table is one row here. */
static const struct plot_recogniser recognisers[] = {
	{ "diff", match_diff, draw_pairs },
	{ "top", match_top, draw_bars },
	{ "series", match_series, draw_series },
	{ "stats", match_stats, draw_boxes },
	{ "compare", match_compare, draw_boxes },
	{ "threads", match_threads, draw_bars },
	{ "gil", match_gil, draw_bars },
};

static int number(const char *s, double *out)
{
	char *end;
	if (!s || !*s)
		return 0;
	*out = strtod(s, &end);
	return *end == '\0' && isfinite(*out);
}

/* A row's label: its label columns joined by " / ", shortened for the axis. */
static size_t row_label(const struct tsv *t, const struct plot_spec *s, size_t r, size_t width,
			char *buf, size_t cap)
{
	char *joined = NULL;
	size_t len = 0, jcap = 0;
	for (int i = 0; i < 2; i++) {
		if (s->label[i] < 0)
			continue;
		const char *cell = t->rows[r][s->label[i]];
		size_t n = strlen(cell);
		joined = xgrow(joined, &jcap, len + n + 4, 1);
		if (len)
			memcpy(joined + len, " / ", 3), len += 3;
		memcpy(joined + len, cell, n);
		len += n;
	}
	size_t n = gnuplot_shorten(joined ? joined : "", len, width, buf, cap);
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
static size_t pick_rows(const struct tsv *t, const struct plot_spec *s, const struct plot_opts *o,
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
static void draw_hbars(const struct tsv *t, const struct plot_spec *s, const struct plot_opts *o,
		       int pairs)
{
	FILE *out = stdout;
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
		fputs("set key below horizontal\n", out);
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

static void draw_bars(const struct tsv *t, const struct plot_spec *s, const struct plot_opts *o)
{
	draw_hbars(t, s, o, 0);
}

static void draw_pairs(const struct tsv *t, const struct plot_spec *s, const struct plot_opts *o)
{
	draw_hbars(t, s, o, 1);
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
static void draw_series(const struct tsv *t, const struct plot_spec *s, const struct plot_opts *o)
{
	FILE *out = stdout;
	int csrc = 0, crank = 2, cx = o->x_time ? 4 : 3, cunit = 6;
	size_t ngroups = 0, gcap = 0;
	struct group { size_t first; size_t *rows; size_t n, cap; } *groups = NULL;
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
	/* Group by "SOURCE\tRANK" (fields hold no tab): intern ids are group numbers. */
	keys = intern_new();
	for (size_t r = 0; r < t->nrows; r++) {
		double x, y;
		if (!number(t->rows[r][s->value[0]], &y) ||
		    !(o->x_time ? parse_time(t->rows[r][cx], &x) : number(t->rows[r][cx], &x)))
			continue;
		size_t ls = strlen(t->rows[r][csrc]), lr = by_rank ? strlen(t->rows[r][crank]) : 0;
		key = xgrow(key, &kcap, ls + lr + 2, 1);
		memcpy(key, t->rows[r][csrc], ls);
		key[ls] = '\t';
		memcpy(key + ls + 1, t->rows[r][crank], lr);
		size_t g = intern_add(keys, key, ls + 1 + lr);
		if (g == ngroups) {
			groups = xgrow(groups, &gcap, ngroups + 1, sizeof *groups);
			groups[ngroups++] = (struct group){ r, NULL, 0, 0 };
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
	axis_label(out, "x", o->x_time ? "seconds" : "step");
	axis_label(out, "y", ngroups ? t->rows[groups[0].first][cunit] : "value");
	fputs("set grid\nset key bottom right\nset yrange [0:*]\n", out);
	if (!ngroups)
		fputs("set xrange [0:1]\nplot 1/0 notitle\n", out);
	for (size_t g = 0; g < ngroups; g++) {
		char **f = t->rows[groups[g].first];
		char title[512];
		snprintf(title, sizeof title, by_rank ? "%s rank %s" : "%s", f[csrc], f[crank]);
		fprintf(out, "%s $D index %zu using 1:2 with lines lw 2 title ", g ? ", \\\n    " : "plot", g);
		gnuplot_quote(out, title, strlen(title), 0);
		free(groups[g].rows);
	}
	if (ngroups)
		putc('\n', out);
	free(groups);
}

/* Boxes from quantiles: box p25..p75 (else p5..p95), whiskers min..max (else p5..p95). */
static void draw_boxes(const struct tsv *t, const struct plot_spec *s, const struct plot_opts *o)
{
	FILE *out = stdout;
	int lo = col(t, "p25") >= 0 ? col(t, "p25") : col(t, "p5");
	int hi = col(t, "p75") >= 0 ? col(t, "p75") : col(t, "p95");
	int wlo = col(t, "min") >= 0 ? col(t, "min") : col(t, "p5");
	int whi = col(t, "max") >= 0 ? col(t, "max") : col(t, "p95");
	int med = col(t, "median");
	int need[5] = { lo, hi, wlo, whi, med };
	size_t cap = o->label_width * 4 + 8, n = 0;
	char **labels = xmalloc((t->nrows + 1) * sizeof *labels);
	double *pos = xmalloc((t->nrows + 1) * sizeof *pos);
	gnuplot_block_begin(out, "D");
	for (size_t r = 0; r < t->nrows && (o->limit == 0 || n < o->limit); r++) {
		double v[5];
		int ok = 1;
		for (int i = 0; i < 5; i++)
			ok &= need[i] >= 0 && number(t->rows[r][need[i]], &v[i]);
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
	axis_label(out, "y", med >= 0 ? "median, quartiles (or p5/p95), min/max" : "value");
	if (n)
		fputs("plot $D using 1:2:4:5:3 with candlesticks lc rgb \"#4878a8\" whiskerbars, \\\n"
		      "     $D using 1:6:6:6:6 with candlesticks lc rgb \"#c0392b\" lw 2\n", out);
	else
		fputs("plot 1/0 notitle\n", out);
	for (size_t i = 0; i < n; i++)
		free(labels[i]);
	free(labels);
	free(pos);
}

static void split_tabs(char *text, char ***cells, size_t *n)
{
	size_t cap = 0;
	*n = 0;
	*cells = NULL;
	for (char *p = text;; ) {
		char *tab = strchr(p, '\t');
		*cells = xgrow(*cells, &cap, *n + 1, sizeof **cells);
		(*cells)[(*n)++] = xstrndup(p, tab ? (size_t)(tab - p) : strlen(p));
		if (!tab)
			break;
		p = tab + 1;
	}
}

static void free_cells(char **cells, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(cells[i]);
	free(cells);
}

/* Read the TSV; a repeated header (files concatenated) is skipped, short rows padded
 * (sift-tput's loss column is optional), long rows are bad lines. */
static int read_tsv(char **paths, size_t npaths, struct tsv *t, struct err_lines *errs)
{
	in_reader *in = in_open(paths, npaths);
	struct in_line line;
	memset(t, 0, sizeof *t);
	while (in_next(in, &line)) {
		if (memchr(line.text, '\0', line.len)) {
			err_bad_line(errs, line.file, line.lineno, "NUL byte in line");
			continue;
		}
		char **cells;
		size_t n;
		split_tabs(line.text, &cells, &n);
		if (!t->head) {
			t->head = cells;
			t->ncols = n;
			t->file = line.file;
			continue;
		}
		int same = n == t->ncols;
		for (size_t i = 0; same && i < n; i++)
			same = strcmp(cells[i], t->head[i]) == 0;
		if (same || (n == 1 && cells[0][0] == '\0')) {
			free_cells(cells, n);
			continue;
		}
		if (n > t->ncols) {
			err_bad_line(errs, line.file, line.lineno, "%zu cells, the header has %zu", n, t->ncols);
			free_cells(cells, n);
			continue;
		}
		cells = xrealloc(cells, t->ncols * sizeof *cells);
		for (; n < t->ncols; n++)
			cells[n] = xstrndup("", 0);
		t->rows = xgrow(t->rows, &t->cap, t->nrows + 1, sizeof *t->rows);
		t->rows[t->nrows++] = cells;
	}
	int status = in_failed(in);
	in_close(in);
	return status;
}

static void parse_size(const char *value, struct gnuplot_page *page)
{
	unsigned w, h;
	char end;
	if (sscanf(value, "%ux%u%c", &w, &h, &end) != 2 || w < 10 || h < 5 || w > 20000 || h > 20000)
		cli_usage_error(&spec, "invalid value for --size: '%s' (WxH, e.g. 900x600)", value);
	page->width = w;
	page->height = h;
}

int main(int argc, char **argv)
{
	struct plot_opts o = { .page = { .terminal = GNUPLOT_PNG }, .limit = 20, .label_width = 48 };
	struct err_lines errs;
	const char *value;
	int key, first;

	err_set_prog(argv[0]);
	err_lines_init(&errs);
	while ((key = cli_next(&spec, argc, argv, &value, &first)) != -1) {
		switch (key) {
		case OPT_TERMINAL:
			o.page.terminal = (enum gnuplot_terminal)cli_choice(&spec, "--terminal", value,
									     gnuplot_terminal_names);
			break;
		case OPT_OUTPUT: o.page.output = value; break;
		case OPT_TITLE: o.page.title = value; break;
		case OPT_SIZE: parse_size(value, &o.page); break;
		case OPT_N: o.limit = cli_ulong(&spec, "--top", value); break;
		case OPT_COLUMN: o.column = value; break;
		case OPT_X:
			o.x_time = cli_choice(&spec, "--x", value, (const char *const[]){ "step", "time", NULL });
			break;
		case OPT_LABEL_WIDTH:
			o.label_width = (size_t)cli_ulong(&spec, "--label-width", value);
			if (o.label_width < 5 || o.label_width > 1000)
				cli_usage_error(&spec, "invalid value for --label-width: '%s' (5 to 1000)", value);
			break;
		default:
			cli_usage_error(&spec, NULL);
		}
	}

	struct tsv t;
	int status = read_tsv(argv + first, (size_t)(argc - first), &t, &errs);
	err_lines_finish(&errs);
	if (!t.head)
		err_exit(EXIT_DATA, "no input: expected a sift TSV table (--format tsv)");
	const struct plot_recogniser *rec = NULL;
	struct plot_spec s;
	for (size_t i = 0; i < sizeof recognisers / sizeof recognisers[0] && !rec; i++)
		if (recognisers[i].match(&t, &s))
			rec = &recognisers[i];
	if (!rec)
		err_exit(EXIT_DATA, "%s:1: not a sift TSV header (sift-top, sift-diff, sift-tput, sift-threads "
			 "or sift-gil with --format tsv)", t.file);
	if (o.column) {
		int c = col(&t, o.column);
		if (c < 0 || rec->draw == draw_boxes || rec->draw == draw_pairs)
			err_exit(EXIT_USAGE, "--column %s: no such column to draw in this %s table", o.column, rec->name);
		s.value[0] = c;
	}
	char title[256];
	if (!o.page.title) {
		const char *figure = s.value[0] >= 0 ? t.head[s.value[0]] : "";
		if (rec->draw == draw_bars)
			snprintf(title, sizeof title, "%s by %s", figure, s.what);
		else if (rec->draw == draw_pairs)
			snprintf(title, sizeof title, "%s: before and after", s.what);
		else
			snprintf(title, sizeof title, "%s", s.what);
		o.page.title = title;
	}
	gnuplot_begin(stdout, &o.page);
	rec->draw(&t, &s, &o);
	err_close_stdout();

	free_cells(t.head, t.ncols);
	for (size_t r = 0; r < t.nrows; r++)
		free_cells(t.rows[r], t.ncols);
	free(t.rows);
	return status;
}
