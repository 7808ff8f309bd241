// Writes streams-group coordinator records with Kafka 4.4.0's own generated
// message classes, one JSON line each: {"name","key","value"} in hex
// ("value" null for a tombstone). Run by gen.sh; its output is
// ../java-encoded.jsonl, the codec's byte-exact reference.
import java.util.*;
import org.apache.kafka.common.protocol.*;
import org.apache.kafka.coordinator.group.generated.*;

public class Gen {
    static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) sb.append(String.format("%02x", x));
        return sb.toString();
    }
    static void out(String name, ApiMessage key, ApiMessage value) {
        String v = value == null ? "null" : "\"" + hex(MessageUtil.toVersionPrefixedBytes((short) 0, value)) + "\"";
        System.out.println("{\"name\":\"" + name + "\",\"key\":\"" + hex(MessageUtil.toCoordinatorTypePrefixedBytes(key)) + "\",\"value\":" + v + "}");
    }
    public static void main(String[] a) {
        out("metadata-defaults", new StreamsGroupMetadataKey().setGroupId("app"),
            new StreamsGroupMetadataValue().setEpoch(3).setMetadataHash(-1234567890123L));
        out("metadata-tagged", new StreamsGroupMetadataKey().setGroupId("app"),
            new StreamsGroupMetadataValue().setEpoch(7).setMetadataHash(42L).setValidatedTopologyEpoch(0)
                .setLastAssignmentConfigs(List.of(
                    new StreamsGroupMetadataValue.LastAssignmentConfig().setKey("num.standby.replicas").setValue("1"),
                    new StreamsGroupMetadataValue.LastAssignmentConfig().setKey("num.warmup.replicas").setValue("2")))
                .setStoredDescriptionTopologyEpoch(-2).setFailedDescriptionTopologyEpoch(5));
        out("metadata-empty-configs", new StreamsGroupMetadataKey().setGroupId("app"),
            new StreamsGroupMetadataValue().setEpoch(1).setMetadataHash(0L).setLastAssignmentConfigs(List.of()));
        out("metadata-tombstone", new StreamsGroupMetadataKey().setGroupId("app"), null);
        out("member-static", new StreamsGroupMemberMetadataKey().setGroupId("app").setMemberId("m-1"),
            new StreamsGroupMemberMetadataValue().setInstanceId("inst-a").setRackId("rack1").setClientId("app-client-StreamThread-1")
                .setClientHost("/10.0.0.1").setRebalanceTimeoutMs(300000).setTopologyEpoch(0).setProcessId("p-1")
                .setUserEndpoint(new StreamsGroupMemberMetadataValue.Endpoint().setHost("h1").setPort(65535))
                .setClientTags(List.of(new StreamsGroupMemberMetadataValue.KeyValue().setKey("zone").setValue("a"))));
        out("member-dynamic", new StreamsGroupMemberMetadataKey().setGroupId("app").setMemberId("m-2"),
            new StreamsGroupMemberMetadataValue().setClientId("c").setClientHost("/127.0.0.1").setTopologyEpoch(1).setProcessId("p-2"));
        out("member-tombstone", new StreamsGroupMemberMetadataKey().setGroupId("app").setMemberId("m-2"), null);
        out("target-metadata", new StreamsGroupTargetAssignmentMetadataKey().setGroupId("app"),
            new StreamsGroupTargetAssignmentMetadataValue().setAssignmentEpoch(7).setAssignmentTimestamp(1765000000123L));
        out("target-metadata-no-time", new StreamsGroupTargetAssignmentMetadataKey().setGroupId("app"),
            new StreamsGroupTargetAssignmentMetadataValue().setAssignmentEpoch(2));
        out("target-metadata-tombstone", new StreamsGroupTargetAssignmentMetadataKey().setGroupId("app"), null);
        out("target-member", new StreamsGroupTargetAssignmentMemberKey().setGroupId("app").setMemberId("m-1"),
            new StreamsGroupTargetAssignmentMemberValue()
                .setActiveTasks(List.of(new StreamsGroupTargetAssignmentMemberValue.TaskIds().setSubtopologyId("0").setPartitions(List.of(0, 2))))
                .setStandbyTasks(List.of(new StreamsGroupTargetAssignmentMemberValue.TaskIds().setSubtopologyId("1").setPartitions(List.of(1))))
                .setWarmupTasks(List.of()));
        out("target-member-tombstone", new StreamsGroupTargetAssignmentMemberKey().setGroupId("app").setMemberId("m-1"), null);
        out("current-assignment", new StreamsGroupCurrentMemberAssignmentKey().setGroupId("app").setMemberId("m-1"),
            new StreamsGroupCurrentMemberAssignmentValue().setMemberEpoch(7).setPreviousMemberEpoch(6).setState((byte) 2)
                .setActiveTasks(List.of(new StreamsGroupCurrentMemberAssignmentValue.TaskIds().setSubtopologyId("0").setPartitions(List.of(0, 2)).setAssignmentEpochs(List.of(5, 7))))
                .setStandbyTasks(List.of(new StreamsGroupCurrentMemberAssignmentValue.TaskIds().setSubtopologyId("0").setPartitions(List.of(1))))
                .setWarmupTasks(List.of(new StreamsGroupCurrentMemberAssignmentValue.TaskIds().setSubtopologyId("1").setPartitions(List.of(3))))
                .setActiveTasksPendingRevocation(List.of(new StreamsGroupCurrentMemberAssignmentValue.TaskIds().setSubtopologyId("0").setPartitions(List.of(4))))
                .setStandbyTasksPendingRevocation(List.of())
                .setWarmupTasksPendingRevocation(List.of()));
        out("current-assignment-tombstone", new StreamsGroupCurrentMemberAssignmentKey().setGroupId("app").setMemberId("m-1"), null);
        out("topology", new StreamsGroupTopologyKey().setGroupId("app"),
            new StreamsGroupTopologyValue().setEpoch(0).setSubtopologies(List.of(
                new StreamsGroupTopologyValue.Subtopology().setSubtopologyId("0").setSourceTopics(List.of("input"))
                    .setSourceTopicRegex(List.of()).setRepartitionSinkTopics(List.of("app-rep-repartition"))
                    .setStateChangelogTopics(List.of(new StreamsGroupTopologyValue.TopicInfo().setName("app-store-changelog")
                        .setTopicConfigs(List.of(new StreamsGroupTopologyValue.TopicConfig().setKey("cleanup.policy").setValue("compact")))))
                    .setRepartitionSourceTopics(List.of()).setCopartitionGroups(List.of()),
                new StreamsGroupTopologyValue.Subtopology().setSubtopologyId("1").setSourceTopics(List.of())
                    .setSourceTopicRegex(List.of("in-.*")).setRepartitionSinkTopics(List.of())
                    .setStateChangelogTopics(List.of())
                    .setRepartitionSourceTopics(List.of(new StreamsGroupTopologyValue.TopicInfo().setName("app-rep-repartition").setPartitions(4).setReplicationFactor((short) 3)))
                    .setCopartitionGroups(List.of(new StreamsGroupTopologyValue.CopartitionGroup().setSourceTopics(List.of()).setSourceTopicRegex(List.of((short) 0)).setRepartitionSourceTopics(List.of((short) 0)))))));
        out("topology-tombstone", new StreamsGroupTopologyKey().setGroupId("app"), null);
    }
}
