/* docread: documents gathered line by line under a byte bound; stacks built frame by frame. */
#include "docread.h"
#include "xalloc.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { DOC_TAKE_BYTES = 1 << 20 };  /* a first line this long is taken, not copied */

void doc_add_line(struct doc_buf *d, const struct in_line *line)
{
	if (d->len == 0 && !d->over) {
		d->file = line->file;
		d->lineno = line->lineno;
		size_t cap;
		char *taken = line->len >= DOC_TAKE_BYTES && line->len + 1 <= DOC_MAX_BYTES ?
			      in_take_line(line->reader, line, &cap) : NULL;
		if (taken) {  /* a one-line document (compact JSON) held once */
			free(d->text);
			d->text = taken;
			d->cap = cap;
			d->len = line->len;
			d->text[d->len++] = '\n';
			d->text[d->len] = '\0';
			return;
		}
	}
	if (d->over || d->len + line->len + 1 > DOC_MAX_BYTES) {
		d->over = 1;
		return;
	}
	if (d->len + line->len + 2 > d->cap) {
		d->text = xgrow(d->text, &d->cap, d->len + line->len + 2, 1);
		xalloc_hint_huge(d->text, d->cap);
	}
	memcpy(d->text + d->len, line->text, line->len);
	d->len += line->len;
	d->text[d->len++] = '\n';
	d->text[d->len] = '\0';
}

unsigned long doc_line_of(const struct doc_buf *d, size_t pos)
{
	unsigned long line = d->lineno;
	if (pos >= d->len)
		pos = d->len ? d->len - 1 : 0;
	for (size_t i = 0; i < pos; i++)
		line += d->text[i] == '\n';
	return line;
}

void doc_reset(struct doc_buf *d)
{
	d->len = 0;
	d->over = 0;
	if (d->cap > 16 * (size_t)DOC_TAKE_BYTES) {  /* a large document's memory is not kept */
		free(d->text);
		d->text = NULL;
		d->cap = 0;
	}
	if (d->text)
		d->text[0] = '\0';
}

void doc_free(struct doc_buf *d)
{
	free(d->text);
	memset(d, 0, sizeof *d);
}

double doc_rate_join(double a, double b)
{
	if (a == 0 || b < 0)
		return b;
	if (b == 0 || a < 0)
		return a;
	return fabs(a - b) <= 1e-9 * (a > b ? a : b) ? a : -1;
}

void doc_note_rate(struct doc_stats *stats, double rate)
{
	if (rate > 0 && isfinite(rate))
		stats->rate = doc_rate_join(stats->rate, rate);
}

void doc_stack_clear(struct doc_stack *st) { st->used = st->n = 0; }

static void push_text(struct doc_stack *st, const char *text, size_t len)
{
	st->buf = xgrow(st->buf, &st->cap, st->used + len + 1, 1);
	memcpy(st->buf + st->used, text, len);
	st->offs = xgrow(st->offs, &st->offs_cap, 2 * st->n + 2, sizeof *st->offs);
	st->offs[2 * st->n] = st->used;
	st->offs[2 * st->n + 1] = len;
	st->used += len;
	st->buf[st->used++] = '\0';
	st->n++;
}

void doc_stack_push(struct doc_stack *st, const char *fmt, ...)
{
	char small[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	if ((size_t)n < sizeof small) {
		push_text(st, small, (size_t)n);
		return;
	}
	char *big = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	push_text(st, big, (size_t)n);
	free(big);
}

void doc_stack_code(struct doc_stack *st, const char *name, const char *file, long line)
{
	if (!file)
		doc_stack_push(st, "%s", name);
	else if (line > 0)
		doc_stack_push(st, "%s (%s:%ld)", name, file, line);
	else if (*file)
		doc_stack_push(st, "%s (%s)", name, file);
	else
		doc_stack_push(st, "%s", name);
}

const struct doc_frame *doc_stack_frames(struct doc_stack *st)
{
	st->frames = xgrow(st->frames, &st->frames_cap, st->n + 1, sizeof *st->frames);
	for (size_t i = 0; i < st->n; i++)
		st->frames[i] = (struct doc_frame){ st->buf + st->offs[2 * i], st->offs[2 * i + 1] };
	return st->frames;
}

void doc_stack_free(struct doc_stack *st)
{
	free(st->buf);
	free(st->offs);
	free(st->frames);
	memset(st, 0, sizeof *st);
}

json_t *doc_load_json(const struct doc_buf *doc, const char *what, struct err_lines *errs,
		      struct doc_stats *stats)
{
	if (doc->over) {
		stats->bad++;
		err_bad_line(errs, doc->file, doc->lineno, "%s document larger than 256 MiB: not read", what);
		return NULL;
	}
	json_error_t error;
	json_t *root = json_loadb(doc->text, doc->len, 0, &error);
	if (!root) {
		stats->bad++;
		err_bad_line(errs, doc->file, doc_line_of(doc, (size_t)error.position),
			     "bad %s JSON: %s (byte %d)", what, error.text, error.position);
	}
	return root;
}
