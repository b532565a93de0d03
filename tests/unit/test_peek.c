/* test_peek: callers and callees of matching keys, once per stack at the outermost place, the
 * sums they keep, row order and the text form. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peek.h"

static rx *re(const char *pattern)
{
	char msg[256];
	rx *r = rx_compile(pattern, strlen(pattern), msg, sizeof msg);
	assert_non_null(r);
	return r;
}

static void add(peek *pk, intern *fr, const char *stack, uint64_t count)
{
	uint32_t ids[64];
	size_t n = 0;
	for (const char *p = stack; *p;) {
		const char *e = strchr(p, ';');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		ids[n++] = intern_add(fr, p, len);
		p += len + (e ? 1 : 0);
	}
	char err[64];
	assert_int_equal(peek_add(pk, fr, ids, n, count, err, sizeof err), 0);
}

/* "key role other self samples" per row, one line each. */
static char *dump(const peek *pk, enum agg_order order, size_t limit)
{
	struct peek_row *rows;
	size_t n = peek_rows(pk, order, limit, &rows);
	char *out = calloc(1, 4096);
	for (size_t i = 0; i < n; i++) {
		size_t used = strlen(out);
		snprintf(out + used, 4096 - used, "%s %s %s %llu %llu\n", intern_str(peek_keys(pk), rows[i].key, NULL),
			 peek_role_names[rows[i].role], intern_str(peek_keys(pk), rows[i].other, NULL),
			 (unsigned long long)rows[i].self, (unsigned long long)rows[i].samples);
	}
	free(rows);
	return out;
}

static void test_recursion(void **state)
{
	(void)state;
	intern *fr = intern_new();
	rx *m = re("^w$");
	peek *pk = peek_new(KEY_FRAME, m);
	add(pk, fr, "thread (1): t;a;w;w;w;v", 7);  /* callee w (recursion) */
	add(pk, fr, "thread (1): t;a;w;v;w", 4);    /* leaf has w: self, no callee */
	add(pk, fr, "w", 3);                        /* a root: caller (root) */
	add(pk, fr, "a;b", 9);                      /* no w: nothing */
	char *s = dump(pk, AGG_BY_SELF, 0);
	assert_string_equal(s, "w caller a 4 11\n"
			       "w caller (root) 3 3\n"
			       "w . w 7 14\n"
			       "w callee w 0 7\n");
	free(s);
	peek_free(pk);
	rx_free(m);
	intern_free(fr);
}

static void test_keys_and_order(void **state)
{
	(void)state;
	intern *fr = intern_new();
	rx *m = re("^[fg] ");
	peek *pk = peek_new(KEY_FUNCTION, m);
	add(pk, fr, "main (m.py:1);f (a.py:1);g (a.py:5)", 5);
	add(pk, fr, "main (m.py:1);f (a.py:2)", 2);
	add(pk, fr, "main (m.py:1);g (a.py:5);h (libx.so)", 1);
	char *s = dump(pk, AGG_BY_SELF, 0);
	/* g: self 5, total 6 ranks before f: self 2, total 7; -n 1 keeps g only. */
	assert_string_equal(s, "g (a.py) caller f (a.py) 5 5\n"
			       "g (a.py) caller main (m.py) 0 1\n"
			       "g (a.py) . g (a.py) 5 6\n"
			       "g (a.py) callee h (libx.so) 1 1\n"
			       "f (a.py) caller main (m.py) 2 7\n"
			       "f (a.py) . f (a.py) 2 7\n"
			       "f (a.py) callee g (a.py) 5 5\n");
	free(s);
	s = dump(pk, AGG_BY_TOTAL, 1);
	assert_string_equal(s, "f (a.py) caller main (m.py) 2 7\n"
			       "f (a.py) . f (a.py) 2 7\n"
			       "f (a.py) callee g (a.py) 5 5\n");
	free(s);
	peek_free(pk);
	rx_free(m);
	intern_free(fr);
}

static void test_no_key_leaf(void **state)
{
	(void)state;
	intern *fr = intern_new();
	rx *m = re("libx");
	peek *pk = peek_new(KEY_LIB, m);
	/* Python frames have no lib: passed over; a Python leaf under libx is "(no lib)". */
	add(pk, fr, "run (a.py:1);call (libx.so);cb (b.py:2)", 3);
	char *s = dump(pk, AGG_BY_SELF, 0);
	assert_string_equal(s, "libx.so caller (root) 0 3\n"
			       "libx.so . libx.so 0 3\n"
			       "libx.so callee (no lib) 0 3\n");
	free(s);
	assert_true(peek_key_ok(KEY_THREAD));
	assert_false(peek_key_ok(KEY_ROOT));
	assert_false(peek_key_ok(KEY_CATEGORY));
	assert_false(peek_key_ok(KEY_SOURCE));
	peek_free(pk);
	rx_free(m);
	intern_free(fr);
}

static void test_text(void **state)
{
	(void)state;
	intern *fr = intern_new();
	rx *m = re("^f$");
	peek *pk = peek_new(KEY_FRAME, m);
	add(pk, fr, "a;f;g", 3);
	add(pk, fr, "f", 1);
	struct peek_row *rows;
	size_t n = peek_rows(pk, AGG_BY_SELF, 0, &rows);
	char buf[1024] = { 0 };
	FILE *out = fmemopen(buf, sizeof buf - 1, "w");
	assert_int_equal(peek_write(pk, rows, n, 8, TABLE_TEXT, out), 0);
	fclose(out);
	assert_string_equal(buf, "self  samples      pct | context\n"
				 "-----------------------+-------------\n"
				 "   0        3   37.50% |   a\n"
				 "   1        1   12.50% |   (root)\n"
				 "   1        4   50.00% | f\n"
				 "   3        3   37.50% |   g\n"
				 "-----------------------+-------------\n");
	free(rows);
	peek_free(pk);
	rx_free(m);
	intern_free(fr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recursion),
		cmocka_unit_test(test_keys_and_order),
		cmocka_unit_test(test_no_key_leaf),
		cmocka_unit_test(test_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
