#!/bin/sh
# make check-limits: 10,000,000 distinct stacks. Memory must stay proportional to the data:
# peak RSS for 10M stacks at most 16 times that for 1M (10 times the data, plus the slack of
# doubling tables), and at most 12 times the input's size. No timing is asserted.
# Usage: tests/limits.sh BINDIR
set -u
bindir=$(cd "$1" && pwd) || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
awk 'BEGIN { for (i = 0; i < 10000000; i++) printf "main (m.py:1);f%d (m.py:%d) 1\n", i, i % 1000 }' >"$tmp/s10m.txt"
head -n 1000000 "$tmp/s10m.txt" >"$tmp/s1m.txt"
fail=0
for tool in sift-fold sift-top; do
	for n in 1m 10m; do
		/usr/bin/time -f %M -o "$tmp/rss.$n" "$bindir/$tool" "$tmp/s$n.txt" >"$tmp/out" 2>"$tmp/err" ||
			{ echo "limits: $tool on $n stacks failed:"; cat "$tmp/err"; fail=1; continue; }
	done
	rss1=$(cat "$tmp/rss.1m") rss10=$(cat "$tmp/rss.10m")
	size=$(($(wc -c <"$tmp/s10m.txt") / 1024))
	if [ "$rss10" -le $((rss1 * 16)) ] && [ "$rss10" -le $((size * 12)) ]; then
		verdict=pass
	else
		verdict=FAIL fail=1
	fi
	echo "limits: $tool, 10,000,000 distinct stacks ($size KB): peak RSS $rss10 KB (1,000,000: $rss1 KB): $verdict"
done
[ $fail = 0 ]
