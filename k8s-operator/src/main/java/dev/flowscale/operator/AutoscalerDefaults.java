package dev.flowscale.operator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flowscale.operator.api.AutoscalerMode;
import dev.flowscale.operator.api.AutoscalerSpec;
import dev.flowscale.operator.api.StreamJob;
import java.util.List;
import java.util.function.Function;

/**
 * The autoscaler settings a StreamJob leaves out: the operator's defaults (environment variable
 * {@value #ENV}, a JSON object with the fields of spec.autoscaler, set by the Helm value
 * autoscalerDefaults), else the built-in ones. Settings the job sets always win.
 */
public final class AutoscalerDefaults {
    public static final String ENV = "FLOWSCALE_AUTOSCALER_DEFAULTS";
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    private final AutoscalerSpec defaults;

    private AutoscalerDefaults(AutoscalerSpec defaults) {
        this.defaults = defaults;
    }

    /** The built-in defaults: recommend, 30s, 60s warm-up, utilization 1.0, parallelism 1..32, 5m, no alignment. */
    public static AutoscalerDefaults builtIn() {
        AutoscalerSpec d = new AutoscalerSpec();
        d.mode = AutoscalerMode.RECOMMEND;
        d.policyInterval = "30s";
        d.warmUp = "60s";
        d.targetUtilization = 1.0;
        d.minParallelism = 1;
        d.maxParallelism = 32;
        d.scaleDownDelay = "5m";
        d.keyGroupAlignment = false;
        return new AutoscalerDefaults(d);
    }

    /**
     * Defaults from {@value #ENV}'s JSON (null or blank: the built-in ones).
     *
     * @throws OperatorException naming the variable and the field when the JSON or a value is wrong
     */
    public static AutoscalerDefaults fromJson(String json) {
        if (json == null || json.isBlank()) {
            return builtIn();
        }
        AutoscalerSpec given;
        try {
            given = JSON.readValue(json, AutoscalerSpec.class);
        } catch (JsonProcessingException e) {
            throw new OperatorException(ENV + " is not a valid autoscaler settings object (fields: mode,"
                    + " policyInterval, warmUp, targetUtilization, minParallelism, maxParallelism, scaleDownDelay,"
                    + " keyGroupAlignment): " + e.getOriginalMessage());
        }
        AutoscalerDefaults resolved = new AutoscalerDefaults(builtIn().resolve(given));
        List<String> problems = SpecValidator.autoscalerProblems(resolved.defaults);
        if (!problems.isEmpty()) {
            throw new OperatorException(ENV + ": " + String.join("; ", problems).replace("spec.autoscaler.",
                    ENV + "."));
        }
        return resolved;
    }

    /** Every field of {@code spec} that is set, the default for every other one (a new object). */
    public AutoscalerSpec resolve(AutoscalerSpec spec) {
        AutoscalerSpec s = spec == null ? new AutoscalerSpec() : spec;
        AutoscalerSpec r = new AutoscalerSpec();
        r.mode = pick(s, a -> a.mode);
        r.policyInterval = pick(s, a -> a.policyInterval);
        r.warmUp = pick(s, a -> a.warmUp);
        r.targetUtilization = pick(s, a -> a.targetUtilization);
        r.minParallelism = pick(s, a -> a.minParallelism);
        r.maxParallelism = pick(s, a -> a.maxParallelism);
        r.scaleDownDelay = pick(s, a -> a.scaleDownDelay);
        r.keyGroupAlignment = pick(s, a -> a.keyGroupAlignment);
        return r;
    }

    /** The job with its autoscaler settings resolved (in memory only; the spec on the server is not written). */
    StreamJob resolveJob(StreamJob job) {
        if (job.getSpec() != null) {
            job.getSpec().autoscaler = resolve(job.getSpec().autoscaler);
        }
        return job;
    }

    private <T> T pick(AutoscalerSpec spec, Function<AutoscalerSpec, T> field) {
        T value = field.apply(spec);
        return value != null ? value : field.apply(defaults);
    }
}
