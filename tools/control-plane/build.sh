#!/usr/bin/env bash
# Builds a real Kubernetes control plane for the e2e tests: kube-apiserver, etcd and kubectl.
#
#   tools/build.sh control-plane     (caches the result; prints the binary directory last)
#   tools/control-plane/build.sh <outdir>
#
# No Docker and no release downloads: all three come from the Go module proxy as dependencies of
# this module (go.mod `tool` lines): k8s.io/kubernetes v1.36.3 (cmd/kube-apiserver, cmd/kubectl)
# and go.etcd.io/etcd/server/v3 v3.6.8 (the etcd line that Kubernetes release uses itself).
# test/e2e/control-plane.ts runs them; set KUBEBUILDER_ASSETS (a directory holding etcd,
# kube-apiserver, kubectl) to use other binaries instead of this build.
#
# Cold build on 2 cores (measured): ~7 min, peak RSS ~1.9 GB (the kube-apiserver link), plus
# ~30 s and ~0.9 GB of module downloads. With GOCACHE warm a rebuild takes ~10 s.
#
# Bumping Kubernetes (say to vK): k8s.io/kubernetes requires its staging modules at v0.0.0 and
# resolves them with replace lines that dependents ignore, so this go.mod maps each of them to
# the published v0.<minor>.<patch>. Derive the list from that release's go.mod, do not guess it:
#   gomod=$(go mod download -json k8s.io/kubernetes@vK | sed -n 's/.*"GoMod": "\(.*\)",/\1/p')
#   grep -E '^\s+k8s.io/[a-z0-9-]+ v0\.0\.0$' "$gomod"     # each k8s.io/X => k8s.io/X v0.<minor>.<patch>
#   grep go.etcd.io/etcd/client/v3 "$gomod"                 # pin go.etcd.io/etcd/server/v3 to that
# then update KUBE_VERSION below and run go mod tidy.
set -euo pipefail

out=${1:?usage: build.sh <outdir>}
mkdir -p "$out"
out=$(cd "$out" && pwd)

KUBE_VERSION=v1.36.3
major=${KUBE_VERSION#v}; major=${major%%.*}
minor=${KUBE_VERSION#v*.}; minor=${minor%%.*}

export CGO_ENABLED=0 GOTOOLCHAIN=local GOFLAGS=-mod=mod

# The version variables Kubernetes' own build (hack/lib/version.sh) stamps; without them the
# binaries report v0.0.0-master and the apiserver derives a wrong emulation version.
ldflags="-s -w"
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  ldflags+=" -X $pkg.gitVersion=$KUBE_VERSION -X $pkg.gitMajor=$major -X $pkg.gitMinor=$minor"
  ldflags+=" -X $pkg.gitTreeState=clean"
done

go mod download
# One invocation so the three link steps share the compiled packages and both cores stay busy.
tmp=$(mktemp -d "$out/.build.XXXXXX")
go build -trimpath -ldflags "$ldflags" -o "$tmp/" \
  k8s.io/kubernetes/cmd/kube-apiserver \
  k8s.io/kubernetes/cmd/kubectl \
  go.etcd.io/etcd/server/v3
mv "$tmp/kube-apiserver" "$tmp/kubectl" "$out/"
mv "$tmp/server" "$out/etcd"   # go names the etcd main package after .../server/v3
rmdir "$tmp"

"$out/kube-apiserver" --version
"$out/kubectl" version --client=true
"$out/etcd" --version
