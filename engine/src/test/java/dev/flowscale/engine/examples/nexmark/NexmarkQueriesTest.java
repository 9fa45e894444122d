package dev.flowscale.engine.examples.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.examples.nexmark.Event.Auction;
import dev.flowscale.engine.examples.nexmark.Event.Bid;
import dev.flowscale.engine.examples.nexmark.Event.Person;
import dev.flowscale.engine.examples.nexmark.Results.AuctionCount;
import dev.flowscale.engine.examples.nexmark.Results.AuctionPrice;
import dev.flowscale.engine.examples.nexmark.Results.BidderSession;
import dev.flowscale.engine.examples.nexmark.Results.EuroBid;
import dev.flowscale.engine.examples.nexmark.Results.NewSeller;
import dev.flowscale.engine.examples.nexmark.Results.SellerAuction;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sinks.CollectingSink;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.source.GeneratorSource;
import java.time.Duration;
import java.util.List;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/** Each query over a few events in time order, against results worked out by hand. */
class NexmarkQueriesTest {
    private static final long S = 1_000;

    @Test
    void q1ConvertsEveryBidsPriceToEurosAndDropsPersonsAndAuctions() throws Exception {
        List<Event> events =
                List.of(
                        person(1, "OR", 0),
                        auction(10, 1, 10, 1),
                        bid(10, 1, 1_000, 2),
                        bid(10, 1, 2_005, 3));
        assertThat(run(events, (source, sink) -> NexmarkQueries.q1("q1", source, sink)))
                .containsExactlyInAnyOrder(
                        new EuroBid(10, 1, 908, 2), new EuroBid(10, 1, 1_820, 3));
    }

    @Test
    void q2KeepsTheBidsOnAuctionsWhoseIdIsAMultipleOf123() throws Exception {
        List<Event> events = List.of(bid(1_107, 1, 5, 0), bid(1_108, 1, 6, 1), bid(1_230, 2, 7, 2));
        assertThat(run(events, (source, sink) -> NexmarkQueries.q2("q2", source, sink)))
                .containsExactlyInAnyOrder(new AuctionPrice(1_107, 5), new AuctionPrice(1_230, 7));
    }

    @Test
    void q3JoinsSellersFromOregonIdahoAndCaliforniaWithTheirCategoryTenAuctionsInAnyOrder()
            throws Exception {
        List<Event> events =
                List.of(
                        auction(20, 1, 10, 0), // may reach the join before its seller: waits
                        person(1, "OR", 1),
                        person(2, "WA", 2), // a state not selected
                        auction(21, 1, 11, 3), // a category not selected
                        auction(22, 1, 10, 4),
                        auction(23, 2, 10, 5),
                        person(3, "CA", 6),
                        auction(24, 3, 10, 7));
        assertThat(run(events, (source, sink) -> NexmarkQueries.q3("q3", source, sink)))
                .containsExactlyInAnyOrder(
                        new SellerAuction("name-1", "city-OR", "OR", 20),
                        new SellerAuction("name-1", "city-OR", "OR", 22),
                        new SellerAuction("name-3", "city-CA", "CA", 24));
    }

    @Test
    void q5FindsTheAuctionWithTheMostBidsOfEachSlidingWindowTheSmallerIdOnATie() throws Exception {
        long t = 100 * S;
        List<Event> events =
                List.of(
                        bid(1, 9, 1, t + S),
                        bid(1, 9, 1, t + 2 * S),
                        bid(2, 9, 1, t + 3 * S),
                        bid(1, 9, 1, t + 6 * S),
                        bid(2, 9, 1, t + 7 * S),
                        bid(2, 9, 1, t + 8 * S),
                        bid(2, 9, 1, t + 12 * S));
        Duration size = Duration.ofSeconds(10);
        Duration slide = Duration.ofSeconds(5);
        // Windows [95,105) [100,110) [105,115) [110,120) s; [100,110) has 3 bids for each.
        assertThat(
                        run(
                                events,
                                (source, sink) ->
                                        NexmarkQueries.q5("q5", source, sink, size, slide)))
                .containsExactlyInAnyOrder(
                        new AuctionCount(1, t + 5 * S, 2),
                        new AuctionCount(1, t + 10 * S, 3),
                        new AuctionCount(2, t + 15 * S, 3),
                        new AuctionCount(2, t + 20 * S, 1));
    }

    @Test
    void q8JoinsPersonsWithTheAuctionsTheyOpenedInTheSameTumblingWindow() throws Exception {
        List<Event> events =
                List.of(
                        person(1, "OR", S),
                        auction(30, 1, 10, 2 * S),
                        person(2, "WA", 9 * S),
                        auction(31, 2, 10, 11 * S), // the window after person 2 joined
                        auction(32, 1, 10, 12 * S), // the window after person 1 joined
                        person(3, "ID", 15 * S),
                        auction(33, 3, 10, 16 * S),
                        auction(34, 3, 11, 19 * S));
        Duration window = Duration.ofSeconds(10);
        assertThat(run(events, (source, sink) -> NexmarkQueries.q8("q8", source, sink, window)))
                .containsExactlyInAnyOrder(
                        new NewSeller(1, "name-1", 30, 1_030),
                        new NewSeller(3, "name-3", 33, 1_033),
                        new NewSeller(3, "name-3", 34, 1_034));
    }

    @Test
    void q11CountsEachBiddersBidsPerSessionOfBidsLessThanTheGapApart() throws Exception {
        List<Event> events =
                List.of(
                        bid(1, 7, 1, S),
                        bid(1, 8, 1, 2 * S),
                        bid(2, 7, 1, 5 * S),
                        bid(3, 7, 1, 14 * S), // 9 s after the last: same session
                        bid(3, 7, 1, 30 * S)); // 16 s after: a new one
        Duration gap = Duration.ofSeconds(10);
        assertThat(run(events, (source, sink) -> NexmarkQueries.q11("q11", source, sink, gap)))
                .containsExactlyInAnyOrder(
                        new BidderSession(7, S, 24 * S, 3),
                        new BidderSession(8, 2 * S, 12 * S, 1),
                        new BidderSession(7, 30 * S, 40 * S, 1));
    }

    /** Runs the query over {@code events} (one source instance, so in time order) to its end. */
    static <T> List<T> run(
            List<Event> events,
            BiFunction<GeneratorSource<Event>, CollectingSink<T>, JobBuilder> query)
            throws Exception {
        CollectingSink<T> sink = Sinks.collecting();
        JobBuilder job =
                query.apply(
                        new GeneratorSource<>(null, n -> events.get((int) n), events.size()), sink);
        try (RunningJob running = job.start(JobConfig.defaults())) {
            assertThat(running.await(Duration.ofSeconds(30))).as("job finished").isTrue();
            assertThat(running.status()).isEqualTo(RunningJob.Status.FINISHED);
        }
        return sink.records();
    }

    private static Person person(long id, String state, long time) {
        return new Person(id, "name-" + id, id + "@example.com", "city-" + state, state, time);
    }

    private static Auction auction(long id, long seller, int category, long time) {
        return new Auction(
                id, "item-" + id, 100, 1_000 + id, time, time + 60 * S, seller, category);
    }

    private static Bid bid(long auction, long bidder, long price, long time) {
        return new Bid(auction, bidder, price, time);
    }
}
