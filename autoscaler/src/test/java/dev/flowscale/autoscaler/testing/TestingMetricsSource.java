package dev.flowscale.autoscaler.testing;

import dev.flowscale.autoscaler.metrics.CollectorException;
import dev.flowscale.autoscaler.metrics.MetricsSample;
import dev.flowscale.autoscaler.metrics.MetricsSource;
import java.util.ArrayDeque;
import java.util.Deque;

/** A source that hands out scripted samples, or fails when told to. */
public final class TestingMetricsSource implements MetricsSource {
    private final Deque<Object> script = new ArrayDeque<>();

    public TestingMetricsSource then(MetricsSample sample) {
        script.add(sample);
        return this;
    }

    public TestingMetricsSource thenFail(String why) {
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
