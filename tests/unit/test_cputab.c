/* test_cputab: top -H, ps and pidstat per-thread CPU. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lines.h"

#include "cputab.h"
#include "xalloc.h"

static void take_cpu(void *t, struct in_line *line) { cpu_line(t, line); }

static cpu_table *feed(const char *text, struct err_lines *errs)
{
	cpu_table *t = cpu_new(errs);
	feed_lines(text, "c", take_cpu, t);
	return t;
}

static void test_top_iterations(void **state)
{
	(void)state;
	struct err_lines errs;
	err_lines_init(&errs);
	cpu_table *t = feed(
		"top - 06:58:44 up 2 days, 18:35,  0 users,  load average: 20.08, 13.92, 11.63\n"
		"Threads:  63 total,   0 running,  63 sleeping,   0 stopped,   0 zombie\n"
		"MiB Mem : 2063184.+total, 1811096.+free,  74279.5 used, 177809.0 buff/cache\n\n"
		"    PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND\n"
		"3807299 root      20   0  230.3g   2.0g 769476 S   6.0   0.1   0:18.83 VLLM::W+\n"
		"3811944 root      20   0  230.3g   2.0g 769476 S   0.0   0.1   0:00.00 pt_nccl+\n"
		"top - 06:58:45 up 2 days, 18:35,  0 users,  load average: 20.08, 13.92, 11.63\n"
		"    PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND\n"
		"3807299 root      20   0  230.3g   2.0g 769476 R   5.0   0.1   0:18.89 VLLM::W+\n"
		"3811944 root      20   0  230.3g   2.0g 769476 S   1.0   0.1   0:00.00 Thread 1 x\n", &errs);
	assert_int_equal(cpu_source(t), CPU_TOP);
	assert_int_equal(cpu_count(t), 2);
	const struct cpu_thread *c = cpu_find(t, 3807299);
	assert_non_null(c);
	assert_int_equal(c->samples, 2);
	assert_true(c->sum == 11.0 && c->max == 6.0);
	assert_int_equal(c->pid, 0);
	assert_string_equal(c->name, "VLLM::W+");
	c = cpu_find(t, 3811944);
	assert_string_equal(c->name, "Thread 1 x");
	assert_true(c->max == 1.0);
	assert_null(cpu_find(t, 1));
	assert_int_equal(errs.bad, 0);
	assert_int_equal(errs.skipped, 7);
	cpu_free(t);
}

static void test_ps_with_and_without_header(void **state)
{
	(void)state;
	struct err_lines errs;
	err_lines_init(&errs);
	cpu_table *t = feed("  12   12  0.5 python\n  12   14 97.0 pt_autograd_0\n", &errs);
	assert_int_equal(cpu_source(t), CPU_PS);
	assert_int_equal(cpu_count(t), 2);
	assert_int_equal(cpu_at(t, 1)->tid, 14);
	assert_int_equal(cpu_at(t, 1)->pid, 12);
	assert_string_equal(cpu_at(t, 1)->name, "pt_autograd_0");
	assert_true(cpu_at(t, 1)->sum == 97.0);
	cpu_free(t);
	t = feed("    PID     LWP %CPU CMD\n     12      13  2.5 pin_memory\n", &errs);
	assert_int_equal(cpu_source(t), CPU_PS);
	assert_int_equal(cpu_find(t, 13)->pid, 12);
	assert_true(cpu_find(t, 13)->sum == 2.5);
	cpu_free(t);
}

static void test_pidstat(void **state)
{
	(void)state;
	struct err_lines errs;
	err_lines_init(&errs);
	cpu_table *t = feed(
		"Linux 5.15.0 (host) \t05/01/24 \t_x86_64_\t(8 CPU)\n\n"
		"12:00:01 PM   UID      TGID       TID    %usr %system  %guest   %wait    %CPU   CPU  Command\n"
		"12:00:02 PM  1000      2456         -   50.00    2.00    0.00    0.00   52.00     3  python\n"
		"12:00:02 PM  1000         -      2456   40.00    1.00    0.00    0.00   41.00     3  |__python\n"
		"12:00:02 PM  1000         -      2460   10.00    1.00    0.00    0.00   11.00     5  |__pt_nccl_watch\n"
		"Average:      UID      TGID       TID    %usr %system  %guest   %wait    %CPU   CPU  Command\n"
		"Average:     1000         -      2456   40.00    1.00    0.00    0.00   41.00     -  |__python\n", &errs);
	assert_int_equal(cpu_source(t), CPU_PIDSTAT);
	assert_int_equal(cpu_count(t), 2);
	const struct cpu_thread *c = cpu_find(t, 2460);
	assert_int_equal(c->pid, 2456);
	assert_string_equal(c->name, "pt_nccl_watch");
	assert_int_equal(c->samples, 1);
	assert_true(c->sum == 11.0);
	assert_int_equal(errs.bad, 0);
	cpu_free(t);
}

/* ps -L and ps -eLf in their default columns, with and without the header. */
static void check_ps_shape(const char *text, int has_cpu, unsigned long skipped)
{
	struct err_lines errs;
	err_lines_init(&errs);
	cpu_table *t = feed(text, &errs);
	assert_int_equal(cpu_source(t), CPU_PS);
	assert_int_equal(cpu_count(t), 2);
	const struct cpu_thread *c = cpu_find(t, 3811944);
	assert_non_null(c);
	assert_int_equal(c->pid, 3807299);
	assert_int_equal(c->samples, has_cpu ? 1 : 0);
	assert_true(c->sum == (has_cpu ? 12.0 : 0.0));
	assert_int_equal(errs.skipped, skipped);
	assert_int_equal(errs.bad, 0);
	cpu_free(t);
}

static void test_ps_default_columns(void **state)
{
	(void)state;
	const char *ps_l_rows =
		"3807299 3807299 ?        01:02:03 VLLM::Worker_TP\n"
		"3807299 3811944 pts/1    00:10:00 pt_nccl_watchdo\n";
	const char *ps_elf_rows =
		"root     3807299 3807200 3807299 98   62 Nov29 ?        1-01:02:03 python -m x --model y\n"
		"1000     3807299 3807200 3811944 12   62 10:01 ?        00:10 python -m x --model y\n";
	char text[1024];
	check_ps_shape(ps_l_rows, 0, 0);
	snprintf(text, sizeof text, "    PID     LWP TTY          TIME CMD\n%s", ps_l_rows);
	check_ps_shape(text, 0, 1);
	check_ps_shape(ps_elf_rows, 1, 0);
	snprintf(text, sizeof text, "UID PID PPID LWP  C NLWP STIME TTY TIME CMD\n%s", ps_elf_rows);
	check_ps_shape(text, 1, 1);

	/* The first row fixes the shape: a later row of another shape is not a thread row. */
	struct err_lines errs;
	err_lines_init(&errs);
	snprintf(text, sizeof text, "%s3807299 3811945 7.5 other\n", ps_l_rows);
	cpu_table *t = feed(text, &errs);
	assert_int_equal(cpu_count(t), 2);
	assert_int_equal(errs.skipped, 1);
	cpu_free(t);

	/* Nothing recognisable: no source, no threads. */
	err_lines_init(&errs);
	t = feed("hello world\nnot a table\n", &errs);
	assert_int_equal(cpu_source(t), CPU_UNKNOWN);
	assert_int_equal(cpu_count(t), 0);
	cpu_free(t);
}

static void test_pidstat_without_threads(void **state)
{
	(void)state;
	struct err_lines errs;
	err_lines_init(&errs);
	cpu_table *t = feed(
		"10:26:06 PM   UID       PID    %usr %system  %guest   %wait    %CPU   CPU  Command\n"
		"10:26:07 PM     0   3807299   90.00    8.00    0.00    0.00   98.00    12  VLLM::Worker_TP\n", &errs);
	assert_int_equal(cpu_source(t), CPU_PIDSTAT);
	assert_int_equal(cpu_count(t), 1);
	cpu_free(t);
}

/* A row alone of each header-less ps shape is told; a header, a log line, a stack are not. */
static void test_headerless(void **state)
{
	(void)state;
	static const char *const yes[] = {
		"3807299 3807299  6.1 VLLM::Worker_TP",
		"3807299 3811944 ?        00:10:00 pt_nccl_watchdo",
		"root 3807299 1 3811944 12 64 10:01 ? 01:02:03 python train.py",
	};
	static const char *const no[] = {
		"  PID   TID %CPU COMMAND", "step 10 loss 2.5 lr 0.1", "main (a.py:1);f (a.py:2) 3", "12 13",
		"1 2 x y",
	};
	for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
		assert_int_equal(cpu_headerless(yes[i], strlen(yes[i])), 1);
	for (size_t i = 0; i < sizeof no / sizeof *no; i++)
		assert_int_equal(cpu_headerless(no[i], strlen(no[i])), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_top_iterations),
		cmocka_unit_test(test_ps_with_and_without_header),
		cmocka_unit_test(test_pidstat),
		cmocka_unit_test(test_ps_default_columns),
		cmocka_unit_test(test_pidstat_without_threads),
		cmocka_unit_test(test_headerless),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
