package dev.flowscale.engine.cli;

import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.api.JobFailedException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/**
 * What the engine's runner and {@code ./flowscale} share about a command line: one error line
 * naming the option and its range, the exit codes and the help layout (docs/cli.md).
 */
public final class CommandLines {
    /** The command ran to its end. */
    public static final int DONE = 0;

    /** The job failed, or an unexpected error. */
    public static final int FAILED = 1;

    /** Bad arguments: unknown command, job or option, or a value out of range. */
    public static final int BAD_ARGUMENTS = 2;

    /** Interrupted (Ctrl-C, SIGINT). */
    public static final int INTERRUPTED = 130;

    private CommandLines() {}

    /**
     * A command line for {@code command} and its {@code subcommands} (annotated objects or specs)
     * that prints help to {@code out}, one {@code error:} line to {@code err} for bad arguments,
     * and lets a later option override an earlier one (so defaults can be put before what a user
     * gives).
     */
    public static CommandLine of(
            Object command, PrintStream out, PrintStream err, Object... subcommands) {
        CommandLine cl = new CommandLine(command);
        for (Object sub : subcommands) {
            cl.addSubcommand(sub);
        }
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        cl.setOverwrittenOptionsAllowed(true);
        cl.setUsageHelpWidth(100);
        cl.setUsageHelpLongOptionsMaxWidth(32);
        cl.setParameterExceptionHandler(
                (e, args) -> {
                    cl.getErr().println("error: " + errorLine(e));
                    return BAD_ARGUMENTS;
                });
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> failure(e, cl.getErr()));
        return cl;
    }

    /**
     * The one line a bad argument prints (after "error: "), naming the option and what it accepts.
     */
    public static String errorLine(ParameterException e) {
        ArgSpec arg = e.getArgSpec();
        if (e.getCause() instanceof CommandLine.TypeConversionException && arg != null) {
            return name(arg)
                    + " "
                    + (arg.type().isEnum()
                            ? "is '"
                                    + e.getValue()
                                    + "'; use one of "
                                    + Arrays.toString(arg.type().getEnumConstants())
                            : e.getCause().getMessage());
        }
        if (e instanceof CommandLine.MissingParameterException missing
                && !missing.getMissing().isEmpty()) {
            return missingValue(e, missing.getMissing().get(0));
        }
        if (e instanceof CommandLine.UnmatchedArgumentException unmatched
                && !unmatched.getUnmatched().isEmpty()) {
            return unmatched(e.getCommandLine(), unmatched.getUnmatched().get(0));
        }
        if (arg != null && e.getMessage().contains("KEY=VALUE")) {
            return name(arg)
                    + " '"
                    + e.getValue()
                    + "' is not "
                    + arg.paramLabel()
                    + "; use e.g. "
                    + ((OptionSpec) arg).longestName()
                    + " "
                    + arg.paramLabel()
                    + ","
                    + arg.paramLabel();
        }
        return e.getMessage();
    }

    private static String unmatched(CommandLine cl, String first) {
        if (first.startsWith("-")) {
            return "unknown option " + first + "; --help lists the options";
        }
        return cl.getSubcommands().isEmpty()
                ? "unexpected argument '" + first + "'; options start with --"
                : "unknown command '"
                        + first
                        + "'; use "
                        + cl.getSubcommands().values().stream()
                                .filter(c -> !c.getCommandSpec().usageMessage().hidden())
                                .map(CommandLine::getCommandName)
                                .distinct()
                                .collect(Collectors.joining(", "));
    }

    /**
     * A bad argument as the engine's exception, for callers that check arguments without running
     * them.
     */
    public static InvalidJobException invalid(ParameterException e) {
        return new InvalidJobException(errorLine(e));
    }

    private static String missingValue(ParameterException e, ArgSpec arg) {
        if (arg instanceof OptionSpec) {
            int found = e.getMessage().indexOf("but found '");
            return name(arg)
                    + " needs a value"
                    + (found < 0
                            ? ""
                            : " before "
                                    + e.getMessage()
                                            .substring(found + 11, e.getMessage().length() - 1));
        }
        String command = e.getCommandLine().getCommandName();
        return command
                + " needs a "
                + arg.paramLabel().replaceAll("[<>]", "")
                + (arg.completionCandidates() == null
                        ? ""
                        : ": one of "
                                + StreamSupport.stream(
                                                arg.completionCandidates().spliterator(), false)
                                        .collect(Collectors.joining(", ")));
    }

    private static String name(ArgSpec arg) {
        return arg instanceof OptionSpec option
                ? "option " + option.longestName()
                : arg.paramLabel().replaceAll("[<>]", "");
    }

    /**
     * The exit code of an exception a command threw, after its one line on {@code err}: a failed
     * job is 1; any other engine exception is about what was asked (job, options, storage): 2.
     */
    static int failure(Exception e, PrintWriter err) {
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
            return INTERRUPTED;
        }
        err.println("error: " + (e instanceof EngineException ? e.getMessage() : e.toString()));
        return e instanceof EngineException && !(e instanceof JobFailedException)
                ? BAD_ARGUMENTS
                : FAILED;
    }

    /** Runs {@code args} on a command line made by {@link #of}; the exit code. */
    public static int execute(CommandLine cl, List<String> args) {
        List<String> routed;
        try {
            routed = UserJobArgs.route(cl, args);
        } catch (EngineException e) { // a user job's arguments that cannot be split: one line
            return failure(e, cl.getErr());
        }
        return cl.execute(routed.toArray(String[]::new));
    }

    /**
     * Parses the arguments of one run command ({@code cl}), a user job's own options handed to the
     * job.
     */
    public static void parseRun(CommandLine cl, List<String> args) {
        cl.parseArgs(UserJobArgs.routeRun(cl.getCommandSpec(), args).toArray(String[]::new));
    }
}
