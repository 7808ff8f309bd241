package coordrecords

// The values' fields in schema order; each struct of a flexible version
// ends with its tagged-field section.

// readKeyValues reads a []KeyValue; nil when nullable and null.
func readKeyValues(r *reader, nullable bool) []KeyValue {
	n := r.arrayLen(3, nullable)
	if n < 0 {
		return nil
	}
	out := make([]KeyValue, n)
	for i := range out {
		out[i] = KeyValue{Key: r.compactString(), Value: r.compactString()}
		r.noTags()
	}
	return out
}

func writeKeyValues(w *writer, kvs []KeyValue) {
	w.uvarint(len(kvs) + 1)
	for _, kv := range kvs {
		w.compactString(kv.Key)
		w.compactString(kv.Value)
		w.tags()
	}
}

func readGroupMetadata(r *reader) *GroupMetadata {
	v := NewGroupMetadata()
	v.Epoch = r.int32()
	v.MetadataHash = r.int64()
	r.tags(func(tag uint64, f *reader) {
		switch tag {
		case 0:
			v.ValidatedTopologyEpoch = f.int32()
		case 1:
			v.LastAssignmentConfigs = readKeyValues(f, true)
		case 2:
			v.StoredDescriptionTopologyEpoch = f.int32()
		case 3:
			v.FailedDescriptionTopologyEpoch = f.int32()
		}
	})
	return v
}

func writeGroupMetadata(w *writer, v *GroupMetadata) {
	w.int32(v.Epoch)
	w.int64(v.MetadataHash)
	var tags []tagged
	if v.ValidatedTopologyEpoch != -1 {
		tags = append(tags, tagged{0, func(w *writer) { w.int32(v.ValidatedTopologyEpoch) }})
	}
	if len(v.LastAssignmentConfigs) > 0 { // Kafka writes none for an empty list too
		tags = append(tags, tagged{1, func(w *writer) { writeKeyValues(w, v.LastAssignmentConfigs) }})
	}
	if v.StoredDescriptionTopologyEpoch != -1 {
		tags = append(tags, tagged{2, func(w *writer) { w.int32(v.StoredDescriptionTopologyEpoch) }})
	}
	if v.FailedDescriptionTopologyEpoch != -1 {
		tags = append(tags, tagged{3, func(w *writer) { w.int32(v.FailedDescriptionTopologyEpoch) }})
	}
	w.tags(tags...)
}

func readMemberMetadata(r *reader) *MemberMetadata {
	v := &MemberMetadata{}
	v.InstanceID = r.compactNullableString()
	v.RackID = r.compactNullableString()
	v.ClientID = r.compactString()
	v.ClientHost = r.compactString()
	v.RebalanceTimeoutMs = r.int32()
	v.TopologyEpoch = r.int32()
	v.ProcessID = r.compactString()
	if r.int8() >= 0 && r.err == nil {
		v.UserEndpoint = &Endpoint{Host: r.compactString(), Port: r.uint16()}
		r.noTags()
	}
	v.ClientTags = readKeyValues(r, false)
	r.noTags()
	return v
}

func writeMemberMetadata(w *writer, v *MemberMetadata) {
	w.compactNullableString(v.InstanceID)
	w.compactNullableString(v.RackID)
	w.compactString(v.ClientID)
	w.compactString(v.ClientHost)
	w.int32(v.RebalanceTimeoutMs)
	w.int32(v.TopologyEpoch)
	w.compactString(v.ProcessID)
	if v.UserEndpoint == nil {
		w.int8(-1)
	} else {
		w.int8(1)
		w.compactString(v.UserEndpoint.Host)
		w.int16(int16(v.UserEndpoint.Port))
		w.tags()
	}
	writeKeyValues(w, v.ClientTags)
	w.tags()
}

func readTargetAssignmentMetadata(r *reader) *TargetAssignmentMetadata {
	v := &TargetAssignmentMetadata{AssignmentEpoch: r.int32()}
	r.tags(func(tag uint64, f *reader) {
		if tag == 0 {
			v.AssignmentTimestamp = f.int64()
		}
	})
	return v
}

func writeTargetAssignmentMetadata(w *writer, v *TargetAssignmentMetadata) {
	w.int32(v.AssignmentEpoch)
	if v.AssignmentTimestamp != 0 {
		w.tags(tagged{0, func(w *writer) { w.int64(v.AssignmentTimestamp) }})
		return
	}
	w.tags()
}

// readTaskIDs reads one []TaskIds; epochs tells whether the struct has the
// AssignmentEpochs tag (the current assignment's TaskIds).
func readTaskIDs(r *reader, epochs bool) []TaskIDs {
	n := r.arrayLen(3, false)
	out := make([]TaskIDs, n)
	for i := range out {
		t := &out[i]
		t.SubtopologyID = r.compactString()
		t.Partitions = r.int32s(false)
		r.tags(func(tag uint64, f *reader) {
			if epochs && tag == 0 {
				t.AssignmentEpochs = f.int32s(true)
			}
		})
	}
	return out
}

func writeTaskSets(w *writer, epochs bool, sets ...[]TaskIDs) {
	for _, set := range sets {
		w.uvarint(len(set) + 1)
		for _, t := range set {
			w.compactString(t.SubtopologyID)
			w.int32s(t.Partitions)
			if epochs && t.AssignmentEpochs != nil {
				w.tags(tagged{0, func(w *writer) { w.int32s(t.AssignmentEpochs) }})
				continue
			}
			w.tags()
		}
	}
}

func readTargetAssignmentMember(r *reader) *TargetAssignmentMember {
	v := &TargetAssignmentMember{ActiveTasks: readTaskIDs(r, false), StandbyTasks: readTaskIDs(r, false), WarmupTasks: readTaskIDs(r, false)}
	r.noTags()
	return v
}

func readCurrentMemberAssignment(r *reader) *CurrentMemberAssignment {
	v := &CurrentMemberAssignment{MemberEpoch: r.int32(), PreviousMemberEpoch: r.int32(), State: r.int8()}
	v.ActiveTasks = readTaskIDs(r, true)
	v.StandbyTasks = readTaskIDs(r, true)
	v.WarmupTasks = readTaskIDs(r, true)
	v.ActiveTasksPendingRevocation = readTaskIDs(r, true)
	v.StandbyTasksPendingRevocation = readTaskIDs(r, true)
	v.WarmupTasksPendingRevocation = readTaskIDs(r, true)
	r.noTags()
	return v
}

func readTopicInfos(r *reader) []TopicInfo {
	n := r.arrayLen(8, false)
	out := make([]TopicInfo, n)
	for i := range out {
		out[i] = TopicInfo{Name: r.compactString(), Partitions: r.int32(), ReplicationFactor: r.int16(), TopicConfigs: readKeyValues(r, false)}
		r.noTags()
	}
	return out
}

func writeTopicInfos(w *writer, ts []TopicInfo) {
	w.uvarint(len(ts) + 1)
	for _, t := range ts {
		w.compactString(t.Name)
		w.int32(t.Partitions)
		w.int16(t.ReplicationFactor)
		writeKeyValues(w, t.TopicConfigs)
		w.tags()
	}
}

func readTopology(r *reader) *Topology {
	v := &Topology{Epoch: r.int32()}
	n := r.arrayLen(8, false)
	v.Subtopologies = make([]Subtopology, n)
	for i := range v.Subtopologies {
		s := &v.Subtopologies[i]
		s.SubtopologyID = r.compactString()
		s.SourceTopics = r.strings()
		s.SourceTopicRegex = r.strings()
		s.StateChangelogTopics = readTopicInfos(r)
		s.RepartitionSinkTopics = r.strings()
		s.RepartitionSourceTopics = readTopicInfos(r)
		m := r.arrayLen(4, false)
		s.CopartitionGroups = make([]CopartitionGroup, m)
		for j := range s.CopartitionGroups {
			s.CopartitionGroups[j] = CopartitionGroup{SourceTopics: r.int16s(), SourceTopicRegex: r.int16s(), RepartitionSourceTopics: r.int16s()}
			r.noTags()
		}
		r.noTags()
	}
	r.noTags()
	return v
}

func writeTopology(w *writer, v *Topology) {
	w.int32(v.Epoch)
	w.uvarint(len(v.Subtopologies) + 1)
	for _, s := range v.Subtopologies {
		w.compactString(s.SubtopologyID)
		w.strings(s.SourceTopics)
		w.strings(s.SourceTopicRegex)
		writeTopicInfos(w, s.StateChangelogTopics)
		w.strings(s.RepartitionSinkTopics)
		writeTopicInfos(w, s.RepartitionSourceTopics)
		w.uvarint(len(s.CopartitionGroups) + 1)
		for _, g := range s.CopartitionGroups {
			w.int16s(g.SourceTopics)
			w.int16s(g.SourceTopicRegex)
			w.int16s(g.RepartitionSourceTopics)
			w.tags()
		}
		w.tags()
	}
	w.tags()
}
