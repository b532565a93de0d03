/* tputctx: the meaning stage's context words: a line of training, or of something else
 * (validation, evaluation, checkpoint I/O, downloads, tokenizing), or of inference. */
#ifndef SIFT_TPUTCTX_H
#define SIFT_TPUTCTX_H

#include <stddef.h>
#include <stdint.h>

/* Where a line stands: training, something else (validation, evaluation, checkpoint saving or
 * loading, downloads, tokenizing), or inference (prompt, generation, decode, requests). Whole
 * words, any case; "val_loss" is one word and leaves a training line alone. */
enum tput_context { TPUT_CTX_TRAIN, TPUT_CTX_OTHER, TPUT_CTX_INFERENCE };

/* Words are looked up only when shorter than this. */
enum { TPUTCTX_WORD_MAX = 16 };
/* Which lengths (bit n) the context words starting with each letter have: most words of a
 * line are none of them and are not compared. Built from the word lists, once per reader,
 * with the bytes of a word (tputbyte_word) as a table: every byte of a line is one. */
struct tputctx_words {
	uint16_t lens[26];
	unsigned char word[256];
};
void tputctx_init(struct tputctx_words *words);
/* The context of text[0, len). */
enum tput_context tputctx_read(const struct tputctx_words *words, const char *text, size_t len);
/* The same, and whether every text of its shape (its digits any others) has that context:
 * no word compared with the lists held a digit. */
enum tput_context tputctx_read_shaped(const struct tputctx_words *words, const char *text, size_t len,
				      int *by_shape);
/* The same with a table built for the one call (tests, a line read alone). */
enum tput_context tputctx_of(const char *text, size_t len);

#endif
