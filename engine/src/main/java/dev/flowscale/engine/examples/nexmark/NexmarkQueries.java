package dev.flowscale.engine.examples.nexmark;

import dev.flowscale.engine.api.AggregateFunction;
import dev.flowscale.engine.api.FlatMapFunction;
import dev.flowscale.engine.api.SinkFunction;
import dev.flowscale.engine.api.SourceFunction;
import dev.flowscale.engine.api.WatermarkStrategy;
import dev.flowscale.engine.examples.nexmark.Event.Auction;
import dev.flowscale.engine.examples.nexmark.Event.Bid;
import dev.flowscale.engine.examples.nexmark.Event.Person;
import dev.flowscale.engine.examples.nexmark.Results.AuctionCount;
import dev.flowscale.engine.examples.nexmark.Results.AuctionPrice;
import dev.flowscale.engine.examples.nexmark.Results.BidderSession;
import dev.flowscale.engine.examples.nexmark.Results.EuroBid;
import dev.flowscale.engine.examples.nexmark.Results.NewSeller;
import dev.flowscale.engine.examples.nexmark.Results.SellerAuction;
import dev.flowscale.engine.job.DataStream;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.window.Aggregates;
import dev.flowscale.engine.window.WindowAssigner;
import java.time.Duration;
import java.util.Set;

/**
 * The Nexmark queries of the DS2 paper's evaluation (Q1, Q2, Q3, Q5, Q8, Q11) as jobs over one
 * source of {@link Event}s (operator {@value #SOURCE}, event time from each event, in order per
 * split). Each query first selects the kinds of event it reads with a flatMap, so the source's rate
 * is the whole stream's and the proportions of persons, auctions and bids are Nexmark's.
 */
public final class NexmarkQueries {
    public static final String SOURCE = "events";
    public static final String SINK = "sink";

    /** Q1's exchange rate: euro cents per 1,000 dollar cents. */
    public static final long EUROS_PER_1000_DOLLARS = 908;

    /** Q2 keeps bids on auctions whose id is a multiple of this. */
    public static final long Q2_AUCTION_MODULUS = 123;

    /** Q3 keeps sellers from these states and auctions of this category. */
    public static final Set<String> Q3_STATES = Set.of("OR", "ID", "CA");

    public static final int Q3_CATEGORY = 10;

    private NexmarkQueries() {}

    /** Q1: events → bids → convert each price to euros → sink. */
    public static JobBuilder q1(
            String jobName, SourceFunction<Event> events, SinkFunction<? super EuroBid> sink) {
        JobBuilder job = JobBuilder.named(jobName);
        bids(job, events)
                .map(
                        "euros",
                        b ->
                                new EuroBid(
                                        b.auction(),
                                        b.bidder(),
                                        b.price() * EUROS_PER_1000_DOLLARS / 1_000,
                                        b.time()))
                .sink(SINK, sink);
        return job;
    }

    /** Q2: events → bids → keep those on every 123rd auction → sink. */
    public static JobBuilder q2(
            String jobName, SourceFunction<Event> events, SinkFunction<? super AuctionPrice> sink) {
        JobBuilder job = JobBuilder.named(jobName);
        bids(job, events)
                .filter("selected", b -> b.auction() % Q2_AUCTION_MODULUS == 0)
                .map("project", b -> new AuctionPrice(b.auction(), b.price()))
                .sink(SINK, sink);
        return job;
    }

    /**
     * Q3: persons from OR, ID or CA joined with their auctions of category 10 as both arrive (keyed
     * by seller id; an auction that comes before its seller waits in keyed state).
     */
    public static JobBuilder q3(
            String jobName,
            SourceFunction<Event> events,
            SinkFunction<? super SellerAuction> sink) {
        JobBuilder job = JobBuilder.named(jobName);
        DataStream<Event> all = source(job, events);
        DataStream<Person> persons =
                all.flatMap("persons", only(Person.class))
                        .filter("states", p -> Q3_STATES.contains(p.state()));
        DataStream<Auction> auctions =
                all.flatMap("auctions", only(Auction.class))
                        .filter("category", a -> a.category() == Q3_CATEGORY);
        persons.keyBy(Person::id)
                .connect(auctions.keyBy(Auction::seller))
                .process("join", SellerJoin::new)
                .sink(SINK, sink);
        return job;
    }

    /**
     * Q5 (hot items): bids counted per auction in sliding windows of {@code size} every {@code
     * slide}; of each window, the auction with the most bids (the smallest id among equals).
     */
    public static JobBuilder q5(
            String jobName,
            SourceFunction<Event> events,
            SinkFunction<? super AuctionCount> sink,
            Duration size,
            Duration slide) {
        JobBuilder job = JobBuilder.named(jobName);
        q5Results(job, events, size, slide).sink(SINK, sink);
        return job;
    }

    /**
     * Q5's results as a stream of {@code job}, for a job that goes on with them (a test keeps them
     * in keyed state to check each arrives once).
     */
    public static DataStream<AuctionCount> q5Results(
            JobBuilder job, SourceFunction<Event> events, Duration size, Duration slide) {
        return bids(job, events)
                .keyBy(Bid::auction)
                .window(WindowAssigner.sliding(size, slide))
                .<Long, Long, AuctionCount>aggregate(
                        "counts",
                        Aggregates.sumOf(b -> 1),
                        Long.class,
                        (auction, w, count, out) ->
                                out.collect(new AuctionCount(auction, w.end(), count)))
                .keyBy(AuctionCount::windowEnd)
                .window(WindowAssigner.tumbling(slide))
                .aggregate("hottest", new Hottest(), AuctionCount.class);
    }

    /**
     * Q8 (new users): persons joined with the auctions they opened in the same tumbling window of
     * {@code window}, by person id = seller.
     */
    public static JobBuilder q8(
            String jobName,
            SourceFunction<Event> events,
            SinkFunction<? super NewSeller> sink,
            Duration window) {
        JobBuilder job = JobBuilder.named(jobName);
        q8Results(job, events, window).sink(SINK, sink);
        return job;
    }

    /** Q8's results as a stream of {@code job}, as {@link #q5Results}. */
    public static DataStream<NewSeller> q8Results(
            JobBuilder job, SourceFunction<Event> events, Duration window) {
        DataStream<Event> all = source(job, events);
        DataStream<Person> persons = all.flatMap("persons", only(Person.class));
        DataStream<Auction> auctions = all.flatMap("auctions", only(Auction.class));
        return persons.keyBy(Person::id)
                .connect(auctions.keyBy(Auction::seller))
                .windowJoin(
                        "join",
                        WindowAssigner.tumbling(window),
                        (p, a) -> new NewSeller(p.id(), p.name(), a.id(), a.reserve()),
                        Person.class,
                        Auction.class);
    }

    /** Q11 (user sessions): each bidder's bids counted per session window of {@code gap}. */
    public static JobBuilder q11(
            String jobName,
            SourceFunction<Event> events,
            SinkFunction<? super BidderSession> sink,
            Duration gap) {
        JobBuilder job = JobBuilder.named(jobName);
        bids(job, events)
                .keyBy(Bid::bidder)
                .window(WindowAssigner.session(gap))
                .<Long, Long, BidderSession>aggregate(
                        "sessions",
                        Aggregates.sumOf(b -> 1),
                        Long.class,
                        (bidder, w, count, out) ->
                                out.collect(new BidderSession(bidder, w.start(), w.end(), count)))
                .sink(SINK, sink);
        return job;
    }

    private static DataStream<Event> source(JobBuilder job, SourceFunction<Event> events) {
        return job.source(SOURCE, events, WatermarkStrategy.forMonotonousTimestamps(Event::time));
    }

    private static DataStream<Bid> bids(JobBuilder job, SourceFunction<Event> events) {
        return source(job, events).flatMap("bids", only(Bid.class));
    }

    /** Passes on the events of one kind, typed. */
    static <T extends Event> FlatMapFunction<Event, T> only(Class<T> kind) {
        return (event, out) -> {
            if (kind.isInstance(event)) {
                out.collect(kind.cast(event));
            }
        };
    }

    /** Keeps the auction with the most bids; the smallest id among equals, so replays agree. */
    static final class Hottest
            implements AggregateFunction<AuctionCount, AuctionCount, AuctionCount> {
        @Override
        public AuctionCount createAccumulator() {
            return new AuctionCount(Long.MAX_VALUE, Long.MIN_VALUE, -1);
        }

        @Override
        public AuctionCount add(AuctionCount value, AuctionCount best) {
            return merge(value, best);
        }

        @Override
        public AuctionCount getResult(AuctionCount best) {
            return best;
        }

        @Override
        public AuctionCount merge(AuctionCount a, AuctionCount b) {
            if (a.count() != b.count()) {
                return a.count() > b.count() ? a : b;
            }
            return a.auction() <= b.auction() ? a : b;
        }
    }
}
