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
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The RBAC rules users install (deploy/operator.yaml, and the Helm chart, whose tests compare its
 * rules with this file) grant exactly the API calls the operator makes: the operator runs a whole
 * life cycle (leader election; create; an invalid spec; autoscaling with a rescale; a savepoint
 * upgrade; suspend; delete) on the mock API server with a client of its own, every request that
 * client sends is recorded as (API group, resource, verb), and the set must equal the rules'.
 */
@EnableKubernetesMockClient(crud = true)
class RbacMatchesApiCallsIT {
    static final String NS = "jobs";
    static final String AGENT = "flowscale-operator-under-test";
    static final Duration WAIT = Duration.ofSeconds(90);
    KubernetesClient client;
    KubernetesMockServer server;
    @TempDir Path dir;

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
    void theRulesGrantExactlyTheVerbsTheOperatorUses() throws Exception {
        Set<String> used = new TreeSet<>();
        Set<String> denied = new TreeSet<>();
        runLifeCycle(used, denied);
        assertThat(denied)
                .as("API calls the manifest's RBAC would deny (namespace and call)")
                .isEmpty();
        Set<String> expected = new TreeSet<>(granted());
        expected.removeAll(REQUIRED_BY_THE_SDKS_CHECK);
        expected.removeAll(CALLED_IN_IN_PLACE_POD_RESIZE_IT);
        expected.removeAll(CALLED_IN_NODE_LOSS_IT);
        expected.removeAll(CALLED_IN_FLINK_DEPLOYMENT_TARGET_IT);
        assertThat(used).as("API calls the operator made").isEqualTo(expected);
    }

    private void runLifeCycle(Set<String> used, Set<String> denied) throws Exception {
        try (InputStream crd = Files.newInputStream(StreamJobCrdTest.checkedInCrd())) {
            client.resource(Serialization.unmarshal(crd, CustomResourceDefinition.class)).create();
        }
        // JOSDK reviews its Lease permissions first: answered from the manifest's rules, as a
        // cluster would.
        ManifestAuthorizer authorizer = ManifestAuthorizer.operatorManifest();
        authorizer.answerRulesReviews(server);
        KubernetesClient operatorClient =
                new KubernetesClientBuilder()
                        .withConfig(
                                new ConfigBuilder(client.getConfiguration())
                                        .withUserAgent(AGENT)
                                        .build())
                        .build();
        drain(authorizer, new TreeSet<>()); // the test's own setup
        client.resource(StreamJobs.savepointClaim(NS, "savepoints")).create();
        try (LocalKubelet kubelet =
                        new LocalKubelet(
                                client,
                                NS,
                                "wc-runner",
                                AutoscalingIT.engineJar(),
                                freePort(),
                                dir,
                                args -> true);
                JobAutoscalers loops =
                        FlowscaleOperator.loops(
                                operatorClient,
                                new SimpleMeterRegistry(),
                                j -> kubelet.address(),
                                Duration.ofSeconds(60),
                                Clock.systemUTC())) {
            var election =
                    new LeaderElectionConfiguration(
                            FlowscaleOperator.LEASE,
                            "flowscale-system",
                            Duration.ofSeconds(15),
                            Duration.ofSeconds(10),
                            Duration.ofSeconds(2),
                            "test-replica",
                            null,
                            false);
            Operator operator =
                    FlowscaleOperator.create(
                            operatorClient,
                            loops,
                            new HttpRunnerControl(
                                    j -> kubelet.address(),
                                    Duration.ofSeconds(20),
                                    new RunnerTokens(operatorClient)),
                            Clock.systemUTC(),
                            election);
            operator.start();
            try {
                lifeCycle();
            } finally {
                operator.stop();
            }
        }
        operatorClient.close();
        used.addAll(drain(authorizer, denied));
        ownerChecks(authorizer, used, denied);
    }

    private void lifeCycle() {
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
        sleep(Duration.ofSeconds(2)); // the autoscaler loop's next tick notices the deletion
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
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

    /**
     * Takes every recorded request; returns the operator's as "group/resource verb" and adds those
     * the authorizer denies in their namespace to {@code denied}.
     */
    /**
     * For the objects the operator wrote with {@code blockOwnerDeletion} on an owner reference to a
     * StreamJob, the call the OwnerReferencesPermissionEnforcement admission plugin (on in
     * OpenShift, and wherever a cluster enables it) authorizes too: {@code update} on the owner's
     * {@code streamjobs/finalizers} in its namespace. (The mock server consumes a request's body
     * before the test sees it, so the written objects are read back instead.)
     */
    private void ownerChecks(ManifestAuthorizer authorizer, Set<String> used, Set<String> denied) {
        List<HasMetadata> written = new ArrayList<>();
        written.addAll(client.apps().deployments().inNamespace(NS).list().getItems());
        written.addAll(client.services().inNamespace(NS).list().getItems());
        written.addAll(client.configMaps().inNamespace(NS).list().getItems());
        written.addAll(client.secrets().inNamespace(NS).list().getItems());
        boolean blocks =
                written.stream()
                        .flatMap(o -> o.getMetadata().getOwnerReferences().stream())
                        .anyMatch(
                                r ->
                                        "StreamJob".equals(r.getKind())
                                                && Boolean.TRUE.equals(r.getBlockOwnerDeletion()));
        ApiCall finalizers = new ApiCall("flowscale.dev", "streamjobs/finalizers", "update");
        if (blocks) {
            used.add(finalizers.toString());
            if (!authorizer.allows(NS, finalizers)) {
                denied.add(NS + ": " + finalizers);
            }
        }
    }

    private Set<String> drain(ManifestAuthorizer authorizer, Set<String> denied)
            throws InterruptedException {
        Set<String> calls = new TreeSet<>();
        RecordedRequest request;
        while ((request = server.takeRequest(10, TimeUnit.MILLISECONDS)) != null) {
            String agent = request.getHeader("User-Agent");
            if (agent != null && agent.startsWith(AGENT)) {
                String path = request.getPath();
                ApiCall.of(request.getMethod(), path)
                        .ifPresent(
                                c -> {
                                    calls.add(c.toString());
                                    String ns = ApiCall.namespace(path);
                                    if (!authorizer.allows(ns, c)
                                            && !c.resource().startsWith("selfsubject")) {
                                        denied.add((ns == null ? "cluster" : ns) + ": " + c);
                                    }
                                });
            }
        }
        return calls;
    }

    /** Every (group, resource, verb) the manifest's ClusterRole and Role grant. */
    private static Set<String> granted() throws IOException {
        Set<String> rules = new TreeSet<>();
        for (HasMetadata resource : DeployManifestsTest.resources("operator.yaml")) {
            List<PolicyRule> policy =
                    resource instanceof ClusterRole c
                            ? c.getRules()
                            : resource instanceof Role r ? r.getRules() : List.of();
            for (PolicyRule rule : policy) {
                for (String group : rule.getApiGroups()) {
                    for (String res : rule.getResources()) {
                        rule.getVerbs()
                                .forEach(
                                        verb ->
                                                rules.add(
                                                        new ApiCall(group, res, verb).toString()));
                    }
                }
            }
        }
        // Every authenticated user may review its own rules (system:basic-user); not granted here.
        rules.add(
                new ApiCall("authorization.k8s.io", "selfsubjectrulesreviews", "create")
                        .toString());
        return rules;
    }

    private static int freePort() throws IOException {
        return Ports.free();
    }
}
