/* frame: FILE is the last parenthesised group at the end, since NAME may hold parentheses. */
#include "frame.h"
#include "xalloc.h"

#include <string.h>

const char *const frame_key_names[] = { "frame", "function", "file", "lib", "line", "root",
					"thread", "process", "category", "source", "window", NULL };

int frame_key_is_stack_level(enum frame_key key)
{
	return key == KEY_ROOT || key == KEY_THREAD || key == KEY_PROCESS || key == KEY_SOURCE ||
	       key == KEY_WINDOW;
}

static int ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);
	return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

static int is_digits(const char *s, size_t len)
{
	if (len == 0)
		return 0;
	for (size_t i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

static int is_hex_address(const char *s, size_t len)
{
	if (len < 3 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return 0;
	for (size_t i = 2; i < len; i++)
		if (!strchr("0123456789abcdefABCDEF", s[i]))
			return 0;
	return 1;
}

/* A shared library or executable name rather than a source file. */
static int looks_native(const char *file, size_t len, int has_line)
{
	if (len == 0 || file[0] == '<')
		return 0;
	if (ends_with(file, len, ".py") || ends_with(file, len, ".pyx") || ends_with(file, len, ".pyw"))
		return 0;
	if (!has_line)
		return 1;
	/* Debug info gives native frames a C/C++ source and line. */
	static const char *const sources[] = { ".c", ".cc", ".cpp", ".cxx", ".h", ".hpp", ".cu", ".rs", NULL };
	for (int i = 0; sources[i]; i++)
		if (ends_with(file, len, sources[i]))
			return 1;
	return 0;
}

static int thread_frame(const char *s, size_t len, struct frame_parts *p)
{
	if (len < 10 || memcmp(s, "thread (", 8) != 0)
		return 0;
	const char *close = memchr(s + 8, ')', len - 8);
	if (!close || close == s + 8)
		return 0;
	size_t after = (size_t)(close - s) + 1;
	if (after != len && (after + 2 > len || s[after] != ':' || s[after + 1] != ' '))
		return 0;
	p->kind = FRAME_THREAD;
	p->id = s + 8;
	p->id_len = (size_t)(close - (s + 8));
	p->name = after == len ? s + len : s + after + 2;
	p->name_len = after == len ? 0 : len - after - 2;
	return 1;
}

static int process_frame(const char *s, size_t len, struct frame_parts *p)
{
	if (len < 12 || memcmp(s, "process ", 8) != 0 || s[len - 1] != '"')
		return 0;
	size_t i = 8;
	while (i < len && s[i] >= '0' && s[i] <= '9')
		i++;
	if (i == 8 || i + 2 >= len || s[i] != ':' || s[i + 1] != '"')
		return 0;
	p->kind = FRAME_PROCESS;
	p->id = s + 8;
	p->id_len = i - 8;
	p->name = s + i + 2;
	p->name_len = len - (i + 2) - 1;
	return 1;
}

static int is_library_name(const char *s, size_t len)
{
	for (size_t i = 0; i + 3 <= len; i++)
		if (memcmp(s + i, ".so", 3) == 0 && (i + 3 == len || s[i + 3] == '.'))
			return 1;
	return ends_with(s, len, ".dylib") || ends_with(s, len, ".dll") || ends_with(s, len, ".pyd");
}

void frame_split(const char *s, size_t len, struct frame_parts *p)
{
	memset(p, 0, sizeof *p);
	p->kind = FRAME_CODE;
	p->name = s;
	p->name_len = len;
	p->file = p->line = p->id = s + len;
	if (thread_frame(s, len, p) || process_frame(s, len, p))
		return;
	if (len >= 2 && s[0] == '[' && s[len - 1] == ']') {
		/* "[libcuda.so]" is a collapsed run of addresses; other brackets are tags. */
		if (is_library_name(s + 1, len - 2)) {
			p->file = s + 1;
			p->file_len = len - 2;
			p->native = p->address = 1;
		} else {
			p->kind = FRAME_PSEUDO;
		}
		return;
	}
	if (len < 4 || s[len - 1] != ')')
		return;
	/* Walk back to the '(' that opens the final group. */
	size_t depth = 0, i = len;
	while (i-- > 0) {
		if (s[i] == ')')
			depth++;
		else if (s[i] == '(' && --depth == 0)
			break;
	}
	if (depth != 0 || i < 2 || s[i - 1] != ' ' || i + 2 == len)
		return; /* "operator()" and friends: no FILE */
	const char *inner = s + i + 1;
	size_t inner_len = len - i - 2;
	p->name_len = i - 1;
	p->file = inner;
	p->file_len = inner_len;
	const char *colon = NULL;
	for (size_t k = inner_len; k-- > 0;)
		if (inner[k] == ':') {
			colon = inner + k;
			break;
		}
	if (colon && is_digits(colon + 1, (size_t)(inner + inner_len - colon - 1))) {
		p->file_len = (size_t)(colon - inner);
		p->line = colon + 1;
		p->line_len = (size_t)(inner + inner_len - colon - 1);
	}
	p->native = looks_native(p->file, p->file_len, p->line_len > 0);
	p->address = is_hex_address(p->name, p->name_len);
}

static void put(char **buf, size_t *cap, size_t *used, const char *s, size_t len)
{
	*buf = xgrow(*buf, cap, *used + len + 1, 1);
	memcpy(*buf + *used, s, len);
	*used += len;
	(*buf)[*used] = '\0';
}

long frame_key_text(enum frame_key key, const char *frame, size_t len, char **buf, size_t *cap)
{
	struct frame_parts p;
	size_t used = 0;
	frame_split(frame, len, &p);
	if (p.kind != FRAME_CODE)
		return -1;
	switch (key) {
	case KEY_FRAME:
		put(buf, cap, &used, frame, len);
		break;
	case KEY_FUNCTION:
		put(buf, cap, &used, p.name, p.name_len);
		if (p.file_len && p.name_len < len) { /* not a collapsed "[lib]" */
			put(buf, cap, &used, " (", 2);
			put(buf, cap, &used, p.file, p.file_len);
			put(buf, cap, &used, ")", 1);
		}
		break;
	case KEY_FILE:
	case KEY_LIB:
		if (!p.file_len || (key == KEY_LIB && !p.native))
			return -1;
		put(buf, cap, &used, p.file, p.file_len);
		break;
	case KEY_LINE:
		if (!p.file_len)
			return -1;
		put(buf, cap, &used, p.file, p.file_len);
		if (p.line_len) {
			put(buf, cap, &used, ":", 1);
			put(buf, cap, &used, p.line, p.line_len);
		}
		break;
	default:
		return -1;
	}
	return (long)used;
}

void frame_lib_basename(const char *lib, size_t len, const char **base, size_t *base_len)
{
	const char *slash = NULL;
	for (size_t i = len; i-- > 0;)
		if (lib[i] == '/') {
			slash = lib + i;
			break;
		}
	const char *b = slash ? slash + 1 : lib;
	size_t n = len - (size_t)(b - lib);
	for (size_t i = 0; i + 3 <= n; i++)
		if (memcmp(b + i, ".so", 3) == 0 && (i + 3 == n || b[i + 3] == '.')) {
			n = i + 3;
			break;
		}
	*base = b;
	*base_len = n;
}
