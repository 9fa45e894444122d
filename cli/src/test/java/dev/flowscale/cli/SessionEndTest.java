package dev.flowscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.autoscaler.realizer.RescaleReport;
import dev.flowscale.policy.api.RescaleRecord;
import dev.flowscale.policy.api.ScalingDecision;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The end of a session: a rescale under way then is reported before the summary. */
class SessionEndTest {

    @Test
    void aRescaleUnderWayAtTheEndIsReportedBeforeTheSummary() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        Session.Output output =
                new Session.Output(
                        Duration.ofSeconds(1), Duration.ofSeconds(1), null, Map.of(), null);
        Session session =
                new Session(
                        new Session.Subject("job", "testing", "op=1", TestingRun::new),
                        RunCommand.parsed(List.of("wordcount")).settings().autoscaler(),
                        output,
                        out,
                        Clock.systemUTC());

        session.run();

        String printed = bytes.toString(StandardCharsets.UTF_8);
        assertThat(printed).contains("RESCALED").doesNotContain("RESCALE FAILED");
        assertThat(printed.indexOf("RESCALED")).isLessThan(printed.indexOf("Summary after"));
        assertThat(printed).contains("1 rescales");
    }

    /**
     * A run with one rescale under way from the start: it ends on its own, on another thread, once
     * the session asks after it; closed before that, it fails as an interrupted rescale would.
     */
    private static final class TestingRun implements ScaledRun {
        private final List<RunListener> listeners;
        private final AtomicBoolean reported = new AtomicBoolean();
        private volatile Map<String, Integer> parallelism = Map.of("op", 1);
        private volatile boolean finishing;

        TestingRun(List<RunListener> listeners) {
            this.listeners = listeners;
        }

        @Override
        public Optional<ScalingDecision> tick() {
            return Optional.empty();
        }

        @Override
        public Map<String, Integer> initialParallelism() {
            return Map.of("op", 1);
        }

        @Override
        public Map<String, Integer> parallelism() {
            return parallelism;
        }

        @Override
        public boolean ended() {
            return false;
        }

        @Override
        public double elapsed() {
            return 1;
        }

        @Override
        public boolean rescaling() {
            if (!finishing) {
                finishing = true;
                new Thread(() -> report(null)).start();
            }
            return !reported.get();
        }

        @Override
        public void close() {
            report("interrupted: the run closed");
        }

        private void report(String failure) {
            if (reported.get()) {
                return;
            }
            RescaleReport report =
                    new RescaleReport(
                            "job",
                            Instant.now(),
                            Map.of("op", 1),
                            Map.of("op", 2),
                            Optional.empty(),
                            Duration.ofMillis(5),
                            Optional.ofNullable(failure),
                            RescaleRecord.RESTART,
                            Optional.empty(),
                            "");
            if (failure == null) {
                parallelism = Map.of("op", 2);
            }
            listeners.forEach(l -> l.onRescale(1, report));
            reported.set(true);
        }
    }
}
