/* test_diff: two sums joined per key: shares, delta, ratio, NEW/GONE, the order, per-work
 * rates, pairs; --fail-if-grows gates and their message; difffolded lines. */
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
	struct diff_base base = { { KEY_FRAME, KEY_FRAME }, 1, 0, { 0, 0 }, { 100, 100 } };
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
	table *t = diff_table(d, 0);
	char *text = written(t, TABLE_TSV);
	assert_string_equal(text,
		"frame\tbefore\tafter\tbefore_pct\tafter_pct\tdelta_pts\tratio\tflag\n"
		"d\t0\t30\t0.00\t30.00\t30.00\t\tNEW\n"
		"a\t60\t40\t60.00\t40.00\t-20.00\t0.67\t\n"
		"c\t10\t0\t10.00\t0.00\t-10.00\t0.00\tGONE\n"
		"b\t30\t30\t30.00\t30.00\t0.00\t1.00\t\n");
	free(text);
	table_free(t);
	t = diff_table(d, 1);
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
	struct diff_base base = { { KEY_FRAME, KEY_FRAME }, 1, 1, { 0, 0 }, { 200, 200 } };
	diff *d = diff_new(f.a[0], f.a[1], &base);
	table *t = diff_table(d, 0);
	char *text = written(t, TABLE_TSV);
	assert_string_equal(text,
		"frame\tbefore\tafter\tbefore_pct\tafter_pct\tdelta_pts\tratio\tflag\n"
		"d\t0\t30\t0.00\t15.00\t15.00\t\tNEW\n"
		"a\t60\t40\t30.00\t20.00\t-10.00\t0.67\t\n"
		"c\t10\t0\t5.00\t0.00\t-5.00\t0.00\tGONE\n"
		"m\t100\t100\t50.00\t50.00\t0.00\t1.00\t\n"
		"b\t30\t30\t15.00\t15.00\t0.00\t1.00\t\n");
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
	struct diff_base b2 = { { KEY_FRAME, KEY_FRAME }, 1, 0, { 0, 0 }, { 20, 20 } };
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
	struct diff_base base = { { KEY_FRAME, KEY_FRAME }, 1, 0, { 50, 100 }, { 100, 100 } };
	diff *d = diff_new(f.a[0], f.a[1], &base);
	table *t = diff_table(d, 0);
	char *text = written(t, TABLE_TSV);
	assert_string_equal(text,
		"frame\tbefore\tafter\tbefore_rate\tafter_rate\tdelta_rate\tratio\tflag\n"
		"a\t60\t40\t1200.000\t400.000\t-800.000\t0.33\t\n"
		"b\t30\t30\t600.000\t300.000\t-300.000\t0.50\t\n"
		"d\t0\t30\t0.000\t300.000\t300.000\t\tNEW\n"
		"c\t10\t0\t200.000\t0.000\t-200.000\t0.00\tGONE\n");
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
	struct diff_base base = { { KEY_THREAD, KEY_FRAME }, 2, 0, { 0, 0 }, { 10, 40 } };
	diff *d = diff_new(a[0], a[1], &base);
	table *t = diff_table(d, 0);
	char *text = written(t, TABLE_TSV);
	assert_string_equal(text,
		"thread\tframe\tbefore\tafter\tbefore_pct\tafter_pct\tdelta_pts\tratio\tflag\n"
		"thread (1): t\ta\t10\t30\t100.00\t75.00\t-25.00\t0.75\t\n"
		"thread (2): u\ta\t0\t10\t0.00\t25.00\t25.00\t\tNEW\n");
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

static void test_gates(void **state)
{
	(void)state;
	err_set_prog("sift-diff");
	struct fixture f;
	sums(&f, &by_frame);
	struct diff_base base = { { KEY_FRAME, KEY_FRAME }, 1, 0, { 0, 0 }, { 100, 100 } };
	diff *d = diff_new(f.a[0], f.a[1], &base);
	/* KEY is given by length: "d:5" names d. */
	const struct diff_gate gates[] = { { "d:5", 1, 5 }, { "a", 1, -25 }, { "zz", 2, -1 }, { "b", 1, 0 } };
	assert_true(diff_gate_delta(d, &gates[0]) == 30.0);
	assert_true(diff_gate_delta(d, &gates[2]) == 0.0);
	struct captured c;
	struct gates g = { d, gates, 4 };
	capture_run(run_gates, &g, &c);
	assert_int_equal(c.status, 1);
	assert_string_equal(c.err, "sift-diff: d grew by 30.00 points (limit 5)\n"
				   "sift-diff: a grew by -20.00 points (limit -25)\n"
				   "sift-diff: zz grew by 0.00 points (limit -1)\n");
	g.n = 1;
	g.g = &gates[3];
	capture_run(run_gates, &g, &c);
	assert_int_equal(c.status, 0);
	assert_string_equal(c.err, "");
	diff_free(d);

	base.work[0] = base.work[1] = 1000;
	d = diff_new(f.a[0], f.a[1], &base);
	g = (struct gates){ d, gates, 1 };
	capture_run(run_gates, &g, &c);
	assert_string_equal(c.err, "sift-diff: d grew by 30.00 samples per 1,000 units (limit 5)\n");
	diff_free(d);
	release(&f);
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
		cmocka_unit_test(test_folded),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
