package admin

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kerr"

	"github.com/kstreams-groups/kstreams-groups/internal/admin/admintest"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

func testCluster(t *testing.T, nodes int, profile playground.Profile) (*playground.Cluster, *Client) {
	t.Helper()
	c, err := playground.Start(playground.Config{Nodes: nodes, Profile: profile, Logf: t.Logf})
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	cl, err := New(Config{Bootstrap: c.Addrs()})
	require.NoError(t, err)
	t.Cleanup(cl.Close)
	return c, cl
}

// behindHostile returns a client of c reached through a misbehaving proxy.
func behindHostile(t *testing.T, c *playground.Cluster, rules ...admintest.Rule) *Client {
	t.Helper()
	h := admintest.Start(t, c, rules...)
	cl, err := New(Config{Bootstrap: h.Addrs()})
	require.NoError(t, err)
	t.Cleanup(cl.Close)
	return cl
}

func testContext(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), d)
	t.Cleanup(cancel)
	return ctx
}

// requested returns the groups of every DeleteGroups request in order.
func requested(c *playground.Cluster, key int16) [][]string {
	var out [][]string
	for _, r := range c.Requests() {
		if r.Key == key {
			out = append(out, r.Groups)
		}
	}
	return out
}

func TestDeleteGroups(t *testing.T) {
	msg := playground.DeletionFailedMessage
	tests := []struct {
		name        string
		profile     playground.Profile
		groups      []string
		faults      []playground.Fault
		lose        bool // the first DeleteGroups answer is lost after the delete
		wantErr     map[string]int16
		wantVersion int16
		wantLost    []string
		wantSent    [][]string
	}{
		{
			name:        "deleted at v3, a repeated id sent once and answered for each occurrence",
			groups:      []string{"a", "b", "a"},
			wantVersion: 3,
			wantSent:    [][]string{{"a"}, {"b"}},
		},
		{
			name:        "GROUP_DELETION_FAILED with the broker's message at v3",
			groups:      []string{"a"},
			faults:      []playground.Fault{{Key: 42, Group: "a", ErrorCode: kerr.GroupDeletionFailed.Code, ErrorMessage: &msg, Node: playground.AnyNode}},
			wantErr:     map[string]int16{"a": kerr.GroupDeletionFailed.Code},
			wantVersion: 3,
			wantSent:    [][]string{{"a"}},
		},
		{
			name:        "a Kafka 4.3 broker answers v2 and UNKNOWN_SERVER_ERROR",
			profile:     playground.Kafka43,
			groups:      []string{"a"},
			faults:      []playground.Fault{{Key: 42, Group: "a", ErrorCode: kerr.GroupDeletionFailed.Code, ErrorMessage: &msg, Node: playground.AnyNode}},
			wantErr:     map[string]int16{"a": kafka.CodeUnknownServerError},
			wantVersion: 2,
			wantSent:    [][]string{{"a"}},
		},
		{
			name:        "only the group that answered NOT_COORDINATOR is sent again",
			groups:      []string{"a", "c"},
			faults:      []playground.Fault{{Key: 42, Group: "c", ErrorCode: kerr.NotCoordinator.Code, Times: 1, Node: 0}},
			wantVersion: 3,
			wantSent:    [][]string{{"a", "c"}, {"c"}},
		},
		{
			name:        "a lost answer: the resend finds the group gone, which counts as deleted",
			groups:      []string{"a"},
			lose:        true,
			wantVersion: 3,
			wantLost:    []string{"a"},
			wantSent:    [][]string{{"a"}, {"a"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			profile := tc.profile
			if profile == "" {
				profile = playground.Kafka44
			}
			c, cl := testCluster(t, 2, profile)
			for _, g := range []string{"a", "b", "c"} {
				c.PutGroup(g, "streams", "streams", "Empty")
			}
			c.SetCoordinator("a", 0)
			c.SetCoordinator("b", 1)
			c.SetCoordinator("c", 0)
			for _, f := range tc.faults {
				c.InjectError(f)
			}
			if tc.lose {
				// The connection closes after the broker deleted: a lost
				// answer. (A broken answer body would be a protocol error,
				// reported at once.)
				cl = behindHostile(t, c, admintest.Rule{Key: 42, Action: admintest.Lose, Times: 1})
			}
			out := cl.DeleteGroups(testContext(t, 10*time.Second), tc.groups)
			require.Len(t, out, len(tc.groups))
			var lost []string
			for i, d := range out {
				assert.Equal(t, tc.groups[i], d.Group)
				if code, ok := tc.wantErr[d.Group]; ok {
					var ke *kafka.Error
					require.ErrorAs(t, d.Err, &ke, d.Group)
					assert.Equal(t, code, ke.Code)
					assert.True(t, c.HasGroup(d.Group), d.Group)
				} else {
					assert.NoError(t, d.Err, d.Group)
					assert.False(t, c.HasGroup(d.Group), d.Group)
				}
				assert.Equal(t, tc.wantVersion, d.Version, d.Group)
				assert.Equal(t, c.Coordinator(d.Group), d.Coordinator.ID, d.Group)
				if d.AnswerLost {
					lost = append(lost, d.Group)
				}
			}
			assert.Equal(t, tc.wantLost, lost)
			sent := requested(c, 42)
			assert.ElementsMatch(t, tc.wantSent, sent)
			if tc.wantErr["a"] == kerr.GroupDeletionFailed.Code {
				var ke *kafka.Error
				require.ErrorAs(t, out[0].Err, &ke)
				assert.Equal(t, "GROUP_DELETION_FAILED: Topology description plugin failed to delete the topology.", ke.Error())
				assert.True(t, ke.FromBroker)
			}
		})
	}
}

// A coordinator that keeps answering a retriable error is retried until the
// context ends; the group then reports the last error.
func TestDeleteGroups_timeout(t *testing.T) {
	c, cl := testCluster(t, 1, playground.Kafka44)
	c.PutGroup("a", "streams", "streams", "Empty")
	c.InjectError(playground.Fault{Key: 42, Group: "a", ErrorCode: kerr.CoordinatorNotAvailable.Code, Node: playground.AnyNode})
	out := cl.DeleteGroups(testContext(t, 500*time.Millisecond), []string{"a"})
	require.Len(t, out, 1)
	assert.ErrorIs(t, out[0].Err, kafka.ErrUnavailable)
	assert.ErrorIs(t, out[0].Err, context.DeadlineExceeded)
	// The deadline may strike during a retry's request (then named) or
	// between two; both end with the last error.
	assert.Regexp(t, `DeleteGroups: timed out (waiting for \S+ to answer \w+ v\d+ )?\(last error: COORDINATOR_NOT_AVAILABLE`, out[0].Err.Error())
	assert.True(t, c.HasGroup("a"))
}

func TestDeleteTopics(t *testing.T) {
	tests := []struct {
		name     string
		topics   []string
		setup    func(c *playground.Cluster)
		lose     bool // the first DeleteTopics answer is lost after the delete
		wantErr  map[string]int16
		wantSent int // DeleteTopics requests
	}{
		{
			name:     "existing topics are deleted, a repeated name once",
			topics:   []string{"x", "y", "x"},
			wantSent: 1,
		},
		{
			name:     "a missing topic is UNKNOWN_TOPIC_OR_PARTITION",
			topics:   []string{"x", "missing"},
			wantErr:  map[string]int16{"missing": kerr.UnknownTopicOrPartition.Code},
			wantSent: 1,
		},
		{
			name:   "NOT_CONTROLLER is retried",
			topics: []string{"x", "y"},
			setup: func(c *playground.Cluster) {
				c.InjectError(playground.Fault{Key: 20, Group: "y", ErrorCode: kerr.NotController.Code, Times: 1, Node: playground.AnyNode})
			},
			wantSent: 2,
		},
		{
			name:     "a lost answer: the resend finds the topic gone, which counts as deleted",
			topics:   []string{"x"},
			lose:     true,
			wantSent: 2,
		},
		{
			name:   "an authorization failure is kept",
			topics: []string{"x"},
			setup: func(c *playground.Cluster) {
				c.InjectError(playground.Fault{Key: 20, Group: "x", ErrorCode: kerr.TopicAuthorizationFailed.Code, Node: playground.AnyNode})
			},
			wantErr:  map[string]int16{"x": kerr.TopicAuthorizationFailed.Code},
			wantSent: 1,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, cl := testCluster(t, 2, playground.Kafka44)
			c.PutTopic("x", 1)
			c.PutTopic("y", 2)
			if tc.setup != nil {
				tc.setup(c)
			}
			if tc.lose {
				cl = behindHostile(t, c, admintest.Rule{Key: 20, Action: admintest.Lose, Times: 1})
			}
			out := cl.DeleteTopics(testContext(t, 10*time.Second), tc.topics)
			var names []string
			for _, d := range out {
				names = append(names, d.Topic)
				if code, ok := tc.wantErr[d.Topic]; ok {
					var ke *kafka.Error
					require.ErrorAs(t, d.Err, &ke, d.Topic)
					assert.Equal(t, code, ke.Code)
					continue
				}
				assert.NoError(t, d.Err, d.Topic)
				assert.False(t, c.HasTopic(d.Topic), d.Topic)
			}
			var distinct []string
			for _, tp := range tc.topics {
				if !contains(distinct, tp) {
					distinct = append(distinct, tp)
				}
			}
			assert.Equal(t, distinct, names)
			n := 0
			for _, r := range c.Requests() {
				if r.Key == 20 {
					n++
				}
			}
			assert.Equal(t, tc.wantSent, n)
		})
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}
