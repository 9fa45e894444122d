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
        BuiltinJobs.SHAPES.forEach((name, shape) -> out.printf("%-10s %s%n", name, shape));
        return CommandLines.DONE;
    }
}
