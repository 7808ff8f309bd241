// Command kstreams-groups lists, describes and deletes Kafka Streams groups,
// a drop-in for Apache Kafka 4.4's kafka-streams-groups.sh. This package is
// the only place with cobra, viper, process exit codes and the real
// stdin/stdout/stderr.
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
