package dev.flowscale.engine.api;

/** A job stopped because one of its tasks failed; the message names the operator and instance. */
public class JobFailedException extends EngineException {
    public JobFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
