package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import dev.flowscale.policy.api.SourceMetrics;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Reactive mode on a rising load: a scale-up takes effect only after its downtime, and the next
 * decision that could correct it comes a warm-up and a window later; sized for the rate offered
 * when it is decided, every scale-up on a steady ramp falls short by the time it runs, and each
 * ramp takes several. While a source's offered rate rises steadily over the recent windows, a
 * scale-up is therefore sized for the rate expected when the next rescale could take effect: the
 * offered rate now plus the measured trend × (planned downtime + warm-up + window).
 *
 * <p>Steadily means: at least {@value #LEAST_SAMPLES} of the latest {@value #SAMPLES} offered rates
 * within {@value #HORIZONS} horizons (the past decisions' and the window's) and each higher than
 * the one before, and a rise over their span larger than {@value #DEVIATIONS}× the deviation of the
 * rates from their straight line. A flat or noisy series rises in every step only by chance, and
 * then mostly by no more than its noise, so it gets no extra. Sources with a configured target rate
 * are not extrapolated. Predictive mode sizes a plan for the higher of its own forecast ({@link
 * Forecasts}) and this rate ({@link #over}): a forecast still learning its period, or fitted on
 * yesterday's gentler ramp, must not size a scale-up below what reactive mode would. With catch-up
 * off (exact DS2) a plan plans none of its rescale's cost, so it is not sized ahead either.
 */
final class RisingLoad {

    /**
     * The trend is measured over the latest {@value #SAMPLES} offered rates within this many
     * horizons: a rescale leaves no rate recorded for about one horizon (downtime, warm-up and the
     * first window), and on a ramp that is rescaled at every second decision, a rate is recorded
     * only twice per horizon and a half.
     */
    static final int HORIZONS = 4;

    /** Offered rates read at most, the latest ones. */
    static final int SAMPLES = 8;

    /** Offered rates the trend needs at least: four rises in a row. */
    static final int LEAST_SAMPLES = 5;

    /**
     * A rise over the samples within this many deviations (from their straight line, or of the
     * noise) is noise: of 20,000 seeded flat series of eight rates with independent noise, 7 pass.
     */
    static final double DEVIATIONS = 8;

    private RisingLoad() {}

    /**
     * The forecasts that size a scale-up for the rising sources ({@link Forecasts#forPlan()}), or
     * {@link Forecasts#NONE} where no source rises steadily.
     */
    static Forecasts of(
            JobTopology topology,
            MetricsWindow window,
            ScalingHistory history,
            PolicyConfig config,
            RescaleCost cost,
            Instant now) {
        if (config.catchUpSeconds() == 0) {
            return Forecasts.NONE;
        }
        double horizon = cost.seconds() + seconds(config.warmUp()) + seconds(window.length());
        Instant since = now.minus(Duration.ofNanos((long) (HORIZONS * horizon * 1e9)));
        Map<String, Double> rates = new LinkedHashMap<>();
        List<String> explain = new ArrayList<>();
        for (String id : topology.sources()) {
            Optional<Double> offered =
                    window.metrics(id).orElseThrow().source().map(SourceMetrics::offeredRate);
            if (config.sourceTargetRates().containsKey(id) || offered.isEmpty()) {
                continue;
            }
            Trend t = Trend.of(samples(id, history, since, now, offered.get()));
            if (t.steady()) {
                rates.put(id, offered.get() + t.slope() * horizon);
                explain.add(explain(id, offered.get(), t, horizon));
            }
        }
        return rates.isEmpty()
                ? Forecasts.NONE
                : new Forecasts(Map.of(), rates, false, List.copyOf(explain));
    }

    /**
     * The forecasts a needed plan is sized for: {@code forecasts} with each rising source's plan
     * rate raised to {@code rising}'s where that is higher, or {@code forecasts} when nothing
     * rises.
     */
    static Forecasts over(Forecasts forecasts, Forecasts rising) {
        if (rising == Forecasts.NONE) {
            return forecasts;
        }
        Map<String, Double> plan = new LinkedHashMap<>(forecasts.planRates());
        rising.planRates().forEach((id, rate) -> plan.merge(id, rate, Math::max));
        return new Forecasts(
                forecasts.rates(), Map.copyOf(plan), forecasts.trimsAhead(), forecasts.explain());
    }

    /**
     * Seconds and offered rates, oldest first: the decisions since {@code since} that recorded the
     * source (target × (1 − catch-up share), the rate it offered then), and the window's.
     */
    private static double[][] samples(
            String id, ScalingHistory history, Instant since, Instant now, double offered) {
        List<ScalingDecision> decisions = history.decisions();
        List<double[]> read = new ArrayList<>();
        read.add(new double[] {0, offered});
        for (int i = decisions.size() - 1; i >= 0 && read.size() < SAMPLES; i--) {
            ScalingDecision d = decisions.get(i);
            if (d.time().isBefore(since)) {
                break;
            }
            OperatorDecision op = d.operators().get(id);
            if (op != null && d.time().isBefore(now)) {
                double at = -Duration.between(d.time(), now).toNanos() / 1e9;
                read.add(0, new double[] {at, op.targetInputRate() * (1 - op.catchUpShare())});
            }
        }
        return read.toArray(double[][]::new);
    }

    private static String explain(String id, double offered, Trend t, double horizon) {
        return String.format(
                Locale.ROOT,
                "source '%s': offered rate rising steadily over its last %d rates, by %,.1f rec/s"
                        + " per s; a scale-up is sized for %,.0f rec/s, the rate expected in %.0f s"
                        + " (planned downtime + warm-up + window), when the next rescale could take"
                        + " effect",
                id,
                t.samples(),
                t.slope(),
                offered + t.slope() * horizon,
                horizon);
    }

    private static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }

    /**
     * The least-squares line through the trailing run of samples each higher than the one before.
     *
     * @param samples the run's length
     * @param steady at least {@value #LEAST_SAMPLES} samples in the run, rising over its span by
     *     more than {@value #DEVIATIONS}× their deviation from the line and the noise of all the
     *     samples ({@link #noise})
     */
    record Trend(int samples, double slope, boolean steady) {

        static Trend of(double[][] points) {
            int from = points.length - 1;
            while (from > 0 && points[from - 1][1] < points[from][1]) {
                from--;
            }
            int n = points.length - from;
            double mt = 0;
            double mr = 0;
            for (int i = from; i < points.length; i++) {
                mt += points[i][0] / n;
                mr += points[i][1] / n;
            }
            double stt = 0;
            double str = 0;
            for (int i = from; i < points.length; i++) {
                stt += (points[i][0] - mt) * (points[i][0] - mt);
                str += (points[i][0] - mt) * (points[i][1] - mr);
            }
            double slope = stt > 0 ? str / stt : 0;
            double squares = 0;
            for (int i = from; i < points.length; i++) {
                double off = points[i][1] - mr - slope * (points[i][0] - mt);
                squares += off * off;
            }
            double deviation = Math.max(n > 2 ? Math.sqrt(squares / (n - 2)) : 0, noise(points));
            double span = points[points.length - 1][0] - points[from][0];
            return new Trend(n, slope, n >= LEAST_SAMPLES && slope * span > DEVIATIONS * deviation);
        }

        /**
         * The deviation of the noise over all the samples, the run and those before it: each middle
         * sample's distance from the chord through its neighbours, which a straight ramp leaves at
         * zero, and which for independent noise of deviation σ has variance σ² (1 + w² + (1 − w)²),
         * w the middle sample's weight on its earlier neighbour.
         */
        static double noise(double[][] points) {
            double sum = 0;
            for (int i = 1; i + 1 < points.length; i++) {
                double w =
                        (points[i + 1][0] - points[i][0]) / (points[i + 1][0] - points[i - 1][0]);
                double off = points[i][1] - w * points[i - 1][1] - (1 - w) * points[i + 1][1];
                sum += off * off / (1 + w * w + (1 - w) * (1 - w));
            }
            return points.length > 2 ? Math.sqrt(sum / (points.length - 2)) : 0;
        }
    }
}
