/* test_docread: a document gathered from lines (where each byte came from, the size bound,
 * a reset between files), JSON loaded or reported at its line, and stacks built frame by
 * frame in py-spy's raw frame format. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "docread.h"
#include "err.h"

static void add(struct doc_buf *d, const char *file, unsigned long lineno, const char *text)
{
	struct in_line line = { (char *)text, strlen(text), file, lineno, 0, NULL, 0 };
	doc_add_line(d, &line);
}

static void test_gather(void **state)
{
	(void)state;
	struct doc_buf d = { 0 };
	add(&d, "a.json", 3, "{\"x\":");
	add(&d, "a.json", 4, "");
	add(&d, "a.json", 5, "1}");
	assert_string_equal(d.text, "{\"x\":\n\n1}\n");
	assert_int_equal(d.len, 10);
	assert_string_equal(d.file, "a.json");
	assert_int_equal(d.lineno, 3);            /* of the first line, not the last */
	assert_int_equal(d.over, 0);
	/* Byte 0..5 is line 3, byte 6 (the empty line's "\n") line 4, 7..9 line 5. */
	assert_int_equal(doc_line_of(&d, 0), 3);
	assert_int_equal(doc_line_of(&d, 5), 3);
	assert_int_equal(doc_line_of(&d, 6), 4);
	assert_int_equal(doc_line_of(&d, 7), 5);
	assert_int_equal(doc_line_of(&d, 9), 5);
	assert_int_equal(doc_line_of(&d, 500), 5); /* past the end: the last line */
	/* A reset keeps the buffer; the next line names the new document. */
	doc_reset(&d);
	assert_int_equal(d.len, 0);
	assert_string_equal(d.text, "");
	assert_int_equal(doc_line_of(&d, 0), 3);
	add(&d, "b.json", 1, "[]");
	assert_string_equal(d.text, "[]\n");
	assert_string_equal(d.file, "b.json");
	assert_int_equal(d.lineno, 1);
	doc_free(&d);
	assert_null(d.text);
	assert_int_equal(d.cap, 0);
}

/* Past DOC_MAX_BYTES the rest is dropped, not grown into. The bound is 256 MiB: one line of
 * DOC_MAX_BYTES bytes, made of a single repeated byte without copying it into the test. */
static void test_over(void **state)
{
	(void)state;
	struct doc_buf d = { 0 };
	add(&d, "big.json", 7, "[1,");
	struct in_line huge = { (char *)"x", DOC_MAX_BYTES, "big.json", 8, 0, NULL, 0 };
	doc_add_line(&d, &huge);                   /* over: dropped before its bytes are read */
	assert_int_equal(d.over, 1);
	assert_int_equal(d.len, 4);
	add(&d, "big.json", 9, "2]");              /* and so is everything after it */
	assert_int_equal(d.len, 4);
	assert_string_equal(d.text, "[1,\n");
	doc_reset(&d);
	assert_int_equal(d.over, 0);
	add(&d, "next.json", 1, "{}");
	assert_string_equal(d.file, "next.json");
	doc_free(&d);
}

struct load_case { const char *file; unsigned long lineno; const char *text; int over; };

static void load_one(void *arg)
{
	const struct load_case *lc = arg;
	struct err_lines errs;
	err_lines_init(&errs);
	struct doc_stats stats = { 0 };
	struct doc_buf d = { 0 };
	d.text = (char *)lc->text;
	d.len = strlen(lc->text);
	d.file = lc->file;
	d.lineno = lc->lineno;
	d.over = lc->over;
	json_t *root = doc_load_json(&d, "speedscope", &errs, &stats);
	printf("root %s, bad %lu, errs %lu\n", root ? (json_is_object(root) ? "object" : "other") : "NULL",
	       stats.bad, errs.bad);
	json_decref(root);
}

static void check_load(const char *text, int over, const char *out, const char *err)
{
	struct load_case lc = { "p.json", 10, text, over };
	struct captured *c = malloc(sizeof *c);
	assert_non_null(c);
	capture_run(load_one, &lc, c);
	assert_int_equal(c->status, 0);
	assert_string_equal(c->out, out);
	assert_string_equal(c->err, err);
	free(c);
}

static void test_load_json(void **state)
{
	(void)state;
	check_load("{\"a\": [1, 2]}\n", 0, "root object, bad 0, errs 0\n", "");
	/* The error is named at the line of the byte jansson stopped at: 10 + 2 lines down. */
	check_load("{\"a\":\n [1,\n  ]}\n", 0, "root NULL, bad 1, errs 1\n",
		   "test_docread: p.json:12: bad speedscope JSON: unexpected token near ']' (byte 14)\n");
	check_load("", 0, "root NULL, bad 1, errs 1\n",
		   "test_docread: p.json:10: bad speedscope JSON: '[' or '{' expected near end of file (byte 0)\n");
	check_load("{}", 1, "root NULL, bad 1, errs 1\n",
		   "test_docread: p.json:10: speedscope document larger than 256 MiB: not read\n");
}

static const char *folded(struct doc_stack *st, char *buf, size_t cap)
{
	const struct doc_frame *f = doc_stack_frames(st);
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < st->n; i++)
		used += (size_t)snprintf(buf + used, cap - used, "%s%.*s", i ? ";" : "", (int)f[i].len, f[i].s);
	return buf;
}

static void test_stack(void **state)
{
	(void)state;
	struct doc_stack st = { 0 };
	char buf[2048];
	doc_stack_code(&st, "main", "a.py", 12);
	doc_stack_code(&st, "f", "b.py", 0);       /* no line: NAME (FILE) */
	doc_stack_code(&st, "g", "c.py", -1);
	doc_stack_code(&st, "thread (7): T", "", 0);  /* pseudo-frames: the name alone */
	doc_stack_code(&st, "process 1:\"x\"", NULL, 3);
	doc_stack_push(&st, "%s-%d", "n", 42);
	assert_int_equal(st.n, 6);
	assert_string_equal(folded(&st, buf, sizeof buf),
			    "main (a.py:12);f (b.py);g (c.py);thread (7): T;process 1:\"x\";n-42");
	/* Each frame is its own NUL-ended text of the length given. */
	const struct doc_frame *f = doc_stack_frames(&st);
	assert_int_equal(f[0].len, 14);
	assert_int_equal(f[0].s[14], '\0');
	/* Cleared, the buffer is reused; a frame longer than the 256-byte fast path is whole. */
	doc_stack_clear(&st);
	assert_int_equal(st.n, 0);
	char name[401];
	memset(name, 'q', 400);
	name[400] = '\0';
	doc_stack_code(&st, name, "long.py", 5);
	f = doc_stack_frames(&st);
	assert_int_equal(st.n, 1);
	assert_int_equal(f[0].len, 400 + strlen(" (long.py:5)"));
	assert_memory_equal(f[0].s + 400, " (long.py:5)", 12);
	assert_int_equal(f[0].s[0], 'q');
	assert_int_equal(f[0].s[399], 'q');
	doc_stack_free(&st);
	assert_null(st.buf);
	assert_int_equal(st.n, 0);
}

static void test_rates_join(void **state)
{
	(void)state;
	assert_true(doc_rate_join(0, 0) == 0);
	assert_true(doc_rate_join(0, 200) == 200);
	assert_true(doc_rate_join(200, 0) == 200);
	assert_true(doc_rate_join(200, 200) == 200);
	assert_true(doc_rate_join(100, 1 / 0.01) == 100);
	assert_true(doc_rate_join(100, 200) == -1);
	assert_true(doc_rate_join(-1, 100) == -1);
	assert_true(doc_rate_join(100, -1) == -1);
	struct doc_stats st = { 0 };
	doc_note_rate(&st, 0);
	doc_note_rate(&st, NAN);
	doc_note_rate(&st, -5);
	assert_true(st.rate == 0);
	doc_note_rate(&st, 200);
	doc_note_rate(&st, 200);
	assert_true(st.rate == 200);
	doc_note_rate(&st, 100);
	assert_true(st.rate == -1);
	doc_note_rate(&st, 100);
	assert_true(st.rate == -1);
}

static void test_lines_gathered(void **state)
{
	(void)state;
	struct doc_buf d = { 0 };
	struct in_line a = { "{\"a\":", 5, "f", 3, 0, NULL, 0 }, b = { "1}", 2, "f", 4, 0, NULL, 0 };
	doc_add_line(&d, &a);
	doc_add_line(&d, &b);
	assert_string_equal(d.text, "{\"a\":\n1}\n");
	assert_int_equal(d.lineno, 3);
	assert_int_equal(doc_line_of(&d, 0), 3);
	assert_int_equal(doc_line_of(&d, 7), 4);
	doc_reset(&d);
	assert_int_equal(d.len, 0);
	doc_free(&d);
}

int main(void)
{
	err_set_prog("test_docread");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gather),
		cmocka_unit_test(test_over),
		cmocka_unit_test(test_load_json),
		cmocka_unit_test(test_stack),
		cmocka_unit_test(test_rates_join),
		cmocka_unit_test(test_lines_gathered),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
