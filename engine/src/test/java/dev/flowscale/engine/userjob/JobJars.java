package dev.flowscale.engine.userjob;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/** Packs compiled test classes into a jar, as a user's build packages their job. */
public final class JobJars {
    private JobJars() {}

    /**
     * A jar at {@code jar} holding the test classes under {@code packageDir} (e.g.
     * com/example/jobs).
     */
    public static Path pack(Path jar, String packageDir) throws IOException, URISyntaxException {
        Path classes =
                Path.of(JobJars.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        try (OutputStream file = Files.newOutputStream(jar);
                JarOutputStream out = new JarOutputStream(file);
                Stream<Path> walk = Files.walk(classes.resolve(packageDir))) {
            for (Path f : walk.filter(Files::isRegularFile).toList()) {
                out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                Files.copy(f, out);
                out.closeEntry();
            }
        }
        return jar;
    }
}
