package dev.flowscale.policy.model;

import dev.flowscale.policy.api.Checks;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.OperatorMetrics;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Everything the learned models need from earlier windows, as one bounded, immutable value the
 * autoscaler loop carries beside the ScalingHistory: capacity observations per operator, the
 * scalability model fitted to them, and offered-rate samples per source. The loop calls {@link
 * #record} with every window it accepts, before asking the policy to decide, so the models see the
 * current window too. Fitting happens in {@code record}, once per window and only for the operators
 * the window observed (a USL fit costs about 0.1 ms), so a decision only looks models up.
 *
 * @param models the fit of each operator's observations in {@code scalability}
 * @param rateCapacity samples kept per source (at a 30 s interval, 8,640 cover three days)
 */
public record LearnedHistory(
        ScalabilityHistory scalability,
        Map<String, ScalabilityModel> models,
        Map<String, RateHistory> sourceRates,
        int rateCapacity) {

    public LearnedHistory {
        Checks.notNull(scalability, "learned history scalability");
        models = Map.copyOf(Checks.notNull(models, "learned history models"));
        sourceRates = Map.copyOf(Checks.notNull(sourceRates, "learned history source rates"));
        Checks.positive(rateCapacity, "learned history rateCapacity");
    }

    /**
     * Default bounds: 5 observations at up to 8 parallelisms per operator; 8,640 rate samples per
     * source.
     */
    public static LearnedHistory empty() {
        return new LearnedHistory(ScalabilityHistory.empty(), Map.of(), Map.of(), 8_640);
    }

    /**
     * The scalability model fitted to the operator's observations; empty before its first
     * observation.
     */
    public Optional<ScalabilityModel> modelOf(String operatorId) {
        return Optional.ofNullable(models.get(operatorId));
    }

    /** Rate samples of one source (empty history when none). */
    public RateHistory ratesOf(String sourceId) {
        return sourceRates.getOrDefault(sourceId, RateHistory.empty(rateCapacity));
    }

    /**
     * This history plus the window: a capacity observation per operator that processed records and
     * the offered rate of every source of the topology that reports one. A window that does not end
     * after a source's latest sample adds no sample to it (the loop may see a window twice).
     */
    public LearnedHistory record(JobTopology topology, MetricsWindow window) {
        Map<String, RateHistory> rates = new HashMap<>(sourceRates);
        for (String id : topology.sources()) {
            Optional<Double> offered =
                    window.metrics(id).flatMap(OperatorMetrics::source).map(s -> s.offeredRate());
            RateHistory h = ratesOf(id);
            boolean newer =
                    h.samples().isEmpty()
                            || window.end().isAfter(h.samples().get(h.samples().size() - 1).at());
            if (offered.isPresent()
                    && Double.isFinite(offered.get())
                    && offered.get() >= 0
                    && newer) {
                rates.put(id, h.append(new RateSample(window.end(), offered.get())));
            }
        }
        ScalabilityHistory next = scalability.record(window);
        Map<String, ScalabilityModel> fitted = new HashMap<>(models);
        for (String id : window.operators().keySet()) {
            if (!next.of(id).equals(scalability.of(id))) {
                fitted.put(id, ScalabilityFit.fit(next.of(id)));
            }
        }
        return new LearnedHistory(next, fitted, rates, rateCapacity);
    }
}
