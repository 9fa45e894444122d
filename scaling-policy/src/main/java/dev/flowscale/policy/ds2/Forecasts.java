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
 * rate as every past decision recorded it (target × (1 − catch-up share), which
 * {@link SourceTarget} keeps equal to the offered rate) plus the current window's, resampled to one
 * sample per window so that the gaps left by blocked decisions (warm-up, rescale in progress) do
 * not bend period detection. Sources with a configured target rate are not forecast.
 *
 * <p>Only a periodic forecast raises the base rate. Without a period the forecaster falls back to
 * a level and trend, and a trend cannot tell where a ramp ends: at the top of every rise it
 * extrapolates past the peak and sizes instances the load never uses, while the catch-up already
 * drains the backlog a ramp leaves. The trend forecast is reported, not sized for.
 *
 * <p>The running check uses the maximum until the next decision can take effect. A planned
 * configuration stands at least a scale-down delay, so a plan (needed or trim) is sized for the
 * maximum over that horizon plus the scale-down delay ({@link #forTrim()}); and, the forecast having
 * said that the load does not come back within the delay, a trim is not held for it
 * ({@link #foreseen()}), but comes at most once per half period, so that trims along a falling load
 * do not spend the rescale budget the next rise needs.
 *
 * @param rates     forecast maximum per source id until the next decision can take effect
 * @param trimRates forecast maximum per source id until a plan's scale-down delay has passed
 * @param periods   the periods of the periodic forecasts
 * @param sources   how many sources there are
 * @param explain   one line per forecast source for the decision's reasons
 */
record Forecasts(Map<String, Double> rates, Map<String, Double> trimRates, List<Duration> periods, int sources,
        List<String> explain) {

    static final Forecasts NONE = new Forecasts(Map.of(), Map.of(), List.of(), 0, List.of());

    /** The forecasts of every source, or {@link #NONE} when predictive mode is off. */
    static Forecasts of(JobTopology topology, MetricsWindow window, ScalingHistory history, PolicyConfig config,
            RescaleCost cost, Instant now) {
        if (!config.predictive()) {
            return NONE;
        }
        Duration horizon = window.length().plus(cost.downtime());
        Optional<Duration> period = config.forecastPeriod().isZero() ? Optional.empty()
                : Optional.of(config.forecastPeriod());
        Map<String, Double> rates = new LinkedHashMap<>();
        Map<String, Double> trimRates = new LinkedHashMap<>();
        List<Duration> periods = new ArrayList<>();
        List<String> explain = new ArrayList<>();
        for (String id : topology.sources()) {
            Optional<Double> offered = window.metrics(id).orElseThrow().source().map(SourceMetrics::offeredRate);
            if (config.sourceTargetRates().containsKey(id) || offered.isEmpty()) {
                continue;
            }
            List<RateSample> samples = resampled(samples(id, history, now, offered.get()), window.length());
            RateForecast forecast = RateForecaster.fit(samples, period);
            double max = forecast.maxOver(now, horizon);
            if (forecast.period().isPresent()) {
                rates.put(id, max);
                trimRates.put(id, forecast.maxOver(now, horizon.plus(config.scaleDownDelay())));
                periods.add(forecast.period().get());
            }
            explain.add(explain(id, max, offered.get(), horizon, forecast));
        }
        return new Forecasts(rates, trimRates, List.copyOf(periods), topology.sources().size(), List.copyOf(explain));
    }

    /** These forecasts over a plan's horizon: until the next decision takes effect, plus the scale-down delay. */
    Forecasts forTrim() {
        return new Forecasts(trimRates, trimRates, periods, sources, explain);
    }

    /**
     * The longest forecast period when every source has a periodic forecast: a trim sized for it need
     * not wait out the scale-down delay.
     */
    Optional<Duration> foreseen() {
        return periods.size() == sources && sources > 0 ? periods.stream().max(Duration::compareTo) : Optional.empty();
    }

    /** The forecast maximum of a source, or 0 (no floor) when it is not forecast. */
    double floor(String sourceId) {
        return rates.getOrDefault(sourceId, 0.0);
    }

    private static List<RateSample> samples(String id, ScalingHistory history, Instant now, double offered) {
        List<RateSample> samples = new ArrayList<>();
        for (ScalingDecision d : history.decisions()) {
            OperatorDecision op = d.operators().get(id);
            boolean later = samples.isEmpty() || d.time().isAfter(samples.get(samples.size() - 1).at());
            if (op != null && later && d.time().isBefore(now)) {
                samples.add(new RateSample(d.time(), op.targetInputRate() * (1 - op.catchUpShare())));
            }
        }
        samples.add(new RateSample(now, offered));
        return samples;
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
            even.add(new RateSample(t, hi == 0 ? samples.get(0).rate() : between(samples.get(hi - 1),
                    samples.get(hi), t)));
        }
        return even;
    }

    private static double between(RateSample a, RateSample b, Instant t) {
        double w = Duration.between(a.at(), t).toNanos() / (double) Duration.between(a.at(), b.at()).toNanos();
        return a.rate() + w * (b.rate() - a.rate());
    }

    private static String explain(String id, double max, double offered, Duration horizon, RateForecast f) {
        String kind = f.period().map(p -> String.format(Locale.ROOT, "harmonic, period %d s", p.toSeconds()))
                .orElse("trend");
        String use = f.period().isEmpty() ? "not sized for: no period found yet"
                : max > offered ? String.format(Locale.ROOT, "sized for it, above the offered %,.0f rec/s", offered)
                : String.format(Locale.ROOT, "the offered %,.0f rec/s is higher", offered);
        return String.format(Locale.ROOT, "source '%s': forecast %,.0f rec/s within %d s (%s); %s", id, max,
                horizon.toSeconds(), kind, use);
    }
}
