package dev.flowscale.operator.flink;

import dev.flowscale.operator.api.FlinkTarget;
import dev.flowscale.operator.api.StreamJobSpec;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What the spec validator checks of a StreamJob that targets an Apache Flink job (spec.flink): one
 * target, a valid name or URL, and none of the embedded engine's runner fields.
 */
public final class FlinkTargetChecks {
    /** A Kubernetes object name as a DNS-1123 label (that operator prefixes services with it). */
    private static final Pattern NAME = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

    private FlinkTargetChecks() {}

    public static void check(StreamJobSpec spec, List<String> problems) {
        FlinkTarget flink = spec.flink;
        boolean deployment = !blank(flink.deployment);
        if (deployment == !blank(flink.restUrl)) {
            problems.add(
                    "spec.flink must set exactly one of deployment (the name of a FlinkDeployment in"
                            + " this namespace) and restUrl (a Flink session cluster's REST URL)");
        } else if (deployment && !NAME.matcher(flink.deployment).matches()) {
            problems.add(
                    "spec.flink.deployment '"
                            + flink.deployment
                            + "' is not a Kubernetes object name: use the FlinkDeployment's"
                            + " metadata.name (lower case letters, digits and '-')");
        } else if (!deployment && !httpUrl(flink.restUrl)) {
            problems.add(
                    "spec.flink.restUrl '"
                            + flink.restUrl
                            + "' is not an http(s) URL with a host: use the JobManager's REST"
                            + " address, e.g. http://session-rest.flink:8081");
        }
        if (flink.taskSlots != null && flink.taskSlots < 1) {
            problems.add(
                    "spec.flink.taskSlots is "
                            + flink.taskSlots
                            + ": set it to at least 1, or leave it out to use what the cluster has");
        }
        if (flink.jar != null) {
            jar(flink, deployment, problems);
        }
        if (flink.job != null && flink.job.isBlank()) {
            problems.add(
                    "spec.flink.job is empty: give the Flink job's id or name, or leave it out to"
                            + " scale the only running job");
        }
        unused(spec, problems);
    }

    private static void jar(FlinkTarget flink, boolean deployment, List<String> problems) {
        if (deployment) {
            problems.add(
                    "spec.flink.jar is for a session cluster at spec.flink.restUrl; the Flink"
                            + " Kubernetes operator restarts a FlinkDeployment's job itself: remove it");
        }
        if (blank(flink.jar.id)) {
            problems.add(
                    "spec.flink.jar.id is empty: give the id the session cluster gave the job's"
                            + " uploaded jar (GET /jars), or remove spec.flink.jar");
        }
    }

    private static void unused(StreamJobSpec spec, List<String> problems) {
        String fix = " is for the embedded engine and spec.flink targets a Flink job: remove it";
        if (!blank(spec.image)) {
            problems.add("spec.image" + fix);
        }
        if (spec.job != null) {
            problems.add("spec.job" + fix);
        }
        if (spec.savepoints != null) {
            problems.add("spec.savepoints" + fix + " (Flink keeps its own savepoints)");
        }
        if (spec.parallelism != null && !spec.parallelism.isEmpty()) {
            problems.add("spec.parallelism" + fix + " (the Flink job's parallelism is Flink's)");
        }
        if (spec.podTemplate != null) {
            problems.add("spec.podTemplate" + fix);
        }
    }

    private static boolean httpUrl(String text) {
        try {
            URI uri = new URI(text.trim());
            return ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
                    && uri.getHost() != null
                    && uri.getQuery() == null;
        } catch (URISyntaxException e) {
            return false;
        }
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
