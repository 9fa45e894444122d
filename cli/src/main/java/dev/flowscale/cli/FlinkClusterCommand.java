package dev.flowscale.cli;

import dev.flowscale.engine.cli.HelpOption;
import dev.flowscale.engine.cli.ShutdownHook;
import dev.flowscale.flink.FlinkJob;
import dev.flowscale.flink.FlinkJobRef;
import dev.flowscale.flink.FlinkRestClient;
import dev.flowscale.flink.demo.LocalFlinkCluster;
import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code flowscale flink-cluster}: a local Apache Flink 2.3 cluster for {@code attach} to scale,
 * running the demo's word count from parallelism 1 until Ctrl-C. The cluster is the one {@code demo
 * --engine flink} starts, without an autoscaler in this process.
 */
@Command(
        name = "flink-cluster",
        sortOptions = false,
        abbreviateSynopsis = true,
        description =
                "Start a local Flink 2.3 cluster (adaptive scheduler) running a word count, for"
                        + " attach --flink; runs until Ctrl-C.")
final class FlinkClusterCommand implements Callable<Integer> {
    @Option(
            names = "--slots",
            paramLabel = "N",
            defaultValue = "8",
            description = "Task slots of its one TaskManager (default ${DEFAULT-VALUE}).")
    int slots;

    @Mixin FlinkWordCountOptions wordCount;

    @Mixin HelpOption help;

    private final PrintStream out;

    FlinkClusterCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() throws Exception {
        if (slots < 1) {
            throw new CliException("option --slots is " + slots + "; give 1 or more");
        }
        var job = wordCount.settings(); // its options checked before Flink starts
        CountDownLatch stop = new CountDownLatch(1);
        try (ShutdownHook hook = ShutdownHook.install(stop::countDown, Duration.ofSeconds(30))) {
            out.println(
                    "flowscale: starting a local Flink 2.3 cluster; its log goes to "
                            + FlinkLog.toFile());
            try (LocalFlinkCluster flink = LocalFlinkCluster.start(slots, true)) {
                FlinkRestClient rest = new FlinkRestClient(flink.rest(), Duration.ofSeconds(30));
                String id = flink.submit(job);
                FlinkJob running =
                        AttachCommand.awaitRunning(
                                new FlinkJobRef(rest, id), Duration.ofSeconds(60));
                out.println(
                        "flink: REST " + flink.rest() + " (the web UI too), " + slots + " slots");
                out.println(
                        "flink: running '"
                                + running.name()
                                + "' ("
                                + id
                                + ") "
                                + running.parallelism());
                out.println(
                        "scale it from another terminal: ./flowscale attach --flink "
                                + flink.rest());
                out.println("Ctrl-C stops the cluster.");
                out.flush();
                stop.await();
            }
        }
        return 0;
    }
}
