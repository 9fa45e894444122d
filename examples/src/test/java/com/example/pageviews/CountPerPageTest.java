package com.example.pageviews;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.testing.HarnessSnapshot;
import dev.flowscale.engine.testing.KeyedFunctionHarness;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The count function on the engine's one-instance harness: records in, state and output out,
 * snapshots.
 */
class CountPerPageTest {
    private static KeyedFunctionHarness.Setup<String, Click, PageCount> count() {
        return KeyedFunctionHarness.of(CountPerPage::new, Click::page)
                .operatorId(PageViewsJob.COUNT);
    }

    private static Click view(String page) {
        return new Click(0, "u1", page, false);
    }

    @Test
    void eachViewRaisesItsPagesCountInStateAndEmitsIt() throws Exception {
        try (var harness = count().open()) {
            harness.processElements(view("/home"), view("/cart"), view("/home"));
            assertThat(harness.output())
                    .containsExactly(
                            new PageCount("/home", 1),
                            new PageCount("/cart", 1),
                            new PageCount("/home", 2));
            assertThat(harness.valueState(CountPerPage.VIEWS, "/home")).isEqualTo(2L);
            assertThat(harness.valueState(CountPerPage.VIEWS, "/about")).isNull();
            assertThat(harness.keys(CountPerPage.VIEWS))
                    .containsExactlyInAnyOrder("/home", "/cart");
        }
    }

    @Test
    void countingGoesOnFromASnapshotAsIfTheJobHadNeverStopped() throws Exception {
        HarnessSnapshot snapshot;
        try (var before = count().open()) {
            before.processElements(view("/home"), view("/home"));
            snapshot = before.snapshot();
        }
        try (var after = count().restore(snapshot)) {
            after.processElement(view("/home"));
            assertThat(after.takeOutput()).containsExactly(new PageCount("/home", 3));
        }
    }

    @Test
    void restoredAtThreeInstancesEachPageIsCountedOnByTheInstanceThatOwnsItsKeyGroup()
            throws Exception {
        Map<String, Long> expected = new HashMap<>();
        HarnessSnapshot snapshot;
        try (var one = count().open()) {
            for (int i = 0; i < 1_000; i++) {
                String page = "/page/" + (i * 7 % 97);
                one.processElement(view(page));
                expected.merge(page, 1L, Long::sum);
            }
            snapshot = one.snapshot();
        }
        List<KeyedFunctionHarness<String, Click, PageCount>> three = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            three.add(count().instance(i, 3).restore(snapshot));
        }
        Map<String, Long> restored = new HashMap<>();
        for (var instance : three) {
            for (String page : instance.keys(CountPerPage.VIEWS)) {
                assertThat(restored.put(page, instance.valueState(CountPerPage.VIEWS, page)))
                        .as("a page is restored on one instance only")
                        .isNull();
            }
            assertThat(instance.keys(CountPerPage.VIEWS)).allMatch(instance::owns);
        }
        assertThat(restored).isEqualTo(expected);
        var owner = three.stream().filter(h -> h.owns("/page/0")).findFirst().orElseThrow();
        owner.processElement(view("/page/0"));
        assertThat(owner.takeOutput())
                .containsExactly(new PageCount("/page/0", expected.get("/page/0") + 1));
        for (var instance : three) {
            instance.close();
        }
    }

    @Test
    void snapshotsOfThreeInstancesRestoreIntoOneWithEveryPage() throws Exception {
        List<HarnessSnapshot> snapshots = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            try (var instance = count().instance(i, 3).open()) {
                for (int p = 0; p < 30; p++) {
                    if (instance.owns("/page/" + p)) {
                        instance.processElement(view("/page/" + p));
                    }
                }
                snapshots.add(instance.snapshot());
            }
        }
        try (var one = count().restore(snapshots)) {
            assertThat(one.keys(CountPerPage.VIEWS)).hasSize(30);
            assertThat(one.valueState(CountPerPage.VIEWS, "/page/29")).isEqualTo(1L);
        }
    }
}
