package dev.flowscale.engine.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.checkpoint.SnapshotException;
import dev.flowscale.engine.metrics.HttpCall;
import dev.flowscale.engine.metrics.HttpReply;
import dev.flowscale.engine.metrics.MetricsHttpServer;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.runner.api.ApiError;
import dev.flowscale.runner.api.RescaleView;
import dev.flowscale.runner.api.RunnerPaths;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * {@code POST /api/v1/rescale} with {@code {"parallelism": {"op": n, ...}}}: rescales the job
 * inside this runner process through the engine's own {@link RunningJob#rescale} (keyed state moved
 * by key group, handed over in memory, its savepoint written while the new run works) and answers
 * 200 with a {@link RescaleView} (the path taken, {@code in-place}, the savepoint and the downtime)
 * only once that savepoint is durable. Bad input answers 400, a job that is not running (or already
 * rescaling) 409, a failed rescale 500 saying where the job runs now: at its old parallelism, from
 * the same state or its latest complete snapshot (a savepoint not written rolls the rescale back; a
 * barrier stuck in a user function past the timeout cancels the run and names it).
 */
public final class RescaleApi {

    private final ObjectMapper mapper = new ObjectMapper();
    private final RunningJob job;
    private final Duration timeout;

    public RescaleApi(RunningJob job, Duration timeout) {
        if (job == null || timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new EngineException(
                    "rescale API needs a job and a timeout > 0; got " + job + ", " + timeout);
        }
        this.job = job;
        this.timeout = timeout;
    }

    /**
     * Routes {@code POST /api/v1/rescale} on {@code control}, the runner's serialized control
     * thread.
     */
    public RescaleApi serveOn(MetricsHttpServer server, Executor control) {
        server.route("POST", RunnerPaths.RESCALE, this::handle, control);
        return this;
    }

    HttpReply handle(HttpCall call) {
        Object request;
        try {
            request = parallelism(new ByteArrayInputStream(call.body()));
        } catch (IOException e) {
            request = badRequest("the body could not be read (" + e.getMessage() + ")");
        }
        Object answer = request instanceof ApiError ? request : rescale(cast(request));
        return answer instanceof ApiError error
                ? HttpReply.json(error.status(), error)
                : HttpReply.json(200, answer);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Integer> cast(Object parallelism) {
        return (Map<String, Integer>) parallelism;
    }

    /** The request's {"parallelism": {"op": n}}, or an ApiError 400 naming what is wrong. */
    private Object parallelism(InputStream body) throws IOException {
        JsonNode root;
        try {
            root = mapper.readTree(body.readAllBytes());
        } catch (IOException e) {
            return badRequest(
                    "the body is not JSON (" + e.getMessage().lines().findFirst().orElse("") + ")");
        }
        if (root != null && root.isObject()) {
            for (Iterator<String> names = root.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                if (!name.equals("parallelism")) {
                    return badRequest(
                            "unknown field \"" + name + "\"; the only field is \"parallelism\"");
                }
            }
        }
        JsonNode ops = root == null ? null : root.get("parallelism");
        if (ops == null || !ops.isObject() || ops.isEmpty()) {
            return badRequest("the body needs a non-empty object \"parallelism\"");
        }
        Map<String, Integer> parallelism = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> op : (Iterable<Map.Entry<String, JsonNode>>) ops::fields) {
            if (!op.getValue().canConvertToInt()
                    || !op.getValue().isIntegralNumber()
                    || op.getValue().asInt() < 1) {
                return badRequest(
                        "parallelism."
                                + op.getKey()
                                + " is "
                                + op.getValue()
                                + "; it must be an integer >= 1");
            }
            parallelism.put(op.getKey(), op.getValue().asInt());
        }
        return parallelism;
    }

    private static ApiError badRequest(String what) {
        return new ApiError(
                400,
                "POST "
                        + RunnerPaths.RESCALE
                        + ": "
                        + what
                        + "; send e.g. {\"parallelism\": {\"split\": 4}}");
    }

    private Object rescale(Map<String, Integer> parallelism) {
        RunningJob.Status status = job.status();
        if (status != RunningJob.Status.RUNNING) {
            boolean passing =
                    status == RunningJob.Status.RESCALING || status == RunningJob.Status.RESTARTING;
            return new ApiError(
                    409,
                    "job '"
                            + job.name()
                            + "' is "
                            + status
                            + "; "
                            + RunnerPaths.RESCALE
                            + " needs a running job, "
                            + (passing
                                    ? "retry when GET " + RunnerPaths.JOB + " reports RUNNING"
                                    : "and it will not run again in this runner"));
        }
        try {
            return job.rescale(parallelism, timeout);
        } catch (SnapshotException e) {
            // The message says what failed and where the job runs now (rolled back or restored).
            return new ApiError(500, e.getMessage());
        } catch (InvalidJobException e) {
            return new ApiError(400, e.getMessage());
        } catch (EngineException e) {
            return new ApiError(
                    e.getMessage().contains("already being") ? 409 : 500, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new ApiError(500, "rescale of job '" + job.name() + "' was interrupted; retry");
        }
    }
}
