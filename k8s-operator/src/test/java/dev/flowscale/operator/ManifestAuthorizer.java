package dev.flowscale.operator;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.authorization.v1.ResourceRule;
import io.fabric8.kubernetes.api.model.authorization.v1.ResourceRuleBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectRulesReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectRulesReviewBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleRef;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.List;

/**
 * Kubernetes RBAC as the API server evaluates it, for one ServiceAccount and the Roles,
 * ClusterRoles and bindings of a manifest: a ClusterRoleBinding grants its ClusterRole in every
 * namespace and on cluster-scoped resources, a RoleBinding grants its Role (or ClusterRole) in the
 * binding's namespace only; a rule matches a call when its apiGroups, resources and verbs each
 * contain the call's value or "*" and its resourceNames, when it has any, the object's name. The
 * mock API server has no authorizer: {@link #answerRulesReviews} makes it answer
 * SelfSubjectRulesReviews from these rules, as a real one does, instead of with a wildcard.
 */
final class ManifestAuthorizer {
    private final List<HasMetadata> manifest;
    private final String serviceAccountNamespace;
    private final String serviceAccount;

    ManifestAuthorizer(
            List<HasMetadata> manifest, String serviceAccountNamespace, String serviceAccount) {
        this.manifest = List.copyOf(manifest);
        this.serviceAccountNamespace = serviceAccountNamespace;
        this.serviceAccount = serviceAccount;
    }

    /**
     * The operator's ServiceAccount and rules in deploy/operator.yaml (the chart's equal them:
     * RbacEquivalenceTest).
     */
    static ManifestAuthorizer operatorManifest() throws java.io.IOException {
        return new ManifestAuthorizer(
                DeployManifestsTest.resources("operator.yaml"),
                "flowscale-system",
                "flowscale-operator");
    }

    /** The ServiceAccount's user name, as the API server names it in a refusal. */
    String user() {
        return "system:serviceaccount:" + serviceAccountNamespace + ":" + serviceAccount;
    }

    /**
     * Whether the ServiceAccount may make {@code call} in {@code namespace} (null: a cluster-scoped
     * call) on any object: rules narrowed by resourceNames do not count.
     */
    /**
     * {@link #allows(String, ApiCall)} for a request written as {@code METHOD path} (as the mock
     * server's request logs give it).
     */
    boolean allowsRequest(String namespace, String request) {
        String[] methodAndPath = request.split(" ", 2);
        return allows(namespace, ApiCall.of(methodAndPath[0], methodAndPath[1]).orElseThrow());
    }

    boolean allows(String namespace, ApiCall call) {
        return allows(namespace, call, null);
    }

    /**
     * Whether the ServiceAccount may make {@code call} in {@code namespace} (null: a cluster-scoped
     * call) on the object named {@code name} (null: a call without a name, such as a list or a
     * create), as RBAC's rule evaluation decides (Kubernetes' rbac/v1 rule evaluation): a rule's
     * resource matches the call's resource with its subresource exactly, or "*", or
     * "*&#47;subresource"; a plain resource never grants its subresources.
     */
    boolean allows(String namespace, ApiCall call, String name) {
        return rulesIn(namespace).stream()
                .anyMatch(
                        rule ->
                                matches(rule.getApiGroups(), call.group())
                                        && resourceMatches(rule.getResources(), call.resource())
                                        && matches(rule.getVerbs(), call.verb())
                                        && nameMatches(rule.getResourceNames(), name));
    }

    private static boolean resourceMatches(List<String> ruleResources, String resource) {
        if (matches(ruleResources, resource)) {
            return true;
        }
        int slash = resource.indexOf('/');
        return slash > 0
                && ruleResources != null
                && ruleResources.contains("*" + resource.substring(slash));
    }

    private static boolean nameMatches(List<String> names, String name) {
        return names == null || names.isEmpty() || (name != null && names.contains(name));
    }

    /**
     * The rules that apply to the ServiceAccount in {@code namespace} (null: cluster-wide rules
     * only).
     */
    List<PolicyRule> rulesIn(String namespace) {
        List<PolicyRule> rules = new ArrayList<>();
        for (HasMetadata resource : manifest) {
            if (resource instanceof ClusterRoleBinding b && bindsUs(b.getSubjects())) {
                rules.addAll(rolesRules(b.getRoleRef(), null));
            } else if (resource instanceof RoleBinding b
                    && namespace != null
                    && namespace.equals(b.getMetadata().getNamespace())
                    && bindsUs(b.getSubjects())) {
                rules.addAll(rolesRules(b.getRoleRef(), namespace));
            }
        }
        return rules;
    }

    /**
     * Answers every SelfSubjectRulesReview with the rules of the review's namespace, plus what
     * every authenticated user has (system:basic-user: create self-subject reviews), as the API
     * server does.
     */
    void answerRulesReviews(KubernetesMockServer server) {
        server.expect()
                .post()
                .withPath("/apis/authorization.k8s.io/v1/selfsubjectrulesreviews")
                .andReply(
                        201,
                        request ->
                                review(
                                        Serialization.unmarshal(
                                                        request.getBody().readUtf8(),
                                                        SelfSubjectRulesReview.class)
                                                .getSpec()
                                                .getNamespace()))
                .always();
    }

    /** The SelfSubjectRulesReview an API server answers for {@code namespace}. */
    SelfSubjectRulesReview review(String namespace) {
        List<ResourceRule> rules =
                new ArrayList<>(
                        rulesIn(namespace).stream()
                                .map(
                                        r ->
                                                new ResourceRuleBuilder()
                                                        .withApiGroups(r.getApiGroups())
                                                        .withResources(r.getResources())
                                                        .withVerbs(r.getVerbs())
                                                        .withResourceNames(r.getResourceNames())
                                                        .build())
                                .toList());
        rules.add(
                new ResourceRuleBuilder()
                        .withApiGroups("authorization.k8s.io")
                        .withVerbs("create")
                        .withResources("selfsubjectaccessreviews", "selfsubjectrulesreviews")
                        .build());
        return new SelfSubjectRulesReviewBuilder()
                .withNewSpec()
                .withNamespace(namespace)
                .endSpec()
                .withNewStatus()
                .withResourceRules(rules)
                .withIncomplete(false)
                .endStatus()
                .build();
    }

    private List<PolicyRule> rolesRules(RoleRef ref, String namespace) {
        for (HasMetadata resource : manifest) {
            if (!resource.getKind().equals(ref.getKind())
                    || !resource.getMetadata().getName().equals(ref.getName())) {
                continue;
            }
            if (resource instanceof ClusterRole c) {
                return c.getRules();
            }
            if (resource instanceof Role r
                    && namespace != null
                    && namespace.equals(r.getMetadata().getNamespace())) {
                return r.getRules();
            }
        }
        return List.of(); // a binding to a role that does not exist grants nothing
    }

    private boolean bindsUs(List<Subject> subjects) {
        return subjects != null
                && subjects.stream()
                        .anyMatch(
                                s ->
                                        "ServiceAccount".equals(s.getKind())
                                                && serviceAccount.equals(s.getName())
                                                && serviceAccountNamespace.equals(
                                                        s.getNamespace()));
    }

    private static boolean matches(List<String> values, String value) {
        return values != null && (values.contains("*") || values.contains(value));
    }
}
