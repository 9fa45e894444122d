package dev.flowscale.policy.sim;

import dev.flowscale.policy.PolicyException;
import java.util.ArrayList;
import java.util.List;

/** A source's offered rate over time (records per second), piecewise constant. */
public record RateProfile(List<Change> changes) {

    /** From {@code fromSecond} on (seconds since the simulation start), the rate is {@code rate}. */
    public record Change(long fromSecond, double rate) {
    }

    public RateProfile {
        changes = List.copyOf(changes);
        if (changes.isEmpty() || changes.get(0).fromSecond() != 0) {
            throw new PolicyException("rate profile must start with a rate at second 0; use RateProfile.constant(rate)");
        }
    }

    public static RateProfile constant(double rate) {
        return new RateProfile(List.of(new Change(0, rate)));
    }

    /** This profile with the rate changed to {@code rate} from {@code fromSecond} on. */
    public RateProfile then(long fromSecond, double rate) {
        Change last = changes.get(changes.size() - 1);
        if (fromSecond <= last.fromSecond()) {
            throw new PolicyException("rate change at second " + fromSecond + " is not after " + last.fromSecond());
        }
        List<Change> more = new ArrayList<>(changes);
        more.add(new Change(fromSecond, rate));
        return new RateProfile(more);
    }

    /** This profile with every rate multiplied by {@code factor}: load factors into records per second. */
    public RateProfile times(double factor) {
        return new RateProfile(changes.stream().map(c -> new Change(c.fromSecond(), c.rate() * factor)).toList());
    }

    public double at(long second) {
        double rate = changes.get(0).rate();
        for (Change c : changes) {
            if (c.fromSecond() <= second) {
                rate = c.rate();
            }
        }
        return rate;
    }

    /** The seconds at which the rate changes (after second 0). */
    public List<Long> changeTimes() {
        return changes.stream().skip(1).map(Change::fromSecond).toList();
    }
}
