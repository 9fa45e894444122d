package dev.flowscale.engine.api;

import java.util.Objects;

/**
 * Declares a piece of keyed state: its name (unique within the operator) and the type of its
 * values, which a snapshot uses to serialize the state without Java serialization.
 */
public record StateDescriptor<T>(String name, Kind kind, Class<?> keyType, Class<T> valueType) {

    /** The shape of the state. */
    public enum Kind {
        VALUE,
        LIST,
        MAP
    }

    public StateDescriptor {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(valueType, "valueType");
        if (name == null || name.isBlank()) {
            throw new InvalidJobException(
                    "state descriptor: name is empty; give every state a unique name");
        }
    }

    public static <T> StateDescriptor<T> value(String name, Class<T> type) {
        return new StateDescriptor<>(name, Kind.VALUE, null, type);
    }

    public static <T> StateDescriptor<T> list(String name, Class<T> elementType) {
        return new StateDescriptor<>(name, Kind.LIST, null, elementType);
    }

    public static <V> StateDescriptor<V> map(String name, Class<?> keyType, Class<V> valueType) {
        return new StateDescriptor<>(
                name, Kind.MAP, Objects.requireNonNull(keyType, "keyType"), valueType);
    }
}
