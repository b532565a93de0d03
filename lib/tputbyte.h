/* tputbyte: the bytes of a log line as sift-tput's stages see them: classes, the next digit,
 * a line's shape (every digit a '0') and the set a shape or key is kept in. */
#ifndef SIFT_TPUTBYTE_H
#define SIFT_TPUTBYTE_H

#include <stddef.h>

static inline int tputbyte_digit(char c) { return (unsigned char)(c - '0') < 10; }
static inline int tputbyte_alpha(char c) { return (unsigned char)((c | 32) - 'a') < 26; }
static inline int tputbyte_alnum(char c) { return tputbyte_digit(c) || tputbyte_alpha(c); }
/* A byte of a word: a letter, a digit or '_'. */
static inline int tputbyte_word(char c) { return tputbyte_alnum(c) || c == '_'; }
/* Where a key read backwards from its figure ends: , | ; { } [ ] ' " tab : = < > * */
static inline int tputbyte_key_stop(char c)
{
	switch (c) {
	case ',': case '|': case ';': case '{': case '}': case '[': case ']': case '\'': case '"':
	case '\t': case ':': case '=': case '<': case '>': case '*':
		return 1;
	default:
		return 0;
	}
}

/* The first digit in s[i, len), len when none. */
size_t tputbyte_next_digit(const char *s, size_t len, size_t i);
static inline int tputbyte_has_digit(const char *s, size_t len) { return tputbyte_next_digit(s, len, 0) < len; }
/* s[0, len) with every digit a '0', into out (len bytes): the line's shape. */
void tputbyte_shape(const char *s, size_t len, char *out);

/* Caches of shapes and keys are TPUTBYTE_SETS two-way sets. */
enum { TPUTBYTE_SETS = 128 };
/* Which of the TPUTBYTE_SETS sets key[0, len) (a key, a line's or a frame's shape) goes in. */
size_t tputbyte_set(const char *key, size_t len);

#endif
