package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.operator.api.AutoscalerMode;
import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.loop.JobAutoscalers;
import dev.flowscale.operator.runner.Fabric8RunnerCluster;
import dev.flowscale.operator.runner.HttpRunnerControl;
import dev.flowscale.operator.runner.RunnerTokens;
import dev.flowscale.testsupport.Ports;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.Operator;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The RBAC rules users install (deploy/operator.yaml, and the Helm chart, whose tests compare its
 * rules with this file) grant exactly the API calls the operator makes, in a cluster-wide and in a
 * namespaced install: the operator runs a whole life cycle (leader election; create; an invalid
 * spec; autoscaling with a rescale; a savepoint upgrade; suspend; delete) on the mock API server
 * with a client of its own, and every request that client sends is authorized against the install's
 * rules and admitted by OwnerReferencesPermissionEnforcement as a cluster does ({@link
 * EnforcedRbac}): a call they do not grant is refused with 403 and fails the test. The first create
 * of each runner resource is answered 409 AlreadyExists, so the operator's fallback for an existing
 * object runs under the same rules. The calls made must equal the rules' grants.
 */
class RbacMatchesApiCallsIT {
    static final String NS = "jobs";
    static final String AGENT = "flowscale-operator-under-test";
    static final Duration WAIT = Duration.ofSeconds(90);

    /** No runner listens here: the refusals checked come before a runner would start. */
    static final URI NO_RUNNER = URI.create("http://localhost:1");

    /** Resources the operator creates with a fallback to replacing them when they exist. */
    static final Set<String> CREATED_OR_REPLACED =
            Set.of("apps/deployments", "core/services", "core/configmaps");

    @TempDir Path dir;
    OptimisticMockServer server;
    KubernetesClient client;
    EnforcedRbac rbac;

    @BeforeEach
    void startTheApiServer() {
        server = new OptimisticMockServer();
        client = server.client();
    }

    @AfterEach
    void stopTheApiServer() {
        client.close();
        server.close();
    }

    /**
     * Granted but never called: JOSDK's start-up check (LeaderElectionManager.checkLeaseAccess)
     * requires create, update and get on leases, while Fabric8's LeaseLock renews by patch.
     */
    static final Set<String> REQUIRED_BY_THE_SDKS_CHECK =
            Set.of("coordination.k8s.io/leases update");

    /**
     * Granted and called only where the mock server has a runner pod to resize (the life cycle here
     * has none: no ReplicaSet controller); InPlacePodResizeIT checks this call against the
     * manifest.
     */
    static final Set<String> CALLED_IN_IN_PLACE_POD_RESIZE_IT = Set.of("core/pods/resize patch");

    /**
     * Granted and called only for a runner pod stuck Terminating on a lost node (the life cycle
     * here loses none); NodeLossIT checks this call against the manifest.
     */
    static final Set<String> CALLED_IN_NODE_LOSS_IT = Set.of("core/pods delete");

    /**
     * Granted and called only when a decision on a Flink job is written to its FlinkDeployment (the
     * life cycle here has no Flink job); FlinkDeploymentTargetIT checks this call against the
     * manifest.
     */
    static final Set<String> CALLED_IN_FLINK_DEPLOYMENT_TARGET_IT =
            Set.of("flink.apache.org/flinkdeployments update");

    @Test
    void theClusterWideRulesGrantExactlyTheCallsTheOperatorMakes() throws Exception {
        theRulesGrantExactlyTheCallsTheOperatorMakes(RbacInstall.clusterWide());
    }

    @Test
    void theNamespacedRulesGrantExactlyTheCallsTheOperatorMakes() throws Exception {
        theRulesGrantExactlyTheCallsTheOperatorMakes(RbacInstall.namespaced(NS));
    }

    @Test
    void aRoleWithoutGetOnDeploymentsFailsTheCheckAtTheFallbackAfterAConflict() throws Exception {
        RbacInstall install = RbacInstall.namespaced(NS).without("apps", "deployments", "get");

        assertThat(firstDenial(install)).contains("jobs: apps/deployments get");
    }

    @Test
    void aRoleWithoutStreamJobFinalizersFailsTheCheckAtABlockingOwnerReference() throws Exception {
        RbacInstall install =
                RbacInstall.namespaced(NS)
                        .without("flowscale.dev", "streamjobs/finalizers", "update");

        assertThat(firstDenial(install))
                .contains("cannot set blockOwnerDeletion")
                .contains("flowscale.dev/streamjobs/finalizers update");
    }

    private void theRulesGrantExactlyTheCallsTheOperatorMakes(RbacInstall install)
            throws Exception {
        runLifeCycle(install);
        assertThat(rbac.denials())
                .as("API calls the install's RBAC refused (namespace, call and reason)")
                .isEmpty();
        Set<String> expected = new TreeSet<>(install.granted());
        expected.removeAll(REQUIRED_BY_THE_SDKS_CHECK);
        expected.removeAll(CALLED_IN_IN_PLACE_POD_RESIZE_IT);
        expected.removeAll(CALLED_IN_NODE_LOSS_IT);
        expected.removeAll(CALLED_IN_FLINK_DEPLOYMENT_TARGET_IT);
        assertThat(rbac.calls()).as("API calls the operator made").isEqualTo(expected);
    }

    /**
     * Starts the operator under {@code install}'s rules, creates a job, returns the first denial.
     */
    private String firstDenial(RbacInstall install) throws Exception {
        createCrd();
        client.resource(StreamJobs.savepointClaim(NS, "savepoints")).create();
        try (KubernetesClient operatorClient = operatorClient(install);
                JobAutoscalers loops = loops(operatorClient, j -> NO_RUNNER)) {
            Operator operator = operator(operatorClient, loops, install, j -> NO_RUNNER);
            operator.start();
            try {
                client.resource(StreamJobs.wordCount(NS, "wc")).create();
                return Eventually.await(
                                WAIT,
                                "a refused call",
                                rbac::denials,
                                denials -> !denials.isEmpty())
                        .get(0);
            } finally {
                operator.stop();
            }
        }
    }

    private void runLifeCycle(RbacInstall install) throws Exception {
        createCrd();
        client.resource(StreamJobs.savepointClaim(NS, "savepoints")).create();
        try (KubernetesClient operatorClient = operatorClient(install);
                LocalKubelet kubelet =
                        new LocalKubelet(
                                client,
                                NS,
                                "wc-runner",
                                AutoscalingIT.engineJar(),
                                freePort(),
                                dir,
                                args -> true);
                JobAutoscalers loops = loops(operatorClient, j -> kubelet.address())) {
            FlowscaleOperator.checkCrd(operatorClient);
            Operator operator = operator(operatorClient, loops, install, j -> kubelet.address());
            operator.start();
            try {
                lifeCycle(loops);
            } finally {
                operator.stop();
            }
        }
    }

    private void createCrd() throws IOException {
        try (InputStream crd = Files.newInputStream(StreamJobCrdTest.checkedInCrd())) {
            client.resource(Serialization.unmarshal(crd, CustomResourceDefinition.class)).create();
        }
    }

    /** A client of the operator's own, whose every request passes the install's RBAC. */
    private KubernetesClient operatorClient(RbacInstall install) {
        rbac = new EnforcedRbac(install.authorizer(), AGENT, CREATED_OR_REPLACED);
        server.guard(rbac);
        return new KubernetesClientBuilder()
                .withConfig(
                        new ConfigBuilder(client.getConfiguration()).withUserAgent(AGENT).build())
                .build();
    }

    private static JobAutoscalers loops(
            KubernetesClient operatorClient, Function<StreamJob, URI> runner) {
        return FlowscaleOperator.loops(
                operatorClient,
                new SimpleMeterRegistry(),
                runner,
                Duration.ofSeconds(60),
                Clock.systemUTC());
    }

    private static Operator operator(
            KubernetesClient operatorClient,
            JobAutoscalers loops,
            RbacInstall install,
            Function<StreamJob, URI> runner) {
        var election = TestingOperator.testElection();
        return FlowscaleOperator.create(
                operatorClient,
                loops,
                new HttpRunnerControl(
                        runner, Duration.ofSeconds(20), new RunnerTokens(operatorClient)),
                Clock.systemUTC(),
                election,
                install.watched(),
                AutoscalerDefaults.builtIn());
    }

    private void lifeCycle(JobAutoscalers loops) {
        StreamJob invalid = StreamJobs.wordCount(NS, "broken");
        invalid.getSpec().job.builtin = "nosuchjob";
        client.resource(invalid).create();
        client.resource(StreamJobs.wordCount(NS, "claimed"))
                .create(); // savepoints on the claim: checked
        client.resource(FlinkDeploymentTargetIT.target(NS, "on-flink", "absent"))
                .create(); // its FlinkDeployment: read
        client.resource(
                        AutoscalingIT.bottleneckedWordCount(
                                NS, "wc", AutoscalerMode.AUTO, dir.resolve("savepoints")))
                .create();
        await(
                j ->
                        j.getStatus().phase == JobPhase.Running
                                && j.getStatus().parallelism.getOrDefault("split", 1) > 1);
        // As after an operator upgrade that changes the runner's Service: the next reconcile
        // replaces it.
        client.services()
                .inNamespace(NS)
                .withName("wc-runner")
                .edit(
                        s -> {
                            s.getMetadata()
                                    .getAnnotations()
                                    .put(Fabric8RunnerCluster.HASH_ANNOTATION, "older");
                            return s;
                        });
        edit(j -> j.getSpec().job.args = List.of("--rate", "1200", "--cost", "split=sleep:2ms"));
        await(
                j ->
                        j.getStatus().observedGeneration == 2L
                                && j.getStatus().phase == JobPhase.Running);
        edit(j -> j.getSpec().suspend = true);
        await(j -> j.getStatus().phase == JobPhase.Suspended);
        client.resources(StreamJob.class).inNamespace(NS).withName("wc").delete();
        Eventually.await(
                WAIT,
                "the deletion of jobs/wc",
                () ->
                        client.resources(StreamJob.class).inNamespace(NS).withName("wc").get()
                                == null,
                gone -> gone);
        // Every call the job's life makes is in: its autoscaler loop is gone too.
        Eventually.await(
                WAIT,
                "no autoscaler loop for jobs/wc",
                () -> loops.running(NS, "wc"),
                running -> !running);
    }

    private void edit(java.util.function.Consumer<StreamJob> change) {
        StreamJobs.edit(client, NS, "wc", change);
    }

    private void await(java.util.function.Predicate<StreamJob> check) {
        Eventually.await(
                WAIT,
                "StreamJob jobs/wc",
                () -> client.resources(StreamJob.class).inNamespace(NS).withName("wc").get(),
                j -> j.getStatus() != null && j.getStatus().phase != null && check.test(j));
    }

    private static int freePort() throws IOException {
        return Ports.free();
    }
}
