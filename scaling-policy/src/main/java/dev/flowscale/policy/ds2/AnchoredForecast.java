package dev.flowscale.policy.ds2;

import dev.flowscale.policy.model.RateForecast;
import java.time.Instant;

/**
 * A periodic forecast shifted onto the offered rate measured now: the fit's level error at this
 * instant (a dozen harmonics round a day's corners, and a period detected several hundred seconds
 * off shifts the phase: 4 to 19 % above the rate on the simulator's morning ramp) is taken as the
 * error over the next minutes, and only the forecast's rise above its own value now is added to the
 * offered rate.
 *
 * @param lift offered rate minus the fit's value now
 * @param check forecast maximum over the running check's horizon, shifted
 * @param plan forecast maximum over a plan's horizon, shifted
 * @param rises whether the shifted forecast exceeds the offered rate within the settle horizon
 */
record AnchoredForecast(double lift, double check, double plan, boolean rises) {

    static AnchoredForecast of(RateForecast f, double offered, Instant now, ForecastHorizons h) {
        double lift = offered - f.at(now);
        return new AnchoredForecast(
                lift,
                f.maxOver(now, h.check()) + lift,
                f.maxOver(now, h.plan()) + lift,
                f.maxOver(now, h.settle()) + lift > offered);
    }
}
