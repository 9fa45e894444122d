package dev.flowscale.cli;

import dev.flowscale.engine.cli.CommandGroup;
import dev.flowscale.engine.cli.CommandLines;
import dev.flowscale.engine.cli.CompletionCommand;
import dev.flowscale.engine.cli.JobsCommand;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code flowscale run <job>} runs a job on the embedded engine with the DS2 autoscaler live;
 * {@code flowscale demo} runs a scripted scenario that shows a scale-up and a scale-down; {@code
 * attach --flink URL} autoscales a running Apache Flink job through its REST API; {@code jobs}
 * lists the built-in jobs and {@code completion} prints a shell completion script.
 */
@Command(
        name = "flowscale",
        description = "Run a streaming job on the embedded engine with the DS2 autoscaler.",
        footer =
                "Exit codes: 0 done, 1 the run failed, 2 bad arguments (one line on stderr names the option),"
                        + " 130 interrupted.%n")
public final class FlowscaleMain extends CommandGroup {
    private final CommandLine commandLine;

    private FlowscaleMain(PrintStream out, PrintStream err) {
        commandLine =
                CommandLines.of(
                        this,
                        out,
                        err,
                        RunCommand.spec("run", out),
                        Demo.spec(out),
                        AttachCommand.spec(out),
                        FlinkDemoCommand.spec(out),
                        new FlinkClusterCommand(out),
                        KafkaDemoCommand.spec(out, err),
                        JobsCommand.named("jobs", out),
                        new CompletionCommand(out));
    }

    public static void main(String[] args) {
        System.exit(run(Arrays.asList(args), System.out, System.err));
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        List<String> expanded;
        try {
            expanded = Demo.expand(args);
        } catch (CliException e) {
            err.println("error: " + e.getMessage());
            return 2;
        }
        return CommandLines.execute(new FlowscaleMain(out, err).commandLine, expanded);
    }
}
