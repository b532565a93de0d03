/* rankstree: stacks of frame ids merged into one prefix tree, each node with the members
 * (processes) that reached it, drawn STAT-style with branch marks where members part. */
#ifndef SIFT_RANKSTREE_H
#define SIFT_RANKSTREE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct rankstree rankstree;

rankstree *rankstree_new(void);
void rankstree_free(rankstree *t);
/* One of member's stacks, root first. A member's stacks come together: a node lists each
 * member once, in the order they were added. */
void rankstree_add(rankstree *t, size_t member, const uint32_t *frames, size_t n);
/* Writes a node's line after prefix (its branch marks): its frame and the members that
 * reached it. */
typedef void rankstree_line_fn(void *ctx, const char *prefix, uint32_t frame, const size_t *members,
			       size_t n, FILE *out);
/* Every node but the root, depth first, children with the most members first (ties: the
 * first made). A chain stays at one indentation; where members part, each branch's first
 * line is marked "+-" and the lines under it "| " (the last branch's "  "). Returns
 * -1 on a write error. */
int rankstree_write(rankstree *t, rankstree_line_fn *line, void *ctx, FILE *out);

#endif
