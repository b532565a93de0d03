/* fuzz_dump: py-spy dump text, line by line, each thread pushed into a profile. */
#include "fuzz.h"

#include "dump.h"
#include "err.h"
#include "load.h"
#include "prof.h"

struct run { dump_parser *d; load_sink *sink; unsigned flags; };

static void on_thread(void *ctx, const struct dump_thread *t)
{
	struct run *r = ctx;
	load_dump_thread(r->sink, t, r->flags & 1, r->flags & 2);
}

static void on_line(void *ctx, struct in_line *line)
{
	struct run *r = ctx;
	dump_line(r->d, line);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct err_lines errs;
	err_lines_init(&errs);
	errs.limit = 0;
	struct load_opts opts = { 0 };
	opts.no_lines = size >> 2 & 1;
	opts.collapse_addrs = size >> 3 & 1;
	prof *p = prof_new();
	struct run r = { NULL, load_sink_new(p, &opts, &errs), (unsigned)size & 3 };
	r.d = dump_new(&errs, on_thread, &r);
	/* Two files: the parser must close the first one's thread at the second's line 1. */
	size_t half = size / 2;
	fuzz_lines(data, half, "a", on_line, &r);
	fuzz_lines(data + half, size - half, "b", on_line, &r);
	dump_finish(r.d);
	dump_get_stats(r.d);
	dump_free(r.d);
	load_sink_free(r.sink);
	prof_sort(p);
	prof_free(p);

	char *copy = malloc(size + 1);
	if (copy) {
		memcpy(copy, data, size);
		copy[size] = '\0';
		dump_strip_ansi(copy, size);
		free(copy);
	}
	return 0;
}
