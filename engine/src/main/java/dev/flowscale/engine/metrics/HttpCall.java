package dev.flowscale.engine.metrics;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * One request as a route sees it: method, path and the body, already read within {@link
 * MetricsHttpServer#MAX_BODY_BYTES}.
 */
public record HttpCall(String method, String path, byte[] body) {
    private static final ObjectMapper STRICT =
            new ObjectMapper()
                    .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                    .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                    .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                    .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                    .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS); // "30" is not 30

    /**
     * The body as {@code type}, or empty when there is no body (or only whitespace). Malformed
     * JSON, a value of the wrong type and unknown fields are answered 400 naming the problem.
     *
     * @throws HttpReply.Refusal with status 400
     */
    public <T> Optional<T> json(Class<T> type) {
        if (new String(body, StandardCharsets.UTF_8).isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.ofNullable(STRICT.readValue(body, type));
        } catch (UnrecognizedPropertyException e) {
            throw refusal(
                    "has an unknown field '"
                            + e.getPropertyName()
                            + "'; known fields: "
                            + e.getKnownPropertyIds());
        } catch (MismatchedInputException e) {
            throw refusal(
                    "does not match the expected shape at "
                            + where(e.getLocation())
                            + ": "
                            + e.getOriginalMessage());
        } catch (JsonProcessingException e) {
            throw refusal(
                    "is not valid JSON at "
                            + where(e.getLocation())
                            + ": "
                            + e.getOriginalMessage());
        } catch (IOException e) {
            throw refusal("cannot be read: " + e.getMessage());
        }
    }

    private HttpReply.Refusal refusal(String problem) {
        return new HttpReply.Refusal(400, "the body of " + method + " " + path + " " + problem);
    }

    private static String where(JsonLocation location) {
        return location == null
                ? "an unknown place"
                : "line " + location.getLineNr() + " column " + location.getColumnNr();
    }
}
