package dev.flowscale.operator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * Fabric8's mock API server in CRUD mode, made to answer an update (PUT, of a resource or its
 * status) that names a stale metadata.resourceVersion with 409 Conflict, as a real API server does;
 * the stock CRUD dispatcher accepts it and silently overwrites the newer version, which hides lost
 * updates between two writers.
 */
public final class OptimisticMockServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final KubernetesMockServer server =
            new KubernetesMockServer(
                    new Context(), new MockWebServer(), new HashMap<>(), new Dispatcher(), false);
    private int conflicts;

    public OptimisticMockServer() {
        server.init();
    }

    public KubernetesClient client() {
        return server.createClient();
    }

    /** The requests served since the last call, oldest first (for checking them against RBAC). */
    java.util.List<RecordedRequest> takeRequests() throws InterruptedException {
        java.util.List<RecordedRequest> taken = new java.util.ArrayList<>();
        RecordedRequest request;
        while ((request = server.takeRequest(10, java.util.concurrent.TimeUnit.MILLISECONDS))
                != null) {
            taken.add(request);
        }
        return taken;
    }

    /** How many stale updates were refused so far. */
    synchronized int conflicts() {
        return conflicts;
    }

    private synchronized void conflicted() {
        conflicts++;
    }

    /**
     * Plays another writer once: just before the next status update of a resource whose path ends
     * with {@code pathSuffix}, {@code change} is applied to the stored resource (a new version), so
     * that update names a stale resourceVersion.
     */
    synchronized void beforeNextStatusUpdate(
            String pathSuffix, java.util.function.UnaryOperator<JsonNode> change) {
        interloper = new Interloper(pathSuffix, change, "/status");
    }

    /**
     * As {@link #beforeNextStatusUpdate}, before the next update of the resource itself (not its
     * status).
     */
    synchronized void beforeNextUpdate(
            String pathSuffix, java.util.function.UnaryOperator<JsonNode> change) {
        interloper = new Interloper(pathSuffix, change, "");
    }

    private synchronized Interloper takeInterloper(String path) {
        Interloper due =
                interloper != null
                                && path.endsWith(interloper.pathSuffix() + interloper.subresource())
                        ? interloper
                        : null;
        if (due != null) {
            interloper = null;
        }
        return due;
    }

    private record Interloper(
            String pathSuffix,
            java.util.function.UnaryOperator<JsonNode> change,
            String subresource) {}

    private Interloper interloper;

    /**
     * Plays an API server that applies the next status update of a resource whose path ends with
     * {@code pathSuffix} and whose body matches {@code which}, and then answers it and the next
     * {@code retries} updates of that resource with 503, applying none of them: the client sees its
     * write fail although it was applied, as when the reply is lost and the API server stays out of
     * reach for the client's retries.
     */
    synchronized void loseReplyToStatusUpdate(
            String pathSuffix, java.util.function.Predicate<JsonNode> which, int retries) {
        lostReply = new LostReply(pathSuffix, which, retries + 1);
    }

    /** How many replies were lost so far ({@link #loseReplyToStatusUpdate}). */
    synchronized int lostReplies() {
        return lostReplies;
    }

    /**
     * 503 when this update's reply is to be lost: the first matching one after it was applied
     * ({@code apply}), those after it unapplied; null for an update served as usual.
     */
    private synchronized MockResponse loseReply(
            String path, JsonNode body, java.util.function.Supplier<MockResponse> apply) {
        LostReply due = lostReply;
        if (due == null || !path.replaceAll("/status$", "").endsWith(due.pathSuffix())) {
            return null;
        }
        if (lostReplies == 0) {
            if (!path.endsWith("/status") || !due.which().test(body)) {
                return null;
            }
            MockResponse applied = apply.get();
            if (applied.code() != 200) {
                return applied;
            }
        }
        if (++lostReplies == due.replies()) {
            lostReply = null;
        }
        return new MockResponse()
                .setResponseCode(503)
                .setBody("OptimisticMockServer: the reply to this update was lost");
    }

    private record LostReply(
            String pathSuffix, java.util.function.Predicate<JsonNode> which, int replies) {}

    private LostReply lostReply;
    private int lostReplies;

    /**
     * The statuses stored so far by updates of the status subresource of a resource whose path ends
     * with {@code pathSuffix}, oldest first (JSON of the whole resource, as sent): every status a
     * reader could have seen, in order.
     */
    synchronized java.util.List<String> storedStatuses(String pathSuffix) {
        return storedUpdates.stream()
                .filter(u -> u.path().endsWith(pathSuffix + "/status"))
                .map(u -> new String(u.body(), java.nio.charset.StandardCharsets.UTF_8))
                .toList();
    }

    private synchronized void recordStored(String path, byte[] body) {
        storedUpdates.add(new StoredUpdate(path, body));
    }

    private record StoredUpdate(String path, byte[] body) {}

    private final java.util.List<StoredUpdate> storedUpdates = new java.util.ArrayList<>();

    @Override
    public void close() {
        server.destroy();
    }

    /**
     * Serve the pods' {@code resize} subresource as a Kubernetes 1.33+ API server does; without
     * this, the server answers 404 for it, as one without the subresource does.
     */
    synchronized void servePodResize() {
        podResize = new PodResizeApi();
    }

    /**
     * The resize requests served so far (method and path), for checking them against RBAC rules.
     */
    synchronized java.util.List<String> resizeRequests() {
        return podResize == null ? java.util.List.of() : podResize.requests();
    }

    private synchronized PodResizeApi podResize() {
        return podResize;
    }

    private PodResizeApi podResize;

    /**
     * Stores custom resources of {@code plural} in {@code group/version} as a real API server with
     * that CRD version's structural schema does ({@link StructuralSchema}): creates and updates (of
     * the resource or its status) pruned, and refused with 422 Invalid when they break the schema.
     * A patch of such a resource is refused with 501: it is not checked here.
     */
    synchronized void enforceSchema(
            String group, String version, String plural, StructuralSchema schema) {
        schemas.put("/apis/" + group + "/" + version + "/" + plural, schema);
    }

    /** Fields pruned from writes so far (path inside the object), in order. */
    synchronized java.util.List<String> pruned() {
        return java.util.List.copyOf(pruned);
    }

    private synchronized StructuralSchema schemaFor(String path) {
        java.util.regex.Matcher m = RESOURCE_PATH.matcher(path);
        return m.matches() ? schemas.get(m.group(1) + "/" + m.group(2)) : null;
    }

    private synchronized void prunedFields(java.util.List<String> fields) {
        pruned.addAll(fields);
    }

    /** /apis/group/version, optional namespace, plural, optional name and status. */
    private static final java.util.regex.Pattern RESOURCE_PATH =
            java.util.regex.Pattern.compile(
                    "(/apis/[^/]+/[^/]+)/(?:namespaces/[^/]+/)?([^/?]+)(?:/[^/?]+)?(?:/status)?(?:\\?.*)?");

    private final Map<String, StructuralSchema> schemas = new HashMap<>();
    private final java.util.List<String> pruned = new java.util.ArrayList<>();

    /**
     * A check in front of the API server (an authorizer and admission plugins): it sees every
     * request first and answers it itself, or through {@code server}.
     */
    interface Gate {
        MockResponse answer(RecordedRequest request, Served server);
    }

    /** The API server behind a {@link Gate}. */
    interface Served {
        /** Serves the request as the server does without the gate. */
        MockResponse serve(RecordedRequest request);

        /** The stored object at a resource's path (JSON), or null when there is none. */
        String stored(String path);
    }

    /** Puts {@code gate} in front of every request from now on. */
    synchronized void guard(Gate gate) {
        this.gate = gate;
    }

    private synchronized Gate gate() {
        return gate;
    }

    private Gate gate;

    /**
     * From now on, serves deletes of pods on {@code node} as a real API server does for a lost node
     * ({@link LostNodes}), with deletion deadlines read from {@code clock}.
     */
    synchronized void loseNode(String node, java.util.function.Supplier<java.time.Instant> clock) {
        if (lostNodes == null) {
            lostNodes = new LostNodes(clock);
        }
        lostNodes.lose(node);
    }

    /** The deletes with grace period 0 of pods on lost nodes served so far (method and path). */
    synchronized java.util.List<String> forcedDeletes() {
        return lostNodes == null ? java.util.List.of() : lostNodes.forcedDeletes();
    }

    private synchronized LostNodes lostNodes() {
        return lostNodes;
    }

    private LostNodes lostNodes;

    private final class Dispatcher extends KubernetesCrudDispatcher implements Served {
        @Override
        public MockResponse dispatch(RecordedRequest request) {
            Gate in = gate();
            return in == null ? serve(request) : in.answer(request, this);
        }

        @Override
        public String stored(String path) {
            Map.Entry<?, String> found =
                    findResource(getKey(path.replaceAll("\\?.*$", "").replaceAll("/status$", "")));
            return found == null ? null : found.getValue();
        }

        /** Serves the request as the server does without the gate. */
        @Override
        public MockResponse serve(RecordedRequest request) {
            LostNodes lost = lostNodes();
            MockResponse served =
                    lost == null || !"DELETE".equals(request.getMethod())
                            ? null
                            : lost.delete(
                                    request,
                                    path -> findResource(getKey(path)),
                                    (path, pod) -> store(request, path, pod));
            return served != null ? served : super.dispatch(request);
        }

        private void store(RecordedRequest delete, String path, JsonNode resource) {
            try {
                super.handleUpdate(
                        new RecordedRequest(
                                delete.getHttpVersion(),
                                io.fabric8.mockwebserver.dsl.HttpMethod.PUT,
                                path,
                                delete.getHeaders(),
                                new io.fabric8.mockwebserver.http.Buffer(
                                        JSON.writeValueAsBytes(resource))));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        @Override
        public MockResponse handlePatch(RecordedRequest request) {
            String path = request.getPath().replaceAll("\\?.*$", "");
            if (path.matches(".*/api/v1/namespaces/[^/]+/pods/[^/]+/resize")) {
                PodResizeApi api = podResize();
                return api == null
                        ? PodResizeApi.notFound()
                        : api.patch(
                                request,
                                path.replaceAll("/resize$", ""),
                                key -> findResource(getKey(key)),
                                super::handleUpdate);
            }
            if (path.matches(".*/api/v1/namespaces/[^/]+/pods/[^/]+")
                    && PodResizeApi.touchesResources(request)) {
                return PodResizeApi.onlyThroughResize(path);
            }
            if (schemaFor(path) != null) {
                return new MockResponse()
                        .setResponseCode(501)
                        .setBody(
                                "OptimisticMockServer: a patch of "
                                        + path
                                        + " is not checked against its CRD's schema; write it with"
                                        + " an update, or teach this server to check patches");
            }
            return super.handlePatch(request);
        }

        @Override
        public MockResponse handleCreate(RecordedRequest request) {
            StructuralSchema schema = schemaFor(request.getPath());
            if (schema == null) {
                return super.handleCreate(request);
            }
            Object checked = admit(request, schema);
            return checked instanceof MockResponse refused
                    ? refused
                    : super.handleCreate((RecordedRequest) checked);
        }

        /**
         * The request with its body pruned, or the 422 Invalid answer that a real API server gives
         * for a body that breaks the schema.
         */
        private Object admit(RecordedRequest request, StructuralSchema schema) {
            JsonNode body;
            try {
                body = JSON.readTree(request.getBody().getBytes());
            } catch (IOException e) {
                return new MockResponse().setResponseCode(400).setBody(e.getMessage());
            }
            java.util.List<String> violations = schema.violations(body);
            if (!violations.isEmpty()) {
                return invalid(body, violations);
            }
            prunedFields(schema.prune((com.fasterxml.jackson.databind.node.ObjectNode) body));
            try {
                return new RecordedRequest(
                        request.getHttpVersion(),
                        request.method(),
                        request.getPath(),
                        request.getHeaders(),
                        new io.fabric8.mockwebserver.http.Buffer(JSON.writeValueAsBytes(body)));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        private MockResponse invalid(JsonNode body, java.util.List<String> violations) {
            String kind = body.path("kind").asText();
            String name = body.path("metadata").path("name").asText();
            return new MockResponse()
                    .setResponseCode(422)
                    .setBody(
                            Serialization.asJson(
                                    new StatusBuilder()
                                            .withCode(422)
                                            .withReason("Invalid")
                                            .withStatus("Failure")
                                            .withMessage(
                                                    kind
                                                            + " \""
                                                            + name
                                                            + "\" is invalid: "
                                                            + String.join(", ", violations))
                                            .build()));
        }

        @Override
        public MockResponse handleUpdate(RecordedRequest request) {
            if (request.getPath().matches(".*/api/v1/namespaces/[^/]+/pods/[^/?]+(\\?.*)?")
                    && PodResizeApi.changesResources(
                            findResource(getKey(request.getPath())), request)) {
                return PodResizeApi.onlyThroughResize(request.getPath());
            }
            StructuralSchema schema = schemaFor(request.getPath());
            if (schema != null) {
                Object checked = admit(request, schema);
                if (checked instanceof MockResponse refused) {
                    return refused;
                }
                request = (RecordedRequest) checked;
            }
            RecordedRequest admitted = request;
            byte[] sent = request.getBody().getBytes(); // serving it consumes the body
            MockResponse lost =
                    loseReply(
                            request.getPath().replaceAll("\\?.*$", ""),
                            body(request),
                            () -> optimisticUpdate(admitted));
            MockResponse answer = lost != null ? lost : optimisticUpdate(request);
            if (answer.code() == 200) {
                recordStored(request.getPath().replaceAll("\\?.*$", ""), sent);
            }
            return answer;
        }

        private JsonNode body(RecordedRequest request) {
            try {
                return JSON.readTree(request.getBody().getBytes());
            } catch (IOException e) {
                return JSON.nullNode();
            }
        }

        private MockResponse optimisticUpdate(RecordedRequest request) {
            String path = request.getPath().replaceAll("/status(\\?.*)?$", "");
            Interloper other = takeInterloper(request.getPath().replaceAll("\\?.*$", ""));
            if (other != null) {
                interlope(request, path, other);
            }
            Map.Entry<?, String> stored = findResource(getKey(path));
            String sent =
                    version(
                            new String(
                                    request.getBody().getBytes(),
                                    java.nio.charset.StandardCharsets.UTF_8));
            if (stored != null && sent != null && !sent.equals(version(stored.getValue()))) {
                conflicted();
                return new MockResponse()
                        .setResponseCode(409)
                        .setBody(
                                Serialization.asJson(
                                        new StatusBuilder()
                                                .withCode(409)
                                                .withReason("Conflict")
                                                .withStatus("Failure")
                                                .withMessage(
                                                        "Operation cannot be"
                                                                + " fulfilled on "
                                                                + path
                                                                + ": the object has been modified; please apply your"
                                                                + " changes to the latest version and try again")
                                                .build()));
            }
            return super.handleUpdate(request);
        }

        private void interlope(RecordedRequest request, String path, Interloper other) {
            try {
                JsonNode changed =
                        other.change().apply(JSON.readTree(findResource(getKey(path)).getValue()));
                super.handleUpdate(
                        new RecordedRequest(
                                request.getHttpVersion(),
                                request.method(),
                                request.getPath(),
                                request.getHeaders(),
                                new io.fabric8.mockwebserver.http.Buffer(
                                        JSON.writeValueAsBytes(changed))));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        private String version(String json) {
            try {
                JsonNode version = JSON.readTree(json).path("metadata").path("resourceVersion");
                return version.isMissingNode() || version.isNull() ? null : version.asText();
            } catch (IOException e) {
                return null;
            }
        }
    }
}
