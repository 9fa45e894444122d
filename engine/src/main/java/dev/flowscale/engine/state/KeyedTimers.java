package dev.flowscale.engine.state;

import dev.flowscale.engine.api.ListState;
import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.api.TimeDomain;
import dev.flowscale.engine.api.TimerService;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The timers of one keyed instance. Each key's timers are a list in its keyed state, so they are
 * snapshotted per key group and move with their key group on a rescale; a queue ordered by time
 * (rebuilt from the state on restore, {@link TimerQueue}) finds the ones due. A deleted timer stays
 * in the queue and is skipped when it comes up.
 */
public final class KeyedTimers implements TimerService {
    static final StateDescriptor<Long> EVENT_TIMERS =
            StateDescriptor.list("__flowscale.timers.event-time", Long.class);
    static final StateDescriptor<Long> PROCESSING_TIMERS =
            StateDescriptor.list("__flowscale.timers.processing-time", Long.class);

    /** Called for each timer that fires, with its key set as the backend's current key. */
    @FunctionalInterface
    public interface Firing {
        void fire(long time, TimeDomain domain) throws Exception;
    }

    private final KeyedStateBackend backend;
    private final LongSupplier wallClock;
    private Domain event;
    private Domain processing;
    private long watermark = Long.MIN_VALUE;

    /**
     * Timers of a domain exist in state only once one is registered (or restored), so that a
     * function without timers writes nothing more to its snapshots. Restored timers are either
     * still encoded (read from a snapshot), already a table (key groups this instance kept or was
     * handed over in memory on a rescale), or in RocksDB (restored, or a store copied by a
     * hand-over): all are queued, or they would never fire.
     */
    public KeyedTimers(KeyedStateBackend backend, LongSupplier wallClockMillis) {
        this.backend = backend;
        this.wallClock = wallClockMillis;
        if (restored(EVENT_TIMERS)) {
            event = new Domain(EVENT_TIMERS);
        }
        if (restored(PROCESSING_TIMERS)) {
            processing = new Domain(PROCESSING_TIMERS);
        }
    }

    private boolean restored(StateDescriptor<Long> timers) {
        return backend.holds(timers.name());
    }

    private Domain event() {
        if (event == null) {
            event = new Domain(EVENT_TIMERS);
        }
        return event;
    }

    private Domain processing() {
        if (processing == null) {
            processing = new Domain(PROCESSING_TIMERS);
        }
        return processing;
    }

    /** One domain's timers: per key in keyed state, and all of them in a queue by time. */
    private final class Domain {
        final StateTable table;
        final TimerQueue queue = new TimerQueue();

        Domain(StateDescriptor<Long> descriptor) {
            this.table = backend.table(descriptor);
            backend.forEachEntry(table, this::enqueue);
        }

        @SuppressWarnings("unchecked")
        private void enqueue(Object key, Object times) {
            for (Object time : (List<Object>) times) {
                queue.add(((Number) time).longValue(), key);
            }
        }

        /**
         * Adds the current key's timer at {@code time} unless it has one there: one look-up of the
         * key's list, changed in place and written back (see {@link #delete}).
         */
        @SuppressWarnings("unchecked")
        void register(long time) {
            List<Long> times = (List<Long>) backend.get(table);
            if (times == null) {
                times = new ArrayList<>(2);
            } else if (indexOf(times, time) >= 0) {
                return;
            }
            boolean added = times.isEmpty();
            times.add(time);
            writeBack(times, added);
            queue.add(time, backend.currentKey());
        }

        /**
         * Removes the current key's timer at {@code time}; false when it has none there. The key's
         * list is changed in place and written back (RocksDB hands out a decoded copy; on the heap
         * it is the table's own list, as {@link ListState#add} relies on too), never copied.
         */
        @SuppressWarnings("unchecked")
        boolean delete(long time) {
            List<Long> times = (List<Long>) backend.get(table);
            int at = times == null ? -1 : indexOf(times, time);
            if (at < 0) {
                return false;
            }
            if (times.size() == 1) {
                backend.remove(table);
            } else {
                times.remove(at);
                writeBack(times, false);
            }
            return true;
        }

        /**
         * Stores the current key's list after a change in place: on the heap the table holds that
         * very list (a shared key group is copied as it is read), so only a new list is put and a
         * change is counted, without looking the key up again; RocksDB handed out a copy.
         */
        private void writeBack(List<Long> times, boolean isNew) {
            if (isNew || backend.store() != null) {
                backend.put(table, times);
            } else {
                backend.changed();
            }
        }

        /**
         * Fires, in time order, every live timer due by {@code until}, including those that firing
         * adds at a time due by then.
         */
        void fire(long until, TimeDomain domain, Firing firing) throws Exception {
            for (TimerQueue.Due due = queue.pollDue(until);
                    due != null;
                    due = queue.pollDue(until)) {
                for (int i = 0; i < due.size(); i++) {
                    backend.setCurrentKey(due.key(i));
                    if (delete(due.time)) {
                        firing.fire(due.time, domain);
                    }
                }
            }
        }

        long next() {
            return queue.next();
        }
    }

    /** Where {@code time} is in a key's timers, compared unboxed; -1 when it is not. */
    private static int indexOf(List<Long> times, long time) {
        for (int i = 0; i < times.size(); i++) {
            if (times.get(i) == time) {
                return i;
            }
        }
        return -1;
    }

    /** Sets the watermark and fires the event-time timers it reached. */
    public void advanceWatermark(long newWatermark, Firing firing) throws Exception {
        watermark = newWatermark;
        if (event != null) {
            event.fire(newWatermark, TimeDomain.EVENT_TIME, firing);
        }
    }

    /** Fires the processing-time timers due by {@code now}. */
    public void advanceProcessingTime(long now, Firing firing) throws Exception {
        if (processing != null) {
            processing.fire(now, TimeDomain.PROCESSING_TIME, firing);
        }
    }

    /** When the earliest processing-time timer is due; {@link Long#MAX_VALUE} for none. */
    public long nextProcessingTimer() {
        return processing == null ? Long.MAX_VALUE : processing.next();
    }

    @Override
    public long currentWatermark() {
        return watermark;
    }

    @Override
    public long currentProcessingTime() {
        return wallClock.getAsLong();
    }

    @Override
    public void registerEventTimeTimer(long time) {
        event().register(time);
    }

    @Override
    public void registerProcessingTimeTimer(long time) {
        processing().register(time);
    }

    @Override
    public void deleteEventTimeTimer(long time) {
        event().delete(time);
    }

    @Override
    public void deleteProcessingTimeTimer(long time) {
        processing().delete(time);
    }
}
