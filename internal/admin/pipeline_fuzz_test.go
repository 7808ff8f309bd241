//go:build unix

package admin_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"
	"go.yaml.in/yaml/v3"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/describe"
	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	tt "github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
)

// offsetsAnswers answers the offsets view's requests with nothing: every
// partition row then has no offsets.
type offsetsAnswers struct{ answerClient }

func (offsetsAnswers) FetchCommittedOffsets(_ context.Context, groups []string) []admin.GroupOffsets {
	out := make([]admin.GroupOffsets, len(groups))
	for i, g := range groups {
		out[i] = admin.GroupOffsets{Group: g}
	}
	return out
}

func (offsetsAnswers) ListOffsets(context.Context, []kafka.TopicPartition, int64) ([]admin.ListedOffset, error) {
	return nil, nil
}

func (offsetsAnswers) LoadTopics(context.Context, []string) {}

// rawControl returns the first control character of s that must not reach
// a terminal: C0 (but LF, and in YAML tab), DEL and C1; in text, also the
// invisible and bidi characters text escapes.
func rawControl(s string, o format.Output) (rune, bool) {
	for _, r := range s {
		switch {
		case r == '\n', r == '\t' && o == format.YAML:
		case r < 0x20, r >= 0x7f && r <= 0x9f:
			return r, true
		case o == format.Text && (r >= 0x200b && r <= 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x2028 || r == 0x2029):
			return r, true
		}
	}
	return 0, false
}

// FuzzDescribePipeline feeds any bytes, as a StreamsGroupDescribe answer of
// v0 or v1, to the pipeline of kstreams-groups: kmsg's decoding, admin's
// model, describe.Run, and every renderer of every view. Nothing panics,
// the documents are valid JSON and YAML, and no raw control character
// reaches the text, dot, mermaid or JSON output.
func FuzzDescribePipeline(f *testing.F) {
	resp := kmsg.NewPtrStreamsGroupDescribeResponse()
	resp.SetVersion(1)
	g := kmsg.NewStreamsGroupDescribeResponseGroup()
	g.Group, g.State, g.Epoch = "g\x1b[31m", "Stable", 3
	g.Topology = &kmsg.StreamsGroupDescribeResponseGroupTopology{Epoch: 1, Subtopologies: []kmsg.StreamsGroupDescribeResponseGroupTopologySubtopology{{SubtopologyID: "0", SourceTopics: []string{"in\r"}}}}
	m := kmsg.NewStreamsGroupDescribeResponseGroupMember()
	m.MemberID, m.ProcessID, m.ClientID, m.ClientHost = "m\u202e", "p\x07", "c\u0085", "/h\x7f"
	m.Assignment.ActiveTasks = []kmsg.TaskIDs{{SubtopologyID: "0", Partitions: []int32{1, 0}}, {SubtopologyID: "10\n", Partitions: []int32{2}}}
	g.Members = []kmsg.StreamsGroupDescribeResponseGroupMember{m}
	g.TopologyDescriptionStatus = 3
	g.TopologyDescription = tt.ToWire(tt.WordCount())
	resp.Groups = append(resp.Groups, g)
	f.Add(resp.AppendTo(nil), true)
	f.Add(describeAnswer(30), true)
	resp.SetVersion(0)
	f.Add(resp.AppendTo(nil), false)
	f.Fuzz(func(t *testing.T, raw []byte, v1 bool) {
		version := int16(0)
		if v1 {
			version = 1
		}
		if _, err := admin.DecodeStreamsGroupDescribe(raw, version, v1); err != nil {
			return // kgo reports an undecodable answer before the model
		}
		for _, opts := range []describe.Options{{Topology: true}, {Members: true}, {Members: true, Verbose: true}, {State: true, Verbose: true}, {Offsets: true, Verbose: true}} {
			opts.AllGroups = false
			opts.Groups = []string{"g"}
			data := raw
			c := offsetsAnswers{answerClient{raw: &data}}
			c.version = version
			res, err := describe.Run(context.Background(), c, opts)
			if err != nil {
				continue
			}
			for _, o := range format.AllowedOutputs() {
				var b bytes.Buffer
				switch {
				case o.Picture(), o == format.Prometheus:
					// A picture is Graphviz's rendering of the dot output
					// checked here (and PNG is binary); a describe has no
					// Prometheus form.
					continue
				case o.Graph() && opts.Topology:
					for _, g := range res.Groups {
						if g.Err == nil && g.Topology != nil {
							if err := format.TopologyGraph(&b, o, g.Group, g.Topology); err != nil {
								t.Fatal(err)
							}
						}
					}
				case o.Graph():
					continue
				case o == format.Text:
					for _, g := range res.Groups {
						if g.Err != nil {
							continue
						}
						var err error
						switch opts.View() {
						case describe.ViewTopology:
							err = format.WriteTopologyBlock(&b, g, true, nil)
						case describe.ViewMembers:
							err = format.MembersText(&b, g, opts.Verbose, nil)
						case describe.ViewState:
							err = format.StateText(&b, g, opts.Verbose, nil)
						default:
							err = format.OffsetsText(&b, g, opts.Verbose, nil)
						}
						if err != nil {
							t.Fatal(err)
						}
					}
				default:
					if err := format.Encode(&b, o, format.NewDescribeDoc(res)); err != nil {
						t.Fatal(err)
					}
					if o == format.JSON && !json.Valid(b.Bytes()) {
						t.Fatalf("invalid JSON: %q", b.String())
					}
					if o == format.YAML {
						var v any
						if err := yaml.Unmarshal(b.Bytes(), &v); err != nil {
							t.Fatalf("invalid YAML: %v\n%q", err, b.String())
						}
					}
				}
				if r, bad := rawControl(b.String(), o); bad {
					t.Fatalf("%s of %v holds the raw control %U:\n%q", o, opts.View(), r, b.String())
				}
			}
		}
	})
}
