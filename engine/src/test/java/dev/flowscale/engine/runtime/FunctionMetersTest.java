package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.OperatorRuntimeContext;
import dev.flowscale.engine.api.ProcessFunction;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A function's own meters land in the job's registry, as the Kafka source's lag per topic. */
class FunctionMetersTest {
    @Test
    void aFunctionRegistersItsMetersInTheJobsRegistryTaggedByInstance() throws Exception {
        MeterRegistry registry = new SimpleMeterRegistry();
        JobBuilder job = JobBuilder.named("meters");
        job.source("numbers", Sources.generator(1_000, seq -> seq))
                .process("counted", CountingFunction::new)
                .parallelism(2)
                .sink("out", Sinks.counting());
        try (RunningJob running = job.start(JobConfig.defaults().withMeterRegistry(registry))) {
            assertThat(running.await(Duration.ofSeconds(30))).as("the job ends").isTrue();
        }
        double total =
                registry.find("test.records").counters().stream().mapToDouble(Counter::count).sum();
        assertThat(registry.find("test.records").tag("instance", "0").counter()).isNotNull();
        assertThat(registry.find("test.records").tag("instance", "1").counter()).isNotNull();
        assertThat(total).isEqualTo(1_000);
    }

    @Test
    void aJobWithoutMetersGivesItsFunctionsARegistryThatRecordsNothing() {
        TaskContext context = new TaskContext("job", "op", 0, 1, 128, null);
        Counter counter = Counter.builder("test.kept").register(context.meterRegistry());
        counter.increment();

        assertThat(counter.count()).isZero();
    }

    private static final class CountingFunction extends ProcessFunction<Long, Long> {
        private Counter records;

        @Override
        public void open(OperatorRuntimeContext context) {
            records =
                    Counter.builder("test.records")
                            .tag("instance", Integer.toString(context.instanceIndex()))
                            .register(context.meterRegistry());
        }

        @Override
        public void processElement(Long value, Collector<Long> out) {
            records.increment();
            out.collect(value);
        }
    }
}
