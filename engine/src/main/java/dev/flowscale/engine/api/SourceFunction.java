package dev.flowscale.engine.api;

/**
 * A parallel source. The engine asks it for one {@link SourceReader} per instance and pulls
 * records from that reader, so that it controls batching, backpressure and stopping.
 */
@FunctionalInterface
public interface SourceFunction<T> {
    SourceReader<T> createReader(RuntimeContext context);
}
