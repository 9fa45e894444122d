package dev.flowscale.charts;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class AnnotationTest {
    @Test
    void theChangeLabelSplitsIntoTheChangeOfEachOperator() {
        Annotation annotation = new Annotation(0, "split 1→5, count 1→10", "2026-11-29T18:00:00Z");

        assertThat(annotation.changes()).isEqualTo(Map.of("count", "1→10", "split", "1→5"));
    }
}
