package dev.flowscale.operator.core;

/** The root of this module's unchecked exceptions; messages name the StreamJob, field and fix. */
public class OperatorException extends RuntimeException {
    public OperatorException(String message) {
        super(message);
    }

    public OperatorException(String message, Throwable cause) {
        super(message, cause);
    }
}
