package dev.flowscale.engine.state;

import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.api.StateDescriptor;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;

/**
 * Checks, when a function declares a restored state, that the state's codec reads what the snapshot
 * holds, so that state written for another type stops the job as it opens, naming the operator, the
 * state and the type, instead of failing on the first record that reads it. The heap backend
 * decodes every restored value as the state is declared; RocksDB keeps values encoded, so one
 * stored value of the instance's key groups is decoded here.
 */
final class RestoredValueCheck {
    private RestoredValueCheck() {}

    /** Decodes the first stored value of {@code column} in {@code range}, if there is one. */
    static void checkFirst(
            String operator,
            StateDescriptor<?> descriptor,
            RocksDbKeyedStore store,
            RocksDbKeyedStore.Column column,
            KeyGroupRange range) {
        for (int group : range) {
            try {
                if (store.scan(
                                column,
                                RocksDbKeyedStore.prefix(group),
                                (key, value) -> decodeOne(descriptor, value))
                        > 0) {
                    return;
                }
            } catch (IOException | RuntimeException e) {
                throw unreadable(operator, descriptor, e);
            }
        }
    }

    /** A map state stores one entry per RocksDB value; the others one whole state value. */
    private static boolean decodeOne(StateDescriptor<?> descriptor, byte[] value)
            throws IOException {
        if (descriptor.kind() != StateDescriptor.Kind.MAP) {
            StateEncoding.decode(descriptor, value);
            return false;
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(value))) {
            StateCodec.read(in, descriptor.valueType());
        }
        return false;
    }

    /** The error for restored values of {@code descriptor} its codec cannot read. */
    static InvalidJobException unreadable(
            String operator, StateDescriptor<?> descriptor, Exception cause) {
        // The codec's own error is the deepest cause; the layers above only repeat the state.
        Throwable root = cause;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        String reason = root.getMessage() == null ? root.toString() : root.getMessage();
        return new InvalidJobException(
                "operator '"
                        + operator
                        + "': restored state '"
                        + descriptor.name()
                        + "' cannot be read as values of type "
                        + descriptor.valueType().getName()
                        + " ("
                        + reason.lines().findFirst().orElse("")
                        + "); restore with the type the snapshot was written with, or give the"
                        + " changed state another name");
    }
}
