/* tputkey: key and unit words, looked up through tables derived from them once per reader. */
#include "tputkey.h"
#include "err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A word to look for, its length written down: lookups run for every figure of a line. */
struct kw {
	const char *text;      /* normalized: lower case, "_" for " -." */
	unsigned char len;
	unsigned char cls;     /* enum tputkey_class */
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
	KW("time_per_step", KV_TIME, 0), KW("time_per_batch", KV_TIME, 0), KW("step_avg", KV_TIME, 0), KW("batch_time", KV_TIME, 0),
	KW("batch_cost", KV_TIME, 0), KW("batch_(t)", KV_TIME, 2), KW("time_(data)", KV_TIME, 2), KW("ms/batch", KV_TIME, 2), KW("ms/step", KV_TIME, 2),
	KW("ms/iter", KV_TIME, 2), KW("ips", KV_SAMPLES, 2), KW("fps", KV_SAMPLES, 2),
	KW("perf/throughput", KV_TOKENS, 2),  /* verl's, per device (its preset says so) */
	KW("dt", KV_TIME, 2),  /* a step's time (nanochat) */
	KW("time/batch", KV_TIME, 2), KW("time/step", KV_TIME, 2), KW("time/iter", KV_TIME, 2),
	KW("time_iter", KV_TIME, 2),  /* GraphGym's mean time of an iteration */
	KW("imps", KV_IMAGES, 2),  /* images a second (IRN) */
	KW("sps", KV_ITERS, 2),  /* environment steps a second (CleanRL, acme) */
	KW("batchtime", KV_TIME, 2), KW("steptime", KV_TIME, 2),  /* Retinaface's "Batchtime: 0.2298 s" */
	KW("btime", KV_TIME, 2), KW("bch", KV_TIME, 2),  /* a batch's time, abbreviated: VISSL's "btime(ms)",
							  * wav2letter's "bch(ms)" */
	KW("bt", KV_TIME_SAID, 2),  /* SupContrast's meter "BT 0.430 (0.587)" beside "DT", its data's */
	KW("seconds", KV_TIME, 1), KW("time", KV_TIME_SAID, 2), KW("iter_time", KV_TIME_ITER, 2),
	KW("timer", KV_TIME_SAID, 2),  /* ssd.pytorch's "timer: 0.2051 sec." */
	KW("s/b", KV_TIME, 2),  /* seconds a batch (HiFi-GAN's "s/b : 1.128") */
	KW("updt_s", KV_TIME_SAID, 2),  /* LeRobot's update time beside its "data_s" */
	KW("train_time", KV_TIME_TRAIN, 2),
};

/* Units written after a figure (normalized), with the seconds per unit for times. */
#define KU(t, cls, scale, invert, gpu) { t, sizeof t - 1, cls, scale, invert, gpu }
static const struct {
	const char *text;
	unsigned char len;
	enum tputkey_class cls;
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
	KU("i/s", KV_ITERS, 1, 0, 0),  /* Julia's ProgressMeter (Knet): "17.36i/s]" */
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


size_t tputkey_norm(const char *s, size_t len, char *out, size_t cap)
{
	size_t n = 0;
	for (size_t i = 0; i < len && n + 1 < cap; i++) {
		char c = s[i];
		/* a CamelCase word starts a word of its own: "StepsPerSecond" as steps_per_second
		 * (not "GiB" or "TFLOPs": the capital must follow a small letter and lead one) */
		if (c >= 'A' && c <= 'Z' && i > 0 && s[i - 1] >= 'a' && s[i - 1] <= 'z' && i + 1 < len && s[i + 1] >= 'a' &&
		    s[i + 1] <= 'z' && n + 2 < cap)
			out[n++] = '_';
		if (c >= 'A' && c <= 'Z')
			c = (char)(c + 32);
		else if (c == ' ' || c == '-' || c == '.' || c == '\t')
			c = '_';
		if (c == '_' && (n == 0 || out[n - 1] == '_' || out[n - 1] == '/'))
			continue;
		if (c == '/' && n > 0 && out[n - 1] == '_')  /* "samples / sec": "samples/sec" */
			n--;
		out[n++] = c;
	}
	while (n > 0 && out[n - 1] == '_')
		n--;
	out[n] = '\0';
	return n;
}

static int kv_sep(char c) { return !tputbyte_alnum(c); }
static int composed(const char *unit, size_t ulen, struct tputkey_unit *out);

/* What a rate counts, as units and keys spell it ("utts/s", "record/second",
 * "sentences_per_sec"): the words, singular or plural, of each class. */
static const struct {
	const char *word;
	enum tputkey_class cls;
} unit_nouns[] = {
	{ "tok", KV_TOKENS }, { "toks", KV_TOKENS }, { "token", KV_TOKENS }, { "tokens", KV_TOKENS },
	{ "word", KV_TOKENS }, { "words", KV_TOKENS },
	{ "sample", KV_SAMPLES }, { "samples", KV_SAMPLES }, { "example", KV_SAMPLES }, { "examples", KV_SAMPLES },
	{ "ex", KV_SAMPLES }, { "seq", KV_SAMPLES }, { "seqs", KV_SAMPLES }, { "sequence", KV_SAMPLES },
	{ "sequences", KV_SAMPLES }, { "sent", KV_SAMPLES }, { "sents", KV_SAMPLES }, { "sentence", KV_SAMPLES },
	{ "sentences", KV_SAMPLES }, { "utt", KV_SAMPLES }, { "utts", KV_SAMPLES }, { "utterance", KV_SAMPLES },
	{ "utterances", KV_SAMPLES }, { "record", KV_SAMPLES }, { "records", KV_SAMPLES },
	{ "instance", KV_SAMPLES }, { "instances", KV_SAMPLES }, { "doc", KV_SAMPLES }, { "docs", KV_SAMPLES },
	{ "obs", KV_SAMPLES }, { "observation", KV_SAMPLES }, { "observations", KV_SAMPLES },  /* H2O's "obs/sec" */
	/* items of other kinds, each a sample: clips, graphs, rays, edges, patches ("frames" not: a
	 * video's rate is often a setting, "assuming 100 frames/sec") */
	{ "clip", KV_SAMPLES }, { "clips", KV_SAMPLES },
	{ "video", KV_SAMPLES }, { "videos", KV_SAMPLES }, { "graph", KV_SAMPLES }, { "graphs", KV_SAMPLES },
	{ "molecule", KV_SAMPLES }, { "molecules", KV_SAMPLES }, { "ray", KV_SAMPLES }, { "rays", KV_SAMPLES },
	{ "edge", KV_SAMPLES }, { "edges", KV_SAMPLES }, { "patch", KV_SAMPLES }, { "patches", KV_SAMPLES },
	{ "image", KV_IMAGES }, { "images", KV_IMAGES }, { "img", KV_IMAGES }, { "imgs", KV_IMAGES },
	{ "im", KV_IMAGES },  /* retinanet-examples' "32.1 im/s" */
	{ "pic", KV_IMAGES }, { "pics", KV_IMAGES },  /* PocketFlow's "72.74 pics / sec" */
	{ "it", KV_ITERS }, { "iter", KV_ITERS }, { "iters", KV_ITERS }, { "itr", KV_ITERS }, { "iteration", KV_ITERS },
	{ "iterations", KV_ITERS }, { "step", KV_ITERS }, { "steps", KV_ITERS }, { "update", KV_ITERS },
	{ "updates", KV_ITERS }, { "batch", KV_ITERS }, { "batches", KV_ITERS },
};

/* Milliseconds in a time unit as written ("s", "sec", "seconds", "us", "min"); 0 when none. */
static double unit_time_ms(const char *t, size_t n)
{
	static const struct { const char *word; double ms; } times[] = {
		{ "s", 1e3 }, { "sec", 1e3 }, { "secs", 1e3 }, { "second", 1e3 }, { "seconds", 1e3 },
		{ "ms", 1 }, { "msec", 1 }, { "us", 1e-3 }, { "usec", 1e-3 }, { "min", 6e4 }, { "minute", 6e4 },
		{ "h", 3.6e6 }, { "hr", 3.6e6 }, { "hour", 3.6e6 },
	};
	for (size_t i = 0; i < sizeof times / sizeof times[0]; i++)
		if (strlen(times[i].word) == n && memcmp(times[i].word, t, n) == 0)
			return times[i].ms;
	return 0;
}

static enum tputkey_class unit_noun_plain(const char *t, size_t n)
{
	for (size_t i = 0; i < sizeof unit_nouns / sizeof unit_nouns[0]; i++)
		if (strlen(unit_nouns[i].word) == n && memcmp(unit_nouns[i].word, t, n) == 0)
			return unit_nouns[i].cls;
	return KV_NONE;
}

/* The noun's class, and how many it counts: "kimg" is a thousand images (StyleGAN's
 * "sec/kimg"), "ktok" a thousand tokens. */
static enum tputkey_class unit_noun(const char *t, size_t n, double *many)
{
	*many = 1;
	enum tputkey_class cls = unit_noun_plain(t, n);
	if (cls == KV_NONE && n > 2 && t[0] == 'k' && (cls = unit_noun_plain(t + 1, n - 1)) != KV_NONE &&
	    cls != KV_ITERS)
		*many = 1000;
	return cls == KV_ITERS && *many != 1 ? KV_NONE : cls;
}

/* A unit made of a noun and a time (normalized): NOUN/TIME or NOUN_per_TIME, a rate;
 * TIME/NOUN or TIME_per_NOUN, its inverse (a step time when the noun is a step's);
 * "/gpu" or "/device" after either makes it per device. 1 with it in *out, else 0. */
int tputkey_compose(const char *u, size_t n, struct tputkey_unit *out)
{
	int gpu = 0;
	if (n > 4 && memcmp(u + n - 4, "/gpu", 4) == 0)
		n -= 4, gpu = 1;
	else if (n > 7 && memcmp(u + n - 7, "/device", 7) == 0)
		n -= 7, gpu = 1;
	else if (n > 5 && memcmp(u + n - 5, "/core", 5) == 0)  /* a TPU core's (big_vision) */
		n -= 5, gpu = 1;
	const char *sep = memchr(u, '/', n);
	size_t a = 0, b = 0;
	if (sep) {
		a = (size_t)(sep - u);
		b = a + 1;
	} else {
		for (size_t i = 0; i + 5 <= n; i++)
			if (memcmp(u + i, "_per_", 5) == 0) {
				a = i;
				b = i + 5;
				break;
			}
	}
	if (a == 0 || b >= n || memchr(u + b, '/', n - b))
		return 0;
	double many;
	enum tputkey_class cls = unit_noun(u, a, &many);
	double ms = unit_time_ms(u + b, n - b);
	if (cls != KV_NONE && ms > 0) {  /* a rate: per second */
		*out = (struct tputkey_unit){ cls, many * 1000 / ms, 0, gpu };
		return 1;
	}
	/* "s/10-batch": the time of a count of them (retinanet-examples) */
	size_t d = b;
	double count = 0;
	while (d < n && tputbyte_digit(u[d]) && d - b < 6)
		count = count * 10 + (u[d++] - '0');
	if (d > b && d + 1 < n && (u[d] == '-' || u[d] == '_') && count > 0)
		b = d + 1;
	else
		count = 1;
	cls = unit_noun(u + b, n - b, &many);
	ms = unit_time_ms(u, a) / count;
	if (cls == KV_NONE || ms <= 0)
		return 0;
	if (cls == KV_ITERS)  /* a time per step */
		*out = (struct tputkey_unit){ KV_TIME, ms, 0, 0 };
	else  /* a time per sample: its inverse, per second */
		*out = (struct tputkey_unit){ cls, many * 1000 / ms, 1, gpu };
	return 1;
}

int tputkey_items_rate(const char *u, size_t n, struct tputkey_unit *out)
{
	static const char *const sizes[] = { "b", "kb", "mb", "gb", "tb", "kib", "mib", "gib", "bytes", "bit", "bits" };
	const char *sep = memchr(u, '/', n);
	size_t a = sep ? (size_t)(sep - u) : 0;
	if (a == 0 || a > 12)
		return 0;
	for (size_t i = 0; i < a; i++)
		if (!tputbyte_alpha(u[i]))
			return 0;
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
		if (strlen(sizes[i]) == a && strncasecmp(u, sizes[i], a) == 0)
			return 0;
	double ms = unit_time_ms(u + a + 1, n - a - 1);
	if (ms <= 0)
		return 0;
	*out = (struct tputkey_unit){ KV_SAMPLES, 1000 / ms, 0, 0 };
	return 1;
}

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

/* May a word of kv_keys start with the bytes a, b (tputkey_tables.pairs)? */
static int kv_gate(const struct tputkey_tables *t, char a, char b)
{
	unsigned char x = (unsigned char)a, y = (unsigned char)b;
	return x < 128 && y < 128 && (t->pairs[x][y >> 6] >> (y & 63) & 1);
}

/* Is key "WORD total", a whole-key word and the qualifier that makes it the job's figure
 * (rl_games' "fps total: 181660" beside "fps step: 261574")? */
static int kv_total_of(const char *key, size_t klen, size_t wlen)
{
	return klen == wlen + 6 && memcmp(key + wlen, "_total", 6) == 0;
}

/* Is the rest of a key its unit in parentheses ("Time/Batch(ms)", "step_time (s)")? */
static int kv_unit_said(const char *rest)
{
	if (rest[0] == '_')
		rest++;
	return strcmp(rest, "(ms)") == 0 || strcmp(rest, "(s)") == 0;
}

/* The class of the earliest table word the key holds; one pass over the key, the table
 * looked at only where two letters may start a word of it (most keys name no rate). */
/* A key of words that say the time of one step and nothing else ("time_each_step", PaddleX;
 * "time per iteration", "mean_batch_time"): KV_TIME; else KV_NONE. */
static enum tputkey_class kv_step_time_words(const char *key)
{
	static const char *const steps[] = { "step", "iter", "iteration", "batch" };
	static const char *const glue[] = { "per", "each", "a", "one", "of", "avg", "mean", "average" };
	int time = 0, step = 0;
	for (const char *w = key; *w;) {
		while (*w && kv_sep(*w))
			w++;
		size_t n = 0;
		while (w[n] && !kv_sep(w[n]))
			n++;
		if (n == 0)
			break;
		int known = 0;
		if (n == 4 && memcmp(w, "time", 4) == 0)
			known = time = 1;
		for (size_t i = 0; !known && i < sizeof steps / sizeof steps[0]; i++)
			if (strlen(steps[i]) == n && memcmp(w, steps[i], n) == 0)
				known = step = 1;
		for (size_t i = 0; !known && i < sizeof glue / sizeof glue[0]; i++)
			known = strlen(glue[i]) == n && memcmp(w, glue[i], n) == 0;
		if (!known)
			return KV_NONE;
		w += n;
	}
	return time && step ? KV_TIME : KV_NONE;
}

static enum tputkey_class kv_key_class(const struct tputkey_tables *tables, const char *key)
{
	size_t klen = strlen(key), n = sizeof kv_keys / sizeof kv_keys[0], best = n;
	/* a tag's last part is its name: "_timers/_fps" (Catalyst), "charts/SPS" (CleanRL) */
	const char *slash = strrchr(key, '/');
	size_t name = slash && tputbyte_alpha(slash[1]) && unit_time_ms(slash + 1, strlen(slash + 1)) == 0 ? (size_t)(slash + 1 - key) : 0;
	while (name && key[name] == '_')
		name++;
	for (size_t i = 0; i + 1 < klen; i++) {
		if (!kv_gate(tables, key[i], key[i + 1]))
			continue;
		for (size_t t = 0; t < best; t++) {
			const struct kw *w = &kv_keys[t];
			if (w->text[0] != key[i] || w->text[1] != key[i + 1] || i + w->len > klen ||
			    memcmp(key + i, w->text, w->len) != 0)
				continue;
			if (w->word && !((i == 0 || kv_sep(key[i - 1])) && kv_sep(key[i + w->len])))
				continue;
			if (w->word == 2 && !(i == name && i + w->len == klen) &&
			    (i != 0 || (w->len != klen && !kv_total_of(key, klen, w->len) && !kv_unit_said(key + w->len))))
				continue;
			best = t;
			break;
		}
	}
	return best == n ? kv_step_time_words(key) : (enum tputkey_class)kv_keys[best].cls;
}

/* Does the key start with a word that is a rate when it is the whole key ("fps_step")? */
static int kv_rate_head(const char *key)
{
	for (size_t t = 0; t < sizeof kv_keys / sizeof kv_keys[0]; t++)
		if (kv_keys[t].word == 2 && kv_keys[t].cls != KV_TIME_SAID && strncmp(key, kv_keys[t].text, kv_keys[t].len) == 0 &&
		    key[kv_keys[t].len] == '_')
			return 1;
	return 0;
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

int tputkey_unit_word(const char *unit)
{
	return unit[0] == '\0' || (strcmp(unit, "ms") != 0 && strcmp(unit, "s") != 0 && strcmp(unit, "sec") != 0 &&
				    strcmp(unit, "%") != 0 && unit[0] != '%');
}

static const enum tput_unit unit_of[][2] = {
	[KV_TOKENS] = { TPUT_TOKENS_S, TPUT_TOKENS_S_GPU }, [KV_SAMPLES] = { TPUT_SAMPLES_S, TPUT_SAMPLES_S_GPU },
	[KV_IMAGES] = { TPUT_IMAGES_S, TPUT_SAMPLES_S_GPU },  /* an image per device: a sample */
	[KV_ITERS] = { TPUT_IT_S, TPUT_IT_S },
	[KV_TFLOPS] = { TPUT_TFLOPS, TPUT_TFLOPS_GPU }, [KV_GFLOPS] = { TPUT_TFLOPS, TPUT_TFLOPS_GPU },
	[KV_MFU] = { TPUT_MFU, TPUT_MFU }, [KV_TIME] = { TPUT_MS_STEP, TPUT_MS_STEP },
	[KV_TPS] = { TPUT_TPS, TPUT_TOKENS_S_GPU },
};


static int kv_step_rank(const char *key)
{
	size_t n = strlen(key);
	static const struct { const char *k; int rank; } steps[] = {
		{ "global_step", 4 }, { "num_updates", 3 }, { "step", 2 }, { "iter", 2 }, { "iters", 2 }, { "iteration", 2 },
		{ "batch", 2 }, { "updates", 2 },  /* pytorch-a2c-ppo-acktr's "Updates 10, num timesteps 3520" */
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
	/* a GAN's two: "Loss_D", "Err_G" (DCGAN); a loss's part by its letter: torchreid's
	 * "loss_t" (triplet) and "loss_x" (cross-entropy) */
	int gan = ((n == 5 && strncmp(key, "err_", 4) == 0) || (n == 4 && strncmp(key, "err", 3) == 0)) &&
		  (key[n - 1] == 'd' || key[n - 1] == 'g');
	gan |= n == 6 && strncmp(key, "loss_", 5) == 0 && key[5] >= 'a' && key[5] <= 'z';
	/* the whole loss named after the word: "Loss_all" (SRT), "loss_total" */
	int whole = strcmp(key, "loss_all") == 0 || strcmp(key, "loss_total") == 0 || strcmp(key, "loss_sum") == 0;
	if (!((n >= 4 && strcmp(key + n - 4, "loss") == 0) || strcmp(key, "xent") == 0 || strcmp(key, "loss_train") == 0 ||
	      strstr(key, "loss/train") != NULL || gan || whole))
		return 0;
	return !kv_words(key, kv_skip_words + 3, 5);  /* eval, val, valid, validation, test */
}

static void kv_key_info(const struct tputkey_tables *tables, const char *key, struct tputkey_info *ki)
{
	ki->kcls = (unsigned char)kv_key_class(tables, key);
	struct tputkey_unit cu;
	ki->gpu = 0;
	ki->kscale = 1;
	ki->kinvert = 0;
	ki->composed = ki->kcls == KV_NONE && composed(key, strlen(key), &cu);
	if (ki->composed) {  /* "sec/kimg 253.5": the key is the unit */
		ki->kcls = (unsigned char)cu.cls;
		ki->kscale = cu.scale;
		ki->kinvert = (unsigned char)cu.invert;
		ki->gpu = (unsigned char)cu.gpu;
	}
	/* a key of a rate or a time ("time_per_step", "ms/batch", rl_games' "fps step") names no step */
	ki->srank = ki->kcls == KV_NONE && !kv_rate_head(key) ? (unsigned char)kv_step_rank(key) : 0;
	ki->loss = (unsigned char)kv_is_loss(key);
	ki->compound = strchr(key, '_') != NULL || strchr(key, '/') != NULL;
	ki->infer = (unsigned char)kv_words(key, INFER_WORDS);
	size_t klen = strlen(key);
	int rate_total = ki->kcls != KV_NONE && klen > 6 && kv_total_of(key, klen, klen - 6);
	/* an elapsed time is a clock's unless it says per what ("elapsed_time_per_iteration") */
	int clock = kv_has(key, "elapsed", 1) && !strstr(key, "per");
	/* "number of devices", "Number of model parameters for MFU": a count, never a rate */
	int count = kv_has(key, "number", 1);
	ki->skip = (kv_words(key, SKIP_WORDS) && !rate_total) || strncmp(key, "val_", 4) == 0 || strncmp(key, "eval_", 5) == 0 ||
		   kv_partial(key) || clock || count;
	ki->gpu = ki->gpu || kv_has(key, "device", 0) || kv_has(key, "gpu", 0) || kv_has(key, "core", 1) ||
		  (klen > 4 && strcmp(key + klen - 4, "/dev") == 0);  /* "tok/s/dev" */
	ki->running = kv_has(key, "running", 0) != 0;
	ki->avg = kv_has(key, "avg", 0) != 0;
	ki->ms = kv_has(key, "(ms)", 0) || kv_has(key, "ms", 1);
	ki->secs = kv_has(key, "in_s", 0) || kv_has(key, "(s)", 0);
	ki->side = kv_has(key, "features", 1) ? 1 : kv_has(key, "labels", 1) ? 2 : 0;
	ki->evals = (unsigned char)kv_words(key, kv_skip_words + 3, 5);
	ki->said_unit = strncmp(key, "time/", 5) == 0 && !strstr(key, "(ms)") && !strstr(key, "(s)");
	ki->rate_key = strcmp(key, "speed") == 0 || strcmp(key, "throughput") == 0;
	ki->step_time = strcmp(key, "step_time") == 0 || strcmp(key, "time_per_step") == 0 ||
			strcmp(key, "iteration_time") == 0 || strcmp(key, "time_per_iteration") == 0;
	ki->part = strcmp(key, "data_time") == 0 || strcmp(key, "datatime") == 0 || strcmp(key, "data_s") == 0 || strcmp(key, "data") == 0 || strcmp(key, "forward_time") == 0 ||
		   strcmp(key, "backward_time") == 0;
}


/* The two-way set of table for key[0, len). */
static struct tputkey_slot *kv_set(struct tputkey_slot (*table)[2], const char *key, size_t len)
{
	return table[tputbyte_set(key, len)];
}

/* The entry of key[0, len) in a set, or NULL. */
static struct tputkey_slot *kv_find(struct tputkey_slot *set, const char *key, size_t len)
{
	for (int w = 0; w < 2; w++)
		if (set[w].klen == len && memcmp(set[w].key, key, len) == 0)
			return &set[w];
	return NULL;
}

/* Room for key[0, len) in a set: the newest first, the one before kept. */
static struct tputkey_slot *kv_put(struct tputkey_slot *set, const char *key, size_t len)
{
	set[1] = set[0];
	set[0].klen = (unsigned char)len;
	memcpy(set[0].key, key, len);
	return &set[0];
}

const struct tputkey_info *tputkey_lookup(struct tputkey_cache *cache, const struct tputkey_tables *tables,
					  const char *raw, size_t rawlen, struct tputkey_info *tmp)
{
	char key[TPUTKEY_KEYMAX];
	if (!cache || rawlen >= TPUTKEY_KEYMAX) {  /* no cache, or a key no slot holds */
		tputkey_norm(raw, rawlen, key, sizeof key);
		kv_key_info(tables, key, tmp);
		return tmp;
	}
	struct tputkey_slot *set = kv_set(cache->slot, raw, rawlen), *hit = kv_find(set, raw, rawlen);
	if (hit)
		return &hit->ki;
	struct tputkey_slot *slot = kv_put(set, raw, rawlen);
	size_t n = tputkey_norm(raw, rawlen, key, sizeof key), m = 0;
	for (size_t i = 0; i < n; i++)
		if (!tputbyte_digit(key[i]) || m == 0 || !tputbyte_digit(key[m - 1]))
			key[m++] = tputbyte_digit(key[i]) ? '0' : key[i];
	key[m] = '\0';
	struct tputkey_slot *sset = kv_set(cache->shape, key, m), *shape = kv_find(sset, key, m);
	if (!shape) {
		shape = kv_put(sset, key, m);
		kv_key_info(tables, key, &shape->ki);
	}
	slot->ki = shape->ki;
	return &slot->ki;
}

/* Fail loudly on a table word the derived tables cannot hold: it would never be found. */
static void table_word(const char *what, const char *text, size_t len, int ok)
{
	if (!ok) {
		err_warn("tputkey: %s '%.*s' out of the lookup tables' range", what, (int)len, text);
		abort();
	}
}

void tputkey_tables_init(struct tputkey_tables *t)
{
	memset(t, 0, sizeof *t);
	for (size_t u = 0; u < sizeof kv_units / sizeof kv_units[0]; u++) {
		unsigned char c = (unsigned char)kv_units[u].text[0];
		table_word("unit", kv_units[u].text, kv_units[u].len, kv_units[u].len < 8 * sizeof t->unit_lens[0]);
		t->unit_lens[c] |= 1u << kv_units[u].len;
	}
	for (size_t k = 0; k < sizeof kv_keys / sizeof kv_keys[0]; k++) {
		unsigned char a = (unsigned char)kv_keys[k].text[0], b = (unsigned char)kv_keys[k].text[1];
		table_word("key", kv_keys[k].text, kv_keys[k].len, kv_keys[k].len >= 2 && a < 128 && b < 128);
		t->pairs[a][b >> 6] |= 1ULL << (b & 63);
	}
}

void tputkey_cache_init(struct tputkey_cache *cache)
{
	memset(cache->slot, 0, sizeof cache->slot);
	memset(cache->shape, 0, sizeof cache->shape);
	tputkey_tables_init(&cache->tables);
}

/* A unit the table lacks, composed when it has the shape of one. */
static int composed(const char *unit, size_t ulen, struct tputkey_unit *out)
{
	return (memchr(unit, '/', ulen) || memmem(unit, ulen, "_per_", 5)) && tputkey_compose(unit, ulen, out);
}

int tputkey_unit(const struct tputkey_tables *t, const char *unit, size_t ulen, struct tputkey_unit *out)
{
	unsigned char c = (unsigned char)unit[0];
	if (ulen >= 8 * sizeof t->unit_lens[0] || !(t->unit_lens[c] >> ulen & 1))
		return composed(unit, ulen, out);  /* most words after a figure: no unit */
	for (size_t u = 0; u < sizeof kv_units / sizeof kv_units[0]; u++)
		if (kv_units[u].len == ulen && unit[0] == kv_units[u].text[0] && memcmp(unit, kv_units[u].text, ulen) == 0) {
			*out = (struct tputkey_unit){ kv_units[u].cls, kv_units[u].scale, kv_units[u].invert, kv_units[u].gpu };
			return 1;
		}
	return composed(unit, ulen, out);
}

enum tput_unit tputkey_unit_of(enum tputkey_class cls, int gpu) { return unit_of[cls][gpu != 0]; }
