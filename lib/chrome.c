/* chrome: trace events read token by token; one open-frame stack per (pid, tid), each stack
 * held interned and summed, given at the document's end. */
#include "chrome.h"
#include "intern.h"
#include "utf8.h"
#include "xalloc.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* jansson's nesting bound (JSON_PARSER_MAX_DEPTH): deeper documents were refused before. */
enum { MAX_DEPTH = 2048, BUF_BYTES = 1 << 16 };

struct text { char *s; size_t len, cap; };  /* decoded, NUL-terminated */

struct open_frame {
	uint32_t frame;         /* id in frames */
	int thread_root;        /* its name opens with "thread (": no pseudo-frame above it */
};

struct thr {
	int64_t pid, tid;
	struct open_frame *open;  /* B events still open, outermost first */
	size_t depth, cap;
	double last;            /* ts of the thread's last event */
	double carry;           /* rounding left over, carried to the next stack */
	double first;           /* ts of the thread's first event: its time 0 */
	int started;
	uint32_t pseudo;        /* its "thread (0xTID)" frame, INTERN_NONE until needed */
};

/* What a held stack gives: timed, one hold; untimed, the holds of a distinct stack summed. */
struct piece {
	uint64_t count;
	double at, len;         /* timed: when (seconds from its thread's first event) */
	uint32_t stack;         /* id in stacks */
	uint32_t holds;
};

/* An event's members, the last of a key given twice kept (as jansson keeps it). */
struct event {
	struct text ph, name, file;
	int has_ph, has_name, has_file, has_ts, has_line;
	double ts;
	int64_t pid, tid;
	long line;
};

struct num { int64_t i; double d; };
enum { V_STR, V_INT, V_REAL, V_OTHER };

struct cs {
	chrome_read_fn *read;
	void *read_ctx;
	char *buf;
	size_t pos, len;
	uint64_t off;           /* bytes before buf */
	unsigned long lines;    /* newlines before buf */
	int eof, failed;
	const char *fault;      /* the first fault, static text */
	uint64_t fault_at;
	unsigned long fault_line;
	int depth;
	struct text key, num, frame;
	struct event ev;
	double scale;           /* samples per microsecond */
	int timed;
	int events;             /* the events array was found (the last "traceEvents" is one) */
	struct thr *thr;
	size_t nthr, thr_cap;
	intern *frames, *stacks;  /* frame texts; stacks as arrays of frame ids */
	uint32_t *ids;
	size_t ids_cap;
	struct piece *pieces;
	size_t npieces, pieces_cap;
	uint32_t *piece_of;     /* untimed: stack id -> its piece being summed */
	size_t piece_of_cap;
	unsigned long bad_events;
};

/* The next read; at the end the last one stays in buf, taken whole (pos == len). */
static int refill(struct cs *c)
{
	if (c->eof)
		return 0;
	unsigned long lines = 0;
	for (const char *p = c->buf, *end = c->buf + c->len; (p = memchr(p, '\n', (size_t)(end - p))); p++)
		lines++;
	size_t n = c->read(c->read_ctx, c->buf, BUF_BYTES);
	if (n == CHROME_READ_FAILED) {
		c->failed = 1;
		n = 0;
	}
	if (n == 0) {
		c->eof = 1;
		return 0;
	}
	c->lines += lines;
	c->off += c->len;
	c->pos = 0;
	c->len = n;
	return 1;
}

static inline int peek(struct cs *c)
{
	if (c->pos == c->len && !refill(c))
		return -1;
	return (unsigned char)c->buf[c->pos];
}

static inline int get(struct cs *c)
{
	int ch = peek(c);
	if (ch >= 0)
		c->pos++;
	return ch;
}

/* The first fault is kept, with where it is; -1 for the caller to return. */
static int fault(struct cs *c, const char *what)
{
	if (!c->fault) {
		c->fault = what;
		c->fault_at = c->off + c->pos;
		c->fault_line = c->lines;
		/* at the end, the last line's (as doc_line_of says of a whole document) */
		size_t upto = c->eof && c->pos == c->len && c->len ? c->len - 1 : c->pos;
		for (size_t i = 0; i < upto; i++)
			c->fault_line += c->buf[i] == '\n';
	}
	return -1;
}

/* A fault where what was expected, or the input ended. */
static int expected(struct cs *c, int ch, const char *what)
{
	return fault(c, ch < 0 ? "premature end of input" : what);
}

/* The next byte that is not JSON white space, not taken; -1 at the end. */
static int ws(struct cs *c)
{
	for (;;) {
		while (c->pos < c->len) {
			char ch = c->buf[c->pos];
			if (ch != ' ' && ch != '\n' && ch != '\r' && ch != '\t')
				return (unsigned char)ch;
			c->pos++;
		}
		if (!refill(c))
			return -1;
	}
}

static void put(struct text *t, const char *s, size_t n)
{
	t->s = xgrow(t->s, &t->cap, t->len + n + 1, 1);
	memcpy(t->s + t->len, s, n);
	t->len += n;
	t->s[t->len] = '\0';
}

static int hex4(struct cs *c, unsigned *v)
{
	*v = 0;
	for (int i = 0; i < 4; i++) {
		int ch = get(c);
		int d = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
			: ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
		if (d < 0)
			return fault(c, "invalid escape");
		*v = *v * 16 + (unsigned)d;
	}
	return 0;
}

/* \uXXXX (its "\u" taken), a surrogate pair joined, as UTF-8 into out (when not NULL). */
static int unicode(struct cs *c, struct text *out)
{
	unsigned v, w;
	if (hex4(c, &v))
		return -1;
	if (v >= 0xd800 && v <= 0xdbff) {
		if (get(c) != '\\' || get(c) != 'u' || hex4(c, &w) || w < 0xdc00 || w > 0xdfff)
			return fault(c, "invalid Unicode surrogate");
		v = 0x10000 + ((v - 0xd800) << 10) + (w - 0xdc00);
	} else if (v >= 0xdc00 && v <= 0xdfff) {
		return fault(c, "invalid Unicode surrogate");
	} else if (v == 0) {
		return fault(c, "\\u0000 is not allowed");
	}
	char u[4];
	if (out)
		put(out, u, utf8_put(u, v));
	return 0;
}

/* A string, its '"' taken, decoded into out (NULL: checked only). */
static int string(struct cs *c, struct text *out)
{
	if (out) {
		out->len = 0;
		put(out, "", 0);
	}
	for (;;) {
		if (c->pos == c->len && !refill(c))
			return fault(c, "premature end of input");
		size_t start = c->pos;
		while (c->pos < c->len) {
			unsigned char b = (unsigned char)c->buf[c->pos];
			if (b == '"' || b == '\\' || b < 0x20 || b >= 0x80)
				break;
			c->pos++;
		}
		if (out && c->pos > start)
			put(out, c->buf + start, c->pos - start);
		if (c->pos == c->len)
			continue;
		unsigned char b = (unsigned char)c->buf[c->pos++];
		if (b == '"')
			return 0;
		if (b < 0x20)
			return fault(c, "control character in a string");
		if (b >= 0x80) {  /* one UTF-8 character, which may straddle two reads */
			unsigned char u[4] = { b };
			size_t n = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2, k = 1;
			for (int ch; k < n && (ch = peek(c)) >= 0 && (ch & 0xc0) == 0x80; k++, c->pos++)
				u[k] = (unsigned char)ch;
			if (k != n || utf8_char(u, n, 0) != n)
				return fault(c, "invalid UTF-8 in a string");
			if (out)
				put(out, (const char *)u, n);
			continue;
		}
		int e = get(c);
		static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
		const char *at = e > 0 ? strchr(from, e) : NULL;
		if (e == 'u') {
			if (unicode(c, out))
				return -1;
		} else if (at) {
			if (out)
				put(out, &to[at - from], 1);
		} else {
			return fault(c, "invalid escape");
		}
	}
}

static void take_digits(struct cs *c)
{
	for (int ch; (ch = peek(c)) >= '0' && ch <= '9'; c->pos++)
		put(&c->num, (char[]){ (char)ch }, 1);
}

/* A number by JSON's grammar: an integer (as jansson: no '.', 'e' or 'E') or a real. */
static int number(struct cs *c, struct num *n)
{
	struct text *t = &c->num;
	t->len = 0;
	put(t, "", 0);
	if (peek(c) == '-')
		put(t, (char[]){ (char)get(c) }, 1);
	int ch = peek(c);
	if (ch == '0') {
		put(t, (char[]){ (char)get(c) }, 1);
		if ((ch = peek(c)) >= '0' && ch <= '9')
			return fault(c, "invalid number");
	} else if (ch >= '1' && ch <= '9') {
		take_digits(c);
	} else {
		return fault(c, "invalid number");
	}
	int real = 0;
	if (peek(c) == '.') {
		put(t, (char[]){ (char)get(c) }, 1);
		if ((ch = peek(c)) < '0' || ch > '9')
			return fault(c, "invalid number");
		take_digits(c);
		real = 1;
	}
	if ((ch = peek(c)) == 'e' || ch == 'E') {
		put(t, (char[]){ (char)get(c) }, 1);
		if ((ch = peek(c)) == '+' || ch == '-')
			put(t, (char[]){ (char)get(c) }, 1);
		if ((ch = peek(c)) < '0' || ch > '9')
			return fault(c, "invalid number");
		take_digits(c);
		real = 1;
	}
	errno = 0;
	if (!real) {
		long long v = strtoll(t->s, NULL, 10);
		if (errno == ERANGE)
			return fault(c, v < 0 ? "too big negative integer" : "too big integer");
		n->i = v;
		n->d = (double)v;
		return V_INT;
	}
	n->i = 0;
	n->d = strtod(t->s, NULL);
	if (errno == ERANGE && (n->d == HUGE_VAL || n->d == -HUGE_VAL))
		return fault(c, "real number overflow");
	return V_REAL;
}

static int literal(struct cs *c)
{
	char w[8];
	size_t n = 0;
	for (int ch; ((ch = peek(c)) >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'); c->pos++, n++)
		if (n < sizeof w - 1)
			w[n] = (char)ch;
	w[n < sizeof w ? n : sizeof w - 1] = '\0';
	if (n >= sizeof w || (strcmp(w, "true") && strcmp(w, "false") && strcmp(w, "null")))
		return fault(c, "invalid token");
	return V_OTHER;
}

static int value(struct cs *c, struct text *str, struct num *n);

/* The next member of an object whose '{' is taken: 1 with its key in key (NULL: checked
 * only) and its value next, 0 at the object's end, -1 on a fault. */
static int member(struct cs *c, struct text *key, int *first)
{
	int ch = ws(c);
	if (ch == '}' && *first) {
		c->pos++;
		return 0;
	}
	if (!*first) {
		if (ch == '}') {
			c->pos++;
			return 0;
		}
		if (ch != ',')
			return expected(c, ch, "',' or '}' expected");
		c->pos++;
		ch = ws(c);
	}
	*first = 0;
	if (ch != '"')
		return expected(c, ch, "string expected as an object key");
	c->pos++;
	if (string(c, key))
		return -1;
	if ((ch = ws(c)) != ':')
		return expected(c, ch, "':' expected");
	c->pos++;
	return 1;
}

/* The next element of an array whose '[' is taken: 1 with it next, 0 at the array's end. */
static int element(struct cs *c, int *first)
{
	int ch = ws(c);
	if (ch == ']') {
		c->pos++;
		return 0;
	}
	if (!*first) {
		if (ch != ',')
			return expected(c, ch, "',' or ']' expected");
		c->pos++;
	}
	*first = 0;
	return 1;
}

/* An array or object (its bracket next) one level deeper: 0 with c->depth counted in. */
static int open(struct cs *c)
{
	c->pos++;
	return ++c->depth > MAX_DEPTH ? fault(c, "maximum parsing depth reached") : 0;
}

static int skip_container(struct cs *c, int ch)
{
	if (open(c))
		return -1;
	int first = 1, r;
	if (ch == '{')
		while ((r = member(c, NULL, &first)) == 1 && value(c, NULL, NULL) >= 0)
			;
	else
		while ((r = element(c, &first)) == 1 && value(c, NULL, NULL) >= 0)
			;
	c->depth--;
	return c->fault ? -1 : r;
}

/* Any value: its kind (V_STR with the string in str, V_INT or V_REAL with the number in n,
 * V_OTHER), or -1 on a fault. str and n may be NULL. */
static int value(struct cs *c, struct text *str, struct num *n)
{
	struct num ignored;
	int ch = ws(c);
	if (c->depth + 1 > MAX_DEPTH)  /* jansson counts every value, scalars too */
		return fault(c, "maximum parsing depth reached");
	if (ch == '"') {
		c->pos++;
		return string(c, str) ? -1 : V_STR;
	}
	if (ch == '-' || (ch >= '0' && ch <= '9'))
		return number(c, n ? n : &ignored);
	if (ch == '[' || ch == '{')
		return skip_container(c, ch) ? -1 : V_OTHER;
	if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'))
		return literal(c);
	return expected(c, ch, "invalid token");
}

static struct thr *thread_of(struct cs *c, int64_t pid, int64_t tid)
{
	for (size_t i = 0; i < c->nthr; i++)
		if (c->thr[i].pid == pid && c->thr[i].tid == tid)
			return &c->thr[i];
	c->thr = xgrow(c->thr, &c->thr_cap, c->nthr + 1, sizeof *c->thr);
	struct thr *t = &c->thr[c->nthr++];
	memset(t, 0, sizeof *t);
	t->pid = pid;
	t->tid = tid;
	t->pseudo = INTERN_NONE;
	return t;
}

/* A held stack into its piece: untimed, summed with the stack's earlier holds unless the
 * sum would pass 2^64 (then a piece of its own, for the sink to report). */
static void add_piece(struct cs *c, uint32_t stack, uint64_t count, double at, double len)
{
	if (!c->timed && stack < c->piece_of_cap && c->piece_of[stack] != INTERN_NONE) {
		struct piece *p = &c->pieces[c->piece_of[stack]];
		if (p->count <= UINT64_MAX - count && p->holds < UINT32_MAX) {
			p->count += count;
			p->holds++;
			return;
		}
	}
	c->pieces = xgrow(c->pieces, &c->pieces_cap, c->npieces + 1, sizeof *c->pieces);
	c->pieces[c->npieces] = (struct piece){ count, at, len, stack, 1 };
	if (!c->timed) {
		if (stack >= c->piece_of_cap) {
			size_t old = c->piece_of_cap;
			c->piece_of = xgrow(c->piece_of, &c->piece_of_cap, (size_t)stack + 1, sizeof *c->piece_of);
			for (size_t i = old; i < c->piece_of_cap; i++)
				c->piece_of[i] = INTERN_NONE;
		}
		c->piece_of[stack] = (uint32_t)c->npieces;
	}
	c->npieces++;
}

/* The thread's open stack held from its last event until ts. */
static void hold(struct cs *c, struct thr *t, double ts)
{
	if (t->depth == 0 || !(ts > t->last))
		return;
	double v = (ts - t->last) * c->scale + t->carry;
	uint64_t count = v < 1.8e19 ? (uint64_t)llround(v) : 0;
	t->carry = v - (double)count;
	if (count == 0)
		return;
	size_t n = 0;
	c->ids = xgrow(c->ids, &c->ids_cap, t->depth + 1, sizeof *c->ids);
	if (!t->open[0].thread_root) {
		if (t->pseudo == INTERN_NONE) {
			char name[64];
			int len = snprintf(name, sizeof name, "thread (0x%" PRIX64 ")", (uint64_t)t->tid);
			t->pseudo = intern_add(c->frames, name, (size_t)len);
		}
		c->ids[n++] = t->pseudo;
	}
	for (size_t i = 0; i < t->depth; i++)
		c->ids[n++] = t->open[i].frame;
	uint32_t stack = intern_add(c->stacks, (const char *)c->ids, n * sizeof *c->ids);
	add_piece(c, stack, count, (t->last - t->first) / 1e6, (ts - t->last) / 1e6);
}

/* A B frame as py-spy's raw format writes it (doc_stack_code): NAME (FILE:LINE), NAME
 * (FILE), NAME; "?" for a name that is not a string. */
static uint32_t frame_id(struct cs *c, const struct event *e)
{
	struct text *f = &c->frame;
	const char *name = e->has_name ? e->name.s : "?";
	f->len = 0;
	put(f, name, strlen(name));
	if (e->has_file && (e->file.s[0] || (e->has_line && e->line > 0))) {
		put(f, " (", 2);
		put(f, e->file.s, strlen(e->file.s));
		if (e->has_line && e->line > 0) {
			char num[32];
			put(f, num, (size_t)snprintf(num, sizeof num, ":%ld", e->line));
		}
		put(f, ")", 1);
	}
	return intern_add(c->frames, f->s, f->len);
}

/* An event read whole: B and E events open and close frames, the rest have no stack time. */
static void on_event(struct cs *c)
{
	const struct event *e = &c->ev;
	if (!e->has_ph || e->ph.len != 1 || (e->ph.s[0] != 'B' && e->ph.s[0] != 'E'))
		return;  /* metadata, counters, instants: no stack time */
	if (!e->has_ts) {
		c->bad_events++;
		return;
	}
	struct thr *t = thread_of(c, e->pid, e->tid);
	if (!t->started) {
		t->first = e->ts;
		t->started = 1;
	}
	hold(c, t, e->ts);
	t->last = e->ts;
	if (e->ph.s[0] == 'E') {
		if (t->depth > 0)
			t->depth--;
		else
			c->bad_events++;
		return;
	}
	t->open = xgrow(t->open, &t->cap, t->depth + 1, sizeof *t->open);
	t->open[t->depth++] = (struct open_frame){ frame_id(c, e),
						   e->has_name && strncmp(e->name.s, "thread (", 8) == 0 };
}

/* A member an object's reader keeps: its value's text (str) or number (num), and in *has
 * whether the last value under the key was of a kind in kinds (bits of V_STR...). */
struct wanted {
	const char *key;
	unsigned kinds;
	struct text *str;
	struct num *num;
	int *has;
};

/* An object's members (its '{' next): the wanted ones kept, "args" read by args() when e
 * is given, the others checked and skipped. jansson keeps a key's last value: so do these. */
static int args(struct cs *c, struct event *e);
static int members(struct cs *c, const struct wanted *want, size_t nwant, struct event *e)
{
	if (open(c))
		return -1;
	int first = 1, r;
	while ((r = member(c, &c->key, &first)) == 1) {
		size_t i = 0;
		while (i < nwant && strcmp(c->key.s, want[i].key) != 0)
			i++;
		int k;
		if (i < nwant) {
			k = value(c, want[i].str, want[i].num);
			*want[i].has = k >= 0 && (want[i].kinds >> k & 1);
		} else {
			k = e && strcmp(c->key.s, "args") == 0 ? args(c, e) : value(c, NULL, NULL);
		}
		if (k < 0)
			return -1;
	}
	c->depth--;
	return r;
}

/* An event's args (a later "args" replaces an earlier one whole). */
static int args(struct cs *c, struct event *e)
{
	e->has_file = e->has_line = 0;
	if (ws(c) != '{')
		return value(c, NULL, NULL);
	struct num line = { 0, 0 };
	const struct wanted want[] = {
		{ "filename", 1u << V_STR, &e->file, NULL, &e->has_file },
		{ "line", 1u << V_INT, NULL, &line, &e->has_line },
	};
	int r = members(c, want, sizeof want / sizeof want[0], NULL);
	e->line = (long)line.i;
	return r;
}

/* An event object (its '{' next), its members kept in c->ev. */
static int event(struct cs *c)
{
	struct event *e = &c->ev;
	struct num ts = { 0, 0 }, pid = { 0, 0 }, tid = { 0, 0 };
	int has_pid = 0, has_tid = 0;
	e->has_ph = e->has_name = e->has_file = e->has_ts = e->has_line = 0;
	const struct wanted want[] = {
		{ "ph", 1u << V_STR, &e->ph, NULL, &e->has_ph },
		{ "name", 1u << V_STR, &e->name, NULL, &e->has_name },
		{ "ts", 1u << V_INT | 1u << V_REAL, NULL, &ts, &e->has_ts },
		{ "pid", 1u << V_INT, NULL, &pid, &has_pid },
		{ "tid", 1u << V_INT, NULL, &tid, &has_tid },
	};
	int r = members(c, want, sizeof want / sizeof want[0], e);
	e->ts = ts.d;
	e->pid = has_pid ? pid.i : 0;  /* json_integer_value: 0 when no integer */
	e->tid = has_tid ? tid.i : 0;
	return r;
}

/* Forget what an earlier events array gave: jansson keeps the last "traceEvents". */
static void reset(struct cs *c)
{
	for (size_t i = 0; i < c->nthr; i++)
		free(c->thr[i].open);
	c->nthr = 0;
	c->npieces = 0;
	for (size_t i = 0; i < c->piece_of_cap; i++)
		c->piece_of[i] = INTERN_NONE;
	c->bad_events = 0;
}

/* The events array (its '[' next), each event object taken as it ends. */
static int events(struct cs *c)
{
	reset(c);
	c->events = 1;
	if (open(c))
		return -1;
	int first = 1, r;
	while ((r = element(c, &first)) == 1) {
		if (ws(c) == '{') {
			if (event(c))
				return -1;
			on_event(c);
		} else if (value(c, NULL, NULL) < 0) {
			return -1;
		}
	}
	c->depth--;
	return r;
}

/* The document: an array of events or an object with "traceEvents", and nothing after. */
static int document(struct cs *c)
{
	int ch = ws(c);
	if (ch == '[') {
		if (events(c))
			return -1;
	} else if (ch == '{') {
		if (open(c))
			return -1;
		int first = 1, r;
		while ((r = member(c, &c->key, &first)) == 1) {
			int k;
			if (strcmp(c->key.s, "traceEvents") == 0 && ws(c) == '[') {
				k = events(c);
			} else {
				if (strcmp(c->key.s, "traceEvents") == 0)
					c->events = 0;
				k = value(c, NULL, NULL);
			}
			if (k < 0)
				return -1;
		}
		if (r < 0)
			return -1;
		c->depth--;
	} else {
		return expected(c, ch, "'[' or '{' expected");
	}
	if (ws(c) >= 0)
		return fault(c, "end of file expected");
	return 0;
}

/* Each piece's stack given, as many times as it was held (its samples summed in the last). */
static void give(struct cs *c, const struct doc_reader *r, unsigned long lineno)
{
	struct doc_frame *frames = NULL;
	size_t frames_cap = 0;
	for (size_t i = 0; i < c->npieces; i++) {
		const struct piece *p = &c->pieces[i];
		size_t len;
		const char *ids = intern_str(c->stacks, p->stack, &len);
		size_t n = len / sizeof(uint32_t);
		frames = xgrow(frames, &frames_cap, n, sizeof *frames);
		for (size_t k = 0; k < n; k++) {
			uint32_t id;
			memcpy(&id, ids + k * sizeof id, sizeof id);
			frames[k].s = intern_str(c->frames, id, &frames[k].len);
		}
		for (uint32_t h = 1; h < p->holds; h++) {
			r->stats->stacks++;
			r->fn(r->ctx, r->doc->file, lineno, frames, n, 1);
		}
		r->stats->stacks++;
		if (r->when) {
			struct doc_time when = { p->at, p->len };
			r->when(r->ctx, &when);
		}
		r->fn(r->ctx, r->doc->file, lineno, frames, n, p->count - (p->holds - 1));
	}
	free(frames);
}

void chrome_stream(chrome_read_fn *read, void *read_ctx, const char *file, unsigned long lineno,
		   double rate, struct err_lines *errs, doc_stack_fn *fn, doc_time_fn *when, void *ctx,
		   struct doc_stats *stats)
{
	struct cs *c = xcalloc(1, sizeof *c);
	c->read = read;
	c->read_ctx = read_ctx;
	c->buf = xmalloc(BUF_BYTES);
	c->scale = rate / 1e6;
	c->timed = when != NULL;
	c->frames = intern_new();
	c->stacks = intern_new();
	int rc = document(c);
	struct doc_buf where = { .file = file, .lineno = lineno };
	struct doc_reader r = { &where, errs, fn, when, ctx, stats };
	if (c->failed) {
		;  /* its input failed before its end, as said: no stack from half a document */
	} else if (rc != 0) {
		stats->bad++;
		err_bad_line(errs, file, lineno + c->fault_line, "bad chrometrace JSON: %s (byte %" PRIu64 ")",
			     c->fault, c->fault_at);
	} else if (!c->events) {
		stats->bad++;
		err_bad_line(errs, file, lineno, "chrometrace JSON without an array of events");
	} else {
		give(c, &r, lineno);
		if (c->bad_events) {
			stats->bad++;
			err_bad_line(errs, file, lineno, "%lu chrometrace events without ts or an open frame",
				     c->bad_events);
		}
	}
	reset(c);
	free(c->thr);
	free(c->pieces);
	free(c->piece_of);
	free(c->ids);
	intern_free(c->frames);
	intern_free(c->stacks);
	free(c->key.s);
	free(c->num.s);
	free(c->frame.s);
	free(c->ev.ph.s);
	free(c->ev.name.s);
	free(c->ev.file.s);
	free(c->buf);
	free(c);
}

struct mem { const char *text; size_t len; };

static size_t mem_read(void *ctx, char *buf, size_t cap)
{
	struct mem *m = ctx;
	size_t n = m->len < cap ? m->len : cap;
	memcpy(buf, m->text, n);
	m->text += n;
	m->len -= n;
	return n;
}

void chrome_read(const struct doc_buf *doc, double rate, struct err_lines *errs,
		 doc_stack_fn *fn, doc_time_fn *when, void *ctx, struct doc_stats *stats)
{
	if (doc->over) {
		stats->bad++;
		err_bad_line(errs, doc->file, doc->lineno, "chrometrace document larger than 256 MiB: not read");
		return;
	}
	struct mem m = { doc->text, doc->len };
	chrome_stream(mem_read, &m, doc->file, doc->lineno, rate, errs, fn, when, ctx, stats);
}
