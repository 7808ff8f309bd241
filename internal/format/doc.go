// Package format renders what the verbs found. Its single job is turning a
// verb's result or a model into bytes on the io.Writer it is given: the
// Kafka-exact text of kafka-streams-groups.sh and the text views of the
// verbs it lacks, the JSON and YAML documents (the *Doc types, the one
// schema of docs/schema.md, written by Encode), dot and Mermaid drawings
// of a topology (SVG and PNG through the subpackage picture), the
// Prometheus text format, check's Monitoring Plugins lines, the colour
// styles and the escaping of every broker- or file-supplied string. It does
// no I/O beyond that writer, never talks to Kafka, never decides exit codes
// and imports no package of serve: serve's own documents are
// internal/serve/api's.
package format
