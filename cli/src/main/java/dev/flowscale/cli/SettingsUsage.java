package dev.flowscale.cli;

import dev.flowscale.policy.settings.Setting;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The autoscaler part of {@code flowscale --help}, written from the settings table, so it cannot drift from it. */
final class SettingsUsage {

    private SettingsUsage() {
    }

    /** One line per setting: the option, its kind, what it does and its local default. */
    static String lines() {
        return Stream.of(Setting.values()).map(s -> String.format(Locale.ROOT, "  --%-33s %s (default %s)",
                s.option() + " " + placeholder(s), s.description(), s.defaultText(Setting.Profile.LOCAL)))
                .collect(Collectors.joining("\n"));
    }

    static Set<String> withTableOptions(Set<String> others) {
        Set<String> all = new HashSet<>(others);
        Stream.of(Setting.values()).forEach(s -> all.add(s.option()));
        return Set.copyOf(all);
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
