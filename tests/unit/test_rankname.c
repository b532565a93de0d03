/* test_rankname: ranks and kinds read from process titles, flags and labels, numbers as
 * ranges and lists, and the string builder, each asserted as exact values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "rankname.h"

static void test_ranges(void **state)
{
	(void)state;
	char buf[64];
	const unsigned long long a[] = { 0, 1, 2, 3, 4, 6, 7 }, b[] = { 575, 576, 577, 578, 579, 580, 581, 582 },
				 c[] = { 1, 3, 5 };
	assert_int_equal(rankname_ranges(a, 7, buf, sizeof buf), 7);
	assert_string_equal(buf, "0-4,6-7");
	rankname_ranges(b, 8, buf, sizeof buf);
	assert_string_equal(buf, "575-582");
	rankname_ranges(c, 3, buf, sizeof buf);
	assert_string_equal(buf, "1,3,5");
	assert_int_equal(rankname_ranges(c, 0, buf, sizeof buf), 0);
	assert_string_equal(buf, "");
	assert_int_equal(rankname_ranges(b, 8, buf, 5), 0); /* what does not fit is left out */
	assert_string_equal(buf, "");
}

static void test_builder(void **state)
{
	(void)state;
	struct rankname_sb b = { 0 };
	rankname_str(&b, "rank");
	rankname_printf(&b, "%s %d", "s", 12);
	rankname_put(&b, ",xyz", 2);
	assert_string_equal(b.s, "ranks 12,x");
	assert_int_equal(b.len, 10);
	free(b.s);
}

static void test_numbers(void **state)
{
	(void)state;
	assert_int_equal(rankname_number("42", 2), 42);
	assert_int_equal(rankname_number("4a", 2), -1);
	assert_int_equal(rankname_number("", 0), -1);
	assert_int_equal(rankname_number("1234567890", 10), -1); /* over 9 digits */
	assert_int_equal(rankname_trailing_number("rank3", 5), 3);
	assert_int_equal(rankname_trailing_number("trainer-17", 10), 17);
	assert_int_equal(rankname_trailing_number("3", 1), 3);
	assert_int_equal(rankname_trailing_number("host", 4), -1);
}

static void test_title(void **state)
{
	(void)state;
	struct rankname_sb name = { 0 };
	long long num = -2;
	const char t1[] = "sglang::scheduler_DP3_TP3_EP3 --port 1";
	assert_int_equal(rankname_title(t1, strlen(t1), &name, &num), 17);
	assert_string_equal(name.s, "DP3_TP3");
	assert_int_equal(num, 3);
	const char t2[] = "VLLM::Worker_PP1_TP0";
	assert_int_equal(rankname_title(t2, strlen(t2), &name, &num), 12);
	assert_string_equal(name.s, "PP1_TP0");
	assert_int_equal(num, -1); /* PP splits TP numbers */
	const char t3[] = "VLLM::Worker_DP2";
	assert_int_equal(rankname_title(t3, strlen(t3), &name, &num), 12);
	assert_string_equal(name.s, "DP2");
	assert_int_equal(num, 2);
	num = -2;
	const char t4[] = "python train.py";
	assert_int_equal(rankname_title(t4, strlen(t4), &name, &num), 0);
	const char t5[] = "x::y_XX3";
	assert_int_equal(rankname_title(t5, strlen(t5), &name, &num), 0);
	assert_int_equal(num, -2);
	free(name.s);
}

static void test_flag(void **state)
{
	(void)state;
	struct rankname_sb name = { 0 };
	long long num = -2;
	const char c1[] = "python t.py --local_rank=9 --port 29500";
	assert_int_equal(rankname_flag(c1, strlen(c1), &name, &num), 1);
	assert_string_equal(name.s, "9");
	assert_int_equal(num, 9);
	name.len = 0;
	const char c2[] = "torchrun --node-rank 12 t.py";
	assert_int_equal(rankname_flag(c2, strlen(c2), &name, &num), 1);
	assert_string_equal(name.s, "12");
	assert_int_equal(num, 12);
	num = -2;
	const char c3[] = "python t.py --local_rank=x --xnode_rank=3 --local-rank 4a";
	assert_int_equal(rankname_flag(c3, strlen(c3), &name, &num), 0);
	assert_int_equal(num, -2);
	free(name.s);
}

static void kind_is(const char *cmd, const char *want)
{
	struct rankname_sb out = { 0 };
	rankname_kind_label(cmd, strlen(cmd), &out);
	assert_string_equal(out.s ? out.s : "", want);
	free(out.s);
}

static void test_kind(void **state)
{
	(void)state;
	kind_is("sglang::scheduler_DP3_TP3_EP3", "sglang::scheduler");
	kind_is("/usr/bin/python3.11 -u /srv/train.py --local_rank=2", "train.py");
	kind_is("python -m sglang.launch_server --tp 8", "sglang.launch_server");
	kind_is("/opt/bin/ray::worker a b", "ray::worker");
	kind_is("/usr/local/bin/torchrun --nproc 8", "torchrun");
	kind_is("", "");
	assert_int_equal(rankname_is_python("/usr/bin/python3", 16), 1);
	assert_int_equal(rankname_is_python("pythonw", 7), 1);
	assert_int_equal(rankname_is_python("/bin/pyth", 9), 0);
	char key[64];
	const char cmd[] = "python t.py --local_rank=10 --port 29501";
	size_t n = rankname_kind_key(cmd, strlen(cmd), key);
	assert_int_equal(n, 35);
	assert_memory_equal(key, "python t.py --local_rank=# --port #", n);
}

static void test_list(void **state)
{
	(void)state;
	const char *s[] = { "7", "DP0_TP0", "5", "6", "x", "DP0_TP0", "12", "05" };
	size_t lens[] = { 1, 7, 1, 1, 1, 7, 2, 2 };
	struct rankname_sb out = { 0 };
	rankname_list(s, lens, 8, &out);
	assert_string_equal(out.s, "5-7,12,DP0_TP0,x"); /* "05" is 5 again */
	out.len = 0;
	rankname_list(s + 1, lens + 1, 1, &out);
	assert_string_equal(out.s, "DP0_TP0");
	struct rankname_sb none = { 0 };
	rankname_list(s, lens, 0, &none);
	assert_string_equal(none.s, "");
	free(out.s);
	free(none.s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_builder),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_title),
		cmocka_unit_test(test_flag),
		cmocka_unit_test(test_kind),
		cmocka_unit_test(test_list),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
