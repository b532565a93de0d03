# bench-tput.sh: sift-tput on a generated >= 1 GB mixed training log, beside grep -P and Python re.
TPUT_LOG="$OUT/tput-mixed.log"
[ -s "$TPUT_LOG" ] || python3 "$ROOT/bench/gen-tput-log.py" "$TPUT_LOG" $((1024 * 1024 * 1024))
TT_RE='\bstep:\s*(?<step>\d+)\s+loss:\s*(?<loss>\S+)\s.*?\btps:\s*(?<tput>\S+)'
# The peer writes the same rows but for the time column (it reads no timestamps): check.
head -c 20000000 "$TPUT_LOG" > "$OUT/tput-head.log"
"$BIN/sift-tput" --preset torchtitan "$OUT/tput-head.log" | cut -f1-4,6- > "$OUT/tput-head.sift"
python3 "$ROOT/bench/peer-tput.py" "$OUT/tput-head.log" | cut -f1-4,6- > "$OUT/tput-head.peer"
agree "sift-tput --preset torchtitan (time column aside)" "$OUT/tput-head.sift" "$OUT/tput-head.peer"
# The same log with every digit a letter: as many bytes and lines, the same words (so the
# same literals), and no figure anywhere. The key/value reader must cost nothing on it.
TPUT_NODIGIT="$OUT/tput-nodigit.log"
[ -s "$TPUT_NODIGIT" ] || tr '0-9' 'a-j' < "$TPUT_LOG" > "$TPUT_NODIGIT"
measure cat-floor "cat '$TPUT_LOG'"
# GNU grep quits at the first match when its output is /dev/null: give it a file.
measure grep-cP-torchtitan "grep -cP '$TT_RE' '$TPUT_LOG' > '$OUT/tput-grep.count'"
measure sift-tput-torchtitan "'$BIN/sift-tput' --preset torchtitan '$TPUT_LOG'"
measure sift-tput-torchtitan-j1 "'$BIN/sift-tput' -j 1 --preset torchtitan '$TPUT_LOG'"
measure sift-tput-auto "'$BIN/sift-tput' '$TPUT_LOG'"
measure sift-tput-auto-j1 "'$BIN/sift-tput' -j 1 '$TPUT_LOG'"
measure sift-tput-stats "'$BIN/sift-tput' --stats --preset torchtitan '$TPUT_LOG'"
# No figure found: sift-tput exits 1 (a data error), which is the expected answer here.
measure cat-nodigit "cat '$TPUT_NODIGIT'"
measure grep-cP-nodigit "grep -cP '$TT_RE' '$TPUT_NODIGIT' > '$OUT/tput-grep.count'; true"
measure sift-tput-auto-nodigit "'$BIN/sift-tput' '$TPUT_NODIGIT'; true"
measure sift-tput-kv-nodigit "'$BIN/sift-tput' --preset kv '$TPUT_NODIGIT'; true"
measure python-re-torchtitan "python3 '$ROOT/bench/peer-tput.py' '$TPUT_LOG'"
ratio sift-tput-torchtitan grep-cP-torchtitan 'target: 1.2x or less'
ratio sift-tput-auto grep-cP-torchtitan 'target: 3x or less'
ratio sift-tput-torchtitan-j1 grep-cP-torchtitan 'one thread, for comparison'
ratio sift-tput-auto-j1 grep-cP-torchtitan 'one thread, target: 4x or less'
ratio python-re-torchtitan sift-tput-torchtitan 'target: 10x or more'
ratio python-re-torchtitan sift-tput-auto 'the peer reads one preset, sift-tput all of them'
ratio sift-tput-auto-nodigit grep-cP-nodigit 'no digits: the same words, no figure'
ratio sift-tput-kv-nodigit cat-nodigit 'the key/value reader alone, no digits'
rss_vs_file sift-tput-torchtitan "$TPUT_LOG"
