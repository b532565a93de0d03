/* gnuplot: quoting, label shortening and the common preamble of every sift chart. */
#include "gnuplot.h"

#include <math.h>
#include <string.h>

const char *const gnuplot_terminal_names[] = { "png", "svg", "pdf", "dumb", NULL };

void gnuplot_quote(FILE *out, const char *s, size_t len, unsigned flags)
{
	putc('"', out);
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch < 0x20 || ch == 0x7f)
			putc(' ', out); /* a newline would end the command */
		else if (ch == '%' && (flags & GNUPLOT_FORMAT))
			fputs("%%", out);
		else if (strchr("`@$\"\\'%", ch))
			fprintf(out, "\\%03o", ch); /* decoded after gnuplot's ` and @ passes */
		else
			putc(ch, out);
	}
	putc('"', out);
}

static int is_cont(unsigned char ch) { return (ch & 0xC0) == 0x80; }

static size_t chars(const char *s, size_t len)
{
	size_t n = 0;
	for (size_t i = 0; i < len; i++)
		n += !is_cont((unsigned char)s[i]);
	return n;
}

/* Byte offset of the character numbered k (k may be the count: the end). */
static size_t char_offset(const char *s, size_t len, size_t k)
{
	size_t i = 0;
	for (; i < len && k > 0; k--)
		for (i++; i < len && is_cont((unsigned char)s[i]); i++)
			;
	return i;
}

static size_t put(char *buf, size_t cap, size_t at, const char *s, size_t len)
{
	if (at + len >= cap)
		len = at < cap ? cap - 1 - at : 0;
	memcpy(buf + at, s, len);
	return at + len;
}

/* Where a C++ name's own last part starts: after its last "::" outside <> and (), or 0. */
static size_t last_component(const char *name, size_t len)
{
	size_t at = 0;
	int depth = 0;
	for (size_t i = 0; i + 1 < len; i++) {
		char c = name[i];
		depth += (c == '<' || c == '(') - (c == '>' || c == ')');
		if (depth == 0 && c == ':' && name[i + 1] == ':')
			at = i + 2;
	}
	return at;
}

/* A C++ frame too long for its label keeps its function: "...::pack (lib.so)", the
 * namespaces elided, then as much of the file as fits. Returns 0 when name has no "::". */
static size_t shorten_qualified(const char *name, size_t nlen, const char *file, size_t flen, size_t max,
				char *out, size_t cap)
{
	size_t k = last_component(name, nlen);
	if (k == 0 || max < 8)
		return 0;
	size_t n = put(out, cap, 0, "...::", 5);
	size_t comp_chars = chars(name + k, nlen - k);
	size_t room = max - 5;
	n = put(out, cap, n, name + k, char_offset(name + k, nlen - k, comp_chars < room ? comp_chars : room));
	size_t used = chars(out, n);
	if (flen && used + 3 + 8 <= max) {  /* " (" + at least "...xxxxx" + ")" */
		size_t fchars = chars(file, flen), froom = max - used - 3;
		n = put(out, cap, n, " (", 2);
		if (fchars > froom) {
			n = put(out, cap, n, "...", 3);
			size_t skip = char_offset(file, flen, fchars - (froom - 3));
			n = put(out, cap, n, file + skip, flen - skip);
		} else {
			n = put(out, cap, n, file, flen);
		}
		n = put(out, cap, n, ")", 1);
	}
	return n;
}

size_t gnuplot_shorten(const char *s, size_t len, size_t max, char *buf, size_t cap)
{
	size_t n = 0;
	if (cap == 0)
		return 0;
	/* "NAME (DIR/FILE:LINE)" -> "NAME (FILE:LINE)": the file name says more than its path. */
	const char *open = len > 1 && s[len - 1] == ')' ? memrchr(s, '(', len) : NULL;
	const char *slash = open ? memrchr(open, '/', (size_t)(s + len - open)) : NULL;
	if (slash && chars(s, len) > max) {
		n = put(buf, cap, n, s, (size_t)(open - s) + 1);
		n = put(buf, cap, n, slash + 1, (size_t)(s + len - slash - 1));
	} else {
		n = put(buf, cap, n, s, len);
	}
	size_t c = chars(buf, n);
	const char *paren = n > 1 && buf[n - 1] == ')' ? memrchr(buf, '(', n) : NULL;
	size_t name_chars = paren ? chars(buf, (size_t)(paren - buf)) + 1 : 0;
	size_t q = 0;
	if (c > max && paren && name_chars + 8 > max) {
		char tmp[1024];
		size_t name_len = (size_t)(paren - buf), file_len = n - name_len - 2;
		while (name_len && buf[name_len - 1] == ' ')
			name_len--;
		q = shorten_qualified(buf, name_len, paren + 1, file_len, max, tmp, sizeof tmp);
		if (q) {
			n = put(buf, cap, 0, tmp, q);
			buf[n] = '\0';
			return n;
		}
	}
	if (c > max && paren && name_chars + 8 <= max) {
		/* The whole name, and as much of the file's end (its line) as fits: "f (...e.py:3)". */
		size_t tail = max - name_chars - 3, start = (size_t)(paren - buf) + 1;
		size_t file_chars = chars(buf + start, n - start);
		size_t t = start + char_offset(buf + start, n - start, file_chars - tail);
		memmove(buf + start + 3, buf + t, n - t);
		memcpy(buf + start, "...", 3);
		n = start + 3 + (n - t);
	} else if (c > max && max >= 5) {
		/* Keep the start (the name) and the end (file and line), elide the middle. */
		size_t keep = max - 3, head = (keep + 1) / 2, tail = keep - head;
		size_t h = char_offset(buf, n, head), t = char_offset(buf, n, c - tail);
		memmove(buf + h + 3, buf + t, n - t);
		memcpy(buf + h, "...", 3);
		n = h + 3 + (n - t);
	} else if (c > max) {
		n = char_offset(buf, n, max);
	}
	buf[n] = '\0';
	return n;
}

void gnuplot_default_size(enum gnuplot_terminal terminal, unsigned *width, unsigned *height)
{
	*width = terminal == GNUPLOT_DUMB ? 100 : 900;
	*height = terminal == GNUPLOT_DUMB ? 30 : 600;
}

void gnuplot_begin(FILE *out, const struct gnuplot_page *page)
{
	unsigned w = page->width, h = page->height;
	if (!w || !h)
		gnuplot_default_size(page->terminal, &w, &h);
	switch (page->terminal) {
	case GNUPLOT_PNG:
		fprintf(out, "set terminal pngcairo noenhanced size %u,%u font \"sans,10\"\n", w, h);
		break;
	case GNUPLOT_SVG:
		fprintf(out, "set terminal svg noenhanced size %u,%u font \"sans,10\"\n", w, h);
		break;
	case GNUPLOT_PDF:
		fprintf(out, "set terminal pdfcairo noenhanced size %.2fin,%.2fin font \"sans,8\"\n",
			w / 72.0, h / 72.0);
		break;
	case GNUPLOT_DUMB:
		fprintf(out, "set terminal dumb noenhanced size %u,%u\n", w, h);
		break;
	}
	if (page->output) {
		fputs("set output ", out);
		gnuplot_quote(out, page->output, strlen(page->output), 0);
		putc('\n', out);
	}
	if (page->title) {
		fputs("set title ", out);
		gnuplot_quote(out, page->title, strlen(page->title), 0);
		putc('\n', out);
	}
	fputs("set border 3\nset tics nomirror\n", out);
}

void gnuplot_block_begin(FILE *out, const char *name)
{
	fprintf(out, "$%s << SIFT_EOD\n", name);
}

void gnuplot_block_end(FILE *out)
{
	fputs("SIFT_EOD\n", out);
}

void gnuplot_number(FILE *out, double value)
{
	fprintf(out, "%.15g", isfinite(value) ? value : 0.0);
}
