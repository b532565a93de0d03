# bench-ranks.sh: sift-ranks on the >= 20,000 dump snapshots of bench-dumps (one process seen
# over time), beside sift-threads, which reads the same snapshots thread by thread.
dumps="$OUT/dumps.txt"
[ -s "$dumps" ] || python3 "$ROOT/bench/gen-dumps.py" 20000 > "$dumps"
measure "cat dumps (ranks)" "cat '$dumps'"
measure "sift-ranks dumps" "'$BIN/sift-ranks' '$dumps'"
measure "sift-ranks --all-threads dumps" "'$BIN/sift-ranks' --all-threads '$dumps'"
measure "sift-threads dumps (ranks)" "'$BIN/sift-threads' '$dumps'"
ratio "sift-threads dumps (ranks)" "sift-ranks dumps"
rss_vs_file "sift-ranks dumps" "$dumps"
