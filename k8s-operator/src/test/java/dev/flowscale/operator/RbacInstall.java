package dev.flowscale.operator;

import com.marcnuri.helm.Helm;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The RBAC objects of one way to install the operator (the ServiceAccount flowscale-operator in
 * flowscale-system) and the namespaces the operator then watches (empty: all).
 */
record RbacInstall(String name, List<HasMetadata> manifest, Set<String> watched) {
    static final String SYSTEM = "flowscale-system";
    static final String SERVICE_ACCOUNT = "flowscale-operator";

    /** deploy/operator.yaml: a ClusterRole for every namespace (the chart's default equals it). */
    static RbacInstall clusterWide() throws IOException {
        return new RbacInstall(
                "cluster-wide", DeployManifestsTest.resources("operator.yaml"), Set.of());
    }

    /**
     * The Helm chart with {@code watchNamespaces: [namespace]}: a Role and RoleBinding in that
     * namespace only, rendered by the embedded Helm.
     */
    static RbacInstall namespaced(String namespace) {
        String rendered =
                new Helm(Path.of("..", "charts", "flowscale"))
                        .template()
                        .withName("flowscale")
                        .withNamespace(SYSTEM)
                        .withKubeVersion("v1.31.0")
                        .set("watchNamespaces[0]", namespace)
                        .call();
        Object parsed =
                Serialization.unmarshal(
                        new ByteArrayInputStream(rendered.getBytes(StandardCharsets.UTF_8)));
        List<HasMetadata> resources =
                parsed instanceof KubernetesResourceList<?> list
                        ? List.copyOf(list.getItems())
                        : ((List<?>) parsed).stream().map(HasMetadata.class::cast).toList();
        return new RbacInstall("namespaced " + namespace, resources, Set.of(namespace));
    }

    ManifestAuthorizer authorizer() {
        return new ManifestAuthorizer(manifest, SYSTEM, SERVICE_ACCOUNT);
    }

    /** Every "group/resource verb" the install's Roles and ClusterRoles grant. */
    Set<String> granted() {
        Set<String> grants = new TreeSet<>();
        for (PolicyRule rule : rules(manifest)) {
            for (String group : rule.getApiGroups()) {
                for (String resource : rule.getResources()) {
                    rule.getVerbs()
                            .forEach(v -> grants.add(new ApiCall(group, resource, v).toString()));
                }
            }
        }
        // Every authenticated user may review its own rules (system:basic-user); not granted here.
        grants.add(
                new ApiCall("authorization.k8s.io", "selfsubjectrulesreviews", "create")
                        .toString());
        return grants;
    }

    /** This install with {@code verb} on {@code group/resource} taken out of every rule. */
    RbacInstall without(String group, String resource, String verb) {
        List<HasMetadata> copy = new ArrayList<>();
        for (HasMetadata object : manifest) {
            HasMetadata clone = Serialization.clone(object);
            if (clone instanceof ClusterRole c) {
                c.setRules(without(c.getRules(), group, resource, verb));
            } else if (clone instanceof Role r) {
                r.setRules(without(r.getRules(), group, resource, verb));
            }
            copy.add(clone);
        }
        return new RbacInstall(name + " without " + verb + " " + resource, copy, watched);
    }

    private static List<PolicyRule> without(
            List<PolicyRule> rules, String group, String resource, String verb) {
        List<PolicyRule> kept = new ArrayList<>();
        for (PolicyRule rule : rules) {
            if (!rule.getApiGroups().contains(group)
                    || !rule.getResources().contains(resource)
                    || !rule.getVerbs().contains(verb)) {
                kept.add(rule);
                continue;
            }
            List<String> others = new ArrayList<>(rule.getResources());
            others.remove(resource);
            List<String> verbs = new ArrayList<>(rule.getVerbs());
            verbs.remove(verb);
            if (!others.isEmpty()) {
                kept.add(new PolicyRuleBuilder(rule).withResources(others).build());
            }
            if (!verbs.isEmpty()) {
                kept.add(
                        new PolicyRuleBuilder(rule)
                                .withResources(resource)
                                .withVerbs(verbs)
                                .build());
            }
        }
        return kept;
    }

    private static List<PolicyRule> rules(List<HasMetadata> manifest) {
        List<PolicyRule> rules = new ArrayList<>();
        for (HasMetadata object : manifest) {
            if (object instanceof ClusterRole c) {
                rules.addAll(c.getRules());
            } else if (object instanceof Role r) {
                rules.addAll(r.getRules());
            }
        }
        return rules;
    }

    @Override
    public String toString() {
        return name;
    }
}
