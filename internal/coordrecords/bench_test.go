package coordrecords

import (
	"encoding/hex"
	"testing"
)

// BenchmarkCodec decodes and encodes back every record of
// testdata/java-encoded.jsonl: the codec's cost per record set.
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
