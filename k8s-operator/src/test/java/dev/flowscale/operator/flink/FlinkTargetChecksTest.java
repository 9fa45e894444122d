package dev.flowscale.operator.flink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.operator.SpecValidator;
import dev.flowscale.operator.StreamJobs;
import dev.flowscale.operator.api.FlinkJar;
import dev.flowscale.operator.api.FlinkTarget;
import dev.flowscale.operator.api.StreamJobSpec;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FlinkTargetChecksTest {

    private static StreamJobSpec flink(String deployment, String restUrl) {
        StreamJobSpec spec = new StreamJobSpec();
        spec.flink = new FlinkTarget();
        spec.flink.deployment = deployment;
        spec.flink.restUrl = restUrl;
        return spec;
    }

    @Test
    void aFlinkDeploymentOrASessionClustersRestUrlIsEnoughWithoutARunner() {
        assertThat(SpecValidator.problems(flink("wordcount", null))).isEmpty();
        assertThat(SpecValidator.problems(flink(null, "http://session-rest.flink:8081"))).isEmpty();
    }

    @Test
    void exactlyOneTargetIsAccepted() {
        assertThat(SpecValidator.problems(flink("wordcount", "http://session-rest.flink:8081")))
                .singleElement()
                .asString()
                .contains("spec.flink must set exactly one of deployment")
                .contains("restUrl");
        assertThat(SpecValidator.problems(flink(null, " "))).hasSize(1);
    }

    @Test
    void aBadNameOrUrlIsRejectedNamingTheFieldAndAnExample() {
        assertThat(SpecValidator.problems(flink("Word_Count", null)))
                .singleElement()
                .asString()
                .contains("spec.flink.deployment 'Word_Count' is not a Kubernetes object name");
        assertThat(SpecValidator.problems(flink(null, "session-rest:8081")))
                .singleElement()
                .asString()
                .contains("spec.flink.restUrl 'session-rest:8081' is not an http(s) URL")
                .contains("http://session-rest.flink:8081");
    }

    @Test
    void taskSlotsBelowOneAreRejected() {
        StreamJobSpec spec = flink(null, "http://session-rest.flink:8081");
        spec.flink.taskSlots = 0;
        assertThat(SpecValidator.problems(spec))
                .singleElement()
                .asString()
                .contains("spec.flink.taskSlots is 0: set it to at least 1");
    }

    @Test
    void aJarIsForASessionClusterAndNeedsItsId() {
        StreamJobSpec session = flink(null, "http://session-rest.flink:8081");
        session.flink.jar = new FlinkJar();
        session.flink.jar.id = "4f1b_wordcount.jar";
        assertThat(SpecValidator.problems(session)).isEmpty();

        StreamJobSpec deployment = flink("wordcount", null);
        deployment.flink.jar = new FlinkJar();
        assertThat(SpecValidator.problems(deployment))
                .anySatisfy(p -> assertThat(p).contains("spec.flink.jar is for a session cluster"))
                .anySatisfy(p -> assertThat(p).contains("spec.flink.jar.id is empty"));
    }

    @Test
    void anEmptyJobNameIsRejected() {
        StreamJobSpec spec = flink("wordcount", null);
        spec.flink.job = "";
        assertThat(SpecValidator.problems(spec))
                .singleElement()
                .asString()
                .contains("spec.flink.job is empty");
    }

    @Test
    void theEmbeddedEnginesRunnerFieldsAreRejectedBesideAFlinkTarget() {
        StreamJobSpec spec = StreamJobs.wordCount("ns", "wc").getSpec();
        spec.parallelism = Map.of("split", 2);
        spec.flink = flink("wordcount", null).flink;
        assertThat(SpecValidator.problems(spec))
                .anySatisfy(p -> assertThat(p).startsWith("spec.image is for the embedded engine"))
                .anySatisfy(p -> assertThat(p).startsWith("spec.job is for the embedded engine"))
                .anySatisfy(p -> assertThat(p).startsWith("spec.savepoints is for the embedded"))
                .anySatisfy(p -> assertThat(p).startsWith("spec.parallelism is for the embedded"));
    }

    @Test
    void aSpecWithNeitherARunnerNorAFlinkTargetSaysWhatToSet() {
        assertThat(SpecValidator.problems(new StreamJobSpec()))
                .anySatisfy(p -> assertThat(p).startsWith("spec.image is empty"))
                .anySatisfy(p -> assertThat(p).startsWith("spec.job must set exactly one"));
    }
}
