/* fuzz_folded: folded lines, their frames and every key derived from a frame. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "folded.h"
#include "frame.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct folded_line fl;
	const char *reason;
	char *buf = NULL;
	size_t cap = 0;
	if (folded_parse((const char *)data, size, &fl, &reason) != FOLDED_OK)
		return 0;
	size_t pos = 0, len;
	const char *frame;
	while (folded_next_frame(fl.stack, fl.len, &pos, &frame, &len)) {
		struct frame_parts parts;
		frame_split(frame, len, &parts);
		for (int key = KEY_FRAME; key <= KEY_LINE; key++)
			frame_key_text((enum frame_key)key, frame, len, &buf, &cap);
		const char *base;
		size_t base_len;
		frame_lib_basename(parts.file, parts.file_len, &base, &base_len);
	}
	free(buf);
	return 0;
}
