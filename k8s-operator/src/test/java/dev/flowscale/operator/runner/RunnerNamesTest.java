package dev.flowscale.operator.runner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.operator.StreamJobs;
import dev.flowscale.operator.api.StreamJob;
import org.junit.jupiter.api.Test;

class RunnerNamesTest {
    /** A Service's name (DNS-1035 label), from the Kubernetes API's validation. */
    static final String DNS_1035_LABEL = "[a-z]([-a-z0-9]*[a-z0-9])?";

    /**
     * A label value, from the Kubernetes API's validation (at most 63 characters checked apart).
     */
    static final String LABEL_VALUE = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";

    @Test
    void aShortNameKeepsItsResourceNamesAndLabels() {
        StreamJob job = StreamJobs.wordCount("jobs", "wc");

        assertThat(RunnerResources.runnerName(job)).isEqualTo("wc-runner");
        assertThat(RunnerResources.configName(job)).isEqualTo("wc-config");
        assertThat(RunnerResources.labels(job)).containsEntry("app.kubernetes.io/instance", "wc");
    }

    @Test
    void aStreamJobNameOf253CharactersGivesValidServiceDeploymentAndLabelValues() {
        StreamJob job = StreamJobs.wordCount("jobs", longName('a'));

        for (String name :
                new String[] {RunnerResources.runnerName(job), RunnerResources.configName(job)}) {
            assertThat(name).hasSizeLessThanOrEqualTo(63).matches(DNS_1035_LABEL);
        }
        assertThat(RunnerResources.runnerName(job)).endsWith("-runner");
        assertThat(RunnerResources.labels(job).values())
                .allSatisfy(v -> assertThat(v).hasSizeLessThanOrEqualTo(63).matches(LABEL_VALUE));
    }

    @Test
    void twoLongNamesWithACommonPrefixGetDifferentResources() {
        StreamJob one = StreamJobs.wordCount("jobs", longName('a'));
        StreamJob two = StreamJobs.wordCount("jobs", longName('b'));

        assertThat(RunnerResources.runnerName(one)).isNotEqualTo(RunnerResources.runnerName(two));
        assertThat(RunnerResources.selector(one)).isNotEqualTo(RunnerResources.selector(two));
    }

    @Test
    void aNameWithDotsOrALeadingDigitBecomesAValidServiceName() {
        assertThat(RunnerNames.resourceName("team.a.wc", "-runner"))
                .matches(DNS_1035_LABEL)
                .startsWith("team-a-wc-")
                .endsWith("-runner");
        assertThat(RunnerNames.resourceName("7up", "-runner"))
                .matches(DNS_1035_LABEL)
                .startsWith("j7up-");
        assertThat(RunnerNames.labelValue("team.a.wc")).isEqualTo("team.a.wc");
    }

    @Test
    void aNameCutAtADashOrDotStillEndsAlphanumeric() {
        String name = "x".repeat(54) + ".-" + "y".repeat(20);
        assertThat(RunnerNames.labelValue(name)).matches(LABEL_VALUE).hasSizeLessThanOrEqualTo(63);
        assertThat(RunnerNames.resourceName("a".repeat(46) + "--b." + "c".repeat(20), "-runner"))
                .matches(DNS_1035_LABEL)
                .hasSizeLessThanOrEqualTo(63);
    }

    /** 253 characters (a DNS-1123 subdomain's maximum): dotted labels, ending on {@code last}. */
    private static String longName(char last) {
        String name = ("a".repeat(62) + ".").repeat(4);
        return name + last;
    }
}
