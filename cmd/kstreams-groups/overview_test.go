package main

import (
	"bytes"
	"encoding/json"
	"image"
	_ "image/png"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/format/picture/picturetest"
	"github.com/kstreams-groups/kstreams-groups/internal/golden"
	"github.com/kstreams-groups/kstreams-groups/internal/overview"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
	tt "github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
)

// seedCluster runs the built-in playground seed (word-count AVAILABLE,
// inventory NOT_STORED, billing ERROR, fraud-detector Empty, page-views
// Reconciling with standby and warm-up tasks and a task moving).
func seedCluster(t *testing.T) *playground.Cluster {
	t.Helper()
	c, err := playground.StartStateWith(testPlayground, playground.DefaultState())
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// stableOverview hides the cluster's random ports (in text and
// documents), leaving the members' endpoint ports alone.
func stableOverview(c *playground.Cluster, s string) []byte {
	for _, addr := range c.Addrs() {
		_, port, _ := strings.Cut(addr, ":")
		s = regexp.MustCompile(`(127\.0\.0\.1:|"port": |port: )`+port+`\b`).ReplaceAllString(s, "${1}PORT")
	}
	return []byte(s)
}

func TestOverview(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := seedCluster(t)
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantDetail int
		wantStderr string
	}{
		{name: "text", args: []string{"--group", "page-views"}},
		{name: "text with a global store", args: []string{"--group", "word-count"}},
		{name: "text not stored, error and empty", args: []string{"--group", "inventory", "--group", "billing", "--group", "fraud-detector"}},
		{name: "store view", args: []string{"--group", "page-views", "--store", "region-counts"}},
		{name: "store view yaml", args: []string{"--group", "page-views", "--store", "region-counts", "-o", "yaml"}},
		{name: "json", args: []string{"--group", "page-views", "-o", "json"}},
		{name: "json not stored", args: []string{"--group", "inventory", "-o", "json"}},
		{name: "yaml", args: []string{"--group", "word-count", "-o", "yaml"}},
		{name: "page-views.dot", args: []string{"--group", "page-views", "-o", "dot"}},
		{name: "two groups.dot", args: []string{"--group", "word-count", "--group", "billing", "-o", "dot"}},
		{name: "page-views.mmd", args: []string{"--group", "page-views", "-o", "mermaid"}},
		{name: "not stored.mmd", args: []string{"--group", "inventory", "-o", "mermaid"}},
		{name: "a missing group fails alone", args: []string{"--group", "nope", "--group", "billing"}, wantCode: 1, wantDetail: 5,
			wantStderr: "Error: streams group 'nope': GROUP_ID_NOT_FOUND: Group nope not found.\n"},
		{name: "not a streams group", args: []string{"--group", "legacy-consumer", "-o", "json"}, wantCode: 1, wantDetail: 5,
			wantStderr: "Error: streams group 'legacy-consumer': GROUP_ID_NOT_FOUND: Group legacy-consumer is not a streams group.\n"},
		{name: "a store the group lacks", args: []string{"--group", "page-views", "--store", "counts"}, wantCode: 1, wantDetail: 1,
			wantStderr: "Error: streams group 'page-views': no state store counts (its stores are region-counts)\n"},
		{name: "a global store", args: []string{"--group", "word-count", "--store", "stopwords-store"}, wantCode: 1, wantDetail: 1,
			wantStderr: "Error: streams group 'word-count': store stopwords-store is a global store: every instance holds all of it\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, detailed := range []bool{false, true} {
				r := runMode(t, c, detailed, tc.wantCode, tc.wantDetail, tc.wantStderr, append([]string{"overview"}, tc.args...)...)
				golden.Assert(t, stableOverview(c, r.stdout))
			}
		})
	}
}

func TestOverview_allGroups(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := seedCluster(t)
	r := runCLI(t, "--bootstrap-server", bootstrap(c), "overview", "--all-groups", "-o", "json")
	require.Equal(t, 0, r.code, r.stderr)
	var doc format.OverviewDoc
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &doc))
	var ids []string
	for _, g := range doc.Groups {
		ids = append(ids, g.Group)
		assert.Nil(t, g.Error, g.Group)
	}
	assert.Equal(t, []string{"billing", "clicks", "fraud-detector", "inventory", "order-audit", "page-views", "word-count"}, ids, "sorted by id")
}

func TestOverview_usageErrors(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := seedCluster(t)
	bs := bootstrap(c)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"overview"}, `Missing required argument "[bootstrap-server]"`},
		{[]string{"--bootstrap-server", bs, "overview"}, "overview needs --group (repeatable) or --all-groups"},
		{[]string{"--bootstrap-server", bs, "overview", "--group", "g", "--all-groups"}, `Option "[group]" can't be used with option "[all-groups]"`},
		{[]string{"--bootstrap-server", bs, "overview", "--group", "g", "--store", ""}, "--store needs the name of a state store"},
		{[]string{"--bootstrap-server", bs, "overview", "--group", "word-count", "--group", "billing", "-o", "mermaid"}, "-o mermaid draws one group; pass a single --group"},
		{[]string{"--bootstrap-server", bs, "overview", "--group", "word-count", "--group", "billing", "-o", "svg"}, "-o svg draws one group; pass a single --group"},
		{[]string{"--bootstrap-server", bs, "--overview", "--group", "g"}, "unknown flag: --overview"},
	}
	for i, tc := range tests {
		d := deps{}
		if i < 4 || i == len(tests)-1 {
			d = noClient(t) // found before anything connects
		}
		r := runWith(t, d, tc.args...)
		assert.Equal(t, 2, r.code, "%v: %s", tc.args, r.stderr)
		assert.Contains(t, r.stderr, tc.want, "%v", tc.args)
		assert.Empty(t, r.stdout, "%v", tc.args)
	}
}

// The subcommand hands the verb its options (the runF seam: no broker).
func TestOverview_options(t *testing.T) {
	t.Parallel()
	isolate(t)
	var got any
	d := noClient(t)
	d.runF = func(verb string, opts any) error {
		assert.Equal(t, "overview", verb)
		got = opts
		return nil
	}
	r := runWith(t, d, "--bootstrap-server", "127.0.0.1:9", "overview", "--group", "a", "--group", "b", "--store", "counts", "--time-lag=false")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, overview.Options{Groups: []string{"a", "b"}, StoreGiven: true, Store: "counts", LastRebalance: true}, got)
	// The time lag by default, on the watch's clock.
	r = runWith(t, d, "--bootstrap-server", "127.0.0.1:9", "overview", "--group", "a")
	require.Equal(t, 0, r.code, r.stderr)
	o := got.(overview.Options)
	assert.True(t, o.TimeLag)
	assert.NotNil(t, o.Now)
	// A watch reads no history: it would read the partition every sample.
	r = runWith(t, d, "--bootstrap-server", "127.0.0.1:9", "overview", "--group", "a", "--watch")
	require.Equal(t, 0, r.code, r.stderr)
	assert.False(t, got.(overview.Options).LastRebalance)
}

// The join is right: every task's lag in the overview is the sum of the
// matching rows of `describe --offsets -o json` (the rows of the partitions
// P of the subtopology's source topics), and every task's holders are the
// members whose assignment in `describe --members -o json` names it.
func TestOverview_crossCheck(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := seedCluster(t)
	bs := bootstrap(c)
	docOf := func(v any, args ...string) {
		t.Helper()
		r := runCLI(t, append([]string{"--bootstrap-server", bs}, args...)...)
		require.Equal(t, 0, r.code, r.stderr)
		require.NoError(t, json.Unmarshal([]byte(r.stdout), v))
	}
	var offsets, members format.DescribeDoc
	var ov format.OverviewDoc
	groups := []string{"--group", "page-views", "--group", "word-count", "--group", "inventory", "--group", "billing"}
	docOf(&offsets, append([]string{"describe", "--offsets", "-o", "json"}, groups...)...)
	docOf(&members, append([]string{"describe", "--members", "-o", "json"}, groups...)...)
	docOf(&ov, append([]string{"overview", "-o", "json"}, groups...)...)
	require.Len(t, ov.Groups, 4)
	checked := 0
	for i, g := range ov.Groups {
		require.Nil(t, g.Error)
		rows := *offsets.Groups[i].Offsets
		ms := *members.Groups[i].Members
		for _, s := range g.Subtopologies {
			for _, task := range s.Tasks {
				// Owners, kind by kind, from the members view.
				for kind, got := range map[string][]format.MemberRefDoc{"active": task.Active, "standby": task.Standby, "warmup": task.Warmup} {
					var want []string
					for _, m := range ms {
						tasks := map[string][]format.TasksDoc{"active": m.Assignment.Active, "standby": m.Assignment.Standby, "warmup": m.Assignment.Warmup}[kind]
						for _, ts := range tasks {
							if ts.SubtopologyID == s.ID && slices.Contains(ts.Partitions, task.Partition) {
								want = append(want, m.MemberID)
							}
						}
					}
					var ids []string
					for _, o := range got {
						ids = append(ids, o.MemberID)
						// The owner's details are the members view's.
						j := slices.IndexFunc(ms, func(m format.MemberDoc) bool { return m.MemberID == o.MemberID })
						require.GreaterOrEqual(t, j, 0)
						assert.Equal(t, []string{ms[j].ProcessID, ms[j].ClientID, ms[j].ClientHost}, []string{o.ProcessID, o.ClientID, o.ClientHost})
						assert.Equal(t, ms[j].UserEndpoint, o.UserEndpoint)
					}
					assert.Equal(t, want, ids, "%s task %s %s", g.Group, task.ID, kind)
				}
				if len(task.Active) == 0 {
					continue // the offsets view has rows for active tasks only
				}
				var sum int64
				for _, row := range rows {
					if row.Partition != task.Partition {
						continue
					}
					if slices.ContainsFunc(s.SourceTopics, func(src format.SourceDoc) bool { return src.Topic == row.Topic }) {
						sum += row.Lag
					}
				}
				assert.Equal(t, sum, task.Lag, "%s task %s lag", g.Group, task.ID)
				checked++
			}
		}
	}
	assert.Equal(t, 8+6+2+2, checked, "every active task was checked")
}

// -o svg and -o png render in the binary: for the overview, for describe
// --topology and for render.
func TestPictures(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := seedCluster(t)
	bs := bootstrap(c)
	cases := map[string][]string{
		"overview":            {"--bootstrap-server", bs, "overview", "--group", "page-views"},
		"overview not stored": {"--bootstrap-server", bs, "overview", "--group", "inventory"},
		"describe topology":   {"--bootstrap-server", bs, "describe", "--topology", "--group", "word-count"},
		"render":              {"render", "-"},
	}
	for name, args := range cases {
		t.Run(name+" svg", func(t *testing.T) {
			r := runPicture(t, append(args, "-o", "svg")...)
			require.Equal(t, 0, r.code, r.stderr)
			assert.Empty(t, r.stderr)
			texts := picturetest.CheckSVG(t, []byte(r.stdout))
			assert.NotEmpty(t, texts)
			if strings.HasPrefix(name, "overview") {
				assert.Contains(t, strings.Join(texts, "\n"), "lag ")
			}
		})
		t.Run(name+" png", func(t *testing.T) {
			r := runPicture(t, append(args, "-o", "png")...)
			require.Equal(t, 0, r.code, r.stderr)
			assert.Empty(t, r.stderr)
			img, kind, err := image.Decode(strings.NewReader(r.stdout))
			require.NoError(t, err)
			assert.Equal(t, "png", kind)
			b := img.Bounds()
			assert.Greater(t, b.Dx(), 400, "a plausible width")
			assert.Greater(t, b.Dy(), 100, "a plausible height")
			assert.Less(t, b.Dx()*b.Dy(), 64<<20)
		})
	}
	t.Run("describe topology of a group without a description", func(t *testing.T) {
		r := runPicture(t, "--bootstrap-server", bs, "describe", "--topology", "--group", "inventory", "-o", "svg")
		assert.Equal(t, 1, r.code)
		assert.Empty(t, r.stdout, "nothing to draw")
		assert.Equal(t, "Error: No topology description is stored for streams group 'inventory'.\n", r.stderr)
	})
}

// runPicture runs the CLI with the word-count description on stdin (for
// render).
func runPicture(t *testing.T, args ...string) result {
	t.Helper()
	var text bytes.Buffer
	require.NoError(t, format.Topology(&text, tt.WordCount()))
	var out, errOut bytes.Buffer
	code := testRun(t, args, IOStreams{In: &text, Out: &out, ErrOut: &errOut}, deps{})
	return result{stdout: out.String(), stderr: errOut.String(), code: code}
}
