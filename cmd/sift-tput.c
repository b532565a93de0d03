/* sift-tput: throughput series out of training logs, their spread, and before/after verdicts. */
#include "../lib/chunk.h"
#include "../lib/cli.h"
#include "../lib/err.h"
#include "../lib/input.h"
#include "../lib/stats.h"
#include "../lib/table.h"
#include "../lib/tput.h"
#include "../lib/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	OPT_PRESET = 'p', OPT_REGEX = 'e', OPT_UNIT = 'u', OPT_RANK = 'r', OPT_STATS = 's',
	OPT_COMPARE = 'c', OPT_FORMAT = 'f', OPT_VERBOSE = 'v', OPT_JOBS = 'j',
	OPT_LIST = 0x2000, OPT_WARMUP, OPT_PER_RANK, OPT_BEFORE, OPT_AFTER, OPT_FAIL_BELOW, OPT_STRICT,
};

static const struct cli_option options[] = {
	{ "preset", OPT_PRESET, "NAME", "use this preset only (repeatable; 'none' for --regex alone)" },
	{ "regex", OPT_REGEX, "RE", "add a PCRE2 rule with named groups tput, unit, step, time, loss, rank" },
	{ "list-presets", OPT_LIST, NULL, "list the presets with an example line each" },
	{ "unit", OPT_UNIT, "UNIT", "keep one canonical unit (tokens/s, tokens/s/gpu, samples/s, it/s, ...)" },
	{ "rank", OPT_RANK, "N", "keep the lines of one rank" },
	{ "stats", OPT_STATS, NULL, "summarize per source and unit instead of listing the series" },
	{ "warmup", OPT_WARMUP, "N|P%", "skip the first N steps or P% of points in stats (default 10%)" },
	{ "per-rank", OPT_PER_RANK, NULL, "keep every rank's copy of a step (default: lowest rank only)" },
	{ "compare", OPT_COMPARE, NULL, "compare two logs: sift-tput --compare BEFORE AFTER" },
	{ "before", OPT_BEFORE, "FILE", "a log of the before side (repeatable; implies --compare)" },
	{ "after", OPT_AFTER, "FILE", "a log of the after side (repeatable; implies --compare)" },
	{ "fail-below", OPT_FAIL_BELOW, "R", "exit 1 when the speedup interval's upper bound is below R" },
	{ "format", OPT_FORMAT, "FMT", "tables: text (default), tsv, csv, json, md" },
	{ "jobs", OPT_JOBS, "N", "read plain files on N threads (default: one per processor\n"
	  "                            for inputs of 16 MB or more; 1: one thread)" },
	{ "verbose", OPT_VERBOSE, NULL, "name bad and skipped lines" },
	{ "strict", OPT_STRICT, NULL, "a bad line is fatal" },
	{ 0, 0, 0, 0 },
};

static const struct cli_spec spec = {
	"[OPTION]... [FILE]...\n       sift-tput --compare [OPTION]... BEFORE AFTER\n"
	"       sift-tput [OPTION]... --before FILE... --after FILE...",
	"Extract throughput from training logs: a TSV series (source line rank step time value\n"
	"unit loss), --stats per source and unit, or --compare before and after logs.",
	options,
	"Without --preset every line is tried against every preset, in the order --list-presets shows.\n"
	"Exit status: 0 ok, 1 no throughput found, unreadable input, or --fail-below tripped,\n"
	"2 usage error.\n",
};

struct opts {
	int stats, per_rank, verbose, strict, list;
	unsigned jobs;             /* 0: one per processor for large plain files */
	int unit;                  /* -1: every unit */
	long rank;                 /* -1: every rank */
	int warmup_pct;            /* warm-up as a share of points, else as steps */
	double warmup;
	double fail_below;         /* NaN: none */
	enum table_format format;
	char **before, **after;
	size_t nbefore, nafter;
};

/* One series: the points of a source (or compare side) in one unit, in input order. */
struct point {
	double value;
	long long step;
	long rank;
};

struct series {
	char *source;
	enum tput_unit unit;
	struct point *pts;
	size_t n, cap, nan;
};

struct collect {
	struct series *s;
	size_t n, cap;
};

struct run {
	const struct opts *o;
	tput_ex *ex;
	struct err_lines *errs;
	const char *file;          /* being read */
	struct collect *col;       /* NULL: write the series */
	unsigned long points, nans;
};

/* What a reader (this thread or a worker) finds, as records in a chunk_buf: a tag, the
 * line number, then the tag's payload. Rows are formatted by the reader, all but their
 * source and line, which the emitter writes once the chunk's place in the file is known. */
enum record { REC_ROW, REC_POINT, REC_NAN, REC_BAD, REC_ERROR, REC_SKIP };

struct reader {
	const struct opts *o;
	tput_ex *ex;
	int collect;               /* points for stats rather than rows */
	struct chunk_buf *out;
};

static struct series *series_for(struct collect *c, const char *source, enum tput_unit unit)
{
	for (size_t i = c->n; i-- > 0;)
		if (c->s[i].unit == unit && strcmp(c->s[i].source, source) == 0)
			return &c->s[i];
	c->s = xgrow(c->s, &c->cap, c->n + 1, sizeof *c->s);
	struct series *s = &c->s[c->n++];
	memset(s, 0, sizeof *s);
	s->source = xstrndup(source, strlen(source));
	s->unit = unit;
	return s;
}

static void collect_free(struct collect *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->s[i].source);
		free(c->s[i].pts);
	}
	free(c->s);
}

/* A row's fields but for source and line, built by a reader (perhaps on a worker thread)
 * straight into its record. The longest is under 400 bytes (%.6f of the largest double). */
enum { ROW_MAX = 512 };

struct row {
	char *buf;
	size_t len;
};

static void row_put(struct row *r, const char *s, size_t n)
{
	if (n > ROW_MAX - r->len)  /* cannot happen: see above */
		abort();
	memcpy(r->buf + r->len, s, n);
	r->len += n;
}

/* Digits of u with `frac` of them after a point (trailing zeros already dropped). */
static void row_fixed(struct row *r, int neg, unsigned long long u, int frac)
{
	char buf[32], *p = buf + sizeof buf;
	for (int d = 0; d < frac; d++, u /= 10)
		*--p = (char)('0' + u % 10);
	if (frac)
		*--p = '.';
	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (neg)
		*--p = '-';
	row_put(r, p, (size_t)(buf + sizeof buf - p));
}

/* Up to 6 decimals, trailing zeros dropped; 0 when v is not the double nearest to such a
 * decimal. When it is, and v < 2^33 (half its ulp then stays below 5e-7), printf's %.6f
 * rounds v's exact value to the same digits. max (at most 2^33 * 1e6) bounds v * 1e6. */
static int row_short(struct row *r, double v, double max)
{
	double a = fabs(v), x = a * 1e6;
	if (!(x < max))
		return 0;
	unsigned long long u = (unsigned long long)(x + 0.5);  /* a cast: nearbyint is a libm call */
	if ((double)u / 1e6 != a)
		return 0;
	int frac = 6;
	while (frac > 0 && u % 10 == 0) {
		u /= 10;
		frac--;
	}
	row_fixed(r, v < 0, u, frac);
	return 1;
}

/* Numbers as %.10g writes them (whole numbers below 1e15 whole: no digit lost), the common
 * short ones without printf. */
static void row_num(struct row *r, double v)
{
	if (isnan(v))
		return;
	if (fabs(v) < 1e15 && v == (double)(long long)v) {
		row_fixed(r, v < 0, (unsigned long long)fabs(v), 0);
		return;
	}
	/* below 1e10 scaled, six decimals and at most ten digits: %.10g's own spelling */
	if (fabs(v) >= 1e-4 && row_short(r, v, 1e10))
		return;
	char buf[32];
	int n = snprintf(buf, sizeof buf, "%.10g", v);
	row_put(r, buf, (size_t)n);
}

/* Seconds as %.6f writes them, trailing zeros dropped. */
static void row_time(struct row *r, double t)
{
	if (isnan(t))
		return;
	if (row_short(r, t, 8.5e15))
		return;
	char buf[400];  /* %.6f of 1.8e308: 309 digits, a point and six */
	int n = snprintf(buf, sizeof buf, "%.6f", t);
	while (n > 0 && buf[n - 1] == '0')
		n--;
	if (n > 0 && buf[n - 1] == '.')
		n--;
	row_put(r, buf, (size_t)n);
}

/* A row but for its source and line: "\trank\tstep\ttime\tvalue\tunit\tloss\n". */
static void format_row(struct row *r, const struct tput_point *pt)
{
	row_put(r, "\t", 1);
	if (pt->rank >= 0)
		row_fixed(r, 0, (unsigned long long)pt->rank, 0);
	row_put(r, "\t", 1);
	if (pt->step >= 0)
		row_fixed(r, 0, (unsigned long long)pt->step, 0);
	row_put(r, "\t", 1);
	row_time(r, pt->time);
	row_put(r, "\t", 1);
	row_num(r, pt->value);
	row_put(r, "\t", 1);
	row_put(r, tput_unit_names[pt->unit], strlen(tput_unit_names[pt->unit]));
	row_put(r, "\t", 1);
	row_num(r, pt->loss);
	row_put(r, "\n", 1);
}

enum { RECORD_HEAD = 1 + sizeof(unsigned long) + sizeof(unsigned short) };

/* Room for a record of up to max bytes; returns where its data goes. */
static char *open_record(struct chunk_buf *out, enum record tag, unsigned long lineno, size_t max)
{
	char *at = chunk_buf_add(out, RECORD_HEAD + max);
	*at = (char)tag;
	memcpy(at + 1, &lineno, sizeof lineno);
	return at + RECORD_HEAD;
}

/* The record opened last holds n of its max bytes. */
static void close_record(struct chunk_buf *out, size_t n, size_t max)
{
	unsigned short len = (unsigned short)n;
	memcpy(out->data + out->len - max - sizeof len, &len, sizeof len);
	out->len -= max - n;
}

static void put_record(struct chunk_buf *out, enum record tag, unsigned long lineno, const void *data,
		       size_t len)
{
	size_t n = len > 0xffff ? 0xffff : len;
	memcpy(open_record(out, tag, lineno, n), data, n);
	close_record(out, n, n);
}

/* tput_sink for a reader: filters, then records. */
static void sink(void *ctx, unsigned long lineno, enum tput_result res, const struct tput_point *pt,
		 const char *reason)
{
	struct reader *rd = ctx;
	const struct opts *o = rd->o;
	if (res == TPUT_BAD || res == TPUT_ERROR || res == TPUT_NOMATCH) {
		enum record tag = res == TPUT_BAD ? REC_BAD : res == TPUT_ERROR ? REC_ERROR : REC_SKIP;
		put_record(rd->out, tag, lineno, reason, strlen(reason));
		return;
	}
	if ((o->unit >= 0 && (int)pt->unit != o->unit) || (o->rank >= 0 && pt->rank != o->rank))
		return;
	if (res == TPUT_NAN) {
		unsigned char unit = (unsigned char)pt->unit;
		put_record(rd->out, REC_NAN, lineno, &unit, 1);
	} else if (rd->collect) {
		struct { struct point p; unsigned char unit; } rec = { { pt->value, pt->step, pt->rank }, (unsigned char)pt->unit };
		put_record(rd->out, REC_POINT, lineno, &rec, sizeof rec);
	} else {
		struct row r = { open_record(rd->out, REC_ROW, lineno, ROW_MAX), 0 };
		format_row(&r, pt);
		close_record(rd->out, r.len, ROW_MAX);
	}
}

/* Output rows are gathered here and written in large pieces. */
struct outbuf {
	char buf[1 << 16];
	size_t len;
};

static void out_put(struct outbuf *ob, const char *s, size_t n)
{
	if (n > sizeof ob->buf - ob->len) {
		fwrite(ob->buf, 1, ob->len, stdout);
		ob->len = 0;
		if (n > sizeof ob->buf) {
			fwrite(s, 1, n, stdout);
			return;
		}
	}
	memcpy(ob->buf + ob->len, s, n);
	ob->len += n;
}

/* chunk_emit_fn: a reader's records, in order, into the output, the errors and the series. */
static void emit(void *ctx, const struct chunk_buf *in, unsigned long lines_before)
{
	struct run *r = ctx;
	struct outbuf *ob = NULL;
	size_t file_len = strlen(r->file);
	for (size_t at = 0; at < in->len;) {
		enum record tag = (enum record)in->data[at];
		unsigned long lineno;
		unsigned short n;
		memcpy(&lineno, in->data + at + 1, sizeof lineno);
		memcpy(&n, in->data + at + 1 + sizeof lineno, sizeof n);
		const char *data = in->data + at + RECORD_HEAD;
		at += RECORD_HEAD + n;
		lineno += lines_before;
		switch (tag) {
		case REC_ROW: {
			if (!ob) {
				ob = xmalloc(sizeof *ob);
				ob->len = 0;
			}
			static const char header[] = "source\tline\trank\tstep\ttime\tvalue\tunit\tloss\n";
			if (r->points++ == 0)  /* no header when nothing matched: the error says why */
				out_put(ob, header, sizeof header - 1);
			char num[24], *p = num + sizeof num;
			unsigned long v = lineno;
			do
				*--p = (char)('0' + v % 10);
			while ((v /= 10) != 0);
			*--p = '\t';
			out_put(ob, r->file, file_len);
			out_put(ob, p, (size_t)(num + sizeof num - p));
			out_put(ob, data, n);
			break;
		}
		case REC_POINT: {
			struct { struct point p; unsigned char unit; } rec;
			memcpy(&rec, data, sizeof rec);
			r->points++;
			struct series *s = series_for(r->col, r->file, (enum tput_unit)rec.unit);
			s->pts = xgrow(s->pts, &s->cap, s->n + 1, sizeof *s->pts);
			s->pts[s->n++] = rec.p;
			break;
		}
		case REC_NAN:
			r->nans++;
			if (r->col)
				series_for(r->col, r->file, (enum tput_unit)(unsigned char)data[0])->nan++;
			break;
		case REC_ERROR: /* a pattern that cannot finish is always named */
			if (!r->errs->verbose)
				err_warn("%s:%lu: %.*s", r->file, lineno, (int)n, data);
			/* fall through */
		case REC_BAD:
			err_bad_line(r->errs, r->file, lineno, "%.*s", (int)n, data);
			break;
		case REC_SKIP:
			err_skip_line(r->errs, r->file, lineno, "%.*s", (int)n, data);
			break;
		}
	}
	if (ob) {
		fwrite(ob->buf, 1, ob->len, stdout);
		free(ob);
	}
}

/* chunk_work_fn: one block through a worker's own extractor. */
static size_t work(void *worker, struct in_block *block, struct chunk_buf *out)
{
	struct reader *rd = worker;
	rd->out = out;
	return tput_ex_block(rd->ex, block->text, block->len, block->lineno, sink, rd);
}

enum { CHUNK_MIN_FILE = 16 << 20, CHUNK_BYTES = 4 << 20, MAX_JOBS = 64 };

/* One large plain file on several threads, each with its own copy of the rules. */
static int read_parallel(struct run *r, const char *path, unsigned jobs)
{
	struct reader *readers = xcalloc(jobs, sizeof *readers);
	void **workers = xcalloc(jobs, sizeof *workers);
	for (unsigned k = 0; k < jobs; k++) {
		readers[k] = (struct reader){ r->o, tput_ex_clone(r->ex), r->col != NULL, NULL };
		workers[k] = &readers[k];
	}
	r->file = path;
	int failed = chunk_run(path, CHUNK_BYTES, jobs, workers, work, emit, r);
	for (unsigned k = 0; k < jobs; k++)
		tput_ex_free(readers[k].ex);
	free(readers);
	free(workers);
	return failed;
}

static int read_logs(struct run *r, char **paths, size_t npaths)
{
	/* Threads pay off on large plain files; --strict and -v keep the one-thread order of
	 * messages and exits. */
	unsigned jobs = r->o->jobs ? r->o->jobs : chunk_processors(8);
	int failed = 0;
	struct chunk_buf out = { NULL, 0, 0 };
	struct reader rd = { r->o, r->ex, r->col != NULL, &out };
	char *stdin_path[] = { "-" };
	if (npaths == 0) {
		paths = stdin_path;
		npaths = 1;
	}
	for (size_t f = 0; f < npaths; f++) {
		if (jobs > 1 && !r->o->strict && !r->o->verbose && chunk_splittable(paths[f], CHUNK_MIN_FILE)) {
			failed |= read_parallel(r, paths[f], jobs);
			continue;
		}
		in_reader *in = in_open(paths + f, 1);
		struct in_block b;
		while (in_next_block(in, &b)) {
			r->file = b.file;
			out.len = 0;
			in_block_lines(in, tput_ex_block(r->ex, b.text, b.len, b.lineno, sink, &rd));
			emit(r, &out, 0);
		}
		failed |= in_failed(in);
		in_close(in);
	}
	free(out.data);
	return failed;
}

static void no_match(const tput_ex *ex, const char *what)
{
	size_t cap = 64, len = 0;
	char *names = xmalloc(cap);
	names[0] = '\0';
	for (size_t i = 0; i < tput_ex_rules(ex); i++) {
		const char *n = tput_ex_rule_name(ex, i);
		names = xgrow(names, &cap, len + strlen(n) + 3, 1);
		len += (size_t)sprintf(names + len, "%s%s", i ? ", " : "", n);
	}
	err_warn("no throughput found in %s (tried: %s)", what, names);
	free(names);
}

/* The figures stats are taken on: per-rank duplicates dropped, then the warm-up. */
struct kept {
	double *v;
	size_t n, warmup, dups;
};

static int cmp_step_rank(const void *a, const void *b)
{
	const struct point *x = *(const struct point *const *)a, *y = *(const struct point *const *)b;
	if (x->step != y->step)
		return x->step < y->step ? -1 : 1;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

static void keep_points(const struct series *s, const struct opts *o, struct kept *k)
{
	char *drop = xcalloc(s->n ? s->n : 1, 1);
	k->dups = 0;
	if (!o->per_rank) {
		/* Ranks repeat a step's figure: keep the lowest rank's lines of each step. */
		const struct point **by = xmalloc((s->n ? s->n : 1) * sizeof *by);
		size_t m = 0;
		for (size_t i = 0; i < s->n; i++)
			if (s->pts[i].rank >= 0 && s->pts[i].step >= 0)
				by[m++] = &s->pts[i];
		qsort(by, m, sizeof *by, cmp_step_rank);
		for (size_t i = 1; i < m; i++) {
			size_t j = i;
			while (j > 0 && by[j - 1]->step == by[i]->step)
				j--;
			if (by[i]->rank > by[j]->rank) {
				drop[by[i] - s->pts] = 1;
				k->dups++;
			}
		}
		free(by);
	}
	size_t live = s->n - k->dups, skip = 0;
	long long first = -1;
	if (o->warmup_pct) {
		skip = (size_t)floor((double)live * o->warmup / 100.0);
	} else {
		for (size_t i = 0; i < s->n; i++)
			if (!drop[i] && s->pts[i].step >= 0 && (first < 0 || s->pts[i].step < first))
				first = s->pts[i].step;
		if (first < 0)
			skip = (size_t)o->warmup < live ? (size_t)o->warmup : live;
	}
	k->v = xmalloc((live ? live : 1) * sizeof *k->v);
	k->n = k->warmup = 0;
	size_t seen = 0;
	for (size_t i = 0; i < s->n; i++) {
		if (drop[i])
			continue;
		int warm = first >= 0 ? (s->pts[i].step >= 0 && (double)s->pts[i].step < (double)first + o->warmup)
				      : seen < skip;
		seen++;
		if (warm)
			k->warmup++;
		else
			k->v[k->n++] = s->pts[i].value;
	}
	free(drop);
}

static const struct table_column stats_cols[] = {
	{ "source", TABLE_STR, 0 }, { "unit", TABLE_STR, 0 }, { "n", TABLE_UINT, 0 },
	{ "warmup", TABLE_UINT, 0 }, { "dup", TABLE_UINT, 0 }, { "nan", TABLE_UINT, 0 },
	{ "mean", TABLE_REAL, 4 }, { "median", TABLE_REAL, 4 }, { "p5", TABLE_REAL, 4 },
	{ "p95", TABLE_REAL, 4 }, { "stddev", TABLE_REAL, 4 }, { "cv_pct", TABLE_PCT, 0 },
	{ "min", TABLE_REAL, 4 }, { "max", TABLE_REAL, 4 },
};

static void stats_row(table *t, const char *source, enum tput_unit unit, size_t nan, const struct kept *k)
{
	struct stats_summary sum;
	double *scratch = xmalloc((k->n ? k->n : 1) * sizeof *scratch);
	memcpy(scratch, k->v, k->n * sizeof *scratch);
	stats_summarize(scratch, k->n, &sum);
	free(scratch);
	table_add_row(t);
	table_set_str(t, 0, source, strlen(source));
	const char *u = tput_unit_names[unit];
	table_set_str(t, 1, u, strlen(u));
	table_set_uint(t, 2, k->n);
	table_set_uint(t, 3, k->warmup);
	table_set_uint(t, 4, k->dups);
	table_set_uint(t, 5, nan);
	double f[] = { sum.mean, sum.median, sum.p5, sum.p95, sum.stddev, sum.cv_pct, sum.min, sum.max };
	for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
		table_set_real(t, 6 + i, f[i]);
}

static void warmup_note(const struct opts *o)
{
	if (o->warmup_pct)
		printf("warm-up: first %g%% of points skipped per series\n", o->warmup);
	else
		printf("warm-up: first %g steps skipped per series\n", o->warmup);
}

static void do_stats(const struct collect *c, const struct opts *o, const struct err_lines *errs)
{
	table *t = table_new(stats_cols, sizeof stats_cols / sizeof stats_cols[0]);
	for (size_t i = 0; i < c->n; i++) {
		struct kept k;
		keep_points(&c->s[i], o, &k);
		stats_row(t, c->s[i].source, c->s[i].unit, c->s[i].nan, &k);
		free(k.v);
	}
	if (o->format == TABLE_TEXT) {
		warmup_note(o);
		printf("bad lines %lu\n", errs->bad);
	}
	table_write(t, stdout, o->format, 0);
	table_free(t);
}

static const struct series *find_unit(const struct collect *c, enum tput_unit unit)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->s[i].unit == unit)
			return &c->s[i];
	return NULL;
}

/* One side of a comparison in one unit: each log loses its own warm-up and duplicates,
 * then the logs are pooled. */
static void side_values(const struct collect *c, enum tput_unit unit, const struct opts *o,
			struct kept *out, size_t *nan)
{
	size_t cap = 0;
	*out = (struct kept){ NULL, 0, 0, 0 };
	*nan = 0;
	for (size_t i = 0; i < c->n; i++) {
		if (c->s[i].unit != unit)
			continue;
		struct kept k;
		keep_points(&c->s[i], o, &k);
		out->v = xgrow(out->v, &cap, out->n + k.n + 1, sizeof *out->v);
		memcpy(out->v + out->n, k.v, k.n * sizeof *k.v);
		out->n += k.n;
		out->warmup += k.warmup;
		out->dups += k.dups;
		*nan += c->s[i].nan;
		free(k.v);
	}
}

static int do_compare(const struct collect *before, const struct collect *after, const struct opts *o,
		      const struct err_lines *errs)
{
	static const struct table_column cols[] = {
		{ "unit", TABLE_STR, 0 }, { "before_n", TABLE_UINT, 0 }, { "after_n", TABLE_UINT, 0 },
		{ "before_median", TABLE_REAL, 4 }, { "after_median", TABLE_REAL, 4 },
		{ "before_cv_pct", TABLE_PCT, 0 }, { "after_cv_pct", TABLE_PCT, 0 },
		{ "speedup", TABLE_REAL, 4 }, { "ci_low", TABLE_REAL, 4 }, { "ci_high", TABLE_REAL, 4 },
		{ "p_value", TABLE_REAL, 6 }, { "verdict", TABLE_STR, 0 },
	};
	table *st = table_new(stats_cols, sizeof stats_cols / sizeof stats_cols[0]);
	table *t = table_new(cols, sizeof cols / sizeof cols[0]);
	char *lines = NULL;
	size_t cap = 0, len = 0;
	int status = EXIT_OK, compared = 0;
	for (size_t i = 0; i < before->n; i++) {
		const struct series *b = &before->s[i];
		if (find_unit(before, b->unit) != b)
			continue;  /* this unit was done with its first log */
		if (!find_unit(after, b->unit)) {
			err_warn("%s: only in the before logs, not compared", tput_unit_names[b->unit]);
			continue;
		}
		struct kept kb, ka;
		size_t nanb, nana;
		side_values(before, b->unit, o, &kb, &nanb);
		side_values(after, b->unit, o, &ka, &nana);
		stats_row(st, "before", b->unit, nanb, &kb);
		stats_row(st, "after", b->unit, nana, &ka);
		struct stats_summary sb, sa;
		double *scratch = xmalloc((kb.n + ka.n + 1) * sizeof *scratch);
		memcpy(scratch, kb.v, kb.n * sizeof *scratch);
		stats_summarize(scratch, kb.n, &sb);
		memcpy(scratch, ka.v, ka.n * sizeof *scratch);
		stats_summarize(scratch, ka.n, &sa);
		free(scratch);
		/* Speedup > 1 is faster in every unit: times per step are read the other way round. */
		int lower = tput_unit_lower_is_better(b->unit);
		struct stats_ratio_ci ci = { NAN, NAN, NAN };
		struct stats_mwu mw = { NAN, NAN, NAN };
		int ok = (lower ? stats_bootstrap_median_ratio(ka.v, ka.n, kb.v, kb.n, STATS_RESAMPLES,
							      STATS_SEED, 0.95, &ci)
				: stats_bootstrap_median_ratio(kb.v, kb.n, ka.v, ka.n, STATS_RESAMPLES,
							      STATS_SEED, 0.95, &ci)) == 0 &&
			 stats_mann_whitney(kb.v, kb.n, ka.v, ka.n, &mw) == 0;
		const char *verdict = "no significant change";
		if (!ok)
			verdict = "not enough data";
		else if (mw.p < 0.05 && ci.low > 1)
			verdict = "faster";
		else if (mw.p < 0.05 && ci.high < 1)
			verdict = "slower";
		table_add_row(t);
		const char *u = tput_unit_names[b->unit];
		table_set_str(t, 0, u, strlen(u));
		table_set_uint(t, 1, kb.n);
		table_set_uint(t, 2, ka.n);
		table_set_real(t, 3, sb.median);
		table_set_real(t, 4, sa.median);
		table_set_real(t, 5, sb.cv_pct);
		table_set_real(t, 6, sa.cv_pct);
		table_set_real(t, 7, ci.ratio);
		table_set_real(t, 8, ci.low);
		table_set_real(t, 9, ci.high);
		table_set_real(t, 10, mw.p);
		table_set_str(t, 11, verdict, strlen(verdict));
		char buf[256];
		int n = snprintf(buf, sizeof buf, "%s: %s: speedup %.4f (95%% CI %.4f to %.4f), Mann-Whitney p %.3g\n",
				 u, verdict, ci.ratio, ci.low, ci.high, mw.p);
		lines = xgrow(lines, &cap, len + (size_t)n + 1, 1);
		memcpy(lines + len, buf, (size_t)n + 1);
		len += (size_t)n;
		compared++;
		if (ok && !isnan(o->fail_below) && ci.high < o->fail_below) {
			err_warn("%s: regression: speedup interval upper bound %.4f is below %g", u, ci.high,
				 o->fail_below);
			status = EXIT_DATA;
		}
		free(kb.v);
		free(ka.v);
	}
	for (size_t i = 0; i < after->n; i++)
		if (find_unit(after, after->s[i].unit) == &after->s[i] && !find_unit(before, after->s[i].unit))
			err_warn("%s: only in the after logs, not compared", tput_unit_names[after->s[i].unit]);
	if (compared == 0) {
		err_warn("no unit in common between the before and after logs");
		status = EXIT_DATA;
	} else if (o->format == TABLE_TEXT) {
		warmup_note(o);
		printf("bad lines %lu\n", errs->bad);
		table_write(st, stdout, o->format, 0);
		putchar('\n');
		table_write(t, stdout, o->format, 0);
		putchar('\n');
		fputs(lines, stdout);
	} else {
		table_write(t, stdout, o->format, 0);
	}
	free(lines);
	table_free(st);
	table_free(t);
	return status;
}

static void list_presets(enum table_format format)
{
	static const struct table_column cols[] = {
		{ "preset", TABLE_STR, 0 }, { "source", TABLE_STR, 0 }, { "unit", TABLE_STR, 0 },
		{ "example", TABLE_STR, 0 },
	};
	table *t = table_new(cols, 4);
	for (size_t i = 0; i < tput_npresets; i++) {
		const struct tput_preset *p = &tput_presets[i];
		const char *unit = p->unit ? p->unit : "from the line";
		table_add_row(t);
		table_set_str(t, 0, p->name, strlen(p->name));
		table_set_str(t, 1, p->source, strlen(p->source));
		table_set_str(t, 2, unit, strlen(unit));
		table_set_str(t, 3, p->example, strlen(p->example));
	}
	table_write(t, stdout, format, 0);
	table_free(t);
}

static void parse_warmup(struct opts *o, const char *value)
{
	size_t len = strlen(value);
	o->warmup_pct = len > 0 && value[len - 1] == '%';
	char *end;
	o->warmup = strtod(value, &end);
	if (end == value || end != value + len - (size_t)o->warmup_pct || !(o->warmup >= 0) ||
	    (o->warmup_pct && o->warmup >= 100))
		cli_usage_error(&spec, "--warmup: expected N steps or P%% below 100, not '%s'", value);
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	struct err_lines errs;
	const char *value;
	int key, first, compare = 0;
	char **regexes = NULL;
	size_t nregex = 0, rcap = 0, bcap = 0, acap = 0;
	char *chosen = xcalloc(tput_npresets, 1);
	int any_preset = 0;

	err_set_prog(argv[0]);
	err_lines_init(&errs);
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	o.unit = -1;
	o.rank = -1;
	o.warmup_pct = 1;
	o.warmup = 10;
	o.fail_below = NAN;
	while ((key = cli_next(&spec, argc, argv, &value, &first)) != -1) {
		switch (key) {
		case OPT_PRESET:
			any_preset = 1;
			if (strcmp(value, "none") != 0) {
				int p = tput_preset_find(value);
				if (p < 0)
					cli_usage_error(&spec, "--preset: unknown preset '%s' (see --list-presets)", value);
				chosen[p] = 1;
			}
			break;
		case OPT_REGEX:
			regexes = xgrow(regexes, &rcap, nregex + 1, sizeof *regexes);
			regexes[nregex++] = (char *)value;
			break;
		case OPT_LIST: o.list = 1; break;
		case OPT_UNIT: {
			enum tput_unit u;
			double scale;
			int inv;
			if (!tput_unit_parse(value, strlen(value), &u, &scale, &inv))
				cli_usage_error(&spec, "--unit: unknown unit '%s'", value);
			o.unit = (int)u;
			break;
		}
		case OPT_RANK: o.rank = (long)cli_ulong(&spec, "--rank", value); break;
		case OPT_STATS: o.stats = 1; break;
		case OPT_WARMUP: parse_warmup(&o, value); break;
		case OPT_PER_RANK: o.per_rank = 1; break;
		case OPT_COMPARE: compare = 1; break;
		case OPT_BEFORE:
			o.before = xgrow(o.before, &bcap, o.nbefore + 1, sizeof *o.before);
			o.before[o.nbefore++] = (char *)value;
			break;
		case OPT_AFTER:
			o.after = xgrow(o.after, &acap, o.nafter + 1, sizeof *o.after);
			o.after[o.nafter++] = (char *)value;
			break;
		case OPT_FAIL_BELOW: o.fail_below = cli_double(&spec, "--fail-below", value); break;
		case OPT_FORMAT:
			o.format = (enum table_format)cli_choice(&spec, "--format", value, table_format_names);
			break;
		case OPT_VERBOSE: o.verbose = errs.verbose = 1; break;
		case OPT_STRICT: o.strict = errs.strict = 1; break;
		case OPT_JOBS:
			o.jobs = (unsigned)cli_ulong(&spec, "--jobs", value);
			if (o.jobs < 1 || o.jobs > MAX_JOBS)
				cli_usage_error(&spec, "invalid value for --jobs: '%s' (1 to 64)", value);
			break;
		default: cli_usage_error(&spec, NULL);
		}
	}
	if (o.list) {
		free(chosen);
		free(regexes);
		free(o.before);
		free(o.after);
		list_presets(o.format);
		err_close_stdout();
		return EXIT_OK;
	}
	char **files = argv + first;
	size_t nfiles = (size_t)(argc - first);
	if (o.nbefore || o.nafter) {
		compare = 1;
		if (!o.nbefore || !o.nafter || nfiles)
			cli_usage_error(&spec, "--before and --after need each other and no other files");
	} else if (compare) {
		if (nfiles != 2)
			cli_usage_error(&spec, "--compare takes two logs, BEFORE and AFTER (or --before/--after)");
		o.before = files;
		o.after = files + 1;
		o.nbefore = o.nafter = 1;
	}
	if (!compare && !isnan(o.fail_below))
		cli_usage_error(&spec, "--fail-below goes with --compare");

	tput_ex *ex = tput_ex_new();
	for (size_t i = 0; i < nregex; i++) {
		char err[256];
		if (tput_ex_add_regex(ex, regexes[i], err, sizeof err) != 0)
			cli_usage_error(&spec, "--regex: %s", err);
	}
	for (size_t i = 0; i < tput_npresets; i++)
		if (!any_preset || chosen[i])
			tput_ex_add_preset(ex, i);
	if (tput_ex_rules(ex) == 0)
		cli_usage_error(&spec, "--preset none leaves no rule: add --regex");
	/* Bad lines are counted; -v names them. */
	errs.limit = 0;
	errs.verbose = o.verbose;

	int status = EXIT_OK;
	struct run r = { &o, ex, &errs, NULL, NULL, 0, 0 };
	if (compare) {
		struct collect before = { NULL, 0, 0 }, after = { NULL, 0, 0 };
		r.col = &before;
		status |= read_logs(&r, o.before, o.nbefore);
		unsigned long nb = r.points;
		r.col = &after;
		r.points = 0;
		status |= read_logs(&r, o.after, o.nafter);
		if (nb == 0 || r.points == 0) {
			no_match(ex, nb == 0 ? "the before logs" : "the after logs");
			status = EXIT_DATA;
		} else {
			status |= do_compare(&before, &after, &o, &errs);
		}
		collect_free(&before);
		collect_free(&after);
	} else {
		struct collect c = { NULL, 0, 0 };
		if (o.stats)
			r.col = &c;
		status |= read_logs(&r, files, nfiles);
		if (r.points == 0) {
			no_match(ex, nfiles ? "the input" : "standard input");
			status = EXIT_DATA;
		} else if (o.stats) {
			do_stats(&c, &o, &errs);
		}
		if (o.verbose && r.nans)
			err_warn("%lu nan value%s counted and left out", r.nans, r.nans == 1 ? "" : "s");
		collect_free(&c);
	}
	if (errs.bad && !o.verbose)
		err_warn("%lu bad line%s left out (-v names them)", errs.bad, errs.bad == 1 ? "" : "s");
	err_close_stdout();
	tput_ex_free(ex);
	free(chosen);
	free(regexes);
	if (o.before != files) {
		free(o.before);
		free(o.after);
	}
	return status ? EXIT_DATA : EXIT_OK;
}
