package dev.flowscale.engine.runtime;

import dev.flowscale.engine.metrics.InstanceCounterRecorder;
import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * The operators that run on one thread: a head (a source, or an operator fed through an input gate)
 * and the operators chained behind it ({@link ChainPlan}). The head's thread opens, drives and
 * closes the members; their counters follow the head's clock and {@link ChainTiming} gives each its
 * own share of the useful time. Every task starts as the head of a chain of its own.
 */
final class OperatorChain {
    private final Task head;
    private final List<OperatorTask> members = new ArrayList<>();
    final ChainTiming timing;

    /** Created at the first reading of the counters, once the members are known. */
    private ChainThreadTimes threadTimes;

    OperatorChain(Task head, boolean instrumented) {
        this.head = head;
        this.timing = new ChainTiming(instrumented);
        timing.add(head.metrics);
        head.clock.timeChain(timing);
    }

    Task head() {
        return head;
    }

    /** The head, then the members in the order they joined (upstream before downstream). */
    List<Task> tasks() {
        List<Task> all = new ArrayList<>(members.size() + 1);
        all.add(head);
        all.addAll(members);
        return all;
    }

    /**
     * Chains {@code member} behind this chain's operators: it shares the head's clock and is
     * reached through the returned link. Before the thread starts.
     */
    ChainLink join(OperatorTask member) {
        members.add(member);
        member.chain = this;
        member.clock = head.clock;
        head.clock.follow(member.metrics);
        return new ChainLink(member, timing, timing.add(member.metrics));
    }

    /** Opens the members last first, so that each is ready before anything can reach it. */
    void openMembers() throws Exception {
        for (int i = members.size() - 1; i >= 0; i--) {
            members.get(i).open();
        }
    }

    void membersOpened() {
        members.forEach(Task::markOpened);
    }

    /** Closes the members, and the timing's run-delay file; on the chain's thread, at its end. */
    void closeMembers() {
        members.forEach(Task::closeQuietly);
        timing.close();
    }

    /** Publishes what the members took in and emitted since the last call. */
    void publishMemberCounts() {
        for (OperatorTask member : members) {
            member.publishChainedCounts();
        }
    }

    void sampleMembers(long now) {
        for (OperatorTask member : members) {
            member.sample(now);
        }
    }

    /**
     * Gives {@code into} each operator's counters as of {@code now}, with its part of the thread's
     * CPU time and wait for a core ({@link ChainThreadTimes}; null: not known).
     */
    void snapshot(
            long now, Long cpuNanos, Long coreWaitNanos, BiConsumer<Task, InstanceCounts> into) {
        List<Task> all = tasks();
        InstanceCounts[] counts = threadTimes(all).snapshot(now, cpuNanos, coreWaitNanos);
        for (int i = 0; i < counts.length; i++) {
            into.accept(all.get(i), counts[i]);
        }
    }

    private synchronized ChainThreadTimes threadTimes(List<Task> all) {
        if (threadTimes == null) {
            threadTimes =
                    new ChainThreadTimes(
                            all.stream()
                                    .map(t -> t.metrics)
                                    .toArray(InstanceCounterRecorder[]::new));
        }
        return threadTimes;
    }

    /** When the members' earliest processing-time timer is due; {@link Long#MAX_VALUE}: none. */
    long nextMemberTimer() {
        long next = Long.MAX_VALUE;
        for (OperatorTask member : members) {
            next = Math.min(next, member.logic().nextProcessingTimer());
        }
        return next;
    }

    void fireMemberTimers() throws Exception {
        for (OperatorTask member : members) {
            member.fireOwnTimers();
        }
    }

    boolean hasMembers() {
        return !members.isEmpty();
    }
}
