/* chrome: events walked in file order, one open-frame stack per (pid, tid). */
#include "chrome.h"
#include "xalloc.h"

#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct thr {
	json_int_t pid, tid;
	json_t **open;          /* B events still open, outermost first */
	size_t depth, cap;
	double last;            /* ts of the thread's last event */
	double carry;           /* rounding left over, carried to the next stack */
	double first;           /* ts of the thread's first event: its time 0 */
	int started;
};

struct cr {
	struct doc_reader r;    /* the document, errors, callbacks, figures */
	double scale;           /* samples per microsecond */
	struct thr *thr;
	size_t nthr, thr_cap;
	struct doc_stack st;
};

static struct thr *thread_of(struct cr *c, json_int_t pid, json_int_t tid)
{
	for (size_t i = 0; i < c->nthr; i++)
		if (c->thr[i].pid == pid && c->thr[i].tid == tid)
			return &c->thr[i];
	c->thr = xgrow(c->thr, &c->thr_cap, c->nthr + 1, sizeof *c->thr);
	struct thr *t = &c->thr[c->nthr++];
	memset(t, 0, sizeof *t);
	t->pid = pid;
	t->tid = tid;
	return t;
}

static void push_event(struct cr *c, json_t *e)
{
	const char *name = json_string_value(json_object_get(e, "name"));
	json_t *args = json_object_get(e, "args");
	const char *file = json_string_value(json_object_get(args, "filename"));
	json_t *line = json_object_get(args, "line");
	doc_stack_code(&c->st, name ? name : "?", file, json_is_integer(line) ? (long)json_integer_value(line) : -1);
}

/* The thread's open stack held from its last event until ts. */
static void hold(struct cr *c, struct thr *t, double ts)
{
	if (t->depth == 0 || !(ts > t->last))
		return;
	double v = (ts - t->last) * c->scale + t->carry;
	uint64_t count = v < 1.8e19 ? (uint64_t)llround(v) : 0;
	t->carry = v - (double)count;
	if (count == 0)
		return;
	doc_stack_clear(&c->st);
	const char *root = json_string_value(json_object_get(t->open[0], "name"));
	if (!root || strncmp(root, "thread (", 8) != 0)
		doc_stack_push(&c->st, "thread (0x%" PRIX64 ")", (uint64_t)t->tid);
	for (size_t i = 0; i < t->depth; i++)
		push_event(c, t->open[i]);
	c->r.stats->stacks++;
	if (c->r.when) {
		struct doc_time when = { (t->last - t->first) / 1e6, (ts - t->last) / 1e6 };
		c->r.when(c->r.ctx, &when);
	}
	c->r.fn(c->r.ctx, c->r.doc->file, c->r.doc->lineno, doc_stack_frames(&c->st), c->st.n, count);
}

void chrome_read(const struct doc_buf *doc, double rate, struct err_lines *errs,
		 doc_stack_fn *fn, doc_time_fn *when, void *ctx, struct doc_stats *stats)
{
	struct cr c = { .r = { doc, errs, fn, when, ctx, stats },
			.scale = rate / 1e6 };
	json_t *root = doc_load_json(doc, "chrometrace", errs, stats);
	if (!root)
		return;
	json_t *events = json_is_object(root) ? json_object_get(root, "traceEvents") : root;
	if (!json_is_array(events)) {
		stats->bad++;
		err_bad_line(errs, doc->file, doc->lineno, "chrometrace JSON without an array of events");
		json_decref(root);
		return;
	}
	unsigned long bad_events = 0;
	for (size_t i = 0; i < json_array_size(events); i++) {
		json_t *e = json_array_get(events, i);
		const char *ph = json_string_value(json_object_get(e, "ph"));
		json_t *ts = json_object_get(e, "ts");
		if (!ph || (ph[0] != 'B' && ph[0] != 'E') || ph[1])
			continue;  /* metadata, counters, instants: no stack time */
		if (!json_is_number(ts)) {
			bad_events++;
			continue;
		}
		struct thr *t = thread_of(&c, json_integer_value(json_object_get(e, "pid")),
					  json_integer_value(json_object_get(e, "tid")));
		double at = json_number_value(ts);
		if (!t->started) {
			t->first = at;
			t->started = 1;
		}
		hold(&c, t, at);
		t->last = at;
		if (ph[0] == 'E') {
			if (t->depth > 0)
				t->depth--;
			else
				bad_events++;
			continue;
		}
		t->open = xgrow(t->open, &t->cap, t->depth + 1, sizeof *t->open);
		t->open[t->depth++] = e;
	}
	if (bad_events) {
		stats->bad++;
		err_bad_line(errs, doc->file, doc->lineno, "%lu chrometrace events without ts or an open frame",
			     bad_events);
	}
	for (size_t i = 0; i < c.nthr; i++)
		free(c.thr[i].open);
	free(c.thr);
	doc_stack_free(&c.st);
	json_decref(root);
}
