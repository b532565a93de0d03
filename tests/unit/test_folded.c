/* test_folded: the folded line parser and frame splitter. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "folded.h"
#include "intern.h"

static enum folded_result parse(const char *line, struct folded_line *out, const char **reason)
{
	return folded_parse(line, strlen(line), out, reason);
}

static void test_count_after_last_space(void **state)
{
	(void)state;
	struct folded_line fl;
	const char *reason = NULL;
	assert_int_equal(parse("a (x.py:1);b c (y.py:2) 42", &fl, &reason), FOLDED_OK);
	assert_int_equal(fl.count, 42);
	assert_int_equal(fl.len, strlen("a (x.py:1);b c (y.py:2)"));
	assert_memory_equal(fl.stack, "a (x.py:1);b c (y.py:2)", fl.len);
}

static void test_indentation_and_empty_stack(void **state)
{
	(void)state;
	struct folded_line fl;
	const char *reason = NULL;
	assert_int_equal(parse("    main;leaf 7  ", &fl, &reason), FOLDED_OK);
	assert_int_equal(fl.count, 7);
	assert_int_equal(fl.len, 9);
	assert_int_equal(parse(" 4", &fl, &reason), FOLDED_OK);
	assert_int_equal(fl.len, 0);
	assert_int_equal(fl.count, 4);
	assert_int_equal(parse("   ", &fl, &reason), FOLDED_BLANK);
}

static void test_bad_counts(void **state)
{
	(void)state;
	struct folded_line fl;
	const char *reason = NULL;
	assert_int_equal(parse("main;leaf", &fl, &reason), FOLDED_BAD);
	assert_string_equal(reason, "no count after the stack");
	assert_int_equal(parse("main;leaf -3", &fl, &reason), FOLDED_BAD);
	assert_string_equal(reason, "negative count");
	assert_int_equal(parse("main;leaf 2.5", &fl, &reason), FOLDED_BAD);
	assert_string_equal(reason, "count is not an integer");
	assert_int_equal(parse("main;leaf 18446744073709551616", &fl, &reason), FOLDED_BAD);
	assert_string_equal(reason, "count overflows 64 bits");
	assert_int_equal(parse("main;leaf 18446744073709551615", &fl, &reason), FOLDED_OK);
	assert_true(fl.count == UINT64_MAX);
	assert_int_equal(folded_parse("ma\0in 3", 7, &fl, &reason), FOLDED_BAD);
	assert_string_equal(reason, "NUL byte in line");
	assert_int_equal(parse("ma\xff\xfein 3", &fl, &reason), FOLDED_BAD);
	assert_string_equal(reason, "invalid UTF-8");
}

static int frames(const char *stack, const char **out, size_t *lens, int max)
{
	size_t pos = 0, len;
	const char *f;
	int n = 0;
	while (n < max && folded_next_frame(stack, strlen(stack), &pos, &f, &len)) {
		out[n] = f;
		lens[n++] = len;
	}
	return n;
}

static void test_process_cmdline_keeps_semicolons(void **state)
{
	(void)state;
	const char *f[8];
	size_t l[8];
	const char *stack = "process 12:\"python -c import a; a.run()\";thread (13): Thread-1 (worker);run (a.py:3)";
	assert_int_equal(frames(stack, f, l, 8), 3);
	assert_int_equal(l[0], strlen("process 12:\"python -c import a; a.run()\""));
	assert_memory_equal(f[1], "thread (13): Thread-1 (worker)", l[1]);
	assert_memory_equal(f[2], "run (a.py:3)", l[2]);
	assert_int_equal(frames("process 1:\"\";x", f, l, 8), 2);
	assert_int_equal(l[0], strlen("process 1:\"\""));
}

static void test_empty_frames_are_visible(void **state)
{
	(void)state;
	const char *f[8];
	size_t l[8];
	assert_int_equal(frames("a;;b", f, l, 8), 3);
	assert_int_equal(l[1], 0);
	assert_int_equal(frames("a;b;", f, l, 8), 3);
	assert_int_equal(l[2], 0);
	assert_int_equal(frames("", f, l, 8), 0);
}

/* The hashed split gives folded_next_frame's frames and each frame's intern_hash, wherever
 * the ';' falls in or across the 16- and 8-byte steps of its search. */
static void test_hashed_split_matches_plain(void **state)
{
	(void)state;
	char stack[256];
	for (size_t a = 0; a < 40; a++) {
		for (size_t b = 0; b < 40; b += 3) {
			size_t n = 0;
			for (size_t i = 0; i < a; i++)
				stack[n++] = (char)('a' + i % 26);
			stack[n++] = ';';
			for (size_t i = 0; i < b; i++)
				stack[n++] = (char)('A' + i % 26);
			if (b % 2)
				stack[n++] = ';';  /* a trailing ';': an empty last frame */
			memcpy(stack + n, "process 7:\"x;y\";z", 17);
			size_t len = a % 3 ? n : n + 17;
			size_t p1 = 0, p2 = 0, l1, l2;
			const char *f1, *f2;
			uint64_t h;
			int frames = 0;
			for (;;) {
				int more = folded_next_frame(stack, len, &p1, &f1, &l1);
				assert_int_equal(folded_next_frame_hashed(stack, len, &p2, &f2, &l2, &h), more);
				if (!more)
					break;
				frames++;
				assert_ptr_equal(f1, f2);
				assert_int_equal(l1, l2);
				assert_int_equal(p1, p2);
				assert_true(h == intern_hash(f1, l1));
			}
			assert_true(frames >= 2);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_count_after_last_space),
		cmocka_unit_test(test_indentation_and_empty_stack),
		cmocka_unit_test(test_bad_counts),
		cmocka_unit_test(test_process_cmdline_keeps_semicolons),
		cmocka_unit_test(test_empty_frames_are_visible),
		cmocka_unit_test(test_hashed_split_matches_plain),
	};
	return cmocka_run_group_tests_name("folded", tests, NULL, NULL);
}
