package dev.flowscale.policy.api;

import dev.flowscale.policy.PolicyException;
import java.time.Duration;

/** Argument checks shared by the value types; every failure names the field and the fix. */
public final class Checks {

    private Checks() {}

    public static <T> T notNull(T value, String what) {
        if (value == null) {
            throw new PolicyException(what + " must not be null; pass a value");
        }
        return value;
    }

    public static String notBlank(String value, String what) {
        if (value == null || value.isBlank()) {
            throw new PolicyException(what + " must not be blank; pass a non-empty name");
        }
        return value;
    }

    public static int positive(int value, String what) {
        if (value < 1) {
            throw new PolicyException(what + " is " + value + "; it must be at least 1");
        }
        return value;
    }

    public static Duration notNegative(Duration value, String what) {
        notNull(value, what);
        if (value.isNegative()) {
            throw new PolicyException(what + " is " + value + "; use zero or a positive duration");
        }
        return value;
    }

    public static double finiteNotNegative(double value, String what) {
        if (!Double.isFinite(value) || value < 0) {
            throw new PolicyException(what + " is " + value + "; use a finite value >= 0");
        }
        return value;
    }
}
