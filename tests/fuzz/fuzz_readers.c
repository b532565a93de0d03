/* fuzz_readers: speedscope, chrometrace, flame graph SVG and austin input, line by line
 * through readers (each format by the input's first byte), stacks pushed into a profile. */
#include "fuzz.h"

#include "err.h"
#include "load.h"
#include "prof.h"
#include "readers.h"

struct run { readers *r; load_sink *sink; enum load_format format; };

static void on_stack(void *ctx, const char *file, unsigned long lineno,
		     const struct doc_frame *frames, size_t n, uint64_t count)
{
	struct run *r = ctx;
	load_stack_begin(r->sink, file, lineno);
	for (size_t i = 0; i < n; i++)
		load_stack_frame(r->sink, frames[i].s, frames[i].len);
	load_stack_end(r->sink, count);
}

static void on_line(void *ctx, struct in_line *line)
{
	struct run *r = ctx;
	readers_line(r->r, r->format, line);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum load_format formats[] = { LOAD_SPEEDSCOPE, LOAD_CHROME, LOAD_SVG, LOAD_AUSTIN };
	struct err_lines errs;
	err_lines_init(&errs);
	errs.limit = 0;
	struct load_opts opts = { 0 };
	prof *p = prof_new();
	struct run r = { NULL, load_sink_new(p, &opts, &errs), formats[size ? data[0] % 4 : 0] };
	/* Seeds are whole files: their first byte ('{', '[', '<', 'P') picks the right reader. */
	if (size && (data[0] == '{' || data[0] == '['))
		r.format = size > 1 && data[1] == '{' ? LOAD_CHROME : LOAD_SPEEDSCOPE;
	r.r = readers_new(&errs, READERS_RATE, on_stack, &r);
	size_t half = size / 2;
	fuzz_lines(data, half, "a", on_line, &r);
	fuzz_lines(data + half, size - half, "b", on_line, &r);
	readers_finish(r.r);
	readers_stats(r.r);
	readers_free(r.r);
	load_sink_free(r.sink);
	prof_sort(p);
	prof_free(p);
	return 0;
}
