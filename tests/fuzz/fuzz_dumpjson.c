/* fuzz_dumpjson: py-spy dump --json values, line by line, each thread pushed into a profile. */
#include "fuzz.h"

#include "dumpjson.h"
#include "err.h"
#include "load.h"
#include "prof.h"

struct run { dumpjson *j; load_sink *sink; unsigned flags; };

static void on_thread(void *ctx, const struct dump_thread *t)
{
	struct run *r = ctx;
	load_dump_thread(r->sink, t, r->flags & 1, r->flags & 2);
}

static void on_line(void *ctx, struct in_line *line)
{
	struct run *r = ctx;
	dumpjson_line(r->j, line);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct err_lines errs;
	err_lines_init(&errs);
	errs.limit = 0;
	struct load_opts opts = { 0 };
	opts.lib_basename = size >> 2 & 1;
	prof *p = prof_new();
	struct run r = { NULL, load_sink_new(p, &opts, &errs), (unsigned)size & 3 };
	r.j = dumpjson_new(&errs, on_thread, &r);
	size_t half = size / 2;
	fuzz_lines(data, half, "a", on_line, &r);
	fuzz_lines(data + half, size - half, "b", on_line, &r);
	dumpjson_finish(r.j);
	dumpjson_get_stats(r.j);
	dumpjson_free(r.j);
	load_sink_free(r.sink);
	prof_sort(p);
	prof_free(p);
	return 0;
}
