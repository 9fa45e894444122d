package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.operator.api.AutoscalerMode;
import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.core.Conditions;
import dev.flowscale.operator.loop.JobAutoscalers;
import dev.flowscale.operator.runner.HttpRunnerControl;
import dev.flowscale.operator.runner.RunnerDeployment;
import dev.flowscale.operator.runner.RunnerWatch;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.Operator;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A StreamJob naming a user's job class (spec.job.mainClass) on the mock API server, its runner a
 * real engine process started by {@link LocalKubelet} with the example job's jar where the image
 * keeps it (/opt/flowscale/jobs): the operator rescales it through a savepoint of the user's state,
 * and a typo in its arguments fails the StreamJob with the runner's own error line.
 */
class UserJobIT {
    static final String NS = RunnerJobHarness.NS;
    static final String JOB_CLASS = "com.example.pageviews.PageViewsJob";
    final OptimisticMockServer server = new OptimisticMockServer();
    final KubernetesClient client = server.client();
    Operator operator;
    JobAutoscalers loops;
    LocalKubelet kubelet;

    @TempDir Path dir;

    @AfterEach
    void stop() {
        if (operator != null) {
            operator.stop();
            loops.close();
        }
        if (kubelet != null) {
            kubelet.close();
        }
        client.close();
        server.close();
    }

    @Test
    void theOperatorRescalesAUserJobThroughASavepointOfItsState() throws Exception {
        start(
                AutoscalerMode.AUTO,
                List.of("--rate", "300", "--pages", "200", "--cost", "parse=sleep:10ms"));

        StreamJob done =
                RunnerJobHarness.awaitJob(
                        client,
                        j ->
                                j.getStatus().phase == JobPhase.Running
                                        && j.getStatus().pending == null
                                        && j.getStatus().lastRescale != null);

        assertThat(done.getStatus().lastRescale.succeeded).isTrue();
        assertThat(done.getStatus().parallelism.get("parse")).isGreaterThan(1);
        assertThat(RunnerJobHarness.args(client))
                .startsWith(
                        "run --job-jar " + RunnerDeployment.JOBS_DIR + " --job-class " + JOB_CLASS)
                .contains("--restore-from " + done.getStatus().lastSavepoint);
        String runner = runnerJob();
        assertThat(runner)
                .contains("\"status\":\"RUNNING\"")
                .contains("\"id\":\"parse\"")
                .contains("\"id\":\"count\"");
        assertThat(Files.readString(dir.resolve("runner-2.log")))
                .as("the restored runner's log")
                .contains("restore: ")
                .doesNotContain("error:");
    }

    @Test
    void aTypoInAUserJobsArgumentsFailsTheStreamJobWithTheRunnersErrorLine() throws Exception {
        start(AutoscalerMode.OFF, List.of("--pagse", "50"));

        StreamJob failed =
                RunnerJobHarness.awaitJob(client, j -> j.getStatus().phase == JobPhase.Failed);

        Condition health = Conditions.find(failed.getStatus(), RunnerWatch.CONDITION).orElseThrow();
        assertThat(health.getReason()).isEqualTo("CrashLoopBackOff");
        assertThat(health.getMessage())
                .contains(
                        "last exit Error with code 2: error: unknown option --pagse for job"
                                + " class "
                                + JOB_CLASS
                                + "; the job reads --bot-percent, --limit, --pages, --print, --rate, --users");
    }

    private void start(AutoscalerMode mode, List<String> args) throws IOException {
        try (InputStream crd = Files.newInputStream(StreamJobCrdTest.checkedInCrd())) {
            client.resource(Serialization.unmarshal(crd, CustomResourceDefinition.class)).create();
        }
        Path jobs = Files.createDirectories(dir.resolve("image-jobs"));
        Files.copy(exampleJobJar(), jobs.resolve("page-views.jar"));
        kubelet =
                new LocalKubelet(
                        client,
                        NS,
                        "wc-runner",
                        AutoscalingIT.engineJar(),
                        RunnerJobHarness.freePort(),
                        dir,
                        a -> true,
                        Map.of(RunnerDeployment.JOBS_DIR, jobs));
        loops =
                FlowscaleOperator.loops(
                        client,
                        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
                        j -> kubelet.address(),
                        RunnerJobHarness.NO_RESCALE_TIMEOUT,
                        Clock.systemUTC());
        operator =
                FlowscaleOperator.create(
                        client,
                        loops,
                        new HttpRunnerControl(j -> kubelet.address(), Duration.ofSeconds(10)),
                        Clock.systemUTC());
        operator.start();
        StreamJob job =
                AutoscalingIT.bottleneckedWordCount(NS, "wc", mode, dir.resolve("savepoints"));
        job.getSpec().image = "registry.example/page-views-job:0.1.0";
        job.getSpec().job.builtin = null;
        job.getSpec().job.mainClass = JOB_CLASS;
        job.getSpec().job.args = args;
        job.getSpec().parallelism.clear();
        job.getSpec().parallelism.putAll(Map.of("parse", 1, "count", 1));
        client.resource(job).create();
    }

    static Path exampleJobJar() {
        Path jar =
                Path.of(
                        System.getProperty(
                                "flowscale.examples.job.jar",
                                "../examples/target/flowscale-examples-job.jar"));
        assertThat(jar)
                .as("the example user job's jar; build it with mvn -pl examples -am package")
                .exists();
        return jar;
    }

    private String runnerJob() throws IOException, InterruptedException {
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(kubelet.address().resolve("/api/v1/job")).build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
    }
}
