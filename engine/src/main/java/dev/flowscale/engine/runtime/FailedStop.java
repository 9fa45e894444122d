package dev.flowscale.engine.runtime;

import java.nio.file.Path;

/** The one message of a stop or rescale that failed or ran out of time and went back. */
final class FailedStop {
    private FailedStop() {}

    /**
     * @param what e.g. "rescale of job 'x'"
     * @param cause why it failed
     * @param blocked what blocked the stopped run ({@link BlockedTasks}); empty if nothing did;
     *     null if the run was left as it was
     * @param latest the snapshot the job runs again from; null when it starts from the beginning
     */
    static String message(String what, String cause, String blocked, Path latest) {
        if (blocked == null) {
            return what + " failed: " + cause + "; the job keeps running as it was";
        }
        return what
                + " failed: "
                + cause
                + (blocked.isEmpty() ? "; " : "; its tasks were interrupted and ")
                + restoredFrom(latest)
                + (blocked.isEmpty() ? "" : ". Blocked: " + blocked);
    }

    /** How the job runs again after it went back to {@code latest} (null: none). */
    static String restoredFrom(Path latest) {
        return latest == null
                ? "the job keeps running from the beginning (it has no complete snapshot)"
                : "the job keeps running from its latest complete snapshot " + latest;
    }
}
