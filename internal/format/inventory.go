package format

// Display rules for inventory. The text has up to five sections, each
// left out when it has nothing to say:
//
//  1. one block per streams group: "GROUP <g> (<state>)", or "(no live
//     streams group)", then a table of its declared internal topics
//     (TOPIC KIND PARTITIONS RF SIZE PER-COPY NEWEST-RECORD), PARTITIONS
//     as "have/expected" when they differ and "-" for a missing topic,
//     then one "  ! <finding>" line per finding;
//  2. "ORPHANS": a table (TOPIC APPLICATION SIZE PER-COPY NEWEST-RECORD
//     WHY), then the total orphaned size;
//  3. "NOT ORPHANS" (named as internal topics but kept by a rule): one
//     "  <topic>: <why>" line each;
//  4. "LEFT-OVER GROUP CONFIGS": one "  <group>: k=v, …" line per group
//     that no longer exists but keeps dynamic configs;
//  5. with --delete, "CLEANUP (dry run)" or "CLEANUP": one line per
//     listed orphan with its outcome, then a summary line.
//
// Sizes are in binary units (KiB, MiB, …) to one decimal; SIZE is every
// replica, PER-COPY one copy. NEWEST-RECORD is RFC 3339 in UTC, "empty"
// for a topic with no record and "unknown" when it could not be read.
// What could not be read is listed last, one "note:" line each. Every
// topic, group and broker string is escaped.
//
// The document (InventoryDoc) has the same content with sizes in bytes
// and times in RFC 3339; -o prometheus writes the kstreams_inventory_*
// families named in prometheus.go's table.

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/kstreams-groups/kstreams-groups/internal/inventory"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// InventoryDoc is the document of inventory.
type InventoryDoc struct {
	At      string              `json:"at" yaml:"at"`
	Brokers int                 `json:"brokers" yaml:"brokers"`
	Groups  []InventoryGroupDoc `json:"groups" yaml:"groups"`
	Orphans []OrphanDoc         `json:"orphans" yaml:"orphans"`
	// OrphanedBytes is the size on disk of every orphan.
	OrphanedBytes int64     `json:"orphaned_bytes" yaml:"orphaned_bytes"`
	NotOrphans    []KeptDoc `json:"not_orphans" yaml:"not_orphans"`
	// LeftoverGroupConfigs are the dynamic configs of groups that no
	// longer exist.
	LeftoverGroupConfigs []LeftoverConfigDoc `json:"leftover_group_configs" yaml:"leftover_group_configs"`
	Unread               []string            `json:"unread" yaml:"unread"`
	// Notes are what the broker cannot tell; not failures.
	Notes   []string    `json:"notes,omitempty" yaml:"notes,omitempty"`
	Cleanup *CleanupDoc `json:"cleanup,omitempty" yaml:"cleanup,omitempty"`
}

// InventoryGroupDoc is one streams group's internal topics; live false
// when no live streams group has the id.
type InventoryGroupDoc struct {
	Group    string                `json:"group" yaml:"group"`
	Live     bool                  `json:"live" yaml:"live"`
	State    string                `json:"state,omitempty" yaml:"state,omitempty"`
	Bytes    int64                 `json:"bytes" yaml:"bytes"`
	Topics   []InternalTopicDoc    `json:"topics" yaml:"topics"`
	Findings []InventoryFindingDoc `json:"findings" yaml:"findings"`
	Error    *ErrorDoc             `json:"error,omitempty" yaml:"error,omitempty"`
}

// InternalTopicDoc is one declared internal topic against the cluster.
type InternalTopicDoc struct {
	Topic       string `json:"topic" yaml:"topic"`
	Kind        string `json:"kind" yaml:"kind"`
	Subtopology string `json:"subtopology" yaml:"subtopology"`
	// Declared is what the application asks for: partitions and
	// replication factor 0 leave them to the broker.
	Declared           DeclaredTopicDoc `json:"declared" yaml:"declared"`
	ExpectedPartitions *int32           `json:"expected_partitions,omitempty" yaml:"expected_partitions,omitempty"`
	Present            bool             `json:"present" yaml:"present"`
	Partitions         *int32           `json:"partitions,omitempty" yaml:"partitions,omitempty"`
	ReplicationFactor  *int16           `json:"replication_factor,omitempty" yaml:"replication_factor,omitempty"`
	Usage              *UsageDoc        `json:"usage,omitempty" yaml:"usage,omitempty"`
}

// DeclaredTopicDoc is a KIP-1071 TopicInfo.
type DeclaredTopicDoc struct {
	Partitions        int32             `json:"partitions" yaml:"partitions"`
	ReplicationFactor int16             `json:"replication_factor" yaml:"replication_factor"`
	Configs           map[string]string `json:"configs" yaml:"configs"`
}

// UsageDoc is a topic's size and newest record: bytes of every replica,
// copy_bytes of one copy (null when no log directory reported it);
// newest_record null when unknown or empty.
type UsageDoc struct {
	Bytes        *int64 `json:"bytes" yaml:"bytes"`
	CopyBytes    *int64 `json:"copy_bytes" yaml:"copy_bytes"`
	Copies       int16  `json:"copies" yaml:"copies"`
	Empty        bool   `json:"empty" yaml:"empty"`
	NewestRecord string `json:"newest_record,omitempty" yaml:"newest_record,omitempty"`
	// UnknownPartitions counts non-empty partitions whose newest record
	// could not be read.
	UnknownPartitions int `json:"unknown_partitions" yaml:"unknown_partitions"`
	// CreateTimePartitions counts partitions whose newest record carries
	// its producer's time, not the broker's append time: the topic's age
	// is unknown.
	CreateTimePartitions int `json:"create_time_partitions,omitempty" yaml:"create_time_partitions,omitempty"`
}

// InventoryFindingDoc is one difference: kind is missing, partitions,
// replication_factor, config, source_missing or not_ready.
type InventoryFindingDoc struct {
	Kind    string `json:"kind" yaml:"kind"`
	Topic   string `json:"topic,omitempty" yaml:"topic,omitempty"`
	Config  string `json:"config,omitempty" yaml:"config,omitempty"`
	Want    string `json:"want,omitempty" yaml:"want,omitempty"`
	Have    string `json:"have,omitempty" yaml:"have,omitempty"`
	Message string `json:"message" yaml:"message"`
}

// OrphanDoc is one orphan; application is "" when its name allows
// several and none is known.
type OrphanDoc struct {
	Topic             string   `json:"topic" yaml:"topic"`
	Application       string   `json:"application" yaml:"application"`
	Reason            string   `json:"reason" yaml:"reason"`
	Partitions        int32    `json:"partitions" yaml:"partitions"`
	ReplicationFactor int16    `json:"replication_factor" yaml:"replication_factor"`
	Usage             UsageDoc `json:"usage" yaml:"usage"`
}

// LeftoverConfigDoc is one gone group's dynamic configs.
type LeftoverConfigDoc struct {
	Group   string            `json:"group" yaml:"group"`
	Configs map[string]string `json:"configs" yaml:"configs"`
}

// KeptDoc is a topic named as an internal topic that a rule keeps.
type KeptDoc struct {
	Topic  string `json:"topic" yaml:"topic"`
	Reason string `json:"reason" yaml:"reason"`
}

// CleanupDoc is a cleanup's outcome: outcome is deleted, would_delete,
// skipped or failed.
type CleanupDoc struct {
	Execute       bool              `json:"execute" yaml:"execute"`
	MinAgeSeconds int64             `json:"min_age_seconds" yaml:"min_age_seconds"`
	Topics        []CleanupTopicDoc `json:"topics" yaml:"topics"`
	// Configs are the left-over group configs' outcomes (--configs);
	// topic holds the group id.
	Configs []CleanupTopicDoc `json:"configs,omitempty" yaml:"configs,omitempty"`
}

// CleanupTopicDoc is one listed orphan's outcome.
type CleanupTopicDoc struct {
	Topic   string    `json:"topic" yaml:"topic"`
	Outcome string    `json:"outcome" yaml:"outcome"`
	Reason  string    `json:"reason,omitempty" yaml:"reason,omitempty"`
	Error   *ErrorDoc `json:"error,omitempty" yaml:"error,omitempty"`
}

func usageDoc(u inventory.Usage) UsageDoc {
	d := UsageDoc{Copies: u.Copies, Empty: u.Empty, UnknownPartitions: u.Unknown, CreateTimePartitions: u.CreateTime}
	if u.SizeKnown {
		b, c := u.Bytes, u.CopyBytes
		d.Bytes, d.CopyBytes = &b, &c
	}
	if u.Newest != nil {
		d.NewestRecord = u.Newest.Format(time.RFC3339Nano)
	}
	return d
}

// NewInventoryDoc builds the document of an inventory.
func NewInventoryDoc(r *inventory.Result) InventoryDoc {
	d := InventoryDoc{At: r.At.UTC().Format(time.RFC3339), Brokers: r.Brokers, OrphanedBytes: r.OrphanedBytes(), Notes: r.Notes,
		Unread: mapAll(r.Unread, (*inventory.UnreadError).Text),
		Groups: mapAll(r.Groups, inventoryGroupDoc),
		Orphans: mapAll(r.Orphans, func(o inventory.Orphan) OrphanDoc {
			return OrphanDoc{Topic: o.Topic, Application: o.Application, Reason: o.Reason, Partitions: o.Partitions, ReplicationFactor: o.ReplicationFactor, Usage: usageDoc(o.Usage)}
		}),
		NotOrphans: mapAll(r.Kept, func(k inventory.Kept) KeptDoc { return KeptDoc{Topic: k.Topic, Reason: k.Reason} }),
		LeftoverGroupConfigs: mapAll(r.LeftoverConfigs, func(l inventory.LeftoverConfig) LeftoverConfigDoc {
			return LeftoverConfigDoc{Group: l.Group, Configs: configMap(l.Configs)}
		})}
	if c := r.Deletion; c != nil {
		d.Cleanup = &CleanupDoc{Execute: c.Execute, MinAgeSeconds: int64(c.MinAge / time.Second), Topics: mapAll(c.Topics, cleanupDoc)}
		if len(c.Configs) > 0 {
			d.Cleanup.Configs = mapAll(c.Configs, cleanupDoc)
		}
	}
	return d
}

// inventoryGroupDoc is one group's part of the document.
func inventoryGroupDoc(g *inventory.Group) InventoryGroupDoc {
	gd := InventoryGroupDoc{Group: g.Group, Live: g.Live, State: g.State, Bytes: g.Bytes(), Topics: mapAll(g.Topics, internalTopicDoc),
		Findings: mapAll(g.Findings, func(f inventory.Finding) InventoryFindingDoc {
			return InventoryFindingDoc{Kind: f.Kind, Topic: f.Topic, Config: f.Config, Want: f.Want, Have: f.Have, Message: f.Message()}
		})}
	if g.Err != nil {
		gd.Error = NewErrorDoc(g.Err)
	}
	return gd
}

// internalTopicDoc is one declared topic against the cluster.
func internalTopicDoc(t inventory.Topic) InternalTopicDoc {
	td := InternalTopicDoc{Topic: t.Name, Kind: t.Kind, Subtopology: t.Subtopology, Present: t.Present,
		Declared: DeclaredTopicDoc{Partitions: t.Declared.Partitions, ReplicationFactor: t.Declared.ReplicationFactor, Configs: configMap(t.Declared.Configs)}}
	if t.ExpectedPartitions > 0 {
		n := t.ExpectedPartitions
		td.ExpectedPartitions = &n
	}
	if t.Present {
		p, rf := t.Partitions, t.ReplicationFactor
		td.Partitions, td.ReplicationFactor = &p, &rf
		u := usageDoc(t.Usage)
		td.Usage = &u
	}
	return td
}

// configMap is configs by key, never nil.
func configMap(cs []kafka.ConfigEntry) map[string]string {
	m := map[string]string{}
	for _, c := range cs {
		m[c.Key] = c.Value
	}
	return m
}

func cleanupDoc(o inventory.Outcome) CleanupTopicDoc {
	td := CleanupTopicDoc{Topic: o.Topic, Outcome: o.Outcome, Reason: o.Reason}
	if o.Err != nil {
		td.Error = NewErrorDoc(o.Err)
	}
	return td
}

// Bytes formats a size in binary units to one decimal.
func Bytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	v, i := float64(n), 0
	for v >= unit && i < 5 {
		v /= unit
		i++
	}
	return fmt.Sprintf("%.1f %s", v, []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB"}[i])
}

func sizeCells(u inventory.Usage) (string, string) {
	if !u.SizeKnown {
		return "unknown", "unknown"
	}
	return Bytes(u.Bytes), Bytes(u.CopyBytes)
}

func newestCell(u inventory.Usage) string {
	switch {
	case u.Empty:
		return "empty"
	case u.Newest == nil:
		return "unknown"
	case u.Unknown > 0:
		return u.Newest.Format(time.RFC3339) + " (" + fmt.Sprint(u.Unknown) + " partitions unknown)"
	}
	return u.Newest.Format(time.RFC3339)
}

// InventoryText writes an inventory as text (see the display rules): the
// groups, ORPHANS, NOT ORPHANS, LEFT-OVER GROUP CONFIGS, CLEANUP, notes.
func InventoryText(w io.Writer, r *inventory.Result) error {
	var b strings.Builder
	for i, g := range r.Groups {
		if i > 0 {
			b.WriteString("\n")
		}
		writeInventoryGroup(&b, g)
	}
	writeOrphans(&b, r)
	if len(r.Kept) > 0 {
		b.WriteString("\nNOT ORPHANS (named as internal topics, kept by a rule)\n")
		for _, k := range r.Kept {
			fmt.Fprintf(&b, "  %s: %s\n", Escape(k.Topic), EscapeMessage(k.Reason))
		}
	}
	if len(r.LeftoverConfigs) > 0 {
		b.WriteString("\nLEFT-OVER GROUP CONFIGS (the group no longer exists)\n")
		for _, l := range r.LeftoverConfigs {
			var kv []string
			for _, c := range l.Configs {
				kv = append(kv, Escape(c.Key)+"="+Escape(c.Value))
			}
			fmt.Fprintf(&b, "  %s: %s\n", Escape(l.Group), strings.Join(kv, ", "))
		}
	}
	if r.Deletion != nil {
		writeCleanup(&b, r.Deletion)
	}
	for _, u := range r.Unread {
		fmt.Fprintf(&b, "note: could not read %s\n", EscapeMessage(u.Text()))
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "note: %s\n", EscapeMessage(n))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeInventoryGroup writes one group's block: its state, its declared
// topics against the cluster, its findings.
func writeInventoryGroup(b *strings.Builder, g *inventory.Group) {
	switch {
	case !g.Live:
		fmt.Fprintf(b, "GROUP %s (no live streams group)\n", Escape(g.Group))
	case g.State == "":
		fmt.Fprintf(b, "GROUP %s (state unknown)\n", Escape(g.Group))
	default:
		fmt.Fprintf(b, "GROUP %s (%s)\n", Escape(g.Group), Escape(g.State))
	}
	if g.Err != nil {
		fmt.Fprintf(b, "  Error: %s\n", errorLine(g.Err))
	}
	if len(g.Topics) > 0 {
		rows := [][]string{{"TOPIC", "KIND", "PARTITIONS", "RF", "SIZE", "PER-COPY", "NEWEST-RECORD"}}
		for _, t := range g.Topics {
			rows = append(rows, internalTopicRow(t))
		}
		writeInventoryTable(b, "  ", rows)
		fmt.Fprintf(b, "  %d internal topics, %s on disk\n", len(g.Topics), Bytes(g.Bytes()))
	} else if g.Live && g.Err == nil {
		b.WriteString("  no internal topics declared\n")
	}
	for _, f := range g.Findings {
		fmt.Fprintf(b, "  ! %s\n", EscapeMessage(f.Message()))
	}
}

// internalTopicRow is a declared topic's row; partitions "have/expected"
// when they differ.
func internalTopicRow(t inventory.Topic) []string {
	if !t.Present {
		return []string{Escape(t.Name), t.Kind, "-", "-", "-", "-", "missing"}
	}
	parts := fmt.Sprint(t.Partitions)
	if t.ExpectedPartitions > 0 && t.ExpectedPartitions != t.Partitions {
		parts = fmt.Sprintf("%d/%d", t.Partitions, t.ExpectedPartitions)
	}
	size, copySize := sizeCells(t.Usage)
	return []string{Escape(t.Name), t.Kind, parts, fmt.Sprint(t.ReplicationFactor), size, copySize, newestCell(t.Usage)}
}

// writeOrphans writes the ORPHANS table, or that there are none when no
// group is shown either.
func writeOrphans(b *strings.Builder, r *inventory.Result) {
	if len(r.Orphans) == 0 {
		if len(r.Groups) == 0 {
			b.WriteString("No orphaned internal topics.\n")
		}
		return
	}
	if b.Len() > 0 {
		b.WriteString("\n")
	}
	b.WriteString("ORPHANS\n")
	rows := [][]string{{"TOPIC", "APPLICATION", "SIZE", "PER-COPY", "NEWEST-RECORD", "WHY"}}
	for _, o := range r.Orphans {
		app := o.Application
		if app == "" {
			app = "?"
		}
		size, copySize := sizeCells(o.Usage)
		rows = append(rows, []string{Escape(o.Topic), Escape(app), size, copySize, newestCell(o.Usage), EscapeMessage(o.Reason)})
	}
	writeInventoryTable(b, "  ", rows)
	fmt.Fprintf(b, "  %d orphaned topics, %s on disk\n", len(r.Orphans), Bytes(r.OrphanedBytes()))
}

// writeCleanup writes the CLEANUP block: each listed orphan's outcome,
// then each left-over config's, then the counts.
func writeCleanup(b *strings.Builder, c *inventory.Deletion) {
	b.WriteString("\n")
	if c.Execute {
		b.WriteString("CLEANUP\n")
	} else {
		b.WriteString("CLEANUP (dry run: nothing is deleted without --execute)\n")
	}
	counts := map[string]int{}
	for _, o := range c.Topics {
		counts[o.Outcome]++
		writeOutcome(b, Escape(o.Topic), o)
	}
	for _, o := range c.Configs {
		counts[o.Outcome]++
		writeOutcome(b, "configs of group "+Escape(o.Topic), o)
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		parts = append(parts, fmt.Sprintf("%d %s", counts[k], strings.ReplaceAll(k, "_", " ")))
	}
	if len(parts) == 0 {
		parts = []string{"nothing to delete"}
	}
	fmt.Fprintf(b, "  %s\n", strings.Join(parts, ", "))
}

// writeOutcome writes one outcome's line; what is already escaped.
func writeOutcome(b *strings.Builder, what string, o inventory.Outcome) {
	switch o.Outcome {
	case inventory.Deleted:
		fmt.Fprintf(b, "  deleted       %s\n", what)
	case inventory.WouldDelete:
		fmt.Fprintf(b, "  would delete  %s\n", what)
	case inventory.Skipped:
		fmt.Fprintf(b, "  skipped       %s: %s\n", what, EscapeMessage(o.Reason))
	default:
		fmt.Fprintf(b, "  failed        %s: %s\n", what, errorLine(o.Err))
	}
}

// writeInventoryTable writes rows as left-aligned columns two spaces
// apart, the last column unpadded.
func writeInventoryTable(b *strings.Builder, indent string, rows [][]string) {
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	for _, r := range rows {
		b.WriteString(indent)
		for i, c := range r {
			b.WriteString(c)
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c)+2))
			}
		}
		b.WriteString("\n")
	}
}
