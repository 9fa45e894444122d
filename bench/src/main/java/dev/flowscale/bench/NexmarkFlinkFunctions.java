package dev.flowscale.bench;

import dev.flowscale.engine.examples.nexmark.Event;
import dev.flowscale.engine.examples.nexmark.Event.Auction;
import dev.flowscale.engine.examples.nexmark.Event.Bid;
import dev.flowscale.engine.examples.nexmark.Event.Person;
import dev.flowscale.engine.examples.nexmark.Results.AuctionCount;
import dev.flowscale.engine.examples.nexmark.Results.BidderSession;
import dev.flowscale.engine.examples.nexmark.Results.SellerAuction;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.ReduceFunction;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/** The functions of {@link NexmarkFlinkJobs}, each the Flink twin of the flowscale query's. */
final class NexmarkFlinkFunctions {
    static final OutputTag<Auction> AUCTIONS =
            new OutputTag<>("auctions", TypeInformation.of(Auction.class));

    private NexmarkFlinkFunctions() {}

    /** The Nexmark event of a sequence number, kept if it is a bid. */
    static final class ToBid implements FlatMapFunction<Long, Bid> {
        @Override
        public void flatMap(Long n, Collector<Bid> out) {
            if (NexmarkBench.event(n) instanceof Bid b) {
                out.collect(b);
            }
        }
    }

    /** Persons to the main output, auctions to {@link #AUCTIONS}; bids are dropped. */
    static final class PersonsAndAuctions extends ProcessFunction<Long, Person> {
        @Override
        public void processElement(Long n, Context ctx, Collector<Person> out) {
            Event event = NexmarkBench.event(n);
            if (event instanceof Person p) {
                out.collect(p);
            } else if (event instanceof Auction a) {
                ctx.output(AUCTIONS, a);
            }
        }
    }

    /** Q3's join, as flowscale's: a seller's auctions that come first wait for the seller. */
    static final class SellerJoin
            extends KeyedCoProcessFunction<Long, Person, Auction, SellerAuction> {
        private transient ValueState<Person> seller;
        private transient ListState<Auction> waiting;

        @Override
        public void open(OpenContext context) {
            seller =
                    getRuntimeContext()
                            .getState(new ValueStateDescriptor<>("seller", Person.class));
            waiting =
                    getRuntimeContext()
                            .getListState(
                                    new ListStateDescriptor<>("waiting-auctions", Auction.class));
        }

        @Override
        public void processElement1(Person person, Context ctx, Collector<SellerAuction> out)
                throws Exception {
            seller.update(person);
            for (Auction auction : waiting.get()) {
                out.collect(joined(person, auction));
            }
            waiting.clear();
        }

        @Override
        public void processElement2(Auction auction, Context ctx, Collector<SellerAuction> out)
                throws Exception {
            Person person = seller.value();
            if (person == null) {
                waiting.add(auction);
            } else {
                out.collect(joined(person, auction));
            }
        }

        private static SellerAuction joined(Person p, Auction a) {
            return new SellerAuction(p.name(), p.city(), p.state(), a.id());
        }
    }

    static final class CountBids implements AggregateFunction<Bid, Long, Long> {
        @Override
        public Long createAccumulator() {
            return 0L;
        }

        @Override
        public Long add(Bid bid, Long count) {
            return count + 1;
        }

        @Override
        public Long getResult(Long count) {
            return count;
        }

        @Override
        public Long merge(Long a, Long b) {
            return a + b;
        }
    }

    static final class WithAuction
            extends ProcessWindowFunction<Long, AuctionCount, Long, TimeWindow> {
        @Override
        public void process(
                Long auction, Context context, Iterable<Long> counts, Collector<AuctionCount> out) {
            out.collect(
                    new AuctionCount(auction, context.window().getEnd(), counts.iterator().next()));
        }
    }

    /** Q11's output: a bidder's bids in one session [start, end). */
    static final class Session
            extends ProcessWindowFunction<Long, BidderSession, Long, TimeWindow> {
        @Override
        public void process(
                Long bidder, Context context, Iterable<Long> counts, Collector<BidderSession> out) {
            TimeWindow w = context.window();
            out.collect(
                    new BidderSession(bidder, w.getStart(), w.getEnd(), counts.iterator().next()));
        }
    }

    /** The larger count; the smaller auction id on a tie, as flowscale's Q5. */
    static final class Hottest implements ReduceFunction<AuctionCount> {
        @Override
        public AuctionCount reduce(AuctionCount a, AuctionCount b) {
            if (a.count() != b.count()) {
                return a.count() > b.count() ? a : b;
            }
            return a.auction() <= b.auction() ? a : b;
        }
    }
}
