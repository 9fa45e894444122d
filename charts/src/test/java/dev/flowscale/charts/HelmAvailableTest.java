package dev.flowscale.charts;

import static org.assertj.core.api.Assertions.assertThat;

import com.marcnuri.helm.Helm;
import org.junit.jupiter.api.Test;

class HelmAvailableTest {
    @Test
    void embeddedHelmRuns() {
        assertThat(Helm.version().call()).startsWith("v3");
    }
}
