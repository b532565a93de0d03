/* rankname: a process's rank and kind read from its text, numbers as ranges, and the
 * small string builder they write into. */
#include "rankname.h"
#include "xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rankname_put(struct rankname_sb *b, const char *s, size_t n)
{
	b->s = xgrow(b->s, &b->cap, b->len + n + 1, 1);
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void rankname_str(struct rankname_sb *b, const char *s) { rankname_put(b, s, strlen(s)); }

void rankname_printf(struct rankname_sb *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n <= 0)
		return;
	b->s = xgrow(b->s, &b->cap, b->len + (size_t)n + 1, 1);
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

long long rankname_number(const char *s, size_t len)
{
	long long v = 0;
	if (len == 0 || len > 9)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

size_t rankname_title(const char *cmd, size_t len, struct rankname_sb *name, long long *num)
{
	size_t tok = 0;
	while (tok < len && cmd[tok] != ' ')
		tok++;
	const char *colons = memmem(cmd, tok, "::", 2);
	if (!colons)
		return 0;
	size_t at = (size_t)(colons - cmd) + 2;
	while (at < tok && cmd[at] != '_')
		at++;
	long long part[4] = { -1, -1, -1, -1 };  /* TP, PP, DP, EP */
	static const char *const names[] = { "TP", "PP", "DP", "EP" };
	size_t p = at, start = at;
	name->len = 0;
	while (p < tok && cmd[p] == '_') {
		size_t l = p + 1, d;
		while (l < tok && cmd[l] >= 'A' && cmd[l] <= 'Z')
			l++;
		for (d = l; d < tok && cmd[d] >= '0' && cmd[d] <= '9'; d++)
			;
		int which = -1;
		for (int k = 0; k < 4; k++)
			if (l - p - 1 == 2 && memcmp(cmd + p + 1, names[k], 2) == 0)
				which = k;
		if (which < 0 || d == l || (d < tok && cmd[d] != '_'))
			return 0;
		part[which] = rankname_number(cmd + l, d - l);
		if (which != 3)
			rankname_printf(name, "%s%.*s", name->len ? "_" : "", (int)(d - p - 1), cmd + p + 1);
		p = d;
	}
	if (p != tok || name->len == 0)
		return 0;
	*num = part[1] >= 0 ? -1 : part[0] >= 0 ? part[0] : part[2];
	return start;
}

int rankname_flag(const char *cmd, size_t len, struct rankname_sb *name, long long *num)
{
	static const char *const flags[] = { "--local_rank", "--local-rank", "--node-rank", "--node_rank" };
	for (int k = 0; k < 4; k++) {
		size_t fl = strlen(flags[k]);
		for (const char *at = cmd; (at = memmem(at, len - (size_t)(at - cmd), flags[k], fl)) != NULL; at += fl) {
			const char *v = at + fl, *end = cmd + len;
			if ((at > cmd && at[-1] != ' ') || v >= end || (*v != '=' && *v != ' '))
				continue;
			const char *d = ++v;
			while (v < end && *v >= '0' && *v <= '9')
				v++;
			if (v == d || (v < end && *v != ' '))
				continue;
			*num = rankname_number(d, (size_t)(v - d));
			rankname_printf(name, "%.*s", (int)(v - d), d);
			return 1;
		}
	}
	return 0;
}

long long rankname_trailing_number(const char *s, size_t len)
{
	size_t d = len;
	while (d > 0 && s[d - 1] >= '0' && s[d - 1] <= '9')
		d--;
	return rankname_number(s + d, len - d);
}

int rankname_is_python(const char *tok, size_t len)
{
	const char *slash = memrchr(tok, '/', len);
	const char *b = slash ? slash + 1 : tok;
	return (size_t)(tok + len - b) >= 6 && memcmp(b, "python", 6) == 0;
}

void rankname_kind_label(const char *cmd, size_t len, struct rankname_sb *out)
{
	size_t pos = 0, tl;
	struct rankname_sb ignored = { 0 };
	long long num;
	size_t cut = rankname_title(cmd, len, &ignored, &num);
	free(ignored.s);
	if (cut) {
		rankname_put(out, cmd, cut);
		return;
	}
	const char *tok = cmd;
	for (tl = 0; tl < len && cmd[tl] != ' '; tl++)
		;
	if (rankname_is_python(tok, tl)) { /* the first word that is no option, or -m's module */
		pos = tl;
		while (pos < len) {
			while (pos < len && cmd[pos] == ' ')
				pos++;
			size_t e = pos;
			while (e < len && cmd[e] != ' ')
				e++;
			if (e - pos == 2 && memcmp(cmd + pos, "-m", 2) == 0) {
				pos = e;
				continue;
			}
			if (e > pos && cmd[pos] != '-') {
				tok = cmd + pos;
				tl = e - pos;
				break;
			}
			pos = e;
		}
	}
	const char *slash = memrchr(tok, '/', tl);
	if (slash) {
		tl -= (size_t)(slash + 1 - tok);
		tok = slash + 1;
	}
	rankname_put(out, tok, tl);
}

size_t rankname_ranges(const unsigned long long *v, size_t n, char *buf, size_t cap)
{
	size_t used = 0;
	if (cap)
		buf[0] = '\0';
	for (size_t i = 0; i < n && cap;) {
		size_t j = i;
		while (j + 1 < n && v[j + 1] == v[j] + 1)
			j++;
		int w = j > i ? snprintf(buf + used, cap - used, "%s%llu-%llu", used ? "," : "", v[i], v[j])
			      : snprintf(buf + used, cap - used, "%s%llu", used ? "," : "", v[i]);
		if (w < 0 || (size_t)w >= cap - used) {
			buf[used] = '\0';
			break;
		}
		used += (size_t)w;
		i = j + 1;
	}
	return used;
}

static int cmp_ull(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;
	return x < y ? -1 : x > y;
}

/* Kinds: command lines alike but for their digits (ranks, ports, hosts) are one kind. */
size_t rankname_kind_key(const char *cmd, size_t len, char *key)
{
	size_t n = 0;
	for (size_t i = 0; i < len; i++) { /* a run of digits is one '#': rank 9 and rank 10 alike */
		int digit = cmd[i] >= '0' && cmd[i] <= '9';
		if (!digit || !n || key[n - 1] != '#')
			key[n++] = digit ? '#' : cmd[i];
	}
	return n;
}

/* 1 to 19 digits: a number (that fits an unsigned long long) into *v. */
static int is_number(const char *s, size_t len, unsigned long long *v)
{
	*v = 0;
	if (!len || len >= 20)
		return 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		*v = *v * 10 + (unsigned long long)(s[i] - '0');
	}
	return 1;
}

void rankname_list(const char *const *s, const size_t *lens, size_t n, struct rankname_sb *out)
{
	unsigned long long *num = xmalloc((n + 1) * sizeof *num);
	size_t nn = 0;
	for (size_t i = 0; i < n; i++)
		if (is_number(s[i], lens[i], &num[nn]))
			nn++;
	qsort(num, nn, sizeof *num, cmp_ull);
	size_t u = 0;
	for (size_t i = 0; i < nn; i++)
		if (!u || num[u - 1] != num[i])
			num[u++] = num[i];
	size_t cap = u * 44 + 1;
	char *buf = xmalloc(cap);
	rankname_put(out, buf, rankname_ranges(num, u, buf, cap));
	free(buf);
	free(num);
	for (size_t i = 0; i < n; i++) {
		unsigned long long v;
		int dup = 0;
		for (size_t k = 0; k < i && !dup; k++)
			dup = lens[k] == lens[i] && memcmp(s[k], s[i], lens[i]) == 0;
		if (dup || is_number(s[i], lens[i], &v))
			continue;
		if (out->len)
			rankname_put(out, ",", 1);
		rankname_put(out, s[i], lens[i]);
	}
}
