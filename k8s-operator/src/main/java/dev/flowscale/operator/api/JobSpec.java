package dev.flowscale.operator.api;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.ArrayList;
import java.util.List;

/** The job inside the image: exactly one of a built-in job name and a user main class. */
@ValidationRule(
        value = "has(self.builtin) != has(self.mainClass)",
        message = "set exactly one of spec.job.builtin and spec.job.mainClass")
public class JobSpec {
    @Pattern("^[a-z][a-z0-9-]*$")
    @JsonPropertyDescription(
            "Name of a job built into the engine (wordcount, chain, sensor-alerts, nexmark-q1, nexmark-q2, nexmark-q3, nexmark-q5, nexmark-q8, nexmark-q11; kafka-wordcount, which needs spec.kafka)")
    public String builtin;

    @Pattern("^[A-Za-z_$][A-Za-z0-9_$]*(\\.[A-Za-z_$][A-Za-z0-9_$]*)*$")
    @JsonPropertyDescription(
            "Fully qualified class of a user job (implements dev.flowscale.engine.job.StreamingJob)"
                    + " in a jar under /opt/flowscale/jobs of an image built FROM the runner image")
    public String mainClass;

    @JsonPropertyDescription(
            "Arguments passed to the job (for built-in jobs: runner options such as --rate 1000)")
    public List<String> args = new ArrayList<>();
}
