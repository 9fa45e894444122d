package dev.flowscale.engine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.runner.api.RunnerJobs;
import org.junit.jupiter.api.Test;

class BuiltinJobsTest {
    @Test
    void theCatalogueRunsExactlyTheJobsTheRunnerContractNames() {
        // The operator checks spec.job.builtin against RunnerJobs without loading the engine.
        assertThat(BuiltinJobs.NAMES).containsExactlyInAnyOrderElementsOf(RunnerJobs.BUILTIN);
    }
}
