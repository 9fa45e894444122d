package dev.flowscale.engine.userjob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.job.StreamingJob;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UserJobLoaderTest {
    private static final String JOB = "com.example.jobs.NumbersJob";
    private final ClassLoader engine = UserJobLoaderTest.class.getClassLoader();

    @Test
    void theJobsClassesComeFromItsJarEvenWhenTheEngineHasTheSameClass(@TempDir Path dir)
            throws Exception {
        Path jar = JobJars.pack(dir.resolve("numbers.jar"), "com/example/jobs");
        try (UserJob job = UserJobLoader.load(jar.toString(), JOB, engine)) {
            assertThat(job.classLoader()).isInstanceOf(UserJobClassLoader.class);
            Class<?> loaded = job.classLoader().loadClass(JOB);
            assertThat(loaded).isNotSameAs(com.example.jobs.NumbersJob.class);
            assertThat(loaded.getClassLoader()).isSameAs(job.classLoader());
            assertThat(job.classLoader().loadClass(StreamingJob.class.getName()))
                    .as("the flowscale API comes from the engine")
                    .isSameAs(StreamingJob.class);
            assertThat(job.classLoader().loadClass("java.lang.String")).isSameAs(String.class);
        }
    }

    @Test
    void theJobIsDeclaredFromItsOwnOptions(@TempDir Path dir) throws Exception {
        Path jar = JobJars.pack(dir.resolve("numbers.jar"), "com/example/jobs");
        try (UserJob job = UserJobLoader.load(jar.toString(), JOB, engine)) {
            JobGraph graph = job.build(Map.of("records", "50", "keys", "3")).build();
            assertThat(graph.jobName()).isEqualTo("numbers");
            assertThat(graph.parallelism()).containsOnlyKeys("numbers", "square", "sum", "sink");
        }
    }

    @Test
    void aFolderOfJarsIsTheJobsClassPath(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("jobs/classpath"));
        JobJars.pack(dir.resolve("jobs/classpath/numbers.jar"), "com/example/jobs");
        try (UserJob job = UserJobLoader.load(dir.resolve("jobs").toString(), JOB, engine)) {
            assertThat(job.className()).isEqualTo(JOB);
        }
    }

    @Test
    void withoutAJarTheClassComesFromTheEnginesClassPath() {
        try (UserJob job = UserJobLoader.load(null, JOB, engine)) {
            assertThat(job.classLoader()).isSameAs(engine);
        }
    }

    @Test
    void anOptionTheJobNeverReadsIsRefusedNamingTheOnesItReads() {
        try (UserJob job = UserJobLoader.load(null, JOB, engine)) {
            assertThatThrownBy(() -> job.build(Map.of("recods", "50")))
                    .isInstanceOf(InvalidJobException.class)
                    .hasMessage(
                            "unknown option --recods for job class "
                                    + JOB
                                    + "; the job reads --keys, --rate,"
                                    + " --records and the runner's options are in --help");
        }
    }

    @Test
    void aBadValueNamesTheOptionAndItsRange() {
        try (UserJob job = UserJobLoader.load(null, JOB, engine)) {
            assertThatThrownBy(() -> job.build(Map.of("keys", "0")))
                    .hasMessage("option --keys is '0'; use a whole number from 1 to 1000000");
        }
    }

    @Test
    void aMissingJarAClassNotInItOrNotAJobAreRefusedNamingTheOption(@TempDir Path dir)
            throws Exception {
        Path jar = JobJars.pack(dir.resolve("numbers.jar"), "com/example/jobs");
        assertThatThrownBy(
                        () -> UserJobLoader.load(dir.resolve("nope.jar").toString(), JOB, engine))
                .hasMessageStartingWith(
                        "option --job-jar " + dir.resolve("nope.jar") + " is not a jar file");
        assertThatThrownBy(
                        () -> UserJobLoader.load(jar.toString(), "com.example.jobs.Nope", engine))
                .hasMessageStartingWith(
                        "option --job-class com.example.jobs.Nope: no such class in --job-jar "
                                + jar);
        assertThatThrownBy(
                        () ->
                                UserJobLoader.load(
                                        jar.toString(), "com.example.jobs.SumPerKey", engine))
                .hasMessageStartingWith(
                        "option --job-class com.example.jobs.SumPerKey does not implement "
                                + StreamingJob.class.getName());
    }
}
