package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
)

// exitStatusHelpFor is the "Exit status:" block of a command that can end
// only with the given codes, such as version: each code with the first
// clause of its meaning in exitStatuses, so the wording stays the table's.
// Commands with the full contract use exitStatusHelp.
func exitStatusHelpFor(codes ...int) string {
	var b strings.Builder
	b.WriteString("Exit status:\n")
	for _, s := range exitStatuses {
		if slices.Contains(codes, s.Code) {
			fmt.Fprintf(&b, "  %d  %s\n", s.Code, firstClause(s.Meaning))
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// firstClause cuts a meaning at its first ';' or ':' ("Usage error: unknown
// flag, ..." becomes "Usage error").
func firstClause(meaning string) string {
	if i := strings.IndexAny(meaning, ";:"); i >= 0 {
		return meaning[:i]
	}
	return strings.TrimSuffix(meaning, ".")
}

// documentHelpCommand gives cobra's help command the examples and exit
// status that every command's help carries.
func documentHelpCommand(root *cobra.Command) {
	root.InitDefaultHelpCmd()
	for _, c := range root.Commands() {
		if c.Name() != "help" {
			continue
		}
		c.Short = "Help about any command"
		c.Long = "Print the help of any command, the same as the command's --help.\n\n" + exitStatusHelpFor(exitOK)
		c.Example = `  # The help of the describe command
  kstreams-groups help describe`
	}
}

// outputFlagUsage is the help of -o, listing format.AllowedOutputs so that
// help and completion offer the same formats, and the commands that print
// metrics from their declarations.
func outputFlagUsage() string {
	var names []string
	for _, o := range format.AllowedOutputs() {
		names = append(names, string(o))
	}
	return "Output format: " + strings.Join(names, ", ") + ". text is kafka-streams-groups.sh's; dot and mermaid draw a topology, svg and png render that drawing (png is binary); prometheus is the Prometheus text format (" + strings.Join(printersOf(format.Prometheus), ", ") + ")."
}
