package dev.flowscale.operator.runner;

import dev.flowscale.operator.api.RescalingSpec;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.api.StreamJobSpec;
import dev.flowscale.operator.core.DurationText;
import dev.flowscale.operator.core.OperatorException;
import java.time.Duration;
import java.util.function.UnaryOperator;

/**
 * The operator's defaults of the runner settings a StreamJob may leave out: how many snapshots the
 * runner keeps ({@code spec.savepoints.retain}) and how rescales that need a bigger pod go ({@code
 * spec.rescaling}). Set by the Helm values runnerDefaults.* through environment variables; a bad
 * value stops the operator at start with a message naming the variable.
 *
 * @param retain complete checkpoints and savepoints kept (the runner's --retain)
 * @param inPlaceResize whether pods are resized in place where the cluster can
 * @param retryBackoff the first wait before an unschedulable scale-up is tried again
 * @param maxRetryBackoff the longest such wait
 */
public record RunnerDefaults(
        int retain, boolean inPlaceResize, Duration retryBackoff, Duration maxRetryBackoff) {
    static final String RETAIN_ENV = "FLOWSCALE_RETAIN";
    static final String IN_PLACE_RESIZE_ENV = "FLOWSCALE_IN_PLACE_POD_RESIZE";
    static final String RETRY_BACKOFF_ENV = "FLOWSCALE_RETRY_BACKOFF";
    static final String MAX_RETRY_BACKOFF_ENV = "FLOWSCALE_MAX_RETRY_BACKOFF";

    /** The runner's own default (the engine's CheckpointConfig.DEFAULT_RETAINED). */
    static final int RETAIN = 3;

    public static final int MAX_RETAIN = 1000;
    static final RunnerDefaults BUILT_IN =
            new RunnerDefaults(RETAIN, true, Duration.ofMinutes(1), Duration.ofMinutes(30));

    /**
     * The defaults from the environment ({@code env} looks a variable up); unset or empty: the
     * built-in ones.
     */
    public static RunnerDefaults from(UnaryOperator<String> env) {
        String retain = env.apply(RETAIN_ENV);
        String resize = env.apply(IN_PLACE_RESIZE_ENV);
        return new RunnerDefaults(
                blank(retain) ? RETAIN : retain(RETAIN_ENV, retain),
                blank(resize) ? BUILT_IN.inPlaceResize : flag(IN_PLACE_RESIZE_ENV, resize),
                duration(RETRY_BACKOFF_ENV, env.apply(RETRY_BACKOFF_ENV), BUILT_IN.retryBackoff),
                duration(
                        MAX_RETRY_BACKOFF_ENV,
                        env.apply(MAX_RETRY_BACKOFF_ENV),
                        BUILT_IN.maxRetryBackoff));
    }

    /**
     * The job with the settings it leaves out filled in (in memory only; the spec on the server is
     * not written).
     */
    public StreamJob resolveJob(StreamJob job) {
        StreamJobSpec spec = job.getSpec();
        if (spec == null) {
            return job;
        }
        if (spec.savepoints != null && spec.savepoints.retain == null) {
            spec.savepoints.retain = retain;
        }
        RescalingSpec r = spec.rescaling == null ? new RescalingSpec() : spec.rescaling;
        r.inPlacePodResize = r.inPlacePodResize == null ? inPlaceResize : r.inPlacePodResize;
        r.retryBackoff = r.retryBackoff == null ? retryBackoff.toSeconds() + "s" : r.retryBackoff;
        r.maxRetryBackoff =
                r.maxRetryBackoff == null ? maxRetryBackoff.toSeconds() + "s" : r.maxRetryBackoff;
        spec.rescaling = r;
        return job;
    }

    private static int retain(String variable, String text) {
        try {
            int value = Integer.parseInt(text.trim());
            if (value >= 1 && value <= MAX_RETAIN) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below, with the fix
        }
        throw new OperatorException(
                variable
                        + " is '"
                        + text
                        + "': set how many checkpoints and savepoints a"
                        + " runner keeps, a whole number from 1 to "
                        + MAX_RETAIN
                        + " (Helm runnerDefaults.retain)");
    }

    private static boolean flag(String variable, String text) {
        if (!text.trim().equals("true") && !text.trim().equals("false")) {
            throw new OperatorException(
                    variable
                            + " is '"
                            + text
                            + "': set true or false"
                            + " (Helm runnerDefaults.inPlacePodResize)");
        }
        return Boolean.parseBoolean(text.trim());
    }

    private static Duration duration(String variable, String text, Duration fallback) {
        return blank(text) ? fallback : DurationText.parse(variable, text.trim());
    }

    private static boolean blank(String text) {
        return text == null || text.isBlank();
    }
}
