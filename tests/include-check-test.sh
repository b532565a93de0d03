#!/bin/sh
# The include check itself, tested on copies of lib/ (no build, no tools): the tree as it is
# passes; an upward include (across levels, and across decimal levels), a same-level cycle and
# a module missing from HACKING's map each fail with their own message. Run by `make check-includes`.
# Usage: tests/include-check-test.sh
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0

# expect NAME STATUS PATTERN: the check on $tmp/lib exits STATUS and its output has PATTERN.
expect() {
	sh "$root/tests/include-cycles.sh" "$tmp/lib" >"$tmp/out" 2>&1
	got=$?
	if [ "$got" != "$2" ] || ! grep -q -- "$3" "$tmp/out"; then
		echo "FAIL: include check, $1: status $got (want $2), output:"
		sed 's/^/  /' "$tmp/out"
		fail=1
	fi
}

fresh() { rm -rf "$tmp/lib" && cp -R "$root/lib" "$tmp/lib" || exit 2; }
# plant FILE INCLUDE: add `#include "INCLUDE"` after FILE's first line.
plant() { sed -i "1a #include \"$2\"" "$tmp/lib/$1" || exit 2; }

fresh
expect "the tree" 0 "none out of order"

fresh
plant err.c diff.h
expect "err.c includes diff.h" 1 "err (level 0) includes diff.h (level 7)"

# agg.h includes frame.h (both level 2); frame.c including agg.h closes a circle.
fresh
plant frame.c agg.h
expect "a same-level cycle" 1 "lib/agg -> .*lib/frame -> .*lib/agg"

# Decimal levels order sift-tput's stages: the lowest may not use the highest.
fresh
plant tputbyte.c tputrule.h
expect "tputbyte.c includes tputrule.h" 1 "tputbyte (level 2.1) includes tputrule.h (level 2.7)"

fresh
printf '/* new: a module not on the map */\n' > "$tmp/lib/newmod.h"
expect "a module with no level" 1 "newmod has no level"

[ $fail = 0 ] && echo "include check: 5 cases passed"
[ $fail = 0 ]
