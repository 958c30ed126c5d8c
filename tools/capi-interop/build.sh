#!/usr/bin/env bash
# Builds the capi-interop commands (fixtures, extension, caller, randreq) into the directory given as $1.
# Run through tools/build.sh capi-interop, which caches the result outside the repository.
set -euo pipefail
out=${1:?usage: build.sh <outdir>}
cd "$(dirname "${BASH_SOURCE[0]}")"
go build -trimpath -o "$out/" ./cmd/fixtures ./cmd/extension ./cmd/caller ./cmd/randreq
