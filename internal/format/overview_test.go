package format

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/overview"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// hostileOverview names everything with control characters, as a hostile
// broker could.
func hostileOverview() *overview.Result {
	task := &overview.Task{TaskID: overview.TaskID{Subtopology: "0\x1b[2J", Partition: 1}, Active: []int{0}, TargetActive: []int{1}, Lag: 7}
	g := &overview.Group{Group: "g\x1b]0;pwned\x07", State: "Stable", DescriptionStatus: topology.NotStored,
		Members: []kafka.Member{
			{MemberID: "m\rX", ProcessID: "p\x1b[1m", ClientID: "c\n", ClientHost: "/h\x1b", UserEndpoint: &kafka.Endpoint{Host: "e\x1b[31m", Port: 1}},
			{MemberID: "n", ClientHost: "/h2"},
		},
		Subtopologies: []*overview.Subtopology{{ID: "0\x1b[2J", Sources: []overview.Source{{Topic: "t\x1b", Lag: 7}},
			Stores: []overview.Store{{Name: "s\x1b", Changelog: "c\x1b"}}, Tasks: []*overview.Task{task}, Lag: 7, MaxTaskLag: 7}},
		Lag: 7, Largest: task}
	return &overview.Result{Groups: []*overview.Group{g}}
}

func TestOverviewText_escapesAndColor(t *testing.T) {
	res := hostileOverview()
	var plain, colored bytes.Buffer
	require.NoError(t, OverviewText(&plain, res, nil))
	require.NoError(t, OverviewText(&colored, res, NewStyles(true)))
	assert.NotContains(t, plain.String(), "\x1b", "no raw escape reaches the terminal")
	assert.NotContains(t, plain.String(), "\r")
	for _, want := range []string{"Streams group 'g^[]0;pwned^G'", "e^[[31m:1", "member   m\\rX", "client   c\\n", "0^[[2J_1", "t^[ (lag 7)", "moving: active -> m2"} {
		assert.Contains(t, plain.String(), want)
	}
	sgr := regexp.MustCompile("\x1b\\[[0-9;]*m")
	assert.Equal(t, plain.String(), sgr.ReplaceAllString(colored.String(), ""), "color adds escape sequences only")
	assert.NotEqual(t, plain.String(), colored.String())

	// Every drawing quotes the names.
	for _, o := range []Output{Dot, Mermaid} {
		var buf bytes.Buffer
		require.NoError(t, OverviewGraphContext(context.Background(), &buf, o, res.Groups[0]))
		assert.NotContains(t, buf.String(), "\x1b", o)
		assert.NotContains(t, buf.String(), "\x07", o)
		assert.Equal(t, 1, strings.Count(buf.String(), "nodes unknown (NOT_STORED)"), o)
	}
}
