#!/bin/sh
# make bench: generate large inputs (deterministic), time each sift tool beside its peers in
# one run, print wall time, peak RSS and ratios. Exit status 1 when a peer's answer differs
# from sift's (`agree` in bench/lib.sh). Usage: bench/run.sh BINDIR [bench-NAME.sh...]
# BENCH_OUT: the scratch and input directory (default bench/out; inputs found there are used
# as they are, so a small one can be put there first); BENCH_RUNS: runs per measure (3).
set -eu
BIN=$(cd "$1" && pwd); shift
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${BENCH_OUT:-$ROOT/bench/out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
: > "$OUT/results.tsv"
: > "$OUT/disagree"
export BIN ROOT OUT
. "$ROOT/bench/lib.sh"
if [ $# -gt 0 ]; then parts="$*"; else parts=$(cd "$ROOT/bench" && ls bench-*.sh); fi
for part in $parts; do
	echo "== $part"
	. "$ROOT/bench/$part"
done
if [ -s "$OUT/disagree" ]; then
	echo "bench: a peer disagrees with sift (its times mean nothing) or a command failed:" \
		"$(tr '\n' ';' < "$OUT/disagree")" >&2
	exit 1
fi
