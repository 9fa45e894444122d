package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.operator.core.OperatorException;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

class StreamJobCrdCheckTest {
    private final StreamJobCrdCheck check = StreamJobCrdCheck.ofThisRelease();

    @Test
    void theChartsCrdIsTheOneTheOperatorCarries() throws IOException {
        check.verify(chartsCrd());
    }

    @Test
    void aCrdWithoutAStatusFieldTheOperatorWritesIsRefusedNamingBothRevisionsAndTheFix()
            throws IOException {
        CustomResourceDefinition old = chartsCrd();
        String current = StreamJobCrdCheck.revision(old.getSpec().getVersions().get(0));
        status(old).getProperties().remove("lastDecision");
        status(old).getProperties().remove("observedGeneration");
        String older = StreamJobCrdCheck.revision(old.getSpec().getVersions().get(0));

        assertThatThrownBy(() -> check.verify(old))
                .isInstanceOf(OperatorException.class)
                .hasMessageContaining("found v1alpha1 schema " + older)
                .hasMessageContaining("needs v1alpha1 schema " + current)
                .hasMessageContaining("status.lastDecision")
                .hasMessageContaining("status.observedGeneration")
                .hasMessageContaining(
                        "kubectl apply --server-side -f charts/flowscale/crds/"
                                + StreamJobCrdCheck.FILE);
        assertThat(older).isNotEqualTo(current).hasSize(12);
    }

    @Test
    void aFieldNestedInAMapOrListIsCheckedToo() throws IOException {
        CustomResourceDefinition old = chartsCrd();
        JSONSchemaProps history = status(old).getProperties().get("history");
        String field = history.getItems().getSchema().getProperties().keySet().iterator().next();
        history.getItems().getSchema().getProperties().remove(field);

        assertThatThrownBy(() -> check.verify(old))
                .hasMessageContaining("status.history[]." + field);
    }

    @Test
    void aStatusThatPreservesUnknownFieldsPrunesNothing() throws IOException {
        CustomResourceDefinition open = chartsCrd();
        JSONSchemaProps status = status(open);
        status.getProperties().clear();
        status.setXKubernetesPreserveUnknownFields(true);

        check.verify(open);
    }

    @Test
    void aMissingCrdIsRefusedWithTheCommandThatInstallsIt() {
        assertThatThrownBy(() -> check.verify((CustomResourceDefinition) null))
                .hasMessageContaining("streamjobs.flowscale.dev is not installed")
                .hasMessageContaining("kubectl apply --server-side -f");
    }

    @Test
    void aCrdThatNoLongerServesTheVersionIsRefused() throws IOException {
        CustomResourceDefinition other = chartsCrd();
        other.getSpec().getVersions().get(0).setName("v1beta1");

        assertThatThrownBy(() -> check.verify(other))
                .hasMessageContaining("does not serve v1alpha1");
    }

    private static JSONSchemaProps status(CustomResourceDefinition crd) {
        return crd.getSpec()
                .getVersions()
                .get(0)
                .getSchema()
                .getOpenAPIV3Schema()
                .getProperties()
                .get("status");
    }

    private static CustomResourceDefinition chartsCrd() throws IOException {
        return Serialization.unmarshal(
                Files.readString(StreamJobCrdTest.checkedInCrd()), CustomResourceDefinition.class);
    }
}
