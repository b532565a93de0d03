/* fuzz_rules: a rules file, then frames classified by it (one by one, as stacks, inclusive).
 * Input: rules text, optionally a NUL byte and frame lines ("a;b;c" is a stack); without the
 * NUL the rules' own lines are the stacks. */
#include "fuzz.h"

#include "intern.h"
#include "rules.h"

struct run { rules *r; rules_cache *c, *ci; intern *frames; uint32_t *cats; unsigned n; };

static void on_line(void *ctx, struct in_line *line)
{
	struct run *x = ctx;
	if (x->n++ >= 64) /* bounded: a pathological pattern costs up to its match limit per frame */
		return;
	uint32_t ids[32];
	size_t n = 0;
	const char *p = line->text, *end = p + line->len;
	while (n < 32) {
		const char *semi = memchr(p, ';', (size_t)(end - p));
		const char *stop = semi ? semi : end;
		ids[n++] = intern_add(x->frames, p, (size_t)(stop - p));
		if (!semi)
			break;
		p = semi + 1;
	}
	rules_match(x->r, line->text, line->len);
	uint32_t cat = rules_stack(x->c, ids, n);
	size_t len;
	if (cat >= rules_category_count(x->r) || !rules_category_name(x->r, cat, &len))
		abort();
	size_t k = rules_stack_all(x->ci, ids, n, x->cats);
	if (k == 0 || k > rules_category_count(x->r))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);
	size_t rules_len = nul ? (size_t)(nul - data) : size;
	char err[512];
	struct run x = { rules_new(), NULL, NULL, intern_new(), NULL, 0 };
	if (rules_add_text(x.r, "fuzz", (const char *)data, rules_len, err, sizeof err) == 0 &&
	    rules_count(x.r) <= 32) {
		x.c = rules_cache_new(x.r, x.frames, 0);
		x.ci = rules_cache_new(x.r, x.frames, 1);
		x.cats = malloc(rules_category_count(x.r) * sizeof *x.cats);
		if (nul)
			fuzz_lines(nul + 1, size - rules_len - 1, "frames", on_line, &x);
		else
			fuzz_lines(data, size, "frames", on_line, &x);
		free(x.cats);
		rules_cache_free(x.c);
		rules_cache_free(x.ci);
	}
	intern_free(x.frames);
	rules_free(x.r);
	return 0;
}
