package format

// Display rules for the topology text, byte-for-byte those of Apache Kafka
// 4.4's TopologyDescriptionFormatter (kafka-streams-groups.sh --describe
// --topology):
//   - "Topologies:\n", then each subtopology in the order the broker sent it,
//     headed by 3 spaces + "Sub-topology: <id>"; nodes in wire order with a
//     4-space indent; arrow lines with a 6-space indent; a blank line after
//     every block.
//   - Sources print "--> successors" only, sinks "<-- predecessors" only,
//     processors "-->" then "<--". An empty list prints "none".
//   - Topics, stores, successors and predecessors are sets: de-duplicated and
//     sorted in Java String order (UTF-16 code units). A dynamic sink prints
//     "(topic: null)", a pattern source "(topics: [])".
//   - Global stores follow, numbered from the subtopology count, headed
//     "Sub-topology: <n> for global store (will not generate tasks)".

import (
	"bufio"
	"io"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// Topology writes d exactly as Kafka's tool prints it.
func Topology(w io.Writer, d *topology.Description) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString("Topologies:\n")
	for _, s := range d.Subtopologies {
		bw.WriteString("   Sub-topology: ")
		bw.WriteString(s.ID)
		bw.WriteByte('\n')
		for _, n := range s.Nodes {
			writeNode(bw, n)
		}
		bw.WriteByte('\n')
	}
	for i, g := range d.GlobalStores {
		bw.WriteString("   Sub-topology: ")
		bw.WriteString(strconv.Itoa(len(d.Subtopologies) + i))
		bw.WriteString(" for global store (will not generate tasks)\n")
		writeNode(bw, g.Source)
		writeNode(bw, g.Processor)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

func writeNode(bw *bufio.Writer, n *topology.Node) {
	bw.WriteString("    ")
	switch n.Kind {
	case topology.Source:
		bw.WriteString("Source: ")
		bw.WriteString(n.Name)
		bw.WriteString(" (topics: ")
		writeSet(bw, n.Topics)
		bw.WriteString(")\n      --> ")
		writeNames(bw, n.Successors)
	case topology.Processor:
		bw.WriteString("Processor: ")
		bw.WriteString(n.Name)
		bw.WriteString(" (stores: ")
		writeSet(bw, n.Stores)
		bw.WriteString(")\n      --> ")
		writeNames(bw, n.Successors)
		bw.WriteString("\n      <-- ")
		writeNames(bw, n.Predecessors)
	case topology.Sink:
		bw.WriteString("Sink: ")
		bw.WriteString(n.Name)
		bw.WriteString(" (topic: ")
		if n.Topic == nil {
			bw.WriteString("null")
		} else {
			bw.WriteString(*n.Topic)
		}
		bw.WriteString(")\n      <-- ")
		writeNames(bw, n.Predecessors)
	}
	bw.WriteByte('\n')
}

// writeSet prints a Java TreeSet's toString: "[a, b]".
func writeSet(bw *bufio.Writer, xs []string) {
	bw.WriteByte('[')
	writeJoined(bw, xs)
	bw.WriteByte(']')
}

// writeNames prints sorted names joined by ", ", or "none".
func writeNames(bw *bufio.Writer, xs []string) {
	if len(xs) == 0 {
		bw.WriteString("none")
		return
	}
	writeJoined(bw, xs)
}

func writeJoined(bw *bufio.Writer, xs []string) {
	for i, x := range SortedSet(xs) {
		if i > 0 {
			bw.WriteString(", ")
		}
		bw.WriteString(x)
	}
}

// SortedSet returns xs de-duplicated and sorted as a Java TreeSet<String>
// orders it. It does not modify xs.
func SortedSet(xs []string) []string {
	if len(xs) < 2 {
		return xs
	}
	out := slices.Clone(xs)
	slices.SortFunc(out, JavaCompare)
	return slices.Compact(out)
}

// JavaCompare orders strings as Java's String.compareTo does: by UTF-16 code
// unit. It equals byte order except that supplementary characters (encoded
// as surrogates 0xD800-0xDFFF) sort before U+E000-U+FFFF.
func JavaCompare(a, b string) int {
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ra != rb {
			ua, ub := firstUnit(ra), firstUnit(rb)
			if ua != ub {
				return int(ua) - int(ub)
			}
			// Same high surrogate: the low surrogates decide.
			return int(secondUnit(ra)) - int(secondUnit(rb))
		}
		a, b = a[na:], b[nb:]
	}
	return len(a) - len(b)
}

func firstUnit(r rune) rune {
	if r >= 0x10000 {
		return 0xD800 + (r-0x10000)>>10
	}
	return r
}

func secondUnit(r rune) rune {
	if r >= 0x10000 {
		return 0xDC00 + (r-0x10000)&0x3FF
	}
	return r
}
