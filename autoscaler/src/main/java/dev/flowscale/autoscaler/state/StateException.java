package dev.flowscale.autoscaler.state;

import dev.flowscale.autoscaler.AutoscalerException;

/** A stored autoscaler history that cannot be read or written; the message names the field. */
public class StateException extends AutoscalerException {
    public StateException(String message) {
        super(message);
    }

    public StateException(String message, Throwable cause) {
        super(message, cause);
    }
}
