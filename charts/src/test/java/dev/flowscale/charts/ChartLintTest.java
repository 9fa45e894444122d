package dev.flowscale.charts;

import static org.assertj.core.api.Assertions.assertThat;

import com.marcnuri.helm.LintResult;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

class ChartLintTest {
    static final List<ValuesCase> CASES = ValuesCase.DOCUMENTED;

    @ParameterizedTest(name = "{0}")
    @FieldSource("CASES")
    void strictLintPassesForEveryDocumentedCombination(ValuesCase values) {
        LintResult result = FlowscaleChart.lint(values);

        assertThat(result.isFailed())
                .as("helm lint --strict of '%s': %s", values, result.getMessages())
                .isFalse();
        assertThat(result.getMessages())
                .as("lint messages of '%s'", values)
                .noneMatch(m -> m.contains("[WARNING]") || m.contains("[ERROR]"));
    }

    @Test
    void strictLintFailsForValuesTheSchemaRejects() {
        LintResult result =
                FlowscaleChart.lint(new ValuesCase("lint bad values", "logLevel: LOUD\n"));

        assertThat(result.isFailed()).isTrue();
        assertThat(result.getMessages()).anyMatch(m -> m.contains("/logLevel"));
    }
}
