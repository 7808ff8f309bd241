package e2e;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.Stores;

/**
 * The application of the upgrade scenarios (issue 33; ../shared/reference/upgrade-migration.md): one
 * build per {@code version=}, each a version a team might deploy after {@code v1}:
 * <ul>
 *   <li>{@code v1}: {@code P}up-in → groupBy(value, {@code Grouped.as("by-key")}) →
 *       count({@code Materialized.as("counts")}) → {@code P}up-out. Sub-topology 0 writes
 *       {@code <app>-by-key-repartition}; sub-topology 1 reads it and keeps {@code counts}.</li>
 *   <li>{@code v2}: the store renamed {@code counts-v2} (a new changelog: the broker refuses it).</li>
 *   <li>{@code v3}: a {@code peek()} added upstream (node names shift, no topic changes: accepted).</li>
 *   <li>{@code v4}: {@code Grouped.as("by-key-v2")} (the repartition topic renamed: refused).</li>
 *   <li>{@code v5}: sources {@code P}up-in and {@code P}up-in-b (a source added: refused).</li>
 * </ul>
 * Arguments are {@code key=value}: {@code bootstrap=}, {@code app-id=}, {@code version=} (required but for
 * {@code describe-only=true}), {@code topic-prefix=P} (so that scenarios share one broker),
 * {@code state-dir=} (default a fresh temp dir: a kept store can only come back from its changelog),
 * {@code describe-out=FILE}, {@code describe-only=true}, {@code commit-interval=MS} (default 300),
 * {@code offset-reset=earliest|latest} (default: Streams' own, earliest). The topics are the test's to
 * create (3 partitions); the application creates none. In-memory store, no cache, one stream thread,
 * {@code group.protocol=streams}. Prints {@code E2E-STATE <old> -> <new>}; SIGTERM closes with
 * LEAVE_GROUP, so the group is Empty at once.
 */
public final class UpgradeApp {

    static final List<String> VERSIONS = List.of("v1", "v2", "v3", "v4", "v5");

    private UpgradeApp() { }

    static Topology build(String version, String prefix) {
        if (!VERSIONS.contains(version)) {
            throw new IllegalArgumentException("unknown version '" + version + "' " + VERSIONS);
        }
        StreamsBuilder builder = new StreamsBuilder();
        List<String> sources = version.equals("v5") ? List.of(prefix + "up-in", prefix + "up-in-b") : List.of(prefix + "up-in");
        KStream<String, String> in = builder.stream(sources, Consumed.with(Serdes.String(), Serdes.String()));
        if (version.equals("v3")) {
            in = in.peek((k, v) -> { });
        }
        String repartition = version.equals("v4") ? "by-key-v2" : "by-key";
        String store = version.equals("v2") ? "counts-v2" : "counts";
        in.groupBy((k, v) -> v, Grouped.<String, String>as(repartition).withKeySerde(Serdes.String()).withValueSerde(Serdes.String()))
            .count(Materialized.<String, Long>as(Stores.inMemoryKeyValueStore(store))
                .withKeySerde(Serdes.String()).withValueSerde(Serdes.Long()))
            .toStream()
            .to(prefix + "up-out", Produced.with(Serdes.String(), Serdes.Long()));
        return builder.build();
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> a = TopologyApp.parseArgs(args);
        Topology topology = build(TopologyApp.required(a, "version"), a.getOrDefault("topic-prefix", ""));
        String description = topology.describe().toString();
        String out = a.get("describe-out");
        if (out != null && !out.isEmpty()) {
            Files.writeString(Paths.get(out), description, StandardCharsets.UTF_8);
        }
        if (Boolean.parseBoolean(a.getOrDefault("describe-only", "false"))) {
            if (out == null || out.isEmpty()) {
                System.out.print(description);
            }
            return;
        }
        String appId = TopologyApp.required(a, "app-id");
        Path stateDir = a.containsKey("state-dir") ? Paths.get(a.get("state-dir")) : Files.createTempDirectory("e2e-upgrade-state-");

        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, appId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, TopologyApp.required(a, "bootstrap"));
        props.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, "streams");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class.getName());
        props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class.getName());
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, a.getOrDefault("commit-interval", "300"));
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, "1");
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, "0");
        if (a.containsKey("offset-reset")) {
            props.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), a.get("offset-reset"));
        }

        KafkaStreams streams = new KafkaStreams(topology, props);
        CountDownLatch closed = new CountDownLatch(1);
        streams.setStateListener((newState, oldState) -> {
            System.out.println("E2E-STATE " + oldState + " -> " + newState);
            System.out.flush();
        });
        // A refused topology kills the stream thread: the client shuts down (ERROR) instead of
        // replacing the thread, so a test sees the refusal once.
        streams.setUncaughtExceptionHandler(e -> {
            System.out.println("E2E-UNCAUGHT " + e);
            System.out.flush();
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                .withTimeout(Duration.ofSeconds(20)));
            System.out.println("E2E-CLOSED");
            System.out.flush();
            closed.countDown();
        }, "e2e-shutdown"));
        streams.start();
        System.out.println("E2E-STARTED " + appId + " " + a.get("version"));
        System.out.flush();
        closed.await();
    }
}
