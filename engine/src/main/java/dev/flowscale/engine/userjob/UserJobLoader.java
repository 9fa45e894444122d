package dev.flowscale.engine.userjob;

import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.job.StreamingJob;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Finds a user's {@link StreamingJob} class ({@code --job-class}) in the user's jars ({@code
 * --job-jar}: jar files or folders of jars, separated by {@value File#pathSeparator}) and creates
 * it. The jars get their own child-first class loader ({@link UserJobClassLoader}); without {@code
 * --job-jar} the class comes from the engine's class path (an image that put the job's classes
 * there, e.g. one built by Jib). Every error names the option and the fix.
 */
public final class UserJobLoader {
    private UserJobLoader() {}

    /**
     * @param jobJar the {@code --job-jar} value, or null
     * @param jobClass the {@code --job-class} value
     * @param engine the class loader of the engine (the parent of the job's)
     */
    public static UserJob load(String jobJar, String jobClass, ClassLoader engine) {
        if (jobClass == null || jobClass.isBlank()) {
            throw new InvalidJobException(
                    "option --job-class is missing: name the class in --job-jar that implements "
                            + StreamingJob.class.getName()
                            + ", e.g. --job-class com.example.MyJob");
        }
        ClassLoader loader = jobJar == null ? engine : new UserJobClassLoader(urls(jobJar), engine);
        try {
            return new UserJob(instantiate(classNamed(jobClass, jobJar, loader)), loader);
        } catch (RuntimeException e) {
            closeQuietly(loader, e);
            throw e;
        }
    }

    private static URL[] urls(String jobJar) {
        List<URL> urls = new ArrayList<>();
        for (String part : jobJar.split(File.pathSeparator)) {
            Path path = Path.of(part);
            if (Files.isDirectory(path)) {
                jarsUnder(path).forEach(jar -> urls.add(url(jar)));
            } else if (Files.isRegularFile(path) && part.endsWith(".jar")) {
                urls.add(url(path));
            } else {
                throw new InvalidJobException(
                        "option --job-jar "
                                + part
                                + " is not a jar file or a folder of jars;"
                                + " give the path of the job's jar (e.g. target/my-job.jar)");
            }
        }
        if (urls.isEmpty()) {
            throw new InvalidJobException(
                    "option --job-jar " + jobJar + " holds no .jar file; copy the job's jar there");
        }
        return urls.toArray(URL[]::new);
    }

    /**
     * Every jar in a folder and its subfolders (Jib's layout has classpath/ and libs/), in a stable
     * order.
     */
    private static List<Path> jarsUnder(Path folder) {
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(f -> f.toString().endsWith(".jar") && Files.isRegularFile(f))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new InvalidJobException(
                    "option --job-jar "
                            + folder
                            + " cannot be listed ("
                            + e.getMessage()
                            + "); make the folder readable");
        }
    }

    private static URL url(Path jar) {
        try {
            return jar.toAbsolutePath().toUri().toURL();
        } catch (MalformedURLException e) {
            throw new InvalidJobException(
                    "option --job-jar " + jar + " is not a valid path: " + e.getMessage());
        }
    }

    private static Class<?> classNamed(String jobClass, String jobJar, ClassLoader loader) {
        Class<?> type;
        try {
            type = Class.forName(jobClass, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new InvalidJobException(
                    "option --job-class "
                            + jobClass
                            + ": no such class in "
                            + (jobJar == null
                                    ? "the runner's class path; give the job's jar with --job-jar"
                                    : "--job-jar "
                                            + jobJar
                                            + "; check the class name (package included) and that the jar holds it"));
        }
        if (!StreamingJob.class.isAssignableFrom(type)) {
            throw new InvalidJobException(
                    "option --job-class "
                            + jobClass
                            + " does not implement "
                            + StreamingJob.class.getName()
                            + "; implement it (its build method declares the job)");
        }
        return type;
    }

    private static StreamingJob instantiate(Class<?> type) {
        try {
            return (StreamingJob) type.getConstructor().newInstance();
        } catch (NoSuchMethodException | IllegalAccessException e) {
            throw new InvalidJobException(
                    "option --job-class "
                            + type.getName()
                            + " has no public constructor without"
                            + " arguments; add one (the job's options come to build)");
        } catch (InvocationTargetException | InstantiationException | LinkageError e) {
            Throwable cause = e instanceof InvocationTargetException ite ? ite.getCause() : e;
            throw new InvalidJobException(
                    "option --job-class " + type.getName() + ": its constructor failed: " + cause);
        }
    }

    private static void closeQuietly(ClassLoader loader, RuntimeException failure) {
        if (loader instanceof UserJobClassLoader own) {
            try {
                own.close();
            } catch (IOException e) {
                failure.addSuppressed(e);
            }
        }
    }
}
