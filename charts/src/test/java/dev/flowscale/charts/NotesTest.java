package dev.flowscale.charts;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NotesTest {

    @Test
    void notesTellHowToCheckTheOperatorRunAnExampleAndSeeDecisions() {
        String notes = FlowscaleChart.notes(ValuesCase.named("defaults"));

        assertThat(notes)
                .contains(
                        "kubectl -n flowscale-system rollout status deployment/flowscale-operator",
                        "kubectl -n jobs apply -f examples/wordcount-recommend.yaml",
                        "kubectl -n jobs get streamjobs",
                        "describe streamjob wordcount-recommend",
                        "{.status.lastDecision}",
                        "http://flowscale-operator.flowscale-system.svc:8080/metrics",
                        "grafana_dashboard=\"1\"",
                        "a ClusterRole and ClusterRoleBinding");
    }

    @Test
    void notesOfANamespacedInstallNameTheWatchedNamespaces() {
        String notes = FlowscaleChart.notes(ValuesCase.named("namespaced monitors"));

        assertThat(notes)
                .contains(
                        "Roles and RoleBindings in team-a, team-b",
                        "kubectl -n team-a apply -f",
                        "a PodMonitor for the job runners' metrics",
                        "a ClusterRole that may read the StreamJob CRD by name")
                .doesNotContain("a ClusterRole and ClusterRoleBinding");
    }
}
