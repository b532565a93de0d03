/* tputkv: the key/value reader, figure by figure, with what each line shape says kept. */
#include "tputkv.h"
#include "tputbyte.h"
#include "xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
 * ("Speed: 1.2 samples/sec lr: 5"), a ')' ("(404/404) Data: 0.000s") or another blank. */
static size_t kv_key_start(const char *s, size_t from, size_t end, int words)
{
	size_t start = from;
	for (; start > 0 && end - start < 80; start--) {
		char c = s[start - 1];
		if (tputbyte_key_stop(c) ||
		    (c == ' ' && (!words || (start >= 2 && (s[start - 2] == ' ' || s[start - 2] == ')' ||
							       tputbyte_digit(s[start - 2]))))))
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
	/* a figure in quotes, JSON's written as text ("wps": "218.2", fairseq's hydra logs;
	 * Detectron's json_stats; TRL's {'step_time': '82.01'}): its key is the one before */
	if (j >= 2 && (s[j - 1] == '"' || s[j - 1] == '\'') && (s[j - 2] == ' ' || s[j - 2] == ':'))
		j--;
	while (j > 0 && (s[j - 1] == ' ' || s[j - 1] == '\t'))
		j--;
	/* "iter: [10/500]": the key before a bracket the figure opens */
	if (j > 0 && j == i && (s[j - 1] == '[' || s[j - 1] == '(')) {
		size_t k = j - 1;
		while (k > 0 && s[k - 1] == ' ')
			k--;
		if (k > 0 && (s[k - 1] == ':' || s[k - 1] == '='))
			j = k;
	}
	/* "|    fps    | 1406  |": a table's row (Stable-Baselines3's boxed logger), named by
	 * the cell before when that cell is one word */
	if (j > 0 && s[j - 1] == '|') {
		size_t e = j - 1, b;
		while (e > 0 && (s[e - 1] == ' ' || s[e - 1] == '\t'))
			e--;
		for (b = e; b > 0 && s[b - 1] != '|' && e - b < 64; b--)
			;
		size_t ks = b;
		while (ks < e && (s[ks] == ' ' || s[ks] == '\t'))
			ks++;
		if (b > 0 && s[b - 1] == '|' && ks < e && tputbyte_alpha(s[ks]) && !memchr(s + ks, ' ', e - ks) &&
		    !memchr(s + ks, '\t', e - ks)) {
			*kstart = ks;
			*kend = e;
			return 1;
		}
	}
	int sep = j > 0 && (s[j - 1] == ':' || s[j - 1] == '=');
	/* "KEY is V" (MindSpore's "loss is 2.301", EAST's "time consumption is 0.83"): 'is' the
	 * separator, as ':' is */
	if (!sep && j < i && j >= 4 && memcmp(s + j - 3, " is", 3) == 0 && tputbyte_alpha(s[j - 4])) {
		j -= 2;  /* at "is": passed below as the separator */
		sep = 1;
	}
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

/* Is the figure s[at, after) and its unit (ulen bytes) the record's last words, alone in
 * parentheses: "... train_loss: 5.663 (632.5 ms)"? */
static int kv_tail_paren(const char *s, size_t len, size_t at, size_t after, size_t ulen)
{
	size_t e = after + (after < len && s[after] == ' ') + ulen;
	if (at == 0 || s[at - 1] != '(' || e >= len || s[e] != ')')
		return 0;
	for (e++; e < len && (s[e] == ' ' || s[e] == '\t'); e++)
		;
	return e == len;
}

/* Is the figure at s[at] a source file's line number, its key "NAME.py" right before ':'
 * ("[mfu_callback.py:81]", "train.cc:120")? */
static int kv_source_line(const char *s, size_t kstart, size_t kend, size_t at)
{
	static const char *const exts[] = { ".py", ".cc", ".cpp", ".c", ".h", ".rs", ".go", ".java", ".lua", ".jl" };
	if (kend <= kstart || at != kend + 1 || s[kend] != ':')
		return 0;
	for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++) {
		size_t n = strlen(exts[i]);
		if (kend - kstart > n && memcmp(s + kend - n, exts[i], n) == 0)
			return 1;
	}
	return 0;
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
	/* "0.72(0.65s r0.07)s/itr": the figure's parts in parentheses glued before its unit */
	if (k < len && s[k] == '(') {
		const char *close = memchr(s + k, ')', len - k < 32 ? len - k : 32);
		if (close && close + 1 < s + len && tputbyte_alpha(close[1]))
			k = (size_t)(close + 1 - s);
	}
	if (k < len && s[k] == ' ')
		k++;
	/* a unit in brackets: "0.192[s]", "333.8[samples/s]" (TransReID) */
	if (k == j && k + 2 < len && s[k] == '[' && tputbyte_alpha(s[k + 1])) {
		size_t e = k + 1;
		while (e < len && e - k < 24 && (tputbyte_alnum(s[e]) || s[e] == '/' || s[e] == '_'))
			e++;
		if (e < len && s[e] == ']') {
			size_t n = tputkey_norm(s + k + 1, e - k - 1, unit, cap);
			return n;
		}
	}
	for (int round = 0; round < 2; round++) {
		size_t st = k;
		while (k < len && (tputbyte_alnum(s[k]) || s[k] == '/' || s[k] == '%' || s[k] == '_' ||
				   (s[k] == '-' && k > st && tputbyte_digit(s[k - 1]) && k + 1 < len && tputbyte_alpha(s[k + 1]))))
			k++;  /* "s/10-batch": a count of the noun */
		if (k == st) {  /* most figures: no word after them */
			unit[0] = '\0';
			return 0;
		}
		size_t n = tputkey_norm(s + st, k - st, unit, cap);
		if (n == 0)
			return 0;
		if (round == 0 && n == 3 && (strcmp(unit, "src") == 0 || strcmp(unit, "tgt") == 0) && k < len && s[k] == ' ') {
			*side = unit[0] == 't' ? 2 : 1;
			k++;
			continue;
		}
		/* "0.717 secs per iter": a unit of two words and "per" (a device after it aside) */
		if (k + 6 < len && memcmp(s + k, " per ", 5) == 0 && tputbyte_alpha(s[k + 5]) &&
		    !kv_per_device_after(s, len, k) && n + 6 < cap) {
			size_t e = k + 5;
			while (e < len && tputbyte_alpha(s[e]) && e - k < 16)
				e++;
			size_t w = e;  /* "Tokens per Sec: 403" after a loss: the next figure's key */
			while (w < len && s[w] == ' ')
				w++;
			/* "0.59 ms per token": a latency per token, inference's (kv_per_token) */
			int token = e - k - 5 >= 5 && strncasecmp(s + k + 5, "token", 5) == 0;
			if (token || (w < len && (s[w] == ':' || s[w] == '='))) {
				if (!token)
					unit[0] = '\0';
				return token ? n : 0;
			}
			memcpy(unit + n, "_per_", 5);
			return n + 5 + tputkey_norm(s + k + 5, e - k - 5, unit + n + 5, cap - n - 5);
		}
		/* "72.74 pics / sec": a rate spaced around its '/' (a time per item so spaced,
		 * "(3.5625 s / it)", is MetricLogger's epoch total) */
		if (k + 3 < len && memcmp(s + k, " / ", 3) == 0 && tputbyte_alpha(s[k + 3]) && n + 2 < cap &&
		    tputkey_unit_word(unit) && strcmp(unit, "seconds") != 0) {
			size_t e = k + 3;
			while (e < len && tputbyte_alpha(s[e]) && e - k < 12)
				e++;
			unit[n] = '/';
			size_t m = tputkey_norm(s + k + 3, e - k - 3, unit + n + 1, cap - n - 1);
			return n + 1 + m;
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


/* "/gpu)" or "/device)" at s[j]. */
static int kv_paren_gpu(const char *s, size_t len, size_t j)
{
	return (j + 5 <= len && memcmp(s + j, "/gpu)", 5) == 0) || (j + 8 <= len && memcmp(s + j, "/device)", 8) == 0);
}


/* The reader's caches: keys (tputkey) and frame shapes. */
struct tputkv_cache {
	struct tputkey_cache keys;
	struct tputkv_shape shapes[TPUTBYTE_SETS][2];
	uint64_t serial;           /* of the last shape read */
};

/* KV_PART_SHARE: a share of the iteration's time (kv_keyinfo.part). KV_PART_LEAD: a figure
 * alone in the line's first " | " field, at its very start: the step when a count, else the
 * tail of a cut line's last field ("36.9 | hardware_tflops_per_gpu: 36.9 | ..."), whose
 * figures are left out (pasted, they repeat figures of lines whole elsewhere). */
/* KV_PART_EVAL: an evaluation's step ("val step:0", "eval_step: 3"): the line's figures are
 * the evaluation's. */
enum kv_part { KV_PART_SHARE = 1, KV_PART_LEAD = 2, KV_PART_EVAL = 3, KV_PART_CLOCK = 4, KV_PART_COUNT = 5 };
/* KV_PART_CLOCK: the figure is a clock, H:MM:SS, in seconds (llama.cpp finetune's "dt=00:12:57").
 * KV_PART_COUNT: a bracketed "[ 417/1669]" counts the epoch's iterations: the line is a
 * step's, but its count starts again each epoch ("[1/1]" a line), so it is no step. */

/* Step times in layouts of their own, at s[at, numend) (unit after it; time_key: after a
 * step time's key and ':' or '='): "Time(1000 iters): 2.104s" (HugeCTR), the time of N
 * steps; "dt=00:12:57" (llama.cpp's finetune), a step's time as a clock. The figure into
 * *c: where it ends, 0 when neither. */
static double kv_time_of_steps(const char *s, size_t at, size_t *n_at, size_t *n_end, int *in_words);
static size_t kv_step_times(const char *s, size_t len, size_t at, size_t numend, const char *unit, size_t ulen,
			    int time_key, struct tputkv_cand *c)
{
	size_t n_at = 0, n_end = 0;
	int in_words = 0;
	double steps = kv_time_of_steps(s, at, &n_at, &n_end, &in_words), clock;
	double ms = strcmp(unit, "ms") == 0 ? 1 : !ulen || strcmp(unit, "s") == 0 || tputkey_unit_word(unit) ? 1000 : 0;
	if (steps > 0 && in_words &&
	    !(strcmp(unit, "ms") == 0 || strcmp(unit, "s") == 0 || strcmp(unit, "sec") == 0 || strcmp(unit, "secs") == 0 ||
	      strcmp(unit, "seconds") == 0))
		steps = 0;  /* "steps in" a time, said by its unit */
	if (steps > 0 && ms > 0) {
		/* N is read with the figure (KV_SECOND_STEPS): a line of this shape may have another */
		*c = (struct tputkv_cand){ (uint32_t)at, (uint32_t)numend, (uint32_t)n_at, (uint32_t)n_end, 0, 0, KV_WHAT_FIGURE,
					   KV_SECOND_STEPS, TPUT_MS_STEP, 0, 0, 0, 0, ms, 0 };
		return numend;
	}
	size_t ce = time_key ? tputunit_clock(s, len, at, 3, &clock) : 0;
	if (ce) {
		*c = (struct tputkv_cand){ (uint32_t)at, (uint32_t)ce, 0, 0, 0, 0, KV_WHAT_FIGURE, KV_SECOND_NONE,
					   TPUT_MS_STEP, 0, 0, 0, 0, 1000, KV_PART_CLOCK };
	} else if (time_key && numend < len && s[numend] == ':') {  /* a clock cut short: no figure */
		for (ce = numend; ce < len && (tputbyte_digit(s[ce]) || s[ce] == ':'); ce++)
			;
		*c = (struct tputkv_cand){ (uint32_t)at, (uint32_t)ce, 0, 0, 0, 0, KV_WHAT_NONE, KV_SECOND_NONE,
					   0, 0, 0, 0, 0, 1, 0 };
	}
	return ce;
}

/* "Ran 99 train steps in " before s[at] (Trax): the time of N steps, a word between N and
 * the steps' noun or none; N, or 0 when not so. */
static double kv_steps_in(const char *s, size_t at, size_t *n_at, size_t *n_end)
{
	static const char *const nouns[] = { "steps", "iterations", "iters", "batches", "updates" };
	size_t j = at;
	while (j > 0 && s[j - 1] == ' ')
		j--;
	if (j < 3 || memcmp(s + j - 3, " in", 3) != 0)
		return 0;
	j -= 3;
	for (int word = 0; word < 2; word++) {
		size_t e = j;
		while (j > 0 && tputbyte_alpha(s[j - 1]))
			j--;
		int noun = 0;
		for (size_t k = 0; k < sizeof nouns / sizeof nouns[0]; k++)
			noun |= e - j == strlen(nouns[k]) && strncasecmp(s + j, nouns[k], e - j) == 0;
		if (word == 0 && !noun)
			return 0;
		if (j == 0 || s[j - 1] != ' ')
			return 0;
		size_t d = j - 1;
		while (d > 0 && tputbyte_digit(s[d - 1]))
			d--;
		if (d < j - 1 && (d == 0 || s[d - 1] == ' ')) {
			double n = 0;
			for (size_t k = d; k < j - 1; k++)
				n = n * 10 + (s[k] - '0');
			*n_at = d;
			*n_end = j - 1;
			return n;
		}
		j--;  /* a word between: "train" */
	}
	return 0;
}

/* "Time(1000 iters): " before s[at] (HugeCTR), or "N steps in " (*in_words set): the time of
 * N steps; N (its text at s[*n_at, *n_end)), or 0 when not so. */
static double kv_time_of_steps(const char *s, size_t at, size_t *n_at, size_t *n_end, int *in_words)
{
	double in = kv_steps_in(s, at, n_at, n_end);
	*in_words = in > 0;
	if (in > 0)
		return in;
	size_t j = at;
	while (j > 0 && s[j - 1] == ' ')
		j--;
	if (j > 0 && (s[j - 1] == ':' || s[j - 1] == '='))
		j--;
	if (j == 0 || s[j - 1] != ')')
		return 0;
	size_t open = j - 1;
	while (open > 0 && s[open - 1] != '(' && j - open < 24)
		open--;
	size_t t = open > 0 ? open - 1 : 0;  /* the '(' */
	while (t > 0 && s[t - 1] == ' ')
		t--;
	if (open == 0 || s[open - 1] != '(' || t < 4 || strncasecmp(s + t - 4, "time", 4) != 0)
		return 0;
	double n = 0;
	size_t k = open;
	while (k < j && s[k] == ' ')
		k++;
	*n_at = k;
	while (k < j && tputbyte_digit(s[k]))
		n = n * 10 + (s[k++] - '0');
	*n_end = k;
	while (k < j && s[k] == ' ')
		k++;
	static const char *const words[] = { "iters)", "iter)", "iterations)", "steps)", "batches)" };
	for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
		if (j - k == strlen(words[w]) && strncasecmp(s + k, words[w], j - k) == 0)
			return n;
	return 0;
}

/* How a time from a loose key is kept (kv_finish), bits of kv_cand.said. KV_SAID_UNIT: said
 * by its unit ("Time: 1638.07 ms", "| 8060.78ms |"), kept beside a rate. KV_SAID_TIMER: an
 * iteration timer's key ("time: 0.3322", "train_time=0.014"), kept on a line with a loss that
 * also gives a share of the iteration ("data_time: 0.0334", "data: 0.0001"). KV_SAID_ITER:
 * its key names the iteration ("iter_time: 1.270s", "iter time: 522.10 ms"), and it has a
 * unit: kept on a line with a step and a loss. */
/* KV_SAID_METER: "Time 0.427 (2.773)", an average meter's value and its running average
 * (PyTorch's ProgressMeter, Swin), kept on a line with a loss. KV_SAID_RATE: a rate's word
 * as the key with no ':' or '=' ("/ fps 1.0", "FPS 38."): kept on a line with a loss or a
 * step, where "fps 30" is no video's setting. */
/* KV_SAID_TAIL: said only by its unit, alone in parentheses at the record's end ("...
 * train_loss: 5.663 (632.5 ms)"): a loose time on a line with a loss. */
/* KV_SAID_WATCH: a stopwatch's reading ("timer: 0.288", "Timer: 0.6820"), a timer's key in a
 * word of its own: a loose time even with no step or loss beside it, when it is the line's one
 * figure (the record's other half on another line, or its keys abbreviated). */
enum kv_said { KV_SAID_UNIT = 1, KV_SAID_TIMER = 2, KV_SAID_ITER = 4, KV_SAID_METER = 8, KV_SAID_RATE = 16,
	       KV_SAID_TAIL = 32, KV_SAID_WATCH = 64 };
struct kv_saids {
	uint64_t unit, timer, iter, meter, rate, tail, watch; /* bit n: out[n] is so */
	int part;                      /* the line gives a share of the iteration */
	int cut;                       /* the line is the tail of a cut one */
	int eval;                      /* the line counts an evaluation's steps */
	int counted;                   /* the line counts an epoch's iterations (KV_PART_COUNT) */
};

/* Is unit one of hours, minutes or days? */
static int kv_long_span(const char *unit)
{
	static const char *const spans[] = { "h", "hr", "hrs", "hour", "hours", "min", "mins", "minute", "minutes",
					     "d", "day", "days" };
	for (size_t i = 0; i < sizeof spans / sizeof spans[0]; i++)
		if (strcmp(unit, spans[i]) == 0)
			return 1;
	return 0;
}

/* The figure the key/value reader takes from a number at s[at, numend), followed by
 * s[after...] (its unit or a second number): what it is, in c. */
static enum kv_what kv_figure(const char *s, size_t len, size_t numend, size_t after, int pair, int side, int sep,
			      const char *unit, enum tputkey_class cls, double scale, int invert, int gpu,
			      const struct tputkey_info *ki, struct tputkv_cand *c)
{
	int average = 0;
	if (pair && cls == KV_NONE)
		return KV_WHAT_NONE;
	if (cls == KV_NONE) {
		enum tputkey_class kcls = (enum tputkey_class)ki->kcls;
		/* "KEY V" without ':' or '=': one word that says what it is */
		/* ("batch_cost 1.358 sec": a step time's key needs its unit said) */
		int time_unit = strcmp(unit, "ms") == 0 || strcmp(unit, "s") == 0 || strcmp(unit, "sec") == 0;
		/* "time/step: 0.755" (CLIP4Clip) is a time, "time/batch: 4" (Composer) a count */
		int fraction = memchr(s + c->at, '.', numend - c->at) != NULL;
		int loose_rate = !sep && kcls == KV_SAMPLES && !ki->compound && !unit[0];
		if (kcls == KV_NONE || kcls >= KV_TIME_SAID || (ki->said_unit && !time_unit && !(sep && fraction)) ||
		    (!sep && !loose_rate && ((kcls == KV_TIME && !time_unit && !ki->ms && !ki->secs && !ki->step_time && !ki->composed) || (kcls != KV_TIME && !ki->compound && kcls != KV_TOKENS &&
							     kcls != KV_TPS && kcls != KV_ITERS && kcls != KV_MFU))))
			return KV_WHAT_NONE;
		if (loose_rate)
			c->said |= KV_SAID_RATE;
		cls = kcls;
		if (cls == KV_GFLOPS)
			scale = 1e-3;
		if (ki->composed) {  /* the key is the unit: "sec/kimg 253.5" */
			scale = ki->kscale;
			invert = ki->kinvert;
		} else if (cls == KV_TIME) {
			/* a step time: ms when said so, else seconds; hours, minutes, days say a
			 * span ("dt=6.0h" between two samples of data), no step's */
			if (kv_long_span(unit))
				return KV_WHAT_NONE;
			if (strcmp(unit, "ms") == 0 || ki->ms)
				scale = 1;
			else if (!unit[0] || strcmp(unit, "s") == 0 || strcmp(unit, "sec") == 0 ||
				 strcmp(unit, "seconds") == 0 || ki->secs || tputkey_unit_word(unit))
				scale = 1000;
			else
				return KV_WHAT_NONE;
		}
		if (cls == KV_MFU && strcmp(unit, "%") != 0 && tputkey_unit_word(unit) == 0)
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
	enum tput_unit u = tputkey_unit_of(cls, gpu);
	if (cls == KV_TOKENS && !gpu && (side || pair))
		u = side == 2 ? TPUT_TOKENS_S_TGT : TPUT_TOKENS_S_SRC;
	c->unit = (unsigned char)u;
	c->scale = scale;
	c->invert = (unsigned char)invert;
	c->average = (unsigned char)average;
	size_t e3;
	if (cls == KV_MFU && unit[0] != '%') {  /* verl's "perf/mfu/actor:0.31": a fraction */
		c->second = KV_SECOND_FRAC;
	} else if (u == TPUT_TOKENS_S_SRC && pair) {
		c->second = KV_SECOND_PAIR;
		c->at2 = (uint32_t)(numend + 1);
		c->end2 = (uint32_t)after;
		c->unit2 = TPUT_TOKENS_S_TGT;
	} else if (!gpu && tputkey_unit_of(cls, 1) != u && after + 1 < len && s[after] == '(' && tputbyte_digit(s[after + 1]) &&
		   (e3 = kv_number(s, len, after + 1)) > 0 && kv_paren_gpu(s, len, e3)) {
		/* "V(W/gpu)": the figure per device beside it (NeMo AutoModel's "tps 9.1(1.1/gpu)") */
		c->second = KV_SECOND_PAREN;
		c->at2 = (uint32_t)(after + 1);
		c->end2 = (uint32_t)e3;
		c->unit2 = (unsigned char)tputkey_unit_of(cls, 1);
	}
	return KV_WHAT_FIGURE;
}

/* Does " (V)" follow a figure ending at s[after]: an average meter's running average? The
 * meter pads its average to the value's width: "Time  1.175 ( 4.022)". */
static int kv_meter(const char *s, size_t len, size_t after)
{
	if (after + 3 >= len || s[after] != ' ' || s[after + 1] != '(')
		return 0;
	size_t at = after + 2;
	while (at < len && s[at] == ' ')
		at++;
	if (at >= len || !tputbyte_digit(s[at]))
		return 0;
	size_t e = kv_number(s, len, at);
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

/* Is the pair N/M at s[at, after) alone in brackets with fields after it ("[ 417/1669]  eta:",
 * the MetricLogger's; "Epoch: [0][10/1563]\tTime", PyTorch's ImageNet example)? Its N is the
 * step, less sure than a step key. A pair followed by another bracket is the epoch's. */
static int kv_bracket_pair(const char *s, size_t len, size_t at, size_t after)
{
	size_t b = at;
	while (b > 0 && s[b - 1] == ' ')
		b--;
	if (b == 0 || s[b - 1] != '[' || after >= len || s[after] != ']')
		return 0;
	size_t k = after + 1;
	while (k < len && (s[k] == ' ' || s[k] == '\t'))
		k++;
	return k < len && tputbyte_alpha(s[k]);
}

/* Is the word after a figure (ending at s[after]) followed by blanks and another figure? */
static int kv_word_then_number(const char *s, size_t len, size_t after)
{
	size_t k = after < len && s[after] == ' ' ? after + 1 : after, st = k;
	while (k < len && (tputbyte_alnum(s[k]) || s[k] == '/' || s[k] == '%' || s[k] == '_'))
		k++;
	if (k == st || k == len || (s[k] != ' ' && s[k] != '\t'))
		return 0;
	while (k < len && (s[k] == ' ' || s[k] == '\t'))
		k++;
	return k < len && tputbyte_digit(s[k]);
}

/* The class of a figure's unit, its key heard: a key saying "speed" takes a rate of items
 * no table names; "loss 2.3 tokens/s 123456": the unit after a loss or a step is the next
 * figure's key. */
static enum tputkey_class kv_unit_by_key(const char *s, size_t len, size_t after, const char *unit, size_t ulen,
					 const struct tputkey_info *ki, int sep, enum tputkey_class cls, double *scale)
{
	struct tputkey_unit u;
	if (cls == KV_NONE && ulen && ki && sep && ki->rate_key && tputkey_items_rate(unit, ulen, &u)) {
		*scale = u.scale;
		return u.cls;
	}
	if (cls != KV_NONE && ki && (ki->loss || ki->srank) && kv_word_then_number(s, len, after))
		return KV_NONE;
	return cls;
}

/* "V +-W": a mean and its spread, a run's summary (Horovod's "Img/sec per GPU: 108.2 +-1.2");
 * tf_cnn_benchmarks' per-step "V +/- W" is another shape. after: the figure's end. */
static int kv_spread(const char *s, size_t len, size_t after)
{
	return after + 2 < len && (s[after] == '+' || (s[after] == ' ' && s[after + 1] == '+')) &&
	       s[after + (s[after] == ' ') + 1] == '-';
}

/* Is s[kstart, at) a key ending in the word w, a word of its own, and its separator:
 * "timer: " (a stopwatch's), "| batch: " (not "train_loss_step=")? */
static int kv_key_word(const char *s, size_t kstart, size_t at, const char *w)
{
	size_t e = at, n = strlen(w);
	while (e > kstart && (s[e - 1] == ' ' || s[e - 1] == ':' || s[e - 1] == '='))
		e--;
	return e >= kstart + n && strncasecmp(s + e - n, w, n) == 0 &&
	       (e == kstart + n || !(tputbyte_alnum(s[e - n - 1]) || s[e - n - 1] == '_'));
}

/* How a figure with no class of its own is a time said loosely (enum kv_said), 0 when not:
 * said only by its unit, after a key as loose as "time", or a " | "-separated field of its
 * own ("| 8060.78ms |"), kept when the line has a rate too; an iteration timer's key; a
 * step's key with a time's unit ("| Batch: 0.031s |", bearpaw's progress bar); an average
 * meter. */
static int kv_time_said(const char *s, size_t len, size_t at, size_t kstart, size_t after, const char *unit, size_t ulen,
			int timed, int sep, const struct tputkey_info *ki)
{
	if (!ki)
		return !timed ? 0 : kv_lone_field(s, len, at, after, ulen) ? KV_SAID_UNIT
		       : kv_tail_paren(s, len, at, after, ulen)        ? KV_SAID_TAIL : 0;
	if (sep && ki->kcls >= KV_TIME_SAID) {
		/* a plain number is seconds; not a clock's or a date's first figure
		 * ("time: 12:03:44") */
		int plain = (!ulen || tputkey_unit_word(unit)) && !(after < len && (s[after] == ':' || s[after] == '-'));
		if (ki->kcls == KV_TIME_SAID)
			return !timed && !plain ? 0
			       : (timed ? KV_SAID_UNIT : 0) | KV_SAID_TIMER | (kv_key_word(s, kstart, at, "timer") ? KV_SAID_WATCH : 0);
		/* a plain figure under an iteration timer's key: on a line with a step and a loss
		 * (DINOv2's {"iteration": 120, "iter_time": 3.607, ..., "total_loss": 14.6}) */
		if (ki->kcls == KV_TIME_ITER)
			return timed ? KV_SAID_UNIT | KV_SAID_TIMER | KV_SAID_ITER : plain ? KV_SAID_ITER : 0;
		return timed || plain ? KV_SAID_TIMER : 0;
	}
	if (sep && ki->srank && timed)
		return KV_SAID_UNIT | KV_SAID_TIMER;
	/* "| batch: 0.09 |" beside "data: 0.01 | forward: 0.02": a fraction under a step's key is
	 * a time, kept where the line gives a share of the iteration (bearpaw's bar, VIBE) */
	if (sep && ki->srank && !ulen && memchr(s + at, '.', after - at) && kv_key_word(s, kstart, at, "batch"))
		return KV_SAID_TIMER;
	/* a step's key before a fraction and its running average: the meter of a batch's time
	 * (Pointcept's "Data 0.002 (0.656) Batch 7.276 (3.305)"), kept on a line with a loss */
	if (!sep && ki->srank && !ulen && memchr(s + at, '.', after - at) && kv_meter(s, len, after))
		return KV_SAID_METER;
	/* "Time 0.427 (2.773)"; "Time 0.558\t ..."; "| Time 0.9820 |", a field of its own */
	if (!sep && ki->kcls == KV_TIME_SAID && !ulen)
		return kv_meter(s, len, after)                         ? KV_SAID_METER
		       : after < len && s[after] == '\t'               ? KV_SAID_TIMER
		       : kv_lone_field(s, len, kstart, after, 0) && kstart ? KV_SAID_TIMER : 0;
	return 0;
}

/* Where the figure ending its digits at end ends (numend: past a K/M suffix, "43.2K", when
 * no letter follows) and what follows it starts (after: past "/M" of "N/M tok/s", N source
 * and M target tokens, OpenNMT-py): 1 when such a pair, else 0. */
static int kv_figure_span(const char *s, size_t len, size_t end, size_t *numend, size_t *after)
{
	*numend = end;
	if (end < len && (s[end] == 'K' || s[end] == 'M' || s[end] == 'G' || s[end] == 'k') &&
	    !(end + 1 < len && tputbyte_alnum(s[end + 1])))
		*numend = end + 1;
	*after = *numend;
	if (*after + 1 < len && s[*after] == '/' && tputbyte_digit(s[*after + 1])) {
		size_t e2 = kv_number(s, len, *after + 1);
		*after = e2 ? e2 : *after + 1;
		return 1;
	}
	return 0;
}

/* The figures of s[i, len) the reader may take, into c[0, max) (*nc of them): where the
 * scan stopped, len at the end. A key holds a letter: there is none before first_alpha. */
static size_t kv_scan(const char *s, size_t len, size_t i, size_t first_alpha, struct tputkv_cand *c, size_t max,
		      size_t *nc, tputkv_cache *cache, const struct tputkey_tables *tables)
{
	char unit[48];
	struct tputkey_info tmp;
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
		size_t at = i, numend, after;
		int neg = i > 0 && s[i - 1] == '-' && (i < 2 || !tputbyte_alnum(s[i - 2]));
		int pair = kv_figure_span(s, len, end, &numend, &after);
		i = (after > i ? after : i + 1) - 1;
		if (at >= 2 && s[at - 1] == ':' && tputbyte_alpha(s[at - 2]) && after < len && s[after] == ':')
			continue;  /* a count inside a name ("features:0:") */
		int side;
		size_t ulen = kv_unit_after(s, len, after, unit, sizeof unit, &side);
		size_t kstart = 0, kend = 0;
		int sep = at > first_alpha ? kv_key(s, neg ? at - 1 : at, &kstart, &kend) : 0;
		if (kv_source_line(s, kstart, kend, at))
			continue;  /* "mfu_callback.py:81": a source file's line, no figure */
		/* the unit after it, when it is one */
		struct tputkey_unit u = { KV_NONE, 1, 0, 0 };
		if (ulen && tputkey_unit(tables, unit, ulen, &u))
			u.gpu |= side == 3;
		enum tputkey_class cls = u.cls;
		double scale = u.scale;
		int invert = u.invert, gpu = u.gpu;
		if (side == 3)
			side = 0;
		if (kv_spread(s, len, after))
			continue;
		const struct tputkey_info *ki = kend ? tputkey_lookup(cache ? &cache->keys : NULL, tables, s + kstart, kend - kstart, &tmp) : NULL;
		if (neg) {  /* no rate, time or step is negative; a loss may be (a likelihood's) */
			if (ki && ki->loss && sep && !pair && !ulen)
				c[(*nc)++] = (struct tputkv_cand){ (uint32_t)at - 1, (uint32_t)numend, 0, 0, 0, 1, KV_WHAT_NONE,
							       KV_SECOND_NONE, 0, 0, 0, 0, 0, 1, 0 };
			continue;
		}
		cls = kv_unit_by_key(s, len, after, unit, ulen, ki, sep, cls, &scale);
		/* "(236.009 pos/s)" ending a record: a rate of items no table names, with no key,
		 * is a sample rate on a line with a step or a loss (KV_SAID_RATE) */
		int tail_rate = 0;
		if (cls == KV_NONE && ulen && !ki && kv_tail_paren(s, len, at, after, ulen) &&
		    tputkey_items_rate(unit, ulen, &u)) {
			cls = u.cls;
			scale = u.scale;
			tail_rate = KV_SAID_RATE;
		}
		size_t timed_end = pair ? 0 : kv_step_times(s, len, at, numend, unit, ulen, ki && sep && ki->kcls == KV_TIME,
							  &c[*nc]);
		if (timed_end) {
			(*nc)++;
			i = timed_end - 1;
			continue;
		}
		/* a latency per token ("0.59 ms per token", "ms/token") times generation, not training */
		if (ulen >= 2 && unit[0] == 'm' && unit[1] == 's' && kv_per_token(s, len, after, unit, ulen)) {
			c[(*nc)++] = (struct tputkv_cand){ (uint32_t)at, (uint32_t)numend, 0, 0, 0, 0, KV_WHAT_PER_TOKEN,
						       KV_SECOND_NONE, 0, 0, 0, 0, 0, 1, 0 };
			continue;
		}
		int timed = ulen && (strcmp(unit, "ms") == 0 || strcmp(unit, "s") == 0 || strcmp(unit, "sec") == 0);
		int said = cls == KV_NONE && !pair ? kv_time_said(s, len, at, kstart, after, unit, ulen, timed, sep, ki) : 0;
		if (said) {
			cls = KV_TIME;
			scale = timed && unit[0] == 'm' ? 1 : 1000;
		}
		/* "N | ...": a line's first field, a count alone, is its step (llama2.c): the first
		 * figure, so no step is known yet */
		if (cls == KV_NONE && !ki && at == first && after == end && kv_lone_field(s, len, at, after, 0)) {
			c[(*nc)++] = (struct tputkv_cand){ (uint32_t)at, (uint32_t)end, 0, 0, 2, 0, KV_WHAT_NONE,
						       KV_SECOND_NONE, 0, 0, 0, 0, 0, 1, at == 0 ? KV_PART_LEAD : 0 };
			continue;
		}
		/* "[N] key=...": a count alone in brackets before the fields, no key before it, is
		 * the step (Flax's metric writer), less sure than a step key */
		if (cls == KV_NONE && !ki && after == end && kv_bracket_step(s, len, at, end)) {
			c[(*nc)++] = (struct tputkv_cand){ (uint32_t)at, (uint32_t)end, 0, 0, 1, 0, KV_WHAT_NONE,
						       KV_SECOND_NONE, 0, 0, 0, 0, 0, 1, 0 };
			continue;
		}
		if (cls == KV_NONE && !ki && pair && kv_bracket_pair(s, len, at, after)) {
			c[(*nc)++] = (struct tputkv_cand){ (uint32_t)at, (uint32_t)end, 0, 0, 0, 0, KV_WHAT_NONE,
						       KV_SECOND_NONE, 0, 0, 0, 0, 0, 1, KV_PART_COUNT };
			continue;
		}
		/* most figures (clocks, sizes, counts) name nothing the reader takes */
		if (cls == KV_NONE && (!ki || (!ki->srank && !ki->loss && ki->kcls == KV_NONE && !ki->part)))
			continue;
		struct tputkv_cand k = { (uint32_t)at, (uint32_t)numend, 0, 0, 0, 0, 0, KV_SECOND_NONE, 0, 0, 0, 0, (unsigned char)(said | tail_rate), 1, 0 };
		if (cls == KV_NONE) {
			k.srank = ki->srank;
			k.loss = !pair && ki->loss;
			/* "epoch/iter: 10/2599": the key's parts name the pair's, the step is the last */
			if (pair && ki->srank && memchr(s + kstart, '/', kend - kstart)) {
				k.at = (uint32_t)numend + 1;
				k.end = (uint32_t)after;
			}
		}
		k.what = (unsigned char)kv_figure(s, len, numend, after, pair, side, sep, unit, cls, scale, invert, gpu, ki, &k);
		/* "| FPS 0158 |": a rate's word and its figure, a field of their own, are a record's */
		if ((k.said & KV_SAID_RATE) && kstart && kv_lone_field(s, len, kstart, after, 0))
			k.said &= (unsigned char)~KV_SAID_RATE;
		k.part = cls == KV_NONE && ki->part ? KV_PART_SHARE : cls == KV_NONE && ki->srank && ki->evals ? KV_PART_EVAL : 0;
		if (k.srank || k.loss || k.part || k.what != KV_WHAT_NONE)
			c[(*nc)++] = k;
	}
	return len;
}

/* The values of the figures c[0, nc) of s, after the n already in out[0, max): how many now. */
static size_t kv_take(const char *s, const struct tputkv_cand *c, size_t nc, struct tputkv_figure *out, size_t n, size_t max,
		      struct tputkv_line *info, struct kv_saids *said)
{
	for (size_t k = 0; k < nc; k++) {
		double v, w;
		if (c[k].what == KV_WHAT_PER_TOKEN) {
			info->inference = 2;
			continue;
		}
		if (c[k].part == KV_PART_SHARE || c[k].part == KV_PART_EVAL || c[k].part == KV_PART_COUNT) {
			said->part |= c[k].part == KV_PART_SHARE;
			/* an evaluation's step is a count: "val_loss_batch: 7.6509" (Keras) is a loss */
			said->eval |= c[k].part == KV_PART_EVAL &&
				      tputunit_number(s + c[k].at, c[k].end - c[k].at, &v) == TPUT_NUM_OK && v == floor(v);
			said->counted |= c[k].part == KV_PART_COUNT;
			continue;
		}
		if (c[k].part == KV_PART_CLOCK ? !tputunit_clock(s, c[k].end, c[k].at, 3, &v)
					       : tputunit_number(s + c[k].at, c[k].end - c[k].at, &v) != TPUT_NUM_OK)
			continue;
		if (c[k].part == KV_PART_LEAD && v != floor(v)) {
			said->cut = 1;
			continue;
		}
		/* a step written "1001k" is rounded: two records may show one, and it is no step */
		if (c[k].srank && v == floor(v) && v < 1e15 && tputbyte_digit(s[c[k].end - 1])) {
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
		/* a share of the peak, even a miscomputed one ("mfu 114.07%" on a resumed run's first
		 * step), is no thousand percent: "parameters for MFU: 973,146,112" is a count */
		if (c[k].unit == TPUT_MFU && (c[k].second == KV_SECOND_FRAC && v <= 1 ? v * 100 : v) * c[k].scale >= 1000)
			continue;
		if (c[k].said && n < 64) {
			said->unit |= (uint64_t)(c[k].said >> 0 & 1) << n;
			said->timer |= (uint64_t)(c[k].said >> 1 & 1) << n;
			said->iter |= (uint64_t)(c[k].said >> 2 & 1) << n;
			said->meter |= (uint64_t)(c[k].said >> 3 & 1) << n;
			said->rate |= (uint64_t)(c[k].said >> 4 & 1) << n;
			said->tail |= (uint64_t)(c[k].said >> 5 & 1) << n;
			said->watch |= (uint64_t)(c[k].said >> 6 & 1) << n;
		}
		if (c[k].second == KV_SECOND_FRAC && v <= 1)  /* an MFU above 1% is never written as 1 */
			v *= 100;
		if (c[k].second == KV_SECOND_STEPS) {  /* the time of N steps: a step's */
			if (tputunit_number(s + c[k].at2, c[k].end2 - c[k].at2, &w) != TPUT_NUM_OK || !(w > 0))
				continue;
			v /= w;
		}
		if (n < max)
			out[n++] = (struct tputkv_figure){ (enum tput_unit)c[k].unit, v * c[k].scale, c[k].average, 0, c[k].at };
		if (c[k].second && c[k].second != KV_SECOND_FRAC && c[k].second != KV_SECOND_STEPS && n < max &&
		    tputunit_number(s + c[k].at2, c[k].end2 - c[k].at2, &w) == TPUT_NUM_OK) {
			if (c[k].second == KV_SECOND_PAREN && c[k].invert && w)
				w = 1 / w;
			out[n++] = (struct tputkv_figure){ (enum tput_unit)c[k].unit2, w * c[k].scale, c[k].average, 0, c[k].at2 };
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
static size_t kv_finish(struct tputkv_figure *out, size_t n, const struct tputkv_line *info, const struct kv_saids *said)
{
	/* A time from a loose key is the step's when the line shows it is (enum kv_said), and
	 * no step time of a surer key is there */
	uint64_t any = said->unit | said->timer | said->iter | said->meter | said->rate | said->tail;
	if (any) {
		int rate = 0, surer = 0, trained = !isnan(info->loss);
		for (size_t k = 0; k < n; k++) {
			rate |= out[k].unit != TPUT_MS_STEP;
			surer |= out[k].unit == TPUT_MS_STEP && !(k < 64 && (any >> k & 1));
		}
		size_t m = 0;
		for (size_t k = 0; k < n; k++) {
			uint64_t b = k < 64 ? 1ULL << k : 0;
			if (!(any & b) || ((said->rate & b) && (trained || info->step >= 0)) ||
			    (!surer && (((said->unit & b) && rate) ||
					((said->timer & b) && (trained || info->step >= 0 || said->counted) && said->part) ||
					((said->iter & b) && trained && info->step >= 0) || ((said->meter & b) && trained)))) {
				out[m++] = out[k];
			} else if (!surer && (((((said->timer & b) && (info->step >= 0 || rate)) || (said->tail & b)) && trained) ||
					      ((said->watch & b) && n == 1))) {
				/* "Iter:[100/247], Time: 0.95, lr: ..., Loss: 0.126": a time beside a step
				 * and a loss, no share of it said; a clock's reading rises, a step's does
				 * not: the series stage looks at the column (tputcand_loose) */
				out[k].loose = 1;
				out[m++] = out[k];
			}
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

static size_t kv_read_uncached(const char *s, size_t len, struct tputkv_figure *out, size_t max, struct tputkv_line *info,
			       tputkv_cache *cache, const struct tputkey_tables *tables)
{
	*info = (struct tputkv_line){ -1, 0, NAN, kv_header(s, len), 0 };
	size_t first_alpha = first_letter(s, len), n = 0, nc;
	struct kv_saids said = { 0 };
	struct tputkv_cand c[KV_SHAPE_CANDS];
	for (size_t i = 0; i < len;) {
		i = kv_scan(s, len, i, first_alpha, c, KV_SHAPE_CANDS, &nc, cache, tables);
		n = kv_take(s, c, nc, out, n, max, info, &said);
	}
	return kv_finish(out, n, info, &said);
}

/* The entry for s[0, len)'s shape, read now when new; NULL when it is too long or holds too
 * many figures to keep. */
static struct tputkv_shape *kv_shape_of(tputkv_cache *cache, const char *s, size_t len)
{
	if (len > KV_SHAPE_MAX || len == 0)
		return NULL;
	char shape[KV_SHAPE_MAX];
	tputbyte_shape(s, len, shape);
	struct tputkv_shape *set = cache->shapes[tputbyte_set(shape, len)];
	for (int w = 0; w < 2; w++)
		if (set[w].len == len && memcmp(set[w].text, shape, len) == 0)
			return set[w].ncand <= KV_SHAPE_CANDS ? &set[w] : NULL;
	set[1] = set[0];
	struct tputkv_shape *e = &set[0];
	e->serial = ++cache->serial;
	e->len = (uint32_t)len;
	memcpy(e->text, shape, len);
	e->header = (unsigned char)kv_header(s, len);
	e->context = -1;
	e->tmpl = 0;
	size_t nc;
	/* one more than kept: a frame with more is read each time as it comes */
	struct tputkv_cand c[KV_SHAPE_CANDS + 1];
	kv_scan(s, len, 0, first_letter(s, len), c, KV_SHAPE_CANDS + 1, &nc, cache, &cache->keys.tables);
	e->ncand = (unsigned char)nc;
	memcpy(e->cand, c, (nc <= KV_SHAPE_CANDS ? nc : KV_SHAPE_CANDS) * sizeof c[0]);
	return nc <= KV_SHAPE_CANDS ? e : NULL;
}

size_t tputkv_read_shape(tputkv_cache *cache, const char *s, size_t len, struct tputkv_figure *out, size_t max,
			 struct tputkv_line *info, struct tputkv_shape *known, struct tputkv_shape **shape)
{
	struct tputkv_shape *e = known ? known : kv_shape_of(cache, s, len);
	*shape = e;
	if (!e)
		return kv_read_uncached(s, len, out, max, info, cache, &cache->keys.tables);
	*info = (struct tputkv_line){ -1, 0, NAN, e->header, 0 };
	struct kv_saids said = { 0 };
	size_t n = kv_take(s, e->cand, e->ncand, out, 0, max, info, &said);
	return kv_finish(out, n, info, &said);
}

enum tput_context tputkv_context(const struct tputctx_words *words, struct tputkv_shape *e, const char *s,
					  size_t len)
{
	if (!e)
		return tputctx_read(words, s, len);
	if (e->context < 0)
		e->context = (signed char)tputctx_read(words, s, len);
	return (enum tput_context)e->context;
}

tputkv_cache *tputkv_cache_new(void)
{
	tputkv_cache *cache = xcalloc(1, sizeof *cache);
	tputkey_cache_init(&cache->keys);
	return cache;
}
void tputkv_cache_free(tputkv_cache *cache) { free(cache); }

size_t tputkv_read(const char *s, size_t len, struct tputkv_figure *out, size_t max, struct tputkv_line *info,
		    tputkv_cache *cache)
{
	struct tputkv_shape *shape;
	if (cache)
		return tputkv_read_shape(cache, s, len, out, max, info, NULL, &shape);
	struct tputkey_tables tables;  /* a line read alone: the tables for it */
	tputkey_tables_init(&tables);
	return kv_read_uncached(s, len, out, max, info, NULL, &tables);
}

/* The key/value reader looks at lines holding one of these (case matters to the search). */
const char *const tputkv_literals[] = {
	"k/s", "s/s", "e/s", "q/s", "g/s", "t/s", "P/s", "p/s", "/sec", "/Sec", "/step", "s/it", "/batch",
	"per_s", "per s", "per-s", "PerSec", "LOPS", "lops", "LOPs", "tps", "wps", "ups=", "mfu", "MFU",
	"tep_tim", "tep time", "atch_tim", "atch tim", "step_avg", "latency", "seconds:", "[step=", "[batch=", "metrics *****",
	"ata_time", "iter_time", "iter time", " data: ", "rain_time", "ter/s", "\tTime ", "\ttime ", "/s/gpu", "ips: ", "atch_cost", "er Sec", "/ s", "Results Summary", "fps ", "tep-tim", "sec/", " iters)", " dt=", "  Time ", "imps:", "time (data)", "ime: ", "SPS", "sps", "imer: ", "updt_s", "\"dt\"", "steps in ", "/Batch", "fps:", "s/b ", "ime/step", "ime=", "ion_tim", "] Time ", "| Batch: ", "FPS ", "m/s", "each_step", " ms)", "atchtime", "teptime", "ime_iter", ") Batch ", "s per ", "i/s]", "ime\":", "e(ms)", "h(ms)", "BT ", "FPS:", NULL,
};
