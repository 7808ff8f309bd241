package playground

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// DeleteTopics answers per topic at every version the 4.4 profile
// advertises: by name before v6 and by name or id from v6, with faults
// taking precedence and ErrorMessage only from v5.
func TestDeleteTopics_PerVersion(t *testing.T) {
	t.Parallel()
	for v := int16(0); v <= 6; v++ {
		t.Run("v"+string(rune('0'+v)), func(t *testing.T) {
			t.Parallel()
			c := startCluster(t, Config{Nodes: 2})
			c.PutTopic("a", 1)
			c.PutTopic("b", 2)
			c.PutTopic("denied", 1)
			c.InjectError(Fault{Key: 20, Group: "denied", ErrorCode: 29, ErrorMessage: ptr("no"), Node: AnyNode})

			req := kmsg.NewPtrDeleteTopicsRequest()
			req.Version = v
			names := []string{"a", "missing", "denied"}
			for _, n := range names {
				req.TopicNames = append(req.TopicNames, n)
				rt := kmsg.NewDeleteTopicsRequestTopic()
				rt.Topic = ptr(n)
				req.Topics = append(req.Topics, rt)
			}
			if v >= 6 {
				byID := kmsg.NewDeleteTopicsRequestTopic()
				byID.TopicID = topicID("b")
				req.Topics = append(req.Topics, byID)
				unknownID := kmsg.NewDeleteTopicsRequestTopic()
				unknownID.TopicID = topicID("nope")
				req.Topics = append(req.Topics, unknownID)
			}
			resp := decode[*kmsg.DeleteTopicsResponse](t, dialRaw(t, c.Addrs()[1]), req)

			got := map[string]int16{}
			for _, rt := range resp.Topics {
				name := "<nil>"
				if rt.Topic != nil {
					name = *rt.Topic
				}
				if name == "denied" {
					if v >= 5 {
						require.NotNil(t, rt.ErrorMessage)
						assert.Equal(t, "no", *rt.ErrorMessage)
					} else {
						assert.Nil(t, rt.ErrorMessage)
					}
				}
				got[name] = rt.ErrorCode
			}
			want := map[string]int16{"a": 0, "missing": 3, "denied": 29}
			if v >= 6 {
				want["b"] = 0       // answered with the name it was found by id
				want["<nil>"] = 100 // UNKNOWN_TOPIC_ID
			}
			assert.Equal(t, want, got)
			assert.False(t, c.HasTopic("a"))
			assert.True(t, c.HasTopic("denied"), "a faulted topic is kept")
			assert.Equal(t, v < 6, c.HasTopic("b"))
			assert.Equal(t, []string{"denied"}, without(c.Topics(), "b"))
		})
	}
}

func without(xs []string, drop string) []string {
	var out []string
	for _, x := range xs {
		if x != drop {
			out = append(out, x)
		}
	}
	return out
}
