/* tput: throughput extraction from training logs: the extractor that runs each line through the
 * stages (tputnorm, tputrec, tputrule, tputkv, tputkey, tputctx, tputunit, tputbar). */
#ifndef SIFT_TPUT_H
#define SIFT_TPUT_H

#include <stddef.h>
#include <stdint.h>

#include "tputbar.h"
#include "tputctx.h"
#include "tputkv.h"
#include "tputnorm.h"
#include "tputpreset.h"
#include "tputrec.h"
#include "tputtmpl.h"
#include "tputunit.h"

typedef struct tput_ex tput_ex;

tput_ex *tput_ex_new(void);
void tput_ex_free(tput_ex *ex);
/* Rules are tried in the order added; the first that matches a frame wins. */
void tput_ex_add_preset(tput_ex *ex, size_t index);
/* A custom rule; returns -1 with a message in err on a bad pattern or no tput group. */
int tput_ex_add_regex(tput_ex *ex, const char *pattern, char *err, size_t errlen);
/* The same rules compiled again: one extractor runs on one thread at a time. */
tput_ex *tput_ex_clone(const tput_ex *ex);
size_t tput_ex_rules(const tput_ex *ex);
const char *tput_ex_rule_name(const tput_ex *ex, size_t rule);
/* One input line (modified in place): ANSI stripped, rank and timestamp prefixes read,
 * "\r"-joined frames split; sink gets one call per figure, sorted by unit within a line.
 * The extractor remembers the lines before (a record header's step and time, the last step
 * per unit to drop unprefixed rank copies and redraws); line number 1, or a number not past
 * the last one looked at, starts another input and forgets them. */
void tput_ex_line(tput_ex *ex, char *text, size_t len, unsigned long lineno, tput_sink *sink,
		  void *ctx);
/* A block of whole lines (in_next_block's: each ends in "\n" or "\r\n" but perhaps the
 * last), the first numbered lineno: each line as tput_ex_line takes it, but a record
 * hard-wrapped over lines of the block (a terminal's width, continuation lines without the
 * log's prefix) is read as one line, numbered by its first. Lines without a rule's literal
 * are skipped by a search over the whole block, not looked at one by one.
 * Returns the block's "\n" count (for in_block_lines). */
size_t tput_ex_block(tput_ex *ex, char *text, size_t len, unsigned long lineno, tput_sink *sink,
		   void *ctx);
/* The input ended. A progress bar's frame is held back until its bar shows a later frame
 * (a bar seen once, a data preparation bar caught mid-way, is no training series); one
 * still held now goes to sink when no bar of the input showed two frames (it is then all
 * there is), else it is dropped. Frames the bars repeat later are copies. */
void tput_ex_finish(tput_ex *ex, tput_sink *sink, void *ctx);
/* Lines seen so far whose throughput was inference (serving, generation), not training: a
 * caller that found no point says "no training throughput (N inference lines seen)". */
size_t tput_ex_inference_lines(const tput_ex *ex);
/* A template's figures of one unit as the extractor first saw them (its key and an
 * example); NULL when it saw none. */
const struct tputtmpl_seen *tput_ex_template(const tput_ex *ex, uint64_t tmpl, int unit);
/* Figures dropped as copies: an unprefixed rank's repeat of the step just seen, or a redraw
 * of the same frame. The caller may count them with the prefixed ranks' duplicates. */
size_t tput_ex_copies(const tput_ex *ex);
/* Is a progress bar's frame held, waiting for lines after the last one read? */
int tput_ex_holding(const tput_ex *ex);

#endif
