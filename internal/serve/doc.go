// Package serve is `kstreams-groups serve`'s engine: one Collector per
// cluster reads, every interval and within the timeout, what `list
// --state` and `check` read, and publishes an immutable snapshot.Cluster
// with each group's bounded history and change timeline; Handler answers
// /metrics (the -o prometheus families of the latest snapshots, plus the
// collectors' own), /healthz and /readyz from memory, so that a scrape
// never sends a Kafka request, and mounts the web page given to it. It
// prints nothing: it logs through the slog.Logger it is given.
package serve
