package e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;

import org.apache.kafka.coordinator.group.api.streams.StreamsGroupTopologyDescription;
import org.apache.kafka.coordinator.group.api.streams.StreamsGroupTopologyDescriptionPlugin;
import org.apache.kafka.coordinator.group.api.streams.StreamsTopologyDescriptionPermanentFailureException;
import org.apache.kafka.coordinator.group.api.streams.StreamsTopologyDescriptionTransientFailureException;
import org.apache.kafka.server.streams.InMemoryTopologyDescriptionPlugin;

/**
 * Fault-injecting topology description plugin for the end-to-end suite.
 *
 * <p>Healthy calls are delegated to Kafka's own {@link InMemoryTopologyDescriptionPlugin}.
 * Faults are switched at run time (no broker restart) through a plain-text fault file whose path
 * is the broker config key {@value #FAULT_FILE_CONFIG} (server.properties; Kafka passes unknown
 * keys to {@link #configure(Map)}). The file is re-read on every call. Each non-empty,
 * non-comment line is {@code <operation> [<group-id regex>]}, where operation is one of
 * {@code get}, {@code delete}, {@code set}, {@code set-transient}; a missing regex matches
 * every group. A missing or empty file means healthy.
 *
 * <p>Failures are injected only by completing the returned future exceptionally (never by
 * throwing), with messages starting with {@value #MESSAGE_PREFIX}.
 */
public class FailingTopologyPlugin implements StreamsGroupTopologyDescriptionPlugin {

    public static final String FAULT_FILE_CONFIG = "e2e.plugin.fault.file";
    public static final String MESSAGE_PREFIX = "e2e injected failure";

    private final InMemoryTopologyDescriptionPlugin delegate = new InMemoryTopologyDescriptionPlugin();
    private volatile Path faultFile;

    @Override
    public void configure(Map<String, ?> configs) {
        delegate.configure(configs);
        Object path = configs.get(FAULT_FILE_CONFIG);
        if (path == null) {
            path = System.getProperty(FAULT_FILE_CONFIG);
        }
        faultFile = path == null ? null : Paths.get(path.toString());
        System.err.println("[e2e.FailingTopologyPlugin] configured, fault file = " + faultFile);
    }

    private boolean faulty(String operation, String groupId) {
        Path file = faultFile;
        if (file == null) {
            return false;
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return false;
        } catch (IOException e) {
            System.err.println("[e2e.FailingTopologyPlugin] cannot read fault file " + file + ": " + e);
            return false;
        }
        for (String raw : lines) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] parts = line.split("\\s+", 2);
            if (!parts[0].equals(operation)) {
                continue;
            }
            if (parts.length == 1 || Pattern.matches(parts[1], groupId)) {
                return true;
            }
        }
        return false;
    }

    private static <T> CompletableFuture<T> fail(RuntimeException e) {
        return CompletableFuture.failedFuture(e);
    }

    @Override
    public CompletableFuture<Void> setTopology(String groupId, int topologyEpoch, StreamsGroupTopologyDescription description) {
        if (faulty("set", groupId)) {
            return fail(new StreamsTopologyDescriptionPermanentFailureException(
                MESSAGE_PREFIX + ": setTopology(" + groupId + ", " + topologyEpoch + ") permanent"));
        }
        if (faulty("set-transient", groupId)) {
            return fail(new StreamsTopologyDescriptionTransientFailureException(
                MESSAGE_PREFIX + ": setTopology(" + groupId + ", " + topologyEpoch + ") transient"));
        }
        return delegate.setTopology(groupId, topologyEpoch, description);
    }

    @Override
    public CompletableFuture<Void> deleteTopology(String groupId) {
        if (faulty("delete", groupId)) {
            return fail(new RuntimeException(MESSAGE_PREFIX + ": deleteTopology(" + groupId + ")"));
        }
        return delegate.deleteTopology(groupId);
    }

    @Override
    public CompletableFuture<StreamsGroupTopologyDescription> getTopology(String groupId, int topologyEpoch) {
        if (faulty("get", groupId)) {
            return fail(new RuntimeException(MESSAGE_PREFIX + ": getTopology(" + groupId + ", " + topologyEpoch + ")"));
        }
        return delegate.getTopology(groupId, topologyEpoch);
    }

    @Override
    public void close() throws Exception {
        delegate.close();
    }
}
