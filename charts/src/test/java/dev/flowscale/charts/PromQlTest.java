package dev.flowscale.charts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PromQlTest {
    private static final Map<String, String> VARIABLES =
            Map.of("job", "wordcount", "__rate_interval", "15s");

    @Test
    void bothFormsOfAVariableAreReplaced() {
        assertThat(PromQl.substitute("rate(x{job=~\"$job\"}[${__rate_interval}])", VARIABLES))
                .isEqualTo("rate(x{job=~\"wordcount\"}[15s])");
    }

    @Test
    void anUnknownVariableFailsNamingIt() {
        assertThatThrownBy(() -> PromQl.substitute("x[$__range]", VARIABLES))
                .hasMessageContaining("$__range");
    }
}
