package history

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The partitions as Kafka computes them: Java's String.hashCode and
// Utils.abs, the expected values printed by a Java program.
func TestPartition(t *testing.T) {
	for _, tc := range []struct {
		group  string
		n      int
		want   int32
		hashed string // Java's hashCode, for the reader
	}{
		{"", 50, 0, "0"},
		{"a", 50, 47, "97"},
		{"a", 7, 6, "97"},
		{"word-count", 7, 1, "376847500"},
		{"my-app", 7, 2, "-1061206400"},
		{"streams-app-1", 50, 29, "-826511829"},
		{"polygenelubricants", 7, 0, "Integer.MIN_VALUE: Utils.abs gives 0"},
		{"é€😀", 50, 6, "16752006 (a surrogate pair)"},
		{"é€😀", 7, 5, "16752006"},
	} {
		assert.Equal(t, tc.want, Partition(tc.group, tc.n), "%s %% %d (hashCode %s)", tc.group, tc.n, tc.hashed)
	}
}
