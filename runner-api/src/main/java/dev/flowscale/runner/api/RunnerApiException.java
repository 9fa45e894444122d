package dev.flowscale.runner.api;

/**
 * A runner API call that did not get the answer it needs: the runner answered an error status
 * ({@link #status()}), answered something that is not the contract's JSON, or could not be reached
 * ({@link #status()} 0). The message names the request and what to do.
 */
public final class RunnerApiException extends RuntimeException {
    /** {@link #status()} of a call that got no HTTP answer. */
    public static final int NO_ANSWER = 0;

    private final int status;

    public RunnerApiException(int status, String message) {
        this(status, message, null);
    }

    public RunnerApiException(int status, String message, Throwable cause) {
        super(message, cause);
        this.status = status;
    }

    /** The HTTP status the runner answered, or {@value #NO_ANSWER} when there was no answer. */
    public int status() {
        return status;
    }

    /** Whether the runner answered 404: the resource does not exist (yet). */
    public boolean notFound() {
        return status == 404;
    }
}
