package dev.flowscale.engine.runtime;

import dev.flowscale.engine.checkpoint.CheckpointCoordinator;
import dev.flowscale.engine.checkpoint.HandOff;
import dev.flowscale.engine.checkpoint.SnapshotIdentity;
import dev.flowscale.engine.state.KeyedStateBackend;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The savepoint of one hand-over rescale: the tasks' captures, collected at their barrier, and the
 * background write of their files once the next run has started. The savepoint completes (its
 * manifest written by the coordinator of the stopped run) when every file is written; until then
 * the job's durable state is its last complete snapshot before the rescale.
 */
final class HandOverSavepoint {
    private final String jobName;
    private final List<HandOff> captured = new ArrayList<>();

    HandOverSavepoint(String jobName) {
        this.jobName = jobName;
    }

    /** A task's capture at barrier {@code id}; from the task's own thread. */
    synchronized void add(HandOff handOff) {
        captured.add(handOff);
    }

    synchronized List<HandOff> captured() {
        return List.copyOf(captured);
    }

    /**
     * Whether every one of {@code tasks} tasks captured its state at barrier {@code id} and no
     * keyed backend changed after its capture (the captures are the job's state at the barrier).
     */
    synchronized boolean consistent(int tasks, long id) {
        if (captured.size() != tasks) {
            return false;
        }
        for (HandOff h : captured) {
            KeyedStateBackend keyed = h.keyed();
            if (keyed != null && !keyed.unchangedSince(id)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Writes every capture's file into snapshot {@code id} of {@code coordinator} on background
     * threads (two at most: the job runs meanwhile), acknowledging each; a failed write declines
     * the snapshot, which is then discarded. The future completes when every write has ended
     * (written, failed or skipped because the snapshot was abandoned): then nothing reads the
     * captured backends any more.
     */
    synchronized CompletableFuture<Void> writeInBackground(
            CheckpointCoordinator coordinator, long id) {
        SnapshotIdentity identity = new SnapshotIdentity(jobName, id);
        ExecutorService writers =
                Executors.newFixedThreadPool(
                        Math.max(1, Math.min(2, captured.size())),
                        r -> {
                            Thread t = new Thread(r, "flowscale-" + jobName + "-savepoint-writer");
                            t.setDaemon(true);
                            return t;
                        });
        CompletableFuture<?>[] writes =
                captured.stream()
                        .map(
                                h ->
                                        CompletableFuture.runAsync(
                                                () -> write(coordinator, identity, h), writers))
                        .toArray(CompletableFuture[]::new);
        writers.shutdown();
        return CompletableFuture.allOf(writes);
    }

    private static void write(
            CheckpointCoordinator coordinator, SnapshotIdentity identity, HandOff h) {
        long id = identity.snapshotId();
        Path dir = coordinator.directory(id);
        if (dir == null) {
            return;
        }
        try {
            coordinator.acknowledge(id, h.write(dir, identity));
        } catch (IOException | RuntimeException e) {
            coordinator.decline(id, h.describe(), e);
        }
    }

    /**
     * Stops writing (the job is closing): the savepoint stays incomplete and is discarded. Writes
     * not started yet find no snapshot directory and end at once; the one running finishes its file
     * (it cannot be stopped halfway through a store).
     */
    synchronized void abandon(CheckpointCoordinator coordinator, long id) {
        if (coordinator.pendingId() == id) {
            coordinator.abortPending("the job closed before its rescale savepoint was written");
        }
    }
}
