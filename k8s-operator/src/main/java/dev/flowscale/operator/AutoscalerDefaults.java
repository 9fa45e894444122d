package dev.flowscale.operator;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flowscale.operator.api.AutoscalerSpec;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.core.OperatorException;
import dev.flowscale.operator.loop.SpecSettings;
import java.util.List;
import java.util.Map;

/**
 * The autoscaler settings a StreamJob leaves out: the operator's defaults (environment variable
 * {@value #ENV}, a JSON object with the fields of spec.autoscaler, set by the Helm value
 * autoscalerDefaults), else the built-in ones. Settings the job sets always win.
 */
public final class AutoscalerDefaults {
    public static final String ENV = "FLOWSCALE_AUTOSCALER_DEFAULTS";
    private static final ObjectMapper JSON =
            new ObjectMapper()
                    .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                    .setSerializationInclusion(JsonInclude.Include.NON_NULL);
    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {};
    private final AutoscalerSpec defaults;

    private AutoscalerDefaults(AutoscalerSpec defaults) {
        this.defaults = defaults;
    }

    /** The built-in defaults: the settings table's cluster column (docs/autoscaler-settings.md). */
    public static AutoscalerDefaults builtIn() {
        return new AutoscalerDefaults(SpecSettings.clusterDefaults());
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
            throw new OperatorException(
                    ENV
                            + " is not a valid autoscaler settings object (its fields are those of"
                            + " spec.autoscaler, listed in docs/autoscaler-settings.md): "
                            + e.getOriginalMessage());
        }
        AutoscalerDefaults resolved = new AutoscalerDefaults(builtIn().resolve(given));
        List<String> problems = SpecValidator.autoscalerProblems(resolved.defaults);
        if (!problems.isEmpty()) {
            throw new OperatorException(
                    ENV
                            + ": "
                            + String.join("; ", problems).replace("spec.autoscaler.", ENV + "."));
        }
        return resolved;
    }

    /** Every field of {@code spec} that is set, the default for every other one (a new object). */
    public AutoscalerSpec resolve(AutoscalerSpec spec) {
        Map<String, Object> fields = JSON.convertValue(defaults, MAP);
        fields.putAll(JSON.convertValue(spec == null ? new AutoscalerSpec() : spec, MAP));
        return JSON.convertValue(fields, AutoscalerSpec.class);
    }

    /**
     * The job with its autoscaler settings resolved (in memory only; the spec on the server is not
     * written).
     */
    StreamJob resolveJob(StreamJob job) {
        if (job.getSpec() != null) {
            job.getSpec().autoscaler = resolve(job.getSpec().autoscaler);
        }
        return job;
    }
}
