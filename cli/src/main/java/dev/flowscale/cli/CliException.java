package dev.flowscale.cli;

/** A bad command line: the message names the option and the fix; the usage follows it. */
public class CliException extends RuntimeException {
    public CliException(String message) {
        super(message);
    }
}
