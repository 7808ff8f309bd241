package history

import "unicode/utf16"

// OffsetsTopic is the topic that holds the group coordinator's records.
const OffsetsTopic = "__consumer_offsets"

// Partition is the __consumer_offsets partition that holds group's
// records among n, as Kafka computes it: Utils.abs(groupId.hashCode()) % n,
// with Java's String.hashCode over UTF-16 code units.
func Partition(group string, n int) int32 {
	var h int32
	for _, c := range utf16.Encode([]rune(group)) {
		h = 31*h + int32(c)
	}
	if h == -1<<31 { // Utils.abs gives 0 for Integer.MIN_VALUE
		h = 0
	} else if h < 0 {
		h = -h
	}
	return h % int32(n)
}
