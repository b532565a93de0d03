#!/bin/sh
# pprof-check: sift-fold --to pprof of each FILE, gunzipped and decoded by protoc against
# lib/profile.proto, gives sift-top's sample total and its function, thread and category
# tables (key, self, total) and its process self (one process label a sample) exactly. Run in testdata/ with the tools on PATH (as
# a CLI case). Usage: [OPTS="OPTION..."] sh ../tests/pprof-check.sh FILE...
# OPTS go to both tools (word-split).
set -u
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
status=0
for file in "$@"; do
	echo "$file:"
	sift-fold --to pprof ${OPTS:-} "$file" > "$tmp/p.pb.gz" || status=1
	gzip -dc "$tmp/p.pb.gz" | protoc --decode perftools.profiles.Profile -I "$here/../lib" \
		"$here/../lib/profile.proto" > "$tmp/p.txt" || { echo "  protoc could not decode it"; status=1; continue; }
	python3 "$here/pprof-tables.py" "$tmp/p.txt" "$tmp" | sed 's/^/  /' || status=1
	echo "  sift-top: $(sift-top ${OPTS:-} "$file" 2>/dev/null | head -1)"
	for key in function thread process category; do
		# a process is one label a sample (the innermost): its self, not a parent's total
		sift-top ${OPTS:-} --by "$key" --top 0 --format tsv "$file" 2>/dev/null |
			awk -F '\t' -v key="$key" 'NR > 1 && key == "process" && $2 > 0 { print $1 "\t" $2 }
				NR > 1 && key != "process" { print $1 "\t" $2 "\t" $4 }' | LC_ALL=C sort > "$tmp/top.tsv"
		what="self and total equal"
		[ "$key" = process ] && what="self equals"
		if cmp -s "$tmp/$key.tsv" "$tmp/top.tsv"; then
			echo "  $key: $(wc -l < "$tmp/top.tsv") keys, $what sift-top's"
		else
			echo "  $key: differs from sift-top's:"
			diff "$tmp/top.tsv" "$tmp/$key.tsv" | head -10
			status=1
		fi
	done
done
exit $status
