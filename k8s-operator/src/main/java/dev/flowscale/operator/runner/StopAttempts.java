package dev.flowscale.operator.runner;

import dev.flowscale.operator.api.PendingChange;
import dev.flowscale.operator.api.SavepointFailure;
import dev.flowscale.operator.api.SavepointStorage;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.api.StreamJobStatus;
import dev.flowscale.operator.core.Conditions;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The bounded retries of a failing stop-with-savepoint: {@link #MAX} attempts, {@link #FIRST_WAIT}
 * apart and doubling, each recorded in {@code status.pending} (so an operator restart neither
 * repeats nor forgets one), then the change either restores the runner's latest checkpoint
 * (spec.savepoints.upgradeMode last-state, as the Flink Kubernetes operator's last-state upgrade
 * mode) or is abandoned ({@code savepoint}, the default) and not tried again for that generation of
 * the spec. Condition {@value #CONDITION} names the error meanwhile.
 */
public final class StopAttempts {
    public static final String CONDITION = "SavepointFailing";
    static final int MAX = 3;
    static final Duration FIRST_WAIT = Duration.ofSeconds(10);

    private StopAttempts() {}

    /** The wait after the {@code attempts}-th failed attempt: 10 s, 20 s, ... */
    static Duration backoff(int attempts) {
        return FIRST_WAIT.multipliedBy(1L << Math.max(0, Math.min(attempts - 1, 10)));
    }

    /** Records a failed attempt in the pending change; returns how many have failed. */
    static int failed(StreamJobStatus st, String error, Instant now) {
        PendingChange c = st.pending;
        c.stopAttempts = (c.stopAttempts == null ? 0 : c.stopAttempts) + 1;
        c.stopError = error;
        c.nextStopAttempt = now.plus(backoff(c.stopAttempts)).toString();
        return c.stopAttempts;
    }

    /** Whether the pending change has used up its attempts. */
    static boolean exhausted(PendingChange c) {
        return c.stopAttempts != null && c.stopAttempts >= MAX;
    }

    /** How long until the next attempt is due; zero when it is due now. */
    static Duration untilNext(PendingChange c, Instant now) {
        if (c.nextStopAttempt == null) {
            return Duration.ZERO;
        }
        Duration left = Duration.between(now, Instant.parse(c.nextStopAttempt));
        return left.isNegative() ? Duration.ZERO : left;
    }

    static boolean fallsBack(StreamJob job) {
        return SavepointStorage.LAST_STATE.equals(job.getSpec().savepoints.upgradeMode);
    }

    /** Records the pending change's failure for good; {@code checkpoint} null: abandoned. */
    static void gaveUp(StreamJobStatus st, String checkpoint, Instant now) {
        PendingChange c = st.pending;
        SavepointFailure f = new SavepointFailure();
        f.generation = c.generation;
        f.reason = c.reason;
        f.attempts = c.stopAttempts;
        f.error = c.stopError;
        f.fallbackCheckpoint = checkpoint;
        f.time = now.toString();
        st.savepointFailure = f;
    }

    /** Whether a change of this generation was abandoned because no savepoint could be taken. */
    public static boolean abandoned(StreamJobStatus st, Long generation) {
        SavepointFailure f = st.savepointFailure;
        return f != null
                && f.fallbackCheckpoint == null
                && Objects.equals(f.generation, generation);
    }

    /** The message of one failed attempt (Event and log line). */
    static String attemptMessage(StreamJob job, PendingChange c) {
        String then =
                c.stopAttempts < MAX
                        ? "; trying again in " + backoff(c.stopAttempts).toSeconds() + " s"
                        : "; no attempt is left";
        return "runner "
                + RunnerResources.runnerName(job)
                + " could not stop with a savepoint ("
                + c.reason
                + ", attempt "
                + c.stopAttempts
                + " of "
                + MAX
                + "): "
                + c.stopError
                + then;
    }

    /** What became of a change whose attempts are used up (Event, log line, rescale outcome). */
    static String gaveUpMessage(StreamJob job, PendingChange c, String checkpoint) {
        String what =
                checkpoint != null
                        ? "replacing the runner anyway from its latest checkpoint "
                                + checkpoint
                                + " (spec.savepoints.upgradeMode last-state): records since that"
                                + " checkpoint are read again"
                        : "the change is abandoned and the job runs on unchanged"
                                + (fallsBack(job)
                                        ? " (the runner has no complete checkpoint to fall back to)"
                                        : "; fix the savepoint storage and edit the spec to try"
                                                + " again, or set spec.savepoints.upgradeMode to"
                                                + " last-state to fall back to the latest checkpoint");
        return "stop-with-savepoint failed "
                + c.stopAttempts
                + " times: "
                + c.stopError
                + "; "
                + what;
    }

    /** Sets {@value #CONDITION} from the pending change and the recorded failure. */
    public static void condition(StreamJobStatus status, Long generation, Instant now) {
        PendingChange c = status.pending;
        SavepointFailure f = status.savepointFailure;
        if (c != null && c.savepointNotFound != null) {
            Conditions.set(
                    status,
                    CONDITION,
                    true,
                    "SavepointNotFound",
                    c.savepointNotFound,
                    generation,
                    now);
        } else if (c != null && c.stopError != null) {
            Conditions.set(
                    status,
                    CONDITION,
                    true,
                    "Retrying",
                    "stop-with-savepoint failed "
                            + c.stopAttempts
                            + " of "
                            + MAX
                            + " times: "
                            + c.stopError,
                    generation,
                    now);
        } else if (f != null && Objects.equals(f.generation, generation)) {
            Conditions.set(
                    status,
                    CONDITION,
                    f.fallbackCheckpoint == null,
                    f.fallbackCheckpoint == null ? "ChangeAbandoned" : "FellBackToCheckpoint",
                    "stop-with-savepoint failed "
                            + f.attempts
                            + " times: "
                            + f.error
                            + (f.fallbackCheckpoint == null
                                    ? "; the change was abandoned"
                                    : "; restored checkpoint " + f.fallbackCheckpoint + " instead"),
                    generation,
                    now);
        } else {
            Conditions.set(
                    status,
                    CONDITION,
                    false,
                    "NoFailure",
                    "no savepoint is failing",
                    generation,
                    now);
        }
    }
}
