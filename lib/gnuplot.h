/* gnuplot: writing gnuplot scripts that no input text can turn into commands. */
#ifndef SIFT_GNUPLOT_H
#define SIFT_GNUPLOT_H

#include <stddef.h>
#include <stdio.h>

/* The escaping scheme, in one place:
 * 1. Datablocks hold only numbers this module formats (gnuplot_number), so no data line can
 *    hold a backquote, an '@' or the end marker.
 * 2. Every text (labels, titles, key entries, file names) is a double-quoted string literal
 *    written by gnuplot_quote: '`', '@', '$', '"', '\\', '\'' and '%' become octal escapes
 *    ("\140"), which gnuplot decodes only after its backquote and macro passes have run over
 *    the line, so they reach the picture as plain characters; control bytes become spaces.
 * 3. Terminals are set noenhanced, so '_', '^', '{' and '&' are not markup. */

enum gnuplot_terminal { GNUPLOT_PNG, GNUPLOT_SVG, GNUPLOT_PDF, GNUPLOT_DUMB };
/* --terminal names in enum order, NULL-terminated. */
extern const char *const gnuplot_terminal_names[];

enum {
	GNUPLOT_FORMAT = 1,  /* the string is used as a format (tic labels): '%' is doubled */
};

/* Write s as a double-quoted gnuplot string literal that shows exactly s. */
void gnuplot_quote(FILE *out, const char *s, size_t len, unsigned flags);

struct gnuplot_page {
	enum gnuplot_terminal terminal;
	unsigned width, height;  /* pixels (png, svg; pdf at 72 per inch) or characters (dumb); 0: default */
	const char *output;      /* file for `set output`, NULL for none (stdout of gnuplot) */
	const char *title;       /* NULL for none */
};

/* Default size of a terminal: 900x600 pixels, or 100x30 characters for dumb. */
void gnuplot_default_size(enum gnuplot_terminal terminal, unsigned *width, unsigned *height);

/* Terminal, size, output, title and the settings every sift chart shares. */
void gnuplot_begin(FILE *out, const struct gnuplot_page *page);

/* A datablock "$NAME << SIFT_EOD"; between begin and end write only gnuplot_number and
 * separators (' ', '\n'). name is the caller's own identifier, never input text. */
void gnuplot_block_begin(FILE *out, const char *name);
void gnuplot_block_end(FILE *out);
/* A finite number in a form gnuplot reads back exactly enough ("%.15g"); NaN and
 * infinities are written as 0 (callers skip them before). */
void gnuplot_number(FILE *out, double value);

#endif
