package dev.flowscale.engine.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.flowscale.engine.state.StateCodec;
import org.junit.jupiter.api.Test;

/** The warm-up runs the manifest codec both ways over every kind of entry. */
class ManifestWarmUpTest {
    @Test
    void theWarmUpManifestDecodesToWhatWasEncoded() {
        SnapshotMetadata sample = ManifestWarmUp.sample();
        SnapshotMetadata decoded = ManifestWarmUp.roundTrip();
        assertThat(decoded.operators()).isEqualTo(sample.operators());
        assertThat(decoded.operators().get(0).instances().get(1).rocksDb().files()).hasSize(2);
        assertThat(decoded.checksum()).isNotBlank();
    }

    @Test
    void theChecksumWrittenInOnePassIsTheOneAReaderComputes() throws Exception {
        JsonNode read = StateCodec.json().readTree(ManifestFile.encode(ManifestWarmUp.sample()));
        assertThat(read.get(ManifestFile.CHECKSUM).asText())
                .isEqualTo(ManifestFile.checksum(read))
                .hasSize(64);
    }
}
