package coordrecords

import (
	"errors"
	"fmt"
)

// UnknownTypeError is a key whose record type Kafka 4.4.0 does not define
// (a newer coordinator's, or one 4.4.0 removed): the record is to be
// skipped and counted.
type UnknownTypeError struct{ Type int16 }

func (e *UnknownTypeError) Error() string {
	return fmt.Sprintf("unknown coordinator record type %d", e.Type)
}

// UnknownVersionError is a streams-group value of a version newer than
// the codec knows: skipped and counted, as a newer coordinator's.
type UnknownVersionError struct{ Type, Version int16 }

func (e *UnknownVersionError) Error() string {
	return fmt.Sprintf("%s value version %d (known: %d)", TypeName(e.Type), e.Version, ValueVersion)
}

// MalformedError is a key or value that does not decode by its schema.
type MalformedError struct {
	Type int16
	Err  error
}

func (e *MalformedError) Error() string {
	name := TypeName(e.Type)
	if name == "" {
		name = fmt.Sprintf("record type %d", e.Type)
	}
	return fmt.Sprintf("malformed %s record: %v", name, e.Err)
}

func (e *MalformedError) Unwrap() error { return e.Err }

// Skippable tells whether err is a record to skip and count (an unknown
// type or a newer version) rather than a broken one.
func Skippable(err error) bool {
	var ut *UnknownTypeError
	var uv *UnknownVersionError
	return errors.As(err, &ut) || errors.As(err, &uv)
}

// DecodeKey reads a coordinator record's key: its type, and for a
// streams-group record the group and member ids. Another known type's key
// is returned with its Type only (the caller skips it unread); a type
// Kafka 4.4.0 does not define is an *UnknownTypeError.
func DecodeKey(b []byte) (Key, error) {
	r := &reader{b: b}
	k := Key{Type: r.int16()}
	if r.err != nil {
		return k, &MalformedError{Type: -1, Err: r.err}
	}
	if !IsStreams(k.Type) {
		if !Known(k.Type) {
			return k, &UnknownTypeError{Type: k.Type}
		}
		return k, nil
	}
	k.GroupID = r.string16()
	if memberScoped(k.Type) {
		k.MemberID = r.string16()
	}
	if r.err != nil {
		return k, &MalformedError{Type: k.Type, Err: r.err}
	}
	return k, nil
}

// Known tells whether Kafka 4.4.0 defines record type t.
func Known(t int16) bool { return t >= 0 && t <= maxKnownType && t != 18 }

// TypeOf reads a key's record type without allocating; false for a key
// too short to hold one.
func TypeOf(key []byte) (int16, bool) {
	if len(key) < 2 {
		return 0, false
	}
	return int16(uint16(key[0])<<8 | uint16(key[1])), true
}

// GroupOf reads, without allocating, the group id of a streams-group
// record's key; ok is false for any other key (or a broken one). It lets
// a reader drop the records of other groups before decoding them.
func GroupOf(key []byte) (group []byte, ok bool) {
	if len(key) < 4 {
		return nil, false
	}
	t := int16(uint16(key[0])<<8 | uint16(key[1]))
	if !IsStreams(t) {
		return nil, false
	}
	n := int(int16(uint16(key[2])<<8 | uint16(key[3])))
	if n < 0 || 4+n > len(key) {
		return nil, false
	}
	return key[4 : 4+n], true
}

// EncodeKey is the key's bytes, as the coordinator writes them.
func EncodeKey(k Key) []byte {
	w := &writer{}
	w.int16(k.Type)
	w.string16(k.GroupID)
	if memberScoped(k.Type) {
		w.string16(k.MemberID)
	}
	return w.b
}

// DecodeValue reads the value of a streams-group record of type t; a nil
// value is a tombstone (nil, nil). A version other than 0 is an
// *UnknownVersionError.
func DecodeValue(t int16, b []byte) (Value, error) {
	if b == nil {
		return nil, nil
	}
	if !IsStreams(t) {
		return nil, &UnknownTypeError{Type: t}
	}
	r := &reader{b: b}
	version := r.int16()
	if r.err != nil {
		return nil, &MalformedError{Type: t, Err: r.err}
	}
	if version > ValueVersion {
		return nil, &UnknownVersionError{Type: t, Version: version}
	}
	if version < 0 {
		return nil, &MalformedError{Type: t, Err: fmt.Errorf("value version %d", version)}
	}
	var v Value
	switch t {
	case TypeStreamsGroupMetadata:
		v = readGroupMetadata(r)
	case TypeStreamsGroupMemberMetadata:
		v = readMemberMetadata(r)
	case TypeStreamsGroupTargetAssignmentMetadata:
		v = readTargetAssignmentMetadata(r)
	case TypeStreamsGroupTargetAssignmentMember:
		v = readTargetAssignmentMember(r)
	case TypeStreamsGroupCurrentMemberAssignment:
		v = readCurrentMemberAssignment(r)
	case TypeStreamsGroupTopology:
		v = readTopology(r)
	}
	if r.err != nil {
		return nil, &MalformedError{Type: t, Err: r.err}
	}
	return v, nil
}

// EncodeValue is the value's bytes at version 0, as a 4.4.0 coordinator
// writes them; a nil value is a tombstone (nil).
func EncodeValue(v Value) []byte {
	if v == nil {
		return nil
	}
	w := &writer{}
	w.int16(ValueVersion)
	switch v := v.(type) {
	case *GroupMetadata:
		writeGroupMetadata(w, v)
	case *MemberMetadata:
		writeMemberMetadata(w, v)
	case *TargetAssignmentMetadata:
		writeTargetAssignmentMetadata(w, v)
	case *TargetAssignmentMember:
		writeTaskSets(w, false, v.ActiveTasks, v.StandbyTasks, v.WarmupTasks)
		w.tags()
	case *CurrentMemberAssignment:
		w.int32(v.MemberEpoch)
		w.int32(v.PreviousMemberEpoch)
		w.int8(v.State)
		writeTaskSets(w, true, v.ActiveTasks, v.StandbyTasks, v.WarmupTasks,
			v.ActiveTasksPendingRevocation, v.StandbyTasksPendingRevocation, v.WarmupTasksPendingRevocation)
		w.tags()
	case *Topology:
		writeTopology(w, v)
	}
	return w.b
}
