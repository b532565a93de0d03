/* tputtab: a header row's names given to the rows of bare figures under it. */
#include "tputtab.h"
#include "tputbyte.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int is_sep(char c) { return c == ' ' || c == '\t' || c == '|' || c == '\r'; }

/* The next field of s[*at, len): its start and length, *at past it; 0 at the end. */
static size_t next_field(const char *s, size_t len, size_t *at, const char **field)
{
	size_t i = *at;
	while (i < len && is_sep(s[i]))
		i++;
	size_t start = i;
	while (i < len && !is_sep(s[i]))
		i++;
	*at = i;
	*field = s + start;
	return i - start;
}

/* A column's name: a letter or '_' first, then letters, digits and "_./%-()". */
static int is_name(const char *s, size_t n)
{
	if (n == 0 || n >= TPUTTAB_NAME_MAX || !(tputbyte_alpha(s[0]) || s[0] == '_'))
		return 0;
	for (size_t i = 1; i < n; i++)
		if (!tputbyte_alpha(s[i]) && !tputbyte_digit(s[i]) && !strchr("_./%-()", s[i]))
			return 0;
	return 1;
}

/* A name that counts a training loop's steps. */
static int is_step_name(const char *s, size_t n)
{
	static const char *const names[] = { "step", "steps", "global_step", "iter", "iters", "iteration",
					     "iterations", "epoch", "update", "updates", NULL };
	for (size_t i = 0; names[i]; i++)
		if (strlen(names[i]) == n && strncasecmp(s, names[i], n) == 0)
			return 1;
	return 0;
}

/* A bare figure: "12", "-0.5", "1.2e-05", "nan", "inf". */
static int is_figure(const char *s, size_t n)
{
	if (n == 3 && (strncasecmp(s, "nan", 3) == 0 || strncasecmp(s, "inf", 3) == 0))
		return 1;
	size_t i = s[0] == '-' || s[0] == '+', digits = 0;
	for (; i < n && tputbyte_digit(s[i]); i++)
		digits++;
	if (i < n && s[i] == '.')
		for (i++; i < n && tputbyte_digit(s[i]); i++)
			digits++;
	if (digits && i + 1 < n && (s[i] == 'e' || s[i] == 'E')) {
		size_t e = i + 1 + (s[i + 1] == '-' || s[i + 1] == '+');
		if (e < n && tputbyte_digit(s[e]))
			for (i = e; i < n && tputbyte_digit(s[i]); i++)
				;
	}
	return digits > 0 && i == n;
}

int tputtab_header(struct tputtab *t, const char *s, size_t len)
{
	size_t at = 0, n, cols = 0, used = 0;
	const char *field;
	int step = 0;
	while ((n = next_field(s, len, &at, &field)) > 0) {
		if (!is_name(field, n) || cols == TPUTTAB_COLS_MAX)
			return 0;
		step |= is_step_name(field, n);
		cols++;
	}
	if (cols < TPUTTAB_COLS_MIN || !step)
		return 0;
	t->names = xgrow(t->names, &t->names_cap, len + 1, 1);
	for (at = 0; (n = next_field(s, len, &at, &field)) > 0; used += n + 1) {
		memcpy(t->names + used, field, n);
		t->names[used + n] = '\0';
	}
	t->cols = cols;
	return 1;
}

size_t tputtab_row(struct tputtab *t, const char *s, size_t len, size_t keep)
{
	size_t at = keep, n, cols = 0, out = keep;
	const char *field;
	if (!t->cols)
		return 0;
	while ((n = next_field(s, len, &at, &field)) > 0)
		if (!is_figure(field, n) || ++cols > t->cols)
			return 0;
	if (cols != t->cols)
		return 0;
	/* each name and figure is no longer than the header and the row: room for ": " and " " */
	t->row = xgrow(t->row, &t->row_cap, len + t->names_cap + 3 * cols + 1, 1);
	memcpy(t->row, s, keep);
	const char *name = t->names;
	for (at = keep; (n = next_field(s, len, &at, &field)) > 0; name += strlen(name) + 1) {
		size_t nl = strlen(name);
		if (out > keep)
			t->row[out++] = ' ';
		memcpy(t->row + out, name, nl);
		out += nl;
		t->row[out++] = ':';
		t->row[out++] = ' ';
		memcpy(t->row + out, field, n);
		out += n;
	}
	t->row[out] = '\0';
	return out;
}

void tputtab_free(struct tputtab *t)
{
	free(t->names);
	free(t->row);
	t->names = t->row = NULL;
	t->names_cap = t->row_cap = 0;
	t->cols = 0;
}
