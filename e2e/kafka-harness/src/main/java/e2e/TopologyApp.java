package e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.regex.Pattern;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.GlobalKTable;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.TopicNameExtractor;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * A small Kafka Streams application (streams rebalance protocol, KIP-1071) for the end-to-end suite.
 *
 * <p>Arguments are {@code key=value} pairs:
 * <ul>
 *   <li>{@code bootstrap=HOST:PORT} (required)</li>
 *   <li>{@code app-id=ID} (required; the streams group id)</li>
 *   <li>{@code topology=wordcount|globalstore|dynamicsink|pattern} (required), or one of the
 *       {@code diff-*} topologies of {@link DiffTopologies}, or {@code hostile-names}
 *       ({@link HostileNames}: Processor API node names holding ", ", brackets, quotes, colons). {@code pattern} (a
 *       Pattern-subscribed source) cannot run with group.protocol=streams in Kafka 4.4.0
 *       ("Pattern subscriptions are not supported with the STREAMS protocol."); it is kept for
 *       {@code describe-only=true}. {@code dynamicsink} is the runnable variant (two-topic source
 *       list + TopicNameExtractor sink).</li>
 *   <li>{@code push=true|false} ({@code topology.description.push.enabled}, default true)</li>
 *   <li>{@code state-dir=DIR} (default: a fresh temp dir)</li>
 *   <li>{@code describe-out=FILE} (optional; {@code topology.describe().toString()} is written there)</li>
 *   <li>{@code create-topics=true|false} (default true; creates the topology's input/output topics
 *       with Admin before starting, ignoring "already exists")</li>
 *   <li>{@code topic-prefix=P} (optional; {@code wordcount} reads {@code P}wc-input and writes
 *       {@code P}wc-output, so tests on one broker keep their topics apart)</li>
 *   <li>{@code describe-only=true} (print the description and exit without connecting)</li>
 *   <li>{@code offset-reset=earliest|latest} (optional; the consumers' {@code auto.offset.reset},
 *       Kafka Streams' default earliest when absent)</li>
 * </ul>
 * Lines on stdout: {@code E2E-STATE <old> -> <new>} on every state change. SIGTERM closes the app
 * with {@code CloseOptions.groupMembershipOperation(LEAVE_GROUP)}, so the member leaves at once.
 */
public final class TopologyApp {

    private TopologyApp() { }

    // The prefix of wordcount's topics (topic-prefix=), set before build and topicsFor.
    static String wcPrefix = "";

    /** The topics each topology needs: input topics first, then output topics. */
    static List<String> topicsFor(String topology) {
        switch (topology) {
            case "wordcount":
                return List.of(wcPrefix + "wc-input", wcPrefix + "wc-output");
            case "globalstore":
                return List.of("gs-input", "gs-global", "gs-output");
            case "pattern":
            case "dynamicsink":
                return List.of("pt-input-a", "pt-input-b", "pt-output-a", "pt-output-b");
            case "diff-base":
            case "diff-filter":
            case "diff-pinned":
            case "diff-named":
            case "diff-source":
            case "diff-sink":
                return DiffTopologies.topics();
            case "many":
                return ManySubtopologies.topics();
            case HostileNames.NAME:
                return HostileNames.topics();
            default:
                throw new IllegalArgumentException("unknown topology '" + topology + "' (wordcount|globalstore|dynamicsink|pattern)");
        }
    }

    static Topology build(String topology) {
        StreamsBuilder builder = new StreamsBuilder();
        switch (topology) {
            case "diff-base":
            case "diff-filter":
            case "diff-pinned":
            case "diff-named":
            case "diff-source":
            case "diff-sink":
                return DiffTopologies.build(topology);
            case HostileNames.NAME:
                return HostileNames.build();
            case "wordcount": {
                // source -> flatMapValues -> groupBy (repartition) -> count -> toStream -> sink
                KStream<String, String> lines = builder.stream(wcPrefix + "wc-input", Consumed.with(Serdes.String(), Serdes.String()));
                lines.flatMapValues(v -> Arrays.asList(v.toLowerCase(Locale.ROOT).split("\\W+")))
                    .groupBy((k, word) -> word, Grouped.with(Serdes.String(), Serdes.String()))
                    .count(Materialized.<String, Long>as(Stores.inMemoryKeyValueStore("word-counts"))
                        .withKeySerde(Serdes.String()).withValueSerde(Serdes.Long()))
                    .toStream()
                    .to(wcPrefix + "wc-output", Produced.with(Serdes.String(), Serdes.Long()));
                break;
            }
            case "globalstore": {
                // a stream joined with a GlobalKTable (global store), then a sink
                GlobalKTable<String, String> global = builder.globalTable("gs-global",
                    Consumed.with(Serdes.String(), Serdes.String()),
                    Materialized.<String, String>as(Stores.inMemoryKeyValueStore("gs-global-store"))
                        .withKeySerde(Serdes.String()).withValueSerde(Serdes.String()));
                KStream<String, String> in = builder.stream("gs-input", Consumed.with(Serdes.String(), Serdes.String()));
                in.join(global, (k, v) -> k, (v, g) -> v + "/" + g)
                    .to("gs-output", Produced.with(Serdes.String(), Serdes.String()));
                break;
            }
            case "pattern": {
                // a Pattern-subscribed source and a dynamic sink (TopicNameExtractor)
                KStream<String, String> in = builder.stream(Pattern.compile("pt-input-.*"),
                    Consumed.with(Serdes.String(), Serdes.String()));
                TopicNameExtractor<String, String> extractor = new SuffixExtractor();
                in.mapValues(v -> v.toUpperCase(Locale.ROOT))
                    .to(extractor, Produced.with(Serdes.String(), Serdes.String()));
                break;
            }
            case "dynamicsink": {
                // a source on two topics and a dynamic sink (TopicNameExtractor)
                KStream<String, String> in = builder.stream(List.of("pt-input-a", "pt-input-b"),
                    Consumed.with(Serdes.String(), Serdes.String()));
                TopicNameExtractor<String, String> extractor = new SuffixExtractor();
                in.mapValues(v -> v.toUpperCase(Locale.ROOT))
                    .to(extractor, Produced.with(Serdes.String(), Serdes.String()));
                break;
            }
            case "many":
                ManySubtopologies.build(builder);
                break;
            default:
                throw new IllegalArgumentException("unknown topology '" + topology + "' (wordcount|globalstore|dynamicsink|pattern)");
        }
        return builder.build();
    }

    /** Routes records from pt-input-X to pt-output-X. A named class so describe() prints a stable name. */
    public static final class SuffixExtractor implements TopicNameExtractor<String, String> {
        @Override
        public String extract(String key, String value, org.apache.kafka.streams.processor.RecordContext ctx) {
            String t = ctx.topic();
            return t != null && t.endsWith("-b") ? "pt-output-b" : "pt-output-a";
        }

        /** Topology#describe() prints the extractor's toString(); keep it stable (no identity hash). */
        @Override
        public String toString() {
            return "SuffixExtractor";
        }
    }

    static Map<String, String> parseArgs(String[] args) {
        Map<String, String> m = new HashMap<>();
        for (String a : args) {
            int i = a.indexOf('=');
            if (i <= 0) {
                throw new IllegalArgumentException("argument must be key=value: " + a);
            }
            m.put(a.substring(0, i), a.substring(i + 1));
        }
        return m;
    }

    static String required(Map<String, String> m, String key) {
        String v = m.get(key);
        if (v == null || v.isEmpty()) {
            throw new IllegalArgumentException("missing required argument " + key + "=...");
        }
        return v;
    }

    static void createTopics(String bootstrap, List<String> topics) throws InterruptedException, ExecutionException {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(p)) {
            List<NewTopic> newTopics = new ArrayList<>();
            for (String t : topics) {
                newTopics.add(new NewTopic(t, 1, (short) 1));
            }
            var result = admin.createTopics(newTopics);
            for (var e : result.values().entrySet()) {
                try {
                    e.getValue().get();
                } catch (ExecutionException ex) {
                    if (!(ex.getCause() instanceof TopicExistsException)) {
                        throw ex;
                    }
                }
            }
        }
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> a = parseArgs(args);
        String topologyName = required(a, "topology");
        wcPrefix = a.getOrDefault("topic-prefix", "");
        Topology topology = build(topologyName);
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

        String bootstrap = required(a, "bootstrap");
        String appId = required(a, "app-id");
        if (Boolean.parseBoolean(a.getOrDefault("create-topics", "true"))) {
            createTopics(bootstrap, topicsFor(topologyName));
        }

        Path stateDir = a.containsKey("state-dir")
            ? Paths.get(a.get("state-dir"))
            : Files.createTempDirectory("e2e-streams-state-");

        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, appId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, "streams");
        props.put(StreamsConfig.TOPOLOGY_DESCRIPTION_PUSH_ENABLED_CONFIG, a.getOrDefault("push", "true"));
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class.getName());
        props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class.getName());
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "200");
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, "1");
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, "0");
        if (a.containsKey("offset-reset")) {
            props.put(StreamsConfig.consumerPrefix(org.apache.kafka.clients.consumer.ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), a.get("offset-reset"));
        }

        KafkaStreams streams = new KafkaStreams(topology, props);
        CountDownLatch closed = new CountDownLatch(1);
        streams.setStateListener((newState, oldState) -> {
            System.out.println("E2E-STATE " + oldState + " -> " + newState);
            System.out.flush();
        });
        streams.setUncaughtExceptionHandler(e -> {
            System.out.println("E2E-UNCAUGHT " + e);
            System.out.flush();
            return org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                .withTimeout(Duration.ofSeconds(20)));
            System.out.println("E2E-CLOSED");
            System.out.flush();
            closed.countDown();
        }, "e2e-shutdown"));
        streams.start();
        System.out.println("E2E-STARTED " + appId + " " + topologyName);
        System.out.flush();
        closed.await();
    }
}
