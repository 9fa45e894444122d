package dev.flowscale.policy.ds2;

import dev.flowscale.policy.model.RateSample;
import java.util.List;

/**
 * How much a source's offered rate moves by noise alone, so that a trend forecast that rises no
 * more than that is read as flat: sized for, it would follow the noise, change the recommendation
 * from one decision to the next and restart the scale-down delay each time. The noise is estimated
 * from the second differences of the evenly spaced samples, which a straight ramp leaves at zero
 * (so a real ramp is never mistaken for noise): for independent noise of deviation σ, each second
 * difference has variance 6σ².
 */
final class ForecastNoise {

    /**
     * Samples read, the latest ones: enough for a stable estimate, few enough to follow a change.
     */
    static final int SAMPLES = 20;

    /** A rise within this many deviations of the noise is noise (about 1 in 20 of pure noise). */
    static final double DEVIATIONS = 2;

    private ForecastNoise() {}

    /** The deviation of the noise in the latest samples (0 with fewer than three). */
    static double deviation(List<RateSample> evenlySpaced) {
        int n = evenlySpaced.size();
        int from = Math.max(0, n - SAMPLES);
        double sum = 0;
        int count = 0;
        for (int i = from + 2; i < n; i++) {
            double d =
                    evenlySpaced.get(i).rate()
                            - 2 * evenlySpaced.get(i - 1).rate()
                            + evenlySpaced.get(i - 2).rate();
            sum += d * d;
            count++;
        }
        return count == 0 ? 0 : Math.sqrt(sum / count / 6);
    }

    /** Whether a forecast maximum above the offered rate lies within the noise. */
    static boolean flat(double max, double offered, double deviation) {
        return max - offered <= DEVIATIONS * deviation;
    }
}
