/* sniff: content detection with a small look-ahead, so stdin and zstd streams work too. */
#include "sniff.h"
#include "austin.h"
#include "cputab.h"
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

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* n digits at s; returns 1 when there are. */
static int digits(const char *s, const char *end, size_t n)
{
	if ((size_t)(end - s) < n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!is_digit(s[i]))
			return 0;
	return 1;
}

/* A timestamp and the one space after it: `2024-05-01T12:00:00.123Z `, `2024-05-01
 * 12:00:00,123 `, `2024/05/01 12:00:00 `, each maybe in brackets. Returns its length or 0. */
static size_t stamp_len(const char *s, const char *end)
{
	const char *p = s;
	int bracket = p < end && *p == '[';
	p += bracket;
	if (!digits(p, end, 4) || end - p < 19 || (p[4] != '-' && p[4] != '/') || p[7] != p[4] ||
	    !digits(p + 5, end, 2) || !digits(p + 8, end, 2) || (p[10] != 'T' && p[10] != ' ') ||
	    !digits(p + 11, end, 2) || p[13] != ':' || !digits(p + 14, end, 2) || p[16] != ':' ||
	    !digits(p + 17, end, 2))
		return 0;
	p += 19;
	if (p < end && (*p == '.' || *p == ',') && p + 1 < end && is_digit(p[1]))
		for (p++; p < end && is_digit(*p); p++)
			;
	if (p < end && *p == 'Z') {
		p++;
	} else if (p < end && (*p == '+' || *p == '-') && digits(p + 1, end, 2)) {
		p += 3;
		p += p < end && *p == ':';
		p += digits(p, end, 2) ? 2 : 0;
	}
	if (bracket) {
		if (p >= end || *p != ']')
			return 0;
		p++;
	}
	if (p < end && *p != ' ')
		return 0;
	return (size_t)(p - s) + (p < end);
}

static int label_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_' || c == '-' ||
	       c == '.' || c == '/' || c == ':' || c == '@';
}

/* One rank label and what follows it up to the text: its kind, or NONE. */
static enum sniff_label_kind label_at(const char *s, const char *end, const char **text, size_t *len,
				      size_t *used)
{
	const char *p = s;
	while (p < end && p - s < 6 && *p == ' ') /* srun pads task ids to one width */
		p++;
	const char *d = p;
	while (p < end && is_digit(*p) && p - d < 7)
		p++;
	if (p > d && p < end && *p == ':' && (p + 1 == end || p[1] == ' ')) {
		*text = d;
		*len = (size_t)(p - d);
		*used = (size_t)(p + 1 - s) + (p + 1 < end);
		return SNIFF_LABEL_SRUN;
	}
	if (s < end && *s == '[') { /* [rank3]:, [default3]:, [host:3]:, [pod/NAME/CONTAINER] */
		for (p = s + 1; p < end && p - s < 128 && label_char(*p); p++)
			;
		if (p > s + 1 && p < end && *p == ']' && p + 1 < end && (p[1] == ':' || p[1] == ' ')) {
			*text = s + 1;
			*len = (size_t)(p - s - 1);
			p += 1 + (p[1] == ':');
			*used = (size_t)(p - s); /* the space after is the caller's to take */
			return SNIFF_LABEL_BRACKET;
		}
	}
	for (p = s; p < end && p - s < 128 && label_char(*p) && *p != ':'; p++)
		;
	const char *name_end = p;
	while (p < end && *p == ' ')
		p++;
	if (name_end > s && p > name_end && p < end && *p == '|' && (p + 1 == end || p[1] == ' ')) {
		*text = s;
		*len = (size_t)(name_end - s);
		*used = (size_t)(p + 1 - s) + (p + 1 < end);
		return SNIFF_LABEL_COMPOSE;
	}
	return SNIFF_LABEL_NONE;
}

size_t sniff_label(const char *text, size_t len, const struct sniff_label *want, struct sniff_label *out)
{
	const char *s = text, *end = text + len;
	struct sniff_label l = { SNIFF_LABEL_NONE, 0, 0, NULL, 0 };
	size_t used;
	/* A label, then a timestamp (compose's `name | TIME `), or a timestamp, then a label. */
	for (int step = 0; step < 3; step++) {
		size_t n = stamp_len(s, end);
		if (n && !l.stamp) {
			l.stamp = 1;
			s += n;
			continue;
		}
		const char *lt;
		size_t ll;
		enum sniff_label_kind k = l.kind ? SNIFF_LABEL_NONE : label_at(s, end, &lt, &ll, &used);
		if (k == SNIFF_LABEL_NONE)
			break;
		l.kind = k;
		l.text = lt;
		l.len = ll;
		s += used;
		if (k == SNIFF_LABEL_BRACKET) { /* torchrun's [default3]: has none: the file's first says */
			l.space = want ? want->space : s < end && *s == ' ';
			if (l.space && (s == end || *s != ' ') && !(want && s == end))
				return 0;
			s += l.space && s < end;
		}
	}
	if (s == text || (want && (want->kind != l.kind || want->stamp != l.stamp)))
		return 0;
	*out = l;
	return (size_t)(s - text);
}

static enum load_format line_format(const char *text, size_t len, int labels);

/* The dump line after a label or timestamp prefix proves a dump. */
static int labelled_dump(const char *text, size_t len)
{
	char buf[256];
	if (memchr(text, '\x1b', len < sizeof buf ? len : sizeof buf)) { /* compose colours its labels */
		len = len < sizeof buf - 1 ? len : sizeof buf - 1;
		memcpy(buf, text, len);
		len = dump_strip_ansi(buf, len);
		text = buf;
	}
	struct sniff_label l;
	size_t n = sniff_label(text, len, NULL, &l);
	return n && n < len && line_format(text + n, len - n, 0) == LOAD_DUMP;
}

enum load_format sniff_line(const char *text, size_t len)
{
	return line_format(text, len, 1);
}

/* labels: also look behind a rank label or timestamp (one level: never recursive). */
static enum load_format line_format(const char *text, size_t len, int labels)
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
	if (labels && (*s == '[' || is_digit(*s) || label_char(*s)) && labelled_dump(text, len))
		return LOAD_DUMP;
	struct folded_line fl;
	const char *reason;
	if (folded_parse(text, len, &fl, &reason) == FOLDED_OK &&
	    (fl.len == 0 || memchr(fl.stack, '(', fl.len) || memchr(fl.stack, ';', fl.len)))
		return LOAD_RAW;
	return LOAD_AUTO;
}

/* Does a lowercased line hold a word training logs print? */
static int has_log_word(const char *low, size_t n);

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

static int has_log_word(const char *low, size_t n)
{
	static const char *const log_words[] = { "tok/s", "tokens/s", "tokens per", "tokens_per",
		"tps", "it/s", "s/it", "samples/s", "samples per", "throughput", "loss", "iter",
		"step", "epoch", "tflop", "mfu", "lr", NULL };
	for (int i = 0; log_words[i]; i++)
		if (has(low, n, log_words[i]))
			return 1;
	return 0;
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
	    has(low, n, " lwp ") || has(low, n, " tgid ") || has(low, n, "threads:") ||
	    cpu_headerless(text, len))
		return "thread CPU from top, ps or pidstat: give it to sift-threads --cpu";
	if ((n >= 5 && memcmp(low, "self\t", 5) == 0) || (n >= 8 && memcmp(low, "samples ", 8) == 0) ||
	    has(low, n, "self_pct"))
		return "a sift table: sift tools read profiles, sift-plot reads tables";
	if (has_log_word(low, n))
		return "a training log: try sift-tput";
	return NULL;
}

int sniff_log_line(const char *text, size_t len)
{
	char low[512] = { 0 };  /* set: -O1 cannot see lower_head fill what is read */
	size_t n = lower_head(text, len, low, sizeof low);
	if (!has_log_word(low, n))
		return 0;
	/* Fields: "KEY: V", "KEY=V", " | ": a frame, even a C++ one, has hardly two. */
	size_t fields = 0;
	for (size_t i = 0; i + 1 < n; i++)
		fields += (low[i] == ':' && low[i + 1] == ' ') || low[i] == '=' ||
			  (low[i] == '|' && i > 0 && low[i - 1] == ' ' && low[i + 1] == ' ');
	return fields >= 2;
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
	line->reader = NULL;  /* a copy: not in the reader's buffer */
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

/* May a long first line stay in part for a streaming reader? Speedscope JSON ('{'), or
 * chrometrace JSON (an array of events, or an object with "traceEvents"). */
static int streamed(const struct in_line *line)
{
	enum load_format f = sniff_json_kind(line->text, line->len);
	return (line->text[0] == '{' && f == LOAD_SPEEDSCOPE) ||
	       ((line->text[0] == '{' || line->text[0] == '[') && f == LOAD_CHROME);
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
		/* A long first line that opens JSON may stay in part for a streaming reader
		 * (speedscope, chrometrace); any other is read whole before it is looked at. */
		if (line->more && (line->lineno != 1 || s->nheld || !streamed(line)))
			in_line_rest(s->in, line);
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
			if (*format != LOAD_SPEEDSCOPE && *format != LOAD_CHROME)
				in_line_rest(s->in, line);
			return 1;
		}
		in_line_rest(s->in, line);
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

/* Each parser (text, JSON, one per rank label) counts snapshots apart: they are numbered
 * again as they arrive, one number per parser's snapshot. */
struct dumps_reader;

struct stream {
	struct dumps_reader *r;
	dump_parser *dp;            /* a label's own text parser; NULL for the shared ones */
	char *label;
	size_t label_len;
	uint64_t local, global;     /* the parser's snapshot and its number across all */
	struct held *held;          /* a label's lines, read when its file ends */
	size_t nheld, held_cap;
};

/* Labelled lines wait for their file's end, so that each label's threads come out together
 * and snapshots in order; past this many bytes they are read as they come. */
enum { SNIFF_LABEL_HOLD = 64 << 20 };

struct dumps_reader {
	dump_fn *fn;
	void *ctx;
	struct err_lines *errs;
	uint64_t count;
	struct stream text, json;
	struct stream **labelled;   /* the open file's label streams */
	size_t nlabelled, labelled_cap;
	struct sniff_label style;   /* the open file's prefix, kind NONE until one proves a dump */
	int styled;
	size_t held_bytes;
};

static void stream_thread(void *ctx, const struct dump_thread *t)
{
	struct stream *st = ctx;
	if (!st->global || t->snapshot != st->local) {
		st->local = t->snapshot;
		st->global = ++st->r->count;
	}
	struct dump_thread copy = *t;
	copy.snapshot = st->global;
	copy.label = (struct dump_text){ st->label, st->label_len };
	st->r->fn(st->r->ctx, &copy);
}

/* A label's held lines to its parser. */
static void read_held(struct stream *st)
{
	for (size_t k = 0; k < st->nheld; k++) {
		struct held *h = &st->held[k];
		struct in_line line = { h->text, h->len, h->file, h->lineno, h->unterminated, NULL, 0 };
		dump_line(st->dp, &line);
		free(h->text);
	}
	st->nheld = 0;
}

/* The file ended: each label's lines are read and its last thread given out before the
 * next label's, so snapshots come out in order. */
static void end_labels(struct dumps_reader *r)
{
	for (size_t i = 0; i < r->nlabelled; i++) {
		struct stream *st = r->labelled[i];
		read_held(st);
		dump_finish(st->dp);
		dump_free(st->dp);
		free(st->held);
		free(st->label);
		free(st);
	}
	r->nlabelled = 0;
	r->styled = 0;
	r->held_bytes = 0;
}

static struct stream *label_stream(struct dumps_reader *r, const char *label, size_t len)
{
	for (size_t i = 0; i < r->nlabelled; i++)
		if (r->labelled[i]->label_len == len && memcmp(r->labelled[i]->label, label, len) == 0)
			return r->labelled[i];
	struct stream *st = xcalloc(1, sizeof *st);
	st->r = r;
	st->label = xstrndup(label, len);
	st->label_len = len;
	st->dp = dump_new(r->errs, stream_thread, st);
	r->labelled = xgrow(r->labelled, &r->labelled_cap, r->nlabelled + 1, sizeof *r->labelled);
	r->labelled[r->nlabelled++] = st;
	return st;
}

/* A text line: cut its prefix once the file's first prefixed dump line set one, and give
 * it to its label's parser. */
static void text_line(struct dumps_reader *r, struct in_line *line)
{
	if (line->len && line->text[0] == '\x1b') /* compose colours the label at the start */
		line->len = dump_strip_ansi(line->text, line->len);
	struct sniff_label l;
	size_t n = 0;
	if (!r->styled) {
		n = sniff_label(line->text, line->len, NULL, &l);
		if (n && n < line->len && line_format(line->text + n, line->len - n, 0) == LOAD_DUMP) {
			r->style = l;
			r->styled = 1;
		} else {
			n = 0;
		}
	} else {
		n = sniff_label(line->text, line->len, &r->style, &l);
	}
	if (!n) {
		dump_line(r->text.dp, line);
		return;
	}
	line->text += n;
	line->len -= n;
	if (!l.len) {
		dump_line(r->text.dp, line);
		return;
	}
	struct stream *st = label_stream(r, l.text, l.len);
	st->held = xgrow(st->held, &st->held_cap, st->nheld + 1, sizeof *st->held);
	st->held[st->nheld++] = (struct held){ xstrndup(line->text, line->len), line->len, line->file,
					       line->lineno, line->unterminated };
	r->held_bytes += line->len + sizeof *st->held;
	if (r->held_bytes > SNIFF_LABEL_HOLD) { /* too much to hold: read as it comes */
		for (size_t i = 0; i < r->nlabelled; i++)
			read_held(r->labelled[i]);
		r->held_bytes = 0;
	}
}

int sniff_read_dumps(char *const *paths, size_t npaths, enum load_format forced,
		     struct err_lines *errs, dump_fn *fn, void *ctx, struct sniff_dumps *found)
{
	struct dumps_reader r = { 0 };
	r.fn = fn;
	r.ctx = ctx;
	r.errs = errs;
	r.text.r = r.json.r = &r;
	r.text.dp = dump_new(errs, stream_thread, &r.text);
	dumpjson *dj = dumpjson_new(errs, stream_thread, &r.json);
	in_reader *in = in_open(paths, npaths);
	sniff *sn = sniff_new(in, forced);
	struct in_line line;
	enum load_format fmt;
	unsigned long lines = 0;
	while (sniff_next(sn, &line, &fmt)) {
		lines += line.len > 0;
		if (line.lineno == 1 && r.nlabelled) { /* the file's own threads first, then its labels' */
			dump_finish(r.text.dp);
			end_labels(&r);
		}
		if (line.lineno == 1)
			r.styled = 0;  /* each file its own prefix */
		if (fmt == LOAD_JSON)
			dumpjson_line(dj, &line);
		else /* folded stacks hold no snapshots: read as text, everything is skipped */
			text_line(&r, &line);
	}
	dump_finish(r.text.dp);
	end_labels(&r);
	dumpjson_finish(dj);
	int status = in_failed(in) ? 1 : 0;
	found->snapshots = r.count;
	found->lines = lines;
	found->looks_like = sniff_looks_like(sn);
	dump_free(r.text.dp);
	dumpjson_free(dj);
	free(r.labelled);
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
