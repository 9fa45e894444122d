package dev.flowscale.engine.state;

import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.api.ListState;
import dev.flowscale.engine.api.StateDescriptor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Non-keyed list state of one operator instance. On restore at another parallelism the elements of
 * a {@link Mode#SPLIT} list are dealt round robin over the new instances; every new instance gets
 * all elements of a {@link Mode#UNION} list.
 */
public final class OperatorStateStore {

    /** How a list is redistributed when parallelism changes. */
    public enum Mode {
        SPLIT,
        UNION
    }

    /** One named list, with its mode and, once registered, its descriptor. */
    public static final class Entry {
        final Mode mode;
        StateDescriptor<?> descriptor;
        final List<Object> elements = new ArrayList<>();

        /** Elements restored but not yet decoded (the descriptor is registered at open). */
        final List<byte[]> encoded = new ArrayList<>();

        Entry(Mode mode) {
            this.mode = mode;
        }

        public Mode mode() {
            return mode;
        }

        /** Every element, encoded, ready for a snapshot. */
        public List<byte[]> encodedElements() {
            List<byte[]> out = new ArrayList<>(encoded);
            elements.forEach(e -> out.add(StateEncoding.encode(StateDescriptor.Kind.VALUE, e)));
            return out;
        }
    }

    private final String operator;
    private final Map<String, Entry> lists = new LinkedHashMap<>();

    public OperatorStateStore(String operator) {
        this.operator = operator;
    }

    public Map<String, Entry> lists() {
        return Collections.unmodifiableMap(lists);
    }

    /** Adds restored, encoded elements of a list. */
    public void restore(String name, Mode mode, List<byte[]> encodedElements) {
        lists.computeIfAbsent(name, n -> new Entry(mode)).encoded.addAll(encodedElements);
    }

    public <T> ListState<T> list(StateDescriptor<T> descriptor, Mode mode) {
        Entry entry = lists.computeIfAbsent(descriptor.name(), n -> new Entry(mode));
        if (entry.mode != mode) {
            throw new EngineException(
                    "operator '"
                            + operator
                            + "': list state '"
                            + descriptor.name()
                            + "' is "
                            + entry.mode
                            + " but requested as "
                            + mode
                            + "; use one mode per name");
        }
        if (entry.descriptor == null) {
            entry.descriptor = descriptor;
            // Each element was encoded on its own, as a value (Entry.encodedElements), not as a
            // list.
            StateDescriptor<T> element =
                    StateDescriptor.value(descriptor.name(), descriptor.valueType());
            entry.encoded.forEach(
                    bytes -> entry.elements.add(StateEncoding.decode(element, bytes)));
            entry.encoded.clear();
        }
        return view(entry);
    }

    @SuppressWarnings("unchecked")
    private static <T> ListState<T> view(Entry entry) {
        return new ListState<>() {
            @Override
            public List<T> get() {
                return Collections.unmodifiableList((List<T>) entry.elements);
            }

            @Override
            public void add(T value) {
                entry.elements.add(value);
            }

            @Override
            public void update(List<T> values) {
                entry.elements.clear();
                if (values != null) {
                    entry.elements.addAll(values);
                }
            }

            @Override
            public void clear() {
                entry.elements.clear();
            }
        };
    }
}
