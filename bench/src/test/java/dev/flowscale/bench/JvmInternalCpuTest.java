package dev.flowscale.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class JvmInternalCpuTest {

    @Test
    void theJvmsOwnThreadsAreGroupedByTheirNames() {
        assertThat(JvmInternalCpu.group("GC Thread#0")).isEqualTo("GC");
        assertThat(JvmInternalCpu.group("G1 Conc#0")).isEqualTo("GC");
        assertThat(JvmInternalCpu.group("C2 CompilerThre")).isEqualTo("JIT");
        assertThat(JvmInternalCpu.group("C1 CompilerThre")).isEqualTo("JIT");
        assertThat(JvmInternalCpu.group("VM Thread")).isEqualTo("VM");
    }

    @Test
    void javaThreadsBelongToNoGroup() {
        assertThat(JvmInternalCpu.group("flowscale-wordc")).isNull();
        assertThat(JvmInternalCpu.group("main")).isNull();
    }

    @Test
    void theTimeBetweenTwoReadingsSumsEveryGroupsGain() {
        Map<String, Long> from = Map.of("GC", 10L, "JIT", 100L);
        Map<String, Long> to = Map.of("GC", 15L, "JIT", 130L, "VM", 7L);

        assertThat(JvmInternalCpu.between(from, to)).isEqualTo(5 + 30 + 7);
    }
}
