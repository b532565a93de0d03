#!/bin/sh
# Command-line tests: each testdata/cli/CASE/cmd runs in testdata/ with the tools of BINDIR
# first on PATH; its stdout, stderr and exit status must equal CASE/stdout, stderr, status.
# Usage: tests/cli.sh BINDIR [--update] [CASE...]
set -u
bindir=$(cd "$1" && pwd) || exit 2
shift
update=0
if [ "${1:-}" = "--update" ]; then update=1; shift; fi
root=$(cd "$(dirname "$0")/.." && pwd)
data="$root/testdata"
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0
if [ $# -gt 0 ]; then cases="$*"; else cases=$(cd "$data/cli" && ls); fi
for name in $cases; do
	dir="$data/cli/$name"
	[ -f "$dir/cmd" ] || continue
	# Each case its own scratch directory: no case sees another's files.
	rm -rf "$tmp/work" && mkdir "$tmp/work" || exit 2
	(cd "$data" && PATH="$bindir:$PATH" SIFT_TMP="$tmp/work" LC_ALL=C ASAN_OPTIONS=detect_leaks=1 \
		sh "$dir/cmd" >"$tmp/stdout" 2>"$tmp/stderr" </dev/null; echo $? >"$tmp/status")
	if [ $update = 1 ]; then
		cp "$tmp/stdout" "$dir/stdout"; cp "$tmp/stderr" "$dir/stderr"; cp "$tmp/status" "$dir/status"
	fi
	ok=1
	for f in stdout stderr status; do
		if ! cmp -s "$tmp/$f" "$dir/$f"; then
			[ $ok = 1 ] && echo "FAIL: $name ($(basename "$bindir"))"
			ok=0
			diff -u "$dir/$f" "$tmp/$f" | head -20
		fi
	done
	if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "cli tests ($(basename "$bindir")): $pass passed, $fail failed"
[ $fail = 0 ]
