/* test_sniff: which format a line proves. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "sniff.h"

static enum load_format f(const char *s) { return sniff_line(s, strlen(s)); }

static void test_lines(void **state)
{
	(void)state;
	assert_int_equal(f(""), LOAD_AUTO);
	assert_int_equal(f("   "), LOAD_AUTO);
	assert_int_equal(f("$ py-spy dump --pid 1234"), LOAD_AUTO);
	assert_int_equal(f("--- dump 1 @ 2026-05-08T22:26:06+00:00 ---"), LOAD_AUTO);
	assert_int_equal(f("[2024-05-01 12:00:00] INFO starting"), LOAD_AUTO);
	assert_int_equal(f("Process 3807299: VLLM::Worker_TP0"), LOAD_DUMP);
	assert_int_equal(f("\x1b[1mProcess \x1b[33m12\x1b[0m: x"), LOAD_DUMP);
	assert_int_equal(f("    Thread 12 (idle): \"MainThread\""), LOAD_DUMP);
	assert_int_equal(f("Python v3.12.13 (/usr/bin/python3.12)"), LOAD_DUMP);
	assert_int_equal(f("Parent Process 1: torchrun"), LOAD_DUMP);
	assert_int_equal(f("["), LOAD_JSON);
	assert_int_equal(f("[{\"pid\": 1,"), LOAD_JSON);
	assert_int_equal(f("  {"), LOAD_JSON);
	assert_int_equal(f("main (a.py:1);leaf (b.py:2) 7"), LOAD_RAW);
	assert_int_equal(f(" 4"), LOAD_RAW);
	assert_int_equal(f("thread (12): MainThread;main (a.py:1) 3"), LOAD_RAW);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
