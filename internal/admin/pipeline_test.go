//go:build unix

package admin_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/benchtest"
	"github.com/kstreams-groups/kstreams-groups/internal/describe"
	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	tt "github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
)

// The describe --topology pipeline from the bytes of a StreamsGroupDescribe
// answer to every output format: kmsg decodes them, admin converts the
// group, describe builds the result and format renders it, as
// kstreams-groups does after the answer arrived.

// pipelineChildEnv makes the test binary run the pipeline once, for the
// peak memory of a process that does nothing else (see TestMain).
const pipelineChildEnv = "KSTREAMS_GROUPS_PIPELINE_CHILD"

func TestMain(m *testing.M) {
	if spec := os.Getenv(pipelineChildEnv); spec != "" {
		var file, o string
		if _, err := fmt.Sscanf(spec, "%s %s", &file, &o); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		raw, err := os.ReadFile(file)
		if err == nil {
			// Hand the bytes over, as kgo does: they are garbage once
			// decoded.
			err = describePipelineWith(answerClient{raw: &raw, drop: true}, format.Output(o), io.Discard)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		benchtest.WritePeak()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// describeAnswer is a StreamsGroupDescribe v1 answer for one Stable group
// whose AVAILABLE description has about nodes nodes.
func describeAnswer(nodes int) []byte {
	resp := kmsg.NewPtrStreamsGroupDescribeResponse()
	resp.SetVersion(1)
	g := kmsg.NewStreamsGroupDescribeResponseGroup()
	g.Group, g.State, g.Epoch, g.AssignmentEpoch = "big-app", "Stable", 3, 3
	g.Topology = &kmsg.StreamsGroupDescribeResponseGroupTopology{Epoch: 1}
	g.TopologyDescriptionStatus = 3 // AVAILABLE
	g.TopologyDescription = tt.ToWire(tt.Large(nodes))
	resp.Groups = append(resp.Groups, g)
	return resp.AppendTo(nil)
}

// answerClient serves describe.Run the decoded answer; with drop, the
// bytes are let go once decoded.
type answerClient struct {
	describe.Client
	raw  *[]byte
	drop bool
	// version is the answer's version; 0 means 1.
	version int16
}

func (c answerClient) DescribeStreamsGroups(_ context.Context, _ []string, includeTopology bool) []admin.DescribedGroup {
	version := c.version
	if version == 0 && includeTopology {
		version = 1
	}
	out, err := admin.DecodeStreamsGroupDescribe(*c.raw, version, includeTopology)
	if c.drop {
		*c.raw = nil
	}
	if err != nil {
		return []admin.DescribedGroup{{Group: "big-app", Err: &kafka.MalformedError{Reason: err.Error()}}}
	}
	return out
}

// decodeOnly stops the pipeline before rendering: the cost of kmsg's
// decoding and the model, which every format pays.
const decodeOnly format.Output = "decode-only"

// describePipeline is --describe --topology --group big-app -o o from the
// answer's bytes.
func describePipeline(raw []byte, o format.Output, w io.Writer) error {
	return describePipelineWith(answerClient{raw: &raw}, o, w)
}

func describePipelineWith(c answerClient, o format.Output, w io.Writer) error {
	res, err := describe.Run(context.Background(), c, describe.Options{Groups: []string{"big-app"}, Topology: true})
	if err != nil {
		return err
	}
	g := res.Groups[0]
	if g.Err != nil {
		return g.Err
	}
	switch {
	case o == decodeOnly:
		return nil
	case o == format.Text:
		return format.WriteTopologyBlock(w, g, false, nil)
	case o.Graph():
		return format.TopologyGraph(w, o, g.Group, g.Topology)
	}
	return format.Encode(w, o, format.NewDescribeDoc(res))
}

// BenchmarkDescribeTopologyPipeline times the pipeline for every format at
// 100,000 and 1,000,000 nodes, and reports the peak memory of a process
// that runs it once (peak-MB, and peak/input: the multiple of the answer's
// size; the budget is 4).
func BenchmarkDescribeTopologyPipeline(b *testing.B) {
	for _, nodes := range []int{100_000, 1_000_000} {
		raw := describeAnswer(nodes)
		file := filepath.Join(b.TempDir(), "answer.bin")
		if err := os.WriteFile(file, raw, 0o600); err != nil {
			b.Fatal(err)
		}
		for _, o := range append([]format.Output{decodeOnly}, format.AllowedOutputs()...) {
			if o.Picture() || o == format.Prometheus {
				continue // a picture lays out the dot output (Graphviz, not ours); no topology has metrics
			}
			b.Run(fmt.Sprintf("%s/%d", o, nodes), func(b *testing.B) {
				for b.Loop() {
					if err := describePipeline(raw, o, io.Discard); err != nil {
						b.Fatal(err)
					}
				}
				b.SetBytes(int64(len(raw)))
				benchtest.ReportChild(b, pipelineChildEnv+"="+file+" "+string(o), int64(len(raw)))
			})
		}
	}
}
