package e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
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
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.Stores;

/**
 * One instance of the application behind the history end-to-end test (e2e/history_test.go)
 * and the capture of real streams-group records (testdata/history/real-4.4.0): a table read
 * from the input topic into an in-memory store, written on to the output topic.
 *
 * <p>Why this topology: it has a store (so the broker has standbys to place) but no internal
 * topic. With {@code topology.optimization=all} the source topic is the store's changelog, so
 * increasing the input topic's partitions gives the group more tasks and nothing else: no
 * repartition or changelog topic whose partition count would then disagree.
 *
 * <p>{@code topology=rich} is instead a topology whose record carries every part of the
 * StreamsGroupTopology schema the decoder must read: a stream-table join of {@code input=} and
 * {@code input2=} (a copartition group), a re-keyed count (a repartition topic) and stores with
 * changelog topics (with topic configs); its instance also sets {@code client.rack} and a client
 * tag, so the member metadata carries them.
 *
 * <p>Arguments are {@code key=value} pairs: {@code bootstrap=}, {@code app-id=},
 * {@code state-dir=}, {@code input=}, {@code output=}, and optionally {@code instance-id=} (the
 * main consumer's {@code group.instance.id}: a static member; Kafka Streams appends the thread's
 * number, so the member's instance id is {@code <id>-1}), {@code application-server=HOST:PORT},
 * {@code topology=rich} with {@code input2=}, {@code rack=} and {@code client-tag=KEY:VALUE}.
 * On SIGTERM a dynamic member leaves the group (LEAVE_GROUP); a static member closes with
 * REMAIN_IN_GROUP, so that a restart within the session timeout is a rejoin of the same
 * instance.
 *
 * <p>Lines on stdout: {@code E2E-STATE <old> -> <new>}, {@code E2E-STARTED}, {@code E2E-CLOSED}.
 */
public final class HistoryApp {

    private HistoryApp() { }

    static final String STORE = "hist-table";

    static Topology build(String input, String output, Properties props) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.table(input, Consumed.with(Serdes.String(), Serdes.String()),
                Materialized.<String, String>as(Stores.inMemoryKeyValueStore(STORE))
                    .withKeySerde(Serdes.String()).withValueSerde(Serdes.String()))
            .toStream()
            .to(output, Produced.with(Serdes.String(), Serdes.String()));
        return builder.build(props);
    }

    static Topology buildRich(String input, String input2, String output, Properties props) {
        StreamsBuilder builder = new StreamsBuilder();
        KStream<String, String> left = builder.stream(input, Consumed.with(Serdes.String(), Serdes.String()));
        KTable<String, String> right = builder.table(input2, Consumed.with(Serdes.String(), Serdes.String()),
            Materialized.<String, String>as(Stores.inMemoryKeyValueStore("rich-right"))
                .withKeySerde(Serdes.String()).withValueSerde(Serdes.String()));
        left.join(right, (l, r) -> l + "/" + r).to(output, Produced.with(Serdes.String(), Serdes.String()));
        left.selectKey((k, v) -> v)
            .groupByKey(Grouped.with("rich-by-value", Serdes.String(), Serdes.String()))
            .count(Materialized.<String, Long>as(Stores.inMemoryKeyValueStore("rich-counts"))
                .withKeySerde(Serdes.String()).withValueSerde(Serdes.Long()))
            .toStream()
            .mapValues(String::valueOf)
            .to(output, Produced.with(Serdes.String(), Serdes.String()));
        return builder.build(props);
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> a = TopologyApp.parseArgs(args);
        String bootstrap = TopologyApp.required(a, "bootstrap");
        String appId = TopologyApp.required(a, "app-id");
        String input = TopologyApp.required(a, "input");
        String output = TopologyApp.required(a, "output");
        String instanceId = a.get("instance-id");
        Path stateDir = a.containsKey("state-dir") ? Paths.get(a.get("state-dir")) : Files.createTempDirectory("e2e-history-");

        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, appId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, "streams");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "500");
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, "1");
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, "0");
        props.put(StreamsConfig.TOPOLOGY_OPTIMIZATION_CONFIG, StreamsConfig.OPTIMIZE);
        if (a.containsKey("application-server")) {
            props.put(StreamsConfig.APPLICATION_SERVER_CONFIG, a.get("application-server"));
        }
        if (instanceId != null && !instanceId.isEmpty()) {
            props.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG), instanceId);
        }
        boolean isStatic = instanceId != null && !instanceId.isEmpty();

        if (a.containsKey("rack")) {
            // Kafka Streams 4.4.0 sends the rack from the unprefixed client.rack (a main.consumer. one is not sent).
            props.put(ConsumerConfig.CLIENT_RACK_CONFIG, a.get("rack"));
        }
        if (a.containsKey("client-tag")) {
            String[] kv = a.get("client-tag").split(":", 2);
            props.put(StreamsConfig.clientTagPrefix(kv[0]), kv[1]);
        }
        boolean rich = "rich".equals(a.get("topology"));
        if (rich) {
            props.remove(StreamsConfig.TOPOLOGY_OPTIMIZATION_CONFIG); // the store keeps a changelog topic of its own
        }
        Topology topology = rich
            ? buildRich(input, TopologyApp.required(a, "input2"), output, props)
            : build(input, output, props);
        KafkaStreams streams = new KafkaStreams(topology, props);
        CountDownLatch closed = new CountDownLatch(1);
        streams.setStateListener((newState, oldState) -> {
            System.out.println("E2E-STATE " + oldState + " -> " + newState);
            System.out.flush();
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            CloseOptions.GroupMembershipOperation op = isStatic
                ? CloseOptions.GroupMembershipOperation.REMAIN_IN_GROUP
                : CloseOptions.GroupMembershipOperation.LEAVE_GROUP;
            streams.close(CloseOptions.groupMembershipOperation(op).withTimeout(Duration.ofSeconds(20)));
            System.out.println("E2E-CLOSED");
            System.out.flush();
            closed.countDown();
        }, "e2e-shutdown"));
        streams.start();
        System.out.println("E2E-STARTED " + appId + (isStatic ? " static " + instanceId : " dynamic"));
        System.out.flush();
        closed.await();
    }
}
