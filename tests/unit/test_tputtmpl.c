/* test_tputtmpl: a record's template is its words (numbers, bars and spacing out), the key
 * beside a figure, and the templates kept with their first example. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tputtmpl.h"

static uint64_t hash(const char *s) { return tputtmpl_hash(s, strlen(s)); }

static void test_hash(void **state)
{
	(void)state;
	/* the same record at other steps, other widths of numbers, K suffixes, exponents */
	assert_true(hash("step 10 | loss 3.25 | 980 tok/s") == hash("step 1000 | loss 12.5 | 14.5K tok/s"));
	assert_true(hash("lr=1e-05 wps=12") == hash("lr=0.0001 wps=1234"));
	/* a tqdm bar at any fill */
	assert_true(hash("Epoch 1:  12%|\xe2\x96\x88\xe2\x96\x8e        | 1/8 [01:53<13:12, 113.21s/it]") ==
		    hash("Epoch 3: 100%|\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88| 8/8 [15:02<00:00, 112.8s/it]"));
	assert_true(hash("|####      | 4/10 [00:04, 1.01it/s]") == hash("|##########| 10/10 [00:10, 1.00it/s]"));
	/* tqdm writes s/it below one a second, it/s above: one bar either way */
	assert_true(hash("epoch 1 iter 17: train loss 1.74. lr 6e-04: 100%|##| 18/18 [00:30<00:00,  1.70s/it]") ==
		    hash("epoch 2 iter 17: train loss 1.51. lr 6e-04: 100%|##| 18/18 [00:01<00:00, 11.61it/s]"));
	assert_true(hash("x 5 tok/s") != hash("x 5 tok/it"));
	/* other words: another template */
	assert_true(hash("| train | epoch 001 | wps 12") != hash("| valid | epoch 001 | wps 12"));
	assert_true(hash("train_inner wps=1") != hash("train wps=1"));
	assert_true(hash("abc def") != hash("abcdef"));
	assert_true(hash("") != 0 && hash("123 456") == hash(""));
	/* more words than one buffer holds: all of them count */
	char a[2000], b[2000];
	memset(a, 'x', sizeof a);
	memset(b, 'x', sizeof b);
	for (size_t i = 0; i < sizeof a; i += 10)
		a[i] = b[i] = ' ';
	b[1995] = 'y';
	assert_true(tputtmpl_hash(a, sizeof a) != tputtmpl_hash(b, sizeof b));
	/* a figure that is no number stands where its numbers do */
	const char *n1 = "iter 3010: loss nan, time 1019.95ms", *n2 = "iter 3020: loss 2.31, time 1018.2ms";
	assert_int_equal(tputtmpl_hash(n1, strlen(n1)), tputtmpl_hash(n2, strlen(n2)));
	const char *i1 = "| Speed (samples/sec) inf |", *i2 = "| Speed (samples/sec) 519.3 |", *w = "| Speed (samples/sec) information |";
	assert_int_equal(tputtmpl_hash(i1, strlen(i1)), tputtmpl_hash(i2, strlen(i2)));
	assert_true(tputtmpl_hash(w, strlen(w)) != tputtmpl_hash(i2, strlen(i2)));
}

static void assert_key(const char *line, const char *figure, const char *want)
{
	char out[TPUTTMPL_KEY_MAX];
	const char *at = strstr(line, figure);
	assert_non_null(at);
	size_t n = tputtmpl_key(line, strlen(line), (size_t)(at - line), out, sizeof out);
	assert_string_equal(out, want);
	assert_int_equal(n, strlen(want));
}

static void test_key(void **state)
{
	(void)state;
	assert_key("step 10 | loss 3.2 | wps=12345 | ups 2", "12345", "wps");
	assert_key("{'train_samples_per_second': 8.021, 'epoch': 2}", "8.021", "train_samples_per_second");
	assert_key("iter latency:      7.77 s", "7.77", "iter latency");
	assert_key("step:125/1480 train_time:29736ms step_avg:258.57ms", "258.57", "step_avg");
	assert_key(" 12%|#  | 1/8 [01:53<13:12, 113.21s/it]", "113.21", "s/it");
	assert_key("[00:10, 44.1it/s, loss=0.5]", "44.1", "it/s");
	assert_key("| ms/batch  8.41 | loss 5.2", "8.41", "ms/batch");
	assert_key("step 7 | 14.5K tok/s", "14.5K", "tok/s");
	assert_key("    train_tokens_per_second  =   2737.984", "2737.984", "train_tokens_per_second");
	assert_key("|    fps             | 1406  |", "1406", "fps");
	assert_key("kimg 20.0  sec/kimg 235.59  maintenance 7.7", "235.59", "sec/kimg");
	assert_key("'memory(GiB)': 18.54, 'train_speed(iter/s)': 0.121, 'epoch'", "0.121", "train_speed(iter/s)");
	/* a unit closing a parenthesis is not the parenthesis's */
	assert_key("total=2.58732 (236.009 pos/s)", "236.009", "pos/s");
	assert_key("train_loss: 5.663 (632.5 ms)", "632.5", "ms");
	/* nothing beside it */
	assert_key("[ 42 ]", "42", "");
	char tiny[4];
	tputtmpl_key("wps=12345", 9, 4, tiny, sizeof tiny);
	assert_string_equal(tiny, "wps");
	tputtmpl_key("abcdef: 1", 9, 8, tiny, sizeof tiny);
	assert_string_equal(tiny, "abc");  /* cut to what fits */
	assert_int_equal(tputtmpl_key("x", 1, 5, tiny, sizeof tiny), 0);  /* past the end */
}

static void test_set(void **state)
{
	(void)state;
	struct tputtmpl_set set = { 0 };
	const char *l1 = "step 1 | 12.5 tok/s\tloss 3";
	tputtmpl_note(&set, 7, 0, 12, l1, strlen(l1), 9);
	tputtmpl_note(&set, 7, 0, 13, "step 2 | 13 tok/s", 17, 9);  /* seen: the first stays */
	const struct tputtmpl_seen *e = tputtmpl_find(&set, 7, 0);
	assert_non_null(e);
	assert_int_equal(e->lineno, 12);
	assert_string_equal(e->key, "tok/s");
	assert_string_equal(e->example, "step 1 | 12.5 tok/s loss 3");  /* no tab in a row */
	assert_null(tputtmpl_find(&set, 7, 1));
	assert_null(tputtmpl_find(&set, 8, 0));
	/* many: the table grows and finds each */
	for (uint64_t t = 100; t < 1100; t++)
		tputtmpl_note(&set, t, (int)(t % 3), (unsigned long)t, "a 1", 3, 2);
	for (uint64_t t = 100; t < 1100; t++) {
		e = tputtmpl_find(&set, t, (int)(t % 3));
		assert_non_null(e);
		assert_int_equal(e->lineno, t);
	}
	/* a long example is cut and says so */
	char big[500];
	memset(big, 'w', sizeof big);
	tputtmpl_note(&set, 5, 0, 1, big, sizeof big, 0);
	e = tputtmpl_find(&set, 5, 0);
	assert_int_equal(strlen(e->example), TPUTTMPL_EXAMPLE_MAX + 3);
	assert_string_equal(e->example + TPUTTMPL_EXAMPLE_MAX, "...");
	tputtmpl_set_free(&set);
	assert_null(tputtmpl_find(&set, 7, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hash),
		cmocka_unit_test(test_key),
		cmocka_unit_test(test_set),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
