/* test_tputcand: candidates by template, unit and reason; a summary printed once after the
 * last step is left out, a series that repeats is taken, what the reader left stays out
 * unless taken. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include "tputbar.h"
#include "tputcand.h"

static size_t add(struct tputcand_set *set, uint64_t tmpl, enum tput_unit unit, long rank, double value,
		  unsigned long lineno, const char *left)
{
	struct tput_point pt = { rank, -1, NAN, value, unit, NAN, 0, tmpl, 0, 0 };
	return tputcand_add(set, &pt, left, lineno);
}

static void test_series_and_summary(void **state)
{
	(void)state;
	struct tputcand_set set = { 0 };
	set.keep_values = 1;
	for (unsigned long l = 10; l < 110; l += 10)
		add(&set, 1, TPUT_TOKENS_S, -1, (double)l, l, NULL);
	size_t sum = add(&set, 2, TPUT_SAMPLES_S, -1, 8.0, 200, NULL);
	size_t sum2 = add(&set, 2, TPUT_IT_S, -1, 0.3, 200, NULL);
	size_t eval = add(&set, 3, TPUT_TOKENS_S, -1, 5, 50, "not training (eval, checkpoint, ...)");
	assert_int_equal(set.n, 4);
	tputcand_decide(&set);
	const struct tputcand *s = &set.c[0];
	assert_true(s->taken);
	assert_int_equal(s->number, 1);
	assert_int_equal(s->n, 10);
	assert_int_equal(s->lines, 10);
	assert_int_equal(s->first_line, 10);
	assert_int_equal(s->last_line, 100);
	assert_true(tputcand_median(s) == 55.0);
	assert_false(set.c[sum].taken);
	assert_string_equal(set.c[sum].why, "a summary: printed once, after the last step (line 100, #1)");
	assert_false(set.c[sum2].taken);
	assert_int_equal(set.c[eval].number, 2);   /* by first line: 50 */
	assert_int_equal(set.c[sum].number, 3);    /* one line: by unit, samples/s then it/s */
	assert_int_equal(set.c[sum2].number, 4);
	assert_false(set.c[eval].taken);
	assert_string_equal(set.c[eval].why, "not training (eval, checkpoint, ...)");
	tputcand_take(&set, sum);
	assert_true(set.c[sum].taken);
	assert_string_equal(set.c[sum].why,
			    "taken by --take (a summary: printed once, after the last step (line 100, #1))");
	tputcand_set_free(&set);
	assert_int_equal(set.n, 0);
	assert_int_equal(set.keep_values, 1);
}

/* Once per rank, after the last step: a summary; a line printed once with nothing repeating
 * before it: all there is, taken; a second series after the first: taken. */
static void test_once(void **state)
{
	(void)state;
	struct tputcand_set set = { 0 };
	for (unsigned long l = 1; l <= 40; l++)
		add(&set, 1, TPUT_IT_S, -1, 1, l * 3, NULL);
	for (long r = 0; r < 8; r++)
		add(&set, 2, TPUT_SAMPLES_S, r, 1, 200 + (unsigned long)r * 7, NULL);
	for (unsigned long l = 300; l < 400; l += 5) {  /* a second phase: its steps count up */
		struct tput_point pt = { -1, (long long)l, NAN, 1, TPUT_IT_S, NAN, 0, 4, 0, 0 };
		tputcand_add(&set, &pt, NULL, l);
	}
	tputcand_decide(&set);
	assert_int_equal(set.c[1].nranks, 8);
	assert_true(set.c[0].taken);
	assert_true(set.c[2].taken);
	/* rank copies at 200..249 are before the second phase ended: not after the last step */
	assert_true(set.c[1].taken);
	assert_int_equal(set.c[2].rises, 19);
	tputcand_set_free(&set);

	/* the same burst with no step: one record's copies (the same figure), after the last
	 * step, are a summary; figures that differ are a series */
	for (int differ = 0; differ <= 1; differ++) {
		for (unsigned long l = 1; l <= 40; l++)
			add(&set, 1, TPUT_IT_S, -1, (double)l, l * 3, NULL);
		for (unsigned long l = 300; l < 340; l += 2)
			add(&set, 4, TPUT_IT_S, -1, differ ? (double)l : 7.5, l, NULL);
		tputcand_decide(&set);
		assert_true(set.c[0].taken);
		assert_int_equal(set.c[1].taken, differ);
		tputcand_set_free(&set);
	}

	for (long r = 0; r < 8; r++)
		add(&set, 2, TPUT_SAMPLES_S, r, 1, 200 + (unsigned long)r * 7, NULL);
	add(&set, 1, TPUT_IT_S, -1, 1, 100, NULL);
	tputcand_decide(&set);
	assert_true(set.c[0].taken && set.c[1].taken);  /* nothing repeats: all there is */
	assert_true(isnan(tputcand_median(&set.c[0])));  /* values not kept */
	tputcand_set_free(&set);

	/* many candidates: the table grows and keeps them apart */
	for (uint64_t t = 1; t <= 300; t++)
		for (unsigned long l = 0; l < 3; l++)
			add(&set, t, (enum tput_unit)(t % TPUT_NUNITS), -1, 1, t * 10 + l, NULL);
	assert_int_equal(set.n, 300);
	for (size_t i = 0; i < set.n; i++)
		assert_int_equal(set.c[i].n, 3);
	tputcand_set_free(&set);
}

/* Bars drawn only when done: their closing frames are the series, when nothing else of the
 * unit is; of two such bars, the one with a loss is training's. */
static void test_closing(void **state)
{
	(void)state;
	struct tputcand_set set = { 0 };
	for (unsigned long l = 1; l <= 4; l++) {
		struct tput_point train = { -1, -1, NAN, 1.0, TPUT_IT_S, 0.5, 0, 1, 0, 0 };
		struct tput_point valid = { -1, -1, NAN, 1.3, TPUT_IT_S, NAN, 0, 2, 0, 0 };
		tputcand_add(&set, &train, tputcand_closing, l * 10);
		tputcand_add(&set, &valid, tputcand_closing, l * 10 + 1);
	}
	struct tput_point once = { -1, -1, NAN, 9, TPUT_SAMPLES_S, NAN, 0, 3, 0, 0 };
	tputcand_add(&set, &once, tputcand_closing, 100);
	tputcand_decide(&set);
	assert_true(set.c[0].taken);
	assert_int_equal(set.c[0].losses, 4);
	assert_string_equal(set.c[0].why, "bars drawn only when done: each closing frame a round's figure");
	assert_false(set.c[1].taken);
	assert_string_equal(set.c[1].why, tputcand_closing);
	assert_false(set.c[2].taken);  /* one bar closing once: its run's average */
	tputcand_set_free(&set);
	/* a series of the unit read otherwise: closing frames stay out */
	for (unsigned long l = 1; l <= 4; l++) {
		struct tput_point frame = { -1, (long long)l, NAN, 1.0, TPUT_IT_S, NAN, 0, 1, 0, 0 };
		struct tput_point closing = { -1, -1, NAN, 1.1, TPUT_IT_S, NAN, 0, 1, 0, 0 };
		tputcand_add(&set, &frame, NULL, l * 10);
		tputcand_add(&set, &closing, tputcand_closing, l * 10 + 1);
	}
	tputcand_decide(&set);
	assert_true(set.c[0].taken);
	assert_false(set.c[1].taken);
	tputcand_set_free(&set);
}

/* Two series of a unit printed side by side measure two things: the first is taken; one
 * whose lines only follow the other's far apart is pooled with it. */
/* Loose times: a column that does not rise is the step's time when its unit has no other
 * series; one whose readings rise step after step is a clock; a surer series wins. */
static void test_loose(void **state)
{
	(void)state;
	static const double step[] = { 950, 940, 930, 955, 910 }, clock[] = { 10, 20, 31, 40, 52 };
	struct tputcand_set set = { 0 };
	set.keep_values = 1;
	for (unsigned long l = 0; l < 5; l++) {
		add(&set, 1, TPUT_MS_STEP, -1, step[l], l * 10 + 1, tputcand_loose);
		add(&set, 2, TPUT_MS_STEP, -1, clock[l], l * 10 + 2, tputcand_loose);
	}
	add(&set, 3, TPUT_MS_STEP, -1, 5, 100, tputcand_loose);  /* too few lines */
	tputcand_sure(&set);
	assert_int_equal(set.c[0].sure, 0);  /* open until the end */
	tputcand_decide(&set);
	assert_true(set.c[0].taken);
	assert_true(tputcand_median(&set.c[0]) == 940);
	assert_false(set.c[1].taken);
	assert_string_equal(set.c[1].why, "a clock: its readings rise step after step");
	assert_false(set.c[2].taken);
	assert_string_equal(set.c[2].why, tputcand_loose);
	for (unsigned long l = 0; l < 5; l++)
		add(&set, 4, TPUT_MS_STEP, -1, 800, l * 10 + 3, NULL);
	tputcand_decide(&set);
	assert_false(set.c[0].taken);
	assert_true(set.c[3].taken);
	tputcand_set_free(&set);
}

/* Copies of a step that never advances, spread out, each with its own loss: the step was a
 * constant, every line a figure; a rank's burst of copies with one loss stays out, and so do
 * copies whose step rises. */
static void test_constant_step(void **state)
{
	(void)state;
	struct tputcand_set set = { 0 };
	for (unsigned long l = 0; l < 6; l++) {
		struct tput_point spread = { -1, 16, NAN, 3.1, TPUT_IT_S, 0.5 - 0.01 * (double)l, 0, 1, 0, 0 };
		tputcand_add(&set, &spread, tputbar_rank_copy, 20 + 4 * l);
		struct tput_point burst = { -1, 4, NAN, 10050, TPUT_TOKENS_S, 7.6, 0, 2, 0, 0 };
		tputcand_add(&set, &burst, tputbar_rank_copy, 200 + l);
		struct tput_point rising = { -1, (long long)l, NAN, 5.0, TPUT_MS_STEP, 0.5 - 0.01 * (double)l, 0, 3, 0, 0 };
		tputcand_add(&set, &rising, tputbar_rank_copy, 300 + 4 * l);
	}
	tputcand_decide(&set);
	assert_true(set.c[0].taken);
	assert_string_equal(set.c[0].why, "copies of a step that never advances: a constant, not a step");
	assert_false(set.c[1].taken);
	assert_false(set.c[2].taken);
	tputcand_set_free(&set);
}

static void test_side_by_side(void **state)
{
	(void)state;
	struct tputcand_set set = { 0 };
	for (unsigned long l = 0; l < 20; l++) {
		add(&set, 1, TPUT_TFLOPS, -1, 31, 10 + l * 5, NULL);   /* End-to-End => ... TFLOPs */
		add(&set, 2, TPUT_TFLOPS, -1, 63, 12 + l * 5, NULL);   /* Training   => ... TFLOPs */
		add(&set, 3, TPUT_TFLOPS, -1, 40, 500 + l * 5, NULL);  /* another phase, later */
	}
	tputcand_decide(&set);
	assert_true(set.c[0].taken);
	assert_false(set.c[1].taken);
	assert_string_equal(set.c[1].why, "another series of the unit, printed beside #1's lines");
	assert_true(set.c[2].taken);
	tputcand_sure(&set);
	assert_int_equal(set.c[1].sure, 0);  /* a series of its unit begun before it: open */
	tputcand_set_free(&set);
	/* long ones settle while read: side by side for good, or apart */
	for (unsigned long l = 0; l < 600; l++) {
		add(&set, 1, TPUT_TFLOPS, -1, 31, 10 + l * 5, NULL);
		add(&set, 2, TPUT_TFLOPS, -1, 63, 12 + l * 5, NULL);
		add(&set, 4, TPUT_IT_S, -1, 1, 11 + l * 5, NULL);
		add(&set, 5, TPUT_IT_S, -1, 2, 13 + l * 5, NULL);
	}
	for (unsigned long l = 600; l < 700; l++)  /* more than a tenth more lines: apart */
		add(&set, 5, TPUT_IT_S, -1, 2, 13 + l * 5, NULL);
	tputcand_sure(&set);
	assert_int_equal(set.c[0].sure, 1);
	assert_int_equal(set.c[1].sure, -1);
	assert_int_equal(set.c[1].beside, 1);
	assert_int_equal(set.c[3].apart, 1);
	assert_int_equal(set.c[3].sure, 1);
	for (unsigned long l = 600; l < 700; l++)  /* the first stops: settled all the same */
		add(&set, 2, TPUT_TFLOPS, -1, 63, 12 + l * 5, NULL);
	tputcand_decide(&set);
	assert_true(set.c[0].taken && !set.c[1].taken && set.c[2].taken && set.c[3].taken);
	tputcand_set_free(&set);
}

/* What is sure before the input ends agrees with what is decided at its end. */
static void test_sure(void **state)
{
	(void)state;
	struct tputcand_set set = { 0 };
	add(&set, 9, TPUT_SAMPLES_S, -1, 1, 1, NULL);  /* a line before the series */
	for (unsigned long l = 10; l < 10 + 600; l++)
		add(&set, 1, TPUT_TOKENS_S, -1, (double)l, l, NULL);
	add(&set, 3, TPUT_TOKENS_S, -1, 5, 20, "not training (eval, checkpoint, ...)");
	add(&set, 4, TPUT_TOKENS_S, -1, 5, 30, tputcand_closing);
	add(&set, 5, TPUT_IT_S, -1, 5, 40, tputcand_closing);
	size_t late = add(&set, 2, TPUT_SAMPLES_S, -1, 8.0, 700, NULL);
	tputcand_sure(&set);
	assert_int_equal(set.c[0].sure, 1);   /* the series runs past it: no summary */
	assert_int_equal(set.c[1].sure, 1);   /* more lines than a summary may have */
	assert_int_equal(set.c[2].sure, -1);  /* left out */
	assert_int_equal(set.c[3].sure, -1);  /* closing frames of a unit with a series */
	assert_int_equal(set.c[4].sure, 0);   /* closing frames alone in their unit: open */
	assert_int_equal(set.c[late].sure, 0); /* after the series so far: a summary, perhaps */
	tputcand_decide(&set);
	assert_true(set.c[0].taken && set.c[1].taken && !set.c[2].taken && !set.c[3].taken);
	assert_false(set.c[late].taken);
	tputcand_set_free(&set);
}

/* Bars that show no loss, begun after bars of their unit that do, are evaluation's: gluonts'
 * epoch bars, then its "Running evaluation" and prediction bars. A bar's first frame before
 * it shows a loss, and a quiet bar begun first, stay. */
static void test_quiet_bars(void **state)
{
	(void)state;
	struct tputcand_set set = { 0 };
	struct tput_point first = { -1, -1, NAN, 7.0, TPUT_IT_S, NAN, 0, 4, 1, 0 };
	tputcand_add(&set, &first, NULL, 1);
	for (unsigned long l = 1; l <= 5; l++) {
		struct tput_point train = { -1, -1, NAN, 9.0, TPUT_IT_S, -43.1, 0, 1, 1, 0 };
		struct tput_point eval = { -1, -1, NAN, 80.0, TPUT_IT_S, NAN, 0, 2, 1, 0 };
		struct tput_point line = { -1, -1, NAN, 50.0, TPUT_TOKENS_S, NAN, 0, 3, 0, 0 };
		tputcand_add(&set, &train, NULL, l * 10);
		if (l <= 3)  /* fewer than the training bars: no record's other half */
			tputcand_add(&set, &eval, NULL, l * 10 + 1);
		tputcand_add(&set, &line, NULL, l * 10 + 2);
	}
	tputcand_sure(&set);
	assert_int_equal(set.c[2].sure, 0);  /* quiet bar: open until the input ends */
	tputcand_decide(&set);
	assert_true(set.c[0].taken);  /* the first frame, before the loss showed */
	assert_true(set.c[1].taken);
	assert_int_equal(set.c[1].bars, 5);
	assert_false(set.c[2].taken);
	assert_string_equal(set.c[2].why, "a bar that shows no loss, beside #2's bars that do: evaluation's");
	assert_true(set.c[3].taken);  /* another unit, no bar: not this rule's */
	tputcand_set_free(&set);
	/* the quiet bar begun first is the run's, whatever shows a loss after it */
	for (unsigned long l = 1; l <= 5; l++) {
		struct tput_point quiet = { -1, -1, NAN, 9.0, TPUT_IT_S, NAN, 0, 1, 1, 0 };
		struct tput_point lossy = { -1, -1, NAN, 8.0, TPUT_IT_S, 2.0, 0, 2, 1, 0 };
		tputcand_add(&set, &quiet, NULL, l * 10);
		if (l <= 3)
			tputcand_add(&set, &lossy, NULL, l * 10 + 1);
	}
	tputcand_decide(&set);
	assert_true(set.c[0].taken && set.c[1].taken);
	tputcand_set_free(&set);
}

/* Bars of one shape and two totals over one stretch of lines: the smaller are evaluation's
 * (30-batch training bars, each followed by an 8-batch validation bar, drawn only when done;
 * an evaluation bar drawn under a training bar left short of its total). A bar of a larger
 * total done before a smaller one began (data preparation) leaves it alone, and so does a
 * total a little larger (an epoch's batches may vary). */
static void test_smaller_bars(void **state)
{
	(void)state;
	struct tputcand_set set = { 0 };
	for (unsigned long l = 1; l <= 4; l++) {
		struct tput_point train = { -1, -1, NAN, 1.5, TPUT_IT_S, NAN, 0, 1, 1, 30 };
		struct tput_point valid = { -1, -1, NAN, 6.0, TPUT_IT_S, NAN, 0, 1, 1, 8 };
		tputcand_add(&set, &train, tputcand_closing, l * 10);
		tputcand_add(&set, &valid, tputcand_closing, l * 10 + 1);
	}
	tputcand_sure(&set);
	tputcand_decide(&set);
	assert_true(set.c[0].taken);
	assert_false(set.c[1].taken);
	assert_string_equal(set.c[1].why, "a bar of 8 beside #1's bars of 30, over the same lines: evaluation's");
	tputcand_set_free(&set);
	/* under a training bar left at step 200 of 1755: its frames all on one line */
	for (long long step = 1; step <= 200; step++) {
		struct tput_point train = { -1, step, NAN, 0.05, TPUT_IT_S, NAN, 0, 1, 1, 1755 };
		tputcand_add(&set, &train, NULL, 67);
	}
	for (unsigned long l = 88; l < 150; l++) {
		struct tput_point eval = { -1, (long long)l - 87, NAN, 3.5, TPUT_IT_S, NAN, 0, 1, 1, 984 };
		tputcand_add(&set, &eval, NULL, l);
		tputcand_sure(&set);
		assert_int_equal(set.c[1].sure, 0);  /* open while the larger bar is there */
	}
	tputcand_decide(&set);
	assert_true(set.c[0].taken);
	assert_false(set.c[1].taken);
	tputcand_set_free(&set);
	/* a larger bar done before: a data preparation bar; a total a tenth larger: an epoch's */
	for (long long step = 1; step <= 5000; step += 1000) {
		struct tput_point data = { -1, step, NAN, 9, TPUT_IT_S, NAN, 0, 1, 1, 5000 };
		tputcand_add(&set, &data, NULL, (unsigned long)step / 1000 + 1);
	}
	struct tput_point done = { -1, -1, NAN, 9.5, TPUT_IT_S, NAN, 0, 1, 1, 5000 };
	tputcand_add(&set, &done, tputcand_closing, 6);
	for (unsigned long l = 10; l < 30; l++) {
		struct tput_point train = { -1, (long long)l % 10 + 1, NAN, 3.0, TPUT_IT_S, NAN, 0, 1, 1, l < 20 ? 390 : 429 };
		tputcand_add(&set, &train, NULL, l);
	}
	tputcand_decide(&set);
	assert_true(set.c[0].taken && set.c[2].taken && set.c[3].taken);
	tputcand_set_free(&set);
}

/* Closing frames many-fold apart are bars of different tasks (a benchmark's store and get
 * bars), not one loop's rounds; a figure of 0 printed once ("global_step/sec: 0" before the
 * first step) measured nothing, unless its unit has a series beside it. */
static void test_not_rounds_not_zero(void **state)
{
	(void)state;
	struct tputcand_set set = { 0 };
	struct tput_point store = { -1, -1, NAN, 1 / 2.84, TPUT_IT_S, NAN, 0, 1, 1, 256 };
	struct tput_point get = { -1, -1, NAN, 2.35, TPUT_IT_S, NAN, 0, 1, 1, 256 };
	tputcand_add(&set, &store, tputcand_closing, 6);
	tputcand_add(&set, &get, tputcand_closing, 9);
	tputcand_decide(&set);
	assert_false(set.c[0].taken);
	assert_string_equal(set.c[0].why, "closing frames 7-fold apart: bars of different tasks, not one loop's rounds");
	tputcand_set_free(&set);
	struct tput_point zero = { -1, -1, NAN, 0, TPUT_IT_S, NAN, 0, 1, 0, 0 };
	tputcand_add(&set, &zero, NULL, 40);
	tputcand_decide(&set);
	assert_false(set.c[0].taken);
	assert_string_equal(set.c[0].why, "a figure of 0 printed once: nothing was measured");
	for (unsigned long l = 50; l < 60; l++) {
		struct tput_point step = { -1, (long long)l, NAN, 0.5, TPUT_IT_S, 1.0, 0, 2, 0, 0 };
		tputcand_add(&set, &step, NULL, l);
	}
	tputcand_decide(&set);
	assert_true(set.c[0].taken && set.c[1].taken);
	tputcand_set_free(&set);
	/* closing frames that show no loss beside a series of another unit that does: the
	 * tokenizer's bars before each Keras fit */
	for (unsigned long l = 1; l <= 3; l++) {
		struct tput_point tok = { -1, -1, NAN, 46378, TPUT_IT_S, NAN, 0, 1, 1, 14000 };
		tputcand_add(&set, &tok, tputcand_closing, l * 100);
		for (unsigned long e = 1; e <= 5; e++) {
			struct tput_point fit = { -1, -1, NAN, 500, TPUT_MS_STEP, 5.0 / (double)e, 0, 2, 1, 48 };
			tputcand_add(&set, &fit, NULL, l * 100 + e);
		}
	}
	tputcand_decide(&set);
	assert_false(set.c[0].taken);
	assert_string_equal(set.c[0].why, "closing frames showing no loss beside #2's series that does: another task's bars");
	assert_true(set.c[1].taken);
	tputcand_set_free(&set);
}

/* A bar that shows no loss, drawn between the lines of a training series that does and less
 * often than they are printed, is evaluation's (LISA's validation bar after each epoch's
 * ProgressMeter lines), and so are its closing frames; a bar drawn once a record (verl's
 * training bar) stays. */
static void test_quiet_bar_between_lines(void **state)
{
	(void)state;
	struct tputcand_set set = { 0 };
	for (unsigned long l = 1; l <= 20; l++) {
		struct tput_point line = { -1, -1, NAN, 37000, TPUT_MS_STEP, 4.0, 0, 1, 0, 0 };
		struct tput_point bar = { -1, (long long)l, NAN, 4.2, TPUT_IT_S, NAN, 0, 2, 1, 277 };
		struct tput_point done = { -1, -1, NAN, 3.8, TPUT_IT_S, NAN, 0, 2, 1, 277 };
		tputcand_add(&set, &line, NULL, l * 10);
		if (l == 10 || l == 20) {
			for (int f = 0; f < 3; f++)
				tputcand_add(&set, &bar, NULL, l * 10 + 1);
			tputcand_add(&set, &done, tputcand_closing, l * 10 + 2);
		}
	}
	tputcand_decide(&set);
	assert_true(set.c[0].taken);
	assert_false(set.c[1].taken);
	assert_string_equal(set.c[1].why, "a bar that shows no loss, between the lines of #1, a series that does: "
			    "evaluation's or another task's");
	assert_false(set.c[2].taken);
	tputcand_set_free(&set);
	for (unsigned long l = 1; l <= 20; l++) {
		struct tput_point line = { -1, (long long)l, NAN, 9700, TPUT_MS_STEP, 0.5, 0, 1, 0, 0 };
		struct tput_point bar = { -1, (long long)l, NAN, 0.1, TPUT_IT_S, NAN, 0, 2, 1, 20 };
		tputcand_add(&set, &line, NULL, l * 10);
		tputcand_add(&set, &bar, NULL, l * 10 + 1);
	}
	tputcand_decide(&set);
	assert_true(set.c[0].taken && set.c[1].taken);
	tputcand_set_free(&set);
}

/* A quiet bar done before a bar fifty times slower began made the data ready; a lone fast
 * closing frame (an epoch of another pace) is no such bar. */
static void test_fast_bar_first(void **state)
{
	(void)state;
	struct tputcand_set set = { 0 };
	for (int f = 0; f < 8; f++) {
		struct tput_point data = { -1, f + 1, NAN, 2500 + f, TPUT_IT_S, NAN, 0, 1, 1, 0 };
		tputcand_add(&set, &data, NULL, 11);
	}
	for (int f = 0; f < 20; f++) {
		struct tput_point train = { -1, f + 1, NAN, 0.14, TPUT_IT_S, NAN, 0, 1, 1, 1755 };
		tputcand_add(&set, &train, NULL, 22);
	}
	tputcand_decide(&set);
	assert_false(set.c[0].taken);
	assert_string_equal(set.c[0].why, "a bar 17857 times as fast as #2's, done before it began: data preparation");
	assert_true(set.c[1].taken);
	tputcand_set_free(&set);
	struct tput_point fast = { -1, 5, NAN, 0.9, TPUT_IT_S, NAN, 0, 1, 1, 0 };
	tputcand_add(&set, &fast, NULL, 7);
	for (unsigned long l = 10; l < 13; l++) {
		struct tput_point slow = { -1, 5, NAN, 0.003, TPUT_IT_S, NAN, 0, 1, 1, 5 };
		tputcand_add(&set, &slow, NULL, l);
	}
	tputcand_decide(&set);
	assert_true(set.c[0].taken && set.c[1].taken);
	tputcand_set_free(&set);
}

/* Keras's epoch lines of a later fit, after the first fit's: the same ms/step, line after
 * line, but a new loss each, are no burst of copies (a summary), they are the fit's. */
static void test_burst_needs_one_loss(void **state)
{
	(void)state;
	struct tputcand_set set = { 0 };
	for (unsigned long l = 1; l <= 12; l += 2) {
		struct tput_point first = { -1, -1, NAN, 265.0, TPUT_MS_STEP, 1.0 / (double)l, 0, 1, 0, 0 };
		tputcand_add(&set, &first, NULL, l);
	}
	for (unsigned long l = 20; l < 60; l += 2) {
		struct tput_point later = { -1, -1, NAN, 68.0, TPUT_MS_STEP, 2.0 / (double)l, 0, 2, 0, 0 };
		tputcand_add(&set, &later, NULL, l);
	}
	tputcand_decide(&set);
	assert_true(set.c[0].taken && set.c[1].taken);
	assert_int_equal(set.c[1].loss_changes, 19);
	tputcand_set_free(&set);
	/* the same loss each time: a burst of copies after the series, a summary */
	for (unsigned long l = 1; l <= 12; l += 2) {
		struct tput_point first = { -1, -1, NAN, 265.0, TPUT_MS_STEP, 1.0 / (double)l, 0, 1, 0, 0 };
		tputcand_add(&set, &first, NULL, l);
	}
	for (unsigned long l = 20; l < 30; l++) {
		struct tput_point copy = { -1, -1, NAN, 68.0, TPUT_MS_STEP, 0.5, 0, 2, 0, 0 };
		tputcand_add(&set, &copy, NULL, l);
	}
	tputcand_decide(&set);
	assert_false(set.c[1].taken);
	tputcand_set_free(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_series_and_summary),
		cmocka_unit_test(test_once),
		cmocka_unit_test(test_closing),
		cmocka_unit_test(test_quiet_bars),
		cmocka_unit_test(test_smaller_bars),
		cmocka_unit_test(test_not_rounds_not_zero),
		cmocka_unit_test(test_quiet_bar_between_lines),
		cmocka_unit_test(test_fast_bar_first),
		cmocka_unit_test(test_burst_needs_one_loss),
		cmocka_unit_test(test_sure),
		cmocka_unit_test(test_loose),
		cmocka_unit_test(test_constant_step),
		cmocka_unit_test(test_side_by_side),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
