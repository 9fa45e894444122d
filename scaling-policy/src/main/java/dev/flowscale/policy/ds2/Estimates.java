package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.JobTopology;
import java.util.AbstractCollection;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.Spliterator;
import java.util.Spliterators;

/**
 * Every operator's DS2 estimate in an array by topological position, read as an unmodifiable map by
 * operator id in topological order. A decision builds several of these; filling an array costs
 * nothing per operator that a hash map's entries did, and reads in topological order find their
 * position without hashing ({@link OrderedLookup}). Not thread-safe to read: one decision's.
 */
final class Estimates extends AbstractMap<String, Ds2Formula.Estimate> {

    private final List<String> order;
    private final Ds2Formula.Estimate[] inOrder;
    private final OrderedLookup positions;

    /** {@code inOrder} holds one estimate per position of the topology's order, kept as given. */
    Estimates(JobTopology topology, Ds2Formula.Estimate[] inOrder) {
        this.order = topology.topologicalOrder();
        this.inOrder = inOrder;
        this.positions = new OrderedLookup(topology);
    }

    /** The estimate of the operator at topological {@code position}. */
    Ds2Formula.Estimate at(int position) {
        return inOrder[position];
    }

    /** How many reads by id fell back to a lookup ({@link OrderedLookup#lookups()}). */
    long lookups() {
        return positions.lookups();
    }

    @Override
    public Ds2Formula.Estimate get(Object id) {
        int position = id instanceof String s ? positions.of(s) : -1;
        return position < 0 ? null : inOrder[position];
    }

    @Override
    public boolean containsKey(Object id) {
        return get(id) != null;
    }

    @Override
    public int size() {
        return inOrder.length;
    }

    /**
     * The estimates in topological order, iterated by a class of their own: the JDK's unmodifiable
     * wrapper forwards every {@code next()} through a call site that every wrapped collection in
     * the JVM shares, and a pass over every operator paid a dispatch per element once that site had
     * seen several iterator types.
     */
    @Override
    public Collection<Ds2Formula.Estimate> values() {
        return new AbstractCollection<>() {
            @Override
            public Iterator<Ds2Formula.Estimate> iterator() {
                return new InOrder();
            }

            @Override
            public Spliterator<Ds2Formula.Estimate> spliterator() {
                return Spliterators.spliterator(
                        inOrder, Spliterator.ORDERED | Spliterator.IMMUTABLE);
            }

            @Override
            public int size() {
                return inOrder.length;
            }
        };
    }

    /** The estimates in topological order, read-only. */
    private final class InOrder implements Iterator<Ds2Formula.Estimate> {
        private int next;

        @Override
        public boolean hasNext() {
            return next < inOrder.length;
        }

        @Override
        public Ds2Formula.Estimate next() {
            if (next >= inOrder.length) {
                throw new NoSuchElementException();
            }
            return inOrder[next++];
        }
    }

    @Override
    public Set<Entry<String, Ds2Formula.Estimate>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<String, Ds2Formula.Estimate>> iterator() {
                return new Iterator<>() {
                    private int next;

                    @Override
                    public boolean hasNext() {
                        return next < inOrder.length;
                    }

                    @Override
                    public Entry<String, Ds2Formula.Estimate> next() {
                        if (next >= inOrder.length) {
                            throw new NoSuchElementException();
                        }
                        int i = next++;
                        return new SimpleImmutableEntry<>(order.get(i), inOrder[i]);
                    }
                };
            }

            @Override
            public int size() {
                return inOrder.length;
            }
        };
    }
}
