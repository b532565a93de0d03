/* test_diff: two sums joined per key: shares, delta, ratio, NEW/GONE, the order, per-work
 * rates, pairs; intervals, p and q values (counts or replicates), significant rows first;
 * --fail-if-grows gates on the interval and their message; difffolded lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"

#include "diff.h"
#include "err.h"
#include "stacks.h"


/* Before: a 60, b 30, c 10 under m; after: a 40, b 30, d 30 under m. */
static void profiles(prof **before, prof **after)
{
	*before = prof_new();
	add(*before, "m;a", 60);
	add(*before, "m;b", 30);
	add(*before, "m;c", 10);
	*after = prof_new();
	add(*after, "m;a", 40);
	add(*after, "m;b", 30);
	add(*after, "m;d", 30);
}

static char *written(const table *t, enum table_format format)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(table_write(t, f, format, 0), 0);
	fclose(f);
	return buf;
}

struct fixture { prof *p[2]; agg *a[2]; };

static void sums(struct fixture *f, const struct agg_spec *spec)
{
	profiles(&f->p[0], &f->p[1]);
	for (int s = 0; s < 2; s++)
		f->a[s] = agg_new_spec(f->p[s], spec);
}

static void release(struct fixture *f)
{
	for (int s = 0; s < 2; s++) {
		agg_free(f->a[s]);
		prof_free(f->p[s]);
	}
}

static const struct agg_spec by_frame = { { KEY_FRAME, KEY_FRAME }, 1, NULL, 0 };

static void test_self_shares(void **state)
{
	(void)state;
	struct fixture f;
	sums(&f, &by_frame);
	struct diff_base base = { { KEY_FRAME, KEY_FRAME }, 1, 0, { 0, 0 }, { 100, 100 }, { NULL, NULL }, { 0, 0 }, { NULL, NULL }, NULL, 0, 0, 1 };
	diff *d = diff_new(f.a[0], f.a[1], &base);
	/* m has no self samples on either side: left out. By the size of the change. */
	assert_int_equal(diff_row_count(d), 4);
	const struct diff_row *r = diff_rows(d);
	size_t len;
	assert_string_equal(diff_key(d, &r[0], 0, &len), "d");
	assert_true(r[0].count[0] == 0 && r[0].count[1] == 30);
	assert_true(r[0].share[0] == 0.0 && r[0].share[1] == 30.0 && r[0].delta == 30.0);
	assert_null(r[0].key.side[0]);
	assert_string_equal(diff_key(d, &r[1], 0, &len), "a");
	assert_true(r[1].share[0] == 60.0 && r[1].share[1] == 40.0 && r[1].delta == -20.0);
	assert_string_equal(diff_key(d, &r[2], 0, &len), "c");
	assert_true(r[2].count[1] == 0 && r[2].delta == -10.0);
	assert_string_equal(diff_key(d, &r[3], 0, &len), "b");
	assert_true(r[3].delta == 0.0);
	table *t = diff_table(d, 0, 0);
	char *text = written(t, TABLE_TSV);
	assert_string_equal(text,
		"frame\tbefore\tafter\tbefore_pct\tafter_pct\tdelta_pts\tratio\tflag\tdelta_ci_low\tdelta_ci_high\tp_value\tq_value\tsig\n"
		"d\t0\t30\t0.00\t30.00\t30.00\t\tNEW\t21.02\t38.98\t0.0000\t0.0000\t*\n"
		"a\t60\t40\t60.00\t40.00\t-20.00\t0.67\t\t-33.58\t-6.42\t0.0047\t0.0062\t*\n"
		"c\t10\t0\t10.00\t0.00\t-10.00\t0.00\tGONE\t-15.88\t-4.12\t0.0012\t0.0024\t*\n"
		"b\t30\t30\t30.00\t30.00\t0.00\t1.00\t\t-12.70\t12.70\t1.0000\t1.0000\t\n");
	free(text);
	table_free(t);
	t = diff_table(d, 1, 0);
	assert_int_equal(table_rows(t), 1);
	table_free(t);
	diff_free(d);
	release(&f);
}

static void test_total_and_ties(void **state)
{
	(void)state;
	struct fixture f;
	sums(&f, &by_frame);
	/* Shares of 200 samples each: equal changes tie on samples, then on key text. */
	struct diff_base base = { { KEY_FRAME, KEY_FRAME }, 1, 1, { 0, 0 }, { 200, 200 }, { NULL, NULL }, { 0, 0 }, { NULL, NULL }, NULL, 0, 0, 1 };
	diff *d = diff_new(f.a[0], f.a[1], &base);
	table *t = diff_table(d, 0, 0);
	char *text = written(t, TABLE_TSV);
	assert_string_equal(text,
		"frame\tbefore_total\tafter_total\tbefore_pct\tafter_pct\tdelta_pts\tratio\tflag\tdelta_ci_low\tdelta_ci_high\tp_value\tq_value\tsig\n"
		"d\t0\t30\t0.00\t15.00\t15.00\t\tNEW\t10.05\t19.95\t0.0000\t0.0000\t*\n"
		"a\t60\t40\t30.00\t20.00\t-10.00\t0.67\t\t-18.43\t-1.57\t0.0209\t0.0349\t*\n"
		"c\t10\t0\t5.00\t0.00\t-5.00\t0.00\tGONE\t-8.02\t-1.98\t0.0014\t0.0034\t*\n"
		"m\t100\t100\t50.00\t50.00\t0.00\t1.00\t\t-9.80\t9.80\t1.0000\t1.0000\t\n"
		"b\t30\t30\t15.00\t15.00\t0.00\t1.00\t\t-7.00\t7.00\t1.0000\t1.0000\t\n");
	free(text);
	table_free(t);
	diff_free(d);
	release(&f);

	/* Same change, same samples: by key text. */
	prof *p[2] = { prof_new(), prof_new() };
	add(p[0], "y", 10);
	add(p[0], "x", 10);
	add(p[1], "y", 10);
	add(p[1], "x", 10);
	agg *a[2] = { agg_new(p[0], KEY_FRAME), agg_new(p[1], KEY_FRAME) };
	struct diff_base b2 = { { KEY_FRAME, KEY_FRAME }, 1, 0, { 0, 0 }, { 20, 20 }, { NULL, NULL }, { 0, 0 }, { NULL, NULL }, NULL, 0, 0, 1 };
	d = diff_new(a[0], a[1], &b2);
	size_t len;
	assert_string_equal(diff_key(d, &diff_rows(d)[0], 0, &len), "x");
	assert_string_equal(diff_key(d, &diff_rows(d)[1], 0, &len), "y");
	diff_free(d);
	for (int s = 0; s < 2; s++) {
		agg_free(a[s]);
		prof_free(p[s]);
	}
}

static void test_per_work(void **state)
{
	(void)state;
	struct fixture f;
	sums(&f, &by_frame);
	/* 50 units before, 100 after: samples per 1,000 units. */
	struct diff_base base = { { KEY_FRAME, KEY_FRAME }, 1, 0, { 50, 100 }, { 100, 100 }, { NULL, NULL }, { 0, 0 }, { NULL, NULL }, NULL, 0, 0, 1 };
	diff *d = diff_new(f.a[0], f.a[1], &base);
	table *t = diff_table(d, 0, 0);
	char *text = written(t, TABLE_TSV);
	assert_string_equal(text,
		"frame\tbefore\tafter\tbefore_rate\tafter_rate\tdelta_rate\tratio\tflag\tdelta_ci_low\tdelta_ci_high\tp_value\tq_value\tsig\n"
		"a\t60\t40\t1200.000\t400.000\t-800.000\t0.33\t\t-1127.965\t-472.035\t0.0000\t0.0000\t*\n"
		"b\t30\t30\t600.000\t300.000\t-300.000\t0.50\t\t-540.046\t-59.954\t0.0062\t0.0062\t*\n"
		"d\t0\t30\t0.000\t300.000\t300.000\t\tNEW\t192.648\t407.352\t0.0001\t0.0001\t*\n"
		"c\t10\t0\t200.000\t0.000\t-200.000\t0.00\tGONE\t-323.959\t-76.041\t0.0000\t0.0000\t*\n");
	free(text);
	table_free(t);
	diff_free(d);
	release(&f);
}

static void test_pairs(void **state)
{
	(void)state;
	prof *p[2] = { prof_new(), prof_new() };
	add(p[0], "thread (1): t;a", 10);
	add(p[1], "thread (1): t;a", 30);
	add(p[1], "thread (2): u;a", 10);
	const struct agg_spec spec = { { KEY_THREAD, KEY_FRAME }, 2, NULL, 0 };
	agg *a[2] = { agg_new_spec(p[0], &spec), agg_new_spec(p[1], &spec) };
	struct diff_base base = { { KEY_THREAD, KEY_FRAME }, 2, 0, { 0, 0 }, { 10, 40 }, { NULL, NULL }, { 0, 0 }, { NULL, NULL }, NULL, 0, 0, 1 };
	diff *d = diff_new(a[0], a[1], &base);
	table *t = diff_table(d, 0, 0);
	char *text = written(t, TABLE_TSV);
	assert_string_equal(text,
		"thread\tframe\tbefore\tafter\tbefore_pct\tafter_pct\tdelta_pts\tratio\tflag\tdelta_ci_low\tdelta_ci_high\tp_value\tq_value\tsig\n"
		"thread (1): t\ta\t10\t30\t100.00\t75.00\t-25.00\t0.75\t\t-38.42\t-11.58\t0.0771\t0.0771\t\n"
		"thread (2): u\ta\t0\t10\t0.00\t25.00\t25.00\t\tNEW\t11.58\t38.42\t0.0771\t0.0771\t\n");
	free(text);
	table_free(t);
	const char *g = "thread (2): u,a";
	struct diff_gate gate = { g, strlen(g), 20 };
	assert_true(diff_gate_delta(d, &gate) == 25.0);
	gate.key_len = strlen("thread (2): u"); /* one key of a pair names nothing */
	assert_true(diff_gate_delta(d, &gate) == 0.0);
	diff_free(d);
	for (int s = 0; s < 2; s++) {
		agg_free(a[s]);
		prof_free(p[s]);
	}
}

struct gates { const diff *d; const struct diff_gate *g; size_t n; };

static void run_gates(void *arg)
{
	const struct gates *g = arg;
	exit(diff_check_gates(g->d, g->g, g->n));
}

struct any { const diff *d; double points; };

static void run_any(void *arg)
{
	const struct any *a = arg;
	exit(diff_check_any(a->d, a->points));
}

/* --fail-if-any-grows: every significant row whose interval starts above the limit, in
 * table order; NAN gates nothing. */
static void test_any_grows(void **state)
{
	(void)state;
	err_set_prog("sift-diff");
	struct fixture f;
	sums(&f, &by_frame);
	struct diff_base base = { { KEY_FRAME, KEY_FRAME }, 1, 0, { 0, 0 }, { 100, 100 }, { NULL, NULL }, { 0, 0 }, { NULL, NULL }, NULL, 0, 0, 1 };
	diff *d = diff_new(f.a[0], f.a[1], &base);
	struct captured c;
	struct any a = { d, 5 };
	capture_run(run_any, &a, &c);
	assert_int_equal(c.status, 1);
	assert_string_equal(c.err, "sift-diff: d grew by 30.00 points (95% interval 21.02 to 38.98; limit 5)\n");
	a.points = -40; /* a (-33.58 low) and c (-15.88) too, d first: table order; b's interval
			 * (-12.70 to 12.70) starts above -40 too, but b did not change significantly */
	capture_run(run_any, &a, &c);
	assert_int_equal(c.status, 1);
	assert_string_equal(c.err, "sift-diff: d grew by 30.00 points (95% interval 21.02 to 38.98; limit -40)\n"
				   "sift-diff: a grew by -20.00 points (95% interval -33.58 to -6.42; limit -40)\n"
				   "sift-diff: c grew by -10.00 points (95% interval -15.88 to -4.12; limit -40)\n");
	a.points = NAN;
	capture_run(run_any, &a, &c);
	assert_int_equal(c.status, 0);
	assert_string_equal(c.err, "");
	diff_free(d);
	release(&f);
}

static void test_gates(void **state)
{
	(void)state;
	err_set_prog("sift-diff");
	struct fixture f;
	sums(&f, &by_frame);
	struct diff_base base = { { KEY_FRAME, KEY_FRAME }, 1, 0, { 0, 0 }, { 100, 100 }, { NULL, NULL }, { 0, 0 }, { NULL, NULL }, NULL, 0, 0, 1 };
	diff *d = diff_new(f.a[0], f.a[1], &base);
	/* KEY is given by length: "d:5" names d. A gate fires on the interval's low end: a's
	 * delta is -20 in [-33.58, -6.42], above -40 for sure but not surely above -25. A key in
	 * neither profile has no interval and never fires. */
	const struct diff_gate gates[] = { { "d:5", 1, 5 }, { "a", 1, -40 }, { "zz", 2, -1 }, { "b", 1, 0 },
					   { "a", 1, -25 } };
	assert_true(diff_gate_delta(d, &gates[0]) == 30.0);
	assert_true(diff_gate_delta(d, &gates[2]) == 0.0);
	assert_null(diff_gate_row(d, &gates[2]));
	assert_true(fabs(diff_gate_row(d, &gates[1])->ci_low + 33.579) < 0.001);
	struct captured c;
	struct gates g = { d, gates, 3 };
	capture_run(run_gates, &g, &c);
	assert_int_equal(c.status, 1);
	assert_string_equal(c.err, "sift-diff: d grew by 30.00 points (95% interval 21.02 to 38.98; limit 5)\n"
				   "sift-diff: a grew by -20.00 points (95% interval -33.58 to -6.42; limit -40)\n");
	g.n = 2;
	g.g = &gates[3];
	capture_run(run_gates, &g, &c);
	assert_int_equal(c.status, 0);
	assert_string_equal(c.err, "");
	diff_free(d);

	base.work[0] = base.work[1] = 1000;
	d = diff_new(f.a[0], f.a[1], &base);
	g = (struct gates){ d, gates, 1 };
	capture_run(run_gates, &g, &c);
	assert_string_equal(c.err, "sift-diff: d grew by 30.00 samples per 1,000 units "
				   "(95% interval 19.26 to 40.74; limit 5)\n");
	diff_free(d);
	release(&f);
}

/* Two inputs per side: each input's share is a replicate, and one t statistic gives the
 * interval and p (Welch's; paired when base.pair says which inputs go together). Reference
 * values from mpmath. */
static void test_replicates(void **state)
{
	(void)state;
	static const uint64_t counts[4][2] = { { 60, 40 }, { 58, 42 }, { 40, 60 }, { 42, 58 } };
	prof *p[4];
	agg *in[4];
	for (int i = 0; i < 4; i++) {
		p[i] = prof_new();
		add(p[i], "a", counts[i][0]);
		add(p[i], "b", counts[i][1]);
		in[i] = agg_new_spec(p[i], &by_frame);
	}
	prof *all[2] = { prof_new(), prof_new() };
	for (int i = 0; i < 4; i++) {
		add(all[i / 2], "a", counts[i][0]);
		add(all[i / 2], "b", counts[i][1]);
	}
	agg *sum[2] = { agg_new_spec(all[0], &by_frame), agg_new_spec(all[1], &by_frame) };
	const agg *before[2] = { in[0], in[1] }, *after[2] = { in[2], in[3] };
	const uint64_t samples[2] = { 100, 100 };
	struct diff_base base = { .keys = { KEY_FRAME, KEY_FRAME }, .nkeys = 1, .samples = { 200, 200 },
				  .inputs = { before, after }, .ninputs = { 2, 2 },
				  .input_samples = { samples, samples } };
	diff *d = diff_new(sum[0], sum[1], &base);
	assert_string_equal(diff_method(d), "Welch t test over inputs");
	assert_string_equal(diff_test_name(d), "welch-t");
	assert_false(diff_paired(d));
	const struct diff_row *r = diff_rows(d);
	size_t len;
	assert_string_equal(diff_key(d, &r[0], 0, &len), "a");
	assert_true(r[0].delta == -18.0);
	/* Shares 60, 58 against 40, 42: se sqrt(2), 2 df, t -12.73. */
	assert_true(fabs(r[0].ci_low + 24.084869844593311) < 1e-9 && fabs(r[0].ci_high + 11.915130155406689) < 1e-9);
	assert_true(fabs(r[0].p - 0.006116265326381102) < 1e-12);
	assert_true(r[0].tested && r[0].q == r[0].p && r[0].significant); /* b's p is the same */
	assert_int_equal(diff_significant_count(d), 2);
	assert_int_equal(diff_tested_count(d), 2);
	/* Each side's spread over its inputs: a is 58 or 60 before, 40 or 42 after. */
	assert_true(diff_has_spread(d));
	assert_true(r[0].spread[0][0] == 58.0 && r[0].spread[0][1] == 59.0 && r[0].spread[0][2] == 60.0);
	assert_true(r[0].spread[1][0] == 40.0 && r[0].spread[1][1] == 41.0 && r[0].spread[1][2] == 42.0);
	table *t = diff_table(d, 1, DIFF_TABLE_TEST);
	char *text = written(t, TABLE_TSV);
	assert_string_equal(text, "frame\tbefore\tafter\tbefore_pct\tafter_pct\tdelta_pts\tratio\tflag\t"
				  "delta_ci_low\tdelta_ci_high\tp_value\tq_value\tsig\ttest\tbefore_min\t"
				  "before_median\tbefore_max\tafter_min\tafter_median\tafter_max\n"
				  "a\t118\t82\t59.00\t41.00\t-18.00\t0.69\t\t-24.08\t-11.92\t0.0061\t"
				  "0.0061\t*\twelch-t\t58.00\t59.00\t60.00\t40.00\t41.00\t42.00\n");
	free(text);
	table_free(t);
	diff_free(d);
	/* Paired, input 0 with input 0: differences -20 and -16, se 2 on 1 df. */
	const size_t pair[2] = { 0, 1 };
	base.pair = pair;
	d = diff_new(sum[0], sum[1], &base);
	r = diff_rows(d);
	assert_true(diff_paired(d));
	assert_string_equal(diff_test_name(d), "paired-t");
	assert_string_equal(diff_key(d, &r[0], 0, &len), "a");
	assert_true(fabs(r[0].p - 0.070446574954554549) < 1e-12);
	assert_true(fabs(r[0].ci_low + 43.412409472349409) < 1e-9 && fabs(r[0].ci_high - 7.4124094723494093) < 1e-9);
	assert_false(r[0].significant);
	diff_free(d);
	/* Keys below --min-share on both sides keep interval and p, but are not tested. */
	base.pair = NULL;
	base.min_share = 60;
	d = diff_new(sum[0], sum[1], &base);
	r = diff_rows(d);
	assert_int_equal(diff_tested_count(d), 0);
	assert_int_equal(diff_significant_count(d), 0);
	assert_true(!r[0].tested && isnan(r[0].q) && fabs(r[0].p - 0.006116265326381102) < 1e-12);
	diff_free(d);
	for (int s = 0; s < 2; s++) {
		agg_free(sum[s]);
		prof_free(all[s]);
	}
	for (int i = 0; i < 4; i++) {
		agg_free(in[i]);
		prof_free(p[i]);
	}
}

/* One input per side: significant changes are listed first, the rest by size. noisy moves
 * 10 points (p 0.155), rare 8 (p 0.0039), x 18 (p 0.011). */
static void test_significant_first(void **state)
{
	(void)state;
	prof *p[2] = { prof_new(), prof_new() };
	add(p[0], "noisy", 40);
	add(p[1], "noisy", 50);
	add(p[1], "rare", 8);
	add(p[0], "x", 60);
	add(p[1], "x", 42);
	agg *a[2] = { agg_new_spec(p[0], &by_frame), agg_new_spec(p[1], &by_frame) };
	struct diff_base base = { .keys = { KEY_FRAME, KEY_FRAME }, .nkeys = 1, .samples = { 100, 100 } };
	diff *d = diff_new(a[0], a[1], &base);
	assert_string_equal(diff_method(d), "two-proportion test of counts: sampling noise only");
	assert_string_equal(diff_test_name(d), "counts-sampling-noise-only");
	assert_int_equal(diff_significant_count(d), 2);
	const struct diff_row *r = diff_rows(d);
	size_t len;
	static const char *const order[2][3] = { { "x", "rare", "noisy" }, { "x", "noisy", "rare" } };
	for (size_t k = 0; k < 3; k++)
		assert_string_equal(diff_key(d, &r[k], 0, &len), order[0][k]);
	assert_true(fabs(r[1].p - 0.003892) < 0.000001 && fabs(r[1].q - 0.011677) < 0.000001);
	assert_true(fabs(r[0].q - 0.016340) < 0.000001 && fabs(r[2].q - r[2].p) < 1e-12);
	assert_true(r[0].significant && r[1].significant && !r[2].significant);
	diff_free(d);
	base.sort_delta = 1;
	d = diff_new(a[0], a[1], &base);
	for (size_t k = 0; k < 3; k++)
		assert_string_equal(diff_key(d, &diff_rows(d)[k], 0, &len), order[1][k]);
	diff_free(d);
	for (int s = 0; s < 2; s++) {
		agg_free(a[s]);
		prof_free(p[s]);
	}
}

/* Inputs pair by label, else by the part of their file names that differs within a side. */
static void test_pair_inputs(void **state)
{
	(void)state;
	size_t pair[4];
	char *b1[] = { "run1/rank0.txt", "run1/rank1.txt", "run1/rank2.txt" };
	char *a1[] = { "run2/rank2.txt", "run2/rank0.txt", "run2/rank1.txt" };
	char **files[2] = { b1, a1 };
	size_t n[2] = { 3, 3 };
	assert_string_equal(diff_pair_inputs(files, n, NULL, 0, pair), "file name");
	assert_true(pair[0] == 1 && pair[1] == 2 && pair[2] == 0);
	/* tp0..tp3 before and after, prefixes and suffixes of their own. */
	char *b2[] = { "before-tp0.txt", "before-tp1.txt", "before-tp2.txt", "before-tp3.txt" };
	char *a2[] = { "x/after-tp0.prof", "x/after-tp1.prof", "x/after-tp2.prof", "x/after-tp3.prof" };
	files[0] = b2, files[1] = a2, n[0] = n[1] = 4;
	assert_string_equal(diff_pair_inputs(files, n, NULL, 0, pair), "file name");
	assert_true(pair[0] == 0 && pair[1] == 1 && pair[2] == 2 && pair[3] == 3);
	/* rank10..rank11 keep their digits: they are not ranks 0 and 1. */
	char *b3[] = { "rank10.txt", "rank11.txt" }, *a3[] = { "rank0.txt", "rank1.txt" };
	files[0] = b3, files[1] = a3, n[0] = n[1] = 2;
	assert_null(diff_pair_inputs(files, n, NULL, 0, pair));
	/* Different ranks, different counts, one input: no pairs. */
	char *b4[] = { "rank0.txt", "rank1.txt" }, *a4[] = { "rank2.txt", "rank3.txt" };
	files[0] = b4, files[1] = a4;
	assert_null(diff_pair_inputs(files, n, NULL, 0, pair));
	n[1] = 1;
	assert_null(diff_pair_inputs(files, n, NULL, 0, pair));
	n[0] = 1;
	assert_null(diff_pair_inputs(files, n, NULL, 0, pair));
	/* Labels name the pairs when every input has one. */
	char *labels[] = { "r0=rank0.txt", "r1=rank1.txt", "r1=rank2.txt", "r0=rank3.txt" };
	n[0] = n[1] = 2;
	assert_string_equal(diff_pair_inputs(files, n, labels, 4, pair), "label");
	assert_true(pair[0] == 1 && pair[1] == 0);
	/* Two inputs with one name pair with nothing. */
	char *b5[] = { "a/rank0.txt", "b/rank0.txt" }, *a5[] = { "c/rank0.txt", "d/rank1.txt" };
	files[0] = b5, files[1] = a5;
	assert_null(diff_pair_inputs(files, n, NULL, 0, pair));
}

static void test_folded(void **state)
{
	(void)state;
	prof *before, *after;
	profiles(&before, &after);
	add(after, "m", 5);
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	diff_write_folded(before, after, out);
	fclose(out);
	assert_string_equal(buf, "m 0 5\nm;a 60 40\nm;b 30 30\nm;c 10 0\nm;d 0 30\n");
	free(buf);
	prof_free(before);
	prof_free(after);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_self_shares),
		cmocka_unit_test(test_total_and_ties),
		cmocka_unit_test(test_per_work),
		cmocka_unit_test(test_pairs),
		cmocka_unit_test(test_gates),
		cmocka_unit_test(test_any_grows),
		cmocka_unit_test(test_replicates),
		cmocka_unit_test(test_significant_first),
		cmocka_unit_test(test_pair_inputs),
		cmocka_unit_test(test_folded),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
