package dev.flowscale.operator.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class StuckPodsTest {
    static final Instant DEADLINE = Instant.parse("2026-12-01T08:00:30Z");

    @Test
    void aPodIsStuckOnlyOnceItsDeletionDeadlinePassedByMoreThanAMinute() {
        Pod terminating = pod("a", DEADLINE.toString());
        Pod running = pod("b", null);

        assertThat(StuckPods.stuck(List.of(terminating, running), DEADLINE.plusSeconds(60)))
                .as("its kubelet may still be stopping it")
                .isEmpty();
        assertThat(StuckPods.stuck(List.of(terminating, running), DEADLINE.plusSeconds(61)))
                .containsExactly(terminating);
    }

    private static Pod pod(String name, String deletionTimestamp) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withDeletionTimestamp(deletionTimestamp)
                .endMetadata()
                .build();
    }
}
