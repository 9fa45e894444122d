package dev.flowscale.operator;

import static dev.flowscale.operator.FlinkSessionTargetIT.COUNT;
import static dev.flowscale.operator.FlinkSessionTargetIT.NS;
import static dev.flowscale.operator.FlinkSessionTargetIT.SOURCE;
import static dev.flowscale.operator.FlinkSessionTargetIT.SPLIT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.flink.FlinkJobRef;
import dev.flowscale.flink.FlinkRestClient;
import dev.flowscale.flink.demo.FlinkWordCount;
import dev.flowscale.flink.demo.LocalFlinkCluster;
import dev.flowscale.operator.api.FlinkJar;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.core.JobEvents;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A StreamJob whose spec.flink.restUrl points at a Flink 2.3 session cluster on Flink's default
 * scheduler, where a job cannot be rescaled in place: with spec.flink.jar naming the uploaded jar
 * the job was started from, the operator's loop stops the job with a savepoint and runs the jar
 * again from it at the decided parallelism (the word count applies the overrides itself, as a job
 * on Flink 2.0 to 2.3 must), follows the new run's job id by the job's name, and shows the rescale
 * in status. spec.flink.taskSlots 2 caps the decision (the load needs Count 3 or more), and its
 * Event says so. In profile flink-rescale.
 */
@Tag("flink-rescale")
class FlinkSessionSavepointIT {

    @Test
    void aSessionJobOnTheDefaultSchedulerIsRescaledThroughASavepointAndTheJarRunAgain()
            throws Exception {
        try (FlinkSessionCluster session = FlinkSessionCluster.start();
                OptimisticMockServer server = new OptimisticMockServer();
                KubernetesClient client = server.client()) {
            LocalFlinkCluster flink = session.flink();
            JarRun run = JarRun.start(flink, "session-savepoint");
            FlinkRestClient rest = run.rest();
            FlinkWordCount.Settings settings = run.settings();
            String firstRun = run.firstRun();
            TestingOperator.installCrd(client);
            server.takeRequests(); // the test's own setup
            try (KubernetesClient operatorClient = FlinkSessionTargetIT.agent(client);
                    TestingOperator operator = TestingOperator.electing(operatorClient, null)) {
                StreamJob job = run.target(flink.rest().toString());
                client.resource(job).create();

                StreamJob rescaled =
                        Eventually.await(
                                FlinkSessionTargetIT.WAIT,
                                "the StreamJob's last rescale",
                                () ->
                                        client.resources(StreamJob.class)
                                                .inNamespace(NS)
                                                .withName("wc")
                                                .get(),
                                j -> j.getStatus() != null && j.getStatus().lastRescale != null);

                var rescale = rescaled.getStatus().lastRescale;
                assertThat(rescale.succeeded).as(rescale.message).isTrue();
                assertThat(rescale.path).isEqualTo("restart");
                assertThat(rescale.from).isEqualTo(Map.of(SOURCE, 1, SPLIT, 1, COUNT, 1));
                assertThat(rescale.to).isEqualTo(Map.of(SOURCE, 1, SPLIT, 2, COUNT, 2));
                assertThat(
                                client.v1().events().inNamespace(NS).list().getItems().stream()
                                        .filter(e -> JobEvents.SCALING_REPORT.equals(e.getReason()))
                                        .map(Event::getMessage))
                        .as("the decision's reasons say the slots bound it, and where from")
                        .anySatisfy(
                                m ->
                                        assertThat(m)
                                                .contains("task slots bound this decision")
                                                .contains("the job may use 2")
                                                .contains(
                                                        "spec.flink.taskSlots of StreamJob flink/wc"
                                                                + " is 2"));
                FlinkJobRef now = FlinkJobRef.find(rest, FlinkWordCount.jobName(settings.tag()));
                assertThat(now.jobId()).as("a new run from the savepoint").isNotEqualTo(firstRun);
                assertThat(now.read().parallelism()).as("what Flink runs").isEqualTo(rescale.to);
                assertThat(rescaled.getStatus().parallelism).isEqualTo(rescale.to);
            }
            assertThat(FlinkSessionTargetIT.deniedCalls(server.takeRequests()))
                    .as("calls the manifest's RBAC would deny")
                    .isEmpty();
        }
    }

    /** flink-demo's word count run from its uploaded jar on a session cluster, at 1/1/1. */
    record JarRun(
            FlinkRestClient rest, String jarId, FlinkWordCount.Settings settings, String firstRun) {

        /** 200 sentences/s of 5 words; Split at most 167/s, Count at most 455 words/s each. */
        static JarRun start(LocalFlinkCluster flink, String tag) throws Exception {
            FlinkRestClient rest = new FlinkRestClient(flink.rest(), Duration.ofSeconds(60));
            String jarId = rest.uploadJar(flink.wordCountJar());
            FlinkWordCount.Settings settings =
                    new FlinkWordCount.Settings(
                            tag, System.currentTimeMillis(), 200, 1_000_000, 6000, 2200, 16);
            String firstRun =
                    rest.post("jars/" + jarId + "/run", Map.of("programArgsList", settings.args()))
                            .path("jobid")
                            .asText();
            return new JarRun(rest, jarId, settings, firstRun);
        }

        /**
         * A StreamJob at {@code restUrl} naming the job by its name, with spec.flink.jar to rescale
         * it through a savepoint, and two task slots: Split needs 2 or more, Count 3 or more, so
         * both are capped at 2 whatever the machine's load.
         */
        StreamJob target(String restUrl) {
            StreamJob job =
                    FlinkSessionTargetIT.sessionTarget(
                            restUrl, FlinkWordCount.jobName(settings.tag()));
            job.getSpec().flink.jar = new FlinkJar();
            job.getSpec().flink.jar.id = jarId;
            job.getSpec().flink.jar.args = settings.args();
            job.getSpec().flink.taskSlots = 2;
            return job;
        }
    }
}
