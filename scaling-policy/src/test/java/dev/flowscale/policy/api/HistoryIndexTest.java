package dev.flowscale.policy.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.policy.PolicyException;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Random;
import org.apache.commons.math3.stat.descriptive.rank.Median;
import org.junit.jupiter.api.Test;

class HistoryIndexTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void holdsNoMoreCapacitiesPerOperatorThanTheObservedDecisionsHoweverLongTheRun() {
        HistoryIndex.Builder b = new HistoryIndex.Builder();
        List<Integer> sizes = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            b.add(decision(i, 1 + (i / 700) % 3, 3, 100 + i % 17), Math.min(i + 1, 1_000));
            sizes.add(b.build().observed("op").size());
        }
        assertThat(sizes.get(HistoryIndex.OBSERVED - 1)).isEqualTo(HistoryIndex.OBSERVED);
        assertThat(sizes.subList(HistoryIndex.OBSERVED, sizes.size()))
                .as(
                        "capacities held after each decision beyond the first %d",
                        HistoryIndex.OBSERVED)
                .containsOnly(HistoryIndex.OBSERVED);
    }

    @Test
    void keepsNoMoreThanTheDecisionsTheHistoryStillHolds() {
        HistoryIndex.Builder b = new HistoryIndex.Builder();
        for (int i = 0; i < 100; i++) {
            b.add(decision(i, 2, 2, 50), Math.min(i + 1, 30));
        }
        assertThat(b.build().observed("op").size()).isEqualTo(30);
    }

    @Test
    void mediansAreCommonsMathsAndTheUpperMedianIsTheHigherMiddleValue() {
        Random random = new Random(3);
        for (int n = 1; n <= 40; n++) {
            double[] values = random.doubles(n, 1, 5).map(v -> Math.rint(v * 4) / 4).toArray();
            double now = Math.rint(random.nextDouble(1, 5) * 4) / 4;
            CapacitySamples samples = new CapacitySamples();
            for (int i = 0; i < n; i++) {
                samples.add(4, values[i], i);
            }
            ObservedCapacity c = read(samples);
            double[] with = Arrays.copyOf(values, n + 1);
            with[n] = now;
            Arrays.sort(with);
            assertThat(c.medians(4, now).get(4)).isEqualTo(new Median().evaluate(with));
            assertThat(c.upperMedian(4, 4, now)).isEqualTo(with[with.length / 2]);
            assertThat(c.medians(7, now)).containsEntry(7, now);
        }
    }

    @Test
    void mediansReadOffTheMiddleValuesAreThoseOfAllValuesAsTheyComeAndGo() {
        Random random = new Random(11);
        CapacitySamples samples = new CapacitySamples();
        Deque<Double> held = new ArrayDeque<>();
        for (int step = 0; step < 2_000; step++) {
            if (held.size() < 250 && (held.isEmpty() || random.nextInt(3) > 0)) {
                double v = Math.rint(random.nextDouble(1, 9) * 8) / 8; // ties included
                samples.add(6, v, step);
                held.addLast(v);
            } else {
                samples.remove(6, held.pollFirst());
            }
            if (held.isEmpty()) {
                assertThat(samples.isEmpty()).isTrue();
                continue;
            }
            double now = Math.rint(random.nextDouble(0, 10) * 8) / 8;
            double[] all = held.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            double[] with = Arrays.copyOf(all, all.length + 1);
            with[all.length] = now;
            Arrays.sort(with);
            ObservedCapacity c = read(samples);
            assertThat(c.size()).isEqualTo(all.length);
            assertThat(c.medians(6, now).get(6)).isEqualTo(new Median().evaluate(with));
            assertThat(c.medians(2, now).get(6)).isEqualTo(new Median().evaluate(all));
            assertThat(c.upperMedian(6, 6, now)).isEqualTo(with[with.length / 2]);
            assertThat(c.upperMedian(6, 2, now)).isEqualTo(all[all.length / 2]);
        }
    }

    /** What a {@link HistoryIndex} reads of one operator's samples, packed alone. */
    private static ObservedCapacity read(CapacitySamples samples) {
        return samples.observed(new double[samples.packedSize()], 0);
    }

    @Test
    void theParallelismBeforeTheLatestChangeIsTheLatestOtherOne() {
        HistoryIndex.Builder b = new HistoryIndex.Builder();
        int[] ps = {2, 2, 5, 5, 3, 3, 3};
        for (int i = 0; i < ps.length; i++) {
            b.add(decision(i, ps[i], ps[i], 10), i + 1);
        }
        ObservedCapacity c = b.build().observed("op");
        assertThat(c.before(3)).hasValue(5);
        assertThat(c.before(5)).hasValue(3);
        assertThat(c.distinctWith(4)).isEqualTo(4);
    }

    @Test
    void aScaleDownRunStartsAtTheFirstOfTheTrailingDecisionsRecommendingItFromTheParallelism() {
        HistoryIndex.Builder b = new HistoryIndex.Builder();
        int[] recommended = {4, 3, 4, 3, 3, 3};
        for (int i = 0; i < recommended.length; i++) {
            b.add(decision(i, 4, recommended[i], 10), i + 1);
        }
        HistoryIndex index = b.build();
        assertThat(index.scaleDownRunStart("op", 4)).isEqualTo(3);
        assertThat(index.scaleDownRunStart("op", 5)).isEqualTo(6);
        assertThat(index.scaleDownRunStart("other", 4)).isEqualTo(6);
        b.add(decision(6, 4, 3, 10), 4); // three oldest dropped: the run starts at the oldest kept
        assertThat(b.build().scaleDownRunStart("op", 4)).isZero();
    }

    @Test
    void theLatestRescalesAreThoseAScanOfTheDecisionsKeptFindsAsDecisionsComeAndGo() {
        Random random = new Random(5);
        HistoryIndex.Builder b = new HistoryIndex.Builder();
        Deque<ScalingDecision> kept = new ArrayDeque<>();
        for (int i = 0; i < 3_000; i++) {
            int p = 4;
            int next =
                    switch (random.nextInt(8)) {
                        case 0 -> 3;
                        case 1 -> 6;
                        default -> 4;
                    };
            ScalingDecision d = decision(i, p, next, next, 10);
            kept.addLast(d);
            if (kept.size() > 300) {
                kept.pollFirst();
            }
            HistoryIndex index = b.add(d, kept.size()).build();
            List<ScalingDecision> held = List.copyOf(kept);
            assertThat(index.latestScale()).isEqualTo(scan(held, held.size(), false));
            assertThat(index.latestScaleDown()).isEqualTo(scan(held, held.size(), true));
            OptionalInt latest = index.latestScale();
            assertThat(index.scaleBefore())
                    .isEqualTo(
                            latest.isPresent()
                                    ? scan(held, latest.getAsInt(), false)
                                    : OptionalInt.empty());
            assertThat(HistoryIndex.of(held).latestScale()).isEqualTo(index.latestScale());
        }
    }

    /** The position of the latest rescale (or scale-down) before {@code end}: what a scan finds. */
    private static OptionalInt scan(List<ScalingDecision> decisions, int end, boolean down) {
        for (int i = end - 1; i >= 0; i--) {
            ScalingDecision d = decisions.get(i);
            boolean lowers =
                    d.operators().values().stream()
                            .anyMatch(op -> op.newParallelism() < op.currentParallelism());
            if (d.isScale() && (!down || lowers)) {
                return OptionalInt.of(i);
            }
        }
        return OptionalInt.empty();
    }

    @Test
    void aHistoryRefusesAnIndexOfOtherDecisions() {
        List<ScalingDecision> decisions = List.of(decision(0, 1, 1, 1), decision(1, 1, 1, 1));
        HistoryIndex other = HistoryIndex.of(List.of(decision(0, 1, 1, 1)));
        assertThatThrownBy(
                        () -> new ScalingHistory(decisions, List.of(), SourceRateLog.EMPTY, other))
                .isInstanceOf(PolicyException.class)
                .hasMessageContaining("HistoryIndex.of");
        assertThat(new ScalingHistory(decisions, List.of()).index().observed("op").size())
                .isEqualTo(2);
    }

    @Test
    void readsByPositionWhatItReadsById() {
        List<OperatorDecision> ops = new ArrayList<>();
        for (int k = 0; k < 5; k++) {
            ops.add(
                    new OperatorDecision(
                            "op" + k, 1 + k, 1 + k, 1 + k, 1, 10 * k, 1, 0, List.of()));
        }
        HistoryIndex index =
                HistoryIndex.of(List.of(ScalingDecision.of(T0, "job", List.of(), ops)));

        for (int k = 0; k < 5; k++) {
            assertThat(index.observed(k, "op" + k)).isSameAs(index.observed("op" + k));
            // a position that holds another operator, or none, falls back to the id
            assertThat(index.observed((k + 1) % 5, "op" + k)).isSameAs(index.observed("op" + k));
            assertThat(index.observed(99, "op" + k)).isSameAs(index.observed("op" + k));
            assertThat(index.observed(-1, "op" + k)).isSameAs(index.observed("op" + k));
        }
        // op2 ran at 3 with 20 per instance: 60 held at 3, and the capacity measured now at 5
        assertThat(index.observed(2, "op2").medians(5, 100))
                .containsExactly(Map.entry(3, 60.0), Map.entry(5, 100.0));
        assertThat(index.observed(0, "gone").size()).isZero();
    }

    @Test
    void readsEveryOperatorInAGivenOrderWhatItReadsById() {
        List<OperatorDecision> older = new ArrayList<>();
        older.add(new OperatorDecision("old", 2, 2, 2, 1, 7, 1, 0, List.of()));
        List<OperatorDecision> latest = new ArrayList<>();
        for (int k = 0; k < 4; k++) {
            latest.add(
                    new OperatorDecision(
                            "op" + k, 1 + k, 1 + k, 1 + k, 1, 10 * (k + 1), 1, 0, List.of()));
        }
        HistoryIndex index =
                HistoryIndex.of(
                        List.of(
                                ScalingDecision.of(T0, "job", List.of(), older),
                                ScalingDecision.of(T0.plusSeconds(30), "job", List.of(), latest)));

        List<String> same = List.of("op0", "op1", "op2", "op3");
        List<String> other = List.of("op3", "gone", "old", "op0");
        List<ObservedCapacity> inSame = index.observedInOrder(same);
        List<ObservedCapacity> inOther = index.observedInOrder(other);

        for (int k = 0; k < same.size(); k++) {
            assertThat(inSame.get(k)).isSameAs(index.observed(same.get(k)));
            assertThat(inOther.get(k)).isSameAs(index.observed(other.get(k)));
        }
        // each operator reads its own values, those of operators outside the latest decision too
        assertThat(inSame.get(3).medians(5, 1))
                .containsExactly(Map.entry(4, 160.0), Map.entry(5, 1.0));
        assertThat(inOther.get(2).medians(3, 50))
                .containsExactly(Map.entry(2, 14.0), Map.entry(3, 50.0));
        assertThat(inOther.get(1).size()).isZero();
    }

    private static ScalingDecision decision(int i, int p, int recommended, double perInstance) {
        return decision(i, p, p, recommended, perInstance);
    }

    private static ScalingDecision decision(
            int i, int p, int next, int recommended, double perInstance) {
        OperatorDecision op =
                new OperatorDecision("op", p, next, recommended, 1, perInstance, 1, 0, List.of());
        return ScalingDecision.of(T0.plusSeconds(30L * i), "job", List.of(), List.of(op));
    }
}
