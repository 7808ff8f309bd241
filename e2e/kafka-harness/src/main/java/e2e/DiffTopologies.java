package e2e;

import java.util.List;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * The topologies of the upgrade-safety checks ({@code kstreams-groups diff}, issue 16): one running
 * application and the builds a team might deploy next. Every variant reads {@code df-input}, re-keys
 * each record by its value (a repartition), counts per key in an in-memory store and writes the counts
 * to {@code df-output}:
 * <ul>
 *   <li>{@code diff-base}: the running application. Nothing is named, so the store, its changelog, the
 *       repartition topic and every node carry auto-generated names.</li>
 *   <li>{@code diff-filter}: {@code diff-base} with a {@code filter()} inserted upstream of the
 *       aggregation. Every generated name after it shifts by one, the store's among them.</li>
 *   <li>{@code diff-pinned}: {@code diff-filter} with the aggregation's store named with
 *       {@link Materialized#as(String)} as {@code diff-base} generated it, so the store, its changelog and
 *       the repartition topic keep their names while the nodes' generated names still shift.</li>
 *   <li>{@code diff-named}: {@code diff-base} with the aggregation's store given a name of its own
 *       ({@code df-counts}).</li>
 *   <li>{@code diff-source}: {@code diff-base} reading {@code df-input-eu} too (an added source topic;
 *       issue 19: the broker refuses it for a {@code diff-base} group).</li>
 *   <li>{@code diff-sink}: {@code diff-base} writing {@code df-output-v2} instead (a changed sink
 *       topic; the broker accepts it).</li>
 * </ul>
 */
final class DiffTopologies {

    /** The store name that {@code diff-base} generates for its count (checked by the e2e test). */
    static final String BASE_STORE = "KSTREAM-AGGREGATE-STATE-STORE-0000000003";

    static final List<String> NAMES = List.of("diff-base", "diff-filter", "diff-pinned", "diff-named", "diff-source", "diff-sink");

    private DiffTopologies() { }

    static boolean has(String name) {
        return NAMES.contains(name);
    }

    /** The topics every variant needs: the input topics, then the output topics. */
    static List<String> topics() {
        return List.of("df-input", "df-input-eu", "df-output", "df-output-v2");
    }

    static Topology build(String name) {
        if (!has(name)) {
            throw new IllegalArgumentException("unknown diff topology '" + name + "' " + NAMES);
        }
        StreamsBuilder builder = new StreamsBuilder();
        List<String> inputs = name.equals("diff-source") ? List.of("df-input", "df-input-eu") : List.of("df-input");
        KStream<String, String> in = builder.stream(inputs, Consumed.with(Serdes.String(), Serdes.String()));
        if (name.equals("diff-filter") || name.equals("diff-pinned")) {
            in = in.filter((k, v) -> v != null && !v.isEmpty());
        }
        KGroupedStream<String, String> grouped = in.groupBy((k, v) -> v, Grouped.with(Serdes.String(), Serdes.String()));
        KTable<String, Long> counts;
        switch (name) {
            case "diff-pinned":
                counts = grouped.count(named(BASE_STORE));
                break;
            case "diff-named":
                counts = grouped.count(named("df-counts"));
                break;
            default:
                // An unnamed in-memory store: the name is generated.
                counts = grouped.count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as(Materialized.StoreType.IN_MEMORY)
                    .withKeySerde(Serdes.String()).withValueSerde(Serdes.Long()));
        }
        counts.toStream().to(name.equals("diff-sink") ? "df-output-v2" : "df-output", Produced.with(Serdes.String(), Serdes.Long()));
        return builder.build();
    }

    private static Materialized<String, Long, KeyValueStore<Bytes, byte[]>> named(String store) {
        return Materialized.<String, Long>as(Stores.inMemoryKeyValueStore(store))
            .withKeySerde(Serdes.String()).withValueSerde(Serdes.Long());
    }
}
