package dev.flowscale.runner.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class MetricNameTest {
    private static final Pattern SERIES =
            Pattern.compile("^(flowscale_\\w+?)(\\{| )", Pattern.MULTILINE);

    @Test
    void eachPrometheusNameIsTheNameMicrometerExposesForTheMetricsDottedNameUnitAndKind() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        for (MetricName metric : MetricName.values()) {
            register(registry, metric);
        }
        Set<String> scraped =
                SERIES.matcher(registry.scrape())
                        .results()
                        .map(m -> m.group(1))
                        .collect(Collectors.toSet());
        Set<String> declared =
                Arrays.stream(MetricName.values())
                        .flatMap(m -> m.series().stream())
                        .collect(Collectors.toSet());
        assertThat(declared).containsAll(scraped);
        assertThat(scraped).containsAll(declared);
    }

    @Test
    void aSeriesNameLeadsBackToItsMetricAndAnUnknownOneToNone() {
        assertThat(MetricName.ofSeries("flowscale_useful_time_seconds_total"))
                .contains(MetricName.USEFUL_TIME);
        assertThat(MetricName.ofSeries("flowscale_controller_rescale_downtime_seconds_bucket"))
                .contains(MetricName.CONTROLLER_RESCALE_DOWNTIME);
        assertThat(MetricName.ofSeries("flowscale_useful_time_total")).isEmpty();
        assertThat(MetricName.ofSeries("flowscale_controller_rescale_downtime_seconds"))
                .as("a timer's base name")
                .isEmpty();
        assertThat(MetricName.named("flowscale_controller_rescale_downtime_seconds"))
                .contains(MetricName.CONTROLLER_RESCALE_DOWNTIME);
    }

    @Test
    void everyNameIsUnderTheFlowscalePrefix() {
        assertThat(MetricName.values())
                .allSatisfy(m -> assertThat(m.prometheus()).startsWith("flowscale_"));
    }

    private static void register(PrometheusMeterRegistry registry, MetricName metric) {
        switch (metric.kind()) {
            case COUNTER ->
                    Counter.builder(metric.micrometer())
                            .baseUnit(metric.unit())
                            .register(registry)
                            .increment();
            case GAUGE ->
                    Gauge.builder(metric.micrometer(), () -> 1)
                            .baseUnit(metric.unit())
                            .register(registry);
            case TIMER ->
                    Timer.builder(metric.micrometer())
                            .publishPercentileHistogram()
                            .minimumExpectedValue(Duration.ofMillis(100))
                            .maximumExpectedValue(Duration.ofSeconds(1))
                            .register(registry)
                            .record(Duration.ofMillis(200));
        }
    }
}
