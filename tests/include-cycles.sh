#!/bin/sh
# make check-includes: lib/ must stay layered, so its modules may not include each other in a
# circle. Module A depends on B when lib/A.c or lib/A.h has `#include "B.h"` and lib/B.h is
# one of ours. A depth-first walk names each cycle it runs into, as A -> B -> A, and exits 1.
# Usage: tests/include-cycles.sh [LIBDIR]   (default: lib)
set -u
dir=${1:-lib}
cd "$dir" 2>/dev/null || { echo "include-cycles: no directory $dir" >&2; exit 2; }
set -- *.c *.h
[ -e "$1" ] || { echo "include-cycles: no sources in $dir" >&2; exit 2; }

# One "FROM TO" line per include of a library header (self-includes left out), then the walk.
for f in "$@"; do
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)\.h".*/\1/p' "$f" |
	while IFS= read -r inc; do
		to=${inc##*/}
		[ -f "$to.h" ] && [ "$to" != "${f%.*}" ] && echo "${f%.*} $to"
	done
done | sort -u | awk -v dir="$dir" -v mods="$(printf '%s\n' "$@" | sed 's/\.[ch]$//' | sort -u | tr '\n' ' ')" '
function walk(m,    i, to, k, path) {
	state[m] = 1; stack[++depth] = m
	for (i = 1; i <= nout[m]; i++) {
		to = out[m, i]
		if (state[to] == 1) {  # back to a module still being walked: a cycle
			for (k = depth; stack[k] != to; k--)
				;
			path = dir "/" to
			for (k++; k <= depth; k++)
				path = path " -> " dir "/" stack[k]
			print "include-cycles: " path " -> " dir "/" to | "cat >&2"
			cycles++
		} else if (!state[to]) {
			walk(to)
		}
	}
	depth--; state[m] = 2
}
{ out[$1, ++nout[$1]] = $2 }
END {
	n = split(mods, list)
	for (i = 1; i <= n; i++)
		if (!state[list[i]])
			walk(list[i])
	if (cycles) {
		close("cat >&2")
		exit 1
	}
	printf "include cycles: none (%d modules)\n", n
}'
