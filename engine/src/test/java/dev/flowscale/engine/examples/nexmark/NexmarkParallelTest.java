package dev.flowscale.engine.examples.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.examples.nexmark.Event.Auction;
import dev.flowscale.engine.examples.nexmark.Event.Bid;
import dev.flowscale.engine.examples.nexmark.Event.Person;
import dev.flowscale.engine.examples.nexmark.Results.AuctionCount;
import dev.flowscale.engine.examples.nexmark.Results.SellerAuction;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sinks.CollectingSink;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.source.GeneratorSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Q3 and Q5 over a generated stream, with the source split over instances (each split in time
 * order, so the watermark is each split's last time), against the same results worked out event by
 * event.
 */
class NexmarkParallelTest {
    private static final int EVENTS = 20_000;
    private static final NexmarkGenerator GENERATOR = new NexmarkGenerator(3, 0, 10_000);
    private static final long SIZE = 400;
    private static final long SLIDE = 100;

    @Test
    void q5AtParallelismThreeFindsEachWindowsHottestAuctionAsALoopDoes() throws Exception {
        CollectingSink<AuctionCount> sink = Sinks.collecting();
        JobBuilder job =
                NexmarkQueries.q5(
                        "q5", source(), sink, Duration.ofMillis(SIZE), Duration.ofMillis(SLIDE));
        job.parallelism(NexmarkQueries.SOURCE, 2)
                .parallelism("counts", 3)
                .parallelism("hottest", 2);
        run(job);
        assertThat(sink.records())
                .hasSizeGreaterThan(20)
                .containsExactlyInAnyOrderElementsOf(hottest());
    }

    @Test
    void q3AtParallelismTwoEmitsEverySellerAuctionPairOnce() throws Exception {
        CollectingSink<SellerAuction> sink = Sinks.collecting();
        JobBuilder job = NexmarkQueries.q3("q3", source(), sink);
        job.parallelism(NexmarkQueries.SOURCE, 2).parallelism("join", 2);
        run(job);
        assertThat(sink.records())
                .hasSizeGreaterThan(5)
                .containsExactlyInAnyOrderElementsOf(sellerAuctions());
    }

    private static GeneratorSource<Event> source() {
        return new GeneratorSource<>(null, GENERATOR::event, EVENTS);
    }

    private static void run(JobBuilder job) throws Exception {
        try (RunningJob running = job.start(JobConfig.defaults())) {
            assertThat(running.await(Duration.ofSeconds(60))).as("job finished").isTrue();
            assertThat(running.status()).isEqualTo(RunningJob.Status.FINISHED);
        }
    }

    /** Counts per window end and auction, then the largest count (smallest id on a tie). */
    private static List<AuctionCount> hottest() {
        Map<Long, Map<Long, Long>> counts = new TreeMap<>();
        for (long n = 0; n < EVENTS; n++) {
            if (GENERATOR.event(n) instanceof Bid b) {
                long lastEnd = Math.floorDiv(b.time(), SLIDE) * SLIDE + SLIDE;
                for (long end = lastEnd; end <= b.time() + SIZE; end += SLIDE) {
                    counts.computeIfAbsent(end, e -> new TreeMap<>())
                            .merge(b.auction(), 1L, Long::sum);
                }
            }
        }
        List<AuctionCount> hottest = new ArrayList<>();
        counts.forEach(
                (end, byAuction) -> {
                    long best = byAuction.values().stream().mapToLong(c -> c).max().orElseThrow();
                    long auction =
                            byAuction.entrySet().stream()
                                    .filter(e -> e.getValue() == best)
                                    .findFirst()
                                    .orElseThrow()
                                    .getKey();
                    hottest.add(new AuctionCount(auction, end, best));
                });
        return hottest;
    }

    private static List<SellerAuction> sellerAuctions() {
        Map<Long, Person> persons = new HashMap<>();
        List<Auction> auctions = new ArrayList<>();
        for (long n = 0; n < EVENTS; n++) {
            Event e = GENERATOR.event(n);
            if (e instanceof Person p && NexmarkQueries.Q3_STATES.contains(p.state())) {
                persons.put(p.id(), p);
            } else if (e instanceof Auction a && a.category() == NexmarkQueries.Q3_CATEGORY) {
                auctions.add(a);
            }
        }
        return auctions.stream()
                .filter(a -> persons.containsKey(a.seller()))
                .map(
                        a -> {
                            Person p = persons.get(a.seller());
                            return new SellerAuction(p.name(), p.city(), p.state(), a.id());
                        })
                .toList();
    }
}
