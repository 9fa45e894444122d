package dev.flowscale.operator;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
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

    /** The leader election Lease's name. */
    public static final String LEASE = "flowscale-operator-leader";
    static final Duration SAMPLE_INTERVAL = Duration.ofSeconds(1);
    static final Duration RESCALE_TIMEOUT = Duration.ofMinutes(3);

    /**
     * An operator (not started) for the client's cluster, watching StreamJobs in every namespace,
     * with the autoscaler loops it runs and the runner control it stops runners with.
     */
    public static Operator create(KubernetesClient client, JobAutoscalers loops, RunnerControl control,
                                  Clock clock) {
        return create(client, loops, control, clock, null);
    }

    /**
     * As {@link #create(KubernetesClient, JobAutoscalers, RunnerControl, Clock)}, with leader
     * election (null: none; see {@link #leaderElection}), so several replicas can run and only the
     * leader reconciles and runs autoscaler loops.
     */
    public static Operator create(KubernetesClient client, JobAutoscalers loops, RunnerControl control, Clock clock,
                                  LeaderElectionConfiguration leaderElection) {
        Operator operator = new Operator(o -> {
            o.withKubernetesClient(client).withUseSSAToPatchPrimaryResource(false).withCloseClientOnStop(false);
            if (leaderElection != null) {
                o.withLeaderElectionConfiguration(leaderElection);
            }
        });
        operator.register(new StreamJobReconciler(new Fabric8RunnerCluster(client),
                new Fabric8JobEvents(client, clock), loops, control, clock));
        return operator;
    }

    /** Leader election on the Lease {@value #LEASE} in {@code namespace}; null when namespace is null. */
    public static LeaderElectionConfiguration leaderElection(String namespace) {
        return namespace == null ? null : new LeaderElectionConfiguration(LEASE, namespace);
    }

    /** The autoscaler loops of an operator in the cluster, reaching runners through their Services. */
    public static JobAutoscalers loops(KubernetesClient client, MeterRegistry registry,
                                       Function<StreamJob, URI> address, Duration rescaleTimeout, Clock clock) {
        return new JobAutoscalers(client, new Fabric8RunnerCluster(client), new Fabric8JobEvents(client, clock),
                registry, address, SAMPLE_INTERVAL, rescaleTimeout, clock);
    }

    /**
     * Runs the operator with the in-cluster (or kubeconfig) client until the process is stopped;
     * metrics and health on port {@code FLOWSCALE_OPERATOR_PORT} (default 8080); leader election
     * when {@code FLOWSCALE_LEADER_ELECTION_NAMESPACE} names the Lease's namespace.
     */
    public static void main(String[] args) {
        JsonLogFormatter.install(System.getenv("FLOWSCALE_LOG_LEVEL"));
        KubernetesClient client = new KubernetesClientBuilder().build();
        Clock clock = Clock.systemUTC();
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        JobAutoscalers loops = loops(client, registry, KubernetesRunnerLauncher::serviceAddress, RESCALE_TIMEOUT, clock);
        Operator operator = create(client, loops,
                new HttpRunnerControl(KubernetesRunnerLauncher::serviceAddress, RESCALE_TIMEOUT), clock,
                leaderElection(System.getenv("FLOWSCALE_LEADER_ELECTION_NAMESPACE")));
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
