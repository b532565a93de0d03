/* test_gil: GIL utilization, mean active threads and shares from two sums and from dump
 * statuses; the keys table, its order and flags; the report's parts in text and JSON. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gil.h"
#include "stacks.h"


/* What a table writes, as one string (the caller frees it). */
static char *written(const table *t, enum table_format format, unsigned flags)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(table_write(t, f, format, flags), 0);
	fclose(f);
	return buf;
}

static const struct gil_figure *figure(const struct gil_figure *f, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(f[i].name, name) == 0)
			return &f[i];
	fail_msg("no figure %s", name);
	return NULL;
}

static void test_per_wall_second(void **state)
{
	(void)state;
	struct gil_side s = { NULL, 0, 30, 100 };
	assert_true(gil_per_wall_second(300, &s) == 0.1);
	s.seconds = 0;
	assert_true(isnan(gil_per_wall_second(300, &s)));
}

static void test_summary_timed(void **state)
{
	(void)state;
	struct gil_side total = { NULL, 4000, 10, 100 }, gil = { NULL, 250, 10, 100 };
	struct gil_figure f[GIL_FIGURES_MAX];
	size_t n = gil_summary(&total, &gil, 1, f);
	assert_int_equal(n, 11);
	assert_string_equal(f[0].name, "total_samples");
	assert_true(f[0].is_count && f[0].count == 4000);
	assert_true(f[1].is_count && f[1].count == 250);
	assert_true(figure(f, n, "total_seconds")->value == 10.0);
	assert_true(figure(f, n, "gil_rate_hz")->value == 100.0);
	assert_true(figure(f, n, "mean_active_threads")->value == 4.0);
	assert_int_equal(figure(f, n, "mean_active_threads")->decimals, 2);
	assert_true(figure(f, n, "gil_utilization_pct")->value == 25.0);
	assert_true(figure(f, n, "gil_share_of_active_pct")->value == 6.25);
	assert_true(isnan(figure(f, n, "gil_to_total_ratio_pct")->value));
	assert_string_equal(figure(f, n, "note")->text, "rate not given: 100 Hz assumed");
	n = gil_summary(&total, &gil, 0, f);
	assert_null(figure(f, n, "note")->text);
}

static void test_summary_untimed(void **state)
{
	(void)state;
	struct gil_side total = { NULL, 4000, 0, 0 }, gil = { NULL, 250, 0, 0 };
	struct gil_figure f[GIL_FIGURES_MAX];
	size_t n = gil_summary(&total, &gil, 0, f);
	assert_true(isnan(figure(f, n, "total_seconds")->value));
	assert_true(isnan(figure(f, n, "mean_active_threads")->value));
	assert_true(isnan(figure(f, n, "gil_share_of_active_pct")->value));
	assert_true(figure(f, n, "gil_to_total_ratio_pct")->value == 6.25);
	assert_string_equal(figure(f, n, "note")->text,
			    "no seconds given: both recordings assumed of the same duration and rate");
}

/* Total: t1 100, t2 50, t3 10; GIL: t1 20, t2 60, t4 5. */
static void sums(agg **total, agg **gil)
{
	prof *tp = prof_new(), *gp = prof_new();
	add(tp, "thread (1): a;f", 100);
	add(tp, "thread (2): b;f", 50);
	add(tp, "thread (3): c;f", 10);
	add(gp, "thread (1): a;f", 20);
	add(gp, "thread (2): b;f", 60);
	add(gp, "thread (4): d;f", 5);
	*total = agg_new(tp, KEY_THREAD);
	*gil = agg_new(gp, KEY_THREAD);
	prof_free(tp);
	prof_free(gp);
}

static void test_rows_untimed(void **state)
{
	(void)state;
	agg *ta, *ga;
	sums(&ta, &ga);
	struct gil_side total = { ta, 160, 0, 0 }, gil = { ga, 85, 0, 0 };
	struct gil_row *rows;
	size_t n = gil_rows(&total, &gil, &rows);
	assert_int_equal(n, 4);
	/* Most GIL first: t2, t1, t4 (GIL only), t3 (no GIL). */
	assert_true(rows[0].gil == 60 && rows[0].total == 50 && rows[0].share == 120.0);
	assert_true(rows[1].gil == 20 && rows[1].total == 100 && rows[1].share == 20.0);
	assert_true(rows[2].gil == 5 && rows[2].total == 0 && isinf(rows[2].share));
	assert_null(rows[2].join.side[0]);
	assert_true(rows[3].gil == 0 && rows[3].total == 10 && rows[3].share == 0.0);
	free(rows);

	struct agg_spec keys = { { KEY_THREAD, KEY_THREAD }, 1, NULL, 0 };
	table *t = gil_keys_table(&total, &gil, &keys, 0);
	char *text = written(t, TABLE_TSV, 0);
	assert_string_equal(text,
		"thread\ttotal\tgil\ttotal_per_s\tgil_per_s\tgil_share_pct\tflag\n"
		"thread (2): b\t50\t60\t\t\t120.00\tOVER-100\n"
		"thread (1): a\t100\t20\t\t\t20.00\t\n"
		"thread (4): d\t0\t5\t\t\t\tGIL-ONLY\n"
		"thread (3): c\t10\t0\t\t\t0.00\t\n");
	free(text);
	table_free(t);
	t = gil_keys_table(&total, &gil, &keys, 2);
	assert_int_equal(table_rows(t), 2);
	table_free(t);
	agg_free(ta);
	agg_free(ga);
}

static void test_rows_timed(void **state)
{
	(void)state;
	agg *ta, *ga;
	sums(&ta, &ga);
	/* Per wall second: total over 10 s at 10 Hz, GIL over 5 s at 10 Hz. */
	struct gil_side total = { ta, 160, 10, 10 }, gil = { ga, 85, 5, 10 };
	struct agg_spec keys = { { KEY_THREAD, KEY_THREAD }, 1, NULL, 0 };
	table *t = gil_keys_table(&total, &gil, &keys, 0);
	char *text = written(t, TABLE_TSV, 0);
	/* t2: 0.5/s total, 1.2/s GIL: 240%; t1: 1.0 and 0.4: 40%. */
	assert_string_equal(text,
		"thread\ttotal\tgil\ttotal_per_s\tgil_per_s\tgil_share_pct\tflag\n"
		"thread (2): b\t50\t60\t0.5000\t1.2000\t240.00\tOVER-100\n"
		"thread (1): a\t100\t20\t1.0000\t0.4000\t40.00\t\n"
		"thread (4): d\t0\t5\t0.0000\t0.1000\t\tGIL-ONLY\n"
		"thread (3): c\t10\t0\t0.1000\t0.0000\t0.00\t\n");
	free(text);
	table_free(t);
	agg_free(ta);
	agg_free(ga);
}

static void thread(gil_dumps *d, uint64_t snapshot, const char *pid, const char *tid,
		   const char *frame, enum dump_status status)
{
	struct dump_thread t;
	memset(&t, 0, sizeof t);
	t.snapshot = snapshot;
	t.tid = (struct dump_text){ tid, strlen(tid) };
	t.thread_frame = (struct dump_text){ frame, strlen(frame) };
	t.status = status;
	if (pid) {
		t.procs[0].pid = (struct dump_text){ pid, strlen(pid) };
		t.nprocs = 1;
	}
	gil_dumps_thread(d, &t);
}

static void test_dumps(void **state)
{
	(void)state;
	gil_dumps *d = gil_dumps_new();
	thread(d, 1, "12", "1", "thread (1): Main", DUMP_ACTIVE_GIL);
	thread(d, 1, "12", "2", "thread (2): w", DUMP_IDLE);
	thread(d, 2, "12", "1", "thread (1): Main", DUMP_ACTIVE);
	thread(d, 2, "12", "2", "thread (2): w", DUMP_ACTIVE_GIL);
	thread(d, 3, "12", "1", "thread (1): Main", DUMP_IDLE);
	thread(d, 3, "13", "1", "thread (1): other", DUMP_ACTIVE); /* same TID, other process */
	struct gil_figure f[GIL_FIGURES_MAX];
	size_t n = gil_dumps_summary(d, 4, f);
	assert_int_equal(n, 5);
	assert_true(f[0].is_count && f[0].count == 4);
	assert_string_equal(f[1].name, "snapshots_with_gil");
	assert_true(f[1].count == 2);
	assert_true(figure(f, n, "mean_active_threads")->value == 1.0);
	assert_true(figure(f, n, "gil_utilization_pct")->value == 50.0);
	assert_true(figure(f, n, "gil_share_of_active_pct")->value == 50.0);
	/* Two processes: a process column, shares of each one's own snapshots (3 and 1). */
	assert_int_equal(gil_dumps_processes(d), 2);
	assert_true(gil_dumps_process_snapshots(d, 0) == 3 && gil_dumps_process_snapshots(d, 1) == 1);
	table *t = gil_dumps_table(d, 4, 0);
	char *text = written(t, TABLE_TSV, 0);
	assert_string_equal(text,
		"process\tthread\tseen\tactive\tgil\tactive_pct\tgil_pct\n"
		"12\tthread (1): Main\t3\t2\t1\t66.67\t33.33\n"
		"12\tthread (2): w\t2\t1\t1\t33.33\t33.33\n"
		"13\tthread (1): other\t1\t1\t0\t100.00\t0.00\n");
	free(text);
	table_free(t);
	t = gil_dumps_procs_summary(d);
	text = written(t, TABLE_TSV, 0);
	assert_string_equal(text,
		"process\tsnapshots\tsnapshots_with_gil\tmean_active_threads\tgil_utilization_pct\t"
		"gil_share_of_active_pct\n"
		"12\t3\t2\t1.00\t66.7\t66.7\n"
		"13\t1\t0\t1.00\t0.0\t0.0\n");
	free(text);
	table_free(t);
	gil_dumps_free(d);

	/* --pid: one process, the other's threads never counted. */
	d = gil_dumps_new();
	gil_dumps_keep_pid(d, "13");
	thread(d, 1, "12", "1", "thread (1): Main", DUMP_ACTIVE_GIL);
	thread(d, 2, "13", "1", "thread (1): other", DUMP_ACTIVE);
	assert_int_equal(gil_dumps_processes(d), 1);
	assert_true(gil_dumps_process_snapshots(d, 0) == 1);
	t = gil_dumps_table(d, 1, 0);
	text = written(t, TABLE_TSV, 0);
	assert_string_equal(text, "thread\tseen\tactive\tgil\tactive_pct\tgil_pct\n"
				  "thread (1): other\t1\t1\t0\t100.00\t0.00\n");
	free(text);
	table_free(t);
	gil_dumps_free(d);

	/* No thread ever active: no share. */
	d = gil_dumps_new();
	thread(d, 1, NULL, "1", "thread (1)", DUMP_IDLE);
	n = gil_dumps_summary(d, 1, f);
	assert_true(figure(f, n, "mean_active_threads")->value == 0.0);
	assert_true(isnan(figure(f, n, "gil_share_of_active_pct")->value));
	gil_dumps_free(d);
}

/* The report with a two-row summary and a one-row keys table. */
static char *report(enum table_format format, enum gil_part part)
{
	const struct gil_figure f[] = {
		{ "snapshots", 0, 0, NULL, 1, 3 },
		{ "gil_pct", 33.333, 1, NULL, 0, 0 },
		{ "skipped", NAN, 1, NULL, 0, 0 },
		{ "note", NAN, 0, "a note", 0, 0 },
	};
	const struct table_column cols[] = { { "thread", TABLE_STR, 0 }, { "gil", TABLE_UINT, 0 } };
	table *t = table_new(cols, 2);
	table_add_row(t);
	table_set_str(t, 0, "main", 4);
	table_set_uint(t, 1, 7);
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	gil_write(out, format, part, f, 4, t, 0);
	fclose(out);
	table_free(t);
	return buf;
}

static void test_proc_name(void **state)
{
	(void)state;
	char *s = gil_proc_name("process 51231:\"python -u train.py\"", 34);
	assert_string_equal(s, "51231: python -u train.py");
	free(s);
	s = gil_proc_name("process 7:\"x\"", 13);
	assert_string_equal(s, "7: x");
	free(s);
}

/* Two torchrun workers, each holding its GIL 800 of 1000 ticks: per process 80%. */
static void test_split(void **state)
{
	(void)state;
	char total[512], gil[512];
	snprintf(total, sizeof total, "%s/gil/subproc-total.txt", getenv("SIFT_TESTDATA"));
	snprintf(gil, sizeof gil, "%s/gil/subproc-gil.txt", getenv("SIFT_TESTDATA"));
	struct agg_spec keys = { { KEY_THREAD, KEY_THREAD }, 1, NULL, 0 };
	struct load_opts lopts;
	memset(&lopts, 0, sizeof lopts);
	struct err_lines errs;
	err_lines_init(&errs);
	gil_split *ts = gil_split_new(&keys), *gs = gil_split_new(&keys);
	char *tf[] = { total }, *gf[] = { gil };
	assert_int_equal(gil_split_read(ts, tf, 1, &lopts, &errs), 0);
	assert_int_equal(gil_split_read(gs, gf, 1, &lopts, &errs), 0);
	/* the launcher is only a parent: no row */
	assert_int_equal(gil_split_align(ts, gs, NULL), 2);
	assert_string_equal(gil_split_proc(ts, 0)->name, "51231: /usr/bin/python3 -u train.py --local-rank=0");
	assert_true(gil_split_proc(ts, 0)->samples == 1300 && gil_split_proc(ts, 1)->samples == 1311);
	assert_true(gil_split_proc(gs, 0)->samples == 800 && gil_split_proc(gs, 1)->samples == 800);
	assert_int_equal(gil_split_proc(ts, 0)->idle_threads, 0);
	struct gil_side t = { NULL, 0, 10, 100 }, g = { NULL, 0, 10, 100 };
	table *sum = gil_procs_summary(ts, gs, &t, &g);
	char *text = written(sum, TABLE_TSV, 0);
	assert_string_equal(text,
		"process\ttotal_samples\tgil_samples\tmean_active_threads\tgil_utilization_pct\t"
		"gil_share_of_active_pct\n"
		"51231: /usr/bin/python3 -u train.py --local-rank=0\t1300\t800\t1.30\t80.0\t61.5\n"
		"51232: /usr/bin/python3 -u train.py --local-rank=1\t1311\t800\t1.31\t80.0\t61.0\n");
	free(text);
	table_free(sum);
	table *k = gil_procs_keys(ts, gs, &t, &g, &keys, 1);
	text = written(k, TABLE_TSV, 0);
	assert_string_equal(text,
		"process\tthread\ttotal\tgil\ttotal_per_s\tgil_per_s\tgil_share_pct\tflag\n"
		"51231: /usr/bin/python3 -u train.py --local-rank=0\tthread (51231): MainThread\t950\t700\t"
		"0.9500\t0.7000\t73.68\t\n");
	free(text);
	table_free(k);
	/* 800 GIL samples a process fit 10 s at 100 Hz; 5 s allow 525 at most */
	char msg[512];
	assert_int_equal(gil_split_check_rate(gs, &g, msg, sizeof msg), 0);
	struct gil_side short_g = { NULL, 0, 5, 100 };
	assert_int_equal(gil_split_check_rate(gs, &short_g, msg, sizeof msg), -1);
	assert_string_equal(msg, "the GIL profile of process 51231: /usr/bin/python3 -u train.py "
			    "--local-rank=0 has 800 samples, more than 5 s at 100 Hz allow: only one "
			    "thread holds a process's GIL at a time (wrong seconds or rate, or not a "
			    "--gil profile?)");
	gil_split_free(ts);
	gil_split_free(gs);

	/* --pid keeps one; an absent one keeps none */
	ts = gil_split_new(&keys);
	gs = gil_split_new(&keys);
	assert_int_equal(gil_split_read(ts, tf, 1, &lopts, &errs), 0);
	assert_int_equal(gil_split_read(gs, gf, 1, &lopts, &errs), 0);
	assert_int_equal(gil_split_align(ts, gs, "51232"), 1);
	assert_true(gil_split_proc(ts, 0)->samples == 1311);
	gil_split_free(ts);
	gil_split_free(gs);
	ts = gil_split_new(&keys);
	gs = gil_split_new(&keys);
	assert_int_equal(gil_split_align(ts, gs, "4242"), 0);
	gil_split_free(ts);
	gil_split_free(gs);
}

/* An --idle recording: four threads with 597 to 600 samples. */
static void test_split_idle(void **state)
{
	(void)state;
	char path[512];
	snprintf(path, sizeof path, "%s/raw/idle-recording.txt", getenv("SIFT_TESTDATA"));
	struct agg_spec keys = { { KEY_THREAD, KEY_THREAD }, 1, NULL, 0 };
	struct load_opts lopts;
	memset(&lopts, 0, sizeof lopts);
	struct err_lines errs;
	err_lines_init(&errs);
	gil_split *s = gil_split_new(&keys), *g = gil_split_new(&keys);
	char *files[] = { path };
	assert_int_equal(gil_split_read(s, files, 1, &lopts, &errs), 0);
	assert_int_equal(gil_split_align(s, g, NULL), 1);
	const struct gil_proc *p = gil_split_proc(s, 0);
	assert_int_equal(p->idle_threads, 4);
	assert_true(p->idle_min == 597 && p->idle_max == 600);
	gil_split_free(s);
	gil_split_free(g);
}

static void test_write(void **state)
{
	(void)state;
	char *s = report(TABLE_TEXT, GIL_BOTH);
	assert_string_equal(s, "snapshots                  3\n"
			       "gil_pct                    33.3\n"
			       "note                       a note\n"
			       "\n"
			       "thread  gil\n"
			       "main      7\n");
	free(s);
	s = report(TABLE_CSV, GIL_SUMMARY);
	assert_string_equal(s, "name,value\r\nsnapshots,3\r\ngil_pct,33.3\r\nnote,a note\r\n");
	free(s);
	s = report(TABLE_TSV, GIL_KEYS);
	assert_string_equal(s, "thread\tgil\nmain\t7\n");
	free(s);
	s = report(TABLE_JSON, GIL_BOTH);
	assert_string_equal(s, "{\n\"summary\": {\n  \"snapshots\": 3,\n  \"gil_pct\": 33.3,\n"
			       "  \"note\": \"a note\"\n},\n\"keys\": [\n  {\n    \"thread\": \"main\",\n"
			       "    \"gil\": 7\n  }\n]\n}\n");
	free(s);
	s = report(TABLE_JSON, GIL_SUMMARY);
	assert_string_equal(s, "{\n  \"snapshots\": 3,\n  \"gil_pct\": 33.3,\n  \"note\": \"a note\"\n}\n");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_per_wall_second),
		cmocka_unit_test(test_summary_timed),
		cmocka_unit_test(test_summary_untimed),
		cmocka_unit_test(test_rows_untimed),
		cmocka_unit_test(test_rows_timed),
		cmocka_unit_test(test_dumps),
		cmocka_unit_test(test_proc_name),
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_split_idle),
		cmocka_unit_test(test_write),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
