#!/bin/sh
# demo.sh: chain the sift tools over an investigation directory and write a report directory
# (report.md, TSV tables, PNG charts). Steps whose inputs are missing are skipped with a note.
# Usage: scripts/demo.sh BINDIR [DIR [OUT]]
#   DIR (default testdata/demo) may hold: profile-all.txt (all threads), profile-gil.txt
#   (py-spy --gil), sift-gil.opts (one line of sift-gil options: the recordings' seconds and
#   rates), profile-after.txt (all threads after a change), dump-*.txt (py-spy dump
#   snapshots), top-H*.txt[.zst] (thread CPU), train-before.log and train-after.log.
#   OUT defaults to build/demo-report.
# Exit status: 0 when every step that had its inputs worked; 1 when one failed (its error
# is in OUT/errors.log and named on stderr).
set -u
bin=$(cd "${1:?usage: demo.sh BINDIR [DIR [OUT]]}" && pwd) || exit 2
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(cd "${2:-$root/testdata/demo}" && pwd) || exit 2
out=${3:-$root/build/demo-report}
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 1
PATH="$bin:$PATH"
export PATH
report="$out/report.md"
errors="$out/errors.log"
# Commands run in DIR with relative names: the report shows what a user would type there,
# and chart labels show file names, not paths.
cd "$dir" || exit 1

have() { [ -x "$bin/$1" ]; }
note() { printf '> %s\n\n' "$*" >> "$report"; }
fail() { note "failed: $* (see errors.log)"; echo "failed: $*" >> "$errors"; }
# A table for the report: its command, then its markdown.
table() {
	title=$1; shift
	printf '### %s\n\n```\n$ %s\n```\n\n' "$title" "$*" >> "$report"
	"$@" --format md >> "$report" 2>> "$errors" || fail "$*"
	echo >> "$report"
}
# A TSV for a chart: the command's --format tsv output in OUT/NAME.tsv.
tsv() {
	name=$1; shift
	"$@" --format tsv > "$out/$name.tsv" 2>> "$errors" || fail "$*"
}
# A chart from OUT/NAME.tsv: NAME.png, linked in the report.
chart() {
	name=$1 title=$2; shift 2
	rm -f "$out/$name.png" # gnuplot is happy with an empty script: judge by the file
	if ! command -v gnuplot >/dev/null 2>&1; then
		note "chart $name skipped: gnuplot is not installed"
	elif sift-plot --title "$title" -o "$out/$name.png" "$@" "$out/$name.tsv" 2>> "$errors" |
	     gnuplot 2>> "$errors" && [ -s "$out/$name.png" ]; then
		printf '![%s](%s.png)\n\n' "$title" "$name" >> "$report"
	else
		fail "chart $name"
	fi
}

all=profile-all.txt gil=profile-gil.txt after=profile-after.txt
: > "$errors"
printf '# sift report: %s\n\n' "$dir" > "$report"

# What a user looks at first goes to the terminal too: leaves, files, threads.
if [ -f "$all" ]; then
	echo "== top leaf frames ($dir/$all)"
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
if [ -f "$all" ]; then
	table "Top leaf frames" sift-top -n 15 "$all"
	tsv top-leaves sift-top -n 15 "$all"
	chart top-leaves "Top leaf frames (% of all samples)"
	table "Top files" sift-top --by file -n 10 "$all"
	table "Top roots" sift-top --by root -n 10 "$all"
	table "Threads" sift-top --by thread -n 15 "$all"
	table "Categories (built-in PyTorch/CUDA rules)" sift-top --by category -n 0 "$all"
	tsv categories sift-top --by category -n 0 "$all"
	chart categories "Where CPU goes, by category (% of all samples)"
	table "Threads by category" sift-top --by thread,category -n 15 "$all"
	tsv thread-categories sift-top --by thread,category -n 15 "$all"
	chart thread-categories "Thread / category (% of all samples)"
else
	note "skipped: no $all in $dir"
fi

printf '## GIL versus total\n\n' >> "$report"
if [ -f "$all" ] && [ -f "$gil" ]; then
	gil_opts=
	if [ -f sift-gil.opts ]; then
		gil_opts=$(cat sift-gil.opts)
	else
		note "no sift-gil.opts: both recordings assumed of the same duration and rate"
	fi
	# shellcheck disable=SC2086 # the options are words
	table "GIL share by thread" sift-gil $gil_opts "$all" "$gil"
	# shellcheck disable=SC2086
	tsv gil sift-gil --only keys $gil_opts "$all" "$gil"
	chart gil "GIL share of each thread's samples (%)"
	# shellcheck disable=SC2086
	table "GIL share by category" sift-gil --by category --only keys $gil_opts "$all" "$gil"
else
	note "skipped: no $all and $gil in $dir"
fi

printf '## Thread CPU (dump snapshots joined with top -H)\n\n' >> "$report"
set -- dump-*.txt
cpu=$(ls top-H* 2>/dev/null | head -n 1)
if [ -f "$1" ]; then
	if [ -n "$cpu" ]; then
		table "Threads" sift-threads --cpu "$cpu" "$@"
		tsv threads sift-threads --cpu "$cpu" "$@"
		chart threads "Thread CPU (mean % of a core, top -H)"
	else
		table "Threads" sift-threads "$@"
	fi
	table "GIL from the snapshots" sift-gil --dumps "$@"
	table "Processes of the snapshots, by what their main thread does" sift-ranks "$@"
else
	note "skipped: no dump-*.txt snapshots in $dir"
fi

printf '## Throughput before and after\n\n' >> "$report"
tb=train-before.log ta=train-after.log
if [ -f "$tb" ] && [ -f "$ta" ]; then
	table "Distributions" sift-tput --stats "$tb" "$ta"
	tsv tput-stats sift-tput --stats "$tb" "$ta"
	chart tput-stats "Throughput before and after (warm-up skipped)"
	table "Before versus after" sift-tput --compare "$tb" "$ta"
	tsv tput-compare sift-tput --compare "$tb" "$ta"
	chart tput-compare "Speedup, after versus before"
	sift-tput "$tb" "$ta" > "$out/tput.tsv" 2>> "$errors" || fail "sift-tput $tb $ta"
	chart tput "Throughput over time" --x time
else
	note "skipped: no $tb and $ta in $dir"
fi

printf '## Profile diff (before versus after)\n\n' >> "$report"
if [ -f "$all" ] && [ -f "$after" ]; then
	table "Changes by category" sift-diff --by category -n 0 "$all" "$after"
	tsv diff-categories sift-diff --by category -n 0 "$all" "$after"
	chart diff-categories "Share of samples by category, before and after"
	table "Biggest changes by leaf frame" sift-diff -n 12 "$all" "$after"
	tsv diff sift-diff -n 10 "$all" "$after"
	chart diff "Share of samples by leaf frame, before and after"
	table "Changes by thread" sift-diff --by thread "$all" "$after"
	sift-diff --folded "$all" "$after" > "$out/diff.folded" 2>> "$errors" || fail "sift-diff --folded"
	printf 'Differential flame graph input: `diff.folded` (`flamegraph.pl diff.folded > diff.svg`).\n\n' >> "$report"
else
	note "skipped: no $after in $dir"
fi

if [ -s "$errors" ]; then
	echo "demo.sh: some steps failed, see $errors" >&2
	echo "report: $report"
	exit 1
fi
rm -f "$errors"
echo "report: $report"
