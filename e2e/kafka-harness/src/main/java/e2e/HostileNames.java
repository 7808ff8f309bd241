package e2e;

import java.util.List;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * {@code topology=hostile-names} (issue 19): a Processor API topology whose node names hold what
 * {@code Named.as} refuses but {@link Topology#addProcessor} takes: {@code ", "}, brackets, quotes
 * and colons, and one zero-width space (U+200B), which a terminal does not show. The source's
 * successors are {@code [1]}, {@code p} and {@code p, [1]}: Kafka prints them as
 * {@code [1], p, p, [1]}, which only the names the text defines tell apart. The store's name holds
 * brackets, quotes and a colon; its changelog is off (a changelog topic name may not hold them).
 * Topics {@code hn-input}, {@code hn-output} (topic names are restricted).
 */
final class HostileNames {

    static final String NAME = "hostile-names";
    static final String SOURCE = "src: \"in\" [0]";
    static final String STORE = "st: [1] \"x\"";

    private HostileNames() { }

    static List<String> topics() {
        return List.of("hn-input", "hn-output");
    }

    /** Forwards every record; with a store name, puts each record in that store first. */
    static ProcessorSupplier<String, String, String, String> forward(String store) {
        return () -> new Processor<String, String, String, String>() {
            private ProcessorContext<String, String> ctx;
            private KeyValueStore<String, String> kv;

            @Override
            public void init(ProcessorContext<String, String> context) {
                ctx = context;
                if (store != null) {
                    kv = context.getStateStore(store);
                }
            }

            @Override
            public void process(Record<String, String> r) {
                if (kv != null && r.key() != null) {
                    kv.put(r.key(), r.value());
                }
                ctx.forward(r);
            }
        };
    }

    static Topology build() {
        Topology t = new Topology();
        t.addSource(SOURCE, "hn-input");
        t.addProcessor("p, [1]", forward(STORE), SOURCE);
        t.addProcessor("p", forward(null), SOURCE);
        t.addProcessor("[1]", forward(null), SOURCE);
        t.addProcessor("q: \"z\"", forward(null), "p, [1]", "p", "[1]");
        t.addProcessor("p\u200b: [zw]", forward(null), "q: \"z\"");
        t.addSink("sink, out: [\"x\"]", "hn-output", "p\u200b: [zw]");
        t.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(STORE), Serdes.String(), Serdes.String())
            .withLoggingDisabled(), "p, [1]");
        return t;
    }
}
