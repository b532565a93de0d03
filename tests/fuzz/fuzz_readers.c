/* fuzz_readers: speedscope, chrometrace, flame graph SVG and austin input, line by line
 * through readers (each format by the input's first byte), stacks pushed into a profile;
 * speedscan streamed (small windows and reads) must take and give what it does whole. */
#include "fuzz.h"

#include "err.h"
#include "load.h"
#include "prof.h"
#include "readers.h"
#include "speedscan.h"

#include <stdlib.h>
#include <string.h>

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

struct src { const uint8_t *s; size_t len, at, chunk; };

static size_t src_read(void *ctx, char *buf, size_t cap)
{
	struct src *r = ctx;
	size_t n = r->len - r->at < r->chunk ? r->len - r->at : r->chunk;
	n = n < cap ? n : cap;
	memcpy(buf, r->s + r->at, n);
	r->at += n;
	return n;
}

/* Every stack and count, as one number. */
static void mix(void *ctx, const uint32_t *idx, size_t n, uint64_t count)
{
	uint64_t *h = ctx;
	for (size_t i = 0; i < n; i++)
		*h = (*h ^ idx[i]) * 0x100000001B3u;
	*h = (*h ^ count ^ n << 40) * 0x100000001B3u;
}

static uint64_t digest(speedscan *sc)
{
	uint64_t h = speedscan_frame_count(sc) * 31 + speedscan_profile_count(sc);
	for (size_t i = 0; i < speedscan_profile_count(sc); i++) {
		double w = 0;
		h = (h ^ (uint64_t)speedscan_weight(sc, i, &w)) * 0x100000001B3u;
		uint64_t bits;
		memcpy(&bits, &w, sizeof bits);
		h = (h ^ bits) * 0x100000001B3u;
		h = (h ^ (uint64_t)speedscan_stacks(sc, i, 1, 100, mix, &h)) * 0x100000001B3u;
		h = (h ^ (uint64_t)speedscan_stacks(sc, i, 0, 1, mix, &h)) * 0x100000001B3u;
	}
	return h;
}

static void stream_as_whole(const uint8_t *data, size_t size)
{
	speedscan *whole = speedscan_new((const char *)data, size);
	struct src r = { data, size, 0, size ? 1 + data[size - 1] % 7 : 1 };
	speedscan *part = speedscan_stream(src_read, &r, 1 + (size ? data[0] % 16 : 0));
	if (!whole != !part || (whole && digest(whole) != digest(part)))
		abort();
	speedscan_free(whole);
	speedscan_free(part);
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
	if (r.format == LOAD_SPEEDSCOPE)
		stream_as_whole(data, size);
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
