package dev.flowscale.policy.settings;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/autoscaler-settings.md holds the settings table as users read it; this test writes the
 * expected table from {@link Setting} and compares, so the doc cannot drift from the code. Run with
 * {@code -Dflowscale.docs.update=true} to rewrite the table after changing a setting.
 */
class SettingsDocTest {

    private static final Path DOC = Path.of("..", "docs", "autoscaler-settings.md");
    private static final String BEGIN =
            "<!-- settings table: generated from Setting, checked by SettingsDocTest -->";
    private static final String END = "<!-- end of settings table -->";

    static String table() {
        StringBuilder sb = new StringBuilder(BEGIN).append('\n');
        sb.append(
                "| CRD field / Helm key | command-line option | cluster default | local default | meaning |\n");
        sb.append("|---|---|---|---|---|\n");
        Stream.of(Setting.values())
                .forEach(
                        s ->
                                sb.append(
                                        String.format(
                                                "| `%s` | `--%s` | `%s` | `%s` | %s |%n",
                                                s.field(),
                                                s.option(),
                                                s.defaultText(Setting.Profile.CLUSTER),
                                                s.defaultText(Setting.Profile.LOCAL),
                                                s.description())));
        return sb.append(END).toString();
    }

    @Test
    void theDocsTableIsTheSettingsTable() throws IOException {
        String doc = Files.readString(DOC);
        int from = doc.indexOf(BEGIN);
        int to = doc.indexOf(END);
        assertThat(from).as("the table's markers in " + DOC).isNotNegative();
        String expected = doc.substring(0, from) + table() + doc.substring(to + END.length());
        if (Boolean.getBoolean("flowscale.docs.update")) {
            Files.writeString(DOC, expected);
            doc = expected;
        }
        assertThat(doc)
                .as(DOC + " (rewrite with -Dflowscale.docs.update=true)")
                .isEqualTo(expected);
    }

    @Test
    void everySettingHasOneFieldAndOneOption() {
        List<String> fields = Stream.of(Setting.values()).map(Setting::field).toList();
        assertThat(fields).doesNotHaveDuplicates().allMatch(f -> f.matches("[a-z][A-Za-z]+"));
        assertThat(Stream.of(Setting.values()).map(Setting::option))
                .allMatch(o -> o.matches("[a-z][a-z-]+"));
    }
}
