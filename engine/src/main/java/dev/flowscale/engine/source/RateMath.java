package dev.flowscale.engine.source;

import dev.flowscale.engine.api.EngineException;

/** Checks and rounding shared by the rate profiles. */
final class RateMath {

    /**
     * Absorbs the rounding of decimal inputs (0.7 s at 10/s is 6.999999999999999 in binary), so a
     * schedule that owes exactly n records reports n; a millionth of a record is never visible
     * otherwise. Adding a constant keeps dueBy non-decreasing.
     */
    private static final double ROUNDING_SLACK = 1e-6;

    private RateMath() {}

    /** Floors a record count; saturates at Long.MAX_VALUE. */
    static long floorRecords(double records) {
        return records <= 0 ? 0 : (long) Math.floor(records + ROUNDING_SLACK);
    }

    static void checkRate(String field, double perSecond) {
        if (!Double.isFinite(perSecond) || perSecond < 0) {
            throw new EngineException(
                    field
                            + " must be a finite number >= 0 records/s but was "
                            + perSecond
                            + "; use 0 to pause the source");
        }
    }

    static void checkTime(String field, double seconds) {
        if (!Double.isFinite(seconds) || seconds < 0) {
            throw new EngineException(
                    field
                            + " must be a finite number of seconds >= 0 but was "
                            + seconds
                            + "; times count from the start of the source");
        }
    }

    /**
     * Rejects NaN and infinities so that a broken clock does not read as "nothing due" (0 records/s
     * times infinity is NaN).
     */
    static void checkQueryTime(double tSeconds) {
        if (!Double.isFinite(tSeconds)) {
            throw new EngineException(
                    "tSeconds must be a finite number but was "
                            + tSeconds
                            + "; pass the seconds elapsed since the source started");
        }
    }

    /**
     * A plain decimal such as {@code 1000}, {@code 2.5} or {@code 1e3}. Stricter than
     * Double.parseDouble, which would read "30d" as 30 and accept "NaN" and hex.
     *
     * @throws NumberFormatException if the text is not a plain decimal
     */
    static double parseDecimal(String text) {
        String t = text.strip();
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if ((c < '0' || c > '9') && c != '.' && c != '-' && c != '+' && c != 'e' && c != 'E') {
                throw new NumberFormatException("not a plain decimal: " + t);
            }
        }
        return Double.parseDouble(t);
    }

    /** {@code 1000.0 -> "1000"}, {@code 2.5 -> "2.5"}. */
    static String format(double value) {
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return Long.toString((long) value);
        }
        return Double.toString(value);
    }
}
