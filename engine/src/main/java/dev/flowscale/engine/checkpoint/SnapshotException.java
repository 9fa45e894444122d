package dev.flowscale.engine.checkpoint;

import dev.flowscale.engine.api.EngineException;

/** A snapshot cannot be written or restored; the message names the path and what is wrong. */
public class SnapshotException extends EngineException {
    public SnapshotException(String message) {
        super(message);
    }

    public SnapshotException(String message, Throwable cause) {
        super(message, cause);
    }
}
