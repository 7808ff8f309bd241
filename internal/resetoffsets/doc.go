// Package resetoffsets is the --reset-offsets verb of kafka-streams-groups.sh
// (and `kstreams-groups reset-offsets`): its single job is to plan new
// committed offsets for the input topics of streams groups, as Apache Kafka
// 4.4's tool does (scopes --all-input-topics and --input-topic, scenarios
// --to-earliest ... --from-file, clamping to the log), and with --execute to
// commit them and delete the groups' internal topics. Options.Validate holds
// the Java tool's checks in its order; Options.Prepare parses what the Java
// tool parses later (numbers, --input-topic, dates, durations, the CSV
// file); Run talks to the cluster through Client and returns a Result with
// one Group per requested group. The offset parsing shared with
// --delete-offsets (InputTopic) lives here too.
package resetoffsets
