package dev.flowscale.operator.flink;

import dev.flowscale.flink.FlinkConnectorException;
import dev.flowscale.flink.FlinkRestClient;
import dev.flowscale.flink.SlotLimits;
import dev.flowscale.operator.api.FlinkTarget;
import dev.flowscale.operator.api.StreamJob;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.Map;
import java.util.Optional;

/**
 * The task slots a StreamJob's Flink job may use. spec.flink.taskSlots where set. Otherwise a
 * session cluster at a REST URL is taken to be unable to add TaskManagers: the slots it has. A
 * FlinkDeployment's TaskManagers are made by the Flink Kubernetes operator: a fixed number where it
 * sets spec.taskManager.replicas, else on demand (native mode) up to Flink's {@code
 * slotmanager.number-of-slots.max} where set, else without bound. The deployment is read at each
 * sample, so a changed replica count counts from the next decision.
 */
final class FlinkSlotLimits {
    static final String MAX_SLOTS = "slotmanager.number-of-slots.max";
    static final String SLOTS_PER_TASK_MANAGER = "taskmanager.numberOfTaskSlots";

    private FlinkSlotLimits() {}

    static SlotLimits of(StreamJob job, FlinkDeployments deployments, FlinkRestClient rest) {
        FlinkTarget target = job.getSpec().flink;
        String ns = job.getMetadata().getNamespace();
        if (target.taskSlots != null) {
            return SlotLimits.configured(
                    target.taskSlots,
                    "spec.flink.taskSlots of StreamJob "
                            + ns
                            + "/"
                            + job.getMetadata().getName()
                            + " is "
                            + target.taskSlots);
        }
        if (target.deployment == null) {
            return SlotLimits.cluster(rest);
        }
        return flinkJob ->
                deployments
                        .get(ns, target.deployment)
                        .flatMap(FlinkSlotLimits::configured)
                        .flatMap(limits -> limits.of(flinkJob));
    }

    /** The slots a FlinkDeployment's own settings allow, if they bound them. */
    static Optional<SlotLimits> configured(GenericKubernetesResource deployment) {
        String name = "FlinkDeployment '" + deployment.getMetadata().getName() + "'";
        Map<String, String> config = FlinkDeployments.flinkConfiguration(deployment);
        Optional<Integer> replicas = FlinkDeployments.taskManagerReplicas(deployment);
        if (replicas.isPresent() && replicas.get() > 0) {
            int perTaskManager = number(config, SLOTS_PER_TASK_MANAGER, name).orElse(1);
            return Optional.of(
                    SlotLimits.configured(
                            replicas.get() * perTaskManager,
                            name
                                    + " runs spec.taskManager.replicas "
                                    + replicas.get()
                                    + " x "
                                    + SLOTS_PER_TASK_MANAGER
                                    + " "
                                    + perTaskManager));
        }
        return number(config, MAX_SLOTS, name)
                .map(max -> SlotLimits.configured(max, name + " sets " + MAX_SLOTS + " " + max));
    }

    private static Optional<Integer> number(Map<String, String> config, String key, String name) {
        String text = config.get(key);
        if (text == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(Integer.parseInt(text.trim()));
        } catch (NumberFormatException e) {
            throw new FlinkConnectorException(
                    name
                            + " sets spec.flinkConfiguration."
                            + key
                            + " to '"
                            + text
                            + "', not a whole number; give it a number of slots");
        }
    }
}
