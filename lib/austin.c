/* austin: fields split on ';', each frame split from the right (file names may hold ':'). */
#include "austin.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int digits(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return len > 0;
}

int austin_is_sample(const char *s, size_t len)
{
	if (len < 5 || s[0] != 'P')
		return 0;
	size_t i = 1;
	while (i < len && s[i] >= '0' && s[i] <= '9')
		i++;
	return i > 1 && i + 2 < len && s[i] == ';' && s[i + 1] == 'T' &&
	       ((s[i + 2] >= '0' && s[i + 2] <= '9') || (s[i + 2] >= 'a' && s[i + 2] <= 'f'));
}

enum austin_result austin_line(const char *text, size_t len, struct doc_stack *st,
			       uint64_t *count, const char **reason)
{
	doc_stack_clear(st);
	while (len && (text[len - 1] == ' ' || text[len - 1] == '\t'))
		len--;
	if (len == 0 || text[0] == '#')
		return AUSTIN_SKIP;
	if (!austin_is_sample(text, len)) {
		*reason = "not an austin sample (P<pid>;T<tid>;... N)";
		return AUSTIN_BAD;
	}
	const char *sp = text + len;
	while (sp > text && sp[-1] != ' ')
		sp--;
	if (sp == text) {
		*reason = "no sample count";
		return AUSTIN_BAD;
	}
	const char *metric = sp, *mend = text + len;
	const char *comma = memchr(metric, ',', (size_t)(mend - metric));
	if (comma)
		mend = comma;  /* full mode: time,idle,memory */
	if (!digits(metric, (size_t)(mend - metric)) || mend - metric > 19) {
		*reason = "sample count is not a number";
		return AUSTIN_BAD;
	}
	uint64_t n = 0;
	for (const char *c = metric; c < mend; c++)
		n = n * 10 + (uint64_t)(*c - '0');
	*count = n;
	const char *s = text, *end = sp - 1;
	int field = 0;
	while (s < end) {
		const char *f = memchr(s, ';', (size_t)(end - s));
		if (!f)
			f = end;
		size_t flen = (size_t)(f - s);
		if (field == 0) {
			doc_stack_push(st, "process %.*s:\"\"", (int)(flen - 1), s + 1);
		} else if (field == 1) {
			const char *colon = memchr(s, ':', flen);
			const char *tid = colon ? colon + 1 : s + 1;
			doc_stack_push(st, "thread (%.*s)", (int)(f - tid), tid);
		} else {
			/* file:function:line, split from the right */
			const char *c2 = f;
			while (c2 > s && c2[-1] != ':')
				c2--;
			const char *c1 = c2 > s ? c2 - 1 : s;
			while (c1 > s && c1[-1] != ':')
				c1--;
			if (c2 == s || c1 == s || !digits(c2, (size_t)(f - c2))) {
				if (flen == 0) {
					*reason = "empty frame";
					return AUSTIN_BAD;
				}
				doc_stack_push(st, "%.*s", (int)flen, s);  /* native or unnamed frame */
			} else {
				doc_stack_push(st, "%.*s (%.*s:%.*s)", (int)(c2 - c1 - 1), c1,
					       (int)(c1 - s - 1), s, (int)(f - c2), c2);
			}
		}
		field++;
		s = f + 1;
	}
	if (field < 2) {
		*reason = "no thread field";
		return AUSTIN_BAD;
	}
	return AUSTIN_OK;
}

void austin_meta_reset(struct austin_meta *m)
{
	*m = (struct austin_meta){ AUSTIN_MODE_UNSAID, 0, 0 };
}

/* The value of a `# key: value` line when its key is key, else NULL. */
static const char *meta_value(const char *text, size_t len, const char *key, size_t *vlen)
{
	size_t n = strlen(key);
	if (len < n + 4 || memcmp(text, "# ", 2) != 0 || memcmp(text + 2, key, n) != 0 ||
	    memcmp(text + 2 + n, ": ", 2) != 0)
		return NULL;
	*vlen = len - n - 4;
	while (*vlen && (text[n + 4 + *vlen - 1] == ' ' || text[n + 4 + *vlen - 1] == '\t'))
		(*vlen)--;
	return text + n + 4;
}

void austin_meta_line(struct austin_meta *m, const char *text, size_t len)
{
	size_t vlen;
	const char *v = meta_value(text, len, "interval", &vlen);
	if (v && digits(v, vlen) && vlen < 16) {
		m->interval = strtod(v, NULL);
		return;
	}
	if (!(v = meta_value(text, len, "mode", &vlen)))
		return;
	static const char *const times[] = { "wall", "cpu", "full" };
	m->mode = vlen == 6 && memcmp(v, "memory", 6) == 0 ? AUSTIN_MODE_MEMORY : AUSTIN_MODE_UNSAID;
	for (int i = 0; i < 3; i++)
		if (vlen == strlen(times[i]) && memcmp(v, times[i], vlen) == 0)
			m->mode = AUSTIN_MODE_TIME;
}

uint64_t austin_samples(struct austin_meta *m, uint64_t metric, double rate)
{
	if (m->mode != AUSTIN_MODE_TIME)
		return metric;
	double us = m->interval > 0 ? m->interval : 1e6 / rate;
	double v = (double)metric / us + m->carry;
	uint64_t n = v > 0 ? (uint64_t)llround(v) : 0;
	m->carry = v - (double)n;
	return n;
}

double austin_rate(const struct austin_meta *m)
{
	return m->mode == AUSTIN_MODE_TIME && m->interval > 0 ? 1e6 / m->interval : 0;
}
