package dev.flowscale.cli;

import dev.flowscale.engine.api.SourceFunction;
import dev.flowscale.engine.api.SyntheticCost;
import dev.flowscale.engine.examples.nexmark.Event;
import dev.flowscale.engine.job.JobBuilder;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * One query of the DS2 convergence experiment: its job over a Nexmark event source, and for each
 * operator with a cost the share of the event stream it reads (worked out by hand from Nexmark's
 * 1:3:46 mix and the filters' selectivities) and its blocking per-record cost. The optimum follows
 * from these alone, not from the policy: an operator reading {@code share × rate} records per
 * second at {@code cost} each needs {@code ⌈share × rate × cost⌉} instances; an operator without a
 * cost needs one (it handles far more than these rates).
 *
 * @param query the query's name, e.g. "Q5"
 * @param operators the job's operator ids in declaration order
 * @param loads per costed operator: the share it reads and its cost
 * @param job builds the job over an event source
 */
record ConvergenceCase(
        String query,
        List<String> operators,
        Map<String, Load> loads,
        Function<SourceFunction<Event>, JobBuilder> job) {

    /**
     * What a costed operator reads and pays.
     *
     * @param share records it reads per event of the source (e.g. 46/50 for every bid)
     * @param why how the share follows from the mix, for the printed derivation
     * @param cost blocking time per record: an instance handles 1/cost records per second
     */
    record Load(double share, String why, Duration cost) {
        double recordsPerSecond(double rate) {
            return share * rate;
        }

        /** Instances needed at {@code rate} events/s: the load in instance-seconds, rounded up. */
        double instances(double rate) {
            return recordsPerSecond(rate) * cost.toNanos() / 1e9;
        }
    }

    ConvergenceCase {
        operators = List.copyOf(operators);
        loads = new LinkedHashMap<>(loads);
        for (String op : loads.keySet()) {
            if (!operators.contains(op)) {
                throw new IllegalArgumentException(
                        query + ": costed operator '" + op + "' is not one of " + operators);
            }
        }
    }

    /** The job at {@code start}'s parallelism, with the costs. */
    JobBuilder build(SourceFunction<Event> events, Map<String, Integer> start) {
        JobBuilder builder = job.apply(events);
        start.forEach(builder::parallelism);
        loads.forEach((op, load) -> builder.cost(op, SyntheticCost.blocking(load.cost())));
        return builder;
    }

    /** The optimal parallelism of every operator at {@code rate} events per second. */
    Map<String, Integer> optimum(double rate) {
        Map<String, Integer> optimum = new LinkedHashMap<>();
        for (String op : operators) {
            Load load = loads.get(op);
            optimum.put(op, load == null ? 1 : (int) Math.ceil(load.instances(rate)));
        }
        return optimum;
    }

    /** One line per costed operator: how its optimum follows from the rate, share and cost. */
    List<String> derivation(double rate) {
        return loads.entrySet().stream()
                .map(
                        e ->
                                String.format(
                                        Locale.ROOT,
                                        "%s %s reads %s = %.1f/s, %s: %.2f instances -> %d",
                                        query,
                                        e.getKey(),
                                        e.getValue().why(),
                                        e.getValue().recordsPerSecond(rate),
                                        SyntheticCost.blocking(e.getValue().cost()),
                                        e.getValue().instances(rate),
                                        (int) Math.ceil(e.getValue().instances(rate))))
                .toList();
    }
}
