/* rankname: a process's rank and kind read from its text (process title, --local_rank,
 * label, command line), numbers as ranges, and the small string builder they write into. */
#ifndef SIFT_RANKNAME_H
#define SIFT_RANKNAME_H

#include <stddef.h>

/* A growing string, NUL-terminated once anything is put; { 0 } is empty; free(b.s). */
struct rankname_sb { char *s; size_t len, cap; };

void rankname_put(struct rankname_sb *b, const char *s, size_t n);
void rankname_str(struct rankname_sb *b, const char *s);
void rankname_printf(struct rankname_sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The decimal number s is (at most 9 digits), or -1. */
long long rankname_number(const char *s, size_t len);
/* The number a text ends in ("rank3", "default3", "3"), or -1. */
long long rankname_trailing_number(const char *s, size_t len);
/* A setproctitle name's rank parts (sglang::scheduler_DP3_TP3_EP3, VLLM::Worker_PP1_TP0):
 * the name without EP ("DP3_TP3") into name (emptied first), the TP (else DP) number into
 * num unless PP splits them. Returns the offset of the '_' before the parts (the kind's
 * end), or 0 when there are none. */
size_t rankname_title(const char *cmd, size_t len, struct rankname_sb *name, long long *num);
/* --local_rank=N, --local-rank N, --node-rank N, --node_rank=N in a command line: N
 * appended to name and into num; 0 when none is. */
int rankname_flag(const char *cmd, size_t len, struct rankname_sb *name, long long *num);
/* The command line's first word is a python program (/usr/bin/python3.11). */
int rankname_is_python(const char *tok, size_t len);
/* What kind of process a command line is, in words, appended to out: the title without
 * its rank parts (sglang::scheduler), a Python script or -m module, else the program's name. */
void rankname_kind_label(const char *cmd, size_t len, struct rankname_sb *out);
/* A command line's kind key into key (len bytes at most): each run of digits one '#', so
 * rank 9 and rank 10 are alike. Returns its length. */
size_t rankname_kind_key(const char *cmd, size_t len, char *key);
/* "0-4,6-7": sorted numbers with runs as ranges, into buf (NUL-terminated, cut to cap). */
size_t rankname_ranges(const unsigned long long *sorted, size_t n, char *buf, size_t cap);
/* Texts as a list appended to out: the numbers among them sorted as ranges ("575-582"),
 * then the texts that are no number, each once, in order, comma-separated. */
void rankname_list(const char *const *s, const size_t *lens, size_t n, struct rankname_sb *out);

#endif
