package playground

import (
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// FuzzHandleFrame feeds arbitrary frames to the request path. handleFrame
// has no recover of its own, so a panic in a decoder or handler fails here;
// serve's recover is only the last line of defence.
func FuzzHandleFrame(f *testing.F) {
	formatter := kmsg.NewRequestFormatter(kmsg.FormatterClientID("fuzz"))
	seed := func(req kmsg.Request) {
		frame := formatter.AppendRequest(nil, req, 7)
		f.Add(frame[4:]) // without the size prefix, as serve passes it
	}
	for v := int16(0); v <= 5; v++ {
		r := kmsg.NewPtrApiVersionsRequest()
		r.Version, r.ClientSoftwareName, r.ClientSoftwareVersion = v, "fuzz", "1"
		seed(r)
	}
	for v := int16(0); v <= 13; v++ {
		r := kmsg.NewPtrMetadataRequest()
		r.Version = v
		r.Topics = []kmsg.MetadataRequestTopic{{Topic: ptr("t")}}
		seed(r)
	}
	for v := int16(0); v <= 6; v++ {
		r := kmsg.NewPtrFindCoordinatorRequest()
		r.Version, r.CoordinatorKey, r.CoordinatorKeys = v, "g", []string{"g", "h"}
		seed(r)
	}
	for v := int16(0); v <= 5; v++ {
		r := kmsg.NewPtrListGroupsRequest()
		r.Version, r.StatesFilter, r.TypesFilter = v, []string{"stable"}, []string{"streams"}
		seed(r)
	}
	for v := int16(0); v <= 3; v++ {
		r := kmsg.NewPtrDeleteGroupsRequest()
		r.Version, r.Groups = v, []string{"fraud-detector", "word-count"}
		seed(r)
	}
	for v := int16(0); v <= 1; v++ {
		r := kmsg.NewPtrStreamsGroupDescribeRequest()
		r.Version, r.Groups, r.IncludeTopologyDescription = v, []string{"word-count", "", "legacy-consumer"}, v == 1
		seed(r)
	}

	c, err := StartState(DefaultState())
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { _ = c.Close() })
	f.Fuzz(func(t *testing.T, frame []byte) {
		for _, n := range c.nodes {
			_, _ = c.handleFrame(n, 0, frame)
		}
		// Keep the log and the groups from growing or emptying.
		c.ResetRequests()
		if len(c.Requests()) > 0 {
			t.Fatal("log not reset")
		}
	})
}
