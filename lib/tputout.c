/* tputout: sift-tput's output: series rows (printf-free for the common numbers, since there
 * is one per matched line), the stats and comparison tables, the preset list. */
#include "tputout.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A row being built in its caller's buffer of TPUTOUT_ROW_MAX bytes. */
struct row {
	char *buf;
	size_t len;
};

static void row_put(struct row *r, const char *s, size_t n)
{
	if (n > TPUTOUT_ROW_MAX - r->len)  /* cannot happen: see TPUTOUT_ROW_MAX */
		abort();
	char *d = r->buf + r->len;
	/* most pieces are a few bytes: copies of fixed sizes, overlapping, cost no call */
	if (n >= 8 && n <= 16) {
		memcpy(d, s, 8);
		memcpy(d + n - 8, s + n - 8, 8);
	} else if (n >= 4 && n < 8) {
		memcpy(d, s, 4);
		memcpy(d + n - 4, s + n - 4, 4);
	} else if (n > 0 && n < 4) {
		d[0] = s[0];
		d[n / 2] = s[n / 2];
		d[n - 1] = s[n - 1];
	} else {
		memcpy(d, s, n);
	}
	r->len += n;
}

/* "00" to "99": digits two at a time (a row has a dozen numbers or more). */
static const char digit_pairs[] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* Digits of u with `frac` of them after a point (trailing zeros already dropped). */
static void row_fixed(struct row *r, int neg, unsigned long long u, int frac)
{
	char buf[40], *end = buf + sizeof buf, *p = end;
	for (; u >= 100; u /= 100) {
		p -= 2;
		memcpy(p, digit_pairs + 2 * (u % 100), 2);
	}
	if (u >= 10) {
		p -= 2;
		memcpy(p, digit_pairs + 2 * u, 2);
	} else {
		*--p = (char)('0' + u);
	}
	while (end - p < frac + 1)  /* "0.05": at least one digit before the point */
		*--p = '0';
	if (frac) {  /* the whole part one to the left, the point after it */
		size_t whole = (size_t)(end - p) - (size_t)frac;
		memmove(p - 1, p, whole);
		p--;
		p[whole] = '.';
	}
	if (neg)
		*--p = '-';
	row_put(r, p, (size_t)(end - p));
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

/* "\trank\tstep\ttime\t" */
static void row_head(struct row *r, const struct tput_point *pt)
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
}

/* "value\tunit\t" */
static void row_value(struct row *r, const struct tput_point *pt)
{
	row_num(r, pt->value);
	row_put(r, "\t", 1);
	row_put(r, tputunit_names[pt->unit], strlen(tputunit_names[pt->unit]));
	row_put(r, "\t", 1);
}

size_t tputout_row(char *buf, const struct tput_point *pt)
{
	struct row r = { buf, 0 };
	row_head(&r, pt);
	row_value(&r, pt);
	row_num(&r, pt->loss);
	row_put(&r, "\n", 1);
	return r.len;
}

size_t tputout_row_cached(struct tputout_cache *c, char *buf, const struct tput_point *pt)
{
	struct row r = { buf, 0 };
	if (!c->have || c->rank != pt->rank || c->step != pt->step || memcmp(&c->time, &pt->time, sizeof c->time) != 0) {
		row_head(&r, pt);
		c->have = r.len <= sizeof c->head;
		if (c->have) {
			memcpy(c->head, buf, r.len);
			c->head_len = (unsigned char)r.len;
			c->rank = pt->rank;
			c->step = pt->step;
			c->time = pt->time;
			c->loss_len = 0;  /* unknown */
		}
	} else {
		row_put(&r, c->head, c->head_len);
	}
	row_value(&r, pt);
	if (c->have && c->loss_len && memcmp(&c->loss, &pt->loss, sizeof c->loss) == 0) {
		row_put(&r, c->loss_text, c->loss_len);
	} else {
		size_t at = r.len;
		row_num(&r, pt->loss);
		row_put(&r, "\n", 1);
		if (c->have && r.len - at <= sizeof c->loss_text) {
			memcpy(c->loss_text, buf + at, r.len - at);
			c->loss_len = (unsigned char)(r.len - at);
			c->loss = pt->loss;
		}
	}
	return r.len;
}

void tputout_presets(FILE *out, enum table_format format)
{
	static const struct table_column cols[] = {
		{ "preset", TABLE_STR, 0 }, { "source", TABLE_STR, 0 }, { "unit", TABLE_STR, 0 },
		{ "example", TABLE_STR, 0 },
	};
	table *t = table_new(cols, 4);
	for (size_t i = 0; i < tputpreset_count; i++) {
		const struct tput_preset *p = &tputpreset_table[i];
		const char *unit = p->unit ? p->unit : "from the line";
		table_add_row(t);
		table_set_str(t, 0, p->name, strlen(p->name));
		table_set_str(t, 1, p->source, strlen(p->source));
		table_set_str(t, 2, unit, strlen(unit));
		table_set_str(t, 3, p->example, strlen(p->example));
	}
	table_write(t, out, format, 0);
	table_free(t);
}

const char *const tputout_series_columns[TPUTOUT_SERIES_NCOLS] = {
	"source", "line", "rank", "step", "time", "value", "unit", "loss",
};

const char *const tputout_stats_columns[TPUTOUT_STATS_NCOLS] = {
	"source", "unit", "n", "warmup", "dup", "nan", "mean", "median", "p5", "p95", "stddev", "cv_pct", "min", "max",
};

const char *const tputout_compare_columns[TPUTOUT_CMP_NCOLS] = {
	"unit", "before_n", "after_n", "before_median", "after_median", "before_cv_pct", "after_cv_pct",
	"before_batches", "after_batches", "speedup", "ci_low", "ci_high", "p_value", "verdict",
};

/* A table of a schema's names and these types. */
static table *schema_table(const char *const *names, const struct table_column *types, size_t n)
{
	_Static_assert((int)TPUTOUT_CMP_NCOLS <= 16 && (int)TPUTOUT_STATS_NCOLS <= 16, "a schema past 16 columns");
	struct table_column cols[16];
	for (size_t i = 0; i < n; i++)
		cols[i] = (struct table_column){ names[i], types[i].type, types[i].decimals };
	return table_new(cols, n);
}

/* Six significant digits: a slow run's 1/813 it/s keeps its figure (0.00123001). */
static const struct table_column stats_types[TPUTOUT_STATS_NCOLS] = {
	[TPUTOUT_ST_SOURCE] = { NULL, TABLE_STR, 0 }, [TPUTOUT_ST_UNIT] = { NULL, TABLE_STR, 0 },
	[TPUTOUT_ST_N] = { NULL, TABLE_UINT, 0 }, [TPUTOUT_ST_WARMUP] = { NULL, TABLE_UINT, 0 },
	[TPUTOUT_ST_DUP] = { NULL, TABLE_UINT, 0 }, [TPUTOUT_ST_NAN] = { NULL, TABLE_UINT, 0 },
	[TPUTOUT_ST_MEAN] = { NULL, TABLE_SIG, 6 }, [TPUTOUT_ST_MEDIAN] = { NULL, TABLE_SIG, 6 },
	[TPUTOUT_ST_P5] = { NULL, TABLE_SIG, 6 }, [TPUTOUT_ST_P95] = { NULL, TABLE_SIG, 6 },
	[TPUTOUT_ST_STDDEV] = { NULL, TABLE_SIG, 6 }, [TPUTOUT_ST_CV_PCT] = { NULL, TABLE_PCT, 0 },
	[TPUTOUT_ST_MIN] = { NULL, TABLE_SIG, 6 }, [TPUTOUT_ST_MAX] = { NULL, TABLE_SIG, 6 },
};

static const struct table_column compare_types[TPUTOUT_CMP_NCOLS] = {
	[TPUTOUT_CMP_UNIT] = { NULL, TABLE_STR, 0 }, [TPUTOUT_CMP_BEFORE_N] = { NULL, TABLE_UINT, 0 },
	[TPUTOUT_CMP_AFTER_N] = { NULL, TABLE_UINT, 0 }, [TPUTOUT_CMP_BEFORE_MEDIAN] = { NULL, TABLE_SIG, 6 },
	[TPUTOUT_CMP_AFTER_MEDIAN] = { NULL, TABLE_SIG, 6 }, [TPUTOUT_CMP_BEFORE_CV_PCT] = { NULL, TABLE_PCT, 0 },
	[TPUTOUT_CMP_AFTER_CV_PCT] = { NULL, TABLE_PCT, 0 }, [TPUTOUT_CMP_BEFORE_BATCHES] = { NULL, TABLE_UINT, 0 },
	[TPUTOUT_CMP_AFTER_BATCHES] = { NULL, TABLE_UINT, 0 }, [TPUTOUT_CMP_SPEEDUP] = { NULL, TABLE_REAL, 4 },
	[TPUTOUT_CMP_CI_LOW] = { NULL, TABLE_REAL, 4 }, [TPUTOUT_CMP_CI_HIGH] = { NULL, TABLE_REAL, 4 },
	[TPUTOUT_CMP_P_VALUE] = { NULL, TABLE_REAL, 6 }, [TPUTOUT_CMP_VERDICT] = { NULL, TABLE_STR, 0 },
};

static void stats_row(table *t, const char *source, enum tput_unit unit, size_t nan, const struct series_kept *k,
		      const struct stats_summary *sum)
{
	table_add_row(t);
	table_set_str(t, TPUTOUT_ST_SOURCE, source, strlen(source));
	const char *u = tputunit_names[unit];
	table_set_str(t, TPUTOUT_ST_UNIT, u, strlen(u));
	table_set_uint(t, TPUTOUT_ST_N, k->n);
	table_set_uint(t, TPUTOUT_ST_WARMUP, k->warmup);
	table_set_uint(t, TPUTOUT_ST_DUP, k->dups);
	table_set_uint(t, TPUTOUT_ST_NAN, nan);
	double f[] = { sum->mean, sum->median, sum->p5, sum->p95, sum->stddev, sum->cv_pct, sum->min, sum->max };
	for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
		table_set_real(t, TPUTOUT_ST_MEAN + i, f[i]);
}

/* Text output starts with what was left out. */
static void text_note(FILE *out, const struct series_keep *how, unsigned long bad)
{
	if (how->pct)
		fprintf(out, "warm-up: first %g%% of points skipped per series\n", how->warmup);
	else
		fprintf(out, "warm-up: first %g steps skipped per series\n", how->warmup);
	fprintf(out, "bad lines %lu\n", bad);
}

void tputout_stats(FILE *out, const struct series_set *set, const struct series_keep *how,
		   enum table_format format, unsigned long bad)
{
	table *t = schema_table(tputout_stats_columns, stats_types, TPUTOUT_STATS_NCOLS);
	for (size_t i = 0; i < set->n; i++) {
		struct series_kept k;
		struct stats_summary sum;
		series_keep(&set->s[i], how, &k);
		series_summary(&k, &sum);
		stats_row(t, set->s[i].source, set->s[i].unit, set->s[i].nan, &k, &sum);
		free(k.v);
	}
	if (format == TABLE_TEXT)
		text_note(out, how, bad);
	table_write(t, out, format, 0);
	table_free(t);
}

void tputout_compare(FILE *out, const struct series_unit_cmp *c, size_t n, const struct series_keep *how,
		     enum table_format format, unsigned long bad)
{
	table *st = schema_table(tputout_stats_columns, stats_types, TPUTOUT_STATS_NCOLS);
	table *t = schema_table(tputout_compare_columns, compare_types, TPUTOUT_CMP_NCOLS);
	for (size_t i = 0; i < n; i++) {
		const struct series_cmp *m = &c[i].cmp;
		if (c[i].side != SERIES_BOTH)
			continue;
		stats_row(st, "before", c[i].unit, c[i].before_nan, &c[i].before, &m->before);
		stats_row(st, "after", c[i].unit, c[i].after_nan, &c[i].after, &m->after);
		table_add_row(t);
		const char *u = tputunit_names[c[i].unit];
		table_set_str(t, TPUTOUT_CMP_UNIT, u, strlen(u));
		table_set_uint(t, TPUTOUT_CMP_BEFORE_N, c[i].before.n);
		table_set_uint(t, TPUTOUT_CMP_AFTER_N, c[i].after.n);
		double f[] = { m->before.median, m->after.median, m->before.cv_pct, m->after.cv_pct };
		for (size_t j = 0; j < sizeof f / sizeof f[0]; j++)
			table_set_real(t, TPUTOUT_CMP_BEFORE_MEDIAN + j, f[j]);
		table_set_uint(t, TPUTOUT_CMP_BEFORE_BATCHES, m->batches[0]);
		table_set_uint(t, TPUTOUT_CMP_AFTER_BATCHES, m->batches[1]);
		double g[] = { m->speedup, m->low, m->high, m->p };
		for (size_t j = 0; j < sizeof g / sizeof g[0]; j++)
			table_set_real(t, TPUTOUT_CMP_SPEEDUP + j, g[j]);
		table_set_str(t, TPUTOUT_CMP_VERDICT, m->verdict, strlen(m->verdict));
	}
	if (format == TABLE_TEXT) {
		text_note(out, how, bad);
		table_write(st, out, format, 0);
		putc('\n', out);
		table_write(t, out, format, 0);
		putc('\n', out);
		for (size_t i = 0; i < n; i++) {
			const struct series_unit_cmp *u = &c[i];
			if (u->side != SERIES_BOTH)
				continue;
			fprintf(out, "%s: %s: speedup %.4f (95%% CI %.4f to %.4f), paired t on %zu batch medians a side%s, "
				"p %.3g\n", tputunit_names[u->unit], u->cmp.verdict, u->cmp.speedup, u->cmp.low,
				u->cmp.high, u->cmp.batches[0],
				u->cmp.paired == PAIRED_BY_STEP ? " (the same steps)"
				: u->cmp.paired == PAIRED_BY_PLACE ? " (the same place in each run)" : "", u->cmp.p);
			if (u->before.cumulative || u->after.cumulative)
				fprintf(out, "%s: a cumulative average (the clock over the steps): compared as per-step "
					"values, the clock's differences\n", tputunit_names[u->unit]);
		}
	} else {
		table_write(t, out, format, 0);
	}
	table_free(st);
	table_free(t);
}

void tputout_explain(FILE *out, const struct tputout_cand *c, size_t n, enum table_format format)
{
	static const struct table_column cols[] = {
		{ "source", TABLE_STR, 0 }, { "template", TABLE_UINT, 0 }, { "lines", TABLE_UINT, 0 },
		{ "first_line", TABLE_UINT, 0 }, { "key", TABLE_STR, 0 }, { "unit", TABLE_STR, 0 },
		{ "n", TABLE_UINT, 0 }, { "median", TABLE_SIG, 6 }, { "taken", TABLE_STR, 0 },
		{ "reason", TABLE_STR, 0 }, { "example", TABLE_STR, 0 },
	};
	if (n == 0 && format == TABLE_TEXT) {  /* the message on stderr says what was tried */
		fputs("no candidate series: no line held a figure the reader could name\n", out);
		return;
	}
	size_t ncols = sizeof cols / sizeof cols[0] - (format == TABLE_TEXT);  /* text: examples below */
	table *t = table_new(cols, ncols);
	for (size_t i = 0; i < n; i++) {
		const struct tputout_cand *k = &c[i];
		const char *unit = tputunit_names[k->c.unit], *taken = k->c.taken ? "yes" : "no";
		table_add_row(t);
		table_set_str(t, 0, k->source, strlen(k->source));
		table_set_uint(t, 1, (uint64_t)k->c.number);
		table_set_uint(t, 2, k->c.lines);
		table_set_uint(t, 3, k->c.first_line);
		table_set_str(t, 4, k->key, strlen(k->key));
		table_set_str(t, 5, unit, strlen(unit));
		table_set_uint(t, 6, k->c.n);
		table_set_real(t, 7, k->median);
		table_set_str(t, 8, taken, strlen(taken));
		table_set_str(t, 9, k->c.why, strlen(k->c.why));
		if (ncols > 10)
			table_set_str(t, 10, k->example, strlen(k->example));
	}
	table_write(t, out, format, TABLE_TEXT_WIDE);
	table_free(t);
	if (format != TABLE_TEXT)
		return;
	for (size_t i = 0; i < n; i++)
		if (c[i].example[0] && (i == 0 || c[i].c.tmpl != c[i - 1].c.tmpl || strcmp(c[i].source, c[i - 1].source)))
			fprintf(out, "%s#%d line %lu: %s\n", i ? "" : "\n", c[i].c.number, c[i].c.first_line, c[i].example);
}

void tputout_best_cands(char *buf, size_t cap, const struct tputout_cand *c, size_t n)
{
	int shown[3] = { -1, -1, -1 };
	for (int k = 0; k < 3; k++)
		for (size_t i = 0; i < n; i++) {
			if (c[i].c.taken || (int)i == shown[0] || (int)i == shown[1])
				continue;
			if (shown[k] < 0 || c[i].c.n > c[shown[k]].c.n)
				shown[k] = (int)i;
		}
	size_t len = 0;
	buf[0] = '\0';
	for (int k = 0; k < 3 && shown[k] >= 0 && len < cap; k++) {
		const struct tputout_cand *b = &c[shown[k]];
		len += (size_t)snprintf(buf + len, cap - len, "%s#%d %s%s%s%s (%zu figure%s, line %lu): %s", k ? "; " : "",
					b->c.number, tputunit_names[b->c.unit], b->key[0] ? " '" : "", b->key,
					b->key[0] ? "'" : "", b->c.n, b->c.n == 1 ? "" : "s", b->c.first_line, b->c.why);
	}
}
