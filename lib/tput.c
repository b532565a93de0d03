/* tput: presets for the training-log shapes in the formats table, and the traps around them. */
#include "tput.h"
#include "input.h"
#include "lit.h"
#include "rx.h"
#include "xalloc.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *const tput_unit_names[] = {
	"tokens/s", "tokens/s/gpu", "samples/s", "samples/s/gpu", "it/s",
	"TFLOP/s", "TFLOP/s/gpu", "ms/step", "MFU%", "value", NULL,
};

int tput_unit_lower_is_better(enum tput_unit unit) { return unit == TPUT_MS_STEP; }

static const struct {
	const char *text;
	enum tput_unit unit;
	double scale;
	int invert;
} unit_aliases[] = {
	{ "tok/s", TPUT_TOKENS_S, 1, 0 }, { "tokens/s", TPUT_TOKENS_S, 1, 0 },
	{ "tok/sec", TPUT_TOKENS_S, 1, 0 }, { "tokens/sec", TPUT_TOKENS_S, 1, 0 },
	{ "tokens per second", TPUT_TOKENS_S, 1, 0 }, { "tokens_per_sec", TPUT_TOKENS_S, 1, 0 },
	{ "wps", TPUT_TOKENS_S, 1, 0 },
	{ "tokens/s/gpu", TPUT_TOKENS_S_GPU, 1, 0 }, { "tok/s/gpu", TPUT_TOKENS_S_GPU, 1, 0 },
	{ "tokens/s/device", TPUT_TOKENS_S_GPU, 1, 0 }, { "tps", TPUT_TOKENS_S_GPU, 1, 0 },
	{ "tokens_per_sec_per_gpu", TPUT_TOKENS_S_GPU, 1, 0 },
	{ "samples/s", TPUT_SAMPLES_S, 1, 0 }, { "samples/sec", TPUT_SAMPLES_S, 1, 0 },
	{ "samples per second", TPUT_SAMPLES_S, 1, 0 }, { "SamplesPerSec", TPUT_SAMPLES_S, 1, 0 },
	{ "samples/s/gpu", TPUT_SAMPLES_S_GPU, 1, 0 }, { "samples/s/device", TPUT_SAMPLES_S_GPU, 1, 0 },
	{ "it/s", TPUT_IT_S, 1, 0 }, { "steps/s", TPUT_IT_S, 1, 0 }, { "ups", TPUT_IT_S, 1, 0 },
	{ "s/it", TPUT_IT_S, 1, 1 },
	{ "TFLOP/s", TPUT_TFLOPS, 1, 0 }, { "TFLOPs", TPUT_TFLOPS, 1, 0 },
	{ "TFLOP/s/gpu", TPUT_TFLOPS_GPU, 1, 0 }, { "TFLOP/s/device", TPUT_TFLOPS_GPU, 1, 0 },
	{ "TFLOPS_per_GPU", TPUT_TFLOPS_GPU, 1, 0 }, { "tflops/gpu", TPUT_TFLOPS_GPU, 1, 0 },
	{ "ms", TPUT_MS_STEP, 1, 0 }, { "ms/step", TPUT_MS_STEP, 1, 0 }, { "ms/it", TPUT_MS_STEP, 1, 0 },
	{ "s", TPUT_MS_STEP, 1000, 0 }, { "s/step", TPUT_MS_STEP, 1000, 0 },
	{ "%", TPUT_MFU, 1, 0 }, { "MFU%", TPUT_MFU, 1, 0 }, { "mfu", TPUT_MFU, 1, 0 },
	{ "value", TPUT_VALUE, 1, 0 },
};

int tput_unit_parse(const char *text, size_t len, enum tput_unit *unit, double *scale, int *invert)
{
	for (size_t i = 0; i < sizeof unit_aliases / sizeof unit_aliases[0]; i++) {
		if (strlen(unit_aliases[i].text) == len && strncasecmp(unit_aliases[i].text, text, len) == 0) {
			*unit = unit_aliases[i].unit;
			*scale = unit_aliases[i].scale;
			*invert = unit_aliases[i].invert;
			return 1;
		}
	}
	return 0;
}

/* Value tokens are taken loosely and judged by tput_parse_number, so a garbled figure is
 * a bad line to report rather than a silent miss. */
#define VAL "[^\\s|,]+"
#define VALC "[^\\s|]+"   /* may hold thousands separators */
/* On to the start of a later field of a " | "-separated line (Megatron's): hopping field
 * to field costs the JIT far less than ".*?" does. */
#define FIELDS "(?:[^|]*+\\|)*?\\s*"

const struct tput_preset tput_presets[] = {
	{ "megatron-deepspeed", "Megatron-DeepSpeed", { "samples per second:", NULL },
	  "\\biteration\\s+(?<step>\\d+)/\\s*\\d+\\s*\\|(?:(?=" FIELDS "lm loss: (?<loss>" VAL ")))?"
	  FIELDS "samples per second: (?<tput>" VAL ")",
	  "samples/s", 1,
	  " iteration       10/     100 | consumed samples:           80 | elapsed time per iteration (ms): 2310.7 | lm loss: 1.085E+01 | samples per second: 3.462 | TFLOPs: 45.07 |" },
	{ "megatron", "Megatron-LM", { "elapsed time per iteration (ms):", NULL },
	  "\\biteration\\s+(?<step>\\d+)/\\s*\\d+\\s*\\|(?:(?=" FIELDS "lm loss: (?<loss>" VAL ")))?"
	  "(?|(?=" FIELDS "throughput per GPU \\((?<unit>TFLOP/s/GPU)\\): (?<tput>" VAL "))"
	  "|" FIELDS "elapsed time per iteration \\((?<unit>ms)\\): (?<tput>" VAL "))",
	  NULL, 1,
	  " iteration       20/    1000 | consumed samples:         2560 | elapsed time per iteration (ms): 1572.7 | throughput per GPU (TFLOP/s/GPU): 402.1 | lm loss: 1.210E+01 |" },
	{ "torchtitan", "torchtitan", { "tps: ", NULL },
	  "\\bstep:\\s*(?<step>\\d+)\\s+loss:\\s*(?<loss>\\S+)\\s.*?\\btps:\\s*(?<tput>\\S+)",
	  "tokens/s/gpu", 1,
	  "step: 10  loss:  7.9012  memory: 30.10GiB(38.05%)  tps: 5,856  tflops: 301.20  mfu: 30.45%" },
	{ "nanogpt", "nanoGPT", { ", time ", NULL },
	  "\\biter (?<step>\\d+): loss (?<loss>[^\\s,]+), time (?<tput>\\S+?)(?<unit>ms)\\b",
	  NULL, 1, "iter 100: loss 2.3041, time 120.52ms, mfu 30.21%" },
	{ "llmc", "llm.c", { " tok/s", NULL },
	  "\\bstep\\s+(?<step>\\d+)/\\d+ \\| loss (?<loss>[^\\s|(]+).*\\|\\s*(?<tput>" VALC ") tok/s",
	  "tokens/s", 1,
	  "step    1/74 | loss 11.010010 (+nanz)| norm 15.3524 (+nanz)| lr 8.57e-07 | 512.30 ms | 45.1% bf16 MFU | 1023456 tok/s" },
	{ "nanochat", "nanochat", { "tok/sec: ", NULL },
	  "\\bstep (?<step>\\d+)/\\d+.*?\\| loss: (?<loss>" VAL ").*?\\btok/sec: (?<tput>" VALC ")",
	  "tokens/s", 1,
	  "step 00004/21400 (0.02%) | loss: 9.107421 | lrm: 1.00 | dt: 990.20ms | tok/sec: 529,882 | mfu: 41.02 | total time: 0.05m" },
	{ "modded-nanogpt", "modded-nanogpt", { "step_avg:", NULL },
	  "\\bstep:(?<step>\\d+)/\\d+ train_loss:(?<loss>\\S+) train_time:(?<time>[^\\sa-z]+)ms"
	  " step_avg:(?<tput>\\S+?)(?<unit>ms)\\b",
	  NULL, 0.001, "step:193/6000 train_loss:4.8400 train_time:67428ms step_avg:368.46ms" },
	{ "hf-trainer", "HF Trainer (summary)", { "'train_samples_per_second': ", NULL },
	  "'train_samples_per_second': (?<tput>[^\\s,}]+)(?:.*?'train_loss': (?<loss>[^\\s,}]+))?",
	  "samples/s", 1,
	  "{'train_runtime': 900.1, 'train_samples_per_second': 35.55, 'train_steps_per_second': 0.009, 'train_loss': 2.31, 'epoch': 1.0}" },
	{ "tqdm", "tqdm (HF Trainer, Lightning)", { "it/s", "s/it", NULL },
	  "^(?![^|]*(?i:load|checkpoint|shard|download|fetch|tokeni|map|filter|eval|predict|valid))"
	  ".*?(?<step>\\d+)/\\d+ \\[[\\d:]+<[\\d:?]+,\\s*(?<tput>[0-9][^\\s,\\]]*?)(?<unit>it/s|s/it)"
	  "(?:[^\\]]*?\\bloss=(?<loss>[^\\s,\\]]+))?",
	  NULL, 1, " 37%|###7      | 370/1000 [01:02<01:45,  5.97it/s, loss=2.1]" },
	{ "deepspeed", "DeepSpeed", { "CurrSamplesPerSec=", NULL },
	  "(?:\\bglobal_step=(?<step>\\d+),.*?)?\\bCurrSamplesPerSec=(?<tput>" VAL ")",
	  "samples/s", 1,
	  "[Rank 0] time (ms) | global_step=100, RunningAvgSamplesPerSec=48.1, CurrSamplesPerSec=49.2, MemAllocated=6.1GB" },
	{ "fairseq", "fairseq", { "wps=", NULL },
	  "\\bloss=(?<loss>" VAL ").*?\\bwps=(?<tput>" VAL ").*?\\bnum_updates=(?<step>\\d+)"
	  "(?:.*?\\btrain_wall=(?<time>" VAL "))?",
	  "tokens/s", 1,
	  "epoch 001:    100 / 1000 loss=9.1, nll_loss=8.9, ppl=478, wps=51234, ups=2.1, wpb=24k, bsz=64, num_updates=100, lr=1e-05, gnorm=1.2, train_wall=45, wall=50" },
	{ "maxtext", "MaxText", { "Tokens/s/device: ", NULL },
	  "\\bcompleted step: (?<step>\\d+),.*?\\bTokens/s/device: (?<tput>" VAL ")"
	  "(?:.*?\\bloss: (?<loss>" VAL "))?",
	  "tokens/s/gpu", 1,
	  "completed step: 12, seconds: 1.234, TFLOP/s/device: 301.2, Tokens/s/device: 6640.1, total_weights: 65536, loss: 9.8" },
	{ "nemo", "NeMo 2", { "TFLOPS_per_GPU: ", NULL },
	  "\\bglobal_step: (?<step>\\d+)(?:.*?\\breduced_train_loss: (?<loss>" VAL "))?"
	  ".*?\\bTFLOPS_per_GPU: (?<tput>" VAL ")",
	  "TFLOP/s/gpu", 1,
	  "Training epoch 0, iteration 9/99 | lr: 1e-05 | global_step: 9 | reduced_train_loss: 9.1 | train_step_timing in s: 1.23 | TFLOPS_per_GPU: 1.249e+03" },
	{ "nanotron", "nanotron", { "tokens_per_sec: ", NULL },
	  "\\biteration: (?<step>\\d+) / \\d+.*?\\btokens_per_sec: (?<tput>" VAL ")"
	  "(?:.*?\\blm_loss: (?<loss>" VAL "))?",
	  "tokens/s", 1,
	  "iteration: 10 / 100 | consumed_tokens: 81.9K | elapsed_time_per_iteration_ms: 4.71K | tokens_per_sec: 43.2K | tokens_per_sec_per_gpu: 5.4K | lm_loss: 10.8" },
	{ "generic", "custom (any N tok/s)", { "tok/s", "tokens/s", "samples/s", "tokens per second" },
	  "(?:\\bstep[ :=]\\s*(?<step>\\d+)\\b.*?)?(?<![\\w.,])(?<tput>nan|[0-9][0-9.,]*(?:[eE][-+]?[0-9]+)?[KMGTkmgt]?)"
	  "\\s*(?<unit>tok(?:ens)?/s(?:ec)?|tokens per second|samples/s(?:ec)?)\\b",
	  NULL, 1, "step 40 | 14.5K tok/s" },
};
const size_t tput_npresets = sizeof tput_presets / sizeof tput_presets[0];

int tput_preset_find(const char *name)
{
	for (size_t i = 0; i < tput_npresets; i++)
		if (strcmp(tput_presets[i].name, name) == 0)
			return (int)i;
	return -1;
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static const double pow10_exact[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
				      1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };

enum tput_num tput_parse_number(const char *s, size_t len, double *value)
{
	while (len > 0 && (*s == ' ' || *s == '\t')) {
		s++;
		len--;
	}
	while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == ',' || s[len - 1] == ';'))
		len--;
	size_t i = 0;
	int neg = 0;
	if (i < len && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';
	if (len - i == 3 && strncasecmp(s + i, "nan", 3) == 0) {
		*value = NAN;
		return TPUT_NUM_NAN;
	}
	/* One pass: the digits without separators ("12,345": groups of three) go to buf for
	 * strtod, and to a mantissa m for the common case that needs no strtod. */
	char buf[64];
	size_t n = 0, digits = 0, group = 0;
	int commas = 0, frac = 0;
	unsigned long long m = 0;
	for (; i < len && (is_digit(s[i]) || s[i] == ','); i++) {
		if (s[i] == ',') {
			if (digits == 0 || (commas && group != 3) || (!commas && group > 3))
				return TPUT_NUM_BAD;
			commas = 1;
			group = 0;
			continue;
		}
		if (n >= sizeof buf - 16)
			return TPUT_NUM_BAD;
		buf[n++] = s[i];
		m = m * 10 + (unsigned)(s[i] - '0');
		digits++;
		group++;
	}
	if (commas && group != 3)
		return TPUT_NUM_BAD;
	if (i < len && s[i] == '.') {
		buf[n++] = s[i++];
		for (; i < len && is_digit(s[i]) && n < sizeof buf - 8; i++, digits++, frac++) {
			buf[n++] = s[i];
			m = m * 10 + (unsigned)(s[i] - '0');
		}
	}
	if (digits == 0)
		return TPUT_NUM_BAD;
	int exponent = 0;
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		size_t j = i + 1;
		if (j < len && (s[j] == '-' || s[j] == '+'))
			j++;
		if (j >= len || !is_digit(s[j]))
			return TPUT_NUM_BAD;
		exponent = 1;
		buf[n++] = 'e';
		for (i++; i < len && (is_digit(s[i]) || s[i] == '-' || s[i] == '+') && n < sizeof buf - 2; i++)
			buf[n++] = s[i];
	}
	buf[n] = '\0';
	double mult = 1;
	if (i < len) {
		switch (s[i]) {
		case 'k': case 'K': mult = 1e3; break;
		case 'M': mult = 1e6; break;
		case 'G': mult = 1e9; break;
		case 'T': mult = 1e12; break;
		default: return TPUT_NUM_BAD;
		}
		i++;
	}
	if (i != len)
		return TPUT_NUM_BAD;
	double v;
	/* Clinger's fast path: a mantissa below 2^53 over an exact power of ten rounds once,
	 * as strtod does. Anything else goes to strtod. */
	if (!exponent && digits <= 15 && m < (1ULL << 53) && frac <= 22) {
		v = (double)m / pow10_exact[frac];
	} else {
		char *end;
		v = strtod(buf, &end);
		if (*end != '\0')
			return TPUT_NUM_BAD;
	}
	if (!isfinite(v))
		return TPUT_NUM_BAD;
	*value = (neg ? -v : v) * mult;
	return TPUT_NUM_OK;
}

size_t tput_strip_ansi(char *s, size_t len)
{
	size_t out = 0;
	for (size_t i = 0; i < len;) {
		if (s[i] == '\x1b' && i + 1 < len && s[i + 1] == '[') {
			/* CSI: parameters and intermediates, then one final byte in @..~ */
			size_t j = i + 2;
			while (j < len && (unsigned char)s[j] >= 0x20 && (unsigned char)s[j] <= 0x3f)
				j++;
			while (j < len && (unsigned char)s[j] >= 0x20 && (unsigned char)s[j] <= 0x2f)
				j++;
			i = j < len ? j + 1 : j;
			continue;
		}
		if (s[i] == '\x1b') {
			i += i + 1 < len ? 2 : 1;
			continue;
		}
		s[out++] = s[i++];
	}
	if (out < len)
		s[out] = '\0';
	return out;
}

static size_t read_uint(const char *s, size_t len, size_t i, long *v)
{
	size_t start = i;
	long x = 0;
	while (i < len && is_digit(s[i]) && i - start < 9)
		x = x * 10 + (s[i++] - '0');
	if (i == start || (i < len && is_digit(s[i])))
		return 0;
	*v = x;
	return i - start;
}

size_t tput_rank_prefix(const char *s, size_t len, long *rank_out)
{
	size_t i = 0, n;
	long r = -1, *rank = &r;  /* written through only when a prefix is found */
	size_t took = 0;
	if (len > 0 && s[0] == '[') {
		/* [rankN]: and [defaultN]: (torchrun --tee / log prefixes) */
		static const char *const words[] = { "rank", "default" };
		for (size_t w = 0; w < 2; w++) {
			size_t wl = strlen(words[w]);
			if (len > wl + 1 && memcmp(s + 1, words[w], wl) == 0 &&
			    (n = read_uint(s, len, 1 + wl, rank)) > 0 && 1 + wl + n + 1 < len &&
			    s[1 + wl + n] == ']' && s[2 + wl + n] == ':') {
				took = 3 + wl + n + (3 + wl + n < len && s[3 + wl + n] == ' ');
				break;
			}
		}
	} else if (len > 7 && memcmp(s, "worker", 6) == 0) {
		i = 6 + (s[6] == '-' || s[6] == '_');
		if ((n = read_uint(s, len, i, rank)) > 0 && i + n < len && s[i + n] == ':')
			took = i + n + 1 + (i + n + 1 < len && s[i + n + 1] == ' ');
	} else if ((n = read_uint(s, len, 0, rank)) > 0 && n + 1 < len && s[n] == ':' && s[n + 1] == ' ') {
		/* srun -l: "N: " (the space tells it from a clock "12:00:00") */
		took = n + 2;
	}
	if (took)
		*rank_out = r;
	return took;
}

/* Days since 1970-01-01 of a proleptic Gregorian date. */
static long days_from_civil(long y, long m, long d)
{
	y -= m <= 2;
	long era = (y >= 0 ? y : y - 399) / 400;
	long yoe = y - era * 400;
	long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* Fixed-width digits at s[i..i+width). */
static int fixed(const char *s, size_t len, size_t i, size_t width, long *v)
{
	if (i + width > len)
		return 0;
	long x = 0;
	for (size_t k = 0; k < width; k++) {
		if (!is_digit(s[i + k]))
			return 0;
		x = x * 10 + (s[i + k] - '0');
	}
	*v = x;
	return 1;
}

/* "HH:MM:SS" then an optional fraction after '.' or ','. */
static size_t clock_at(const char *s, size_t len, size_t i, double *secs)
{
	long h, mi, se;
	if (!fixed(s, len, i, 2, &h) || i + 2 >= len || s[i + 2] != ':' || !fixed(s, len, i + 3, 2, &mi) ||
	    i + 5 >= len || s[i + 5] != ':' || !fixed(s, len, i + 6, 2, &se) || h > 23 || mi > 59 || se > 60)
		return 0;
	size_t j = i + 8;
	double frac = 0, scale = 0.1;
	if (j + 1 < len && (s[j] == '.' || s[j] == ',') && is_digit(s[j + 1]))
		for (j++; j < len && is_digit(s[j]); j++, scale /= 10)
			frac += (s[j] - '0') * scale;
	*secs = (double)(h * 3600 + mi * 60 + se) + frac;
	return j - i;
}

size_t tput_timestamp(const char *s, size_t len, double *seconds)
{
	size_t i = len > 0 && s[0] == '[' ? 1 : 0;
	long y, mo, d;
	double clock;
	size_t n;
	if (fixed(s, len, i, 4, &y) && i + 10 < len && s[i + 4] == '-' && fixed(s, len, i + 5, 2, &mo) &&
	    s[i + 7] == '-' && fixed(s, len, i + 8, 2, &d) && (s[i + 10] == 'T' || s[i + 10] == ' ') &&
	    (n = clock_at(s, len, i + 11, &clock)) > 0) {
		size_t j = i + 11 + n;
		double offset = 0;
		long oh, om;
		if (j < len && s[j] == 'Z') {
			j++;
		} else if (j + 5 < len + 0 && (s[j] == '+' || s[j] == '-') && fixed(s, len, j + 1, 2, &oh)) {
			size_t k = j + 3 + (s[j + 3] == ':');
			if (fixed(s, len, k, 2, &om)) {
				offset = (s[j] == '-' ? -1 : 1) * (double)(oh * 3600 + om * 60);
				j = k + 2;
			}
		}
		*seconds = (double)days_from_civil(y, mo, d) * 86400 + clock - offset;
		return j;
	}
	/* glog: [IWEF]MMDD HH:MM:SS.uuuuuu */
	if (i < len && strchr("IWEF", s[i]) && s[i] && fixed(s, len, i + 1, 2, &mo) &&
	    fixed(s, len, i + 3, 2, &d) && i + 5 < len && s[i + 5] == ' ' &&
	    (n = clock_at(s, len, i + 6, &clock)) > 0) {
		*seconds = (double)days_from_civil(1970, mo, d) * 86400 + clock;
		return i + 6 + n;
	}
	/* MM/DD/YYYY HH:MM:SS (nanotron's logger) */
	if (fixed(s, len, i, 2, &mo) && i + 10 < len && s[i + 2] == '/' && fixed(s, len, i + 3, 2, &d) &&
	    s[i + 5] == '/' && fixed(s, len, i + 6, 4, &y) && s[i + 10] == ' ' &&
	    (n = clock_at(s, len, i + 11, &clock)) > 0) {
		*seconds = (double)days_from_civil(y, mo, d) * 86400 + clock;
		return i + 11 + n;
	}
	return 0;
}

struct rule {
	rx *re;
	char *name;
	long preset;           /* index in tput_presets; -1 for a custom pattern */
	const char *literals[4];
	size_t litlen[4];
	size_t nlits;
	const char *unit;
	enum tput_unit fixed_unit;  /* unit, scale and inversion of `unit`, read once */
	double fixed_scale;
	int fixed_invert;
	double time_scale;
	int g_tput, g_unit, g_step, g_time, g_loss, g_rank;  /* group numbers, -1 when absent */
};

struct tput_ex {
	struct rule *rules;
	size_t n, cap;
	lit_set *literals;     /* every rule's, the rule's index as id */
	int any_unfiltered;    /* a rule without literals: every line goes to the regexes */
};

tput_ex *tput_ex_new(void)
{
	tput_ex *ex = xcalloc(1, sizeof(tput_ex));
	ex->literals = lit_new();
	return ex;
}

void tput_ex_free(tput_ex *ex)
{
	if (!ex)
		return;
	for (size_t i = 0; i < ex->n; i++) {
		rx_free(ex->rules[i].re);
		free(ex->rules[i].name);
	}
	free(ex->rules);
	lit_free(ex->literals);
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
}

static void fix_unit(struct rule *r)
{
	if (r->unit && !tput_unit_parse(r->unit, strlen(r->unit), &r->fixed_unit, &r->fixed_scale,
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
	const struct tput_preset *p = &tput_presets[index];
	char err[256];
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
	fix_unit(r);
	for (size_t k = 0; k < r->nlits; k++)
		lit_add(ex->literals, r->literals[k], r->litlen[k], (unsigned)(ex->n - 1));
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

/* Leftmost literal of any rule in s[0, len): its offset (len when none), its rule in *rule. */
static size_t find_literal(const tput_ex *ex, const char *s, size_t len, size_t *rule)
{
	unsigned id = 0;
	size_t at = lit_find(ex->literals, s, len, &id);
	*rule = id;
	return at;
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

struct line_ctx {
	int split;
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
		if (!tput_unit_parse(g, gl, &unit, &scale, &invert)) {
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
	enum tput_num num = tput_parse_number(g, gl, &v);
	if (num == TPUT_NUM_NAN)
		return TPUT_NAN;
	if (num == TPUT_NUM_BAD || v < 0 || (invert && v == 0)) {
		snprintf(why, whylen, "bad throughput '%.*s'", (int)(gl > 40 ? 40 : gl), g);
		return TPUT_BAD;
	}
	pt->value = (invert ? 1 / v : v) * scale;
	/* Steps and ranks too big for their type stay unknown: the cast would be undefined. */
	if (rx_group_at(r->re, r->g_step, &g, &gl) && tput_parse_number(g, gl, &v) == TPUT_NUM_OK &&
	    fabs(v) < (double)LLONG_MAX)
		pt->step = (long long)v;
	if (rx_group_at(r->re, r->g_loss, &g, &gl) && tput_parse_number(g, gl, &v) == TPUT_NUM_OK)
		pt->loss = v;
	if (rx_group_at(r->re, r->g_rank, &g, &gl) && tput_parse_number(g, gl, &v) == TPUT_NUM_OK &&
	    fabs(v) < (double)LONG_MAX)
		pt->rank = (long)v;
	if (rx_group_at(r->re, r->g_time, &g, &gl)) {
		if (tput_parse_number(g, gl, &v) == TPUT_NUM_OK)
			pt->time = v * r->time_scale;
		else if (tput_timestamp(g, gl, &v) > 0)
			pt->time = v;
	}
	return TPUT_POINT;
}

static void frame(tput_ex *ex, const char *s, size_t len, const struct line_ctx *lc, uint64_t mask,
		  tput_sink *sink, void *ctx)
{
	char why[96], err[256];
	int literal = 0;
	for (size_t i = 0; i < ex->n; i++) {
		struct rule *r = &ex->rules[i];
		/* The line-level prefilter chose the rules; frames of a split line recheck. */
		if (i < 64 && !(mask >> i & 1))
			continue;
		if (lc->split && !has_literal(r, s, len))
			continue;
		literal = 1;
		int rc = rx_match_groups(r->re, s, len, err, sizeof err);
		if (rc < 0) {
			sink(ctx, lc->lineno, TPUT_ERROR, NULL, err);
			return;
		}
		if (rc == 0)
			continue;
		struct tput_point pt;
		enum tput_result res = take(r, lc, &pt, why, sizeof why);
		pt.rule = (int)i;
		sink(ctx, lc->lineno, res, &pt, res == TPUT_BAD ? why : NULL);
		return;
	}
	if (literal)
		sink(ctx, lc->lineno, TPUT_NOMATCH, NULL, "holds a throughput word but no rule matched");
}

/* A line that holds the literals of the rules in mask. */
static void line(tput_ex *ex, char *s, size_t len, unsigned long lineno, uint64_t mask, tput_sink *sink,
		 void *ctx)
{
	if (memchr(s, '\x1b', len))
		len = tput_strip_ansi(s, len);
	struct line_ctx lc = { memchr(s, '\r', len) != NULL, -1, 0, 0, lineno };
	size_t skip = tput_rank_prefix(s, len, &lc.rank);
	size_t ts = tput_timestamp(s + skip, len - skip, &lc.time);
	lc.have_time = ts > 0;
	s += skip;
	len -= skip;
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
	if (!filtered(ex)) {
		line(ex, s, len, lineno, UINT64_MAX, sink, ctx);
		return;
	}
	size_t rule, hit = find_literal(ex, s, len, &rule);
	if (hit < len)
		line(ex, s, len, lineno, rules_in_line(ex, s, len, hit, rule), sink, ctx);
}

/* Length of the block's line at s, without its "\n". */
static size_t line_len(const char *s, const char *block_end)
{
	const char *nl = memchr(s, '\n', (size_t)(block_end - s));
	return (size_t)((nl ? nl : block_end) - s);
}

size_t tput_ex_block(tput_ex *ex, char *text, size_t len, unsigned long lineno, tput_sink *sink, void *ctx)
{
	char *end = text + len, *at = text;
	size_t newlines = 0;
	if (!filtered(ex)) {
		while (at < end) {
			size_t n = line_len(at, end);
			line(ex, at, n - (n > 0 && at[n - 1] == '\r'), lineno++, UINT64_MAX, sink, ctx);
			newlines += at + n < end;
			at += n + 1;
		}
		return newlines;
	}
	/* Search the block for literals; only the lines they fall in are looked at, and lines
	 * are counted between them. Each search runs on from the last hit, so the hits after
	 * the first of a line show what other rules the line may be for, and the first past
	 * its end starts the next line. */
	const char *counted = text;
	size_t rule, hit = find_literal(ex, at, (size_t)(end - at), &rule);
	while (hit < (size_t)(end - at)) {
		char *start = memrchr(at, '\n', hit);
		start = start ? start + 1 : at;
		size_t n = line_len(start, end);
		char *line_end = start + n;
		uint64_t mask = 1ULL << rule;
		char *next = at + hit + 1;
		size_t next_rule = 0, more;
		while ((more = find_literal(ex, next, (size_t)(end - next), &next_rule)) < (size_t)(line_end - next)) {
			mask |= 1ULL << next_rule;
			next += more + 1;
		}
		size_t gap = in_count_lines(counted, (size_t)(start - counted));
		lineno += gap;
		newlines += gap;
		counted = start;
		line(ex, start, n - (n > 0 && start[n - 1] == '\r'), lineno, mask, sink, ctx);
		at = line_end + (line_end < end);
		hit = more == (size_t)(end - next) ? (size_t)(end - at) : (size_t)(next + more - at);
		rule = next_rule;
	}
	return newlines + in_count_lines(counted, (size_t)(end - counted));
}
