package dev.flowscale.charts;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScrapeTargetsTest {
    @TempDir Path dir;

    @Test
    void theFileListsEveryEndpointAsHostAndPortInOneTargetGroup() throws Exception {
        ScrapeTargets targets = new ScrapeTargets(dir.resolve("targets.json"));

        targets.set(
                List.of(URI.create("http://127.0.0.1:9249"), URI.create("http://127.0.0.1:40123")));

        assertThat(new ObjectMapper().readTree(targets.file().toFile()).get(0).get("targets"))
                .extracting(n -> n.asText())
                .containsExactly("127.0.0.1:9249", "127.0.0.1:40123");
    }

    @Test
    void aNewSetReplacesTheOldTargetsAndLeavesNoTemporaryFile() throws Exception {
        ScrapeTargets targets = new ScrapeTargets(dir.resolve("targets.json"));
        targets.set(List.of(URI.create("http://127.0.0.1:1111")));

        targets.set(List.of(URI.create("http://127.0.0.1:2222")));

        assertThat(Files.readString(targets.file())).contains("2222").doesNotContain("1111");
        try (var files = Files.list(dir)) {
            assertThat(files).containsExactly(targets.file());
        }
    }
}
