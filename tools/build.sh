#!/usr/bin/env bash
# Builds the Go test infrastructure of one module under tools/ into a cache outside the repository.
#
#   tools/build.sh <module>      e.g. tools/build.sh control-plane
#
# Each module directory holds go.mod, go.sum and a build.sh that receives the output directory as $1.
# The cache key hashes those files and the Go version, so a warm cache is reused and any change rebuilds.
# Prints the directory holding the binaries as its last line.
set -euo pipefail

module=${1:?usage: tools/build.sh <module>}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dir="$here/$module"
[ -f "$dir/build.sh" ] || { echo "tools/build.sh: no module $module (expected $dir/build.sh)" >&2; exit 2; }
command -v go >/dev/null || { echo "tools/build.sh: go is not installed" >&2; exit 3; }

key=$( { go version; cat "$dir/go.mod" "$dir/go.sum" "$dir/build.sh"; find "$dir" -name '*.go' -print0 | sort -z | xargs -0 cat; } | sha256sum | cut -c1-16)
cache=${RUNTIME_SDK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/runtime-sdk}
out="$cache/$module/$key"

# One build of a module version at a time: a second caller waits for the first and reuses its result.
mkdir -p "$cache/$module"
exec 9>"$cache/$module/$key.lock"
flock 9

if [ -f "$out/.complete" ]; then
  echo "tools/build.sh: $module is cached in $out" >&2
else
  echo "tools/build.sh: building $module into $out" >&2
  rm -rf "$out.tmp" && mkdir -p "$out.tmp"
  start=$(date +%s)
  (cd "$dir" && GOTOOLCHAIN=local GOFLAGS=-mod=mod bash ./build.sh "$out.tmp")
  echo "built in $(( $(date +%s) - start ))s" > "$out.tmp/.complete"
  rm -rf "$out" && mv "$out.tmp" "$out"
  echo "tools/build.sh: $module $(cat "$out/.complete")" >&2
fi
echo "$out"
