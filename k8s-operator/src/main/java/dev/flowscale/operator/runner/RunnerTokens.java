package dev.flowscale.operator.runner;

import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.core.OperatorException;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import java.util.function.Function;

/**
 * Reads a job's runner control token from the Secret the reconciler creates for it ({@link
 * RunnerResources#tokenSecret}); the runner gets the same value as {@value
 * RunnerResources#TOKEN_ENV}. Read on each use, so a Secret a user rotated (and the runner
 * restarted with) is picked up without restarting the operator.
 */
public final class RunnerTokens implements Function<StreamJob, Optional<String>> {
    private final KubernetesClient client;

    public RunnerTokens(KubernetesClient client) {
        this.client = client;
    }

    @Override
    public Optional<String> apply(StreamJob job) {
        String ns = job.getMetadata().getNamespace();
        String name = RunnerResources.tokenName(job);
        Secret secret = client.secrets().inNamespace(ns).withName(name).get();
        String encoded =
                secret == null || secret.getData() == null
                        ? null
                        : secret.getData().get(RunnerResources.TOKEN_KEY);
        if (encoded == null) {
            throw new OperatorException(
                    "StreamJob "
                            + ns
                            + "/"
                            + job.getMetadata().getName()
                            + ": Secret "
                            + name
                            + " has no '"
                            + RunnerResources.TOKEN_KEY
                            + "' key; the operator creates it on the next"
                            + " reconcile: delete the Secret if it was edited by hand");
        }
        return Optional.of(
                new String(Base64.getDecoder().decode(encoded), StandardCharsets.US_ASCII).trim());
    }
}
