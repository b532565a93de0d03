# bench-top: sift-top and sift-fold on a >= 200 MB folded profile, plain and zstd.
profile="$OUT/profile.txt"
if [ ! -s "$profile" ]; then
	echo "  generating $profile (deterministic)"
	python3 "$ROOT/bench/gen-folded.py" "$profile" 210
fi
[ -s "$profile.zst" ] || zstd -q -3 -T0 -f "$profile" -o "$profile.zst"
printf '  input: %s MB, %s lines, %s distinct stacks\n' "$(( $(stat -c %s "$profile") / 1048576 ))" \
	"$(wc -l < "$profile")" "$("$BIN/sift-fold" "$profile" | wc -l)"

measure "wc -l" "wc -l '$profile'"
measure "sift-top --by frame" "'$BIN/sift-top' --by frame '$profile'"
measure "sift-top --by frame -j 1" "'$BIN/sift-top' --by frame -j 1 '$profile'"
measure "sift-top --by function" "'$BIN/sift-top' --by function '$profile'"
measure "sift-top --by file" "'$BIN/sift-top' --by file '$profile'"
measure "sift-top --by thread" "'$BIN/sift-top' --by thread '$profile'"
measure "sift-fold" "'$BIN/sift-fold' '$profile'"
measure "sift-fold --to speedscope" "'$BIN/sift-fold' --to speedscope '$profile'"
measure "python Counter peer (self and total)" "python3 '$ROOT/bench/peer-top.py' '$profile'"
measure "zstd -dc | wc -l" "zstd -dc '$profile.zst' | wc -l"
measure "sift-top --by frame (zstd)" "'$BIN/sift-top' --by frame '$profile.zst'"

# The peer must print the same table before its time means anything.
"$BIN/sift-top" --by frame --format tsv "$profile" > "$OUT/top.sift"
python3 "$ROOT/bench/peer-top.py" "$profile" > "$OUT/top.peer"
agree "sift-top --by frame" "$OUT/top.sift" "$OUT/top.peer"

echo "  ratios (time):"
ratio "python Counter peer (self and total)" "sift-top --by frame" 'target: 6x or more'
ratio "python Counter peer (self and total)" "sift-top --by frame -j 1"
ratio "sift-top --by frame" "wc -l" 'target: 6x or less, on 2 threads'
ratio "sift-top --by frame -j 1" "wc -l"
ratio "sift-fold --to speedscope" "sift-fold"
echo "  ratios (CPU, user + sys):"
ratio_cpu "sift-top --by frame -j 1" "wc -l" 'target: 10x or less'
ratio_cpu "python Counter peer (self and total)" "sift-top --by frame -j 1"
ratio_cpu "sift-top --by frame" "sift-top --by frame -j 1" 'what the threads cost beyond one'
per_cpu "sift-top --by frame -j 1" "$profile"
per_cpu "sift-fold" "$profile"
writes "sift-fold" "'$BIN/sift-fold' '$profile'"
writes "sift-fold --to speedscope" "'$BIN/sift-fold' --to speedscope '$profile'"
ratio "sift-top --by frame (zstd)" "zstd -dc | wc -l"
ratio "python Counter peer (self and total)" "sift-top --by frame (zstd)"
rss_vs_file "sift-top --by frame" "$profile"
rss_vs_file "sift-fold" "$profile"
rss_vs_file "sift-fold --to speedscope" "$profile"
