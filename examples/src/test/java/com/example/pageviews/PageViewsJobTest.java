package com.example.pageviews;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.job.JobArguments;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.runtime.RunningJob;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The whole job on the embedded engine, as the runner declares it from its options. */
class PageViewsJobTest {
    @Test
    void theJobCountsEveryHumanViewOfEveryPage() throws Exception {
        ClickGenerator clicks = new ClickGenerator(20, 100, 10);
        Map<String, Long> expected = expected(clicks, 3_000);
        long views = expected.values().stream().mapToLong(v -> v).sum();
        Sinks.CollectingSink<PageCount> sink = Sinks.collecting();
        var job = PageViewsJob.build(null, 3_000, clicks, sink).parallelism(PageViewsJob.COUNT, 2);
        try (RunningJob running =
                RunningJob.start(job.build(), dev.flowscale.engine.runtime.JobConfig.defaults())) {
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (sink.records().size() < views && System.nanoTime() < deadline) {
                running.await(Duration.ofMillis(50));
            }
        }
        Map<String, Long> last = new HashMap<>();
        sink.records().forEach(c -> last.merge(c.page(), c.views(), Math::max));
        assertThat(last).isEqualTo(expected);
    }

    private static Map<String, Long> expected(ClickGenerator clicks, long n) {
        Map<String, Long> counts = new HashMap<>();
        List<Click> parsed = new ArrayList<>();
        for (long seq = 0; seq < n; seq++) {
            new ParseClicks().flatMap(clicks.click(seq), parsed::add);
        }
        parsed.forEach(c -> counts.merge(c.page(), 1L, Long::sum));
        return counts;
    }

    @Test
    void itsOperatorIdsAreTheOnesItsSavepointsAreRestoredBy() {
        var graph = new PageViewsJob().build(JobArguments.of(Map.of())).build();
        assertThat(graph.parallelism()).containsOnlyKeys("clicks", "parse", "count", "sink");
    }

    @Test
    void aBadOptionIsRefusedNamingItAndItsRange() {
        assertThatThrownBy(
                        () ->
                                new PageViewsJob()
                                        .build(JobArguments.of(Map.of("bot-percent", "101"))))
                .isInstanceOf(InvalidJobException.class)
                .hasMessage("option --bot-percent is '101'; use a whole number from 0 to 100");
        assertThatThrownBy(() -> new PageViewsJob().build(JobArguments.of(Map.of("rate", "fast"))))
                .hasMessageStartingWith("option --rate fast: ");
    }
}
