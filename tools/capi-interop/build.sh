#!/usr/bin/env bash
# Builds the capi-interop commands (fixtures, extension, caller, randreq, parity, topology, gotemplate) into the directory given as $1.
# Run through tools/build.sh capi-interop, which caches the result outside the repository.
set -euo pipefail
out=${1:?usage: build.sh <outdir>}
cd "$(dirname "${BASH_SOURCE[0]}")"
go build -trimpath -o "$out/" ./cmd/fixtures ./cmd/extension ./cmd/caller ./cmd/randreq ./cmd/parity ./cmd/topology ./cmd/gotemplate
# Cluster API's own ExtensionConfig CRD, as its release manifests install it (the e2e beside Cluster API needs it).
crd=$(go list -m -f '{{.Dir}}' sigs.k8s.io/cluster-api)/core/config/crd/bases/runtime.cluster.x-k8s.io_extensionconfigs.yaml
install -m 0644 "$crd" "$out/cluster-api-extensionconfigs-crd.yaml"
