#!/bin/sh
# pprof-go: `go tool pprof -top` and `-tags` read sift-fold --to pprof of real profiles and
# agree with sift-top (tests/pprof-go.py says how). Skipped, with a note, where Go is not
# installed. Usage: sh tests/pprof-go.sh BINDIR
set -u
if ! command -v go >/dev/null 2>&1; then
	echo "pprof-go: go is not on PATH: go tool pprof check skipped"
	exit 0
fi
bindir=$(cd "$1" && pwd) || exit 2
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
status=0
cd "$here/../testdata" || exit 2
for file in demo/profile-all.txt pyspy/rec-raw-threads-subprocesses.txt raw/worker-native-snapshots.txt; do
	echo "pprof-go: $file"
	"$bindir/sift-fold" --to pprof "$file" > "$tmp/p.pb.gz" || status=1
	# No binary: pprof reads the profile alone; every node shown, none dropped for size.
	go tool pprof -top -functions -sample_index=samples -nodecount=1000000 -nodefraction=0 \
		-edgefraction=0 "$tmp/p.pb.gz" > "$tmp/top.txt" 2>"$tmp/err" || { cat "$tmp/err"; status=1; continue; }
	go tool pprof -tags -sample_index=samples "$tmp/p.pb.gz" > "$tmp/tags.txt" 2>"$tmp/err" ||
		{ cat "$tmp/err"; status=1; continue; }
	# nothing to warn of: a mapping with a file name ("Main binary filename not available")
	go tool pprof -raw "$tmp/p.pb.gz" > /dev/null 2>"$tmp/err" || status=1
	[ -s "$tmp/err" ] && { echo "  go tool pprof warned:"; cat "$tmp/err"; status=1; }
	for key in function thread category; do
		"$bindir/sift-top" --by "$key" --top 0 --format tsv "$file" > "$tmp/$key.tsv" 2>/dev/null
	done
	python3 "$here/pprof-go.py" "$tmp/top.txt" "$tmp/tags.txt" "$tmp/function.tsv" "$tmp/thread.tsv" \
		"$tmp/category.tsv" > "$tmp/out" || status=1
	sed 's/^/  /' "$tmp/out"
done
[ $status = 0 ] && echo "pprof-go: go tool pprof agrees with sift-top" || echo "pprof-go: FAIL"
exit $status
