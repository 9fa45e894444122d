package dev.flowscale.policy.sim;

import dev.flowscale.policy.api.ScalingDecision;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;

/**
 * What happened in a simulation: every decision, and per step the running parallelism, the sources'
 * total backlog and whether the job was down for a rescale.
 */
public record Trajectory(
        Scenario scenario,
        List<ScalingDecision> decisions,
        List<Point> points,
        List<Duration> rescaleDurations) {

    /** The state at the end of one step. */
    public record Point(
            long second, Map<String, Integer> parallelism, double backlog, boolean down) {}

    public Trajectory {
        decisions = List.copyOf(decisions);
        points = List.copyOf(points);
        rescaleDurations = List.copyOf(rescaleDurations);
    }

    /** Decisions that changed parallelism (all are realized in mode auto). */
    public List<ScalingDecision> scaleDecisions() {
        return decisions.stream().filter(ScalingDecision::isScale).toList();
    }

    /** Scale decisions made in [fromSecond, toSecond). */
    public List<ScalingDecision> scaleDecisionsBetween(long fromSecond, long toSecond) {
        return scaleDecisions().stream()
                .filter(
                        d -> {
                            long s = Duration.between(Simulation.EPOCH, d.time()).toSeconds();
                            return s >= fromSecond && s < toSecond;
                        })
                .toList();
    }

    public Map<String, Integer> finalParallelism() {
        return points.get(points.size() - 1).parallelism();
    }

    /** Parallelism of one operator after each change, starting with the initial one. */
    public List<Integer> parallelismHistory(String operatorId) {
        return parallelismHistory(operatorId, 0, Long.MAX_VALUE);
    }

    /** Parallelism of one operator after each change in [fromSecond, toSecond). */
    public List<Integer> parallelismHistory(String operatorId, long fromSecond, long toSecond) {
        List<Integer> values = new ArrayList<>();
        for (Point p : points) {
            if (p.second() < fromSecond || p.second() >= toSecond) {
                continue;
            }
            int v = p.parallelism().get(operatorId);
            if (values.isEmpty() || values.get(values.size() - 1) != v) {
                values.add(v);
            }
        }
        return values;
    }

    /**
     * Σ over steps and operators of instances above the optimum at that step, in instance-seconds.
     */
    public double overProvisionedInstanceSeconds(
            LongFunction<Map<String, Integer>> optimum, double stepSeconds) {
        return gap(optimum, stepSeconds, 1);
    }

    /**
     * Σ over steps and operators of instances missing to the optimum at that step, in
     * instance-seconds.
     */
    public double underProvisionedInstanceSeconds(
            LongFunction<Map<String, Integer>> optimum, double stepSeconds) {
        return gap(optimum, stepSeconds, -1);
    }

    private double gap(LongFunction<Map<String, Integer>> optimum, double stepSeconds, int sign) {
        double total = 0;
        for (Point p : points) {
            Map<String, Integer> best = optimum.apply(p.second());
            for (Map.Entry<String, Integer> e : p.parallelism().entrySet()) {
                total += Math.max(0, sign * (e.getValue() - best.get(e.getKey()))) * stepSeconds;
            }
        }
        return total;
    }

    public Map<String, Integer> parallelismAt(long second) {
        return points.stream()
                .filter(p -> p.second() == second)
                .findFirst()
                .orElseThrow()
                .parallelism();
    }

    /** The highest backlog at the end of any step. */
    public double peakBacklog() {
        return points.stream().mapToDouble(Point::backlog).max().orElse(0);
    }

    /**
     * Σ over steps of the backlog at the step's end × the step length: records × seconds waited.
     */
    public double backlogRecordSeconds(double stepSeconds) {
        return points.stream().mapToDouble(Point::backlog).sum() * stepSeconds;
    }

    /**
     * The first second at or after {@code fromSecond} at which the backlog is (nearly) zero, or -1.
     */
    public long drainedAt(long fromSecond, double tolerance) {
        return points.stream()
                .filter(p -> p.second() >= fromSecond && !p.down() && p.backlog() <= tolerance)
                .mapToLong(Point::second)
                .findFirst()
                .orElse(-1);
    }
}
