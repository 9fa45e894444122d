package dev.flowscale.policy.loop;

import dev.flowscale.policy.api.HistoryIndex;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.RescaleRecord;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * The autoscaler's memory: the last N decisions and the last N rescales, and the sources' offered
 * rates per minute over the last four days ({@link RateLog}), with the decisions' index kept as
 * they are added ({@link HistoryIndex}). Not thread-safe.
 */
final class BoundedHistory {

    private final int capacity;
    private final Deque<ScalingDecision> decisions = new ArrayDeque<>();
    private final Deque<RescaleRecord> rescales = new ArrayDeque<>();

    private final RateLog rates = new RateLog(RateLog.DEFAULT_BUCKETS);
    private final HistoryIndex.Builder index = new HistoryIndex.Builder();
    private HistoryIndex built = HistoryIndex.EMPTY;

    BoundedHistory(int capacity) {
        this.capacity = capacity;
    }

    /**
     * Takes over a stored memory (before anything was added): its last {@code capacity} decisions
     * and rescales and its source rate log, with the index built from those decisions.
     */
    void restore(ScalingHistory stored) {
        List<ScalingDecision> kept = last(stored.decisions());
        kept.forEach(this::add);
        last(stored.rescales()).forEach(rescales::addLast);
        rates.restore(stored.sourceRates());
    }

    boolean isEmpty() {
        return decisions.isEmpty() && rescales.isEmpty();
    }

    ScalingDecision lastDecision() {
        return decisions.peekLast();
    }

    private <T> List<T> last(List<T> items) {
        return items.subList(Math.max(0, items.size() - capacity), items.size());
    }

    /** Remembers the window's offered source rates. */
    void observed(MetricsWindow window) {
        rates.record(window);
    }

    void add(ScalingDecision decision) {
        push(decisions, decision);
        built = index.add(decision, decisions.size()).build();
    }

    void started(RescaleRecord rescale) {
        push(rescales, rescale);
    }

    /** Replaces the record of the rescale in progress by its finished form. */
    void finished(RescaleRecord rescale) {
        rescales.pollLast();
        rescales.addLast(rescale);
    }

    RescaleRecord lastRescale() {
        return rescales.peekLast();
    }

    ScalingHistory snapshot() {
        return new ScalingHistory(
                decisions.stream().toList(), rescales.stream().toList(), rates.snapshot(), built);
    }

    private <T> void push(Deque<T> deque, T item) {
        deque.addLast(item);
        if (deque.size() > capacity) {
            deque.pollFirst();
        }
    }
}
