package dev.flowscale.operator;

import dev.flowscale.testsupport.Await;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Duration;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The shared {@link Await} with this module's default timeout, and Kubernetes resources shown as
 * YAML (their status included) when a wait fails.
 */
public final class Eventually {
    private static final Duration DEFAULT = Duration.ofSeconds(20);

    private Eventually() {}

    public static <T> T await(String what, Supplier<T> value, Predicate<T> check) {
        return await(DEFAULT, what, value, check);
    }

    public static <T> T await(
            Duration timeout, String what, Supplier<T> value, Predicate<T> check) {
        return Await.until(timeout, what, value, check, Eventually::describe);
    }

    private static String describe(Object value) {
        return value instanceof HasMetadata resource
                ? Serialization.asYaml(resource)
                : String.valueOf(value);
    }
}
