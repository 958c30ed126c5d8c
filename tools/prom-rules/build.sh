#!/usr/bin/env bash
# Compiles the alert rule tests (rules/rules_test.go) into the directory given as $1, so that tools/build.sh caches
# the compiled test and .ci/run's go test of this module runs warm. Nothing else is built: the module exists to
# evaluate deploy/observability/alert-rules.yaml with Prometheus' own rule parser and PromQL engine.
set -euo pipefail
out=${1:?usage: build.sh <outdir>}
cd "$(dirname "${BASH_SOURCE[0]}")"
go test -c -o "$out/rules.test" ./rules
