#!/bin/sh
# make bench: generate large inputs (deterministic), time each sift tool beside its peers in
# one run, print wall time, peak RSS and ratios. Usage: bench/run.sh BINDIR [bench-NAME...]
set -eu
BIN=$(cd "$1" && pwd); shift
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT="$ROOT/bench/out"
mkdir -p "$OUT"
: > "$OUT/results.tsv"
export BIN ROOT OUT
. "$ROOT/bench/lib.sh"
if [ $# -gt 0 ]; then parts="$*"; else parts=$(cd "$ROOT/bench" && ls bench-*.sh); fi
for part in $parts; do
	echo "== $part"
	. "$ROOT/bench/$part"
done
