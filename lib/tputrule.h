/* tputrule: the records stage's rules: the presets and --regex patterns a reader was given,
 * their literals searched for all at once, and which rules a line (by its shape, every digit
 * a '0') holds the literals of. Rules are any in number: a mask has a bit per rule. */
#ifndef SIFT_TPUTRULE_H
#define SIFT_TPUTRULE_H

#include <stddef.h>
#include <stdint.h>

#include "lit.h"
#include "rx.h"
#include "tputkv.h"
#include "tputpreset.h"
#include "tputunit.h"

struct tputrule {
	rx *re;
	char *name;
	long preset;           /* index in tputpreset_table; -1 for a custom pattern */
	const char **literals; /* nlits of them, as many as the preset or the reader names; none:
				* every line is the rule's (a custom pattern) */
	size_t *litlen;
	size_t nlits;
	enum tput_reader reader;
	int thin;              /* a framework's lines (its literals) read by the key/value reader */
	int per_device;
	int prefix_step;           /* tput_preset's */
	const char *unit;
	enum tput_unit fixed_unit;  /* unit, scale and inversion of `unit`, read once */
	double fixed_scale;
	int fixed_invert;
	double time_scale;
	int g_tput, g_unit, g_step, g_time, g_loss, g_rank, g_total;  /* group numbers, -1 when absent */
};

/* A line's shape (every digit a '0') and the rules whose literals it holds: most lines of
 * a log come in a few shapes, and looking one up costs less than searching the line. */
enum { TPUTRULE_SHAPE_MAX = 384, TPUTRULE_MEMO_PAIRS = 10 };
struct tputrule_shape {
	uint32_t len;              /* 0: empty */
	uint64_t *mask;            /* the rules (tputrule_set.words words), owned by the set */
	int any;                   /* a bit of mask is set */
	/* the key/value reader's shape of the line's frame s[frame_at, frame_at + frame_len):
	 * a line of this shape has a frame of that shape there, while the reading is kept */
	struct tputkv_shape *frame;
	uint64_t frame_serial;
	uint32_t frame_at, frame_len;
	/* how the regex rules read the line's one frame s[rx_at, rx_at + rx_len) when their
	 * patterns are digit-blind: 0 not yet, 1 none matched, 2 + i rule i with these groups */
	size_t rx_rule;
	uint32_t rx_at, rx_len;
	unsigned short rx_spans[2 * TPUTRULE_MEMO_PAIRS];
	size_t rx_npairs;
	/* the training context of the frame s[ctx_at, ctx_at + ctx_len) when its shape tells it:
	 * -1 not known */
	signed char context;
	uint32_t ctx_at, ctx_len;
	char text[TPUTRULE_SHAPE_MAX];
};

struct tputrule_set {
	struct tputrule *rules;
	size_t n, cap;
	lit_set *literals;         /* every rule's, the rule's index as id */
	lit_cursor *cursor;        /* the search through a block, each byte looked at once */
	size_t lit_rules;          /* rules whose literals are in the set: the others are added at
				    * the next tputrule_sync, all at once */
	int kv;                    /* index of the key/value reader's rule, -1 when not added */
	int shapes_ok;             /* no literal has a digit: a line's shape tells its rules */
	int rx_blind;              /* every pattern digit-blind: a line's shape tells its matches */
	size_t words;              /* a mask's words: one bit per rule */
	uint64_t *unfiltered;      /* the rules without literals: every line is theirs */
	int any_unfiltered;
	uint64_t *line_mask, *join_mask; /* masks being built for a line, and for a joined record */
	struct tputrule_shape (*shapes)[2];
	uint64_t *shape_masks;     /* the shapes' masks */
};

static inline int tputrule_bit(const uint64_t *mask, size_t rule) { return mask[rule >> 6] >> (rule & 63) & 1; }

/* Has mask a rule with literals (not only those without)? */
static inline int tputrule_any_literal(const struct tputrule_set *set, const uint64_t *mask)
{
	for (size_t w = 0; w < set->words; w++)
		if (mask[w] & ~set->unfiltered[w])
			return 1;
	return 0;
}

void tputrule_init(struct tputrule_set *set);
void tputrule_free(struct tputrule_set *set);
/* Rules are tried in the order added. */
void tputrule_add_preset(struct tputrule_set *set, size_t index);
/* A custom rule; -1 with a message in err on a bad pattern or no tput group. */
int tputrule_add_regex(struct tputrule_set *set, const char *pattern, char *err, size_t errlen);
/* Before a search: the literals of the rules added since the last one into the search. */
void tputrule_sync(struct tputrule_set *set);
/* Does s[0, len) hold one of r's literals (or has r none)? */
int tputrule_has_literal(const struct tputrule *r, const char *s, size_t len);
/* Leftmost literal of any rule in s[0, len): its offset (len when none), its rule in *rule. */
size_t tputrule_find(const struct tputrule_set *set, const char *s, size_t len, size_t *rule);
/* The same on a block (text, started with lit_cursor_start on set->cursor) from p on: the
 * offset from p (end - p when none). */
size_t tputrule_next(struct tputrule_set *set, const char *text, const char *p, const char *end, size_t *rule);
/* The rules whose literals s[0, len) holds, the first found at offset hit for rule (hit ==
 * len: none), and the unfiltered rules, into mask; 1 when there is one. */
int tputrule_in_line(const struct tputrule_set *set, const char *s, size_t len, size_t hit, size_t rule,
		     uint64_t *mask);
/* The rules of the line s[0, len), by its shape when seen before (*known then 1); *shape is
 * its entry (NULL when too long to keep). The mask, or NULL when no rule is the line's. */
const uint64_t *tputrule_line(struct tputrule_set *set, const char *s, size_t len, int *known,
			      struct tputrule_shape **shape);
/* Rule r's match (rx_match_groups or rx_set_spans done) as a point of rank and time (NaN:
 * unknown); the result kind, and a reason in why when it is no point. */
enum tput_result tputrule_take(const struct tputrule *r, long rank, double time, struct tput_point *pt, char *why,
			       size_t whylen);

#endif
