package dev.flowscale.charts;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Grafana's template variables in a dashboard query, replaced as Grafana would before sending it to
 * Prometheus.
 */
final class PromQl {
    private static final Pattern VARIABLE = Pattern.compile("\\$(?:\\{(\\w+)}|(\\w+))");

    private PromQl() {}

    /**
     * {@code expr} with every {@code $name} or {@code ${name}} replaced; fails on a variable it was
     * not given.
     */
    static String substitute(String expr, Map<String, String> variables) {
        Matcher m = VARIABLE.matcher(expr);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String name = m.group(1) != null ? m.group(1) : m.group(2);
            String value = variables.get(name);
            if (value == null) {
                throw new AssertionError(
                        "query "
                                + expr
                                + " uses $"
                                + name
                                + ", which this test does not know; "
                                + "known: "
                                + variables.keySet());
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }
}
