/* input: streaming line reader over many files, zstd and gzip detected by magic number. */
#include "input.h"
#include "err.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <limits.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

enum { RAW_SIZE = 1 << 16, LINE_START = 1 << 18 };

struct in_reader {
	char *const *paths;
	size_t npaths, next_path;
	char *const *default_paths;
	const char *file;           /* display name of the open file */
	int fd;                     /* -1 when no file is open */
	int eof;                    /* raw input exhausted */
	int failed;
	unsigned long lineno;
	unsigned long long bytes;

	ZSTD_DStream *zstd;         /* non-NULL while the open file is zstd */
	size_t zstd_pending;        /* last ZSTD_decompressStream hint: 0 at a frame end */
	z_stream *gzip;             /* non-NULL while the open file is gzip */
	int gzip_member;            /* inside a gzip member (0 between members) */
	int gzip_zeros;             /* zero bytes seen after the last member */
	unsigned char *raw;         /* compressed bytes not yet decoded */
	size_t raw_pos, raw_len;

	char *buf;                  /* decoded text: [start, end) not yet returned */
	size_t cap, start, end;

	/* A byte range of one plain file (in_open_range): lines that start in it. */
	int ranged;
	int skip_partial;           /* the first line began before the range */
	unsigned long long range_start, range_end;
	unsigned long long line_at; /* file offset of the next line's first byte */
	int range_done;             /* in_next_block reached the range's end */
	int relative;               /* in_open_chunk: numbers start at the range */
	size_t uncounted;           /* length of the last block, its lines not yet counted */
	int regular;                /* the open file is a regular file, named by a path */
	size_t line_cap;            /* in_set_line_cap; 0: whole lines */
	int piece;                  /* a line handed out in part: [start, start + given) */
	size_t given;
	char *one_path[1];
};

static char *const stdin_path[] = { "-" };

in_reader *in_open(char *const *paths, size_t npaths)
{
	in_reader *r = xcalloc(1, sizeof *r);
	r->paths = npaths ? paths : stdin_path;
	r->npaths = npaths ? npaths : 1;
	r->fd = -1;
	r->raw = xmalloc(RAW_SIZE);
	r->cap = LINE_START;
	r->buf = xmalloc(r->cap + 1);
	return r;
}

int in_failed(const in_reader *r) { return r->failed; }
unsigned long long in_bytes(const in_reader *r) { return r->bytes; }

static void close_file(in_reader *r)
{
	if (r->fd > 0)
		close(r->fd);
	r->fd = -1;
	if (r->zstd) {
		ZSTD_freeDStream(r->zstd);
		r->zstd = NULL;
	}
	if (r->gzip) {
		inflateEnd(r->gzip);
		free(r->gzip);
		r->gzip = NULL;
	}
}

static void fail_file(in_reader *r, const char *what, const char *why)
{
	err_warn("%s: %s%s", r->file, what, why);
	r->failed = 1;
	close_file(r);
}

/* Read raw bytes after raw_len; returns bytes read, 0 at end of file, -1 on error. */
static ssize_t read_raw(in_reader *r)
{
	if (r->raw_pos == r->raw_len)
		r->raw_pos = r->raw_len = 0;
	if (r->raw_len == RAW_SIZE) {
		memmove(r->raw, r->raw + r->raw_pos, r->raw_len - r->raw_pos);
		r->raw_len -= r->raw_pos;
		r->raw_pos = 0;
	}
	ssize_t n;
	do
		n = read(r->fd, r->raw + r->raw_len, RAW_SIZE - r->raw_len);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		fail_file(r, "read error: ", strerror(errno));
		return -1;
	}
	r->raw_len += (size_t)n;
	r->bytes += (unsigned long long)n;
	return n;
}

/* Count the lines before the range, and see whether it starts inside one. */
static int seek_range(in_reader *r)
{
	unsigned long long done = 0;
	if (r->relative && r->range_start > 0) { /* only the byte before matters */
		char before;
		ssize_t n = pread(r->fd, &before, 1, (off_t)(r->range_start - 1));
		if (n <= 0) {
			fail_file(r, "read error: ", n < 0 ? strerror(errno) : "file shorter than expected");
			return -1;
		}
		r->skip_partial = before != '\n';
		done = r->range_start;
	}
	while (done < r->range_start) {
		size_t want = r->range_start - done < RAW_SIZE ? (size_t)(r->range_start - done) : RAW_SIZE;
		ssize_t n = pread(r->fd, r->raw, want, (off_t)done);
		if (n <= 0) {
			fail_file(r, "read error: ", n < 0 ? strerror(errno) : "file shorter than expected");
			return -1;
		}
		for (const char *p = (const char *)r->raw, *end = p + n; (p = memchr(p, '\n', (size_t)(end - p))); p++)
			r->lineno++;
		done += (unsigned long long)n;
		r->skip_partial = ((const char *)r->raw)[n - 1] != '\n';
	}
	if (lseek(r->fd, (off_t)r->range_start, SEEK_SET) < 0) {
		fail_file(r, "seek error: ", strerror(errno));
		return -1;
	}
	r->line_at = r->range_start;
	return 0;
}

int in_compression(const void *head, size_t len)
{
	const unsigned char *p = head;
	if (len >= 4 && memcmp(p, "\x28\xb5\x2f\xfd", 4) == 0)
		return IN_ZSTD;
	if (len >= 2 && p[0] == 0x1f && p[1] == 0x8b)
		return IN_GZIP;
	return IN_PLAIN;
}

static void start_decoder(in_reader *r, int kind)
{
	if (kind == IN_ZSTD) {
		r->zstd = ZSTD_createDStream();
		if (!r->zstd)
			err_exit(EXIT_DATA, "out of memory");
		ZSTD_initDStream(r->zstd);
		r->zstd_pending = 1;
	} else if (kind == IN_GZIP) {
		r->gzip = xcalloc(1, sizeof *r->gzip);
		if (inflateInit2(r->gzip, 15 + 16) != Z_OK) /* 16: gzip framing only */
			err_exit(EXIT_DATA, "out of memory");
		r->gzip_member = 1;
		r->gzip_zeros = 0;
	}
}

static int open_next(in_reader *r)
{
	while (r->next_path < r->npaths) {
		const char *path = r->paths[r->next_path++];
		r->lineno = 0;
		r->eof = 0;
		r->raw_pos = r->raw_len = 0;
		r->start = r->end = 0;
		r->regular = 0;
		r->piece = 0;
		if (strcmp(path, "-") == 0) {
			r->file = "(stdin)";
			r->fd = 0;
		} else {
			r->file = path;
			r->fd = open(path, O_RDONLY);
			if (r->fd < 0) {
				fail_file(r, "", strerror(errno));
				continue;
			}
			struct stat st;
			if (fstat(r->fd, &st) == 0 && S_ISDIR(st.st_mode)) {
				fail_file(r, "", strerror(EISDIR));
				continue;
			}
			r->regular = S_ISREG(st.st_mode);
		}
		if (r->ranged) { /* plain text by contract: no sniffing */
			if (seek_range(r) != 0)
				continue;
			return 1;
		}
		/* Sniff the magic number from the first bytes. */
		while (r->raw_len < 4) {
			ssize_t n = read_raw(r);
			if (n < 0)
				break;
			if (n == 0) {
				r->eof = 1;
				break;
			}
		}
		if (r->fd < 0)
			continue;
		start_decoder(r, in_compression(r->raw, r->raw_len));
		return 1;
	}
	return 0;
}

/* Make room after end: slide pending text to the front, or grow for a long line. */
static void make_room(in_reader *r)
{
	if (r->start > 0) {
		memmove(r->buf, r->buf + r->start, r->end - r->start);
		r->end -= r->start;
		r->start = 0;
	}
	if (r->end == r->cap) {
		if (r->cap > ((size_t)-1) / 4)
			err_exit(EXIT_DATA, "%s:%lu: line too long", r->file, r->lineno + 1);
		r->cap *= 2;
		r->buf = xrealloc(r->buf, r->cap + 1);
		xalloc_hint_huge(r->buf, r->cap + 1);
	}
}

/* Plain text after end: the sniffed bytes first, then straight from the file. */
static int refill_plain(in_reader *r)
{
	if (r->raw_pos < r->raw_len) { /* sniffed bytes */
		size_t n = r->raw_len - r->raw_pos;
		if (n > r->cap - r->end)
			n = r->cap - r->end;
		memcpy(r->buf + r->end, r->raw + r->raw_pos, n);
		r->end += n;
		r->raw_pos += n;
		return 1;
	}
	if (r->eof)
		return 0;
	ssize_t n;
	do
		n = read(r->fd, r->buf + r->end, r->cap - r->end);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		fail_file(r, "read error: ", strerror(errno));
		return 0;
	}
	if (n == 0) {
		r->eof = 1;
		return 0;
	}
	r->end += (size_t)n;
	r->bytes += (unsigned long long)n;
	return 1;
}

/* Compressed bytes to decode: 1 when some are there, 0 at the end of the file. */
static int have_raw(in_reader *r)
{
	if (r->raw_pos == r->raw_len && !r->eof) {
		ssize_t n = read_raw(r);
		if (n < 0)
			return 0;
		if (n == 0)
			r->eof = 1;
	}
	return r->raw_pos < r->raw_len;
}

static int refill_zstd(in_reader *r)
{
	for (;;) {
		if (!have_raw(r)) {
			if (r->fd >= 0 && r->zstd_pending != 0)
				fail_file(r, "truncated zstd stream", "");
			return 0;
		}
		ZSTD_inBuffer in = { r->raw, r->raw_len, r->raw_pos };
		ZSTD_outBuffer out = { r->buf, r->cap, r->end };
		size_t ret = ZSTD_decompressStream(r->zstd, &out, &in);
		if (ZSTD_isError(ret)) {
			fail_file(r, "corrupt zstd stream: ", ZSTD_getErrorName(ret));
			return 0;
		}
		r->zstd_pending = ret;
		r->raw_pos = in.pos;
		if (out.pos > r->end) {
			r->end = out.pos;
			return 1;
		}
	}
}

/* Between gzip members: another member starts (as gzip -dc reads concatenated files), or
 * zero bytes pad the end (tar, dd). Anything else is not gzip. Returns 0 on that error. */
static int gzip_next_member(in_reader *r)
{
	while (r->raw_pos < r->raw_len && r->raw[r->raw_pos] == 0) {
		r->raw_pos++;
		r->gzip_zeros = 1;
	}
	if (r->raw_pos == r->raw_len)
		return 1;
	if (!r->gzip_zeros && r->raw[r->raw_pos] == 0x1f) {
		if (r->raw_pos + 1 == r->raw_len && !r->eof && read_raw(r) < 0)
			return 0;
		if (r->raw_pos + 1 < r->raw_len && r->raw[r->raw_pos + 1] == 0x8b) {
			inflateReset(r->gzip);
			r->gzip_member = 1;
			return 1;
		}
	}
	if (r->fd >= 0)
		fail_file(r, "trailing garbage after gzip stream", "");
	return 0;
}

static int refill_gzip(in_reader *r)
{
	for (;;) {
		if (!have_raw(r)) {
			if (r->fd >= 0 && r->gzip_member)
				fail_file(r, "truncated gzip stream", "");
			return 0;
		}
		if (!r->gzip_member) {
			if (!gzip_next_member(r))
				return 0;
			continue;
		}
		z_stream *z = r->gzip;
		size_t room = r->cap - r->end;
		z->next_in = r->raw + r->raw_pos;
		z->avail_in = (uInt)(r->raw_len - r->raw_pos);
		z->next_out = (unsigned char *)r->buf + r->end;
		z->avail_out = room > UINT_MAX ? UINT_MAX : (uInt)room;
		uInt out_before = z->avail_out;
		int ret = inflate(z, Z_NO_FLUSH);
		if (ret != Z_OK && ret != Z_STREAM_END && ret != Z_BUF_ERROR) {
			fail_file(r, "corrupt gzip stream: ",
				  z->msg ? z->msg : ret == Z_MEM_ERROR ? "out of memory" : "bad data");
			return 0;
		}
		r->raw_pos = (size_t)(z->next_in - r->raw);
		size_t made = out_before - z->avail_out;
		r->end += made;
		if (ret == Z_STREAM_END)
			r->gzip_member = 0;
		if (made > 0)
			return 1;
	}
}

/* Append decoded text at end; returns 0 when the file has no more. */
static int refill(in_reader *r)
{
	make_room(r);
	if (r->zstd)
		return refill_zstd(r);
	if (r->gzip)
		return refill_gzip(r);
	return refill_plain(r);
}

/* Hand out the len bytes at start (and the newline after them, when there is one).
 * Returns 0 when the line is not for the caller: before a range, or past its end. */
static int take_line(in_reader *r, struct in_line *line, size_t len, int unterminated)
{
	char *text = r->buf + r->start;
	r->start += len + !unterminated;
	r->lineno++;
	if (r->ranged) {
		unsigned long long at = r->line_at;
		r->line_at += len + !unterminated;
		if (at >= r->range_end) { /* the next range's first line: this range is done */
			r->lineno--;
			close_file(r);
			r->next_path = r->npaths;
			r->start = r->end = 0;
			return 0;
		}
		if (r->skip_partial) {
			r->skip_partial = 0;
			r->lineno -= r->relative;  /* it is the range before's line */
			return 0;
		}
	}
	if (len > 0 && text[len - 1] == '\r')
		len--;
	text[len] = '\0';
	line->text = text;
	line->len = len;
	line->unterminated = unterminated;
	line->file = r->file;
	line->lineno = r->lineno;
	line->reader = r;
	line->more = 0;
	return 1;
}

/* The first bytes of a line longer than line_cap, left in the buffer for in_more. */
static void give_piece(in_reader *r, struct in_line *line)
{
	r->piece = 1;
	r->given = r->end - r->start;
	line->text = r->buf + r->start;
	line->len = r->given;
	line->text[line->len] = '\0';  /* the buffer has a byte past cap */
	line->unterminated = 0;
	line->file = r->file;
	line->lineno = r->lineno + 1;
	line->reader = r;
	line->more = 1;
}

void in_set_line_cap(in_reader *r, size_t cap) { r->line_cap = r->ranged ? 0 : cap; }

const char *in_path(const in_reader *r) { return r->fd >= 0 && r->regular ? r->file : NULL; }

int in_more(in_reader *r, const char **text, size_t *len)
{
	if (!r->piece)
		return 0;
	r->start += r->given;
	r->given = 0;
	for (;;) {
		char *at = r->buf + r->start, *nl = memchr(at, '\n', r->end - r->start);
		size_t n = nl ? (size_t)(nl - at) : r->end - r->start;
		if (nl && n == 0) {  /* the line ends */
			r->start++;
			r->piece = 0;
			r->lineno++;
			return 0;
		}
		if (n > 0) {
			*text = at;
			*len = r->given = n;
			return 1;
		}
		if (!refill(r)) {  /* the file ends: in_next closes it */
			r->piece = 0;
			r->lineno++;
			return 0;
		}
	}
}

void in_line_rest(in_reader *r, struct in_line *line)
{
	if (!line->more || !r->piece)
		return;
	r->piece = 0;
	size_t scanned = r->start + r->given;
	for (;;) {
		char *nl = memchr(r->buf + scanned, '\n', r->end - scanned);
		if (nl) {
			take_line(r, line, (size_t)(nl - (r->buf + r->start)), 0);
			return;
		}
		size_t pending = r->end - r->start;
		if (!refill(r))
			break;
		scanned = r->start + pending;
	}
	take_line(r, line, r->end - r->start, 1);  /* in_next then closes the file */
}

char *in_take_line(in_reader *r, const struct in_line *line, size_t *cap)
{
	if (!r || r->ranged || line->reader != r || line->text < r->buf ||
	    line->text + line->len > r->buf + r->start)
		return NULL;  /* not a line of the current buffer, before what is pending */
	size_t pending = r->end - r->start, fresh = pending > LINE_START ? pending : LINE_START;
	char *next = xmalloc(fresh + 1);
	memcpy(next, r->buf + r->start, pending);
	char *taken = r->buf;
	size_t taken_cap = r->cap + 1;
	r->buf = next;
	r->cap = fresh;
	r->start = 0;
	r->end = pending;
	memmove(taken, line->text, line->len);
	if (taken_cap < line->len + 2)
		taken = xrealloc(taken, (taken_cap = line->len + 2));
	taken[line->len] = '\0';
	*cap = taken_cap;
	return taken;
}

static void count_block(in_reader *r)
{
	if (r->uncounted) { /* the last block is still there, just before start */
		r->lineno += in_count_lines(r->buf + r->start - r->uncounted, r->uncounted);
		r->uncounted = 0;
	}
}

int in_next(in_reader *r, struct in_line *line)
{
	const char *skip;
	size_t skipped;
	while (in_more(r, &skip, &skipped))  /* the rest of a line given in part */
		;
	count_block(r);
	for (;;) {
		if (r->fd < 0 && !open_next(r))
			return 0;
		size_t scanned = r->start;
		for (;;) {
			char *nl = memchr(r->buf + scanned, '\n', r->end - scanned);
			if (nl) {
				if (take_line(r, line, (size_t)(nl - (r->buf + r->start)), 0))
					return 1;
				if (r->fd < 0)
					break;
				scanned = r->start;
				continue;
			}
			size_t pending = r->end - r->start;
			if (r->line_cap && pending >= r->line_cap) {
				give_piece(r, line);
				return 1;
			}
			if (!refill(r))
				break;
			scanned = r->start + pending; /* refill may have moved the text */
		}
		/* End of this file: a last line without newline is still a line. */
		int open_still = r->fd >= 0;
		close_file(r);
		if (r->end > r->start && open_still && take_line(r, line, r->end - r->start, 1))
			return 1;
		r->start = r->end = 0;
	}
}

size_t in_count_lines(const char *text, size_t len)
{
	/* Byte-wide tallies over at most 255 rounds: a loop the compiler turns into vector
	 * compares, several times faster than memchr per line. */
	enum { LANES = 32 };
	size_t count = 0, i = 0;
	while (len - i >= LANES) {
		unsigned char tally[LANES] = { 0 };
		size_t rounds = (len - i) / LANES;
		if (rounds > 255)
			rounds = 255;
		for (size_t round = 0; round < rounds; round++, i += LANES)
			for (size_t k = 0; k < LANES; k++)
				tally[k] += text[i + k] == '\n';
		for (size_t k = 0; k < LANES; k++)
			count += tally[k];
	}
	for (; i < len; i++)
		count += text[i] == '\n';
	return count;
}

/* Hand out buf[start, start + len) as a block and move past it. Its lines are counted when
 * the next block is asked for, unless the caller has counted them (in_block_lines). */
static void give_block(in_reader *r, struct in_block *b, size_t len, int unterminated)
{
	b->text = r->buf + r->start;
	b->len = len;
	b->file = r->file;
	b->lineno = r->lineno + 1;
	b->unterminated = unterminated;
	if (unterminated)
		r->lineno += in_count_lines(b->text, len) + 1;
	else
		r->uncounted = len;
	r->start += len;
	r->line_at += len;
}

void in_block_lines(in_reader *r, unsigned long lines)
{
	if (r->uncounted) {
		r->lineno += lines;
		r->uncounted = 0;
	}
}

/* For a ranged reader: the complete lines at buf[start, start + len) cut to those that start
 * before the range's end; closes the file once that end is reached. */
static size_t cut_range(in_reader *r, size_t len)
{
	if (r->skip_partial) { /* the first line belongs to the range before */
		const char *nl = memchr(r->buf + r->start, '\n', len);
		size_t skip = (size_t)(nl - (r->buf + r->start)) + 1;
		r->start += skip;
		r->line_at += skip;
		r->lineno += !r->relative;
		r->skip_partial = 0;
		len -= skip;
	}
	if (r->line_at + len <= r->range_end)
		return len;
	size_t keep = 0;
	if (r->line_at < r->range_end) { /* up to the end of the line holding the range's last byte */
		size_t last = (size_t)(r->range_end - r->line_at) - 1;
		const char *nl = memchr(r->buf + r->start + last, '\n', len - last);
		keep = (size_t)(nl - (r->buf + r->start)) + 1;
	}
	r->range_done = 1;
	return keep;
}

int in_next_block(in_reader *r, struct in_block *b)
{
	count_block(r);
	for (;;) {
		if (r->range_done || (r->fd < 0 && !open_next(r)))
			return 0;
		const char *nl;
		size_t scanned = r->start;  /* rescan only new text: a long line is read in many parts */
		while (!(nl = memrchr(r->buf + scanned, '\n', r->end - scanned))) {
			size_t pending = r->end - r->start;
			if (r->ranged && r->skip_partial && r->line_at + pending >= r->range_end) {
				/* one line runs over the whole range: none starts in it */
				r->range_done = 1;
				break;
			}
			if (!refill(r))
				break;
			scanned = r->start + pending;
		}
		if (nl) {
			size_t len = (size_t)(nl - (r->buf + r->start)) + 1;
			if (r->ranged)
				len = cut_range(r, len);
			if (len == 0)
				continue;
			give_block(r, b, len, 0);
			return 1;
		}
		/* End of this file: a last line without newline is still a line. */
		int open_still = r->fd >= 0;
		close_file(r);
		size_t len = r->end - r->start;
		if (len > 0 && open_still && !(r->ranged && (r->skip_partial || r->line_at >= r->range_end))) {
			give_block(r, b, len, 1);
			r->start = r->end = 0;
			return 1;
		}
		r->start = r->end = 0;
	}
}

in_reader *in_open_range(const char *path, unsigned long long start, unsigned long long end)
{
	in_reader *r = in_open(NULL, 0);
	r->one_path[0] = (char *)path;
	r->paths = r->one_path;
	r->npaths = 1;
	r->ranged = 1;
	r->range_start = start;
	r->range_end = end;
	return r;
}

in_reader *in_open_chunk(const char *path, unsigned long long start, unsigned long long end)
{
	in_reader *r = in_open_range(path, start, end);
	r->relative = 1;
	return r;
}

unsigned long in_lines_before(in_reader *r)
{
	if (!r->relative || r->range_start == 0)
		return 0;
	int fd = open(r->paths[0], O_RDONLY);
	unsigned long lines = 0;
	unsigned long long done = 0;
	char *buf = xmalloc(RAW_SIZE), last = '\n';
	while (fd >= 0 && done < r->range_start) {
		size_t want = r->range_start - done < RAW_SIZE ? (size_t)(r->range_start - done) : RAW_SIZE;
		ssize_t n = pread(fd, buf, want, (off_t)done);
		if (n <= 0)
			break;
		for (const char *p = buf, *end = p + n; (p = memchr(p, '\n', (size_t)(end - p))); p++)
			lines++;
		last = buf[n - 1];
		done += (unsigned long long)n;
	}
	free(buf);
	if (fd >= 0)
		close(fd);
	return lines + (last != '\n');  /* a line cut by the range's start began before it */
}

unsigned long in_lineno(in_reader *r)
{
	count_block(r);
	return r->lineno;
}

void in_close(in_reader *r)
{
	if (!r)
		return;
	close_file(r);
	free(r->raw);
	free(r->buf);
	free(r);
}

char *in_slurp(const char *path, size_t *len)
{
	char *one[1] = { (char *)path };
	in_reader *r = in_open(one, 1);
	size_t cap = 4096, used = 0;
	char *text = xmalloc(cap);
	struct in_line line;
	while (in_next(r, &line)) {
		while (used + line.len + 2 > cap) {
			cap *= 2;
			text = xrealloc(text, cap);
		}
		memcpy(text + used, line.text, line.len);
		used += line.len;
		text[used++] = '\n';
	}
	int failed = in_failed(r);
	in_close(r);
	if (failed) {
		free(text);
		return NULL;
	}
	text[used] = '\0';
	*len = used;
	return text;
}
