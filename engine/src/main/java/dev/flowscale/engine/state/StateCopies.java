package dev.flowscale.engine.state;

import dev.flowscale.engine.api.StateDescriptor;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Copies of one key group's entries for a hand-over rescale: the next run works on the copy while a
 * savepoint is written from the original, so nothing the next run does may reach the original. The
 * map is copied; lists and maps held as values are copied (list and map state change them in
 * place); values of types that could be changed in place are copied through their encoding. Values
 * of immutable types (strings, numbers, booleans, enums, {@code java.time}, records of those) are
 * shared.
 */
final class StateCopies {
    private static final Set<Class<?>> IMMUTABLE =
            Set.of(
                    String.class,
                    Boolean.class,
                    Character.class,
                    Byte.class,
                    Short.class,
                    Integer.class,
                    Long.class,
                    Float.class,
                    Double.class,
                    BigInteger.class,
                    BigDecimal.class);

    private StateCopies() {}

    /** A copy of a declared state's key group, safe to change while the original is read. */
    static KeyGroupMap copy(StateDescriptor<?> descriptor, KeyGroupMap group) {
        KeyGroupMap copy = KeyGroupMap.copyOf(group);
        boolean shared =
                immutable(descriptor.valueType(), 0)
                        && (descriptor.keyType() == null || immutable(descriptor.keyType(), 0));
        if (descriptor.kind() == StateDescriptor.Kind.VALUE && !shared) {
            copy.replaceAll((k, v) -> reencode(descriptor, v));
        } else if (descriptor.kind() != StateDescriptor.Kind.VALUE) {
            copy.replaceAll((k, v) -> shared ? container(v) : reencode(descriptor, v));
        }
        return copy;
    }

    /**
     * A copy of an undeclared (restored, not yet registered) state's key group: values are encoded
     * bytes, never changed, or self-describing values whose lists and maps are copied.
     */
    static HashMap<Object, Object> copyRaw(HashMap<Object, Object> group) {
        HashMap<Object, Object> copy = new HashMap<>(group);
        copy.replaceAll((k, v) -> v instanceof byte[] ? v : tree(v));
        return copy;
    }

    private static Object reencode(StateDescriptor<?> descriptor, Object value) {
        return StateEncoding.decode(descriptor, StateEncoding.encode(descriptor.kind(), value));
    }

    private static Object container(Object value) {
        if (value instanceof List<?> list) {
            return new ArrayList<>(list);
        }
        if (value instanceof Map<?, ?> map) {
            return new HashMap<>(map);
        }
        return value;
    }

    private static Object tree(Object value) {
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            list.forEach(e -> copy.add(tree(e)));
            return copy;
        }
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> copy = new HashMap<>();
            map.forEach((k, v) -> copy.put(k, tree(v)));
            return copy;
        }
        return value;
    }

    /** Whether no instance of {@code type} can change after it is made. */
    static boolean immutable(Class<?> type, int depth) {
        if (IMMUTABLE.contains(type) || type.isPrimitive() || type.isEnum()) {
            return true;
        }
        if ("java.time".equals(type.getPackageName())) {
            return true;
        }
        if (type.isRecord() && depth < 4) {
            for (var component : type.getRecordComponents()) {
                if (!immutable(component.getType(), depth + 1)) {
                    return false;
                }
            }
            return true;
        }
        return false;
    }
}
