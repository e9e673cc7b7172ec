#!/usr/bin/env bash
# Regenerates format/pb/** from format/proto/*.proto with pinned tool versions.
# CI runs it and fails when the committed .pb.go files differ.
set -euo pipefail
cd "$(dirname "$0")/.."
PROTOC_GEN_GO_VERSION=v1.36.10
GOBIN="$(go env GOPATH)/bin"
if ! "$GOBIN/protoc-gen-go" --version 2>/dev/null | grep -q "${PROTOC_GEN_GO_VERSION#v}"; then
  GOBIN="$GOBIN" go install "google.golang.org/protobuf/cmd/protoc-gen-go@${PROTOC_GEN_GO_VERSION}"
fi
command -v protoc >/dev/null || { echo "protoc missing: apt-get install protobuf-compiler" >&2; exit 1; }
rm -rf format/pb
mkdir -p format/pb
PATH="$GOBIN:$PATH" protoc -I format/proto \
  --go_out=. --go_opt=module=github.com/lancego/lancego \
  format/proto/*.proto
