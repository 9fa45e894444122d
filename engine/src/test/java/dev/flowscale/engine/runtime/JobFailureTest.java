package dev.flowscale.engine.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.JobFailedException;
import dev.flowscale.engine.api.RuntimeContext;
import dev.flowscale.engine.api.SourceFunction;
import dev.flowscale.engine.api.SourceReader;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class JobFailureTest {

    @Test
    void aThrowingUserFunctionFailsTheJobNamingOperatorAndInstance() throws Exception {
        JobBuilder job = JobBuilder.named("failing");
        job.source("src", Sources.generator(Long.MAX_VALUE, seq -> seq))
                .parallelism(2)
                .map(
                        "explode",
                        x -> {
                            if (x == 5_000) {
                                throw new IllegalStateException("bad record " + x);
                            }
                            return x;
                        })
                .parallelism(2)
                .sink("sink", Sinks.counting());
        RunningJob running = job.start();
        assertThatThrownBy(() -> running.await(Duration.ofSeconds(20)))
                .isInstanceOf(JobFailedException.class)
                .hasMessageContaining("job 'failing'")
                .hasMessageMatching(
                        "(?s).*operator 'explode' instance [01]/2 failed.*bad record 5000.*")
                .hasRootCauseInstanceOf(IllegalStateException.class);
        assertThat(running.status()).isEqualTo(RunningJob.Status.FAILED);
        running.close();
        assertThat(Thread.getAllStackTraces().keySet())
                .noneMatch(t -> t.getName().startsWith("flowscale-failing-"));
    }

    @Test
    void aThrowingKeySelectorFailsTheJobNamingTheProducer() throws Exception {
        JobBuilder job = JobBuilder.named("badkey");
        job.source("src", Sources.sequence(100))
                .map("text", x -> "w" + x)
                .keyBy(w -> w.length() < 3 ? w : null)
                .process("count", dev.flowscale.engine.examples.WordCount.CountWords::new)
                .sink("sink", Sinks.counting());
        try (RunningJob running = job.start()) {
            assertThatThrownBy(running::await)
                    .isInstanceOf(JobFailedException.class)
                    .hasMessageContaining("operator 'text' instance 0/1")
                    .hasMessageContaining("key selector returned null");
        }
    }

    @Test
    void aSourceThatReportsANegativeBacklogFailsTheJobNamingItAndTheFix() throws Exception {
        JobBuilder job = JobBuilder.named("negative");
        job.source("owes", new OwingMinusOne()).sink("sink", Sinks.counting());
        try (RunningJob running = job.start()) {
            assertThatThrownBy(() -> running.await(Duration.ofSeconds(20)))
                    .isInstanceOf(JobFailedException.class)
                    .hasMessageContaining("operator 'owes' instance 0/1")
                    .hasMessageContaining("reports a backlog of -1")
                    .hasMessageContaining("or null while the reader cannot tell");
        }
    }

    /**
     * Emits nothing and says it owes -1 records: a sentinel the contract refuses (null is unknown).
     */
    private static final class OwingMinusOne implements SourceFunction<Long>, SourceReader<Long> {
        @Override
        public SourceReader<Long> createReader(RuntimeContext context) {
            return this;
        }

        @Override
        public int poll(Collector<Long> out, int max) {
            return 0;
        }

        @Override
        public Long backlog() {
            return -1L;
        }
    }

    @Test
    void cancelStopsAnEndlessJob() throws Exception {
        JobBuilder job = JobBuilder.named("endless");
        job.source("src", Sources.generator(Long.MAX_VALUE, seq -> seq))
                .sink("sink", Sinks.counting());
        RunningJob running = job.start();
        running.cancel();
        assertThat(running.await(Duration.ofSeconds(10))).isTrue();
        assertThat(running.status()).isEqualTo(RunningJob.Status.CANCELLED);
        running.close();
    }

    @Test
    void stopDrainsTheRecordsInFlight() throws Exception {
        Sinks.CountingSink<Long> sink = Sinks.counting();
        JobBuilder job = JobBuilder.named("drain");
        job.source("src", Sources.generator(Long.MAX_VALUE, seq -> seq))
                .map("m", x -> x)
                .sink("sink", sink);
        try (RunningJob running = job.start()) {
            while (running.metrics().instancesOf("src").get(0).recordsOut() < 10_000) {
                Thread.onSpinWait();
            }
            running.stop();
            assertThat(running.await(Duration.ofSeconds(10))).isTrue();
            assertThat(running.status()).isEqualTo(RunningJob.Status.FINISHED);
            assertThat(sink.count())
                    .isEqualTo(running.metrics().instancesOf("src").get(0).recordsOut());
        }
    }
}
