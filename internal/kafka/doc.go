// Package kafka is the model of what kstreams-groups reads from a Kafka
// cluster: brokers, topic partitions, streams groups (KIP-1071) with their
// states, members and tasks, and the errors a request can end in, each with
// its category. Its single job is to hold those values and to classify an
// error once (Classify), for the exit code and for every document alike. It
// is plain data: no I/O, no franz-go, no formatting.
package kafka
