package dev.flowscale.operator.runner;

import dev.flowscale.operator.api.PendingChange;
import dev.flowscale.operator.api.PodDownsize;
import dev.flowscale.operator.api.RescaleOutcome;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.core.DurationText;
import dev.flowscale.operator.core.JobEvents;
import dev.flowscale.operator.core.OperatorException;
import dev.flowscale.operator.core.ReconcileStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Gives back the slots a scale-down left unused, so that the saving reaches the cluster: a runner
 * rescaled down inside its pod still holds the pod's requests. Where {@code
 * spec.rescaling.inPlacePodResize} allows it, the pod's requests are lowered through its resize
 * subresource ({@link PodResize#target}: the memory limit stays) and the kubelet's answer awaited;
 * otherwise, or when the API server or the kubelet refuses, the pod is replaced by one sized for
 * the parallelism if the slots saved over {@code spec.autoscaler.savingsHorizon} exceed the
 * slot-time its downtime costs (the policy's test for a trim), else it is kept. Each step is
 * recorded in {@code status.downsize} and the outcome reported by a {@value
 * JobEvents#POD_DOWNSIZED} Event.
 */
final class PodDownsizeSteps {
    static final String REASON = "resources";
    private final ReconcileStatus pass;
    private final ExecutorTools tools;

    PodDownsizeSteps(ReconcileStatus pass, ExecutorTools tools) {
        this.pass = pass;
        this.tools = tools;
    }

    /**
     * One pass for a runner that runs what it should: null when the pod holds no unused slot (or
     * keeps them); a recheck while a resize is under way; else what the replacement returns.
     */
    Duration carryOn(int podSlots, Optional<Pod> pod, Supplier<Duration> replace) {
        StreamJob job = pass.job();
        int needed = PodSizing.slots(job.getSpec().resources, pass.status().parallelism);
        if (pod.isEmpty() || needed >= podSlots) {
            return null;
        }
        PodDownsize d = record(pod.get().getMetadata().getName(), podSlots, needed);
        if (PodDownsize.KEPT.equals(d.path) || PodDownsize.POD_REPLACEMENT.equals(d.path)) {
            return null; // decided for this pod and these slots; a replacement is under way
        }
        if (d.refused == null && Boolean.TRUE.equals(job.getSpec().rescaling.inPlacePodResize)) {
            return resizeDown(pod.get(), needed, replace);
        }
        return replaceOrKeep(replace);
    }

    /** The record for this pod and these slots: the one in status, or a new one. */
    private PodDownsize record(String pod, int from, int to) {
        PodDownsize d = pass.status().downsize;
        if (d == null || !pod.equals(d.pod) || d.fromSlots != from || d.toSlots != to) {
            PodDownsize fresh = new PodDownsize();
            fresh.pod = pod;
            fresh.fromSlots = from;
            fresh.toSlots = to;
            pass.write(st -> st.downsize = fresh);
        }
        return pass.status().downsize;
    }

    /** Asks for the resize, awaits the kubelet, and replaces or keeps the pod if it refuses. */
    private Duration resizeDown(Pod pod, int slots, Supplier<Duration> replace) {
        ResourceRequirements desired =
                PodResize.target(
                        pod,
                        RunnerDeployment.CONTAINER,
                        RunnerDeployment.resources(pass.job().getSpec().resources, slots));
        if (!PodResize.asked(pod, RunnerDeployment.CONTAINER, desired)) {
            return ask(pod, desired, replace);
        }
        PodResize.Observed resize = PodResize.observe(pod, RunnerDeployment.CONTAINER, desired);
        if (resize.refused()) {
            return refuse(
                    "the kubelet answered the resize with "
                            + resize.state()
                            + ": "
                            + resize.message(),
                    replace);
        }
        if (resize.state() != PodResize.State.DONE) {
            return sinceAsked().compareTo(tools.timeout().apply(pass.job())) > 0
                    ? refuse("the resize was not applied within the rescale timeout", replace)
                    : Changes.PENDING_RECHECK;
        }
        resized(pod.getMetadata().getName(), slots, desired);
        return null;
    }

    private Duration ask(Pod pod, ResourceRequirements desired, Supplier<Duration> replace) {
        try {
            if (!tools.cluster().resize(pod, RunnerDeployment.CONTAINER, desired)) {
                return refuse(
                        "the API server has no resize subresource for pods (HTTP 404;"
                                + " Kubernetes 1.33 or later has it)",
                        replace);
            }
        } catch (OperatorException e) {
            return refuse(e.getMessage(), replace);
        }
        String now = tools.clock().instant().toString();
        pass.write(st -> st.downsize.asked = now);
        return Changes.PENDING_RECHECK;
    }

    /** Time since the resize was asked for (an operator that restarted meanwhile counts anew). */
    private Duration sinceAsked() {
        if (pass.status().downsize.asked == null) {
            String now = tools.clock().instant().toString();
            pass.write(st -> st.downsize.asked = now);
        }
        return Duration.between(
                Instant.parse(pass.status().downsize.asked), tools.clock().instant());
    }

    private void resized(String pod, int slots, ResourceRequirements desired) {
        String message =
                "pod "
                        + pod
                        + " resized down in place from "
                        + pass.status().downsize.fromSlots
                        + " to "
                        + slots
                        + " slots: requests "
                        + desired.getRequests()
                        + " (its memory limit stays: Kubernetes lowers none in place)";
        pass.write(
                st -> {
                    st.resizedPod = pod;
                    st.resizedSlots = slots;
                    st.downsize.path = PodDownsize.IN_PLACE_RESIZE;
                    st.downsize.message = message;
                });
        tools.events().normal(pass.job(), JobEvents.POD_DOWNSIZED, message);
    }

    private Duration refuse(String why, Supplier<Duration> replace) {
        pass.write(st -> st.downsize.refused = why);
        return replaceOrKeep(replace);
    }

    /**
     * Replaces the pod when the slots it gives back over the savings horizon exceed the slot-time
     * the replacement's downtime costs (every running instance stops for it), else keeps it.
     */
    private Duration replaceOrKeep(Supplier<Duration> replace) {
        PodDownsize d = pass.status().downsize;
        Duration horizon =
                DurationText.parse(
                        "spec.autoscaler.savingsHorizon",
                        pass.job().getSpec().autoscaler.savingsHorizon);
        Trade trade =
                new Trade(
                        d.fromSlots - d.toSlots,
                        d.fromSlots,
                        horizon,
                        PodSizing.totalSlots(pass.status().parallelism),
                        downtime());
        boolean replaces = trade.worthIt();
        String message = trade.explain(d.pod, d.refused);
        pass.write(
                st -> {
                    st.downsize.path = replaces ? PodDownsize.POD_REPLACEMENT : PodDownsize.KEPT;
                    st.downsize.message = message;
                });
        tools.events().normal(pass.job(), JobEvents.POD_DOWNSIZED, message);
        return replaces ? replace.get() : null;
    }

    private record Downtime(double seconds, String source) {}

    /** What replacing the pod saves and costs, in slot-seconds. */
    private record Trade(int freed, int had, Duration horizon, int running, Downtime downtime) {
        double saved() {
            return freed * seconds(horizon);
        }

        double cost() {
            return running * downtime.seconds();
        }

        boolean worthIt() {
            return saved() > cost();
        }

        String explain(String pod, String refused) {
            return String.format(
                    "pod %s %s: giving back %d of its %d slots saves %d slots × %d s"
                            + " (spec.autoscaler.savingsHorizon) = %.0f slot-s, %s the %.0f"
                            + " slot-s a replacement costs (%d running slots × %.1f s, %s)%s",
                    pod,
                    worthIt() ? "is replaced by a pod sized for its parallelism" : "is kept",
                    freed,
                    had,
                    freed,
                    horizon.toSeconds(),
                    saved(),
                    worthIt() ? "more than" : "no more than",
                    cost(),
                    running,
                    downtime.seconds(),
                    downtime.source(),
                    refused == null ? "" : "; no in-place resize: " + refused);
        }
    }

    /**
     * The downtime of the job's last pod replacement where status holds one that succeeded, else
     * the downtime the autoscaler assumes until it measured one.
     */
    private Downtime downtime() {
        RescaleOutcome last = pass.status().lastRescale;
        if (last != null && last.succeeded && PendingChange.POD_REPLACEMENT.equals(last.path)) {
            return new Downtime(last.downtimeSeconds, "the last pod replacement's downtime");
        }
        String text = pass.job().getSpec().autoscaler.expectedDowntime;
        return new Downtime(
                seconds(DurationText.parse("spec.autoscaler.expectedDowntime", text)),
                "spec.autoscaler.expectedDowntime; no pod replacement measured yet");
    }

    private static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }
}
