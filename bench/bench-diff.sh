# bench-diff: sift-diff on 8 ranks before and 8 after (16 files of about 200 MB) beside sift-top
# reading the same 16 files. Each side's files are summed one by one as replicates and pooled.
profile="$OUT/profile.txt"
if [ ! -s "$profile" ]; then
	echo "  generating $profile (deterministic)"
	python3 "$ROOT/bench/gen-folded.py" "$profile" 210
fi
# Each rank a restart of the same program: its own thread IDs (sift-diff matches by name).
ranks=""
for side in before after; do
	for r in 0 1 2 3 4 5 6 7; do
		f="$OUT/diff-$side-$r.txt"
		[ "$side" = before ] && tid="4$r" || tid="5$r"
		[ -s "$f" ] || sed "s/thread (272/thread ($tid/g" "$profile" > "$f"
		ranks="$ranks '$f'"
	done
done
before=$(for r in 0 1 2 3 4 5 6 7; do printf " '%s'" "$OUT/diff-before-$r.txt"; done)
after=$(for r in 0 1 2 3 4 5 6 7; do printf " '%s'" "$OUT/diff-after-$r.txt"; done)
printf '  input: 16 files, %s MB in all\n' "$(( $(cat "$OUT"/diff-*-?.txt | wc -c) / 1048576 ))"

measure "cat (16 files)" "cat $ranks"
measure "sift-top --by function (16 files)" "'$BIN/sift-top' --by function $ranks"
measure "sift-diff --by function (8 vs 8)" "'$BIN/sift-diff' --by function --before $before --after $after"
echo "  ratios (time):"
ratio "sift-diff --by function (8 vs 8)" "sift-top --by function (16 files)" 'target: 1.5x or less'
