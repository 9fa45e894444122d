package dev.flowscale.flink;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Where the task slots a Flink job may use come from: a cluster that cannot add TaskManagers (a
 * standalone or session cluster, a MiniCluster) has the slots its overview shows; a cluster that
 * adds them on demand (native Kubernetes) has what its configuration allows, or no bound.
 */
@FunctionalInterface
public interface SlotLimits {

    /** The slots the job may use now, given the job as it runs; empty: no bound. */
    Optional<SlotLimit> of(FlinkJob job);

    /** No bound: the cluster adds TaskManagers for whatever the job asks. */
    static SlotLimits none() {
        return job -> Optional.empty();
    }

    /**
     * A fixed number of slots for the whole job, e.g. from a StreamJob field or a FlinkDeployment's
     * {@code slotmanager.number-of-slots.max}.
     *
     * @param why where the number comes from, for the decision's reasons
     */
    static SlotLimits configured(int slots, String why) {
        return job -> Optional.of(new SlotLimit(slots, why, groups(job)));
    }

    /**
     * The cluster's slots less those other jobs hold, for a cluster that cannot add TaskManagers.
     * Where the free slots and those the job's parallelism needs make up the cluster, no other job
     * holds any; otherwise the TaskManagers' allocated slots tell (after a scale-down Flink keeps
     * the job's idle slots until {@code slot.idle.timeout}, so the cluster's overview alone would
     * count them as another job's). Where they are not listed, every slot neither free nor needed
     * by the job counts as another job's.
     */
    static SlotLimits cluster(FlinkRestClient rest) {
        return job -> {
            TaskSlots cluster = TaskSlots.read(rest);
            Map<String, String> groups = groups(job);
            int own = SlotCap.slotsNeeded(job.parallelism(), groups);
            int unaccounted = cluster.total() - cluster.available() - own;
            int others =
                    unaccounted <= 0
                            ? 0
                            : TaskSlots.heldByOtherJobs(rest, job.id()).orElse(unaccounted);
            String why =
                    "the Flink cluster at "
                            + rest.base()
                            + " has "
                            + cluster.total()
                            + " task slots on "
                            + cluster.taskManagers()
                            + " TaskManager(s), "
                            + (others == 0 ? "none" : others)
                            + " held by other jobs, and cannot add TaskManagers";
            return Optional.of(new SlotLimit(Math.max(1, cluster.total() - others), why, groups));
        };
    }

    /** Slot-sharing group per operator id, as Flink reports it. */
    private static Map<String, String> groups(FlinkJob job) {
        Map<String, String> groups = new LinkedHashMap<>();
        job.vertices().forEach(v -> groups.put(v.operatorId(), v.slotSharingGroup()));
        return groups;
    }
}
