/* test_speedscope: py-spy's speedscope files and other exporters' into folded stacks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "capture.h"
#include "docstacks.h"

#include "speedscope.h"

static const char *read_doc(const char *text, struct stacks_out *o, struct doc_stats *st, struct err_lines *errs)
{
	struct doc_buf d = stacks_doc(text);
	memset(o, 0, sizeof *o);
	memset(st, 0, sizeof *st);
	err_lines_init(errs);
	speedscope_read(&d, 100, errs, stacks_take, NULL, o, st);
	return o->text;
}

/* As py-spy writes it: names give the thread, each sample counts 1 whatever its weight. */
static void test_pyspy(void **state)
{
	(void)state;
	struct stacks_out o;
	struct doc_stats st;
	struct err_lines errs;
	const char *doc = "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"profiles\":["
		"{\"type\":\"sampled\",\"name\":\"Process 7 Thread 42 \\\"\\\"\",\"unit\":\"seconds\",\"startValue\":0.0,"
		"\"endValue\":0.02,\"samples\":[[0,1],[0]],\"weights\":[0.01,0.01]},"
		"{\"type\":\"sampled\",\"name\":\"Thread 43 \\\"loader\\\"\",\"unit\":\"seconds\",\"startValue\":0.0,"
		"\"endValue\":0.01,\"samples\":[[2,0]],\"weights\":[0.01]}],"
		"\"shared\":{\"frames\":[{\"name\":\"main\",\"file\":\"a.py\",\"line\":3,\"col\":null},"
		"{\"name\":\"<module>\",\"file\":\"a.py\",\"line\":null,\"col\":null},"
		"{\"name\":\"thread (43): loader\",\"file\":\"\",\"line\":0,\"col\":null}]},"
		"\"activeProfileIndex\":null,\"exporter\":\"py-spy@0.4.0\",\"name\":\"py-spy profile\"}\n";
	assert_string_equal(read_doc(doc, &o, &st, &errs),
			    "process 7:\"\";thread (42);main (a.py:3);<module> (a.py) 1\n"
			    "process 7:\"\";thread (42);main (a.py:3) 1\n"
			    "thread (43): loader;main (a.py:3) 1\n");
	assert_int_equal(st.stacks, 3);
	assert_int_equal(st.bad, 0);
}

/* Other exporters: weights count (times the rate for time units); our own "all threads"
 * profile is left out; evented profiles count open time. */
static void test_weights_and_events(void **state)
{
	(void)state;
	struct stacks_out o;
	struct doc_stats st;
	struct err_lines errs;
	const char *doc = "{\"exporter\":\"sift\",\"shared\":{\"frames\":[{\"name\":\"a\"},{\"name\":\"b\",\"file\":\"b.py\",\"line\":2}]},"
		"\"profiles\":[{\"type\":\"sampled\",\"name\":\"x\",\"unit\":\"none\",\"samples\":[[0,1],[0]],\"weights\":[5,2]},"
		"{\"type\":\"sampled\",\"name\":\"all threads\",\"unit\":\"none\",\"samples\":[[0]],\"weights\":[7]},"
		"{\"type\":\"sampled\",\"name\":\"y\",\"unit\":\"milliseconds\",\"samples\":[[1]],\"weights\":[30]},"
		"{\"type\":\"evented\",\"name\":\"z\",\"unit\":\"seconds\",\"startValue\":0,\"endValue\":1,\"events\":["
		"{\"type\":\"O\",\"frame\":0,\"at\":0},{\"type\":\"O\",\"frame\":1,\"at\":0.1},"
		"{\"type\":\"C\",\"frame\":1,\"at\":0.5},{\"type\":\"C\",\"frame\":0,\"at\":0.6}]}]}";
	assert_string_equal(read_doc(doc, &o, &st, &errs),
			    "a;b (b.py:2) 5\na 2\nb (b.py:2) 3\na 10\na;b (b.py:2) 40\na 10\n");
	assert_int_equal(st.bad, 0);
}

/* Timed: samples at i/rate (instants), time-weighted samples one after another, events
 * from the profile's first event. */
static void test_times(void **state)
{
	(void)state;
	struct stacks_out o = { "", 0 };
	struct doc_stats st = { 0 };
	struct err_lines errs;
	err_lines_init(&errs);
	struct doc_buf d = stacks_doc("{\"exporter\":\"other\",\"shared\":{\"frames\":[{\"name\":\"a\"},{\"name\":\"b\"}]},"
		"\"profiles\":[{\"type\":\"sampled\",\"name\":\"x\",\"unit\":\"none\",\"samples\":[[0,1],[0]],\"weights\":[5,2]},"
		"{\"type\":\"sampled\",\"name\":\"y\",\"unit\":\"milliseconds\",\"samples\":[[1],[0]],\"weights\":[30,20]},"
		"{\"type\":\"evented\",\"name\":\"z\",\"unit\":\"milliseconds\",\"events\":["
		"{\"type\":\"O\",\"frame\":0,\"at\":1000},{\"type\":\"O\",\"frame\":1,\"at\":1100},"
		"{\"type\":\"C\",\"frame\":1,\"at\":1500},{\"type\":\"C\",\"frame\":0,\"at\":1600}]}]}");
	speedscope_read(&d, 100, &errs, stacks_take, stacks_time, &o, &st);
	assert_string_equal(o.text, "@0+0 a;b 5\n@0.01+0 a 2\n"
				    "@0+0.03 b 3\n@0.03+0.02 a 2\n"
				    "@0+0.1 a 10\n@0.1+0.4 a;b 40\n@0.5+0.1 a 10\n");
	assert_int_equal(st.bad, 0);
}

/* py-spy's weights: 1/rate seconds each, so a 200 Hz recording's samples are 5 ms apart
 * and its rate is noted; a sample still counts 1. Weights that differ are summed for time;
 * py-spy before 0.3.4 wrote weights 1, unit none: --rate gives the times. */
static void test_pyspy_time(void **state)
{
	(void)state;
	const char *head = "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"profiles\":["
		"{\"type\":\"sampled\",\"name\":\"Thread 42 \\\"Main\\\"\",";
	const char *tail = "\"shared\":{\"frames\":[{\"name\":\"a\",\"file\":\"a.py\",\"line\":1,\"col\":null}]},"
		"\"activeProfileIndex\":null,\"exporter\":\"py-spy@0.4.0\",\"name\":\"py-spy profile\"}\n";
	static const struct { const char *profile, *want; double rate; } cases[] = {
		{ "\"unit\":\"seconds\",\"startValue\":0.0,\"endValue\":0.015,\"samples\":[[0],[0],[0]],"
		  "\"weights\":[0.005,0.005,0.005]}],",
		  "@0+0 thread (42): Main;a (a.py:1) 1\n@0.005+0 thread (42): Main;a (a.py:1) 1\n"
		  "@0.01+0 thread (42): Main;a (a.py:1) 1\n", 200 },
		{ "\"unit\":\"milliseconds\",\"samples\":[[0],[0],[0]],\"weights\":[5,10,5]}],",
		  "@0+0 thread (42): Main;a (a.py:1) 1\n@0.005+0 thread (42): Main;a (a.py:1) 1\n"
		  "@0.015+0 thread (42): Main;a (a.py:1) 1\n", 0 },
		{ "\"unit\":\"none\",\"samples\":[[0],[0]],\"weights\":[1,1]}],",
		  "@0+0 thread (42): Main;a (a.py:1) 1\n@0.01+0 thread (42): Main;a (a.py:1) 1\n", 0 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char doc[2048];
		snprintf(doc, sizeof doc, "%s%s%s", head, cases[i].profile, tail);
		struct stacks_out o = { "", 0 };
		struct doc_stats st = { 0 };
		struct err_lines errs;
		err_lines_init(&errs);
		struct doc_buf d = stacks_doc(doc);
		speedscope_read(&d, 100, &errs, stacks_take, stacks_time, &o, &st);
		assert_string_equal(o.text, cases[i].want);
		assert_true(st.rate == cases[i].rate);
		/* untimed, through the scanner: the same counts and rate */
		memset(&st, 0, sizeof st);
		read_doc(doc, &o, &st, &errs);
		assert_true(st.rate == cases[i].rate);
		assert_int_equal(st.stacks, 1);
		assert_int_equal(st.bad, 0);
	}
}

/* Timed through the scanner (memory by distinct stacks) and through the tree (a key given
 * twice sends a document there): the same stacks, counts and times. */
static void test_timed_scan_same_as_tree(void **state)
{
	(void)state;
	static const char *const profiles[] = {
		"\"unit\":\"seconds\",\"samples\":[[0,1],[0],[0,1],[1]],\"weights\":[0.005,0.005,0.005,0.005]",
		"\"unit\":\"seconds\",\"samples\":[[0,1],[0],[0,1]],\"weights\":[0.01,0.02,0.005]",
		"\"unit\":\"none\",\"samples\":[[0,1],[0],[1]],\"weights\":[1,1,1]",
		"\"unit\":\"milliseconds\",\"samples\":[[0,1],[0],[1]],\"weights\":[7,0,13]",
		"\"unit\":\"none\",\"samples\":[[0,1],[0]]",
	};
	static const char *const exporters[] = { "py-spy@0.4.0", "other" };
	for (size_t e = 0; e < 2; e++) {
		for (size_t i = 0; i < sizeof profiles / sizeof profiles[0]; i++) {
			char out[2][8300];
			for (int twice = 0; twice < 2; twice++) {
				char doc[2048];
				snprintf(doc, sizeof doc, "{\"profiles\":[{\"type\":\"sampled\",%s\"name\":\"Thread 7 \\\"M\\\"\",%s}],"
					 "\"shared\":{\"frames\":[{\"name\":\"a\",\"file\":\"a.py\",\"line\":1},{\"name\":\"b\"}]},"
					 "\"exporter\":\"%s\"}", twice ? "\"type\":\"sampled\"," : "", profiles[i], exporters[e]);
				struct stacks_out o = { "", 0 };
				struct doc_stats st = { 0 };
				struct err_lines errs;
				err_lines_init(&errs);
				struct doc_buf d = stacks_doc(doc);
				speedscope_read(&d, 100, &errs, stacks_take, stacks_time, &o, &st);
				assert_int_equal(st.bad, 0);
				snprintf(out[twice], sizeof out[twice], "%s rate %g", o.text, st.rate);
			}
			assert_string_equal(out[0], out[1]);
		}
	}
}

static void read_sift_timed(void *arg)
{
	struct stacks_out o = { "", 0 };
	struct doc_stats st = { 0 };
	struct err_lines errs;
	err_lines_init(&errs);
	struct doc_buf d = stacks_doc(arg);
	speedscope_read(&d, 100, &errs, stacks_take, stacks_time, &o, &st);
}

/* sift-fold's own output sums distinct stacks: asked for time, it is a usage error. */
static void test_sift_has_no_time(void **state)
{
	(void)state;
	err_set_prog("test_speedscope");
	const char *doc = "{\"shared\":{\"frames\":[{\"name\":\"a\"}]},\"profiles\":[{\"type\":\"sampled\","
		"\"name\":\"x\",\"unit\":\"seconds\",\"samples\":[[0]],\"weights\":[0.5]}],"
		"\"exporter\":\"sift, 200 samples/s\"}";
	assert_int_equal(speedscope_is_sift(doc, strlen(doc)), 1);
	assert_int_equal(speedscope_is_sift("{\"exporter\":\"py-spy@0.4.0\"}", 26), 0);
	struct captured c;
	capture_run(read_sift_timed, (void *)doc, &c);
	assert_int_equal(c.status, 2);
	assert_string_equal(c.err, "test_speedscope: --from/--to and --by window need samples in time order; t is "
			    "sift-fold's speedscope output (one weight per distinct stack), which has none: "
			    "give the recording\n");
	struct stacks_out o;
	struct doc_stats st;
	struct err_lines errs;
	assert_string_equal(read_doc(doc, &o, &st, &errs), "a 100\n");
	assert_true(st.rate == 200);
}

/* Broken documents are named with their line; bad samples are counted, the rest kept. */
static void test_bad(void **state)
{
	(void)state;
	struct stacks_out o;
	struct doc_stats st;
	struct err_lines errs;
	assert_string_equal(read_doc("{\"profiles\": [\n{\"type\": ", &o, &st, &errs), "");
	assert_int_equal(st.bad, 1);
	assert_int_equal(errs.bad, 1);
	assert_string_equal(read_doc("{\"profiles\": []}", &o, &st, &errs), "");
	assert_int_equal(st.bad, 1);
	const char *doc = "{\"shared\":{\"frames\":[{\"name\":\"a\"}]},\"profiles\":["
		"{\"type\":\"sampled\",\"name\":\"x\",\"unit\":\"none\",\"samples\":[[0],[1],[0]],\"weights\":[1,1,-1]},"
		"{\"type\":\"other\"}]}";
	assert_string_equal(read_doc(doc, &o, &st, &errs), "a 1\n");
	assert_int_equal(st.bad, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pyspy),
		cmocka_unit_test(test_weights_and_events),
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_pyspy_time),
		cmocka_unit_test(test_sift_has_no_time),
		cmocka_unit_test(test_timed_scan_same_as_tree),
		cmocka_unit_test(test_bad),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
