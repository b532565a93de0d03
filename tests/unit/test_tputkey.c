/* test_tputkey: the key and unit vocabulary, its lookups built from its own tables, and the
 * cache of keys by their text and their shape. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tputkey.h"

static void test_tables(void **state)
{
	(void)state;
	struct tputkey_tables t;
	tputkey_tables_init(&t);
	/* units starting with 't': tok/s 5, tok/sec 7, tokens/s 8, ..., tflops 6 */
	assert_true(t.unit_lens['t'] >> 5 & 1);
	assert_true(t.unit_lens['t'] >> 6 & 1);
	assert_false(t.unit_lens['t'] >> 4 & 1);
	assert_int_equal(t.unit_lens['z'], 0);
	/* key words start with these pairs only: "tokens_per_s" (to), "tps" (tp), "mfu" (mf) */
	assert_true(t.pairs['t']['o' >> 6] >> ('o' & 63) & 1);
	assert_true(t.pairs['t']['p' >> 6] >> ('p' & 63) & 1);
	assert_true(t.pairs['m']['f' >> 6] >> ('f' & 63) & 1);
	assert_false(t.pairs['l']['o' >> 6] >> ('o' & 63) & 1);  /* no key word starts "lo" */
}

static void test_units(void **state)
{
	(void)state;
	struct tputkey_tables t;
	tputkey_tables_init(&t);
	struct tputkey_unit u;
	assert_true(tputkey_unit(&t, "tok/s", 5, &u));
	assert_true(u.cls == KV_TOKENS && u.scale == 1 && !u.invert && !u.gpu);
	assert_true(tputkey_unit(&t, "s/it", 4, &u));
	assert_true(u.cls == KV_ITERS && u.invert);
	assert_true(tputkey_unit(&t, "sec/step", 8, &u));
	assert_true(u.cls == KV_TIME && u.scale == 1000);
	assert_true(tputkey_unit(&t, "gflops", 6, &u));
	assert_true(u.cls == KV_TFLOPS && u.scale == 1e-3);
	assert_true(tputkey_unit(&t, "samples/s/gpu", 13, &u));
	assert_true(u.cls == KV_SAMPLES && u.gpu);
	assert_false(tputkey_unit(&t, "furlongs", 8, &u));
	/* a noun and a time, not in the table: composed */
	assert_true(tputkey_unit(&t, "tok/h", 5, &u));
	assert_true(u.cls == KV_TOKENS && fabs(u.scale - 1 / 3600.0) < 1e-12 && !u.invert && !u.gpu);
	assert_false(tputkey_unit(&t, "furlongs/s", 10, &u));
	assert_false(tputkey_unit(&t, "tok/furlong", 11, &u));
	static const struct {
		const char *unit;
		enum tputkey_class cls;
		double scale;
		int invert, gpu;
	} composed[] = {
		{ "utts/s", KV_SAMPLES, 1, 0, 0 }, { "record/second", KV_SAMPLES, 1, 0, 0 },
		{ "sentences_per_sec", KV_SAMPLES, 1, 0, 0 }, { "imgs/sec/gpu", KV_IMAGES, 1, 0, 1 },
		{ "words/min", KV_TOKENS, 1 / 60.0, 0, 0 }, { "us/sample", KV_SAMPLES, 1e6, 1, 0 },
		{ "ms/sample", KV_SAMPLES, 1e3, 1, 0 }, { "sec/iter", KV_TIME, 1000, 0, 0 },
		{ "min/epoch", KV_NONE, 0, 0, 0 }, { "s_per_batch", KV_TIME, 1000, 0, 0 },
		{ "updates/s/device", KV_ITERS, 1, 0, 1 }, { "/s", KV_SAMPLES, 1, 0, 0 },
		{ "img/sec/core", KV_IMAGES, 1, 0, 1 }, { "im/s", KV_IMAGES, 1, 0, 0 },
		{ "s/10-batch", KV_TIME, 100, 0, 0 }, { "ms/4_samples", KV_SAMPLES, 4000, 1, 0 },
	};
	for (size_t i = 0; i < sizeof composed / sizeof composed[0]; i++) {
		int ok = tputkey_unit(&t, composed[i].unit, strlen(composed[i].unit), &u);
		assert_int_equal(ok, composed[i].cls != KV_NONE);
		if (!ok)
			continue;
		assert_int_equal(u.cls, composed[i].cls);
		assert_true(fabs(u.scale - composed[i].scale) < 1e-9 * composed[i].scale);
		assert_int_equal(u.invert, composed[i].invert);
		assert_int_equal(u.gpu, composed[i].gpu);
	}
	assert_false(tputkey_compose("s", 1, &u));
	assert_false(tputkey_compose("/gpu", 4, &u));
	assert_false(tputkey_compose("tok/s/x", 7, &u));
	/* items the tables do not name, after a key that says "speed" */
	assert_true(tputkey_items_rate("st/s", 4, &u));
	assert_true(u.cls == KV_SAMPLES && u.scale == 1 && !u.invert);
	assert_true(tputkey_items_rate("edges/min", 9, &u));
	assert_true(fabs(u.scale - 1 / 60.0) < 1e-12);
	assert_false(tputkey_items_rate("MB/s", 4, &u));
	assert_false(tputkey_items_rate("kib/sec", 7, &u));
	assert_false(tputkey_items_rate("/s", 2, &u));
	assert_false(tputkey_items_rate("st/furlong", 10, &u));
	assert_false(tputkey_items_rate("s2/s", 4, &u));
	assert_int_equal(tputkey_unit_of(KV_TOKENS, 1), TPUT_TOKENS_S_GPU);
	assert_int_equal(tputkey_unit_of(KV_IMAGES, 1), TPUT_SAMPLES_S_GPU);
	assert_int_equal(tputkey_unit_of(KV_TIME, 0), TPUT_MS_STEP);
	assert_int_equal(tputkey_unit_word("ms"), 0);
	assert_int_equal(tputkey_unit_word("%"), 0);
	assert_int_equal(tputkey_unit_word("loss"), 1);
	assert_int_equal(tputkey_unit_word(""), 1);
}

static void test_norm(void **state)
{
	(void)state;
	char out[32];
	assert_int_equal(tputkey_norm(" Tokens Per-Sec. ", 17, out, sizeof out), 14);
	assert_string_equal(out, "tokens_per_sec");
	assert_int_equal(tputkey_norm("a__b", 4, out, 3), 1);  /* cut to the room, no '_' left at the end */
	assert_string_equal(out, "a");
	/* CamelCase words part as words do; capitals in a row (GiB, TFLOPs, mAP) stay one */
	const char *in[] = { "StepsPerSecond", "iterTime", "GiB", "TFLOPs", "mAP", "nnEvals/s" };
	const char *want[] = { "steps_per_second", "iter_time", "gib", "tflops", "map", "nn_evals/s" };
	for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
		assert_int_equal(tputkey_norm(in[i], strlen(in[i]), out, sizeof out), strlen(want[i]));
		assert_string_equal(out, want[i]);
	}
}

/* What a key is, worked out once: by its text, and for a key of the same shape. */
static void test_lookup(void **state)
{
	(void)state;
	struct tputkey_cache *cache = test_malloc(sizeof *cache);
	tputkey_cache_init(cache);
	struct tputkey_info tmp;
	const struct tputkey_info *ki = tputkey_lookup(cache, &cache->tables, "global_step", 11, &tmp);
	assert_int_equal(ki->srank, 4);
	assert_int_equal(ki->kcls, KV_NONE);
	assert_ptr_equal(tputkey_lookup(cache, &cache->tables, "global_step", 11, &tmp), ki);
	ki = tputkey_lookup(cache, &cache->tables, "train_loss", 10, &tmp);
	assert_true(ki->loss && !ki->evals);
	ki = tputkey_lookup(cache, &cache->tables, "eval_loss", 9, &tmp);
	assert_true(!ki->loss && ki->evals && ki->skip);
	ki = tputkey_lookup(cache, &cache->tables, "throughput/device/tokens_per_second", 35, &tmp);
	assert_true(ki->kcls == KV_TOKENS && ki->gpu && ki->compound);
	ki = tputkey_lookup(cache, &cache->tables, "Avg prompt throughput", 21, &tmp);
	assert_true(ki->infer && ki->avg);
	/* words that say a step's time and nothing else; a step key's words with another */
	ki = tputkey_lookup(NULL, &cache->tables, "time_each_step", 14, &tmp);
	assert_int_equal(ki->kcls, KV_TIME);
	ki = tputkey_lookup(NULL, &cache->tables, "mean batch time", 15, &tmp);
	assert_int_equal(ki->kcls, KV_TIME);
	ki = tputkey_lookup(NULL, &cache->tables, "step_count", 10, &tmp);
	assert_int_equal(ki->kcls, KV_NONE);
	ki = tputkey_lookup(NULL, &cache->tables, "iter time", 9, &tmp);
	assert_ptr_equal(ki, &tmp);
	assert_int_equal(ki->kcls, KV_TIME_ITER);
	/* one analysis for keys of one shape, each key its own slot */
	const struct tputkey_info *a = tputkey_lookup(cache, &cache->tables, "layer_12 step_time", 18, &tmp);
	const struct tputkey_info *b = tputkey_lookup(cache, &cache->tables, "layer_7 step_time", 17, &tmp);
	assert_true(a != b && a->kcls == KV_TIME && b->kcls == KV_TIME);
	test_free(cache);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_norm),
		cmocka_unit_test(test_lookup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
