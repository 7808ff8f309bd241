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
//   - Broker-supplied strings (ids, names, topics, stores) are shown as
//     EscapeName says: unchanged unless a terminal is at risk (control,
//     invisible or bidirectional characters, bytes that are not UTF-8) or
//     the name holds what would read back as an escape.

import (
	"bufio"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// Topology writes d exactly as Kafka's tool prints it, in plain text.
func Topology(w io.Writer, d *topology.Description) error {
	return WriteTopology(w, d, nil)
}

// WriteTopology writes d as Topology does, colored by st (nil: plain).
// Broker-supplied names are escaped (escape.go); color only adds escape
// sequences around the kind labels, the defined node names and the
// headers, so the visible text is the same either way.
func WriteTopology(w io.Writer, d *topology.Description, st *Styles) error {
	tw := topologyWriter{bw: bufio.NewWriterSize(w, 64<<10), color: st.Enabled(), storesAsGiven: d.StoresAsGiven}
	if tw.color {
		tw.header, tw.node = st.span(st.Header), st.span(st.Node)
		tw.source, tw.processor, tw.sink = st.span(st.Source), st.span(st.Processor), st.span(st.Sink)
	}
	bw := tw.bw
	tw.paint(tw.header, "Topologies:")
	bw.WriteByte('\n')
	for _, s := range d.Subtopologies {
		bw.WriteString("   ")
		tw.open(tw.header)
		bw.WriteString("Sub-topology: ")
		writeShown(bw, s.ID)
		tw.close(tw.header)
		bw.WriteByte('\n')
		for _, n := range s.Nodes {
			tw.writeNode(n)
		}
		bw.WriteByte('\n')
	}
	for i, g := range d.GlobalStores {
		bw.WriteString("   ")
		tw.open(tw.header)
		bw.WriteString("Sub-topology: ")
		bw.WriteString(strconv.Itoa(len(d.Subtopologies) + i))
		bw.WriteString(" for global store (will not generate tasks)")
		tw.close(tw.header)
		bw.WriteByte('\n')
		tw.writeNode(g.Source)
		tw.writeNode(g.Processor)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// topologyWriter holds the escape sequences of one document, computed once;
// with color off every span is empty and never written, so the plain path
// costs one branch per colored item.
type topologyWriter struct {
	bw                                    *bufio.Writer
	color                                 bool
	header, node, source, processor, sink span
	// storesAsGiven is the description's StoresAsGiven.
	storesAsGiven bool
}

func (tw *topologyWriter) open(s span) {
	if tw.color {
		tw.bw.WriteString(s.on)
	}
}

func (tw *topologyWriter) close(s span) {
	if tw.color {
		tw.bw.WriteString(s.off)
	}
}

// paint writes a fixed label (never a broker string) in color s.
func (tw *topologyWriter) paint(s span, label string) {
	tw.open(s)
	tw.bw.WriteString(label)
	tw.close(s)
}

func (tw *topologyWriter) writeNode(n *topology.Node) {
	bw := tw.bw
	bw.WriteString("    ")
	switch n.Kind {
	case topology.Source:
		tw.paint(tw.source, "Source:")
		tw.writeName(n.Name)
		bw.WriteString(" (topics: ")
		writeSet(bw, n.Topics)
		bw.WriteString(")\n      --> ")
		writeNames(bw, n.Successors)
	case topology.Processor:
		tw.paint(tw.processor, "Processor:")
		tw.writeName(n.Name)
		bw.WriteString(" (stores: ")
		writeBracketed(bw, Stores(n.Stores, tw.storesAsGiven))
		bw.WriteString(")\n      --> ")
		writeNames(bw, n.Successors)
		bw.WriteString("\n      <-- ")
		writeNames(bw, n.Predecessors)
	case topology.Sink:
		tw.paint(tw.sink, "Sink:")
		tw.writeName(n.Name)
		bw.WriteString(" (topic: ")
		if n.Topic == nil {
			bw.WriteString("null")
		} else {
			writeShown(bw, *n.Topic)
		}
		bw.WriteString(")\n      <-- ")
		writeNames(bw, n.Predecessors)
	}
	bw.WriteByte('\n')
}

// writeName writes " <name>" after a kind label, the name in the node color.
func (tw *topologyWriter) writeName(name string) {
	tw.bw.WriteByte(' ')
	tw.open(tw.node)
	writeShown(tw.bw, name)
	tw.close(tw.node)
}

// writeSet prints a Java TreeSet's toString: "[a, b]".
func writeSet(bw *bufio.Writer, xs []string) {
	bw.WriteByte('[')
	writeJoined(bw, xs)
	bw.WriteByte(']')
}

// writeBracketed prints a list as it is, "[a, b]".
func writeBracketed(bw *bufio.Writer, xs []string) {
	bw.WriteByte('[')
	for i, x := range xs {
		if i > 0 {
			bw.WriteString(", ")
		}
		writeEscapedName(bw, x)
	}
	bw.WriteByte(']')
}

// Stores is a processor's stores as the topology text and documents show
// them: each once, in the order given when asGiven (a description read
// back, topology.Description.StoresAsGiven), else sorted as Kafka's tool
// sorts them. It does not modify xs.
func Stores(xs []string, asGiven bool) []string {
	if !asGiven {
		return SortedSet(xs)
	}
	if len(xs) < 2 {
		return xs
	}
	seen := make(map[string]bool, len(xs))
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// writeNames prints sorted names joined by ", ", or "none".
func writeNames(bw *bufio.Writer, xs []string) {
	if len(xs) == 0 {
		bw.WriteString("none")
		return
	}
	writeJoined(bw, xs)
}

// writeJoined writes a set as Kafka does: sorted by name in Java order,
// each name once, joined by ", ", each name as EscapeName shows it. A
// name holding ", " is written as it is, as Kafka writes it: topoparse
// reads such a list against the names the text defines.
func writeJoined(bw *bufio.Writer, xs []string) {
	for i, x := range SortedSet(xs) {
		if i > 0 {
			bw.WriteString(", ")
		}
		writeEscapedName(bw, x)
	}
}

// writeShown writes a name as the topology text shows it (EscapeName).
func writeShown(bw *bufio.Writer, x string) { writeEscapedName(bw, x) }

// SortedSet returns xs de-duplicated and sorted as a Java TreeSet<String>
// orders it. It does not modify xs.
func SortedSet(xs []string) []string {
	if len(xs) < 2 {
		return xs
	}
	out := slices.Clone(xs)
	slices.SortFunc(out, javaOrder)
	return slices.Compact(out)
}

// javaOrder is JavaCompare, with byte order between the strings it finds
// equal (different invalid UTF-8, which it reads as U+FFFD), so that every
// order is one order.
func javaOrder(a, b string) int {
	if c := JavaCompare(a, b); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

// JavaCompare orders strings as Java's String.compareTo does: by UTF-16 code
// unit. It equals byte order except that supplementary characters (encoded
// as surrogates 0xD800-0xDFFF) sort before U+E000-U+FFFF.
func JavaCompare(a, b string) int {
	// Equal bytes are equal code units; the first differing bytes decide
	// at once when both are ASCII, otherwise the runes from the last byte
	// before them that starts a rune in both do (a byte that is not a
	// UTF-8 continuation always starts one, valid or not).
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	cont := func(s string, i int) bool { return i < len(s) && s[i]&0xc0 == 0x80 }
	switch {
	case i == n && !cont(a, i) && !cont(b, i):
		return len(a) - len(b) // one is a prefix of the other, rune for rune
	case i < n && a[i] < utf8.RuneSelf && b[i] < utf8.RuneSelf:
		return int(a[i]) - int(b[i])
	}
	for i > 0 && (cont(a, i) || cont(b, i)) {
		i--
	}
	a, b = a[i:], b[i:]
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
