package e2e;

import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.common.protocol.ApiKeys;

/**
 * Fail-fast check that the classpath is a KIP-1331 Kafka (4.4.0+): prints what it found and exits
 * 0 if everything is there, 3 otherwise, naming each missing piece on stderr.
 */
public final class Probe {
    private Probe() { }

    /** AppInfoParser moved to common.utils.internals in 4.x; read the version reflectively from either. */
    static String kafkaVersion() {
        for (String cls : new String[] {"org.apache.kafka.common.utils.internals.AppInfoParser",
                                        "org.apache.kafka.common.utils.AppInfoParser"}) {
            try {
                return (String) Class.forName(cls).getMethod("getVersion").invoke(null);
            } catch (ReflectiveOperationException e) {
                // try the next one
            }
        }
        return "unknown";
    }

    public static void main(String[] args) {
        List<String> missing = new ArrayList<>();
        String version = kafkaVersion();
        System.out.println("kafka.version=" + version);

        short describe = ApiKeys.STREAMS_GROUP_DESCRIBE.latestVersion();
        System.out.println("StreamsGroupDescribe.latestVersion=" + describe);
        if (describe < 1) {
            missing.add("StreamsGroupDescribe v1 (latest is v" + describe + ")");
        }
        short deleteGroups = ApiKeys.DELETE_GROUPS.latestVersion();
        System.out.println("DeleteGroups.latestVersion=" + deleteGroups);
        if (deleteGroups < 3) {
            missing.add("DeleteGroups v3 (latest is v" + deleteGroups + ")");
        }
        short heartbeat = ApiKeys.STREAMS_GROUP_HEARTBEAT.latestVersion();
        System.out.println("StreamsGroupHeartbeat.latestVersion=" + heartbeat);
        if (heartbeat < 1) {
            missing.add("StreamsGroupHeartbeat v1 (latest is v" + heartbeat + ")");
        }
        boolean hasUpdate = false;
        for (ApiKeys k : ApiKeys.values()) {
            if (k.id == 93) {
                hasUpdate = true;
                System.out.println("apiKey93=" + k.name);
            }
        }
        if (!hasUpdate) {
            missing.add("api key 93 StreamsGroupTopologyDescriptionUpdate");
        }
        for (String cls : new String[] {
            "org.apache.kafka.server.streams.InMemoryTopologyDescriptionPlugin",
            "org.apache.kafka.coordinator.group.api.streams.StreamsGroupTopologyDescriptionPlugin",
            "org.apache.kafka.common.message.StreamsGroupTopologyDescriptionUpdateRequestData",
            "org.apache.kafka.common.errors.GroupDeletionFailedException",
            "org.apache.kafka.tools.streams.StreamsGroupCommand",
        }) {
            try {
                Class.forName(cls, false, Probe.class.getClassLoader());
                System.out.println("class.ok=" + cls);
            } catch (ClassNotFoundException e) {
                missing.add("class " + cls);
            }
        }
        if (!missing.isEmpty()) {
            System.err.println("KIP-1331 is missing from this Kafka " + version + " classpath: " + String.join("; ", missing));
            System.exit(3);
        }
        System.out.println("KIP-1331 probe OK");
    }
}
