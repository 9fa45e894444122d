package dev.flowscale.cli;

import dev.flowscale.policy.settings.Setting;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.ArgGroupSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The autoscaler's options of {@code flowscale run}, generated from the settings table ({@link
 * Setting}: option name, kind, description, local default), so they cannot drift from it.
 */
final class SettingOptions {

    private SettingOptions() {}

    /**
     * Adds one option per setting to {@code spec}, under a heading of their own; a value stays a
     * text, checked by the table's resolver.
     */
    static CommandSpec addTo(CommandSpec spec) {
        return addTo(spec, Setting.Profile.LOCAL);
    }

    /** As {@link #addTo(CommandSpec)}, showing the defaults of {@code profile}. */
    static CommandSpec addTo(CommandSpec spec, Setting.Profile profile) {
        ArgGroupSpec.Builder group =
                ArgGroupSpec.builder()
                        .exclusive(false)
                        .multiplicity("0..1")
                        .heading(
                                "%nAutoscaler (the settings table, docs/autoscaler-settings.md; defaults for "
                                        + (profile == Setting.Profile.FLINK
                                                ? "a Flink job, whose rescale restarts it from its latest checkpoint"
                                                : "a run in this process")
                                        + "):%n");
        for (Setting s : Setting.values()) {
            OptionSpec.Builder option =
                    OptionSpec.builder("--" + s.option())
                            .type(String.class)
                            .paramLabel(placeholder(s))
                            .description(
                                    (s.description() + " (default " + s.defaultText(profile) + ").")
                                            .replace("%", "%%"));
            if (s.kind() == Setting.Kind.MODE || s.kind() == Setting.Kind.FLAG) {
                option.completionCandidates(
                        s.kind() == Setting.Kind.MODE
                                ? List.of("auto", "recommend")
                                : List.of("true", "false"));
            }
            group.addArg(option.build());
        }
        spec.addArgGroup(group.build());
        return spec;
    }

    /** The settings given on the command line, as texts. */
    static Map<Setting, String> given(CommandSpec spec) {
        Map<Setting, String> given = new EnumMap<>(Setting.class);
        for (Setting s : Setting.values()) {
            String value = spec.findOption(s.option()).getValue();
            if (value != null) {
                given.put(s, value);
            }
        }
        return given;
    }

    private static String placeholder(Setting s) {
        return switch (s.kind()) {
            case MODE -> "auto|recommend";
            case DURATION -> "D";
            case FRACTION -> "F";
            case COUNT -> "N";
            case FLAG -> "true|false";
        };
    }
}
