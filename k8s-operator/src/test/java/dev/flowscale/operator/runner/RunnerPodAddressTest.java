package dev.flowscale.operator.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.operator.StreamJobs;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.core.OperatorException;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RunnerPodAddressTest {
    private final StreamJob job = StreamJobs.wordCount("ns", "wc");

    @Test
    void theRunnerServiceRoutesOnlyToAReadyRunner() {
        // Endpoints then hold only pods whose readiness probe (the runner's /ready, 200 only while
        // its job runs) passes: not a pod on a lost node, not a stopped runner.
        assertThat(RunnerResources.service(job).getSpec().getPublishNotReadyAddresses()).isFalse();
        assertThat(
                        RunnerDeployment.desired(job, Map.of(), null)
                                .getSpec()
                                .getTemplate()
                                .getSpec()
                                .getContainers()
                                .get(0)
                                .getReadinessProbe()
                                .getHttpGet()
                                .getPath())
                .isEqualTo(RunnerDeployment.READY_PATH);
    }

    @Test
    void theOperatorReachesTheNewestPodThatIsNotTerminating() {
        List<Pod> pods =
                List.of(
                        pod("old", "2026-12-01T08:00:00Z", "10.0.0.1", "2026-12-01T08:05:00Z"),
                        pod("new", "2026-12-01T08:06:00Z", "10.0.0.2", null),
                        pod("starting", "2026-12-01T08:07:00Z", null, null));

        assertThat(addressOf(pods)).isEqualTo(URI.create("http://10.0.0.2:9249"));
    }

    @Test
    void anIpv6PodAddressIsBracketed() {
        assertThat(addressOf(List.of(pod("a", "2026-12-01T08:00:00Z", "fd00::5", null))))
                .isEqualTo(URI.create("http://[fd00::5]:9249"));
    }

    @Test
    void withoutARunningPodTheRunnerIsUnreachableAndSaysWhy() {
        List<Pod> pods =
                List.of(pod("old", "2026-12-01T08:00:00Z", "10.0.0.1", "2026-12-01T08:05:00Z"));

        assertThatThrownBy(() -> addressOf(pods))
                .isInstanceOf(OperatorException.class)
                .hasMessageContaining("runner ns/wc-runner has no running pod")
                .hasMessageContaining("check that the runner is up");
    }

    private URI addressOf(List<Pod> pods) {
        return new RunnerPodAddress(new PodsOnly(pods)).apply(job);
    }

    private static Pod pod(String name, String created, String ip, String deleted) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withCreationTimestamp(created)
                .withDeletionTimestamp(deleted)
                .endMetadata()
                .withNewStatus()
                .withPodIP(ip)
                .endStatus()
                .build();
    }

    /** A cluster that holds these pods and nothing else. */
    private record PodsOnly(List<Pod> pods) implements RunnerCluster {
        @Override
        public List<Pod> pods(String namespace, Map<String, String> labels) {
            return pods;
        }

        @Override
        public void apply(HasMetadata desired, HasMetadata existing) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean upToDate(HasMetadata desired, HasMetadata existing) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Optional<Pod> pod(String namespace, Map<String, String> labels) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void forceDelete(Pod pod) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean resize(Pod pod, String container, ResourceRequirements resources) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean claimExists(String namespace, String claimName) {
            throw new UnsupportedOperationException();
        }
    }
}
