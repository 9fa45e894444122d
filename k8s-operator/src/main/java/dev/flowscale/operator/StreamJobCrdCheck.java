package dev.flowscale.operator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.flowscale.operator.core.OperatorException;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The installed StreamJob CRD against the one this operator was built with (the chart's CRD, packed
 * into the operator's jar): every field of the served version's schema must be in the installed
 * one, or the API server prunes it from what the operator writes (its status) and what users set,
 * silently. A schema is named by its revision, the first 12 hex digits of the SHA-256 of its JSON.
 */
final class StreamJobCrdCheck {
    static final String NAME = "streamjobs.flowscale.dev";
    static final String VERSION = "v1alpha1";
    static final String FILE = "streamjobs.flowscale.dev-v1.yml";
    private static final String RESOURCE = "/META-INF/flowscale/crds/" + FILE;
    private static final String FIX =
            "install this release's CRD: kubectl apply --server-side -f"
                    + " charts/flowscale/crds/"
                    + FILE
                    + " (helm install and helm upgrade leave an installed CRD as it is), then"
                    + " restart the operator";
    private static final int LISTED = 8;

    private final CustomResourceDefinitionVersion needed;

    StreamJobCrdCheck(CustomResourceDefinition needed) {
        this.needed = served(needed);
        if (this.needed == null) {
            throw new IllegalArgumentException(NAME + " has no version " + VERSION);
        }
    }

    /** The check against the CRD packed into this operator. */
    static StreamJobCrdCheck ofThisRelease() {
        try (InputStream in = StreamJobCrdCheck.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the operator's jar");
            }
            return new StreamJobCrdCheck(
                    Serialization.unmarshal(in, CustomResourceDefinition.class));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Reads the installed CRD and throws, naming the revisions and the fix, when it falls short.
     */
    void verify(KubernetesClient client) {
        verify(client.apiextensions().v1().customResourceDefinitions().withName(NAME).get());
    }

    /**
     * Throws, naming the revisions and the fix, when {@code installed} (null: none) falls short.
     */
    void verify(CustomResourceDefinition installed) {
        CustomResourceDefinitionVersion found = installed == null ? null : served(installed);
        if (installed == null) {
            throw refusal("the StreamJob CRD " + NAME + " is not installed");
        }
        if (found == null || !hasStatus(found)) {
            throw refusal(
                    "the installed StreamJob CRD %s does not serve %s with a status subresource"
                            .formatted(NAME, VERSION));
        }
        List<String> missing = new ArrayList<>();
        missingFields(schema(needed), schema(found), "", missing);
        if (!missing.isEmpty()) {
            throw refusal(
                    ("the installed StreamJob CRD %s is older than this operator: found %s schema"
                                    + " %s, which lacks %s (the API server would drop them from"
                                    + " what the operator writes)")
                            .formatted(NAME, VERSION, revision(found), listed(missing)));
        }
    }

    private OperatorException refusal(String problem) {
        return new OperatorException(
                "%s; this operator needs %s schema %s: %s"
                        .formatted(problem, VERSION, revision(needed), FIX));
    }

    private static boolean hasStatus(CustomResourceDefinitionVersion version) {
        return version.getSubresources() != null && version.getSubresources().getStatus() != null;
    }

    /** The first 12 hex digits of the SHA-256 of the version's schema as JSON with sorted keys. */
    static String revision(CustomResourceDefinitionVersion version) {
        try {
            ObjectMapper sorted =
                    new ObjectMapper()
                            .configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);
            Object tree = sorted.readValue(Serialization.asJson(schema(version)), Map.class);
            byte[] hash =
                    MessageDigest.getInstance("SHA-256").digest(sorted.writeValueAsBytes(tree));
            return HexFormat.of().formatHex(hash).substring(0, 12);
        } catch (IOException | NoSuchAlgorithmException e) {
            throw new IllegalStateException("cannot hash the CRD's schema", e);
        }
    }

    /**
     * Adds to {@code missing} the paths of fields {@code needed} declares and {@code installed}
     * would prune: not declared, and not under x-kubernetes-preserve-unknown-fields.
     */
    static void missingFields(
            JSONSchemaProps needed, JSONSchemaProps installed, String path, List<String> missing) {
        if (needed == null
                || Boolean.TRUE.equals(installed.getXKubernetesPreserveUnknownFields())) {
            return;
        }
        Map<String, JSONSchemaProps> have = installed.getProperties();
        Map<String, JSONSchemaProps> declared = needed.getProperties();
        (declared == null ? Map.<String, JSONSchemaProps>of() : declared)
                .forEach(
                        (name, field) -> {
                            String at = path.isEmpty() ? name : path + "." + name;
                            if (have == null || !have.containsKey(name)) {
                                missing.add(at);
                            } else {
                                missingFields(field, have.get(name), at, missing);
                            }
                        });
        if (needed.getItems() != null && needed.getItems().getSchema() != null) {
            JSONSchemaProps items =
                    installed.getItems() == null ? null : installed.getItems().getSchema();
            nested(needed.getItems().getSchema(), items, path + "[]", missing);
        }
        if (needed.getAdditionalProperties() != null
                && needed.getAdditionalProperties().getSchema() != null) {
            JSONSchemaProps values =
                    installed.getAdditionalProperties() == null
                            ? null
                            : installed.getAdditionalProperties().getSchema();
            nested(needed.getAdditionalProperties().getSchema(), values, path + ".*", missing);
        }
    }

    private static void nested(
            JSONSchemaProps needed, JSONSchemaProps installed, String path, List<String> missing) {
        if (installed == null) {
            if (needed.getProperties() != null && !needed.getProperties().isEmpty()) {
                missing.add(path);
            }
            return;
        }
        missingFields(needed, installed, path, missing);
    }

    private static String listed(List<String> missing) {
        String shown = String.join(", ", missing.subList(0, Math.min(LISTED, missing.size())));
        return missing.size() > LISTED
                ? shown + " and " + (missing.size() - LISTED) + " more fields"
                : shown;
    }

    private static CustomResourceDefinitionVersion served(CustomResourceDefinition crd) {
        return crd.getSpec().getVersions().stream()
                .filter(v -> v.getName().equals(VERSION) && Boolean.TRUE.equals(v.getServed()))
                .findFirst()
                .orElse(null);
    }

    private static JSONSchemaProps schema(CustomResourceDefinitionVersion version) {
        return version.getSchema().getOpenAPIV3Schema();
    }
}
