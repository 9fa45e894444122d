package dev.flowscale.engine.cli;

import dev.flowscale.engine.userjob.UserJobCommand;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Routes a user job's own options: in {@code run --job-jar J --job-class C ...} every option the
 * run command does not know, and the built-in jobs' source options (a user job reads its own {@code
 * --rate}, {@code --limit}, ...), go to the job; the rest is parsed by picocli as usual.
 */
final class UserJobArgs {
    /** Options of the built-in jobs' sources; for a user's job they are the job's. */
    static final Set<String> BUILTIN_ONLY =
            Set.of("rate", "limit", "words-per-sentence", "vocabulary", "stages", "stage-cost");

    private UserJobArgs() {}

    /**
     * {@code args} of a command line with subcommands, with a user job's options taken out of a
     * run's.
     */
    static List<String> route(CommandLine cl, List<String> args) {
        if (args.isEmpty() || !cl.getSubcommands().containsKey(args.get(0))) {
            return args;
        }
        List<String> routed = new ArrayList<>();
        routed.add(args.get(0));
        routed.addAll(
                routeRun(
                        cl.getSubcommands().get(args.get(0)).getCommandSpec(),
                        args.subList(1, args.size())));
        return routed;
    }

    /**
     * {@code args} of one run command ({@code spec}), with a user job's options handed to its
     * {@link RunOptions}.
     */
    static List<String> routeRun(CommandSpec spec, List<String> args) {
        RunOptions run = runOptions(spec);
        if (run == null || !UserJobCommand.isUserJob(args)) {
            return args;
        }
        Set<String> valued = new HashSet<>();
        Set<String> flags = new HashSet<>();
        for (OptionSpec option : spec.options()) {
            for (String name : option.names()) {
                String bare = name.replaceFirst("^--?", "");
                if (!BUILTIN_ONLY.contains(bare)) {
                    (option.arity().max() == 0 ? flags : valued).add(bare);
                }
            }
        }
        UserJobCommand split = UserJobCommand.split(args, valued, flags);
        run.userJobOptions = split.jobOptions();
        return split.runnerArgs();
    }

    private static RunOptions runOptions(CommandSpec spec) {
        for (CommandSpec mixin : spec.mixins().values()) {
            if (mixin.userObject() instanceof RunOptions run) {
                return run;
            }
        }
        return null;
    }
}
