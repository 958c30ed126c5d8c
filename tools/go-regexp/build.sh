#!/usr/bin/env bash
# Builds go-regexp (Go's regexp package answering cases on stdin) into the directory given as $1.
# Run through tools/build.sh go-regexp, which caches the result outside the repository.
set -euo pipefail
out=${1:?usage: build.sh <outdir>}
cd "$(dirname "${BASH_SOURCE[0]}")"
go build -trimpath -o "$out/go-regexp" .
