#!/bin/sh
# The CLI suite under valgrind memcheck: a directory of wrappers named like the tools, each
# running the release binary under valgrind, then tests/cli.sh on that directory. Any memory
# error or definite/indirect leak makes the tool exit 99, so its case fails on the status.
# Usage: tests/valgrind.sh BINDIR [CASE...]
set -eu
bindir=$(cd "$1" && pwd)
shift
root=$(cd "$(dirname "$0")/.." && pwd)
wrap="$root/build/valgrind"
mkdir -p "$wrap"
for tool in "$bindir"/sift-*; do
	name=$(basename "$tool")
	cat >"$wrap/$name" <<WRAP
#!/bin/sh
exec valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \\
	--show-leak-kinds=definite,indirect --quiet "$tool" "\$@"
WRAP
	chmod +x "$wrap/$name"
done
exec sh "$root/tests/cli.sh" "$wrap" "$@"
