/* tput: presets for the training-log shapes in the formats table, and the traps around them. */
#include "tput.h"
#include "input.h"
#include "lit.h"
#include "rx.h"
#include "tputbyte.h"
#include "tputctx.h"
#include "tputnorm.h"
#include "tputpreset.h"
#include "tputunit.h"
#include "xalloc.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>



/* The key/value reader's classes of figure. */
/* KV_TPS: the word "tps", which says tokens but not whether per GPU or for the job.
 * KV_TIME_SAID: a key as loose as "time", a step time only when its unit says ms or s and
 * the line carries a rate besides ("Time: 1638.07 ms, TPS: 6251"). */
/* KV_TIME_ITER ("iter_time", "iter time"), KV_TIME_TRAIN ("train_time"): keys of an iteration
 * timer, read as such only beside what only a training step's line prints (kv_finish). */
enum kv_class { KV_NONE, KV_TOKENS, KV_SAMPLES, KV_IMAGES, KV_ITERS, KV_TFLOPS, KV_GFLOPS, KV_MFU, KV_TIME, KV_TPS,
		KV_TIME_SAID, KV_TIME_ITER, KV_TIME_TRAIN };

/* A word to look for, its length written down: lookups run for every figure of a line. */
struct kw {
	const char *text;      /* normalized: lower case, "_" for " -." */
	unsigned char len;
	unsigned char cls;     /* enum kv_class */
	unsigned char word;    /* 1: must stand alone between separators; 2: must be the whole key */
};
#define KW(t, c, w) { t, sizeof t - 1, c, w }

static const struct kw kv_keys[] = {
	KW("tera_flops", KV_TFLOPS, 0), KW("tflop/s", KV_TFLOPS, 0), KW("tflops", KV_TFLOPS, 0),
	KW("gflop/s", KV_GFLOPS, 0), KW("gflops", KV_GFLOPS, 0), KW("mfu", KV_MFU, 1),
	KW("tokens_per_s", KV_TOKENS, 0), KW("tokens/s", KV_TOKENS, 0), KW("tok/s", KV_TOKENS, 0),
	KW("token/s", KV_TOKENS, 0), KW("tokens/gpu/s", KV_TOKENS, 0), KW("tokens_per_second", KV_TOKENS, 0), KW("tps", KV_TPS, 1),
	KW("wps", KV_TOKENS, 1), KW("words_per_s", KV_TOKENS, 0), KW("words/s", KV_TOKENS, 0),
	KW("samples_per_s", KV_SAMPLES, 0), KW("samplespers", KV_SAMPLES, 0), KW("samples/s", KV_SAMPLES, 0),
	KW("sample_per_s", KV_SAMPLES, 0), KW("sample/s", KV_SAMPLES, 0), KW("examples/s", KV_SAMPLES, 0),
	KW("examples_per_s", KV_SAMPLES, 0), KW("sequences_per_s", KV_SAMPLES, 0),
	KW("sequences/s", KV_SAMPLES, 0), KW("seq/s", KV_SAMPLES, 0), KW("seqs/s", KV_SAMPLES, 0),
	KW("images/s", KV_IMAGES, 0), KW("img/s", KV_IMAGES, 0), KW("images_per_s", KV_IMAGES, 0),
	KW("it/s", KV_ITERS, 0), KW("steps_per_s", KV_ITERS, 0), KW("steps/s", KV_ITERS, 0),
	KW("batches_per_s", KV_ITERS, 0), KW("batches/s", KV_ITERS, 0), KW("iterations_per_s", KV_ITERS, 0),
	KW("global_step/s", KV_ITERS, 0), KW("ups", KV_ITERS, 1), KW("step/sec", KV_ITERS, 0),
	KW("updates/s", KV_ITERS, 0), KW("iter/s", KV_ITERS, 0),
	KW("step_time", KV_TIME, 0), KW("step_timing", KV_TIME, 0), KW("elapsed_time_per_iteration", KV_TIME, 0),
	KW("iter_latency", KV_TIME, 0), KW("iteration_time", KV_TIME, 0), KW("time_per_iteration", KV_TIME, 0),
	KW("time_per_step", KV_TIME, 0), KW("step_avg", KV_TIME, 0), KW("batch_time", KV_TIME, 0),
	KW("batch_cost", KV_TIME, 0), KW("batch_(t)", KV_TIME, 2), KW("ms/batch", KV_TIME, 2), KW("ms/step", KV_TIME, 2),
	KW("ms/iter", KV_TIME, 2), KW("ips", KV_SAMPLES, 2),
	KW("seconds", KV_TIME, 1), KW("time", KV_TIME_SAID, 2), KW("iter_time", KV_TIME_ITER, 2),
	KW("train_time", KV_TIME_TRAIN, 2),
};

/* Units written after a figure (normalized), with the seconds per unit for times. */
#define KU(t, cls, scale, invert, gpu) { t, sizeof t - 1, cls, scale, invert, gpu }
static const struct {
	const char *text;
	unsigned char len;
	enum kv_class cls;
	double scale;          /* times: milliseconds per unit; GFLOPS: 1e-3 */
	int invert;
	int gpu;
} kv_units[] = {
	KU("tok/s", KV_TOKENS, 1, 0, 0), KU("tok/sec", KV_TOKENS, 1, 0, 0), KU("tokens/s", KV_TOKENS, 1, 0, 0),
	KU("tokens/sec", KV_TOKENS, 1, 0, 0), KU("tokens_per_sec", KV_TOKENS, 1, 0, 0),
	KU("tokens_per_second", KV_TOKENS, 1, 0, 0), KU("tok/s/gpu", KV_TOKENS, 1, 0, 1),
	KU("tokens/s/gpu", KV_TOKENS, 1, 0, 1), KU("tokens/s/device", KV_TOKENS, 1, 0, 1),
	KU("samples/s", KV_SAMPLES, 1, 0, 0), KU("samples/sec", KV_SAMPLES, 1, 0, 0),
	KU("samples/second", KV_SAMPLES, 1, 0, 0), KU("sample_per_sec", KV_SAMPLES, 1, 0, 0),
	KU("samples_per_sec", KV_SAMPLES, 1, 0, 0), KU("examples/sec", KV_SAMPLES, 1, 0, 0),
	KU("examples/s", KV_SAMPLES, 1, 0, 0), KU("sequences/s", KV_SAMPLES, 1, 0, 0),
	KU("seq/s", KV_SAMPLES, 1, 0, 0), KU("samples/s/gpu", KV_SAMPLES, 1, 0, 1),
	KU("images/s", KV_IMAGES, 1, 0, 0), KU("images/sec", KV_IMAGES, 1, 0, 0), KU("img/s", KV_IMAGES, 1, 0, 0),
	KU("img/sec", KV_IMAGES, 1, 0, 0),
	/* a rate of nothing named (OpenCLIP's "1781.07/s, 222.633/s/gpu"): samples */
	KU("/s", KV_SAMPLES, 1, 0, 0), KU("/s/gpu", KV_SAMPLES, 1, 0, 1),
	KU("it/s", KV_ITERS, 1, 0, 0), KU("steps/s", KV_ITERS, 1, 0, 0),
	KU("iter/s", KV_ITERS, 1, 0, 0), KU("iters/s", KV_ITERS, 1, 0, 0),
	KU("updates/s", KV_ITERS, 1, 0, 0), KU("updates/sec", KV_ITERS, 1, 0, 0),
	KU("steps/sec", KV_ITERS, 1, 0, 0), KU("step/sec", KV_ITERS, 1, 0, 0),
	KU("step/s", KV_ITERS, 1, 0, 0), KU("iters/sec", KV_ITERS, 1, 0, 0),
	KU("iter/sec", KV_ITERS, 1, 0, 0), KU("it/sec", KV_ITERS, 1, 0, 0),
	KU("instance/sec", KV_SAMPLES, 1, 0, 0),
	KU("instances/sec", KV_SAMPLES, 1, 0, 0),
	KU("instance/s", KV_SAMPLES, 1, 0, 0), KU("instances/s", KV_SAMPLES, 1, 0, 0),
	KU("records/second", KV_SAMPLES, 1, 0, 0),
	KU("records/sec", KV_SAMPLES, 1, 0, 0), KU("records/s", KV_SAMPLES, 1, 0, 0),
	KU("words/s", KV_TOKENS, 1, 0, 0), KU("words/sec", KV_TOKENS, 1, 0, 0),
	KU("s/it", KV_ITERS, 1, 1, 0), KU("tflops", KV_TFLOPS, 1, 0, 0), KU("tflop/s", KV_TFLOPS, 1, 0, 0),
	KU("tflop/s/gpu", KV_TFLOPS, 1, 0, 1), KU("tflops/gpu", KV_TFLOPS, 1, 0, 1),
	KU("gflops", KV_TFLOPS, 1e-3, 0, 0), KU("gflop/s", KV_TFLOPS, 1e-3, 0, 0),
	KU("ms/step", KV_TIME, 1, 0, 0), KU("ms/it", KV_TIME, 1, 0, 0), KU("ms/iter", KV_TIME, 1, 0, 0),
	KU("ms/batch", KV_TIME, 1, 0, 0), KU("s/step", KV_TIME, 1000, 0, 0), KU("sec/step", KV_TIME, 1000, 0, 0),
	KU("s/batch", KV_TIME, 1000, 0, 0), KU("sec/batch", KV_TIME, 1000, 0, 0), KU("s/iter", KV_TIME, 1000, 0, 0),
};
#undef KU

/* Whether a unit of len bytes starting with c may be in kv_units: most words after a
 * figure are not, and the table is not walked for them. */
static int kv_unit_maybe(char c, size_t len)
{
	static uint32_t lens[256];
	static int ready;  /* a constant table, filled alike by any thread */
	if (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE)) {
		uint32_t l[256] = { 0 };
		for (size_t u = 0; u < sizeof kv_units / sizeof kv_units[0]; u++)
			l[(unsigned char)kv_units[u].text[0]] |= 1u << kv_units[u].len;
		memcpy(lens, l, sizeof lens);
		__atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
	}
	return len < 32 && (lens[(unsigned char)c] >> len & 1);
}

/* Normalize text into out (NUL-ended, at most cap - 1 bytes): lower case, "_" for " -.". */
static size_t kv_norm(const char *s, size_t len, char *out, size_t cap)
{
	size_t n = 0;
	for (size_t i = 0; i < len && n + 1 < cap; i++) {
		char c = s[i];
		if (c >= 'A' && c <= 'Z')
			c = (char)(c + 32);
		else if (c == ' ' || c == '-' || c == '.' || c == '\t')
			c = '_';
		if (c == '_' && (n == 0 || out[n - 1] == '_'))
			continue;
		out[n++] = c;
	}
	while (n > 0 && out[n - 1] == '_')
		n--;
	out[n] = '\0';
	return n;
}

static int kv_sep(char c) { return !tputbyte_alnum(c); }

/* key (NUL-ended) holds the word w; whole words must stand between separators. */
static int kw_in(const char *key, size_t klen, const struct kw *w)
{
	for (size_t i = 0; i + w->len <= klen; i++)
		if (key[i] == w->text[0] && memcmp(key + i, w->text, w->len) == 0 &&
		    (!w->word || ((i == 0 || kv_sep(key[i - 1])) && kv_sep(key[i + w->len]))) &&
		    (w->word != 2 || (i == 0 && w->len == klen)))
			return 1;
	return 0;
}

static int kv_has(const char *key, const char *pat, int word)
{
	struct kw w = { pat, (unsigned char)strlen(pat), 0, (unsigned char)word };
	return kw_in(key, strlen(key), &w);
}

/* The first letters of every table word: b, e, g, i, m, s, t, u, w, with their seconds. */
static int kv_gate(char a, char b)
{
	switch (a) {
	case 't': return b == 'e' || b == 'f' || b == 'o' || b == 'p' || b == 'i' || b == 'r';
	case 'g': return b == 'f' || b == 'l';
	case 'm': return b == 'f' || b == 's';
	case 's': return b == 'a' || b == 'e' || b == 't';
	case 'w': return b == 'p' || b == 'o';
	case 'e': return b == 'x' || b == 'l';
	case 'i': return b == 'm' || b == 't' || b == 'p';
	case 'b': return b == 'a';
	case 'u': return b == 'p';
	default: return 0;
	}
}

/* The class of the earliest table word the key holds; one pass over the key, the table
 * looked at only where two letters may start a word of it (most keys name no rate). */
static enum kv_class kv_key_class(const char *key)
{
	size_t klen = strlen(key), n = sizeof kv_keys / sizeof kv_keys[0], best = n;
	for (size_t i = 0; i + 1 < klen; i++) {
		if (!kv_gate(key[i], key[i + 1]))
			continue;
		for (size_t t = 0; t < best; t++) {
			const struct kw *w = &kv_keys[t];
			if (w->text[0] != key[i] || w->text[1] != key[i + 1] || i + w->len > klen ||
			    memcmp(key + i, w->text, w->len) != 0)
				continue;
			if (w->word && !((i == 0 || kv_sep(key[i - 1])) && kv_sep(key[i + w->len])))
				continue;
			if (w->word == 2 && (i != 0 || w->len != klen))
				continue;
			best = t;
			break;
		}
	}
	return best == n ? KV_NONE : (enum kv_class)kv_keys[best].cls;
}

static int kv_words(const char *key, const struct kw *list, size_t n)
{
	size_t klen = strlen(key);
	for (size_t k = 0; k < n; k++)
		if (kw_in(key, klen, &list[k]))
			return 1;
	return 0;
}

static const struct kw kv_skip_words[] = {
	KW("total", 0, 1), KW("consumed", 0, 1), KW("seen", 0, 1), KW("eval", 0, 1), KW("val", 0, 1),
	KW("valid", 0, 1), KW("validation", 0, 1), KW("test", 0, 1), KW("optim", 0, 1), KW("optimizer", 0, 1),
};
#define SKIP_WORDS kv_skip_words, sizeof kv_skip_words / sizeof kv_skip_words[0]

/* A part of the step ("fwd latency", "bwd FLOPS"): said in the key's last two words. */
static int kv_partial(const char *key)
{
	size_t n = strlen(key), cut = n, words = 0;
	while (cut > 0 && words < 2)
		if (key[--cut] == '_' || key[cut] == '/' || key[cut] == '(')
			words++;
	return strstr(key + cut, "fwd") != NULL || strstr(key + cut, "bwd") != NULL;
}
static const struct kw kv_infer_words[] = {
	KW("prompt", 0, 1), KW("generation", 0, 1), KW("accepted", 0, 1), KW("drafted", 0, 1),
	KW("decode", 0, 1), KW("inference", 0, 1), KW("predict", 0, 1),
};
#define INFER_WORDS kv_infer_words, sizeof kv_infer_words / sizeof kv_infer_words[0]

/* The number at s[i] (a digit not glued to a word or a dotted version): its end, 0 when none. */
static size_t kv_number(const char *s, size_t len, size_t i)
{
	if (i > 0 && (tputbyte_alnum(s[i - 1]) || s[i - 1] == '.' || s[i - 1] == '_'))
		return 0;
	size_t j = i;
	while (j < len && tputbyte_digit(s[j]))
		j++;
	while (j + 3 < len + 0 && s[j] == ',' && tputbyte_digit(s[j + 1]) && tputbyte_digit(s[j + 2]) && tputbyte_digit(s[j + 3]) &&
	       !(j + 4 < len && tputbyte_digit(s[j + 4])))
		j += 4;
	if (j + 1 < len && s[j] == '.' && tputbyte_digit(s[j + 1]))
		for (j++; j < len && tputbyte_digit(s[j]); j++)
			;
	if (j + 1 < len && (s[j] == 'e' || s[j] == 'E') &&
	    (tputbyte_digit(s[j + 1]) || ((s[j + 1] == '-' || s[j + 1] == '+') && j + 2 < len && tputbyte_digit(s[j + 2])))) {
		j += 2;
		while (j < len && tputbyte_digit(s[j]))
			j++;
	}
	if (j < len && s[j] == '.' && j + 1 < len && tputbyte_digit(s[j + 1]))
		return 0;  /* 1.2.3 */
	return j;
}

/* Where a key ending at s[end] starts, read back from s[from] (at most 80 bytes): at a stop
 * byte, or at a blank unless the key may be words, and then at a blank after a figure
 * ("Speed: 1.2 samples/sec lr: 5") or after another blank. */
static size_t kv_key_start(const char *s, size_t from, size_t end, int words)
{
	size_t start = from;
	for (; start > 0 && end - start < 80; start--) {
		char c = s[start - 1];
		if (tputbyte_key_stop(c) ||
		    (c == ' ' && (!words || (start >= 2 && (s[start - 2] == ' ' || tputbyte_digit(s[start - 2]))))))
			break;
	}
	return start;
}

/* The key before a figure at s[i], as written: s[*start, *end), empty when there is none or
 * it holds no letter ("2024-05-01 12:00": a clock); 1 with a ':' or '=' between. */
static int kv_key(const char *s, size_t i, size_t *kstart, size_t *kend)
{
	*kstart = *kend = 0;
	size_t j = i;
	while (j > 0 && (s[j - 1] == ' ' || s[j - 1] == '\t'))
		j--;
	int sep = j > 0 && (s[j - 1] == ':' || s[j - 1] == '=');
	/* "KEY=V" glued is one word: "6.31 updates/sec perplexity=1069.4" names perplexity */
	int glued = sep && s[j - 1] == '=' && j >= 2 && s[j - 2] != ' ' && s[j - 2] != '\t';
	if (sep) {
		j--;
		while (j > 0 && (s[j - 1] == ' ' || s[j - 1] == '\t'))
			j--;
	} else if (j == i) {
		return 0;
	}
	size_t end = j, start = j;
	if (j > 0 && (s[j - 1] == '\'' || s[j - 1] == '"')) {
		char q = s[j - 1];
		end = j - 1;
		for (start = end; start > 0 && s[start - 1] != q && end - start < 80; start--)
			;
	} else {
		start = kv_key_start(s, end, end, sep && !glued);
		/* a TensorFlow tensor's name, "words_per_sec/features:0", is one key */
		size_t k = start;
		while (k < end && tputbyte_digit(s[k]))
			k++;
		if (k == end && k > start && start >= 2 && s[start - 1] == ':' && tputbyte_alpha(s[start - 2]))
			start = kv_key_start(s, start - 1, end, sep && !glued);
	}
	/* "per-step time 0.8s": a word as loose as "time" is named by the word before it */
	if (!sep && end - start == 4 && strncasecmp(s + start, "time", 4) == 0 && start >= 2 && s[start - 1] == ' ' &&
	    tputbyte_alpha(s[start - 2])) {
		size_t w = start - 1;
		while (w > 0 && start - w < 24 && (tputbyte_alpha(s[w - 1]) || s[w - 1] == '-' || s[w - 1] == '_'))
			w--;
		if (w == 0 || s[w - 1] == ' ' || s[w - 1] == '\t' || tputbyte_key_stop(s[w - 1]))
			start = w;
	}
	for (size_t k = start; k < end; k++)
		if (tputbyte_alpha(s[k])) {
			*kstart = start;
			*kend = end;
			break;
		}
	return sep;
}

/* Is the unit after a figure ending at s[after] (unit, ulen bytes normalized) a time per
 * token: "ms/token", "ms/tok", "ms per token"? */
static int kv_per_token(const char *s, size_t len, size_t after, const char *unit, size_t ulen)
{
	if (ulen > 2)
		return strcmp(unit, "ms/token") == 0 || strcmp(unit, "ms/tok") == 0;
	size_t k = after + (after < len && s[after] == ' ') + 2;
	return k + 10 <= len && memcmp(s + k, " per token", 10) == 0 && (k + 10 == len || !tputbyte_alnum(s[k + 10]));
}

/* Does the figure s[at, after), its unit of ulen bytes after it (perhaps past one blank),
 * fill a " | "-separated field: '|' or the line's start before it, '|' or the end after? */
static int kv_lone_field(const char *s, size_t len, size_t at, size_t after, size_t ulen)
{
	size_t b = at, e = after;
	while (b > 0 && (s[b - 1] == ' ' || s[b - 1] == '\t'))
		b--;
	if (ulen)
		e += (e < len && s[e] == ' ') + ulen;
	while (e < len && (s[e] == ' ' || s[e] == '\t'))
		e++;
	int left = b == 0 || s[b - 1] == '|', right = e == len || s[e] == '|';
	/* the first field needs a '|' after it; any other one, '|' before */
	return b == 0 ? e < len && s[e] == '|' : left && right;
}

/* " per GPU" (or gpu, device) at s[k]: the unit before it is per device (Horovod's
 * "108.3 img/sec per GPU"). */
static int kv_per_device_after(const char *s, size_t len, size_t k)
{
	if (k + 5 > len || memcmp(s + k, " per ", 5) != 0)
		return 0;
	k += 5;
	size_t n = 0;
	if (len - k >= 6 && strncasecmp(s + k, "device", 6) == 0)
		n = 6;
	else if (len - k >= 3 && strncasecmp(s + k, "gpu", 3) == 0)
		n = 3;
	return n && (k + n == len || !tputbyte_alnum(s[k + n]));
}

/* The unit written right after a figure ending at s[j] ("tok/s", glued "561.94ms", "src tok/s");
 * *side is 1 after "src", 2 after "tgt" (OpenNMT-py's source and target tokens), 3 when
 * " per GPU" follows the unit. */
static size_t kv_unit_after(const char *s, size_t len, size_t j, char *unit, size_t cap, int *side)
{
	*side = 0;
	size_t k = j;
	if (k < len && s[k] == ' ')
		k++;
	for (int round = 0; round < 2; round++) {
		size_t st = k;
		while (k < len && (tputbyte_alnum(s[k]) || s[k] == '/' || s[k] == '%' || s[k] == '_'))
			k++;
		if (k == st) {  /* most figures: no word after them */
			unit[0] = '\0';
			return 0;
		}
		size_t n = kv_norm(s + st, k - st, unit, cap);
		if (n == 0)
			return 0;
		if (round == 0 && n == 3 && (strcmp(unit, "src") == 0 || strcmp(unit, "tgt") == 0) && k < len && s[k] == ' ') {
			*side = unit[0] == 't' ? 2 : 1;
			k++;
			continue;
		}
		if ((unit[0] == 't' || unit[0] == 's') && (strcmp(unit, "tokens") == 0 || strcmp(unit, "samples") == 0) && k + 11 <= len &&
		    memcmp(s + k, " per second", 11) == 0) {
			return (size_t)snprintf(unit, cap, "%s/s", unit[0] == 't' ? "tokens" : "samples");
		}
		if (k < len && s[k] == ' ' && kv_per_device_after(s, len, k))
			*side = 3;
		if (k < len && (s[k] == ':' || s[k] == '=')) {  /* "10 images/sec: 139.6": the next one's key */
			unit[0] = '\0';
			return 0;
		}
		return n;
	}
	return 0;
}

/* A word after a figure that is no unit: the next field's key or nothing. */
static int kv_unit_word(const char *unit)
{
	return unit[0] == '\0' || (strcmp(unit, "ms") != 0 && strcmp(unit, "s") != 0 && strcmp(unit, "sec") != 0 &&
				    strcmp(unit, "%") != 0 && unit[0] != '%');
}

static const enum tput_unit kv_unit_of[][2] = {
	[KV_TOKENS] = { TPUT_TOKENS_S, TPUT_TOKENS_S_GPU }, [KV_SAMPLES] = { TPUT_SAMPLES_S, TPUT_SAMPLES_S_GPU },
	[KV_IMAGES] = { TPUT_IMAGES_S, TPUT_SAMPLES_S_GPU },  /* an image per device: a sample */
	[KV_ITERS] = { TPUT_IT_S, TPUT_IT_S },
	[KV_TFLOPS] = { TPUT_TFLOPS, TPUT_TFLOPS_GPU }, [KV_GFLOPS] = { TPUT_TFLOPS, TPUT_TFLOPS_GPU },
	[KV_MFU] = { TPUT_MFU, TPUT_MFU }, [KV_TIME] = { TPUT_MS_STEP, TPUT_MS_STEP },
	[KV_TPS] = { TPUT_TPS, TPUT_TOKENS_S_GPU },
};

/* "/gpu)" or "/device)" at s[j]. */
static int kv_paren_gpu(const char *s, size_t len, size_t j)
{
	return (j + 5 <= len && memcmp(s + j, "/gpu)", 5) == 0) || (j + 8 <= len && memcmp(s + j, "/device)", 8) == 0);
}

static int kv_step_rank(const char *key)
{
	size_t n = strlen(key);
	static const struct { const char *k; int rank; } steps[] = {
		{ "global_step", 4 }, { "num_updates", 3 }, { "step", 2 }, { "iter", 2 }, { "iteration", 2 },
		{ "batch", 2 },
	};
	if (strcmp(key, "it") == 0)  /* DLRM's "Finished training it 16/150": alone, it is the word */
		return 2;
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
		size_t l = strlen(steps[i].k);
		if (n >= l && strcmp(key + n - l, steps[i].k) == 0 && (n == l || kv_sep(key[n - l - 1])))
			return steps[i].rank;
	}
	return 0;
}

static int kv_is_loss(const char *key)
{
	size_t n = strlen(key);
	if (!((n >= 4 && strcmp(key + n - 4, "loss") == 0) || strcmp(key, "xent") == 0 || strcmp(key, "loss_train") == 0 ||
	      strstr(key, "loss/train") != NULL))
		return 0;
	return !kv_words(key, kv_skip_words + 3, 5);  /* eval, val, valid, validation, test */
}

/* What the reader needs to know of a key, worked out once per distinct key. */
struct kv_keyinfo {
	unsigned char srank;     /* kv_step_rank */
	unsigned char loss;      /* kv_is_loss */
	unsigned char kcls;      /* kv_key_class */
	unsigned char compound;  /* holds '_' or '/' */
	unsigned char infer;     /* an inference word */
	unsigned char skip;      /* totals, eval, a part of the step */
	unsigned char gpu;       /* per device */
	unsigned char running;   /* "running": an average whatever the class */
	unsigned char avg;       /* "avg": an average unless a time */
	unsigned char ms;        /* says milliseconds */
	unsigned char secs;      /* says seconds */
	unsigned char part;      /* a share of an iteration's time: "data_time", "data", "forward_time" */
	unsigned char side;      /* 1 source, 2 target tokens: OpenNMT-tf's "features", "labels" */
	unsigned char evals;     /* an evaluation's: eval, val, valid, validation, test */
};

static void kv_key_info(const char *key, struct kv_keyinfo *ki)
{
	ki->kcls = (unsigned char)kv_key_class(key);
	/* a key of a rate or a time ("time_per_step", "ms/batch") names no step */
	ki->srank = ki->kcls == KV_NONE ? (unsigned char)kv_step_rank(key) : 0;
	ki->loss = (unsigned char)kv_is_loss(key);
	ki->compound = strchr(key, '_') != NULL || strchr(key, '/') != NULL;
	ki->infer = (unsigned char)kv_words(key, INFER_WORDS);
	ki->skip = kv_words(key, SKIP_WORDS) || strncmp(key, "val_", 4) == 0 || strncmp(key, "eval_", 5) == 0 ||
		   kv_partial(key);
	ki->gpu = kv_has(key, "device", 0) || kv_has(key, "gpu", 0);
	ki->running = kv_has(key, "running", 0) != 0;
	ki->avg = kv_has(key, "avg", 0) != 0;
	ki->ms = kv_has(key, "(ms)", 0) || kv_has(key, "ms", 1);
	ki->secs = kv_has(key, "in_s", 0) || kv_has(key, "(s)", 0);
	ki->side = kv_has(key, "features", 1) ? 1 : kv_has(key, "labels", 1) ? 2 : 0;
	ki->evals = (unsigned char)kv_words(key, kv_skip_words + 3, 5);
	ki->part = strcmp(key, "data_time") == 0 || strcmp(key, "data") == 0 || strcmp(key, "forward_time") == 0 ||
		   strcmp(key, "backward_time") == 0;
}

/* What the reader makes of a figure from the line's shape alone (its bytes, every digit as
 * '0'): where it is and what it may be. Only its value is left to look at: a step must be a
 * whole number, a rate to invert not zero, and the text must parse. */
/* KV_WHAT_PER_TOKEN: a latency per token, which makes the whole line generation's. */
enum kv_what { KV_WHAT_NONE, KV_WHAT_FIGURE, KV_WHAT_INFER, KV_WHAT_PER_TOKEN };
enum kv_second { KV_SECOND_NONE, KV_SECOND_PAIR, KV_SECOND_PAREN };
struct kv_cand {
	uint32_t at, end;              /* the figure s[at, end) */
	uint32_t at2, end2;            /* a second one: "N/M tok/s"'s M, "V(W/gpu)"'s W */
	unsigned char srank;           /* a step when whole, its key's rank; 0: no step */
	unsigned char loss;            /* a loss */
	unsigned char what, second;    /* enum kv_what, enum kv_second */
	unsigned char unit, unit2;     /* enum tput_unit of each */
	unsigned char invert, average;
	unsigned char said;            /* a time read only beside other figures: enum kv_said */
	double scale;
	unsigned char part;            /* enum kv_part */
};

/* KV_PART_SHARE: a share of the iteration's time (kv_keyinfo.part). KV_PART_LEAD: a figure
 * alone in the line's first " | " field, at its very start: the step when a count, else the
 * tail of a cut line's last field ("36.9 | hardware_tflops_per_gpu: 36.9 | ..."), whose
 * figures are left out (pasted, they repeat figures of lines whole elsewhere). */
/* KV_PART_EVAL: an evaluation's step ("val step:0", "eval_step: 3"): the line's figures are
 * the evaluation's. */
enum kv_part { KV_PART_SHARE = 1, KV_PART_LEAD = 2, KV_PART_EVAL = 3 };

/* How a time from a loose key is kept (kv_finish), bits of kv_cand.said. KV_SAID_UNIT: said
 * by its unit ("Time: 1638.07 ms", "| 8060.78ms |"), kept beside a rate. KV_SAID_TIMER: an
 * iteration timer's key ("time: 0.3322", "train_time=0.014"), kept on a line with a loss that
 * also gives a share of the iteration ("data_time: 0.0334", "data: 0.0001"). KV_SAID_ITER:
 * its key names the iteration ("iter_time: 1.270s", "iter time: 522.10 ms"), and it has a
 * unit: kept on a line with a step and a loss. */
/* KV_SAID_METER: "Time 0.427 (2.773)", an average meter's value and its running average
 * (PyTorch's ProgressMeter, Swin), kept on a line with a loss. */
enum kv_said { KV_SAID_UNIT = 1, KV_SAID_TIMER = 2, KV_SAID_ITER = 4, KV_SAID_METER = 8 };
struct kv_saids {
	uint64_t unit, timer, iter, meter; /* bit n: out[n] is so */
	int part;                      /* the line gives a share of the iteration */
	int cut;                       /* the line is the tail of a cut one */
	int eval;                      /* the line counts an evaluation's steps */
};

/* A frame's shape and its figures, kept: a log's lines come in a few shapes, each seen over
 * and over with other digits. */
enum { KV_SHAPES = 128, KV_SHAPE_MAX = 320, KV_SHAPE_CANDS = 16 };
struct kv_shape {
	uint64_t serial;               /* which reading this is: a slot is read anew for others */
	uint32_t len;                  /* 0: empty */
	unsigned char ncand;
	unsigned char header;
	signed char context;           /* enum tput_context, -1 until asked */
	char text[KV_SHAPE_MAX];
	struct kv_cand cand[KV_SHAPE_CANDS];
};

/* Keys recur line after line ("step", "loss", "tps"): their analysis is kept by hash, two
 * ways a set so that two keys of every line that hash alike do not evict each other. */
enum { KV_CACHE = 128, KV_KEYMAX = 96 };  /* KV_CACHE: 2^7 sets, as kv_key_lookup takes 7 bits */
struct kv_slot {
	unsigned char klen;  /* 0: empty slot */
	char key[KV_KEYMAX]; /* as written */
	struct kv_keyinfo ki;
};
struct kv_cache {
	struct kv_slot slot[KV_CACHE][2];
	/* by shape: the normalized key with each run of digits one '0', for keys holding a
	 * clock or a count ("i0501 12:00:00.015205 1234 train.py"); no word looked for in a
	 * key has a digit, and a digit stays a digit, so the analysis is the same */
	struct kv_slot shape[KV_CACHE][2];
	struct kv_shape shapes[KV_SHAPES][2];
	uint64_t serial;           /* of the last shape read */
};

/* The two-way set of table for key[0, len). */
static struct kv_slot *kv_set(struct kv_slot (*table)[2], const char *key, size_t len)
{
	return table[tputbyte_set(key, len)];
}

/* The entry of key[0, len) in a set, or NULL. */
static struct kv_slot *kv_find(struct kv_slot *set, const char *key, size_t len)
{
	for (int w = 0; w < 2; w++)
		if (set[w].klen == len && memcmp(set[w].key, key, len) == 0)
			return &set[w];
	return NULL;
}

/* Room for key[0, len) in a set: the newest first, the one before kept. */
static struct kv_slot *kv_put(struct kv_slot *set, const char *key, size_t len)
{
	set[1] = set[0];
	set[0].klen = (unsigned char)len;
	memcpy(set[0].key, key, len);
	return &set[0];
}

/* The analysis of the key raw[0, rawlen) as written (at most 80 bytes), worked out on its
 * normalized text the first time it, or a key of its shape, is seen. */
static const struct kv_keyinfo *kv_key_lookup(struct kv_cache *cache, const char *raw, size_t rawlen,
					      struct kv_keyinfo *tmp)
{
	char key[KV_KEYMAX];
	if (!cache) {
		kv_norm(raw, rawlen, key, sizeof key);
		kv_key_info(key, tmp);
		return tmp;
	}
	struct kv_slot *set = kv_set(cache->slot, raw, rawlen), *hit = kv_find(set, raw, rawlen);
	if (hit)
		return &hit->ki;
	struct kv_slot *slot = kv_put(set, raw, rawlen);
	size_t n = kv_norm(raw, rawlen, key, sizeof key), m = 0;
	for (size_t i = 0; i < n; i++)
		if (!tputbyte_digit(key[i]) || m == 0 || !tputbyte_digit(key[m - 1]))
			key[m++] = tputbyte_digit(key[i]) ? '0' : key[i];
	key[m] = '\0';
	struct kv_slot *sset = kv_set(cache->shape, key, m), *shape = kv_find(sset, key, m);
	if (!shape) {
		shape = kv_put(sset, key, m);
		kv_key_info(key, &shape->ki);
	}
	slot->ki = shape->ki;
	return &slot->ki;
}

/* The figure the key/value reader takes from a number at s[at, numend), followed by
 * s[after...] (its unit or a second number): what it is, in c. */
static enum kv_what kv_figure(const char *s, size_t len, size_t numend, size_t after, int pair, int side, int sep,
			      const char *unit, enum kv_class cls, double scale, int invert, int gpu,
			      const struct kv_keyinfo *ki, struct kv_cand *c)
{
	int average = 0;
	if (pair && cls == KV_NONE)
		return KV_WHAT_NONE;
	if (cls == KV_NONE) {
		enum kv_class kcls = (enum kv_class)ki->kcls;
		/* "KEY V" without ':' or '=': one word that says what it is */
		/* ("batch_cost 1.358 sec": a step time's key needs its unit said) */
		int time_unit = strcmp(unit, "ms") == 0 || strcmp(unit, "s") == 0 || strcmp(unit, "sec") == 0;
		if (kcls == KV_NONE || kcls >= KV_TIME_SAID ||
		    (!sep && ((kcls == KV_TIME && !time_unit && !ki->ms) || (kcls != KV_TIME && !ki->compound && kcls != KV_TOKENS &&
							     kcls != KV_TPS && kcls != KV_ITERS && kcls != KV_MFU))))
			return KV_WHAT_NONE;
		cls = kcls;
		if (cls == KV_GFLOPS)
			scale = 1e-3;
		if (cls == KV_TIME) {
			/* a step time: ms when said so, else seconds */
			if (strcmp(unit, "ms") == 0 || ki->ms)
				scale = 1;
			else if (!unit[0] || strcmp(unit, "s") == 0 || strcmp(unit, "sec") == 0 ||
				 strcmp(unit, "seconds") == 0 || ki->secs || kv_unit_word(unit))
				scale = 1000;
			else
				return KV_WHAT_NONE;
		}
		if (cls == KV_MFU && strcmp(unit, "%") != 0 && kv_unit_word(unit) == 0)
			return KV_WHAT_NONE;
	}
	if (ki) {
		if (!side && cls == KV_TOKENS)
			side = ki->side;
		if (ki->infer)
			return KV_WHAT_INFER;
		if (ki->skip)
			return KV_WHAT_NONE;
		if (ki->gpu)
			gpu = 1;
		if (ki->running || (ki->avg && cls != KV_TIME))
			average = 1;
	}
	if (cls == KV_ITERS && gpu)
		return KV_WHAT_NONE;  /* per-device iterations: no unit of their own */
	enum tput_unit u = kv_unit_of[cls][gpu];
	if (cls == KV_TOKENS && !gpu && (side || pair))
		u = side == 2 ? TPUT_TOKENS_S_TGT : TPUT_TOKENS_S_SRC;
	c->unit = (unsigned char)u;
	c->scale = scale;
	c->invert = (unsigned char)invert;
	c->average = (unsigned char)average;
	size_t e3;
	if (u == TPUT_TOKENS_S_SRC && pair) {
		c->second = KV_SECOND_PAIR;
		c->at2 = (uint32_t)(numend + 1);
		c->end2 = (uint32_t)after;
		c->unit2 = TPUT_TOKENS_S_TGT;
	} else if (!gpu && kv_unit_of[cls][1] != u && after + 1 < len && s[after] == '(' && tputbyte_digit(s[after + 1]) &&
		   (e3 = kv_number(s, len, after + 1)) > 0 && kv_paren_gpu(s, len, e3)) {
		/* "V(W/gpu)": the figure per device beside it (NeMo AutoModel's "tps 9.1(1.1/gpu)") */
		c->second = KV_SECOND_PAREN;
		c->at2 = (uint32_t)(after + 1);
		c->end2 = (uint32_t)e3;
		c->unit2 = (unsigned char)kv_unit_of[cls][1];
	}
	return KV_WHAT_FIGURE;
}

/* Does " (V)" follow a figure ending at s[after]: an average meter's running average? */
static int kv_meter(const char *s, size_t len, size_t after)
{
	if (after + 3 >= len || s[after] != ' ' || s[after + 1] != '(' || !tputbyte_digit(s[after + 2]))
		return 0;
	size_t e = kv_number(s, len, after + 2);
	return e > 0 && e < len && s[e] == ')';
}

/* Is the figure s[at, end) a count alone in brackets, with no key before them ("Epoch: [12]",
 * "Epoch[0]", "Batch [900]" name theirs) and a key after them: "[400] steps_per_second=1.58"? */
static int kv_bracket_step(const char *s, size_t len, size_t at, size_t end)
{
	if (at == 0 || s[at - 1] != '[' || end + 2 >= len || s[end] != ']' || s[end + 1] != ' ' || !tputbyte_alpha(s[end + 2]))
		return 0;
	size_t b = at - 1;
	while (b > 0 && s[b - 1] == ' ')
		b--;
	return b == 0 || (s[b - 1] != ':' && s[b - 1] != '=' && !tputbyte_alnum(s[b - 1]));
}

/* The figures of s[i, len) the reader may take, into c[0, max) (*nc of them): where the
 * scan stopped, len at the end. A key holds a letter: there is none before first_alpha. */
static size_t kv_scan(const char *s, size_t len, size_t i, size_t first_alpha, struct kv_cand *c, size_t max,
		      size_t *nc, struct kv_cache *cache)
{
	char unit[48];
	struct kv_keyinfo tmp;
	size_t first = tputbyte_next_digit(s, len, 0);  /* the line's first figure */
	*nc = 0;
	for (i = tputbyte_next_digit(s, len, i); i < len; i = tputbyte_next_digit(s, len, i + 1)) {
		if (*nc == max)
			return i;
		size_t end = kv_number(s, len, i);
		if (end == 0) {
			while (i + 1 < len && (tputbyte_alnum(s[i + 1]) || s[i + 1] == '.'))
				i++;
			continue;
		}
		/* K/M suffixes ("43.2K") when no letter follows */
		size_t numend = end;
		if (end < len && (s[end] == 'K' || s[end] == 'M' || s[end] == 'G' || s[end] == 'k') &&
		    !(end + 1 < len && tputbyte_alnum(s[end + 1])))
			numend = end + 1;
		size_t at = i;
		int neg = i > 0 && s[i - 1] == '-' && (i < 2 || !tputbyte_alnum(s[i - 2]));
		/* "N/M tok/s": N source and M target tokens (OpenNMT-py), two figures */
		size_t after = numend;
		int pair = 0;
		if (after + 1 < len && s[after] == '/' && tputbyte_digit(s[after + 1])) {
			size_t e2 = kv_number(s, len, after + 1);
			if (e2 == 0)
				e2 = after + 1;
			after = e2;
			pair = 1;
		}
		i = (after > i ? after : i + 1) - 1;
		if (neg || (at >= 2 && s[at - 1] == ':' && tputbyte_alpha(s[at - 2]) && after < len && s[after] == ':'))
			continue;  /* a negative figure; a count inside a name ("features:0:") */
		int side;
		size_t ulen = kv_unit_after(s, len, after, unit, sizeof unit, &side);
		size_t kstart = 0, kend = 0;
		int sep = at > first_alpha ? kv_key(s, at, &kstart, &kend) : 0;
		/* the unit after it, when it is one */
		enum kv_class cls = KV_NONE;
		double scale = 1;
		int invert = 0, gpu = 0;
		for (size_t u = 0; ulen && kv_unit_maybe(unit[0], ulen) && u < sizeof kv_units / sizeof kv_units[0]; u++)
			if (kv_units[u].len == ulen && unit[0] == kv_units[u].text[0] && memcmp(unit, kv_units[u].text, ulen) == 0) {
				cls = kv_units[u].cls;
				scale = kv_units[u].scale;
				invert = kv_units[u].invert;
				gpu = kv_units[u].gpu || side == 3;
				break;
			}
		if (side == 3)
			side = 0;
		/* "V +-W": a mean and its spread, a run's summary (Horovod's "Img/sec per GPU: 108.2
		 * +-1.2"); tf_cnn_benchmarks' per-step "V +/- W" is another shape */
		if (after + 2 < len && (s[after] == '+' || (s[after] == ' ' && s[after + 1] == '+')) &&
		    s[after + (s[after] == ' ') + 1] == '-')
			continue;
		const struct kv_keyinfo *ki = kend ? kv_key_lookup(cache, s + kstart, kend - kstart, &tmp) : NULL;
		/* a latency per token ("0.59 ms per token", "ms/token") times generation, not training */
		if (ulen >= 2 && unit[0] == 'm' && unit[1] == 's' && kv_per_token(s, len, after, unit, ulen)) {
			c[(*nc)++] = (struct kv_cand){ (uint32_t)at, (uint32_t)numend, 0, 0, 0, 0, KV_WHAT_PER_TOKEN,
						       KV_SECOND_NONE, 0, 0, 0, 0, 0, 1, 0 };
			continue;
		}
		/* a time said only by its unit: after a key as loose as "time", or a " | "-separated
		 * field of its own ("| 8060.78ms |"); kept when the line has a rate too */
		int said = 0, timed = ulen && (strcmp(unit, "ms") == 0 || strcmp(unit, "s") == 0);
		if (cls == KV_NONE && timed && !pair && !ki && kv_lone_field(s, len, at, after, ulen))
			said = KV_SAID_UNIT;
		else if (cls == KV_NONE && !pair && ki && sep && ki->kcls >= KV_TIME_SAID) {
			/* an iteration timer's key: a plain number is seconds; not a clock's or a
			 * date's first figure ("time: 12:03:44") */
			int plain = (!ulen || kv_unit_word(unit)) && !(after < len && (s[after] == ':' || s[after] == '-'));
			if (ki->kcls == KV_TIME_SAID)
				said = timed ? KV_SAID_UNIT | KV_SAID_TIMER : plain ? KV_SAID_TIMER : 0;
			else if (ki->kcls == KV_TIME_ITER)
				said = timed ? KV_SAID_UNIT | KV_SAID_TIMER | KV_SAID_ITER : 0;
			else
				said = timed || plain ? KV_SAID_TIMER : 0;
		} else if (cls == KV_NONE && !pair && ki && !sep && ki->kcls == KV_TIME_SAID && !ulen &&
			   kv_meter(s, len, after)) {
			said = KV_SAID_METER;
		}
		if (said) {
			cls = KV_TIME;
			scale = timed && unit[0] == 'm' ? 1 : 1000;
		}
		/* "N | ...": a line's first field, a count alone, is its step (llama2.c): the first
		 * figure, so no step is known yet */
		if (cls == KV_NONE && !ki && at == first && after == end && kv_lone_field(s, len, at, after, 0)) {
			c[(*nc)++] = (struct kv_cand){ (uint32_t)at, (uint32_t)end, 0, 0, 2, 0, KV_WHAT_NONE,
						       KV_SECOND_NONE, 0, 0, 0, 0, 0, 1, at == 0 ? KV_PART_LEAD : 0 };
			continue;
		}
		/* "[N] key=...": a count alone in brackets before the fields, no key before it, is
		 * the step (Flax's metric writer), less sure than a step key */
		if (cls == KV_NONE && !ki && after == end && kv_bracket_step(s, len, at, end)) {
			c[(*nc)++] = (struct kv_cand){ (uint32_t)at, (uint32_t)end, 0, 0, 1, 0, KV_WHAT_NONE,
						       KV_SECOND_NONE, 0, 0, 0, 0, 0, 1, 0 };
			continue;
		}
		/* most figures (clocks, sizes, counts) name nothing the reader takes */
		if (cls == KV_NONE && (!ki || (!ki->srank && !ki->loss && ki->kcls == KV_NONE && !ki->part)))
			continue;
		struct kv_cand k = { (uint32_t)at, (uint32_t)numend, 0, 0, 0, 0, 0, KV_SECOND_NONE, 0, 0, 0, 0, (unsigned char)said, 1, 0 };
		if (cls == KV_NONE) {
			k.srank = ki->srank;
			k.loss = !pair && ki->loss;
		}
		k.what = (unsigned char)kv_figure(s, len, numend, after, pair, side, sep, unit, cls, scale, invert, gpu, ki, &k);
		k.part = cls == KV_NONE && ki->part ? KV_PART_SHARE : cls == KV_NONE && ki->srank && ki->evals ? KV_PART_EVAL : 0;
		if (k.srank || k.loss || k.part || k.what != KV_WHAT_NONE)
			c[(*nc)++] = k;
	}
	return len;
}

/* The values of the figures c[0, nc) of s, after the n already in out[0, max): how many now. */
static size_t kv_take(const char *s, const struct kv_cand *c, size_t nc, struct tput_kv *out, size_t n, size_t max,
		      struct tput_kv_line *info, struct kv_saids *said)
{
	for (size_t k = 0; k < nc; k++) {
		double v, w;
		if (c[k].what == KV_WHAT_PER_TOKEN) {
			info->inference = 2;
			continue;
		}
		if (c[k].part == KV_PART_SHARE || c[k].part == KV_PART_EVAL) {
			said->part |= c[k].part == KV_PART_SHARE;
			said->eval |= c[k].part == KV_PART_EVAL;
			continue;
		}
		if (tputunit_number(s + c[k].at, c[k].end - c[k].at, &v) != TPUT_NUM_OK)
			continue;
		if (c[k].part == KV_PART_LEAD && v != floor(v)) {
			said->cut = 1;
			continue;
		}
		if (c[k].srank && v == floor(v) && v < 1e15) {
			if (c[k].srank > info->step_rank) {
				info->step = (long long)v;
				info->step_rank = c[k].srank;
			}
			continue;
		}
		if (c[k].loss && isnan(info->loss)) {
			info->loss = v;
			continue;
		}
		if (c[k].what == KV_WHAT_INFER)
			info->inference = 1;
		if (c[k].what != KV_WHAT_FIGURE)
			continue;
		if (c[k].invert) {
			if (v == 0)
				continue;
			v = 1 / v;
		}
		if (c[k].said && n < 64) {
			said->unit |= (uint64_t)(c[k].said >> 0 & 1) << n;
			said->timer |= (uint64_t)(c[k].said >> 1 & 1) << n;
			said->iter |= (uint64_t)(c[k].said >> 2 & 1) << n;
			said->meter |= (uint64_t)(c[k].said >> 3 & 1) << n;
		}
		if (n < max)
			out[n++] = (struct tput_kv){ (enum tput_unit)c[k].unit, v * c[k].scale, c[k].average };
		if (c[k].second && n < max &&
		    tputunit_number(s + c[k].at2, c[k].end2 - c[k].at2, &w) == TPUT_NUM_OK) {
			if (c[k].second == KV_SECOND_PAREN && c[k].invert && w)
				w = 1 / w;
			out[n++] = (struct tput_kv){ (enum tput_unit)c[k].unit2, w * c[k].scale, c[k].average };
		}
	}
	return n;
}

/* Does the line open a record ("[step=N/M]", "[batch=N/M]") whose lines follow? */
static int kv_header(const char *s, size_t len)
{
	for (const char *b = s, *end = s + len; (b = memchr(b, '[', (size_t)(end - b))) != NULL; b++)
		if (((size_t)(end - b) >= 6 && memcmp(b, "[step=", 6) == 0) ||
		    ((size_t)(end - b) >= 7 && memcmp(b, "[batch=", 7) == 0))
			return 1;
	return 0;
}

/* The line's figures out[0, n) once all are read: how many stay. */
static size_t kv_finish(struct tput_kv *out, size_t n, const struct tput_kv_line *info, const struct kv_saids *said)
{
	/* A time from a loose key is the step's when the line shows it is (enum kv_said), and
	 * no step time of a surer key is there */
	uint64_t any = said->unit | said->timer | said->iter | said->meter;
	if (any) {
		int rate = 0, surer = 0, trained = !isnan(info->loss);
		for (size_t k = 0; k < n; k++) {
			rate |= out[k].unit != TPUT_MS_STEP;
			surer |= out[k].unit == TPUT_MS_STEP && !(k < 64 && (any >> k & 1));
		}
		size_t m = 0;
		for (size_t k = 0; k < n; k++) {
			uint64_t b = k < 64 ? 1ULL << k : 0;
			if (!(any & b) ||
			    (!surer && (((said->unit & b) && rate) || ((said->timer & b) && trained && said->part) ||
					((said->iter & b) && trained && info->step >= 0) || ((said->meter & b) && trained))))
				out[m++] = out[k];
		}
		n = m;
	}
	if (info->inference == 2 || said->cut || said->eval)
		return 0;
	/* A bare "tps" beside a per-device token figure is the whole job's (NeMo AutoModel) */
	for (size_t k = 0; k < n; k++)
		for (size_t g = 0; out[k].unit == TPUT_TPS && g < n; g++)
			if (out[g].unit == TPUT_TOKENS_S_GPU)
				out[k].unit = TPUT_TOKENS_S;
	return n;
}

static size_t first_letter(const char *s, size_t len)
{
	size_t i = 0;
	while (i < len && !tputbyte_alpha(s[i]))
		i++;
	return i;
}

static size_t kv_read_uncached(const char *s, size_t len, struct tput_kv *out, size_t max, struct tput_kv_line *info,
			       struct kv_cache *cache)
{
	*info = (struct tput_kv_line){ -1, 0, NAN, kv_header(s, len), 0 };
	size_t first_alpha = first_letter(s, len), n = 0, nc;
	struct kv_saids said = { 0, 0, 0, 0, 0, 0, 0 };
	struct kv_cand c[KV_SHAPE_CANDS];
	for (size_t i = 0; i < len;) {
		i = kv_scan(s, len, i, first_alpha, c, KV_SHAPE_CANDS, &nc, cache);
		n = kv_take(s, c, nc, out, n, max, info, &said);
	}
	return kv_finish(out, n, info, &said);
}

/* The entry for s[0, len)'s shape, read now when new; NULL when it is too long or holds too
 * many figures to keep. */
static struct kv_shape *kv_shape_of(struct kv_cache *cache, const char *s, size_t len)
{
	if (len > KV_SHAPE_MAX || len == 0)
		return NULL;
	char shape[KV_SHAPE_MAX];
	tputbyte_shape(s, len, shape);
	struct kv_shape *set = cache->shapes[tputbyte_set(shape, len)];
	for (int w = 0; w < 2; w++)
		if (set[w].len == len && memcmp(set[w].text, shape, len) == 0)
			return set[w].ncand <= KV_SHAPE_CANDS ? &set[w] : NULL;
	set[1] = set[0];
	struct kv_shape *e = &set[0];
	e->serial = ++cache->serial;
	e->len = (uint32_t)len;
	memcpy(e->text, shape, len);
	e->header = (unsigned char)kv_header(s, len);
	e->context = -1;
	size_t nc;
	/* one more than kept: a frame with more is read each time as it comes */
	struct kv_cand c[KV_SHAPE_CANDS + 1];
	kv_scan(s, len, 0, first_letter(s, len), c, KV_SHAPE_CANDS + 1, &nc, cache);
	e->ncand = (unsigned char)nc;
	memcpy(e->cand, c, (nc <= KV_SHAPE_CANDS ? nc : KV_SHAPE_CANDS) * sizeof c[0]);
	return nc <= KV_SHAPE_CANDS ? e : NULL;
}

/* The key/value reader: the line's figures in out[0, max), its step, loss and more in info.
 * With a cache, *shape is the frame's kept shape (NULL when none). */
static size_t kv_read(const char *s, size_t len, struct tput_kv *out, size_t max, struct tput_kv_line *info,
		      struct kv_cache *cache, struct kv_shape *known, struct kv_shape **shape)
{
	struct kv_shape *e = known ? known : cache ? kv_shape_of(cache, s, len) : NULL;
	if (shape)
		*shape = e;
	if (!e)
		return kv_read_uncached(s, len, out, max, info, cache);
	*info = (struct tput_kv_line){ -1, 0, NAN, e->header, 0 };
	struct kv_saids said = { 0, 0, 0, 0, 0, 0, 0 };
	size_t n = kv_take(s, e->cand, e->ncand, out, 0, max, info, &said);
	return kv_finish(out, n, info, &said);
}

/* The training context of a frame, once per shape: its words hold no digit. */
static enum tput_context kv_shape_context(const struct tputctx_words *words, struct kv_shape *e, const char *s,
					  size_t len)
{
	if (!e)
		return tputctx_read(words, s, len);
	if (e->context < 0)
		e->context = (signed char)tputctx_read(words, s, len);
	return (enum tput_context)e->context;
}

tput_kv_cache *tput_kv_cache_new(void) { return xcalloc(1, sizeof(tput_kv_cache)); }
void tput_kv_cache_free(tput_kv_cache *cache) { free(cache); }

size_t tput_kv_read(const char *s, size_t len, struct tput_kv *out, size_t max, struct tput_kv_line *info,
		    tput_kv_cache *cache)
{
	return kv_read(s, len, out, max, info, cache, NULL, NULL);
}

/* The key/value reader looks at lines holding one of these (case matters to the search). */
enum { KV_NLITS = 48 };
static const char *const kv_literals[] = {
	"k/s", "s/s", "e/s", "q/s", "g/s", "t/s", "P/s", "p/s", "/sec", "/Sec", "/step", "s/it", "/batch",
	"per_s", "per s", "per-s", "PerSec", "LOPS", "lops", "LOPs", "tps", "wps", "ups=", "mfu", "MFU",
	"tep_tim", "tep time", "atch_tim", "atch tim", "step_avg", "latency", "seconds:", "[step=", "[batch=", "metrics *****",
	"ata_time", "iter_time", "iter time", " data: ", "rain_time", "ter/s", "\tTime ", "\ttime ", "/s/gpu", "ips: ", "atch_cost", "Per Sec", NULL,
};

struct rule {
	rx *re;
	char *name;
	long preset;           /* index in tputpreset_table; -1 for a custom pattern */
	const char *literals[KV_NLITS];
	size_t litlen[KV_NLITS];
	size_t nlits;
	enum tput_reader reader;
	int thin;              /* a framework's lines (its literals) read by the key/value reader */
	int per_device;
	const char *unit;
	enum tput_unit fixed_unit;  /* unit, scale and inversion of `unit`, read once */
	double fixed_scale;
	int fixed_invert;
	double time_scale;
	int g_tput, g_unit, g_step, g_time, g_loss, g_rank, g_total;  /* group numbers, -1 when absent */
};

/* A line's shape (every digit a '0') and the rules whose literals it holds: most lines of
 * a log come in a few shapes, and looking one up costs less than searching the line. */
enum { LINE_SHAPES = 128, LINE_SHAPE_MAX = 384, RX_MEMO_PAIRS = 10 };
_Static_assert((int)LINE_SHAPES == (int)KV_CACHE && (int)KV_SHAPES == (int)KV_CACHE, "kv_set_index gives one of 128 sets");
struct line_shape {
	uint32_t len;              /* 0: empty */
	uint64_t mask;
	/* the key/value reader's shape of the line's frame s[frame_at, frame_at + frame_len):
	 * a line of this shape has a frame of that shape there, while the reading is kept */
	struct kv_shape *frame;
	uint64_t frame_serial;
	uint32_t frame_at, frame_len;
	/* how the regex rules read the line's one frame s[rx_at, rx_at + rx_len) when their
	 * patterns are digit-blind: 0 not yet, 1 none matched, 2 + i rule i with these groups */
	size_t rx_rule;
	uint32_t rx_at, rx_len;
	unsigned short rx_spans[2 * RX_MEMO_PAIRS];
	size_t rx_npairs;
	char text[LINE_SHAPE_MAX];
};

enum { FRAME_MAX = 16, BAR_SEEN = 64, BAR_TOTALS = 4 };

/* A point given after a held bar frame: it waits, so that points go out in line order. */
struct queued {
	unsigned long lineno;
	struct tput_point pt;
};
enum { QUEUE_MAX = 1 << 16 };  /* a bar frame not drawn again within as many points is alone */

/* A progress bar's frame held back until its bar shows another: a bar seen once (a data
 * preparation bar caught mid-way) is no training series. np 0: none held. */
struct bar_held {
	struct tput_point pts[FRAME_MAX];
	size_t np;
	unsigned long lineno;
	double total;
	long long step;
	int round;                 /* a bar's closing frame, its round seen in it alone */
};

/* What a run of lines leaves for the next: a record header's step and time, the last figure
 * of each unit (to tell an unprefixed rank's copy), the last frame (to tell a redraw), the
 * progress bars' frames seen lately and the totals of bars that showed two frames. */
struct carry {
	long long step;
	long rank;                 /* the header line's, -1 when it had none */
	long long prev_step;       /* the step of the last figures that had one */
	unsigned long prev_step_line; /* their line; 0: none */
	double time;
	int have_time;
	unsigned long lineno;      /* 0: no header */
	long long last_step[TPUT_NUNITS];
	unsigned long last_line[TPUT_NUNITS];
	unsigned long last_frame_line; /* the line of the last frame with figures (its text: ex->last_frame) */
	unsigned long metrics_line; /* a "***** train metrics *****" summary block starts here */
	unsigned long emit_line, emit_prev; /* the last line that gave figures, and the one before */
	unsigned long seen_line;   /* the last line looked at: a smaller number starts another input */
	uint64_t bar_seen[BAR_SEEN]; /* hashes of bar frames up to their rate, the last BAR_SEEN */
	size_t bar_seen_at;
	double bar_total[BAR_TOTALS]; /* totals of bars shown in two frames (0: none) */
	size_t bar_total_at;
	double bar_last_total;     /* the last bar frame's total and count (0 0: none) */
	long long bar_last_step;
	struct bar_held held;
};

struct tput_ex {
	struct rule *rules;
	size_t n, cap;
	lit_set *literals;     /* every rule's, the rule's index as id */
	lit_cursor *cursor;    /* the search through a block, each byte looked at once */
	size_t lit_rules;      /* rules whose literals are in the set: the others are added
				* at the next search, all at once */
	int any_unfiltered;    /* a rule without literals: every line goes to the regexes */
	int kv;                /* index of the key/value reader's rule, -1 when not added */
	struct carry carry;
	size_t inference, copies;
	struct kv_cache *kvcache;  /* the key/value reader's analysis of the keys seen */
	char *joined;              /* a record hard-wrapped over lines, put back together */
	size_t joined_cap;
	struct queued *queue;      /* points after a held bar frame, given once it is settled */
	size_t nqueue, queue_cap;
	char *last_frame;          /* the last frame that gave figures: a redraw repeats it */
	size_t last_frame_len, last_frame_cap;
	struct tput_point last_pts[FRAME_MAX]; /* its figures, step and loss as read from it */
	size_t last_np;
	struct line_shape (*line_shapes)[2]; /* the rules whose literals each line shape holds */
	int shapes_ok;             /* no literal has a digit: a line's shape tells its rules */
	int rx_blind;              /* every pattern digit-blind: a line's shape tells its matches */
	struct tputctx_words ctxwords;
};

static void carry_reset(struct carry *c)
{
	memset(c, 0, sizeof *c);
	for (size_t u = 0; u < TPUT_NUNITS; u++)
		c->last_step[u] = -1;
}

/* Another input: nothing of the last one carries over, nor waits. */
static void start_input(tput_ex *ex)
{
	carry_reset(&ex->carry);
	ex->nqueue = 0;
}

tput_ex *tput_ex_new(void)
{
	tput_ex *ex = xcalloc(1, sizeof(tput_ex));
	ex->literals = lit_new();
	ex->cursor = lit_cursor_new(ex->literals);
	ex->kvcache = tput_kv_cache_new();
	ex->line_shapes = xcalloc(LINE_SHAPES, sizeof *ex->line_shapes);
	ex->kv = -1;
	tputctx_init(&ex->ctxwords);
	carry_reset(&ex->carry);
	return ex;
}

void tput_ex_free(tput_ex *ex)
{
	if (!ex)
		return;
	for (size_t i = 0; i < ex->n; i++) {
		if (ex->rules[i].re)
			rx_free(ex->rules[i].re);
		free(ex->rules[i].name);
	}
	free(ex->rules);
	lit_cursor_free(ex->cursor);
	lit_free(ex->literals);
	tput_kv_cache_free(ex->kvcache);
	free(ex->line_shapes);
	free(ex->joined);
	free(ex->last_frame);
	free(ex->queue);
	free(ex);
}

tput_ex *tput_ex_clone(const tput_ex *ex)
{
	tput_ex *copy = tput_ex_new();
	for (size_t i = 0; i < ex->n; i++) {
		char err[256];
		if (ex->rules[i].preset >= 0)
			tput_ex_add_preset(copy, (size_t)ex->rules[i].preset);
		else if (tput_ex_add_regex(copy, rx_pattern(ex->rules[i].re), err, sizeof err) != 0)
			abort();  /* it compiled once */
	}
	return copy;
}

size_t tput_ex_rules(const tput_ex *ex) { return ex->n; }
const char *tput_ex_rule_name(const tput_ex *ex, size_t rule) { return ex->rules[rule].name; }

static void rule_groups(struct rule *r)
{
	r->g_tput = rx_group_index(r->re, "tput");
	r->g_unit = rx_group_index(r->re, "unit");
	r->g_step = rx_group_index(r->re, "step");
	r->g_time = rx_group_index(r->re, "time");
	r->g_loss = rx_group_index(r->re, "loss");
	r->g_rank = rx_group_index(r->re, "rank");
	r->g_total = rx_group_index(r->re, "total");
}

static void fix_unit(struct rule *r)
{
	if (r->unit && !tputunit_parse(r->unit, strlen(r->unit), &r->fixed_unit, &r->fixed_scale,
					&r->fixed_invert))
		abort();  /* built in: every preset's unit is in the table */
}

static struct rule *new_rule(tput_ex *ex)
{
	ex->rules = xgrow(ex->rules, &ex->cap, ex->n + 1, sizeof *ex->rules);
	struct rule *r = &ex->rules[ex->n++];
	memset(r, 0, sizeof *r);
	r->time_scale = 1;
	r->preset = -1;
	return r;
}

void tput_ex_add_preset(tput_ex *ex, size_t index)
{
	const struct tput_preset *p = &tputpreset_table[index];
	char err[256];
	if (p->reader == TPUT_READ_KV && p->literals[0]) {
		struct rule *r = new_rule(ex);
		r->preset = (long)index;
		r->reader = TPUT_READ_KV;
		r->thin = 1;
		r->per_device = p->per_device;
		r->g_tput = r->g_unit = r->g_step = r->g_time = r->g_loss = r->g_rank = r->g_total = -1;
		r->name = xstrndup(p->name, strlen(p->name));
		for (; r->nlits < 4 && p->literals[r->nlits]; r->nlits++) {
			r->literals[r->nlits] = p->literals[r->nlits];
			r->litlen[r->nlits] = strlen(p->literals[r->nlits]);
		}
		r->unit = "value";
		fix_unit(r);
		return;
	}
	if (p->reader == TPUT_READ_KV) {
		struct rule *r = new_rule(ex);
		r->preset = (long)index;
		r->reader = TPUT_READ_KV;
		r->g_tput = r->g_unit = r->g_step = r->g_time = r->g_loss = r->g_rank = r->g_total = -1;
		r->name = xstrndup(p->name, strlen(p->name));
		for (; r->nlits < KV_NLITS && kv_literals[r->nlits]; r->nlits++) {
			r->literals[r->nlits] = kv_literals[r->nlits];
			r->litlen[r->nlits] = strlen(kv_literals[r->nlits]);
		}
		r->unit = "value";
		fix_unit(r);
		ex->kv = (int)(ex->n - 1);
		return;
	}
	rx *re = rx_compile(p->pattern, strlen(p->pattern), err, sizeof err);
	if (!re) {  /* built in: a broken preset is a bug, caught by the tests */
		fprintf(stderr, "preset %s: %s\n", p->name, err);
		abort();
	}
	struct rule *r = new_rule(ex);
	r->re = re;
	r->preset = (long)index;
	rule_groups(r);
	r->name = xstrndup(p->name, strlen(p->name));
	for (; r->nlits < 4 && p->literals[r->nlits]; r->nlits++) {
		r->literals[r->nlits] = p->literals[r->nlits];
		r->litlen[r->nlits] = strlen(p->literals[r->nlits]);
	}
	r->unit = p->unit;
	r->time_scale = p->time_scale;
	r->per_device = p->per_device;
	fix_unit(r);
}

int tput_ex_add_regex(tput_ex *ex, const char *pattern, char *err, size_t errlen)
{
	rx *re = rx_compile(pattern, strlen(pattern), err, errlen);
	if (!re)
		return -1;
	if (rx_group_index(re, "tput") < 0) {
		snprintf(err, errlen, "pattern has no (?<tput>...) group");
		rx_free(re);
		return -1;
	}
	struct rule *r = new_rule(ex);
	r->re = re;
	rule_groups(r);
	r->name = xstrndup("regex", 5);
	r->unit = "value";
	fix_unit(r);
	ex->any_unfiltered = 1;
	return 0;
}

static int has_literal(const struct rule *r, const char *s, size_t len)
{
	if (r->nlits == 0)
		return 1;
	for (size_t k = 0; k < r->nlits; k++)
		if (memmem(s, len, r->literals[k], r->litlen[k]))
			return 1;
	return 0;
}

/* The literals of the rules added since the last search, into the set in one go. */
static void sync_literals(tput_ex *ex)
{
	if (ex->lit_rules == ex->n)
		return;
	size_t total = 0;
	for (size_t i = ex->lit_rules; i < ex->n; i++)
		total += ex->rules[i].nlits;
	const char **texts = xmalloc((total + 1) * sizeof *texts);
	size_t *lens = xmalloc((total + 1) * sizeof *lens);
	unsigned *ids = xmalloc((total + 1) * sizeof *ids);
	size_t k = 0;
	for (size_t i = ex->lit_rules; i < ex->n; i++)
		for (size_t j = 0; j < ex->rules[i].nlits; j++, k++) {
			texts[k] = ex->rules[i].literals[j];
			lens[k] = ex->rules[i].litlen[j];
			ids[k] = (unsigned)i;
		}
	lit_add_many(ex->literals, total, texts, lens, ids);
	/* the shapes' rules are the old ones' */
	memset(ex->line_shapes, 0, LINE_SHAPES * sizeof *ex->line_shapes);
	ex->shapes_ok = 1;
	ex->rx_blind = 1;
	for (size_t i = 0; i < ex->n; i++)
		if (ex->rules[i].re && !rx_digit_blind(ex->rules[i].re))
			ex->rx_blind = 0;
	for (size_t i = 0; i < ex->n; i++)
		for (size_t j = 0; j < ex->rules[i].nlits; j++)
			if (tputbyte_has_digit(ex->rules[i].literals[j], ex->rules[i].litlen[j]))
				ex->shapes_ok = 0;
	free(texts);
	free(lens);
	free(ids);
	ex->lit_rules = ex->n;
}

/* Leftmost literal of any rule in s[0, len): its offset (len when none), its rule in *rule. */
static size_t find_literal(const tput_ex *ex, const char *s, size_t len, size_t *rule)
{
	unsigned id = 0;
	size_t at = lit_find(ex->literals, s, len, &id);
	*rule = id;
	return at;
}

/* The same as find_literal on the block from p on, through the block's cursor. */
static size_t next_literal(tput_ex *ex, const char *text, const char *p, const char *end, size_t *rule)
{
	unsigned id = 0;
	size_t at = lit_cursor_find(ex->cursor, (size_t)(p - text), &id);
	*rule = id;
	return at == (size_t)(end - text) ? (size_t)(end - p) : at - (size_t)(p - text);
}

/* Rules (bit i) whose literals s[0, len) holds, the first found at offset hit. */
static uint64_t rules_in_line(const tput_ex *ex, const char *s, size_t len, size_t hit, size_t rule)
{
	uint64_t mask = 1ULL << rule;
	for (size_t from = hit + 1; from < len;) {
		size_t more = find_literal(ex, s + from, len - from, &rule);
		if (more == len - from)
			break;
		mask |= 1ULL << rule;
		from += more + 1;
	}
	return mask;
}

/* Rules whose literals the line s[0, len) holds, by its shape when seen before; *known says
 * whether it was, *shape is its entry (NULL when too long to keep). */
static uint64_t line_rules(tput_ex *ex, const char *s, size_t len, int *known, struct line_shape **shape)
{
	size_t rule, hit;
	*known = 0;
	*shape = NULL;
	if (len > LINE_SHAPE_MAX) {
		hit = find_literal(ex, s, len, &rule);
		return hit < len ? rules_in_line(ex, s, len, hit, rule) : 0;
	}
	char text[LINE_SHAPE_MAX];
	tputbyte_shape(s, len, text);
	struct line_shape *set = ex->line_shapes[tputbyte_set(text, len)];
	for (int w = 0; w < 2; w++)
		if (set[w].len == len && memcmp(set[w].text, text, len) == 0) {
			*known = 1;
			*shape = &set[w];
			return set[w].mask;
		}
	set[1] = set[0];
	set[0].len = (uint32_t)len;
	set[0].frame = NULL;
	set[0].rx_rule = 0;
	memcpy(set[0].text, text, len);
	hit = find_literal(ex, s, len, &rule);
	*shape = &set[0];
	return set[0].mask = hit < len ? rules_in_line(ex, s, len, hit, rule) : 0;
}

struct line_ctx {
	struct line_shape *shape; /* the line's, NULL when unknown */
	const char *start;        /* the line's first byte */
	int split;
	int digits;            /* the line past its rank prefix has a digit (its frames may) */
	long rank;
	int have_time;
	double time;
	unsigned long lineno;
};

/* Turn one rule's match into a point; returns the result kind and a reason when bad. */
static enum tput_result take(const struct rule *r, const struct line_ctx *lc, struct tput_point *pt,
			     char *why, size_t whylen)
{
	const char *g;
	size_t gl;
	double v;
	*pt = (struct tput_point){ lc->rank, -1, lc->have_time ? lc->time : NAN, NAN, TPUT_VALUE, NAN, 0 };
	enum tput_unit unit = TPUT_VALUE;
	double scale = 1;
	int invert = 0;
	if (rx_group_at(r->re, r->g_unit, &g, &gl)) {
		if (!tputunit_parse(g, gl, &unit, &scale, &invert)) {
			snprintf(why, whylen, "unknown unit '%.*s'", (int)(gl > 40 ? 40 : gl), g);
			return TPUT_BAD;
		}
	} else {
		unit = r->fixed_unit;
		scale = r->fixed_scale;
		invert = r->fixed_invert;
	}
	pt->unit = unit;
	if (!rx_group_at(r->re, r->g_tput, &g, &gl)) {
		snprintf(why, whylen, "no throughput in the match");
		return TPUT_BAD;
	}
	enum tput_num num = tputunit_number(g, gl, &v);
	if (num == TPUT_NUM_NAN)
		return TPUT_NAN;
	if (num == TPUT_NUM_BAD || v < 0 || (invert && v == 0)) {
		snprintf(why, whylen, "bad throughput '%.*s'", (int)(gl > 40 ? 40 : gl), g);
		return TPUT_BAD;
	}
	pt->value = (invert ? 1 / v : v) * scale;
	/* Steps and ranks too big for their type stay unknown: the cast would be undefined. */
	if (rx_group_at(r->re, r->g_step, &g, &gl) && tputunit_number(g, gl, &v) == TPUT_NUM_OK &&
	    fabs(v) < (double)LLONG_MAX)
		pt->step = (long long)v;
	if (rx_group_at(r->re, r->g_loss, &g, &gl) && tputunit_number(g, gl, &v) == TPUT_NUM_OK)
		pt->loss = v;
	if (rx_group_at(r->re, r->g_rank, &g, &gl) && tputunit_number(g, gl, &v) == TPUT_NUM_OK &&
	    fabs(v) < (double)LONG_MAX)
		pt->rank = (long)v;
	if (rx_group_at(r->re, r->g_time, &g, &gl)) {
		if (tputunit_number(g, gl, &v) == TPUT_NUM_OK)
			pt->time = v * r->time_scale;
		else if (tputnorm_timestamp(g, gl, &v) > 0)
			pt->time = v;
	}
	/* A progress bar's closing frame (N/N) shows its average over the run, not a step. */
	if (rx_group_at(r->re, r->g_total, &g, &gl) && tputunit_number(g, gl, &v) == TPUT_NUM_OK &&
	    pt->step >= 0 && (double)pt->step == v) {
		snprintf(why, whylen, "a closing frame: the bar's average over the run");
		return TPUT_NOMATCH;
	}
	return TPUT_POINT;
}

/* The per-device unit of a figure read on a line whose preset says its figures are per device. */
static enum tput_unit per_device_unit(enum tput_unit u)
{
	switch (u) {
	case TPUT_TOKENS_S: case TPUT_TPS: return TPUT_TOKENS_S_GPU;
	case TPUT_SAMPLES_S: return TPUT_SAMPLES_S_GPU;
	case TPUT_TFLOPS: return TPUT_TFLOPS_GPU;
	default: return u;
	}
}

/* The key/value reader's figures join the preset's: one per unit, a plain figure before a
 * running average; the line's step and loss fill what the preset left unknown. */
static size_t add_kv(tput_ex *ex, int rule, const char *s, size_t len, const struct line_ctx *lc, int per_device,
		     struct tput_point *pts, size_t np, int *from_kv_avg, struct tput_kv_line *info,
		     struct kv_shape **shape)
{
	struct tput_kv kvs[FRAME_MAX];
	struct line_shape *ls = lc->shape;
	uint32_t frame_at = (uint32_t)(s - lc->start);
	int linked = ls && ls->frame && ls->frame->serial == ls->frame_serial && ls->frame_at == frame_at &&
		     ls->frame_len == len;
	size_t nk = kv_read(s, len, kvs, FRAME_MAX, info, ex->kvcache, linked ? ls->frame : NULL, shape);
	if (ls && !linked && *shape) {
		ls->frame = *shape;
		ls->frame_serial = (*shape)->serial;
		ls->frame_at = frame_at;
		ls->frame_len = (uint32_t)len;
	}
	for (size_t k = 0; k < nk; k++) {
		enum tput_unit u = per_device > 0 ? per_device_unit(kvs[k].unit) : kvs[k].unit;
		if (per_device < 0 && u == TPUT_TPS)
			u = TPUT_TOKENS_S;
		size_t at = np;
		for (size_t j = 0; j < np; j++)
			if (pts[j].unit == u)
				at = j;
		if (at < np && !(from_kv_avg[at] && !kvs[k].average))
			continue;
		if (at == np) {
			if (np == FRAME_MAX)
				continue;
			np++;
		}
		pts[at] = (struct tput_point){ lc->rank, -1, lc->have_time ? lc->time : NAN, kvs[k].value, u, NAN,
					       rule };
		from_kv_avg[at] = kvs[k].average;
	}
	return np;
}

/* The points waiting behind a bar frame, to the sink in order. */
static void flush_queue(tput_ex *ex, tput_sink *sink, void *ctx)
{
	for (size_t k = 0; k < ex->nqueue; k++)
		sink(ctx, ex->queue[k].lineno, TPUT_POINT, &ex->queue[k].pt, NULL);
	ex->nqueue = 0;
}

/* A line's points, step and all worked out, to the sink (to the queue while a bar frame
 * before them is held); an unprefixed rank's copy of the
 * figures just before is counted, not given. */
static void emit_points(tput_ex *ex, struct tput_point *pts, size_t np, unsigned long lineno, tput_sink *sink,
			void *ctx)
{
	struct carry *c = &ex->carry;
	for (size_t i = 0; i < np; i++) {
		struct tput_point *pt = &pts[i];
		/* An unprefixed rank's copy repeats the step of the figures just before (this line's
		 * earlier frame or the last line with figures) in its unit. */
		if (c->emit_line != lineno) {
			c->emit_prev = c->emit_line;
			c->emit_line = lineno;
		}
		unsigned long seen = c->last_line[pt->unit];
		if (pt->rank < 0 && pt->step >= 0 && seen && (seen == lineno || seen == c->emit_prev) &&
		    c->last_step[pt->unit] == pt->step) {
			ex->copies++;
			c->last_line[pt->unit] = lineno;
			continue;
		}
		c->last_step[pt->unit] = pt->step;
		c->last_line[pt->unit] = pt->rank < 0 ? lineno : 0;
		if (!c->held.np) {
			sink(ctx, lineno, TPUT_POINT, pt, NULL);
			continue;
		}
		ex->queue = xgrow(ex->queue, &ex->queue_cap, ex->nqueue + 1, sizeof *ex->queue);
		ex->queue[ex->nqueue++] = (struct queued){ lineno, *pt };
	}
	if (ex->nqueue >= QUEUE_MAX) {  /* the held frame stays alone: dropped */
		sink(ctx, c->held.lineno, TPUT_NOMATCH, NULL, "a progress bar seen in one frame only");
		c->held.np = 0;
		flush_queue(ex, sink, ctx);
	}
}

/* Has a bar of this total shown two frames? */
static int bar_confirmed(const struct carry *c, double total)
{
	for (size_t k = 0; k < BAR_TOTALS; k++)
		if (c->bar_total[k] == total)
			return 1;
	return 0;
}

/* A bar frame's hash: one multiplication after another, each word's mixed into all before. */
static uint64_t bar_hash(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ULL ^ len, w;
	size_t i = 0;
	for (; i + 8 <= len; i += 8) {
		memcpy(&w, s + i, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
		h ^= h >> 29;
	}
	for (; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return h;
}

/* Was this bar frame (its hash up to its rate) seen lately? Remembered when not. */
static int bar_seen_before(struct carry *c, uint64_t h)
{
	for (size_t k = 0; k < BAR_SEEN; k++)
		if (c->bar_seen[k] == h)
			return 1;
	c->bar_seen[c->bar_seen_at++ % BAR_SEEN] = h;
	return 0;
}

/* Does s[0, n), before a bar's count, hold a round's count: "N/M" standing alone, 0 < N <= M? */
static int bar_round(const char *s, size_t n)
{
	for (const char *p = s, *end = s + n; (p = memchr(p, '/', (size_t)(end - p))) != NULL; p++) {
		const char *a = p, *b = p + 1;
		while (a > s && tputbyte_digit(a[-1]))
			a--;
		while (b < end && tputbyte_digit(*b))
			b++;
		if (a == p || b == p + 1 || (a > s && a[-1] != ' ') || b == end || *b != ' ' || p - a > 9 || b - p > 10)
			continue;
		long x = strtol(a, NULL, 10), y = strtol(p + 1, NULL, 10);
		if (x > 0 && x <= y)
			return 1;
	}
	return 0;
}

/* A Keras progress bar's frame, "N/M ━━━..." or "N/M [===...": its count and total. */
static int keras_bar(const char *s, size_t len, long long *n, long long *m)
{
	size_t i = 0, a, b;
	long long x = 0, y = 0;
	while (i < len && s[i] == ' ')
		i++;
	for (a = i; i < len && tputbyte_digit(s[i]) && i - a < 12; i++)
		x = x * 10 + (s[i] - '0');
	if (i == a || i >= len || s[i] != '/')
		return 0;
	for (b = ++i; i < len && tputbyte_digit(s[i]) && i - b < 12; i++)
		y = y * 10 + (s[i] - '0');
	if (i == b || i + 4 > len || s[i] != ' ' || (s[i + 1] != '[' && memcmp(s + i + 1, "\xe2\x94\x81", 3) != 0))
		return 0;
	*n = x;
	*m = y;
	return 1;
}

static void memo_rx(struct line_shape *ls, size_t rule, uint32_t frame_at, size_t len)
{
	ls->rx_rule = rule;
	ls->rx_at = frame_at;
	ls->rx_len = (uint32_t)len;
}

/* Is a[0, alen) b[0, blen)'s message under another logger's head: a common tail of 12 bytes
 * or more that starts a word and holds a letter and a digit, after heads that differ other
 * than in their figures and blanks (one logger's lines differ only there: its clock, its
 * counts)? The caller has checked that the figures are the same. */
static int other_logger(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t t = 0;
	while (t < alen && t < blen && a[alen - 1 - t] == b[blen - 1 - t])
		t++;
	/* back to the start of a word, so the tail is whole words */
	while (t > 0 && tputbyte_alnum(a[alen - t]) && alen - t > 0 && tputbyte_alnum(a[alen - t - 1]))
		t--;
	if (t < 12 || t == alen || t == blen)
		return 0;
	int letter = 0, digit = 0;
	for (size_t k = alen - t; k < alen; k++) {
		letter |= tputbyte_alpha(a[k]);
		digit |= tputbyte_digit(a[k]);
	}
	if (!letter || !digit)
		return 0;
	/* the heads' shapes: each run of digits one digit, blanks none ("[ 80/208]", "[100/208]") */
	size_t i = 0, j = 0, ha = alen - t, hb = blen - t;
	while (i < ha && j < hb) {
		if (a[i] == ' ' || a[i] == '\t' || b[j] == ' ' || b[j] == '\t') {
			i += a[i] == ' ' || a[i] == '\t';
			j += b[j] == ' ' || b[j] == '\t';
			continue;
		}
		if (tputbyte_digit(a[i]) && tputbyte_digit(b[j])) {
			while (i < ha && tputbyte_digit(a[i]))
				i++;
			while (j < hb && tputbyte_digit(b[j]))
				j++;
			continue;
		}
		if (a[i++] != b[j++])
			return 1;
	}
	while (i < ha && (a[i] == ' ' || a[i] == '\t'))
		i++;
	while (j < hb && (b[j] == ' ' || b[j] == '\t'))
		j++;
	return i < ha || j < hb;
}

/* Do a line's figures a[0, na) repeat b[0, nb): each unit's value, step and loss? */
static int same_figures(const struct tput_point *a, size_t na, const struct tput_point *b, size_t nb)
{
	if (na != nb)
		return 0;
	for (size_t i = 0; i < na; i++) {
		size_t j = 0;
		while (j < nb && b[j].unit != a[i].unit)
			j++;
		if (j == nb || b[j].value != a[i].value || b[j].step != a[i].step ||
		    !(b[j].loss == a[i].loss || (isnan(b[j].loss) && isnan(a[i].loss))))
			return 0;
	}
	return 1;
}

static void frame(tput_ex *ex, const char *s, size_t len, const struct line_ctx *lc, uint64_t mask,
		  tput_sink *sink, void *ctx)
{
	double bar_total = NAN;  /* a progress bar's frame: its total */
	size_t bar_end = 0;      /* and where its rate ends */
	char why[96], err[256];
	int literal = 0, matched = 0, closing = 0, round = 0, per_device = 0, thin = -1, from_kv_avg[FRAME_MAX] = { 0 };
	struct tput_point pts[FRAME_MAX], base = { lc->rank, -1, NAN, NAN, TPUT_VALUE, NAN, 0 };
	size_t np = 0;
	const char *reason = "holds a throughput word but no rule matched";
	struct carry *c = &ex->carry;
	/* A line of a shape read before, its only frame, matches as that line did (rx_digit_blind). */
	struct line_shape *ls = lc->shape && !lc->split && ex->rx_blind ? lc->shape : NULL;
	uint32_t frame_at = (uint32_t)(s - lc->start);
	int known = ls && ls->rx_rule && ls->rx_at == frame_at && ls->rx_len == len;
	for (size_t i = 0; i < ex->n; i++) {
		struct rule *r = &ex->rules[i];
		/* The line-level prefilter chose the rules; frames of a split line recheck. */
		if ((i < 64 && !(mask >> i & 1)) || (r->reader == TPUT_READ_KV && !r->thin))
			continue;
		if (r->thin) {  /* a framework's line: the key/value reader reads it as the preset says */
			if ((lc->split || i >= 64 || mask == UINT64_MAX) && !has_literal(r, s, len))
				continue;
			thin = (int)i;
			per_device = r->per_device;
			break;
		}
		if (lc->split && !has_literal(r, s, len))
			continue;
		literal = 1;
		int rc;
		if (known) {
			if ((rc = ls->rx_rule == i + 2))
				rx_set_spans(r->re, s, ls->rx_spans, ls->rx_npairs);
		} else {
			rc = rx_match_groups(r->re, s, len, err, sizeof err);
			if (rc < 0) {
				sink(ctx, lc->lineno, TPUT_ERROR, NULL, err);
				return;
			}
			if (rc && ls && (ls->rx_npairs = rx_spans(r->re, ls->rx_spans, RX_MEMO_PAIRS)) > 0)
				memo_rx(ls, i + 2, frame_at, len);
		}
		if (rc == 0)
			continue;
		struct tput_point pt;
		enum tput_result res = take(r, lc, &pt, why, sizeof why);
		pt.rule = (int)i;
		double tv;
		const char *g;
		size_t gl;
		if ((res == TPUT_POINT || res == TPUT_NOMATCH) && rx_group_at(r->re, r->g_total, &g, &gl) &&
		    tputunit_number(g, gl, &tv) == TPUT_NUM_OK) {
			/* A closing frame whose line names its round ("70/1000" before the bar)
			 * and whose round showed no frame before it (a bar drawn only once done:
			 * Ultralytics' epochs in a file) is that round's figure, its count no step;
			 * one after its round's frames repeats them, one of no round closes a run. */
			int shown = c->bar_last_total == tv && c->bar_last_step >= 0 && c->bar_last_step < pt.step;
			c->bar_last_total = tv;
			c->bar_last_step = pt.step;
			if (res == TPUT_NOMATCH && !shown && rx_group_at(r->re, r->g_step, &g, &gl) &&
			    bar_round(s, (size_t)(g - s))) {
				res = TPUT_POINT;
				round = 1;
				pt.step = -1;
			}
		}
		if (res == TPUT_BAD || res == TPUT_NAN) {
			sink(ctx, lc->lineno, res, &pt, res == TPUT_BAD ? why : NULL);
			return;
		}
		matched = 1;
		per_device = r->per_device;
		base = pt;
		if (res == TPUT_POINT && rx_group_at(r->re, r->g_total, &g, &gl) &&
		    tputunit_number(g, gl, &tv) == TPUT_NUM_OK && rx_group_at(r->re, r->g_unit, &g, &gl)) {
			bar_total = tv;
			bar_end = (size_t)(g + gl - s);
		}
		if (res == TPUT_POINT)
			pts[np++] = pt;
		else {
			closing = 1;
			reason = "a closing frame: the bar's average over the run";
		}
		break;
	}
	if (ls && !known && !matched)
		memo_rx(ls, 1, frame_at, len);
	struct tput_kv_line info = { -1, 0, NAN, 0, 0 };
	struct kv_shape *shape = NULL;
	int kv = ex->kv;
	/* A frame without a digit has no figure for the reader: only HF's summary header (its
	 * own literal) matters, and the reader's literals are not searched for. */
	if (kv >= 0 && !matched && !(lc->digits && (!lc->split || tputbyte_has_digit(s, len)))) {
		if (memchr(s, '*', len) && memmem(s, len, "metrics *****", 13))
			c->metrics_line = lc->lineno;
		else if (literal)
			sink(ctx, lc->lineno, TPUT_NOMATCH, NULL, reason);
		return;
	}
	/* The search reports one literal per offset: "wps=" may hide the reader's "wps". */
	if (thin >= 0 || (kv >= 0 && (matched || (kv < 64 && (mask >> kv & 1) && !lc->split) ||
				      has_literal(&ex->rules[kv], s, len)))) {
		if (memchr(s, '*', len) && memmem(s, len, "metrics *****", 13)) {
			c->metrics_line = lc->lineno;  /* HF's summary block: a copy of the figures above */
			return;
		}
		np = add_kv(ex, thin >= 0 ? thin : kv, s, len, lc, per_device, pts, np, from_kv_avg, &info, &shape);
		if (closing)  /* nor is the closing frame's rate a step when the reader finds it */
			for (size_t i = np; i-- > 0;)
				if (pts[i].unit == base.unit) {
					pts[i] = pts[--np];
					from_kv_avg[i] = from_kv_avg[np];
				}
		if (info.header && info.step >= 0) {
			c->step = info.step;
			c->rank = lc->rank;
			c->lineno = lc->lineno;
			c->have_time = lc->have_time;
			c->time = lc->time;
		}
	}
	/* Keras's bar, read by the key/value reader, is a bar as tqdm's is: fit draws one per
	 * epoch, its closing frame that epoch's round; evaluate's, of another total, stays alone */
	long long kn, km;
	if (!matched && np && isnan(bar_total) && keras_bar(s, len, &kn, &km)) {
		bar_total = (double)km;
		bar_end = len;
		round = kn == km;
		base.step = round ? -1 : kn;
	}
	if (np == 0) {
		if (info.inference)
			ex->inference++;
		if (literal)
			sink(ctx, lc->lineno, TPUT_NOMATCH, NULL, reason);
		return;
	}
	/* a latency per token on the line: generation's timings */
	enum tput_context where = info.inference == 2 ? TPUT_CTX_INFERENCE : kv_shape_context(&ex->ctxwords, shape, s, len);
	if (where != TPUT_CTX_TRAIN) {
		if (where == TPUT_CTX_INFERENCE)
			ex->inference++;
		sink(ctx, lc->lineno, TPUT_NOMATCH, NULL,
		     where == TPUT_CTX_INFERENCE ? "inference, not training" : "not training (eval, checkpoint, ...)");
		return;
	}
	if (c->metrics_line && lc->lineno > c->metrics_line && lc->lineno - c->metrics_line <= 32 &&
	    memmem(s, len, " = ", 3)) {
		ex->copies += np;
		return;
	}
	/* A redraw of the frame just seen (a line printed twice, a bar drawn again) is no new figure. */
	if (c->last_frame_line && lc->lineno <= c->last_frame_line + 1 && len == ex->last_frame_len &&
	    memcmp(s, ex->last_frame, len) == 0) {
		ex->copies += np;
		sink(ctx, lc->lineno, TPUT_NOMATCH, NULL, "a copy of the line before");
		return;
	}
	/* The same message from a second logger on the next line (TensorFlow's Python logging
	 * and absl: "INFO:tensorflow:global_step/sec: 0.05" then "I0609 ... ] global_step/sec:
	 * 0.05") is a copy: the tails agree from a word on, the heads are of other shapes. */
	long long step = base.step >= 0 ? base.step : info.step;
	double loss = !isnan(base.loss) ? base.loss : info.loss;
	for (size_t i = 0; i < np; i++) {
		pts[i].step = pts[i].step >= 0 ? pts[i].step : step;
		pts[i].loss = !isnan(pts[i].loss) ? pts[i].loss : loss;
	}
	if (c->last_frame_line && lc->lineno == c->last_frame_line + 1 && same_figures(pts, np, ex->last_pts, ex->last_np) &&
	    other_logger(s, len, ex->last_frame, ex->last_frame_len)) {
		ex->copies += np;
		sink(ctx, lc->lineno, TPUT_NOMATCH, NULL, "the line before, from another logger");
		return;
	}
	ex->last_frame = xgrow(ex->last_frame, &ex->last_frame_cap, len, 1);
	memcpy(ex->last_frame, s, len);
	ex->last_frame_len = len;
	memcpy(ex->last_pts, pts, np * sizeof *pts);
	ex->last_np = np;
	c->last_frame_line = lc->lineno;
	/* A bar's frame drawn again later (a pasted stretch of the log, a bar redrawn on a new
	 * line with other words after its rate) is no new figure: within one bar the count or
	 * the clock moves from frame to frame. */
	if (!isnan(bar_total) && bar_seen_before(c, bar_hash(s, bar_end))) {
		ex->copies += np;
		sink(ctx, lc->lineno, TPUT_NOMATCH, NULL, "a copy of a progress bar frame seen before");
		return;
	}
	int header_ok = c->lineno && lc->lineno >= c->lineno && lc->lineno - c->lineno < 256;
	/* sorted by unit; step, loss and time from the preset, the line, or the record's header */
	for (size_t i = 1; i < np; i++)
		for (size_t j = i; j > 0 && pts[j].unit < pts[j - 1].unit; j--) {
			struct tput_point t = pts[j];
			pts[j] = pts[j - 1];
			pts[j - 1] = t;
		}
	/* a line with a step of its own closes the record a header opened */
	int under_header = header_ok && base.step < 0 && info.step < 0;
	if (!under_header && !info.header)
		c->lineno = 0;
	/* Megatron prints "Effective Tera Flops per GPU: N" on a line of its own after the
	 * iteration line: the same record, so the same step, when no figures came between. */
	int effective = !under_header && base.step < 0 && info.step < 0 && c->prev_step_line &&
			c->emit_line == c->prev_step_line &&
			lc->lineno > c->prev_step_line && lc->lineno - c->prev_step_line <= 16 &&
			memmem(s, len, "Effective Tera Flops", 20);
	for (size_t i = 0; i < np; i++) {
		struct tput_point *pt = &pts[i];
		if (pt->step < 0)
			pt->step = base.step >= 0 ? base.step : info.step >= 0 ? info.step : under_header ? c->step : -1;
		if (isnan(pt->loss))
			pt->loss = !isnan(base.loss) ? base.loss : info.loss;
		if (isnan(pt->time) && !isnan(base.time))
			pt->time = base.time;
		if (isnan(pt->time) && under_header && c->have_time)
			pt->time = c->time;
		if (pt->rank < 0 && under_header)
			pt->rank = c->rank;
		if (effective && pt->step < 0)
			pt->step = c->prev_step;
		else if (pt->step >= 0) {
			c->prev_step = pt->step;
			c->prev_step_line = lc->lineno;
		}
	}
	if (!isnan(bar_total) && !bar_confirmed(c, bar_total)) {
		struct bar_held *held = &c->held;
		if (held->np && held->total == bar_total && (base.step != held->step || (round && held->round))) {
			/* the bar's second frame (a later step, or the first of its next round): the
			 * one held and this one count */
			c->bar_total[c->bar_total_at++ % BAR_TOTALS] = bar_total;
			size_t hn = held->np;
			held->np = 0;
			emit_points(ex, held->pts, hn, held->lineno, sink, ctx);
			flush_queue(ex, sink, ctx);
		} else {
			if (held->np)
				sink(ctx, held->lineno, TPUT_NOMATCH, NULL, "a progress bar seen in one frame only");
			held->np = 0;
			flush_queue(ex, sink, ctx);
			memcpy(held->pts, pts, np * sizeof *pts);
			held->np = np;
			held->lineno = lc->lineno;
			held->total = bar_total;
			held->step = base.step;
			held->round = round;
			return;
		}
	}
	emit_points(ex, pts, np, lc->lineno, sink, ctx);
}

/* A line that holds the literals of the rules in mask. */
static void line(tput_ex *ex, char *s, size_t len, struct line_shape *shape, unsigned long lineno, uint64_t mask,
		 tput_sink *sink, void *ctx)
{
	if (memchr(s, '\x1b', len)) {
		len = tputnorm_strip_ansi(s, len);
		shape = NULL;  /* its frames are not its bytes */
	}
	struct line_ctx lc = { shape, s, memchr(s, '\r', len) != NULL, 0, -1, 0, 0, lineno };
	if (lineno <= ex->carry.seen_line)  /* numbers start again: another input */
		start_input(ex);
	ex->carry.seen_line = lineno;
	size_t skip = tputnorm_rank_prefix(s, len, &lc.rank);
	lc.digits = tputbyte_has_digit(s + skip, len - skip);
	/* every timestamp has digits */
	size_t ts = lc.digits ? tputnorm_timestamp_end(s + skip, len - skip, &lc.time) : 0;
	lc.have_time = ts > 0;
	if (ts && lc.rank < 0)  /* OLMo: "TIME\tHOST:LOCAL_RANK\t..." */
		tputnorm_host_rank(s + skip + ts, len - skip - ts, &lc.rank);
	s += skip;
	len -= skip;
	if (!lc.split) {  /* one frame: most lines */
		if (len > 0)
			frame(ex, s, len, &lc, mask, sink, ctx);
		return;
	}
	/* Captured progress bars: frames joined by "\r", each one a measurement. */
	while (len > 0) {
		char *cr = memchr(s, '\r', len);
		size_t flen = cr ? (size_t)(cr - s) : len;
		if (flen > 0)
			frame(ex, s, flen, &lc, mask, sink, ctx);
		if (!cr)
			break;
		s += flen + 1;
		len -= flen + 1;
	}
}

static int filtered(const tput_ex *ex) { return !ex->any_unfiltered && ex->n <= 64; }

void tput_ex_line(tput_ex *ex, char *s, size_t len, unsigned long lineno, tput_sink *sink, void *ctx)
{
	if (lineno <= 1)  /* an input's first line: nothing carries over from another */
		start_input(ex);
	sync_literals(ex);
	if (!filtered(ex)) {
		line(ex, s, len, NULL, lineno, UINT64_MAX, sink, ctx);
		return;
	}
	size_t rule, hit = find_literal(ex, s, len, &rule);
	if (hit < len)
		line(ex, s, len, NULL, lineno, rules_in_line(ex, s, len, hit, rule), sink, ctx);
}

/* Length of the block's line at s, without its "\n". */
static size_t line_len(const char *s, const char *block_end)
{
	const char *nl = memchr(s, '\n', (size_t)(block_end - s));
	return (size_t)((nl ? nl : block_end) - s);
}

/* A record hard-wrapped at a terminal's or a wrapper's width: every part but the last is
 * exactly as wide, the first starts with the log's prefix (a rank or a timestamp) and the
 * others do not, and the cut falls inside a field (no blank either side of it). */
enum { WRAP_PARTS = 8 };
int tput_wrap_width(size_t n)
{
	static const unsigned short widths[] = { 80, 100, 120, 132, 160, 200, 250, 256 };
	for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++)
		if (n == widths[i])
			return 1;
	return 0;
}

static int log_prefixed(const char *s, size_t len)
{
	long rank;
	double t;
	return tputnorm_rank_prefix(s, len, &rank) > 0 || tputnorm_timestamp_end(s, len, &t) > 0;
}

/* A line without its "\r\n" or "\n". */
struct span {
	char *s;
	size_t n;
};

static struct span span_at(char *s, const char *end)
{
	size_t n = line_len(s, end);
	return (struct span){ s, n - (n > 0 && s[n - 1] == '\r') };
}

/* Does part b carry on the record part a cut? */
static int wrap_cut(struct span a, struct span b, size_t width)
{
	return a.n == width && b.n > 0 && a.s[a.n - 1] != ' ' && b.s[0] != ' ' && b.s[0] != '\t' &&
	       !log_prefixed(b.s, b.n);
}

/* The wrapped record the line at cur belongs to, its lines from *first (not before from) to
 * *last, put together in ex->joined; 0 when the line stands alone. A line of the block
 * (text) next to the record must have the prefix too: the log is one whose lines all have
 * it, not a mix where an unprefixed line may follow one that happens to be as wide. Only
 * lines with a rule's literal come here: the others cost nothing. */
/* The line before the one at s, when it starts at or after from and is short enough to be
 * a wrap width: the search back stops after 258 bytes. */
static int prev_short(char *from, char *s, char *end, struct span *p)
{
	if (s <= from)
		return 0;
	size_t win = (size_t)(s - 1 - from);
	if (win > 258)
		win = 258;
	char *lo = s - 1 - win, *nl = memrchr(lo, '\n', win);
	if (!nl && lo > from)
		return 0;
	*p = span_at(nl ? nl + 1 : from, end);
	return 1;
}

static size_t wrap_join(tput_ex *ex, char *text, char *from, char *cur, char *end, char **first, char **last)
{
	struct span parts[WRAP_PARTS], back[WRAP_PARTS], later = span_at(cur, end), p;
	size_t np = 0, nb = 0, width = 0;
	/* most lines: neither this one nor the one before is as wide as a terminal */
	if (!tput_wrap_width(later.n) && !(prev_short(from, cur, end, &p) && tput_wrap_width(p.n)))
		return 0;
	if (!log_prefixed(later.s, later.n)) {
		/* a later part: back to the first, each line before as wide, the first prefixed */
		for (char *s = cur;;) {
			if (nb == WRAP_PARTS - 1 || !prev_short(from, s, end, &p))
				return 0;
			if (!tput_wrap_width(p.n) || (width && p.n != width) || !wrap_cut(p, later, p.n))
				return 0;
			width = p.n;
			back[nb++] = later = p;
			s = p.s;
			if (log_prefixed(p.s, p.n))
				break;
		}
	} else if (!tput_wrap_width(later.n)) {
		return 0;
	}
	while (nb > 0)
		parts[np++] = back[--nb];
	parts[np++] = span_at(cur, end);
	if (!width)
		width = parts[0].n;
	/* on while each part is cut at the same width */
	while (np < WRAP_PARTS) {
		p = parts[np - 1];
		char *nx = p.s + line_len(p.s, end);
		if (nx >= end || ++nx >= end)
			break;
		struct span q = span_at(nx, end);
		if (!wrap_cut(p, q, width))
			break;
		parts[np++] = q;
	}
	if (np == 1)
		return 0;
	char *after = parts[np - 1].s + line_len(parts[np - 1].s, end) + 1, *before = NULL;
	if (parts[0].s > text) {
		before = memrchr(text, '\n', (size_t)(parts[0].s - 1 - text));
		before = before ? before + 1 : text;
	}
	struct span b = before ? span_at(before, end) : (struct span){ NULL, 0 };
	struct span a = after < end ? span_at(after, end) : (struct span){ NULL, 0 };
	if (!(b.n && log_prefixed(b.s, b.n)) && !(a.n && log_prefixed(a.s, a.n)))
		return 0;
	size_t total = 0;
	for (size_t i = 0; i < np; i++)
		total += parts[i].n;
	ex->joined = xgrow(ex->joined, &ex->joined_cap, total + 1, 1);
	total = 0;
	for (size_t i = 0; i < np; i++) {
		memcpy(ex->joined + total, parts[i].s, parts[i].n);
		total += parts[i].n;
	}
	ex->joined[total] = '\0';
	*first = parts[0].s;
	*last = parts[np - 1].s;
	return total;
}

/* A record hard-wrapped over the lines from first to the one at cur (numbered lineno), put
 * together in ex->joined (jl bytes): read as one line numbered by its first, for the rules
 * its literals name (those of mask when it has none). */
static void joined_line(tput_ex *ex, size_t jl, const char *first, const char *cur, unsigned long lineno,
			uint64_t mask, tput_sink *sink, void *ctx)
{
	size_t rule, hit = find_literal(ex, ex->joined, jl, &rule);
	uint64_t jmask = hit < jl ? rules_in_line(ex, ex->joined, jl, hit, rule) : mask;
	line(ex, ex->joined, jl, NULL, lineno - in_count_lines(first, (size_t)(cur - first)), jmask, sink, ctx);
}

size_t tput_ex_block(tput_ex *ex, char *text, size_t len, unsigned long lineno, tput_sink *sink, void *ctx)
{
	char *end = text + len, *at = text;
	size_t newlines = 0;
	if (lineno <= 1)
		start_input(ex);
	sync_literals(ex);
	char *done = text;  /* lines before this were looked at */
	if (!filtered(ex)) {
		while (at < end) {
			char *first, *last;
			size_t jl = wrap_join(ex, text, done, at, end, &first, &last);
			if (jl) {  /* forward only: each line here was looked at before the next */
				size_t parts = in_count_lines(at, (size_t)(last - at));
				line(ex, ex->joined, jl, NULL, lineno, UINT64_MAX, sink, ctx);
				lineno += parts;
				newlines += parts;
				at = last;
			} else {
				size_t n = line_len(at, end);
				line(ex, at, n - (n > 0 && at[n - 1] == '\r'), NULL, lineno, UINT64_MAX, sink, ctx);
			}
			size_t n = line_len(at, end);
			lineno++;
			newlines += at + n < end;
			at += n + 1;
			done = at;
		}
		return newlines;
	}
	/* Line by line while the lines' shapes were mostly seen before; a block of new shapes
	 * goes to the search below. */
	size_t tried = 0, missed = 0;
	while (ex->shapes_ok && at < end) {
		if (tried == 256) {
			if (missed * 4 > tried)
				break;
			tried = missed = 0;
		}
		size_t n = line_len(at, end);
		int known;
		struct line_shape *shape;
		uint64_t mask = line_rules(ex, at, n, &known, &shape);
		tried++;
		missed += !known;
		if (mask) {
			char *first, *last;
			size_t jl = wrap_join(ex, text, done, at, end, &first, &last);
			if (jl) {
				joined_line(ex, jl, first, at, lineno, mask, sink, ctx);
				size_t parts = in_count_lines(at, (size_t)(last - at));
				lineno += parts;
				newlines += parts;
				at = last;
				n = line_len(at, end);
			} else {
				line(ex, at, n - (n > 0 && at[n - 1] == '\r'), shape, lineno, mask, sink, ctx);
			}
		}
		lineno++;
		newlines += at + n < end;
		at += n + 1;
		if (mask)
			done = at;
	}
	if (at >= end)
		return newlines;
	/* Search the block for literals; only the lines they fall in are looked at, and lines
	 * are counted between them. Each search runs on from the last hit, so the hits after
	 * the first of a line show what other rules the line may be for, and the first past
	 * its end starts the next line. */
	const char *counted = at;
	lit_cursor_start(ex->cursor, text, len);
	size_t rule, hit = next_literal(ex, text, at, end, &rule);
	while (hit < (size_t)(end - at)) {
		char *start = memrchr(at, '\n', hit);
		start = start ? start + 1 : at;
		size_t n = line_len(start, end);
		char *line_end = start + n;
		uint64_t mask = 1ULL << rule;
		char *next = at + hit + 1;
		size_t next_rule = 0, more;
		while ((more = next_literal(ex, text, next, end, &next_rule)) < (size_t)(line_end - next)) {
			mask |= 1ULL << next_rule;
			next += more + 1;
		}
		size_t gap = in_count_lines(counted, (size_t)(start - counted));
		lineno += gap;
		newlines += gap;
		counted = start;
		char *first, *last;
		size_t jl = wrap_join(ex, text, done, start, end, &first, &last);
		if (jl) {
			/* the record's lines as one, numbered by its first; the search goes on past it */
			joined_line(ex, jl, first, start, lineno, mask, sink, ctx);
			line_end = last + line_len(last, end);
			at = line_end + (line_end < end);
			done = at;
			hit = next_literal(ex, text, at, end, &rule);
			continue;
		}
		line(ex, start, n - (n > 0 && start[n - 1] == '\r'), NULL, lineno, mask, sink, ctx);
		at = line_end + (line_end < end);
		done = at;
		hit = more == (size_t)(end - next) ? (size_t)(end - at) : (size_t)(next + more - at);
		rule = next_rule;
	}
	return newlines + in_count_lines(counted, (size_t)(end - counted));
}

void tput_ex_finish(tput_ex *ex, tput_sink *sink, void *ctx)
{
	struct bar_held *held = &ex->carry.held;
	size_t hn = held->np;
	held->np = 0;
	if (!hn)
		return;
	/* the input's only bar evidence: its figure is all there is to go by */
	int any = 0;
	for (size_t k = 0; k < BAR_TOTALS; k++)
		any |= ex->carry.bar_total[k] != 0;
	if (any)
		sink(ctx, held->lineno, TPUT_NOMATCH, NULL, "a progress bar seen in one frame only");
	else
		emit_points(ex, held->pts, hn, held->lineno, sink, ctx);
	flush_queue(ex, sink, ctx);
}

size_t tput_ex_inference_lines(const tput_ex *ex) { return ex->inference; }
size_t tput_ex_copies(const tput_ex *ex) { return ex->copies; }
