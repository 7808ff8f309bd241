package e2e;

import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

/**
 * The {@code many} topology of {@link TopologyApp}: {@value #COUNT} independent source, mapValues,
 * sink chains, so Kafka Streams numbers {@value #COUNT} subtopologies (0 to 11). With 11 or more a
 * 4.4.0 broker's task lists show its order of subtopology ids ("10" before "2"), which
 * {@code --describe --members} prints as received.
 */
final class ManySubtopologies {

    /** How many subtopologies the topology has. */
    static final int COUNT = 12;

    private ManySubtopologies() { }

    /** The input topics ms-in-0 to ms-in-11, then the output topics. */
    static List<String> topics() {
        List<String> topics = new ArrayList<>();
        for (int i = 0; i < COUNT; i++) {
            topics.add("ms-in-" + i);
        }
        for (int i = 0; i < COUNT; i++) {
            topics.add("ms-out-" + i);
        }
        return topics;
    }

    static void build(StreamsBuilder builder) {
        for (int i = 0; i < COUNT; i++) {
            builder.stream("ms-in-" + i, Consumed.with(Serdes.String(), Serdes.String()))
                .mapValues(v -> v)
                .to("ms-out-" + i, Produced.with(Serdes.String(), Serdes.String()));
        }
    }
}
