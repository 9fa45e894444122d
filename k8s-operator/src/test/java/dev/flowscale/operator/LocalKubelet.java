package dev.flowscale.operator;

import dev.flowscale.operator.runner.RunnerResources;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Plays the kubelet for one runner Deployment on the mock API server: runs its container as a local
 * engine runner process on a fixed port, replaces it when the container args change, restarts it
 * with the same args if it exits (restart policy Always, counted in {@link #restarts}), and reports
 * it ready in the Deployment's status while the container's readiness probe path answers 200.
 * Runners whose args fail {@code accept} are never started (a pod that never becomes ready). Paths
 * of the image (e.g. a user job's /opt/flowscale/jobs) are mapped to local paths ({@code
 * imageFiles}), so the runner loads the user's jar as in the image. A runner that exits with an
 * error is reported as a real kubelet reports it: a pod of the Deployment's template in
 * CrashLoopBackOff whose last termination carries the end of its log when the container's
 * terminationMessagePolicy is FallbackToLogsOnError; restarts back off from 10 s, doubling, as the
 * kubelet's do.
 */
final class LocalKubelet implements AutoCloseable {
    private final KubernetesClient client;
    private final String namespace;
    private final String deployment;
    private final Path engineJar;
    private final int port;
    private final Path logDir;
    private final Predicate<List<String>> accept;
    private final Map<String, Path> imageFiles;
    private final RunnerPod pod;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor();
    private List<String> args;
    private Path lastLog;
    private Process process;
    private boolean reportedReady;
    private boolean probeFails;
    private int started;
    private int restarts;
    private String readyPath = "/";
    private Supplier<Optional<Pod>> runningPod;

    LocalKubelet(
            KubernetesClient client,
            String namespace,
            String deployment,
            Path engineJar,
            int port,
            Path logDir,
            Predicate<List<String>> accept) {
        this(client, namespace, deployment, engineJar, port, logDir, accept, Map.of());
    }

    /**
     * The kubelet of runner wc-runner (StreamJob wc) in {@code namespace}, on a free port, its logs
     * in {@code logDir}.
     */
    static LocalKubelet ofWordCount(
            KubernetesClient client, String namespace, Path logDir, Predicate<List<String>> accept)
            throws IOException {
        return new LocalKubelet(
                client,
                namespace,
                "wc-runner",
                AutoscalingIT.engineJar(),
                RunnerJobHarness.freePort(),
                logDir,
                accept);
    }

    /**
     * {@code imageFiles}: a path in the runner image (an argument) and the local path that stands
     * for it.
     */
    LocalKubelet(
            KubernetesClient client,
            String namespace,
            String deployment,
            Path engineJar,
            int port,
            Path logDir,
            Predicate<List<String>> accept,
            Map<String, Path> imageFiles) {
        this.imageFiles = Map.copyOf(imageFiles);
        this.pod = new RunnerPod(client, namespace, deployment);
        this.client = client;
        this.namespace = namespace;
        this.deployment = deployment;
        this.engineJar = engineJar;
        this.port = port;
        this.logDir = logDir;
        this.accept = accept;
        loop.scheduleWithFixedDelay(this::sync, 0, 100, TimeUnit.MILLISECONDS);
    }

    URI address() {
        return URI.create("http://localhost:" + port);
    }

    private synchronized void sync() {
        try {
            Deployment d =
                    client.apps().deployments().inNamespace(namespace).withName(deployment).get();
            if (d == null) {
                return;
            }
            Optional<Pod> node = runningPod == null ? null : runningPod.get();
            if (node != null && node.isEmpty()) {
                lose(d); // the pod's node is lost, or no pod runs: no container runs here
                return;
            }
            PodSpec spec =
                    node == null ? d.getSpec().getTemplate().getSpec() : node.get().getSpec();
            List<String> desired = new ArrayList<>(spec.getContainers().get(0).getArgs());
            desired.add("replicas=" + d.getSpec().getReplicas());
            if (node != null) {
                desired.add("pod=" + node.get().getMetadata().getName());
            }
            readyPath = spec.getContainers().get(0).getReadinessProbe().getHttpGet().getPath();
            if (!desired.equals(args)) {
                replace(desired, d.getSpec().getReplicas());
            } else if (process != null
                    && !process.isAlive()
                    && pod.restartDue(process, lastLog, d)) {
                restarts++;
                replace(desired, d.getSpec().getReplicas());
            } else if (process == null && accept.test(desired)) {
                replace(
                        desired,
                        d.getSpec().getReplicas()); // a pod that could not start may start now
            }
            boolean ready = !probeFails() && process != null && process.isAlive() && answers();
            if (ready != reportedReady || d.getStatus() == null) {
                d.setStatus(
                        new DeploymentStatusBuilder()
                                .withReplicas(1)
                                .withReadyReplicas(ready ? 1 : 0)
                                .build());
                client.resource(d).updateStatus();
                reportedReady = ready;
            }
        } catch (RuntimeException | IOException e) {
            System.err.println("local kubelet: " + e);
        }
    }

    /**
     * From now on runs the container of {@code pod}'s pod only (its arguments, a new process for a
     * new pod), as the kubelet of that pod's node does; while it gives none (the pod's node is
     * lost, or no pod is scheduled), no runner process runs.
     */
    synchronized void runOnly(Supplier<Optional<Pod>> pod) {
        runningPod = pod;
    }

    /** A lost node: its runner process is gone without a word (SIGKILL), and it is not ready. */
    private void lose(Deployment d) {
        if (process != null) {
            process.destroyForcibly();
            process = null;
        }
        args = null;
        if (reportedReady || d.getStatus() == null) {
            d.setStatus(new DeploymentStatusBuilder().withReplicas(1).withReadyReplicas(0).build());
            client.resource(d).updateStatus();
            reportedReady = false;
        }
    }

    /**
     * Reports the pod not ready until {@link #passReadinessProbe}, whatever the runner answers: as
     * a real kubelet does after a probe that ran while the runner rescaled in place (it answers 503
     * then), until its next probe, periodSeconds later. This kubelet probes every 100 ms, so it
     * rarely shows that lag by itself.
     */
    synchronized void failReadinessProbe() {
        probeFails = true;
    }

    synchronized void passReadinessProbe() {
        probeFails = false;
    }

    private synchronized boolean probeFails() {
        return probeFails;
    }

    /** How many runner processes (pods) were started so far. */
    synchronized int started() {
        return started;
    }

    /** How many times a runner exited on its own and was started again with the same args. */
    synchronized int restarts() {
        return restarts;
    }

    /**
     * Kills the runner process at once, as the kernel's OOM killer kills a container: SIGKILL, so
     * no shutdown hook runs and no final snapshot is written. The sync loop then sees the container
     * exited with 137 and starts it again with the same args, as the kubelet does.
     */
    synchronized void kill() throws InterruptedException {
        if (process == null || !process.isAlive()) {
            throw new IllegalStateException(
                    "no runner process is running for deployment " + deployment);
        }
        process.destroyForcibly();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException(
                    "the runner process " + process.pid() + " outlived SIGKILL for 10 s");
        }
    }

    /**
     * Stops the runner process (SIGSTOP) without ending it: a runner that is alive but answers
     * nothing, as one starved of CPU or in a long garbage collection pause.
     */
    synchronized void freeze() throws IOException, InterruptedException {
        signal("STOP");
    }

    /** Lets a {@link #freeze frozen} runner process go on (SIGCONT). */
    synchronized void thaw() throws IOException, InterruptedException {
        signal("CONT");
    }

    private void signal(String name) throws IOException, InterruptedException {
        if (process == null || !process.isAlive()) {
            throw new IllegalStateException("no runner process is running for " + deployment);
        }
        Process kill =
                new ProcessBuilder("kill", "-" + name, String.valueOf(process.pid())).start();
        if (kill.waitFor() != 0) {
            throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed");
        }
    }

    private void replace(List<String> desired, Integer replicas) throws IOException {
        stopProcess();
        pod.reset();
        args = desired;
        if (replicas != null && replicas > 0 && accept.test(desired)) {
            List<String> command =
                    new ArrayList<>(
                            List.of(
                                    Path.of(System.getProperty("java.home"), "bin", "java")
                                            .toString(),
                                    "-Xmx256m",
                                    // A runner lives seconds here: the client compiler and the
                                    // serial collector start it on about half the CPU time
                                    // (measured 0.85 s against 1.5 s for a 3 s run).
                                    "-XX:TieredStopAtLevel=1",
                                    "-XX:+UseSerialGC",
                                    "-jar",
                                    engineJar.toString()));
            desired.subList(0, desired.size() - (runningPod == null ? 1 : 2)) // not replicas, pod
                    .forEach(
                            a ->
                                    command.add(
                                            a.equals(String.valueOf(RunnerResources.API_PORT))
                                                    ? "" + port
                                                    : imageFiles.containsKey(a)
                                                            ? imageFiles.get(a).toString()
                                                            : a));
            lastLog = logDir.resolve("runner-" + (++started) + ".log");
            process =
                    new ProcessBuilder(command)
                            .redirectErrorStream(true)
                            .redirectOutput(lastLog.toFile())
                            .start();
        }
    }

    private boolean answers() {
        try {
            HttpRequest request =
                    HttpRequest.newBuilder(address().resolve(readyPath))
                            .timeout(Duration.ofSeconds(1))
                            .build();
            return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void stopProcess() {
        if (process != null) {
            process.destroy();
            try {
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            process = null;
        }
    }

    @Override
    public synchronized void close() {
        loop.shutdownNow();
        stopProcess();
    }
}
