package dev.flowscale.engine.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A top command whose work is in its subcommands: without one it prints its usage, as a bad
 * invocation.
 */
public abstract class CommandGroup implements Callable<Integer> {
    @Mixin HelpOption help;
    @Spec CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return CommandLines.BAD_ARGUMENTS;
    }
}
