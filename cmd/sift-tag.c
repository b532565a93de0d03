/* sift-tag: folded stacks in, the same stacks out under a [category] root frame, for flame graphs. */
#include "../lib/cli.h"
#include "../lib/err.h"
#include "../lib/frame.h"
#include "../lib/load.h"
#include "../lib/prof.h"
#include "../lib/profopt.h"
#include "../lib/rules.h"
#include "../lib/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_PREFIX_THREAD = 0x2000 };

static const struct cli_option options[] = {
	RULES_FILE_ROW,
	CLI_ROW_FLAG("prefix-thread", OPT_PREFIX_THREAD, "keep process and thread frames above the [category] frame"),
	PROFOPT_FILTER_ROWS,
	PROFOPT_REWRITE_ROWS,
	PROFOPT_TRANSFORM_ROWS,
	PROFOPT_INPUT_ROWS,
	PROFOPT_TO_ROW,
	CLI_ROW_END,
};

static const struct cli_spec spec = {
	"[OPTION]... [FILE]...",
	"Classify each stack of folded-stack profiles with category rules (its leaf-most frame that "
	"matches a rule; \"other\" when none) and write it back with a new root frame [CATEGORY], "
	"so that flamegraph.pl draws one tower per category. Output is merged and sorted.",
	options,
	"Exit status: 0 ok, 1 unreadable input or bad lines with --strict, 2 usage error "
	"(including a rules file that cannot be read or holds a bad pattern).\n",
};

#define UNMAPPED UINT32_MAX

/* Rewrites stacks of the input profile into the output one, frame ids mapped once. */
struct tagger {
	const intern *in;
	intern *out;
	uint32_t *map;          /* input frame id -> output frame id */
	unsigned char *pseudo;  /* input frame id -> 1 process/thread frame, 0 not, 2 unknown */
	uint32_t *tags;         /* category id -> output id of its [category] frame */
	uint32_t *ids;
	size_t cap;
};

static uint32_t out_frame(struct tagger *t, uint32_t id)
{
	if (t->map[id] == UNMAPPED) {
		size_t len;
		const char *text = intern_str(t->in, id, &len);
		t->map[id] = intern_add(t->out, text, len);
	}
	return t->map[id];
}

static int is_pseudo(struct tagger *t, uint32_t id)
{
	if (t->pseudo[id] == 2) {
		size_t len;
		const char *text = intern_str(t->in, id, &len);
		struct frame_parts parts;
		frame_split(text, len, &parts);
		t->pseudo[id] = parts.kind == FRAME_THREAD || parts.kind == FRAME_PROCESS;
	}
	return t->pseudo[id];
}

static uint32_t tag_frame(struct tagger *t, rules *r, uint32_t category)
{
	if (t->tags[category] == UNMAPPED) {
		size_t len;
		const char *name = rules_category_name(r, category, &len);
		char *text = xmalloc(len + 3);
		text[0] = '[';
		memcpy(text + 1, name, len);
		text[len + 1] = ']';
		t->tags[category] = intern_add(t->out, text, len + 2);
		free(text);
	}
	return t->tags[category];
}

static int tag_all(const prof *in, prof *out, rules *r, int prefix_thread)
{
	struct tagger t = { prof_frames_const(in), prof_frames(out), NULL, NULL, NULL, NULL, 0 };
	size_t nf = intern_count(t.in), nc = rules_category_count(r);
	t.map = xmalloc((nf + 1) * sizeof *t.map);
	t.pseudo = xmalloc(nf + 1);
	t.tags = xmalloc(nc * sizeof *t.tags);
	memset(t.map, 0xff, (nf + 1) * sizeof *t.map);
	memset(t.pseudo, 2, nf + 1);
	memset(t.tags, 0xff, nc * sizeof *t.tags);
	rules_cache *rc = rules_cache_new(r, t.in, 0);
	int status = 0;
	for (size_t s = 0; s < prof_stack_count(in); s++) {
		size_t n, k = 0, f = 0;
		uint64_t count;
		const uint32_t *ids = prof_stack(in, s, &n, &count);
		t.ids = xgrow(t.ids, &t.cap, n + 1, sizeof *t.ids);
		if (prefix_thread)
			for (; f < n && is_pseudo(&t, ids[f]); f++)
				t.ids[k++] = out_frame(&t, ids[f]);
		t.ids[k++] = tag_frame(&t, r, rules_stack(rc, ids, n));
		for (; f < n; f++)
			t.ids[k++] = out_frame(&t, ids[f]);
		if (prof_add(out, t.ids, k, count) < 0) {
			err_warn("sample counts overflow 64 bits");
			status = EXIT_DATA;
			break;
		}
	}
	rules_cache_free(rc);
	free(t.map);
	free(t.pseudo);
	free(t.tags);
	free(t.ids);
	return status;
}

int main(int argc, char **argv)
{
	struct load_opts lopts = { 0 };
	struct rules_opts ropts = { 0 };
	struct err_lines errs;
	struct cli_value v;
	int key, first, prefix_thread = 0;

	char *outbuf = err_start(argv[0], &errs);
	while ((key = cli_next(&spec, argc, argv, &v, &first)) != -1) {
		if (key == OPT_PREFIX_THREAD)
			prefix_thread = 1;
		else
			profopt_take(&spec, key, &v, &lopts, &ropts, &errs);
	}
	rules *r = rules_opts_load(&ropts);
	if (!r)
		exit(EXIT_USAGE);  /* said why; the options still held, as exit keeps them */

	prof *in = prof_new(), *out = prof_new();
	struct load_stats st;
	int status = load_files(in, argv + first, (size_t)(argc - first), &lopts, &errs, &st);
	err_lines_finish(&errs);
	int refused = load_report_empty(&st, "the input");
	if (refused)
		status = EXIT_DATA; /* nothing written: not a profile, or nothing in it */
	int tagged = refused ? 0 : tag_all(in, out, r, prefix_thread);
	if (tagged)
		status = tagged;
	prof_sort(out);
	if (!refused)
		prof_write_folded(out, stdout);
	err_finish(outbuf);
	prof_free(in);
	prof_free(out);
	rules_free(r);
	rules_opts_free(&ropts);
	profopt_free(&lopts);
	return status;
}
