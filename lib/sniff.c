/* sniff: content detection with a small look-ahead, so stdin and zstd streams work too. */
#include "sniff.h"
#include "austin.h"
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

enum load_format sniff_json_kind(const char *text, size_t len)
{
	static const struct { const char *key; enum load_format f; } keys[] = {
		{ "\"$schema\"", LOAD_SPEEDSCOPE }, { "\"profiles\"", LOAD_SPEEDSCOPE },
		{ "\"shared\"", LOAD_SPEEDSCOPE }, { "\"ph\"", LOAD_CHROME },
		{ "\"traceEvents\"", LOAD_CHROME }, { "\"thread_id\"", LOAD_JSON },
		{ "\"os_thread_id\"", LOAD_JSON }, { "\"thread_name\"", LOAD_JSON },
		{ "\"owns_gil\"", LOAD_JSON },
	};
	enum { LOOK = 1 << 16 };  /* keys come first: a single-line document is not searched whole */
	size_t n = len < LOOK ? len : LOOK, best = n;
	enum load_format f = LOAD_AUTO;
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		const char *at = memmem(text, best, keys[i].key, strlen(keys[i].key));
		if (at) {
			best = (size_t)(at - text);
			f = keys[i].f;
		}
	}
	return f;
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
		if (p == end || *p == '{' || *p == ']' || (*s == '{' && *p == '"')) {
			enum load_format f = sniff_json_kind(s, n);
			return f == LOAD_AUTO ? LOAD_JSON : f;
		}
	}
	if (starts(s, n, "<?xml") || starts(s, n, "<svg") || starts(s, n, "<!DOCTYPE svg"))
		return LOAD_SVG;
	if (austin_is_sample(s, n))
		return LOAD_AUSTIN;
	struct folded_line fl;
	const char *reason;
	if (folded_parse(text, len, &fl, &reason) == FOLDED_OK &&
	    (fl.len == 0 || memchr(fl.stack, '(', fl.len) || memchr(fl.stack, ';', fl.len)))
		return LOAD_RAW;
	return LOAD_AUTO;
}

/* Lowercase copy of a line's first bytes, for word searches. */
static size_t lower_head(const char *text, size_t len, char *out, size_t cap)
{
	size_t n = len < cap ? len : cap;
	for (size_t i = 0; i < n; i++)
		out[i] = (text[i] >= 'A' && text[i] <= 'Z') ? (char)(text[i] - 'A' + 'a') : text[i];
	return n;
}

static int has(const char *s, size_t n, const char *word)
{
	return memmem(s, n, word, strlen(word)) != NULL;
}

const char *sniff_guess(const char *text, size_t len)
{
	char low[512];
	size_t n = lower_head(text, len, low, sizeof low);
	while (n && (low[0] == ' ' || low[0] == '\t')) {
		memmove(low, low + 1, --n);
	}
	if (n == 0)
		return NULL;
	switch (sniff_line(text, len)) {
	case LOAD_RAW: return "folded stacks (a py-spy raw profile): try sift-top or sift-fold";
	case LOAD_DUMP: return "py-spy dump output: try sift-threads or sift-fold";
	case LOAD_JSON: return "JSON: sift reads py-spy dump --json, speedscope and chrometrace";
	case LOAD_SPEEDSCOPE: return "a speedscope profile";
	case LOAD_CHROME: return "a chrometrace";
	case LOAD_SVG: return "an SVG: sift reads flame graphs from py-spy, inferno and flamegraph.pl";
	case LOAD_AUSTIN: return "austin samples";
	default: break;
	}
	if (has(low, n, "error:") || has(low, n, "permission denied") || has(low, n, "failed to") ||
	    has(low, n, "py-spy") || has(low, n, "traceback (most recent"))
		return "an error message, not a recording";
	if ((n >= 6 && memcmp(low, "top - ", 6) == 0) || has(low, n, "pid user") ||
	    has(low, n, " lwp ") || has(low, n, " tgid ") || has(low, n, "threads:"))
		return "thread CPU from top, ps or pidstat: give it to sift-threads --cpu";
	if ((n >= 5 && memcmp(low, "self\t", 5) == 0) || (n >= 8 && memcmp(low, "samples ", 8) == 0) ||
	    has(low, n, "self_pct"))
		return "a sift table: sift tools read profiles, sift-plot reads tables";
	static const char *const log_words[] = { "tok/s", "tokens/s", "tokens per", "tokens_per",
		"tps", "it/s", "s/it", "samples/s", "samples per", "throughput", "loss", "iter",
		"step", "epoch", "tflop", "mfu", "lr", NULL };
	for (int i = 0; log_words[i]; i++)
		if (has(low, n, log_words[i]))
			return "a training log: try sift-tput";
	return NULL;
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
	const char *looks_like;        /* sniff_guess of the first lines that settled nothing */
	unsigned guessed;              /* lines guessed at so far */
	const char *prefix;            /* "# " or "> " cut from every line of a pasted dump */
	int json_wait;                 /* JSON without a telling key yet: which kind is open */
	size_t prefix_len;
};

enum { SNIFF_GUESS_LINES = 50 };

const char *sniff_looks_like(const sniff *s) { return s->looks_like; }

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

/* Dumps pasted into a code comment or a markdown quote carry a prefix on every line: the
 * first line that is "# " or "> " before a dump header sets it for the rest of the file,
 * and it is cut from each line after (a bare "#" or ">" is a blank line). Line numbers
 * stay the file's. */
static void strip_prefix(sniff *s, struct in_line *line)
{
	static const char *const prefixes[] = { "# ", "> ", NULL };
	if (!s->prefix_len && line->len > 2 && (line->text[0] == '#' || line->text[0] == '>')) {
		for (int p = 0; prefixes[p]; p++)
			if (starts(line->text, line->len, prefixes[p]) &&
			    sniff_line(line->text + 2, line->len - 2) == LOAD_DUMP) {
				s->prefix = prefixes[p];
				s->prefix_len = 2;
			}
	}
	if (!s->prefix_len)
		return;
	if (starts(line->text, line->len, s->prefix)) {
		line->text += s->prefix_len;
		line->len -= s->prefix_len;
	} else if (line->len == 1 && line->text[0] == s->prefix[0]) {
		line->text += 1; /* a blank line, still ending at the line's terminator */
		line->len = 0;
	}
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
			if (!s->json_wait)
				s->current = LOAD_RAW;
			s->json_wait = 0;
			s->replaying = 1;
			return give_held(s, line, format);
		}
		if (line->lineno == 1)
			s->prefix_len = 0;
		strip_prefix(s, line);
		if (s->guessed < SNIFF_GUESS_LINES && !s->looks_like && line->len) {
			s->guessed++;
			s->looks_like = sniff_guess(line->text, line->len);
		}
		/* A file that proved nothing lends its lines to the next decision. */
		if (line->lineno == 1 && s->nheld == 0) {
			s->current = s->forced;
			s->json_wait = 0;
		}
		if (s->json_wait) {
			enum load_format f = sniff_json_kind(line->text, line->len);
			if (f != LOAD_AUTO) {
				s->current = f;
				s->json_wait = 0;
			}
		} else if (s->current == LOAD_AUTO) {
			enum load_format f = sniff_line(line->text, line->len);
			if (f != LOAD_AUTO)
				s->current = f;
			/* `{` or `[` alone: the keys after it tell speedscope, chrometrace and dumps apart */
			s->json_wait = f == LOAD_JSON && sniff_json_kind(line->text, line->len) == LOAD_AUTO;
		}
		if (s->current != LOAD_AUTO && !s->json_wait && s->nheld == 0) {
			*format = s->current;
			return 1;
		}
		hold(s, line);
		if ((s->current == LOAD_AUTO || s->json_wait) && s->nheld < SNIFF_MAX_WAIT)
			continue;
		if (s->current == LOAD_AUTO)
			s->current = LOAD_RAW;
		s->json_wait = 0;
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
		     struct err_lines *errs, dump_fn *fn, void *ctx, struct sniff_dumps *found)
{
	struct renumber r = { fn, ctx, NULL, 0, 0 };
	in_reader *in = in_open(paths, npaths);
	sniff *sn = sniff_new(in, forced);
	dump_parser *dp = dump_new(errs, from_text, &r);
	dumpjson *dj = dumpjson_new(errs, from_json, &r);
	struct in_line line;
	enum load_format fmt;
	unsigned long lines = 0;
	while (sniff_next(sn, &line, &fmt)) {
		lines += line.len > 0;
		if (fmt == LOAD_JSON)
			dumpjson_line(dj, &line);
		else /* folded stacks hold no snapshots: read as text, everything is skipped */
			dump_line(dp, &line);
	}
	dump_finish(dp);
	dumpjson_finish(dj);
	int status = in_failed(in) ? 1 : 0;
	found->snapshots = r.count;
	found->lines = lines;
	found->looks_like = sniff_looks_like(sn);
	dump_free(dp);
	dumpjson_free(dj);
	sniff_free(sn);
	in_close(in);
	return status;
}

int sniff_report_no_dumps(const struct sniff_dumps *found)
{
	if (found->snapshots || !found->lines)
		return 0;
	err_warn("no py-spy dump snapshot in the input (expected py-spy dump output, text or --json)%s%s",
		 found->looks_like ? "; it looks like " : "", found->looks_like ? found->looks_like : "");
	return 1;
}
