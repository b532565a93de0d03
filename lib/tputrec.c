/* tputrec: lines of a block, and records wrapped over lines joined again. */
#include "tputrec.h"
#include "tputnorm.h"
#include "xalloc.h"

#include <string.h>

size_t tputrec_line_len(const char *s, const char *block_end)
{
	const char *nl = memchr(s, '\n', (size_t)(block_end - s));
	return (size_t)((nl ? nl : block_end) - s);
}

/* A record hard-wrapped at a terminal's or a wrapper's width: every part but the last is
 * exactly as wide, the first starts with the log's prefix (a rank or a timestamp) and the
 * others do not, and the cut falls inside a field (no blank either side of it). */
enum { WRAP_PARTS = 8 };
int tputrec_wrap_width(size_t n)
{
	static const unsigned short widths[] = { 80, 100, 120, 132, 160, 200, 250, 256 };
	for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++)
		if (n == widths[i])
			return 1;
	return 0;
}

static int log_prefixed(const char *s, size_t len)
{
	long rank;
	double t;
	return tputnorm_rank_prefix(s, len, &rank) > 0 || tputnorm_timestamp_end(s, len, &t) > 0;
}

/* A line without its "\r\n" or "\n". */
struct span {
	char *s;
	size_t n;
};

static struct span span_at(char *s, const char *end)
{
	size_t n = tputrec_line_len(s, end);
	return (struct span){ s, n - (n > 0 && s[n - 1] == '\r') };
}

/* Does part b carry on the record part a cut? */
static int wrap_cut(struct span a, struct span b, size_t width)
{
	return a.n == width && b.n > 0 && a.s[a.n - 1] != ' ' && b.s[0] != ' ' && b.s[0] != '\t' &&
	       !log_prefixed(b.s, b.n);
}

/* The wrapped record the line at cur belongs to, its lines from *first (not before from) to
 * *last, put together in buf->text; 0 when the line stands alone. A line of the block
 * (text) next to the record must have the prefix too: the log is one whose lines all have
 * it, not a mix where an unprefixed line may follow one that happens to be as wide. Only
 * lines with a rule's literal come here: the others cost nothing. */
/* The line before the one at s, when it starts at or after from and is short enough to be
 * a wrap width: the search back stops after 258 bytes. */
static int prev_short(char *from, char *s, char *end, struct span *p)
{
	if (s <= from)
		return 0;
	size_t win = (size_t)(s - 1 - from);
	if (win > 258)
		win = 258;
	char *lo = s - 1 - win, *nl = memrchr(lo, '\n', win);
	if (!nl && lo > from)
		return 0;
	*p = span_at(nl ? nl + 1 : from, end);
	return 1;
}

size_t tputrec_join(struct tputrec_buf *buf, char *text, char *from, char *cur, char *end, char **first, char **last)
{
	struct span parts[WRAP_PARTS], back[WRAP_PARTS], later = span_at(cur, end), p;
	size_t np = 0, nb = 0, width = 0;
	/* most lines: neither this one nor the one before is as wide as a terminal */
	if (!tputrec_wrap_width(later.n) && !(prev_short(from, cur, end, &p) && tputrec_wrap_width(p.n)))
		return 0;
	if (!log_prefixed(later.s, later.n)) {
		/* a later part: back to the first, each line before as wide, the first prefixed */
		for (char *s = cur;;) {
			if (nb == WRAP_PARTS - 1 || !prev_short(from, s, end, &p))
				return 0;
			if (!tputrec_wrap_width(p.n) || (width && p.n != width) || !wrap_cut(p, later, p.n))
				return 0;
			width = p.n;
			back[nb++] = later = p;
			s = p.s;
			if (log_prefixed(p.s, p.n))
				break;
		}
	} else if (!tputrec_wrap_width(later.n)) {
		return 0;
	}
	while (nb > 0)
		parts[np++] = back[--nb];
	parts[np++] = span_at(cur, end);
	if (!width)
		width = parts[0].n;
	/* on while each part is cut at the same width */
	while (np < WRAP_PARTS) {
		p = parts[np - 1];
		char *nx = p.s + tputrec_line_len(p.s, end);
		if (nx >= end || ++nx >= end)
			break;
		struct span q = span_at(nx, end);
		if (!wrap_cut(p, q, width))
			break;
		parts[np++] = q;
	}
	if (np == 1)
		return 0;
	char *after = parts[np - 1].s + tputrec_line_len(parts[np - 1].s, end) + 1, *before = NULL;
	if (parts[0].s > text) {
		before = memrchr(text, '\n', (size_t)(parts[0].s - 1 - text));
		before = before ? before + 1 : text;
	}
	struct span b = before ? span_at(before, end) : (struct span){ NULL, 0 };
	struct span a = after < end ? span_at(after, end) : (struct span){ NULL, 0 };
	if (!(b.n && log_prefixed(b.s, b.n)) && !(a.n && log_prefixed(a.s, a.n)))
		return 0;
	size_t total = 0;
	for (size_t i = 0; i < np; i++)
		total += parts[i].n;
	buf->text = xgrow(buf->text, &buf->cap, total + 1, 1);
	total = 0;
	for (size_t i = 0; i < np; i++) {
		memcpy(buf->text + total, parts[i].s, parts[i].n);
		total += parts[i].n;
	}
	buf->text[total] = '\0';
	*first = parts[0].s;
	*last = parts[np - 1].s;
	return total;
}

