package dev.flowscale.policy.sim;

import dev.flowscale.policy.PolicyException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongToDoubleFunction;

/** A source's offered rate over time (records per second), piecewise constant. */
public record RateProfile(List<Change> changes) {

    /**
     * From {@code fromSecond} on (seconds since the simulation start), the rate is {@code rate}.
     */
    public record Change(long fromSecond, double rate) {}

    public RateProfile {
        changes = List.copyOf(changes);
        if (changes.isEmpty() || changes.get(0).fromSecond() != 0) {
            throw new PolicyException(
                    "rate profile must start with a rate at second 0; use RateProfile.constant(rate)");
        }
        for (int i = 1; i < changes.size(); i++) {
            if (changes.get(i).fromSecond() <= changes.get(i - 1).fromSecond()) {
                throw new PolicyException(
                        "rate profile change "
                                + i
                                + " at second "
                                + changes.get(i).fromSecond()
                                + " is not after the one before; list changes in time order");
            }
        }
    }

    public static RateProfile constant(double rate) {
        return new RateProfile(List.of(new Change(0, rate)));
    }

    /**
     * {@code mean + amplitude × sin(2π t / period)}, held constant over each second for {@code
     * length}: a load that swings smoothly and keeps swinging.
     */
    public static RateProfile sine(
            double mean, double amplitude, Duration period, Duration length) {
        double p = period.toSeconds();
        return sampled(t -> mean + amplitude * Math.sin(2 * Math.PI * t / p), length);
    }

    /**
     * A working day's load, compressed into {@code day}: quiet at night ({@value #NIGHT} of the
     * peak), a morning ramp to the peak at 10:00, a lunch dip, an afternoon plateau and an evening
     * decline, linearly interpolated between the hours, repeated for {@code length}.
     */
    public static RateProfile daily(double peak, Duration day, Duration length) {
        double seconds = day.toSeconds();
        return sampled(
                t -> {
                    double hour = 24 * (t % day.toSeconds()) / seconds;
                    int h = (int) hour;
                    double w = hour - h;
                    return peak * (DAY[h] * (1 - w) + DAY[(h + 1) % 24] * w);
                },
                length);
    }

    static final double NIGHT = 0.2;
    private static final double[] DAY = {
        NIGHT, NIGHT, NIGHT, NIGHT, NIGHT, 0.25, 0.4, 0.65, 0.85, 0.95, 1.0, 0.95, 0.8, 0.85, 0.9,
        0.9, 0.85, 0.75, 0.6, 0.5, 0.4, 0.3, 0.25, NIGHT
    };

    /** The rate {@code rate(t)} at every whole second t of {@code length}. */
    public static RateProfile sampled(LongToDoubleFunction rate, Duration length) {
        List<Change> changes = new ArrayList<>();
        for (long t = 0; t < Math.max(1, length.toSeconds()); t++) {
            changes.add(new Change(t, Math.max(0, rate.applyAsDouble(t))));
        }
        return new RateProfile(changes);
    }

    /** This profile with the rate changed to {@code rate} from {@code fromSecond} on. */
    public RateProfile then(long fromSecond, double rate) {
        Change last = changes.get(changes.size() - 1);
        if (fromSecond <= last.fromSecond()) {
            throw new PolicyException(
                    "rate change at second " + fromSecond + " is not after " + last.fromSecond());
        }
        List<Change> more = new ArrayList<>(changes);
        more.add(new Change(fromSecond, rate));
        return new RateProfile(more);
    }

    /**
     * This profile with every rate multiplied by {@code factor}: load factors into records per
     * second.
     */
    public RateProfile times(double factor) {
        return new RateProfile(
                changes.stream().map(c -> new Change(c.fromSecond(), c.rate() * factor)).toList());
    }

    /** The rate at {@code second}: that of the last change at or before it (binary search). */
    public double at(long second) {
        int lo = 0;
        int hi = changes.size() - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (changes.get(mid).fromSecond() <= second) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return changes.get(lo).rate();
    }

    /** The seconds at which the rate changes (after second 0). */
    public List<Long> changeTimes() {
        return changes.stream().skip(1).map(Change::fromSecond).toList();
    }
}
