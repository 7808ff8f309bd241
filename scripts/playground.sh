# Sourced by the demo scripts: start_playground BIN starts the built-in
# playground cluster in the background, waits until it listens, sets $addr
# to its bootstrap address and stops it by its process id when the calling
# script exits.
start_playground() {
	pg_bin=$1
	pg_dir=$(mktemp -d)
	"$pg_bin" playground --addr-file "$pg_dir/addr" >"$pg_dir/playground.log" 2>&1 &
	pg_pid=$!
	trap 'kill "$pg_pid" 2>/dev/null || true; wait "$pg_pid" 2>/dev/null || true; rm -rf "$pg_dir"' EXIT INT TERM
	pg_i=0
	while [ ! -s "$pg_dir/addr" ]; do
		pg_i=$((pg_i + 1))
		if [ "$pg_i" -gt 100 ] || ! kill -0 "$pg_pid" 2>/dev/null; then
			echo "playground did not start:" >&2
			cat "$pg_dir/playground.log" >&2
			exit 1
		fi
		sleep 0.1
	done
	addr=$(cat "$pg_dir/addr")
}
