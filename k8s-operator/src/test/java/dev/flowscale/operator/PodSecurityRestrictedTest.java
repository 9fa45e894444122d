package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.runner.RunnerDeployment;
import dev.flowscale.operator.runner.RunnerPodTemplateTest;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The runner pod the operator generates passes Pod Security restricted, alone and with a user's
 * template.
 */
class PodSecurityRestrictedTest {
    private final StreamJob job = StreamJobs.wordCount("jobs", "wc");

    @Test
    void theGeneratedRunnerPodPassesTheRestrictedProfile() {
        assertThat(PodSecurityRestricted.violations(pod())).isEmpty();
    }

    @Test
    void theRunnerPodWithAUsersTemplateAndSidecarStillPasses() {
        job.getSpec().podTemplate =
                Serialization.unmarshal(RunnerPodTemplateTest.USER_TEMPLATE, PodTemplateSpec.class);

        assertThat(PodSecurityRestricted.violations(pod())).isEmpty();
    }

    @Test
    void aPodWithoutSecurityContextsViolatesEveryRestrictedRule() {
        PodSpec bare =
                Serialization.unmarshal("containers: [{name: app, image: x}]", PodSpec.class);

        assertThat(PodSecurityRestricted.violations(bare))
                .containsExactly(
                        "container app: securityContext.allowPrivilegeEscalation must be false",
                        "container app: runAsNonRoot must be true (in the pod's or the container's securityContext)",
                        "container app: seccompProfile.type must be RuntimeDefault or Localhost (pod or container)",
                        "container app: securityContext.capabilities.drop must include ALL");
    }

    @Test
    void aTemplateThatAddsAHostPathOrPrivilegeIsCaught() {
        job.getSpec().podTemplate =
                Serialization.unmarshal(
                        """
                spec:
                  volumes: [{name: host, hostPath: {path: /var/run}}]
                  containers: [{name: runner, securityContext: {privileged: true, runAsUser: 0}}]
                """,
                        PodTemplateSpec.class);

        assertThat(PodSecurityRestricted.violations(pod()))
                .containsExactlyInAnyOrder(
                        "volume host: type hostPath is not allowed",
                        "container runner: securityContext.privileged must be unset or false",
                        "container runner: runAsUser must not be 0");
    }

    private PodSpec pod() {
        return RunnerDeployment.desired(job, Map.of("split", 2), null)
                .getSpec()
                .getTemplate()
                .getSpec();
    }
}
