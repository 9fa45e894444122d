package dev.flowscale.policy.api;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.function.Supplier;

/**
 * An operator decision's reasons, each either a text or a structured reason formatted only when it
 * is read. A decision on a thousand operators builds a thousand sizing explanations that a loop
 * mostly never reads; formatting them eagerly cost more than the decision itself. A reason is
 * formatted at most once and then kept; reading gives the same text an eager list would.
 *
 * <p>Build one with {@link #add(String)} and {@link #addLater(Supplier)}, then hand it to {@link
 * OperatorDecision}, which keeps an unmodifiable copy ({@link #copyOf(List)}): the copy shares the
 * parts and never formats.
 */
public final class Reasons extends AbstractList<String> implements RandomAccess {

    private Object[] parts;
    private int size;
    private final boolean frozen;

    /** An empty, growable list of reasons. */
    public Reasons() {
        this(new Object[4], 0, false);
    }

    private Reasons(Object[] parts, int size, boolean frozen) {
        this.parts = parts;
        this.size = size;
        this.frozen = frozen;
    }

    /**
     * An unmodifiable copy that formats nothing: of a {@code Reasons} its parts, of any other list
     * its texts (null texts are refused, as by {@link List#copyOf(Collection)}).
     */
    public static Reasons copyOf(List<String> reasons) {
        if (reasons instanceof Reasons r) {
            return r.frozen ? r : new Reasons(Arrays.copyOf(r.parts, r.size), r.size, true);
        }
        Object[] texts = reasons.toArray();
        for (Object t : texts) {
            Objects.requireNonNull(t, "a reason is null; give every reason a text");
        }
        return new Reasons(texts, texts.length, true);
    }

    /** An unmodifiable copy of these reasons with one more text at the end. */
    public Reasons plus(String reason) {
        Objects.requireNonNull(reason, "a reason is null; give every reason a text");
        Object[] more = Arrays.copyOf(parts, size + 1);
        more[size] = reason;
        return new Reasons(more, size + 1, true);
    }

    @Override
    public boolean add(String reason) {
        append(Objects.requireNonNull(reason, "a reason is null; give every reason a text"));
        return true;
    }

    /**
     * Adds a reason formatted when it is first read; {@code text} must give the same text every
     * time.
     */
    public void addLater(Supplier<String> text) {
        append(Objects.requireNonNull(text, "a reason's text supplier is null"));
    }

    private void append(Object part) {
        if (frozen) {
            throw new UnsupportedOperationException("a decision's reasons are unmodifiable");
        }
        if (size == parts.length) {
            parts = Arrays.copyOf(parts, size * 2);
        }
        parts[size++] = part;
        modCount++;
    }

    @Override
    public String get(int index) {
        Objects.checkIndex(index, size);
        Object part = parts[index];
        if (part instanceof String text) {
            return text;
        }
        @SuppressWarnings("unchecked")
        String text =
                Objects.requireNonNull(
                        ((Supplier<String>) part).get(), "a reason formatted to null");
        parts[index] = text; // racing readers format the same text; a String is safe to publish
        return text;
    }

    @Override
    public int size() {
        return size;
    }
}
