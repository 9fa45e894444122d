package com.example.pageviews;

import dev.flowscale.engine.api.SinkFunction;
import dev.flowscale.engine.job.JobArguments;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.job.StreamingJob;
import dev.flowscale.engine.source.RateProfile;

/**
 * Page views per page from a click stream: JSON clicks → parse (drop bots) → key by page → count →
 * sink. Run it with {@code flowscale-engine run --job-jar flowscale-examples-job.jar --job-class
 * com.example.pageviews.PageViewsJob --rate 500}.
 *
 * <p>Options: {@code --rate} (clicks/s, or {@code max}; default 1000), {@code --limit} (clicks in
 * all; default endless), {@code --pages} (default 1000), {@code --users} (default 100000), {@code
 * --bot-percent} (default 10), {@code --print} (print every count).
 */
public final class PageViewsJob implements StreamingJob {
    /** Operator ids: a savepoint's state is restored by these, so they never change. */
    public static final String SOURCE = "clicks";

    public static final String PARSE = "parse";
    public static final String COUNT = "count";
    public static final String SINK = "sink";

    @Override
    public JobBuilder build(JobArguments arguments) {
        RateProfile rate = arguments.rate("rate", "1000");
        long limit = arguments.integer("limit", Long.MAX_VALUE, 1, Long.MAX_VALUE);
        ClickGenerator clicks =
                new ClickGenerator(
                        (int) arguments.integer("pages", 1_000, 1, 10_000_000),
                        (int) arguments.integer("users", 100_000, 1, Integer.MAX_VALUE),
                        (int) arguments.integer("bot-percent", 10, 0, 100));
        return build(
                rate, limit, clicks, arguments.flag("print") ? Sinks.printing() : Sinks.counting());
    }

    /** The job's dataflow; {@code rate} null means as fast as it goes. */
    public static JobBuilder build(
            RateProfile rate,
            long limit,
            ClickGenerator clicks,
            SinkFunction<? super PageCount> sink) {
        JobBuilder job = JobBuilder.named("page-views");
        job.source(SOURCE, Sources.replayable(rate, limit, clicks::click))
                .flatMap(PARSE, new ParseClicks())
                .keyBy(Click::page)
                .process(COUNT, CountPerPage::new)
                .sink(SINK, sink);
        return job;
    }
}
