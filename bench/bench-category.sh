# bench-category: sift-top --by category beside --by frame (target: within 1.5x) and a Python
# keyword breakdown with the same rules (target: sift at least 10x faster), both as a careful
# script (each distinct frame matched once) and as a quick one (frames matched per stack).
profile="$OUT/profile.txt"
if [ ! -s "$profile" ]; then
	echo "  generating $profile (deterministic)"
	# The shared generator when the tree has it, else this benchmark's own smaller one.
	if [ -f "$ROOT/bench/gen-folded.py" ]; then
		python3 "$ROOT/bench/gen-folded.py" "$profile" 210
	else
		python3 "$ROOT/bench/gen-category-profile.py" "$profile" 60
	fi
fi
printf '  input: %s MB, %s lines\n' "$(( $(stat -c %s "$profile") / 1048576 ))" "$(wc -l < "$profile")"
rules="$ROOT/docs/rules/pytorch-cuda.rules"

measure "sift-top --by frame" "'$BIN/sift-top' --by frame '$profile'"
measure "sift-top --by category" "'$BIN/sift-top' --by category '$profile'"
measure "sift-top --by category -j 1" "'$BIN/sift-top' --by category -j 1 '$profile'"
measure "sift-top --by category --inclusive" "'$BIN/sift-top' --by category --inclusive '$profile'"
measure "sift-top --by thread,category" "'$BIN/sift-top' --by thread,category '$profile'"
measure "sift-tag" "'$BIN/sift-tag' '$profile'"
measure "python category peer" "python3 '$ROOT/bench/peer-category.py' '$rules' '$profile'"
measure "python category peer, no cache" "python3 '$ROOT/bench/peer-category.py' --no-cache '$rules' '$profile'"

# The peer must agree with sift before its time means anything.
"$BIN/sift-top" --by category --top 0 --format tsv "$profile" | awk -F'\t' 'NR > 1 && $2 > 0 { print $1 "\t" $2 }' | sort > "$OUT/category.sift"
python3 "$ROOT/bench/peer-category.py" "$rules" "$profile" | sort > "$OUT/category.peer"
agree "sift-top --by category" "$OUT/category.sift" "$OUT/category.peer"

echo "  ratios (time):"
ratio "sift-top --by category" "sift-top --by frame"
ratio "python category peer" "sift-top --by category"
ratio "python category peer" "sift-top --by category -j 1"
ratio "python category peer, no cache" "sift-top --by category"
