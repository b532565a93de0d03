/* rx: PCRE2 patterns compiled with JIT, matched under match and depth limits. */
#ifndef SIFT_RX_H
#define SIFT_RX_H

#include <stddef.h>

typedef struct rx rx;

/* Compile; on error returns NULL and writes "pattern error at offset N: message"
 * into errbuf. */
rx *rx_compile(const char *pattern, size_t len, char *errbuf, size_t errlen);
void rx_free(rx *re);
/* The same pattern compiled again: one rx matches on one thread at a time. */
rx *rx_clone(const rx *re);
const char *rx_pattern(const rx *re);

/* 1 match, 0 no match, -1 the match limit was hit or another matching error
 * (errbuf says which). */
int rx_match(rx *re, const char *subject, size_t len, char *errbuf, size_t errlen);

/* As rx_match, and keep the captures for rx_group; subject must outlive them. */
int rx_match_groups(rx *re, const char *subject, size_t len, char *errbuf, size_t errlen);
/* After a successful rx_match_groups: group by name; 0 when unset. */
int rx_group(const rx *re, const char *name, const char **start, size_t *len);
/* The number of a named group (-1 when none), looked up once; rx_group_at then skips
 * the name table on every match. */
int rx_group_index(const rx *re, const char *name);
int rx_group_at(const rx *re, int number, const char **start, size_t *len);

/* Does the pattern treat the ten ASCII digits alike (no digit in it but "0-9" in a class and
 * counts in a quantifier, no back reference)? Then a text that differs from another only in
 * which digits it holds matches as that one does, with its groups at the same offsets: the
 * groups of one match may stand for the other's (rx_spans, rx_set_spans). */
int rx_digit_blind(const rx *re);

/* After a successful rx_match_groups: its groups as offsets in the subject, pairs of start
 * and end (RX_SPAN_UNSET both when unset) in out[0, 2 * max); the number of pairs, 0 when
 * there are more than max or an offset does not fit. */
#define RX_SPAN_UNSET 0xffffu
size_t rx_spans(const rx *re, unsigned short *out, size_t max);
/* As if rx_match_groups had matched subject with the groups spans[0, 2 * npairs). */
void rx_set_spans(rx *re, const char *subject, const unsigned short *spans, size_t npairs);

#define RX_MATCH_LIMIT 10000000u
#define RX_DEPTH_LIMIT 100000u

#endif
