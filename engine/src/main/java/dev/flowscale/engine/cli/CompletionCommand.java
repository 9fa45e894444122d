package dev.flowscale.engine.cli;

import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code completion}: prints the bash (and zsh) completion script picocli generates for the whole
 * command.
 */
@Command(
        name = "completion",
        description = {
            "Print a bash/zsh completion script for this command.",
            "Use: source <(./flowscale completion)  or  source <(java -jar flowscale-engine.jar completion)"
        })
public final class CompletionCommand implements Callable<Integer> {
    @Mixin HelpOption help;
    @Spec CommandSpec spec;
    private final PrintStream out;

    public CompletionCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() {
        CommandSpec root = spec.root();
        out.print(AutoComplete.bash(root.name(), root.commandLine()));
        // Also when called by its path from the repository's root, as ./flowscale is.
        out.println("complete -F _complete_" + root.name() + " -o default ./" + root.name());
        return CommandLines.DONE;
    }
}
