#!/bin/sh
# Regenerates docs/word-count.svg: the playground's word-count topology
# drawn by `kstreams-groups describe --topology -o dot` and Graphviz.
set -eu
bin=${1:-bin/kstreams-groups}
out=${2:-docs/word-count.svg}
command -v dot >/dev/null || { echo "Graphviz 'dot' is needed (apt-get install graphviz)" >&2; exit 1; }
. "$(dirname "$0")/playground.sh"
start_playground "$bin"
"$bin" --bootstrap-server "$addr" describe --topology --group word-count -o dot >"$pg_dir/wc.dot"
dot -Tsvg "$pg_dir/wc.dot" >"$out"
echo "wrote $out"
