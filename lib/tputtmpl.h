/* tputtmpl: the templates stage: what a record is when its numbers are blanked (its words, in
 * order), the templates seen with an example each, and the name beside a column's figure. */
#ifndef SIFT_TPUTTMPL_H
#define SIFT_TPUTTMPL_H

#include <stddef.h>
#include <stdint.h>

/* The template of s[0, len): a hash of its words (runs of letters and '_') in order. Numbers,
 * a bar's drawing and spacing are not in it; nor is a letter alone right after a digit (an
 * exponent's e, a K or M suffix, "12.3s"), which is the number's own. Never 0. */
uint64_t tputtmpl_hash(const char *s, size_t len);

/* The name of the figure that starts at s[at]: its key written before it ("loss: 3",
 * "wps=12", "| tokens/s 12"), else the unit written after it ("12.3 it/s", "44.1it/s"),
 * into out (NUL-ended, at most cap - 1 bytes); its length, 0 when there is none. */
size_t tputtmpl_key(const char *s, size_t len, size_t at, char *out, size_t cap);

/* One template's figures of one unit as first seen: the example --explain shows. */
enum { TPUTTMPL_EXAMPLE_MAX = 200, TPUTTMPL_KEY_MAX = 48 };
struct tputtmpl_seen {
	uint64_t tmpl;
	int unit;
	unsigned long lineno;      /* where it was first seen */
	char key[TPUTTMPL_KEY_MAX];
	char example[TPUTTMPL_EXAMPLE_MAX + 4];  /* longer ones end in "..." */
};

/* The templates seen, found by template and unit (their bytes interned: an id is an index
 * of seen); sized from what it holds. Zeroed is empty. */
struct tputtmpl_set {
	struct tputtmpl_seen *seen;
	size_t n, cap;
	struct intern *keys;
};
void tputtmpl_set_free(struct tputtmpl_set *set);
/* Note the figure of unit at column at of the frame s[0, len) of template tmpl on line
 * lineno: kept with its example and key the first time the pair is seen. */
void tputtmpl_note(struct tputtmpl_set *set, uint64_t tmpl, int unit, unsigned long lineno, const char *s,
		   size_t len, size_t at);
/* The pair as first seen; NULL when never noted. */
const struct tputtmpl_seen *tputtmpl_find(const struct tputtmpl_set *set, uint64_t tmpl, int unit);

#endif
