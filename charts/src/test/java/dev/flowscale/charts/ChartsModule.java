package dev.flowscale.charts;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the charts module lives: Maven runs tests in it ({@code basedir}); an IDE may run them
 * elsewhere.
 */
final class ChartsModule {
    private ChartsModule() {}

    static Path dir() {
        Path base = Path.of(System.getProperty("basedir", "")).toAbsolutePath();
        if (Files.isDirectory(base.resolve("flowscale"))) {
            return base;
        }
        Path nested = base.resolve("charts");
        if (Files.isDirectory(nested.resolve("flowscale"))) {
            return nested;
        }
        throw new AssertionError(
                "cannot find the charts module from "
                        + base
                        + "; run the tests from it or the "
                        + "repository root");
    }

    static Path target() {
        return dir().resolve("target");
    }
}
