/* err: program name, messages, bad-line accounting, checked stdout. */
#include "err.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *prog_name = "sift";

void err_set_prog(const char *argv0)
{
	const char *slash = argv0 ? strrchr(argv0, '/') : NULL;
	prog_name = slash ? slash + 1 : (argv0 ? argv0 : "sift");
	/* Die quietly on a closed pipe, as cat does: `sift-top | head` is normal use. */
	signal(SIGPIPE, SIG_DFL);
}

const char *err_prog(void) { return prog_name; }

void err_vwarn(const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: ", prog_name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void err_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	err_vwarn(fmt, ap);
	va_end(ap);
}

void err_exit(int status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	err_vwarn(fmt, ap);
	va_end(ap);
	exit(status);
}

void err_lines_init(struct err_lines *lines)
{
	memset(lines, 0, sizeof *lines);
	lines->limit = 10;
}

static void line_message(const char *file, unsigned long lineno, const char *prefix,
			 const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: %s:%lu: %s", prog_name, file, lineno, prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

struct err_kept {
	const char *file;
	unsigned long lineno;
	char *text;
};

/* Not xgrow: xalloc reports through this module, so err stays below it. */
static void grow_kept(struct err_lines *lines)
{
	size_t cap = lines->kept_cap ? lines->kept_cap * 2 : 16;
	struct err_kept *kept = NULL;
	if (cap <= SIZE_MAX / sizeof *kept)
		kept = realloc(lines->kept, cap * sizeof *kept);
	if (!kept)
		err_exit(EXIT_DATA, "out of memory");
	lines->kept = kept;
	lines->kept_cap = cap;
}

void err_bad_line(struct err_lines *lines, const char *file, unsigned long lineno,
		  const char *fmt, ...)
{
	va_list ap;
	lines->bad++;
	if (lines->keep) { /* only what could be printed later needs keeping */
		if (lines->nkept >= lines->limit)
			return;
		if (lines->nkept == lines->kept_cap)
			grow_kept(lines);
		struct err_kept *k = &lines->kept[lines->nkept++];
		k->file = file;
		k->lineno = lineno;
		va_start(ap, fmt);
		if (vasprintf(&k->text, fmt, ap) < 0)
			err_exit(EXIT_DATA, "out of memory");
		va_end(ap);
		return;
	}
	if (lines->strict || lines->bad <= lines->limit || lines->verbose) {
		va_start(ap, fmt);
		line_message(file, lineno, "", fmt, ap);
		va_end(ap);
	}
	if (lines->strict)
		exit(EXIT_DATA);
}

void err_skip_line(struct err_lines *lines, const char *file, unsigned long lineno,
		   const char *fmt, ...)
{
	va_list ap;
	lines->skipped++;
	if (!lines->verbose || lines->keep)
		return;
	va_start(ap, fmt);
	line_message(file, lineno, "skipped: ", fmt, ap);
	va_end(ap);
}

void err_lines_shift(struct err_lines *lines, size_t from, size_t to, unsigned long by)
{
	for (size_t i = from; i < to && i < lines->nkept; i++)
		lines->kept[i].lineno += by;
}

void err_lines_replay(struct err_lines *to, struct err_lines *from)
{
	for (size_t i = 0; i < from->nkept; i++) {
		err_bad_line(to, from->kept[i].file, from->kept[i].lineno, "%s", from->kept[i].text);
		free(from->kept[i].text);
	}
	to->bad += from->bad - from->nkept;
	to->skipped += from->skipped;
	free(from->kept);
	from->kept = NULL;
	from->nkept = from->kept_cap = 0;
}

void err_lines_finish(const struct err_lines *lines)
{
	if (!lines->verbose && lines->bad > lines->limit)
		err_warn("%lu more bad line%s not shown", lines->bad - lines->limit,
			 lines->bad - lines->limit == 1 ? "" : "s");
}

void err_close_stdout(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (errno == EPIPE)
			_exit(EXIT_OK);
		err_exit(EXIT_DATA, "write error: %s", strerror(errno ? errno : EIO));
	}
	if (fclose(stdout) != 0 && errno != EPIPE)
		err_exit(EXIT_DATA, "write error: %s", strerror(errno));
}

char *err_buffer_stdout(void)
{
	/* glibc sizes a buffer it allocates by the file's block size, whatever size says: give
	 * it one, which fclose leaves to its owner. */
	enum { SIZE = 1 << 20 };
	char *buf = isatty(STDOUT_FILENO) ? NULL : malloc(SIZE);
	if (buf)
		setvbuf(stdout, buf, _IOFBF, SIZE);
	return buf;
}

char *err_start(const char *argv0, struct err_lines *lines)
{
	err_set_prog(argv0);
	err_lines_init(lines);
	return err_buffer_stdout();
}

void err_finish(char *outbuf)
{
	err_close_stdout();
	free(outbuf);
}
