#!/bin/sh
# tests/cli.sh's re-recording, tested on a scratch tree (a copy of the script, one made-up
# case, a stand-in tool): --update without names is refused, --update NAME shows the old
# expected output against the new before it writes it, --update-all is the one way to
# re-record everything, and an unknown case fails. Run by `make check-cli` and `make test`.
# Usage: tests/cli-update-test.sh
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
mkdir -p "$tmp/tree/tests" "$tmp/tree/testdata/cli/hello" "$tmp/bin" || exit 2
cp "$root/tests/cli.sh" "$tmp/tree/tests/" || exit 2
printf '#!/bin/sh\necho "hello, new"\n' > "$tmp/bin/sift-hello" && chmod +x "$tmp/bin/sift-hello"
echo "sift-hello" > "$tmp/tree/testdata/cli/hello/cmd"
echo "hello, old" > "$tmp/tree/testdata/cli/hello/stdout"
: > "$tmp/tree/testdata/cli/hello/stderr"
echo 0 > "$tmp/tree/testdata/cli/hello/status"
cli() { sh "$tmp/tree/tests/cli.sh" "$tmp/bin" "$@" >"$tmp/out" 2>&1; }

# expect NAME STATUS WANT: the last cli run exited STATUS and printed exactly WANT.
expect() {
	if [ "$got" != "$2" ] || [ "$(cat "$tmp/out")" != "$3" ]; then
		echo "FAIL: cli.sh $1: status $got (want $2), output:"
		sed 's/^/  /' "$tmp/out"
		fail=1
	fi
}

cli --update; got=$?
expect "--update without names" 2 "tests/cli.sh: --update needs the names of the cases to re-record; to re-record every case, say --update-all
usage: tests/cli.sh BINDIR [CASE...]
       tests/cli.sh BINDIR --update CASE...   (re-record the named cases)
       tests/cli.sh BINDIR --update-all       (re-record every case)"
[ "$(cat "$tmp/tree/testdata/cli/hello/stdout")" = "hello, old" ] || { echo "FAIL: cli.sh --update wrote"; fail=1; }

cli; got=$?
# (the diff's file lines carry times: left out)
grep -v '^\(---\|+++\) ' "$tmp/out" > "$tmp/out.diff"; mv "$tmp/out.diff" "$tmp/out"
expect "check" 1 "FAIL: hello (bin)
@@ -1 +1 @@
-hello, old
+hello, new
cli tests (bin): 0 passed, 1 failed"

cli --update hello; got=$?
expect "--update hello" 0 "updated: hello
--- hello/stdout (expected)
+++ hello/stdout (new)
@@ -1 +1 @@
-hello, old
+hello, new
cli tests (bin): 1 re-recorded with changes
cli tests (bin): 1 passed, 0 failed"

cli --update-all; got=$?
expect "--update-all" 0 "unchanged: hello
cli tests (bin): 0 re-recorded with changes
cli tests (bin): 1 passed, 0 failed"

cli nosuch; got=$?
expect "an unknown case" 1 "FAIL: nosuch: no testdata/cli/nosuch/cmd
cli tests (bin): 0 passed, 1 failed"

[ $fail = 0 ] && echo "cli.sh --update: 5 cases passed"
[ $fail = 0 ]
