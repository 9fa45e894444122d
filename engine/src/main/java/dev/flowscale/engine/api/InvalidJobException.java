package dev.flowscale.engine.api;

/** A job graph or a job option that cannot run; thrown before any thread starts. */
public class InvalidJobException extends EngineException {
    public InvalidJobException(String message) {
        super(message);
    }
}
