#!/bin/sh
# Refreshes internal/format/picture/graphviz.wasm (Graphviz compiled to
# WebAssembly) from a github.com/goccy/go-graphviz release, by way of the Go
# module cache, and prints its SHA-256 for GraphvizWASMSHA256 and NOTICE.
# go-graphviz itself is not a dependency: its package init instantiates the
# module on every start of a program that links it (e2e/FINDINGS.md F180).
set -eu
version=${1:-v0.2.10}
dir=$(go mod download -json "github.com/goccy/go-graphviz@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[ -n "$dir" ] || { echo "go mod download found no github.com/goccy/go-graphviz@$version" >&2; exit 1; }
out=$(dirname "$0")/../internal/format/picture/graphviz.wasm
cp "$dir/internal/wasm/graphviz.wasm" "$out"
chmod 644 "$out"
echo "copied graphviz.wasm of go-graphviz $version (Graphviz $(cat "$dir/graphviz.version"))"
sha256sum "$out"
