package dev.flowscale.engine.userjob;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

/**
 * Loads a user job's classes child-first: a class or resource in the job's jars wins over the
 * engine's, so a job that bundles its own Jackson (or any library the engine also carries) runs
 * with its own version. The JDK and the flowscale API ({@value #FLOWSCALE}) always come from the
 * engine, so that the job's functions and the engine agree on one {@code StreamingJob}, one {@code
 * JobBuilder}, one {@code ValueState}.
 */
final class UserJobClassLoader extends URLClassLoader {
    static final String FLOWSCALE = "dev.flowscale.";

    /** Packages never taken from the job's jars (as Flink's parent-first patterns). */
    private static final List<String> PARENT_FIRST =
            List.of(
                    "java.",
                    "javax.",
                    "jdk.",
                    "sun.",
                    "com.sun.",
                    "org.w3c.",
                    "org.xml.",
                    FLOWSCALE);

    static {
        ClassLoader.registerAsParallelCapable();
    }

    UserJobClassLoader(URL[] jars, ClassLoader engine) {
        super("flowscale-user-job", jars, engine);
    }

    static boolean parentFirst(String className) {
        return PARENT_FIRST.stream().anyMatch(className::startsWith);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        synchronized (getClassLoadingLock(name)) {
            Class<?> loaded = findLoadedClass(name);
            if (loaded == null) {
                loaded = parentFirst(name) ? getParent().loadClass(name) : childFirst(name);
            }
            if (resolve) {
                resolveClass(loaded);
            }
            return loaded;
        }
    }

    private Class<?> childFirst(String name) throws ClassNotFoundException {
        try {
            return findClass(name);
        } catch (ClassNotFoundException notInTheJob) {
            return getParent().loadClass(name);
        }
    }

    @Override
    public URL getResource(String name) {
        if (parentFirst(name.replace('/', '.'))) {
            return getParent().getResource(name);
        }
        URL own = findResource(name);
        return own != null ? own : getParent().getResource(name);
    }

    /** The job's own resources first (e.g. its META-INF/services entries), then the engine's. */
    @Override
    public Enumeration<URL> getResources(String name) throws IOException {
        List<URL> all = new ArrayList<>();
        if (!parentFirst(name.replace('/', '.'))) {
            all.addAll(Collections.list(findResources(name)));
        }
        all.addAll(Collections.list(getParent().getResources(name)));
        return Collections.enumeration(all);
    }
}
