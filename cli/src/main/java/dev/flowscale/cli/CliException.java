package dev.flowscale.cli;

import dev.flowscale.engine.api.InvalidJobException;

/**
 * A bad command line: the message names the option and the fix (exit code 2, as any invalid job).
 */
public class CliException extends InvalidJobException {
    public CliException(String message) {
        super(message);
    }
}
