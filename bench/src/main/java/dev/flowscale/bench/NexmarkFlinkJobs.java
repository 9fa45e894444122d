package dev.flowscale.bench;

import dev.flowscale.engine.examples.nexmark.Event.Bid;
import dev.flowscale.engine.examples.nexmark.NexmarkQueries;
import dev.flowscale.engine.examples.nexmark.Results.AuctionCount;
import dev.flowscale.engine.examples.nexmark.Results.EuroBid;
import java.time.Duration;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.functions.ReduceFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.assigners.SlidingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/**
 * Nexmark Q1 and Q5 on Flink in local mode, parallelism 1, default chaining, over the same
 * generated events as on flowscale ({@link NexmarkBench#event}, which counts each event on the
 * run's {@link SinkMeter}).
 */
final class NexmarkFlinkJobs {
    private NexmarkFlinkJobs() {}

    static void run(String query, long events, Duration size, Duration slide) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        DataStream<Bid> bids =
                env.fromSequence(0, events - 1)
                        .flatMap(new ToBid())
                        .returns(TypeInformation.of(Bid.class))
                        .assignTimestampsAndWatermarks(
                                WatermarkStrategy.<Bid>forMonotonousTimestamps()
                                        .withTimestampAssigner((b, ts) -> b.time()));
        if (query.equals("q1")) {
            bids.map(
                            b ->
                                    new EuroBid(
                                            b.auction(),
                                            b.bidder(),
                                            b.price()
                                                    * NexmarkQueries.EUROS_PER_1000_DOLLARS
                                                    / 1_000,
                                            b.time()))
                    .returns(TypeInformation.of(EuroBid.class))
                    .sinkTo(new DiscardingSink<>());
        } else {
            bids.keyBy(Bid::auction, Types.LONG)
                    .window(SlidingEventTimeWindows.of(size, slide))
                    .aggregate(
                            new CountBids(),
                            new WithAuction(),
                            Types.LONG,
                            Types.LONG,
                            TypeInformation.of(AuctionCount.class))
                    .keyBy(AuctionCount::windowEnd, Types.LONG)
                    .window(TumblingEventTimeWindows.of(slide))
                    .reduce(new Hottest())
                    .sinkTo(new DiscardingSink<>());
        }
        env.execute("nexmark-" + query);
    }

    /** The Nexmark event of a sequence number, kept if it is a bid. */
    static final class ToBid implements FlatMapFunction<Long, Bid> {
        @Override
        public void flatMap(Long n, Collector<Bid> out) {
            if (NexmarkBench.event(n) instanceof Bid b) {
                out.collect(b);
            }
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
