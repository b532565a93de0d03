/* test_tputrec: a block's lines, and records hard-wrapped at a terminal's width joined again. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tputrec.h"

static void test_widths(void **state)
{
	(void)state;
	static const size_t widths[] = { 80, 100, 120, 132, 160, 200, 250, 256 };
	size_t k = 0;
	for (size_t n = 0; n < 300; n++) {
		int want = k < sizeof widths / sizeof widths[0] && n == widths[k];
		assert_int_equal(tputrec_wrap_width(n), want);
		k += want;
	}
	const char block[] = "ab\ncd";
	assert_int_equal(tputrec_line_len(block, block + 5), 2);
	assert_int_equal(tputrec_line_len(block + 3, block + 5), 2);
}

/* A 120-column record cut inside a field, between two prefixed lines: one record, from any
 * of its lines; an unprefixed line after a line as wide, with no prefixed neighbour, alone. */
static void test_join(void **state)
{
	(void)state;
	static const char text[] =
		"[rank0]:[titan] 2025-03-12 11:10:21,511 - root - INFO - step: 21  loss:  6.2  tps: 193,831\n"
		"[rank0]:[titan] 2025-03-12 11:10:22,511 - root - INFO - step: 22  loss:  6.12345555555555555  memory:  1.41GiB(1.79%)  t\n"
		"ps: 192,154  tflops: 18.36  mfu: 1.86%\n"
		"[rank0]:[titan] 2025-03-12 11:10:23,511 - root - INFO - step: 23  loss:  6.1  tps: 193,900\n";
	char *copy = strdup(text), *end = copy + strlen(copy);
	char *second = strchr(copy, '\n') + 1, *third = strchr(second, '\n') + 1, *fourth = strchr(third, '\n') + 1;
	assert_int_equal(third - second - 1, 120);
	struct tputrec_buf buf = { NULL, 0 };
	char *first, *last;
	size_t n = tputrec_join(&buf, copy, copy, second, end, &first, &last);
	assert_int_equal(n, 120 + 38);
	assert_ptr_equal(first, second);
	assert_ptr_equal(last, third);
	assert_memory_equal(buf.text + 118, " tps: 192,154", 13);
	/* from its continuation line, back to its first */
	assert_int_equal(tputrec_join(&buf, copy, copy, third, end, &first, &last), 158);
	assert_ptr_equal(first, second);
	/* not back past from (lines looked at before) */
	assert_int_equal(tputrec_join(&buf, copy, third, third, end, &first, &last), 0);
	assert_int_equal(tputrec_join(&buf, copy, copy, fourth, end, &first, &last), 0);
	assert_int_equal(tputrec_join(&buf, copy, copy, copy, end, &first, &last), 0);
	free(copy);
	static const char mixed[] =
		"step 3:    120.44 GFLOPS, loss: 10.4\n"
		"[2019-03-21 18:31:43,773 INFO] Step 2250/200000; acc:  31.18; xent: 4.05; 5092/261 tok/s;   6641 sec\n"
		"Epoch  1, 12900/37527; xent:  10.47; 3599 src tok/s; 3678 tgt tok/s;   9861 s elapsed\n";
	copy = strdup(mixed);
	end = copy + strlen(copy);
	second = strchr(copy, '\n') + 1;
	third = strchr(second, '\n') + 1;
	assert_int_equal(third - second - 1, 100);
	assert_int_equal(tputrec_join(&buf, copy, copy, third, end, &first, &last), 0);
	free(copy);
	free(buf.text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_widths),
		cmocka_unit_test(test_join),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
