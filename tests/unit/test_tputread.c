/* test_tputread: logs read into rows or series, with filters, nan and bad lines counted,
 * and a large file read on several threads giving exactly what one thread gives. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tmpdir.h"
#include "tputread.h"

static char tmpdir[] = "/tmp/sift-test-tputread-XXXXXX";

static int setup(void **state)
{
	(void)state;
	err_set_prog("test_tputread");
	return tmpdir_make(tmpdir);
}

static int teardown(void **state)
{
	(void)state;
	return tmpdir_remove(tmpdir);
}

static const char small_log[] =
	"[rank0]:step: 1  loss:  7.5  tps: 5,856\n"
	"[rank1]:step: 1  loss:  7.5  tps: 5,800\n"
	"an unrelated line\n"
	"tps: without a step\n"                      /* held the literal, matched no rule */
	"[rank0]:step: 2  loss:  7.4  tps: fast\n"   /* bad value */
	"[rank0]:step: 3  loss:  7.3  tps: nan\n"
	"[rank1]:step: 4  loss:  7.2  tps: 6.5K\n";

struct result {
	char *rows;
	size_t len;
	unsigned long points, nans, bad, skipped;
	int failed;
	size_t ncands;
	struct tputcand cand[4];
	const char *looks_like;
};

/* One read of paths through the torchtitan preset; rows when set is NULL. */
static struct result run(char **paths, size_t n, const struct tputread_opts *o, struct series_set *set)
{
	struct result res;
	memset(&res, 0, sizeof res);
	struct err_lines errs;
	err_lines_init(&errs);
	errs.limit = 0;
	tput_ex *ex = tput_ex_new();
	int p = tputpreset_find("torchtitan");
	assert_true(p >= 0);
	tput_ex_add_preset(ex, (size_t)p);
	FILE *out = open_memstream(&res.rows, &res.len);
	assert_non_null(out);
	struct tputread r = { o, ex, &errs, set, out, 0, 0, 0, NULL, 0, 0, 0, NULL, NULL, NULL };
	res.failed = tputread_logs(&r, paths, n);
	assert_int_equal(fclose(out), 0);
	res.points = r.points;
	res.nans = r.nans;
	res.bad = errs.bad;
	res.skipped = errs.skipped;
	res.ncands = r.ncands;
	res.looks_like = r.looks_like;
	for (size_t i = 0; i < r.ncands && i < 4; i++)
		res.cand[i] = r.cands[i].c;
	tputread_free(&r);
	assert_null(r.cands);
	tput_ex_free(ex);
	return res;
}

static void test_rows(void **state)
{
	(void)state;
	char path[256], want[1024];
	assert_non_null(tmpdir_file(tmpdir, "small.log", small_log, sizeof small_log - 1, path, sizeof path));
	char *paths[] = { path };
	struct tputread_opts o = { -1, -1, 1, 0, 0, NULL, 0 };
	struct result res = run(paths, 1, &o, NULL);
	snprintf(want, sizeof want,
		 "source\tline\trank\tstep\ttime\tvalue\tunit\tloss\n"
		 "%s\t1\t0\t1\t\t5856\ttokens/s/gpu\t7.5\n"
		 "%s\t2\t1\t1\t\t5800\ttokens/s/gpu\t7.5\n"
		 "%s\t7\t1\t4\t\t6500\ttokens/s/gpu\t7.2\n",
		 path, path, path);
	assert_string_equal(res.rows, want);
	assert_int_equal(res.points, 3);
	assert_int_equal(res.nans, 1);
	assert_int_equal(res.bad, 1);
	assert_int_equal(res.skipped, 1);
	assert_int_equal(res.failed, 0);
	free(res.rows);

	/* One rank only; a unit that is not there leaves no row and no header. */
	o.rank = 1;
	res = run(paths, 1, &o, NULL);
	snprintf(want, sizeof want,
		 "source\tline\trank\tstep\ttime\tvalue\tunit\tloss\n"
		 "%s\t2\t1\t1\t\t5800\ttokens/s/gpu\t7.5\n"
		 "%s\t7\t1\t4\t\t6500\ttokens/s/gpu\t7.2\n",
		 path, path);
	assert_string_equal(res.rows, want);
	assert_int_equal(res.nans, 0);  /* the nan was rank 0's */
	free(res.rows);
	o = (struct tputread_opts){ TPUT_TOKENS_S, -1, 1, 0, 0, NULL, 0 };
	res = run(paths, 1, &o, NULL);
	assert_int_equal(res.len, 0);
	assert_int_equal(res.points, 0);
	assert_int_equal(res.bad, 1);  /* bad lines have no unit to filter on */
	free(res.rows);
}

/* What a profile or a dump given as a log looks like, from its first lines; a log whose
 * header lines end in numbers ("## batch size: 8") is no folded profile. */
static void test_looks_like(void **state)
{
	(void)state;
	static const char folded[] = "thread (1): MainThread;<module> (train.py:5);step (train.py:9) 42\n"
				     "thread (1): MainThread;<module> (train.py:5) 3\n";
	static const char dump[] = "Process 4242: python train.py\nPython v3.11.4 (/usr/bin/python3.11)\n\n"
				   "Thread 4242 (active): \"MainThread\"\n    step (train.py:9)\n";
	static const char header[] = "## optimizer: adam\n## batch size: 8\n## training size: 96\n";
	const char *want[] = { "folded stacks (a py-spy raw profile): try sift-top or sift-fold",
			       "py-spy dump output: try sift-threads or sift-fold", NULL };
	const char *texts[] = { folded, dump, header };
	size_t lens[] = { sizeof folded - 1, sizeof dump - 1, sizeof header - 1 };
	for (size_t i = 0; i < 3; i++) {
		char path[256];
		assert_non_null(tmpdir_file(tmpdir, "looks.log", texts[i], lens[i], path, sizeof path));
		char *paths[] = { path };
		struct tputread_opts o = { -1, -1, 1, 0, 0, NULL, 0 };
		struct result res = run(paths, 1, &o, NULL);
		if (want[i])
			assert_string_equal(res.looks_like, want[i]);
		else
			assert_null(res.looks_like);
		free(res.rows);
	}
}

static void test_series(void **state)
{
	(void)state;
	char path[2][256];
	assert_non_null(tmpdir_file(tmpdir, "one.log", small_log, sizeof small_log - 1, path[0], sizeof path[0]));
	assert_non_null(tmpdir_file(tmpdir, "two.log", small_log, 40, path[1], sizeof path[1]));
	char *paths[] = { path[0], path[1], "/nonexistent/sift.log" };
	struct series_set set = { NULL, 0, 0 };
	struct tputread_opts o = { -1, -1, 1, 0, 0, NULL, 0 };
	struct result res = run(paths, 3, &o, &set);
	assert_int_equal(res.failed, 1);
	assert_int_equal(res.len, 0);
	assert_int_equal(res.points, 4);
	assert_int_equal(set.n, 2);
	assert_string_equal(set.s[0].source, path[0]);
	assert_int_equal(set.s[0].unit, TPUT_TOKENS_S_GPU);
	assert_int_equal(set.s[0].n, 3);
	assert_int_equal(set.s[0].nan, 1);
	assert_true(set.s[0].pts[0].value == 5856 && set.s[0].pts[0].step == 1 && set.s[0].pts[0].rank == 0);
	assert_true(set.s[0].pts[1].value == 5800 && set.s[0].pts[1].rank == 1);
	assert_true(set.s[0].pts[2].value == 6500 && set.s[0].pts[2].step == 4);
	assert_string_equal(set.s[1].source, path[1]);
	assert_int_equal(set.s[1].n, 1);
	assert_int_equal(set.s[1].nan, 0);
	free(res.rows);
	series_set_free(&set);
}

/* Over 16 MB: long noise lines, a point every 64 lines, a bad and a skipped line now and then. */
static const char *write_large(char *path, size_t cap)
{
	size_t len = 0, size = 18u << 20;
	char *text = malloc(size + 256);
	assert_non_null(text);
	for (unsigned long i = 0; len < size; i++) {
		if (i % 64 == 0)
			len += (size_t)sprintf(text + len, "[rank%lu]:step: %lu  loss:  %lu.25  tps: %lu.5\n", i % 3,
					       i / 64, i % 11, 1000 + i % 977);
		else if (i % 10007 == 0)
			len += (size_t)sprintf(text + len, "step: %lu  loss:  1  tps: nope\n", i);
		else if (i % 9001 == 0)
			len += (size_t)sprintf(text + len, "tps: %lu\n", i);
		else
			len += (size_t)sprintf(text + len, "%0120lu\n", i);
	}
	const char *p = tmpdir_file(tmpdir, "large.log", text, len, path, cap);
	free(text);
	return p;
}

static void test_threads_same_as_one(void **state)
{
	(void)state;
	char path[256];
	assert_non_null(write_large(path, sizeof path));
	char *paths[] = { path };
	struct tputread_opts one = { -1, -1, 1, 0, 0, NULL, 0 }, three = { -1, -1, 3, 0, 0, NULL, 0 };
	struct result a = run(paths, 1, &one, NULL), b = run(paths, 1, &three, NULL);
	/* The generator is fixed: exact counts on one thread, the same on three. */
	assert_int_equal(a.points, 2462);
	assert_int_equal(a.points, b.points);
	assert_int_equal(a.bad, 15);
	assert_int_equal(a.bad, b.bad);
	assert_int_equal(a.skipped, 17);
	assert_int_equal(a.skipped, b.skipped);
	assert_int_equal(a.len, b.len);
	assert_memory_equal(a.rows, b.rows, a.len);
	free(a.rows);
	free(b.rows);
	/* Points too, in file order. */
	struct series_set sa = { NULL, 0, 0 }, sb = { NULL, 0, 0 };
	a = run(paths, 1, &one, &sa);
	b = run(paths, 1, &three, &sb);
	assert_int_equal(a.len + b.len, 0);
	assert_int_equal(sa.n, 1);
	assert_int_equal(sb.n, 1);
	assert_int_equal(sa.s[0].n, a.points);
	assert_int_equal(sb.s[0].n, a.points);
	for (size_t i = 0; i < sa.s[0].n; i++) {
		const struct series_point *x = &sa.s[0].pts[i], *y = &sb.s[0].pts[i];
		assert_int_equal(x->step, (long long)i);
		assert_true(x->step == y->step && x->rank == y->rank && x->value == y->value);
	}
	free(a.rows);
	free(b.rows);
	series_set_free(&sa);
	series_set_free(&sb);
}

/* A series, then a summary printed after its last step: the summary is held back and kept
 * out; --take by its key or number brings it in. */
static void test_candidates(void **state)
{
	(void)state;
	static const char log[] =
		"step 1 | loss 3.0 | 100 tok/s\n"
		"step 2 | loss 2.9 | 110 tok/s\n"
		"step 3 | loss 2.8 | 120 tok/s\n"
		"step 4 | loss 2.7 | 130 tok/s\n"
		"{'train_runtime': 9.5, 'train_samples_per_second': 8.5}\n";
	char path[256];
	assert_non_null(tmpdir_file(tmpdir, "cands.log", log, sizeof log - 1, path, sizeof path));
	char *paths[] = { path };
	char *takes[] = { "train_samples_per_second", "2" };
	for (size_t ntake = 0; ntake <= 2; ntake++) {
		struct tputread_opts o = { -1, -1, 1, 1, 1, takes + (ntake == 2), ntake ? 1 : 0 };
		struct err_lines errs;
		err_lines_init(&errs);
		errs.limit = 0;
		tput_ex *ex = tput_ex_new();
		for (size_t i = 0; i < tputpreset_count; i++)
			tput_ex_add_preset(ex, i);
		struct series_set set = { NULL, 0, 0 };
		struct tputread r = { &o, ex, &errs, &set, NULL, 0, 0, 0, NULL, 0, 0, 0, NULL, NULL, NULL };
		assert_int_equal(tputread_logs(&r, paths, 1), 0);
		assert_int_equal(r.ncands, 2);
		assert_int_equal(r.cands[0].c.number, 1);
		assert_int_equal(r.cands[0].c.n, 4);
		assert_true(r.cands[0].c.taken);
		assert_string_equal(r.cands[0].key, "tok/s");
		assert_true(r.cands[0].median == 115);
		assert_string_equal(r.cands[0].example, "step 1 | loss 3.0 | 100 tok/s");
		assert_string_equal(r.cands[1].key, "train_samples_per_second");
		assert_int_equal(r.cands[1].c.first_line, 5);
		if (ntake == 0) {
			assert_false(r.cands[1].c.taken);
			assert_string_equal(r.cands[1].c.why, "a summary: printed once, after the last step (line 4, #1)");
			assert_int_equal(r.points, 4);
			assert_int_equal(set.n, 1);
		} else {
			assert_true(r.cands[1].c.taken);
			assert_int_equal(r.takes_used, 1);
			assert_int_equal(r.points, 5);
			assert_int_equal(set.n, 2);
		}
		series_set_free(&set);
		tputread_free(&r);
		tput_ex_free(ex);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_series),
		cmocka_unit_test(test_looks_like),
		cmocka_unit_test(test_threads_same_as_one),
		cmocka_unit_test(test_candidates),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
