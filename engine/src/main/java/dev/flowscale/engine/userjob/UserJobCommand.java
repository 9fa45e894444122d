package dev.flowscale.engine.userjob;

import dev.flowscale.engine.api.InvalidJobException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The arguments of {@code run --job-jar J --job-class C ...} split in two: the runner's own options
 * (those it knows by name, e.g. {@code --metrics-port}, {@code --parallelism}) and the job's
 * options, {@code --name value}, {@code --name=value} or a flag {@code --name}, which go to the
 * job's {@link dev.flowscale.engine.job.StreamingJob#build}.
 *
 * @param runnerArgs the runner's options, as given
 * @param jobOptions the job's options by name (without {@code --}); a flag's value is {@code true}
 */
public record UserJobCommand(List<String> runnerArgs, Map<String, String> jobOptions) {
    /** The options that make a run a user job's. */
    public static final Set<String> OPTIONS = Set.of("job-jar", "job-class");

    /** Whether {@code args} (after {@code run}) name a user job rather than a built-in one. */
    public static boolean isUserJob(List<String> args) {
        return args.stream()
                .anyMatch(
                        a ->
                                OPTIONS.stream()
                                        .anyMatch(
                                                o ->
                                                        a.equals("--" + o)
                                                                || a.startsWith("--" + o + "=")));
    }

    /**
     * Splits {@code args} by the runner's option names; anything else that is not an option is an
     * error.
     */
    public static UserJobCommand split(
            List<String> args, Set<String> runnerValued, Set<String> runnerFlags) {
        List<String> runner = new ArrayList<>();
        Map<String, String> job = new LinkedHashMap<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (i == 0 && !arg.startsWith("-")) {
                throw new InvalidJobException(
                        "run takes a built-in job or --job-jar/--job-class, not both; drop '"
                                + arg
                                + "' to run the job of --job-class, or drop --job-class");
            }
            if (!arg.startsWith("--") || arg.length() == 2) {
                throw new InvalidJobException(
                        "unexpected argument '"
                                + arg
                                + "'"
                                + (i > 0 ? " after " + args.get(i - 1) : "")
                                + "; options start with --, e.g. --job-class com.example.MyJob");
            }
            int eq = arg.indexOf('=');
            String name = arg.substring(2, eq < 0 ? arg.length() : eq);
            boolean valueFollows =
                    eq < 0 && i + 1 < args.size() && !args.get(i + 1).startsWith("--");
            if (runnerValued.contains(name) || runnerFlags.contains(name)) {
                runner.add(arg);
                if (valueFollows && runnerValued.contains(name)) {
                    runner.add(args.get(++i));
                }
            } else {
                job.put(
                        name,
                        eq >= 0 ? arg.substring(eq + 1) : valueFollows ? args.get(++i) : "true");
            }
        }
        return new UserJobCommand(runner, job);
    }
}
