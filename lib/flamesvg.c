/* flamesvg: a scan for <title> and the <rect> after it (no XML parser: the SVG is the writer's
 * own fixed shape), then frames ranked by depth and walked left to right. */
#include "flamesvg.h"
#include "xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fr {
	size_t name, name_len;  /* in the names buffer */
	double x, y, key;       /* key: distance from the "all" frame's y */
	double width;           /* the rect's drawn width (pixels or %), -1 when none */
	double start, end;      /* edges in samples: fg:x, or x scaled by the root's samples per
				 * width unit; -1 when unknown */
	int fg_x;               /* x is inferno's fg:x (samples), not a drawn position */
	uint64_t w;
	unsigned long lineno;
	size_t depth;
};

struct sv {
	struct doc_reader r;    /* no callbacks: its stacks are kept, then given */
	char *names;
	size_t nused, ncap;
	struct fr *fr;
	size_t n, cap;
};

/* Where ` NAME="` starts its value inside [s, end), or NULL. */
static const char *attr(const char *s, const char *end, const char *name, size_t *len)
{
	char pat[16];
	int n = snprintf(pat, sizeof pat, " %s=\"", name);
	const char *at = memmem(s, (size_t)(end - s), pat, (size_t)n);
	if (!at)
		return NULL;
	at += n;
	const char *q = memchr(at, '"', (size_t)(end - at));
	if (!q)
		return NULL;
	*len = (size_t)(q - at);
	return at;
}

static int number(const char *s, size_t len, double *out)
{
	char buf[64];
	if (!s || len == 0 || len >= sizeof buf)
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	char *end;
	*out = strtod(buf, &end);
	return (*end == '\0' || *end == '%') && isfinite(*out) ? 0 : -1;
}

/* Append the title's text with XML entities decoded. */
static size_t unescape(struct sv *v, const char *s, size_t len)
{
	size_t start = v->nused;
	v->names = xgrow(v->names, &v->ncap, v->nused + len + 1, 1);
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (c == '&') {
			static const struct { const char *e; char c; } ents[] = {
				{ "&lt;", '<' }, { "&gt;", '>' }, { "&amp;", '&' }, { "&quot;", '"' }, { "&apos;", '\'' },
			};
			size_t k = 0;
			for (; k < sizeof ents / sizeof ents[0]; k++) {
				size_t el = strlen(ents[k].e);
				if (len - i >= el && memcmp(s + i, ents[k].e, el) == 0) {
					c = ents[k].c;
					i += el - 1;
					break;
				}
			}
			if (k == sizeof ents / sizeof ents[0] && i + 2 < len && s[i + 1] == '#') {
				char *end;
				int hex = s[i + 2] == 'x';
				unsigned long code = strtoul(s + i + 2 + hex, &end, hex ? 16 : 10);
				if (*end == ';' && code > 0 && code < 0x80) {
					c = (char)code;
					i = (size_t)(end - s);
				}
			}
		}
		v->names[v->nused++] = c;
	}
	v->names[v->nused] = '\0';
	return v->nused - start;
}

/* The count in "NAME (1,234 samples, 5.00%)": 0 when none; *name_len the NAME part. */
static uint64_t title_count(const char *t, size_t len, size_t *name_len)
{
	*name_len = len;
	if (len < 4 || t[len - 1] != ')')
		return 0;
	size_t open = len - 1;
	while (open > 0 && !(t[open] == '(' && t[open - 1] == ' '))
		open--;
	if (open == 0)
		return 0;
	*name_len = open - 1;
	uint64_t n = 0;
	for (size_t i = open + 1; i < len && ((t[i] >= '0' && t[i] <= '9') || t[i] == ','); i++)
		if (t[i] != ',')
			n = n * 10 + (uint64_t)(t[i] - '0');
	return n;
}

static int by_key(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static int by_position(const void *a, const void *b)
{
	const struct fr *p = a, *q = b;
	if (p->x != q->x)
		return (p->x > q->x) - (p->x < q->x);
	return (p->depth > q->depth) - (p->depth < q->depth);
}

static void scan(struct sv *v)
{
	const char *s = v->r.doc->text, *end = s + v->r.doc->len, *counted = s;
	unsigned long lineno = v->r.doc->lineno;
	for (;;) {
		const char *t = memmem(s, (size_t)(end - s), "<title>", 7);
		if (!t)
			return;
		t += 7;
		const char *te = memmem(t, (size_t)(end - t), "</title>", 8);
		if (!te)
			return;
		const char *r = memmem(te, (size_t)(end - te), "<rect", 5);
		const char *next = memmem(te, (size_t)(end - te), "<title>", 7);
		s = te + 8;
		if (!r || (next && next < r))
			continue;  /* a title that is not a frame's (the document's own) */
		const char *re = memchr(r, '>', (size_t)(end - r));
		if (!re)
			return;
		for (; counted < t; counted++)
			lineno += *counted == '\n';
		size_t len, nlen;
		const char *a;
		double x, y, w;
		struct fr f = { .lineno = lineno, .name = v->nused };
		size_t tlen = unescape(v, t, (size_t)(te - t));
		uint64_t tc = title_count(v->names + f.name, tlen, &nlen);
		f.name_len = nlen;
		v->nused = f.name + nlen;
		if ((a = attr(r, re, "fg:w", &len)) && number(a, len, &w) == 0 && w >= 0 && w < 1.8e19)
			f.w = (uint64_t)llround(w);
		else
			f.w = tc;
		f.fg_x = (a = attr(r, re, "fg:x", &len)) && number(a, len, &x) == 0;
		if (!(f.fg_x || ((a = attr(r, re, "x", &len)) && number(a, len, &x) == 0)) ||
		    !((a = attr(r, re, "y", &len)) && number(a, len, &y) == 0)) {
			v->r.stats->bad++;
			err_bad_line(v->r.errs, v->r.doc->file, lineno, "flame graph frame without x or y");
			continue;
		}
		f.x = x;
		f.y = y;
		f.width = (a = attr(r, re, "width", &len)) && number(a, len, &w) == 0 ? w : -1;
		v->fr = xgrow(v->fr, &v->cap, v->n + 1, sizeof *v->fr);
		v->fr[v->n++] = f;
		s = re;
	}
}

/* Depth: the rank of a frame's distance from the root's row (frame all) among all
 * distances. Returns the number of distinct distances. */
static size_t set_depths(struct sv *v, size_t all)
{
	double *keys = xmalloc(v->n * sizeof *keys);
	for (size_t i = 0; i < v->n; i++)
		keys[i] = v->fr[i].key = fabs(v->fr[i].y - v->fr[all].y);
	qsort(keys, v->n, sizeof *keys, by_key);
	size_t nk = 0;
	for (size_t i = 0; i < v->n; i++)
		if (nk == 0 || keys[i] != keys[nk - 1])
			keys[nk++] = keys[i];
	for (size_t i = 0; i < v->n; i++) {
		size_t lo = 0, hi = nk;
		while (hi - lo > 1) {
			size_t mid = (lo + hi) / 2;
			if (keys[mid] <= v->fr[i].key)
				lo = mid;
			else
				hi = mid;
		}
		v->fr[i].depth = lo;
	}
	free(keys);
	return nk;
}

void flamesvg_read(const struct doc_buf *doc, struct err_lines *errs, doc_stack_fn *fn,
		   void *ctx, struct doc_stats *stats)
{
	struct sv v = { .r = { .doc = doc, .errs = errs, .stats = stats } };
	if (doc->over) {
		stats->bad++;
		err_bad_line(errs, doc->file, doc->lineno, "SVG larger than 256 MiB: not read");
		return;
	}
	scan(&v);
	size_t all = v.n;
	for (size_t i = 0; i < v.n && all == v.n; i++)
		if (v.fr[i].name_len == 3 && memcmp(v.names + v.fr[i].name, "all", 3) == 0)
			all = i;
	if (all == v.n) {
		if (v.n || memmem(doc->text, doc->len, "<svg", 4)) {
			stats->bad++;
			err_bad_line(errs, doc->file, doc->lineno, "SVG without a flame graph's \"all\" frame");
		}
		goto out;
	}
	size_t nk = set_depths(&v, all);
	struct fr root = v.fr[all];
	v.fr[all] = v.fr[--v.n];
	qsort(v.fr, v.n, sizeof *v.fr, by_position);

	/* Each frame's edges in samples: inferno's fg:x and fg:w are exact; flamegraph.pl's
	 * pixel x and width scale by the root's samples per pixel. flamegraph.pl rounds both
	 * edges to 0.1 pixel, so frames that touch keep equal edges and a gap is a real one. */
	double per_unit = root.width > 0 ? (double)root.w / root.width : 0;
	for (size_t i = 0; i < v.n; i++) {
		struct fr *f = &v.fr[i];
		if (f->fg_x) {
			f->start = f->x;
			f->end = f->x + (double)f->w;
		} else if (per_unit > 0) {
			f->start = (f->x - root.x) * per_unit;
			f->end = f->width >= 0 ? (f->x + f->width - root.x) * per_unit : f->start + (double)f->w;
		} else {
			f->start = f->end = -1;
		}
	}

	/* Walk left to right keeping the path from the root; a frame leaving the path gives
	 * its samples not covered by children to its stack. Writers draw a frame's own samples
	 * first (its stack "A" sorts before "A;B"), then its children in order, each narrow
	 * one left out where it would be: so a gap between two drawn children, or after the
	 * last one, is samples in frames too narrow to draw (lost), never the frame's own.
	 * Narrow children before the first drawn one cannot be told from the frame's own. */
	size_t *path = xmalloc((nk + 1) * sizeof *path);
	uint64_t *covered = xcalloc(nk + 1, sizeof *covered);
	double *last_end = xmalloc((nk + 1) * sizeof *last_end);  /* last child's end, -1: none */
	double *gaps = xmalloc((nk + 1) * sizeof *gaps);          /* between children, samples */
	struct doc_frame *frames = xmalloc((nk + 1) * sizeof *frames);
	size_t top = 0;  /* path[0..top) are frames at depth 1..top */
	uint64_t root_covered = 0;
	for (size_t i = 0; i <= v.n; i++) {
		size_t d = i < v.n ? v.fr[i].depth : 1;
		while (top > 0 && top >= d) {
			struct fr *f = &v.fr[path[top - 1]];
			uint64_t self = f->w > covered[top - 1] ? f->w - covered[top - 1] : 0;
			if (self && last_end[top - 1] >= 0 && f->end >= 0) {
				double gone = gaps[top - 1] + fmax(f->end - last_end[top - 1], 0);
				uint64_t lost = gone < 0.5 ? 0 : gone >= (double)self ? self : (uint64_t)llround(gone);
				stats->lost += lost;
				self -= lost;
			}
			if (self) {
				for (size_t k = 0; k < top; k++)
					frames[k] = (struct doc_frame){ v.names + v.fr[path[k]].name, v.fr[path[k]].name_len };
				stats->stacks++;
				fn(ctx, doc->file, f->lineno, frames, top, self);
			}
			top--;
			if (top > 0) {
				covered[top - 1] += f->w;
				if (f->start >= 0) {
					if (last_end[top - 1] >= 0 && f->start > last_end[top - 1])
						gaps[top - 1] += f->start - last_end[top - 1];
					last_end[top - 1] = f->end;
				}
			} else {
				root_covered += f->w;
			}
		}
		if (i == v.n)
			break;
		if (d != top + 1) {
			stats->bad++;
			err_bad_line(errs, doc->file, v.fr[i].lineno, "flame graph frame with no parent below it");
			continue;
		}
		covered[top] = 0;
		last_end[top] = -1;
		gaps[top] = 0;
		path[top++] = i;
	}
	if (root.w > root_covered)
		stats->lost += root.w - root_covered;
	free(path);
	free(covered);
	free(last_end);
	free(gaps);
	free(frames);
out:
	free(v.names);
	free(v.fr);
}
