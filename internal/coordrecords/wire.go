package coordrecords

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// errShort is a record that ends inside a field.
var errShort = errors.New("record ends inside a field")

// reader reads Kafka's message encoding: big-endian integers, and in
// flexible versions compact strings and arrays and tagged-field sections.
// The first error sticks; every later read returns zero values.
type reader struct {
	b   []byte
	err error
}

func (r *reader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

func (r *reader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.b) {
		r.fail(errShort)
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) int8() int8 {
	if b := r.take(1); b != nil {
		return int8(b[0])
	}
	return 0
}

func (r *reader) int16() int16 {
	if b := r.take(2); b != nil {
		return int16(binary.BigEndian.Uint16(b))
	}
	return 0
}

func (r *reader) uint16() uint16 { return uint16(r.int16()) }

func (r *reader) int32() int32 {
	if b := r.take(4); b != nil {
		return int32(binary.BigEndian.Uint32(b))
	}
	return 0
}

func (r *reader) int64() int64 {
	if b := r.take(8); b != nil {
		return int64(binary.BigEndian.Uint64(b))
	}
	return 0
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 || v > math.MaxInt32 {
		r.fail(errors.New("bad unsigned varint"))
		return 0
	}
	r.b = r.b[n:]
	return v
}

// string16 is a non-flexible string (the keys): int16 length, bytes.
func (r *reader) string16() string {
	n := r.int16()
	if n < 0 {
		r.fail(errors.New("null string in a key"))
		return ""
	}
	return string(r.take(int(n)))
}

// compactLen reads a compact length (n+1; 0 is null): -1 for null.
func (r *reader) compactLen() int {
	return int(r.uvarint()) - 1
}

func (r *reader) compactString() string {
	n := r.compactLen()
	if n < 0 {
		r.fail(errors.New("null in a non-nullable string"))
		return ""
	}
	return string(r.take(n))
}

func (r *reader) compactNullableString() *string {
	n := r.compactLen()
	if n < 0 || r.err != nil {
		return nil
	}
	s := string(r.take(n))
	return &s
}

// arrayLen reads a compact array's length, bounded by the bytes left (each
// element takes at least min bytes); nullable tells whether null (-1) is
// allowed.
func (r *reader) arrayLen(min int, nullable bool) int {
	n := r.compactLen()
	switch {
	case r.err != nil:
		return 0
	case n < 0 && !nullable:
		r.fail(errors.New("null in a non-nullable array"))
		return 0
	case n > len(r.b)/max(min, 1):
		r.fail(fmt.Errorf("array of %d elements in %d bytes", n, len(r.b)))
		return 0
	}
	return n
}

func (r *reader) int32s(nullable bool) []int32 {
	n := r.arrayLen(4, nullable)
	if n < 0 || r.err != nil {
		return nil
	}
	out := make([]int32, n)
	for i := range out {
		out[i] = r.int32()
	}
	return out
}

func (r *reader) int16s() []int16 {
	n := r.arrayLen(2, false)
	out := make([]int16, n)
	for i := range out {
		out[i] = r.int16()
	}
	return out
}

func (r *reader) strings() []string {
	n := r.arrayLen(1, false)
	out := make([]string, n)
	for i := range out {
		out[i] = r.compactString()
	}
	return out
}

// tags reads a tagged-field section, handing each field's bytes to fn
// (a reader of its own); unknown tags are skipped, as Kafka skips them.
func (r *reader) tags(fn func(tag uint64, f *reader)) {
	n := r.uvarint()
	last := int64(-1)
	for range n {
		tag := r.uvarint()
		size := r.uvarint()
		data := r.take(int(size))
		if r.err != nil {
			return
		}
		if int64(tag) <= last {
			r.fail(errors.New("tagged fields out of order"))
			return
		}
		last = int64(tag)
		f := &reader{b: data}
		fn(tag, f)
		if f.err != nil {
			r.fail(fmt.Errorf("tagged field %d: %w", tag, f.err))
		}
	}
}

// noTags reads a tagged-field section of a struct that defines none.
func (r *reader) noTags() { r.tags(func(uint64, *reader) {}) }

// writer is reader's counterpart.
type writer struct{ b []byte }

func (w *writer) int8(v int8)   { w.b = append(w.b, byte(v)) }
func (w *writer) int16(v int16) { w.b = binary.BigEndian.AppendUint16(w.b, uint16(v)) }
func (w *writer) int32(v int32) { w.b = binary.BigEndian.AppendUint32(w.b, uint32(v)) }
func (w *writer) int64(v int64) { w.b = binary.BigEndian.AppendUint64(w.b, uint64(v)) }
func (w *writer) uvarint(v int) { w.b = binary.AppendUvarint(w.b, uint64(v)) }

func (w *writer) string16(s string) {
	w.int16(int16(len(s)))
	w.b = append(w.b, s...)
}

func (w *writer) compactString(s string) {
	w.uvarint(len(s) + 1)
	w.b = append(w.b, s...)
}

func (w *writer) compactNullableString(s *string) {
	if s == nil {
		w.uvarint(0)
		return
	}
	w.compactString(*s)
}

func (w *writer) int32s(v []int32) {
	w.uvarint(len(v) + 1)
	for _, x := range v {
		w.int32(x)
	}
}

func (w *writer) int16s(v []int16) {
	w.uvarint(len(v) + 1)
	for _, x := range v {
		w.int16(x)
	}
}

func (w *writer) strings(v []string) {
	w.uvarint(len(v) + 1)
	for _, s := range v {
		w.compactString(s)
	}
}

// tagged is one tagged field to write: its tag and encoder.
type tagged struct {
	tag   int
	write func(*writer)
}

// tags writes a tagged-field section of the fields given (in tag order).
func (w *writer) tags(fields ...tagged) {
	w.uvarint(len(fields))
	for _, f := range fields {
		var inner writer
		f.write(&inner)
		w.uvarint(f.tag)
		w.uvarint(len(inner.b))
		w.b = append(w.b, inner.b...)
	}
}
