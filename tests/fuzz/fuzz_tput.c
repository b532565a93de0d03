/* fuzz_tput: log lines (ANSI, rank and time prefixes, "\r" frames) through every preset,
 * and the number, unit, prefix, timestamp, context and key/value readers on each line
 * alone; the whole input as one block must give what its lines give one by one. */
#include "fuzz.h"

#include <math.h>

#include "tput.h"

/* Results in order, to compare the block reader with the line reader. */
struct trace {
	unsigned long lineno[64];
	enum tput_result res[64];
	double value[64];
	size_t n, total;
};

static void on_point(void *ctx, unsigned long lineno, enum tput_result res, const struct tput_point *pt,
		     const char *reason)
{
	struct trace *t = ctx;
	if (res == TPUT_POINT && (!pt || pt->unit >= TPUT_NUNITS || pt->value < 0))
		abort();
	if (res == TPUT_BAD && !reason)
		abort();
	if (t->n < 64) {
		t->lineno[t->n] = lineno;
		t->res[t->n] = res;
		t->value[t->n] = res == TPUT_POINT ? pt->value : 0;
		t->n++;
	}
	t->total++;
}

struct lines_ctx {
	tput_ex *ex;
	tputkv_cache *kv;  /* kept from input to input, as an extractor's is */
	struct trace trace;
	int may_wrap;  /* a line as wide as a wrapping terminal: the block reader may join */
};

static void on_line(void *ctx, struct in_line *line)
{
	struct lines_ctx *lc = ctx;
	size_t bare = line->len && line->text[line->len - 1] == '\r' ? line->len - 1 : line->len;
	lc->may_wrap |= tputrec_wrap_width(bare) || tputrec_wrap_width(line->len);
	double v;
	long rank;
	enum tput_unit unit;
	int invert;
	tputunit_number(line->text, line->len, &v);
	tputunit_parse(line->text, line->len, &unit, &v, &invert);
	tputnorm_rank_prefix(line->text, line->len, &rank);
	tputnorm_timestamp(line->text, line->len, &v);
	tputnorm_find_timestamp(line->text, line->len, &v);
	if (tputctx_of(line->text, line->len) > TPUT_CTX_INFERENCE)
		abort();
	struct tputkv_figure kv[8];
	struct tputkv_line info;
	size_t n = tputkv_read(line->text, line->len, kv, 8, &info, NULL);
	if (n > 8)
		abort();
	for (size_t k = 0; k < n; k++)
		if (kv[k].unit >= TPUT_NUNITS || !(kv[k].value >= 0))
			abort();
	/* Read with what earlier lines taught (the shape may be known, from other digits) and
	 * again (it is): the same as without. */
	for (int again = 0; again < 2; again++) {
		struct tputkv_figure ck[8];
		struct tputkv_line ci;
		if (tputkv_read(line->text, line->len, ck, 8, &ci, lc->kv) != n || ci.step != info.step ||
		    ci.step_rank != info.step_rank || memcmp(&ci.loss, &info.loss, sizeof ci.loss) != 0 ||
		    ci.header != info.header || ci.inference != info.inference)
			abort();
		for (size_t k = 0; k < n; k++)
			if (ck[k].unit != kv[k].unit || memcmp(&ck[k].value, &kv[k].value, sizeof(double)) != 0 ||
			    ck[k].average != kv[k].average)
				abort();
	}
	tput_ex_line(lc->ex, line->text, line->len, line->lineno, on_point, &lc->trace);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Compiling every preset is costly; an extractor's memory of the lines before (record
	 * headers, copies) starts again when line numbers do. */
	static tput_ex *ex;
	static tputkv_cache *kv;
	if (!ex) {
		kv = tputkv_cache_new();
		ex = tput_ex_new();
		for (size_t i = 0; i < tputpreset_count; i++)
			tput_ex_add_preset(ex, i);
	}
	struct lines_ctx lc = { ex, kv, { .n = 0 }, 0 };
	fuzz_lines(data, size, "log", on_line, &lc);
	char *block = malloc(size ? size : 1);
	if (!block)
		abort();
	memcpy(block, data, size);
	struct trace bt = { .n = 0 };
	tput_ex_block(ex, block, size, 1, on_point, &bt);
	free(block);
	if (lc.may_wrap) /* wrapped records are joined by the block reader only (tput.h) */
		return 0;
	if (bt.total != lc.trace.total || bt.n != lc.trace.n)
		abort();
	for (size_t i = 0; i < bt.n; i++)
		if (bt.lineno[i] != lc.trace.lineno[i] || bt.res[i] != lc.trace.res[i] ||
		    memcmp(&bt.value[i], &lc.trace.value[i], sizeof(double)) != 0)
			abort();
	return 0;
}
