// Command kstreams-groups is the command line of the tool: a drop-in for
// Apache Kafka 4.4's kafka-streams-groups.sh (its options and its text) with
// subcommands of its own for Kafka Streams groups (overview, check, doctor,
// diff, config, inventory, serve, playground, render). This package is the
// only place with cobra, viper, the configuration, process exit codes and
// the real stdin/stdout/stderr: it turns flags into each verb's options,
// runs the verb and hands its result to a renderer of internal/format.
package main

import (
	"io"
	"os"
)

func main() {
	processStart.set(os.Getenv)
	os.Exit(mainCode(os.Args[1:], IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr}))
}

// IOStreams are the process streams, injected so tests can capture them.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
}
