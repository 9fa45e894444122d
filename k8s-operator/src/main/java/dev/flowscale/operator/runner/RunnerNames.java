package dev.flowscale.operator.runner;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Names of a StreamJob's resources. A StreamJob's name is a DNS-1123 subdomain of up to 253
 * characters (it may hold dots and start with a digit); a Service's name must be a DNS-1035 label
 * (a letter first, then letters, digits and dashes, at most 63) and a label value at most 63
 * characters. A name that already fits is kept as it is (so resources of existing jobs keep their
 * names and selectors); one that does not is cut and given the first 8 hex digits of the SHA-256 of
 * the whole job name, so two long names with a common prefix still get different resources.
 */
final class RunnerNames {
    static final int MAX_LABEL = 63;
    static final int HASH_LENGTH = 8;
    private static final Pattern DNS_1035 = Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");

    private RunnerNames() {}

    /**
     * {@code <job><suffix>}, e.g. "wc-runner", or a cut name with a hash when that is no DNS-1035
     * label of 63.
     */
    static String resourceName(String jobName, String suffix) {
        String plain = jobName + suffix;
        if (plain.length() <= MAX_LABEL && DNS_1035.matcher(plain).matches()) {
            return plain;
        }
        String safe = jobName.toLowerCase(Locale.ROOT).replaceAll("[^-a-z0-9]", "-");
        if (!Character.isLetter(safe.charAt(0))) {
            safe = "j" + safe; // a Service's name must start with a letter
        }
        return cut(safe, MAX_LABEL - suffix.length() - 1 - HASH_LENGTH)
                + "-"
                + hash(jobName)
                + suffix;
    }

    /** The job name as a label value: itself up to 63 characters, else cut with a hash. */
    static String labelValue(String jobName) {
        return jobName.length() <= MAX_LABEL
                ? jobName
                : cut(jobName, MAX_LABEL - 1 - HASH_LENGTH) + "-" + hash(jobName);
    }

    /**
     * At most {@code length} characters, never ending on a dash or dot (names and labels must end
     * alphanumeric).
     */
    private static String cut(String value, int length) {
        return value.substring(0, Math.min(length, value.length())).replaceAll("[-.]+$", "");
    }

    static String hash(String value) {
        try {
            byte[] digest =
                    MessageDigest.getInstance("SHA-256")
                            .digest(value.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest).substring(0, HASH_LENGTH);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
