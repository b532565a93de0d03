#!/bin/sh
# Regenerate the sift-plot inputs made from real tool output over demo/ (the evil-*.tsv and
# series*.tsv files are hand-made). Run in testdata/ with the tools first on PATH:
#   PATH=../build/release:$PATH sh plot/gen.sh
set -eu
gil="--total-seconds 45 --total-rate 99 --gil-seconds 30 --gil-rate 49"
dumps=$(ls demo/dump-*.txt)
# shellcheck disable=SC2086
sift-gil --format tsv $gil demo/profile-all.txt demo/profile-gil.txt > plot/gil.tsv
# shellcheck disable=SC2086
sift-gil --format tsv --only keys --by thread,category -n 8 $gil demo/profile-all.txt demo/profile-gil.txt > plot/gil-pairs.tsv
# shellcheck disable=SC2086
sift-gil --format tsv --dumps $dumps > plot/gil-dumps.tsv
# shellcheck disable=SC2086
sift-threads --format tsv --cpu demo/top-H-batch-worker.txt.zst $dumps > plot/threads.tsv
# shellcheck disable=SC2086
sift-threads --format tsv $dumps > plot/threads-nocpu.tsv
sift-tput --stats --format tsv demo/train-before.log demo/train-after.log > plot/stats.tsv
sift-tput --compare --format tsv demo/train-before.log demo/train-after.log > plot/compare.tsv
sift-tput demo/train-before.log demo/train-after.log > plot/tput.tsv
sift-top --format tsv --by thread,category -n 8 demo/profile-all.txt > plot/top-pairs.tsv
sift-diff --format tsv --by thread,category -n 6 demo/profile-all.txt demo/profile-after.txt > plot/diff-pairs.tsv
