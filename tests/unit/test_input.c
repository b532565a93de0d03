/* test_input: files and "-", CRLF, last lines, long lines, zstd and gzip (multi-frame or
 * member, truncated, corrupt), empty files, missing files and directories. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "capture.h"
#include "tmpdir.h"
#include "err.h"
#include "input.h"

static char tmpdir[] = "/tmp/sift-test-input-XXXXXX";
static char path_buf[4][512];

static const char *fixture(int slot, const char *name)
{
	const char *root = getenv("SIFT_TESTDATA");
	snprintf(path_buf[slot], sizeof path_buf[slot], "%s/%s", root ? root : "testdata", name);
	return path_buf[slot];
}

static const char *tmp_file(int slot, const char *name, const void *data, size_t len)
{
	const char *path = tmpdir_file(tmpdir, name, data, len, path_buf[slot], sizeof path_buf[slot]);
	assert_non_null(path);
	return path;
}

static int setup(void **state)
{
	(void)state;
	err_set_prog("test_input");
	return tmpdir_make(tmpdir);
}

static int teardown(void **state)
{
	(void)state;
	return tmpdir_remove(tmpdir);
}

static void expect_line(in_reader *r, const char *text, size_t len, unsigned long lineno,
			int unterminated)
{
	struct in_line line;
	assert_int_equal(in_next(r, &line), 1);
	assert_int_equal(line.len, len);
	assert_memory_equal(line.text, text, len);
	assert_int_equal(line.text[len], '\0');
	assert_int_equal(line.lineno, lineno);
	assert_int_equal(line.unterminated, unterminated);
}

static void expect_end(in_reader *r)
{
	struct in_line line;
	assert_int_equal(in_next(r, &line), 0);
	assert_int_equal(in_next(r, &line), 0);
}

static void test_crlf(void **state)
{
	(void)state;
	char *paths[] = { (char *)fixture(0, "raw/crlf.txt") };
	in_reader *r = in_open(paths, 1);
	struct in_line line;
	assert_int_equal(in_next(r, &line), 1);
	assert_string_equal(line.text, "main (a.py:1);work (a.py:2) 5");
	assert_string_equal(line.file, paths[0]);
	expect_line(r, "main (a.py:1);other (a.py:3) 2", 30, 2, 0);
	expect_line(r, "", 0, 3, 0);
	expect_line(r, "main (a.py:1);work (a.py:2) 1", 29, 4, 0);
	expect_end(r);
	assert_int_equal(in_failed(r), 0);
	assert_int_equal(in_bytes(r), 96);
	in_close(r);
}

static void test_last_lines(void **state)
{
	(void)state;
	char *paths[] = { (char *)fixture(0, "raw/no-final-newline.txt"),
			  (char *)tmp_file(1, "cr-last", "a 1\r\nb 2\r", 9),
			  (char *)tmp_file(2, "just-newline", "\n", 1) };
	in_reader *r = in_open(paths, 3);
	expect_line(r, "main (a.py:1);work (a.py:2) 5", 29, 1, 0);
	expect_line(r, "main (a.py:1);other (a.py:3) 2", 30, 2, 1);
	/* Line numbers start again in each file; a lone CR before the end is dropped too. */
	expect_line(r, "a 1", 3, 1, 0);
	expect_line(r, "b 2", 3, 2, 1);
	expect_line(r, "", 0, 1, 0);
	expect_end(r);
	in_close(r);
}

static void test_nul_bytes_kept(void **state)
{
	(void)state;
	char *paths[] = { (char *)tmp_file(0, "nul", "a\0b 1\n\0\n", 8) };
	in_reader *r = in_open(paths, 1);
	expect_line(r, "a\0b 1", 5, 1, 0);
	expect_line(r, "\0", 1, 2, 0);
	expect_end(r);
	in_close(r);
}

static void test_long_lines(void **state)
{
	(void)state;
	size_t big = 3u << 20; /* 3 MiB: many times the starting buffer */
	char *data = malloc(big + 64);
	assert_non_null(data);
	memcpy(data, "short 1\n", 8);
	memset(data + 8, 'x', big);
	memcpy(data + 8 + big, "\nafter 2\n", 9);
	char *paths[] = { (char *)tmp_file(0, "long", data, big + 17) };
	in_reader *r = in_open(paths, 1);
	struct in_line line;
	expect_line(r, "short 1", 7, 1, 0);
	assert_int_equal(in_next(r, &line), 1);
	assert_int_equal(line.len, big);
	assert_int_equal(line.lineno, 2);
	assert_int_equal(line.text[0], 'x');
	assert_int_equal(line.text[big - 1], 'x');
	assert_int_equal(line.text[big], '\0');
	expect_line(r, "after 2", 7, 3, 0);
	expect_end(r);
	assert_int_equal(in_bytes(r), big + 17);
	in_close(r);

	/* The same through zstd, with the long line last and unterminated. */
	memcpy(data + 8 + big, "\nlast", 5);
	size_t zcap = ZSTD_compressBound(big + 13);
	char *z = malloc(zcap);
	size_t zlen = ZSTD_compress(z, zcap, data, big + 13, 3);
	assert_false(ZSTD_isError(zlen));
	paths[0] = (char *)tmp_file(1, "long.zst", z, zlen);
	r = in_open(paths, 1);
	expect_line(r, "short 1", 7, 1, 0);
	assert_int_equal(in_next(r, &line), 1);
	assert_int_equal(line.len, big);
	expect_line(r, "last", 4, 3, 1);
	expect_end(r);
	assert_int_equal(in_failed(r), 0);
	assert_int_equal(in_bytes(r), zlen);
	in_close(r);
	free(z);
	free(data);
}

static unsigned char *gzip_member(const char *data, size_t len, size_t *out_len);

/* in_set_line_cap: a long line handed out in part; the rest by in_more (a final "\r" left
 * in), made whole by in_line_rest, or skipped by in_next. Plain and gzip alike. */
static void expect_parts(const char *path, const char *data, size_t big)
{
	char *paths[] = { (char *)path };
	in_reader *r = in_open(paths, 1);
	in_set_line_cap(r, 1u << 18);
	struct in_line line;
	expect_line(r, "short 1", 7, 1, 0);
	assert_string_equal(in_path(r), path);
	assert_int_equal(in_next(r, &line), 1);
	assert_int_equal(line.more, 1);
	assert_int_equal(line.lineno, 2);
	assert_true(line.len >= 1u << 18 && line.len <= big);
	assert_memory_equal(line.text, data + 8, line.len);
	size_t got = line.len, n;
	const char *text;
	while (in_more(r, &text, &n)) {
		assert_true(n > 0 && got + n <= big + 1);
		assert_memory_equal(text, data + 8 + got, n);
		got += n;
	}
	assert_int_equal(got, big + 1);  /* the line and its "\r" */
	assert_int_equal(in_more(r, &text, &n), 0);
	assert_int_equal(in_lineno(r), 2);
	expect_line(r, "after 3", 7, 3, 0);
	assert_int_equal(in_next(r, &line), 1);
	assert_int_equal(line.more, 1);
	in_line_rest(r, &line);
	assert_int_equal(line.more, 0);
	assert_int_equal(line.lineno, 4);
	assert_int_equal(line.len, big);
	assert_memory_equal(line.text, data + 8 + big + 10, big);
	assert_int_equal(line.text[big], '\0');
	assert_int_equal(in_next(r, &line), 1);  /* line 5, left unread */
	assert_int_equal(line.more, 1);
	expect_line(r, "end", 3, 6, 1);
	expect_end(r);
	assert_null(in_path(r));
	assert_int_equal(in_failed(r), 0);
	in_close(r);
}

static void test_line_parts(void **state)
{
	(void)state;
	size_t big = 1u << 20;
	char *data = malloc(3 * big + 64);
	assert_non_null(data);
	size_t at = 0;
	memcpy(data, "short 1\n", 8);
	at = 8;
	for (int k = 0; k < 3; k++) {
		for (size_t i = 0; i < big; i++)
			data[at + i] = (char)('a' + (i * 7 + (size_t)k) % 26);
		at += big;
		static const char *const after[] = { "\r\nafter 3\n", "\n", "\nend" };
		memcpy(data + at, after[k], strlen(after[k]));
		at += strlen(after[k]);
	}
	expect_parts(tmp_file(0, "parts", data, at), data, big);
	size_t glen;
	unsigned char *g = gzip_member(data, at, &glen);
	expect_parts(tmp_file(1, "parts.gz", g, glen), data, big);
	free(g);
	free(data);
}

/* merge-a.txt then merge-b.txt, compressed one after the other, read as one stream. */
static void expect_merged(const char *name)
{
	char *paths[] = { (char *)fixture(0, name) };
	in_reader *r = in_open(paths, 1);
	expect_line(r, "main (a.py:1);work (a.py:2) 5", 29, 1, 0);
	expect_line(r, "main (a.py:1);other (a.py:3) 2", 30, 2, 0);
	expect_line(r, "main (a.py:1);other (a.py:3) 3", 30, 3, 0);
	expect_line(r, "main (a.py:1);work (a.py:2);deeper (b.py:9) 1", 45, 4, 0);
	expect_line(r, "main (a.py:1);work (a.py:2) 10", 30, 5, 0);
	expect_end(r);
	assert_int_equal(in_failed(r), 0);
	in_close(r);
}

static void test_zstd_multi_frame(void **state)
{
	(void)state;
	expect_merged("raw/merge-multiframe.txt.zst");  /* two zstd frames */
}

/* data as one gzip member (deflate with gzip framing, as gzip(1) writes). */
static unsigned char *gzip_member(const char *data, size_t len, size_t *out_len)
{
	z_stream z;
	memset(&z, 0, sizeof z);
	assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
	size_t cap = deflateBound(&z, len) + 64;
	unsigned char *out = malloc(cap);
	assert_non_null(out);
	z.next_in = (unsigned char *)data;
	z.avail_in = (uInt)len;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	*out_len = cap - z.avail_out;
	deflateEnd(&z);
	return out;
}

static void test_gzip_long_lines_and_members(void **state)
{
	(void)state;
	/* Two members, the second holding a 3 MiB line that ends the file unterminated. */
	size_t big = 3u << 20;
	char *data = malloc(big + 8);
	assert_non_null(data);
	memcpy(data, "first 1\n", 8);
	memset(data + 8, 'y', big);
	size_t len1, len2;
	unsigned char *m1 = gzip_member(data, 8, &len1), *m2 = gzip_member(data + 8, big, &len2);
	unsigned char *both = malloc(len1 + len2);
	assert_non_null(both);
	memcpy(both, m1, len1);
	memcpy(both + len1, m2, len2);
	char *paths[] = { (char *)tmp_file(0, "long.gz", both, len1 + len2) };
	in_reader *r = in_open(paths, 1);
	struct in_line line;
	expect_line(r, "first 1", 7, 1, 0);
	assert_int_equal(in_next(r, &line), 1);
	assert_int_equal(line.len, big);
	assert_int_equal(line.lineno, 2);
	assert_int_equal(line.unterminated, 1);
	assert_int_equal(line.text[big - 1], 'y');
	expect_end(r);
	assert_int_equal(in_failed(r), 0);
	assert_int_equal(in_bytes(r), len1 + len2);
	in_close(r);
	free(both);
	free(m1);
	free(m2);
	free(data);
}

static void test_take_line(void **state)
{
	(void)state;
	/* A long line taken whole, then the reader goes on: the line after, then the next
	 * file's unterminated last line, taken too. */
	size_t big = 2u << 20;
	char *data = malloc(big + 16);
	assert_non_null(data);
	memset(data, 'j', big);
	memcpy(data + big, "\nnext 2\nlast", 12);
	char *paths[] = { (char *)tmp_file(0, "take1", data, big + 12), (char *)tmp_file(1, "take2", "a\nb", 3) };
	in_reader *r = in_open(paths, 2);
	struct in_line line;
	size_t cap;
	assert_int_equal(in_next(r, &line), 1);
	assert_int_equal(line.len, big);
	char *taken = in_take_line(r, &line, &cap);
	assert_non_null(taken);
	assert_true(cap >= big + 2);
	assert_int_equal(taken[0], 'j');
	assert_int_equal(taken[big - 1], 'j');
	assert_int_equal(taken[big], '\0');
	expect_line(r, "next 2", 6, 2, 0);
	expect_line(r, "last", 4, 3, 1);
	expect_line(r, "a", 1, 1, 0);
	assert_int_equal(in_next(r, &line), 1);
	char *b = in_take_line(r, &line, &cap);
	assert_non_null(b);
	assert_string_equal(b, "b");
	assert_true(cap >= 3);
	/* A copy is not the reader's: the caller copies it. */
	struct in_line copy = { "x", 1, "f", 1, 0, r, 0 };
	assert_null(in_take_line(r, &copy, &cap));
	copy.reader = NULL;
	assert_null(in_take_line(NULL, &copy, &cap));
	expect_end(r);
	in_close(r);
	free(b);
	free(taken);
	free(data);
}

static void test_gzip_members_fixture(void **state)
{
	(void)state;
	expect_merged("raw/merge-members.txt.gz");  /* two gzip members, as gzip -dc reads them */
}

static void test_compression_by_magic(void **state)
{
	(void)state;
	assert_int_equal(in_compression("\x28\xb5\x2f\xfd", 4), IN_ZSTD);
	assert_int_equal(in_compression("\x28\xb5\x2f", 3), IN_PLAIN);
	assert_int_equal(in_compression("\x1f\x8b", 2), IN_GZIP);
	assert_int_equal(in_compression("\x1f\x8b\x08\x00", 4), IN_GZIP);
	assert_int_equal(in_compression("\x1f", 1), IN_PLAIN);
	assert_int_equal(in_compression("main 1\n", 7), IN_PLAIN);
	assert_int_equal(in_compression("", 0), IN_PLAIN);
}

struct read_all { char *paths[4]; size_t n; int use_stdin_from; };

/* Child: print "file:line:text" for each line, then "failed=N". */
static void read_all(void *arg)
{
	struct read_all *a = arg;
	if (a->use_stdin_from >= 0) {
		int fd = open(path_buf[a->use_stdin_from], O_RDONLY);
		dup2(fd, 0);
		close(fd);
	}
	in_reader *r = in_open(a->paths, a->n);
	struct in_line line;
	while (in_next(r, &line))
		printf("%s:%lu:%s%s\n", line.file, line.lineno, line.text, line.unterminated ? "|" : "");
	printf("failed=%d\n", in_failed(r));
	in_close(r);
}

static void test_zstd_truncated_and_corrupt(void **state)
{
	(void)state;
	struct read_all a = { { (char *)fixture(0, "raw/zoo-truncated.txt.zst"),
				(char *)fixture(1, "raw/zoo-corrupt.txt.zst"),
				(char *)fixture(2, "raw/merge-a.txt") }, 3, -1 };
	struct captured c;
	capture_run(read_all, &a, &c);
	assert_int_equal(c.status, 0);
	char want[8192];
	snprintf(want, sizeof want,
		 "test_input: %s: truncated zstd stream\n"
		 "test_input: %s: corrupt zstd stream: Data corruption detected\n",
		 path_buf[0], path_buf[1]);
	assert_string_equal(c.err, want);
	snprintf(want, sizeof want,
		 "%s:1:main (a.py:1);work (a.py:2) 5\n%s:2:main (a.py:1);other (a.py:3) 2\nfailed=1\n",
		 path_buf[2], path_buf[2]);
	assert_string_equal(c.out, want);
}

static void test_gzip_truncated_corrupt_trailing(void **state)
{
	(void)state;
	struct read_all a = { { (char *)fixture(0, "raw/zoo-truncated.txt.gz"),
				(char *)fixture(1, "raw/zoo-corrupt.txt.gz"),
				(char *)fixture(2, "raw/zoo-trailing.txt.gz"),
				(char *)fixture(3, "raw/merge-a.txt") }, 4, -1 };
	struct captured c;
	capture_run(read_all, &a, &c);
	assert_int_equal(c.status, 0);
	char want[8192];
	snprintf(want, sizeof want,
		 "test_input: %s: truncated gzip stream\n"
		 "test_input: %s: corrupt gzip stream: invalid bit length repeat\n"
		 "test_input: %s: trailing garbage after gzip stream\n",
		 path_buf[0], path_buf[1], path_buf[2]);
	assert_string_equal(c.err, want);
	/* zoo.txt's 6 lines come whole before the garbage; the cut-off ones never do. */
	assert_non_null(strstr(c.out, "zoo-trailing.txt.gz:6: 2\n"));
	assert_null(strstr(c.out, "zoo-truncated"));
	assert_null(strstr(c.out, "zoo-corrupt"));
	snprintf(want, sizeof want,
		 "%s:1:main (a.py:1);work (a.py:2) 5\n%s:2:main (a.py:1);other (a.py:3) 2\nfailed=1\n",
		 path_buf[3], path_buf[3]);
	assert_non_null(strstr(c.out, want));
}

static void test_missing_dir_empty(void **state)
{
	(void)state;
	snprintf(path_buf[0], sizeof path_buf[0], "%s/no-such-file", tmpdir);
	struct read_all a = { { path_buf[0], tmpdir, (char *)tmp_file(1, "empty", "", 0),
				(char *)tmp_file(2, "one", "x 1", 3) }, 4, -1 };
	struct captured c;
	capture_run(read_all, &a, &c);
	assert_int_equal(c.status, 0);
	char want[8192];
	snprintf(want, sizeof want,
		 "test_input: %s/no-such-file: No such file or directory\n"
		 "test_input: %s: Is a directory\n", tmpdir, tmpdir);
	assert_string_equal(c.err, want);
	snprintf(want, sizeof want, "%s:1:x 1|\nfailed=1\n", path_buf[2]);
	assert_string_equal(c.out, want);

	/* An empty file alone is no failure and no line. */
	char *paths[] = { path_buf[1] };
	in_reader *r = in_open(paths, 1);
	expect_end(r);
	assert_int_equal(in_failed(r), 0);
	assert_int_equal(in_bytes(r), 0);
	in_close(r);
}

static void test_stdin(void **state)
{
	(void)state;
	/* No paths reads stdin; "-" among files does too; zstd is found on stdin by magic. */
	fixture(0, "raw/merge-multiframe.txt.zst");
	struct read_all a = { { NULL }, 0, 0 };
	struct captured c;
	capture_run(read_all, &a, &c);
	assert_string_equal(c.err, "");
	assert_string_equal(c.out,
			    "(stdin):1:main (a.py:1);work (a.py:2) 5\n"
			    "(stdin):2:main (a.py:1);other (a.py:3) 2\n"
			    "(stdin):3:main (a.py:1);other (a.py:3) 3\n"
			    "(stdin):4:main (a.py:1);work (a.py:2);deeper (b.py:9) 1\n"
			    "(stdin):5:main (a.py:1);work (a.py:2) 10\n"
			    "failed=0\n");
	tmp_file(1, "two", "t 2\n", 4);
	struct read_all b = { { path_buf[1], "-" }, 2, 0 };
	capture_run(read_all, &b, &c);
	char want[8192];
	snprintf(want, sizeof want, "%s:1:t 2\n(stdin):1:main (a.py:1);work (a.py:2) 5\n", path_buf[1]);
	assert_memory_equal(c.out, want, strlen(want));
	/* gzip on stdin, two members. */
	fixture(0, "raw/merge-members.txt.gz");
	capture_run(read_all, &a, &c);
	assert_string_equal(c.err, "");
	assert_string_equal(c.out,
			    "(stdin):1:main (a.py:1);work (a.py:2) 5\n"
			    "(stdin):2:main (a.py:1);other (a.py:3) 2\n"
			    "(stdin):3:main (a.py:1);other (a.py:3) 3\n"
			    "(stdin):4:main (a.py:1);work (a.py:2);deeper (b.py:9) 1\n"
			    "(stdin):5:main (a.py:1);work (a.py:2) 10\n"
			    "failed=0\n");
}

static void test_slurp(void **state)
{
	(void)state;
	size_t len = 99;
	char *text = in_slurp(fixture(0, "raw/crlf.txt"), &len);
	assert_non_null(text);
	assert_int_equal(len, 92);
	assert_string_equal(text, "main (a.py:1);work (a.py:2) 5\nmain (a.py:1);other (a.py:3) 2\n\n"
				  "main (a.py:1);work (a.py:2) 1\n");
	free(text);
	text = in_slurp(fixture(0, "raw/merge-multiframe.txt.zst"), &len);
	assert_non_null(text);
	assert_int_equal(len, 169);
	free(text);
	text = in_slurp(tmp_file(1, "empty2", "", 0), &len);
	assert_non_null(text);
	assert_int_equal(len, 0);
	assert_string_equal(text, "");
	free(text);
}

static void slurp_missing(void *arg)
{
	size_t len = 7;
	char *text = in_slurp(arg, &len);
	printf("%s %zu\n", text ? "text" : "NULL", len);
}

static void test_slurp_missing(void **state)
{
	(void)state;
	struct captured c;
	capture_run(slurp_missing, "/nonexistent/rules", &c);
	assert_string_equal(c.out, "NULL 7\n");
	assert_string_equal(c.err, "test_input: /nonexistent/rules: No such file or directory\n");
}

/* A file for cutting into ranges: CRLF, an empty line, a long line, no final newline. */
static const char *ranges_file(size_t *len)
{
	char text[400];
	size_t n = 0;
	n += (size_t)snprintf(text + n, sizeof text - n, "a;b 1\r\n\nccc;d 22\n");
	memset(text + n, 'x', 200);
	n += 200;
	n += (size_t)snprintf(text + n, sizeof text - n, " 3\nlast 4");
	*len = n;
	return tmp_file(0, "ranges.txt", text, n);
}

/* Ranges that tile a file, split at every byte, give every line once, numbered as in the
 * whole file; CRLF, an empty line, a long line and no final newline included. */
static void test_ranges_tile_a_file(void **state)
{
	(void)state;
	size_t n;
	const char *path = ranges_file(&n);
	/* The whole file, for reference: texts and numbers. */
	char want[8][256];
	unsigned long want_no[8];
	size_t nwant = 0;
	char *paths[] = { (char *)path };
	in_reader *r = in_open(paths, 1);
	struct in_line line;
	while (in_next(r, &line)) {
		snprintf(want[nwant], sizeof want[nwant], "%s", line.text);
		want_no[nwant++] = line.lineno;
	}
	in_close(r);
	assert_int_equal(nwant, 5);
	for (size_t split = 0; split <= n; split++) {
		size_t got = 0;
		unsigned long long bounds[3] = { 0, split, n };
		for (int part = 0; part < 2; part++) {
			r = in_open_range(path, bounds[part], bounds[part + 1]);
			while (in_next(r, &line)) {
				assert_true(got < nwant);
				assert_string_equal(line.text, want[got]);
				assert_int_equal(line.lineno, want_no[got]);
				got++;
			}
			assert_int_equal(in_failed(r), 0);
			in_close(r);
		}
		assert_int_equal(got, nwant);
	}
}

/* A chunk numbers its lines from 1; the lines before it, counted on demand, make each
 * number the whole file's, at every split (inside a line, after "\r\n", on the empty line). */
static void test_chunk_lines_before(void **state)
{
	(void)state;
	size_t n;
	const char *path = ranges_file(&n);
	char *paths[] = { (char *)path };
	unsigned long want_no[8];
	size_t nwant = 0;
	struct in_line line;
	in_reader *r = in_open(paths, 1);
	while (in_next(r, &line))
		want_no[nwant++] = line.lineno;
	in_close(r);
	for (size_t split = 0; split <= n; split++) {
		size_t got = 0;
		unsigned long long bounds[3] = { 0, split, n };
		for (int part = 0; part < 2; part++) {
			r = in_open_chunk(path, bounds[part], bounds[part + 1]);
			unsigned long before = in_lines_before(r);
			while (in_next(r, &line)) {
				assert_int_equal(before + line.lineno, want_no[got]);
				assert_int_equal(in_lines_before(r), before);
				got++;
			}
			if (part == 0)
				assert_int_equal(before, 0);
			in_close(r);
		}
		assert_int_equal(got, nwant);
	}
	r = in_open(paths, 1);
	assert_int_equal(in_lines_before(r), 0);  /* not a chunk */
	in_close(r);
}

/* Lines as "lineno:text" (text without "\r\n"; "|" marks an unterminated line), via in_next
 * (blocks 0) or in_next_block (1; 2: telling the reader the count), for comparing them. */
static size_t dump_lines(in_reader *r, int blocks, unsigned long base, char *out, size_t cap)
{
	size_t n = 0;
	if (!blocks) {
		struct in_line line;
		while (in_next(r, &line))
			n += (size_t)snprintf(out + n, cap - n, "%s:%lu:%.*s%s\n", line.file, base + line.lineno,
					      (int)line.len, line.text, line.unterminated ? "|" : "");
		return n;
	}
	struct in_block b;
	while (in_next_block(r, &b)) {
		assert_true(b.len > 0);
		assert_true(b.unterminated || b.text[b.len - 1] == '\n');
		unsigned long lineno = base + b.lineno;
		for (size_t at = 0; at < b.len; lineno++) {
			const char *nl = memchr(b.text + at, '\n', b.len - at);
			assert_true(nl || b.unterminated);
			size_t end = nl ? (size_t)(nl - b.text) : b.len, len = end - at;
			if (nl && len > 0 && b.text[end - 1] == '\r')
				len--;
			n += (size_t)snprintf(out + n, cap - n, "%s:%lu:%.*s%s\n", b.file, lineno, (int)len,
					      b.text + at, nl ? "" : "|");
			at = end + 1;
		}
		if (blocks == 2) /* the caller counted: the reader takes its number */
			in_block_lines(r, in_count_lines(b.text, b.len));
	}
	return n;
}

static void test_blocks_match_lines(void **state)
{
	(void)state;
	size_t big = 300000;  /* past the first buffer: it grows */
	char *text = malloc(big + 64);
	size_t n = (size_t)snprintf(text, 64, "a 1\r\n\nb 2\n");
	memset(text + n, 'x', big - n - 8);
	memcpy(text + big - 8, "\nlast 4", 7);
	tmp_file(0, "blocks.txt", text, big - 1);
	tmp_file(1, "none.txt", "", 0);
	tmp_file(2, "crlf.txt", "c 1\r\nd 2\r\n", 10);
	fixture(3, "raw/zoo.txt.zst");
	char *paths[] = { path_buf[0], path_buf[1], path_buf[2], path_buf[3] };
	size_t cap = 2 * big;
	char *want = malloc(cap), *got = malloc(cap);
	in_reader *r = in_open(paths, 4);
	size_t nwant = dump_lines(r, 0, 0, want, cap);
	in_close(r);
	for (int blocks = 1; blocks <= 2; blocks++) {
		r = in_open(paths, 4);
		size_t ngot = dump_lines(r, blocks, 0, got, cap);
		assert_int_equal(in_failed(r), 0);
		in_close(r);
		assert_int_equal(ngot, nwant);
		assert_memory_equal(got, want, nwant);
	}
	assert_non_null(strstr(want, ":4:xxx"));
	assert_non_null(strstr(want, ":5:last 4|\n"));
	free(text);
	free(want);
	free(got);
}

/* Blocks over ranges, and chunks, that tile a file: every line once, numbered as in the
 * whole file. */
static void test_block_ranges_tile_a_file(void **state)
{
	(void)state;
	size_t n;
	const char *path = ranges_file(&n);
	char *paths[] = { (char *)path };
	char want[2048], got[2048];
	in_reader *r = in_open(paths, 1);
	size_t nwant = dump_lines(r, 0, 0, want, sizeof want);
	in_close(r);
	for (size_t split = 0; split <= n; split++) {
		size_t ngot = 0;
		unsigned long long bounds[3] = { 0, split, n };
		for (int part = 0; part < 2; part++) {
			r = in_open_range(path, bounds[part], bounds[part + 1]);
			ngot += dump_lines(r, 1, 0, got + ngot, sizeof got - ngot);
			assert_int_equal(in_failed(r), 0);
			in_close(r);
		}
		assert_int_equal(ngot, nwant);
		assert_memory_equal(got, want, nwant);
		/* Chunks number from their first line; the lines before are the caller's sum. */
		for (int blocks = 0; blocks <= 2; blocks++) {
			unsigned long base = 0;
			ngot = 0;
			for (int part = 0; part < 2; part++) {
				r = in_open_chunk(path, bounds[part], bounds[part + 1]);
				ngot += dump_lines(r, blocks, base, got + ngot, sizeof got - ngot);
				base += in_lineno(r);
				assert_int_equal(in_failed(r), 0);
				in_close(r);
			}
			assert_int_equal(base, 5);
			assert_int_equal(ngot, nwant);
			assert_memory_equal(got, want, nwant);
		}
	}
}

/* A chunk inside one long line holds no line start: its reader stops at the chunk's end
 * rather than reading on to the line's end (a 100 MB line cut in 4 MB chunks). */
static void test_chunk_inside_a_long_line(void **state)
{
	(void)state;
	size_t n = 3000000;
	char *text = malloc(n);
	memset(text, 'x', n);
	memcpy(text + n - 5, "\nend\n", 5);
	const char *path = tmp_file(0, "long-line.txt", text, n);
	in_reader *r = in_open_chunk(path, 1000000, 1000100);
	struct in_block b;
	assert_int_equal(in_next_block(r, &b), 0);
	assert_int_equal(in_lineno(r), 0);
	assert_true(in_bytes(r) < 600000);  /* a buffer or two, not the 2 MB to the line's end */
	assert_int_equal(in_failed(r), 0);
	in_close(r);
	r = in_open_chunk(path, n - 4, n);  /* the last line starts in the last chunk */
	assert_int_equal(in_next_block(r, &b), 1);
	assert_int_equal(b.len, 4);
	assert_memory_equal(b.text, "end\n", 4);
	in_close(r);
	free(text);
}

static void test_count_lines(void **state)
{
	(void)state;
	char buf[20000];
	for (size_t i = 0; i < sizeof buf; i++)
		buf[i] = i % 7 == 3 ? '\n' : (char)('a' + i % 26);
	size_t want = 0;
	for (size_t len = 0; len <= sizeof buf; len += len < 100 ? 1 : 997) {
		want = 0;
		for (size_t i = 0; i < len; i++)
			want += buf[i] == '\n';
		assert_int_equal(in_count_lines(buf, len), want);
	}
	assert_int_equal(in_count_lines("\n\n\n", 3), 3);
	assert_int_equal(in_count_lines("", 0), 0);
	memset(buf, '\n', sizeof buf);  /* more than 255 rounds of every tally */
	assert_int_equal(in_count_lines(buf, sizeof buf), sizeof buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crlf),
		cmocka_unit_test(test_last_lines),
		cmocka_unit_test(test_nul_bytes_kept),
		cmocka_unit_test(test_long_lines),
		cmocka_unit_test(test_line_parts),
		cmocka_unit_test(test_zstd_multi_frame),
		cmocka_unit_test(test_zstd_truncated_and_corrupt),
		cmocka_unit_test(test_gzip_long_lines_and_members),
		cmocka_unit_test(test_gzip_members_fixture),
		cmocka_unit_test(test_take_line),
		cmocka_unit_test(test_compression_by_magic),
		cmocka_unit_test(test_gzip_truncated_corrupt_trailing),
		cmocka_unit_test(test_missing_dir_empty),
		cmocka_unit_test(test_stdin),
		cmocka_unit_test(test_slurp),
		cmocka_unit_test(test_slurp_missing),
		cmocka_unit_test(test_ranges_tile_a_file),
		cmocka_unit_test(test_chunk_lines_before),
		cmocka_unit_test(test_blocks_match_lines),
		cmocka_unit_test(test_block_ranges_tile_a_file),
		cmocka_unit_test(test_chunk_inside_a_long_line),
		cmocka_unit_test(test_count_lines),
	};
	return cmocka_run_group_tests_name("input", tests, setup, teardown);
}
