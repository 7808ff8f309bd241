#!/bin/sh
# Runs the main job on the built-in playground: starts the test cluster,
# describes the topology of its streams groups with the real binary, and
# stops the cluster by its process id.
set -eu
bin=${1:-bin/kstreams-groups}
. "$(dirname "$0")/playground.sh"
start_playground "$bin"

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
