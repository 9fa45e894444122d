package dev.flowscale.policy.sim;

import dev.flowscale.policy.api.PolicyConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class DebugTest {
    @Test
    void debug() {
        PolicyConfig config = PolicyConfig.builder().catchUpDuration(Duration.ofMinutes(10)).build();
        Trajectory t = Simulation.ds2(WordCountSimulationTest.WORD_COUNT, config, SimulationSettings.defaults()).run(Duration.ofMinutes(40));
        t.decisions().stream().filter(d -> !d.operators().isEmpty()).limit(12).forEach(d -> System.out.println(d.explain()));
        for (long s = 0; s < 2400; s += 60) System.out.println(s + " " + t.backlogAt(Math.max(1, s)) + " " + t.points().get((int) Math.max(0, s - 1)).parallelism());
    }
}
