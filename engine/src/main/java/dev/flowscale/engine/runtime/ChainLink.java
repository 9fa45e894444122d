package dev.flowscale.engine.runtime;

import java.util.concurrent.CancellationException;

/**
 * The way into a chained operator from the operator before it on the same thread: each record is
 * handed over by a direct call, with no copy and no queue; events (barriers, watermarks, latency
 * markers, end of stream) likewise. While the chain's work is being timed, every call is bracketed
 * by the {@link ChainTiming}.
 */
final class ChainLink {
    private final OperatorTask member;
    private final ChainTiming timing;
    private final int index;

    ChainLink(OperatorTask member, ChainTiming timing, int index) {
        this.member = member;
        this.timing = timing;
        this.index = index;
    }

    void push(Object record, long timestamp) {
        if (timing.active) {
            int from = timing.enter(index);
            process(record, timestamp);
            timing.exit(from);
        } else {
            process(record, timestamp);
        }
    }

    private void process(Object record, long timestamp) {
        try {
            member.processChained(record, timestamp);
        } catch (ChainedFailure | CancellationException e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted in a chained operator");
        } catch (Exception e) {
            throw new ChainedFailure(member.context, e);
        }
    }

    void event(Batch event) throws InterruptedException {
        if (timing.active) {
            int from = timing.enter(index);
            handle(event);
            timing.exit(from);
        } else {
            handle(event);
        }
    }

    private void handle(Batch event) throws InterruptedException {
        try {
            member.onChainedEvent(event);
        } catch (ChainedFailure | CancellationException | InterruptedException e) {
            throw e;
        } catch (Exception e) {
            throw new ChainedFailure(member.context, e);
        }
    }

    void flush() throws InterruptedException {
        member.output.flush();
    }

    int suggestedBatch(int max) {
        return member.output.suggestedBatch(max);
    }
}
