package coordrecords

// The values' fields in schema order, read or written by the coder given;
// each struct of a flexible version ends with its tagged-field section.

// keyValues codes a []KeyValue; nil when nullable and null.
func keyValues(c coder, v *[]KeyValue, nullable bool) {
	array(c, v, 3, nullable, func(c coder, kv *KeyValue) {
		c.compactString(&kv.Key)
		c.compactString(&kv.Value)
		c.tags()
	})
}

func (v *GroupMetadata) code(c coder) {
	c.int32(&v.Epoch)
	c.int64(&v.MetadataHash)
	c.tags(
		tagged{0, v.ValidatedTopologyEpoch != -1, func(c coder) { c.int32(&v.ValidatedTopologyEpoch) }},
		// Kafka writes none for an empty list too.
		tagged{1, len(v.LastAssignmentConfigs) > 0, func(c coder) { keyValues(c, &v.LastAssignmentConfigs, true) }},
		tagged{2, v.StoredDescriptionTopologyEpoch != -1, func(c coder) { c.int32(&v.StoredDescriptionTopologyEpoch) }},
		tagged{3, v.FailedDescriptionTopologyEpoch != -1, func(c coder) { c.int32(&v.FailedDescriptionTopologyEpoch) }},
	)
}

func (v *MemberMetadata) code(c coder) {
	c.compactNullableString(&v.InstanceID)
	c.compactNullableString(&v.RackID)
	c.compactString(&v.ClientID)
	c.compactString(&v.ClientHost)
	c.int32(&v.RebalanceTimeoutMs)
	c.int32(&v.TopologyEpoch)
	c.compactString(&v.ProcessID)
	if c.present(v.UserEndpoint != nil) {
		if v.UserEndpoint == nil {
			v.UserEndpoint = &Endpoint{}
		}
		c.compactString(&v.UserEndpoint.Host)
		c.uint16(&v.UserEndpoint.Port)
		c.tags()
	}
	keyValues(c, &v.ClientTags, false)
	c.tags()
}

func (v *TargetAssignmentMetadata) code(c coder) {
	c.int32(&v.AssignmentEpoch)
	c.tags(tagged{0, v.AssignmentTimestamp != 0, func(c coder) { c.int64(&v.AssignmentTimestamp) }})
}

// taskIDs codes one []TaskIds; epochs tells whether the struct has the
// AssignmentEpochs tag (the current assignment's TaskIds).
func taskIDs(c coder, v *[]TaskIDs, epochs bool) {
	array(c, v, 3, false, func(c coder, t *TaskIDs) {
		c.compactString(&t.SubtopologyID)
		int32s(c, &t.Partitions, false)
		if !epochs {
			c.tags()
			return
		}
		c.tags(tagged{0, t.AssignmentEpochs != nil, func(c coder) { int32s(c, &t.AssignmentEpochs, true) }})
	})
}

func (v *TargetAssignmentMember) code(c coder) {
	for _, set := range []*[]TaskIDs{&v.ActiveTasks, &v.StandbyTasks, &v.WarmupTasks} {
		taskIDs(c, set, false)
	}
	c.tags()
}

func (v *CurrentMemberAssignment) code(c coder) {
	c.int32(&v.MemberEpoch)
	c.int32(&v.PreviousMemberEpoch)
	c.int8(&v.State)
	for _, set := range []*[]TaskIDs{&v.ActiveTasks, &v.StandbyTasks, &v.WarmupTasks,
		&v.ActiveTasksPendingRevocation, &v.StandbyTasksPendingRevocation, &v.WarmupTasksPendingRevocation} {
		taskIDs(c, set, true)
	}
	c.tags()
}

func topicInfos(c coder, v *[]TopicInfo) {
	array(c, v, 8, false, func(c coder, t *TopicInfo) {
		c.compactString(&t.Name)
		c.int32(&t.Partitions)
		c.int16(&t.ReplicationFactor)
		keyValues(c, &t.TopicConfigs, false)
		c.tags()
	})
}

func (v *Topology) code(c coder) {
	c.int32(&v.Epoch)
	array(c, &v.Subtopologies, 8, false, func(c coder, s *Subtopology) {
		c.compactString(&s.SubtopologyID)
		compactStrings(c, &s.SourceTopics)
		compactStrings(c, &s.SourceTopicRegex)
		topicInfos(c, &s.StateChangelogTopics)
		compactStrings(c, &s.RepartitionSinkTopics)
		topicInfos(c, &s.RepartitionSourceTopics)
		array(c, &s.CopartitionGroups, 4, false, func(c coder, g *CopartitionGroup) {
			int16s(c, &g.SourceTopics)
			int16s(c, &g.SourceTopicRegex)
			int16s(c, &g.RepartitionSourceTopics)
			c.tags()
		})
		c.tags()
	})
	c.tags()
}
