#!/bin/sh
# A newcomer's machine: the README's first commands in a clean copy of the tree, with
# stand-ins first on PATH so that dpkg-query and pkg-config know no package until a stand-in
# apt-get has "installed" them (the real packages are on this machine, so the build can then
# find them). Each goal must work as the first command. Usage: tests/fresh-machine.sh [GOAL...]
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
real_dpkg=$(command -v dpkg-query) real_pkgconfig=$(command -v pkg-config)
[ -n "$real_dpkg" ] && [ -n "$real_pkgconfig" ] || { echo "fresh-machine: needs dpkg-query and pkg-config" >&2; exit 2; }
stand=$tmp/bin
mkdir -p "$stand"
cat >"$stand/dpkg-query" <<STAND
#!/bin/sh
[ -f "$tmp/installed" ] && exec "$real_dpkg" "\$@"
echo "dpkg-query: no packages found matching \$*" >&2; exit 1
STAND
cat >"$stand/pkg-config" <<STAND
#!/bin/sh
[ -f "$tmp/installed" ] && exec "$real_pkgconfig" "\$@"
echo "Package \$* was not found in the pkg-config search path." >&2; exit 1
STAND
cat >"$stand/apt-get" <<STAND
#!/bin/sh
echo "apt-get \$*" >>"$tmp/apt.log"
case " \$* " in *" install "*) : >"$tmp/installed" ;; esac
exit 0
STAND
printf '#!/bin/sh\nexec "$@"\n' >"$stand/sudo"
chmod +x "$stand"/*

# The tree as a clone would have it: tracked files and new ones not ignored, no build/.
copy() {
	mkdir -p "$1"
	(cd "$root" && git ls-files -co --exclude-standard -z | xargs -0 tar cf -) | (cd "$1" && tar xf -)
}
fail=0
for goal in ${*:-demo all install}; do
	rm -f "$tmp/installed" "$tmp/apt.log"
	src=$tmp/src-$goal
	copy "$src"
	args=$goal
	[ "$goal" = install ] && args="install PREFIX=$tmp/prefix"
	# shellcheck disable=SC2086
	# A newcomer's shell: nothing of the make that may run this test (MAKEFLAGS would carry
	# its SIFT_DEPS_CHECKED=1 into the new make and skip the install).
	if ! (cd "$src" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u SIFT_DEPS_CHECKED \
		PATH="$stand:$PATH" make -j2 $args) >"$tmp/$goal.log" 2>&1; then
		echo "FAIL: fresh machine: make $goal"; tail -15 "$tmp/$goal.log"; fail=1; continue
	fi
	if ! grep -q 'install.*libpcre2-dev.*libjansson-dev.*parallel' "$tmp/apt.log" 2>/dev/null; then
		echo "FAIL: fresh machine: make $goal did not install the packages first"; fail=1; continue
	fi
	case $goal in
	demo) [ -s "$src/build/demo-report/report.md" ] || { echo "FAIL: make demo wrote no report"; fail=1; } ;;
	all) [ -x "$src/build/release/sift-top" ] || { echo "FAIL: make built no sift-top"; fail=1; } ;;
	install) [ -x "$tmp/prefix/bin/sift-top" ] && [ -f "$tmp/prefix/share/man/man1/sift-top.1" ] ||
		{ echo "FAIL: make install installed no sift-top"; fail=1; } ;;
	esac
done
[ $fail = 0 ] && echo "fresh machine: make ${*:-demo all install}: passed"
exit $fail
