# bench/lib.sh: shared helpers for bench/bench-*.sh (sourced by bench/run.sh).
# measure NAME CMD: run CMD $BENCH_RUNS times (default 3; output discarded), record the median
# wall seconds and the largest peak RSS. One run is at the mercy of a noisy neighbour on a VM.
# ratio A B [NOTE]: print A's time over B's, and the note (a target, say) after it.
# agree WHAT SIFT PEER: the two answer files must be the same, or a peer's time means nothing:
# a difference is shown and noted, and bench/run.sh ends with status 1 after every part ran
# (as it does when a measured command fails).
results="$OUT/results.tsv"
disagree="$OUT/disagree"

agree() {
	if cmp -s "$2" "$3"; then
		echo "  $1: sift and the peer agree ($(wc -l < "$2") lines)"
		return 0
	fi
	echo "  bench: $1: sift and the peer DISAGREE (< sift, > peer):" >&2
	diff "$2" "$3" | head -10 >&2
	echo "$1" >> "$disagree"
}

measure() {
	name=$1; shift
	runs=${BENCH_RUNS:-3} times="" maxkb=0 i=0
	while [ "$i" -lt "$runs" ]; do
		/usr/bin/time -f '%e %M' -o "$OUT/time.$$" sh -c "$*" >/dev/null 2>"$OUT/err.$$" || {
			echo "bench: $name failed:" >&2; cat "$OUT/err.$$" >&2; echo "$name (failed)" >> "$disagree"; }
		# The figures are the last line: a failed command's status comes before them.
		read -r secs kb <<-EOF || { secs=nan; kb=0; }
		$(tail -n 1 "$OUT/time.$$" 2>/dev/null)
		EOF
		times="$times $secs"
		[ "$kb" -gt "$maxkb" ] && maxkb=$kb
		i=$((i + 1))
	done
	secs=$(printf '%s\n' $times | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	printf '%s\t%s\t%s\n' "$name" "$secs" "$maxkb" >> "$results"
	printf '  %-34s %8.2f s %9.1f MB   (runs:%s)\n' "$name" "$secs" "$(echo "$maxkb / 1024" | bc -l)" "$times"
}

field() { awk -F'\t' -v n="$1" -v c="$2" '$1 == n { v = $c } END { print v }' "$results"; }

ratio() {
	a=$(field "$1" 2); b=$(field "$2" 2)
	printf '  %-48s %8.2fx%s\n' "$1 / $2" "$(echo "$a / ($b + 0.0001)" | bc -l)" "${3:+   ($3)}"
}

# rss_vs_file NAME FILE: peak RSS of NAME as a share of FILE's size.
rss_vs_file() {
	kb=$(field "$1" 3); bytes=$(stat -c %s "$2")
	printf '  %-48s %8.2f%%\n' "peak RSS of $1 / size of $(basename "$2")" "$(echo "100 * $kb * 1024 / $bytes" | bc -l)"
}
