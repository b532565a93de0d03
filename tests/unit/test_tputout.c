/* test_tputout: series rows spelled as printf would (fast path and fallbacks), and the
 * stats, comparison and preset tables as sift-tput writes them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tputout.h"

static void assert_row(const struct tput_point *pt, const char *want)
{
	char buf[TPUTOUT_ROW_MAX];
	size_t n = tputout_row(buf, pt);
	assert_int_equal(n, strlen(want));
	assert_memory_equal(buf, want, n);
}

static struct tput_point point(long rank, long long step, double time, double value, enum tput_unit unit,
			       double loss)
{
	return (struct tput_point){ rank, step, time, value, unit, loss, 0, 0, 0, 0 };
}

static void test_row_fields(void **state)
{
	(void)state;
	assert_row(&(struct tput_point){ 3, 120, 1714564800.123, 5856.5, TPUT_TOKENS_S, 2.25, 0, 0, 0, 0 },
		   "\t3\t120\t1714564800.123\t5856.5\ttokens/s\t2.25\n");
	/* Unknown rank, step, time and loss stay empty. */
	assert_row(&(struct tput_point){ -1, -1, NAN, 42, TPUT_IT_S, NAN, 0, 0, 0, 0 }, "\t\t\t\t42\tit/s\t\n");
	assert_row(&(struct tput_point){ 0, 0, 0, 0, TPUT_MFU, 0, 0, 0, 0, 0 }, "\t0\t0\t0\t0\tMFU%\t0\n");
}

/* Rows through the cache spell exactly what tputout_row does, whatever the row before was. */
/* The series' header is its schema's names, as sift-plot knows them. */
static void test_series_schema(void **state)
{
	(void)state;
	char head[128] = "";
	for (size_t i = 0; i < TPUTOUT_SERIES_NCOLS; i++) {
		strcat(head, tputout_series_columns[i]);
		strcat(head, i + 1 < TPUTOUT_SERIES_NCOLS ? "\t" : "\n");
	}
	assert_string_equal(head, TPUTOUT_HEADER);
	assert_string_equal(tputout_stats_columns[TPUTOUT_ST_MEDIAN], "median");
	assert_string_equal(tputout_compare_columns[TPUTOUT_CMP_VERDICT], "verdict");
}

static void test_row_cached(void **state)
{
	(void)state;
	const struct tput_point pts[] = {
		point(3, 120, 1714564800.123, 5856.5, TPUT_TOKENS_S_GPU, 2.25),
		point(3, 120, 1714564800.123, 301.2, TPUT_TFLOPS_GPU, 2.25),   /* same head and loss */
		point(3, 120, 1714564800.123, 30.45, TPUT_MFU, NAN),           /* another loss */
		point(3, 121, 1714564800.123, 30.45, TPUT_MFU, NAN),           /* another step */
		point(-1, 121, NAN, 7, TPUT_IT_S, NAN),
		point(-1, 121, NAN, 8, TPUT_IT_S, 1.5),
		point(2, 121, NAN, 8, TPUT_IT_S, 1.5),                         /* another rank */
		point(2, 121, 1e300, 8, TPUT_IT_S, 1.5),                       /* a head too long to keep */
		point(2, 121, 1e300, 9, TPUT_IT_S, 1.5),
		point(2, 121, 5, 9, TPUT_IT_S, -0.0),
		point(2, 121, 5, 9, TPUT_IT_S, 0.0),
	};
	struct tputout_cache cache = { 0 };
	for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
		char want[TPUTOUT_ROW_MAX], got[TPUTOUT_ROW_MAX];
		size_t n = tputout_row(want, &pts[i]);
		assert_int_equal(tputout_row_cached(&cache, got, &pts[i]), n);
		assert_memory_equal(got, want, n);
	}
}

static void test_row_numbers(void **state)
{
	(void)state;
	/* The way %.10g spells them, with or without printf. */
	static const struct {
		double v;
		const char *s;
	} cases[] = {
		{ -0.5, "-0.5" }, { 0.1, "0.1" }, { 7.9012, "7.9012" }, { 0.0001, "0.0001" },
		{ 1e-05, "1e-05" }, { 123456.123456, "123456.1235" }, { 1234567890.5, "1234567890" },
		{ 123456789.123, "123456789.1" }, { 1e15, "1e+15" }, { 1.5e20, "1.5e+20" }, { -3, "-3" },
		{ 2.0 / 3, "0.6666666667" },
		/* but whole numbers below 1e15 keep every digit */
		{ 999999999999999.0, "999999999999999" }, { -12345678901.0, "-12345678901" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char want[64], fmt[32];
		snprintf(fmt, sizeof fmt, "%.10g", cases[i].v);
		if (fabs(cases[i].v) < 1e10 || fabs(cases[i].v) >= 1e15)
			assert_string_equal(fmt, cases[i].s);
		snprintf(want, sizeof want, "\t\t\t\t%s\tvalue\t%s\n", cases[i].s, cases[i].s);
		struct tput_point pt = point(-1, -1, NAN, cases[i].v, TPUT_VALUE, cases[i].v);
		assert_row(&pt, want);
	}
}

static void test_row_times(void **state)
{
	(void)state;
	/* %.6f with its trailing zeros dropped. */
	static const struct {
		double t;
		const char *s;
	} cases[] = {
		{ 1714564800, "1714564800" }, { 0.000001, "0.000001" }, { 0.0000004, "0" },
		{ 12.5, "12.5" }, { 1e10 + 0.25, "10000000000.25" }, { 1e17, "100000000000000000" },
		{ 0.1234567, "0.123457" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char want[64];
		snprintf(want, sizeof want, "\t\t\t%s\t1\tms/step\t\n", cases[i].s);
		struct tput_point pt = point(-1, -1, cases[i].t, 1, TPUT_MS_STEP, NAN);
		assert_row(&pt, want);
	}
	/* The longest row fits. */
	char buf[TPUTOUT_ROW_MAX];
	struct tput_point pt = point(9223372036854775807L, 9223372036854775807LL, 1.7e308, -1.7e308,
				     TPUT_SAMPLES_S_GPU, -1e-300);
	assert_int_equal(tputout_row(buf, &pt), 383);
	assert_int_equal(buf[382], '\n');
}

/* What fn writes to a file, as a string (caller frees). */
static char *written(void (*fn)(FILE *, void *), void *arg)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	fn(f, arg);
	assert_int_equal(fclose(f), 0);
	return text;
}

struct stats_call {
	struct series_set *set;
	struct series_keep keep;
	enum table_format format;
};

static void call_stats(FILE *f, void *arg)
{
	struct stats_call *c = arg;
	tputout_stats(f, c->set, &c->keep, c->format, 3);
}

static void test_stats_table(void **state)
{
	(void)state;
	struct series_set set = { NULL, 0, 0 };
	struct series *s = series_get(&set, "a.log", TPUT_TOKENS_S);
	const double v[] = { 99, 10, 20, 30, 40 };
	for (size_t i = 0; i < 5; i++)
		series_add(s, (struct series_point){ v[i], (long long)i, 0, NAN });
	series_add(s, (struct series_point){ 1000, 4, 1, NAN });  /* rank 1's copy of step 4 */
	s->nan = 2;
	struct stats_call c = { &set, { 0, 0, 1 }, TABLE_TSV };
	char *text = written(call_stats, &c);
	/* 10 20 30 40: p5 = 10 + 0.15 * 10, stddev sqrt(500/3), cv 100 * 12.9099 / 25 */
	assert_string_equal(text,
			    "source\tunit\tn\twarmup\tdup\tnan\tmean\tmedian\tp5\tp95\tstddev\tcv_pct\tmin\tmax\n"
			    "a.log\ttokens/s\t4\t1\t1\t2\t25.0000\t25.0000\t11.5000\t38.5000\t12.9099\t51.64\t10.0000\t40.0000\n");
	free(text);
	c.format = TABLE_TEXT;
	c.keep = (struct series_keep){ 1, 1, 50 };
	text = written(call_stats, &c);
	/* per rank: 6 points, the first 3 warm; 30 40 1000: p95 = 40 + 0.9 * 960,
	 * stddev sqrt(((-326.67)^2 + (-316.67)^2 + 643.33^2) / 2) */
	assert_string_equal(text,
			    "warm-up: first 50% of points skipped per series\n"
			    "bad lines 3\n"
			    "source  unit      n  warmup  dup  nan     mean   median       p5      p95   stddev  cv_pct      min      max\n"
			    "a.log   tokens/s  3       3    0    2  356.667  40.0000  31.0000  904.000  557.165  156.21  30.0000  1000.00\n");
	free(text);
	series_set_free(&set);
}

struct compare_call {
	struct series_unit_cmp *c;
	size_t n;
	enum table_format format;
};

static void call_compare(FILE *f, void *arg)
{
	struct compare_call *c = arg;
	tputout_compare(f, c->c, c->n, &(struct series_keep){ 0, 0, 0 }, c->format, 0);
}

static void test_compare_output(void **state)
{
	(void)state;
	struct series_set before = { NULL, 0, 0 }, after = { NULL, 0, 0 };
	for (int i = 0; i < 5; i++) {
		series_add(series_get(&before, "b", TPUT_IT_S), (struct series_point){ 100, i, 0, NAN });
		series_add(series_get(&after, "a", TPUT_IT_S), (struct series_point){ 200, i, 0, NAN });
	}
	series_add(series_get(&before, "b", TPUT_MFU), (struct series_point){ 30, 0, 0, NAN });
	series_get(&after, "a", TPUT_IT_S)->nan = 1;
	struct compare_call c = { NULL, 0, TABLE_TSV };
	c.c = series_compare(&before, &after, &(struct series_keep){ 0, 0, 0 }, SERIES_MIN_EFFECT, &c.n);
	assert_int_equal(c.n, 2);  /* MFU% only before: left out of the tables */
	char *text = written(call_compare, &c);
	assert_string_equal(text,
			    "unit\tbefore_n\tafter_n\tbefore_median\tafter_median\tbefore_cv_pct\tafter_cv_pct\t"
			    "before_batches\tafter_batches\tspeedup\tci_low\tci_high\tp_value\tverdict\n"
			    "it/s\t5\t5\t100.000\t200.000\t0.00\t0.00\t2\t2\t2.0000\t2.0000\t2.0000\t0.000000\tfaster\n");
	free(text);
	c.format = TABLE_TEXT;
	text = written(call_compare, &c);
	assert_string_equal(text,
			    "warm-up: first 0 steps skipped per series\n"
			    "bad lines 0\n"
			    "source  unit  n  warmup  dup  nan     mean   median       p5      p95  stddev  cv_pct      min      max\n"
			    "before  it/s  5       0    0    0  100.000  100.000  100.000  100.000       0    0.00  100.000  100.000\n"
			    "after   it/s  5       0    0    1  200.000  200.000  200.000  200.000       0    0.00  200.000  200.000\n"
			    "\n"
			    "unit  before_n  after_n  before_median  after_median  before_cv_pct  after_cv_pct  before_batches  after_batches  speedup  ci_low  ci_high   p_value  verdict\n"
			    "it/s         5        5        100.000       200.000           0.00          0.00               2              2   2.0000  2.0000   2.0000  0.000000  faster\n"
			    "\n"
			    "it/s: faster: speedup 2.0000 (95% CI 2.0000 to 2.0000), paired t on 2 batch medians a side (the same steps), p 0\n");
	free(text);
	free(c.c);
	series_set_free(&before);
	series_set_free(&after);
}

static void call_presets(FILE *f, void *arg)
{
	(void)arg;
	tputout_presets(f, TABLE_TSV);
}

static void test_presets(void **state)
{
	(void)state;
	char *text = written(call_presets, NULL);
	const struct tput_preset *p = &tputpreset_table[0];
	char want[1024];
	snprintf(want, sizeof want, "preset\tsource\tunit\texample\n%s\t%s\t%s\t%s\n", p->name, p->source,
		 p->unit ? p->unit : "from the line", p->example);
	assert_memory_equal(text, want, strlen(want));
	size_t lines = 0;
	for (const char *c = text; *c; c++)
		lines += *c == '\n';
	assert_int_equal(lines, tputpreset_count + 1);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_row_fields),
		cmocka_unit_test(test_series_schema),
		cmocka_unit_test(test_row_cached),
		cmocka_unit_test(test_row_numbers),
		cmocka_unit_test(test_row_times),
		cmocka_unit_test(test_stats_table),
		cmocka_unit_test(test_compare_output),
		cmocka_unit_test(test_presets),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
