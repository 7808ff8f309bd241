// Package topoparse reads a topology description that already exists as
// text: what Topology#describe() prints in a Kafka Streams application
// (pattern sources, extractor-based sinks, global stores interleaved with
// subtopologies), what kafka-streams-groups.sh --describe --topology and
// kstreams-groups print, or kstreams-groups' JSON and YAML documents. Its
// single job is turning those bytes into the topology model, or failing
// with the line and what was expected; it never prints.
package topoparse
