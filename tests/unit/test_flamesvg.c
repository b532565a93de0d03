/* test_flamesvg: flame graph SVGs (inferno, flamegraph.pl, inverted) back into stacks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "docstacks.h"

#include "flamesvg.h"

static const char *read_svg(const char *text, struct stacks_out *o, struct doc_stats *st)
{
	struct err_lines errs;
	err_lines_init(&errs);
	memset(o, 0, sizeof *o);
	memset(st, 0, sizeof *st);
	struct doc_buf d = stacks_doc(text);
	flamesvg_read(&d, &errs, stacks_take, o, st);
	return o->text;
}

/* inferno: fg:x/fg:w; frames in any order; a root gap is samples too narrow to draw. */
static void test_inferno(void **state)
{
	(void)state;
	struct stacks_out o;
	struct doc_stats st;
	const char *svg = "<svg>\n<svg id=\"frames\" total_samples=\"10\">\n"
		"<g><title>f (a.py:2) (3 samples, 30%)</title><rect x=\"0%\" y=\"69\" width=\"30%\" height=\"15\" fg:x=\"0\" fg:w=\"3\"/></g>\n"
		"<g><title>all (10 samples, 100%)</title><rect x=\"0%\" y=\"101\" width=\"100%\" height=\"15\" fg:x=\"0\" fg:w=\"10\"/></g>\n"
		"<g><title>&lt;module&gt; (a.py:1) (9 samples, 90%)</title><rect x=\"0%\" y=\"85\" fg:x=\"0\" fg:w=\"9\"/></g>\n"
		"<g><title>g &amp; h (3 samples, 30%)</title><rect x=\"50%\" y=\"69\" fg:x=\"5\" fg:w=\"3\"/></g>\n"
		"</svg></svg>\n";
	assert_string_equal(read_svg(svg, &o, &st),
			    "<module> (a.py:1);f (a.py:2) 3\n<module> (a.py:1);g & h 3\n<module> (a.py:1) 3\n");
	assert_int_equal(st.lost, 1);
	assert_int_equal(st.bad, 0);
}

/* flamegraph.pl: pixels, counts with thousands separators in the title; inverted (icicle). */
static void test_flamegraph_pl_inverted(void **state)
{
	(void)state;
	struct stacks_out o;
	struct doc_stats st;
	const char *svg = "<?xml version=\"1.0\"?>\n"
		"<g class=\"func_g\"><title>all (1,500 samples, 100%)</title><rect x=\"10.0\" y=\"84\" width=\"1180.0\" height=\"15.0\"/></g>\n"
		"<g class=\"func_g\"><title>main (1,000 samples, 66.67%)</title><rect x=\"10.0\" y=\"100\" width=\"786.7\" height=\"15.0\"/></g>\n"
		"<g class=\"func_g\"><title>work (500 samples, 33.33%)</title><rect x=\"796.7\" y=\"100\" width=\"393.3\" height=\"15.0\"/></g>\n"
		"<g class=\"func_g\"><title>leaf (1,000 samples, 66.67%)</title><rect x=\"10.0\" y=\"116\" width=\"786.7\" height=\"15.0\"/></g>\n";
	assert_string_equal(read_svg(svg, &o, &st), "main;leaf 1000\nwork 500\n");
	assert_int_equal(st.lost, 0);
}

static void test_bad(void **state)
{
	(void)state;
	struct stacks_out o;
	struct doc_stats st;
	assert_string_equal(read_svg("<svg><g><title>x (1 samples, 1%)</title><rect/></g></svg>", &o, &st), "");
	assert_int_equal(st.bad, 2);  /* no x/y; no "all" frame */
	assert_string_equal(read_svg("<svg width=\"1\"></svg>", &o, &st), "");
	assert_int_equal(st.bad, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inferno),
		cmocka_unit_test(test_flamegraph_pl_inverted),
		cmocka_unit_test(test_bad),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
