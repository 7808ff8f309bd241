// Package format renders the models of the verb packages as documents. Its
// single job is turning a model into bytes on the io.Writer it is given: the
// Kafka-exact text of kafka-streams-groups.sh, and JSON and YAML. It performs
// no I/O beyond that writer, never decides exit codes and never talks to
// Kafka.
package format
