/* test_rx: compile errors, matching on UTF-8 and on invalid bytes, limits, named groups. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "rx.h"

static rx *compile(const char *pattern)
{
	char msg[256] = "";
	rx *re = rx_compile(pattern, strlen(pattern), msg, sizeof msg);
	assert_non_null(re);
	assert_string_equal(msg, "");
	return re;
}

static int match(rx *re, const char *s)
{
	char msg[256];
	return rx_match(re, s, strlen(s), msg, sizeof msg);
}

static void test_compile_error(void **state)
{
	(void)state;
	char msg[256];
	assert_null(rx_compile("a(b", 3, msg, sizeof msg));
	assert_string_equal(msg, "pattern error at offset 3: missing closing parenthesis");
	assert_null(rx_compile("*x", 2, msg, sizeof msg));
	assert_string_equal(msg, "pattern error at offset 0: quantifier does not follow a repeatable item");
}

static void test_match(void **state)
{
	(void)state;
	rx *re = compile("\\(libcuda");
	assert_string_equal(rx_pattern(re), "\\(libcuda");
	assert_int_equal(match(re, "cuLaunchKernel (libcuda.so.580.126.20)"), 1);
	assert_int_equal(match(re, "cudaLaunchKernel (libcudart.so.12)"), 1);
	assert_int_equal(match(re, "poll (libc.so.6)"), 0);
	rx_free(re);
	re = compile("^thread \\(\\d+\\): Thread-\\d+ \\(");
	assert_int_equal(match(re, "thread (781211): Thread-2 (process_output_sockets)"), 1);
	assert_int_equal(match(re, "thread (0x100850580)"), 0);
	rx_free(re);
	/* UTF-8 patterns; subjects that are not UTF-8 still match where they can. */
	re = compile("caf.$");
	assert_int_equal(match(re, "caf\xc3\xa9"), 1);
	assert_int_equal(match(re, "caf\xff"), 0);
	assert_int_equal(match(re, "x\xff caf\xc3\xa9"), 1);
	rx_free(re);
	/* Lengths, not NUL, end subjects. */
	re = compile("b$");
	char msg[64];
	assert_int_equal(rx_match(re, "ab", 1, msg, sizeof msg), 0);
	assert_int_equal(rx_match(re, "a\0b", 3, msg, sizeof msg), 1);
	rx_free(re);
	rx_free(NULL);
}

static void test_limit(void **state)
{
	(void)state;
	/* Catastrophic backtracking hits the match limit: an error, not a verdict. */
	rx *re = compile("^(a+)+$");
	char subject[64];
	memset(subject, 'a', 40);
	subject[40] = 'b';
	char msg[256] = "";
	assert_int_equal(rx_match(re, subject, 41, msg, sizeof msg), -1);
	assert_string_equal(msg, "pattern '^(a+)+$': match limit exceeded");
	rx_free(re);
}

static void test_groups(void **state)
{
	(void)state;
	rx *re = compile("(?<n>\\d+) (?<unit>tok/s)?");
	const char *s = "speed 1234 tok/s";
	const char *start;
	size_t len;
	char msg[64];
	assert_int_equal(rx_group(re, "n", &start, &len), 0); /* before any match */
	assert_int_equal(rx_match_groups(re, s, strlen(s), msg, sizeof msg), 1);
	assert_int_equal(rx_group(re, "n", &start, &len), 1);
	assert_int_equal(start - s, 6);
	assert_int_equal(len, 4);
	assert_int_equal(rx_group(re, "unit", &start, &len), 1);
	assert_memory_equal(start, "tok/s", 5);
	assert_int_equal(rx_group(re, "nope", &start, &len), 0);
	s = "12 ";
	assert_int_equal(rx_match_groups(re, s, 3, msg, sizeof msg), 1);
	assert_int_equal(rx_group(re, "unit", &start, &len), 0); /* unset */
	assert_int_equal(rx_match_groups(re, "none", 4, msg, sizeof msg), 0);
	assert_int_equal(rx_group(re, "n", &start, &len), 0);
	/* A plain match forgets the groups. */
	assert_int_equal(rx_match_groups(re, "7 ", 2, msg, sizeof msg), 1);
	assert_int_equal(rx_match(re, "8 ", 2, msg, sizeof msg), 1);
	assert_int_equal(rx_group(re, "n", &start, &len), 0);
	rx_free(re);
}

static void test_digit_blind(void **state)
{
	(void)state;
	static const struct {
		const char *pattern;
		int blind;
	} cases[] = {
		/* every digit alike: classes of all or none of them, counts of a quantifier */
		{ "\\bstep:\\s*(?<step>\\d+)\\s+loss:\\s*(?<loss>\\S+)", 1 },
		{ "(?<tput>[0-9][^\\s,\\]]*?)(?<unit>it/s|s/it)", 1 },
		{ "a{2}b{1,}c{3,10}[^0-9]\\p{Nd}", 1 },
		{ "[]0-9]x", 1 },
		/* a digit of its own, a part of the digits, a digit by its number, a group's text again */
		{ "v2 step", 0 },
		{ "[1-9]\\d*", 0 },
		{ "[]1]", 0 },
		{ "\\x31", 0 },
		{ "(\\d)\\1", 0 },
		{ "(?<n>\\d)/\\k<n>", 0 },
		{ "(?<n>\\d)/\\g{n}", 0 },
		{ "(?P<n>\\d)/(?P=n)", 0 },
		{ "a{,3}", 0 },  /* not a quantifier in every PCRE2: the text "{,3}" */
		{ "(?#step 1)x", 0 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		rx *re = compile(cases[i].pattern);
		if (rx_digit_blind(re) != cases[i].blind)
			fail_msg("rx_digit_blind(\"%s\") != %d", cases[i].pattern, cases[i].blind);
		rx_free(re);
	}
}

static void test_spans(void **state)
{
	(void)state;
	rx *re = compile("(?<n>\\d+)(?<unit> tok/s)?( x)?");
	char msg[64];
	unsigned short spans[8];
	const char *s = "at 1234 tok/s", *t = "at 9876 tok/s", *start;
	size_t len;
	assert_int_equal(rx_spans(re, spans, 4), 0);  /* before any match */
	assert_int_equal(rx_match_groups(re, s, strlen(s), msg, sizeof msg), 1);
	assert_int_equal(rx_spans(re, spans, 2), 0);  /* four pairs: more than 2 */
	assert_int_equal(rx_spans(re, spans, 4), 4);
	unsigned short want[8] = { 3, 13, 3, 7, 7, 13, RX_SPAN_UNSET, RX_SPAN_UNSET };
	assert_memory_equal(spans, want, sizeof want);
	/* another text of the same shape: its groups where the first one's were */
	assert_int_equal(rx_match_groups(re, "none", 4, msg, sizeof msg), 0);
	rx_set_spans(re, t, spans, 4);
	assert_int_equal(rx_group(re, "n", &start, &len), 1);
	assert_int_equal(start - t, 3);
	assert_memory_equal(start, "9876", 4);
	assert_int_equal(rx_group_at(re, 3, &start, &len), 0);
	assert_int_equal(rx_spans(re, spans, 4), 4);
	assert_memory_equal(spans, want, sizeof want);
	/* a match forgets them */
	assert_int_equal(rx_match_groups(re, "5", 1, msg, sizeof msg), 1);
	assert_int_equal(rx_group(re, "n", &start, &len), 1);
	assert_int_equal(len, 1);
	assert_int_equal(rx_group(re, "unit", &start, &len), 0);
	rx_free(re);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compile_error),
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_limit),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_digit_blind),
		cmocka_unit_test(test_spans),
	};
	return cmocka_run_group_tests_name("rx", tests, NULL, NULL);
}
