#!/bin/sh
# Command-line tests: each testdata/cli/CASE/cmd runs in testdata/ with the tools of BINDIR
# first on PATH; its stdout, stderr and exit status must equal CASE/stdout, stderr, status.
# Usage: tests/cli.sh BINDIR [CASE...]            check every case, or the named ones
#        tests/cli.sh BINDIR --update CASE...     re-record the named cases, each with its diff
#        tests/cli.sh BINDIR --update-all        re-record every case (rarely right: read the diffs)
# Re-recording needs names so that one edit cannot rewrite the whole suite unseen.
set -u
usage() {
	echo "usage: tests/cli.sh BINDIR [CASE...]" >&2
	echo "       tests/cli.sh BINDIR --update CASE...   (re-record the named cases)" >&2
	echo "       tests/cli.sh BINDIR --update-all       (re-record every case)" >&2
	exit 2
}
[ $# -ge 1 ] || usage
bindir=$(cd "$1" && pwd) || exit 2
shift
update=0
case "${1:-}" in
--update)
	shift
	if [ $# -eq 0 ]; then
		echo "tests/cli.sh: --update needs the names of the cases to re-record;" \
			"to re-record every case, say --update-all" >&2
		usage
	fi
	update=1 ;;
--update-all) shift; [ $# -eq 0 ] || usage; update=1 ;;
-*) usage ;;
esac
root=$(cd "$(dirname "$0")/.." && pwd)
data="$root/testdata"
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0 changed=0
if [ $# -gt 0 ]; then cases="$*"; else cases=$(cd "$data/cli" && ls); fi
for name in $cases; do
	dir="$data/cli/$name"
	# A named case that does not exist is a failure, not a silent pass.
	if [ ! -f "$dir/cmd" ]; then
		echo "FAIL: $name: no testdata/cli/$name/cmd"
		fail=$((fail + 1))
		continue
	fi
	# Each case its own scratch directory: no case sees another's files.
	rm -rf "$tmp/work" && mkdir "$tmp/work" || exit 2
	(cd "$data" && PATH="$bindir:$PATH" SIFT_TMP="$tmp/work" LC_ALL=C ASAN_OPTIONS=detect_leaks=1 \
		sh "$dir/cmd" >"$tmp/stdout" 2>"$tmp/stderr" </dev/null; echo $? >"$tmp/status")
	if [ $update = 1 ]; then
		# Old expected against new, in full: the diff is what the re-record must be judged by.
		same=1
		for f in stdout stderr status; do
			if [ -f "$dir/$f" ]; then
				cmp -s "$dir/$f" "$tmp/$f" && continue
				old="$dir/$f"
			else
				old=/dev/null  # a new case: every file is written, empty ones too
			fi
			[ $same = 1 ] && echo "updated: $name"
			same=0
			diff -u --label "$name/$f (expected)" --label "$name/$f (new)" "$old" "$tmp/$f"
			cp "$tmp/$f" "$dir/$f"
		done
		if [ $same = 1 ]; then echo "unchanged: $name"; else changed=$((changed + 1)); fi
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
[ $update = 1 ] && echo "cli tests ($(basename "$bindir")): $changed re-recorded with changes"
echo "cli tests ($(basename "$bindir")): $pass passed, $fail failed"
[ $fail = 0 ]
