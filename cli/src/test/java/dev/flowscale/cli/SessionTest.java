package dev.flowscale.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.engine.api.JobFailedException;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.source.RateProfile;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SessionTest {

    @Test
    void aRunWhoseJobFailsStillWritesItsReportSayingItFailed(@TempDir Path dir) throws Exception {
        JobBuilder builder = JobBuilder.named("fragile");
        builder.source("src", Sources.generator(RateProfile.constant(500), seq -> seq))
                .map(
                        "breaks",
                        x -> {
                            if (x == 1500) {
                                throw new IllegalStateException("record 1500 is poison");
                            }
                            return x;
                        })
                .sink("sink", Sinks.counting());
        JobGraph graph = builder.build();
        RunCommand options =
                RunCommand.parsed(
                        List.of(
                                "wordcount",
                                "--duration",
                                "60s",
                                "--report",
                                dir.resolve("r.html").toString(),
                                "--savepoint-dir",
                                dir.toString(),
                                "--mode",
                                "recommend"));
        Session.Output output = options.output();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Session session =
                new Session(
                        graph,
                        options.settings(),
                        new SimpleMeterRegistry(),
                        output,
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        Clock.systemUTC());

        assertThatThrownBy(session::run)
                .isInstanceOf(JobFailedException.class)
                .hasMessageContaining("poison");

        String html = Files.readString(dir.resolve("r.html"));
        assertThat(html).contains("fragile").contains("failed").contains("<svg");
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("report: " + dir.resolve("r.html"));
    }
}
