/* test_tputrule: rules and their literals: which rules a line holds the literals of (any
 * number of rules, a bit each), rules without literals on every line, a match as a point. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "tputrule.h"

static void add_all(struct tputrule_set *set)
{
	for (size_t i = 0; i < tputpreset_count; i++)
		tputrule_add_preset(set, i);
}

/* Each rule's literals as many as it names: the key/value reader's whole list. */
static void test_literals(void **state)
{
	(void)state;
	struct tputrule_set set;
	tputrule_init(&set);
	add_all(&set);
	size_t kv = (size_t)tputpreset_find("kv"), n = 0;
	while (tputkv_literals[n])
		n++;
	assert_int_equal(set.kv, (int)kv);
	assert_int_equal(set.rules[kv].nlits, n);
	assert_string_equal(set.rules[kv].literals[n - 1], "FPS:");
	size_t generic = (size_t)tputpreset_find("generic");
	assert_int_equal(set.rules[generic].nlits, 4);  /* a full list, no NULL after it */
	assert_true(tputrule_has_literal(&set.rules[2], "x tps: 5", 8));
	assert_false(tputrule_has_literal(&set.rules[2], "x tflops: 5", 11));
	tputrule_free(&set);
}

/* A line's rules by its shape; the mask has a bit for every rule, past 64. */
static void test_line_rules(void **state)
{
	(void)state;
	struct tputrule_set set;
	tputrule_init(&set);
	add_all(&set);
	char err[256];
	for (int i = 0; i < 70; i++) {
		char pattern[64];
		snprintf(pattern, sizeof pattern, "rule%d=(?<tput>\\d+)", i);
		assert_int_equal(tputrule_add_regex(&set, pattern, err, sizeof err), 0);
	}
	tputrule_sync(&set);
	assert_int_equal(set.n, tputpreset_count + 70);
	assert_int_equal(set.words, (tputpreset_count + 70) / 64 + 1);
	assert_true(set.any_unfiltered && set.shapes_ok);
	int known;
	struct tputrule_shape *shape;
	const char *line = "step: 10  loss: 7.9  tps: 5,856";
	const uint64_t *mask = tputrule_line(&set, line, strlen(line), &known, &shape);
	assert_non_null(mask);
	assert_false(known);
	assert_non_null(shape);
	assert_true(tputrule_bit(mask, 2));  /* torchtitan's "tps: " */
	assert_false(tputrule_bit(mask, 9));  /* tqdm's */
	for (size_t i = tputpreset_count; i < set.n; i++)
		assert_true(tputrule_bit(mask, i));  /* the custom rules read every line */
	assert_true(tputrule_any_literal(&set, mask));
	const char *same = "step: 11  loss: 7.8  tps: 5,901";
	assert_ptr_equal(tputrule_line(&set, same, strlen(same), &known, &shape), mask);
	assert_true(known);
	/* no literal: only the custom rules */
	const char *plain = "nothing to see";
	mask = tputrule_line(&set, plain, strlen(plain), &known, &shape);
	assert_non_null(mask);
	assert_false(tputrule_bit(mask, 2));
	assert_true(tputrule_bit(mask, set.n - 1));
	assert_false(tputrule_any_literal(&set, mask));
	tputrule_free(&set);
}

/* Without custom rules a line without literals has no rules at all. */
static void test_filtered(void **state)
{
	(void)state;
	struct tputrule_set set;
	tputrule_init(&set);
	add_all(&set);
	tputrule_sync(&set);
	assert_false(set.any_unfiltered);
	assert_int_equal(set.words, 1);
	int known;
	struct tputrule_shape *shape;
	assert_null(tputrule_line(&set, "nothing to see", 14, &known, &shape));
	size_t rule, hit = tputrule_find(&set, "a 5 it/s b", 10, &rule);
	assert_int_equal(hit, 4);
	assert_int_equal(rule, (size_t)tputpreset_find("tqdm"));
	assert_true(tputrule_in_line(&set, "a 5 it/s b", 10, hit, rule, set.line_mask));
	assert_true(tputrule_bit(set.line_mask, rule));
	assert_false(tputrule_in_line(&set, "none", 4, 4, 0, set.line_mask));
	tputrule_free(&set);
}

/* A match as a point: unit, value, step, loss from the rule's groups. */
static void test_take(void **state)
{
	(void)state;
	struct tputrule_set set;
	tputrule_init(&set);
	tputrule_add_preset(&set, (size_t)tputpreset_find("torchtitan"));
	tputrule_add_preset(&set, (size_t)tputpreset_find("tqdm"));
	char err[256], why[96];
	struct tput_point pt;
	const char *line = "step: 10  loss:  7.9012  memory: 30.10GiB(38.05%)  tps: 5,856  tflops: 301.20";
	assert_int_equal(rx_match_groups(set.rules[0].re, line, strlen(line), err, sizeof err), 1);
	assert_int_equal(tputrule_take(&set.rules[0], 3, 12.5, &pt, why, sizeof why), TPUT_POINT);
	assert_int_equal(pt.unit, TPUT_TOKENS_S_GPU);
	assert_true(pt.value == 5856 && pt.step == 10 && pt.loss == 7.9012 && pt.rank == 3 && pt.time == 12.5);
	line = " 12%|#         | 1/8 [01:53<13:12, 113.21s/it]";
	assert_int_equal(rx_match_groups(set.rules[1].re, line, strlen(line), err, sizeof err), 1);
	assert_int_equal(tputrule_take(&set.rules[1], -1, NAN, &pt, why, sizeof why), TPUT_POINT);
	assert_int_equal(pt.unit, TPUT_IT_S);
	assert_true(fabs(pt.value - 1 / 113.21) < 1e-12 && pt.step == 1 && isnan(pt.time));
	line = "100%|##########| 8/8 [15:00<00:00,  1.12s/it]";
	assert_int_equal(rx_match_groups(set.rules[1].re, line, strlen(line), err, sizeof err), 1);
	assert_int_equal(tputrule_take(&set.rules[1], -1, NAN, &pt, why, sizeof why), TPUT_NOMATCH);
	assert_string_equal(why, "a closing frame: the bar's average over the run");
	/* tqdm's own unit names ("unit='batch'"): a step's noun, it/s either way */
	line = "Epoch 82/500: 47%|##| 9/19 [00:00<00:00, 178.60batch/s, loss=0.354]";
	assert_int_equal(rx_match_groups(set.rules[1].re, line, strlen(line), err, sizeof err), 1);
	assert_int_equal(tputrule_take(&set.rules[1], -1, NAN, &pt, why, sizeof why), TPUT_POINT);
	assert_true(pt.unit == TPUT_IT_S && fabs(pt.value - 178.6) < 1e-9 && pt.loss == 0.354);
	line = " 40%|####  | 4/10 [00:04<00:06, 2.00s/batch]";
	assert_int_equal(rx_match_groups(set.rules[1].re, line, strlen(line), err, sizeof err), 1);
	assert_int_equal(tputrule_take(&set.rules[1], -1, NAN, &pt, why, sizeof why), TPUT_POINT);
	assert_true(pt.unit == TPUT_IT_S && fabs(pt.value - 0.5) < 1e-12);
	line = " 40%|####  | 4/10 [00:04<00:06, 2.00img/s]";
	assert_int_equal(rx_match_groups(set.rules[1].re, line, strlen(line), err, sizeof err), 1);
	assert_int_equal(tputrule_take(&set.rules[1], -1, NAN, &pt, why, sizeof why), TPUT_POINT);
	assert_true(pt.unit == TPUT_IMAGES_S && pt.value == 2);
	/* a unit after a blank (datasets' " examples"), a unit of two words: the last names it */
	line = "100%|##########| 87/87 [00:00<00:00, 1846.48 examples/s]";
	assert_int_equal(rx_match_groups(set.rules[1].re, line, strlen(line), err, sizeof err), 1);
	assert_int_equal(tputrule_take(&set.rules[1], -1, NAN, &pt, why, sizeof why), TPUT_NOMATCH);
	line = "Epoch 1:  10%|#   | 1/10 [00:01<00:09,  1.70s/Train batch]";
	assert_int_equal(rx_match_groups(set.rules[1].re, line, strlen(line), err, sizeof err), 1);
	assert_int_equal(tputrule_take(&set.rules[1], -1, NAN, &pt, why, sizeof why), TPUT_POINT);
	assert_true(pt.unit == TPUT_IT_S && fabs(pt.value - 1 / 1.70) < 1e-12 && pt.step == 1);
	line = " 40%|####  | 4/10 [00:04<00:06, 2.00 MB/s]";
	assert_int_equal(rx_match_groups(set.rules[1].re, line, strlen(line), err, sizeof err), 0);
	line = " 40%|####  | 4/10 [00:04<00:06, 2.00MB/s]";  /* a download: bytes are no unit of it */
	assert_int_equal(rx_match_groups(set.rules[1].re, line, strlen(line), err, sizeof err), 0);
	line = " 40%|####  | 4/10 [00:04<00:06, 2.00zz/s]";
	assert_int_equal(rx_match_groups(set.rules[1].re, line, strlen(line), err, sizeof err), 1);
	assert_int_equal(tputrule_take(&set.rules[1], -1, NAN, &pt, why, sizeof why), TPUT_BAD);
	assert_string_equal(why, "unknown unit 'zz/s'");
	line = "step: 8  loss: 7.8  tps: 5,85,6";
	assert_int_equal(rx_match_groups(set.rules[0].re, line, strlen(line), err, sizeof err), 1);
	assert_int_equal(tputrule_take(&set.rules[0], -1, NAN, &pt, why, sizeof why), TPUT_BAD);
	assert_string_equal(why, "bad throughput '5,85,6'");
	assert_int_equal(tputrule_add_regex(&set, "no group", err, sizeof err), -1);
	assert_string_equal(err, "pattern has no (?<tput>...) group");
	tputrule_free(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_literals),
		cmocka_unit_test(test_line_rules),
		cmocka_unit_test(test_filtered),
		cmocka_unit_test(test_take),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
