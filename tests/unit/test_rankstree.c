/* test_rankstree: stacks merged into a prefix tree, members listed once per node in the
 * order added, children by most members, and the branch marks, asserted as exact text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <stdio.h>

#include "rankstree.h"

/* "PREFIX[m,m,...] fFRAME" */
static void line(void *ctx, const char *prefix, uint32_t frame, const size_t *members, size_t n, FILE *out)
{
	int *lines = ctx;
	(*lines)++;
	fprintf(out, "%s[", prefix);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%zu", i ? "," : "", members[i]);
	fprintf(out, "] f%u\n", (unsigned)frame);
}

static char *draw(rankstree *t, int *lines)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	assert_non_null(out);
	assert_int_equal(rankstree_write(t, line, lines, out), 0);
	fclose(out);
	return buf;
}

static void test_tree(void **state)
{
	(void)state;
	rankstree *t = rankstree_new();
	const uint32_t s0[] = { 1, 2, 3 }, s1[] = { 1, 2, 4 }, s3a[] = { 1, 5 }, s3b[] = { 1, 5, 6 };
	rankstree_add(t, 0, s0, 3);
	rankstree_add(t, 1, s1, 3);
	rankstree_add(t, 2, s1, 3);
	rankstree_add(t, 3, s3a, 2);
	rankstree_add(t, 3, s3b, 3); /* a member's second stack: counted once where they share */
	int lines = 0;
	char *text = draw(t, &lines);
	assert_string_equal(text, "[0,1,2,3] f1\n"
				  "+-[0,1,2] f2\n"
				  "| +-[1,2] f4\n" /* more members first, though made later */
				  "| +-[0] f3\n"
				  "+-[3] f5\n"
				  "  [3] f6\n"); /* a chain keeps its indentation */
	assert_int_equal(lines, 6);
	free(text);
	rankstree_free(t);
}

static void test_ties_and_empty(void **state)
{
	(void)state;
	rankstree *t = rankstree_new();
	int lines = 0;
	char *text = draw(t, &lines);
	assert_string_equal(text, "");
	assert_int_equal(lines, 0);
	free(text);
	const uint32_t a[] = { 9, 8 }, b[] = { 9, 7 }, c[] = { 6 };
	rankstree_add(t, 0, a, 2);
	rankstree_add(t, 1, b, 2);
	rankstree_add(t, 2, c, 1);
	rankstree_add(t, 3, NULL, 0); /* an empty stack reaches only the root */
	text = draw(t, &lines);
	assert_string_equal(text, "+-[0,1] f9\n"
				  "| +-[0] f8\n" /* ties: the first made first */
				  "| +-[1] f7\n"
				  "+-[2] f6\n");
	free(text);
	rankstree_free(t);
	rankstree_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tree),
		cmocka_unit_test(test_ties_and_empty),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
