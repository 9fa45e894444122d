package dev.flowscale.autoscaler.state;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/** Reads the stored history's fields, failing with the field's name and what was expected. */
final class Fields {
    private Fields() {}

    static JsonNode object(JsonNode n, String field) {
        JsonNode v = n.path(field);
        if (!v.isObject()) {
            throw bad(field, "an object", v);
        }
        return v;
    }

    static JsonNode array(JsonNode n, String field) {
        JsonNode v = n.path(field);
        if (!v.isArray()) {
            throw bad(field, "an array", v);
        }
        return v;
    }

    static String text(JsonNode n, String field) {
        JsonNode v = n.path(field);
        if (!v.isTextual()) {
            throw bad(field, "a string", v);
        }
        return v.asText();
    }

    static int integer(JsonNode n, String field) {
        return integer(n, field, n.path(field));
    }

    static int integer(JsonNode n, String field, JsonNode v) {
        if (!v.canConvertToInt() || !v.isIntegralNumber()) {
            throw bad(field, "an integer", v);
        }
        return v.intValue();
    }

    /** A double: a number, or NaN and the infinities as strings (as Jackson writes them). */
    static double real(JsonNode n, String field) {
        JsonNode v = n.path(field);
        if (v.isNumber()) {
            return v.doubleValue();
        }
        if (v.isTextual()) {
            switch (v.asText()) {
                case "NaN":
                    return Double.NaN;
                case "Infinity":
                    return Double.POSITIVE_INFINITY;
                case "-Infinity":
                    return Double.NEGATIVE_INFINITY;
                default:
                    break;
            }
        }
        throw bad(field, "a number", v);
    }

    static Instant instant(JsonNode n, String field) {
        String text = text(n, field);
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw bad(field, "an RFC 3339 time", n.path(field));
        }
    }

    static List<String> strings(JsonNode n, String field) {
        List<String> values = new ArrayList<>();
        for (JsonNode v : array(n, field)) {
            if (!v.isTextual()) {
                throw bad(field, "an array of strings", v);
            }
            values.add(v.asText());
        }
        return values;
    }

    static <E extends Enum<E>> E constant(JsonNode n, String field, Class<E> type) {
        String text = text(n, field);
        try {
            return Enum.valueOf(type, text);
        } catch (IllegalArgumentException e) {
            throw bad(field, "one of " + List.of(type.getEnumConstants()), n.path(field));
        }
    }

    private static StateException bad(String field, String expected, JsonNode found) {
        return new StateException(
                "stored autoscaler history: field '"
                        + field
                        + "' must be "
                        + expected
                        + ", found "
                        + (found.isMissingNode() ? "nothing" : found.toString()));
    }
}
