package dev.flowscale.engine.source;

/** A constant rate; see {@link RateProfile#constant}. */
final class ConstantRate implements RateProfile {

    private final double perSecond;

    ConstantRate(double perSecond) {
        RateMath.checkRate("rate", perSecond);
        this.perSecond = perSecond;
    }

    @Override
    public double rateAt(double tSeconds) {
        RateMath.checkQueryTime(tSeconds);
        return tSeconds < 0 ? 0 : perSecond;
    }

    @Override
    public long dueBy(double tSeconds) {
        RateMath.checkQueryTime(tSeconds);
        return RateMath.floorRecords(perSecond * tSeconds);
    }

    @Override
    public String describe() {
        return "constant " + RateMath.format(perSecond) + "/s";
    }

    @Override
    public String toString() {
        return describe();
    }
}
