package dev.flowscale.operator.loop;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flowscale.operator.api.AutoscalerSpec;
import dev.flowscale.operator.core.OperatorException;
import dev.flowscale.policy.PolicyException;
import dev.flowscale.policy.settings.Setting;
import dev.flowscale.policy.settings.SettingValues;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * spec.autoscaler and the settings table are one: each field of {@link AutoscalerSpec} is the
 * {@link Setting} of the same name, so the spec converts to the table's texts (and the table's
 * defaults to a spec) field by field, and the policy's configuration comes from the one assembly,
 * {@link SettingValues}, as on the command line.
 */
public final class SpecSettings {

    static final String PREFIX = "spec.autoscaler.";
    private static final ObjectMapper JSON =
            new ObjectMapper().setSerializationInclusion(JsonInclude.Include.NON_NULL);

    private SpecSettings() {}

    /** The texts of the settings the spec sets. */
    static Map<Setting, String> texts(AutoscalerSpec spec) {
        Map<Setting, String> texts = new EnumMap<>(Setting.class);
        if (spec == null) {
            return texts;
        }
        Map<?, ?> fields = JSON.convertValue(spec, Map.class);
        fields.forEach(
                (name, value) ->
                        texts.put(
                                Setting.named(name.toString())
                                        .orElseThrow(
                                                () ->
                                                        new OperatorException(
                                                                PREFIX
                                                                        + name
                                                                        + " is not a setting of the settings table")),
                                value.toString()));
        return texts;
    }

    /** A spec holding every setting at the table's cluster default. */
    public static AutoscalerSpec clusterDefaults() {
        Map<String, Object> fields = new LinkedHashMap<>();
        for (Setting s : Setting.values()) {
            String text = s.defaultText(Setting.Profile.CLUSTER);
            fields.put(
                    s.field(),
                    switch (s.kind()) {
                        case FRACTION -> Double.valueOf(text);
                        case COUNT -> Integer.valueOf(text);
                        case FLAG -> Boolean.valueOf(text);
                        case MODE, DURATION -> text;
                    });
        }
        return JSON.convertValue(fields, AutoscalerSpec.class);
    }

    /** The resolved settings of a spec whose fields are all set (after the operator's defaults). */
    public static SettingValues values(AutoscalerSpec resolved) {
        try {
            return SettingValues.resolve(texts(resolved), PREFIX, Setting.Profile.CLUSTER);
        } catch (PolicyException e) {
            throw new OperatorException(e.getMessage());
        }
    }

    /**
     * Problems of the settings a spec sets, each naming its field and the fix; min and max checked
     * together when both are set.
     */
    public static List<String> problems(AutoscalerSpec spec) {
        List<String> problems = new ArrayList<>();
        Map<Setting, String> given = texts(spec);
        given.forEach((s, text) -> check(Map.of(s, text), problems));
        if (given.containsKey(Setting.MIN_PARALLELISM)
                && given.containsKey(Setting.MAX_PARALLELISM)) {
            check(
                    Map.of(
                            Setting.MIN_PARALLELISM,
                            given.get(Setting.MIN_PARALLELISM),
                            Setting.MAX_PARALLELISM,
                            given.get(Setting.MAX_PARALLELISM)),
                    problems);
        }
        return problems;
    }

    private static void check(Map<Setting, String> texts, List<String> problems) {
        Map<Setting, String> withRoom = new EnumMap<>(texts);
        withRoom.putIfAbsent(Setting.MAX_PARALLELISM, Integer.toString(Integer.MAX_VALUE));
        try {
            SettingValues.resolve(withRoom, PREFIX, Setting.Profile.CLUSTER);
        } catch (PolicyException e) {
            for (String problem : e.getMessage().split("; (?=spec\\.autoscaler\\.)")) {
                if (!problems.contains(problem)) {
                    problems.add(problem);
                }
            }
        }
    }
}
