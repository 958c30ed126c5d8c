#!/usr/bin/env bash
# Builds Cluster API's own managers for the tests that put Cluster API in the loop (test/capi/):
#
#   tools/build.sh cluster-api      (caches the result; prints the output directory last)
#   tools/cluster-api/build.sh <outdir>
#
# From the Go module proxy, as tools of this module (go.mod `tool` lines), Cluster API v1.14.2:
#   cluster-api-manager            sigs.k8s.io/cluster-api/core (the core manager: topology, runtime SDK, ...)
#   kubeadm-bootstrap-manager      sigs.k8s.io/cluster-api/bootstrap/kubeadm
#   kubeadm-control-plane-manager  sigs.k8s.io/cluster-api/controlplane/kubeadm
#   capd-manager                   sigs.k8s.io/cluster-api/test/infrastructure/docker, whose DevCluster and
#                                  DevMachine kinds with the inMemory backend need no containers
#   test-extension                 sigs.k8s.io/cluster-api/test/extension, Cluster API's own Runtime Extension
#                                  (its in-place update handlers are compared with runtime-sdk/in-place's)
# and each provider's CRDs and webhook configuration, copied to <outdir>/config/<provider>/.
#
# Test builds listen on loopback only: two one-line patches bind what upstream binds to every interface with no
# flag to change it (controller-runtime's webhook server, the in-memory provider's workload-cluster servers) to
# 127.0.0.1. The build fails if either patch no longer applies.
#
# Cold build on 2 cores (measured): see the README's "Cluster API in the loop".
set -euo pipefail

out=${1:?usage: build.sh <outdir>}
mkdir -p "$out"
out=$(cd "$out" && pwd)

CAPI_VERSION=v1.14.2
export CGO_ENABLED=0 GOTOOLCHAIN=local GOFLAGS=-mod=mod

go mod download
dir() { go list -m -f '{{.Dir}}' "$1"; }
capi=$(dir sigs.k8s.io/cluster-api)
capitest=$(dir sigs.k8s.io/cluster-api/test)

# The build runs in a scratch copy of this module whose go.mod replaces the two patched modules by patched copies
# (Go refuses overlays of files in the module cache).
work=$(mktemp -d)
trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT
cp go.mod go.sum "$work/"
# patch <module> <file in module> <sed script> <text the result must contain>
patch() {
  local copy; copy=$(basename "$1")
  cp -r "$(go list -m -f '{{.Dir}}' "$1")" "$work/$copy" && chmod -R u+w "$work/$copy"
  sed -i -e "$3" "$work/$copy/$2"
  grep -qF -- "$4" "$work/$copy/$2" || { echo "build.sh: the loopback patch of $1 $2 no longer applies" >&2; exit 1; }
  (cd "$work" && go mod edit -replace "$1=./$copy")
}
patch sigs.k8s.io/controller-runtime pkg/webhook/server.go \
  's/tls.Listen("tcp", net.JoinHostPort(s.Options.Host,/tls.Listen("tcp", net.JoinHostPort(loopbackIfEmpty(s.Options.Host),/; $a\
func loopbackIfEmpty(host string) string { if host == "" { return "127.0.0.1" }; return host }' \
  'net.JoinHostPort(loopbackIfEmpty(s.Options.Host)'
patch sigs.k8s.io/cluster-api/test infrastructure/inmemory/pkg/server/mux.go \
  's/net.Listen("tcp", fmt.Sprintf(":%d"/net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d"/g' \
  'fmt.Sprintf("127.0.0.1:%d", wcl.Port())'

ldflags="-s -w -X sigs.k8s.io/cluster-api/version.gitVersion=$CAPI_VERSION"
ldflags+=" -X sigs.k8s.io/cluster-api/version.gitMajor=1 -X sigs.k8s.io/cluster-api/version.gitMinor=14"
ldflags+=" -X sigs.k8s.io/cluster-api/version.gitTreeState=clean"
tmp=$(mktemp -d "$out/.build.XXXXXX")
build() { (cd "$work" && go build -trimpath -ldflags "$ldflags" -o "$tmp/$1" "$2"); }
# One at a time: each link of these large binaries peaks around 1 GB; the compiled packages are shared.
build cluster-api-manager sigs.k8s.io/cluster-api/core
build kubeadm-bootstrap-manager sigs.k8s.io/cluster-api/bootstrap/kubeadm
build kubeadm-control-plane-manager sigs.k8s.io/cluster-api/controlplane/kubeadm
build capd-manager sigs.k8s.io/cluster-api/test/infrastructure/docker
build test-extension sigs.k8s.io/cluster-api/test/extension
mv "$tmp"/* "$out/" && rmdir "$tmp"

copy_config() { # <provider> <config dir>
  mkdir -p "$out/config/$1/crd"
  cp "$2"/crd/bases/*.yaml "$out/config/$1/crd/"
  cp "$2"/crd/kustomization.yaml "$out/config/$1/crd-kustomization.yaml" # its labels name the contract versions
  cp "$2"/webhook/manifests.yaml "$out/config/$1/webhook.yaml"
}
copy_config core "$capi/core/config"
copy_config bootstrap "$capi/bootstrap/kubeadm/config"
copy_config controlplane "$capi/controlplane/kubeadm/config"
copy_config infrastructure "$capitest/infrastructure/docker/config"
chmod -R u+w "$out/config"

ls -l "$out"
echo "Cluster API $CAPI_VERSION managers in $out"
