/* tputrule: the rules a reader was given and the search for their literals. */
#include "tputrule.h"
#include "err.h"
#include "tputbyte.h"
#include "tputkey.h"
#include "tputnorm.h"
#include "xalloc.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void rule_groups(struct tputrule *r)
{
	r->g_tput = rx_group_index(r->re, "tput");
	r->g_unit = rx_group_index(r->re, "unit");
	r->g_step = rx_group_index(r->re, "step");
	r->g_time = rx_group_index(r->re, "time");
	r->g_loss = rx_group_index(r->re, "loss");
	r->g_rank = rx_group_index(r->re, "rank");
	r->g_total = rx_group_index(r->re, "total");
}

static void fix_unit(struct tputrule *r)
{
	if (r->unit && !tputunit_parse(r->unit, strlen(r->unit), &r->fixed_unit, &r->fixed_scale,
					&r->fixed_invert))
		abort();  /* built in: every preset's unit is in the table */
}

static struct tputrule *new_rule(struct tputrule_set *set)
{
	set->rules = xgrow(set->rules, &set->cap, set->n + 1, sizeof *set->rules);
	struct tputrule *r = &set->rules[set->n++];
	memset(r, 0, sizeof *r);
	r->time_scale = 1;
	r->preset = -1;
	return r;
}

/* The rule's literals: those of lits[0, max) up to a NULL, as many as there are. */
static void rule_literals(struct tputrule *r, const char *const *lits, size_t max)
{
	size_t n = 0;
	while (n < max && lits[n])
		n++;
	r->literals = xmalloc((n ? n : 1) * sizeof *r->literals);
	r->litlen = xmalloc((n ? n : 1) * sizeof *r->litlen);
	for (r->nlits = 0; r->nlits < n; r->nlits++) {
		r->literals[r->nlits] = lits[r->nlits];
		r->litlen[r->nlits] = strlen(lits[r->nlits]);
	}
}

void tputrule_add_preset(struct tputrule_set *set, size_t index)
{
	const struct tput_preset *p = &tputpreset_table[index];
	char err[256];
	if (p->reader == TPUT_READ_KV && p->literals[0]) {
		struct tputrule *r = new_rule(set);
		r->preset = (long)index;
		r->reader = TPUT_READ_KV;
		r->thin = 1;
		r->per_device = p->per_device;
		r->prefix_step = p->prefix_step;
		r->g_tput = r->g_unit = r->g_step = r->g_time = r->g_loss = r->g_rank = r->g_total = -1;
		r->name = xstrndup(p->name, strlen(p->name));
		rule_literals(r, p->literals, sizeof p->literals / sizeof p->literals[0]);
		r->unit = "value";
		fix_unit(r);
		return;
	}
	if (p->reader == TPUT_READ_KV) {
		struct tputrule *r = new_rule(set);
		r->preset = (long)index;
		r->reader = TPUT_READ_KV;
		r->g_tput = r->g_unit = r->g_step = r->g_time = r->g_loss = r->g_rank = r->g_total = -1;
		r->name = xstrndup(p->name, strlen(p->name));
		rule_literals(r, tputkv_literals, SIZE_MAX);
		r->unit = "value";
		fix_unit(r);
		set->kv = (int)(set->n - 1);
		return;
	}
	rx *re = rx_compile(p->pattern, strlen(p->pattern), err, sizeof err);
	if (!re) {  /* built in: a broken preset is a bug, caught by the tests */
		err_warn("preset %s: %s", p->name, err);
		abort();
	}
	struct tputrule *r = new_rule(set);
	r->re = re;
	r->preset = (long)index;
	rule_groups(r);
	r->name = xstrndup(p->name, strlen(p->name));
	rule_literals(r, p->literals, sizeof p->literals / sizeof p->literals[0]);
	r->unit = p->unit;
	r->time_scale = p->time_scale;
	r->per_device = p->per_device;
	r->prefix_step = p->prefix_step;
	fix_unit(r);
}

int tputrule_add_regex(struct tputrule_set *set, const char *pattern, char *err, size_t errlen)
{
	rx *re = rx_compile(pattern, strlen(pattern), err, errlen);
	if (!re)
		return -1;
	if (rx_group_index(re, "tput") < 0) {
		snprintf(err, errlen, "pattern has no (?<tput>...) group");
		rx_free(re);
		return -1;
	}
	struct tputrule *r = new_rule(set);
	r->re = re;
	rule_groups(r);
	r->name = xstrndup("regex", 5);
	r->unit = "value";
	fix_unit(r);
	return 0;
}

int tputrule_has_literal(const struct tputrule *r, const char *s, size_t len)
{
	if (r->nlits == 0)
		return 1;
	for (size_t k = 0; k < r->nlits; k++)
		if (memmem(s, len, r->literals[k], r->litlen[k]))
			return 1;
	return 0;
}

/* A unit of a noun and a time that a bar names itself (tqdm's unit="batch": "178.60batch/s",
 * "1.70s/batch"): a step's noun gives it/s either way, as "it/s" and "s/it" do. */
static int composed_unit(const char *g, size_t gl, enum tput_unit *unit, double *scale, int *invert)
{
	char low[32];
	struct tputkey_unit cu;
	if (gl >= sizeof low)
		return 0;
	/* a bar's unit of two words ("s/Train batch", tqdm's unit named so): the last names it */
	const char *sp = memchr(g, ' ', gl);
	size_t n = 0;
	for (size_t i = 0; i < gl; i++) {
		if (sp && g + i == (g[0] == 's' && g[1] == '/' ? g + 2 : g))
			i = (size_t)(sp - g) + 1;
		low[n++] = (char)(g[i] >= 'A' && g[i] <= 'Z' ? g[i] + 32 : g[i]);
	}
	if (!tputkey_compose(low, n, &cu))
		return 0;
	if (cu.cls == KV_TIME) {  /* ms a step: steps a second, inverted */
		*unit = TPUT_IT_S;
		*scale = 1000 / cu.scale;
		*invert = 1;
	} else {
		*unit = tputkey_unit_of(cu.cls, cu.gpu);
		*scale = cu.scale;
		*invert = cu.invert;
	}
	return 1;
}

enum tput_result tputrule_take(const struct tputrule *r, long rank, double time, struct tput_point *pt, char *why,
			       size_t whylen)
{
	const char *g;
	size_t gl;
	double v;
	*pt = (struct tput_point){ rank, -1, time, NAN, TPUT_VALUE, NAN, 0, 0, 0, 0 };
	enum tput_unit unit = TPUT_VALUE;
	double scale = 1;
	int invert = 0;
	if (rx_group_at(r->re, r->g_unit, &g, &gl)) {
		if (!tputunit_parse(g, gl, &unit, &scale, &invert) && !composed_unit(g, gl, &unit, &scale, &invert)) {
			snprintf(why, whylen, "unknown unit '%.*s'", (int)(gl > 40 ? 40 : gl), g);
			return TPUT_BAD;
		}
	} else {
		unit = r->fixed_unit;
		scale = r->fixed_scale;
		invert = r->fixed_invert;
	}
	pt->unit = unit;
	if (!rx_group_at(r->re, r->g_tput, &g, &gl)) {
		snprintf(why, whylen, "no throughput in the match");
		return TPUT_BAD;
	}
	enum tput_num num = tputunit_number(g, gl, &v);
	if (num == TPUT_NUM_NAN)
		return TPUT_NAN;
	if (num == TPUT_NUM_BAD || v < 0 || (invert && v == 0)) {
		snprintf(why, whylen, "bad throughput '%.*s'", (int)(gl > 40 ? 40 : gl), g);
		return TPUT_BAD;
	}
	pt->value = (invert ? 1 / v : v) * scale;
	/* Steps and ranks too big for their type stay unknown: the cast would be undefined. */
	if (rx_group_at(r->re, r->g_step, &g, &gl) && tputunit_number(g, gl, &v) == TPUT_NUM_OK &&
	    fabs(v) < (double)LLONG_MAX)
		pt->step = (long long)v;
	if (rx_group_at(r->re, r->g_loss, &g, &gl) && tputunit_number(g, gl, &v) == TPUT_NUM_OK)
		pt->loss = v;
	if (rx_group_at(r->re, r->g_rank, &g, &gl) && tputunit_number(g, gl, &v) == TPUT_NUM_OK &&
	    fabs(v) < (double)LONG_MAX)
		pt->rank = (long)v;
	if (rx_group_at(r->re, r->g_time, &g, &gl)) {
		if (tputunit_number(g, gl, &v) == TPUT_NUM_OK)
			pt->time = v * r->time_scale;
		else if (tputnorm_timestamp(g, gl, &v) > 0)
			pt->time = v;
	}
	/* A progress bar's closing frame (N/N) shows its average over the run, not a step. */
	if (rx_group_at(r->re, r->g_total, &g, &gl) && tputunit_number(g, gl, &v) == TPUT_NUM_OK &&
	    pt->step >= 0 && (double)pt->step == v) {
		snprintf(why, whylen, "a closing frame: the bar's average over the run");
		return TPUT_NOMATCH;
	}
	return TPUT_POINT;
}

void tputrule_init(struct tputrule_set *set)
{
	memset(set, 0, sizeof *set);
	set->literals = lit_new();
	set->cursor = lit_cursor_new(set->literals);
	set->kv = -1;
	set->shapes = xcalloc(TPUTBYTE_SETS, sizeof *set->shapes);
}

void tputrule_free(struct tputrule_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		if (set->rules[i].re)
			rx_free(set->rules[i].re);
		free(set->rules[i].name);
		free(set->rules[i].literals);
		free(set->rules[i].litlen);
	}
	free(set->rules);
	lit_cursor_free(set->cursor);
	lit_free(set->literals);
	free(set->shapes);
	free(set->shape_masks);
	free(set->unfiltered);
	free(set->line_mask);
	free(set->join_mask);
}

/* Masks one bit per rule now that the rules are known; every shape is read anew. */
static void size_masks(struct tputrule_set *set)
{
	size_t words = set->n / 64 + 1, slots = TPUTBYTE_SETS * 2;
	set->words = words;
	free(set->shape_masks);
	free(set->unfiltered);
	free(set->line_mask);
	free(set->join_mask);
	set->shape_masks = xcalloc(slots * words, sizeof *set->shape_masks);
	set->unfiltered = xcalloc(words, sizeof *set->unfiltered);
	set->line_mask = xcalloc(words, sizeof *set->line_mask);
	set->join_mask = xcalloc(words, sizeof *set->join_mask);
	memset(set->shapes, 0, TPUTBYTE_SETS * sizeof *set->shapes);
	for (size_t k = 0; k < slots; k++)
		set->shapes[k / 2][k % 2].mask = set->shape_masks + k * words;
	set->any_unfiltered = 0;
	for (size_t i = 0; i < set->n; i++)
		if (set->rules[i].nlits == 0) {
			set->unfiltered[i >> 6] |= 1ULL << (i & 63);
			set->any_unfiltered = 1;
		}
}

void tputrule_sync(struct tputrule_set *set)
{
	if (set->lit_rules == set->n)
		return;
	size_t total = 0;
	for (size_t i = set->lit_rules; i < set->n; i++)
		total += set->rules[i].nlits;
	const char **texts = xmalloc((total + 1) * sizeof *texts);
	size_t *lens = xmalloc((total + 1) * sizeof *lens);
	unsigned *ids = xmalloc((total + 1) * sizeof *ids);
	size_t k = 0;
	for (size_t i = set->lit_rules; i < set->n; i++)
		for (size_t j = 0; j < set->rules[i].nlits; j++, k++) {
			texts[k] = set->rules[i].literals[j];
			lens[k] = set->rules[i].litlen[j];
			ids[k] = (unsigned)i;
		}
	lit_add_many(set->literals, total, texts, lens, ids);
	size_masks(set);  /* the shapes' rules are the old ones' */
	set->shapes_ok = 1;
	set->rx_blind = 1;
	for (size_t i = 0; i < set->n; i++)
		if (set->rules[i].re && !rx_digit_blind(set->rules[i].re))
			set->rx_blind = 0;
	for (size_t i = 0; i < set->n; i++)
		for (size_t j = 0; j < set->rules[i].nlits; j++)
			if (tputbyte_has_digit(set->rules[i].literals[j], set->rules[i].litlen[j]))
				set->shapes_ok = 0;
	free(texts);
	free(lens);
	free(ids);
	set->lit_rules = set->n;
}

size_t tputrule_find(const struct tputrule_set *set, const char *s, size_t len, size_t *rule)
{
	unsigned id = 0;
	size_t at = lit_find(set->literals, s, len, &id);
	*rule = id;
	return at;
}

size_t tputrule_next(struct tputrule_set *set, const char *text, const char *p, const char *end, size_t *rule)
{
	unsigned id = 0;
	size_t at = lit_cursor_find(set->cursor, (size_t)(p - text), &id);
	*rule = id;
	return at == (size_t)(end - text) ? (size_t)(end - p) : at - (size_t)(p - text);
}

int tputrule_in_line(const struct tputrule_set *set, const char *s, size_t len, size_t hit, size_t rule,
		     uint64_t *mask)
{
	memcpy(mask, set->unfiltered, set->words * sizeof *mask);
	if (hit >= len)
		return set->any_unfiltered;
	mask[rule >> 6] |= 1ULL << (rule & 63);
	for (size_t from = hit + 1; from < len;) {
		size_t more = tputrule_find(set, s + from, len - from, &rule);
		if (more == len - from)
			break;
		mask[rule >> 6] |= 1ULL << (rule & 63);
		from += more + 1;
	}
	return 1;
}

const uint64_t *tputrule_line(struct tputrule_set *set, const char *s, size_t len, int *known,
			      struct tputrule_shape **shape)
{
	size_t rule, hit;
	*known = 0;
	*shape = NULL;
	if (len > TPUTRULE_SHAPE_MAX) {
		hit = tputrule_find(set, s, len, &rule);
		return tputrule_in_line(set, s, len, hit, rule, set->line_mask) ? set->line_mask : NULL;
	}
	char text[TPUTRULE_SHAPE_MAX];
	tputbyte_shape(s, len, text);
	struct tputrule_shape *ways = set->shapes[tputbyte_set(text, len)];
	for (int w = 0; w < 2; w++)
		if (ways[w].len == len && memcmp(ways[w].text, text, len) == 0) {
			*known = 1;
			*shape = &ways[w];
			return ways[w].any ? ways[w].mask : NULL;
		}
	uint64_t *mask = ways[1].mask;  /* the evicted way's room */
	ways[1] = ways[0];
	ways[0].mask = mask;
	ways[0].len = (uint32_t)len;
	ways[0].frame = NULL;
	ways[0].rx_rule = 0;
	ways[0].context = -1;
	memcpy(ways[0].text, text, len);
	hit = tputrule_find(set, s, len, &rule);
	*shape = &ways[0];
	ways[0].any = tputrule_in_line(set, s, len, hit, rule, mask);
	return ways[0].any ? mask : NULL;
}

