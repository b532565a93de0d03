/* test_threadtab: per-thread tallies of dump snapshots, most frequent leaf, hand-off and
 * category over active snapshots, the join with CPU by thread id, and the row order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <stdio.h>

#include "lines.h"

#include "threadtab.h"

static rules *launch_rules(void)
{
	static const char text[] = "launch\t^cuLaunch\n";
	char err[256];
	rules *r = rules_new();
	assert_int_equal(rules_add_text(r, "t.rules", text, strlen(text), err, sizeof err), 0);
	return r;
}

/* One thread of one snapshot; frames innermost first, NULL-terminated. */
static void thread(threadtab *t, uint64_t snapshot, const char *pid, const char *tid, const char *name,
		   enum dump_status status, const char *const *frames)
{
	struct dump_text text[8];
	struct dump_thread th;
	memset(&th, 0, sizeof th);
	th.snapshot = snapshot;
	th.tid = (struct dump_text){ tid, strlen(tid) };
	if (name) {
		th.name = (struct dump_text){ name, strlen(name) };
		th.has_name = 1;
	}
	th.status = status;
	if (pid) {
		th.procs[0].pid = (struct dump_text){ pid, strlen(pid) };
		th.nprocs = 1;
	}
	while (frames && frames[th.nframes]) {
		text[th.nframes] = (struct dump_text){ frames[th.nframes], strlen(frames[th.nframes]) };
		th.nframes++;
	}
	th.frames = text;
	threadtab_thread(t, &th);
}

static void dumps(threadtab *t)
{
	static const char *const launch[] = { "cuLaunchKernel (libcuda.so.1)", "step (train.py:5)", "main (train.py:1)", NULL };
	static const char *const wait[] = { "wait (threading.py:3)", NULL };
	static const char *const read[] = { "read (libc.so.6)", "load (data.py:9)", NULL };
	static const char *const sleep[] = { "sleep (t.py:1)", NULL };
	thread(t, 1, "7", "10", "Main", DUMP_ACTIVE_GIL, launch);
	thread(t, 1, "7", "11", "w", DUMP_IDLE, wait);
	thread(t, 2, "7", "10", "Main", DUMP_ACTIVE, read);
	thread(t, 3, "7", "10", "Main", DUMP_IDLE, sleep); /* idle: not counted when the thread was active */
	thread(t, 3, NULL, "0x1f", NULL, DUMP_ACTIVE, NULL);
}

static char *written(const table *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(table_write(t, f, TABLE_TSV, 0), 0);
	fclose(f);
	return buf;
}

#define HEADER "pid\ttid\tthread\tos_thread\tseen\tactive\tidle\tgil\tcpu_mean\tcpu_max\tleaf\thandoff\tcategory\n"

static void test_dumps_only(void **state)
{
	(void)state;
	rules *r = launch_rules();
	threadtab *t = threadtab_new(r);
	dumps(t);
	assert_int_equal(threadtab_count(t), 3);
	table *tab = threadtab_table(t, 0);
	char *text = written(tab);
	/* Leaf, hand-off and category tie 1:1 over tid 10's active snapshots: the first seen wins. */
	assert_string_equal(text, HEADER
		"7\t10\tMain\t\t3\t2\t1\t1\t\t\tcuLaunchKernel (libcuda.so.1)\t"
		"step (train.py:5) -> cuLaunchKernel (libcuda.so.1)\tlaunch\n"
		"\t0x1f\t\t\t1\t1\t0\t0\t\t\t\t\t\n"
		"7\t11\tw\t\t1\t0\t1\t0\t\t\twait (threading.py:3)\twait (threading.py:3)\tother\n");
	free(text);
	table_free(tab);
	threadtab_free(t);
	rules_free(r);
}

static void take_cpu(void *c, struct in_line *line) { cpu_line(c, line); }

#define DEEP "default_collate (/usr/lib/python3/dist-packages/torch/utils/data/_utils/collate.py:171)"
#define TEXT_HEADER "pid\ttid\tthread\tseen\tactive\tgil\tcpu_mean\tleaf\thandoff\tcategory\n"

/* Text for people: no os_thread, idle (seen less active) or cpu_max column, the OS thread's name where Python gave
 * none (shortened as a thread's), leaf and hand-off shortened with the function kept, the
 * hand-off's Python frame only, a hand-off that is the leaf as "="; --wide
 * (THREADTAB_TEXT_WIDE) every column whole, as TSV. */
static void test_text(void **state)
{
	(void)state;
	static const char *const deep[] = { DEEP, NULL };
	rules *r = launch_rules();
	struct err_lines errs;
	err_lines_init(&errs);
	cpu_table *cpu = cpu_new(&errs);
	feed_lines("  7   10 50.0 python\n  7   11  0.0 w\n  7   12  3.0 pt_autograd_worker_thread_0\n"
		   "  7   15  1.0 VLLM::Worker\n", "c", take_cpu, cpu);
	for (int wide = 0; wide < 2; wide++) {
		threadtab *t = threadtab_new(r);
		dumps(t);
		thread(t, 4, "7", "15", NULL, DUMP_ACTIVE, deep);
		assert_int_equal(threadtab_join_cpu(t, cpu), 4);
		table *tab = threadtab_table(t, wide ? THREADTAB_TEXT_WIDE : 1);
		char *text = written(tab);
		if (!wide)
			assert_string_equal(text, TEXT_HEADER
				"7\t10\tMain\t3\t2\t1\t50.00\tcuLaunchKernel (....so.1)\tstep (train.py:5)\tlaunch\n"
				"7\t12\tpt_autogr...thread_0\t0\t0\t0\t3.00\t\t\t\n"
				"7\t15\tVLLM::Worker\t1\t1\t0\t1.00\tdefault_collate (...:171)\t=\tother\n"
				"7\t11\tw\t1\t0\t0\t0.00\twait (threading.py:3)\t=\tother\n"
				"\t0x1f\t\t1\t1\t0\t\t\t\t\n");
		else
			assert_string_equal(text, HEADER
				"7\t10\tMain\tpython\t3\t2\t1\t1\t50.00\t50.00\tcuLaunchKernel (libcuda.so.1)\t"
				"step (train.py:5) -> cuLaunchKernel (libcuda.so.1)\tlaunch\n"
				"7\t12\t\tpt_autograd_worker_thread_0\t0\t0\t0\t0\t3.00\t3.00\t\t\t\n"
				"7\t15\t\tVLLM::Worker\t1\t1\t0\t0\t1.00\t1.00\t" DEEP "\t" DEEP "\tother\n"
				"7\t11\tw\tw\t1\t0\t1\t0\t0.00\t0.00\twait (threading.py:3)\twait (threading.py:3)\tother\n"
				"\t0x1f\t\t\t1\t1\t0\t0\t\t\t\t\t\n");
		free(text);
		table_free(tab);
		threadtab_free(t);  /* a table is made once a threadtab */
	}
	cpu_free(cpu);
	rules_free(r);
}

static void test_cpu_join(void **state)
{
	(void)state;
	rules *r = launch_rules();
	threadtab *t = threadtab_new(r);
	dumps(t);
	struct err_lines errs;
	err_lines_init(&errs);
	cpu_table *cpu = cpu_new(&errs);
	/* 12: CPU only, of dumped process 7: listed; 13: another process; 14: never on CPU. */
	feed_lines("  7   10 50.0 python\n  7   11  0.0 w\n  7   12  3.0 extra\n"
		   "  9   13  5.0 otherproc\n  7   14  0.0 zero\n", "c", take_cpu, cpu);
	assert_int_equal(threadtab_join_cpu(t, cpu), 3);
	assert_int_equal(threadtab_count(t), 4);
	table *tab = threadtab_table(t, 0);
	char *text = written(tab);
	/* By mean CPU; no CPU row (0x1f, not a decimal id) last. */
	assert_string_equal(text, HEADER
		"7\t10\tMain\tpython\t3\t2\t1\t1\t50.00\t50.00\tcuLaunchKernel (libcuda.so.1)\t"
		"step (train.py:5) -> cuLaunchKernel (libcuda.so.1)\tlaunch\n"
		"7\t12\t\textra\t0\t0\t0\t0\t3.00\t3.00\t\t\t\n"
		"7\t11\tw\tw\t1\t0\t1\t0\t0.00\t0.00\twait (threading.py:3)\twait (threading.py:3)\tother\n"
		"\t0x1f\t\t\t1\t1\t0\t0\t\t\t\t\t\n");
	free(text);
	table_free(tab);
	threadtab_free(t);
	cpu_free(cpu);

	/* Nothing dumped: every thread that used CPU, whatever its process. */
	t = threadtab_new(r);
	cpu = cpu_new(&errs);
	feed_lines("  7   10 50.0 python\n  9   13  5.0 otherproc\n  7   14  0.0 zero\n", "c", take_cpu, cpu);
	assert_int_equal(threadtab_join_cpu(t, cpu), 0);
	assert_int_equal(threadtab_count(t), 2);
	tab = threadtab_table(t, 0);
	text = written(tab);
	assert_string_equal(text, HEADER
		"7\t10\t\tpython\t0\t0\t0\t0\t50.00\t50.00\t\t\t\n"
		"9\t13\t\totherproc\t0\t0\t0\t0\t5.00\t5.00\t\t\t\n");
	free(text);
	table_free(tab);
	threadtab_free(t);
	cpu_free(cpu);
	rules_free(r);
}

static void test_order_ties(void **state)
{
	(void)state;
	rules *r = launch_rules();
	threadtab *t = threadtab_new(r);
	/* Same activity: more seen first, then the shorter id, then bytes. */
	thread(t, 1, NULL, "100", NULL, DUMP_ACTIVE, NULL);
	thread(t, 1, NULL, "20", NULL, DUMP_ACTIVE, NULL);
	thread(t, 1, NULL, "9", NULL, DUMP_ACTIVE, NULL);
	thread(t, 1, NULL, "10", NULL, DUMP_ACTIVE, NULL);
	thread(t, 2, NULL, "100", NULL, DUMP_IDLE, NULL);
	table *tab = threadtab_table(t, 0);
	char *text = written(tab);
	assert_string_equal(text, HEADER
		"\t100\t\t\t2\t1\t1\t0\t\t\t\t\t\n"
		"\t9\t\t\t1\t1\t0\t0\t\t\t\t\t\n"
		"\t10\t\t\t1\t1\t0\t0\t\t\t\t\t\n"
		"\t20\t\t\t1\t1\t0\t0\t\t\t\t\t\n");
	free(text);
	table_free(tab);
	threadtab_free(t);
	rules_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dumps_only),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_cpu_join),
		cmocka_unit_test(test_order_ties),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
