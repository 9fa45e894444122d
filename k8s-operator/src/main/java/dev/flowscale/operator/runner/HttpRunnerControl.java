package dev.flowscale.operator.runner;

import dev.flowscale.operator.api.CheckpointFailures;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.core.OperatorException;
import dev.flowscale.runner.api.CheckpointStatus;
import dev.flowscale.runner.api.JobView;
import dev.flowscale.runner.api.RescaleView;
import dev.flowscale.runner.api.RunnerApiException;
import dev.flowscale.runner.api.RunnerClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * {@link RunnerControl} over the runner's JSON API with the runner API's {@link RunnerClient}:
 * stop-with-savepoint, in-place rescale, the job and the latest snapshot. Sends {@code
 * Authorization: Bearer <token>} with the job's token ({@link RunnerTokens}: the per-job Secret)
 * when it has one.
 */
public final class HttpRunnerControl implements RunnerControl {
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(5);
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Function<StreamJob, URI> address;
    private final Duration timeout;
    private final Function<StreamJob, Optional<String>> token;

    /**
     * @param address the runner API of a job ({@link #serviceAddress} in a cluster)
     * @param timeout longest wait for a savepoint or an in-place rescale
     * @param token the bearer token of a job's runner, if it has one ({@link RunnerTokens} in a
     *     cluster)
     */
    public HttpRunnerControl(
            Function<StreamJob, URI> address,
            Duration timeout,
            Function<StreamJob, Optional<String>> token) {
        this.address = address;
        this.timeout = timeout;
        this.token = token;
    }

    /** Without a runner token (runners started without {@value RunnerResources#TOKEN_ENV}). */
    public HttpRunnerControl(Function<StreamJob, URI> address, Duration timeout) {
        this(address, timeout, job -> Optional.empty());
    }

    /** The runner's Service in cluster DNS: {@code http://<job>-runner.<namespace>.svc:9249}. */
    public static URI serviceAddress(StreamJob job) {
        return URI.create(
                "http://"
                        + RunnerResources.runnerName(job)
                        + "."
                        + job.getMetadata().getNamespace()
                        + ".svc:"
                        + RunnerResources.API_PORT);
    }

    @Override
    public String stopWithSavepoint(StreamJob job) {
        return required(
                call(job, "the runner keeps running", c -> c.stopWithSavepoint(timeout))
                        .savepoint(),
                "savepoint",
                job);
    }

    @Override
    public RescaleView rescale(StreamJob job, Map<String, Integer> parallelism) {
        RescaleView rescaled =
                call(
                        job,
                        "the engine restarted the job at its previous parallelism",
                        c -> c.rescale(parallelism, timeout));
        required(rescaled.savepoint(), "savepoint", job);
        return rescaled;
    }

    @Override
    public RunnerState state(StreamJob job) {
        JobView view = call(job, "check that the runner is up", RunnerClient::job);
        return new RunnerState(
                view.status(),
                new TreeMap<>(view.parallelism()),
                checkpointFailures(view.checkpoints()),
                view.runId());
    }

    /**
     * The failure side of the runner's checkpoints object (docs/runner-api.md); null when it has
     * none.
     */
    static CheckpointFailures checkpointFailures(CheckpointStatus checkpoints) {
        if (checkpoints == null) {
            return null;
        }
        CheckpointFailures f = new CheckpointFailures();
        f.failed = checkpoints.failed();
        f.consecutive = checkpoints.consecutiveFailures();
        f.lastFailureAt = checkpoints.lastFailureAt();
        f.lastFailure = checkpoints.lastFailure();
        return f;
    }

    @Override
    public Optional<String> latestSnapshot(StreamJob job) {
        return call(job, "none is known", RunnerClient::latestSnapshot)
                .map(s -> required(s.snapshot(), "snapshot", job));
    }

    private static String required(String value, String field, StreamJob job) {
        if (value == null) {
            throw new OperatorException(
                    "the runner of StreamJob "
                            + job.getMetadata().getName()
                            + " answered without "
                            + field);
        }
        return value;
    }

    /**
     * One call to the job's runner; a failed one is an {@link OperatorException} saying what it
     * means.
     */
    private <T> T call(StreamJob job, String otherwise, Function<RunnerClient, T> request) {
        RunnerClient client =
                new RunnerClient(
                        http, address.apply(job), READ_TIMEOUT, token.apply(job).orElse(null));
        try {
            return request.apply(client);
        } catch (RunnerApiException e) {
            String fix =
                    e.status() == RunnerApiException.NO_ANSWER
                            ? "check that the runner is up"
                            : otherwise;
            throw new OperatorException(e.getMessage() + "; " + fix, e);
        }
    }
}
