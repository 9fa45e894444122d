package dev.flowscale.collector.window;

import dev.flowscale.collector.CollectorException;
import dev.flowscale.collector.api.MetricsSample;
import dev.flowscale.collector.api.MetricsSource;
import java.util.ArrayDeque;
import java.util.Deque;

/** A source that hands out scripted samples, or fails when told to. */
final class TestingMetricsSource implements MetricsSource {
    private final Deque<Object> script = new ArrayDeque<>();

    TestingMetricsSource then(MetricsSample sample) {
        script.add(sample);
        return this;
    }

    TestingMetricsSource thenFail(String why) {
        script.add(new CollectorException(why));
        return this;
    }

    @Override
    public MetricsSample sample() {
        Object next = script.poll();
        if (next instanceof CollectorException e) {
            throw e;
        }
        if (next == null) {
            throw new CollectorException("testing source: script exhausted");
        }
        return (MetricsSample) next;
    }

    @Override
    public String describe() {
        return "testing source";
    }
}
