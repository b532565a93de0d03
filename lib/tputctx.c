/* tputctx: training, evaluation or inference, by the words of a line. */
#include "tputctx.h"
#include "err.h"
#include "tputbyte.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Lower-cased words that say a line is not training; inference ones are counted apart.
 * Lengths written down: every word of every line with figures is looked up. */
struct ctx_word {
	const char *text;
	unsigned char len;
};
#define CW(t) { t, sizeof t - 1 }
static const struct ctx_word other_words[] = {
	CW("validate"), CW("validation"), CW("valid"), CW("dev"), CW("eval"), CW("evaluate"), CW("evaluation"),
	CW("evaluating"), CW("evaluator"), CW("test"), CW("testing"), CW("saving"), CW("loading"), CW("checkpoint"),
	CW("weights"), CW("download"), CW("downloading"), CW("tokenize"), CW("tokenizing"),
	CW("tokenization"), CW("tokenizer"), CW("map50"), CW("filter"), CW("filtering"), CW("preprocess"),
	CW("preprocessing"), CW("shuffling"), CW("casting"), CW("concatenating"),
	/* the Hugging Face hub's "Fetching 14 files", a trainer's "caching" of latents */
	CW("fetching"), CW("caching"), CW("shard"), CW("shards"),
	/* a data set made into features ("Converting docs to features"), an index built */
	CW("converting"), CW("conversion"), CW("indexing"),
	CW("sanity"),  /* Lightning's "Sanity Checking DataLoader 0": validation steps before training */
	/* a model's summary ("415 layers, 37196556 parameters, 0 gradients, 105.1 GFLOPS"):
	 * its FLOPs are the model's size, no rate */
	CW("gradients"), { NULL, 0 },
};
static const struct ctx_word inference_words[] = {
	CW("inference"), CW("prompt"), CW("prompts"), CW("generation"), CW("generate"), CW("generating"),
	CW("decode"), CW("decoding"), CW("request"), CW("requests"), CW("accepted"), CW("drafted"),
	CW("predict"), CW("prediction"), CW("serving"), CW("generated"),
	/* Triton's "221.6 infer/sec"; an embedding service's "encoding 512 sentences" */
	CW("infer"), CW("encode"), CW("encoding"), { NULL, 0 },
};

static int word_in(const char *w, size_t n, const struct ctx_word *list)
{
	for (size_t k = 0; list[k].text; k++)
		if (list[k].len == n && list[k].text[0] == w[0] && memcmp(list[k].text, w, n) == 0)
			return 1;
	return 0;
}

void tputctx_init(struct tputctx_words *words)
{
	memset(words, 0, sizeof *words);
	for (int c = 0; c < 256; c++)
		words->word[c] = (unsigned char)tputbyte_word((char)c);
	for (const struct ctx_word *list = other_words;; list = inference_words) {
		for (size_t k = 0; list[k].text; k++) {
			size_t n = list[k].len, first = (size_t)(list[k].text[0] - 'a');
			/* a word the table cannot hold would never be found: fail loudly */
			if (first >= 26 || n >= 8 * sizeof words->lens[0] || n >= TPUTCTX_WORD_MAX) {
				err_warn("tputctx: context word '%s' out of the table's range", list[k].text);
				abort();
			}
			words->lens[first] |= (uint16_t)(1u << n);
		}
		if (list == inference_words)
			break;
	}
}

/* Keys a context word may stand before ("test loss:", "eval acc", mmseg's "decode.loss_ce"):
 * the word then names that figure, not the line, and another figure of the line may well
 * be training's. */
static const struct ctx_word score_words[] = {
	CW("loss"), CW("acc"), CW("accuracy"), CW("ppl"), CW("perplexity"), { NULL, 0 },
};

/* Is w[0, n) (lower case) a score's word, alone or first before a '_'? */
static int score_word(const char *w, size_t n)
{
	const char *u = memchr(w, '_', n);
	return word_in(w, u ? (size_t)(u - w) : n, score_words);
}

/* Does the word after a context word ending at t[i] (past blanks, or one '.' or '/') name
 * a score, alone or first in a word of '_' ("loss_ce")? Only looked at once a context word
 * is found. */
static int qualifies_score(const unsigned char *t, size_t len, size_t i)
{
	if (i < len && (t[i] == '.' || t[i] == '/'))
		i++;
	else
		while (i < len && (t[i] == ' ' || t[i] == '\t'))
			i++;
	size_t st = i;
	while (i < len && i - st < 16 && tputbyte_word(t[i]) && t[i] != '_')
		i++;
	size_t n = i - st;
	if (n < 3 || n >= 16 || (i < len && tputbyte_word(t[i]) && t[i] != '_'))
		return 0;
	char w[16];
	for (size_t k = 0; k < n; k++)
		w[k] = (char)(t[st + k] >= 'A' && t[st + k] <= 'Z' ? t[st + k] + 32 : t[st + k]);
	return word_in(w, n, score_words);
}

/* Does the context word at t[st, i) end a key of several words that a figure follows, with
 * no bar after it ("fps step and policy inference: 230705 fps total: 181660", rl_games)? The
 * word then names that figure, which the key reader keeps out; the line's others may be
 * training's. "Running inference: 45%|" draws a bar and names the line. */
static int qualifies_key(const unsigned char *t, size_t len, size_t st, size_t i)
{
	if (st < 2 || t[st - 1] != ' ' || i + 2 >= len)
		return 0;
	/* the word ends its key ("step and policy inference:"), or starts a key of two words
	 * after another field ("train speed = 6205.5 images/s, test speed = 11218.4") */
	if (tputbyte_alnum((char)t[st - 2])) {
		if (t[i] != ':' && t[i] != '=')
			return 0;
	} else {
		if (t[st - 2] != ',' && t[st - 2] != '|' && t[st - 2] != ';')
			return 0;
		if (t[i] != ' ')
			return 0;
		i++;
		while (i < len && tputbyte_word((char)t[i]))
			i++;
		while (i < len && t[i] == ' ')
			i++;
		if (i + 2 >= len || (t[i] != ':' && t[i] != '='))
			return 0;
	}
	i++;
	while (i < len && t[i] == ' ')
		i++;
	if (i == len || !tputbyte_digit((char)t[i]))
		return 0;
	while (i < len && (tputbyte_digit((char)t[i]) || t[i] == '.'))
		i++;
	/* "Running evaluation: 7it [00:00, 79.28it/s]": a bar's count, no key's figure */
	size_t u = i;
	while (u < len && tputbyte_alpha((char)t[u]))
		u++;
	if (u > i && u + 1 < len && t[u] == ' ' && t[u + 1] == '[')
		return 0;
	return i == len || (t[i] != '%' && t[i] != '|' && t[i] != '/');
}

enum tput_context tputctx_read_shaped(const struct tputctx_words *words, const char *s, size_t len, int *by_shape)
{
	enum tput_context ctx = TPUT_CTX_TRAIN;
	*by_shape = 1;
	const unsigned char *t = (const unsigned char *)s;
	/* HF datasets' "Map: 100%|...| 812.34 examples/s]" and "Map (num_proc=8): ...": data
	 * preparation's bars; the word is too short and too common to look for anywhere else */
	size_t lead = 0;
	while (lead < len && (s[lead] == ' ' || s[lead] == '\t'))
		lead++;
	if (len - lead >= 5 && memcmp(s + lead, "Map", 3) == 0 && (s[lead + 3] == ':' || memcmp(s + lead + 3, " (", 2) == 0))
		return TPUT_CTX_OTHER;
	/* a bar whose description names a dataset prepares data ("Tokenizing train dataset",
	 * TRL's); a training line may well say which dataset it reads */
	const char *bar = memmem(s, len, "%|", 2);
	size_t described = bar ? (size_t)(bar - s) : 0;
	for (size_t i = 0; i < len;) {
		while (i < len && !words->word[t[i]])
			i++;
		if (i == len)
			break;
		/* a run of letters, digits and '_': a word when it starts with no '_' */
		size_t st = i++;
		while (i < len && words->word[t[i]])
			i++;
		/* a message glued to a figure ("accuracy: 0.9043Converting docs"): its word */
		if (tputbyte_digit((char)t[st])) {
			size_t l = st;
			while (l < i && tputbyte_digit((char)t[l]))
				l++;
			if (l < i && t[l] >= 'A' && t[l] <= 'Z')
				st = l;
		}
		size_t n = i - st;
		if (n < 3 || n >= TPUTCTX_WORD_MAX || t[st] == '_')
			continue;
		if (st < described && (n == 7 || (n == 8 && (t[st + 7] | 32) == 's')) &&
		    strncasecmp((const char *)t + st, "dataset", 7) == 0)
			ctx = TPUT_CTX_OTHER;
		/* "Epoch(val)", "[val]": MMEngine's validation loop; "val" alone is too common
		 * ("loss train: 1.062, val: 1.057" on a training line) */
		if (n == 3 && (t[st] | 32) == 'v' && (t[st + 1] | 32) == 'a' && (t[st + 2] | 32) == 'l' && st > 0 &&
		    (t[st - 1] == '(' || t[st - 1] == '[') && i < len && (t[i] == ')' || t[i] == ']'))
			ctx = TPUT_CTX_OTHER;
		char c = (char)(t[st] | 32);
		if (c < 'a' || c > 'z' || !(words->lens[c - 'a'] >> n & 1))
			continue;
		char w[TPUTCTX_WORD_MAX];
		for (size_t k = 0; k < n; k++) {
			w[k] = (char)(t[st + k] >= 'A' && t[st + k] <= 'Z' ? t[st + k] + 32 : t[st + k]);
			*by_shape &= !tputbyte_digit(w[k]);  /* "map50": its digits matter */
		}
		if (word_in(w, n, inference_words) && !qualifies_score(t, len, i) && !qualifies_key(t, len, st, i))
			return TPUT_CTX_INFERENCE;
		/* "dev" beside a '/' is a device's ("tok/s/dev") or a path's ("/dev/shm") */
		if (n == 3 && ((st > 0 && t[st - 1] == '/') || (i < len && t[i] == '/')))
			continue;
		if (word_in(w, n, other_words) && !qualifies_score(t, len, i) && !qualifies_key(t, len, st, i))
			ctx = TPUT_CTX_OTHER;
		/* "eval_pred: 100%|", "eval_runtime": evaluation's words joined by '_', but for a
		 * score ("eval_loss" on a training line names that figure) */
		if (n > 5 && memcmp(w, "eval_", 5) == 0 && !score_word(w + 5, n - 5))
			ctx = TPUT_CTX_OTHER;
	}
	return ctx;
}

enum tput_context tputctx_read(const struct tputctx_words *words, const char *s, size_t len)
{
	int by_shape;
	return tputctx_read_shaped(words, s, len, &by_shape);
}

enum tput_context tputctx_of(const char *s, size_t len)
{
	struct tputctx_words words;
	tputctx_init(&words);
	return tputctx_read(&words, s, len);
}
