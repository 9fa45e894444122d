package dev.flowscale.operator.api;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import java.util.List;

/**
 * The jar a session cluster's job was started from, so that flowscale can start it again from a
 * savepoint at a new parallelism where the job cannot be rescaled in place.
 */
public class FlinkJar {
    @JsonPropertyDescription(
            "The id the session cluster gave the uploaded jar (GET /jars), e.g."
                    + " 4f1b..._wordcount.jar")
    @Required
    public String id;

    @JsonPropertyDescription("The jar's entry class; left out, its manifest's main class")
    public String entryClass;

    @JsonPropertyDescription("The job's program arguments, as it was started with")
    public List<String> args;
}
