package upgrade

import (
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// The plan follows what a real 4.4.0 broker was measured to do when an
// application moves onto a topology it refuses (e2e/FINDINGS.md, the
// upgrade-migration notes): the only way through is to delete the Empty
// streams group, commit every offset it had (input and repartition topics)
// back to the same id, which makes an Empty classic group, and start only
// the new version, whose first heartbeat converts the group and brings
// the new topology. What that keeps and loses is what the plan lists:
//   - offsets: every input and repartition partition the group committed,
//     or the application reprocesses from auto.offset.reset (and a
//     repartition topic left out is re-read: counted twice);
//   - stores: a store whose changelog NEW keeps restores from it and
//     continues; a renamed, dropped or new store starts empty (the new
//     changelog is a new topic; resuming does not recompute it);
//   - repartition topics NEW renames or drops: no topology reads the old
//     one any more, so records in flight in it are lost unless it is
//     drained first (committed = end offset on every partition);
//   - new source topics: no committed offset, auto.offset.reset applies;
//   - left behind: the old internal topics and the offsets of topics NEW
//     does not read.

// Verdict is what the broker will do with NEW for the group, and what that
// asks of the operator.
type Verdict string

// The verdicts.
const (
	// AcceptedAsIs: the broker accepts NEW's topology for the group; a
	// plain (rolling) deploy works and there is nothing to migrate.
	AcceptedAsIs Verdict = "accepted"
	// MigrationNeeded: the broker refuses NEW for the group; the migration
	// of this plan carries the application across, and nothing blocks it.
	MigrationNeeded Verdict = "migration"
	// Blocked: the broker refuses NEW and the migration cannot be carried
	// out now (Blockers says why).
	Blocked Verdict = "blocked"
)

// Plan is what upgrade plan found for one group and one NEW topology.
type Plan struct {
	// Group is the streams group; its id is the application id and the
	// prefix of its internal topics.
	Group string
	// State is the group's state as described (Empty, Stable, ...).
	State string
	// Members is how many members the group has.
	Members int
	// DescriptionStatus is the group's topology description status: when
	// it is not Available, OLD is the topology the broker keeps, without
	// node names (record.go).
	DescriptionStatus topology.Status
	Verdict Verdict
	// Refused are the changes for which the broker refuses NEW (diff's
	// topology-refused findings); empty when it accepts it.
	Refused []Refusal
	// Offsets are the committed offsets to carry: every partition of
	// OLD's input and repartition topics that the group committed, sorted
	// by topic and partition.
	Offsets []Offset
	// Stores are OLD's stores and NEW's new ones, each with what happens
	// to its state, in OLD's order then NEW's.
	Stores []Store
	// Repartitions are OLD's repartition topics that NEW renames or drops.
	Repartitions []Repartition
	// NewSources are the user topics NEW reads and OLD does not.
	NewSources []NewSource
	// LeftBehind is what the migration leaves for inventory --orphans.
	LeftBehind LeftBehind
	// Preconditions are what must hold when the migration is applied, as
	// they hold now.
	Preconditions []Precondition
	// Blockers are why the migration cannot be carried out now; empty
	// unless Verdict is Blocked.
	Blockers []Blocker
}

// Refusal is one change the broker refuses: a field of a sub-topology's
// stored topology (source topics, repartition source or sink topics,
// changelog topics) or a sub-topology only one side has.
type Refusal struct {
	// Subtopology is the sub-topology's id.
	Subtopology string
	// Subject is the field compared, or "sub-topology".
	Subject string
	// Old and New are the field's values (comma-separated, without the
	// application id prefix), "" on a side without it.
	Old, New string
}

// OffsetKind says which of OLD's topics an offset is for.
type OffsetKind string

// The kinds of offsets carried.
const (
	InputOffset       OffsetKind = "input"
	RepartitionOffset OffsetKind = "repartition"
)

// Offset is one committed offset: what the migration commits back.
type Offset struct {
	Group string
	kafka.TopicPartition
	Offset int64
	Kind   OffsetKind
	// InNew tells whether NEW reads the topic: an offset of a topic it
	// does not read is carried (it costs nothing and keeps the export
	// whole) and also left behind.
	InNew bool
}

// StoreFate is what happens to a store's state across the migration.
type StoreFate string

// The fates of a store.
const (
	// StoreKept: NEW keeps the store and its changelog; its state is
	// restored from the changelog and continues.
	StoreKept StoreFate = "kept"
	// StoreRenamed: NEW keeps the store under another name; its changelog
	// is a new topic and the state starts empty.
	StoreRenamed StoreFate = "renamed"
	// StoreDropped: NEW has no such store; its state is gone.
	StoreDropped StoreFate = "dropped"
	// StoreNew: only NEW has the store; it starts empty, as any new store.
	StoreNew StoreFate = "new"
)

// Store is one store and what happens to its state.
type Store struct {
	// Name is OLD's name, "" for a new store; NewName is NEW's, "" for a
	// dropped one (the same as Name for a kept one).
	Name, NewName string
	Fate          StoreFate
	// Subtopology is where OLD keeps it (NEW's id for a new store).
	Subtopology string
	// Changelog is OLD's changelog topic (full name), "" for a new store
	// or one OLD keeps without a changelog; NewChangelog is NEW's.
	Changelog, NewChangelog string
	// ChangelogRecords is the number of records in OLD's changelog (the
	// end minus the log start offset, summed over its partitions: the
	// state that a renamed or dropped store loses; compaction may have
	// removed some in between); -1 when unknown.
	ChangelogRecords int64
}

// StartsEmpty tells whether the store's state starts empty under NEW.
func (s Store) StartsEmpty() bool { return s.Fate != StoreKept }

// Lost tells whether OLD's state of the store is not carried: a renamed
// or dropped store (a new one had none).
func (s Store) Lost() bool { return s.Fate == StoreRenamed || s.Fate == StoreDropped }

// RepartitionFate is what NEW does with one of OLD's repartition topics.
type RepartitionFate string

// The fates of a repartition topic NEW does not keep.
const (
	RepartitionRenamed RepartitionFate = "renamed"
	RepartitionDropped RepartitionFate = "dropped"
)

// Repartition is a repartition topic of OLD that NEW renames or drops: no
// topology reads it after the migration.
type Repartition struct {
	// Topic is OLD's topic (full name); NewTopic NEW's, "" when dropped.
	Topic, NewTopic string
	Fate            RepartitionFate
	// Partitions are its partitions, sorted, with what is still to read.
	Partitions []InFlight
	// Known tells whether every partition's end offset was read; Drained
	// is then whether nothing is in flight.
	Known bool
}

// Drained tells whether every partition was read to its end: committed
// equal to the end offset. Unknown end offsets are not drained.
func (r Repartition) Drained() bool { return r.Known && r.InFlight() == 0 }

// InFlight is the number of records still to read, over its partitions.
func (r Repartition) InFlight() int64 {
	var n int64
	for _, p := range r.Partitions {
		n += p.InFlight()
	}
	return n
}

// InFlight is one repartition partition: its committed and end offsets.
type InFlight struct {
	Partition int32
	// Committed is the group's committed offset, -1 when it has none (the
	// log start offset is then where reading would start: Start).
	Committed int64
	// Start and End are the log start and end offsets, -1 when unknown.
	Start, End int64
}

// InFlight is how many records of the partition are still to read: from
// the committed offset (else the log start) to the end; 0 when unknown.
func (p InFlight) InFlight() int64 {
	from := p.Committed
	if from < 0 {
		from = p.Start
	}
	if p.End < 0 || from < 0 || p.End <= from {
		return 0
	}
	return p.End - from
}

// NewSource is a user topic NEW reads that OLD does not: it has no
// committed offset, so the application's auto.offset.reset applies to it.
type NewSource struct {
	Topic string
	// Subtopology is the sub-topology of NEW that reads it.
	Subtopology string
}

// LeftBehind is what the migration leaves in the cluster.
type LeftBehind struct {
	// Topics are OLD's internal topics that NEW does not use (changelogs
	// of renamed and dropped stores, renamed and dropped repartition
	// topics), sorted.
	Topics []string
	// Offsets are the committed offsets of topics NEW does not read.
	Offsets []kafka.TopicPartition
}

// PreconditionKind names a precondition of the migration.
type PreconditionKind string

// The preconditions, in the order they are checked.
const (
	// GroupEmpty: the group is Empty (every instance of the application
	// stopped): DeleteGroups fails otherwise.
	GroupEmpty PreconditionKind = "group-empty"
	// NoMembers: no member is left (an admin offset commit fails with
	// UNKNOWN_MEMBER_ID otherwise).
	NoMembers PreconditionKind = "no-members"
	// NewReadable: NEW's description was read (a plan exists only then:
	// NEW unreadable is the result's failure).
	NewReadable PreconditionKind = "new-readable"
)

// Precondition is one precondition and whether it holds now.
type Precondition struct {
	Kind  PreconditionKind
	Holds bool
	// Detail says what was seen (the state, the member count, the error).
	Detail string
}

// BlockerKind names why the migration cannot be carried out now.
type BlockerKind string

// The blockers.
const (
	// BlockerNotEmpty: the group is not Empty.
	BlockerNotEmpty BlockerKind = "group-not-empty"
	// BlockerMembers: the group has members.
	BlockerMembers BlockerKind = "group-has-members"
	// BlockerUndrained: a repartition topic that NEW renames or drops
	// still has records to read (they would be lost).
	BlockerUndrained BlockerKind = "repartition-not-drained"
	// BlockerUnknownEnd: a renamed or dropped repartition topic's end
	// offsets could not be read, so whether it is drained is unknown.
	BlockerUnknownEnd BlockerKind = "repartition-end-unknown"
)

// Blocker is one reason the migration cannot be carried out now.
type Blocker struct {
	Kind BlockerKind
	// Subject is what it is about: the group, or a topic.
	Subject string
	// Detail says what was seen, for the operator.
	Detail string
}
