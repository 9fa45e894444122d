package dev.flowscale.kafka;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The transactional ids of one exactly-once sink: {@code <prefix>-<operator>-<instance>-<n>}, where
 * {@code instance} is the sink instance that opened the transaction (its namespace) and {@code n}
 * counts that namespace's transactions, one after the other. Ids follow from the configuration, so
 * a restore can find every transaction a killed run may have left open, at any parallelism.
 */
final class TransactionIds {
    private final String base;
    private final Pattern pattern;

    /** The ids of the sink {@code operatorId} configured with {@code transactionalIdPrefix}. */
    TransactionIds(String transactionalIdPrefix, String operatorId) {
        this.base = transactionalIdPrefix + "-" + operatorId + "-";
        this.pattern = Pattern.compile(Pattern.quote(base) + "(\\d{1,9})-(\\d{1,18})");
    }

    /** The id of transaction {@code sequence} of namespace {@code instance}. */
    String id(int instance, long sequence) {
        if (instance < 0 || sequence < 0) {
            throw new IllegalArgumentException(
                    "instance " + instance + " and sequence " + sequence + " must be >= 0");
        }
        return base + instance + "-" + sequence;
    }

    /** Where {@code transactionalId} sits, if it is one of this sink's ids. */
    Optional<Place> place(String transactionalId) {
        Matcher matcher = pattern.matcher(transactionalId);
        if (!matcher.matches()) {
            return Optional.empty();
        }
        return Optional.of(
                new Place(Integer.parseInt(matcher.group(1)), Long.parseLong(matcher.group(2))));
    }

    /**
     * Whether instance {@code instance} of {@code parallelism} cleans up namespace {@code
     * namespace}: each namespace has exactly one owner, so no two instances fence the same id, and
     * the namespaces of instances a downscale removed are owned too.
     */
    static boolean owns(int instance, int parallelism, int namespace) {
        return namespace % parallelism == instance;
    }

    /** A transaction's namespace (the instance that opened it) and number in it. */
    record Place(int instance, long sequence) {}
}
