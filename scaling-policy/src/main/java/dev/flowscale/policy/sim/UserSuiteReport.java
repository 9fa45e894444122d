package dev.flowscale.policy.sim;

import dev.flowscale.policy.settings.Setting;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * Runs the {@link UserScenarios} with the cluster and the local defaults ({@link ProfileDefaults})
 * at rescale downtimes of 2, 30 and 60 s and prints, per profile and downtime, how many jobs met
 * every criterion, how many met them where the computed bounds allow (a criterion missed where the
 * report shows no policy could meet it, or a trim not worth its downtime), and how many missed one,
 * with every miss. Arguments: the number of jobs (default 200), then optionally a profile ({@code
 * cluster}, {@code local}) and downtimes ({@code 2s} ...), and {@code detail} to print the
 * decisions of every missed job. Run with {@code mvn -q -pl scaling-policy -am compile exec:java
 * -Dexec.mainClass=dev.flowscale.policy.sim.UserSuiteReport -Dexec.args="200"}.
 */
public final class UserSuiteReport {

    /** Seed of the jobs. */
    public static final long SEED = 28;

    /** The profiles the suite runs with. */
    public static final List<Setting.Profile> PROFILES =
            List.of(Setting.Profile.CLUSTER, Setting.Profile.LOCAL);

    /** Jobs per profile and downtime in the default build, each run taking its own. */
    public static final int DEFAULT_BUILD_JOBS = 34;

    private UserSuiteReport() {}

    /** The figures of one profile at one downtime. */
    public record Figures(
            Setting.Profile profile,
            Duration downtime,
            int jobs,
            int met,
            int metWithinBounds,
            List<SettlingReport> missed) {

        @Override
        public String toString() {
            return String.format(
                    Locale.ROOT,
                    "%s defaults, %2d s downtime: %d jobs, %d met every criterion, %d met them where"
                            + " the computed bounds allow, %d missed",
                    profile.name().toLowerCase(Locale.ROOT),
                    downtime.toSeconds(),
                    jobs,
                    met,
                    metWithinBounds,
                    missed.size());
        }
    }

    public static void main(String[] args) {
        List<String> a = List.of(args);
        int count = a.isEmpty() || !a.get(0).matches("[0-9]+") ? 200 : Integer.parseInt(a.get(0));
        List<Setting.Profile> profiles =
                PROFILES.stream()
                        .filter(
                                p ->
                                        a.stream()
                                                        .noneMatch(
                                                                x ->
                                                                        x.equals("cluster")
                                                                                || x.equals(
                                                                                        "local"))
                                                || a.contains(p.name().toLowerCase(Locale.ROOT)))
                        .toList();
        List<Duration> asked =
                SettlingSuiteReport.DOWNTIMES.stream()
                        .filter(d -> a.contains(d.toSeconds() + "s"))
                        .toList();
        for (Setting.Profile profile : profiles) {
            for (Duration d : asked.isEmpty() ? SettlingSuiteReport.DOWNTIMES : asked) {
                // "default-build": each run its own jobs, as UserSettlingTest runs them
                int from = a.contains("default-build") ? defaultBuildFrom(profile, d) : 0;
                int n = a.contains("default-build") ? DEFAULT_BUILD_JOBS : count;
                print(System.out, figures(profile, d, from, n), a.contains("detail"));
            }
        }
    }

    /** The first job of the default build's run with the profile at the downtime. */
    static int defaultBuildFrom(Setting.Profile profile, Duration downtime) {
        int runs = SettlingSuiteReport.DOWNTIMES.size();
        int slice =
                PROFILES.indexOf(profile) * runs + SettlingSuiteReport.DOWNTIMES.indexOf(downtime);
        return slice * DEFAULT_BUILD_JOBS;
    }

    /** Jobs {@code from} to {@code from + count} of the suite, with one profile at one downtime. */
    public static Figures figures(Setting.Profile profile, Duration downtime, int from, int count) {
        List<UserScenarios.Job> jobs =
                UserScenarios.generate(SEED, from + count, inFlightSecond(profile, downtime))
                        .subList(from, from + count);
        List<SettlingReport> reports =
                IntStream.range(0, jobs.size())
                        .parallel()
                        .mapToObj(i -> run(jobs.get(i), profile, downtime))
                        .toList();
        int met = 0;
        int within = 0;
        List<SettlingReport> missed = new ArrayList<>();
        for (SettlingReport r : reports) {
            if (!r.settled()) {
                missed.add(r);
            } else if (r.exemptions().isEmpty()) {
                met++;
            } else {
                within++;
            }
        }
        return new Figures(profile, downtime, jobs.size(), met, within, missed);
    }

    /** One job run with the profile's defaults at the downtime, and judged by its criteria. */
    public static SettlingReport run(
            UserScenarios.Job job, Setting.Profile profile, Duration downtime) {
        ProfileDefaults defaults = new ProfileDefaults(profile, downtime, job.priorFactor());
        Trajectory t =
                Simulation.ds2(job.scenario(), defaults.policy(), defaults.settings())
                        .run(job.run());
        return SettlingReport.check(t, defaults.criteria());
    }

    /**
     * Halfway through the first rescale of a job that starts below its need: two decisions (one to
     * see the need, one to confirm it), then half the downtime.
     */
    static long inFlightSecond(Setting.Profile profile, Duration downtime) {
        long interval =
                new ProfileDefaults(profile, downtime, 1)
                        .values()
                        .duration(Setting.POLICY_INTERVAL)
                        .toSeconds();
        return 2 * interval + downtime.toSeconds() / 2 + 1;
    }

    static void print(PrintStream out, Figures f, boolean detail) {
        out.println(f);
        for (SettlingReport r : f.missed()) {
            out.println("  " + r.scenario() + ": " + r.violationCounts());
            r.violations().stream().limit(detail ? 100 : 2).forEach(v -> out.println("    " + v));
            if (detail) {
                decisions(out, r.scenario(), f.profile(), f.downtime());
            }
        }
    }

    /** Every rescale decision of the named job, each operator's change with its reasons. */
    private static void decisions(
            PrintStream out, String name, Setting.Profile profile, Duration downtime) {
        UserScenarios.Job job =
                UserScenarios.generate(SEED, 1 + index(name), inFlightSecond(profile, downtime))
                        .get(index(name));
        ProfileDefaults defaults = new ProfileDefaults(profile, downtime, job.priorFactor());
        Trajectory t =
                Simulation.ds2(job.scenario(), defaults.policy(), defaults.settings())
                        .run(job.run());
        out.println("    start " + job.scenario().initial());
        t.decisions().stream()
                .filter(d -> d.time().isBefore(Simulation.EPOCH.plusSeconds(job.changeSecond())))
                .reduce((a, b) -> b)
                .ifPresent(d -> out.println("    last decision before the change: " + d.explain()));
        SettlingSuiteReport.printDecisions(out, t);
    }

    private static int index(String name) {
        return Integer.parseInt(name.split("-")[1]);
    }
}
