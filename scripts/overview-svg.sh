#!/bin/sh
# Regenerates docs/overview.svg: the playground's page-views group drawn by
# `kstreams-groups overview -o svg`, laid out by the Graphviz compiled into
# the binary (no Graphviz installation needed).
set -eu
bin=${1:-bin/kstreams-groups}
out=${2:-docs/overview.svg}
. "$(dirname "$0")/playground.sh"
start_playground "$bin"
"$bin" --bootstrap-server "$addr" overview --group page-views -o svg >"$pg_dir/overview.svg"
mv "$pg_dir/overview.svg" "$out"
echo "wrote $out"
