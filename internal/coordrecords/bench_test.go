package coordrecords

import (
	"encoding/hex"
	"testing"
)

// BenchmarkCodec decodes and encodes back every record of
// testdata/java-encoded.jsonl: the codec's cost per record set. It is why
// each value keeps its own reader and writer: one field table read and
// written by the same code was 160 lines shorter but took 13-18 µs and
// 233 allocations per set against 11.5-13.5 µs and 164 (issue 32's
// budget: no benchmark slower by more than 10%).
func BenchmarkCodec(b *testing.B) {
	var keys, values [][]byte
	for _, l := range readJavaLinesTB(b) {
		k, _ := hex.DecodeString(l.Key)
		var v []byte
		if l.Value != nil {
			v, _ = hex.DecodeString(*l.Value)
		}
		keys, values = append(keys, k), append(values, v)
	}
	b.ReportAllocs()
	for b.Loop() {
		for i, key := range keys {
			k, err := DecodeKey(key)
			if err != nil {
				b.Fatal(err)
			}
			v, err := DecodeValue(k.Type, values[i])
			if err != nil {
				b.Fatal(err)
			}
			_ = EncodeKey(k)
			_ = EncodeValue(v)
		}
	}
}
