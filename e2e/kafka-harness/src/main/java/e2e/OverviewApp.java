package e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.Stores;

/**
 * One instance of the application behind {@code kstreams-groups overview}'s end-to-end test
 * (e2e/overview_test.go): a word count (ov-input, 4 partitions, into the in-memory store
 * ov-counts, then ov-output) whose instances set {@code application.server}, ask for one standby
 * per stateful task, and can be paused so that lag builds up and holds still.
 *
 * <p>Arguments are {@code key=value} pairs: {@code bootstrap=}, {@code app-id=}, {@code state-dir=},
 * {@code application-server=HOST:PORT}, {@code pause-file=FILE}, and optionally
 * {@code processing-guarantee=} (e.g. {@code exactly_once_v2}; default at_least_once) and
 * {@code topic-prefix=P} (the topics are {@code P}ov-input and {@code P}ov-output, so tests on one
 * broker keep apart). While the pause file exists, the
 * first record that reaches the gate (right after the source) waits, so the instance consumes
 * nothing further and commits nothing: end minus committed offset stays put. Heartbeats go on
 * from the consumer's background thread, so the member stays in the group.
 *
 * <p>Standbys: with {@code group.protocol=streams}, Kafka Streams 4.4.0 ignores
 * {@code num.standby.replicas} ("Standby replicas are configured broker-side in the streams group
 * protocol and will be ignored", e2e/FINDINGS.md F185), so the app also sets the group config
 * {@code streams.num.standby.replicas=1} with the admin client before it starts. It still sets the
 * client config, as an application moved from the classic protocol would.
 *
 * <p>Lines on stdout: {@code E2E-STATE <old> -> <new>}, {@code E2E-STARTED}, {@code E2E-CLOSED}.
 */
public final class OverviewApp {

    private OverviewApp() { }

    // A test on the shared broker names its own topics with topic-prefix=.
    static String input = "ov-input";
    static String output = "ov-output";
    static final String STORE = "ov-counts";

    private static volatile boolean closing;

    static Topology build(Path pauseFile) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(input, Consumed.with(Serdes.String(), Serdes.String()))
            .peek((k, v) -> gate(pauseFile))
            .flatMapValues(v -> Arrays.asList(v.toLowerCase(Locale.ROOT).split("\\W+")))
            .groupBy((k, word) -> word, Grouped.with(Serdes.String(), Serdes.String()))
            .count(Materialized.<String, Long>as(Stores.inMemoryKeyValueStore(STORE))
                .withKeySerde(Serdes.String()).withValueSerde(Serdes.Long()))
            .toStream()
            .to(output, Produced.with(Serdes.String(), Serdes.Long()));
        return builder.build();
    }

    /** Waits while the pause file exists (and the app is not closing). */
    static void gate(Path pauseFile) {
        while (!closing && pauseFile != null && Files.exists(pauseFile)) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    static void setStandbyReplicas(String bootstrap, String appId) throws Exception {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(p)) {
            ConfigResource group = new ConfigResource(ConfigResource.Type.GROUP, appId);
            AlterConfigOp op = new AlterConfigOp(new ConfigEntry("streams.num.standby.replicas", "1"), AlterConfigOp.OpType.SET);
            admin.incrementalAlterConfigs(Map.of(group, List.of(op))).all().get();
        }
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> a = TopologyApp.parseArgs(args);
        String bootstrap = TopologyApp.required(a, "bootstrap");
        String appId = TopologyApp.required(a, "app-id");
        String server = TopologyApp.required(a, "application-server");
        Path pauseFile = a.containsKey("pause-file") ? Paths.get(a.get("pause-file")) : null;
        Path stateDir = a.containsKey("state-dir") ? Paths.get(a.get("state-dir")) : Files.createTempDirectory("e2e-overview-");

        String prefix = a.getOrDefault("topic-prefix", "");
        input = prefix + input;
        output = prefix + output;
        TopologyApp.createTopics(bootstrap, List.of(output));
        setStandbyReplicas(bootstrap, appId);

        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, appId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, "streams");
        props.put(StreamsConfig.APPLICATION_SERVER_CONFIG, server);
        props.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, "1");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "200");
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, "1");
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, "0");
        if (a.containsKey("processing-guarantee")) {
            props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, a.get("processing-guarantee"));
        }

        KafkaStreams streams = new KafkaStreams(build(pauseFile), props);
        CountDownLatch closed = new CountDownLatch(1);
        streams.setStateListener((newState, oldState) -> {
            System.out.println("E2E-STATE " + oldState + " -> " + newState);
            System.out.flush();
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            closing = true;
            streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                .withTimeout(Duration.ofSeconds(20)));
            System.out.println("E2E-CLOSED");
            System.out.flush();
            closed.countDown();
        }, "e2e-shutdown"));
        streams.start();
        System.out.println("E2E-STARTED " + appId + " " + server);
        System.out.flush();
        closed.await();
    }
}
