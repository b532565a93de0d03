/* test_sum: one reader or several give the same sums, counts and messages; one input's
 * blocks of time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "err.h"
#include "sum.h"

static char *fixture(const char *name)
{
	static char paths[4][512];
	static int next;
	const char *dir = getenv("SIFT_TESTDATA");
	char *p = paths[next++ % 4];
	snprintf(p, 512, "%s/%s", dir ? dir : "testdata", name);
	return p;
}

/* The whole result as text, to compare runs. */
static void describe(const struct sum_result *r, char *buf, size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "read %llu kept %llu stacks %zu threads %zu\n",
				       (unsigned long long)r->stats.samples_read,
				       (unsigned long long)r->stats.samples_kept, r->stacks, r->threads);
	const struct agg_row *rows = agg_rows(r->table);
	for (size_t i = 0; i < agg_row_count(r->table) && used < len; i++) {
		size_t klen;
		const char *key = intern_str(agg_keys(r->table), rows[i].key, &klen);
		used += (size_t)snprintf(buf + used, len - used, "%.*s %llu %llu\n", (int)klen, key,
					 (unsigned long long)rows[i].self, (unsigned long long)rows[i].total);
	}
}

static void run(unsigned workers, enum frame_key key, char *out, size_t len, unsigned long *bad)
{
	char *paths[] = { fixture("raw/zoo.txt"), fixture("raw/merge-a.txt"), fixture("raw/merge-b.txt"),
			  fixture("raw/enginecore-native-idle.txt") };
	struct load_opts opts = { 0 };
	struct agg_spec spec = { { key, KEY_FRAME }, 1, NULL, 0 };
	struct err_lines errs;
	err_lines_init(&errs);
	struct sum_result r;
	assert_int_equal(sum_files(paths, 4, &opts, &spec, workers, &errs, &r), 0);
	assert_int_equal(r.workers, workers);
	agg_sort(r.table, AGG_BY_SELF);
	describe(&r, out, len);
	*bad = errs.bad;
	sum_result_free(&r);
}

static void test_workers_agree(void **state)
{
	(void)state;
	static char one[65536], many[65536];
	const enum frame_key keys[] = { KEY_FRAME, KEY_THREAD, KEY_CATEGORY, KEY_ROOT };
	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
		unsigned long bad1, badn;
		run(1, keys[k], one, sizeof one, &bad1);
		for (unsigned w = 2; w <= 7; w++) {
			run(w, keys[k], many, sizeof many, &badn);
			assert_string_equal(one, many);
			assert_int_equal(bad1, badn);
		}
	}
	run(1, KEY_THREAD, one, sizeof one, &(unsigned long){ 0 });
	assert_non_null(strstr(one, "read 30047 kept 30047 stacks 90 threads 8"));
}

/* --idle recordings: three or more threads equal to within 1%. */
static void test_head_is_folded(void **state)
{
	(void)state;
	/* The first line that tells decides, and it must be whole. */
	const char *folded = "\n# note\nmain (a.py:1);work (a.py:2) 5\nmain (a.py:1) 1\n";
	assert_int_equal(sum_head_is_folded(folded, strlen(folded)), 1);
	const char *cut = "main (a.py:1);work (a.";
	assert_int_equal(sum_head_is_folded(cut, strlen(cut)), 0);
	/* One-line JSON whose end is past the head: never cut at a newline. */
	const char *json = "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"profiles\":[";
	assert_int_equal(sum_head_is_folded(json, strlen(json)), 0);
	const char *json_lines = "{\"$schema\": \"x\",\n\"profiles\": []}\n";
	assert_int_equal(sum_head_is_folded(json_lines, strlen(json_lines)), 0);
	const char *dump = "Process 12: python x.py\nThread 12 (idle): \"MainThread\"\n";
	assert_int_equal(sum_head_is_folded(dump, strlen(dump)), 0);
	assert_int_equal(sum_head_is_folded("", 0), 0);
}

static void test_looks_idle(void **state)
{
	(void)state;
	uint64_t lo = 0, hi = 0;
	const uint64_t equal[] = { 600, 600, 600 }, close[] = { 600, 594, 597, 600 },
		       apart[] = { 600, 593, 600 }, zero[] = { 0, 0, 0 };
	assert_int_equal(sum_looks_idle(equal, 3, &lo, &hi), 1);
	assert_true(lo == 600 && hi == 600);
	assert_int_equal(sum_looks_idle(close, 4, &lo, &hi), 1);
	assert_true(lo == 594 && hi == 600);
	assert_int_equal(sum_looks_idle(apart, 3, &lo, &hi), 0);
	assert_int_equal(sum_looks_idle(equal, 2, &lo, &hi), 0);
	assert_int_equal(sum_looks_idle(zero, 3, &lo, &hi), 0);
}

/* One input's blocks of time: windows of 0.1 s of each thread's own time, grouped into at
 * most `most` blocks of SUM_BLOCK_SAMPLES (250) samples or more on average. */
static void test_blocks_of_time(void **state)
{
	(void)state;
	err_set_prog("test_sum");
	assert_true(sum_file_has_time(fixture("pyspy/rec-speedscope-threads.json"), LOAD_AUTO));
	assert_true(sum_file_has_time(fixture("pyspy/rec-chrometrace-threads.json"), LOAD_AUTO));
	assert_false(sum_file_has_time(fixture("pyspy/rec-raw-threads.txt"), LOAD_AUTO));
	assert_false(sum_file_has_time("-", LOAD_AUTO));
	assert_true(sum_file_has_time("-", LOAD_SPEEDSCOPE));
	assert_int_equal(sum_file_has_time(fixture("dump/dump-text-dump_02_222636.txt"), LOAD_AUTO), SUM_SNAPSHOTS);
	struct load_opts opts = { 0 };
	const struct agg_spec spec = { { KEY_FRAME, KEY_FRAME }, 1, NULL, 0 };
	struct err_lines errs;
	err_lines_init(&errs);
	agg *blocks[20];
	uint64_t samples[20];
	int status;
	/* 100 samples: too few for two blocks */
	assert_int_equal(sum_file_blocks(fixture("pyspy/rec-speedscope-threads.json"), SUM_TIME, &opts, &spec, 20, &errs,
					 blocks, samples, &status), 0);
	/* 2,098 samples: 8 blocks; 3 when at most 3 are asked for */
	size_t most[2] = { 20, 3 }, want[2] = { 8, 3 };
	for (int k = 0; k < 2; k++) {
		size_t n = sum_file_blocks(fixture("speedscope/voronoi-pyspy.speedscope.json.zst"), SUM_TIME, &opts, &spec,
					   most[k], &errs, blocks, samples, &status);
		assert_int_equal(status, 0);
		assert_int_equal(n, want[k]);
		uint64_t all = 0, self = 0; /* every block's rows add up to its samples */
		for (size_t b = 0; b < n; b++) {
			all += samples[b];
			for (size_t r = 0; r < agg_row_count(blocks[b]); r++)
				self += agg_rows(blocks[b])[r].self;
			agg_free(blocks[b]);
		}
		assert_int_equal(all, 2098);
		assert_int_equal(self, 2098);
	}
	/* A dump's snapshots are its time: 300 snapshots of 2 threads (idle kept), 600
	 * samples, 2 blocks of 150 snapshots. */
	char path[] = "/tmp/sift-test-sum-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *out = fdopen(fd, "w");
	for (int k = 0; k < 300; k++) {
		FILE *in = fopen(fixture("dump/dump-text-dump_02_222636.txt"), "r");
		int ch;
		assert_non_null(in);
		while ((ch = getc(in)) != EOF)
			putc(ch, out);
		fclose(in);
	}
	fclose(out);
	opts.idle = 1;
	size_t n = sum_file_blocks(path, SUM_SNAPSHOTS, &opts, &spec, 20, &errs, blocks, samples, &status);
	unlink(path);
	assert_int_equal(status, 0);
	assert_int_equal(n, 2);
	assert_true(samples[0] == 300 && samples[1] == 300);
	for (size_t b = 0; b < n; b++)
		agg_free(blocks[b]);
	err_lines_finish(&errs);
}

int main(void)
{
	err_set_prog("test_sum");
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_workers_agree),
					    cmocka_unit_test(test_head_is_folded),
					    cmocka_unit_test(test_looks_idle),
					    cmocka_unit_test(test_blocks_of_time) };
	return cmocka_run_group_tests_name("sum", tests, NULL, NULL);
}
