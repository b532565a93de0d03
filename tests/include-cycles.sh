#!/bin/sh
# make check-includes: lib/ must stay layered as docs/HACKING.md draws it.
# 1. Levels: the "## Layers" block of HACKING gives each module a level ("N  name:  mod mod",
#    N a number such as 3 or 2.7, continuation lines indented, parentheses notes); a module
#    may include only modules of its own level or lower. Every module must have a level and
#    every module named there must exist, so the map cannot drift from the tree.
# 2. Cycles: no modules may include each other in a circle (same-level includes can).
# Module A includes B when lib/A.c or lib/A.h has `#include "B.h"` and lib/B.h is one of ours.
# Each finding is printed (A -> B) and the exit status is 1.
# Usage: tests/include-cycles.sh [LIBDIR [HACKING]]   (default: lib, docs/HACKING.md)
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-lib}
doc=${2:-$root/docs/HACKING.md}
[ -f "$doc" ] || { echo "include-cycles: no file $doc" >&2; exit 2; }
doc=$(cd "$(dirname "$doc")" && pwd)/$(basename "$doc")
cd "$dir" 2>/dev/null || { echo "include-cycles: no directory $dir" >&2; exit 2; }
set -- *.c *.h
[ -e "$1" ] || { echo "include-cycles: no sources in $dir" >&2; exit 2; }

# "level MODULE N" lines from the doc's code block under "## Layers" (parentheses are notes).
levels=$(awk '
/^## / { inside = ($0 == "## Layers"); next }
!inside || !/^    / { next }
{
	gsub(/\([^)]*\)/, "")
	if (match($0, /^ *[0-9]+(\.[0-9]+)? +[^:]*:/)) {
		split($0, w, " "); level = w[1]
		$0 = substr($0, RSTART + RLENGTH)
	} else if (level == "") {
		next
	}
	for (i = 1; i <= NF; i++)
		print "level " $i " " level
}' "$doc")
[ -n "$levels" ] || { echo "include-cycles: no levels under \"## Layers\" in $doc" >&2; exit 2; }

# One "FROM TO" line per include of a library header (self-includes left out), then the walk.
{
	printf '%s\n' "$levels"
	for f in "$@"; do
		sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)\.h".*/\1/p' "$f" |
		while IFS= read -r inc; do
			to=${inc##*/}
			[ -f "$to.h" ] && [ "$to" != "${f%.*}" ] && echo "${f%.*} $to"
		done
	done | sort -u
} | awk -v dir="$dir" -v doc="$doc" -v mods="$(printf '%s\n' "$@" | sed 's/\.[ch]$//' | sort -u | tr '\n' ' ')" '
function complain(msg) { print "include-cycles: " msg | "cat >&2"; bad++ }
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
			complain(path " -> " dir "/" to)
			cycles++
		} else if (!state[to]) {
			walk(to)
		}
	}
	depth--; state[m] = 2
}
$1 == "level" {
	if ($2 in level)
		complain($2 " has two levels in " doc " (" level[$2] " and " $3 ")")
	level[$2] = $3
	next
}
{ out[$1, ++nout[$1]] = $2; edge[++nedges] = $1 " " $2 }
END {
	n = split(mods, list)
	for (i = 1; i <= n; i++) {
		known[list[i]] = 1
		if (!(list[i] in level))
			complain(dir "/" list[i] " has no level in " doc " (## Layers): add it")
	}
	for (m in level)
		if (!(m in known))
			complain(m " has a level in " doc " but no file in " dir)
	for (e = 1; e <= nedges; e++) {
		split(edge[e], ft, " ")
		if ((ft[1] in level) && (ft[2] in level) && level[ft[2]] + 0 > level[ft[1]] + 0)
			complain(dir "/" ft[1] " (level " level[ft[1]] ") includes " ft[2] ".h (level " \
				 level[ft[2]] "): a module may include only its own level or lower")
	}
	for (i = 1; i <= n; i++)
		if (!state[list[i]])
			walk(list[i])
	if (bad) {
		close("cat >&2")
		exit 1
	}
	printf "include levels and cycles: none out of order (%d modules)\n", n
}'
