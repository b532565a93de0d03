/* test_chart: every chart kind recognised from its header (and near misses not), --column,
 * default titles, and the exact script for small tables of several kinds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "diff.h"
#include "gil.h"
#include "threadtab.h"
#include "toptab.h"
#include "tputout.h"

/* A table from text: lines of tab-separated cells, the first the header; every line as wide
 * as the header (tsv_read's padding is its own test's business). */
static struct tsv tsv_of(const char *text)
{
	struct tsv t = { 0 };
	size_t n = 0;
	for (const char *p = text; *p;) {
		size_t len = strcspn(p, "\n"), ncells = 0;
		char **cells = NULL;
		for (const char *c = p, *end = p + len;;) {
			const char *tab = memchr(c, '\t', (size_t)(end - c));
			size_t clen = tab ? (size_t)(tab - c) : (size_t)(end - c);
			cells = realloc(cells, (ncells + 1) * sizeof *cells);
			cells[ncells] = strndup(c, clen);
			ncells++;
			if (!tab)
				break;
			c = tab + 1;
		}
		if (n++ == 0) {
			t.head = cells;
			t.ncols = ncells;
		} else {
			assert_int_equal(ncells, t.ncols);
			t.rows = realloc(t.rows, (t.nrows + 1) * sizeof *t.rows);
			t.rows[t.nrows++] = cells;
			t.cap = t.nrows;
		}
		p += len + (p[len] == '\n');
	}
	t.file = "t.tsv";
	return t;
}

/* The kind recognised for text (NULL for none), with its spec in s. */
static const char *kind_of(const char *text, struct chart_spec *s)
{
	struct tsv t = tsv_of(text);
	const struct chart_kind *k = chart_recognise(&t, s);
	tsv_free(&t);
	return k ? chart_kind_name(k) : NULL;
}

static void check_spec(const struct chart_spec *s, const char *what, int l0, int l1, int a0, int a1,
		       int v0, int v1)
{
	assert_string_equal(s->what, what);
	assert_int_equal(s->label[0], l0);
	assert_int_equal(s->label[1], l1);
	assert_int_equal(s->alt[0], a0);
	assert_int_equal(s->alt[1], a1);
	assert_int_equal(s->value[0], v0);
	assert_int_equal(s->value[1], v1);
}

static void test_recognise_keyed(void **state)
{
	(void)state;
	struct chart_spec s;
	assert_string_equal(kind_of("frame\tself\tself_pct\ttotal\ttotal_pct\n", &s), "top");
	check_spec(&s, "frame", 0, -1, -1, -1, 2, -1);
	assert_string_equal(kind_of("thread\tfunction\tself\tself_pct\ttotal\ttotal_pct\n", &s), "top");
	check_spec(&s, "thread / function", 0, 1, -1, -1, 3, -1);
	assert_string_equal(kind_of("frame\tbefore\tafter\tbefore_pct\tafter_pct\tdelta_pts\tratio\tflag\n",
				    &s), "diff");
	check_spec(&s, "frame", 0, -1, -1, -1, 3, 4);
	assert_string_equal(kind_of("lib\tfile\tbefore\tafter\tbefore_rate\tafter_rate\tdelta_rate\tratio\t"
				    "flag\n", &s), "diff");
	check_spec(&s, "lib / file", 0, 1, -1, -1, 4, 5);
	assert_string_equal(kind_of("function\ttotal\tgil\ttotal_per_s\tgil_per_s\tgil_share_pct\tflag\n", &s),
			    "gil");
	check_spec(&s, "function", 0, -1, -1, -1, 5, -1);
	assert_string_equal(kind_of("frame\tseen\tactive\tgil\tactive_pct\tgil_pct\n", &s), "gil dumps");
	check_spec(&s, "frame", 0, -1, -1, -1, 5, -1);
}

static void test_recognise_tput_and_threads(void **state)
{
	(void)state;
	struct chart_spec s;
	assert_string_equal(kind_of("source\tline\trank\tstep\ttime\tvalue\tunit\tloss\n", &s), "series");
	check_spec(&s, "throughput", -1, -1, -1, -1, 5, -1);
	assert_string_equal(kind_of("source\tline\trank\tstep\ttime\tvalue\tunit\n", &s), "series");
	static const char stats[] = "source\tunit\tn\twarmup\tdup\tnan\tmean\tmedian\tp5\tp95\tstddev\t"
				    "cv_pct\tmin\tmax\n";
	assert_string_equal(kind_of(stats, &s), "stats");
	check_spec(&s, "throughput", 0, -1, -1, -1, -1, -1);
	char two_units[512];
	snprintf(two_units, sizeof two_units, "%sa\ttok/s\t9\t1\t0\t0\t5\t5\t4\t6\t1\t20\t3\t7\n"
		 "b\tsamples/s\t9\t1\t0\t0\t5\t5\t4\t6\t1\t20\t3\t7\n", stats);
	assert_string_equal(kind_of(two_units, &s), "stats");
	check_spec(&s, "throughput", 0, 1, -1, -1, -1, -1);
	assert_string_equal(kind_of("unit\tbefore_n\tafter_n\tbefore_median\tafter_median\tbefore_cv_pct\t"
				    "after_cv_pct\tspeedup\tci_low\tci_high\tp_value\tverdict\n", &s), "compare");
	check_spec(&s, "speedup, after versus before (95% interval)", 0, -1, -1, -1, 7, -1);
	static const char threads[] = "pid\ttid\tthread\tos_thread\tseen\tactive\tidle\tgil\tcpu_mean\t"
				      "cpu_max\tleaf\thandoff\tcategory\n";
	assert_string_equal(kind_of(threads, &s), "threads");
	check_spec(&s, "thread", 2, -1, 1, 3, 5, -1);  /* no CPU figures: active snapshots */
	char with_cpu[512];
	snprintf(with_cpu, sizeof with_cpu, "%s1\t2\tmain\tpython\t3\t3\t0\t1\t\t\t\t\t\n"
		 "1\t3\t\tpt_data\t3\t1\t2\t0\t12.5\t20\t\t\t\n", threads);
	assert_string_equal(kind_of(with_cpu, &s), "threads");
	check_spec(&s, "thread", 2, -1, 1, 3, 8, -1);
}

/* A header of key columns then a producer's schema, as its library header exports it: a
 * column renamed there is renamed here too, so sift-plot still knows the table. */
static const char *kind_of_schema(const char *keys, const char *const *names, const char *const *alt,
				  size_t n, struct chart_spec *s)
{
	static char head[2048];
	size_t used = (size_t)snprintf(head, sizeof head, "%s", keys);
	for (size_t i = 0; i < n; i++)
		used += (size_t)snprintf(head + used, sizeof head - used, "%s%s", used ? "\t" : "",
					 alt && alt[i] ? alt[i] : names[i]);
	snprintf(head + used, sizeof head - used, "\n");
	return kind_of(head, s);
}

static void test_producers_schemas(void **state)
{
	(void)state;
	struct chart_spec s;
	assert_string_equal(kind_of_schema("function", toptab_columns, NULL, TOPTAB_NCOLS, &s), "top");
	assert_int_equal(s.value[0], 1 + TOPTAB_SELF_PCT);
	assert_string_equal(kind_of_schema("window", toptab_columns, NULL, TOPTAB_NCOLS, &s), "window");
	assert_string_equal(kind_of_schema("frame", diff_columns, NULL, DIFF_NCOLS, &s), "diff");
	assert_int_equal(s.value[0], 1 + DIFF_COL_DELTA);
	assert_string_equal(kind_of_schema("thread\tfile", diff_columns, diff_columns_alt, DIFF_COL_TEST, &s),
			    "diff");
	assert_int_equal(s.value[0], 2 + DIFF_COL_DELTA);
	assert_string_equal(kind_of_schema("frame", diff_columns, NULL, DIFF_COL_CI_LOW, &s), "diff");
	assert_int_equal(s.value[1], 1 + DIFF_COL_AFTER_SHARE);
	assert_string_equal(kind_of_schema("thread", gil_key_columns, NULL, GIL_KEY_NCOLS, &s), "gil");
	assert_int_equal(s.value[0], 1 + GIL_COL_SHARE_PCT);
	assert_string_equal(kind_of_schema("thread", gil_dumps_columns, NULL, GIL_DUMPS_NCOLS, &s),
			    "gil dumps");
	assert_string_equal(kind_of_schema("", threadtab_columns, NULL, THREADTAB_NCOLS, &s), "threads");
	assert_int_equal(s.label[0], THREADTAB_THREAD);
	/* sift-tput's: the series (loss or not), --stats, --compare (and its older form) */
	assert_string_equal(kind_of_schema("", tputout_series_columns, NULL, TPUTOUT_SERIES_NCOLS, &s), "series");
	assert_int_equal(s.value[0], TPUTOUT_VALUE);
	assert_string_equal(kind_of_schema("", tputout_series_columns, NULL, TPUTOUT_LOSS, &s), "series");
	assert_string_equal(kind_of_schema("", tputout_stats_columns, NULL, TPUTOUT_STATS_NCOLS, &s), "stats");
	assert_string_equal(kind_of_schema("", tputout_compare_columns, NULL, TPUTOUT_CMP_NCOLS, &s), "compare");
	assert_int_equal(s.value[0], TPUTOUT_CMP_SPEEDUP);
	assert_null(kind_of_schema("", tputout_stats_columns, NULL, TPUTOUT_STATS_NCOLS - 1, &s));
}

static void test_not_recognised(void **state)
{
	(void)state;
	struct chart_spec s;
	assert_null(kind_of("name\tvalue\nsamples\t10\n", &s));                        /* a summary */
	assert_null(kind_of("frame\tself\tself_pct\ttotal\n", &s));                    /* one short */
	assert_null(kind_of("frame\tself\tself_pct\ttotal\ttotal_pct\textra\n", &s));  /* one over */
	assert_null(kind_of("a\tb\tframe\tself\tself_pct\ttotal\ttotal_pct\n", &s));   /* three keys */
	assert_null(kind_of("frame\tbefore\tafter\tbefore_pct\tafter_rate\tdelta_pts\tratio\n", &s));
	assert_null(kind_of("source\tline\trank\tstep\ttime\tvalue\n", &s));
	assert_null(kind_of("\n", &s));
}

static void test_set_column(void **state)
{
	(void)state;
	struct chart_spec s;
	struct tsv t = tsv_of("frame\tself\tself_pct\ttotal\ttotal_pct\n");
	const struct chart_kind *k = chart_recognise(&t, &s);
	assert_int_equal(chart_set_column(k, &t, &s, "total"), 0);
	assert_int_equal(s.value[0], 3);
	assert_int_equal(chart_set_column(k, &t, &s, "no_such"), -1);
	assert_int_equal(s.value[0], 3);
	tsv_free(&t);
	t = tsv_of("frame\tbefore\tafter\tbefore_pct\tafter_pct\tdelta_pts\tratio\tflag\n");
	k = chart_recognise(&t, &s);
	assert_int_equal(chart_set_column(k, &t, &s, "after"), -1);  /* pairs draw fixed columns */
	assert_int_equal(s.value[0], 3);
	tsv_free(&t);
}

static void test_recognise_window(void **state)
{
	(void)state;
	struct chart_spec s;
	assert_string_equal(kind_of("window\tcategory\tself\tself_pct\ttotal\ttotal_pct\tcum_pct\n", &s),
			    "window");
	check_spec(&s, "category", 0, 1, -1, -1, 3, -1);
	assert_string_equal(kind_of("function\twindow\tself\tself_pct\ttotal\ttotal_pct\tcum_pct\n", &s),
			    "window");
	check_spec(&s, "function", 1, 0, -1, -1, 3, -1);
	assert_string_equal(kind_of("window\tself\tself_pct\ttotal\ttotal_pct\tcum_pct\n", &s), "window");
	check_spec(&s, "window", 0, -1, -1, -1, 2, -1);
	/* A key named like a window is not one without the cum_pct of sift-top's window tables. */
	assert_string_equal(kind_of("window\tself\tself_pct\ttotal\ttotal_pct\n", &s), "top");
}

/* The script chart_write gives for text with o. */
static char *script(const char *text, const struct chart_opts *o)
{
	struct tsv t = tsv_of(text);
	struct chart_spec s;
	const struct chart_kind *k = chart_recognise(&t, &s);
	assert_non_null(k);
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	chart_write(f, k, &t, &s, o);
	fclose(f);
	tsv_free(&t);
	return buf;
}

static const struct chart_opts dumb = { { GNUPLOT_DUMB, 60, 12, NULL, NULL }, 20, 0, 48 };

static void test_script_top(void **state)
{
	(void)state;
	char *got = script("frame\tself\tself_pct\ttotal\ttotal_pct\n"
			   "f (torch/nn/x.py:3)\t30\t60.0\t40\t80.0\n"
			   "g `id` 100%\t10\t20.0\t50\t100.0\n"
			   "h\t0\tbad\t0\t0\n", &dumb);
	assert_string_equal(got, "set terminal dumb noenhanced size 60,12\n"
			    "set title \"self_pct by frame\"\n"
			    "set border 3\n"
			    "set tics nomirror\n"
			    "$D << SIFT_EOD\n"
			    "1 60\n"
			    "0 20\n"
			    "SIFT_EOD\n"
			    "set ytics (\"f (torch/nn/x.py:3)\" 1, \"g \\140id\\140 100%%\" 0)\n"
			    "set yrange [-0.6:1.4]\n"
			    "set ytics scale 0\n"
			    "set grid xtics\n"
			    "set style fill solid 0.85 border -1\n"
			    "set xrange [0:*]\n"
			    "set offsets 0, graph 0.05, 0, 0\n"
			    "set xlabel \"self_pct\"\n"
			    "unset key\n"
			    "plot $D using ($2/2):1:(0):2:($1-0.4):($1+0.4) with boxxyerror lc rgb \"#4878a8\"\n");
	free(got);
}

static void test_script_window(void **state)
{
	(void)state;
	struct chart_opts two = dumb;
	two.limit = 2;
	/* Keys by their sum over windows: b 90, a 60, c 20 (into "(other)"), z none (total only). */
	char *got = script("window\tcategory\tself\tself_pct\ttotal\ttotal_pct\tcum_pct\n"
			   "0\ta\t6\t60\t6\t60\t60\n"
			   "0\tb\t4\t40\t4\t40\t100\n"
			   "0\tz\t0\t0\t10\t100\t100\n"
			   "0.5\tb\t5\t50\t5\t50\t50\n"
			   "0.5\tc\t2\t20\t2\t20\t70\n"
			   "1.5\tb\t1\t0\t1\t0\t0\n", &two);
	assert_string_equal(got, "set terminal dumb noenhanced size 60,12\n"
			    "set title \"self_pct by category over time\"\n"
			    "set border 3\n"
			    "set tics nomirror\n"
			    "$D << SIFT_EOD\n"
			    "0 40 100 100\n"
			    "0.5 50 50 70\n"
			    "1.5 0 0 0\n"
			    "SIFT_EOD\n"
			    "set xlabel \"seconds (window start)\"\n"
			    "set ylabel \"self_pct\"\n"
			    "set grid\n"
			    "set key outside right top\n"
			    "set yrange [0:*]\n"
			    "set style fill solid 0.75 noborder\n"
			    "plot $D using 1:4 with filledcurves x1 lc rgb \"#b0b0b0\" title \"(other)\", \\\n"
			    "     $D using 1:3 with filledcurves x1 lc rgb \"#f28e2b\" title \"a\", \\\n"
			    "     $D using 1:2 with filledcurves x1 lc rgb \"#4e79a7\" title \"b\"\n");
	free(got);
}

static void test_script_diff(void **state)
{
	(void)state;
	struct chart_opts o = dumb;
	o.page.title = "mine";
	char *got = script("frame\tbefore\tafter\tbefore_pct\tafter_pct\tdelta_pts\tratio\tflag\n"
			   "f\t10\t30\t10.0\t30.0\t+20.0\t3.00\tGREW\n"
			   "g\t90\t70\t90.0\t70.0\t-20.0\t0.78\t\n", &o);
	assert_string_equal(got, "set terminal dumb noenhanced size 60,12\n"
			    "set title \"mine\"\n"
			    "set border 3\n"
			    "set tics nomirror\n"
			    "$D << SIFT_EOD\n"
			    "1 10 30\n"
			    "0 90 70\n"
			    "SIFT_EOD\n"
			    "set ytics (\"f\" 1, \"g\" 0)\n"
			    "set yrange [-0.6:1.4]\n"
			    "set ytics scale 0\n"
			    "set grid xtics\n"
			    "set style fill solid 0.85 border -1\n"
			    "set xrange [0:*]\n"
			    "set offsets 0, graph 0.05, 0, 0\n"
			    "set xlabel \"\\045 of samples\"\n"
			    "set key below horizontal spacing 1.5 height 1\n"
			    "plot $D using ($2/2):($1+0.2):(0):2:($1+0.02):($1+0.38) with boxxyerror lc rgb \"#8c8c8c\" title \"before\", \\\n"
			    "     $D using ($3/2):($1-0.2):(0):3:($1-0.38):($1-0.02) with boxxyerror lc rgb \"#c0392b\" title \"after\"\n");
	free(got);
}

static void test_script_series(void **state)
{
	(void)state;
	struct chart_opts o = dumb;
	o.x_time = 1;  /* each line starts at 0 s */
	char *got = script("source\tline\trank\tstep\ttime\tvalue\tunit\n"
			   "a.log\t3\t0\t10\t2024-01-01 00:00:01\t100\ttok/s\n"
			   "a.log\t4\t0\t20\t2024-01-01 00:00:02.5\t110\ttok/s\n"
			   "b.log\t3\t0\t10\t2024-01-02 00:00:00\t90\ttok/s\n", &o);
	assert_string_equal(got, "set terminal dumb noenhanced size 60,12\n"
			    "set title \"throughput\"\n"
			    "set border 3\n"
			    "set tics nomirror\n"
			    "$D << SIFT_EOD\n"
			    "0 100\n"
			    "1.5 110\n"
			    "\n"
			    "\n"
			    "0 90\n"
			    "SIFT_EOD\n"
			    "set grid\n"
			    "set key bottom right\n"
			    "set yrange [0:*]\n"
			    "set xlabel \"seconds\"\n"
			    "set ylabel \"tok/s\"\n"
			    "plot $D index 0 using 1:2 with lines lw 2 title \"a.log\", \\\n"
			    "     $D index 1 using 1:2 with lines lw 2 title \"b.log\"\n");
	free(got);
}

static void test_script_compare_limit(void **state)
{
	(void)state;
	struct chart_opts o = dumb;
	o.limit = 1;
	char *got = script("unit\tbefore_n\tafter_n\tbefore_median\tafter_median\tbefore_cv_pct\t"
			   "after_cv_pct\tspeedup\tci_low\tci_high\tp_value\tverdict\n"
			   "tok/s\t10\t10\t100\t120\t1\t1\t1.2\t1.1\t1.3\t0.001\tfaster\n"
			   "samples/s\t10\t10\t5\t5\t1\t1\t1\t0.9\t1.1\t0.9\t\n", &o);
	assert_string_equal(got, "set terminal dumb noenhanced size 60,12\n"
			    "set title \"speedup, after versus before (95\\045 interval)\"\n"
			    "set border 3\n"
			    "set tics nomirror\n"
			    "$D << SIFT_EOD\n"
			    "1 1.2 1.1 1.3\n"
			    "SIFT_EOD\n"
			    "set xtics (\"tok/s (faster)\" 1)\n"
			    "set xrange [0.4:1.6]\n"
			    "set yrange [0.945:1.355]\n"
			    "set xtics scale 0\n"
			    "set grid ytics\n"
			    "unset key\n"
			    "set ylabel \"speedup (above 1: faster), 95\\045 interval\"\n"
			    "plot 1 with lines dt 2 lc rgb \"#8c8c8c\", \\\n"
			    "     $D using 1:2:3:4 with yerrorbars pt 7 ps 1.5 lw 2 lc rgb \"#c0392b\"\n");
	free(got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recognise_keyed),
		cmocka_unit_test(test_recognise_tput_and_threads),
		cmocka_unit_test(test_producers_schemas),
		cmocka_unit_test(test_not_recognised),
		cmocka_unit_test(test_set_column),
		cmocka_unit_test(test_script_top),
		cmocka_unit_test(test_recognise_window),
		cmocka_unit_test(test_script_window),
		cmocka_unit_test(test_script_diff),
		cmocka_unit_test(test_script_series),
		cmocka_unit_test(test_script_compare_limit),
	};
	return cmocka_run_group_tests_name("chart", tests, NULL, NULL);
}
