/* rules: category rules (CATEGORY PATTERN lines) and the per-frame cache that applies them to stacks. */
#ifndef SIFT_RULES_H
#define SIFT_RULES_H

#include <stddef.h>
#include <stdint.h>

#include "intern.h"

#define RULES_NONE UINT32_MAX

typedef struct rules rules;

rules *rules_new(void);
void rules_free(rules *r);
/* The same rules and category ids with their patterns compiled again, to match on
 * another thread. */
rules *rules_clone(const rules *r);

/* Add the rules in text (a whole rules file named name). Returns 0, or -1 with
 * "NAME:LINE: reason" in errbuf (a bad pattern: "NAME:LINE: pattern error at offset N: ...").
 * Files added one after another keep file order: earlier rules win ties on one frame. */
int rules_add_text(rules *r, const char *name, const char *text, size_t len, char *errbuf, size_t errlen);
/* Read a rules file (or "-") through the input module and add it; -1 when it cannot be
 * read (already reported, errbuf empty) or does not parse (errbuf says why). */
int rules_add_file(rules *r, const char *path, char *errbuf, size_t errlen);
/* The built-in PyTorch/CUDA rule set (docs/rules/pytorch-cuda.rules, compiled in). */
void rules_add_default(rules *r);
const char *rules_default_text(void);

size_t rules_count(const rules *r);
/* Categories: "other" (always id 0), then the others in order of first appearance. */
size_t rules_category_count(const rules *r);
const char *rules_category_name(const rules *r, uint32_t id, size_t *len);
uint32_t rules_other(const rules *r);

/* The category of the first rule (in file order) matching frame, or RULES_NONE. */
uint32_t rules_match(rules *r, const char *frame, size_t len);

/* Classifies stacks of frame ids from one frame table. Each distinct frame is matched
 * once, when first seen, and its answer kept by frame id. */
typedef struct rules_cache rules_cache;

/* With inclusive, frames are also matched against every rule (for rules_stack_all). */
rules_cache *rules_cache_new(rules *r, const intern *frames, int inclusive);
void rules_cache_free(rules_cache *c);
/* How many distinct frames have been matched against the rules so far. */
size_t rules_cache_matched(const rules_cache *c);

/* The stack's category: that of its leaf-most matching frame; "other" when none. */
uint32_t rules_stack(rules_cache *c, const uint32_t *ids, size_t n);
/* Every category any frame of the stack matches, each once, into out (room for
 * rules_category_count); "other" alone when none. Needs an inclusive cache. */
size_t rules_stack_all(rules_cache *c, const uint32_t *ids, size_t n, uint32_t *out);

/* Options every classifying tool shares: --rules FILE (repeatable). */
struct rules_opts {
	const char **files;
	size_t nfiles, cap;
	int inclusive;
};
enum { RULES_OPT_FILE = 0x1100, RULES_OPT_INCLUSIVE };
#define RULES_FILE_ROW \
	CLI_ROW_STR("rules", RULES_OPT_FILE, "FILE", \
		    "category rules, repeatable, read in order (default: the built-in set)")
#define RULES_INCLUSIVE_ROW \
	CLI_ROW_FLAG("inclusive", RULES_OPT_INCLUSIVE, \
		     "category totals count a stack in every category any frame matches")

/* Handle key if it is one of the rows above: 1 handled, 0 not ours. */
int rules_opts_handle(struct rules_opts *o, int key, const char *value);
/* The files given, or the default set; NULL, said on stderr, for a file that cannot be read
 * or parsed (a usage error: the tool exits 2). */
rules *rules_opts_load(const struct rules_opts *o);
void rules_opts_free(struct rules_opts *o);

#endif
