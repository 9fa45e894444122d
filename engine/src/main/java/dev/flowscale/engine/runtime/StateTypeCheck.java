package dev.flowscale.engine.runtime;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.state.StateCodec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks, when a function declares a state, that the state codec can write a value of its type and
 * read it back, so that a type the codec cannot handle stops the job as it starts, naming the state
 * and the type, instead of failing the first snapshot (or a restore) later. The sample is what the
 * codec's JSON mapper makes of an empty object; JDK types, enums and arrays are left to the codec's
 * own support and not sampled.
 */
final class StateTypeCheck {
    /** Types that round-tripped: a function may declare its state on every call. */
    private static final Set<Class<?>> PASSED = ConcurrentHashMap.newKeySet();

    private StateTypeCheck() {}

    /** Throws {@link InvalidJobException} if the values of {@code descriptor} cannot round-trip. */
    static void check(String operatorId, StateDescriptor<?> descriptor) {
        roundTrip(operatorId, descriptor, descriptor.valueType());
        if (descriptor.keyType() != null) {
            roundTrip(operatorId, descriptor, descriptor.keyType());
        }
    }

    private static void roundTrip(String operatorId, StateDescriptor<?> descriptor, Class<?> type) {
        if (!sampled(type) || PASSED.contains(type)) {
            return;
        }
        ObjectMapper json = StateCodec.json();
        Object sample;
        try {
            sample = json.readValue("{}", type);
        } catch (IOException | RuntimeException e) {
            throw refused(operatorId, descriptor, type, "read back", e);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            StateCodec.write(new DataOutputStream(bytes), sample);
        } catch (IOException | RuntimeException e) {
            throw refused(operatorId, descriptor, type, "written", e);
        }
        try {
            StateCodec.read(
                    new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())), type);
        } catch (IOException | RuntimeException e) {
            throw refused(operatorId, descriptor, type, "read back", e);
        }
        PASSED.add(type);
    }

    /** User types: the JDK's, enums, arrays and primitives the codec handles as they are. */
    private static boolean sampled(Class<?> type) {
        return !type.isPrimitive()
                && !type.isArray()
                && !type.isEnum()
                && !type.isInterface()
                && !type.getName().startsWith("java.");
    }

    private static InvalidJobException refused(
            String operatorId,
            StateDescriptor<?> descriptor,
            Class<?> type,
            String how,
            Exception cause) {
        String reason = cause.getMessage() == null ? cause.toString() : cause.getMessage();
        return new InvalidJobException(
                "operator '"
                        + operatorId
                        + "': state '"
                        + descriptor.name()
                        + "' holds values of type "
                        + type.getName()
                        + " that the state codec cannot have "
                        + how
                        + " ("
                        + reason.lines().findFirst().orElse("")
                        + "); give the type public fields or getters and a no-argument"
                        + " constructor, or make it a record");
    }
}
