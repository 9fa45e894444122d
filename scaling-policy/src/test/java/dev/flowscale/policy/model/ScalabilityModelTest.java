package dev.flowscale.policy.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalInt;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ScalabilityModelTest {

    /** The definition: the first p in [1, max] whose capacity reaches the requirement. */
    private static OptionalInt scan(ScalabilityModel m, double required, int max) {
        for (int p = 1; p <= max; p++) {
            if (m.capacityAt(p) >= required * (1 - 1e-9)) {
                return OptionalInt.of(p);
            }
        }
        return OptionalInt.empty();
    }

    @Test
    void findsTheSameParallelismAsScanningEveryOneForAnyModel() {
        Random random = new Random(5);
        for (int i = 0; i < 3_000; i++) {
            ScalabilityModel m =
                    switch (i % 3) {
                        case 0 -> ScalabilityModel.linear(1 + random.nextDouble() * 1000, "linear");
                        case 1 ->
                                new ScalabilityModel(
                                        ScalabilityModel.Kind.POWER,
                                        1 + random.nextDouble() * 1000,
                                        0.01 + random.nextDouble() * 0.99,
                                        0,
                                        0,
                                        0,
                                        () -> "power");
                        default ->
                                new ScalabilityModel(
                                        ScalabilityModel.Kind.USL,
                                        1 + random.nextDouble() * 1000,
                                        1,
                                        random.nextDouble() * 0.2,
                                        random.nextDouble() * 0.01,
                                        0,
                                        () -> "usl");
                    };
            double required = random.nextDouble() * 20 * m.capacityAt(8);
            int max = 1 + random.nextInt(256);

            assertThat(m.smallestParallelismFor(required, max))
                    .as("%s for %.1f up to %d", m, required, max)
                    .isEqualTo(scan(m, required, max));
        }
    }

    @Test
    void needsOneInstanceForNoInputAndSaysWhenTheBoundIsTooLow() {
        ScalabilityModel m = ScalabilityModel.linear(100, "linear");

        assertThat(m.smallestParallelismFor(0, 4)).hasValue(1);
        assertThat(m.smallestParallelismFor(400, 4)).hasValue(4);
        assertThat(m.smallestParallelismFor(400.5, 4)).isEqualTo(OptionalInt.empty());
    }
}
