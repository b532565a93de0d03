# bench-dumps.sh: sift-fold on >= 20,000 concatenated py-spy dump snapshots (natives, locals,
# noise) against a Python `re` peer that writes the same folded stacks.
dumps="$OUT/dumps.txt"
[ -s "$dumps" ] || python3 "$ROOT/bench/gen-dumps.py" 20000 > "$dumps"
echo "  input: $(wc -l < "$dumps") lines, $(($(stat -c %s "$dumps") / 1048576)) MB, 20000 snapshots"
"$BIN/sift-fold" "$dumps" > "$OUT/dumps.sift" 2>/dev/null
python3 "$ROOT/bench/peer-dumps.py" < "$dumps" > "$OUT/dumps.peer"
agree "sift-fold dumps" "$OUT/dumps.sift" "$OUT/dumps.peer"
measure "cat dumps" "cat '$dumps'"
measure "sift-fold dumps" "'$BIN/sift-fold' '$dumps'"
measure "python re dumps" "python3 '$ROOT/bench/peer-dumps.py' < '$dumps'"
ratio "python re dumps" "sift-fold dumps"
rss_vs_file "sift-fold dumps" "$dumps"
