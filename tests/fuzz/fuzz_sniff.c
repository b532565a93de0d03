/* fuzz_sniff: format detection line by line, the sniffer's look-ahead over a file, and
 * dumps read by content (text and JSON) as sift-threads and sift-gil read them. */
#include "fuzz.h"

#include "err.h"
#include "sniff.h"

static void on_line(void *ctx, struct in_line *line)
{
	(void)ctx;
	if (sniff_line(line->text, line->len) > LOAD_AUSTIN) /* the last format */
		abort();
	struct sniff_label l, again;
	size_t n = sniff_label(line->text, line->len, NULL, &l);
	if (n > line->len || (n && l.len && (l.text < line->text || l.text + l.len > line->text + n)))
		abort(); /* the prefix and its label lie inside the line */
	if (n && sniff_label(line->text, line->len, &l, &again) != n)
		abort(); /* a line's own prefix style takes the same prefix */
}

static void on_thread(void *ctx, const struct dump_thread *t)
{
	uint64_t *last = ctx;
	if (t->snapshot < *last || (t->nframes > 0 && !t->frames))
		abort(); /* snapshots are numbered in order across formats */
	*last = t->snapshot;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_lines(data, size, "sniff", on_line, NULL);
	int fd;
	char path[64];
	if (fuzz_file(data, size, &fd, path, sizeof path) != 0)
		return 0;
	char *paths[2] = { path, path };
	in_reader *in = in_open(paths, 2);
	sniff *s = sniff_new(in, LOAD_AUTO);
	struct in_line line;
	enum load_format fmt;
	while (sniff_next(s, &line, &fmt))
		if (fmt == LOAD_AUTO || line.text[line.len] != '\0')
			abort(); /* every line given out has a format */
	sniff_free(s);
	in_close(in);

	struct err_lines errs;
	err_lines_init(&errs);
	errs.limit = 0;
	uint64_t last = 0;
	struct sniff_dumps found;
	sniff_read_dumps(paths, 2, LOAD_AUTO, &errs, on_thread, &last, &found);
	if (found.snapshots < last)
		abort(); /* the count covers every snapshot given out */
	close(fd);
	return 0;
}
