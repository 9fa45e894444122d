package com.example.pageviews;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.PackageVersion;
import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.FlatMapFunction;

/**
 * Parses a JSON click with the job's own Jackson (bundled in its jar, whatever version the engine
 * carries) and drops bots and lines that are not clicks. One object serves every instance of the
 * operator: an ObjectMapper is thread-safe once configured.
 */
public final class ParseClicks implements FlatMapFunction<String, Click> {
    private static final ObjectMapper JSON =
            new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    @Override
    public void flatMap(String line, Collector<Click> out) {
        Click click;
        try {
            click = JSON.readValue(line, Click.class);
        } catch (JsonProcessingException notAClick) {
            return; // a malformed line is not a view
        }
        if (!click.bot() && click.page() != null) {
            out.collect(click);
        }
    }

    /** The Jackson version this function parses with (the job's, not the engine's). */
    public static String jacksonVersion() {
        return PackageVersion.VERSION.toString();
    }
}
