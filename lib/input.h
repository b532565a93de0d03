/* input: files and "-" read as one stream of lines, zstd and gzip by magic number, CRLF, any
 * length. */
#ifndef SIFT_INPUT_H
#define SIFT_INPUT_H

#include <stddef.h>

/* One line without its "\n" or "\r\n", NUL-terminated, writable until the next call.
 * It may hold NUL bytes: len is the truth. */
struct in_line {
	char *text;
	size_t len;
	const char *file;       /* as named on the command line; "-" reads as "(stdin)" */
	unsigned long lineno;   /* 1-based within its file */
	int unterminated;       /* last line of a file with no final newline */
	struct in_reader *reader;  /* whose buffer holds text (in_take_line), or NULL */
	int more;               /* only the line's start (in_set_line_cap): in_more, in_line_rest */
};

typedef struct in_reader in_reader;

/* No paths means standard input. Paths are kept by reference. */
in_reader *in_open(char *const *paths, size_t npaths);
/* The lines of one plain (not compressed) regular file that start at a byte offset in
 * [start, end): a line that starts before start belongs to the range before it, and the
 * last line may run past end. Line numbers count from the top of the file. Ranges that
 * tile a file give each line exactly once: for reading one file on several threads. */
in_reader *in_open_range(const char *path, unsigned long long start, unsigned long long end);
/* As in_open_range, but the first line that starts in the range is line 1: what comes
 * before is not read (a caller reading a file in chunks adds up the lines itself). */
in_reader *in_open_chunk(const char *path, unsigned long long start, unsigned long long end);
/* For in_open_chunk's reader, the lines that begin before its range (counted now, reading the
 * file from its start: for a message that needs the line's number in the file); else 0. */
unsigned long in_lines_before(in_reader *reader);
/* The number of the last line handed out from the open (or last) file. */
unsigned long in_lineno(in_reader *reader);
/* 1 with a line, 0 when every file is done. Unreadable files are reported and skipped. */
int in_next(in_reader *reader, struct in_line *line);
/* A run of whole lines as the file holds them: each ends in "\n" (a "\r" before it is
 * left in) except, maybe, a file's unterminated last line. Not NUL-terminated. */
struct in_block {
	char *text;             /* writable until the next call */
	size_t len;
	const char *file;
	unsigned long lineno;   /* of the first line */
	int unterminated;       /* the last line has no "\n" */
};
/* As in_next, a block of lines at a time (never mixed with in_next on one reader): for
 * scanners that skip most lines without looking at them one by one. */
int in_next_block(in_reader *reader, struct in_block *block);
/* Optional, right after in_next_block: the caller counted the block's "\n" bytes, so the
 * reader need not count them again for the next block's numbers. */
void in_block_lines(in_reader *reader, unsigned long lines);
/* The "\n" bytes in text[0, len). */
size_t in_count_lines(const char *text, size_t len);

/* What a file's first bytes say it is: compressed files are never read in byte ranges. */
enum { IN_PLAIN, IN_ZSTD, IN_GZIP };
int in_compression(const void *head, size_t len);

/* Take the memory of the line in_next just gave (line->text inside the reader's buffer)
 * instead of copying it: a buffer to free() of *cap bytes (at least len + 2) that begins
 * with the line and a NUL. The reader goes on in a new buffer. NULL when the line is not
 * the reader's own (a copy, a byte range): the caller copies. For one-line documents of
 * hundreds of MB (compact JSON), so they are held once, not twice. */
char *in_take_line(in_reader *reader, const struct in_line *line, size_t *cap);

/* Lines longer than cap bytes are handed out by in_next as their first bytes (at least
 * cap), with line->more set, not NUL-terminated past them: the caller reads the rest with
 * in_more, or makes the line whole with in_line_rest; in_next skips what is left. For
 * one-line documents (compact JSON) read as a stream. 0, the default: whole lines. Not for
 * byte ranges. */
void in_set_line_cap(in_reader *reader, size_t cap);
/* The next bytes of the line in_next gave in part (line->more): 1 with some in *text,
 * *len (valid until the next call; a final "\r" is left in), 0 at its end. */
int in_more(in_reader *reader, const char **text, size_t *len);
/* The line in_next gave in part (line->more) read whole into line, as in_next would have
 * given it. Nothing when line->more is 0. */
void in_line_rest(in_reader *reader, struct in_line *line);
/* The path the open file was named by: a file that can be read again. NULL for standard
 * input, a pipe, or a file whose reading failed (reported; it is closed at once). */
const char *in_path(const in_reader *reader);

/* Non-zero when any file could not be read completely (already reported). */
int in_failed(const in_reader *reader);
/* Bytes read from the files (compressed size for zstd and gzip). */
unsigned long long in_bytes(const in_reader *reader);
void in_close(in_reader *reader);

/* Read one whole file (or "-") into memory, zstd and gzip aware; for small inputs such as rules.
 * Returns NULL and reports on error. *len gets the size; the result is NUL-terminated. */
char *in_slurp(const char *path, size_t *len);

#endif
