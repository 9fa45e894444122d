package dev.flowscale.operator;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.javaoperatorsdk.operator.Operator;
import dev.flowscale.operator.api.StreamJob;
import io.micrometer.core.instrument.MeterRegistry;
import dev.flowscale.engine.metrics.MetricsHttpServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
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
     * with the autoscaler loops it runs and the runner control it stops runners with.
     */
    public static Operator create(KubernetesClient client, JobAutoscalers loops, RunnerControl control,
                                  Clock clock) {
        Operator operator = new Operator(o -> o.withKubernetesClient(client)
                .withUseSSAToPatchPrimaryResource(false)
                .withCloseClientOnStop(false));
        operator.register(new StreamJobReconciler(new Fabric8RunnerCluster(client),
                new Fabric8JobEvents(client, clock), loops, control, clock));
        return operator;
    }

    /** The autoscaler loops of an operator in the cluster, reaching runners through their Services. */
    public static JobAutoscalers loops(KubernetesClient client, MeterRegistry registry,
                                       Function<StreamJob, URI> address, Duration rescaleTimeout, Clock clock) {
        return new JobAutoscalers(client, new Fabric8RunnerCluster(client), new Fabric8JobEvents(client, clock),
                registry, address, SAMPLE_INTERVAL, rescaleTimeout, clock);
    }

    /**
     * Runs the operator with the in-cluster (or kubeconfig) client until the process is stopped;
     * metrics and health on port {@code FLOWSCALE_OPERATOR_PORT} (default 8080).
     */
    public static void main(String[] args) {
        KubernetesClient client = new KubernetesClientBuilder().build();
        Clock clock = Clock.systemUTC();
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        JobAutoscalers loops = loops(client, registry, KubernetesRunnerLauncher::serviceAddress, RESCALE_TIMEOUT, clock);
        Operator operator = create(client, loops,
                new HttpRunnerControl(KubernetesRunnerLauncher::serviceAddress, RESCALE_TIMEOUT), clock);
        String port = System.getenv().getOrDefault("FLOWSCALE_OPERATOR_PORT", "" + OperatorEndpoints.DEFAULT_PORT);
        MetricsHttpServer http = OperatorEndpoints.start(Integer.parseInt(port), registry,
                () -> operator.getRuntimeInfo().isStarted());
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            operator.stop();
            loops.close();
            http.close();
            client.close();
        }, "flowscale-operator-shutdown"));
        operator.start();
    }
}
