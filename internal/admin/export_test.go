package admin

import "github.com/twmb/franz-go/pkg/kmsg"

// DecodeStreamsGroupDescribe is what the client does with a
// StreamsGroupDescribe answer, from its bytes: kmsg decodes them as kgo
// does, then each group becomes the model. For the pipeline benchmarks and
// fuzz targets of the external test package.
func DecodeStreamsGroupDescribe(raw []byte, version int16, includeTopology bool) ([]DescribedGroup, error) {
	resp := kmsg.NewPtrStreamsGroupDescribeResponse()
	resp.SetVersion(version)
	if err := resp.ReadFrom(raw); err != nil {
		return nil, err
	}
	out := make([]DescribedGroup, 0, len(resp.Groups))
	for i := range resp.Groups {
		r := &resp.Groups[i]
		d := DescribedGroup{Group: r.Group, Version: version}
		d.Streams, d.Err = streamsGroupFromWire(r, includeTopology)
		out = append(out, d)
	}
	return out, nil
}
