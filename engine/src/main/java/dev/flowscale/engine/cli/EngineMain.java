package dev.flowscale.engine.cli;

import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.userjob.UserJob;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParameterException;

/**
 * {@code flowscale-engine}: the engine's command line (the job runner the operator deploys): {@code
 * run <job>}, {@code jobs} and {@code completion}, on picocli (docs/cli.md).
 */
@Command(
        name = "flowscale-engine",
        description = "The flowscale engine: runs a built-in job without an autoscaler.",
        footer =
                "Exit codes: 0 done, 1 the job failed, 2 bad arguments (one line on stderr names the option),"
                        + " 130 interrupted.%n")
public final class EngineMain extends CommandGroup {
    private final CommandLine commandLine;

    private EngineMain(PrintStream out, PrintStream err, Map<String, String> env) {
        commandLine =
                CommandLines.of(
                        this,
                        out,
                        err,
                        new RunCommand(out, env),
                        JobsCommand.named("jobs", out).aliases("list"),
                        new CompletionCommand(out));
    }

    public static void main(String[] args) {
        System.exit(run(Arrays.asList(args), System.out, System.err));
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        return run(args, System.getenv(), out, err);
    }

    /** {@code env}: the process environment, where FLOWSCALE_RUNNER_TOKEN may be set. */
    static int run(List<String> args, Map<String, String> env, PrintStream out, PrintStream err) {
        return CommandLines.execute(new EngineMain(out, err, env).commandLine, args);
    }

    /**
     * Checks the arguments of {@code run <job> <args>} as a run would before it starts (options,
     * values, the job's graph), so a caller such as the Kubernetes operator can reject them early.
     *
     * @throws EngineException with the message a run would print
     */
    public static void check(String job, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(job);
        command.addAll(args);
        RunCommand run = new RunCommand(System.out, Map.of());
        try {
            CommandLines.parseRun(CommandLines.of(run, System.out, System.err), command);
        } catch (ParameterException e) {
            throw CommandLines.invalid(e);
        }
        try (UserJob userJob = run.run.loadUserJob()) {
            run.graph(userJob);
        }
    }
}
