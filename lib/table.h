/* table: one table writer for every tool: aligned text, tsv, csv, json, markdown. */
#ifndef SIFT_TABLE_H
#define SIFT_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum table_type {
	TABLE_STR,   /* text, left-aligned */
	TABLE_UINT,  /* exact unsigned integer */
	TABLE_PCT,   /* percentage, two decimals */
	TABLE_REAL,  /* real number, `decimals` places */
	TABLE_SIG,   /* real number, `decimals` significant digits (at least; no exponent) */
};

enum table_format { TABLE_TEXT, TABLE_TSV, TABLE_CSV, TABLE_JSON, TABLE_MD };

/* Names as --format takes them, NULL-terminated, in enum order. */
extern const char *const table_format_names[];

struct table_column {
	const char *name;       /* lowercase, no spaces: the TSV header */
	enum table_type type;
	int decimals;           /* for TABLE_REAL */
};

enum {
	TABLE_TEXT_KEY_LAST = 1,  /* text: print the first column last, unpadded (long frame names) */
	TABLE_NO_HEADER = 2,      /* text: no header line */
	TABLE_TEXT_WIDE = 4,      /* text: keys whole (else a key past TABLE_TEXT_KEY_MAX characters
				   * is shortened in the middle, its function kept, to fit a terminal) */
};

#define TABLE_TEXT_KEY_MAX 80
/* The --format and --wide rows of a tool's option table (cli.h). */
enum { TABLE_KEY_FORMAT = 'f' };
#define TABLE_FORMAT_ROW \
	CLI_ROW_CHOICE("format", TABLE_KEY_FORMAT, "FMT", table_format_names, "text (default), tsv, csv, json, md")
#define TABLE_WIDE_ROW(opt) \
	CLI_ROW_FLAG("wide", (opt), "text: keys whole (default: shortened to 80 characters, the function " \
		     "kept, to fit a terminal)")

typedef struct table table;

table *table_new(const struct table_column *columns, size_t ncolumns);
void table_free(table *t);
size_t table_rows(const table *t);

/* Start a row; cells not set stay empty (null in JSON). */
void table_add_row(table *t);
void table_set_str(table *t, size_t column, const char *text, size_t len);
void table_set_uint(table *t, size_t column, uint64_t value);
/* Real or percentage; NaN leaves the cell empty. */
void table_set_real(table *t, size_t column, double value);

/* Write the whole table; returns 0, or -1 on a write error. */
int table_write(const table *t, FILE *out, enum table_format format, unsigned flags);

/* Percentage of part in whole, 0 when whole is 0. */
double table_pct(uint64_t part, uint64_t whole);

#endif
