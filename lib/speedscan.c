/* speedscan: a strict single-pass scanner for the JSON grammar speedscope files use; each
 * sample's text is hashed as it is checked, so repeated stacks cost one table lookup. A
 * streamed document is read through a window that keeps only the token being read. */
#include "speedscan.h"
#include "utf8.h"
#include "intern.h"
#include "xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_DEPTH = 64 };  /* deeper documents go to the JSON library */

/* A distinct sample text of one profile: where, how long, how many times. */
struct dist {
	size_t off;
	size_t len;
	uint64_t count;
};

struct pscan {
	struct speedscan_profile pub;
	struct dist *d;         /* offsets into txt */
	size_t nd, dcap;
	char *txt;              /* the distinct sample texts */
	size_t tlen, tcap;
	uint32_t *ids;          /* each sample's distinct id, in order */
	size_t nids, idcap;
	double w0;              /* the first weight (NaN: not a number) */
	double *w;              /* every weight once one differs from w0, else NULL */
	size_t nw, wcap;
};

struct speedscan {
	/* The window: document bytes [base, len) at t; p, the reading position, and mark, the
	 * start of the token being read, count from the document's start. A text given
	 * whole is all window. */
	const char *t;
	size_t base, len, p, mark;
	char *own;              /* the window's memory when streamed */
	size_t cap;
	int eof;                /* len is the document's end */
	speedscan_read_fn *read;
	void *rctx;
	struct speedscan_frame *frames;
	size_t nframes, fcap;
	struct pscan *profs;
	size_t nprofs, pcap;
	char *exporter;
	char **strs;            /* every decoded string, freed together */
	size_t nstrs, scap;
	/* the open profile's table: distinct id + 1 per slot, 0 empty */
	uint32_t *slots;
	size_t nslots;
	uint32_t *idx;          /* one stack's indices */
	size_t idx_cap;
};

/* More of a streamed document, until byte p is in the window or the document ends: the
 * bytes before the mark are let go. 1 when p is there. */
static int fill(speedscan *sc, size_t p)
{
	while (p >= sc->len && !sc->eof) {
		if (sc->mark > sc->base) {
			memmove(sc->own, sc->own + (sc->mark - sc->base), sc->len - sc->mark);
			sc->base = sc->mark;
		}
		if (sc->len - sc->base == sc->cap) {  /* one token fills the window */
			sc->cap *= 2;
			sc->own = xrealloc(sc->own, sc->cap);
		}
		size_t used = sc->len - sc->base;
		size_t n = sc->read(sc->rctx, sc->own + used, sc->cap - used);
		sc->eof = n == 0;
		sc->len += n;
		sc->t = sc->own;
	}
	return p < sc->len;
}

static inline int have(speedscan *sc, size_t p) { return p < sc->len || fill(sc, p); }
static inline char at(const speedscan *sc, size_t p) { return sc->t[p - sc->base]; }
static inline const char *ptr(const speedscan *sc, size_t p) { return sc->t + (p - sc->base); }

/* White space skipped: a token starts, what is before it may go. */
static void ws(speedscan *sc)
{
	while (have(sc, sc->p)) {
		char c = at(sc, sc->p);
		if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
			break;
		sc->p++;
	}
	sc->mark = sc->p;
}

static int peek(speedscan *sc)
{
	ws(sc);
	return have(sc, sc->p) ? (unsigned char)at(sc, sc->p) : -1;
}

static int eat(speedscan *sc, char c)
{
	if (peek(sc) != (unsigned char)c)
		return -1;
	sc->p++;
	return 0;
}

static int hex4(const char *s, unsigned *out)
{
	unsigned v = 0;
	for (int i = 0; i < 4; i++) {
		char c = s[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

/* A string at p, checked as jansson checks it (no control bytes, valid escapes and UTF-8,
 * no \u0000); decoded into a new NUL-terminated string in *out when out is not NULL. */
static int string(speedscan *sc, char **out)
{
	if (eat(sc, '"') != 0)
		return -1;
	size_t start = sc->p;
	char *o = NULL;
	size_t used = 0;
	if (out) {
		size_t end = start;  /* decoded text is never longer than the escaped one */
		while (have(sc, end) && at(sc, end) != '"')
			end += at(sc, end) == '\\' ? 2 : 1;
		o = xmalloc(end - start + 1);
	}
	while (have(sc, sc->p)) {
		unsigned c = (unsigned char)at(sc, sc->p);
		if (c == '"') {
			sc->p++;
			if (out) {
				o[used] = '\0';
				*out = o;
				sc->strs = xgrow(sc->strs, &sc->scap, sc->nstrs + 1, sizeof *sc->strs);
				sc->strs[sc->nstrs++] = o;
			}
			return 0;
		}
		if (c < 0x20)
			break;
		if (c == '\\') {
			if (!have(sc, sc->p + 1))
				break;
			char e = at(sc, sc->p + 1), d = 0;
			switch (e) {
			case '"': d = '"'; break;
			case '\\': d = '\\'; break;
			case '/': d = '/'; break;
			case 'b': d = '\b'; break;
			case 'f': d = '\f'; break;
			case 'n': d = '\n'; break;
			case 'r': d = '\r'; break;
			case 't': d = '\t'; break;
			case 'u': break;
			default: goto fail;
			}
			if (e != 'u') {
				if (o)
					o[used++] = d;
				sc->p += 2;
				continue;
			}
			unsigned cp, lo;
			if (!have(sc, sc->p + 5) || hex4(ptr(sc, sc->p + 2), &cp) != 0 || cp == 0)
				break;
			sc->p += 6;
			if (cp >= 0xDC00 && cp <= 0xDFFF)
				break;
			if (cp >= 0xD800 && cp <= 0xDBFF) {
				if (!have(sc, sc->p + 5) || at(sc, sc->p) != '\\' || at(sc, sc->p + 1) != 'u' ||
				    hex4(ptr(sc, sc->p + 2), &lo) != 0 || lo < 0xDC00 || lo > 0xDFFF)
					break;
				sc->p += 6;
				cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
			}
			if (o)
				used += utf8_put(o + used, cp);
			continue;
		}
		have(sc, sc->p + 3);  /* a sequence's bytes in the window, as many as there are */
		size_t n = utf8_char((const unsigned char *)ptr(sc, sc->p), sc->len - sc->p, 0);
		if (n == 0)
			break;
		if (o)
			memcpy(o + used, ptr(sc, sc->p), n);
		used += o ? n : 0;
		sc->p += n;
	}
fail:
	free(o);
	return -1;
}

/* Past the JSON number at p (its grammar checked); *is_int when it has no fraction or
 * exponent. 0 when there is none. */
static size_t number_end(speedscan *sc, int *is_int)
{
	ws(sc);
	size_t p = sc->p;
#define DIGIT(q) (have(sc, q) && at(sc, q) >= '0' && at(sc, q) <= '9')
	if (have(sc, p) && at(sc, p) == '-')
		p++;
	if (!DIGIT(p))
		return 0;
	if (at(sc, p) == '0')
		p++;
	else
		while (DIGIT(p))
			p++;
	*is_int = 1;
	if (have(sc, p) && at(sc, p) == '.') {
		*is_int = 0;
		if (!DIGIT(p + 1))
			return 0;
		p++;
		while (DIGIT(p))
			p++;
	}
	if (have(sc, p) && (at(sc, p) == 'e' || at(sc, p) == 'E')) {
		*is_int = 0;
		p++;
		if (have(sc, p) && (at(sc, p) == '+' || at(sc, p) == '-'))
			p++;
		if (!DIGIT(p))
			return 0;
		while (DIGIT(p))
			p++;
	}
#undef DIGIT
	return p;
}

/* A JSON number at p: an integer in *ival (at most 18 digits: longer ones, which may pass
 * jansson's range, are left to it) or a real in *dval, which also holds the integer. */
static int number(speedscan *sc, int *is_int, long *ival, double *dval)
{
	size_t p = number_end(sc, is_int), s = sc->p;
	char buf[64];
	if (p == 0 || p - s >= sizeof buf)
		return -1;
	memcpy(buf, ptr(sc, s), p - s);
	buf[p - s] = '\0';
	if (*is_int) {
		if (p - s > 18)
			return -1;
		*ival = strtol(buf, NULL, 10);
		*dval = (double)*ival;
	} else {
		*dval = strtod(buf, NULL);
		if (!isfinite(*dval))
			return -1;
	}
	sc->p = p;
	return 0;
}

/* A number skipped: checked as number() would, converted only when it could pass a
 * double's range (an exponent, or very many digits), as jansson would then fail. */
static int skip_number(speedscan *sc)
{
	int is_int;
	size_t p = number_end(sc, &is_int);
	if (p == 0 || (is_int && p - sc->p > 18))
		return -1;
	if (!is_int && (p - sc->p > 300 || memchr(ptr(sc, sc->p), 'e', p - sc->p) ||
			memchr(ptr(sc, sc->p), 'E', p - sc->p))) {
		long l;
		double d;
		return number(sc, &is_int, &l, &d);
	}
	sc->p = p;
	return 0;
}

static int literal(speedscan *sc, const char *word)
{
	size_t n = strlen(word);
	ws(sc);
	if (!have(sc, sc->p + n - 1) || memcmp(ptr(sc, sc->p), word, n) != 0)
		return -1;
	sc->p += n;
	return 0;
}

static int value(speedscan *sc, int depth);

/* The members of an object or elements of an array, each skipped. */
static int skip_container(speedscan *sc, char close, int depth)
{
	if (depth > MAX_DEPTH)
		return -1;
	if (peek(sc) == (unsigned char)close) {
		sc->p++;
		return 0;
	}
	for (;;) {
		if (close == '}' && (string(sc, NULL) != 0 || eat(sc, ':') != 0))
			return -1;
		if (value(sc, depth) != 0)
			return -1;
		int c = peek(sc);
		sc->p++;
		if (c == (unsigned char)close)
			return 0;
		if (c != ',')
			return -1;
	}
}

static int value(speedscan *sc, int depth)
{
	int c = peek(sc);
	switch (c) {
	case '"': return string(sc, NULL);
	case '{': sc->p++; return skip_container(sc, '}', depth + 1);
	case '[': sc->p++; return skip_container(sc, ']', depth + 1);
	case 't': return literal(sc, "true");
	case 'f': return literal(sc, "false");
	case 'n': return literal(sc, "null");
	default: return skip_number(sc);
	}
}

/* A string value decoded into *out, or any other value skipped (*out NULL). */
static int string_or_skip(speedscan *sc, char **out)
{
	*out = NULL;
	return peek(sc) == '"' ? string(sc, out) : value(sc, 0);
}

/* The next key of an object (opened already): 1 with the key in key[], 0 at its end, -1. */
static int next_key(speedscan *sc, int *first, char *key, size_t cap)
{
	int c = peek(sc);
	if (c == '}') {
		sc->p++;
		return 0;
	}
	if (!*first) {
		if (c != ',')
			return -1;
		sc->p++;
	}
	*first = 0;
	char *k;
	if (string(sc, &k) != 0 || eat(sc, ':') != 0)
		return -1;
	size_t n = strlen(k);
	if (n >= cap)
		n = cap - 1;  /* a long key is none of ours */
	memcpy(key, k, n);
	key[n] = '\0';
	return 1;
}


/* A list's '[': 1 when an element follows, 0 when the list is empty ("[]"), -1 else. */
static int list_open(speedscan *sc)
{
	if (eat(sc, '[') != 0)
		return -1;
	if (peek(sc) != ']')
		return 1;
	sc->p++;
	return 0;
}

/* After a list element: 1 when a ',' says another follows, 0 at the closing ']', -1 else. */
static int list_next(speedscan *sc)
{
	int c = peek(sc);
	sc->p++;
	return c == ',' ? 1 : c == ']' ? 0 : -1;
}

static int frames(speedscan *sc)
{
	int any = list_open(sc);
	if (any <= 0)
		return any;
	for (;;) {
		struct speedscan_frame f = { NULL, NULL, -1 };
		int first = 1, k, seen = 0;
		char key[16];
		if (eat(sc, '{') != 0)
			return -1;
		while ((k = next_key(sc, &first, key, sizeof key)) == 1) {
			char *s;
			int bit = strcmp(key, "name") == 0 ? 1 : strcmp(key, "file") == 0 ? 2 :
				  strcmp(key, "line") == 0 ? 4 : 0;
			if (bit & seen)
				return -1;  /* jansson keeps the last: leave it that */
			seen |= bit;
			if (bit == 1 || bit == 2) {
				if (string_or_skip(sc, &s) != 0)
					return -1;
				*(bit == 1 ? &f.name : &f.file) = s;
			} else if (bit == 4) {
				int is_int;
				long iv;
				double dv;
				if (peek(sc) == '-' || (peek(sc) >= '0' && peek(sc) <= '9')) {
					if (number(sc, &is_int, &iv, &dv) != 0)
						return -1;
					f.line = is_int ? iv : -1;
				} else if (value(sc, 0) != 0) {
					return -1;
				}
			} else if (value(sc, 0) != 0) {
				return -1;
			}
		}
		if (k < 0)
			return -1;
		sc->frames = xgrow(sc->frames, &sc->fcap, sc->nframes + 1, sizeof *sc->frames);
		sc->frames[sc->nframes++] = f;
		int more = list_next(sc);
		if (more <= 0)
			return more;
	}
}


/* The distinct id of the sample text [off, off+len) of the window in profile ps, added
 * (copied) when new. */
static uint32_t intern_sample(speedscan *sc, struct pscan *ps, size_t off, size_t len)
{
	const char *text = ptr(sc, off);
	if (ps->nd * 2 >= sc->nslots) {
		size_t n = sc->nslots ? sc->nslots * 2 : 1024;
		uint32_t *slots = xcalloc(n, sizeof *slots);
		for (size_t i = 0; i < ps->nd; i++) {
			size_t h = (size_t)intern_hash(ps->txt + ps->d[i].off, ps->d[i].len) & (n - 1);
			while (slots[h])
				h = (h + 1) & (n - 1);
			slots[h] = (uint32_t)i + 1;
		}
		free(sc->slots);
		sc->slots = slots;
		sc->nslots = n;
	}
	size_t h = (size_t)intern_hash(text, len) & (sc->nslots - 1);
	for (;; h = (h + 1) & (sc->nslots - 1)) {
		uint32_t id = sc->slots[h];
		if (!id)
			break;
		struct dist *d = &ps->d[id - 1];
		if (d->len == len && memcmp(ps->txt + d->off, text, len) == 0) {
			d->count++;
			return id - 1;
		}
	}
	ps->d = xgrow(ps->d, &ps->dcap, ps->nd + 1, sizeof *ps->d);
	ps->txt = xgrow(ps->txt, &ps->tcap, ps->tlen + len + 1, 1);
	memcpy(ps->txt + ps->tlen, text, len);
	ps->d[ps->nd] = (struct dist){ ps->tlen, len, 1 };
	ps->tlen += len;
	sc->slots[h] = (uint32_t)ps->nd + 1;
	return (uint32_t)ps->nd++;
}

/* A samples array: arrays of non-negative integers written plainly (digits, commas,
 * JSON white space), each counted by its text between the brackets. */
static int samples(speedscan *sc, struct pscan *ps)
{
	memset(sc->slots, 0, sc->nslots * sizeof *sc->slots);
	if (eat(sc, '[') != 0)
		return -1;
	if (peek(sc) == ']') {
		sc->p++;
		return 0;
	}
	for (;;) {
		if (eat(sc, '[') != 0)
			return -1;
		size_t s = sc->p, p = s;
		/* digits, commas between numbers, blanks; no leading zeros */
		int want_num = 1, in_num = 0, zero = 0;
		for (; have(sc, p); p++) {
			char c = at(sc, p);
			if (c >= '0' && c <= '9') {
				if ((!want_num && !in_num) || (in_num && zero))
					return -1;
				if (!in_num)
					zero = c == '0';
				in_num = 1;
				want_num = 0;
			} else if (c == ',') {
				if (want_num)
					return -1;
				want_num = 1;
				in_num = 0;
			} else if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
				in_num = 0;
			} else if (c == ']') {
				break;
			} else {
				return -1;  /* a negative, real or other value: the tree reader's */
			}
		}
		if (!have(sc, p) || (want_num && p > s && memchr(ptr(sc, s), ',', p - s)))
			return -1;
		ps->ids = xgrow(ps->ids, &ps->idcap, ps->nids + 1, sizeof *ps->ids);
		ps->ids[ps->nids++] = intern_sample(sc, ps, s, p - s);
		sc->p = p + 1;
		int more = list_next(sc);
		if (more <= 0)
			return more;
	}
}

/* A weight kept: every one as w0 while they are all the same (py-spy's 1/rate). */
static void add_weight(struct pscan *ps, double w)
{
	if (ps->nw == 0)
		ps->w0 = w;
	else if (!ps->w && memcmp(&w, &ps->w0, sizeof w) != 0) {
		ps->w = xmalloc((ps->wcap = ps->nw + 1) * sizeof *ps->w);
		for (size_t k = 0; k < ps->nw; k++)
			ps->w[k] = ps->w0;
	}
	if (ps->w) {
		ps->w = xgrow(ps->w, &ps->wcap, ps->nw + 1, sizeof *ps->w);
		ps->w[ps->nw] = w;
	}
	ps->nw++;
}

/* Weight k, -1 when there is none or it is not a number. */
static int weight_at(const struct pscan *ps, size_t k, double *w)
{
	if (k >= ps->nw)
		return -1;
	*w = ps->w ? ps->w[k] : ps->w0;
	return isnan(*w) ? -1 : 0;
}

/* A weights array read as it comes: each element a number as number() reads it, else
 * kept as NaN (what a reader that needs it refuses); the array checked as value() does. */
static int weights(speedscan *sc, struct pscan *ps)
{
	int any = list_open(sc);
	if (any <= 0)
		return any;
	for (;;) {
		int c = peek(sc), is_int;
		long iv;
		double w = NAN;
		if (c == '-' || (c >= '0' && c <= '9')) {
			if (number(sc, &is_int, &iv, &w) != 0) {
				if (skip_number(sc) != 0)
					return -1;
				w = NAN;  /* a real too long for number(): not one */
			}
		} else if (value(sc, 1) != 0) {
			return -1;
		}
		add_weight(ps, w);
		int more = list_next(sc);
		if (more <= 0)
			return more;
	}
}

static int profiles(speedscan *sc)
{
	int any = list_open(sc);
	if (any <= 0)
		return any;
	for (;;) {
		struct pscan ps = { 0 };
		int first = 1, k, seen = 0;
		char key[16];
		if (eat(sc, '{') != 0)
			return -1;
		sc->profs = xgrow(sc->profs, &sc->pcap, sc->nprofs + 1, sizeof *sc->profs);
		struct pscan *p = &sc->profs[sc->nprofs++];
		*p = ps;
		while ((k = next_key(sc, &first, key, sizeof key)) == 1) {
			static const char *const keys[] = { "type", "name", "unit", "samples", "weights", "events" };
			int which = -1;
			for (int i = 0; i < 6 && which < 0; i++)
				if (strcmp(key, keys[i]) == 0)
					which = i;
			if (which >= 0 && (seen & (1 << which)))
				return -1;
			if (which >= 0)
				seen |= 1 << which;
			char *s;
			switch (which) {
			case 0: case 1: case 2:
				if (string_or_skip(sc, &s) != 0)
					return -1;
				*(which == 0 ? &p->pub.type : which == 1 ? &p->pub.name : &p->pub.unit) = s;
				break;
			case 3:
				if (peek(sc) != '[')
					return -1;
				p->pub.samples = sc->p;
				if (samples(sc, p) != 0)
					return -1;
				break;
			case 4:
				if (peek(sc) == '[') {
					p->pub.weights = sc->p;
					if (weights(sc, p) != 0)
						return -1;
				} else if (value(sc, 0) != 0) {
					return -1;
				}
				break;
			case 5:
				return -1;  /* evented: the tree reader's */
			default:
				if (value(sc, 0) != 0)
					return -1;
			}
		}
		if (k < 0 || !p->pub.samples)
			return -1;
		int more = list_next(sc);
		if (more <= 0)
			return more;
	}
}

static int document(speedscan *sc)
{
	int first = 1, k, seen = 0;
	char key[16];
	if (eat(sc, '{') != 0)
		return -1;
	while ((k = next_key(sc, &first, key, sizeof key)) == 1) {
		int bit = strcmp(key, "profiles") == 0 ? 1 : strcmp(key, "shared") == 0 ? 2 :
			  strcmp(key, "exporter") == 0 ? 4 : 0;
		if (bit & seen)
			return -1;
		seen |= bit;
		if (bit == 1) {
			if (profiles(sc) != 0)
				return -1;
		} else if (bit == 2) {
			int sfirst = 1, sk, fseen = 0;
			if (eat(sc, '{') != 0)
				return -1;
			while ((sk = next_key(sc, &sfirst, key, sizeof key)) == 1) {
				if (strcmp(key, "frames") == 0) {
					if (fseen++ || frames(sc) != 0)
						return -1;
				} else if (value(sc, 0) != 0) {
					return -1;
				}
			}
			if (sk < 0 || !fseen)
				return -1;
		} else if (bit == 4) {
			if (string_or_skip(sc, &sc->exporter) != 0)
				return -1;
		} else if (value(sc, 0) != 0) {
			return -1;
		}
	}
	ws(sc);
	return k < 0 || have(sc, sc->p) || (seen & 3) != 3 ? -1 : 0;
}

/* The document scanned from sc's window: NULL when it is not one this scanner takes. */
static speedscan *scan(speedscan *sc)
{
	sc->nslots = 1024;
	sc->slots = xcalloc(sc->nslots, sizeof *sc->slots);
	int rc = document(sc);
	free(sc->own);  /* what is kept was copied out */
	sc->own = NULL;
	sc->t = NULL;
	if (rc != 0) {
		speedscan_free(sc);
		return NULL;
	}
	free(sc->slots);
	sc->slots = NULL;
	return sc;
}

speedscan *speedscan_new(const char *text, size_t len)
{
	speedscan *sc = xcalloc(1, sizeof *sc);
	sc->t = text;
	sc->len = len;
	sc->eof = 1;
	return scan(sc);
}

speedscan *speedscan_stream(speedscan_read_fn *read, void *ctx, size_t window)
{
	speedscan *sc = xcalloc(1, sizeof *sc);
	sc->read = read;
	sc->rctx = ctx;
	sc->cap = window ? window : SPEEDSCAN_WINDOW;
	sc->t = sc->own = xmalloc(sc->cap);
	return scan(sc);
}

void speedscan_free(speedscan *sc)
{
	if (!sc)
		return;
	for (size_t i = 0; i < sc->nstrs; i++)
		free(sc->strs[i]);
	for (size_t i = 0; i < sc->nprofs; i++) {
		free(sc->profs[i].d);
		free(sc->profs[i].txt);
		free(sc->profs[i].w);
		free(sc->profs[i].ids);
	}
	free(sc->strs);
	free(sc->profs);
	free(sc->frames);
	free(sc->slots);
	free(sc->idx);
	free(sc->own);
	free(sc);
}

size_t speedscan_frame_count(const speedscan *sc) { return sc->nframes; }
const struct speedscan_frame *speedscan_frames(const speedscan *sc) { return sc->frames; }
const char *speedscan_exporter(const speedscan *sc) { return sc->exporter; }
size_t speedscan_profile_count(const speedscan *sc) { return sc->nprofs; }
const struct speedscan_profile *speedscan_profile(const speedscan *sc, size_t i) { return &sc->profs[i].pub; }

/* The indices of distinct sample d (checked plain by samples()) into sc->idx; -1 when one
 * is not a named frame. */
static int parse_stack(speedscan *sc, const struct pscan *ps, const struct dist *d, size_t *n)
{
	*n = 0;
	const char *t = ps->txt + d->off, *end = t + d->len;
	while (t < end) {
		if (*t < '0' || *t > '9') {
			t++;
			continue;
		}
		uint64_t v = 0;
		for (; t < end && *t >= '0' && *t <= '9'; t++) {
			v = v * 10 + (uint64_t)(*t - '0');
			if (v >= sc->nframes)
				return -1;
		}
		if (!sc->frames[v].name)
			return -1;
		sc->idx = xgrow(sc->idx, &sc->idx_cap, *n + 1, sizeof *sc->idx);
		sc->idx[(*n)++] = (uint32_t)v;
	}
	return 0;
}

/* Every distinct stack of ps parsed once: its indices at flat[start[k]], start[k + 1]. */
static int parse_all(speedscan *sc, struct pscan *ps, uint32_t **flat, size_t **start)
{
	size_t n, used = 0, cap = 0;
	*flat = NULL;
	*start = xmalloc((ps->nd + 1) * sizeof **start);
	for (size_t k = 0; k < ps->nd; k++) {
		(*start)[k] = used;
		if (parse_stack(sc, ps, &ps->d[k], &n) != 0)
			return -1;
		*flat = xgrow(*flat, &cap, used + n + 1, sizeof **flat);
		memcpy(*flat + used, sc->idx, n * sizeof **flat);
		used += n;
	}
	(*start)[ps->nd] = used;
	return 0;
}

int speedscan_samples(speedscan *sc, size_t i, speedscan_sample_fn *fn, void *ctx)
{
	struct pscan *ps = &sc->profs[i];
	uint32_t *flat;
	size_t *start;
	int rc = parse_all(sc, ps, &flat, &start);
	for (size_t k = 0; rc == 0 && k < ps->nids; k++) {
		double w = 1;
		if (ps->pub.weights && weight_at(ps, k, &w) != 0) {
			rc = -1;  /* fewer weights than samples, or one not a number */
			break;
		}
		uint32_t d = ps->ids[k];
		if (fn)
			fn(ctx, flat + start[d], start[d + 1] - start[d], w);
	}
	free(flat);
	free(start);
	return rc;
}

int speedscan_weight(speedscan *sc, size_t i, double *weight)
{
	struct pscan *ps = &sc->profs[i];
	if (!ps->pub.weights || ps->nids == 0)
		return 0;
	double first = 0;
	for (size_t k = 0; k < ps->nids; k++) {
		double w;
		if (weight_at(ps, k, &w) != 0)
			return 0;
		if (k == 0)
			first = w;
		else if (w != first)
			return 0;
	}
	*weight = first;
	return 1;
}

int speedscan_stacks(speedscan *sc, size_t i, int weighted, double scale, speedscan_stack_fn *fn,
		     void *ctx)
{
	struct pscan *ps = &sc->profs[i];
	size_t n;
	for (size_t k = 0; k < ps->nd; k++)
		if (parse_stack(sc, ps, &ps->d[k], &n) != 0)
			return -1;
	uint64_t *counts = xmalloc((ps->nd ? ps->nd : 1) * sizeof *counts);
	for (size_t k = 0; k < ps->nd; k++)
		counts[k] = ps->d[k].count;
	if (weighted && ps->pub.weights) {
		/* Weights in order, rounded with the carry the tree reader keeps. */
		memset(counts, 0, ps->nd * sizeof *counts);
		double carry = 0;
		for (size_t k = 0; k < ps->nids; k++) {
			double w;
			if (weight_at(ps, k, &w) != 0) {
				free(counts);
				return -1;
			}
			double v = w * scale + carry;
			if (!(w >= 0) || v > 1.8e19) {
				free(counts);
				return -1;
			}
			uint64_t c = v > 0 ? (uint64_t)llround(v) : 0;  /* a 0 after a rounded-up one */
			carry = v - (double)c;
			if (counts[ps->ids[k]] + c < c) {
				free(counts);
				return -1;
			}
			counts[ps->ids[k]] += c;
		}
	}
	for (size_t k = 0; fn && k < ps->nd; k++) {
		if (!counts[k])
			continue;
		parse_stack(sc, ps, &ps->d[k], &n);
		fn(ctx, sc->idx, n, counts[k]);
	}
	free(counts);
	return 0;
}
