package format

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// indentJSON writes what json.Indent writes, for any valid JSON in
// encoding/json's compact form.
func FuzzIndentJSON(f *testing.F) {
	for _, s := range []string{
		`{}`, `[]`, `{"a":[]}`, `[{},[],{"":""}]`, `"x"`, `-1.5e+10`, `null`, `true`,
		`{"a\"b\\":"c\\\\\"d","n":[1,2,{"k":false}],"e":{}}`,
		`{"deep":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}`,
		`["\\", "\\\"", "a,b:c{d}[e]"]`, "{\"\u2028\":\"\u00e9\\u0000\"}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return
		}
		var compact bytes.Buffer
		require.NoError(t, json.Compact(&compact, data))
		var want bytes.Buffer
		require.NoError(t, json.Indent(&want, compact.Bytes(), "", "  "))
		want.WriteByte('\n')
		got, err := indentJSON(nil, compact.Bytes(), nil)
		require.NoError(t, err)
		require.Equal(t, want.String(), string(got))
		var streamed bytes.Buffer
		_, err = indentJSON(make([]byte, 0, 8), compact.Bytes(), &streamed)
		require.NoError(t, err)
		require.Equal(t, want.String(), streamed.String())
	})
}

// A document of many chunks is written in pieces, the same bytes; a
// failed write ends it with the error.
func TestIndentJSON_chunks(t *testing.T) {
	compact := largeCompactJSON(t)
	var want bytes.Buffer
	require.NoError(t, json.Indent(&want, compact, "", "  "))
	want.WriteByte('\n')
	w := &countingWriter{}
	_, err := indentJSON(nil, compact, w)
	require.NoError(t, err)
	require.Greater(t, w.writes, 10)
	require.Equal(t, want.String(), w.buf.String())
	_, err = indentJSON(nil, compact, failingWriter{})
	require.ErrorIs(t, err, errWrite)
}

type countingWriter struct {
	buf    bytes.Buffer
	writes int
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.writes++
	return w.buf.Write(p)
}

var errWrite = errors.New("write failed")

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errWrite }

// largeCompactJSON is largeDocument's compact JSON, about 2 MB.
func largeCompactJSON(tb testing.TB) []byte {
	compact, err := json.Marshal(largeDocument())
	require.NoError(tb, err)
	return compact
}

// largeDocument is an overview-like document of 20,000 rows.
func largeDocument() any {
	type row struct {
		Topic     string `json:"topic"`
		Partition int    `json:"partition"`
		Lag       int64  `json:"lag"`
		Time      struct {
			Ms    *int64 `json:"milliseconds"`
			Exact bool   `json:"records_exact"`
		} `json:"time_lag"`
		Empty []int `json:"empty"`
	}
	rows := make([]row, 20000)
	for i := range rows {
		rows[i].Topic = "app-007-in-\"quoted\"-topic"
		rows[i].Partition, rows[i].Lag = i%16, int64(i)
	}
	return map[string]any{"groups": []any{map[string]any{"rows": rows}}}
}

// BenchmarkIndentJSON compares indentJSON with encoding/json's
// indentation on the compact form of a large overview-like document.
func BenchmarkIndentJSON(b *testing.B) {
	compact := largeCompactJSON(b)
	b.Run("indentJSON", func(b *testing.B) {
		b.SetBytes(int64(len(compact)))
		var out []byte
		for b.Loop() {
			out, _ = indentJSON(out[:0], compact, nil)
		}
	})
	b.Run("json.Indent", func(b *testing.B) {
		b.SetBytes(int64(len(compact)))
		var out bytes.Buffer
		for b.Loop() {
			out.Reset()
			_ = json.Indent(&out, compact, "", "  ")
		}
	})
}
