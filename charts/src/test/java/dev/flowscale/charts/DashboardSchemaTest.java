package dev.flowscale.charts;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Type-checks the dashboard against Grafana's schema: {@code npm ci} of the pinned
 * {@code @grafana/schema} and TypeScript (src/test/node/dashboard) in a copy under
 * target/dashboard-schema, then {@code tsc --noEmit}. Needs node, npm and the npm registry (or a
 * warm npm cache); without them it fails, as a schema check that did not run proves nothing.
 */
class DashboardSchemaTest {
    private static final Path SOURCES = Path.of("src", "test", "node", "dashboard");
    private static final List<String> FILES =
            List.of("package.json", "package-lock.json", "tsconfig.json", "dashboard.ts");
    private static final Duration NPM_TIMEOUT = Duration.ofMinutes(3);

    @Test
    void theDashboardTypeChecksAgainstGrafanasSchema() throws Exception {
        Path project = workingCopy();

        Command.Result install =
                Command.run(project, NPM_TIMEOUT, List.of("npm", "ci", "--no-audit", "--no-fund"));
        assertThat(install.succeeded())
                .as(
                        "npm ci of the pinned @grafana/schema and typescript (is the npm "
                                + "registry reachable?): %s",
                        install.describe())
                .isTrue();
        Command.Result check =
                Command.run(
                        project,
                        NPM_TIMEOUT,
                        List.of("npx", "tsc", "--noEmit", "-p", "tsconfig.json"));

        assertThat(check.succeeded())
                .as(
                        "the dashboard %s does not match Grafana's schema types: %s",
                        DashboardJson.FILE, check.describe())
                .isTrue();
    }

    /**
     * target/dashboard-schema with the module's layout, so that dashboard.ts imports the dashboard
     * by the same relative path as in the sources.
     */
    private static Path workingCopy() throws IOException {
        Path module = ChartsModule.dir();
        Path copy = ChartsModule.target().resolve("dashboard-schema");
        Path project = copy.resolve(SOURCES);
        Files.createDirectories(project);
        for (String file : FILES) {
            Files.copy(
                    module.resolve(SOURCES).resolve(file),
                    project.resolve(file),
                    StandardCopyOption.REPLACE_EXISTING);
        }
        Path dashboard = copy.resolve(DashboardJson.FILE);
        Files.createDirectories(dashboard.getParent());
        Files.copy(
                module.resolve(DashboardJson.FILE), dashboard, StandardCopyOption.REPLACE_EXISTING);
        return project;
    }
}
