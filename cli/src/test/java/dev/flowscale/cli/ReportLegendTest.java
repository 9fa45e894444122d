package dev.flowscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The report's legend names a planned source rate only where the charts draw one. */
class ReportLegendTest {
    @Test
    void aRunWithoutAPlannedRateHasNoPlannedRateInItsLegend() {
        assertThat(ReportText.legend(false))
                .contains("observed (per second")
                .doesNotContain("planned")
                .doesNotContain(HtmlReport.PLANNED);
    }

    @Test
    void aGeneratedLoadsPlannedRateIsInTheLegend() {
        assertThat(ReportText.legend(true)).contains("planned source rate (--rate)");
    }
}
