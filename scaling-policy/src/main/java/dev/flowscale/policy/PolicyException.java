package dev.flowscale.policy;

/**
 * The one unchecked exception root of the scaling-policy module. Messages name the job or operator,
 * the field and how to fix it.
 */
public class PolicyException extends RuntimeException {

    public PolicyException(String message) {
        super(message);
    }

    public PolicyException(String message, Throwable cause) {
        super(message, cause);
    }
}
