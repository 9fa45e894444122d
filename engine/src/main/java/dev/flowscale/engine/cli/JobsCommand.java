package dev.flowscale.engine.cli;

import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code jobs}: lists the built-in jobs of {@link BuiltinJobs} and their shapes. */
@Command(description = "List the built-in jobs.")
public final class JobsCommand implements Callable<Integer> {
    @Mixin HelpOption help;
    private final PrintStream out;

    private JobsCommand(PrintStream out) {
        this.out = out;
    }

    /** The command, named {@code name}, as a subcommand to add. */
    public static CommandLine.Model.CommandSpec named(String name, PrintStream out) {
        return CommandLine.Model.CommandSpec.forAnnotatedObject(new JobsCommand(out)).name(name);
    }

    @Override
    public Integer call() {
        String row = "%-" + width() + "s %s%n";
        BuiltinJobs.SHAPES.forEach((name, shape) -> out.printf(row, name, shape));
        return CommandLines.DONE;
    }

    /** The longest name, at least 10 wide, so that the shapes line up. */
    private static int width() {
        return Math.max(10, BuiltinJobs.NAMES.stream().mapToInt(String::length).max().orElse(0));
    }
}
