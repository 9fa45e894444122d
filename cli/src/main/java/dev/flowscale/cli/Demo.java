package dev.flowscale.cli;

import java.util.List;

/**
 * The scripted demo: word count whose split and count operators cost 10 ms per sentence and
 * 1 ms per word (like calls to a remote service), with a source that steps from 200 to 600
 * sentences/s at 40 s and back to 200 at 80 s. Both start at one instance, so within about two
 * minutes the autoscaler scales up, follows the step up, and scales down after it.
 */
final class Demo {
    static final List<String> DEFAULTS = List.of("wordcount", "--rate", "steps:0s=200,40s=800,80s=200",
            "--cost", "split=sleep:10ms,count=sleep:1ms", "--words-per-sentence", "10", "--duration", "120s",
            "--policy-interval", "8s", "--warm-up", "2s", "--scale-down-delay", "10s", "--catch-up", "20s",
            "--print-interval", "4s", "--expected-downtime", "2s");

    private Demo() {
    }

    /** The demo's options, followed by the user's (a later option wins). */
    static List<String> arguments(List<String> given) {
        return FlowscaleMain.withDefaults(DEFAULTS, given);
    }
}
