package playground

import (
	"maps"
	"slices"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// DeleteTopics (key 20), for kafka-streams-groups.sh's
// --delete-all-internal-topics. Every node answers it, as a KRaft broker
// forwards it to the controller. A Fault with Key 20 matches the topic
// name in its Group field ("" for every topic) and answers its ErrorCode
// and, from v5, ErrorMessage; the topic is kept.

// HasTopic reports whether a topic with this name exists.
func (c *Cluster) HasTopic(name string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.topics[name]
	return ok
}

// RemoveTopic deletes a topic behind the clients' backs; it is a no-op for
// unknown names.
func (c *Cluster) RemoveTopic(name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.topics, name)
}

// Topics returns the names of the existing topics, sorted.
func (c *Cluster) Topics() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Sorted(maps.Keys(c.topics))
}

func (c *Cluster) handleDeleteTopics(n *node, r *kmsg.DeleteTopicsRequest, resp *kmsg.DeleteTopicsResponse) {
	type ask struct {
		name *string
		id   [16]byte
	}
	var asks []ask
	if r.Version >= 6 {
		for _, t := range r.Topics {
			asks = append(asks, ask{name: t.Topic, id: t.TopicID})
		}
	} else {
		for _, name := range r.TopicNames {
			asks = append(asks, ask{name: &name})
		}
	}
	for _, a := range asks {
		rt := kmsg.NewDeleteTopicsResponseTopic()
		rt.Topic, rt.TopicID = a.name, a.id
		var t *topic
		if a.name != nil {
			t = c.topics[*a.name]
		} else {
			t = c.topicByIDLocked(a.id)
		}
		name := ""
		if a.name != nil {
			name = *a.name
		} else if t != nil {
			name = t.name
			rt.Topic = &name
		}
		switch f, ok := c.takeFaultLocked(r.Key(), n.id, name); {
		case ok:
			rt.ErrorCode = f.ErrorCode
			if r.Version >= 5 {
				rt.ErrorMessage = f.ErrorMessage
			}
		case t == nil && a.name == nil:
			rt.ErrorCode = kerr.UnknownTopicID.Code
		case t == nil:
			rt.ErrorCode = kerr.UnknownTopicOrPartition.Code
		default:
			rt.TopicID = t.id
			delete(c.topics, t.name)
		}
		resp.Topics = append(resp.Topics, rt)
	}
}
