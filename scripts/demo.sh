#!/bin/sh
# Runs the main job on the built-in playground: starts the test cluster,
# describes the topology of its streams groups with the real binary, and
# stops the cluster by its process id.
set -eu
bin=${1:-bin/kstreams-groups}
dir=$(mktemp -d)
"$bin" playground --addr-file "$dir/addr" >"$dir/playground.log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$dir"' EXIT INT TERM
i=0
while [ ! -s "$dir/addr" ]; do
	i=$((i + 1))
	if [ "$i" -gt 100 ] || ! kill -0 "$pid" 2>/dev/null; then
		echo "playground did not start:" >&2
		cat "$dir/playground.log" >&2
		exit 1
	fi
	sleep 0.1
done
addr=$(cat "$dir/addr")

show() {
	echo "\$ kstreams-groups $*"
	set +e
	"$bin" "$@"
	echo "(exit status $?)"
	set -e
	echo
}
show --bootstrap-server "$addr" --describe --topology --group word-count
show --bootstrap-server "$addr" --describe --topology --group inventory
show --bootstrap-server "$addr" --describe --topology --group billing --detailed-exit-codes
show --bootstrap-server "$addr" --describe --topology --group no-such-app --detailed-exit-codes
