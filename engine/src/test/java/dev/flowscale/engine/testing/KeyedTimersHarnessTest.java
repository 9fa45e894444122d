package dev.flowscale.engine.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.KeyedProcessFunction;
import dev.flowscale.engine.api.KeyedRuntimeContext;
import dev.flowscale.engine.api.MapState;
import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.api.TimeDomain;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class KeyedTimersHarnessTest {

    /**
     * Sums each key's values per 10 ms window of event time and emits "key:end=sum" when the
     * watermark passes the end; a value of 0 asks for a processing-time ping 100 ms later, -1
     * cancels it.
     */
    static final class TenMsSums extends KeyedProcessFunction<Long, long[], String> {
        static final StateDescriptor<Long> SUMS =
                StateDescriptor.map("sums", Long.class, Long.class);
        private MapState<Long, Long> sums;

        @Override
        public void open(KeyedRuntimeContext context) {
            sums = context.mapState(SUMS);
        }

        @Override
        public void processElement(long[] keyAndValue, Context<Long> ctx, Collector<String> out) {
            long value = keyAndValue[1];
            long now = ctx.timerService().currentProcessingTime();
            if (value == 0) {
                ctx.timerService().registerProcessingTimeTimer(now + 100);
                return;
            }
            if (value == -1) {
                ctx.timerService().deleteProcessingTimeTimer(now + 100);
                return;
            }
            long end = ctx.timestamp() / 10 * 10 + 10;
            ctx.timerService().registerEventTimeTimer(end - 1);
            Long sum = sums.get(end);
            sums.put(end, (sum == null ? 0 : sum) + value);
        }

        @Override
        public void onTimer(long time, OnTimerContext<Long> ctx, Collector<String> out) {
            if (ctx.timeDomain() == TimeDomain.PROCESSING_TIME) {
                out.collect(ctx.currentKey() + ":ping@" + time);
                return;
            }
            out.collect(
                    ctx.currentKey()
                            + ":"
                            + (time + 1)
                            + "="
                            + sums.get(time + 1)
                            + "@"
                            + ctx.timestamp());
            sums.remove(time + 1);
        }
    }

    private static KeyedFunctionHarness.Setup<Long, long[], String> sums() {
        return KeyedFunctionHarness.of(TenMsSums::new, (long[] r) -> r[0]);
    }

    @Test
    void eventTimeTimersFireInTimeOrderWhenTheWatermarkPassesThem() throws Exception {
        try (var h = sums().open()) {
            h.processElement(new long[] {1, 5}, 3);
            h.processElement(new long[] {2, 7}, 12);
            h.processElement(new long[] {1, 4}, 8);
            h.processElement(new long[] {1, 100}, 15);
            h.processWatermark(8);
            assertThat(h.takeOutput()).isEmpty();
            h.processWatermark(9);
            assertThat(h.takeOutput()).containsExactly("1:10=9@9");
            h.processWatermark(30);
            assertThat(h.takeOutput()).containsExactlyInAnyOrder("2:20=7@19", "1:20=100@19");
            assertThat(h.currentWatermark()).isEqualTo(30);
        }
    }

    @Test
    void aKeyHasOneTimerPerTimeAndADeletedTimerNeverFires() throws Exception {
        try (var h = sums().open()) {
            h.setProcessingTime(1_000);
            h.processElement(new long[] {1, 0});
            h.processElement(new long[] {1, 0});
            h.processElement(new long[] {2, 0});
            h.processElement(new long[] {2, -1});
            h.setProcessingTime(1_099);
            assertThat(h.takeOutput()).isEmpty();
            h.setProcessingTime(1_100);
            assertThat(h.takeOutput()).containsExactly("1:ping@1100");
            h.setProcessingTime(5_000);
            assertThat(h.takeOutput()).isEmpty();
        }
    }

    /** Registers a processing-time timer at each positive value, deletes the one at minus it. */
    static final class TimerAtValue extends KeyedProcessFunction<Long, long[], String> {
        @Override
        public void processElement(long[] keyAndTime, Context<Long> ctx, Collector<String> out) {
            if (keyAndTime[1] > 0) {
                ctx.timerService().registerProcessingTimeTimer(keyAndTime[1]);
            } else {
                ctx.timerService().deleteProcessingTimeTimer(-keyAndTime[1]);
            }
        }

        @Override
        public void onTimer(long time, OnTimerContext<Long> ctx, Collector<String> out) {
            out.collect(ctx.currentKey() + "@" + time);
        }
    }

    @Test
    void deletingOneOfAKeysTimersKeepsItsOthersThroughASnapshot() throws Exception {
        var setup = KeyedFunctionHarness.of(TimerAtValue::new, (long[] r) -> r[0]);
        HarnessSnapshot snapshot;
        try (var h = setup.open()) {
            for (long time : new long[] {100, 200, 300, 400}) {
                h.processElement(new long[] {1, time});
            }
            h.processElement(new long[] {1, -200});
            h.processElement(new long[] {1, -400});
            h.processElement(new long[] {1, -400});
            snapshot = h.snapshot();
        }
        try (var restored = setup.restore(snapshot)) {
            restored.setProcessingTime(1_000);
            assertThat(restored.takeOutput()).containsExactly("1@100", "1@300");
            restored.processElement(new long[] {1, -100});
            restored.processElement(new long[] {1, 2_000});
            restored.setProcessingTime(3_000);
            assertThat(restored.takeOutput()).containsExactly("1@2000");
        }
    }

    @Test
    void timersAreInTheSnapshotAndFireInTheInstanceThatOwnsTheirKeyAfterARescale()
            throws Exception {
        HarnessSnapshot snapshot;
        try (var one = sums().open()) {
            for (long key : LongStream.range(0, 20).toArray()) {
                one.processElement(new long[] {key, key + 1}, 25);
            }
            one.processWatermark(10);
            snapshot = one.snapshot();
        }
        List<String> fired = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            try (var third = sums().instance(i, 3).restore(snapshot)) {
                third.processWatermark(28);
                assertThat(third.takeOutput()).isEmpty();
                third.processWatermark(29);
                List<String> out = third.takeOutput();
                out.forEach(
                        line ->
                                assertThat(third.owns(Long.parseLong(line.split(":")[0])))
                                        .isTrue());
                fired.addAll(out);
            }
        }
        assertThat(fired)
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.range(0, 20)
                                .mapToObj(k -> k + ":30=" + (k + 1) + "@29")
                                .toList());
    }
}
