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

#define RX_MATCH_LIMIT 10000000u
#define RX_DEPTH_LIMIT 100000u

#endif
