// Package javaprops reads the two Java text formats of a Kafka client's
// configuration exactly as Java does: java.util.Properties files (the file
// kafka-streams-groups.sh takes with --command-config), keeping each
// entry's line for error messages, and JAAS login module entries (the value
// of sasl.jaas.config) with the tokenizer rules of Kafka's JaasConfig. Its
// single job is that syntax: it knows no Kafka key and gives no value a
// meaning, which is internal/clientconfig's job. Errors name lines and
// option keys, never a value, so a malformed password cannot leak through
// them. It uses the standard library only.
package javaprops
