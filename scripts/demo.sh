#!/bin/sh
# demo.sh: chain the sift tools over an investigation directory and write a report directory
# (report.md, TSV tables, PNG charts). Steps whose tool is not built are skipped with a note.
# Usage: scripts/demo.sh BINDIR [DIR [OUT]]
#   DIR (default testdata/demo) may hold: profile-all.txt (all threads), profile-gil.txt
#   (py-spy --gil), profile-after.txt (all threads after a change), dump-*.txt (py-spy dump
#   snapshots), top-H*.txt[.zst] (thread CPU), train-before.log and train-after.log.
#   OUT defaults to build/demo-report.
set -u
bin=$(cd "${1:?usage: demo.sh BINDIR [DIR [OUT]]}" && pwd) || exit 2
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${2:-$root/testdata/demo}
out=${3:-$root/build/demo-report}
PATH="$bin:$PATH"
export PATH
mkdir -p "$out" || exit 1
report="$out/report.md"

have() { [ -x "$bin/$1" ]; }
note() { printf '> %s\n\n' "$*" >> "$report"; }
# A table for the report: its command, then its markdown.
table() {
	title=$1; shift
	printf '### %s\n\n```\n$ %s\n```\n\n' "$title" "$*" >> "$report"
	"$@" --format md >> "$report" 2>> "$out/errors.log" || note "failed: $*"
	echo >> "$report"
}
# A chart from a TSV file: NAME.png, linked in the report.
chart() {
	name=$1 tsv=$2 title=$3; shift 3
	if have sift-plot && command -v gnuplot >/dev/null 2>&1; then
		if sift-plot --title "$title" -o "$out/$name.png" "$@" "$tsv" | gnuplot 2>> "$out/errors.log"; then
			printf '![%s](%s.png)\n\n' "$title" "$name" >> "$report"
		else
			note "chart $name could not be drawn (see errors.log)"
		fi
	else
		note "chart $name skipped: sift-plot or gnuplot is missing"
	fi
}

all=$dir/profile-all.txt gil=$dir/profile-gil.txt after=$dir/profile-after.txt
: > "$out/errors.log"
printf '# sift report: %s\n\n' "$dir" > "$report"

# What a user looks at first goes to the terminal too: leaves, files, threads.
if [ -f "$all" ] && have sift-top; then
	echo "== top leaf frames ($all)"
	sift-top -n 10 "$all"
	echo
	echo "== top files"
	sift-top --by file -n 10 "$all" | tail -n +2
	echo
	echo "== top threads"
	sift-top --by thread -n 10 "$all" | tail -n +2
	echo
fi

printf '## Where the CPU goes (all threads)\n\n' >> "$report"
if [ -f "$all" ] && have sift-top; then
	table "Top leaf frames" sift-top -n 15 "$all"
	sift-top --format tsv -n 15 "$all" > "$out/top-leaves.tsv"
	chart top-leaves "$out/top-leaves.tsv" "Top leaf frames (share of all samples)"
	table "Top files" sift-top --by file -n 10 "$all"
	table "Top roots" sift-top --by root -n 10 "$all"
	table "Threads" sift-top --by thread -n 15 "$all"
	if sift-top --by category --format tsv "$all" > "$out/categories.tsv" 2>/dev/null; then
		table "Categories" sift-top --by category "$all"
		chart categories "$out/categories.tsv" "Where CPU goes, by category"
	else
		rm -f "$out/categories.tsv"
		note "category breakdown skipped: this sift-top has no --by category yet (issue 4)"
	fi
else
	note "skipped: no profile-all.txt in $dir, or sift-top is not built"
fi

printf '## GIL versus total\n\n' >> "$report"
if [ -f "$all" ] && [ -f "$gil" ] && have sift-gil; then
	table "GIL share by thread" sift-gil --by thread "$all" "$gil"
	sift-gil --by thread --format tsv "$all" "$gil" > "$out/gil.tsv" 2>/dev/null &&
		chart gil "$out/gil.tsv" "GIL share by thread"
elif [ -f "$gil" ] && have sift-top; then
	note "sift-gil is not built yet (issue 5): the GIL-only profile by thread instead"
	table "GIL-only profile by thread" sift-top --by thread "$gil"
else
	note "skipped: no profile-gil.txt, or no tool to read it"
fi

printf '## Thread CPU (dump snapshots joined with top -H)\n\n' >> "$report"
set -- "$dir"/dump-*.txt
cpu=$(ls "$dir"/top-H* 2>/dev/null | head -n 1)
if [ -f "$1" ] && have sift-threads; then
	if [ -n "$cpu" ]; then
		table "Threads" sift-threads --cpu "$cpu" "$@"
		sift-threads --cpu "$cpu" --format tsv "$@" > "$out/threads.tsv" 2>/dev/null &&
			chart threads "$out/threads.tsv" "Thread CPU"
	else
		table "Threads" sift-threads "$@"
	fi
else
	note "skipped: sift-threads is not built yet (issue 3), or there are no dump-*.txt snapshots"
fi

printf '## Throughput before and after\n\n' >> "$report"
tb=$dir/train-before.log ta=$dir/train-after.log
if [ -f "$tb" ] && [ -f "$ta" ] && have sift-tput; then
	table "Before versus after" sift-tput --compare "$tb" "$ta"
	sift-tput "$tb" "$ta" > "$out/tput.tsv" 2>/dev/null &&
		chart throughput "$out/tput.tsv" "Throughput before and after"
else
	note "skipped: sift-tput is not built yet (issue 6), or train-before.log/train-after.log are missing"
fi

printf '## Profile diff (before versus after)\n\n' >> "$report"
if [ -f "$all" ] && [ -f "$after" ] && have sift-diff; then
	table "Biggest changes by leaf frame" sift-diff -n 12 "$all" "$after"
	sift-diff --format tsv -n 10 "$all" "$after" > "$out/diff.tsv"
	chart diff "$out/diff.tsv" "Share of samples, before and after"
	table "Changes by thread" sift-diff --by thread "$all" "$after"
	sift-diff --folded "$all" "$after" > "$out/diff.folded"
	printf 'Differential flame graph input: `diff.folded` (`flamegraph.pl diff.folded > diff.svg`).\n\n' >> "$report"
else
	note "skipped: no profile-after.txt, or sift-diff is not built"
fi

[ -s "$out/errors.log" ] || rm -f "$out/errors.log"
echo "report: $report"
