package format

// Display rules for --describe --topology, one block per group in request
// order:
//   - AVAILABLE prints the topology text (Topology) and a line feed;
//     NOT_STORED and ERROR print kafka-streams-groups.sh's messages as its
//     printError does: "\nError: <message>\n", on stdout (verified against
//     the real 4.4.0 tool, e2e/FINDINGS.md F21, F22).
//   - With more than one group, each block is preceded by a line naming its
//     group; the block itself is byte-for-byte Kafka's. A single group prints
//     exactly Kafka's text.
//   - Group names are escaped (escape.go). With color, the status message
//     line is yellow for NOT_STORED and red for ERROR, and the group header
//     is bold; the bytes between the escape sequences do not change.

import (
	"fmt"
	"io"

	"github.com/kstreams-groups/kstreams-groups/internal/describe"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// NotStoredMessage is Kafka 4.4's text for a NOT_STORED description.
func NotStoredMessage(group string) string {
	return fmt.Sprintf("No topology description is stored for streams group '%s'.", Escape(group))
}

// ErrorMessage is Kafka 4.4's text for an ERROR description.
func ErrorMessage(group string) string {
	return fmt.Sprintf("The broker failed to fetch the topology description for streams group '%s'. See the broker logs for details.", Escape(group))
}

// GroupHeader is the line naming a group when several are described.
func GroupHeader(group string) string {
	return fmt.Sprintf("Streams group '%s':", Escape(group))
}

// WriteTopologyBlock writes one described group of --describe --topology
// exactly as Kafka 4.4's tool does, colored by st (nil: plain): the
// formatter's text plus a line feed (Kafka prints it with println), or the
// status message through Kafka's printError, which puts a blank line and
// "Error: " before it. With header set the block is preceded by
// GroupHeader.
func WriteTopologyBlock(w io.Writer, g *describe.Group, header bool, st *Styles) error {
	if header {
		if _, err := fmt.Fprintln(w, st.Paint(st.orPlain().Header, GroupHeader(g.Group))); err != nil {
			return err
		}
	}
	switch g.TopologyStatus {
	case topology.Available:
		if err := WriteTopology(w, g.Topology, st); err != nil {
			return err
		}
		_, err := io.WriteString(w, "\n")
		return err
	case topology.NotStored:
		_, err := fmt.Fprintf(w, "\n%s\n", st.Paint(st.orPlain().Warning, "Error: "+NotStoredMessage(g.Group)))
		return err
	case topology.Error:
		_, err := fmt.Fprintf(w, "\n%s\n", st.Paint(st.orPlain().Error, "Error: "+ErrorMessage(g.Group)))
		return err
	}
	return nil
}
