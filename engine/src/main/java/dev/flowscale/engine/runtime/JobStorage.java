package dev.flowscale.engine.runtime;

import dev.flowscale.engine.checkpoint.CheckpointBarrier;
import dev.flowscale.engine.checkpoint.CheckpointCoordinator;
import dev.flowscale.engine.checkpoint.CheckpointStorage;
import dev.flowscale.engine.checkpoint.StorageOwner;
import dev.flowscale.engine.graph.JobGraph;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A job's snapshot storage for the life of its runner: owned exclusively (lock and epoch), checked
 * writable at start, with snapshot ids that continue after the highest one stored and statistics
 * that survive restarts and rescales.
 */
final class JobStorage implements AutoCloseable {
    private final CheckpointConfig config;
    private final CheckpointStorage storage;
    private final StorageOwner owner;
    private final CheckpointStats stats;
    private final AtomicLong ids;
    private final Clock clock;

    private JobStorage(
            CheckpointConfig config, StorageOwner owner, CheckpointStats stats, Clock clock) {
        this.config = config;
        this.storage = new CheckpointStorage(config.storage(), config.signing());
        this.owner = owner;
        this.stats = stats;
        this.clock = clock;
        this.ids = new AtomicLong(storage.highestId());
    }

    /**
     * Takes the storage of {@code job}: locks it (refused if another runner holds it), increments
     * its epoch and checks that snapshots can be written there.
     */
    static JobStorage open(
            CheckpointConfig config,
            String job,
            Clock clock,
            MeterRegistry registry,
            Consumer<String> log) {
        StorageOwner owner = StorageOwner.acquire(config.storage(), job, clock);
        try {
            new CheckpointStorage(config.storage()).checkWritable();
        } catch (RuntimeException e) {
            owner.close();
            throw e;
        }
        CheckpointStats stats = new CheckpointStats(job, clock, log);
        if (registry != null) {
            stats.bind(registry);
        }
        return new JobStorage(config, owner, stats, clock);
    }

    CheckpointCoordinator coordinator(
            JobGraph graph,
            Consumer<CheckpointBarrier> sources,
            ScheduledExecutorService timer,
            Supplier<Set<Path>> pinned) {
        CheckpointCoordinator.Settings settings =
                new CheckpointCoordinator.Settings(
                        storage, owner, config.timeout(), config.retained(), pinned, clock);
        return new CheckpointCoordinator(
                graph.jobName(),
                graph.keyGroups(),
                graph.parallelism(),
                settings,
                ids,
                sources,
                timer);
    }

    CheckpointConfig config() {
        return config;
    }

    CheckpointStorage storage() {
        return storage;
    }

    CheckpointStats stats() {
        return stats;
    }

    long epoch() {
        return owner.epoch();
    }

    /** Gives the folder up: a successor may take it; this runner commits nothing more. */
    void release() {
        owner.close();
    }

    @Override
    public void close() {
        release();
        stats.close();
    }
}
