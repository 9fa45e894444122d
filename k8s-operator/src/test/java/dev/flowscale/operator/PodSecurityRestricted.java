package dev.flowscale.operator;

import io.fabric8.kubernetes.api.model.Capabilities;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.SeccompProfile;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Volume;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The checks of the Pod Security Standards' {@code restricted} profile (which includes {@code
 * baseline}) as the Kubernetes documentation lists them ("Pod Security Standards",
 * kubernetes.io/docs/concepts/security/pod-security-standards), over containers and init
 * containers. Each violation names the field, as the admission controller's message does.
 */
final class PodSecurityRestricted {
    static final Set<String> BASELINE_CAPABILITIES =
            Set.of(
                    "AUDIT_WRITE",
                    "CHOWN",
                    "DAC_OVERRIDE",
                    "FOWNER",
                    "FSETID",
                    "KILL",
                    "MKNOD",
                    "NET_BIND_SERVICE",
                    "SETFCAP",
                    "SETGID",
                    "SETPCAP",
                    "SETUID",
                    "SYS_CHROOT");
    static final Set<String> RESTRICTED_VOLUMES =
            Set.of(
                    "configMap",
                    "csi",
                    "downwardAPI",
                    "emptyDir",
                    "ephemeral",
                    "persistentVolumeClaim",
                    "projected",
                    "secret");

    private PodSecurityRestricted() {}

    static List<String> violations(PodSpec pod) {
        List<String> out = new ArrayList<>();
        if (Boolean.TRUE.equals(pod.getHostNetwork())
                || Boolean.TRUE.equals(pod.getHostPID())
                || Boolean.TRUE.equals(pod.getHostIPC())) {
            out.add("host namespaces: hostNetwork, hostPID and hostIPC must be unset or false");
        }
        PodSecurityContext podContext =
                pod.getSecurityContext() == null
                        ? new PodSecurityContext()
                        : pod.getSecurityContext();
        if (podContext.getSysctls() != null && !podContext.getSysctls().isEmpty()) {
            out.add("sysctls: only the safe set is allowed (none is set by flowscale)");
        }
        pod.getVolumes().forEach(v -> volume(v, out));
        containers(pod).forEach(c -> container(c, podContext, out));
        return out;
    }

    private static Stream<Container> containers(PodSpec pod) {
        return Stream.concat(pod.getInitContainers().stream(), pod.getContainers().stream());
    }

    private static void volume(Volume v, List<String> out) {
        @SuppressWarnings("unchecked")
        var fields =
                (java.util.Map<String, Object>)
                        io.fabric8.kubernetes.client.utils.Serialization.jsonMapper()
                                .convertValue(v, java.util.Map.class);
        fields.keySet().stream()
                .filter(k -> !k.equals("name") && !RESTRICTED_VOLUMES.contains(k))
                .forEach(k -> out.add("volume " + v.getName() + ": type " + k + " is not allowed"));
    }

    private static void container(Container c, PodSecurityContext pod, List<String> out) {
        SecurityContext sc =
                c.getSecurityContext() == null ? new SecurityContext() : c.getSecurityContext();
        String at = "container " + c.getName() + ": ";
        if (Boolean.TRUE.equals(sc.getPrivileged())) {
            out.add(at + "securityContext.privileged must be unset or false");
        }
        if (c.getPorts().stream().anyMatch(p -> p.getHostPort() != null && p.getHostPort() != 0)) {
            out.add(at + "hostPort must be unset or 0");
        }
        if (!Boolean.FALSE.equals(sc.getAllowPrivilegeEscalation())) {
            out.add(at + "securityContext.allowPrivilegeEscalation must be false");
        }
        boolean nonRoot =
                Boolean.TRUE.equals(sc.getRunAsNonRoot())
                        || sc.getRunAsNonRoot() == null
                                && Boolean.TRUE.equals(pod.getRunAsNonRoot());
        if (!nonRoot) {
            out.add(
                    at
                            + "runAsNonRoot must be true (in the pod's or the container's securityContext)");
        }
        Long user = sc.getRunAsUser() != null ? sc.getRunAsUser() : pod.getRunAsUser();
        if (user != null && user == 0L) {
            out.add(at + "runAsUser must not be 0");
        }
        seccomp(
                sc.getSeccompProfile() != null ? sc.getSeccompProfile() : pod.getSeccompProfile(),
                at,
                out);
        capabilities(sc.getCapabilities(), at, out);
    }

    private static void seccomp(SeccompProfile profile, String at, List<String> out) {
        if (profile == null || !Set.of("RuntimeDefault", "Localhost").contains(profile.getType())) {
            out.add(
                    at
                            + "seccompProfile.type must be RuntimeDefault or Localhost (pod or container)");
        }
    }

    private static void capabilities(Capabilities caps, String at, List<String> out) {
        if (caps == null || !caps.getDrop().contains("ALL")) {
            out.add(at + "securityContext.capabilities.drop must include ALL");
        }
        if (caps != null && caps.getAdd().stream().anyMatch(a -> !a.equals("NET_BIND_SERVICE"))) {
            out.add(at + "securityContext.capabilities.add may only hold NET_BIND_SERVICE");
        }
    }
}
