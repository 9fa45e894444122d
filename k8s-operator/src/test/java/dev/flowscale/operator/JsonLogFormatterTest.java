package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

class JsonLogFormatterTest {
    private final JsonLogFormatter formatter = new JsonLogFormatter();

    @Test
    void rendersALogRecordAsOneLineOfJson() throws Exception {
        LogRecord record = new LogRecord(Level.WARNING, "job {0} \"wc\" rescale failed");
        record.setParameters(new Object[] {"jobs/wc"});
        record.setLoggerName("dev.flowscale.operator.JobAutoscaler");
        record.setThrown(new IllegalStateException("runner not ready"));
        String line = formatter.format(record);
        assertThat(line).endsWith(System.lineSeparator());
        assertThat(line.strip()).doesNotContain("\n");
        JsonNode json = new ObjectMapper().readTree(line);
        assertThat(json.path("level").asText()).isEqualTo("WARNING");
        assertThat(json.path("logger").asText()).isEqualTo("dev.flowscale.operator.JobAutoscaler");
        assertThat(json.path("message").asText()).isEqualTo("job jobs/wc \"wc\" rescale failed");
        assertThat(json.path("exception").asText())
                .contains("IllegalStateException: runner not ready");
        assertThat(json.path("time").asText()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
        assertThat(json.has("thread")).isTrue();
    }

    @Test
    void theLogLevelTakesTheHelmValuesNamesAndJavaLoggingNames() {
        assertThat(JsonLogFormatter.level(null)).isEqualTo(Level.INFO);
        assertThat(JsonLogFormatter.level("debug")).isEqualTo(Level.FINE);
        assertThat(JsonLogFormatter.level("TRACE")).isEqualTo(Level.FINEST);
        assertThat(JsonLogFormatter.level("WARN")).isEqualTo(Level.WARNING);
        assertThat(JsonLogFormatter.level("ERROR")).isEqualTo(Level.SEVERE);
        assertThat(JsonLogFormatter.level("FINE")).isEqualTo(Level.FINE);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> JsonLogFormatter.level("LOUD"))
                .hasMessageContaining("FLOWSCALE_LOG_LEVEL is 'LOUD'")
                .hasMessageContaining("DEBUG");
    }
}
