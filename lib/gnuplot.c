/* gnuplot: quoting and the common preamble of every sift chart. */
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
