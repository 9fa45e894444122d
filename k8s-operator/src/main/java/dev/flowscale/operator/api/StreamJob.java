package dev.flowscale.operator.api;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A streaming job run by the flowscale job runner and kept at the smallest parallelism that
 * sustains its input by the DS2 autoscaler. The operator owns {@link #getStatus() status}.
 */
@Group(StreamJob.GROUP)
@Version(StreamJob.VERSION)
@Kind("StreamJob")
@Plural("streamjobs")
@Singular("streamjob")
@ShortNames("sj")
@AdditionalPrinterColumn(name = "Phase", jsonPath = ".status.phase")
@AdditionalPrinterColumn(name = "Parallelism", jsonPath = ".status.parallelismSummary")
@AdditionalPrinterColumn(name = "Last Decision", jsonPath = ".status.lastDecision.summary")
@AdditionalPrinterColumn(
        name = "Age",
        jsonPath = ".metadata.creationTimestamp",
        type = AdditionalPrinterColumn.Type.DATE)
public class StreamJob extends CustomResource<StreamJobSpec, StreamJobStatus>
        implements Namespaced {
    public static final String GROUP = "flowscale.dev";
    public static final String VERSION = "v1alpha1";

    @Override
    protected StreamJobStatus initStatus() {
        return new StreamJobStatus();
    }
}
