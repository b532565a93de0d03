/* test_lit: leftmost, first-added matches from the SIMD and the portable searches alike,
 * at every block boundary, and against a naive search on random sets and buffers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "lit.h"

typedef lit_set *make_fn(void);
static make_fn *const makers[] = { lit_new, lit_new_sse, lit_new_portable };
#define NMAKERS (sizeof makers / sizeof makers[0])

/* An exactly-sized heap copy, so ASan catches any read outside it. */
static size_t find_in(const lit_set *set, const char *text, size_t len, unsigned *id)
{
	char *copy = malloc(len ? len : 1);
	assert_non_null(copy);
	memcpy(copy, text, len);
	size_t at = lit_find(set, copy, len, id);
	free(copy);
	return at;
}

static size_t find_str(const lit_set *set, const char *text, unsigned *id)
{
	return find_in(set, text, strlen(text), id);
}

static void test_empty(void **state)
{
	(void)state;
	for (size_t m = 0; m < NMAKERS; m++) {
		lit_set *s = makers[m]();
		unsigned id = 99;
		assert_int_equal(lit_count(s), 0);
		assert_int_equal(find_str(s, "anything at all", &id), 15);
		assert_int_equal(find_in(s, "", 0, &id), 0);
		assert_int_equal(id, 99);
		lit_free(s);
	}
	lit_free(NULL);
}

static void test_single(void **state)
{
	(void)state;
	for (size_t m = 0; m < NMAKERS; m++) {
		lit_set *s = makers[m]();
		lit_add(s, "tps: ", 5, 7);
		assert_int_equal(lit_count(s), 1);
		unsigned id = 0;
		assert_int_equal(find_str(s, "tps: 12", &id), 0);
		assert_int_equal(id, 7);
		id = 0;
		assert_int_equal(find_str(s, "step 3 loss 2.5 tps: ", &id), 16);
		assert_int_equal(id, 7);
		id = 0;
		assert_int_equal(find_str(s, "step 3 loss 2.5 tps:", &id), 20);
		assert_int_equal(find_str(s, "tps:", &id), 4);
		assert_int_equal(find_str(s, "", &id), 0);
		assert_int_equal(id, 0);
		lit_free(s);

		s = makers[m]();
		lit_add(s, "x", 1, 3);
		assert_int_equal(find_str(s, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaax", &id), 39);
		assert_int_equal(id, 3);
		assert_int_equal(find_str(s, "aaaa", &id), 4);
		lit_free(s);
	}
}

static void test_nul_bytes(void **state)
{
	(void)state;
	static const char text[] = "ab\0c\0\0d\0e\0\0d\0e";
	for (size_t m = 0; m < NMAKERS; m++) {
		lit_set *s = makers[m]();
		lit_add(s, "\0d\0e", 4, 1);
		lit_add(s, "\0", 1, 2);
		unsigned id = 0;
		assert_int_equal(find_in(s, text, sizeof text - 1, &id), 2);
		assert_int_equal(id, 2);
		lit_free(s);
		s = makers[m]();
		lit_add(s, "\0d\0e", 4, 1);
		assert_int_equal(find_in(s, text, sizeof text - 1, &id), 5);
		assert_int_equal(id, 1);
		assert_int_equal(find_in(s, text + 6, sizeof text - 7, &id), 4);
		lit_free(s);
	}
}

static void test_overlap_ties(void **state)
{
	(void)state;
	for (size_t m = 0; m < NMAKERS; m++) {
		lit_set *s = makers[m]();
		lit_add(s, "tok/sec: ", 9, 1);
		lit_add(s, "tok/s", 5, 2);
		lit_add(s, " tok/s", 6, 3);
		lit_add(s, "k/s", 3, 4);
		unsigned id = 0;
		/* Leftmost wins over added first. */
		assert_int_equal(find_str(s, "rate 5 tok/sec: 12", &id), 6);
		assert_int_equal(id, 3);
		/* Same start: the one added first. */
		assert_int_equal(find_str(s, "rate 5,tok/sec: 12", &id), 7);
		assert_int_equal(id, 1);
		assert_int_equal(find_str(s, "rate 5,tok/se", &id), 7);
		assert_int_equal(id, 2);
		assert_int_equal(find_str(s, "rate 5,ok/se", &id), 8);
		assert_int_equal(id, 4);
		lit_free(s);

		/* A literal whose fingerprint lies far inside it, and a short one after it. */
		s = makers[m]();
		lit_add(s, "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee#q!", 43, 1);
		lit_add(s, "eee", 3, 2);
		assert_int_equal(find_str(s, "...eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee#q!", &id), 3);
		assert_int_equal(id, 1);
		lit_free(s);
		s = makers[m]();
		lit_add(s, "ee", 2, 2);
		lit_add(s, "xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee#q!", 70, 1);
		assert_int_equal(find_str(s, "..xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee#q!", &id), 2);
		assert_int_equal(id, 1);
		lit_free(s);
	}
}

/* Every start offset 0..70 in buffers of several lengths: across 16- and 32-byte blocks,
 * and right at the end. */
static void test_boundaries(void **state)
{
	(void)state;
	static const char *lits[] = { "tps: ", "it/s", "ab", "q", "elapsed time per iteration (ms):" };
	char buf[200];
	for (size_t m = 0; m < NMAKERS; m++)
		for (size_t which = 0; which < 5; which++)
			for (size_t nl = 1; nl <= 3; nl++) {
				lit_set *s = makers[m]();
				/* 1, 2 or 3 literals: the packed pair, then Teddy. */
				lit_add(s, lits[which], strlen(lits[which]), 10);
				if (nl >= 2)
					lit_add(s, "#never#", 7, 11);
				if (nl >= 3)
					lit_add(s, "%%", 2, 12);
				size_t ll = strlen(lits[which]);
				for (size_t len = ll; len <= 110; len += 7)
					for (size_t at = 0; at <= 70 && at + ll <= len; at++) {
						memset(buf, '.', len);
						memcpy(buf + at, lits[which], ll);
						unsigned id = 0;
						assert_int_equal(find_in(s, buf, len, &id), at);
						assert_int_equal(id, 10);
						/* Cut one byte short: not found. */
						assert_int_equal(find_in(s, buf, at + ll - 1, &id), at + ll - 1);
					}
				lit_free(s);
			}
}

static const char *tput_lits[] = {
	"samples per second:", "elapsed time per iteration (ms):", "tps: ", ", time ", " tok/s",
	"tok/sec: ", "step_avg:", "'train_samples_per_second': ", "it/s", "s/it",
	"CurrSamplesPerSec=", "wps=", "Tokens/s/device: ", "TFLOPS_per_GPU: ", "tokens_per_sec: ",
	"tok/s", "tokens/s", "samples/s", "tokens per second",
};
#define NTPUT (sizeof tput_lits / sizeof tput_lits[0])

static void test_tput_set(void **state)
{
	(void)state;
	static const struct {
		const char *line;
		size_t at;
		unsigned id;
	} cases[] = {
		{ "[rank1]:[2024-05-01 12:00:02,001] step:     2  loss: 7.3233  memory: 30.10GiB(38.05%)  tps: 6,233  tflops: 301.20", 87, 2 },
		{ " 7:  iteration       23/  100000 | consumed samples:          184 | elapsed time per iteration (ms): 1528.6 |", 68, 1 },
		{ "worker-6: Epoch 0:  10%|#         | 55/100000 [00:10<01:30,  2.80it/s, v_num=0, loss=3.152]", 65, 8 },
		{ "I0501 completed step: 24, seconds: 1.234, TFLOP/s/device: 301.2, Tokens/s/device: 6897.8", 65, 12 },
		{ "step 10 | 1234.5 tok/sec: 99", 16, 4 },
		{ "step 10 | 1234.5tok/sec: 99", 16, 5 },
		{ "{'train_runtime': 1.0, 'train_samples_per_second': 12.5}", 23, 7 },
		{ "SamplesPerSec=1 CurrSamplesPerSec=2", 16, 10 },
		{ "wps=1 tokens per second 2", 0, 11 },
		{ "step:1/100 train_loss:3.1 train_time:12ms step_avg:12.00ms", 42, 6 },
		{ "100 samples/s", 4, 17 },
		{ "1.5s/it", 3, 9 },
		{ "nothing of note here: tokens per sec", 36, NTPUT },
		{ "x", 1, NTPUT },
	};
	for (size_t m = 0; m < NMAKERS; m++) {
		lit_set *s = makers[m]();
		for (size_t k = 0; k < NTPUT; k++)
			lit_add(s, tput_lits[k], strlen(tput_lits[k]), (unsigned)k);
		assert_int_equal(lit_count(s), NTPUT);
		for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
			unsigned id = NTPUT;
			assert_int_equal(find_str(s, cases[c].line, &id), cases[c].at);
			assert_int_equal(id, cases[c].id);
		}
		lit_free(s);
	}
}

/* Adding after a search: the set prepares itself again (one literal -> several). */
static void test_add_after_find(void **state)
{
	(void)state;
	for (size_t m = 0; m < NMAKERS; m++) {
		lit_set *s = makers[m]();
		unsigned id = 0;
		lit_add(s, "world", 5, 1);
		assert_int_equal(find_str(s, "hello world", &id), 6);
		lit_add(s, "llo", 3, 2);
		assert_int_equal(find_str(s, "hello world", &id), 2);
		assert_int_equal(id, 2);
		lit_add(s, "h", 1, 3);
		assert_int_equal(find_str(s, "hello world", &id), 0);
		assert_int_equal(id, 3);
		lit_free(s);
	}
}

static unsigned rnd(uint64_t *rng, unsigned n)
{
	*rng = *rng * 6364136223846793005ull + 1442695040888963407ull;
	return (unsigned)((*rng >> 33) % n);
}

static size_t naive(char lits[][40], const size_t *lens, size_t n, const char *t, size_t len, unsigned *id)
{
	for (size_t i = 0; i < len; i++)
		for (size_t k = 0; k < n; k++)
			if (lens[k] <= len - i && memcmp(t + i, lits[k], lens[k]) == 0) {
				*id = (unsigned)k;
				return i;
			}
	return len;
}

/* A round's literals, of *alpha bytes from *base on: small alphabets (with NUL and high
 * bytes) make matches and near misses common; now and then past Teddy's 128 literals, or
 * between 64 and 128 (the buckets' fill). Returns how many. */
static size_t random_literals(uint64_t *rng, int round, char lits[][40], size_t *lens, unsigned *alpha,
			      unsigned *base)
{
	*alpha = 2 + rnd(rng, 6);
	*base = rnd(rng, 4) == 0 ? 0 : rnd(rng, 4) == 0 ? 250 : 'a';
	size_t n = 1 + rnd(rng, round % 10 == 0 ? 140 : round % 10 == 5 ? 128 : 10);
	for (size_t k = 0; k < n; k++) {
		lens[k] = 1 + rnd(rng, rnd(rng, 4) == 0 ? 39 : 6);
		for (size_t j = 0; j < lens[k]; j++)
			lits[k][j] = (char)(unsigned char)(*base + rnd(rng, *alpha));
	}
	return n;
}

static void test_random(void **state)
{
	(void)state;
	uint64_t rng = 20240501;
	char lits[140][40];
	size_t lens[140];
	char text[300];
	for (int round = 0; round < 4000; round++) {
		unsigned alpha, base;
		size_t n = random_literals(&rng, round, lits, lens, &alpha, &base);
		size_t len = rnd(&rng, 300);
		for (size_t j = 0; j < len; j++)
			text[j] = (char)(unsigned char)(base + rnd(&rng, alpha + 2));
		/* Often plant one literal. */
		if (rnd(&rng, 2) && len > 0) {
			size_t k = rnd(&rng, (unsigned)n);
			if (lens[k] <= len)
				memcpy(text + rnd(&rng, (unsigned)(len - lens[k] + 1)), lits[k], lens[k]);
		}
		lit_set *sets[NMAKERS];
		for (size_t m = 0; m < NMAKERS; m++) {
			sets[m] = makers[m]();
			for (size_t k = 0; k < n; k++)
				lit_add(sets[m], lits[k], lens[k], (unsigned)k);
		}
		/* Every suffix start, as a caller walking from hit to hit would search. */
		for (size_t from = 0; from <= len; from += 1 + rnd(&rng, 20)) {
			unsigned want_id = 1000;
			size_t want = naive(lits, lens, n, text + from, len - from, &want_id);
			for (size_t m = 0; m < NMAKERS; m++) {
				unsigned id = 1000;
				assert_int_equal(find_in(sets[m], text + from, len - from, &id), want);
				assert_int_equal(id, want_id);
			}
		}
		for (size_t m = 0; m < NMAKERS; m++)
			lit_free(sets[m]);
	}
}

/* A cursor walking from hit to hit (now and then jumping ahead, or back) answers as
 * lit_find from each offset does, while the text before the offset asked from changes; the
 * sets of odd rounds are built by lit_add_many, and must answer as the naive search. */
static void test_cursor(void **state)
{
	(void)state;
	uint64_t rng = 20261201;
	char lits[140][40];
	size_t lens[140];
	for (int round = 0; round < 3000; round++) {
		unsigned alpha, base;
		size_t n = random_literals(&rng, round, lits, lens, &alpha, &base);
		size_t len = rnd(&rng, 600);
		char *text = malloc(len ? len : 1), *orig = malloc(len ? len : 1);
		assert_non_null(text);
		assert_non_null(orig);
		for (size_t j = 0; j < len; j++)
			text[j] = (char)(unsigned char)(base + rnd(&rng, alpha + 2));
		for (int plant = 0; plant < 8 && len > 0; plant++) {
			size_t k = rnd(&rng, (unsigned)n);
			if (lens[k] <= len)
				memcpy(text + rnd(&rng, (unsigned)(len - lens[k] + 1)), lits[k], lens[k]);
		}
		memcpy(orig, text, len);
		for (size_t m = 0; m < NMAKERS; m++) {
			lit_set *set = makers[m]();
			if (round % 2) {  /* all at once: the same set as one by one */
				const char *texts[140];
				unsigned ids[140];
				for (size_t k = 0; k < n; k++) {
					texts[k] = lits[k];
					ids[k] = (unsigned)k;
				}
				lit_add_many(set, n, texts, lens, ids);
			} else {
				for (size_t k = 0; k < n; k++)
					lit_add(set, lits[k], lens[k], (unsigned)k);
			}
			lit_cursor *cur = lit_cursor_new(set);
			memcpy(text, orig, len);
			lit_cursor_start(cur, text, len);
			for (size_t from = 0, steps = 0; from <= len && steps < 400; steps++) {
				unsigned want_id = 1000, id = 1000;
				size_t want = from + naive(lits, lens, n, orig + from, len - from, &want_id);
				assert_int_equal(lit_cursor_find(cur, from, &id), want);
				assert_int_equal(id, want_id);
				/* the caller may change what lies before its next offset */
				size_t next = want + 1 + (rnd(&rng, 4) == 0 ? rnd(&rng, 40) : 0);
				if (rnd(&rng, 20) == 0)
					next = rnd(&rng, (unsigned)len + 1);
				for (size_t j = 0; j < next && j < len; j++)
					if (rnd(&rng, 3) == 0)
						text[j] = (char)(unsigned char)rnd(&rng, 256);
				if (next < from)  /* going back: what lies after it must be as it was */
					memcpy(text + next, orig + next, len - next);
				from = next;
			}
			lit_cursor_free(cur);
			lit_free(set);
		}
		free(text);
		free(orig);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_single),
		cmocka_unit_test(test_nul_bytes),
		cmocka_unit_test(test_overlap_ties),
		cmocka_unit_test(test_boundaries),
		cmocka_unit_test(test_tput_set),
		cmocka_unit_test(test_add_after_find),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_cursor),
	};
	return cmocka_run_group_tests_name("lit", tests, NULL, NULL);
}
