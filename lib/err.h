/* err: the one error module: program name, messages, bad-line accounting, exit codes. */
#ifndef SIFT_ERR_H
#define SIFT_ERR_H

#include <stdarg.h>
#include <stdio.h>

enum { EXIT_OK = 0, EXIT_DATA = 1, EXIT_USAGE = 2 };

/* The only global state sift keeps: the name errors start with. */
void err_set_prog(const char *argv0);
const char *err_prog(void);

/* "prog: message" on stderr. */
void err_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "prog: message", then exit(status). */
_Noreturn void err_exit(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void err_vwarn(const char *fmt, va_list ap);

struct err_kept;

/* Bad input lines: the first `limit` are named, the rest counted. */
struct err_lines {
	unsigned long bad;      /* lines kept out of the figures */
	unsigned long skipped;  /* noise lines ignored on purpose (reported only when verbose) */
	unsigned limit;         /* how many bad lines to name on stderr */
	int verbose;            /* also name skipped lines */
	int strict;             /* the first bad line is fatal */
	int keep;               /* hold the messages instead of printing them (err_lines_replay) */
	struct err_kept *kept;
	size_t nkept, kept_cap;
};

void err_lines_init(struct err_lines *lines);
/* Name a bad line "prog: FILE:LINE: reason"; with strict, exit 1. */
void err_bad_line(struct err_lines *lines, const char *file, unsigned long lineno,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Count a skipped noise line; named only when verbose. */
void err_skip_line(struct err_lines *lines, const char *file, unsigned long lineno,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Give what `from` kept (a reader on another thread) to `to` as if its lines had been
 * read there, in order; then release from's messages. */
void err_lines_replay(struct err_lines *to, struct err_lines *from);
/* Add by to the line numbers of held messages [from, to) (of nkept): a part of a file read
 * on its own, its lines numbered from 1, takes its place after the lines before it. */
void err_lines_shift(struct err_lines *lines, size_t from, size_t to, unsigned long by);
/* After input: "prog: N more bad lines" when some were not named. */
void err_lines_finish(const struct err_lines *lines);

/* Flush and check stdout: a full disk is an error (exit 1), a closed pipe ends quietly. */
void err_close_stdout(void);
/* Stdout not a terminal: written in 1 MB pieces, not stdio's 4 KB (a fold of mostly
 * distinct stacks made tens of thousands of write calls). Call before any output; returns
 * the buffer (or NULL), to be freed only after err_close_stdout. */
char *err_buffer_stdout(void);

/* A tool's start: the program's name, its bad-line counts, stdout buffered; returns the
 * buffer for err_finish. */
char *err_start(const char *argv0, struct err_lines *lines);
/* A tool's end: stdout flushed and checked (err_close_stdout), the buffer freed. */
void err_finish(char *outbuf);

#endif
