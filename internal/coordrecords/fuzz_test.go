package coordrecords

import (
	"encoding/hex"
	"testing"
)

// FuzzDecode: no key or value, however broken, panics or is read past
// its end; what decodes encodes back to something that decodes the same.
func FuzzDecode(f *testing.F) {
	for _, l := range readJavaLinesF(f) {
		k, _ := hex.DecodeString(l.Key)
		var v []byte
		if l.Value != nil {
			v, _ = hex.DecodeString(*l.Value)
		}
		f.Add(k, v)
	}
	f.Fuzz(func(t *testing.T, key, value []byte) {
		k, err := DecodeKey(key)
		if err != nil || !IsStreams(k.Type) {
			return
		}
		v, err := DecodeValue(k.Type, value)
		if err != nil || v == nil {
			return
		}
		again, err := DecodeValue(k.Type, EncodeValue(v))
		if err != nil {
			t.Fatalf("re-encoded value does not decode: %v", err)
		}
		if again.RecordType() != v.RecordType() {
			t.Fatalf("type %d became %d", v.RecordType(), again.RecordType())
		}
	})
}

func readJavaLinesF(f *testing.F) []javaLine { return readJavaLinesTB(f) }
