#!/bin/sh
# Renders every Graphviz golden with dot -Tsvg and parses every Mermaid
# golden with the real Mermaid parser. Needs graphviz (Debian) and Node.js.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
goldens="$root/testdata/golden"
n=0
for f in $(find "$goldens" -name '*.dot.golden' | sort); do
	dot -Tsvg "$f" >/dev/null
	echo "ok dot $f"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "no dot goldens found" >&2; exit 1; }
cd "$here"
npm ci --no-audit --no-fund --loglevel=error
mmd=$(find "$goldens" -name '*.mmd.golden' | sort)
[ -n "$mmd" ] || { echo "no mermaid goldens found" >&2; exit 1; }
# shellcheck disable=SC2086
node check-mermaid.mjs $mmd
