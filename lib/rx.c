/* rx: one place that owns PCRE2: JIT, limits, error text. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "rx.h"
#include "err.h"
#include "xalloc.h"

#include <pcre2.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif

enum { RX_SET_SPANS = 16 };

struct rx {
	pcre2_code *code;
	pcre2_match_data *match;
	pcre2_match_context *context;
	pcre2_jit_stack *jit_stack;
	char *pattern;
	const char *subject;  /* of the last rx_match_groups */
	int matched;
	int jit;              /* compiled to machine code: matched by pcre2_jit_match */
	int digit_blind;
	/* the groups rx_set_spans gave, read while set instead of the match data's */
	PCRE2_SIZE set_spans[2 * RX_SET_SPANS];
	uint32_t nset;
};

/* The pattern's text read for what could tell one digit from another: a digit anywhere but
 * in "0-9" inside a class or in a quantifier's counts, an escape naming a character by
 * number or a group's text (\1, \g, \k, (?P=)). Conservative: a digit in a comment counts. */
static int digit_blind(const char *p, size_t len)
{
	int in_class = 0;
	for (size_t i = 0; i < len; i++) {
		char c = p[i];
		if (c == '\\') {
			if (i + 1 < len && (strchr("gk", p[i + 1]) || (p[i + 1] >= '0' && p[i + 1] <= '9')))
				return 0;
			i++;  /* the escaped byte is that byte or a class of bytes (\d \w \s) */
			continue;
		}
		if (in_class) {
			if (c == ']')
				in_class = 0;
			else if (c == '0' && i + 2 < len && p[i + 1] == '-' && p[i + 2] == '9')
				i += 2;
			else if (c >= '0' && c <= '9')
				return 0;
			continue;
		}
		if (c == '[') {
			in_class = 1;
			if (i + 1 < len && p[i + 1] == '^')
				i++;
			if (i + 1 < len && p[i + 1] == ']')  /* "[]...]": a ']' first is a member */
				i++;
			continue;
		}
		if (c == '(' && i + 3 < len && memcmp(p + i + 1, "?P=", 3) == 0)
			return 0;
		if (c == '{' && i > 0) {  /* "{N}", "{N,}", "{N,M}": a quantifier's counts */
			size_t j = i + 1, digits = 0;
			while (j < len && p[j] >= '0' && p[j] <= '9')
				j++, digits++;
			if (digits && j < len && p[j] == ',')
				for (j++; j < len && p[j] >= '0' && p[j] <= '9'; j++)
					;
			if (digits && j < len && p[j] == '}') {
				i = j;
				continue;
			}
		}
		if (c >= '0' && c <= '9')
			return 0;
	}
	return 1;
}

rx *rx_compile(const char *pattern, size_t len, char *errbuf, size_t errlen)
{
	int code;
	PCRE2_SIZE offset;
	pcre2_code *compiled = pcre2_compile((PCRE2_SPTR)pattern, len, PCRE2_UTF | PCRE2_MATCH_INVALID_UTF,
					     &code, &offset, NULL);
	if (!compiled) {
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(code, msg, sizeof msg);
		snprintf(errbuf, errlen, "pattern error at offset %zu: %s", (size_t)offset, (char *)msg);
		return NULL;
	}
	rx *re = xcalloc(1, sizeof *re);
	re->code = compiled;
	re->pattern = xstrndup(pattern, len);
	re->digit_blind = digit_blind(pattern, len);
	re->match = pcre2_match_data_create_from_pattern(compiled, NULL);
	re->context = pcre2_match_context_create(NULL);
	if (!re->match || !re->context)
		err_exit(EXIT_DATA, "out of memory");
	pcre2_set_match_limit(re->context, RX_MATCH_LIMIT);
	pcre2_set_depth_limit(re->context, RX_DEPTH_LIMIT);
	/* JIT when the platform has it; the interpreter is a correct if slower fallback. Not
	 * under valgrind: JIT code tests words it has not fully written, which memcheck cannot
	 * tell from a bug (make check-valgrind). */
	if (!RUNNING_ON_VALGRIND && pcre2_jit_compile(compiled, PCRE2_JIT_COMPLETE) == 0) {
		re->jit = 1;
		re->jit_stack = pcre2_jit_stack_create(32 * 1024, 1024 * 1024, NULL);
		if (re->jit_stack)
			pcre2_jit_stack_assign(re->context, NULL, re->jit_stack);
	}
	return re;
}

void rx_free(rx *re)
{
	if (!re)
		return;
	pcre2_jit_stack_free(re->jit_stack);
	pcre2_match_context_free(re->context);
	pcre2_match_data_free(re->match);
	pcre2_code_free(re->code);
	free(re->pattern);
	free(re);
}

const char *rx_pattern(const rx *re) { return re->pattern; }

rx *rx_clone(const rx *re)
{
	char msg[256];
	rx *copy = rx_compile(re->pattern, strlen(re->pattern), msg, sizeof msg);
	if (!copy) /* it compiled once: only memory can fail now */
		err_exit(EXIT_DATA, "%s", msg);
	return copy;
}

static int run(rx *re, const char *subject, size_t len, char *errbuf, size_t errlen)
{
	/* The JIT entry point skips pcre2_match's checks; with PCRE2_MATCH_INVALID_UTF the
	 * compiled code copes with any bytes itself. */
	int rc = re->jit ? pcre2_jit_match(re->code, (PCRE2_SPTR)subject, len, 0, 0, re->match, re->context)
			 : pcre2_match(re->code, (PCRE2_SPTR)subject, len, 0, 0, re->match, re->context);
	if (rc >= 0)
		return 1;
	if (rc == PCRE2_ERROR_NOMATCH)
		return 0;
	PCRE2_UCHAR msg[256];
	pcre2_get_error_message(rc, msg, sizeof msg);
	snprintf(errbuf, errlen, "pattern '%s': %s", re->pattern, (char *)msg);
	return -1;
}

int rx_match(rx *re, const char *subject, size_t len, char *errbuf, size_t errlen)
{
	re->matched = 0;
	re->nset = 0;
	return run(re, subject, len, errbuf, errlen);
}

int rx_match_groups(rx *re, const char *subject, size_t len, char *errbuf, size_t errlen)
{
	re->nset = 0;
	int rc = run(re, subject, len, errbuf, errlen);
	re->matched = rc == 1;
	re->subject = subject;
	return rc;
}

int rx_group_index(const rx *re, const char *name)
{
	int number = pcre2_substring_number_from_name(re->code, (PCRE2_SPTR)name);
	return number < 0 ? -1 : number;
}

int rx_group(const rx *re, const char *name, const char **start, size_t *len)
{
	if (!re->matched)
		return 0;
	return rx_group_at(re, rx_group_index(re, name), start, len);
}

int rx_group_at(const rx *re, int number, const char **start, size_t *len)
{
	if (!re->matched || number < 0)
		return 0;
	const PCRE2_SIZE *ovector = re->nset ? re->set_spans : pcre2_get_ovector_pointer(re->match);
	uint32_t pairs = re->nset ? re->nset : pcre2_get_ovector_count(re->match);
	if ((uint32_t)number >= pairs || ovector[2 * number] == PCRE2_UNSET)
		return 0;
	*start = re->subject + ovector[2 * number];
	*len = ovector[2 * number + 1] - ovector[2 * number];
	return 1;
}

int rx_digit_blind(const rx *re) { return re->digit_blind; }

size_t rx_spans(const rx *re, unsigned short *out, size_t max)
{
	if (!re->matched)
		return 0;
	const PCRE2_SIZE *ovector = re->nset ? re->set_spans : pcre2_get_ovector_pointer(re->match);
	uint32_t pairs = re->nset ? re->nset : pcre2_get_ovector_count(re->match);
	if (pairs > max || pairs > RX_SET_SPANS)
		return 0;
	for (uint32_t k = 0; k < 2 * pairs; k++) {
		if (ovector[k] == PCRE2_UNSET)
			out[k] = RX_SPAN_UNSET;
		else if (ovector[k] < RX_SPAN_UNSET)
			out[k] = (unsigned short)ovector[k];
		else
			return 0;
	}
	return pairs;
}

void rx_set_spans(rx *re, const char *subject, const unsigned short *spans, size_t npairs)
{
	if (npairs > RX_SET_SPANS)  /* rx_spans gives no more */
		abort();
	for (size_t k = 0; k < 2 * npairs; k++)
		re->set_spans[k] = spans[k] == RX_SPAN_UNSET ? PCRE2_UNSET : spans[k];
	re->nset = (uint32_t)npairs;
	re->matched = npairs > 0;
	re->subject = subject;
}
