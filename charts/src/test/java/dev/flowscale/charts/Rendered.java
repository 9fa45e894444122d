package dev.flowscale.charts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.NoSuchElementException;

/** The objects of a rendered chart, parsed from Helm's multi-document YAML. */
record Rendered(String yaml, List<JsonNode> objects) {
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    static Rendered parse(String yaml) {
        try (MappingIterator<JsonNode> docs = YAML.readerFor(JsonNode.class).readValues(yaml)) {
            List<JsonNode> objects =
                    docs.readAll().stream()
                            .filter(d -> d != null && d.isObject() && !d.isEmpty())
                            .toList();
            return new Rendered(yaml, objects);
        } catch (IOException e) {
            throw new UncheckedIOException("helm rendered YAML that does not parse:\n" + yaml, e);
        }
    }

    List<JsonNode> ofKind(String kind) {
        return objects.stream().filter(o -> kind.equals(o.path("kind").asText())).toList();
    }

    JsonNode one(String kind) {
        List<JsonNode> found = ofKind(kind);
        if (found.size() != 1) {
            throw new NoSuchElementException(
                    "expected one " + kind + ", found " + found.size() + " in:\n" + yaml);
        }
        return found.get(0);
    }

    JsonNode one(String kind, String name) {
        return ofKind(kind).stream()
                .filter(o -> name.equals(o.at("/metadata/name").asText()))
                .findFirst()
                .orElseThrow(
                        () ->
                                new NoSuchElementException(
                                        "no " + kind + " named " + name + " in:\n" + yaml));
    }

    /** The value of the operator container's environment variable {@code name}. */
    String env(String name) {
        for (JsonNode env : one("Deployment").at("/spec/template/spec/containers/0/env")) {
            if (name.equals(env.path("name").asText())) {
                return env.path("value").asText();
            }
        }
        throw new NoSuchElementException("the operator Deployment has no env var " + name);
    }
}
