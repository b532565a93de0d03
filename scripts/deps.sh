#!/bin/sh
# Install the Debian packages sift needs to build, test, benchmark, draw and scale out (GNU
# parallel runs docs/cookbook.md's map-reduce recipe, tested in make check), when missing.
# Usage: sh scripts/deps.sh [GOAL...] (the make goals: check also needs Go's pprof).
set -eu
need="gcc make pkg-config libpcre2-dev libzstd-dev libjansson-dev libcmocka-dev protobuf-c-compiler libprotobuf-c-dev protobuf-compiler zlib1g-dev zstd gnuplot-nox python3 python3-jsonschema clang libclang-rt-dev valgrind time bc parallel"
# Test-only: go tool pprof reads sift's pprof output in `make check` (tests/pprof-go.sh).
case " $* " in *" check "*) need="$need golang-go" ;; esac
missing=""
for pkg in $need; do
	dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $pkg"
done
[ -z "$missing" ] && exit 0
echo "deps: installing:$missing" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >&2
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing >&2
