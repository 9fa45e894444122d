package dev.flowscale.engine.runtime;

import dev.flowscale.engine.api.EngineException;

/** Wraps an exception thrown by a user function where a checked exception cannot pass. */
final class UserCodeException extends EngineException {
    UserCodeException(String where, Throwable cause) {
        super(where + " threw " + cause, cause);
    }
}
