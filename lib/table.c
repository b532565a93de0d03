/* table: cells are stored formatted, typed for alignment and JSON. */
#include "table.h"
#include "frame.h"
#include "xalloc.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const table_format_names[] = { "text", "tsv", "csv", "json", "md", NULL };

struct cell {
	char *text;     /* NULL when empty */
	size_t len;
	double real;    /* for PCT/REAL cells, the value written to JSON */
	uint64_t uint;
};

struct table {
	struct table_column *columns;
	size_t ncolumns;
	struct cell *cells;     /* rows * ncolumns */
	size_t rows, cap;
};

table *table_new(const struct table_column *columns, size_t ncolumns)
{
	table *t = xcalloc(1, sizeof *t);
	t->columns = xmalloc(ncolumns * sizeof *columns);
	memcpy(t->columns, columns, ncolumns * sizeof *columns);
	t->ncolumns = ncolumns;
	return t;
}

void table_free(table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->rows * t->ncolumns; i++)
		free(t->cells[i].text);
	free(t->cells);
	free(t->columns);
	free(t);
}

size_t table_rows(const table *t) { return t->rows; }

void table_add_row(table *t)
{
	t->cells = xgrow(t->cells, &t->cap, (t->rows + 1) * t->ncolumns, sizeof *t->cells);
	memset(t->cells + t->rows * t->ncolumns, 0, t->ncolumns * sizeof *t->cells);
	t->rows++;
}

static struct cell *cell_at(table *t, size_t column)
{
	struct cell *c = &t->cells[(t->rows - 1) * t->ncolumns + column];
	free(c->text);
	c->text = NULL;
	c->len = 0;
	return c;
}

void table_set_str(table *t, size_t column, const char *text, size_t len)
{
	struct cell *c = cell_at(t, column);
	c->text = xstrndup(text, len);
	c->len = len;
}

void table_set_uint(table *t, size_t column, uint64_t value)
{
	struct cell *c = cell_at(t, column);
	char buf[32];
	c->len = (size_t)snprintf(buf, sizeof buf, "%llu", (unsigned long long)value);
	c->text = xstrndup(buf, c->len);
	c->uint = value;
}

void table_set_real(table *t, size_t column, double value)
{
	struct cell *c = cell_at(t, column);
	if (isnan(value))
		return;
	int decimals = t->columns[column].type == TABLE_PCT ? 2 : t->columns[column].decimals;
	if (t->columns[column].type == TABLE_SIG) {
		/* places for that many significant digits: 0.00123001 for 1/813, 14676.7; a
		 * rounding error's 1e-17 (the stddev of equal values) is 0 */
		int magnitude = fabs(value) < 1e-12 ? decimals - 1 : (int)floor(log10(fabs(value)));
		decimals = decimals - 1 - magnitude;
		decimals = decimals < 0 ? 0 : decimals > 15 ? 15 : decimals;
	}
	char buf[400];
	c->len = (size_t)snprintf(buf, sizeof buf, "%.*f", decimals, value);
	if (strcmp(buf, "-0.00") == 0 || (buf[0] == '-' && strspn(buf + 1, "0.") == c->len - 1)) {
		memmove(buf, buf + 1, c->len); /* no "-0.00" */
		c->len--;
	}
	c->text = xstrndup(buf, c->len);
	c->real = strtod(buf, NULL); /* JSON gets the rounded figure the text shows */
}

double table_pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static int is_number(const struct table_column *col) { return col->type != TABLE_STR; }

/* Display width: count UTF-8 lead bytes, so multi-byte names still line up. */
static size_t display_width(const char *s, size_t len)
{
	size_t w = 0;
	for (size_t i = 0; i < len; i++)
		w += ((unsigned char)s[i] & 0xC0) != 0x80;
	return w;
}

/* Tabs and line breaks would break a line-oriented format: write them as spaces. */
static void put_flat(FILE *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		char ch = s[i];
		putc(ch == '\t' || ch == '\n' || ch == '\r' ? ' ' : ch, out);
	}
}

/* A text cell: its text, or a shortened copy (kept in *own) when it is a key too wide for a
 * terminal. */
/* The shortened text of each text cell too wide for a terminal (NULL where a cell is
 * written as it is), made once: widths and rows both use it. */
static char **shortened_cells(const table *t, unsigned flags)
{
	if (flags & TABLE_TEXT_WIDE)
		return NULL;
	size_t n = t->ncolumns;
	char **own = xcalloc(t->rows * n + 1, sizeof *own);
	for (size_t r = 0; r < t->rows; r++)
		for (size_t c = 0; c < n; c++) {
			const struct cell *cell = &t->cells[r * n + c];
			if (t->columns[c].type != TABLE_STR || !cell->text ||
			    display_width(cell->text, cell->len) <= TABLE_TEXT_KEY_MAX)
				continue;
			own[r * n + c] = xmalloc(cell->len + 8);
			frame_shorten(cell->text, cell->len, TABLE_TEXT_KEY_MAX, own[r * n + c], cell->len + 8);
		}
	return own;
}

/* Cell (r, c) as text shows it: its shortened text, if made, else its own. */
static const char *text_cell(const table *t, char *const *own, size_t r, size_t c, size_t *len)
{
	const char *s = own ? own[r * t->ncolumns + c] : NULL;
	if (s) {
		*len = strlen(s);
		return s;
	}
	const struct cell *cell = &t->cells[r * t->ncolumns + c];
	*len = cell->len;
	return cell->text ? cell->text : "";
}

static void write_text(const table *t, FILE *out, unsigned flags)
{
	size_t n = t->ncolumns;
	size_t *width = xcalloc(n, sizeof *width);
	size_t *order = xmalloc(n * sizeof *order);
	char **own = shortened_cells(t, flags);
	int key_last = (flags & TABLE_TEXT_KEY_LAST) && n > 1;
	for (size_t i = 0; i < n; i++)
		order[i] = key_last ? (i + 1) % n : i;
	for (size_t c = 0; c < n; c++) {
		width[c] = strlen(t->columns[c].name);
		for (size_t r = 0; r < t->rows; r++) {
			size_t len;
			const char *text = text_cell(t, own, r, c, &len);
			size_t w = display_width(text, len);
			if (w > width[c])
				width[c] = w;
		}
	}
	for (size_t r = (flags & TABLE_NO_HEADER) ? 1 : 0; r <= t->rows; r++) {
		/* a row ends at its last cell with text: no blanks at a line's end */
		size_t shown = n;
		while (r > 0 && shown > 1) {
			size_t len;
			text_cell(t, own, r - 1, order[shown - 1], &len);
			if (len)
				break;
			shown--;
		}
		for (size_t i = 0; i < shown; i++) {
			size_t c = order[i];
			const struct table_column *col = &t->columns[c];
			const char *text = col->name;
			size_t len = strlen(col->name);
			if (r > 0)
				text = text_cell(t, own, r - 1, c, &len);
			size_t pad = width[c] - display_width(text, len);
			int last = i + 1 == shown;
			if (i > 0)
				fputs("  ", out);
			if (is_number(col))
				fprintf(out, "%*s", (int)pad, "");
			put_flat(out, text, len);
			if (!is_number(col) && !last)
				fprintf(out, "%*s", (int)pad, "");
		}
		putc('\n', out);
	}
	for (size_t i = 0; own && i < t->rows * n; i++)
		free(own[i]);
	free(own);
	free(order);
	free(width);
}

static void write_tsv(const table *t, FILE *out)
{
	for (size_t c = 0; c < t->ncolumns; c++)
		fprintf(out, "%s%s", c ? "\t" : "", t->columns[c].name);
	putc('\n', out);
	for (size_t r = 0; r < t->rows; r++) {
		for (size_t c = 0; c < t->ncolumns; c++) {
			const struct cell *cell = &t->cells[r * t->ncolumns + c];
			if (c)
				putc('\t', out);
			put_flat(out, cell->text ? cell->text : "", cell->len);
		}
		putc('\n', out);
	}
}

/* RFC 4180 quoting; text that a spreadsheet would run as a formula is quoted too. */
static void put_csv(FILE *out, const char *s, size_t len, int is_text)
{
	int quote = len > 0 && is_text && strchr("=+-@\t\r", s[0]) != NULL;
	for (size_t i = 0; i < len && !quote; i++)
		quote = s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r';
	if (!quote) {
		fwrite(s, 1, len, out);
		return;
	}
	putc('"', out);
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '"')
			putc('"', out);
		putc(s[i], out);
	}
	putc('"', out);
}

static void write_csv(const table *t, FILE *out)
{
	for (size_t c = 0; c < t->ncolumns; c++) {
		if (c)
			putc(',', out);
		put_csv(out, t->columns[c].name, strlen(t->columns[c].name), 1);
	}
	fputs("\r\n", out);
	for (size_t r = 0; r < t->rows; r++) {
		for (size_t c = 0; c < t->ncolumns; c++) {
			const struct cell *cell = &t->cells[r * t->ncolumns + c];
			if (c)
				putc(',', out);
			put_csv(out, cell->text ? cell->text : "", cell->len, !is_number(&t->columns[c]));
		}
		fputs("\r\n", out);
	}
}

/* Markdown cells: pipes and backslashes escaped, line breaks flattened. */
static void put_md(FILE *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		char ch = s[i];
		if (ch == '|' || ch == '\\' || ch == '`' || ch == '*' || ch == '_' || ch == '<' ||
		    ch == '>' || ch == '[' || ch == ']')
			putc('\\', out);
		putc(ch == '\t' || ch == '\n' || ch == '\r' ? ' ' : ch, out);
	}
}

static void write_md(const table *t, FILE *out)
{
	fputs("|", out);
	for (size_t c = 0; c < t->ncolumns; c++) {
		putc(' ', out);
		put_md(out, t->columns[c].name, strlen(t->columns[c].name));
		fputs(" |", out);
	}
	fputs("\n|", out);
	for (size_t c = 0; c < t->ncolumns; c++)
		fputs(is_number(&t->columns[c]) ? " ---: |" : " --- |", out);
	putc('\n', out);
	for (size_t r = 0; r < t->rows; r++) {
		fputs("|", out);
		for (size_t c = 0; c < t->ncolumns; c++) {
			const struct cell *cell = &t->cells[r * t->ncolumns + c];
			putc(' ', out);
			put_md(out, cell->text ? cell->text : "", cell->len);
			fputs(" |", out);
		}
		putc('\n', out);
	}
}

/* A JSON string; bytes that are not UTF-8 (profiles carry anything) become U+FFFD. */
static json_t *json_text(const char *s, size_t len)
{
	json_t *v = json_stringn(s, len);
	if (v)
		return v;
	char *fixed = xmalloc(3 * len + 1);
	size_t n = 0;
	for (size_t i = 0; i < len;) {
		json_t *one = NULL;
		size_t step = 1;
		unsigned char b = (unsigned char)s[i];
		if (b >= 0xC0)
			step = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2;
		if (b != 0 && i + step <= len && (one = json_stringn(s + i, step)) != NULL) {
			memcpy(fixed + n, s + i, step);
			n += step;
			i += step;
			json_decref(one);
		} else {
			fixed[n++] = (char)0xEF;
			fixed[n++] = (char)0xBF;
			fixed[n++] = (char)0xBD;
			i++;
		}
	}
	v = json_stringn(fixed, n);
	free(fixed);
	return v ? v : json_string("");
}

static int write_json(const table *t, FILE *out)
{
	json_t *rows = json_array();
	for (size_t r = 0; r < t->rows; r++) {
		json_t *obj = json_object();
		for (size_t c = 0; c < t->ncolumns; c++) {
			const struct cell *cell = &t->cells[r * t->ncolumns + c];
			json_t *v;
			if (!cell->text)
				v = json_null();
			else if (t->columns[c].type == TABLE_STR)
				v = json_text(cell->text, cell->len);
			else if (t->columns[c].type == TABLE_UINT && cell->uint <= (uint64_t)INT64_MAX)
				v = json_integer((json_int_t)cell->uint);
			else if (t->columns[c].type == TABLE_UINT)
				v = json_real((double)cell->uint);
			else
				v = json_real(cell->real);
			json_object_set_new(obj, t->columns[c].name, v);
		}
		json_array_append_new(rows, obj);
	}
	int rc = json_dumpf(rows, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
	json_decref(rows);
	putc('\n', out);
	return rc;
}

int table_write(const table *t, FILE *out, enum table_format format, unsigned flags)
{
	switch (format) {
	case TABLE_TEXT: write_text(t, out, flags); break;
	case TABLE_TSV: write_tsv(t, out); break;
	case TABLE_CSV: write_csv(t, out); break;
	case TABLE_MD: write_md(t, out); break;
	case TABLE_JSON:
		if (write_json(t, out) != 0)
			return -1;
		break;
	}
	return ferror(out) ? -1 : 0;
}
