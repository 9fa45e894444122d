package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import dev.flowscale.policy.api.SourceMetrics;
import dev.flowscale.policy.model.RateForecast;
import dev.flowscale.policy.model.RateForecaster;
import dev.flowscale.policy.model.RateSample;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Predictive mode: per source, the highest forecast rate until the next decision can take effect
 * (one window plus the expected rescale downtime). The forecast is fitted to the source's offered
 * rate as every past decision recorded it (target × (1 − catch-up share), which {@link
 * SourceTarget} keeps equal to the offered rate) plus the current window's, resampled to one sample
 * per window so that the gaps left by blocked decisions (warm-up, rescale in progress) do not bend
 * period detection. Sources with a configured target rate are not forecast.
 *
 * <p>The running check's test of whether the running configuration sustains its target uses only a
 * periodic forecast: a level-and-trend forecast (what the forecaster falls back to without a
 * period) cannot tell where a ramp ends, and at the top of every rise it would call for rescales
 * the load never needs. A planned configuration, needed or trim, is sized for the forecast ({@link
 * #forPlan()}), a trend forecast included: a rescale taken on a rising ramp is sized for where the
 * ramp goes in the horizon rather than for where it was. With a period the plan's horizon extends
 * by the scale-down delay, the least time a planned configuration stands, as the period says where
 * a ramp ends; a trend extrapolated that far overshoots the top of every ramp (on the simulator's
 * sine, by about a fifth more over-provisioned instance-time).
 *
 * @param rates periodic forecast maximum per source id until the next decision can take effect
 * @param planRates forecast maximum per source id over a plan's horizon
 * @param explain one line per forecast source for the decision's reasons
 */
record Forecasts(Map<String, Double> rates, Map<String, Double> planRates, List<String> explain) {

    /** Samples a fit uses at most, about (period detection is quadratic in them). */
    static final int MAX_SAMPLES = 2_000;

    static final Forecasts NONE = new Forecasts(Map.of(), Map.of(), List.of());

    /** The forecasts of every source, or {@link #NONE} when predictive mode is off. */
    static Forecasts of(
            JobTopology topology,
            MetricsWindow window,
            ScalingHistory history,
            PolicyConfig config,
            RescaleCost cost,
            Instant now) {
        if (!config.predictive()) {
            return NONE;
        }
        Duration horizon = window.length().plus(cost.downtime());
        Optional<Duration> period =
                config.forecastPeriod().isZero()
                        ? Optional.empty()
                        : Optional.of(config.forecastPeriod());
        Map<String, Double> rates = new LinkedHashMap<>();
        Map<String, Double> planRates = new LinkedHashMap<>();
        List<String> explain = new ArrayList<>();
        for (String id : topology.sources()) {
            Optional<Double> offered =
                    window.metrics(id).orElseThrow().source().map(SourceMetrics::offeredRate);
            if (config.sourceTargetRates().containsKey(id) || offered.isEmpty()) {
                continue;
            }
            List<RateSample> samples = samples(id, history, now, offered.get());
            samples = resampled(samples, step(samples, window.length()));
            RateForecast forecast = RateForecaster.fit(samples, period);
            double max = forecast.maxOver(now, horizon);
            if (forecast.period().isPresent()) {
                rates.put(id, max);
            }
            Duration planHorizon =
                    forecast.period().isPresent() ? horizon.plus(config.scaleDownDelay()) : horizon;
            double planMax = forecast.maxOver(now, planHorizon);
            planRates.put(id, planMax);
            explain.add(
                    explain(id, offered.get(), forecast, max, horizon)
                            + String.format(
                                    Locale.ROOT,
                                    "; a plan is sized for %,.0f rec/s within %d s",
                                    planMax,
                                    planHorizon.toSeconds()));
        }
        return new Forecasts(rates, planRates, List.copyOf(explain));
    }

    /** These forecasts over a plan's horizon (with a period, plus the scale-down delay). */
    Forecasts forPlan() {
        return new Forecasts(planRates, planRates, explain);
    }

    /** Whether some source has a periodic forecast (only those are in {@link #rates}). */
    boolean periodic() {
        return !rates.isEmpty();
    }

    /** The forecast maximum of a source, or 0 (no floor) when it is not forecast. */
    double floor(String sourceId) {
        return rates.getOrDefault(sourceId, 0.0);
    }

    /**
     * The source's offered rate per past decision and now, preceded by the history's per-minute log
     * where it reaches further back than the decisions kept (by more than one bucket, so a loop
     * that still holds every decision forecasts from them alone).
     */
    private static List<RateSample> samples(
            String id, ScalingHistory history, Instant now, double offered) {
        List<RateSample> samples = new ArrayList<>();
        for (ScalingDecision d : history.decisions()) {
            OperatorDecision op = d.operators().get(id);
            boolean later =
                    samples.isEmpty() || d.time().isAfter(samples.get(samples.size() - 1).at());
            if (op != null && later && d.time().isBefore(now)) {
                samples.add(
                        new RateSample(d.time(), op.targetInputRate() * (1 - op.catchUpShare())));
            }
        }
        samples.add(new RateSample(now, offered));
        Instant first = samples.get(0).at().minus(history.sourceRates().bucket());
        List<RateSample> older = new ArrayList<>();
        history.sourceRates()
                .forEachBefore(id, first, (at, rate) -> older.add(new RateSample(at, rate)));
        older.addAll(samples);
        return older;
    }

    /**
     * The resampling step: one window, or for a history longer than {@value #MAX_SAMPLES} windows
     * (days of the per-minute log) a whole number of windows that keeps the series at about that
     * many samples, so period detection stays cheap when a daily period is fitted.
     */
    static Duration step(List<RateSample> samples, Duration window) {
        Duration span = Duration.between(samples.get(0).at(), samples.get(samples.size() - 1).at());
        long windows = span.dividedBy(window);
        return windows <= MAX_SAMPLES
                ? window
                : window.multipliedBy((windows + MAX_SAMPLES - 1) / MAX_SAMPLES);
    }

    /**
     * The samples linearly interpolated every {@code step}, ending at the latest sample: decisions
     * come once per interval except around a rescale, and period detection needs even spacing.
     */
    static List<RateSample> resampled(List<RateSample> samples, Duration step) {
        Instant last = samples.get(samples.size() - 1).at();
        long count = Duration.between(samples.get(0).at(), last).dividedBy(step);
        List<RateSample> even = new ArrayList<>();
        int hi = 0;
        for (long k = count; k >= 0; k--) {
            Instant t = last.minus(step.multipliedBy(k));
            while (samples.get(hi).at().isBefore(t)) {
                hi++;
            }
            even.add(
                    new RateSample(
                            t,
                            hi == 0
                                    ? samples.get(0).rate()
                                    : between(samples.get(hi - 1), samples.get(hi), t)));
        }
        return even;
    }

    private static double between(RateSample a, RateSample b, Instant t) {
        double w =
                Duration.between(a.at(), t).toNanos()
                        / (double) Duration.between(a.at(), b.at()).toNanos();
        return a.rate() + w * (b.rate() - a.rate());
    }

    private static String explain(
            String id, double offered, RateForecast f, double max, Duration horizon) {
        String kind =
                f.period()
                        .map(
                                p ->
                                        String.format(
                                                Locale.ROOT,
                                                "harmonic, period %d s",
                                                p.toSeconds()))
                        .orElse("trend, no period found yet");
        String check =
                f.period().isEmpty()
                        ? "the running check uses the offered rate"
                        : max > offered
                                ? String.format(
                                        Locale.ROOT, "above the offered %,.0f rec/s", offered)
                                : String.format(
                                        Locale.ROOT, "the offered %,.0f rec/s is higher", offered);
        return String.format(
                Locale.ROOT,
                "source '%s': forecast %,.0f rec/s within %d s (%s); %s",
                id,
                max,
                horizon.toSeconds(),
                kind,
                check);
    }
}
