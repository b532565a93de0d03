/* test_transform: each transform on stacks of frame ids, their order, the pinned root frames,
 * the wrapper list and the cache of matches. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "transform.h"

static rx *re(const char *pattern)
{
	char msg[256];
	rx *r = rx_compile(pattern, strlen(pattern), msg, sizeof msg);
	assert_non_null(r);
	return r;
}

/* Run opts over the ';'-separated stack and return the result the same way, or "DROPPED". */
static const char *run(const struct xform_opts *o, const char *stack, char *out, size_t outlen)
{
	intern *fr = intern_new();
	uint32_t ids[64];
	size_t n = 0;
	for (const char *p = stack; *p;) {
		const char *e = strchr(p, ';');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		ids[n++] = intern_add(fr, p, len);
		p += len + (e ? 1 : 0);
	}
	xform *x = xform_new(o, fr);
	char err[128];
	int rc = xform_apply(x, ids, &n, err, sizeof err);
	out[0] = '\0';
	if (rc == XFORM_DROPPED) {
		snprintf(out, outlen, "DROPPED");
	} else {
		assert_int_equal(rc, XFORM_KEPT);
		for (size_t i = 0; i < n; i++) {
			size_t used = strlen(out);
			snprintf(out + used, outlen - used, "%s%s", i ? ";" : "", intern_str(fr, ids[i], NULL));
		}
	}
	xform_free(x);
	intern_free(fr);
	return out;
}

static void test_hide(void **state)
{
	(void)state;
	char buf[512];
	struct xform_opts o = { 0 };
	o.hide = re("^b");
	assert_string_equal(run(&o, "a;b1;c;b2", buf, sizeof buf), "a;c");
	/* Everything hidden: the samples stay on [hidden]; thread frames stay. */
	assert_string_equal(run(&o, "b1;b2", buf, sizeof buf), "[hidden]");
	assert_string_equal(run(&o, "thread (1): bx;b1", buf, sizeof buf), "thread (1): bx");
	xform_opts_free(&o);
}

static void test_show_and_prune(void **state)
{
	(void)state;
	char buf[512];
	struct xform_opts o = { 0 };
	o.show_from = re("^s");
	assert_string_equal(run(&o, "process 1:\"py\";thread (2): t;a;s1;c;s2;d", buf, sizeof buf),
			    "process 1:\"py\";thread (2): t;s1;c;s2;d");
	assert_string_equal(run(&o, "thread (2): s;a;b", buf, sizeof buf), "DROPPED");
	xform_opts_free(&o);
	o.prune_from = re("^p");
	assert_string_equal(run(&o, "a;p1;c;p2;d", buf, sizeof buf), "a;p1");
	assert_string_equal(run(&o, "a;b", buf, sizeof buf), "a;b");
	xform_opts_free(&o);
}

static void test_collapse_and_order(void **state)
{
	(void)state;
	char buf[512];
	struct xform_opts o = { 0 };
	o.collapse_recursion = 1;
	assert_string_equal(run(&o, "a;f;f;f;g;f;f", buf, sizeof buf), "a;f;g;f");
	/* Hide first, then repeats meet and collapse. */
	o.hide = re("^g$");
	assert_string_equal(run(&o, "a;f;g;f", buf, sizeof buf), "a;f");
	/* show-from before prune-from: the prune match is looked for below the show match. */
	o.show_from = re("^s");
	o.prune_from = re("^p");
	assert_string_equal(run(&o, "p0;s;f;f;p1;x", buf, sizeof buf), "s;f;p1");
	xform_opts_free(&o);
}

static void test_wrappers(void **state)
{
	(void)state;
	assert_true(xform_is_wrapper("_call_impl (torch/nn/modules/module.py:1747)", 44));
	const char *t = "_bootstrap_inner (/usr/lib/python3.11/threading.py:1038)";
	assert_true(xform_is_wrapper(t, strlen(t)));
	t = "run (threading.py:975)";
	assert_true(xform_is_wrapper(t, strlen(t)));
	t = "run (mythreading.py:975)";
	assert_false(xform_is_wrapper(t, strlen(t)));
	t = "run (train.py:3)";
	assert_false(xform_is_wrapper(t, strlen(t)));
	t = "decorate_context (torch/utils/_contextlib.py:115)";
	assert_true(xform_is_wrapper(t, strlen(t)));
	char buf[512];
	struct xform_opts o = { 0 };
	o.hide_wrappers = 1;
	assert_string_equal(run(&o, "thread (1): x;_bootstrap (threading.py:1);run (threading.py:2);w (a.py:3)",
				buf, sizeof buf), "thread (1): x;w (a.py:3)");
	assert_int_equal(xform_opts_active(&o), 1);
	struct xform_opts none = { 0 };
	assert_int_equal(xform_opts_active(&none), 0);
}

static void test_clone(void **state)
{
	(void)state;
	struct xform_opts o = { 0 }, c;
	o.hide = re("x");
	o.collapse_recursion = 1;
	xform_opts_clone(&c, &o);
	assert_non_null(c.hide);
	assert_ptr_not_equal(c.hide, o.hide);
	assert_string_equal(rx_pattern(c.hide), "x");
	assert_int_equal(c.collapse_recursion, 1);
	assert_null(c.show_from);
	xform_opts_free(&c);
	xform_opts_free(&o);
	assert_null(o.hide);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hide),
		cmocka_unit_test(test_show_and_prune),
		cmocka_unit_test(test_collapse_and_order),
		cmocka_unit_test(test_wrappers),
		cmocka_unit_test(test_clone),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
