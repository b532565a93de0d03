/* lit: find any of a few literal strings in a buffer, SIMD-fast where the CPU allows. */
#ifndef SIFT_LIT_H
#define SIFT_LIT_H

#include <stddef.h>

typedef struct lit_set lit_set;

lit_set *lit_new(void);
/* For tests: a set that always uses the portable scalar search, whatever the CPU; and one
 * that uses no more than SSE2/SSSE3 (the paths of CPUs without AVX2). */
lit_set *lit_new_portable(void);
lit_set *lit_new_sse(void);
void lit_free(lit_set *set);
/* Add a literal of 1 to 255 bytes (any bytes, NUL included) with the caller's id.
 * Adding after the first lit_find is allowed (the set re-prepares itself). */
void lit_add(lit_set *set, const char *text, size_t len, unsigned id);
/* n literals, as lit_add on each in turn, but the set is prepared once (preparing for
 * Teddy's buckets costs more than any one search of a line). */
void lit_add_many(lit_set *set, size_t n, const char *const *texts, const size_t *lens, const unsigned *ids);
size_t lit_count(const lit_set *set);
/* Offset of the leftmost occurrence of any literal in text[0, len), with that literal's id
 * in *id (when several literals start at that offset, the one added first); len when none.
 * An empty set finds nothing. text need not be NUL-terminated and is never read outside
 * [text, text + len). */
size_t lit_find(const lit_set *set, const char *text, size_t len, unsigned *id);

/* A search that walks forward through one text: each call answers as lit_find on the text
 * from an offset on would, but the bytes already looked at are not looked at again (a
 * caller going from hit to hit would search each block once per hit). Between calls the
 * caller may change the text only before the offset it asks from next. */
typedef struct lit_cursor lit_cursor;
lit_cursor *lit_cursor_new(const lit_set *set);
void lit_cursor_free(lit_cursor *cur);
/* Start on another text (the set must not change while the cursor is used). */
void lit_cursor_start(lit_cursor *cur, const char *text, size_t len);
/* Offset in the text (not from `from`) of the leftmost literal starting at or after from,
 * its id in *id; the text's length when none. */
size_t lit_cursor_find(lit_cursor *cur, size_t from, unsigned *id);

#endif
