package admin

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// What doctor asks one broker, usually a group's coordinator: the requests
// it speaks (its ApiVersions table, read from the connection's handshake
// when there is one, so no request is sent) and its configs
// (DescribeConfigs v4 of its BROKER resource, sent to that broker, which
// is the only one that answers for its static configs).

// BrokerAPIs returns the ApiVersions answer of broker b, retrying
// connection errors until ctx ends.
func (c *Client) BrokerAPIs(ctx context.Context, b kafka.Broker) (*kafka.BrokerAPIs, error) {
	var out *kafka.BrokerAPIs
	err := c.retryBroker(ctx, b, "ApiVersions", func(t target) error {
		resp, err := c.apiVersions(ctx, t)
		if err != nil {
			return err
		}
		out = &kafka.BrokerAPIs{Broker: b}
		for _, k := range resp.ApiKeys {
			out.APIs = append(out.APIs, kafka.APIVersion{Key: k.ApiKey, Name: kmsg.NameForKey(k.ApiKey), Min: k.MinVersion, Max: k.MaxVersion})
		}
		slices.SortFunc(out.APIs, func(x, y kafka.APIVersion) int { return int(x.Key) - int(y.Key) })
		return nil
	})
	return out, err
}

// DescribeBrokerConfigs returns the configs names (all when nil) of broker
// b, in the broker's order; a name the broker does not know is missing
// from the answer. An error answered for the resource (for example
// CLUSTER_AUTHORIZATION_FAILED) is a *kafka.Error.
func (c *Client) DescribeBrokerConfigs(ctx context.Context, b kafka.Broker, names []string) ([]kafka.BrokerConfig, error) {
	var out []kafka.BrokerConfig
	err := c.retryBroker(ctx, b, "DescribeConfigs", func(t target) error {
		req := kmsg.NewPtrDescribeConfigsRequest()
		res := kmsg.NewDescribeConfigsRequestResource()
		res.ResourceType, res.ResourceName, res.ConfigNames = kmsg.ConfigResourceTypeBroker, strconv.Itoa(int(b.ID)), names
		req.Resources = append(req.Resources, res)
		resp, err := request[*kmsg.DescribeConfigsResponse](ctx, t.b, req, "DescribeConfigs")
		if err != nil {
			return err
		}
		if len(resp.Resources) != 1 {
			return &kafka.MalformedError{Reason: fmt.Sprintf("DescribeConfigs answered %d resources for one", len(resp.Resources))}
		}
		r := resp.Resources[0]
		if r.ErrorCode != 0 {
			return NewKafkaError(r.ErrorCode, r.ErrorMessage)
		}
		out = make([]kafka.BrokerConfig, 0, len(r.Configs))
		for _, e := range r.Configs {
			out = append(out, kafka.BrokerConfig{Name: e.Name, Value: clonePtr(e.Value), Source: e.Source.String(), Sensitive: e.IsSensitive})
		}
		return nil
	})
	return out, err
}

// retryBroker runs one request to broker b as retry does.
func (c *Client) retryBroker(ctx context.Context, b kafka.Broker, api string, do func(t target) error) error {
	return c.retry(ctx, api, func() (string, error) {
		t := c.brokerFor(b)
		return t.addr, do(t)
	})
}

// retry runs one request (api names it) until it succeeds, fails for good
// or ctx ends, which is reported as unavailable with the last error. do
// returns the address of the broker it asked ("" when unknown) and its
// error. For good: a *kafka.Error or *kafka.MalformedError that do made of
// the answer, a set-up failure or a broken answer (Client.failure), a
// Kafka error that is not retriable.
func (c *Client) retry(ctx context.Context, api string, do func() (addr string, err error)) error {
	var last error
	for attempt := 0; ; attempt++ {
		if attempt > 0 {
			if err := sleep(ctx, backoff(attempt-1)); err != nil {
				return c.unavailable(api, err, last)
			}
		}
		addr, err := do()
		if err == nil {
			return nil
		}
		var ke *kafka.Error
		var me *kafka.MalformedError
		if errors.As(err, &ke) || errors.As(err, &me) {
			return err
		}
		fe, permanent := c.failure(err, addr, api)
		if permanent {
			return fe
		}
		var kerrErr *kerr.Error
		if errors.As(err, &kerrErr) && !kerrErr.Retriable {
			return NewKafkaError(kerrErr.Code, nil)
		}
		if ctx.Err() != nil {
			return c.unavailable(api, ctx.Err(), last)
		}
		last = fe
	}
}
