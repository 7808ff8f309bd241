#!/usr/bin/env bash
# make bench-e2e: time kstreams-groups against the Java StreamsGroupCommand (what
# kafka-streams-groups.sh runs) as whole processes on one real Apache Kafka 4.4.0 broker.
# The measuring is BenchmarkDescribeTopologyProcesses in e2e/bench_test.go; this script provides
# GNU time, the release build of the binary, and prints the summary.
#
#   E2E_BENCH_N=15               timed runs per variant
#   E2E_BENCH_OUT=bin/bench-e2e.md  where the Markdown summary is written
set -euo pipefail
cd "$(dirname "$0")/.."

# Peak RSS comes from GNU time's -v report. Install Debian's time package when it is missing.
if ! /usr/bin/time --version 2>&1 | grep -q GNU; then
	echo "bench-e2e: GNU time (/usr/bin/time) is missing; installing Debian's time package" >&2
	if [ "$(id -u)" -eq 0 ]; then
		apt-get update -qq && apt-get install -y -qq time
	else
		sudo apt-get update -qq && sudo apt-get install -y -qq time
	fi
fi

make build
out="${E2E_BENCH_OUT:-bin/bench-e2e.md}"
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac # go test runs in e2e/
E2E_BENCH_OUT="$out" E2E_OURS_BIN="$PWD/bin/kstreams-groups" \
	${GO:-go} test -tags e2e -count=1 -timeout 20m -run '^$' -bench '^BenchmarkDescribeTopologyProcesses$' -benchtime 1x ./e2e/
echo
cat "$out"
