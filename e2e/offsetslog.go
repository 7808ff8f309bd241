//go:build e2e

package e2e

import (
	"context"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// This file reads __consumer_offsets raw, for the capture of real streams-group records
// (testdata/history/real-4.4.0) and for checks on what the coordinator wrote. It is test
// tooling: the product's own decoder is internal/…; nothing here is shared with it, so a
// mistake in one is not hidden by the same mistake in the other.

// OffsetsTopic is the group coordinator's log.
const OffsetsTopic = "__consumer_offsets"

// Streams-group record types (the key's version field; Kafka 4.4.0's group-coordinator
// common/message/StreamsGroup*Key.json "apiKey"). 18 (StreamsGroupPartitionMetadata) is gone
// in 4.4.0.
const (
	RecOffsetCommit                  int16 = 1
	RecGroupMetadata                 int16 = 2
	RecStreamsGroupMetadata          int16 = 17
	RecStreamsGroupMemberMetadata    int16 = 19
	RecStreamsGroupTargetAssignMeta  int16 = 20
	RecStreamsGroupTargetAssignMem   int16 = 21
	RecStreamsGroupCurrentAssignment int16 = 22
	RecStreamsGroupTopology          int16 = 23
)

// RecordTypeName names a coordinator record type, for logs and the capture's README.
func RecordTypeName(t int16) string {
	switch t {
	case 0:
		return "LegacyOffsetCommit"
	case RecOffsetCommit:
		return "OffsetCommit"
	case RecGroupMetadata:
		return "GroupMetadata"
	case RecStreamsGroupMetadata:
		return "StreamsGroupMetadata"
	case RecStreamsGroupMemberMetadata:
		return "StreamsGroupMemberMetadata"
	case RecStreamsGroupTargetAssignMeta:
		return "StreamsGroupTargetAssignmentMetadata"
	case RecStreamsGroupTargetAssignMem:
		return "StreamsGroupTargetAssignmentMember"
	case RecStreamsGroupCurrentAssignment:
		return "StreamsGroupCurrentMemberAssignment"
	case RecStreamsGroupTopology:
		return "StreamsGroupTopology"
	}
	return fmt.Sprintf("type-%d", t)
}

// IsStreamsRecordType reports whether t is one of the streams-group record types.
func IsStreamsRecordType(t int16) bool {
	switch t {
	case RecStreamsGroupMetadata, RecStreamsGroupMemberMetadata, RecStreamsGroupTargetAssignMeta,
		RecStreamsGroupTargetAssignMem, RecStreamsGroupCurrentAssignment, RecStreamsGroupTopology:
		return true
	}
	return false
}

// RawRecord is one __consumer_offsets record as the capture files hold it ([]byte marshals
// to base64; a nil Value, a tombstone, to null).
type RawRecord struct {
	Offset      int64  `json:"offset"`
	TimestampMs int64  `json:"timestamp_ms"`
	Key         []byte `json:"key"`
	Value       []byte `json:"value"`
}

// KeyType is the record type (the key's leading int16), -1 for a key too short to hold one.
func (r RawRecord) KeyType() int16 {
	if len(r.Key) < 2 {
		return -1
	}
	return int16(binary.BigEndian.Uint16(r.Key))
}

// KeyGroup is the group id every group coordinator key starts with (a non-flexible string:
// int16 length, bytes), "" when the key does not hold one.
func (r RawRecord) KeyGroup() string {
	if len(r.Key) < 4 {
		return ""
	}
	n := int(int16(binary.BigEndian.Uint16(r.Key[2:])))
	if n < 0 || 4+n > len(r.Key) {
		return ""
	}
	return string(r.Key[4 : 4+n])
}

// ValueVersion is the value's leading int16, -1 for a tombstone.
func (r RawRecord) ValueVersion() int16 {
	if len(r.Value) < 2 {
		return -1
	}
	return int16(binary.BigEndian.Uint16(r.Value))
}

// JavaStringHash is Java's String.hashCode (over UTF-16 code units).
func JavaStringHash(s string) int32 {
	var h int32
	for _, r := range s {
		if r >= 0x10000 {
			r -= 0x10000
			h = 31*h + int32(0xD800+(r>>10))
			h = 31*h + int32(0xDC00+(r&0x3FF))
			continue
		}
		h = 31*h + int32(r)
	}
	return h
}

// CoordinatorPartition is the __consumer_offsets partition of group, as Kafka computes it:
// Utils.abs(groupId.hashCode()) % partitions (Utils.abs maps MinInt32 to 0).
func CoordinatorPartition(group string, partitions int32) int32 {
	h := JavaStringHash(group)
	if h == -1<<31 {
		h = 0
	} else if h < 0 {
		h = -h
	}
	return h % partitions
}

// ReadOffsetsPartition reads every record of group's __consumer_offsets partition, from the
// log start to the high watermark at the time of the call, in log order.
func ReadOffsetsPartition(ctx context.Context, b *Broker, group string) ([]RawRecord, int32, error) {
	meta := kmsg.NewPtrMetadataRequest()
	mt := kmsg.NewMetadataRequestTopic()
	mt.Topic = kmsg.StringPtr(OffsetsTopic)
	meta.Topics = append(meta.Topics, mt)
	mresp, err := meta.RequestWith(ctx, b.Client())
	if err != nil {
		return nil, 0, err
	}
	if len(mresp.Topics) != 1 || mresp.Topics[0].ErrorCode != 0 {
		return nil, 0, fmt.Errorf("metadata of %s: %v", OffsetsTopic, mresp.Topics)
	}
	partition := CoordinatorPartition(group, int32(len(mresp.Topics[0].Partitions)))

	lo := kmsg.NewPtrListOffsetsRequest()
	lt := kmsg.NewListOffsetsRequestTopic()
	lt.Topic = OffsetsTopic
	lp := kmsg.NewListOffsetsRequestTopicPartition()
	lp.Partition, lp.Timestamp = partition, -1 // latest: the high watermark
	lt.Partitions = append(lt.Partitions, lp)
	lo.Topics = append(lo.Topics, lt)
	lresp, err := lo.RequestWith(ctx, b.Client())
	if err != nil {
		return nil, partition, err
	}
	p := lresp.Topics[0].Partitions[0]
	if err := kerr.ErrorForCode(p.ErrorCode); err != nil {
		return nil, partition, err
	}
	end := p.Offset

	cl, err := kgo.NewClient(kgo.SeedBrokers(b.Addr),
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{OffsetsTopic: {partition: kgo.NewOffset().AtStart()}}),
		kgo.FetchMaxWait(200*time.Millisecond))
	if err != nil {
		return nil, partition, err
	}
	defer cl.Close()
	var out []RawRecord
	next := int64(0)
	for next < end {
		// A quiet poll ends the read: what is left below the high watermark is then
		// transaction markers, which a consumer never sees.
		pctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		fs := cl.PollFetches(pctx)
		cancel()
		if err := ctx.Err(); err != nil {
			return out, partition, fmt.Errorf("reading %s-%d up to %d: at %d: %w", OffsetsTopic, partition, end, next, err)
		}
		if pctx.Err() != nil && fs.NumRecords() == 0 {
			break
		}
		for _, fe := range fs.Errors() {
			if fe.Err != context.DeadlineExceeded {
				return out, partition, fmt.Errorf("reading %s-%d: %w", OffsetsTopic, partition, fe.Err)
			}
		}
		fs.EachRecord(func(r *kgo.Record) {
			next = r.Offset + 1
			if r.Offset < end {
				out = append(out, RawRecord{Offset: r.Offset, TimestampMs: r.Timestamp.UnixMilli(), Key: r.Key, Value: r.Value})
			}
		})
	}
	return out, partition, nil
}
