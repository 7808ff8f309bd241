package format

// Display rules for diff (kstreams-groups diff OLD NEW), a view of ours:
//   - Two lines name the sides ("OLD: <spec> (...)", "NEW: ...") and the
//     application id prefix taken off their internal topics.
//   - "Upgrade safety:" with the count per severity, then one line per
//     finding, most severe first: the severity padded to 8, where it is
//     ("sub-topology 1", "sub-topology 0 -> 1" when it was renumbered,
//     "global store <stores>"), and what it means, with the hint that
//     would have avoided it (Named.as, Materialized.as, ...).
//   - "Changes:" lists every sub-topology (OLD's order, then NEW's new
//     ones) and every global store: nodes added (+), removed (-) and
//     changed (~, with the aspects: name, type, topics, stores,
//     successors as each side has them).
//   - Then a unified diff (3 lines of context) of the two normalised
//     descriptions in the CLI's topology text, "--- OLD <spec>" and
//     "+++ NEW <spec>"; none when they are the same.
//   - Color, on a terminal only: breaking red, warning yellow, added lines
//     green, removed red, hunk headers cyan, headers bold (git diff's
//     choices). Every name from a file or the broker is escaped.
// The JSON/YAML document (DiffDoc) holds the same findings and changes.

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
	"github.com/fatih/color"

	"github.com/kstreams-groups/kstreams-groups/internal/diff"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// DiffText writes the text report of a diff whose sides were both read.
// It is written as it is made, in pieces of about 64 KB: a report of two
// large topologies (tens of MB) is never held whole, and a writer that
// fails (the command's, after a signal) ends it at the next piece.
func DiffText(w io.Writer, res *diff.Result, st *Styles) error {
	c := res.Comparison
	if c == nil {
		return nil // the failures are reported on stderr
	}
	// A bytes.Buffer: its Reset keeps the memory for the next 64 KiB (a
	// strings.Builder's does not), and the output of two 20 MB sides is
	// about 100 MB.
	var b bytes.Buffer
	flush := func(all bool) error {
		if b.Len() < 64<<10 && !all {
			return nil
		}
		_, err := w.Write(b.Bytes())
		b.Reset()
		return err
	}
	for _, s := range []diff.SideResult{res.Old, res.New} {
		fmt.Fprintf(&b, "%s %s (%s)\n", st.Paint(st.orPlain().Header, s.Label+":"), Escape(s.Spec), prefixNote(s))
	}
	b.WriteString("\n")
	b.WriteString(st.Paint(st.orPlain().Header, "Upgrade safety:") + " " + summary(c) + "\n")
	for _, f := range c.Findings {
		fmt.Fprintf(&b, "  %s  %s: %s\n", st.Paint(severityColor(st, f.Severity()), fmt.Sprintf("%-8s", f.Severity())), FindingLocation(f), FindingMessage(f))
		if err := flush(false); err != nil {
			return err
		}
	}
	if line := brokerVerdict(res); line != "" {
		b.WriteString("\n" + st.Paint(st.orPlain().Header, "Broker:") + " " + line + "\n")
	}
	if c.Identical() {
		b.WriteString("\nNo differences: the topologies are the same after normalisation.\n")
		return flush(true)
	}
	b.WriteString("\n" + st.Paint(st.orPlain().Header, "Changes:") + "\n")
	for _, s := range c.Subtopologies {
		writeSubtopologyChange(&b, s, st)
		if err := flush(false); err != nil {
			return err
		}
	}
	for _, g := range c.GlobalStores {
		writeGlobalStoreChange(&b, g, st)
		if err := flush(false); err != nil {
			return err
		}
	}
	if err := flush(true); err != nil {
		return err
	}
	u, err := unifiedDiff(res)
	if err != nil {
		return err
	}
	if u != "" {
		b.WriteString("\n")
		for line := range strings.Lines(u) {
			b.WriteString(paintDiffLine(st, strings.TrimSuffix(line, "\n")))
			b.WriteByte('\n')
			if err := flush(false); err != nil {
				return err
			}
		}
	}
	return flush(true)
}

// brokerVerdict says, when OLD is a group, whether its broker accepts
// NEW's topology for it, and what to do when it does not.
func brokerVerdict(res *diff.Result) string {
	c := res.Comparison
	if !c.BrokerChecked {
		return ""
	}
	g := Escape(res.Old.Group)
	if c.Refused() {
		newSpec := "<NEW's describe() text>"
		if !res.New.IsGroup() {
			newSpec = Escape(res.New.Spec)
		}
		return fmt.Sprintf("refuses NEW for group %s (INVALID_REQUEST: Topology updates are not supported yet; the application's stream threads die). "+
			"Deploy it under a new application.id, or migrate the group with its offsets: kstreams-groups upgrade plan --group %s %s "+
			"says what that carries and what blocks it (docs/upgrades.md).", g, g, newSpec)
	}
	return fmt.Sprintf("accepts NEW for group %s (the same sub-topologies with the same source, repartition and changelog topics).", g)
}

func prefixNote(s diff.SideResult) string {
	kind := "file"
	switch {
	case s.IsGroup():
		kind = "stored description"
	case s.File == diff.Stdin:
		kind = "stdin"
	}
	if s.ApplicationID == "" {
		return kind + ", internal topics as given"
	}
	return fmt.Sprintf("%s, internal topics without the prefix %q", kind, Escape(s.ApplicationID)+"-")
}

func summary(c *diff.Comparison) string {
	if len(c.Findings) == 0 {
		return "no findings"
	}
	return fmt.Sprintf("%d breaking, %s, %d info", c.Count(diff.Breaking), plural(c.Count(diff.Warning), "warning"), c.Count(diff.Info))
}

func severityColor(st *Styles, s diff.Severity) *color.Color {
	switch s {
	case diff.Breaking:
		return st.orPlain().Error
	case diff.Warning:
		return st.orPlain().Warning
	}
	return nil
}

// FindingLocation is where a finding is, as the text report names it.
func FindingLocation(f diff.Finding) string {
	switch {
	case f.GlobalStore != "":
		return "global store " + Escape(f.GlobalStore)
	case f.OldSubtopology != "" && f.NewSubtopology != "" && f.OldSubtopology != f.NewSubtopology:
		return "sub-topology " + Escape(f.OldSubtopology) + " -> " + Escape(f.NewSubtopology)
	case f.OldSubtopology != "":
		return "sub-topology " + Escape(f.OldSubtopology)
	case f.NewSubtopology != "":
		return "new sub-topology " + Escape(f.NewSubtopology)
	}
	return "topology"
}

// namingHints say how to name each kind of node so that its generated name
// cannot shift.
var namingHints = map[string]string{
	"source":    "Consumed.as",
	"processor": "Named.as",
	"sink":      "Produced.as",
	"store":     "Materialized.as",
}

// FindingMessage is what a finding means, one line, names escaped.
func FindingMessage(f diff.Finding) string {
	o, n, node := Escape(f.Old), Escape(f.New), Escape(f.Node)
	switch f.Kind {
	case diff.TopologyRefused:
		switch {
		case f.Subject == "sub-topology" && f.New == "":
			return fmt.Sprintf("sub-topology %s is gone: the broker refuses the new topology for this group", o)
		case f.Subject == "sub-topology":
			return fmt.Sprintf("sub-topology %s is new: the broker refuses the new topology for this group", n)
		}
		return fmt.Sprintf("%s are %s, not %s: the broker refuses the new topology for this group", f.Subject, listOrNone(n), listOrNone(o))
	case diff.StoreRenamed:
		m := fmt.Sprintf("store %s is now %s: the new store starts empty and the old one's local state is abandoned", o, n)
		if f.Generated() {
			m += fmt.Sprintf("; the old name was generated: keep it with Materialized.as(%q)", o)
		}
		return m
	case diff.StoreRemoved:
		return fmt.Sprintf("store %s is removed: its local state and changelog are abandoned", o)
	case diff.ChangelogRenamed:
		return fmt.Sprintf("changelog topic %s is now %s: the old changelog is orphaned and restores nothing", o, n)
	case diff.ChangelogRemoved:
		return fmt.Sprintf("changelog topic %s is no longer written: what it holds is orphaned", o)
	case diff.RepartitionRenamed:
		m := fmt.Sprintf("repartition topic %s is now %s: records in flight in the old one are never read", o, n)
		if f.Generated() {
			m += "; the old name was generated: name the store or the grouping (Materialized.as, Grouped.as, Repartitioned.as) to pin it"
		}
		return m
	case diff.RepartitionRemoved:
		return fmt.Sprintf("repartition topic %s is no longer used: records in flight in it are never read", o)
	case diff.SourceRemoved:
		return fmt.Sprintf("source topic %s is no longer read", o)
	case diff.SubtopologyRenumbered:
		what := "its content changed too"
		if f.SameContent {
			what = "same content"
		}
		return fmt.Sprintf("renumbered from %s to %s (%s): its task ids change (%s_N becomes %s_N) and with them the tasks' state directories", o, n, what, o, n)
	case diff.GlobalStoreChanged:
		if f.Subject == "topic" {
			return fmt.Sprintf("reads %s instead of %s: the store is rebuilt from the new topic", listOrNone(n), listOrNone(o))
		}
		return fmt.Sprintf("store %s is now %s", listOrNone(o), listOrNone(n))
	case diff.GlobalStoreRemoved:
		return fmt.Sprintf("global store %s is removed", o)
	case diff.GeneratedNameShifted:
		return fmt.Sprintf("generated %s name %s shifted to %s (an operator was added or removed upstream); %s pins it", f.Subject, o, n, namingHints[f.Subject])
	case diff.SinkChanged:
		switch {
		case f.Old != "" && f.New != "":
			return fmt.Sprintf("sink %s writes %s instead of %s", node, n, o)
		case f.Old != "":
			return fmt.Sprintf("topic %s is no longer written", o)
		}
		return fmt.Sprintf("topic %s is now written", n)
	case diff.SourceAdded:
		return fmt.Sprintf("source topic %s is now read: the group has no committed offsets for it, so auto.offset.reset decides where it starts", n)
	case diff.DynamicNode:
		if f.Subject == "pattern source" {
			return fmt.Sprintf("%s is a pattern source: the broker does not store its pattern, so what it reads cannot be compared", node)
		}
		return fmt.Sprintf("%s is a dynamic sink (TopicNameExtractor): the topics it writes cannot be compared", node)
	case diff.ProcessorAdded:
		return fmt.Sprintf("processor %s is added (no state)", n)
	case diff.ProcessorRemoved:
		return fmt.Sprintf("processor %s is removed (no state)", o)
	case diff.StoreAdded:
		return fmt.Sprintf("store %s is added: it starts empty", n)
	case diff.GlobalStoreAdded:
		return fmt.Sprintf("global store %s is added: it is loaded from its topic at start", n)
	}
	return fmt.Sprintf("%s %s -> %s", f.Kind, o, n)
}

func listOrNone(s string) string {
	if s == "" {
		return "none"
	}
	return "[" + s + "]"
}

func writeSubtopologyChange(b *bytes.Buffer, s diff.SubtopologyChange, st *Styles) {
	switch {
	case s.Old == nil:
		fmt.Fprintf(b, "  Sub-topology %s (new): added\n", Escape(s.New.ID))
	case s.New == nil:
		fmt.Fprintf(b, "  Sub-topology %s: removed\n", Escape(s.Old.ID))
	default:
		id := Escape(s.Old.ID)
		if s.Old.ID != s.New.ID {
			id += " -> " + Escape(s.New.ID)
		}
		var parts []string
		for _, p := range []struct {
			n    int
			what string
		}{{len(s.Added), "added"}, {len(s.Removed), "removed"}, {len(s.Changed), "changed"}} {
			if p.n > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", p.n, p.what))
			}
		}
		switch {
		case parts == nil && s.Old.ID != s.New.ID:
			fmt.Fprintf(b, "  Sub-topology %s: renumbered, nodes unchanged\n", id)
		case parts == nil:
			fmt.Fprintf(b, "  Sub-topology %s: unchanged\n", id)
		default:
			fmt.Fprintf(b, "  Sub-topology %s: nodes %s\n", id, strings.Join(parts, ", "))
		}
	}
	writeNodeChanges(b, s.Added, s.Removed, s.Changed, st)
}

func writeGlobalStoreChange(b *bytes.Buffer, g diff.GlobalStoreChange, st *Styles) {
	switch {
	case g.Old == nil:
		fmt.Fprintf(b, "  Global store %s (new): added\n", Escape(strings.Join(g.New.Processor.Stores, ", ")))
		writeNodeChanges(b, []*topology.Node{g.New.Source, g.New.Processor}, nil, nil, st)
	case g.New == nil:
		fmt.Fprintf(b, "  Global store %s: removed\n", Escape(strings.Join(g.Old.Processor.Stores, ", ")))
		writeNodeChanges(b, nil, []*topology.Node{g.Old.Source, g.Old.Processor}, nil, st)
	default:
		name := Escape(strings.Join(g.Old.Processor.Stores, ", "))
		if g.Unchanged() {
			fmt.Fprintf(b, "  Global store %s: unchanged\n", name)
			return
		}
		fmt.Fprintf(b, "  Global store %s: changed\n", name)
		writeNodeChanges(b, nil, nil, globalChanges(g), st)
	}
}

// globalChanges are the changes of a global store's source and processor.
func globalChanges(g diff.GlobalStoreChange) []diff.NodeChange {
	var changed []diff.NodeChange
	for _, c := range []*diff.NodeChange{g.Source, g.Processor} {
		if c != nil {
			changed = append(changed, *c)
		}
	}
	return changed
}

func writeNodeChanges(b *bytes.Buffer, added, removed []*topology.Node, changed []diff.NodeChange, st *Styles) {
	for _, n := range added {
		fmt.Fprintf(b, "    %s\n", st.Paint(st.orPlain().Added, "+ "+nodeLine(n)))
	}
	for _, n := range removed {
		fmt.Fprintf(b, "    %s\n", st.Paint(st.orPlain().Removed, "- "+nodeLine(n)))
	}
	for _, c := range changed {
		line := "~ " + kindLabel(c.Old.Kind) + ": " + Escape(c.Old.Name)
		for _, f := range c.Fields {
			switch f {
			case diff.FieldName:
				line += " -> " + Escape(c.New.Name)
			case diff.FieldType:
				line += fmt.Sprintf("; type: %s -> %s", c.Old.Kind, c.New.Kind)
			case diff.FieldTopics:
				line += "; topics: " + topicsText(c.Old) + " -> " + topicsText(c.New)
			case diff.FieldStores:
				line += "; stores: " + setText(c.Old.Stores) + " -> " + setText(c.New.Stores)
			case diff.FieldSuccessors:
				line += "; successors: " + setText(c.Old.Successors) + " -> " + setText(c.New.Successors)
			}
		}
		fmt.Fprintf(b, "    %s\n", line)
	}
}

// nodeLine is a node's line of the topology text.
func nodeLine(n *topology.Node) string {
	switch n.Kind {
	case topology.Source:
		return fmt.Sprintf("Source: %s (topics: %s)", Escape(n.Name), topicsText(n))
	case topology.Processor:
		return fmt.Sprintf("Processor: %s (stores: %s)", Escape(n.Name), setText(n.Stores))
	}
	return fmt.Sprintf("%s: %s (topic: %s)", kindLabel(n.Kind), Escape(n.Name), topicsText(n))
}

// topicsText is what a source reads or a sink writes.
func topicsText(n *topology.Node) string {
	if n.Kind == topology.Sink {
		if n.Topic == nil {
			return "null"
		}
		return Escape(*n.Topic)
	}
	if n.Pattern != "" && len(n.Topics) == 0 {
		return Escape(n.Pattern)
	}
	return setText(n.Topics)
}

func setText(xs []string) string { return "[" + escapedList(xs) + "]" }

// unifiedDiff is the unified diff of the two normalised descriptions in the
// CLI's topology text; "" when they are the same.
func unifiedDiff(res *diff.Result) (string, error) {
	// The two texts at once: each is as long as its side (20 MB).
	var o, n strings.Builder
	var errO error
	done := make(chan struct{})
	go func() {
		defer close(done)
		errO = Topology(&o, res.Comparison.Old)
	}()
	errN := Topology(&n, res.Comparison.New)
	<-done
	if errO != nil {
		return "", errO
	}
	if errN != nil {
		return "", errN
	}
	if o.String() == n.String() {
		return "", nil
	}
	return udiff.ToUnified("OLD "+Escape(res.Old.Spec), "NEW "+Escape(res.New.Spec), o.String(), udiff.Lines(o.String(), n.String()), udiff.DefaultContextLines)
}

func paintDiffLine(st *Styles, line string) string {
	switch {
	case strings.HasPrefix(line, "--- "), strings.HasPrefix(line, "+++ "):
		return st.Paint(st.orPlain().Header, line)
	case strings.HasPrefix(line, "@@"):
		return st.Paint(st.orPlain().Hunk, line)
	case strings.HasPrefix(line, "+"):
		return st.Paint(st.orPlain().Added, line)
	case strings.HasPrefix(line, "-"):
		return st.Paint(st.orPlain().Removed, line)
	}
	return line
}

// DiffDoc is the document of diff: both sides, the outcome, the findings
// (most severe first) and the changes.
type DiffDoc struct {
	Old DiffSideDoc `json:"old" yaml:"old"`
	New DiffSideDoc `json:"new" yaml:"new"`
	// Outcome is identical, different, failing (a finding at least as
	// severe as fail_on) or error (a side could not be read or fetched).
	Outcome string `json:"outcome" yaml:"outcome"`
	// FailOn is the least severity that makes the outcome failing.
	FailOn string `json:"fail_on" yaml:"fail_on"`
	// Broker is, when OLD is a group, whether its broker accepts NEW's
	// topology for it: accepts or refuses.
	Broker string `json:"broker,omitempty" yaml:"broker,omitempty"`
	// Summary counts the findings by severity.
	Summary       DiffSummaryDoc       `json:"summary" yaml:"summary"`
	Findings      []FindingDoc         `json:"findings" yaml:"findings"`
	Subtopologies []SubtopologyDiffDoc `json:"subtopologies" yaml:"subtopologies"`
	GlobalStores  []GlobalStoreDiffDoc `json:"global_stores" yaml:"global_stores"`
}

// DiffSummaryDoc counts a diff's findings by severity.
type DiffSummaryDoc struct {
	Breaking int `json:"breaking" yaml:"breaking"`
	Warning  int `json:"warning" yaml:"warning"`
	Info     int `json:"info" yaml:"info"`
}

// DiffSideDoc is OLD or NEW.
type DiffSideDoc struct {
	Spec  string `json:"spec" yaml:"spec"`
	Group string `json:"group,omitempty" yaml:"group,omitempty"`
	File  string `json:"file,omitempty" yaml:"file,omitempty"`
	// ApplicationID is the prefix taken off its internal topics.
	ApplicationID string    `json:"application_id,omitempty" yaml:"application_id,omitempty"`
	Error         *ErrorDoc `json:"error,omitempty" yaml:"error,omitempty"`
}

// FindingDoc is one finding. old_subtopology and new_subtopology are its
// sub-topology on each side (absent where a side has none, and for a
// global store, which global_store names instead); subject says what old
// and new name.
type FindingDoc struct {
	Severity       string `json:"severity" yaml:"severity"`
	Kind           string `json:"kind" yaml:"kind"`
	OldSubtopology string `json:"old_subtopology,omitempty" yaml:"old_subtopology,omitempty"`
	NewSubtopology string `json:"new_subtopology,omitempty" yaml:"new_subtopology,omitempty"`
	GlobalStore    string `json:"global_store,omitempty" yaml:"global_store,omitempty"`
	Subject        string `json:"subject" yaml:"subject"`
	Old            string `json:"old,omitempty" yaml:"old,omitempty"`
	New            string `json:"new,omitempty" yaml:"new,omitempty"`
	Node           string `json:"node,omitempty" yaml:"node,omitempty"`
	Message        string `json:"message" yaml:"message"`
}

// SubtopologyDiffDoc is a sub-topology of OLD and what it became. status
// is unchanged, changed, renumbered (another id, the same nodes), added or
// removed; the ids are absent on the side without it.
type SubtopologyDiffDoc struct {
	OldID   string          `json:"old_id,omitempty" yaml:"old_id,omitempty"`
	NewID   string          `json:"new_id,omitempty" yaml:"new_id,omitempty"`
	Status  string          `json:"status" yaml:"status"`
	Added   []NodeDoc       `json:"added" yaml:"added"`
	Removed []NodeDoc       `json:"removed" yaml:"removed"`
	Changed []NodeChangeDoc `json:"changed" yaml:"changed"`
}

// NodeChangeDoc is a node and what it became; fields lists what differs
// (name, type, topics, stores, successors).
type NodeChangeDoc struct {
	Old    NodeDoc  `json:"old" yaml:"old"`
	New    NodeDoc  `json:"new" yaml:"new"`
	Fields []string `json:"fields" yaml:"fields"`
}

// GlobalStoreDiffDoc is a global store of OLD and what it became, each as
// its side numbers it after normalisation; status is unchanged, changed,
// added or removed.
type GlobalStoreDiffDoc struct {
	Status  string          `json:"status" yaml:"status"`
	Old     *GlobalStoreDoc `json:"old,omitempty" yaml:"old,omitempty"`
	New     *GlobalStoreDoc `json:"new,omitempty" yaml:"new,omitempty"`
	Changed []NodeChangeDoc `json:"changed" yaml:"changed"`
}

var outcomeNames = map[diff.Outcome]string{diff.Identical: "identical", diff.Different: "different", diff.Failing: "failing"}

// NewDiffDoc builds the document of a diff.
func NewDiffDoc(res *diff.Result) DiffDoc {
	side := func(s diff.SideResult) DiffSideDoc {
		return DiffSideDoc{Spec: s.Spec, Group: s.Group, File: s.File, ApplicationID: s.ApplicationID, Error: NewErrorDoc(s.Err)}
	}
	doc := DiffDoc{Old: side(res.Old), New: side(res.New), FailOn: res.FailOn.String(),
		Findings: []FindingDoc{}, Subtopologies: []SubtopologyDiffDoc{}, GlobalStores: []GlobalStoreDiffDoc{}}
	c := res.Comparison
	if c == nil {
		doc.Outcome = "error"
		return doc
	}
	doc.Outcome = outcomeNames[res.Outcome()]
	if c.BrokerChecked {
		doc.Broker = "accepts"
		if c.Refused() {
			doc.Broker = "refuses"
		}
	}
	doc.Summary = DiffSummaryDoc{Breaking: c.Count(diff.Breaking), Warning: c.Count(diff.Warning), Info: c.Count(diff.Info)}
	doc.Findings = mapAll(c.Findings, func(f diff.Finding) FindingDoc {
		return FindingDoc{Severity: f.Severity().String(), Kind: string(f.Kind),
			OldSubtopology: f.OldSubtopology, NewSubtopology: f.NewSubtopology, GlobalStore: f.GlobalStore,
			Subject: f.Subject, Old: f.Old, New: f.New, Node: f.Node, Message: FindingMessage(f)}
	})
	for _, s := range c.Subtopologies {
		d := SubtopologyDiffDoc{Added: mapAll(s.Added, newNodeDoc), Removed: mapAll(s.Removed, newNodeDoc), Changed: mapAll(s.Changed, changeDoc)}
		switch {
		case s.Old == nil:
			d.NewID, d.Status = s.New.ID, "added"
		case s.New == nil:
			d.OldID, d.Status = s.Old.ID, "removed"
		default:
			d.OldID, d.NewID = s.Old.ID, s.New.ID
			switch {
			case s.Unchanged():
				d.Status = "unchanged"
			case len(d.Added)+len(d.Removed)+len(d.Changed) == 0:
				d.Status = "renumbered"
			default:
				d.Status = "changed"
			}
		}
		doc.Subtopologies = append(doc.Subtopologies, d)
	}
	for _, g := range c.GlobalStores {
		d := GlobalStoreDiffDoc{Changed: mapAll(globalChanges(g), changeDoc)}
		if g.Old != nil {
			o := newGlobalStoreDoc(g.Old)
			d.Old = &o
		}
		if g.New != nil {
			n := newGlobalStoreDoc(g.New)
			d.New = &n
		}
		switch {
		case g.Old == nil:
			d.Status = "added"
		case g.New == nil:
			d.Status = "removed"
		case g.Unchanged():
			d.Status = "unchanged"
		default:
			d.Status = "changed"
		}
		doc.GlobalStores = append(doc.GlobalStores, d)
	}
	return doc
}

func changeDoc(c diff.NodeChange) NodeChangeDoc {
	return NodeChangeDoc{Old: newNodeDoc(c.Old), New: newNodeDoc(c.New), Fields: mapAll(c.Fields, func(f diff.Field) string { return string(f) })}
}
