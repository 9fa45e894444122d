package dev.flowscale.operator;

import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.core.DurationText;
import dev.flowscale.operator.core.Fabric8JobEvents;
import dev.flowscale.operator.core.JobEvents;
import dev.flowscale.operator.core.OperatorException;
import dev.flowscale.operator.core.RescaleReporting;
import dev.flowscale.operator.flink.FlinkDeployments;
import dev.flowscale.operator.flink.FlinkSessionRescales;
import dev.flowscale.operator.flink.FlinkTargets;
import dev.flowscale.operator.loop.JobAutoscalers;
import dev.flowscale.operator.runner.ExecutorTools;
import dev.flowscale.operator.runner.Fabric8RunnerCluster;
import dev.flowscale.operator.runner.HttpRunnerControl;
import dev.flowscale.operator.runner.RunnerCluster;
import dev.flowscale.operator.runner.RunnerControl;
import dev.flowscale.operator.runner.RunnerDefaults;
import dev.flowscale.operator.runner.RunnerExecutor;
import dev.flowscale.operator.runner.RunnerHealth;
import dev.flowscale.operator.runner.RunnerPodAddress;
import dev.flowscale.operator.runner.RunnerTokens;
import dev.flowscale.operator.runner.RunnerWatch;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator process: one JOSDK {@link Operator} with the StreamJob reconciler. Patches status
 * with merge patches rather than server-side apply, so it runs the same against a real cluster and
 * Fabric8's mock API server.
 */
public final class FlowscaleOperator {
    private static final Logger LOG = LoggerFactory.getLogger(FlowscaleOperator.class);

    private FlowscaleOperator() {}

    /** The leader election Lease's name. */
    public static final String LEASE = "flowscale-operator-leader";

    static final Duration SAMPLE_INTERVAL = Duration.ofSeconds(1);
    static final Duration RESCALE_TIMEOUT = Duration.ofMinutes(3);

    /**
     * The default of spec.timeouts.rescale (Helm runnerTimeouts.rescale); unset or empty: 3
     * minutes.
     */
    public static final String RESCALE_TIMEOUT_ENV = "FLOWSCALE_RESCALE_TIMEOUT";

    /** The namespaces to watch, comma-separated; empty or unset: every namespace. */
    public static final String WATCH_NAMESPACES_ENV = "FLOWSCALE_WATCH_NAMESPACES";

    /**
     * An operator (not started) for the client's cluster, watching StreamJobs in every namespace,
     * with the autoscaler loops it runs and the runner control it stops runners with.
     */
    public static Operator create(
            KubernetesClient client, JobAutoscalers loops, RunnerControl control, Clock clock) {
        return create(client, loops, control, clock, null);
    }

    /**
     * As {@link #create(KubernetesClient, JobAutoscalers, RunnerControl, Clock)}, with leader
     * election.
     */
    public static Operator create(
            KubernetesClient client,
            JobAutoscalers loops,
            RunnerControl control,
            Clock clock,
            LeaderElectionConfiguration leaderElection) {
        return create(
                client,
                loops,
                control,
                clock,
                leaderElection,
                Set.of(),
                AutoscalerDefaults.builtIn());
    }

    /**
     * An operator with leader election (null: none; see {@link #leaderElection}), so several
     * replicas can run and only the leader reconciles and runs autoscaler loops; watching the given
     * namespaces (empty: all); filling in the autoscaler settings jobs leave out from {@code
     * defaults}.
     */
    public static Operator create(
            KubernetesClient client,
            JobAutoscalers loops,
            RunnerControl control,
            Clock clock,
            LeaderElectionConfiguration leaderElection,
            Set<String> namespaces,
            AutoscalerDefaults defaults) {
        Operator operator =
                new Operator(
                        o -> {
                            o.withKubernetesClient(client)
                                    .withUseSSAToPatchPrimaryResource(false)
                                    .withCloseClientOnStop(false);
                            if (leaderElection != null) {
                                o.withLeaderElectionConfiguration(leaderElection);
                            }
                        });
        RunnerHealth health =
                new RunnerWatch(
                        RunnerWatch.defaultDeployTimeout(
                                System.getenv(RunnerWatch.DEPLOY_TIMEOUT_ENV)));
        StreamJobReconciler reconciler =
                reconciler(
                        client,
                        loops,
                        control,
                        clock,
                        defaults,
                        RunnerDefaults.from(System::getenv),
                        health);
        operator.register(
                reconciler,
                o -> {
                    if (!namespaces.isEmpty()) {
                        o.settingNamespaces(namespaces);
                    }
                });
        return operator;
    }

    /**
     * The reconciler, with the one executor that changes runners, reporting rescales to {@code
     * loops}.
     */
    static StreamJobReconciler reconciler(
            KubernetesClient client,
            JobAutoscalers loops,
            RunnerControl control,
            Clock clock,
            AutoscalerDefaults defaults,
            RunnerDefaults runnerDefaults,
            RunnerHealth health) {
        JobEvents events = new Fabric8JobEvents(client, clock);
        RunnerCluster cluster = new Fabric8RunnerCluster(client);
        RunnerExecutor executor =
                new RunnerExecutor(
                        new ExecutorTools(
                                cluster,
                                control,
                                events,
                                new RescaleReporting(events, loops.registry()),
                                loops::rescaleTimeout,
                                clock));
        return new StreamJobReconciler(
                cluster,
                events,
                loops,
                executor,
                defaults,
                runnerDefaults,
                health,
                new FlinkTargets(
                        new FlinkDeployments(client),
                        new FlinkSessionRescales(
                                loops::rescaleTimeout,
                                new RescaleReporting(events, loops.registry()),
                                events,
                                clock),
                        events,
                        clock),
                clock);
    }

    /**
     * The namespaces in {@value #WATCH_NAMESPACES_ENV} (comma-separated; empty or unset: all
     * namespaces).
     */
    public static Set<String> watchedNamespaces(String value) {
        if (value == null || value.isBlank()) {
            return Set.of();
        }
        Set<String> namespaces = new TreeSet<>();
        for (String ns : value.split(",")) {
            String trimmed = ns.trim();
            if (!trimmed.matches("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?")) {
                throw new OperatorException(
                        WATCH_NAMESPACES_ENV
                                + " has '"
                                + trimmed
                                + "', which is not a namespace"
                                + " name: list namespaces separated by commas, e.g. team-a,team-b, or leave it empty for all");
            }
            namespaces.add(trimmed);
        }
        return namespaces;
    }

    /** {@value #RESCALE_TIMEOUT_ENV}'s duration, or 3 minutes when it is unset or empty. */
    public static Duration rescaleTimeout(String env) {
        return env == null || env.isBlank()
                ? RESCALE_TIMEOUT
                : DurationText.parse(RESCALE_TIMEOUT_ENV, env);
    }

    /**
     * Leader election on the Lease {@value #LEASE} in {@code namespace}; null when namespace is
     * null.
     */
    public static LeaderElectionConfiguration leaderElection(String namespace) {
        return namespace == null ? null : new LeaderElectionConfiguration(LEASE, namespace);
    }

    /**
     * Refuses to go on when the installed StreamJob CRD lacks fields of the one this operator was
     * built with (the API server would prune them): throws an {@link OperatorException} naming the
     * installed and needed schema revisions and the fix. Needs {@code get} on the CRD.
     */
    public static void checkCrd(KubernetesClient client) {
        StreamJobCrdCheck.ofThisRelease().verify(client);
    }

    /**
     * The autoscaler loops of an operator in the cluster, reaching runners through their Services.
     */
    public static JobAutoscalers loops(
            KubernetesClient client,
            MeterRegistry registry,
            Function<StreamJob, URI> address,
            Duration rescaleTimeout,
            Clock clock) {
        return new JobAutoscalers(
                client,
                new Fabric8JobEvents(client, clock),
                registry,
                address,
                SAMPLE_INTERVAL,
                rescaleTimeout,
                clock);
    }

    /**
     * Runs the operator with the in-cluster (or kubeconfig) client until the process is stopped;
     * metrics and health on port {@code FLOWSCALE_OPERATOR_PORT} (default 8080); leader election
     * when {@code FLOWSCALE_LEADER_ELECTION_NAMESPACE} names the Lease's namespace.
     */
    public static void main(String[] args) {
        try {
            JsonLogFormatter.install(System.getenv("FLOWSCALE_LOG_LEVEL"));
        } catch (OperatorException e) {
            System.err.println("flowscale operator: " + e.getMessage());
            System.exit(2);
        }
        KubernetesClient client = new KubernetesClientBuilder().build();
        Clock clock = Clock.systemUTC();
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Set<String> namespaces;
        AutoscalerDefaults defaults;
        Duration rescaleTimeout;
        try {
            namespaces = watchedNamespaces(System.getenv(WATCH_NAMESPACES_ENV));
            defaults = AutoscalerDefaults.fromJson(System.getenv(AutoscalerDefaults.ENV));
            rescaleTimeout = rescaleTimeout(System.getenv(RESCALE_TIMEOUT_ENV));
            RunnerWatch.defaultDeployTimeout(
                    System.getenv(RunnerWatch.DEPLOY_TIMEOUT_ENV)); // a bad value stops here
            RunnerDefaults.from(System::getenv);
        } catch (OperatorException e) {
            System.err.println("flowscale operator: " + e.getMessage());
            System.exit(2);
            return;
        }
        try {
            start(client, registry, namespaces, defaults, rescaleTimeout, clock);
        } catch (OperatorException e) {
            // A refusal with its fix in the message (an outdated CRD): one line, no stack trace.
            LOG.error("flowscale operator: cannot start: {}", e.getMessage());
            client.close();
            System.exit(1);
        } catch (RuntimeException e) {
            // Exit, so that the pod restarts and shows the failure: a live HTTP server would keep
            // the JVM running with nothing reconciling, its liveness probe still answered.
            LOG.error("flowscale operator: cannot start", e);
            System.err.println("flowscale operator: cannot start: " + e);
            client.close();
            System.exit(1);
        }
    }

    /**
     * Starts the operator, its autoscaler loops and its endpoints; stopped by the shutdown hook.
     * Throws when the operator cannot start (no API server, no StreamJob CRD, no permission).
     */
    private static void start(
            KubernetesClient client,
            PrometheusMeterRegistry registry,
            Set<String> namespaces,
            AutoscalerDefaults defaults,
            Duration rescaleTimeout,
            Clock clock) {
        checkCrd(client);
        JobAutoscalers loops =
                loops(client, registry, HttpRunnerControl::serviceAddress, rescaleTimeout, clock);
        Operator operator =
                create(
                        client,
                        loops,
                        new HttpRunnerControl(
                                new RunnerPodAddress(new Fabric8RunnerCluster(client)),
                                rescaleTimeout,
                                new RunnerTokens(client)),
                        clock,
                        leaderElection(System.getenv("FLOWSCALE_LEADER_ELECTION_NAMESPACE")),
                        namespaces,
                        defaults);
        String port =
                System.getenv()
                        .getOrDefault(
                                "FLOWSCALE_OPERATOR_PORT", "" + OperatorEndpoints.DEFAULT_PORT);
        OperatorEndpoints http =
                OperatorEndpoints.start(
                        Integer.parseInt(port),
                        registry,
                        () -> operator.getRuntimeInfo().isStarted(),
                        OperatorLiveness.of(operator));
        try {
            operator.start();
        } catch (RuntimeException e) {
            http.close();
            loops.close();
            throw e;
        }
        Runtime.getRuntime()
                .addShutdownHook(
                        new Thread(
                                () -> {
                                    operator.stop();
                                    loops.close();
                                    http.close();
                                    client.close();
                                },
                                "flowscale-operator-shutdown"));
    }
}
