/* test_speedout: a profile as speedscope JSON, and read back into the same stacks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "docstacks.h"

#include "speedout.h"
#include "speedscope.h"

static void add(prof *p, const char *const *frames, size_t n, uint64_t count)
{
	uint32_t ids[8];
	for (size_t i = 0; i < n; i++)
		ids[i] = intern_add(prof_frames(p), frames[i], strlen(frames[i]));
	assert_int_equal(prof_add(p, ids, n, count), 0);
}

static void test_write_and_read_back(void **state)
{
	(void)state;
	prof *p = prof_new();
	const char *a[] = { "thread (1): Main", "main (a.py:1)", "f (a.py:007)" };
	const char *b[] = { "process 3:\"x (y)\"", "thread (2)", "g (b.so)", "odd (x) (y)" };
	add(p, a, 3, 4);
	add(p, b, 4, 1);
	add(p, a, 0, 2);
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	assert_int_equal(speedout_write(p, 0, out), 0);
	fclose(out);
	assert_string_equal(text,
		"{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"shared\":{\"frames\":["
		"{\"name\":\"thread (1): Main\"},{\"name\":\"main\",\"file\":\"a.py\",\"line\":1},"
		"{\"name\":\"f (a.py:007)\"},{\"name\":\"process 3:\\\"x (y)\\\"\"},{\"name\":\"thread (2)\"},"
		"{\"name\":\"g\",\"file\":\"b.so\"},{\"name\":\"odd (x)\",\"file\":\"y\"}]},\"profiles\":["
		"{\"type\":\"sampled\",\"name\":\"thread (1): Main\",\"unit\":\"none\",\"startValue\":0,\"endValue\":4,"
		"\"samples\":[[0,1,2]],\"weights\":[4]},"
		"{\"type\":\"sampled\",\"name\":\"thread (2)\",\"unit\":\"none\",\"startValue\":0,\"endValue\":1,"
		"\"samples\":[[3,4,5,6]],\"weights\":[1]},"
		"{\"type\":\"sampled\",\"name\":\"no thread\",\"unit\":\"none\",\"startValue\":0,\"endValue\":2,"
		"\"samples\":[[]],\"weights\":[2]},"
		"{\"type\":\"sampled\",\"name\":\"all threads\",\"unit\":\"none\",\"startValue\":0,\"endValue\":7,"
		"\"samples\":[[0,1,2],[3,4,5,6],[]],\"weights\":[4,1,2]}],"
		"\"name\":\"sift profile\",\"activeProfileIndex\":0,\"exporter\":\"sift\"}\n");
	struct stacks_out o = { "", 0 };
	struct doc_stats st = { 0 };
	struct err_lines errs;
	err_lines_init(&errs);
	struct doc_buf d = stacks_doc(text);
	speedscope_read(&d, 100, &errs, stacks_take, NULL, &o, &st);
	assert_string_equal(o.text, "thread (1): Main;main (a.py:1);f (a.py:007) 4\n"
				    "process 3:\"x (y)\";thread (2);g (b.so);odd (x) (y) 1\n"
				    " 2\n");
	assert_int_equal(st.bad, 0);
	free(text);
	prof_free(p);
}

static void test_seconds_at_a_rate(void **state)
{
	(void)state;
	prof *p = prof_new();
	const char *a[] = { "thread (1): Main", "main (a.py:1)" };
	const char *b[] = { "thread (1): Main", "main (a.py:1)", "f (a.py:2)" };
	add(p, a, 2, 3);
	add(p, b, 3, 200);
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	assert_int_equal(speedout_write(p, 200, out), 0);
	fclose(out);
	/* Weights in seconds (count / 200), as py-spy writes them; the rate in the exporter. */
	assert_string_equal(text,
		"{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"shared\":{\"frames\":["
		"{\"name\":\"thread (1): Main\"},{\"name\":\"main\",\"file\":\"a.py\",\"line\":1},"
		"{\"name\":\"f\",\"file\":\"a.py\",\"line\":2}]},\"profiles\":["
		"{\"type\":\"sampled\",\"name\":\"thread (1): Main\",\"unit\":\"seconds\",\"startValue\":0,"
		"\"endValue\":1.015,\"samples\":[[0,1],[0,1,2]],\"weights\":[0.015,1.0]},"
		"{\"type\":\"sampled\",\"name\":\"all threads\",\"unit\":\"seconds\",\"startValue\":0,"
		"\"endValue\":1.015,\"samples\":[[0,1],[0,1,2]],\"weights\":[0.015,1.0]}],"
		"\"name\":\"sift profile\",\"activeProfileIndex\":0,\"exporter\":\"sift, 200 samples/s\"}\n");
	/* Read back at another --rate: the file's own rate counts, and is noted. */
	struct stacks_out o = { "", 0 };
	struct doc_stats st = { 0 };
	struct err_lines errs;
	err_lines_init(&errs);
	struct doc_buf d = stacks_doc(text);
	speedscope_read(&d, 100, &errs, stacks_take, NULL, &o, &st);
	assert_string_equal(o.text, "thread (1): Main;main (a.py:1) 3\n"
				    "thread (1): Main;main (a.py:1);f (a.py:2) 200\n");
	assert_int_equal(st.bad, 0);
	assert_true(st.rate == 200);
	free(text);
	prof_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_and_read_back),
		cmocka_unit_test(test_seconds_at_a_rate),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
