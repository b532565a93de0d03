/* test_chunk: a file read in chunks on several threads gives every line once, numbered as
 * in the whole file and in file order, whatever the chunk size and thread count. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "chunk.h"
#include "err.h"
#include "tmpdir.h"

static char tmpdir[] = "/tmp/sift-test-chunk-XXXXXX";

static int setup(void **state)
{
	(void)state;
	err_set_prog("test_chunk");
	return tmpdir_make(tmpdir);
}

static int teardown(void **state)
{
	(void)state;
	return tmpdir_remove(tmpdir);
}

static const char *write_file(const char *name, const char *data, size_t len)
{
	static char path[4][256];
	static int next;
	const char *p = tmpdir_file(tmpdir, name, data, len, path[next], sizeof path[next]);
	next = (next + 1) % 4;
	assert_non_null(p);
	return p;
}

/* Worker: each line as "N:text\n" with its chunk-relative number N. */
static size_t work(void *worker, struct in_block *b, struct chunk_buf *out)
{
	unsigned *blocks = worker;
	(*blocks)++;
	unsigned long lineno = b->lineno;
	for (size_t at = 0; at < b->len; lineno++) {
		const char *nl = memchr(b->text + at, '\n', b->len - at);
		size_t end = nl ? (size_t)(nl - b->text) : b->len;
		char head[32];
		int n = snprintf(head, sizeof head, "%lu:", lineno);
		memcpy(chunk_buf_add(out, (size_t)n), head, (size_t)n);
		memcpy(chunk_buf_add(out, end - at), b->text + at, end - at);
		*(char *)chunk_buf_add(out, 1) = '\n';
		at = end + 1;
	}
	return in_count_lines(b->text, b->len);
}

struct joined {
	char text[8192];
	size_t len;
	unsigned chunks;
};

/* Emitter: renumber each "N:" by the lines before the chunk. */
static void emit(void *ctx, const struct chunk_buf *out, unsigned long lines_before)
{
	struct joined *j = ctx;
	j->chunks++;
	for (size_t at = 0; at < out->len;) {
		const char *nl = memchr(out->data + at, '\n', out->len - at);
		char *colon;
		unsigned long n = strtoul(out->data + at, &colon, 10);
		size_t rest = (size_t)(nl - colon);
		j->len += (size_t)snprintf(j->text + j->len, sizeof j->text - j->len, "%lu%.*s\n",
					   n + lines_before, (int)rest, colon);
		at = (size_t)(nl - out->data) + 1;
	}
}

static void test_chunks_tile_in_order(void **state)
{
	(void)state;
	static const char text[] = "first 1\r\n\nthird line\nfourth\n"
				   "a longer fifth line that spans several small chunks\n6\n7\nlast, no newline";
	const char *path = write_file("lines.txt", text, sizeof text - 1);
	static const char want[] = "1:first 1\r\n2:\n3:third line\n4:fourth\n"
				   "5:a longer fifth line that spans several small chunks\n6:6\n7:7\n"
				   "8:last, no newline\n";
	for (unsigned nworkers = 1; nworkers <= 4; nworkers++)
		for (unsigned long long size = 1; size <= sizeof text; size++) {
			unsigned blocks[4] = { 0 };
			void *workers[4] = { &blocks[0], &blocks[1], &blocks[2], &blocks[3] };
			struct joined j = { .len = 0 };
			assert_int_equal(chunk_run(path, size, 0, nworkers, workers, work, emit, &j), 0);
			assert_int_equal(j.chunks, (sizeof text - 1 + size - 1) / size);
			assert_string_equal(j.text, want);
		}
}

/* Worker with lead-ins: each chunk's lines as work writes them, after the last line of its
 * lead-in as "0:text" (the emitter numbers it as the line before the chunk). */
struct lead_worker {
	unsigned blocks;
	char last[64];  /* the lead-in's last line; empty: none */
};

static size_t work_lead(void *worker, struct in_block *b, struct chunk_buf *out)
{
	struct lead_worker *w = worker;
	if (!b) {  /* a lead-in begins */
		w->last[0] = '\0';
		return 0;
	}
	if (!out) {
		for (size_t at = 0; at < b->len;) {
			const char *nl = memchr(b->text + at, '\n', b->len - at);
			size_t end = nl ? (size_t)(nl - b->text) : b->len;
			snprintf(w->last, sizeof w->last, "%.*s", (int)(end - at), b->text + at);
			at = end + 1;
		}
		return in_count_lines(b->text, b->len);
	}
	if (b->lineno == 1 && w->last[0]) {
		char line[sizeof w->last + 3];
		int n = snprintf(line, sizeof line, "0:%s\n", w->last);
		memcpy(chunk_buf_add(out, (size_t)n), line, (size_t)n);
		w->last[0] = '\0';
	}
	return work(&w->blocks, b, out);
}

static void test_lead_in(void **state)
{
	(void)state;
	static const char text[] = "line 01\nline 02\nline 03\nline 04\nline 05\nline 06\nline 07\n";
	const char *path = write_file("lead.txt", text, sizeof text - 1);
	/* chunks of two lines: each after the chunk before's last line, when the lead-in
	 * reaches back to its start; a lead-in too short for a whole line holds none */
	static const char with[] = "1:line 01\n2:line 02\n2:line 02\n3:line 03\n4:line 04\n4:line 04\n"
				   "5:line 05\n6:line 06\n6:line 06\n7:line 07\n";
	static const char without[] = "1:line 01\n2:line 02\n3:line 03\n4:line 04\n5:line 05\n6:line 06\n7:line 07\n";
	static const struct {
		unsigned long long lead;
		const char *want;
	} cases[] = { { 0, without }, { 4, without }, { 8, with }, { 1000, with } };
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
		for (unsigned nworkers = 1; nworkers <= 3; nworkers++) {
			struct lead_worker w[3] = { { 0, "" }, { 0, "" }, { 0, "" } };
			void *workers[3] = { &w[0], &w[1], &w[2] };
			struct joined j = { .len = 0 };
			assert_int_equal(chunk_run(path, 16, cases[c].lead, nworkers, workers, work_lead, emit, &j), 0);
			assert_int_equal(j.chunks, 4);
			assert_string_equal(j.text, cases[c].want);
		}
}

/* Worker with tails: a chunk whose last line is "hold" reads on past its end, writing each
 * line after it as "0:+text" (numbered as the chunk's first line before it), up to a line
 * "go", or to "0:+EOF" when the file ends first. */
struct tail_worker {
	unsigned blocks;
	char last[64];  /* the chunk's last line */
};

static void last_line(char *last, size_t cap, const struct in_block *b)
{
	for (size_t at = 0; at < b->len;) {
		const char *nl = memchr(b->text + at, '\n', b->len - at);
		size_t end = nl ? (size_t)(nl - b->text) : b->len;
		snprintf(last, cap, "%.*s", (int)(end - at), b->text + at);
		at = end + 1;
	}
}

static size_t work_tail(void *worker, struct in_block *b, struct chunk_buf *out)
{
	struct tail_worker *w = worker;
	last_line(w->last, sizeof w->last, b);
	return work(&w->blocks, b, out);
}

static void put_tail(struct chunk_buf *out, const char *text, size_t n)
{
	memcpy(chunk_buf_add(out, 3), "0:+", 3);
	memcpy(chunk_buf_add(out, n), text, n);
	*(char *)chunk_buf_add(out, 1) = '\n';
}

static int tail_fn(void *worker, enum chunk_tail what, struct in_block *b, struct chunk_buf *out)
{
	struct tail_worker *w = worker;
	if (what == CHUNK_TAIL_START)
		return strcmp(w->last, "hold") == 0;
	if (what == CHUNK_TAIL_EOF) {
		put_tail(out, "EOF", 3);
		return 0;
	}
	for (size_t at = 0; at < b->len;) {
		const char *nl = memchr(b->text + at, '\n', b->len - at);
		size_t end = nl ? (size_t)(nl - b->text) : b->len;
		put_tail(out, b->text + at, end - at);
		if (end - at == 2 && memcmp(b->text + at, "go", 2) == 0)
			return 0;
		at = end + 1;
	}
	return 1;
}

static void test_tail(void **state)
{
	(void)state;
	static const char text[] = "hold\nx\ngo\ny\nhold\nz\n";
	const char *path = write_file("tail.txt", text, sizeof text - 1);
	/* chunks of 5 bytes: [hold] [x go] [y hold] [z]; the first reads on to "go", the third
	 * to the end of the file */
	static const char want[] = "1:hold\n0:+x\n0:+go\n2:x\n3:go\n4:y\n5:hold\n3:+z\n3:+EOF\n6:z\n";
	for (unsigned nworkers = 1; nworkers <= 3; nworkers++) {
		struct tail_worker w[3] = { { 0, "" }, { 0, "" }, { 0, "" } };
		void *workers[3] = { &w[0], &w[1], &w[2] };
		struct joined j = { .len = 0 };
		struct chunk_job job = { path, 5, 0, work_tail, tail_fn, emit, &j };
		assert_int_equal(chunk_run_job(&job, nworkers, workers), 0);
		assert_int_equal(j.chunks, 4);
		assert_string_equal(j.text, want);
	}
}

static void test_empty(void **state)
{
	(void)state;
	const char *path = write_file("empty.txt", "", 0);
	unsigned blocks = 0;
	void *workers[1] = { &blocks };
	struct joined j = { .len = 0 };
	assert_int_equal(chunk_run(path, 16, 0, 1, workers, work, emit, &j), 0);
	assert_int_equal(j.chunks, 0);
	assert_int_equal(blocks, 0);
}

static void run_missing(void *arg)
{
	(void)arg;
	unsigned blocks = 0;
	void *workers[1] = { &blocks };
	struct joined j = { .len = 0 };
	printf("%d %u\n", chunk_run("/nonexistent/log", 16, 0, 1, workers, work, emit, &j), j.chunks);
}

static void test_missing(void **state)
{
	(void)state;
	struct captured c;
	capture_run(run_missing, NULL, &c);
	assert_string_equal(c.out, "1 0\n");
	assert_string_equal(c.err, "test_chunk: /nonexistent/log: No such file or directory\n");
}

static void test_splittable(void **state)
{
	(void)state;
	const char *small = write_file("small.txt", "a 1\n", 4);
	assert_int_equal(chunk_splittable(small, 4), 1);
	assert_int_equal(chunk_splittable(small, 5), 0);
	const char *zst = write_file("z.zst", "\x28\xb5\x2f\xfd rest", 9);
	assert_int_equal(chunk_splittable(zst, 1), 0);
	assert_int_equal(chunk_splittable(tmpdir, 0), 0);
	assert_int_equal(chunk_splittable("-", 0), 0);
	assert_int_equal(chunk_splittable("/nonexistent/file", 0), 0);
}

static void test_buf_grows(void **state)
{
	(void)state;
	struct chunk_buf b = { NULL, 0, 0 };
	for (int i = 0; i < 100000; i++)
		*(char *)chunk_buf_add(&b, 1) = (char)('a' + i % 26);
	memset(chunk_buf_add(&b, 300000), 'z', 300000);
	assert_int_equal(b.len, 400000);
	assert_true(b.cap >= b.len);
	assert_int_equal(b.data[99999], 'a' + 99999 % 26);
	assert_int_equal(b.data[399999], 'z');
	free(b.data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chunks_tile_in_order),
		cmocka_unit_test(test_lead_in),
		cmocka_unit_test(test_tail),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_splittable),
		cmocka_unit_test(test_buf_grows),
	};
	return cmocka_run_group_tests_name("chunk", tests, setup, teardown);
}
