package dev.flowscale.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A real autoscaled run writes its report, and headless Chromium (Debian package {@code chromium})
 * renders it: the screenshot is not blank and the DOM holds every chart and series. The page and
 * its screenshot stay in target/report-it/ for a person to look at.
 */
class HtmlReportIT {
    private static final Path DIR = Path.of("target", "report-it").toAbsolutePath();
    private static final List<String> OPERATORS = List.of("source", "map1", "map2", "sink");
    private static Path report;

    @BeforeAll
    static void runAJobThatRescales() throws Exception {
        Files.createDirectories(DIR);
        report = DIR.resolve("report.html");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code =
                FlowscaleMain.run(
                        List.of(
                                "run",
                                "chain",
                                "--stages",
                                "2",
                                "--stage-cost",
                                "sleep:5ms",
                                "--rate",
                                "steps:0s=120,10s=320",
                                "--policy-interval",
                                "3s",
                                "--warm-up",
                                "1s",
                                "--catch-up",
                                "10s",
                                "--duration",
                                "24s",
                                "--print-interval",
                                "10s",
                                "--report",
                                report.toString(),
                                "--savepoint-dir",
                                DIR.resolve("data").toString()),
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        System.err);
        assertThat(code).as(out.toString(StandardCharsets.UTF_8)).isZero();
    }

    @Test
    void theReportHasAHeaderEverySeriesAndExplainsBlockedDecisions() throws IOException {
        String html = Files.readString(report);
        assertThat(html)
                .contains("completed, ")
                .contains(" UTC to ")
                .contains("--stage-cost sleep:5ms")
                .contains("time since start (s)")
                .contains("records/s")
                .contains("instances");
        assertThat(count(html, "<svg class=\"chart\""))
                .as("3 per operator and the source's backlog")
                .isEqualTo(3 * 4 + 1);
        assertThat(seriesNames(html)).containsAll(expectedSeries());
        if (html.contains("METRICS_MISSING")) {
            assertThat(html).contains("DS2 waits for a full metrics window of it before deciding");
        }
        assertThat(html).doesNotContain("<script");
    }

    @Test
    void chromiumRendersTheReportWithEveryChartAndSeries() throws Exception {
        Optional<Path> chromium = chromium();
        assumeTrue(
                chromium.isPresent(),
                "chromium is not installed (apt-get install -y chromium, as .ci/run does);"
                        + " the report is not rendered");
        Path png = DIR.resolve("report.png");
        Files.deleteIfExists(png);
        run(
                chromium.get(),
                "--screenshot=" + png,
                "--window-size=1400,2600",
                report.toUri().toString());
        String dom = run(chromium.get(), "--dump-dom", report.toUri().toString());

        assertThat(png).isRegularFile();
        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image.getWidth()).isEqualTo(1400);
        assertThat(distinctColours(image)).as("a rendered page, not a blank one").isGreaterThan(50);
        assertThat(count(dom, "<svg class=\"chart\"")).isEqualTo(3 * 4 + 1);
        assertThat(seriesNames(dom)).hasSize(expectedSeries().size()).containsAll(expectedSeries());
        assertThat(count(dom, "stroke-dasharray=\"6 3\""))
                .as("DS2 target lines, one per rate chart")
                .isEqualTo(OPERATORS.size());
    }

    private static List<String> expectedSeries() {
        List<String> names = new ArrayList<>(List.of("source planned (--rate)", "source backlog"));
        for (String op : OPERATORS) {
            names.addAll(
                    List.of(
                            op + " observed",
                            op + " DS2 target",
                            op + " parallelism",
                            op + " backpressure"));
        }
        return names;
    }

    private static List<String> seriesNames(String html) {
        Matcher m = Pattern.compile("data-series=\"([^\"]+)\"").matcher(html);
        List<String> names = new ArrayList<>();
        while (m.find()) {
            names.add(m.group(1).replace("&gt;", ">"));
        }
        return names;
    }

    private static int count(String text, String what) {
        return text.split(Pattern.quote(what), -1).length - 1;
    }

    private static int distinctColours(BufferedImage image) {
        Set<Integer> colours = new HashSet<>();
        for (int y = 0; y < image.getHeight(); y += 3) {
            for (int x = 0; x < image.getWidth(); x += 3) {
                colours.add(image.getRGB(x, y));
            }
        }
        return colours.size();
    }

    private static Optional<Path> chromium() {
        return Stream.of("/usr/bin/chromium", "/usr/bin/chromium-browser")
                .map(Path::of)
                .filter(Files::isExecutable)
                .findFirst();
    }

    /**
     * Runs headless Chromium with a fresh profile and no network use of its own; returns its
     * stdout.
     */
    private static String run(Path chromium, String... args) throws Exception {
        Path profile = Files.createTempDirectory("chromium-profile");
        List<String> command =
                new ArrayList<>(
                        List.of(
                                chromium.toString(),
                                "--headless",
                                "--no-sandbox",
                                "--disable-gpu",
                                "--disable-quic",
                                "--no-first-run",
                                "--disable-background-networking",
                                "--disable-component-update",
                                "--disable-sync",
                                "--hide-scrollbars",
                                "--user-data-dir=" + profile));
        command.addAll(List.of(args));
        Process process =
                new ProcessBuilder(command)
                        .redirectError(DIR.resolve("chromium.log").toFile())
                        .start();
        byte[] stdout = process.getInputStream().readAllBytes();
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("chromium finished").isTrue();
        assertThat(process.exitValue())
                .as("chromium exit code; see " + DIR.resolve("chromium.log"))
                .isZero();
        return new String(stdout, StandardCharsets.UTF_8);
    }
}
