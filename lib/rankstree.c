/* rankstree: stacks of frame ids merged into one prefix tree, each node with the members
 * that reached it, drawn STAT-style. */
#include "rankstree.h"
#include "intern.h"
#include "rankname.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

struct tnode {
	uint32_t frame;
	size_t *members;           /* the members that reached it, in the order added */
	size_t n, cap;
	size_t *kids;
	size_t nkids, kids_cap;
};

struct rankstree {
	struct tnode *nodes;
	size_t n, cap;
	intern *edges;             /* (parent, frame) -> node */
};

static size_t tree_child(struct rankstree *t, size_t parent, uint32_t frame)
{
	uint32_t key[2] = { (uint32_t)parent, frame };
	size_t id = intern_add(t->edges, (const char *)key, sizeof key) + 1;  /* node 0 is the root */
	if (id >= t->n) {
		t->nodes = xgrow(t->nodes, &t->cap, id + 1, sizeof *t->nodes);
		memset(&t->nodes[id], 0, sizeof t->nodes[id]);
		t->nodes[id].frame = frame;
		t->n = id + 1;
		struct tnode *p = &t->nodes[parent];
		p->kids = xgrow(p->kids, &p->kids_cap, p->nkids + 1, sizeof *p->kids);
		p->kids[p->nkids++] = id;
	}
	return id;
}

static void tree_member(struct tnode *node, size_t member)
{
	if (node->n && node->members[node->n - 1] == member)
		return;
	node->members = xgrow(node->members, &node->cap, node->n + 1, sizeof *node->members);
	node->members[node->n++] = member;
}

static int by_members(const void *a, const void *b, void *ctx)
{
	const struct rankstree *t = ctx;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	if (t->nodes[x].n != t->nodes[y].n)
		return t->nodes[x].n < t->nodes[y].n ? 1 : -1;
	return x < y ? -1 : x > y;
}

rankstree *rankstree_new(void)
{
	rankstree *t = xcalloc(1, sizeof *t);
	t->edges = intern_new();
	t->nodes = xgrow(NULL, &t->cap, 1, sizeof *t->nodes);
	memset(&t->nodes[0], 0, sizeof t->nodes[0]);
	t->n = 1;
	return t;
}

void rankstree_free(rankstree *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++) {
		free(t->nodes[i].members);
		free(t->nodes[i].kids);
	}
	free(t->nodes);
	intern_free(t->edges);
	free(t);
}

void rankstree_add(rankstree *t, size_t member, const uint32_t *frames, size_t n)
{
	size_t at = 0;
	tree_member(&t->nodes[0], member);
	for (size_t k = 0; k < n; k++) {
		at = tree_child(t, at, frames[k]);
		tree_member(&t->nodes[at], member);
	}
}

struct tline { size_t node; size_t first, rest; };  /* offsets in the prefix pool */

int rankstree_write(rankstree *t, rankstree_line_fn *line, void *ctx, FILE *out)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->nodes[i].nkids > 1)
			qsort_r(t->nodes[i].kids, t->nodes[i].nkids, sizeof *t->nodes[i].kids, by_members, t);
	struct rankname_sb pool = { 0 };
	struct tline *stack = NULL;
	size_t depth = 0, cap = 0;
	rankname_put(&pool, "", 1);
	stack = xgrow(stack, &cap, 1, sizeof *stack);
	stack[depth++] = (struct tline){ 0, 0, 0 };
	while (depth) {
		struct tline e = stack[--depth];
		const struct tnode *node = &t->nodes[e.node];
		if (e.node)
			line(ctx, pool.s + e.first, node->frame, node->members, node->n, out);
		/* prefixes live in one pool (offsets: it moves as it grows), each ending in a NUL */
		size_t rest_len = strlen(pool.s + e.rest);
		char *rest = xstrndup(pool.s + e.rest, rest_len);
		int branch = node->nkids > 1;
		for (size_t k = node->nkids; k-- > 0;) { /* pushed last first: drawn in order */
			struct tline c = { node->kids[k], e.rest, e.rest };
			if (branch) {
				c.first = pool.len;
				rankname_put(&pool, rest, rest_len);
				rankname_put(&pool, "+-", 3);
				c.rest = pool.len;
				rankname_put(&pool, rest, rest_len);
				rankname_put(&pool, k + 1 < node->nkids ? "| " : "  ", 3);
			}
			stack = xgrow(stack, &cap, depth + 1, sizeof *stack);
			stack[depth++] = c;
		}
		free(rest);
	}
	free(stack);
	free(pool.s);
	return ferror(out) ? -1 : 0;
}
