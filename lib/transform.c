/* transform: each distinct frame is matched once (flags cached by frame id); a stack is then
 * reshaped in place in one pass per transform, its count untouched. */
#include "transform.h"
#include "frame.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

const struct xform_wrapper xform_wrappers[] = {
	/* PyTorch module calls: forward runs under these two. */
	{ "_call_impl", "torch/nn/modules/module.py" },
	{ "_wrapped_call_impl", "torch/nn/modules/module.py" },
	{ "__call__", "torch/nn/modules/module.py" },
	/* torch.no_grad() and friends used as decorators. */
	{ "decorate_context", "torch/utils/_contextlib.py" },
	/* threading.Thread: the root chain of every thread. */
	{ "_bootstrap", "threading.py" },
	{ "_bootstrap_inner", "threading.py" },
	{ "run", "threading.py" },
	/* contextlib: @contextmanager and ContextDecorator. */
	{ "__enter__", "contextlib.py" },
	{ "__exit__", "contextlib.py" },
	{ "inner", "contextlib.py" },
	{ "helper", "contextlib.py" },
	/* python -m: the root chain of a module run as a script. */
	{ "_run_module_as_main", "runpy.py" },
	{ "_run_code", "runpy.py" },
	{ NULL, NULL },
};

int xform_is_wrapper(const char *frame, size_t len)
{
	struct frame_parts p;
	frame_split(frame, len, &p);
	if (p.kind != FRAME_CODE || p.native || !p.file_len)
		return 0;
	for (const struct xform_wrapper *w = xform_wrappers; w->name; w++) {
		size_t nl = strlen(w->name), fl = strlen(w->file);
		if (p.name_len != nl || memcmp(p.name, w->name, nl) != 0 || p.file_len < fl)
			continue;
		const char *tail = p.file + p.file_len - fl;
		/* the whole file name or a path ending in it, not "mythreading.py" */
		if (memcmp(tail, w->file, fl) == 0 && (p.file_len == fl || tail[-1] == '/' || tail[-1] == '\\'))
			return 1;
	}
	return 0;
}

int xform_opts_active(const struct xform_opts *o)
{
	return o->hide || o->show_from || o->prune_from || o->collapse_recursion || o->hide_wrappers;
}

void xform_opts_clone(struct xform_opts *to, const struct xform_opts *from)
{
	*to = *from;
	to->hide = from->hide ? rx_clone(from->hide) : NULL;
	to->show_from = from->show_from ? rx_clone(from->show_from) : NULL;
	to->prune_from = from->prune_from ? rx_clone(from->prune_from) : NULL;
}

void xform_opts_free(struct xform_opts *o)
{
	rx_free(o->hide);
	rx_free(o->show_from);
	rx_free(o->prune_from);
	o->hide = o->show_from = o->prune_from = NULL;
}

enum {
	SEEN = 1,
	PINNED = 2,  /* process, thread or dump status: stays at the root */
	HIDE = 4,
	SHOW = 8,
	PRUNE = 16,
};

struct xform {
	const struct xform_opts *opts;
	intern *frames;
	uint8_t *flags;  /* by frame id */
	size_t cap;
};

xform *xform_new(const struct xform_opts *opts, intern *frames)
{
	xform *x = xcalloc(1, sizeof *x);
	x->opts = opts;
	x->frames = frames;
	return x;
}

void xform_free(xform *x)
{
	if (!x)
		return;
	free(x->flags);
	free(x);
}

static int is_status(const char *s, size_t len)
{
	return (len == 6 && memcmp(s, "[idle]", 6) == 0) || (len == 8 && memcmp(s, "[active]", 8) == 0) ||
	       (len == 12 && memcmp(s, "[active+gil]", 12) == 0);
}

/* Match one pattern: 1, 0, or -1 with err set. */
static int hit(rx *re, const char *s, size_t len, char *err, size_t errlen)
{
	return re ? rx_match(re, s, len, err, errlen) : 0;
}

/* The flags of frame id, worked out on first sight. */
static int frame_flags(xform *x, uint32_t id, char *err, size_t errlen)
{
	if (id >= x->cap) {
		size_t old = x->cap;
		x->flags = xgrow(x->flags, &x->cap, (size_t)id + 1, 1);
		memset(x->flags + old, 0, x->cap - old);
	}
	if (x->flags[id] & SEEN)
		return x->flags[id];
	size_t len;
	const char *s = intern_str(x->frames, id, &len);
	struct frame_parts p;
	frame_split(s, len, &p);
	int f = SEEN;
	if (p.kind == FRAME_PROCESS || p.kind == FRAME_THREAD || (p.kind == FRAME_PSEUDO && is_status(s, len))) {
		f |= PINNED;
	} else {
		const struct xform_opts *o = x->opts;
		int h = hit(o->hide, s, len, err, errlen), sh = 0, pr = 0;
		if (h >= 0)
			sh = hit(o->show_from, s, len, err, errlen);
		if (h >= 0 && sh >= 0)
			pr = hit(o->prune_from, s, len, err, errlen);
		if (h < 0 || sh < 0 || pr < 0)
			return -1;
		if (h || (o->hide_wrappers && xform_is_wrapper(s, len)))
			f |= HIDE;
		f |= (sh ? SHOW : 0) | (pr ? PRUNE : 0);
	}
	x->flags[id] = (uint8_t)f;
	return f;
}

int xform_apply(xform *x, uint32_t *stack, size_t *np, char *err, size_t errlen)
{
	const struct xform_opts *o = x->opts;
	size_t n = *np, head = 0, from, to = n;
	/* Every frame's flags first, so that a matching error leaves the stack as it was. */
	for (size_t i = 0; i < n; i++)
		if (frame_flags(x, stack[i], err, errlen) < 0)
			return XFORM_ERROR;
	while (head < n && (x->flags[stack[head]] & PINNED))
		head++;
	from = head;
	if (o->show_from) {
		while (from < n && !(x->flags[stack[from]] & SHOW))
			from++;
		if (from == n)
			return XFORM_DROPPED;
	}
	if (o->prune_from) {
		for (size_t i = from; i < n; i++)
			if (x->flags[stack[i]] & PRUNE) {
				to = i + 1;
				break;
			}
	}
	/* One pass keeps the head, then the window [from, to) less hidden frames and repeats. */
	size_t out = head;
	for (size_t i = from; i < to; i++) {
		uint32_t id = stack[i];
		if (x->flags[id] & HIDE)
			continue;
		if (o->collapse_recursion && out > head && stack[out - 1] == id)
			continue;
		stack[out++] = id;
	}
	if (out == 0 && n > 0) /* all hidden: the samples stay, on a frame that says so */
		stack[out++] = intern_add(x->frames, XFORM_HIDDEN, sizeof XFORM_HIDDEN - 1);
	*np = out;
	return XFORM_KEPT;
}
