#!/bin/sh
# make check-sizes: lib/ stays readable in pieces. No file over MAX_FILE lines and no function
# over MAX_FUNC lines (from the line naming it to its closing brace at column 0); a tool's
# main() (cmd/) no longer than MAX_MAIN: options are parsed and the work run in functions.
# Usage: tests/sizes.sh [LIBDIR] [-v]   (default: lib; -v also lists the longest files and functions)
set -u
dir=${1:-lib}
verbose=0
[ "${2:-}" = "-v" ] && verbose=1
MAX_FILE=1200
MAX_FUNC=120
MAX_MAIN=80
cd "$dir" 2>/dev/null || { echo "sizes: no directory $dir" >&2; exit 2; }
set --
for f in *.c *.h; do [ -e "$f" ] && set -- "$@" "$f"; done
[ $# -gt 0 ] || { echo "sizes: no sources in $dir" >&2; exit 2; }
awk -v verbose=$verbose -v max_file=$MAX_FILE -v max_func=$MAX_FUNC -v max_main=$MAX_MAIN -v dir="$dir" '
FNR == 1 { if (NR > 1) endfile(); name = "" }
function endfile() {
	if (lines > max_file) { printf "sizes: %s/%s: %d lines (at most %d)\n", dir, file, lines, max_file; bad++ }
	if (verbose) printf "file %d %s/%s\n", lines, dir, file
}
{ file = FILENAME; lines = FNR }
# a definition: a line at column 0 that names a function and does not end in ";"
/^[A-Za-z_][^;]*\(/ && !/;[ \t]*$/ && !/^(static |const |extern )*[A-Za-z_ ]*=/ && name == "" && !/^#/ {
	name = $0; sub(/\(.*/, "", name); n = split(name, w, /[ *]+/); name = w[n]; start = FNR
}
name != "" && /^}/ {
	len = FNR - start + 1
	limit = name == "main" ? max_main : max_func
	if (len > limit) { printf "sizes: %s/%s:%d: %s is %d lines (at most %d)\n", dir, FILENAME, start, name, len, limit; bad++ }
	if (verbose) printf "func %d %s/%s:%d %s\n", len, dir, FILENAME, start, name
	name = ""
}
END { endfile(); if (bad) exit 1; if (!verbose) printf "sizes: every file of %s at most %d lines, every function at most %d, main at most %d\n", dir, max_file, max_func, max_main }
' "$@"
