package dev.flowscale.engine.state;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * One timer domain's timers of every key, in time order: a bucket of keys per distinct time, the
 * buckets in a queue by time. Windows put many keys' timers at few times (every window end), so
 * adding one appends to its time's bucket and firing walks a bucket's keys in order; a queue of one
 * entry per timer compared them by time, at the cost of a cache miss per comparison, once per level
 * of the heap. Keys of one time fire in the order their timers were added.
 */
final class TimerQueue {
    private final Map<Long, Due> byTime = new HashMap<>();
    private final PriorityQueue<Due> order =
            new PriorityQueue<>((a, b) -> Long.compare(a.time, b.time));

    /** The bucket added to last: records in time order add most timers to the same few times. */
    private Due last;

    /** The keys whose timers are at one time. */
    static final class Due {
        final long time;
        private Object[] keys = new Object[4];
        private int size;

        private Due(long time) {
            this.time = time;
        }

        int size() {
            return size;
        }

        Object key(int index) {
            return keys[index];
        }

        private void add(Object key) {
            if (size == keys.length) {
                keys = Arrays.copyOf(keys, size * 2);
            }
            keys[size++] = key;
        }
    }

    void add(long time, Object key) {
        Due due = last;
        if (due == null || due.time != time) {
            due = byTime.get(time);
            if (due == null) {
                due = new Due(time);
                byTime.put(time, due);
                order.add(due);
            }
            last = due;
        }
        due.add(key);
    }

    /** The earliest time with timers; {@link Long#MAX_VALUE} for none. */
    long next() {
        Due first = order.peek();
        return first == null ? Long.MAX_VALUE : first.time;
    }

    /**
     * Takes the earliest time's timers if that time is at most {@code until}, else null. Timers
     * added meanwhile at that time go to a new bucket, which the next call returns.
     */
    Due pollDue(long until) {
        Due first = order.peek();
        if (first == null || first.time > until) {
            return null;
        }
        order.poll();
        byTime.remove(first.time);
        if (last == first) {
            last = null;
        }
        return first;
    }
}
