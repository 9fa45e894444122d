package dev.flowscale.autoscaler.realizer;

import dev.flowscale.autoscaler.AutoscalerException;

/** Carrying out a decision (realizing it) failed. Messages name the job, operator and fix. */
public class RealizeException extends AutoscalerException {

    public RealizeException(String message) {
        super(message);
    }

    public RealizeException(String message, Throwable cause) {
        super(message, cause);
    }
}
