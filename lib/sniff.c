/* sniff: content detection with a small look-ahead, so stdin and zstd streams work too. */
#include "sniff.h"
#include "dumpjson.h"
#include "folded.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

enum { SNIFF_MAX_WAIT = 1000 };  /* undecided lines held before settling on folded */

static int starts(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	return len >= n && memcmp(s, prefix, n) == 0;
}

enum load_format sniff_line(const char *text, size_t len)
{
	const char *s = text, *end = text + len;
	/* Indentation and colour codes say nothing. */
	while (s < end) {
		if (*s == ' ' || *s == '\t') {
			s++;
		} else if (*s == '\x1b' && s + 1 < end && s[1] == '[') {
			s += 2;
			while (s < end && !(*s >= '@' && *s <= '~'))
				s++;
			if (s < end)
				s++;
		} else {
			break;
		}
	}
	size_t n = (size_t)(end - s);
	if (n == 0)
		return LOAD_AUTO;
	if ((starts(s, n, "Thread ") && n > 7 && s[7] >= '0' && s[7] <= '9') ||
	    starts(s, n, "Parent Process ") || (starts(s, n, "Python v") && n > 8 && s[8] >= '0' && s[8] <= '9') ||
	    (starts(s, n, "Process ") && memchr(s, ':', n)))
		return LOAD_DUMP;
	if (*s == '[' || *s == '{') {
		const char *p = s + 1;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p == end || *p == '{' || *p == ']' || (*s == '{' && *p == '"'))
			return LOAD_JSON;
	}
	struct folded_line fl;
	const char *reason;
	if (folded_parse(text, len, &fl, &reason) == FOLDED_OK &&
	    (fl.len == 0 || memchr(fl.stack, '(', fl.len) || memchr(fl.stack, ';', fl.len)))
		return LOAD_RAW;
	return LOAD_AUTO;
}

struct held {
	char *text;
	size_t len;
	const char *file;
	unsigned long lineno;
	int unterminated;
};

struct sniff {
	in_reader *in;
	enum load_format forced, current;
	struct held *held;
	size_t nheld, held_cap, replay;  /* replay: next held line to give out */
	int replaying;
};

sniff *sniff_new(in_reader *in, enum load_format forced)
{
	sniff *s = xcalloc(1, sizeof *s);
	s->in = in;
	s->forced = s->current = forced;
	return s;
}

static void drop_held(sniff *s)
{
	for (size_t i = 0; i < s->nheld; i++)
		free(s->held[i].text);
	s->nheld = s->replay = 0;
	s->replaying = 0;
}

void sniff_free(sniff *s)
{
	if (!s)
		return;
	drop_held(s);
	free(s->held);
	free(s);
}

static void hold(sniff *s, const struct in_line *l)
{
	s->held = xgrow(s->held, &s->held_cap, s->nheld + 1, sizeof *s->held);
	struct held *h = &s->held[s->nheld++];
	h->text = xstrndup(l->text, l->len);
	h->len = l->len;
	h->file = l->file;
	h->lineno = l->lineno;
	h->unterminated = l->unterminated;
}

static int give_held(sniff *s, struct in_line *line, enum load_format *format)
{
	struct held *h = &s->held[s->replay++];
	line->text = h->text;
	line->len = h->len;
	line->file = h->file;
	line->lineno = h->lineno;
	line->unterminated = h->unterminated;
	*format = s->current;
	return 1;
}

int sniff_next(sniff *s, struct in_line *line, enum load_format *format)
{
	if (s->replaying) {
		if (s->replay < s->nheld)
			return give_held(s, line, format);
		drop_held(s);
	}
	for (;;) {
		if (!in_next(s->in, line)) {
			if (s->nheld == 0)
				return 0;
			s->current = LOAD_RAW;
			s->replaying = 1;
			return give_held(s, line, format);
		}
		/* A file that proved nothing lends its lines to the next decision. */
		if (line->lineno == 1 && s->nheld == 0)
			s->current = s->forced;
		if (s->current == LOAD_AUTO) {
			enum load_format f = sniff_line(line->text, line->len);
			if (f != LOAD_AUTO)
				s->current = f;
		}
		if (s->current != LOAD_AUTO && s->nheld == 0) {
			*format = s->current;
			return 1;
		}
		hold(s, line);
		if (s->current == LOAD_AUTO && s->nheld < SNIFF_MAX_WAIT)
			continue;
		if (s->current == LOAD_AUTO)
			s->current = LOAD_RAW;
		s->replaying = 1;
		return give_held(s, line, format);
	}
}

/* Text and JSON parsers count snapshots apart: number them again as they arrive. */
struct renumber {
	dump_fn *fn;
	void *ctx;
	const void *last_parser;
	uint64_t last_snapshot, count;
};

static void renumber(struct renumber *r, const void *parser, const struct dump_thread *t)
{
	if (parser != r->last_parser || t->snapshot != r->last_snapshot) {
		r->count++;
		r->last_parser = parser;
		r->last_snapshot = t->snapshot;
	}
	struct dump_thread copy = *t;
	copy.snapshot = r->count;
	r->fn(r->ctx, &copy);
}

static void from_text(void *ctx, const struct dump_thread *t) { renumber(ctx, "text", t); }
static void from_json(void *ctx, const struct dump_thread *t) { renumber(ctx, "json", t); }

int sniff_read_dumps(char *const *paths, size_t npaths, enum load_format forced,
		     struct err_lines *errs, dump_fn *fn, void *ctx, uint64_t *snapshots)
{
	struct renumber r = { fn, ctx, NULL, 0, 0 };
	in_reader *in = in_open(paths, npaths);
	sniff *sn = sniff_new(in, forced);
	dump_parser *dp = dump_new(errs, from_text, &r);
	dumpjson *dj = dumpjson_new(errs, from_json, &r);
	struct in_line line;
	enum load_format fmt;
	while (sniff_next(sn, &line, &fmt)) {
		if (fmt == LOAD_JSON)
			dumpjson_line(dj, &line);
		else /* folded stacks hold no snapshots: read as text, everything is skipped */
			dump_line(dp, &line);
	}
	dump_finish(dp);
	dumpjson_finish(dj);
	int status = in_failed(in) ? 1 : 0;
	*snapshots = r.count;
	dump_free(dp);
	dumpjson_free(dj);
	sniff_free(sn);
	in_close(in);
	return status;
}
