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

/* inferno: fg:x/fg:w; frames in any order; a root gap is samples too narrow to draw, and so
 * are <module>'s gap between f and g (2) and its rest after g (1): it has no own samples,
 * which would be drawn before f. */
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
			    "<module> (a.py:1);f (a.py:2) 3\n<module> (a.py:1);g & h 3\n");
	assert_int_equal(st.lost, 4);
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

/* Losses at every depth, exact from fg:x and fg:w: a frame's own samples come first, then
 * its children; narrow ones before the first drawn child stay its own (they cannot be told
 * apart), gaps between and after drawn children are lost. */
static void test_inferno_losses_every_depth(void **state)
{
	(void)state;
	struct stacks_out o;
	struct doc_stats st;
	const char *svg = "<svg>\n"
		"<g><title>all (1000 samples, 100%)</title><rect x=\"0%\" y=\"100\" fg:x=\"0\" fg:w=\"1000\"/></g>\n"
		/* main: own 100 + 7 narrow = 107 first, a, gap 30, c, gap 20, d, rest 9 */
		"<g><title>main (900 samples)</title><rect x=\"0%\" y=\"84\" fg:x=\"0\" fg:w=\"900\"/></g>\n"
		"<g><title>a (300 samples)</title><rect x=\"0%\" y=\"68\" fg:x=\"107\" fg:w=\"300\"/></g>\n"
		"<g><title>c (250 samples)</title><rect x=\"0%\" y=\"68\" fg:x=\"437\" fg:w=\"250\"/></g>\n"
		/* c: no own samples; x, then 50 lost after it */
		"<g><title>x (200 samples)</title><rect x=\"0%\" y=\"52\" fg:x=\"437\" fg:w=\"200\"/></g>\n"
		"<g><title>d (184 samples)</title><rect x=\"0%\" y=\"68\" fg:x=\"707\" fg:w=\"184\"/></g>\n"
		/* d: no drawn child, all its own */
		/* root: main, then 3 lost before w, 97 w (own 90, narrow child 7: its own) */
		"<g><title>w (97 samples)</title><rect x=\"0%\" y=\"84\" fg:x=\"903\" fg:w=\"97\"/></g>\n"
		"</svg>\n";
	assert_string_equal(read_svg(svg, &o, &st), "main;a 300\nmain;c;x 200\nmain;d 184\nmain 107\nw 97\n");
	assert_int_equal(st.lost, 30 + 20 + 9 + 50 + 3);
	assert_int_equal(st.bad, 0);
}

/* flamegraph.pl: edges in pixels rounded to 0.1 (x2 - x1 as the width), 10 samples per
 * pixel here; touching frames share an edge, so only real gaps count. */
static void test_flamegraph_pl_losses(void **state)
{
	(void)state;
	struct stacks_out o;
	struct doc_stats st;
	const char *svg = "<?xml version=\"1.0\"?>\n"
		"<g><title>all (10,000 samples, 100%)</title><rect x=\"10.0\" y=\"100\" width=\"1000.0\" height=\"15.0\"/></g>\n"
		/* p: 0..9000 samples = 10.0..910.0 px; own 1000, q 3000, 500 lost, r 4000, 500 lost */
		"<g><title>p (9,000 samples, 90%)</title><rect x=\"10.0\" y=\"84\" width=\"900.0\" height=\"15.0\"/></g>\n"
		"<g><title>q (3,000 samples, 30%)</title><rect x=\"110.0\" y=\"68\" width=\"300.0\" height=\"15.0\"/></g>\n"
		"<g><title>r (4,000 samples, 40%)</title><rect x=\"460.0\" y=\"68\" width=\"400.0\" height=\"15.0\"/></g>\n"
		/* s touches p: 9000..10000 */
		"<g><title>s (1,000 samples, 10%)</title><rect x=\"910.0\" y=\"84\" width=\"100.0\" height=\"15.0\"/></g>\n";
	assert_string_equal(read_svg(svg, &o, &st), "p;q 3000\np;r 4000\np 1000\ns 1000\n");
	assert_int_equal(st.lost, 1000);
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
		cmocka_unit_test(test_inferno_losses_every_depth),
		cmocka_unit_test(test_flamegraph_pl_losses),
		cmocka_unit_test(test_bad),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
