package admin

import (
	"context"
	"fmt"
	"slices"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// Group configs live in the cluster's metadata, not at the group's
// coordinator: any broker answers DescribeConfigs and
// IncrementalAlterConfigs for GROUP resources (type 32), so every group
// goes in one request to whichever broker kgo picks.

const describeConfigsAPI = "DescribeConfigs"

// DescribeGroupConfigs returns every config of each group (DescribeConfigs
// v4 with synonyms, so the source of each effective value is known), one
// entry per requested group in request order, a repeated group asked once.
// A group that does not exist, or never had a config set, is answered
// with the broker's defaults, not an error (FINDINGS F400). An error
// answered for a group's resource is its Err (a *kafka.Error); a request
// that got no answer gives every group its error.
func (c *Client) DescribeGroupConfigs(ctx context.Context, groups []string) []kafka.GroupConfigs {
	names := dedup(groups)
	out := make([]kafka.GroupConfigs, len(names))
	for i, g := range names {
		out[i].Group = g
	}
	if len(names) == 0 {
		return out
	}
	var resp *kmsg.DescribeConfigsResponse
	err := c.retry(ctx, describeConfigsAPI, func() (string, error) {
		req := kmsg.NewPtrDescribeConfigsRequest()
		req.IncludeSynonyms = true
		for _, g := range names {
			r := kmsg.NewDescribeConfigsRequestResource()
			r.ResourceType, r.ResourceName = kmsg.ConfigResourceTypeGroupConfig, g
			req.Resources = append(req.Resources, r)
		}
		return requestShards(ctx, c, req, describeConfigsAPI, func(_ kgo.BrokerMetadata, r *kmsg.DescribeConfigsResponse) { resp = r })
	})
	if err != nil {
		for i := range out {
			out[i].Err = err
		}
		return out
	}
	got := map[string]kafka.GroupConfigs{}
	for _, r := range resp.Resources {
		if r.ResourceType != kmsg.ConfigResourceTypeGroupConfig {
			continue
		}
		if _, dup := got[r.ResourceName]; dup {
			continue
		}
		gc := kafka.GroupConfigs{Group: r.ResourceName}
		if r.ErrorCode != 0 {
			gc.Err = NewKafkaError(r.ErrorCode, r.ErrorMessage)
		}
		for _, e := range r.Configs {
			entry := kafka.GroupConfigEntry{Name: e.Name, Value: clonePtr(e.Value), Source: configSource(e.Source),
				Sensitive: e.IsSensitive, ReadOnly: e.ReadOnly}
			for _, s := range e.ConfigSynonyms {
				entry.Synonyms = append(entry.Synonyms, kafka.ConfigSynonym{Name: s.Name, Value: clonePtr(s.Value), Source: configSource(s.Source)})
			}
			gc.Entries = append(gc.Entries, entry)
		}
		slices.SortStableFunc(gc.Entries, func(a, b kafka.GroupConfigEntry) int { return kafka.CompareGroupConfigNames(a.Name, b.Name) })
		got[gc.Group] = gc
	}
	return inOrder(names, got, func(g string) kafka.GroupConfigs {
		return kafka.GroupConfigs{Group: g, Err: &kafka.MalformedError{Reason: fmt.Sprintf("DescribeConfigs did not answer for group %q", g)}}
	})
}

// configSource names a DescribeConfigs source as Java's ConfigEntry does:
// kmsg's names, but DYNAMIC_GROUP_CONFIG for a group's own.
func configSource(s kmsg.ConfigSource) kafka.ConfigSource {
	if s == kmsg.ConfigSourceGroupConfig {
		return kafka.SourceGroup
	}
	return kafka.ConfigSource(s.String())
}

// dedup returns xs without repeats, in first-seen order.
func dedup(xs []string) []string {
	seen := make(map[string]bool, len(xs))
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// ConfigOp is one change of a group config: Value set, or the key deleted
// from the group (nil Value), so that the broker's default applies again.
type ConfigOp struct {
	Name  string
	Value *string
}

// GroupConfigAlter is the changes asked for one group.
type GroupConfigAlter struct {
	Group string
	Ops   []ConfigOp
}

// AlteredGroupConfig is one group's IncrementalAlterConfigs outcome.
type AlteredGroupConfig struct {
	Group string
	// Err is nil when the broker accepted the changes (applied them, or
	// with validateOnly found them valid); else a *kafka.Error with the
	// broker's message (INVALID_CONFIG: its bounds, FINDINGS F403), or the
	// request's error when it got no answer.
	Err error
}

const alterConfigsAPI = "IncrementalAlterConfigs"

// AlterGroupConfigs sends every group's changes in one
// IncrementalAlterConfigs v1 (to any broker: group configs are metadata),
// validateOnly asking the broker to check them without applying them. It
// returns one outcome per alter, in order. Resending after a lost answer
// is safe: setting a value, or deleting a key, twice ends the same.
func (c *Client) AlterGroupConfigs(ctx context.Context, alters []GroupConfigAlter, validateOnly bool) []AlteredGroupConfig {
	out := make([]AlteredGroupConfig, len(alters))
	for i, a := range alters {
		out[i].Group = a.Group
	}
	if len(alters) == 0 {
		return out
	}
	var resp *kmsg.IncrementalAlterConfigsResponse
	err := c.retry(ctx, alterConfigsAPI, func() (string, error) {
		req := kmsg.NewPtrIncrementalAlterConfigsRequest()
		req.ValidateOnly = validateOnly
		for _, a := range alters {
			r := kmsg.NewIncrementalAlterConfigsRequestResource()
			r.ResourceType, r.ResourceName = kmsg.ConfigResourceTypeGroupConfig, a.Group
			for _, op := range a.Ops {
				e := kmsg.NewIncrementalAlterConfigsRequestResourceConfig()
				e.Name, e.Value, e.Op = op.Name, clonePtr(op.Value), kmsg.IncrementalAlterConfigOpSet
				if op.Value == nil {
					e.Op = kmsg.IncrementalAlterConfigOpDelete
				}
				r.Configs = append(r.Configs, e)
			}
			req.Resources = append(req.Resources, r)
		}
		return requestShards(ctx, c, req, alterConfigsAPI, func(_ kgo.BrokerMetadata, r *kmsg.IncrementalAlterConfigsResponse) { resp = r })
	})
	if err != nil {
		for i := range out {
			out[i].Err = err
		}
		return out
	}
	got := map[string]error{}
	answered := map[string]bool{}
	for _, r := range resp.Resources {
		if r.ResourceType != kmsg.ConfigResourceTypeGroupConfig || answered[r.ResourceName] {
			continue
		}
		answered[r.ResourceName] = true
		if r.ErrorCode != 0 {
			got[r.ResourceName] = NewKafkaError(r.ErrorCode, r.ErrorMessage)
		}
	}
	for i, a := range alters {
		switch {
		case !answered[a.Group]:
			out[i].Err = &kafka.MalformedError{Reason: fmt.Sprintf("IncrementalAlterConfigs did not answer for group %q", a.Group)}
		default:
			out[i].Err = got[a.Group]
		}
	}
	return out
}

// requestShards sends req as kgo shards it (one request for those any
// broker answers) and hands each shard's answer, as T, to use. It stops at
// the first shard that failed, with its broker's address (for the retry's
// step).
func requestShards[T kmsg.Response](ctx context.Context, c *Client, req kmsg.Request, api string, use func(kgo.BrokerMetadata, T)) (string, error) {
	for _, s := range c.cl.RequestSharded(ctx, req) {
		if s.Err != nil {
			return brokerAddr(s.Meta), s.Err
		}
		r, ok := s.Resp.(T)
		if !ok {
			return brokerAddr(s.Meta), &kafka.MalformedError{Reason: fmt.Sprintf("%s answered with %T", api, s.Resp)}
		}
		use(s.Meta, r)
	}
	return "", nil
}
