/* test_dump: py-spy dump text snapshots into threads, noise and all. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lines.h"

#include "dump.h"
#include "xalloc.h"

/* What the callback saw, one line per thread: "SNAP|PROCS|THREADFRAME|STATUS|NFRAMES|LEAF|ROOT|CUT". */
struct seen { char out[4096]; size_t used; };

static void take_dump(void *d, struct in_line *line) { dump_line(d, line); }

static void record(void *ctx, const struct dump_thread *t)
{
	struct seen *s = ctx;
	char procs[512] = "";
	if (t->header_only) {
		s->used += (size_t)snprintf(s->out + s->used, sizeof s->out - s->used, "%llu|%.*s|header only|%lu\n",
			(unsigned long long)t->snapshot, (int)t->procs[t->nprocs - 1].frame.len,
			t->procs[t->nprocs - 1].frame.s, t->lineno);
		return;
	}
	for (size_t i = 0; i < t->nprocs; i++) {
		strncat(procs, t->procs[i].frame.s, t->procs[i].frame.len);
		strcat(procs, ",");
	}
	s->used += (size_t)snprintf(s->out + s->used, sizeof s->out - s->used, "%llu|%s|%.*s|%s|%zu|%.*s|%.*s|%d\n",
		(unsigned long long)t->snapshot, procs, (int)t->thread_frame.len, t->thread_frame.s,
		dump_status_names[t->status], t->nframes,
		t->nframes ? (int)t->frames[0].len : 0, t->nframes ? t->frames[0].s : "",
		t->nframes ? (int)t->frames[t->nframes - 1].len : 0, t->nframes ? t->frames[t->nframes - 1].s : "",
		t->cut_off);
}

/* Feed text (lines split on \n; a missing final \n marks the last line unterminated). */
static void feed(const char *text, struct seen *s, struct err_lines *errs, struct dump_stats *st)
{
	dump_parser *d = dump_new(errs, record, s);
	feed_lines(text, "t", take_dump, d);
	dump_finish(d);
	*st = *dump_get_stats(d);
	dump_free(d);
}

static void test_basic_snapshot(void **state)
{
	(void)state;
	struct seen s = { "", 0 };
	struct err_lines errs;
	struct dump_stats st;
	err_lines_init(&errs);
	feed("Process 12: python train.py\nPython v3.12.1 (/usr/bin/python3)\n\n"
	     "Thread 12 (active+gil): \"MainThread\"\n    leaf (a.py:3)\n    main (a.py:9)\n"
	     "Thread 0x7F8C69A78740 (idle)\n"
	     "Thread 13 (active): \"Thread-1 (worker)\"\n    cuLaunchKernel (libcuda.so.1)\n",
	     &s, &errs, &st);
	assert_string_equal(s.out,
		"1|process 12:\"python train.py\",|thread (12): MainThread|active+gil|2|leaf (a.py:3)|main (a.py:9)|0\n"
		"1|process 12:\"python train.py\",|thread (0x7f8c69a78740)|idle|0|||0\n"
		"1|process 12:\"python train.py\",|thread (13): Thread-1 (worker)|active|1|cuLaunchKernel (libcuda.so.1)|cuLaunchKernel (libcuda.so.1)|0\n");
	assert_int_equal(st.snapshots, 1);
	assert_int_equal(st.threads, 3);
	assert_int_equal(errs.bad, 0);
	assert_int_equal(errs.skipped, 1);
}

static void test_locals_noise_and_errors(void **state)
{
	(void)state;
	struct seen s = { "", 0 };
	struct err_lines errs;
	struct dump_stats st;
	err_lines_init(&errs);
	feed("$ py-spy dump --pid 7 --locals\n--- dump 1 @ 22:26 ---\n"
	     "\x1b[1mProcess \x1b[33m7\x1b[0m: x\nPython v3.11.2\n"
	     "Thread 7 (idle): \"MainThread\"\n    poll (zmq/poll.py:106)\n        Arguments:\n"
	     "            self: <Poller at 0x1>\n        Locals:\n            t: tensor([[1, 2],\n"
	     "        [3, 4]])\nINFO 05-08 worker says hi\n    main (m.py:1)\n"
	     "Error: Failed to suspend process\nCaused by:\n    0: Operation not permitted (os error 1)\n"
	     "--- dump 2 @ 22:27 ---\n"
	     "Thread 7 (active): \"MainThread\"\n    main (m.py:1)\n",
	     &s, &errs, &st);
	assert_string_equal(s.out,
		"1|process 7:\"x\",|thread (7): MainThread|idle|2|poll (zmq/poll.py:106)|main (m.py:1)|0\n"
		"2|process 7:\"x\",|thread (7): MainThread|active|1|main (m.py:1)|main (m.py:1)|0\n");
	assert_int_equal(st.snapshots, 2);
	assert_int_equal(errs.bad, 0);
	/* prompt, 2 separators, 5 locals lines, log line, 3 error lines */
	assert_int_equal(errs.skipped, 12);
}

static void test_subprocesses_and_markdown(void **state)
{
	(void)state;
	struct seen s = { "", 0 };
	struct err_lines errs;
	struct dump_stats st;
	err_lines_init(&errs);
	feed("    Process 1: torchrun\n    Python v3.10.0 (/bin/python)\n\n"
	     "    Thread 1 (idle): \"MainThread\"\n        wait (t.py:5)\n\n    ----------------------\n"
	     "    Process 2: worker\n    Python v3.10.0 (/bin/python)\n    Parent Process 1: torchrun\n\n"
	     "    Thread 2 (active+gil): \"MainThread\"\n        step (w.py:9)\n"
	     "Process 1: torchrun\nThread 1 (idle): \"MainThread\"\n",
	     &s, &errs, &st);
	assert_string_equal(s.out,
		"1|process 1:\"torchrun\",|thread (1): MainThread|idle|1|wait (t.py:5)|wait (t.py:5)|0\n"
		"1|process 1:\"torchrun\",process 2:\"worker\",|thread (2): MainThread|active+gil|1|step (w.py:9)|step (w.py:9)|0\n"
		"2|process 1:\"torchrun\",|thread (1): MainThread|idle|0|||0\n");
	assert_int_equal(st.snapshots, 2);
}

static void test_headerless_repeat_and_cut_off(void **state)
{
	(void)state;
	struct seen s = { "", 0 };
	struct err_lines errs;
	struct dump_stats st;
	err_lines_init(&errs);
	errs.limit = 0;
	feed("Thread 5 (active): \"A\"\n    f (a.py:1)\nThread 6 (idle): \"B\"\n"
	     "Thread 5 (active): \"A\"\n    g (a.py:2)\n    f (a.py:1)\n    _bootstrap (threadi",
	     &s, &errs, &st);
	assert_string_equal(s.out,
		"1||thread (5): A|active|1|f (a.py:1)|f (a.py:1)|0\n"
		"1||thread (6): B|idle|0|||0\n"
		"2||thread (5): A|active|2|g (a.py:2)|f (a.py:1)|1\n");
	assert_int_equal(st.snapshots, 2);
	assert_int_equal(st.cut_off, 1);
	assert_int_equal(errs.bad, 1);
}

static void test_bad_lines(void **state)
{
	(void)state;
	struct seen s = { "", 0 };
	struct err_lines errs;
	struct dump_stats st;
	err_lines_init(&errs);
	errs.limit = 0;
	feed("Thread 5 (sleeping): \"A\"\nThread 6 (idle): \"B\"\n    not a frame\n", &s, &errs, &st);
	assert_string_equal(s.out, "1||thread (6): B|idle|0|||0\n");
	assert_int_equal(errs.bad, 2);
}

static void test_ray_stack_py_spy_01(void **state)
{
	(void)state;
	struct seen s = { "", 0 };
	struct err_lines errs;
	struct dump_stats st;
	err_lines_init(&errs);
	/* `ray stack` (a ps aux line per process) over py-spy 0.1 (tab-and-space frames), then
	 * over a later py-spy whose own Process line names the same process: one snapshot each */
	feed("Stack dump for ddrl     20768  0.1  0.1 1751908 151888 pts/0  Sl   12:48   0:01 ray_worker\n"
	     "Thread 0x7F4AA36D9700 (active)\n\t run (threading.py:864)\n\t _bootstrap (threading.py:884)\n"
	     "Thread 0x7F4AACDE7700 (active)\n\t main_loop (ray/worker.py:1005)\n"
	     "\t <module> (ray/workers/default_worker.py:105)\n\n"
	     "Stack dump for u+   56364  2.0  0.1 14248876 69280 ?      Sl   10:34   0:01 ray::IDLE\n"
	     "Process 56364: ray::IDLE\nPython v3.8.6 (/usr/bin/python3.8)\n\n"
	     "Thread 56364 (idle): \"MainThread\"\n    main_loop (ray/worker.py:382)\n"
	     "Stack dump for u 1 2\n",
	     &s, &errs, &st);
	assert_string_equal(s.out,
		"1|process 20768:\"ray_worker\",|thread (0x7f4aa36d9700)|active|2|run (threading.py:864)|_bootstrap (threading.py:884)|0\n"
		"1|process 20768:\"ray_worker\",|thread (0x7f4aacde7700)|active|2|main_loop (ray/worker.py:1005)|<module> (ray/workers/default_worker.py:105)|0\n"
		"2|process 56364:\"ray::IDLE\",|thread (56364): MainThread|idle|1|main_loop (ray/worker.py:382)|main_loop (ray/worker.py:382)|0\n");
	assert_int_equal(st.snapshots, 2);
	assert_int_equal(st.threads, 3);
	assert_int_equal(errs.bad, 0);
	assert_int_equal(errs.skipped, 3); /* two blank lines and the short ps line, not a header */
}

/* A process header no thread follows (its dump cut off, failed, or its thread line broken)
 * is said once, with no thread; a process with threads never is. */
static void test_header_only(void **state)
{
	(void)state;
	struct seen s = { "", 0 };
	struct err_lines errs;
	struct dump_stats st;
	err_lines_init(&errs);
	feed("Process 1: a\nThread 1 (idle): \"MainThread\"\n    m (a.py:1)\n"
	     "Process 2: a\nPython v3.10.12\nError: Failed to suspend process\n"
	     "Process 3: a\nThread 3 (runnning): \"MainThread\"\n    m (a.py:1)\n"
	     "Stack dump for u 4 0.0 0.0 1 1 ? S 10:34 0:01 ray::IDLE\nProcess 4: ray::IDLE\n",
	     &s, &errs, &st);
	assert_string_equal(s.out,
		"1|process 1:\"a\",|thread (1): MainThread|idle|1|m (a.py:1)|m (a.py:1)|0\n"
		"2|process 2:\"a\"|header only|4\n"
		"3|process 3:\"a\"|header only|7\n"
		"4|process 4:\"ray::IDLE\"|header only|11\n");
	assert_int_equal(st.snapshots, 4);
	assert_int_equal(st.threads, 1);
	assert_int_equal(errs.bad, 1);
}

static void test_strip_ansi(void **state)
{
	(void)state;
	char text[] = "\x1b[1;33mThread\x1b[0m 1\x1b(";
	size_t len = dump_strip_ansi(text, strlen(text));
	assert_int_equal(len, 8);
	assert_string_equal(text, "Thread 1");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basic_snapshot),
		cmocka_unit_test(test_locals_noise_and_errors),
		cmocka_unit_test(test_subprocesses_and_markdown),
		cmocka_unit_test(test_headerless_repeat_and_cut_off),
		cmocka_unit_test(test_bad_lines),
		cmocka_unit_test(test_ray_stack_py_spy_01),
		cmocka_unit_test(test_header_only),
		cmocka_unit_test(test_strip_ansi),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
