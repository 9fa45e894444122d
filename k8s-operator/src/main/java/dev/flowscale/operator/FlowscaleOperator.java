package dev.flowscale.operator;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.javaoperatorsdk.operator.Operator;
import dev.flowscale.operator.api.StreamJob;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Function;

/**
 * The operator process: one JOSDK {@link Operator} with the StreamJob reconciler. Patches status
 * with merge patches rather than server-side apply, so it runs the same against a real cluster and
 * Fabric8's mock API server.
 */
public final class FlowscaleOperator {

    private FlowscaleOperator() {
    }

    static final Duration SAMPLE_INTERVAL = Duration.ofSeconds(1);
    static final Duration RESCALE_TIMEOUT = Duration.ofMinutes(3);

    /**
     * An operator (not started) for the client's cluster, watching StreamJobs in every namespace,
     * with the autoscaler loops it runs.
     *
     * @param address the runner API of a job: {@link KubernetesRunnerLauncher#serviceAddress} in a cluster
     */
    public static Operator create(KubernetesClient client, JobAutoscalers loops, Clock clock) {
        Operator operator = new Operator(o -> o.withKubernetesClient(client)
                .withUseSSAToPatchPrimaryResource(false)
                .withCloseClientOnStop(false));
        operator.register(new StreamJobReconciler(new Fabric8RunnerCluster(client),
                new Fabric8JobEvents(client, clock), loops, clock));
        return operator;
    }

    /** The autoscaler loops of an operator in the cluster, reaching runners through their Services. */
    public static JobAutoscalers loops(KubernetesClient client, MeterRegistry registry,
                                       Function<StreamJob, URI> address, Duration rescaleTimeout, Clock clock) {
        return new JobAutoscalers(client, new Fabric8RunnerCluster(client), new Fabric8JobEvents(client, clock),
                registry, address, SAMPLE_INTERVAL, rescaleTimeout, clock);
    }

    /** Runs the operator with the in-cluster (or kubeconfig) client until the process is stopped. */
    public static void main(String[] args) {
        KubernetesClient client = new KubernetesClientBuilder().build();
        Clock clock = Clock.systemUTC();
        JobAutoscalers loops = loops(client, new SimpleMeterRegistry(), KubernetesRunnerLauncher::serviceAddress,
                RESCALE_TIMEOUT, clock);
        Operator operator = create(client, loops, clock);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            operator.stop();
            loops.close();
            client.close();
        }, "flowscale-operator-shutdown"));
        operator.start();
    }
}
