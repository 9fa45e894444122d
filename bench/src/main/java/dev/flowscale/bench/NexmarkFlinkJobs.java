package dev.flowscale.bench;

import dev.flowscale.engine.examples.nexmark.Event;
import dev.flowscale.engine.examples.nexmark.Event.Auction;
import dev.flowscale.engine.examples.nexmark.Event.Bid;
import dev.flowscale.engine.examples.nexmark.Event.Person;
import dev.flowscale.engine.examples.nexmark.NexmarkQueries;
import dev.flowscale.engine.examples.nexmark.Results.AuctionCount;
import dev.flowscale.engine.examples.nexmark.Results.AuctionPrice;
import dev.flowscale.engine.examples.nexmark.Results.BidderSession;
import dev.flowscale.engine.examples.nexmark.Results.EuroBid;
import dev.flowscale.engine.examples.nexmark.Results.NewSeller;
import dev.flowscale.engine.examples.nexmark.Results.SellerAuction;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.windowing.assigners.EventTimeSessionWindows;
import org.apache.flink.streaming.api.windowing.assigners.SlidingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;

/**
 * The Nexmark queries of {@link NexmarkQueries} on Flink in local mode, default chaining, with the
 * same semantics and parameters, over the same generated events as on flowscale ({@link
 * NexmarkBench#event}, which counts each event on the run's {@link SinkMeter}). Records are the
 * engine's Java records (Flink's POJO serializer); state on Flink's default heap backend.
 */
final class NexmarkFlinkJobs {
    private NexmarkFlinkJobs() {}

    static void run(String query, long events, int parallelism) throws Exception {
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.createLocalEnvironment(parallelism);
        DataStream<Long> sequence = env.fromSequence(0, events - 1);
        switch (query) {
            case "q1" -> q1(bids(sequence));
            case "q2" -> q2(bids(sequence));
            case "q3" -> q3(personsAndAuctions(sequence));
            case "q5" -> q5(bids(sequence));
            case "q8" -> q8(personsAndAuctions(sequence));
            case "q11" -> q11(bids(sequence));
            default -> throw new IllegalArgumentException(NexmarkBench.unknownQuery(query));
        }
        env.execute("nexmark-" + query);
    }

    private static DataStream<Bid> bids(DataStream<Long> sequence) {
        return sequence.flatMap(new NexmarkFlinkFunctions.ToBid())
                .returns(TypeInformation.of(Bid.class))
                .assignTimestampsAndWatermarks(inOrder());
    }

    /** Persons on the main output, auctions on a side output, each event generated once. */
    private static SingleOutputStreamOperator<Person> personsAndAuctions(
            DataStream<Long> sequence) {
        return sequence.process(new NexmarkFlinkFunctions.PersonsAndAuctions())
                .returns(TypeInformation.of(Person.class));
    }

    private static <T extends Event> WatermarkStrategy<T> inOrder() {
        return WatermarkStrategy.<T>forMonotonousTimestamps()
                .withTimestampAssigner((event, ts) -> event.time());
    }

    private static void q1(DataStream<Bid> bids) {
        bids.map(
                        b ->
                                new EuroBid(
                                        b.auction(),
                                        b.bidder(),
                                        b.price() * NexmarkQueries.EUROS_PER_1000_DOLLARS / 1_000,
                                        b.time()))
                .returns(TypeInformation.of(EuroBid.class))
                .sinkTo(new DiscardingSink<>());
    }

    private static void q2(DataStream<Bid> bids) {
        bids.filter(b -> b.auction() % NexmarkQueries.Q2_AUCTION_MODULUS == 0)
                .map(b -> new AuctionPrice(b.auction(), b.price()))
                .returns(TypeInformation.of(AuctionPrice.class))
                .sinkTo(new DiscardingSink<>());
    }

    private static void q3(SingleOutputStreamOperator<Person> split) {
        DataStream<Person> persons =
                split.filter(p -> NexmarkQueries.Q3_STATES.contains(p.state()));
        DataStream<Auction> auctions =
                split.getSideOutput(NexmarkFlinkFunctions.AUCTIONS)
                        .filter(a -> a.category() == NexmarkQueries.Q3_CATEGORY);
        persons.keyBy(Person::id, Types.LONG)
                .connect(auctions.keyBy(Auction::seller, Types.LONG))
                .process(
                        new NexmarkFlinkFunctions.SellerJoin(),
                        TypeInformation.of(SellerAuction.class))
                .sinkTo(new DiscardingSink<>());
    }

    private static void q5(DataStream<Bid> bids) {
        bids.keyBy(Bid::auction, Types.LONG)
                .window(SlidingEventTimeWindows.of(NexmarkBench.Q5_SIZE, NexmarkBench.Q5_SLIDE))
                .aggregate(
                        new NexmarkFlinkFunctions.CountBids(),
                        new NexmarkFlinkFunctions.WithAuction(),
                        Types.LONG,
                        Types.LONG,
                        TypeInformation.of(AuctionCount.class))
                .keyBy(AuctionCount::windowEnd, Types.LONG)
                .window(TumblingEventTimeWindows.of(NexmarkBench.Q5_SLIDE))
                .reduce(new NexmarkFlinkFunctions.Hottest())
                .sinkTo(new DiscardingSink<>());
    }

    private static void q8(SingleOutputStreamOperator<Person> split) {
        DataStream<Person> persons = split.assignTimestampsAndWatermarks(inOrder());
        DataStream<Auction> auctions =
                split.getSideOutput(NexmarkFlinkFunctions.AUCTIONS)
                        .assignTimestampsAndWatermarks(inOrder());
        persons.join(auctions)
                .where(Person::id, Types.LONG)
                .equalTo(Auction::seller, Types.LONG)
                .window(TumblingEventTimeWindows.of(NexmarkBench.Q8_WINDOW))
                .apply(
                        (p, a) -> new NewSeller(p.id(), p.name(), a.id(), a.reserve()),
                        TypeInformation.of(NewSeller.class))
                .sinkTo(new DiscardingSink<>());
    }

    private static void q11(DataStream<Bid> bids) {
        bids.keyBy(Bid::bidder, Types.LONG)
                .window(EventTimeSessionWindows.withGap(NexmarkBench.Q11_GAP))
                .aggregate(
                        new NexmarkFlinkFunctions.CountBids(),
                        new NexmarkFlinkFunctions.Session(),
                        Types.LONG,
                        Types.LONG,
                        TypeInformation.of(BidderSession.class))
                .sinkTo(new DiscardingSink<>());
    }
}
