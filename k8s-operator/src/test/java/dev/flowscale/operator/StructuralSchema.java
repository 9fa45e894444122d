package dev.flowscale.operator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a real API server does with a custom resource before it stores it, for one version of a CRD
 * with a structural openAPIV3Schema (the mock API server stores whatever it is sent):
 *
 * <ol>
 *   <li><b>prunes</b> fields the schema does not name (no {@code properties} entry, no {@code
 *       additionalProperties}, no {@code x-kubernetes-preserve-unknown-fields}) and nulls of fields
 *       not {@code nullable}, silently (a client that sets no {@code fieldValidation} gets a
 *       warning at most);
 *   <li><b>validates</b> what is left: {@code type} (with {@code x-kubernetes-int-or-string}),
 *       {@code enum} and {@code required}; any violation refuses the whole write with 422 Invalid,
 *       naming each field as the API server does ({@code spec.flinkConfiguration.x}).
 * </ol>
 *
 * Root {@code apiVersion}, {@code kind} and {@code metadata} are the API server's own and are kept.
 * Not modelled (flowscale's writes do not depend on them): formats, patterns, bounds, CEL rules,
 * defaults.
 */
final class StructuralSchema {
    private static final Set<String> ROOT_FIELDS = Set.of("apiVersion", "kind", "metadata");
    private final JsonNode schema;

    StructuralSchema(JsonNode openApiV3Schema) {
        this.schema = openApiV3Schema;
    }

    /**
     * Drops what the schema does not name from {@code object}, in place.
     *
     * @return the paths dropped (a real API server names them in {@code Warning} headers)
     */
    List<String> prune(ObjectNode object) {
        List<String> dropped = new ArrayList<>();
        pruneObject("", object, schema, true, dropped);
        return dropped;
    }

    /**
     * Every violation of the schema, as the API server words it; empty when the object is valid.
     */
    List<String> violations(JsonNode object) {
        List<String> found = new ArrayList<>();
        check("", object, schema, found, true);
        return found;
    }

    private static void pruneObject(
            String path, ObjectNode object, JsonNode schema, boolean root, List<String> dropped) {
        if (schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)) {
            return;
        }
        JsonNode properties = schema.path("properties");
        JsonNode additional = schema.path("additionalProperties");
        Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            JsonNode fieldSchema =
                    properties.has(field.getKey())
                            ? properties.get(field.getKey())
                            : additional.isObject() ? additional : null;
            if (root && ROOT_FIELDS.contains(field.getKey())) {
                continue;
            }
            String at = join(path, field.getKey());
            if (fieldSchema == null && !additional.asBoolean(false)) {
                fields.remove();
                dropped.add(at);
            } else if (field.getValue().isNull()
                    && fieldSchema != null
                    && !fieldSchema.path("nullable").asBoolean(false)) {
                fields.remove();
            } else if (fieldSchema != null) {
                pruneValue(at, field.getValue(), fieldSchema, dropped);
            }
        }
    }

    private static void pruneValue(
            String path, JsonNode value, JsonNode schema, List<String> dropped) {
        if (value instanceof ObjectNode object) {
            pruneObject(path, object, schema, false, dropped);
        } else if (value instanceof ArrayNode array && schema.has("items")) {
            for (int i = 0; i < array.size(); i++) {
                pruneValue(path + "[" + i + "]", array.get(i), schema.get("items"), dropped);
            }
        }
    }

    private static void check(
            String path, JsonNode value, JsonNode schema, List<String> found, boolean root) {
        if (value.isNull()) {
            return; // pruned unless nullable
        }
        String type = schema.path("type").asText("");
        if (!typeMatches(type, value, schema)) {
            found.add(
                    path
                            + ": Invalid value: \""
                            + actualType(value)
                            + "\": "
                            + path
                            + " in body must be of type "
                            + type
                            + ": \""
                            + actualType(value)
                            + "\"");
            return;
        }
        checkEnum(path, value, schema, found);
        if (value.isObject()) {
            checkObject(path, value, schema, found, root);
        } else if (value.isArray() && schema.has("items")) {
            for (int i = 0; i < value.size(); i++) {
                check(path + "[" + i + "]", value.get(i), schema.get("items"), found, false);
            }
        }
    }

    private static void checkObject(
            String path, JsonNode value, JsonNode schema, List<String> found, boolean root) {
        for (JsonNode required : schema.path("required")) {
            if (!value.has(required.asText())) {
                found.add(join(path, required.asText()) + ": Required value");
            }
        }
        JsonNode properties = schema.path("properties");
        JsonNode additional = schema.path("additionalProperties");
        value.fields()
                .forEachRemaining(
                        field -> {
                            if (root && ROOT_FIELDS.contains(field.getKey())) {
                                return;
                            }
                            JsonNode fieldSchema =
                                    properties.has(field.getKey())
                                            ? properties.get(field.getKey())
                                            : additional.isObject() ? additional : null;
                            if (fieldSchema != null) {
                                check(
                                        join(path, field.getKey()),
                                        field.getValue(),
                                        fieldSchema,
                                        found,
                                        false);
                            }
                        });
    }

    private static void checkEnum(
            String path, JsonNode value, JsonNode schema, List<String> found) {
        JsonNode allowed = schema.path("enum");
        if (!allowed.isArray() || allowed.isEmpty()) {
            return;
        }
        List<String> options = new ArrayList<>();
        for (JsonNode option : allowed) {
            if (option.equals(value)) {
                return;
            }
            options.add(option.toString());
        }
        found.add(
                path
                        + ": Unsupported value: "
                        + value
                        + ": supported values: "
                        + String.join(", ", options));
    }

    private static boolean typeMatches(String type, JsonNode value, JsonNode schema) {
        if (schema.path("x-kubernetes-int-or-string").asBoolean(false)) {
            return value.isTextual() || value.isIntegralNumber();
        }
        return switch (type) {
            case "" -> true;
            case "object" -> value.isObject();
            case "array" -> value.isArray();
            case "string" -> value.isTextual();
            case "integer" -> value.isIntegralNumber();
            case "number" -> value.isNumber();
            case "boolean" -> value.isBoolean();
            default -> false;
        };
    }

    private static String actualType(JsonNode value) {
        if (value.isObject()) {
            return "object";
        }
        if (value.isArray()) {
            return "array";
        }
        if (value.isIntegralNumber()) {
            return "integer";
        }
        if (value.isNumber()) {
            return "number";
        }
        return value.isBoolean() ? "boolean" : "string";
    }

    private static String join(String path, String field) {
        return path.isEmpty() ? field : path + "." + field;
    }
}
