/* rules: parse rules files, match frames through rx, cache each frame's answer by frame id. */
#include "rules.h"
#include "err.h"
#include "input.h"
#include "rx.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rule {
	rx *re;
	uint32_t category;
};

struct rules {
	struct rule *rules;
	size_t nrules, cap;
	intern *categories;
};

/* Generated at build time from docs/rules/pytorch-cuda.rules (see GNUmakefile). */
static const char default_rules[] =
#include "../build/gen/rules-default.inc"
	;

rules *rules_new(void)
{
	rules *r = xcalloc(1, sizeof *r);
	r->categories = intern_new();
	intern_add(r->categories, "other", 5); /* id 0: stacks no rule matches */
	return r;
}

void rules_free(rules *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nrules; i++)
		rx_free(r->rules[i].re);
	free(r->rules);
	intern_free(r->categories);
	free(r);
}

rules *rules_clone(const rules *r)
{
	rules *copy = rules_new();
	for (uint32_t c = 1; c < intern_count(r->categories); c++) {
		size_t len;
		const char *name = intern_str(r->categories, c, &len);
		intern_add(copy->categories, name, len);
	}
	copy->rules = xmalloc((r->nrules + 1) * sizeof *copy->rules);
	copy->cap = r->nrules + 1;
	for (size_t i = 0; i < r->nrules; i++)
		copy->rules[i] = (struct rule){ rx_clone(r->rules[i].re), r->rules[i].category };
	copy->nrules = r->nrules;
	return copy;
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/* One line: blank, a comment, or CATEGORY PATTERN [# comment]. */
static int add_line(rules *r, const char *name, unsigned long lineno, const char *s, size_t len,
		    char *errbuf, size_t errlen)
{
	size_t i = 0;
	while (i < len && is_blank(s[i]))
		i++;
	if (i == len || s[i] == '#')
		return 0;
	size_t cat = i;
	while (i < len && !is_blank(s[i]))
		i++;
	size_t cat_len = i - cat;
	while (i < len && is_blank(s[i]))
		i++;
	/* A '#' after whitespace starts a trailing comment; patterns write it as \# or [#]. */
	size_t end = i;
	while (end < len && !(s[end] == '#' && is_blank(s[end - 1])))
		end++;
	while (end > i && is_blank(s[end - 1]))
		end--;
	if (end == i) {
		snprintf(errbuf, errlen, "%s:%lu: no pattern after category '%.*s'", name, lineno,
			 (int)cat_len, s + cat);
		return -1;
	}
	/* The category becomes a [category] frame in sift-tag's folded output. */
	for (size_t k = cat; k < cat + cat_len; k++) {
		if (s[k] == ';' || s[k] == '[' || s[k] == ']') {
			snprintf(errbuf, errlen, "%s:%lu: category '%.*s' may not hold ';', '[' or ']'",
				 name, lineno, (int)cat_len, s + cat);
			return -1;
		}
	}
	char msg[256];
	rx *re = rx_compile(s + i, end - i, msg, sizeof msg);
	if (!re) {
		snprintf(errbuf, errlen, "%s:%lu: %s", name, lineno, msg);
		return -1;
	}
	r->rules = xgrow(r->rules, &r->cap, r->nrules + 1, sizeof *r->rules);
	r->rules[r->nrules].re = re;
	r->rules[r->nrules].category = intern_add(r->categories, s + cat, cat_len);
	r->nrules++;
	return 0;
}

int rules_add_text(rules *r, const char *name, const char *text, size_t len, char *errbuf, size_t errlen)
{
	unsigned long lineno = 0;
	const char *p = text, *end = text + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *stop = nl ? nl : end;
		if (add_line(r, name, ++lineno, p, (size_t)(stop - p), errbuf, errlen) < 0)
			return -1;
		p = nl ? nl + 1 : end;
	}
	return 0;
}

int rules_add_file(rules *r, const char *path, char *errbuf, size_t errlen)
{
	size_t len;
	if (errlen)
		errbuf[0] = '\0';
	char *text = in_slurp(path, &len);
	if (!text)
		return -1;
	int rc = rules_add_text(r, strcmp(path, "-") ? path : "(stdin)", text, len, errbuf, errlen);
	free(text);
	return rc;
}

const char *rules_default_text(void) { return default_rules; }

void rules_add_default(rules *r)
{
	char msg[512];
	if (rules_add_text(r, "(built-in rules)", default_rules, sizeof default_rules - 1, msg, sizeof msg) < 0)
		err_exit(EXIT_DATA, "%s", msg); /* a build that ships a bad default is a bug */
}

size_t rules_count(const rules *r) { return r->nrules; }
size_t rules_category_count(const rules *r) { return intern_count(r->categories); }
uint32_t rules_other(const rules *r) { (void)r; return 0; }

const char *rules_category_name(const rules *r, uint32_t id, size_t *len)
{
	return intern_str(r->categories, id, len);
}

/* Match one rule. A pattern that hits its match or depth limit gives no answer: a
 * category guessed from it would be wrong, so stop and name the pattern and the frame. */
static int rule_matches(struct rule *rule, const char *frame, size_t len)
{
	char msg[512];
	int rc = rx_match(rule->re, frame, len, msg, sizeof msg);
	if (rc < 0)
		err_exit(EXIT_DATA, "rules: %s, on the frame '%.60s%s' (%zu bytes)", msg, frame,
			 len > 60 ? "..." : "", len);
	return rc == 1;
}

uint32_t rules_match(rules *r, const char *frame, size_t len)
{
	for (size_t i = 0; i < r->nrules; i++)
		if (rule_matches(&r->rules[i], frame, len))
			return r->rules[i].category;
	return RULES_NONE;
}

#define UNSEEN (RULES_NONE - 1)

struct rules_cache {
	rules *r;
	const intern *frames;
	int inclusive;
	uint32_t *first;       /* frame id -> category of its first matching rule, RULES_NONE, or UNSEEN */
	size_t cap;
	/* inclusive: frame id -> its matched categories, as [start, start + count) in cats */
	uint32_t *start, *count;
	uint32_t *cats;
	size_t ncats, cats_cap;
	uint64_t *stamp;       /* category -> last stack counted, to list each once */
	uint64_t stacks;
	size_t matched;
};

rules_cache *rules_cache_new(rules *r, const intern *frames, int inclusive)
{
	rules_cache *c = xcalloc(1, sizeof *c);
	c->r = r;
	c->frames = frames;
	c->inclusive = inclusive;
	c->stamp = xcalloc(rules_category_count(r), sizeof *c->stamp);
	return c;
}

void rules_cache_free(rules_cache *c)
{
	if (!c)
		return;
	free(c->first);
	free(c->start);
	free(c->count);
	free(c->cats);
	free(c->stamp);
	free(c);
}

size_t rules_cache_matched(const rules_cache *c) { return c->matched; }

/* Work out frame id's answers the first time it is asked for. */
static void classify(rules_cache *c, uint32_t id)
{
	if (id >= c->cap) {
		size_t old = c->cap, want = intern_count(c->frames) > id ? intern_count(c->frames) : (size_t)id + 1;
		size_t cap = old;
		c->first = xgrow(c->first, &cap, want, sizeof *c->first);
		if (c->inclusive) {
			size_t cap2 = old, cap3 = old;
			c->start = xgrow(c->start, &cap2, want, sizeof *c->start);
			c->count = xgrow(c->count, &cap3, want, sizeof *c->count);
		}
		for (size_t i = old; i < cap; i++)
			c->first[i] = UNSEEN;
		c->cap = cap;
	}
	if (c->first[id] != UNSEEN)
		return;
	c->matched++;
	size_t len;
	const char *text = intern_str(c->frames, id, &len);
	if (!c->inclusive) {
		c->first[id] = rules_match(c->r, text, len);
		return;
	}
	c->first[id] = RULES_NONE;
	c->start[id] = (uint32_t)c->ncats;
	c->count[id] = 0;
	c->stacks++; /* a fresh stamp: list each category once per frame */
	for (size_t i = 0; i < c->r->nrules; i++) {
		struct rule *rule = &c->r->rules[i];
		if (c->stamp[rule->category] == c->stacks || !rule_matches(rule, text, len))
			continue;
		c->stamp[rule->category] = c->stacks;
		if (c->first[id] == RULES_NONE)
			c->first[id] = rule->category;
		c->cats = xgrow(c->cats, &c->cats_cap, c->ncats + 1, sizeof *c->cats);
		c->cats[c->ncats++] = rule->category;
		c->count[id]++;
	}
}

uint32_t rules_stack(rules_cache *c, const uint32_t *ids, size_t n)
{
	for (size_t f = n; f-- > 0;) {
		classify(c, ids[f]);
		if (c->first[ids[f]] != RULES_NONE)
			return c->first[ids[f]];
	}
	return rules_other(c->r);
}

size_t rules_stack_all(rules_cache *c, const uint32_t *ids, size_t n, uint32_t *out)
{
	size_t k = 0;
	for (size_t f = 0; f < n; f++)
		classify(c, ids[f]);
	c->stacks++;
	for (size_t f = 0; f < n; f++) {
		if (c->count[ids[f]] == 0)
			continue;  /* cats is still NULL when no frame has matched yet */
		const uint32_t *cats = c->cats + c->start[ids[f]];
		for (uint32_t j = 0; j < c->count[ids[f]]; j++) {
			if (c->stamp[cats[j]] == c->stacks)
				continue;
			c->stamp[cats[j]] = c->stacks;
			out[k++] = cats[j];
		}
	}
	if (k == 0)
		out[k++] = rules_other(c->r);
	return k;
}

int rules_opts_handle(struct rules_opts *o, int key, const char *value)
{
	switch (key) {
	case RULES_OPT_FILE:
		o->files = xgrow(o->files, &o->cap, o->nfiles + 1, sizeof *o->files);
		o->files[o->nfiles++] = value;
		return 1;
	case RULES_OPT_INCLUSIVE: o->inclusive = 1; return 1;
	default: return 0;
	}
}

rules *rules_opts_load(const struct rules_opts *o)
{
	rules *r = rules_new();
	if (o->nfiles == 0)
		rules_add_default(r);
	for (size_t i = 0; i < o->nfiles; i++) {
		char msg[512];
		if (rules_add_file(r, o->files[i], msg, sizeof msg) < 0) {
			if (msg[0])
				err_warn("%s", msg);
			rules_free(r);
			return NULL;  /* the tool says how it ends: a usage error */
		}
	}
	return r;
}

void rules_opts_free(struct rules_opts *o)
{
	free(o->files);
	o->files = NULL;
	o->nfiles = o->cap = 0;
}
