/* frame: one frame's parts (NAME, FILE, LINE) and the keys tables are grouped by. */
#ifndef SIFT_FRAME_H
#define SIFT_FRAME_H

#include <stddef.h>

enum frame_kind {
	FRAME_CODE,     /* NAME (FILE:LINE), NAME (FILE) or a bare NAME */
	FRAME_THREAD,   /* thread (TID): NAME, thread (TID) */
	FRAME_PROCESS,  /* process PID:"CMDLINE" */
	FRAME_PSEUDO,   /* [something]: a tag sift or a user added (categories, statuses) */
};

struct frame_parts {
	enum frame_kind kind;
	const char *name;  size_t name_len;   /* NAME; for threads the thread name (may be empty) */
	const char *file;  size_t file_len;   /* FILE without :LINE; 0 length when none */
	const char *line;  size_t line_len;   /* LINE digits; 0 length when none */
	const char *id;    size_t id_len;     /* TID or PID for pseudo-frames */
	int native;        /* FILE is a library or executable, not source */
	int address;       /* NAME is an unresolved 0x address */
};

/* Split a frame as written. Never fails: what does not parse is a bare NAME. */
void frame_split(const char *frame, size_t len, struct frame_parts *parts);

enum frame_key {
	KEY_FRAME, KEY_FUNCTION, KEY_FILE, KEY_LIB, KEY_LINE,
	KEY_ROOT, KEY_THREAD, KEY_PROCESS, KEY_CATEGORY,
	KEY_SOURCE,             /* the input a stack was read from (its basename or --label) */
	KEY_WINDOW,             /* the window of time a stack was in (its start in seconds) */
	KEY_COUNT
};
/* --by names in enum order, NULL-terminated. */
extern const char *const frame_key_names[];

/* Keys that belong to a whole stack (one value per stack), not to each frame. */
int frame_key_is_stack_level(enum frame_key key);

/* The text of a per-frame key (frame, function, file, lib, line) of a code frame, built
 * in *buf (grown as needed). Returns its length, or -1 when the frame has no such key:
 * pseudo-frames have none, Python frames have no lib. */
long frame_key_text(enum frame_key key, const char *frame, size_t len, char **buf, size_t *cap);

/* Library basename: the part after the last '/', cut after ".so" ("nvidia/x/libcudart.so.12"
 * -> "libcudart.so"). Points into lib. */
void frame_lib_basename(const char *lib, size_t len, const char **base, size_t *base_len);

/* A frame (or any key) as a readable label of at most max characters (UTF-8 aware), in buf
 * (NUL-terminated): a frame's file loses its directories ("f (torch/nn/x.py:3)" ->
 * "f (x.py:3)"); a C++ name too long keeps its function ("...::pack (lib.so)"); then the
 * middle of what is still too long becomes "...". Returns the length. */
size_t frame_shorten(const char *s, size_t len, size_t max, char *buf, size_t cap);

#endif
