package dev.flowscale.operator;

import java.util.Optional;

/**
 * One Kubernetes API request as RBAC sees it: API group ("" for the core group), resource (with its
 * subresource, e.g. streamjobs/status) and verb (get, list, watch, create, update, patch, delete,
 * deletecollection).
 */
record ApiCall(String group, String resource, String verb) {
    /**
     * The call a request makes, from its method and path (with query); empty for non-resource
     * paths.
     */
    static Optional<ApiCall> of(String method, String pathAndQuery) {
        String[] pq = pathAndQuery.split("\\?", 2);
        String query = pq.length > 1 ? pq[1] : "";
        String[] parts = pq[0].replaceAll("^/+", "").split("/");
        int at;
        String group;
        if (parts[0].equals("api") && parts.length >= 3) {
            group = "";
            at = 2;
        } else if (parts[0].equals("apis") && parts.length >= 4) {
            group = parts[1];
            at = 3;
        } else {
            return Optional.empty();
        }
        if (parts[at].equals("namespaces") && parts.length > at + 2) {
            at += 2; // namespaced: skip "namespaces/<ns>"
        }
        String resource = parts[at];
        boolean named = parts.length > at + 1;
        if (parts.length > at + 2) {
            resource += "/" + parts[at + 2];
        }
        return Optional.of(new ApiCall(group, resource, verb(method, named, query)));
    }

    /**
     * The namespace a request's path names ({@code .../namespaces/<ns>/...}), or null for a
     * cluster-scoped one.
     */
    static String namespace(String pathAndQuery) {
        String[] parts = pathAndQuery.split("\\?", 2)[0].replaceAll("^/+", "").split("/");
        int at = parts[0].equals("api") ? 2 : 3;
        return parts.length > at + 2 && parts[at].equals("namespaces") ? parts[at + 1] : null;
    }

    /**
     * The object name a request's path names ({@code .../<resource>/<name>[/<subresource>]}), or
     * null for a collection (list, watch, create).
     */
    static String name(String pathAndQuery) {
        String[] parts = pathAndQuery.split("\\?", 2)[0].replaceAll("^/+", "").split("/");
        int at = parts[0].equals("api") ? 2 : 3;
        if (parts.length > at + 2 && parts[at].equals("namespaces")) {
            at += 2;
        }
        return parts.length > at + 1 ? parts[at + 1] : null;
    }

    private static String verb(String method, boolean named, String query) {
        return switch (method) {
            case "GET" -> query.contains("watch=true") ? "watch" : named ? "get" : "list";
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> named ? "delete" : "deletecollection";
            default -> method.toLowerCase(java.util.Locale.ROOT);
        };
    }

    @Override
    public String toString() {
        return (group.isEmpty() ? "core" : group) + "/" + resource + " " + verb;
    }
}
