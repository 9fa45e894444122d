package dev.flowscale.reconfig;

/**
 * The root of the realizers' unchecked exceptions: carrying out a decision (realizing it) failed.
 * Messages name the job, operator and fix.
 */
public class RealizeException extends RuntimeException {

    public RealizeException(String message) {
        super(message);
    }

    public RealizeException(String message, Throwable cause) {
        super(message, cause);
    }
}
