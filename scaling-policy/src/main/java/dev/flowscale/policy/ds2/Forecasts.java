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
 * sine, by about a fifth more over-provisioned instance-time). A trend forecast that rises no more
 * than the noise of the offered rate ({@link ForecastNoise}) is flat: the plan is sized for the
 * offered rate, as in reactive mode, so a constant load gets one steady recommendation.
 *
 * <p>A periodic forecast is shifted onto the offered rate measured now ({@link AnchoredForecast}):
 * on a real day's pattern the fit's own level error, not the rise, called scale-ups a quarter of an
 * hour early and held trims high. The running check then looks ahead until a rescale called now has
 * drained its own downtime ({@link ForecastHorizons}). Where no source's forecast rises within the
 * savings horizon, a trim need not wait for the scale-down delay ({@link #trimsAhead()}): its plan
 * is sized for the forecast over the delay, so the wait would only confirm what the forecast says.
 *
 * @param rates periodic forecast maximum per source id over the running check's horizon
 * @param planRates forecast maximum per source id over a plan's horizon
 * @param trimsAhead every source has a periodic forecast (or a configured rate) that does not rise
 *     above its offered rate within the savings horizon
 * @param explain one line per forecast source for the decision's reasons
 */
record Forecasts(
        Map<String, Double> rates,
        Map<String, Double> planRates,
        boolean trimsAhead,
        List<String> explain) {

    /** Samples a fit uses at most, about (period detection is quadratic in them). */
    static final int MAX_SAMPLES = 2_000;

    static final Forecasts NONE = new Forecasts(Map.of(), Map.of(), false, List.of());

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
        ForecastHorizons horizons = ForecastHorizons.of(window, cost, config);
        Optional<Duration> period =
                config.forecastPeriod().isZero()
                        ? Optional.empty()
                        : Optional.of(config.forecastPeriod());
        Collected c = new Collected(horizons, now);
        for (String id : topology.sources()) {
            if (config.sourceTargetRates().containsKey(id)) {
                continue;
            }
            Optional<Double> offered =
                    window.metrics(id).orElseThrow().source().map(SourceMetrics::offeredRate);
            if (offered.isEmpty()) {
                c.noRise = false;
                continue;
            }
            List<RateSample> samples = samples(id, history, now, offered.get());
            samples = resampled(samples, step(samples, window.length()));
            c.add(
                    id,
                    offered.get(),
                    RateForecaster.fit(samples, period),
                    ForecastNoise.deviation(samples));
        }
        return c.forecasts();
    }

    /** The forecasts of the sources fitted so far, and whether any of them rises. */
    private static final class Collected {

        private final ForecastHorizons horizons;
        private final Instant now;
        private final Map<String, Double> rates = new LinkedHashMap<>();
        private final Map<String, Double> planRates = new LinkedHashMap<>();
        private final List<String> explain = new ArrayList<>();
        private boolean noRise = true;

        Collected(ForecastHorizons horizons, Instant now) {
            this.horizons = horizons;
            this.now = now;
        }

        /**
         * @param noise the deviation of the source's offered rate by noise ({@link ForecastNoise})
         */
        void add(String id, double offered, RateForecast forecast, double noise) {
            if (forecast.period().isEmpty()) {
                double max = forecast.maxOver(now, horizons.next());
                noRise = false;
                if (ForecastNoise.flat(max, offered, noise)) {
                    explain.add(
                            explain(id, offered, forecast, max, horizons.next())
                                    + flat(max - offered, noise));
                    return;
                }
                planRates.put(id, max);
                explain.add(
                        explain(id, offered, forecast, max, horizons.next())
                                + sizedFor(max, horizons.next()));
                return;
            }
            AnchoredForecast a = AnchoredForecast.of(forecast, offered, now, horizons);
            rates.put(id, a.check());
            planRates.put(id, a.plan());
            noRise &= !a.rises();
            explain.add(
                    explain(id, offered, forecast, a.check(), horizons.check())
                            + String.format(
                                    Locale.ROOT,
                                    " (fit %+,.0f rec/s off the offered rate now, shifted onto it)",
                                    -a.lift())
                            + sizedFor(a.plan(), horizons.plan()));
        }

        Forecasts forecasts() {
            boolean trimsAhead = noRise && !rates.isEmpty();
            if (trimsAhead) {
                explain.add(
                        "no source's forecast rises above its offered rate within "
                                + horizons.settle().toSeconds()
                                + " s: a trim, sized for the forecast over the scale-down delay,"
                                + " need not wait for the delay");
            }
            return new Forecasts(rates, planRates, trimsAhead, List.copyOf(explain));
        }
    }

    private static String flat(double rise, double noise) {
        return String.format(
                Locale.ROOT,
                "; flat: it rises %,.0f rec/s, within %.0f× the noise of %,.0f rec/s, so a plan is"
                        + " sized for the offered rate",
                Math.max(0, rise),
                ForecastNoise.DEVIATIONS,
                noise);
    }

    private static String sizedFor(double max, Duration horizon) {
        return String.format(
                Locale.ROOT,
                "; a plan is sized for %,.0f rec/s within %d s",
                max,
                horizon.toSeconds());
    }

    /** These forecasts over a plan's horizon (with a period, plus the scale-down delay). */
    Forecasts forPlan() {
        return new Forecasts(planRates, planRates, trimsAhead, explain);
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
