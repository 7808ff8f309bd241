package format

// Display rules for upgrade plan (kstreams-groups upgrade plan --group G
// NEW), a view of ours:
//   - "Upgrade plan for group G (state S, N members), NEW: <spec>" first,
//     and a line saying so when the group's description is not stored
//     (the plan then reads the topology the broker keeps);
//   - "Broker:" says whether the broker accepts NEW for the group (diff's
//     rule); when it refuses, one indented line per refused field;
//   - "Verdict:" is one of "accepted as is", "migration needed",
//     "blocked", with what it asks of the operator;
//   - an accepted NEW shows the stores and stops there: nothing else
//     changes;
//   - otherwise, in this order and each only when it has a line: the
//     offsets to carry (a table: TOPIC PARTITION OFFSET KIND, "(not read
//     by NEW)" after an offset left behind), the stores (kept: state
//     continues; renamed, dropped, new: state STARTS EMPTY, with the old
//     changelog's records), the repartition topics NEW renames or drops
//     (drained or with the records in flight, per partition when any),
//     the new source topics (auto.offset.reset applies), what is left
//     behind, the preconditions ("ok" or "NOT MET"), the blockers;
//   - color, on a terminal only: headers bold, a verdict, a store whose
//     state starts empty and a precondition not met yellow, blockers red;
//   - every name from a file or the broker is escaped.
// The JSON/YAML document (UpgradePlanDoc) holds the same plan.

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
	"github.com/kstreams-groups/kstreams-groups/internal/upgrade"
)

// UpgradePlanText writes the text of a plan; nothing when there is none
// (the failure is reported on stderr).
func UpgradePlanText(w io.Writer, res *upgrade.Result, st *Styles) error {
	p := res.Plan
	if p == nil {
		return nil
	}
	var b strings.Builder
	g := Escape(p.Group)
	fmt.Fprintf(&b, "%s %s (state %s, %s), NEW: %s\n", st.Paint(st.orPlain().Header, "Upgrade plan for group"), g, Escape(p.State), plural(p.Members, "member"), Escape(res.New))
	if p.DescriptionStatus != topology.Available {
		fmt.Fprintf(&b, "The group's topology description is %s: its stores and topics are those of the topology the broker keeps (no node names).\n", p.DescriptionStatus)
	}
	writeUpgradeVerdict(&b, res, st)
	if p.Verdict == upgrade.AcceptedAsIs {
		writeUpgradeStores(&b, p, st)
		_, err := io.WriteString(w, b.String())
		return err
	}
	writeUpgradeOffsets(&b, p, st)
	writeUpgradeStores(&b, p, st)
	writeUpgradeRepartitions(&b, p, st)
	if len(p.NewSources) > 0 {
		fmt.Fprintf(&b, "\n%s\n", st.Paint(st.orPlain().Header, "New source topics (no committed offsets: the application's auto.offset.reset decides where they start):"))
		for _, s := range p.NewSources {
			fmt.Fprintf(&b, "  %s (sub-topology %s)\n", Escape(s.Topic), Escape(s.Subtopology))
		}
	}
	writeUpgradeLeftBehind(&b, p, st)
	writeUpgradeConditions(&b, p, st)
	_, err := io.WriteString(w, b.String())
	return err
}

func writeUpgradeVerdict(b *strings.Builder, res *upgrade.Result, st *Styles) {
	p := res.Plan
	g := Escape(p.Group)
	if len(p.Refused) == 0 {
		fmt.Fprintf(b, "%s accepts NEW for group %s (the same sub-topologies with the same source, repartition and changelog topics).\n", st.Paint(st.orPlain().Header, "Broker:"), g)
	} else {
		fmt.Fprintf(b, "%s refuses NEW for group %s (INVALID_REQUEST: Topology updates are not supported yet), even when the group is Empty:\n", st.Paint(st.orPlain().Header, "Broker:"), g)
		for _, r := range p.Refused {
			fmt.Fprintf(b, "  sub-topology %s: %s\n", Escape(r.Subtopology), refusalText(r))
		}
	}
	verdict := st.Paint(st.orPlain().Header, "Verdict:")
	switch p.Verdict {
	case upgrade.AcceptedAsIs:
		fmt.Fprintf(b, "%s %s: deploy NEW as usual (a rolling restart); nothing to migrate.\n", verdict, st.Paint(st.orPlain().Warning, "accepted as is"))
	case upgrade.MigrationNeeded:
		fmt.Fprintf(b, "%s %s, nothing blocks it: with every instance stopped, delete the group, commit all its offsets back to the same id, then start only NEW (next: kstreams-groups upgrade apply --group %s%s %s).\n",
			verdict, st.Paint(st.orPlain().Warning, "migration needed"), g, acceptStateLossArg(p), Escape(res.New))
	default:
		fmt.Fprintf(b, "%s %s: the broker refuses NEW and the migration cannot be carried out now (%s).\n", verdict, st.Paint(st.orPlain().Error, "blocked"), plural(len(p.Blockers), "blocker"))
	}
}

// acceptStateLossArg is the --accept-state-loss that apply needs for the
// stores whose state the migration loses (each named, as apply asks), or
// "": the suggested command must be one apply takes.
func acceptStateLossArg(p *upgrade.Plan) string {
	var lost []string
	for _, s := range p.Stores {
		if s.Lost() {
			lost = append(lost, Escape(s.Name))
		}
	}
	if len(lost) == 0 {
		return ""
	}
	return " --accept-state-loss " + strings.Join(lost, ",")
}

// refusalText says what differs in one field of the broker's topology.
func refusalText(r upgrade.Refusal) string {
	switch {
	case r.Subject == "sub-topology" && r.New == "":
		return "removed"
	case r.Subject == "sub-topology":
		return "added"
	}
	return fmt.Sprintf("%s are [%s], not [%s]", r.Subject, Escape(r.New), Escape(r.Old))
}

func writeUpgradeOffsets(b *strings.Builder, p *upgrade.Plan, st *Styles) {
	fmt.Fprintf(b, "\n%s\n", st.Paint(st.orPlain().Header, fmt.Sprintf("Offsets to carry (%s: every input and repartition partition the group committed):", plural(len(p.Offsets), "offset"))))
	if len(p.Offsets) == 0 {
		b.WriteString("  none: the group committed no offset, NEW starts where auto.offset.reset says\n")
		return
	}
	topicW, partW, offW := len("TOPIC"), len("PARTITION"), len("OFFSET")
	for _, o := range p.Offsets {
		topicW = max(topicW, len(Escape(o.Topic)))
		offW = max(offW, len(strconv.FormatInt(o.Offset, 10)))
	}
	fmt.Fprintf(b, "  %s\n", st.Paint(st.orPlain().Header, fmt.Sprintf("%-*s %-*s %-*s %s", topicW, "TOPIC", partW, "PARTITION", offW, "OFFSET", "KIND")))
	for _, o := range p.Offsets {
		note := ""
		if !o.InNew {
			note = " (not read by NEW)"
		}
		fmt.Fprintf(b, "  %-*s %-*d %-*d %s%s\n", topicW, Escape(o.Topic), partW, o.Partition, offW, o.Offset, o.Kind, note)
	}
}

func writeUpgradeStores(b *strings.Builder, p *upgrade.Plan, st *Styles) {
	if len(p.Stores) == 0 {
		return
	}
	fmt.Fprintf(b, "\n%s\n", st.Paint(st.orPlain().Header, "Stores:"))
	for _, s := range p.Stores {
		switch s.Fate {
		case upgrade.StoreKept:
			where := "restored from its changelog " + Escape(s.Changelog)
			if s.Changelog == "" {
				where = "no changelog: only its local state, if any"
			}
			fmt.Fprintf(b, "  %s (sub-topology %s): kept, state continues (%s)\n", Escape(s.Name), Escape(s.Subtopology), where)
		case upgrade.StoreRenamed:
			fmt.Fprintf(b, "  %s -> %s (sub-topology %s): renamed, state %s: the new changelog %s is a new topic; %s\n",
				Escape(s.Name), Escape(s.NewName), Escape(s.Subtopology), st.Paint(st.orPlain().Warning, "STARTS EMPTY"), Escape(s.NewChangelog), lostState(s))
		case upgrade.StoreDropped:
			fmt.Fprintf(b, "  %s (sub-topology %s): dropped, %s\n", Escape(s.Name), Escape(s.Subtopology), lostState(s))
		case upgrade.StoreNew:
			fmt.Fprintf(b, "  %s (sub-topology %s): new, state %s\n", Escape(s.NewName), Escape(s.Subtopology), st.Paint(st.orPlain().Warning, "STARTS EMPTY"))
		}
	}
}

// lostState names the state a renamed or dropped store leaves behind.
func lostState(s upgrade.Store) string {
	switch {
	case s.Changelog == "":
		return "its local state is lost (no changelog)"
	case s.ChangelogRecords < 0:
		return fmt.Sprintf("the state in %s (size unknown) is not carried", Escape(s.Changelog))
	}
	return fmt.Sprintf("the state in %s (%s) is not carried", Escape(s.Changelog), plural(int(s.ChangelogRecords), "record"))
}

func writeUpgradeRepartitions(b *strings.Builder, p *upgrade.Plan, st *Styles) {
	if len(p.Repartitions) == 0 {
		return
	}
	fmt.Fprintf(b, "\n%s\n", st.Paint(st.orPlain().Header, "Repartition topics NEW renames or drops (no topology reads them after the migration):"))
	for _, r := range p.Repartitions {
		name := Escape(r.Topic)
		if r.Fate == upgrade.RepartitionRenamed {
			name += " -> " + Escape(r.NewTopic)
		}
		switch {
		case !r.Known:
			fmt.Fprintf(b, "  %s: %s, %s\n", name, r.Fate, st.Paint(st.orPlain().Error, "end offsets unknown"))
		case r.Drained():
			fmt.Fprintf(b, "  %s: %s, drained (committed = end offset on every partition)\n", name, r.Fate)
		default:
			fmt.Fprintf(b, "  %s: %s, %s\n", name, r.Fate, st.Paint(st.orPlain().Error, fmt.Sprintf("NOT drained: %s in flight", plural(int(r.InFlight()), "record"))))
			for _, pt := range r.Partitions {
				if n := pt.InFlight(); n > 0 {
					fmt.Fprintf(b, "    partition %d: committed %s, end %d: %d in flight\n", pt.Partition, offsetOrNone(pt.Committed), pt.End, n)
				}
			}
		}
	}
}

func offsetOrNone(o int64) string {
	if o < 0 {
		return "none"
	}
	return strconv.FormatInt(o, 10)
}

func writeUpgradeLeftBehind(b *strings.Builder, p *upgrade.Plan, st *Styles) {
	lb := p.LeftBehind
	if len(lb.Topics) == 0 && len(lb.Offsets) == 0 {
		return
	}
	fmt.Fprintf(b, "\n%s\n", st.Paint(st.orPlain().Header, "Left behind (delete them by name once NEW runs; inventory --orphans lists them):"))
	for _, t := range lb.Topics {
		fmt.Fprintf(b, "  topic %s\n", Escape(t))
	}
	// Offsets by topic: a line per topic, not per partition.
	for i := 0; i < len(lb.Offsets); {
		j := i
		for j < len(lb.Offsets) && lb.Offsets[j].Topic == lb.Offsets[i].Topic {
			j++
		}
		fmt.Fprintf(b, "  offsets of %s (%s, NEW does not read it)\n", Escape(lb.Offsets[i].Topic), plural(j-i, "partition"))
		i = j
	}
}

func writeUpgradeConditions(b *strings.Builder, p *upgrade.Plan, st *Styles) {
	fmt.Fprintf(b, "\n%s\n", st.Paint(st.orPlain().Header, "Preconditions:"))
	for _, c := range p.Preconditions {
		mark := "ok     "
		if !c.Holds {
			mark = st.Paint(st.orPlain().Warning, "NOT MET")
		}
		fmt.Fprintf(b, "  %s %s: %s\n", mark, c.Kind, Escape(c.Detail))
	}
	if len(p.Blockers) == 0 {
		return
	}
	fmt.Fprintf(b, "\n%s\n", st.Paint(st.orPlain().Error, "Blockers:"))
	for _, bl := range p.Blockers {
		fmt.Fprintf(b, "  %s %s: %s\n", bl.Kind, Escape(bl.Subject), Escape(bl.Detail))
	}
}

// UpgradePlanDoc is the document of upgrade plan.
type UpgradePlanDoc struct {
	Group string `json:"group" yaml:"group"`
	// New is NEW as given (a file, or - for stdin).
	New string `json:"new" yaml:"new"`
	// Verdict is accepted, migration or blocked; absent with error.
	Verdict string `json:"verdict,omitempty" yaml:"verdict,omitempty"`
	State   string `json:"state,omitempty" yaml:"state,omitempty"`
	// TopologyDescriptionStatus is the group's description status; the
	// plan reads the topology the broker keeps when it is not AVAILABLE.
	TopologyDescriptionStatus string                   `json:"topology_description_status,omitempty" yaml:"topology_description_status,omitempty"`
	Members                   int                      `json:"members" yaml:"members"`
	Refused                   []UpgradeRefusalDoc      `json:"refused" yaml:"refused"`
	Offsets                   []UpgradeOffsetDoc       `json:"offsets" yaml:"offsets"`
	Stores                    []UpgradeStoreDoc        `json:"stores" yaml:"stores"`
	Repartitions              []UpgradeRepartitionDoc  `json:"repartitions" yaml:"repartitions"`
	NewSources                []UpgradeNewSourceDoc    `json:"new_sources" yaml:"new_sources"`
	LeftBehind                UpgradeLeftBehindDoc     `json:"left_behind" yaml:"left_behind"`
	Preconditions             []UpgradePreconditionDoc `json:"preconditions" yaml:"preconditions"`
	Blockers                  []UpgradeBlockerDoc      `json:"blockers" yaml:"blockers"`
	Error                     *ErrorDoc                `json:"error,omitempty" yaml:"error,omitempty"`
}

// UpgradeRefusalDoc is one field of the broker's topology that NEW
// changes (without the application id prefix).
type UpgradeRefusalDoc struct {
	Subtopology string `json:"subtopology" yaml:"subtopology"`
	Subject     string `json:"subject" yaml:"subject"`
	Old         string `json:"old" yaml:"old"`
	New         string `json:"new" yaml:"new"`
}

// UpgradeOffsetDoc is one committed offset to carry; kind is input or
// repartition, in_new whether NEW reads the topic.
type UpgradeOffsetDoc struct {
	Group     string `json:"group" yaml:"group"`
	Topic     string `json:"topic" yaml:"topic"`
	Partition int32  `json:"partition" yaml:"partition"`
	Offset    int64  `json:"offset" yaml:"offset"`
	Kind      string `json:"kind" yaml:"kind"`
	InNew     bool   `json:"in_new" yaml:"in_new"`
}

// UpgradeStoreDoc is one store: fate is kept, renamed, dropped or new;
// changelog_records the old changelog's records (null: unknown or not
// looked up).
type UpgradeStoreDoc struct {
	Name             string `json:"name,omitempty" yaml:"name,omitempty"`
	NewName          string `json:"new_name,omitempty" yaml:"new_name,omitempty"`
	Fate             string `json:"fate" yaml:"fate"`
	StartsEmpty      bool   `json:"starts_empty" yaml:"starts_empty"`
	Subtopology      string `json:"subtopology" yaml:"subtopology"`
	Changelog        string `json:"changelog,omitempty" yaml:"changelog,omitempty"`
	NewChangelog     string `json:"new_changelog,omitempty" yaml:"new_changelog,omitempty"`
	ChangelogRecords *int64 `json:"changelog_records" yaml:"changelog_records"`
}

// UpgradeRepartitionDoc is a repartition topic NEW renames or drops; fate
// is renamed or dropped; drained is null when the end offsets are unknown.
type UpgradeRepartitionDoc struct {
	Topic      string               `json:"topic" yaml:"topic"`
	NewTopic   string               `json:"new_topic,omitempty" yaml:"new_topic,omitempty"`
	Fate       string               `json:"fate" yaml:"fate"`
	Drained    *bool                `json:"drained" yaml:"drained"`
	InFlight   int64                `json:"in_flight" yaml:"in_flight"`
	Partitions []UpgradeInFlightDoc `json:"partitions" yaml:"partitions"`
}

// UpgradeInFlightDoc is one partition of such a topic: committed, start
// and end offsets (-1: none or unknown) and the records still to read.
type UpgradeInFlightDoc struct {
	Partition int32 `json:"partition" yaml:"partition"`
	Committed int64 `json:"committed" yaml:"committed"`
	Start     int64 `json:"start" yaml:"start"`
	End       int64 `json:"end" yaml:"end"`
	InFlight  int64 `json:"in_flight" yaml:"in_flight"`
}

// UpgradeNewSourceDoc is a topic only NEW reads.
type UpgradeNewSourceDoc struct {
	Topic       string `json:"topic" yaml:"topic"`
	Subtopology string `json:"subtopology" yaml:"subtopology"`
}

// UpgradeLeftBehindDoc is what the migration leaves in the cluster.
type UpgradeLeftBehindDoc struct {
	Topics  []string              `json:"topics" yaml:"topics"`
	Offsets []UpgradePartitionDoc `json:"offsets" yaml:"offsets"`
}

// UpgradePartitionDoc is a topic's partition.
type UpgradePartitionDoc struct {
	Topic     string `json:"topic" yaml:"topic"`
	Partition int32  `json:"partition" yaml:"partition"`
}

// UpgradePreconditionDoc is one precondition: kind is group-empty,
// no-members or new-readable.
type UpgradePreconditionDoc struct {
	Kind   string `json:"kind" yaml:"kind"`
	Holds  bool   `json:"holds" yaml:"holds"`
	Detail string `json:"detail" yaml:"detail"`
}

// UpgradeBlockerDoc is one blocker: kind is group-not-empty,
// group-has-members, repartition-not-drained or repartition-end-unknown.
type UpgradeBlockerDoc struct {
	Kind    string `json:"kind" yaml:"kind"`
	Subject string `json:"subject" yaml:"subject"`
	Detail  string `json:"detail" yaml:"detail"`
}

// NewUpgradePlanDoc builds the document of a plan, or of its failure.
func NewUpgradePlanDoc(res *upgrade.Result) UpgradePlanDoc {
	p := res.Plan
	if p == nil {
		p = &upgrade.Plan{}
	}
	doc := UpgradePlanDoc{Group: res.Group, New: res.New,
		Refused: mapAll(p.Refused, refusalDoc),
		Offsets: mapAll(p.Offsets, func(o upgrade.Offset) UpgradeOffsetDoc {
			return UpgradeOffsetDoc{Group: o.Group, Topic: o.Topic, Partition: o.Partition, Offset: o.Offset, Kind: string(o.Kind), InNew: o.InNew}
		}),
		Stores:       mapAll(p.Stores, upgradeStoreDoc),
		Repartitions: mapAll(p.Repartitions, upgradeRepartitionDoc),
		NewSources:   mapAll(p.NewSources, func(s upgrade.NewSource) UpgradeNewSourceDoc { return UpgradeNewSourceDoc(s) }),
		LeftBehind: UpgradeLeftBehindDoc{Topics: append([]string{}, p.LeftBehind.Topics...),
			Offsets: mapAll(p.LeftBehind.Offsets, partitionDoc)},
		Preconditions: mapAll(p.Preconditions, func(c upgrade.Precondition) UpgradePreconditionDoc {
			return UpgradePreconditionDoc{Kind: string(c.Kind), Holds: c.Holds, Detail: c.Detail}
		}),
		Blockers: mapAll(p.Blockers, func(bl upgrade.Blocker) UpgradeBlockerDoc {
			return UpgradeBlockerDoc{Kind: string(bl.Kind), Subject: bl.Subject, Detail: bl.Detail}
		})}
	if res.Plan == nil {
		doc.Error = NewErrorDoc(res.Err)
		return doc
	}
	doc.Verdict, doc.State, doc.Members, doc.TopologyDescriptionStatus = string(p.Verdict), p.State, p.Members, p.DescriptionStatus.String()
	return doc
}

func refusalDoc(r upgrade.Refusal) UpgradeRefusalDoc { return UpgradeRefusalDoc(r) }

func partitionDoc(tp kafka.TopicPartition) UpgradePartitionDoc { return UpgradePartitionDoc(tp) }

func upgradeStoreDoc(s upgrade.Store) UpgradeStoreDoc {
	d := UpgradeStoreDoc{Name: s.Name, NewName: s.NewName, Fate: string(s.Fate), StartsEmpty: s.StartsEmpty(), Subtopology: s.Subtopology,
		Changelog: s.Changelog, NewChangelog: s.NewChangelog}
	if s.ChangelogRecords >= 0 {
		n := s.ChangelogRecords
		d.ChangelogRecords = &n
	}
	return d
}

func upgradeRepartitionDoc(r upgrade.Repartition) UpgradeRepartitionDoc {
	d := UpgradeRepartitionDoc{Topic: r.Topic, NewTopic: r.NewTopic, Fate: string(r.Fate), InFlight: r.InFlight(),
		Partitions: mapAll(r.Partitions, func(pt upgrade.InFlight) UpgradeInFlightDoc {
			return UpgradeInFlightDoc{Partition: pt.Partition, Committed: pt.Committed, Start: pt.Start, End: pt.End, InFlight: pt.InFlight()}
		})}
	if r.Known {
		drained := r.Drained()
		d.Drained = &drained
	}
	return d
}
