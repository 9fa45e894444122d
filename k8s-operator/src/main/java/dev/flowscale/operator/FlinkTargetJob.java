package dev.flowscale.operator;

import dev.flowscale.collector.CollectorException;
import dev.flowscale.collector.api.MetricsSample;
import dev.flowscale.collector.api.MetricsSource;
import dev.flowscale.flink.FlinkConnectorException;
import dev.flowscale.flink.FlinkJob;
import dev.flowscale.flink.FlinkJobRef;
import dev.flowscale.flink.FlinkRestClient;
import dev.flowscale.flink.FlinkRestMetricsSource;
import java.time.Clock;

/**
 * The Flink job a StreamJob targets, found by id or name through its cluster's REST API when first
 * needed and found again after any failure: the Flink Kubernetes operator's upgrades (savepoint or
 * last-state) start the job again under a new job id, and a loop must not fail to start only
 * because the JobManager is not up yet.
 */
final class FlinkTargetJob {
    private final FlinkRestClient rest;
    private final String idOrName;
    private FlinkJobRef ref;
    private FlinkRestMetricsSource source;

    FlinkTargetJob(FlinkRestClient rest, String idOrName) {
        this.rest = rest;
        this.idOrName = idOrName;
    }

    synchronized FlinkJobRef ref() {
        if (ref == null) {
            ref = FlinkJobRef.find(rest, idOrName);
        }
        return ref;
    }

    /** The job now; a failure forgets the job, so the next call finds it again. */
    FlinkJob read() {
        try {
            return ref().read();
        } catch (RuntimeException e) {
            forget();
            throw e;
        }
    }

    private synchronized void forget() {
        ref = null;
        source = null;
    }

    /** Samples the job with {@link FlinkRestMetricsSource}, finding it again after a failure. */
    MetricsSource metrics(Clock clock) {
        return new MetricsSource() {
            @Override
            public MetricsSample sample() {
                try {
                    return source(clock).sample();
                } catch (FlinkConnectorException | CollectorException e) {
                    forget();
                    throw e instanceof CollectorException c
                            ? c
                            : new CollectorException(e.getMessage(), e);
                }
            }

            @Override
            public String describe() {
                return "Flink job "
                        + (idOrName == null ? "(the only running one)" : idOrName)
                        + " at "
                        + rest.base();
            }
        };
    }

    private synchronized FlinkRestMetricsSource source(Clock clock) {
        if (source == null) {
            source = new FlinkRestMetricsSource(ref(), clock);
        }
        return source;
    }
}
