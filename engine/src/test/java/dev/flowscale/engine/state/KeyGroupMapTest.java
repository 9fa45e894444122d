package dev.flowscale.engine.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.engine.api.StateDescriptor;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class KeyGroupMapTest {

    /** A key whose hash codes collide in tens, so that probes run long and gaps must close. */
    private record Colliding(int id) {
        @Override
        public int hashCode() {
            return id / 10;
        }
    }

    @Test
    void randomPutsRemovesAndReadsAgreeWithAHashMap() {
        Random random = new Random(7);
        KeyGroupMap table = new KeyGroupMap();
        Map<Object, Object> expected = new HashMap<>();
        for (int step = 0; step < 200_000; step++) {
            Object key =
                    random.nextBoolean() ? new Colliding(random.nextInt(500)) : random.nextInt(500);
            switch (random.nextInt(4)) {
                case 0, 1 -> assertThat(table.put(key, step)).isEqualTo(expected.put(key, step));
                case 2 -> assertThat(table.remove(key)).isEqualTo(expected.remove(key));
                default -> assertThat(table.get(key)).isEqualTo(expected.get(key));
            }
        }
        assertThat(table).hasSize(expected.size()).isEqualTo(expected);
        Map<Object, Object> visited = new HashMap<>();
        table.forEach(visited::put);
        assertThat(visited).isEqualTo(expected);
    }

    @Test
    void keysComingAndGoingKeepTheTableAtItsSize() {
        KeyGroupMap table = new KeyGroupMap();
        int live = 1_000;
        for (long id = 0; id < 100 * live; id++) {
            table.put(id, id);
            if (id >= live) {
                assertThat(table.remove(id - live)).isEqualTo(id - live);
            }
        }
        assertThat(table).hasSize(live);
        assertThat(table.capacity()).isLessThanOrEqualTo(4 * live);
        for (long id = 99 * live; id < 100 * live; id++) {
            assertThat(table.get(id)).isEqualTo(id);
        }
    }

    @Test
    void aReadThenAWriteOfTheSameKeyUpdatesOrInsertsThatKeyOnly() {
        KeyGroupMap table = new KeyGroupMap();
        for (int i = 0; i < 100; i++) {
            Colliding key = new Colliding(i);
            int hash = KeyGroupMap.hashOf(key);
            assertThat(table.get(key, hash)).isNull();
            table.set(key, hash, 1L);
            assertThat(table.get(key, hash)).isEqualTo(1L);
            table.set(key, hash, 2L);
        }
        assertThat(table).hasSize(100);
        for (int i = 0; i < 100; i++) {
            assertThat(table.get(new Colliding(i))).isEqualTo(2L);
        }
    }

    @Test
    void aWriteAfterAnotherKeyWasRemovedFindsItsKeyAgain() {
        KeyGroupMap table = new KeyGroupMap();
        for (int i = 0; i < 30; i++) {
            table.put(new Colliding(i), i);
        }
        Colliding kept = new Colliding(25);
        int hash = KeyGroupMap.hashOf(kept);
        assertThat(table.get(kept, hash)).isEqualTo(25);
        table.remove(new Colliding(21));
        table.set(kept, hash, -25);

        assertThat(table.get(new Colliding(25))).isEqualTo(-25);
        assertThat(table).hasSize(29).doesNotContainKey(new Colliding(21));
    }

    @Test
    void entriesWriteThroughAndCopiesAreIndependent() {
        KeyGroupMap table = new KeyGroupMap(Map.of("a", 1, "b", 2));
        table.entrySet().forEach(e -> e.setValue((Integer) e.getValue() * 10));
        KeyGroupMap copy = new KeyGroupMap(table);
        copy.put("a", 0);

        assertThat(table).isEqualTo(Map.of("a", 10, "b", 20));
        assertThat(copy).isEqualTo(Map.of("a", 0, "b", 20));
    }

    private static final StateDescriptor<Long> LONGS = StateDescriptor.value("count", Long.class);

    @Test
    void aTableOfLongsAgreesWithAHashMapThroughAddsSetsRemovesAndGrowth() {
        Random random = new Random(11);
        KeyGroupMap table = KeyGroupMap.forState(LONGS);
        Map<Object, Object> expected = new HashMap<>();
        for (int step = 0; step < 200_000; step++) {
            Colliding key = new Colliding(random.nextInt(500));
            int hash = KeyGroupMap.hashOf(key);
            switch (random.nextInt(5)) {
                case 0 ->
                        assertThat(table.addLong(key, hash, 3))
                                .isEqualTo(expected.merge(key, 3L, (a, b) -> (Long) a + (Long) b));
                case 1 -> {
                    table.setLong(key, hash, step);
                    expected.put(key, (long) step);
                }
                case 2 -> assertThat(table.remove(key)).isEqualTo(expected.remove(key));
                case 3 ->
                        assertThat(table.put(key, (long) -step))
                                .isEqualTo(expected.put(key, (long) -step));
                default ->
                        assertThat(table.getLong(key, hash, -1))
                                .isEqualTo(expected.getOrDefault(key, -1L));
            }
        }
        assertThat(table.holdsLongs()).isTrue();
        assertThat(table).isEqualTo(expected);
    }

    @Test
    void aTableOfLongsShowsLongsToTheMapViewAndItsCopiesKeepThemUnboxed() {
        KeyGroupMap table = KeyGroupMap.forState(LONGS);
        table.put("a", 1L);
        table.put("b", 2L);
        table.entrySet().forEach(e -> e.setValue((Long) e.getValue() * 10));
        KeyGroupMap copy = KeyGroupMap.copyOf(table);
        copy.addLong("a", KeyGroupMap.hashOf("a"), 5);

        assertThat(table).isEqualTo(Map.of("a", 10L, "b", 20L));
        assertThat(copy).isEqualTo(Map.of("a", 15L, "b", 20L));
        assertThat(copy.holdsLongs()).isTrue();
        assertThat(KeyGroupMap.forState(StateDescriptor.value("n", Integer.class)).holdsLongs())
                .isFalse();
        assertThatThrownBy(() -> table.put("c", 3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("java.lang.Integer");
    }

    @Test
    void nullKeysAndValuesAreRefused() {
        KeyGroupMap table = new KeyGroupMap();
        assertThatThrownBy(() -> table.put(null, 1)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> table.put("a", null)).isInstanceOf(NullPointerException.class);
        assertThat(table.get(null)).isNull();
        assertThat(table.remove("absent")).isNull();
    }
}
