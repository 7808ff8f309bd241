package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/golden"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
	tt "github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
)

func runWithStdin(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	code := testRun(t, args, IOStreams{In: strings.NewReader(stdin), Out: &out, ErrOut: &errOut}, deps{})
	return result{stdout: out.String(), stderr: errOut.String(), code: code}
}

func TestRender(t *testing.T) {
	t.Parallel()
	streams := "../../e2e/testdata/streams-describe/wordcount.txt"
	for _, o := range []string{"text", "json", "yaml", "dot", "mermaid"} {
		t.Run("streams describe to "+o, func(t *testing.T) {
			isolate(t)
			r := runCLI(t, "render", "-o", o, streams)
			require.Equal(t, 0, r.code, r.stderr)
			assert.Empty(t, r.stderr)
			golden.Assert(t, []byte(r.stdout))
		})
	}
}

// The CLI's own --describe --topology text round-trips byte for byte, from
// a file and from stdin, and so do its JSON and YAML documents.
func TestRender_roundTrip(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := describeCluster(t)
	desc := runCLI(t, "--bootstrap-server", bootstrap(c), "--describe", "--topology", "--group", "word-count")
	require.Equal(t, 0, desc.code)

	f := filepath.Join(t.TempDir(), "topology.txt")
	require.NoError(t, os.WriteFile(f, []byte(desc.stdout), 0o600))
	r := runCLI(t, "render", f)
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, desc.stdout, r.stdout)

	r = runWithStdin(t, desc.stdout, "render", "-o", "text", "-")
	assert.Equal(t, desc.stdout, r.stdout)

	for _, o := range []string{"json", "yaml"} {
		doc := runCLI(t, "--bootstrap-server", bootstrap(c), "--describe", "--topology", "--group", "word-count", "-o", o)
		require.Equal(t, 0, doc.code)
		r = runWithStdin(t, doc.stdout, "render")
		assert.Equal(t, desc.stdout, r.stdout, o)
	}
}

// Kafka Streams keeps a processor's stores in a HashSet and its
// Topology#describe() prints them in that set's order, often not
// alphabetical: render keeps the order a text gives, in the text and
// through our JSON and YAML documents, so such a text comes back byte for
// byte (a duplicate still prints once).
func TestRender_keepsTheStoresOrder(t *testing.T) {
	t.Parallel()
	isolate(t)
	text := "Topologies:\n" +
		"   Sub-topology: 0\n" +
		"    Source: src (topics: [in])\n" +
		"      --> p\n" +
		"    Processor: p (stores: [zeta, alpha, KSTREAM-AGGREGATE-STATE-STORE-0000000001])\n" +
		"      --> none\n" +
		"      <-- src\n" +
		"\n" +
		"   Sub-topology: 1 for global store (will not generate tasks)\n" +
		"    Source: gs (topics: [g])\n" +
		"      --> gp\n" +
		"    Processor: gp (stores: [global-z, global-a])\n" +
		"      --> none\n" +
		"      <-- gs\n" +
		"\n"
	r := runWithStdin(t, text, "render")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, text+"\n", r.stdout)
	for _, o := range []string{"json", "yaml"} {
		doc := runWithStdin(t, text, "render", "-o", o)
		require.Equal(t, 0, doc.code, doc.stderr)
		assert.Contains(t, doc.stdout, "zeta", o)
		back := runWithStdin(t, doc.stdout, "render")
		assert.Equal(t, text+"\n", back.stdout, o)
	}
	dup := strings.Replace(text, "[zeta, alpha,", "[zeta, alpha, zeta,", 1)
	assert.Equal(t, text+"\n", runWithStdin(t, dup, "render").stdout, "each store once")
}

func TestRender_errors(t *testing.T) {
	t.Parallel()
	isolate(t)
	r := runWithStdin(t, "Topologies:\n   Sub-topology: 0\n    Widget: w\n", "render")
	assert.Equal(t, 1, r.code)
	assert.Empty(t, r.stdout)
	assert.Equal(t, "Error: stdin: line 3: expected \"Sub-topology:\", \"Source:\", \"Processor:\", \"Sink:\", \"-->\", \"<--\" or a blank line, found \"Widget: w\"\n", r.stderr)

	r = runCLI(t, "render", "/nonexistent/t.txt")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "Error: cannot read the topology description: open /nonexistent/t.txt")

	r = runCLI(t, "render", "a", "b")
	assert.Equal(t, 2, r.code)
}

func TestDescribeTopology_graphs(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := describeCluster(t)
	c.PutStreamsGroup(streamsGroup("hostile\x1b[31m", tt.WordCount()))
	for _, o := range []string{"dot", "mermaid"} {
		t.Run(o, func(t *testing.T) {
			r := runCLI(t, "--bootstrap-server", bootstrap(c), "--describe", "--topology", "--group", "word-count", "-o", o)
			assert.Equal(t, 0, r.code, r.stderr)
			golden.Assert(t, []byte(r.stdout))
		})
	}
	t.Run("dot draws one graph per group, statuses go to stderr", func(t *testing.T) {
		r := runCLI(t, "--bootstrap-server", bootstrap(c), "--describe", "--topology", "--group", "word-count", "--group", "inventory", "--group", "hostile\x1b[31m", "-o", "dot", "--detailed-exit-codes")
		assert.Equal(t, 3, r.code)
		assert.Equal(t, 2, strings.Count(r.stdout, "digraph "))
		assert.Contains(t, r.stdout, `digraph "hostile\\x1B[31m" {`)
		assert.NotContains(t, r.stdout, "\x1b")
		assert.Equal(t, "Error: No topology description is stored for streams group 'inventory'.\n", r.stderr)
	})
	t.Run("mermaid takes one group", func(t *testing.T) {
		r := runCLI(t, "--bootstrap-server", bootstrap(c), "--describe", "--topology", "--group", "word-count", "--group", "inventory", "-o", "mermaid")
		assert.Equal(t, 2, r.code)
		assert.Contains(t, r.stderr, "-o mermaid draws one group")
	})
	t.Run("graphs need the topology view", func(t *testing.T) {
		r := runCLI(t, "--bootstrap-server", bootstrap(c), "--describe", "--group", "word-count", "-o", "dot")
		assert.Equal(t, 2, r.code)
		assert.Contains(t, r.stderr, "-o dot: describe prints text, json or yaml, and dot, mermaid, svg or png with --topology; -o dot is printed by describe --topology, overview and render")
	})
	_ = playground.AnyNode
}
