#!/bin/sh
# Run each fuzz harness for SECONDS on a corpus seeded from testdata/; replay the saved
# regression inputs (tests/fuzz/regress/HARNESS/*) first. Usage: run.sh DIR SECONDS HARNESS...
set -eu
dir=$1 secs=$2; shift 2
root=$(cd "$(dirname "$0")/../.." && pwd)
for h in "$@"; do
	corpus="$dir/corpus/$h"
	mkdir -p "$corpus"
	seeds="$root/tests/fuzz/seeds/$h"
	if [ -f "$seeds" ]; then
		while read -r pattern; do
			for f in $root/testdata/$pattern; do
				[ -f "$f" ] || continue
				cp "$f" "$corpus/"
				# Parsers of text see compressed seeds only as the input module gives them.
				case $f in *.zst) zstd -dcq "$f" >"$corpus/$(basename "$f" .zst)" 2>/dev/null || true ;; esac
			done
		done < "$seeds"
	fi
	regress="$root/tests/fuzz/regress/$h"
	if [ -d "$regress" ] && [ -n "$(ls "$regress")" ]; then
		"$dir/$h" -close_fd_mask=3 -artifact_prefix="$dir/$h-replay-" "$regress"/* >/dev/null 2>"$dir/$h.replay.log" ||
			{ echo "fuzz: $h: a regression input fails again" >&2; tail -40 "$dir/$h.replay.log" >&2; exit 1; }
	fi
	"$dir/$h" -max_total_time="$secs" -close_fd_mask=3 -artifact_prefix="$dir/$h-" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 "$corpus" >"$dir/$h.log" 2>&1 ||
		{ echo "fuzz: $h found a failure:" >&2; tail -60 "$dir/$h.log" >&2; exit 1; }
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/$h.log")
	cov=$(grep -o 'cov: [0-9]*' "$dir/$h.log" | tail -1)
	echo "fuzz: $h: $runs runs in ${secs}s, $cov, no failure"
done
