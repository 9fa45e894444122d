package dev.flowscale.policy.ds2;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DecimalsTest {

    private static void assertAsFormatter(double value, int places) {
        String expected = String.format(Locale.ROOT, "%." + places + "f", value);
        assertThat(Decimals.fixed(new StringBuilder(), value, places).toString())
                .as("%s to %d places", value, places)
                .isEqualTo(expected);
    }

    @Test
    void writesWhatTheFormatterWritesAtTheHalvesAndEdges() {
        double[] values = {
            0,
            -0.0,
            0.05,
            0.15,
            0.25,
            0.35,
            1.005,
            2.675,
            1.45,
            9.95,
            99.95,
            0.005,
            0.045,
            1e-7,
            123456789.05,
            1e15 + 0.5,
            1e21,
            1.7976931348623157e308,
            Double.MIN_VALUE,
            -1.25,
            -0.04,
            Double.NaN,
            Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY
        };
        for (double v : values) {
            for (int places = 0; places <= 3; places++) {
                assertAsFormatter(v, places);
            }
        }
    }

    @Test
    void writesWhatTheFormatterWritesForRandomRatesAndShares() {
        Random random = new Random(28);
        for (int i = 0; i < 10_000; i++) {
            double rate =
                    switch (i % 4) {
                        case 0 -> random.nextDouble() * 1e6;
                        case 1 -> random.nextInt(1_000_000) / 100.0 + 0.005;
                        case 2 -> random.nextInt(100_000) / 20.0;
                        default -> random.nextDouble();
                    };
            assertAsFormatter(rate, 0);
            assertAsFormatter(rate, 1);
            assertAsFormatter(rate, 2);
        }
    }
}
