package dev.flowscale.policy.ds2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.policy.PolicyException;
import org.junit.jupiter.api.Test;

class KeyGroupAlignmentTest {

    @Test
    void picksTheNextDivisorWithinTheAllowedIncrease() {
        assertThat(KeyGroupAlignment.align(15, 128, 0.1, 128)).isEqualTo(16);
        assertThat(KeyGroupAlignment.align(30, 128, 0.1, 128)).isEqualTo(32);
    }

    @Test
    void keepsAParallelismThatAlreadyDivides() {
        assertThat(KeyGroupAlignment.align(8, 128, 0.5, 128)).isEqualTo(8);
    }

    @Test
    void keepsTheParallelismWhenTheNextDivisorIsTooFarOrAboveTheBound() {
        assertThat(KeyGroupAlignment.align(10, 128, 0.25, 128)).isEqualTo(10);
        assertThat(KeyGroupAlignment.align(15, 128, 0.1, 15)).isEqualTo(15);
    }

    @Test
    void rejectsNonPositiveArguments() {
        assertThatThrownBy(() -> KeyGroupAlignment.align(0, 128, 0.1, 128))
                .isInstanceOf(PolicyException.class);
    }
}
