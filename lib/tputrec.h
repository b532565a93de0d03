/* tputrec: the records stage: the lines of a block, and a record hard-wrapped over lines (a
 * terminal's or a wrapper's width) put back together as one. */
#ifndef SIFT_TPUTREC_H
#define SIFT_TPUTREC_H

#include <stddef.h>

/* Length of the block's line at s, without its "\n". */
size_t tputrec_line_len(const char *s, const char *block_end);
/* Is n (a line's bytes, without its line end) a width records are hard-wrapped at? Only
 * then may a reader join lines it would read apart. */
int tputrec_wrap_width(size_t n);

/* Where a joined record is put: grown as needed, the caller's to free (text). */
struct tputrec_buf {
	char *text;
	size_t cap;
};
/* The wrapped record the line at cur of the block text[.., end) belongs to, its lines from
 * *first (not before from) to *last, put together in buf->text: its length, 0 when the line
 * stands alone. Every part but the last is as wide as a terminal, the first starts with the
 * log's prefix (a rank or a timestamp), the others do not, and the cut falls inside a field;
 * a line next to the record must have the prefix too. */
size_t tputrec_join(struct tputrec_buf *buf, char *text, char *from, char *cur, char *end, char **first,
		    char **last);

#endif
