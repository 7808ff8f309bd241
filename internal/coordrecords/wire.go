package coordrecords

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// errShort is a record that ends inside a field.
var errShort = errors.New("record ends inside a field")

// coder is the reader or the writer: each value's fields are listed once,
// in schema order (values.go), and read or written by whichever is given.
type coder interface {
	int8(*int8)
	int16(*int16)
	uint16(*uint16)
	int32(*int32)
	int64(*int64)
	compactString(*string)
	compactNullableString(**string)
	// arrayLen is a compact array's length: the writer writes n, the
	// reader reads it (-1 for null) bounded by the bytes left, each
	// element taking at least min bytes.
	arrayLen(n, min int, nullable bool) int
	// present is a nullable struct's marker: the writer writes whether
	// it is set, the reader tells whether it is.
	present(set bool) bool
	// tags is a tagged-field section of the fields given, in tag order.
	tags(fields ...tagged)
}

// tagged is one tagged field: its tag, whether the writer writes it
// (set: not its default), and its coder.
type tagged struct {
	tag  uint64
	set  bool
	code func(coder)
}

// array reads or writes a compact array, each element with elem; a null
// one read leaves *v nil.
func array[T any](c coder, v *[]T, min int, nullable bool, elem func(coder, *T)) {
	n := c.arrayLen(len(*v), min, nullable)
	if n < 0 {
		return
	}
	if _, reading := c.(*reader); reading {
		*v = make([]T, n)
	}
	for i := range *v {
		elem(c, &(*v)[i])
	}
}

func int32s(c coder, v *[]int32, nullable bool) {
	array(c, v, 4, nullable, func(c coder, x *int32) { c.int32(x) })
}

func int16s(c coder, v *[]int16) { array(c, v, 2, false, func(c coder, x *int16) { c.int16(x) }) }

func compactStrings(c coder, v *[]string) { array(c, v, 1, false, coder.compactString) }

// reader reads Kafka's message encoding: big-endian integers, and in
// flexible versions compact strings and arrays and tagged-field sections.
// The first error sticks; every later read leaves its field as it is.
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

func (r *reader) int8(v *int8) {
	if b := r.take(1); b != nil {
		*v = int8(b[0])
	}
}

func (r *reader) int16(v *int16) {
	if b := r.take(2); b != nil {
		*v = int16(binary.BigEndian.Uint16(b))
	}
}

func (r *reader) uint16(v *uint16) {
	if b := r.take(2); b != nil {
		*v = binary.BigEndian.Uint16(b)
	}
}

func (r *reader) int32(v *int32) {
	if b := r.take(4); b != nil {
		*v = int32(binary.BigEndian.Uint32(b))
	}
}

func (r *reader) int64(v *int64) {
	if b := r.take(8); b != nil {
		*v = int64(binary.BigEndian.Uint64(b))
	}
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
func (r *reader) string16(v *string) {
	var n int16
	r.int16(&n)
	if n < 0 {
		r.fail(errors.New("null string in a key"))
		return
	}
	*v = string(r.take(int(n)))
}

// compactLen reads a compact length (n+1; 0 is null): -1 for null.
func (r *reader) compactLen() int {
	return int(r.uvarint()) - 1
}

func (r *reader) compactString(v *string) {
	n := r.compactLen()
	if n < 0 {
		r.fail(errors.New("null in a non-nullable string"))
		return
	}
	*v = string(r.take(n))
}

func (r *reader) compactNullableString(v **string) {
	n := r.compactLen()
	if n < 0 || r.err != nil {
		return
	}
	s := string(r.take(n))
	*v = &s
}

func (r *reader) arrayLen(_, min int, nullable bool) int {
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

func (r *reader) present(bool) bool {
	var marker int8
	r.int8(&marker)
	return marker >= 0 && r.err == nil
}

// tags reads a tagged-field section, each known field from its bytes (a
// reader of its own); unknown tags are skipped, as Kafka skips them.
func (r *reader) tags(fields ...tagged) {
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
		for _, f := range fields {
			if f.tag != tag {
				continue
			}
			fr := &reader{b: data}
			f.code(fr)
			if fr.err != nil {
				r.fail(fmt.Errorf("tagged field %d: %w", tag, fr.err))
			}
		}
	}
}

// writer is reader's counterpart.
type writer struct{ b []byte }

func (w *writer) int8(v *int8)     { w.b = append(w.b, byte(*v)) }
func (w *writer) int16(v *int16)   { w.b = binary.BigEndian.AppendUint16(w.b, uint16(*v)) }
func (w *writer) uint16(v *uint16) { w.b = binary.BigEndian.AppendUint16(w.b, *v) }
func (w *writer) int32(v *int32)   { w.b = binary.BigEndian.AppendUint32(w.b, uint32(*v)) }
func (w *writer) int64(v *int64)   { w.b = binary.BigEndian.AppendUint64(w.b, uint64(*v)) }
func (w *writer) uvarint(v int)    { w.b = binary.AppendUvarint(w.b, uint64(v)) }

func (w *writer) string16(s string) {
	w.b = binary.BigEndian.AppendUint16(w.b, uint16(len(s)))
	w.b = append(w.b, s...)
}

func (w *writer) compactString(s *string) {
	w.uvarint(len(*s) + 1)
	w.b = append(w.b, *s...)
}

func (w *writer) compactNullableString(s **string) {
	if *s == nil {
		w.uvarint(0)
		return
	}
	w.compactString(*s)
}

// arrayLen writes n: the writer never writes a null array.
func (w *writer) arrayLen(n, _ int, _ bool) int {
	w.uvarint(n + 1)
	return n
}

func (w *writer) present(set bool) bool {
	marker := int8(-1)
	if set {
		marker = 1
	}
	w.int8(&marker)
	return set
}

// tags writes the tagged fields that are set.
func (w *writer) tags(fields ...tagged) {
	n := 0
	for _, f := range fields {
		if f.set {
			n++
		}
	}
	w.uvarint(n)
	for _, f := range fields {
		if !f.set {
			continue
		}
		var inner writer
		f.code(&inner)
		w.uvarint(int(f.tag))
		w.uvarint(len(inner.b))
		w.b = append(w.b, inner.b...)
	}
}
