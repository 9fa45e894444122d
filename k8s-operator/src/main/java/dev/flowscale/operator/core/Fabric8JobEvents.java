package dev.flowscale.operator.core;

import dev.flowscale.operator.api.StreamJob;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;

/** {@link JobEvents} as core/v1 Events whose involved object is the StreamJob. */
public final class Fabric8JobEvents implements JobEvents {
    static final String COMPONENT = "flowscale-operator";
    private final KubernetesClient client;
    private final Clock clock;
    // Shared by every instance (the reconciler's and the autoscaler loops'): two sequences of their
    // own named two Events of the same millisecond alike, and the second create failed with 409.
    private static final AtomicLong SEQUENCE = new AtomicLong();

    public Fabric8JobEvents(KubernetesClient client, Clock clock) {
        this.client = client;
        this.clock = clock;
    }

    @Override
    public void normal(StreamJob job, String reason, String message) {
        emit(job, "Normal", reason, message);
    }

    @Override
    public void warning(StreamJob job, String reason, String message) {
        emit(job, "Warning", reason, message);
    }

    @Override
    public boolean once(
            StreamJob job, String name, boolean warning, String reason, String message) {
        try {
            create(job, name, warning ? "Warning" : "Normal", reason, message);
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
                return false; // AlreadyExists: an earlier attempt created it
            }
            throw e;
        }
    }

    private void emit(StreamJob job, String type, String reason, String message) {
        String name =
                job.getMetadata().getName()
                        + "."
                        + Long.toHexString(clock.millis())
                        + Long.toHexString(SEQUENCE.incrementAndGet());
        create(job, name, type, reason, message);
    }

    private void create(StreamJob job, String name, String type, String reason, String message) {
        String now = clock.instant().toString();
        Event event =
                new EventBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace(job.getMetadata().getNamespace())
                        .endMetadata()
                        .withInvolvedObject(
                                new ObjectReferenceBuilder()
                                        .withApiVersion(job.getApiVersion())
                                        .withKind(job.getKind())
                                        .withName(job.getMetadata().getName())
                                        .withNamespace(job.getMetadata().getNamespace())
                                        .withUid(job.getMetadata().getUid())
                                        .build())
                        .withType(type)
                        .withReason(reason)
                        .withMessage(message)
                        .withCount(1)
                        .withFirstTimestamp(now)
                        .withLastTimestamp(now)
                        .withNewSource()
                        .withComponent(COMPONENT)
                        .endSource()
                        .build();
        client.v1().events().inNamespace(job.getMetadata().getNamespace()).resource(event).create();
    }
}
