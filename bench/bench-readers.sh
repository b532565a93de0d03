# bench-readers.sh: sift-fold (one thread) on a >= 200 MB py-spy-shaped speedscope JSON beside
# a Python json-module peer, and on a large inferno-shaped flame graph SVG.
# Targets (issue 16): speedscope -> folded at >= 100 MB/s, SVG -> folded at >= 50 MB/s.
# Issue 31: a 100 MB py-spy speedscope file read with peak RSS at most half its size (the
# compact document is streamed: memory by distinct stacks, lib/readers.c).
SS_JSON="$OUT/pyspy-speedscope.json"
SVG="$OUT/inferno.svg"
[ -s "$SS_JSON" ] || python3 "$ROOT/bench/gen-speedscope.py" "$SS_JSON" 220
[ -s "$SVG" ] || python3 "$ROOT/bench/gen-flamesvg.py" "$SVG" 80 "$OUT/inferno.folded"
ss_mb=$(echo "$(stat -c %s "$SS_JSON") / 1048576" | bc -l)
svg_mb=$(echo "$(stat -c %s "$SVG") / 1048576" | bc -l)
printf '  inputs: speedscope %.0f MB (%s profiles), SVG %.0f MB (%s frames)\n' "$ss_mb" \
	"$(grep -o '"type":"sampled"' "$SS_JSON" | wc -l)" "$svg_mb" "$(grep -c '<title>' "$SVG")"

# The peer must write the same rows before its time means anything.
"$BIN/sift-fold" "$SS_JSON" > "$OUT/readers-ss.sift"
python3 "$ROOT/bench/peer-speedscope.py" "$SS_JSON" > "$OUT/readers-ss.peer"
agree "sift-fold speedscope" "$OUT/readers-ss.sift" "$OUT/readers-ss.peer"
"$BIN/sift-fold" "$SVG" > "$OUT/readers-svg.sift" 2>"$OUT/readers-svg.err"
python3 "$ROOT/tests/flamesvg-expect.py" "$OUT/inferno.folded" "$OUT/readers-svg.expect" > /dev/null
# The SVG's peer is its generator: the stacks as it laid them out.
agree "sift-fold SVG" "$OUT/readers-svg.sift" "$OUT/readers-svg.expect"
echo "  SVG: $(sed 's/.*: \([0-9]*\) samples.*/\1/' "$OUT/readers-svg.err") samples in narrow frames"

measure cat-speedscope "cat '$SS_JSON'"
measure sift-fold-speedscope "'$BIN/sift-fold' '$SS_JSON'"
BENCH_RUNS=1 measure python-json-speedscope "python3 '$ROOT/bench/peer-speedscope.py' '$SS_JSON'"
measure sift-fold-svg "'$BIN/sift-fold' '$SVG'"

# CPU seconds (user + system) of one run: on a shared machine wall time also holds the
# waits for a core; both are printed.
cpu_secs() {
	/usr/bin/time -f '%U %S' -o "$OUT/cpu.$$" sh -c "$1" >/dev/null 2>&1
	awk '{ print $1 + $2 }' "$OUT/cpu.$$"
}
mbps() { printf '  %-48s %8.1f MB/s   (%s)\n' "$1" "$(echo "$2 / ($(field "$1" 2) + 0.0001)" | bc -l)" "$3"; }
mbps sift-fold-speedscope "$ss_mb" 'target: 100 MB/s or more'
mbps python-json-speedscope "$ss_mb" 'the peer'
mbps sift-fold-svg "$svg_mb" 'target: 50 MB/s or more'
ratio python-json-speedscope sift-fold-speedscope 'times faster than the peer'
cpu_mbps() {
	secs=$(cpu_secs "$2")
	printf '  %-48s %8.1f MB/s   (CPU time, %s s)\n' "$1" "$(echo "$3 / ($secs + 0.0001)" | bc -l)" "$secs"
}
cpu_mbps sift-fold-speedscope "'$BIN/sift-fold' '$SS_JSON'" "$ss_mb"
cpu_mbps python-json-speedscope "python3 '$ROOT/bench/peer-speedscope.py' '$SS_JSON'" "$ss_mb"
cpu_mbps sift-fold-svg "'$BIN/sift-fold' '$SVG'" "$svg_mb"
rss_vs_file sift-fold-speedscope "$SS_JSON"
rss_vs_file sift-fold-svg "$SVG"

SS100="$OUT/pyspy-speedscope-100.json"
[ -s "$SS100" ] || python3 "$ROOT/bench/gen-speedscope.py" "$SS100" 100
measure sift-fold-speedscope-100 "'$BIN/sift-fold' '$SS100'"
measure sift-top-speedscope-100 "'$BIN/sift-top' -j 1 '$SS100'"
per_cpu sift-top-speedscope-100 "$SS100"
rss_vs_file sift-fold-speedscope-100 "$SS100" 'target: 50% or less'
rss_vs_file sift-top-speedscope-100 "$SS100" 'target: 50% or less'

# Issue 29 item 3: pretty-printed, and from a pipe, the same streaming (memory by distinct
# stacks, not the file).
SS100P="$OUT/pyspy-speedscope-100-pretty.json"
[ -s "$SS100P" ] || python3 -c 'import json, sys; json.dump(json.load(open(sys.argv[1])), open(sys.argv[2], "w"), indent=1)' "$SS100" "$SS100P"
measure sift-top-speedscope-100-pretty "'$BIN/sift-top' -j 1 '$SS100P'"
rss_vs_file sift-top-speedscope-100-pretty "$SS100P" 'target: 50% or less'
measure sift-top-speedscope-100-pipe "cat '$SS100' | '$BIN/sift-top' -"
rss_vs_file sift-top-speedscope-100-pipe "$SS100" 'target: 50% or less'
