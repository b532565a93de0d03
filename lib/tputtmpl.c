/* tputtmpl: a record's template (its words) and the names of its columns. */
#include "tputtmpl.h"
#include "intern.h"
#include "tputbyte.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int word_byte(char c) { return tputbyte_alpha(c) || c == '_'; }

uint64_t tputtmpl_hash(const char *s, size_t len)
{
	/* the words, each ended by a blank, hashed a buffer at a time */
	char buf[256];
	size_t n = 0;
	uint64_t h = 0x9e3779b97f4a7c15ULL;
	for (size_t i = 0; i < len;) {
		if (!word_byte(s[i])) {
			i++;
			continue;
		}
		size_t j = i;
		while (j < len && word_byte(s[j]))
			j++;
		/* a number's one-letter suffix ("1.70s/it"), and the "/s" of a rate: tqdm writes
		 * "s/it" or "it/s" by the rate's size, one bar either way */
		int numbers = j - i == 1 && i > 0 && (tputbyte_digit(s[i - 1]) || (s[i] == 's' && s[i - 1] == '/'));
		/* a duration's days, written only when there are some ("eta: 1 day, 7:08:03") */
		numbers |= (j - i == 3 || (j - i == 4 && s[i + 3] == 's')) && memcmp(s + i, "day", 3) == 0 && i > 1 &&
			   s[i - 1] == ' ' && tputbyte_digit(s[i - 2]);
		/* a figure that is no number ("Speed (samples/sec) nan") stands where its numbers do */
		numbers |= j - i == 3 && (strncasecmp(s + i, "nan", 3) == 0 || strncasecmp(s + i, "inf", 3) == 0);
		if (!numbers) {
			if (n + (j - i) + 1 > sizeof buf) {
				h = h * 31 + intern_hash(buf, n);
				n = 0;
			}
			size_t w = j - i < sizeof buf - 1 ? j - i : sizeof buf - 1;
			memcpy(buf + n, s + i, w);
			n += w;
			buf[n++] = ' ';
		}
		i = j;
	}
	h = h * 31 + intern_hash(buf, n);
	return h ? h : 1;
}

/* A byte of a key or unit as written: "tokens/s", "train_samples_per_second", "ms/batch". */
static int key_byte(char c)
{
	return tputbyte_word(c) || c == '/' || c == '-' || c == '.' || c == '%' || c == '(' || c == ')';
}

static size_t put_key(const char *k, size_t n, char *out, size_t cap)
{
	if (n > cap - 1)
		n = cap - 1;
	memcpy(out, k, n);
	out[n] = '\0';
	return n;
}

/* The unit right after the figure at s[at]: "it/s", "tok/s", "samples/sec". */
static size_t unit_after(const char *s, size_t len, size_t at, size_t *ulen)
{
	size_t i = at;
	while (i < len && (tputbyte_digit(s[i]) || s[i] == '.' || s[i] == ',' || s[i] == '+' || s[i] == '-'))
		i++;
	if (i < len && (s[i] == 'e' || s[i] == 'E') && i + 1 < len && (tputbyte_digit(s[i + 1]) || s[i + 1] == '-'))
		for (i++; i < len && (tputbyte_digit(s[i]) || s[i] == '-' || s[i] == '+'); i++)
			;
	if (i < len && strchr("KMGT", s[i]) && s[i] && (i + 1 == len || !tputbyte_alpha(s[i + 1])))
		i++;  /* "14.5K tok/s": the suffix is the number's */
	if (i < len && s[i] == ' ')
		i++;
	size_t j = i;
	while (j < len && key_byte(s[j]))
		j++;
	if (j > i && s[j - 1] == ')' && !memchr(s + i, '(', j - i))  /* "(236.0 pos/s)" */
		j--;
	*ulen = j - i;
	return i;
}

size_t tputtmpl_key(const char *s, size_t len, size_t at, char *out, size_t cap)
{
	if (cap == 0)
		return 0;
	out[0] = '\0';
	if (at > len)
		return 0;
	size_t ulen, u = unit_after(s, len, at, &ulen);
	int unit_ok = ulen > 0 && tputbyte_alpha(s[u]);
	/* the key before: "KEY: ", "KEY=", "KEY " */
	size_t i = at, explicit = 0;
	while (i > 0 && s[i - 1] == ' ')
		i--;
	if (i > 0 && (s[i - 1] == ':' || s[i - 1] == '=')) {
		explicit = 1;
		i--;
		while (i > 0 && s[i - 1] == ' ')
			i--;
	}
	if (i > 0 && (s[i - 1] == '"' || s[i - 1] == '\''))
		i--;
	if (!explicit && i > 0 && s[i - 1] == '|') {  /* "| fps | 1406 |": the cell before, one word */
		size_t e = i - 1, b;
		while (e > 0 && s[e - 1] == ' ')
			e--;
		for (b = e; b > 0 && key_byte(s[b - 1]); b--)
			;
		size_t w = b;
		while (w > 0 && s[w - 1] == ' ')
			w--;
		if (b < e && w > 0 && s[w - 1] == '|') {
			i = e;
			explicit = 1;
		}
	}
	size_t e = i;
	for (;;) {
		while (i > 0 && key_byte(s[i - 1]))
			i--;
		/* "iter latency: 7.7": a key of words, none with a digit */
		size_t w = i > 0 && s[i - 1] == ' ' && explicit ? i - 1 : i;
		while (w > 0 && (tputbyte_alpha(s[w - 1]) || s[w - 1] == '_'))
			w--;
		if (w == i || w + 1 == i || e - w > 24 || (w > 0 && key_byte(s[w - 1])))
			break;
		i = w;
	}
	while (i < e && !tputbyte_alpha(s[i]))
		i++;
	int key_ok = e > i;
	if (key_ok && (explicit || !unit_ok || !memchr(s + u, '/', ulen)))  /* "sec/kimg 253.5 maintenance 7" */
		return put_key(s + i, e - i, out, cap);
	if (unit_ok)
		return put_key(s + u, ulen, out, cap);
	return 0;
}

void tputtmpl_set_free(struct tputtmpl_set *set)
{
	free(set->seen);
	if (set->keys)
		intern_free(set->keys);
	memset(set, 0, sizeof *set);
}

/* The pair's bytes, as interned. */
static size_t pair_key(uint64_t tmpl, int unit, char *key)
{
	memcpy(key, &tmpl, sizeof tmpl);
	memcpy(key + sizeof tmpl, &unit, sizeof unit);
	return sizeof tmpl + sizeof unit;
}

const struct tputtmpl_seen *tputtmpl_find(const struct tputtmpl_set *set, uint64_t tmpl, int unit)
{
	char key[16];
	uint32_t id = set->keys ? intern_find(set->keys, key, pair_key(tmpl, unit, key)) : INTERN_NONE;
	return id == INTERN_NONE ? NULL : &set->seen[id];
}

void tputtmpl_note(struct tputtmpl_set *set, uint64_t tmpl, int unit, unsigned long lineno, const char *s,
		   size_t len, size_t at)
{
	char key[16];
	if (!set->keys)
		set->keys = intern_new();
	uint32_t id = intern_add(set->keys, key, pair_key(tmpl, unit, key));
	if (id < set->n)
		return;  /* seen: the first stays */
	set->seen = xgrow(set->seen, &set->cap, set->n + 1, sizeof *set->seen);
	struct tputtmpl_seen *e = &set->seen[set->n++];
	e->tmpl = tmpl;
	e->unit = unit;
	e->lineno = lineno;
	tputtmpl_key(s, len, at, e->key, sizeof e->key);
	size_t n = len > TPUTTMPL_EXAMPLE_MAX ? TPUTTMPL_EXAMPLE_MAX : len;
	memcpy(e->example, s, n);
	if (n < len)
		memcpy(e->example + n, "...", 3), n += 3;
	e->example[n] = '\0';
	for (char *p = e->example; *p; p++)  /* a tab or control byte would break a row */
		if ((unsigned char)*p < 32)
			*p = ' ';
}
