//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"time"
)

// StreamsGroupCommandClass is the main class behind kafka-streams-groups.sh.
const StreamsGroupCommandClass = "org.apache.kafka.tools.streams.StreamsGroupCommand"

// ToolResult is one run of a Java tool: stdout and stderr captured separately.
type ToolResult struct {
	Args     []string
	Stdout   string
	Stderr   string
	ExitCode int
	Duration time.Duration
}

// RunStreamsGroupCommand runs the real 4.4.0 kafka-streams-groups.sh
// (java ... org.apache.kafka.tools.streams.StreamsGroupCommand args...). Tool logging is log4j2 at
// WARN to stderr, so stdout is only the tool's own output.
func RunStreamsGroupCommand(ctx context.Context, args ...string) (ToolResult, error) {
	return RunJavaTool(ctx, Kafka44, StreamsGroupCommandClass, args...)
}

// RunJavaTool runs a main class from the v classpath in a small JVM (-Xmx192m, C1 only, SerialGC)
// and waits for it (bounded by ctx).
func RunJavaTool(ctx context.Context, v KafkaVersion, mainClass string, args ...string) (ToolResult, error) {
	cp, err := Classpath(v)
	if err != nil {
		return ToolResult{}, err
	}
	all := []string{
		"-Xmx192m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Djava.awt.headless=true",
		"-Dlog4j2.configurationFile=" + filepath.Join(HarnessDir(), "config", "tool-log4j2.properties"),
		"-cp", cp, mainClass,
	}
	all = append(all, args...)
	cmd := exec.CommandContext(ctx, JavaBin(), all...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err = cmd.Run()
	res := ToolResult{Args: args, Stdout: stdout.String(), Stderr: stderr.String(), Duration: time.Since(start)}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee) && ee.Exited():
		res.ExitCode = ee.ExitCode()
	default:
		return res, err
	}
	return res, nil
}
