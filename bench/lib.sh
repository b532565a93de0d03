# bench/lib.sh: shared helpers for bench/bench-*.sh (sourced by bench/run.sh).
# measure NAME CMD: run CMD $BENCH_RUNS times (default 3; output discarded), record the median
# wall seconds, the largest peak RSS and the median CPU seconds (user + sys: what a shared
# machine's neighbours disturb least; bench/rusage.py measures). One run is at the mercy of a noisy neighbour on a VM.
# ratio A B [NOTE]: print A's time over B's, and the note (a target, say) after it;
# ratio_cpu A B [NOTE] the same of CPU time. per_cpu NAME FILE: FILE's MB per CPU second of
# NAME (a single-threaded run: MB/s per thread). writes NAME CMD: CMD's write(2) calls, when
# strace is installed.
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
	runs=${BENCH_RUNS:-3} times="" cpus="" maxkb=0 i=0
	while [ "$i" -lt "$runs" ]; do
		python3 "$ROOT/bench/rusage.py" "$OUT/time.$$" "$*" >/dev/null 2>"$OUT/err.$$" || {
			echo "bench: $name failed:" >&2; cat "$OUT/err.$$" >&2; echo "$name (failed)" >> "$disagree"; }
		read -r secs kb cpu <<-EOF || { secs=nan; kb=0; cpu=nan; }
		$(tail -n 1 "$OUT/time.$$" 2>/dev/null)
		EOF
		times="$times $secs"
		cpus="$cpus $cpu"
		[ "$kb" -gt "$maxkb" ] && maxkb=$kb
		i=$((i + 1))
	done
	secs=$(printf '%s\n' $times | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	cpu=$(printf '%s\n' $cpus | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	printf '%s\t%s\t%s\t%s\n' "$name" "$secs" "$maxkb" "$cpu" >> "$results"
	printf '  %-34s %8.2f s %9.1f MB %8.3f s CPU   (runs:%s)\n' "$name" "$secs" "$(echo "$maxkb / 1024" | bc -l)" "$cpu" "$times"
}

field() { awk -F'\t' -v n="$1" -v c="$2" '$1 == n { v = $c } END { print v }' "$results"; }

ratio() {
	a=$(field "$1" 2); b=$(field "$2" 2)
	printf '  %-48s %8.2fx%s\n' "$1 / $2" "$(echo "$a / ($b + 0.0001)" | bc -l)" "${3:+   ($3)}"
}

ratio_cpu() {
	a=$(field "$1" 4); b=$(field "$2" 4)
	printf '  %-48s %8.2fx%s\n' "CPU $1 / $2" "$(echo "$a / ($b + 0.0001)" | bc -l)" "${3:+   ($3)}"
}

per_cpu() {
	cpu=$(field "$1" 4); bytes=$(stat -c %s "$2")
	printf '  %-48s %8.0f MB/s\n' "$(basename "$2") per CPU second of $1" "$(echo "$bytes / 1000000 / ($cpu + 0.0001)" | bc -l)"
}

writes() {
	name=$1; shift
	command -v strace >/dev/null 2>&1 || { echo "  $name: write calls not counted (no strace)"; return 0; }
	sh -c "strace -f -c -e trace=write -o '$OUT/strace.$$' $*" >/dev/null 2>&1
	printf '  %-48s %8s\n' "write calls of $name" "$(awk '$NF == "write" { print $4 }' "$OUT/strace.$$")"
}

# rss_vs_file NAME FILE [NOTE]: peak RSS of NAME as a share of FILE's size, and the note.
rss_vs_file() {
	kb=$(field "$1" 3); bytes=$(stat -c %s "$2")
	printf '  %-48s %8.2f%%%s\n' "peak RSS of $1 / size of $(basename "$2")" \
		"$(echo "100 * $kb * 1024 / $bytes" | bc -l)" "${3:+   ($3)}"
}
