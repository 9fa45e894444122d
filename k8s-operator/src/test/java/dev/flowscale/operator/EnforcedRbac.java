package dev.flowscale.operator;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectRulesReview;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * An API server's authorization and owner-reference admission in front of {@link
 * OptimisticMockServer}, for the requests of one client (told apart by its User-Agent): each is
 * authorized against a manifest's RBAC rules ({@link ManifestAuthorizer}) and refused with 403
 * Forbidden, as a cluster does, when they do not grant it; writes then pass {@link
 * OwnerReferencesAdmission}; SelfSubjectRulesReviews are answered from the same rules. The first
 * create of each resource listed in {@code conflicting} is stored and answered 409 AlreadyExists,
 * as when a create's reply was lost or the operator's cache lagged behind its own write, so that
 * the client's fallback for an existing object runs and is authorized too.
 */
final class EnforcedRbac implements OptimisticMockServer.Gate {
    private final ManifestAuthorizer rules;
    private final String userAgent;
    private final OwnerReferencesAdmission owners;
    private final Set<String> conflicting;
    private final Set<String> conflicted = new HashSet<>();
    private final Set<String> calls = new TreeSet<>();
    private final List<String> denials = new ArrayList<>();

    /**
     * @param conflicting resources ("group/resource", core group as "core") whose first create is
     *     answered 409 after it was stored
     */
    EnforcedRbac(ManifestAuthorizer rules, String userAgent, Set<String> conflicting) {
        this.rules = rules;
        this.userAgent = userAgent;
        this.owners = new OwnerReferencesAdmission(rules, this::called);
        this.conflicting = Set.copyOf(conflicting);
    }

    @Override
    public MockResponse answer(RecordedRequest request, OptimisticMockServer.Served server) {
        String agent = request.getHeader("User-Agent");
        Optional<ApiCall> call = ApiCall.of(request.getMethod(), request.getPath());
        if (agent == null || !agent.startsWith(userAgent) || call.isEmpty()) {
            return server.serve(request);
        }
        String path = request.getPath();
        String namespace = ApiCall.namespace(path);
        called(call.get());
        if (call.get().resource().equals("selfsubjectrulesreviews")) {
            return rulesReview(request);
        }
        if (!rules.allows(namespace, call.get(), ApiCall.name(path))) {
            return forbidden(
                    namespace,
                    call.get(),
                    "User \"%s\" cannot %s resource \"%s\" in API group \"%s\" %s"
                            .formatted(
                                    rules.user(),
                                    call.get().verb(),
                                    call.get().resource(),
                                    call.get().group(),
                                    namespace == null
                                            ? "at the cluster scope"
                                            : "in the namespace \"" + namespace + "\""));
        }
        Optional<String> refused = owners.refusal(request, call.get(), server);
        if (refused.isPresent()) {
            return forbidden(namespace, call.get(), refused.get());
        }
        if (!firstCreateConflicts(call.get())) {
            return server.serve(request);
        }
        String name =
                Serialization.unmarshal(
                                OwnerReferencesAdmission.body(request),
                                GenericKubernetesResource.class)
                        .getMetadata()
                        .getName();
        return alreadyExists(server.serve(request), call.get(), name);
    }

    /**
     * Every call the client made so far, and those admission authorized for its writes, as
     * "group/resource verb".
     */
    synchronized Set<String> calls() {
        return new TreeSet<>(calls);
    }

    /** The calls refused so far, with the namespace and the reason, oldest first. */
    synchronized List<String> denials() {
        return List.copyOf(denials);
    }

    private synchronized void called(ApiCall call) {
        calls.add(call.toString());
    }

    private synchronized boolean firstCreateConflicts(ApiCall call) {
        String resource = (call.group().isEmpty() ? "core" : call.group()) + "/" + call.resource();
        return call.verb().equals("create")
                && conflicting.contains(resource)
                && conflicted.add(resource);
    }

    private MockResponse rulesReview(RecordedRequest request) {
        String namespace =
                Serialization.unmarshal(
                                OwnerReferencesAdmission.body(request),
                                SelfSubjectRulesReview.class)
                        .getSpec()
                        .getNamespace();
        return new MockResponse()
                .setResponseCode(201)
                .setBody(Serialization.asJson(rules.review(namespace)));
    }

    private MockResponse forbidden(String namespace, ApiCall call, String reason) {
        synchronized (this) {
            denials.add((namespace == null ? "cluster" : namespace) + ": " + call + ": " + reason);
        }
        return status(403, "Forbidden", call.resource() + " is forbidden: " + reason);
    }

    private static MockResponse alreadyExists(MockResponse created, ApiCall call, String name) {
        if (created.code() >= 300) {
            return created; // not stored: answer as the server did
        }
        return status(409, "AlreadyExists", call.resource() + " \"" + name + "\" already exists");
    }

    private static MockResponse status(int code, String reason, String message) {
        Status status =
                new StatusBuilder()
                        .withCode(code)
                        .withReason(reason)
                        .withStatus("Failure")
                        .withMessage(message)
                        .build();
        return new MockResponse().setResponseCode(code).setBody(Serialization.asJson(status));
    }
}
