package dev.flowscale.engine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * SIGTERM's bound: a run that does not clean up after its stop request is cancelled, and the hook
 * returns (letting the JVM exit) even if the run never cleans up.
 */
class ShutdownHookTest {

    @Test
    void aRunThatNeverCleansUpIsCancelledAndTheHookStillReturns() {
        List<String> calls = new ArrayList<>();
        ShutdownHook hook =
                new ShutdownHook(
                        () -> calls.add("stop"), () -> calls.add("cancel"), Duration.ofMillis(50));

        hook.shutDown();

        assertThat(calls).containsExactly("stop", "cancel");
    }

    @Test
    void aRunThatCleansUpInTimeIsNotCancelled() {
        List<String> calls = new ArrayList<>();
        ShutdownHook[] hook = new ShutdownHook[1];
        hook[0] =
                new ShutdownHook(
                        () -> {
                            calls.add("stop");
                            hook[0].close();
                        },
                        () -> calls.add("cancel"),
                        Duration.ofMinutes(5));

        hook[0].shutDown();

        assertThat(calls).containsExactly("stop");
    }
}
