package dev.flowscale.policy.api;

import dev.flowscale.policy.PolicyException;

/**
 * Rates of one operator instance over a window, in records per second. True rates divide by the
 * instance's useful time, observed rates by the window length. Values are checked by the policy,
 * not here, so that a bad measurement yields an explained decision instead of an exception. The
 * policy depends on no runner module: the collector fills this from the runner contract's counter
 * record, with the runner API's rate rule (a rate without time reaches the policy as 0).
 */
public record InstanceWindowRates(
        int index,
        double trueProcessingRate,
        double trueOutputRate,
        double observedProcessingRate,
        double observedOutputRate) {

    public InstanceWindowRates {
        if (index < 0) {
            throw new PolicyException(
                    "instance index is " + index + "; use the 0-based subtask index");
        }
    }
}
