package diff_test

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/diff"
	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/golden"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
	tt "github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
	"github.com/kstreams-groups/kstreams-groups/internal/topoparse"
)

// real reads a description the real Kafka 4.4.0 printed: a
// Topology#describe() text (e2e/testdata/streams-describe, .../diff) or
// the tool's rendering of a stored description (e2e/testdata/real).
func real(t *testing.T, path string) *topology.Description {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("../../e2e/testdata", path))
	require.NoError(t, err)
	d, err := topoparse.ParseString(string(data))
	require.NoError(t, err)
	return d
}

// group is a streams group whose stored description is d, with the
// KIP-1071 topology listing changelogs (and repartition topics).
func group(d *topology.Description, subs ...kafka.Subtopology) *kafka.StreamsGroup {
	return &kafka.StreamsGroup{State: "Stable", TopologyStatus: topology.Available, Topology: d, Subtopologies: subs}
}

type fakeClient map[string]*kafka.StreamsGroup

func (f fakeClient) DescribeStreamsGroups(_ context.Context, groups []string, includeTopology bool) []admin.DescribedGroup {
	out := make([]admin.DescribedGroup, len(groups))
	for i, g := range groups {
		out[i] = admin.DescribedGroup{Group: g, Streams: f[g]}
		if f[g] == nil {
			out[i].Err = admin.NewKafkaError(kafka.CodeGroupIDNotFound, nil)
		}
	}
	return out
}

// side is OLD or NEW of a case: a file holding a description, or a group.
type side struct {
	spec  string
	desc  *topology.Description
	group *kafka.StreamsGroup
}

func file(name string, d *topology.Description) side { return side{spec: name, desc: d} }
func grp(name string, g *kafka.StreamsGroup) side    { return side{spec: "group:" + name, group: g} }

// run runs diff.Run over two sides, as the command would.
func run(t *testing.T, old, new side, opts diff.Options) *diff.Result {
	t.Helper()
	files := map[string]*topology.Description{}
	clients := fakeClient{}
	for _, s := range []side{old, new} {
		if s.group != nil {
			clients[s.spec[len("group:"):]] = s.group
		} else {
			files[s.spec] = s.desc
		}
	}
	opts.Args = []string{old.spec, new.spec}
	require.NoError(t, opts.Validate())
	res, err := diff.Run(context.Background(), diff.Sources{Old: clients, New: clients, Read: func(f string) (*topology.Description, error) {
		if d := files[f]; d != nil {
			return d, nil
		}
		return nil, errors.New("no such file")
	}}, opts)
	require.NoError(t, err)
	return res
}

// findings lists a result's findings compactly:
// "<severity> <kind> <old sub>/<new sub> <old> > <new>".
func findings(res *diff.Result) []string {
	var out []string
	for _, f := range res.Comparison.Findings {
		where := f.OldSubtopology + "/" + f.NewSubtopology
		if f.GlobalStore != "" {
			where = "global " + f.GlobalStore
		}
		out = append(out, fmt.Sprintf("%s %s %s %s > %s", f.Severity(), f.Kind, where, f.Old, f.New))
	}
	return out
}

// The stream of a small counting application, named by hand.
func counting(storeName, in, out string, extra ...*topology.Node) *topology.Description {
	nodes := []*topology.Node{
		tt.Src("source", []string{in}, "count"),
		tt.Proc("count", []string{storeName}, "to-stream"),
		tt.Proc("to-stream", nil, "sink"),
		tt.Sink("sink", out),
	}
	return tt.Desc([]*topology.Subtopology{tt.Sub("0", append(nodes, extra...)...)})
}

// grouped is source -> select -> <name>-repartition -> count -> sink.
func grouped(prefix, repartition, store string) *topology.Description {
	rp := prefix + repartition
	return tt.Desc([]*topology.Subtopology{
		tt.Sub("0",
			tt.Src("source", []string{"in"}, "select"),
			tt.Proc("select", nil, repartition+"-sink"),
			tt.Sink(repartition+"-sink", rp)),
		tt.Sub("1",
			tt.Src(repartition+"-source", []string{rp}, "count"),
			tt.Proc("count", []string{store}, "sink"),
			tt.Sink("sink", "out")),
	})
}

func global(topic, store string, names ...string) [2]*topology.Node {
	src, proc := "KSTREAM-SOURCE-0000000000", "KTABLE-SOURCE-0000000001"
	if len(names) == 2 {
		src, proc = names[0], names[1]
	}
	return [2]*topology.Node{tt.Src(src, []string{topic}, proc), tt.Proc(proc, []string{store})}
}

func withGlobals(d *topology.Description, gs ...[2]*topology.Node) *topology.Description {
	return tt.Desc(d.Subtopologies, gs...)
}

// TestCompare runs a pair of descriptions per finding through diff.Run
// and checks the findings, the outcome, and the text and JSON reports
// (goldens).
func TestCompare(t *testing.T) {
	base, filter := real(t, "diff/diff-base.txt"), real(t, "diff/diff-filter.txt")
	// A filter inserted, the store kept by its old name: only nodes' names shift.
	pinnedFindings := []string{
		"warning generated-name-shifted 0/0 KSTREAM-FILTER-0000000006 > KSTREAM-FILTER-0000000005",
		"warning generated-name-shifted 0/0 KSTREAM-KEY-SELECT-0000000001 > KSTREAM-KEY-SELECT-0000000002",
		"warning generated-name-shifted 0/0 KSTREAM-SINK-0000000005 > KSTREAM-SINK-0000000004",
		"warning generated-name-shifted 1/1 KSTREAM-AGGREGATE-0000000004 > KSTREAM-AGGREGATE-0000000003",
		"warning generated-name-shifted 1/1 KSTREAM-SINK-0000000009 > KSTREAM-SINK-0000000008",
		"warning generated-name-shifted 1/1 KSTREAM-SOURCE-0000000007 > KSTREAM-SOURCE-0000000006",
		"warning generated-name-shifted 1/1 KTABLE-TOSTREAM-0000000008 > KTABLE-TOSTREAM-0000000007",
		"info processor-added 0/0  > KSTREAM-FILTER-0000000001",
	}
	tests := []struct {
		name     string
		old, new side
		opts     diff.Options
		want     []string
		outcome  diff.Outcome
	}{
		{name: "identical after normalisation",
			// The broker's rendering (nodes by name, internal topics
			// prefixed) against the application's own describe() text.
			old: file("stored.txt", real(t, "real/describe-topology-available-wordcount/stdout.txt")), new: file("wordcount.txt", real(t, "streams-describe/wordcount.txt")),
			opts: diff.Options{ApplicationID: "wc-app"}, outcome: diff.Identical},
		{name: "identical group and describe text",
			// A group side strips its own id; the file side defaults to it.
			old: grp("wc-app", group(real(t, "real/describe-topology-available-wordcount/stdout.txt"))), new: file("wordcount.txt", real(t, "streams-describe/wordcount.txt")),
			outcome: diff.Identical},
		{name: "identical global store numbered differently",
			// describe() numbers the global store 0, the broker 1.
			old: grp("gs-app", group(real(t, "real/describe-topology-available-globalstore/stdout.txt"))), new: file("globalstore.txt", real(t, "streams-describe/globalstore.txt")),
			outcome: diff.Identical},
		{name: "identical blue green",
			old: grp("blue", group(counting("counts", "in", "out"))), new: grp("green", group(counting("counts", "in", "out"))),
			outcome: diff.Identical},
		{name: "identical stored description and its own describe text",
			// df-blue as the real broker stored it (e2e TestDiff capture).
			old: grp("df-blue", group(real(t, "diff/stored-df-blue.txt"))), new: file("diff-base.txt", base),
			outcome: diff.Identical},
		{name: "filter upstream of an unnamed aggregation",
			old: grp("df-blue", group(real(t, "diff/stored-df-blue.txt"))), new: file("diff-filter.txt", filter),
			want: []string{
				"breaking topology-refused 0/0 KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition > KSTREAM-AGGREGATE-STATE-STORE-0000000004-repartition",
				"breaking topology-refused 1/1 KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition > KSTREAM-AGGREGATE-STATE-STORE-0000000004-repartition",
				"breaking topology-refused 1/1 KSTREAM-AGGREGATE-STATE-STORE-0000000003-changelog > KSTREAM-AGGREGATE-STATE-STORE-0000000004-changelog",
				"breaking store-renamed 1/1 KSTREAM-AGGREGATE-STATE-STORE-0000000003 > KSTREAM-AGGREGATE-STATE-STORE-0000000004",
				"breaking changelog-renamed 1/1 KSTREAM-AGGREGATE-STATE-STORE-0000000003-changelog > KSTREAM-AGGREGATE-STATE-STORE-0000000004-changelog",
				"breaking repartition-renamed 0/0 KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition > KSTREAM-AGGREGATE-STATE-STORE-0000000004-repartition",
				"warning generated-name-shifted 1/1 KSTREAM-AGGREGATE-STATE-STORE-0000000003 > KSTREAM-AGGREGATE-STATE-STORE-0000000004",
				"warning generated-name-shifted 0/0 KSTREAM-FILTER-0000000006 > KSTREAM-FILTER-0000000007",
				"warning generated-name-shifted 0/0 KSTREAM-KEY-SELECT-0000000001 > KSTREAM-KEY-SELECT-0000000002",
				"warning generated-name-shifted 0/0 KSTREAM-SINK-0000000005 > KSTREAM-SINK-0000000006",
				"warning generated-name-shifted 1/1 KSTREAM-AGGREGATE-0000000004 > KSTREAM-AGGREGATE-0000000005",
				"warning generated-name-shifted 1/1 KSTREAM-SINK-0000000009 > KSTREAM-SINK-0000000010",
				"warning generated-name-shifted 1/1 KSTREAM-SOURCE-0000000007 > KSTREAM-SOURCE-0000000008",
				"warning generated-name-shifted 1/1 KTABLE-TOSTREAM-0000000008 > KTABLE-TOSTREAM-0000000009",
				"info processor-added 0/0  > KSTREAM-FILTER-0000000001",
			}, outcome: diff.Failing},
		{name: "filter upstream of a pinned store",
			old: file("diff-base.txt", base), new: file("diff-pinned.txt", real(t, "diff/diff-pinned.txt")),
			want: pinnedFindings, outcome: diff.Different},
		{name: "store named",
			old: file("diff-base.txt", base), new: file("diff-named.txt", real(t, "diff/diff-named.txt")),
			want: []string{
				"breaking store-renamed 1/1 KSTREAM-AGGREGATE-STATE-STORE-0000000003 > df-counts",
				"breaking changelog-renamed 1/1 KSTREAM-AGGREGATE-STATE-STORE-0000000003-changelog > df-counts-changelog",
				"breaking repartition-renamed 0/0 KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition > df-counts-repartition",
				"warning generated-name-shifted 1/1 KSTREAM-AGGREGATE-0000000004 > KSTREAM-AGGREGATE-0000000002",
				"warning generated-name-shifted 1/1 KSTREAM-SINK-0000000009 > KSTREAM-SINK-0000000007",
				"warning generated-name-shifted 1/1 KTABLE-TOSTREAM-0000000008 > KTABLE-TOSTREAM-0000000006",
			}, outcome: diff.Failing},
		{name: "fail on warning",
			old: file("diff-base.txt", base), new: file("diff-pinned.txt", real(t, "diff/diff-pinned.txt")), opts: diff.Options{FailOn: "warning"},
			want: pinnedFindings, outcome: diff.Failing},
		{name: "store removed",
			old: file("old.txt", counting("counts", "in", "out")),
			new: file("new.txt", tt.Desc([]*topology.Subtopology{tt.Sub("0",
				tt.Src("source", []string{"in"}, "map"), tt.Proc("map", nil, "to-stream"), tt.Proc("to-stream", nil, "sink"), tt.Sink("sink", "out"))})),
			want: []string{"breaking store-removed 0/0 counts > ", "breaking changelog-removed 0/0 counts-changelog > ", "info processor-added 0/0  > map"}, outcome: diff.Failing},
		{name: "store added",
			old: file("old.txt", counting("counts", "in", "out")),
			new: file("new.txt", tt.Desc([]*topology.Subtopology{tt.Sub("0",
				tt.Src("source", []string{"in"}, "count"), tt.Proc("count", []string{"counts"}, "dedupe"), tt.Proc("dedupe", []string{"seen"}, "to-stream"),
				tt.Proc("to-stream", nil, "sink"), tt.Sink("sink", "out"))})),
			want: []string{"info store-added 0/0  > seen"}, outcome: diff.Different},
		{name: "changelog removed",
			// Both sides are groups: the changelogs are the coordinator's
			// (logging disabled for the store in NEW), not derived.
			old:  grp("app", group(counting("counts", "in", "out"), kafka.Subtopology{ID: "0", SourceTopics: []string{"in"}, StateChangelogTopics: []string{"app-counts-changelog"}})),
			new:  grp("app2", group(counting("counts", "in", "out"), kafka.Subtopology{ID: "0", SourceTopics: []string{"in"}})),
			want: []string{"breaking topology-refused 0/0 counts-changelog > ", "breaking changelog-removed 0/0 counts-changelog > "}, outcome: diff.Failing},
		{name: "repartition topic renamed",
			old: grp("app", group(grouped("app-", "by-word-repartition", "counts"))), new: file("new.txt", grouped("", "by-key-repartition", "counts")),
			want: []string{
				"breaking topology-refused 0/0 by-word-repartition > by-key-repartition",
				"breaking topology-refused 1/1 by-word-repartition > by-key-repartition",
				"breaking repartition-renamed 0/0 by-word-repartition > by-key-repartition",
			}, outcome: diff.Failing},
		{name: "repartition topic and its nodes renamed",
			// Processor API names: no node pairs, the sub-topologies do.
			old: file("old.txt", tt.Desc([]*topology.Subtopology{
				tt.Sub("0", tt.Src("source", []string{"in"}, "to-rp"), tt.Sink("to-rp", "a-repartition")),
				tt.Sub("1", tt.Src("from-rp", []string{"a-repartition"}, "sink"), tt.Sink("sink", "out"))})),
			new: file("new.txt", tt.Desc([]*topology.Subtopology{
				tt.Sub("0", tt.Src("source", []string{"in"}, "writer"), tt.Sink("writer", "b-repartition")),
				tt.Sub("1", tt.Src("reader", []string{"b-repartition"}, "sink"), tt.Sink("sink", "out"))})),
			want: []string{"breaking repartition-renamed 0/0 a-repartition > b-repartition"}, outcome: diff.Failing},
		{name: "repartition topic removed",
			old: file("old.txt", grouped("", "by-word-repartition", "counts")),
			new: file("new.txt", tt.Desc([]*topology.Subtopology{
				tt.Sub("0", tt.Src("source", []string{"in"}, "count"), tt.Proc("count", []string{"counts"}, "sink"), tt.Sink("sink", "out"))})),
			want: []string{
				"breaking repartition-removed 0/ by-word-repartition > ",
				"breaking subtopology-renumbered 1/0 1 > 0",
				"info processor-removed 0/ select > ",
			}, outcome: diff.Failing},
		{name: "source topic removed",
			old: file("old.txt", counting("counts", "in", "out")), new: file("new.txt", counting("counts", "in-v2", "out")),
			want: []string{"breaking source-removed 0/0 in > ", "warning source-added 0/0  > in-v2"}, outcome: diff.Failing},
		{name: "source topic added",
			old: file("old.txt", counting("counts", "in", "out")),
			new: file("new.txt", tt.Desc([]*topology.Subtopology{tt.Sub("0",
				tt.Src("source", []string{"in", "in-eu"}, "count"), tt.Proc("count", []string{"counts"}, "to-stream"), tt.Proc("to-stream", nil, "sink"), tt.Sink("sink", "out"))})),
			want: []string{"warning source-added 0/0  > in-eu"}, outcome: diff.Different},
		{name: "subtopology renumbered",
			// A new independent stream defined first takes id 0.
			old: file("old.txt", counting("counts", "in", "out")),
			new: file("new.txt", tt.Desc([]*topology.Subtopology{
				tt.Sub("0", tt.Src("audit-source", []string{"audit"}, "audit-sink"), tt.Sink("audit-sink", "audit-out")),
				tt.Sub("1", counting("counts", "in", "out").Subtopologies[0].Nodes...),
			})),
			want: []string{
				"breaking subtopology-renumbered 0/1 0 > 1",
				"warning sink-changed /0  > audit-out",
				"warning source-added /0  > audit",
			}, outcome: diff.Failing},
		{name: "sink topic changed",
			old: file("old.txt", counting("counts", "in", "out")), new: file("new.txt", counting("counts", "in", "out-v2")),
			want: []string{"warning sink-changed 0/0 out > out-v2"}, outcome: diff.Different},
		{name: "processor added and removed",
			old: file("old.txt", tt.Desc([]*topology.Subtopology{tt.Sub("0",
				tt.Src("source", []string{"in"}, "trim"), tt.Proc("trim", nil, "sink"), tt.Sink("sink", "out"))})),
			new: file("new.txt", tt.Desc([]*topology.Subtopology{tt.Sub("0",
				tt.Src("source", []string{"in"}, "filter"), tt.Proc("filter", nil, "upper"), tt.Proc("upper", nil, "sink"), tt.Sink("sink", "out"))})),
			want: []string{"info processor-added 0/0  > filter", "info processor-added 0/0  > upper", "info processor-removed 0/0 trim > "}, outcome: diff.Different},
		{name: "global store changed",
			old: file("old.txt", withGlobals(counting("counts", "in", "out"), global("rates", "rates-store"), global("fx", "fx-store", "fx-source", "fx-table"))),
			new: file("new.txt", withGlobals(counting("counts", "in", "out"), global("rates-v2", "rates-store"), global("fx", "fx-store-v2", "fx-source", "fx-table"))),
			want: []string{
				"breaking global-store-changed global fx-store fx-store > fx-store-v2",
				"breaking global-store-changed global rates-store rates > rates-v2",
			}, outcome: diff.Failing},
		{name: "global store added and removed",
			old:  file("old.txt", withGlobals(counting("counts", "in", "out"), global("rates", "rates-store"))),
			new:  file("new.txt", withGlobals(counting("counts", "in", "out"), global("fx", "fx-store", "KSTREAM-SOURCE-0000000004", "KTABLE-SOURCE-0000000005"))),
			want: []string{"breaking global-store-removed global rates-store rates-store > ", "info global-store-added global fx-store  > fx-store"}, outcome: diff.Failing},
		{name: "global store names shifted",
			old: file("old.txt", withGlobals(counting("counts", "in", "out"), global("rates", "rates-store"))),
			new: file("new.txt", withGlobals(counting("counts", "in", "out"), global("rates", "rates-store", "KSTREAM-SOURCE-0000000001", "KTABLE-SOURCE-0000000002"))),
			want: []string{
				"warning generated-name-shifted global rates-store KSTREAM-SOURCE-0000000000 > KSTREAM-SOURCE-0000000001",
				"warning generated-name-shifted global rates-store KTABLE-SOURCE-0000000001 > KTABLE-SOURCE-0000000002",
			}, outcome: diff.Different},
		{name: "dynamic sink",
			// The stored description has no topic; the describe() text
			// names the extractor: they cannot be compared.
			old: grp("ds-app", group(real(t, "real/describe-topology-available-dynamicsink/stdout.txt"))), new: file("dynamicsink.txt", real(t, "streams-describe/dynamicsink.txt")),
			want: []string{"warning dynamic-node 0/0 KSTREAM-SINK-0000000002 > KSTREAM-SINK-0000000002"}, outcome: diff.Different},
		{name: "pattern source",
			old: file("pattern.txt", real(t, "streams-describe/pattern.txt")), new: file("pattern-copy.txt", real(t, "streams-describe/pattern.txt")),
			want: []string{
				"warning dynamic-node 0/0 KSTREAM-SINK-0000000002 > KSTREAM-SINK-0000000002",
				"warning dynamic-node 0/0 KSTREAM-SOURCE-0000000000 > KSTREAM-SOURCE-0000000000",
			}, outcome: diff.Different},
		{name: "user topic with the application id prefix",
			// Only internal topics lose the prefix: app-input stays.
			old: grp("app", group(counting("counts", "app-input", "out"))), new: file("new.txt", counting("counts", "app-input", "out")),
			outcome: diff.Identical},
		{name: "renamed repartition under a prefix the coordinator lists",
			// The KIP-1071 topology names an internal topic without the
			// usual suffix: it loses the prefix too.
			old: grp("app", group(tt.Desc([]*topology.Subtopology{
				tt.Sub("0", tt.Src("source", []string{"in"}, "sink"), tt.Sink("sink", "app-through")),
				tt.Sub("1", tt.Src("through-source", []string{"app-through"}, "sink2"), tt.Sink("sink2", "out"))}),
				kafka.Subtopology{ID: "0", SourceTopics: []string{"in"}, RepartitionSinkTopics: []string{"app-through"}},
				kafka.Subtopology{ID: "1", RepartitionSourceTopics: []string{"app-through"}})),
			new: file("new.txt", tt.Desc([]*topology.Subtopology{
				tt.Sub("0", tt.Src("source", []string{"in"}, "sink"), tt.Sink("sink", "through")),
				tt.Sub("1", tt.Src("through-source", []string{"through"}, "sink2"), tt.Sink("sink2", "out"))})),
			outcome: diff.Identical},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := run(t, tc.old, tc.new, tc.opts)
			require.NotNil(t, res.Comparison)
			assert.Equal(t, tc.want, findings(res))
			assert.Equal(t, tc.outcome, res.Outcome())
			assert.Equal(t, tc.outcome == diff.Identical, res.Comparison.Identical())
			t.Run("text", func(t *testing.T) {
				var b bytes.Buffer
				require.NoError(t, format.DiffText(&b, res, nil))
				golden.Assert(t, b.Bytes())
			})
			t.Run("json", func(t *testing.T) {
				var b bytes.Buffer
				require.NoError(t, format.Encode(&b, format.JSON, format.NewDiffDoc(res)))
				golden.Assert(t, b.Bytes())
			})
		})
	}
}

// Every kind of finding is made by some case of TestCompare, and has a
// severity as the issue defines it.
func TestKinds(t *testing.T) {
	severities := map[diff.Severity][]diff.Kind{}
	for _, k := range diff.Kinds() {
		severities[k.Severity] = append(severities[k.Severity], k.Kind)
		assert.NotEmpty(t, k.When, k.Kind)
		assert.Equal(t, k.Severity, k.Kind.Severity())
	}
	assert.Equal(t, []diff.Kind{diff.TopologyRefused, diff.StoreRenamed, diff.StoreRemoved, diff.ChangelogRenamed, diff.ChangelogRemoved, diff.RepartitionRenamed,
		diff.RepartitionRemoved, diff.SourceRemoved, diff.SubtopologyRenumbered, diff.GlobalStoreChanged, diff.GlobalStoreRemoved}, severities[diff.Breaking])
	assert.Equal(t, []diff.Kind{diff.GeneratedNameShifted, diff.SinkChanged, diff.SourceAdded, diff.DynamicNode}, severities[diff.Warning])
	assert.Equal(t, []diff.Kind{diff.ProcessorAdded, diff.ProcessorRemoved, diff.StoreAdded, diff.GlobalStoreAdded}, severities[diff.Info])

	goldens, err := filepath.Glob("../../testdata/golden/internal/diff/TestCompare/*/json.golden")
	require.NoError(t, err)
	var all []byte
	for _, g := range goldens {
		b, err := os.ReadFile(g)
		require.NoError(t, err)
		all = append(all, b...)
	}
	for _, k := range diff.Kinds() {
		assert.Contains(t, string(all), `"kind": "`+string(k.Kind)+`"`, "no TestCompare case makes a %s finding", k.Kind)
	}
}

// Nodes are matched through the graph, not by index: a filter inserted
// before a chain of generated names pairs every old node with the node
// that took its place.
func TestCompare_insertedOperatorShiftsEveryLaterName(t *testing.T) {
	c := diff.Compare(diff.Input{Description: real(t, "diff/diff-base.txt")}, diff.Input{Description: real(t, "diff/diff-filter.txt")})
	require.Len(t, c.Subtopologies, 2)
	s := c.Subtopologies[0]
	require.Len(t, s.Added, 1)
	assert.Equal(t, "KSTREAM-FILTER-0000000001", s.Added[0].Name, "the inserted filter is the new node, not the repartition filter")
	var renamed []string
	for _, ch := range s.Changed {
		renamed = append(renamed, ch.Old.Name+" > "+ch.New.Name)
	}
	assert.Equal(t, []string{
		"KSTREAM-FILTER-0000000006 > KSTREAM-FILTER-0000000007",
		"KSTREAM-KEY-SELECT-0000000001 > KSTREAM-KEY-SELECT-0000000002",
		"KSTREAM-SINK-0000000005 > KSTREAM-SINK-0000000006",
		"KSTREAM-SOURCE-0000000000 > KSTREAM-SOURCE-0000000000",
	}, renamed)
}

// Sub-topologies are matched by content: reversed ids are two
// renumberings, not two rewritten sub-topologies.
func TestCompare_matchesSubtopologiesByContent(t *testing.T) {
	a := tt.Sub("0", tt.Src("a-source", []string{"a"}, "a-sink"), tt.Sink("a-sink", "a-out"))
	b := tt.Sub("1", tt.Src("b-source", []string{"b"}, "b-count"), tt.Proc("b-count", []string{"b-store"}, "b-sink"), tt.Sink("b-sink", "b-out"))
	a2 := tt.Sub("1", a.Nodes...)
	b2 := tt.Sub("0", b.Nodes...)
	c := diff.Compare(diff.Input{Description: tt.Desc([]*topology.Subtopology{a, b})}, diff.Input{Description: tt.Desc([]*topology.Subtopology{b2, a2})})
	var got []string
	for _, f := range c.Findings {
		got = append(got, fmt.Sprintf("%s %s>%s same=%v", f.Kind, f.Old, f.New, f.SameContent))
	}
	assert.Equal(t, []string{"subtopology-renumbered 0>1 same=true", "subtopology-renumbered 1>0 same=true"}, got)
}

func TestOptions_Validate(t *testing.T) {
	tests := []struct {
		opts diff.Options
		want string
	}{
		{diff.Options{Args: []string{"group:a", "b.txt"}}, ""},
		{diff.Options{Args: []string{"-", "group:b"}, NewCluster: true, FailOn: "WARNING"}, ""},
		{diff.Options{Args: []string{"group:a"}}, "diff takes two arguments, OLD and NEW (each group:NAME, a file or -), got 1"},
		{diff.Options{}, "diff takes two arguments, OLD and NEW (each group:NAME, a file or -), got 0"},
		{diff.Options{Args: []string{"group:", "b.txt"}}, `OLD "group:": name the group: group:NAME`},
		{diff.Options{Args: []string{"a.txt", ""}}, "NEW is empty: want group:NAME, a file or -"},
		{diff.Options{Args: []string{"-", "-"}}, "OLD and NEW cannot both be read from stdin (-)"},
		{diff.Options{Args: []string{"group:a", "b.txt"}, NewCluster: true}, `--new-bootstrap-server and --new-command-config are for a group: NEW side; NEW is the file "b.txt"`},
		{diff.Options{Args: []string{"group:a", "group:b"}, FailOn: "fatal"}, `--fail-on: want breaking, warning or info, got "fatal"`},
		{diff.Options{Args: []string{"group:a", "group:b"}, NewCluster: true, NoNewServer: true}, "--new-bootstrap-server: no server given"},
	}
	for _, tc := range tests {
		err := tc.opts.Validate()
		if tc.want == "" {
			assert.NoError(t, err, "%v", tc.opts)
			continue
		}
		assert.EqualError(t, err, tc.want, "%v", tc.opts)
	}
}

// A side that cannot be read or fetched is a failure of the result, OLD
// first; nothing is compared.
func TestRun_sideFailures(t *testing.T) {
	notStored := &kafka.StreamsGroup{State: "Stable", TopologyStatus: topology.NotStored}
	clients := fakeClient{"ns-app": notStored}
	res, err := diff.Run(context.Background(), diff.Sources{Old: clients, New: clients, Read: func(string) (*topology.Description, error) {
		return nil, &topoparse.Error{Line: 3, Msg: "expected a node"}
	}}, diff.Options{Args: []string{"group:missing", "new.txt"}})
	require.NoError(t, err)
	assert.Nil(t, res.Comparison)
	assert.Equal(t, diff.Identical, res.Outcome(), "no comparison, no outcome of its own")
	fails := res.Failures()
	require.Len(t, fails, 2)
	assert.EqualError(t, fails[0].Err, "OLD group:missing: "+admin.NewKafkaError(kafka.CodeGroupIDNotFound, nil).Error())
	assert.EqualError(t, fails[1].Err, "NEW new.txt: line 3: expected a node")

	res, err = diff.Run(context.Background(), diff.Sources{Old: clients}, diff.Options{Args: []string{"group:ns-app", "group:ns-app"}})
	require.NoError(t, err)
	fails = res.Failures()
	require.Len(t, fails, 2, "NEW has no client: a failure, not a panic")
	var se *kafka.StatusError
	require.ErrorAs(t, fails[0].Err, &se)
	assert.Equal(t, topology.NotStored, se.Status)
}

// A context cancelled while the sides are read (a signal) stops the whole
// command: Run returns its cause, and no side is reported as failed. A
// deadline is the sides' failure as before.
func TestRun_cancelled(t *testing.T) {
	stopped := errors.New("interrupted")
	ctx, cancel := context.WithCancelCause(context.Background())
	src := diff.Sources{Old: fakeClient{}, Read: func(string) (*topology.Description, error) {
		cancel(stopped) // the signal arrives while the file is read
		return nil, stopped
	}}
	opts := diff.Options{Args: []string{"new.txt", "group:missing"}}
	src.New = src.Old
	res, err := diff.Run(ctx, src, opts)
	assert.Nil(t, res)
	assert.ErrorIs(t, err, stopped)

	ctx, cancelDeadline := context.WithTimeout(context.Background(), 0)
	defer cancelDeadline()
	src.Read = func(string) (*topology.Description, error) { return nil, ctx.Err() }
	res, err = diff.Run(ctx, src, opts)
	require.NoError(t, err)
	assert.Len(t, res.Failures(), 2)
}

// TestCompare_broker: for a group OLD, whether its broker accepts NEW's
// topology (what the coordinator compares: per sub-topology id, the source,
// repartition and changelog topics; FINDINGS F340-F342).
func TestCompare_broker(t *testing.T) {
	const store = "KSTREAM-AGGREGATE-STATE-STORE-0000000003"
	// df-blue as the real broker keeps it (e2e TestDiff, "internal topics
	// on the broker").
	dfBlue := grp("df-blue", group(real(t, "diff/stored-df-blue.txt"),
		kafka.Subtopology{ID: "0", SourceTopics: []string{"df-input"}, RepartitionSinkTopics: []string{"df-blue-" + store + "-repartition"}},
		kafka.Subtopology{ID: "1", RepartitionSourceTopics: []string{"df-blue-" + store + "-repartition"}, StateChangelogTopics: []string{"df-blue-" + store + "-changelog"}}))
	counts := func(d *topology.Description, subs ...kafka.Subtopology) side {
		if len(subs) == 0 {
			subs = []kafka.Subtopology{{ID: "0", SourceTopics: []string{"in"}, StateChangelogTopics: []string{"app-counts-changelog"}}}
		}
		return grp("app", group(d, subs...))
	}
	renamed := counting("counts", "in", "out")
	renamed.Subtopologies[0].Nodes[2].Name = "as-stream"
	renamed.Subtopologies[0].Nodes[1].Successors = []string{"as-stream"}
	tests := []struct {
		name     string
		old, new side
		refused  []string // "<sub> <subject>: <old> > <new>"
	}{
		{name: "renamed store", old: dfBlue, new: file("diff-named.txt", real(t, "diff/diff-named.txt")),
			refused: []string{
				"0 repartition sink topics: " + store + "-repartition > df-counts-repartition",
				"1 repartition source topics: " + store + "-repartition > df-counts-repartition",
				"1 changelog topics: " + store + "-changelog > df-counts-changelog",
			}},
		{name: "renamed repartition topic",
			old: grp("app", group(grouped("app-", "by-word-repartition", "counts"),
				kafka.Subtopology{ID: "0", SourceTopics: []string{"in"}, RepartitionSinkTopics: []string{"app-by-word-repartition"}},
				kafka.Subtopology{ID: "1", RepartitionSourceTopics: []string{"app-by-word-repartition"}, StateChangelogTopics: []string{"app-counts-changelog"}})),
			new: file("new.txt", grouped("", "by-key-repartition", "counts")),
			refused: []string{
				"0 repartition sink topics: by-word-repartition > by-key-repartition",
				"1 repartition source topics: by-word-repartition > by-key-repartition",
			}},
		{name: "added source topic", old: counts(counting("counts", "in", "out")),
			new: file("new.txt", tt.Desc([]*topology.Subtopology{tt.Sub("0",
				tt.Src("source", []string{"in", "in-eu"}, "count"), tt.Proc("count", []string{"counts"}, "to-stream"), tt.Proc("to-stream", nil, "sink"), tt.Sink("sink", "out"))})),
			refused: []string{"0 source topics: in > in, in-eu"}},
		{name: "added sub-topology", old: counts(counting("counts", "in", "out")),
			new: file("new.txt", tt.Desc([]*topology.Subtopology{
				tt.Sub("0", counting("counts", "in", "out").Subtopologies[0].Nodes...),
				tt.Sub("1", tt.Src("audit-source", []string{"audit"}, "audit-sink"), tt.Sink("audit-sink", "audit-out"))})),
			refused: []string{"1 sub-topology:  > 1"}},
		{name: "added source topic (describe text)", old: dfBlue, new: file("diff-source.txt", real(t, "diff/diff-source.txt")),
			refused: []string{"0 source topics: df-input > df-input, df-input-eu"}},
		{name: "changed sink topic (describe text)", old: dfBlue, new: file("diff-sink.txt", real(t, "diff/diff-sink.txt"))},
		{name: "added stateless step (the store pinned)", old: dfBlue, new: file("diff-pinned.txt", real(t, "diff/diff-pinned.txt"))},
		{name: "added stateless step", old: counts(counting("counts", "in", "out")),
			new: file("new.txt", tt.Desc([]*topology.Subtopology{tt.Sub("0",
				tt.Src("source", []string{"in"}, "filter"), tt.Proc("filter", nil, "count"), tt.Proc("count", []string{"counts"}, "to-stream"),
				tt.Proc("to-stream", nil, "sink"), tt.Sink("sink", "out"))}))},
		{name: "changed sink topic", old: counts(counting("counts", "in", "out")), new: file("new.txt", counting("counts", "in", "out-v2"))},
		{name: "processor renamed only", old: counts(counting("counts", "in", "out")), new: file("new.txt", renamed)},
		{name: "store without a changelog kept",
			// The group keeps no changelog for counts (logging disabled):
			// a file cannot say so, and is taken to keep it the same way.
			old: counts(counting("counts", "in", "out"), kafka.Subtopology{ID: "0", SourceTopics: []string{"in"}}),
			new: file("new.txt", counting("counts", "in", "out"))},
		{name: "group listing no sub-topology",
			// Its topology is derived from its description, as NEW's.
			old: grp("app", group(counting("counts", "in", "out"))), new: file("new.txt", counting("counts", "in", "out-v2"))},
		{name: "blue green, another source topic",
			old:     counts(counting("counts", "in", "out")),
			new:     grp("app2", group(counting("counts", "in2", "out"), kafka.Subtopology{ID: "0", SourceTopics: []string{"in2"}, StateChangelogTopics: []string{"app2-counts-changelog"}})),
			refused: []string{"0 source topics: in > in2"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := run(t, tc.old, tc.new, diff.Options{})
			c := res.Comparison
			require.True(t, c.BrokerChecked)
			var got []string
			for _, f := range c.Findings {
				if f.Kind == diff.TopologyRefused {
					got = append(got, fmt.Sprintf("%s %s: %s > %s", cmp.Or(f.OldSubtopology, f.NewSubtopology), f.Subject, f.Old, f.New))
				}
			}
			assert.Equal(t, tc.refused, got)
			assert.Equal(t, tc.refused != nil, c.Refused())
			if c.Refused() {
				// A refused deploy is never "identical" or "different".
				assert.Equal(t, diff.Failing, res.Outcome())
				assert.Equal(t, diff.Failing, run(t, tc.old, tc.new, diff.Options{FailOn: "breaking"}).Outcome())
			}
		})
	}
	t.Run("file OLD", func(t *testing.T) {
		res := run(t, file("old.txt", counting("counts", "in", "out")), file("new.txt", counting("counts", "in", "in-v2")), diff.Options{})
		assert.False(t, res.Comparison.BrokerChecked)
		assert.False(t, res.Comparison.Refused())
	})
}

// Stores are a set: Kafka Streams prints a processor's in its HashSet's
// order, which another build may change. An order is no change, also when
// a text read back keeps it (render does, topology.Description's
// StoresAsGiven).
func TestCompare_storeOrderIsNoChange(t *testing.T) {
	text := func(stores string) *topology.Description {
		d, err := topoparse.ParseString("Topologies:\n   Sub-topology: 0\n    Source: src (topics: [in])\n      --> p\n" +
			"    Processor: p (stores: [" + stores + "])\n      --> none\n      <-- src\n\n")
		require.NoError(t, err)
		return d
	}
	c := diff.Compare(diff.Input{Description: text("zeta, alpha")}, diff.Input{Description: text("alpha, zeta")})
	assert.True(t, c.Identical(), "%v", c.Findings)
	assert.Equal(t, []string{"alpha", "zeta"}, c.Old.Subtopologies[0].Nodes[0].Stores, "compared (and shown) sorted")
}
