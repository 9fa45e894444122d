package dev.flowscale.engine.api;

/**
 * Root of every unchecked exception the engine throws. Messages name the job, the operator, the
 * field at fault and, where there is one, the fix.
 */
public class EngineException extends RuntimeException {
    public EngineException(String message) {
        super(message);
    }

    public EngineException(String message, Throwable cause) {
        super(message, cause);
    }
}
