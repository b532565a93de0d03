/* fuzz_dump: py-spy dump text, line by line, each thread pushed into a profile and into
 * sift-ranks' groups (every output written to /dev/null). */
#include "fuzz.h"

#include "dump.h"
#include "err.h"
#include "load.h"
#include "prof.h"
#include "ranks.h"

struct run { dump_parser *d; load_sink *sink; unsigned flags; ranks *ranks; };

static void on_thread(void *ctx, const struct dump_thread *t)
{
	struct run *r = ctx;
	load_dump_thread(r->sink, t, r->flags & 1, r->flags & 2);
	ranks_thread(r->ranks, t);
}

/* Groups, table, verdict, tree and folded stacks of what the parser gave. */
static void ranks_out(ranks *rk)
{
	ranks_finish(rk);
	FILE *null = fopen("/dev/null", "w");
	if (!null)
		return;
	table *t = ranks_table(rk);
	table_write(t, null, TABLE_JSON, 0);
	table_free(t);
	ranks_write_verdict(rk, null);
	ranks_write_tree(rk, null);
	ranks_write_folded(rk, null);
	fclose(null);
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
	char rxerr[128];
	struct ranks_opts ropts = { 0 };
	ropts.all_threads = size >> 4 & 1;
	ropts.no_lines = opts.no_lines;
	if (size >> 5 & 1)
		ropts.thread = rx_compile("Thread-1", 8, rxerr, sizeof rxerr);
	if (size >> 6 & 1)
		ropts.rank_from = rx_compile("([0-9])[^0-9]*$", 15, rxerr, sizeof rxerr);
	struct run r = { NULL, load_sink_new(p, &opts, &errs), (unsigned)size & 3, ranks_new(&ropts, &errs) };
	r.d = dump_new(&errs, on_thread, &r);
	/* Two files: the parser must close the first one's thread at the second's line 1. */
	size_t half = size / 2;
	fuzz_lines(data, half, "a", on_line, &r);
	fuzz_lines(data + half, size - half, "b", on_line, &r);
	dump_finish(r.d);
	ranks_out(r.ranks);
	ranks_free(r.ranks);
	rx_free(ropts.thread);
	rx_free(ropts.rank_from);
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
