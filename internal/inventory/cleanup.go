package inventory

import (
	"context"
	"slices"
	"time"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
)

// cleanup deletes (with Execute; else reports what it would delete) the
// orphans r lists, and no other topic: after the listing it reads the
// cluster again and re-checks each, still present, still named as an
// internal topic of its application, still no live group declaring it,
// still no committed offsets or reader or writer, every group's offsets
// read, its newest record appended at least MinAge ago (an unknown age
// keeps it), before one DeleteTopics
// for those that pass.
func cleanup(ctx context.Context, client Client, opts Options, r *Result, now func() time.Time) (*Deletion, error) {
	d := &Deletion{Execute: opts.Execute, MinAge: opts.MinAge}
	if len(r.Orphans) == 0 && (!opts.Configs || len(r.LeftoverConfigs) == 0) {
		return d, nil
	}
	if opts.BeforeRecheck != nil {
		opts.BeforeRecheck()
	}
	s, err := read(ctx, client)
	if err != nil {
		return nil, err
	}
	fresh, _ := orphansOf(s, opts.Groups)
	still := map[string]Orphan{}
	var names []string
	for _, o := range fresh {
		still[o.Topic] = o
		names = append(names, o.Topic)
	}
	usage, _, err := usageOf(ctx, client, s, names)
	if err != nil {
		return nil, err
	}
	at := now()
	var del []string
	idx := map[string]int{}
	for _, o := range r.Orphans {
		out := recheck(s, o, still, usage[o.Topic], at, opts)
		if out.Outcome == "" { // passes: delete it
			idx[o.Topic] = len(d.Topics)
			del = append(del, o.Topic)
		}
		d.Topics = append(d.Topics, out)
	}
	deleteTopics(ctx, client, del, idx, d.Topics)
	if opts.Configs {
		d.Configs = cleanupConfigs(ctx, client, opts, r, s)
	}
	return d, nil
}

// recheck is the outcome of the listed orphan o after the re-read s
// (still: the orphans now), skipped with why, would_delete in a dry run,
// or none when it is to be deleted.
func recheck(s *snapshot, o Orphan, still map[string]Orphan, u Usage, at time.Time, opts Options) Outcome {
	out := Outcome{Topic: o.Topic}
	_, present := s.topics[o.Topic]
	_, orphan := still[o.Topic]
	switch {
	case !IsInternalName(o.Application, o.Topic) && len(Owners(o.Topic)) == 0:
		out.Outcome, out.Reason = Skipped, "its name does not follow the internal-topic rules"
	case !present:
		out.Outcome, out.Reason = Skipped, "it no longer exists"
	case !orphan:
		out.Outcome, out.Reason = Skipped, "it is no longer an orphan: "+whyNot(s, o.Topic)
	case len(s.unknownOffsets) > 0:
		out.Outcome, out.Reason = Skipped, "the committed offsets of group "+s.unknownOffsets[0]+" could not be read"
	default:
		if why, old := age(u, at, opts.MinAge); !old {
			out.Outcome, out.Reason = Skipped, why
		} else if !opts.Execute {
			out.Outcome = WouldDelete
		}
	}
	return out
}

// deleteTopics deletes del in one DeleteTopics and sets each one's
// outcome in outs (idx: topic → its index).
func deleteTopics(ctx context.Context, client Client, del []string, idx map[string]int, outs []Outcome) {
	if len(del) == 0 {
		return
	}
	for _, dt := range client.DeleteTopics(ctx, del) {
		answered(outs, idx, dt.Topic, dt.Err)
	}
	for _, t := range del {
		if o := &outs[idx[t]]; o.Outcome == "" {
			o.Outcome, o.Reason = Skipped, "DeleteTopics did not answer for it"
		}
	}
}

// cleanupConfigs deletes the left-over configs listed, each only if its
// group still does not exist and the broker still lists its configs.
func cleanupConfigs(ctx context.Context, client Client, opts Options, r *Result, s *snapshot) []Outcome {
	listed, err := client.ListGroupConfigResources(ctx)
	var out []Outcome
	var alters []admin.GroupConfigAlter
	idx := map[string]int{}
	for _, l := range r.LeftoverConfigs {
		o := Outcome{Topic: l.Group}
		_, exists := s.groups[l.Group]
		switch {
		case err != nil:
			o.Outcome, o.Reason = Skipped, "the groups with configs could not be listed again: "+err.Error()
		case exists:
			o.Outcome, o.Reason = Skipped, "the group "+l.Group+" exists again"
		case !slices.Contains(listed, l.Group):
			o.Outcome, o.Reason = Skipped, "its configs are gone"
		case !opts.Execute:
			o.Outcome = WouldDelete
		default:
			a := admin.GroupConfigAlter{Group: l.Group}
			for _, c := range l.Configs {
				a.Ops = append(a.Ops, admin.ConfigOp{Name: c.Key})
			}
			idx[l.Group] = len(out)
			alters = append(alters, a)
		}
		out = append(out, o)
	}
	for _, res := range client.AlterGroupConfigs(ctx, alters, false) {
		answered(out, idx, res.Group, res.Err)
	}
	return out
}

// answered sets the outcome of the deletion of key (idx: key → its index
// in outs) from the broker's answer; a key not asked for is ignored.
func answered(outs []Outcome, idx map[string]int, key string, err error) {
	i, ok := idx[key]
	switch {
	case !ok:
	case err != nil:
		outs[i].Outcome, outs[i].Err = DeleteError, err
	default:
		outs[i].Outcome = Deleted
	}
}

// whyNot says which rule keeps a topic that was an orphan at the listing.
func whyNot(s *snapshot, topic string) string {
	if gs := s.declared[topic]; len(gs) > 0 {
		return "the live streams group " + gs[0] + " declares it"
	}
	owners := Owners(topic)
	if r := keptBecause(s, topic, owners); r != "" {
		return r
	}
	for _, a := range owners {
		if _, live := s.live[a]; live {
			return "it belongs to the live streams group " + a + ", not one of --group"
		}
	}
	return "it is no longer named after an application in scope"
}
