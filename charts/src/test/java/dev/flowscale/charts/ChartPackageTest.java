package dev.flowscale.charts;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;

import com.marcnuri.helm.Helm;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

class ChartPackageTest {

    @Test
    void thePackagedChartHoldsTheCrdDashboardSchemaAndExamples() throws IOException {
        Path destination = Files.createDirectories(Path.of("target", "package"));
        new Helm(FlowscaleChart.DIR).packageIt().withDestination(destination).call();

        List<String> entries = entries(destination.resolve("flowscale-0.1.0.tgz"));

        assertThat(entries)
                .contains(
                        "flowscale/Chart.yaml",
                        "flowscale/values.schema.json",
                        "flowscale/crds/streamjobs.flowscale.dev-v1.yml",
                        "flowscale/dashboards/flowscale-scaling.json",
                        "flowscale/templates/NOTES.txt",
                        "flowscale/examples/wordcount-auto.yaml",
                        "flowscale/README.md");
    }

    /** The file names of a gzipped tar archive, read from its 512-byte headers. */
    private static List<String> entries(Path archive) throws IOException {
        List<String> names = new ArrayList<>();
        try (InputStream in = new GZIPInputStream(Files.newInputStream(archive))) {
            byte[] header = new byte[512];
            while (in.readNBytes(header, 0, 512) == 512 && header[0] != 0) {
                names.add(new String(header, 0, 100, US_ASCII).trim().replace("\0", ""));
                long size = Long.parseLong(new String(header, 124, 11, US_ASCII).trim(), 8);
                in.skipNBytes((size + 511) / 512 * 512);
            }
        }
        return names;
    }
}
