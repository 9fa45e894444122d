package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import com.marcnuri.helm.Helm;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Path;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.MountableFile;

/**
 * What every K3s suite does first: the images Jib built (profile k3s) imported into K3s's
 * containerd, the Helm chart installed in {@value #SYSTEM} for StreamJobs in one namespace, and
 * that namespace created.
 */
final class K3sInstall {
    static final String SYSTEM = "flowscale-system";
    static final Path CHART = Path.of("..", "charts", "flowscale");

    /** The K3s release every suite runs. */
    static final DockerImageName IMAGE = DockerImageName.parse("rancher/k3s:v1.31.4-k3s1");

    private K3sInstall() {}

    /** Installs the operator on {@code k3s}; returns a client of the cluster. */
    static KubernetesClient operator(K3sContainer k3s, String jobs) throws Exception {
        importImage(k3s, System.getProperty("flowscale.e2e.operator.tar"));
        importImage(k3s, System.getProperty("flowscale.e2e.runner.tar"));
        String kubeconfig = k3s.getKubeConfigYaml();
        KubernetesClient client =
                new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(kubeconfig)).build();
        String operator = System.getProperty("flowscale.e2e.operator.image");
        new Helm(CHART)
                .install()
                .withName("flowscale")
                .withNamespace(SYSTEM)
                .createNamespace()
                .withKubeConfigContents(kubeconfig)
                .set("image.repository", operator.substring(0, operator.lastIndexOf(':')))
                .set("image.tag", operator.substring(operator.lastIndexOf(':') + 1))
                .set("image.pullPolicy", "Never")
                .set("networkPolicy.namespaces[0]", jobs)
                .set("runnerTimeouts.deploy", "3m")
                .waitReady()
                .call();
        client.resource(
                        new NamespaceBuilder()
                                .withNewMetadata()
                                .withName(jobs)
                                .endMetadata()
                                .build())
                .create();
        return client;
    }

    private static void importImage(K3sContainer k3s, String tar) throws Exception {
        assertThat(tar).as("system property with the Jib tar: run with -Pk3s").isNotBlank();
        assertThat(Path.of(tar))
                .as("Jib's image tar (built in the package phase of -Pk3s)")
                .exists();
        String inContainer = "/tmp/" + Path.of(tar).getFileName();
        k3s.copyFileToContainer(MountableFile.forHostPath(tar), inContainer);
        ExecResult result =
                k3s.execInContainer("ctr", "-n", "k8s.io", "images", "import", inContainer);
        assertThat(result.getExitCode())
                .as("ctr images import %s: %s", tar, result.getStderr())
                .isZero();
    }
}
