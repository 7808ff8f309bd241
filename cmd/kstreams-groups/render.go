package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/spf13/cobra"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/topoparse"
)

func (a *app) renderCommand() *command {
	return &command{
		name:  "render",
		args:  "[FILE]",
		short: "Render a topology description from a file or stdin, offline",
		long: `Read a topology description and write it as text, json, yaml, dot, mermaid,
svg or png (-o; svg and png are laid out in the binary, no Graphviz needed).
The input may be what Topology#describe() prints in a Kafka Streams
application (pattern sources, extractor-based sinks and interleaved global
stores included), what kafka-streams-groups.sh or kstreams-groups print for
--describe --topology, or a kstreams-groups JSON or YAML document holding one
group's topology_description. Without FILE, or with -, stdin is read. No
broker is contacted.

Text output is the kafka-streams-groups.sh layout, so the tool's own text
round-trips byte for byte.

The input may be at most 64 MiB.`,
		outputs: []outputRule{{formats: append(slices.Clone(documentOutputs), drawingOutputs...)}},
		own: &ownExit{statuses: []exitStatus{
			{Code: exitOK, Meaning: "The description was rendered."},
			{Code: exitFailure, Meaning: "The input could not be read or parsed (the message names the line)."},
			{Code: exitUsage, Meaning: "Usage error, or an input larger than 64 MiB."},
			{Code: exitSIGINT, Meaning: "Interrupted by SIGINT (Ctrl-C)."},
			{Code: exitSIGTERM, Meaning: "Terminated by SIGTERM."},
		}},
		example: `  # Draw a running application's topology from its Topology#describe() text
  kstreams-groups render -o svg topology.txt > topology.svg

  # Turn the CLI's text into JSON
  kstreams-groups describe --topology --group my-app | kstreams-groups render -o json`,
		checkArgs: func(args []string) error {
			if len(args) > 1 {
				return usageErrorf("render takes at most one FILE, got %d", len(args))
			}
			return nil
		},
		run: func(cmd *cobra.Command, args []string) error {
			if err := a.checkBinaryOutput(); err != nil {
				return err
			}
			var data string
			var err error
			name := "stdin"
			if len(args) == 0 || args[0] == "-" {
				data, err = renderInput.readStream(cmd.Context(), name, a.io.In)
			} else {
				name = args[0]
				data, err = renderInput.readFile(cmd.Context(), name, name)
			}
			var ue *usageError
			switch {
			case errors.As(err, &ue):
				return err
			case err != nil:
				return fmt.Errorf("cannot read the topology description: %w", err)
			}
			return pictureError(renderTopology(a.deps.signals.context(), a.io.Out, a.cfg.Output, name, data))
		},
	}
}

// renderTopology parses data, the input called name, and writes it in
// format o.
func renderTopology(ctx context.Context, w io.Writer, o format.Output, name, data string) error {
	d, err := topoparse.ParseString(data)
	if err != nil {
		var pe *topoparse.Error
		if errors.As(err, &pe) {
			return fmt.Errorf("%s: %w", format.Escape(name), err)
		}
		return err
	}
	switch {
	case o == format.Text:
		if err := format.Topology(w, d); err != nil {
			return err
		}
		_, err = io.WriteString(w, "\n")
		return err
	case o.Graph():
		return format.TopologyGraphContext(ctx, w, o, "topology", d)
	default:
		return format.Encode(w, o, format.NewTopologyDoc(d))
	}
}
