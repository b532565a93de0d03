/* test_readers: lines dispatched to the document readers: austin stacks at once, a document
 * read when its file or format ends (or at the finish), each stack with where it was found,
 * times for the formats that have them, and bad lines and documents counted and named; a
 * speedscope document streamed (readers_stream), its first line whole or in part, gives
 * what it gives read whole. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "tmpdir.h"
#include "err.h"
#include "input.h"
#include "readers.h"

static void test_handles(void **state)
{
	(void)state;
	assert_int_equal(readers_handles(LOAD_SPEEDSCOPE), 1);
	assert_int_equal(readers_handles(LOAD_CHROME), 1);
	assert_int_equal(readers_handles(LOAD_SVG), 1);
	assert_int_equal(readers_handles(LOAD_AUSTIN), 1);
	assert_int_equal(readers_handles(LOAD_AUTO), 0);
	assert_int_equal(readers_handles(LOAD_RAW), 0);
	assert_int_equal(readers_handles(LOAD_DUMP), 0);
	assert_int_equal(readers_handles(LOAD_JSON), 0);
}

/* Each stack printed as it comes, "FILE:LINE: frame;frame COUNT", times before it. */
static void print_stack(void *ctx, const char *file, unsigned long lineno, const struct doc_frame *frames,
			size_t n, uint64_t count)
{
	(void)ctx;
	printf("%s:%lu: ", file, lineno);
	for (size_t i = 0; i < n; i++)
		printf("%s%.*s", i ? ";" : "", (int)frames[i].len, frames[i].s);
	printf(" %llu\n", (unsigned long long)count);
}

static void print_time(void *ctx, const struct doc_time *when)
{
	(void)ctx;
	printf("@%g+%g ", when->at, when->len);
}

struct feed { const char *file; unsigned long lineno; enum load_format format; const char *text; int unterminated; };

/* Feed lines (a NULL text marks "say so here"), finish, and print the figures. */
struct script { const struct feed *lines; size_t n; int timed; };

static void run_script(void *arg)
{
	const struct script *s = arg;
	struct err_lines errs;
	err_lines_init(&errs);
	errs.verbose = 1;
	readers *r = readers_new(&errs, READERS_RATE, print_stack, NULL);
	if (s->timed)
		readers_set_time(r, print_time);
	for (size_t i = 0; i < s->n; i++) {
		const struct feed *f = &s->lines[i];
		if (!f->text) {
			printf("-- after %s:%lu\n", s->lines[i - 1].file, s->lines[i - 1].lineno);
			continue;
		}
		char *copy = strdup(f->text);
		struct in_line line = { copy, strlen(copy), f->file, f->lineno, f->unterminated, NULL, 0 };
		readers_line(r, f->format, &line);
		free(copy);
	}
	readers_finish(r);
	const struct doc_stats *st = readers_stats(r);
	printf("stacks %llu, bad %lu, lost %llu; errs bad %lu, skipped %lu\n", (unsigned long long)st->stacks,
	       st->bad, (unsigned long long)st->lost, errs.bad, errs.skipped);
	readers_free(r);
}

static void check(const struct feed *lines, size_t n, int timed, const char *out, const char *err)
{
	struct script s = { lines, n, timed };
	struct captured *c = malloc(sizeof *c);
	assert_non_null(c);
	capture_run(run_script, &s, c);
	assert_int_equal(c->status, 0);
	assert_string_equal(c->out, out);
	assert_string_equal(c->err, err);
	free(c);
}

#define N(a) (sizeof (a) / sizeof (a)[0])

static void test_austin(void **state)
{
	(void)state;
	const struct feed lines[] = {
		{ "a.txt", 1, LOAD_AUSTIN, "# austin: 3.6.0", 0 },
		{ "a.txt", 2, LOAD_AUSTIN, "P1;T2;a.py:f:3 5", 0 },
		{ NULL, 0, 0, NULL, 0 },
		{ "a.txt", 3, LOAD_AUSTIN, "P1;T2;a.py:f:3 x", 0 },
		{ "a.txt", 4, LOAD_AUSTIN, "P1;T2;a.py:g:4", 1 },
	};
	check(lines, N(lines), 0,
	      "a.txt:2: process 1:\"\";thread (2);f (a.py:3) 5\n"
	      "-- after a.txt:2\n"
	      "stacks 1, bad 2, lost 0; errs bad 2, skipped 1\n",
	      "test_readers: a.txt:1: skipped: austin metadata or blank line\n"
	      "test_readers: a.txt:3: sample count is not a number\n"
	      "test_readers: a.txt:4: no sample count (last line cut off?)\n");
}

#define SS1 "{\"shared\":{\"frames\":[{\"name\":\"main\",\"file\":\"a.py\",\"line\":1},{\"name\":\"f\",\"file\":\"a.py\"}]},"
#define SS2 "\"profiles\":[{\"type\":\"sampled\",\"name\":\"t\",\"unit\":\"none\",\"samples\":[[0,1],[0]],\"weights\":[2,3]}]}"

/* A document is read whole: at the next file's first line, at a line of another format, or
 * at the finish; its stacks are named at the document's first line. */
static void test_documents(void **state)
{
	(void)state;
	const struct feed lines[] = {
		{ "one.json", 1, LOAD_SPEEDSCOPE, SS1, 0 },
		{ "one.json", 2, LOAD_SPEEDSCOPE, SS2, 0 },
		{ NULL, 0, 0, NULL, 0 },
		{ "two.json", 1, LOAD_SPEEDSCOPE, SS1 SS2, 0 },
		{ NULL, 0, 0, NULL, 0 },
		{ "two.json", 2, LOAD_AUSTIN, "P1;T2;b.py:g:2 4", 0 },
		{ "three.json", 1, LOAD_CHROME, "[{\"name\":\"main\",\"ph\":\"B\",\"pid\":1,\"tid\":2,\"ts\":0},"
						 "{\"name\":\"main\",\"ph\":\"E\",\"pid\":1,\"tid\":2,\"ts\":30000}]", 0 },
	};
	check(lines, N(lines), 0,
	      "-- after one.json:2\n"
	      "one.json:1: main (a.py:1);f (a.py) 2\n"
	      "one.json:1: main (a.py:1) 3\n"
	      "-- after two.json:1\n"
	      "two.json:1: main (a.py:1);f (a.py) 2\n"
	      "two.json:1: main (a.py:1) 3\n"
	      "two.json:2: process 1:\"\";thread (2);g (b.py:2) 4\n"
	      "three.json:1: thread (0x2);main 3\n"
	      "stacks 6, bad 0, lost 0; errs bad 0, skipped 0\n",
	      "");
}

/* 10 ms at 100 Hz is a sample; times (seconds from the thread's first event) go before the
 * stack they time; a bad document is counted and named at its bad line. */
static void test_timed_and_bad(void **state)
{
	(void)state;
	const struct feed lines[] = {
		{ "c.json", 1, LOAD_CHROME, "[{\"name\":\"main\",\"ph\":\"B\",\"pid\":1,\"tid\":2,\"ts\":0},", 0 },
		{ "c.json", 2, LOAD_CHROME, "{\"name\":\"f\",\"ph\":\"B\",\"pid\":1,\"tid\":2,\"ts\":10000},", 0 },
		{ "c.json", 3, LOAD_CHROME, "{\"name\":\"f\",\"ph\":\"E\",\"pid\":1,\"tid\":2,\"ts\":30000},", 0 },
		{ "c.json", 4, LOAD_CHROME, "{\"name\":\"main\",\"ph\":\"E\",\"pid\":1,\"tid\":2,\"ts\":40000}]", 0 },
		{ "bad.json", 1, LOAD_SPEEDSCOPE, "{\"profiles\":", 0 },
		{ "bad.json", 2, LOAD_SPEEDSCOPE, "[}", 0 },
	};
	check(lines, N(lines), 1,
	      "@0+0.01 c.json:1: thread (0x2);main 1\n"
	      "@0.01+0.02 c.json:1: thread (0x2);main;f 2\n"
	      "@0.03+0.01 c.json:1: thread (0x2);main 1\n"
	      "stacks 3, bad 1, lost 0; errs bad 1, skipped 0\n",
	      "test_readers: bad.json:2: bad speedscope JSON: unexpected token near '}' (byte 15)\n");
}

/* A file read as load_reader reads it: lines of any length whole (cap 0), or a long one
 * in part (cap); given line by line (stream 0), or streamed from its first line, the rest
 * pulled (readers_stream). */
struct file_run { const char *path; size_t cap; int stream; };

static int pull(void *ctx, struct in_line *line)
{
	if (!in_next(ctx, line))
		return 0;
	printf("line %lu%s\n", line->lineno, line->more ? " in part" : "");
	return 1;
}

static void run_file(void *arg)
{
	const struct file_run *f = arg;
	struct err_lines errs;
	err_lines_init(&errs);
	readers *r = readers_new(&errs, READERS_RATE, print_stack, NULL);
	char *paths[] = { (char *)f->path };
	in_reader *in = in_open(paths, 1);
	in_set_line_cap(in, f->cap);
	struct in_line line;
	while (in_next(in, &line)) {
		printf("line %lu%s\n", line.lineno, line.more ? " in part" : "");
		if (!f->stream || !readers_stream(r, LOAD_SPEEDSCOPE, &line, in, pull, in))
			readers_line(r, LOAD_SPEEDSCOPE, &line);
	}
	readers_finish(r);
	printf("stacks %llu, bad %lu, rate %g\n", (unsigned long long)readers_stats(r)->stacks,
	       readers_stats(r)->bad, readers_stats(r)->rate);
	in_close(in);
	readers_free(r);
}

/* A compact document of 30000 samples (about 340 KB, past the reader's first buffer) given
 * in part gives what it gives whole; one with text on a later line is read again whole, and
 * the JSON library names the fault. */
static void test_streamed(void **state)
{
	(void)state;
	char dir[] = "/tmp/sift-test-readers-XXXXXX", path[2][256];
	assert_int_equal(tmpdir_make(dir), 0);
	size_t cap = 1 << 20, used = 0;
	char *doc = malloc(cap);
	assert_non_null(doc);
	used += (size_t)sprintf(doc, "{\"profiles\":[{\"type\":\"sampled\",\"name\":\"Thread 7 \\\"M\\\"\","
				"\"unit\":\"seconds\",\"samples\":[");
	for (int i = 0; i < 30000; i++)
		used += (size_t)sprintf(doc + used, "%s[0%s]", i ? "," : "", i % 3 ? ",1" : "");
	used += (size_t)sprintf(doc + used, "],\"weights\":[");
	for (int i = 0; i < 30000; i++)
		used += (size_t)sprintf(doc + used, "%s0.005", i ? "," : "");
	used += (size_t)sprintf(doc + used, "]}],\"shared\":{\"frames\":[{\"name\":\"a\",\"file\":\"a.py\","
				"\"line\":1},{\"name\":\"b\"}]},\"exporter\":\"py-spy@0.4.0\"}\n \n");
	assert_non_null(tmpdir_file(dir, "ok.json", doc, used, path[0], sizeof path[0]));
	used += (size_t)sprintf(doc + used, "x\n");
	assert_non_null(tmpdir_file(dir, "bad.json", doc, used, path[1], sizeof path[1]));
	free(doc);
	struct captured *whole = malloc(sizeof *whole), *part = malloc(sizeof *part);
	assert_non_null(whole);
	assert_non_null(part);
	char expect[2048];
	for (int k = 0; k < 2; k++) {
		struct file_run w = { path[k], 0, 0 };
		capture_run(run_file, &w, whole);
		assert_int_equal(whole->status, 0);
		/* whole; in part, given whole; streamed from a whole line, and from one in part */
		for (int mode = 0; mode < 4; mode++) {
			struct file_run p = { path[k], mode & 1 ? 1 << 12 : 0, mode >= 2 };
			capture_run(run_file, &p, part);
			assert_int_equal(part->status, 0);
			const char *one = mode & 1 ? "line 1 in part\n" : "line 1\n";
			if (k == 0)
				snprintf(expect, sizeof expect, "%sline 2\n%s:1: thread (7): M;a (a.py:1) 10000\n"
					 "%s:1: thread (7): M;a (a.py:1);b 20000\nstacks 2, bad 0, rate 200\n",
					 one, path[k], path[k]);
			else
				snprintf(expect, sizeof expect, "%sline 2\nline 3\nstacks 0, bad 1, rate 0\n", one);
			assert_string_equal(part->out, expect);
			assert_string_equal(part->err, whole->err);
		}
	}
	snprintf(expect, sizeof expect, "test_readers: %s:3: bad speedscope JSON: end of file expected near 'x' (byte %zu)\n",
		 path[1], used - 1);
	assert_string_equal(part->err, expect);
	free(whole);
	free(part);
	assert_int_equal(tmpdir_remove(dir), 0);
}

int main(void)
{
	err_set_prog("test_readers");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_handles),
		cmocka_unit_test(test_austin),
		cmocka_unit_test(test_documents),
		cmocka_unit_test(test_timed_and_bad),
		cmocka_unit_test(test_streamed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
