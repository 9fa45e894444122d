package dev.flowscale.operator;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.javaoperatorsdk.operator.Operator;
import java.time.Clock;

/**
 * The operator process: one JOSDK {@link Operator} with the StreamJob reconciler. Patches status
 * with merge patches rather than server-side apply, so it runs the same against a real cluster and
 * Fabric8's mock API server.
 */
public final class FlowscaleOperator {

    private FlowscaleOperator() {
    }

    /** An operator (not started) for the client's cluster, watching StreamJobs in every namespace. */
    public static Operator create(KubernetesClient client, Clock clock) {
        Operator operator = new Operator(o -> o.withKubernetesClient(client)
                .withUseSSAToPatchPrimaryResource(false)
                .withCloseClientOnStop(false));
        operator.register(new StreamJobReconciler(new Fabric8RunnerCluster(client),
                new Fabric8JobEvents(client, clock), clock));
        return operator;
    }

    /** Runs the operator with the in-cluster (or kubeconfig) client until the process is stopped. */
    public static void main(String[] args) {
        KubernetesClient client = new KubernetesClientBuilder().build();
        Operator operator = create(client, Clock.systemUTC());
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            operator.stop();
            client.close();
        }, "flowscale-operator-shutdown"));
        operator.start();
    }
}
