package dev.flowscale.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.policy.api.Edge;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How a job's REST answers become flowscale's model, for shapes the MiniCluster job does not show:
 * two vertices with one name, a vertex only partly running, a Flink without {@code schedulerType}
 * (before 1.19), and Flink's error answers. The answers are cut from real Flink 2.3 ones.
 */
class FlinkJobTest {
    private static final String JOB = "84b6ec23b06931c1acb4e1096e9903ac";
    private static final String A = "02a8ce271011001a725fc1923ab464a7";
    private static final String B = "4c316878fdbd0126d4087d26baae01f4";
    private static final String C = "b71731f1c0df9c3076c4a455334d0ad6";

    private LoopbackRest server;
    private FlinkRestClient rest;

    @BeforeEach
    void serve() {
        server = new LoopbackRest();
        rest = server.client();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private void answer(String path, int status, String body) {
        server.answer(path, status, () -> body);
    }

    private static String vertex(String id, String name, int parallelism, int running) {
        return "{\"id\":\"%s\",\"name\":\"%s\",\"maxParallelism\":128,\"parallelism\":%d,\"status\":\"RUNNING\",\"tasks\":{\"RUNNING\":%d}}"
                .formatted(id, name, parallelism, running);
    }

    private static String node(String id, String input) {
        return input == null
                ? "{\"id\":\"%s\"}".formatted(id)
                : "{\"id\":\"%s\",\"inputs\":[{\"id\":\"%s\",\"ship_strategy\":\"HASH\"}]}"
                        .formatted(id, input);
    }

    private void job(String scheduler, String... vertices) {
        answer(
                "/jobs/" + JOB + "/plan",
                200,
                "{\"plan\":{\"nodes\":["
                        + node(A, null)
                        + ","
                        + node(B, A)
                        + ","
                        + node(C, B)
                        + "]}}");
        answer(
                "/jobs/" + JOB,
                200,
                "{\"jid\":\""
                        + JOB
                        + "\",\"name\":\"wc\",\"state\":\"RUNNING\","
                        + (scheduler == null ? "" : "\"schedulerType\":\"" + scheduler + "\",")
                        + "\"vertices\":["
                        + String.join(",", vertices)
                        + "]}");
    }

    @Test
    void namesTwoVerticesOfOneNameApartByTheirIdsAndKeepsThePlansEdges() {
        job(
                "Adaptive",
                vertex(A, "Source: In", 1, 1),
                vertex(B, "Map", 2, 2),
                vertex(C, "Map", 3, 3));

        FlinkJob job = FlinkJob.read(rest, JOB);

        assertThat(job.parallelism())
                .isEqualTo(Map.of("Source: In", 1, "Map #4c3168", 2, "Map #b71731", 3));
        assertThat(job.edges())
                .containsExactly(
                        new Edge("Source: In", "Map #4c3168"),
                        new Edge("Map #4c3168", "Map #b71731"));
        assertThat(job.topology(Map.of(A, 1)).operator("Source: In").keyGroups()).isEqualTo(1);
        assertThat(job.scheduler()).contains("Adaptive");
    }

    @Test
    void aVertexWithSomeSubtasksNotYetRunningIsNotRunning() {
        job(null, vertex(A, "Source: In", 1, 1), vertex(B, "Map", 2, 1), vertex(C, "Sink", 1, 1));

        FlinkJob job = FlinkJob.read(rest, JOB);

        assertThat(job.vertex("Map").running()).isFalse();
        assertThat(job.allVerticesRunning()).isFalse();
        assertThat(job.scheduler()).as("Flink before 1.19 names no scheduler").isEmpty();
    }

    @Test
    void anErrorAnswerNamesTheRequestAndFlinksDeepestCause() {
        answer(
                "/jars/x.jar/run",
                400,
                "{\"errors\":[\"org.apache.flink.runtime.rest.handler.RestHandlerException: Could not execute application.\\n"
                        + "\\tat org.apache.flink.X.y(X.java:1)\\n"
                        + "Caused by: java.lang.IllegalStateException: outer\\n"
                        + "Caused by: java.lang.ClassNotFoundException: com.example.Job\\n\"]}");

        assertThatThrownBy(() -> rest.post("jars/x.jar/run", Map.of()))
                .isInstanceOf(FlinkConnectorException.class)
                .hasMessageContaining("POST http://127.0.0.1:")
                .hasMessageContaining(
                        "answered HTTP 400: org.apache.flink.runtime.rest.handler.RestHandlerException: Could not execute application.")
                .hasMessageContaining(
                        "(Caused by: java.lang.ClassNotFoundException: com.example.Job)");
    }

    @Test
    void aUrlThatIsNotHttpIsRefusedWithAnExample() {
        assertThatThrownBy(
                        () ->
                                new FlinkRestClient(
                                        URI.create("localhost:8081"), Duration.ofSeconds(1)))
                .isInstanceOf(FlinkConnectorException.class)
                .hasMessageContaining("use e.g. http://localhost:8081");
    }

    private void cluster(int total, int available, int ours, int others) {
        answer(
                "/overview",
                200,
                "{\"taskmanagers\":1,\"slots-total\":%d,\"slots-available\":%d}"
                        .formatted(total, available));
        answer("/taskmanagers", 200, "{\"taskmanagers\":[{\"id\":\"tm-1\"}]}");
        String slots =
                (",{\"jobId\":\"" + JOB + "\",\"assignedTasks\":1}").repeat(ours)
                        + ",{\"jobId\":\"0000\",\"assignedTasks\":1}".repeat(others);
        answer(
                "/taskmanagers/tm-1",
                200,
                "{\"id\":\"tm-1\",\"allocatedSlots\":[" + slots.substring(1) + "]}");
    }

    @Test
    void theJobMayUseTheFreeSlotsAndThoseItHoldsButNotThoseOfOtherJobs() {
        String shared = "\"slotSharingGroupId\":\"8b9e3f0a7c1d2e4f5a6b7c8d9e0f1a2b\",";
        job(
                "Adaptive",
                vertex(A, "Source: In", 1, 1).replace("{", "{" + shared),
                vertex(B, "Split", 3, 3).replace("{", "{" + shared),
                vertex(C, "Count", 6, 6).replace("{", "{" + shared));
        cluster(16, 4, 6, 6);

        SlotLimit limit = SlotLimits.cluster(rest).of(FlinkJob.read(rest, JOB)).orElseThrow();

        assertThat(limit.slots()).as("4 free + the 6 the job holds (one group)").isEqualTo(10);
        assertThat(limit.why())
                .contains("has 16 task slots on 1 TaskManager(s), 6 held by other jobs");
        assertThat(limit.groups()).containsEntry("Count", "8b9e3f0a7c1d2e4f5a6b7c8d9e0f1a2b");
    }

    @Test
    void slotsTheJobStillHoldsAfterAScaleDownAreNotCountedAsAnotherJobs() {
        job("Adaptive", vertex(A, "Source: In", 1, 1), vertex(B, "Count", 7, 7));
        cluster(16, 0, 16, 0);

        SlotLimit limit = SlotLimits.cluster(rest).of(FlinkJob.read(rest, JOB)).orElseThrow();

        assertThat(limit.slots()).isEqualTo(16);
        assertThat(limit.why()).contains("none held by other jobs");
    }

    @Test
    void anOverviewWithoutSlotsIsRefusedNamingTheEndpoint() {
        answer("/overview", 200, "{\"jobs-running\":1}");

        assertThatThrownBy(() -> TaskSlots.read(rest))
                .isInstanceOf(FlinkConnectorException.class)
                .hasMessageContaining("overview answered no slots-total or slots-available")
                .hasMessageContaining("is this a Flink JobManager's REST endpoint?");
    }
}
