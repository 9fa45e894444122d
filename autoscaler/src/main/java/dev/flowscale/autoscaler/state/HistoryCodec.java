package dev.flowscale.autoscaler.state;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flowscale.policy.api.ScalingHistory;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * A {@link ScalingHistory} as gzipped JSON ({@link HistoryJson}), bounded in size: where the whole
 * history does not fit in {@code maxBytes}, the older half of its decisions (down to the newest
 * one) and the older half of the source rate log's buckets go in turn until it fits; rescales, few
 * and what the downtime and the rescale budget are learned from, are kept. The Flink autoscaler
 * trims the state it keeps in a ConfigMap in the same spirit.
 */
public final class HistoryCodec {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final int maxBytes;

    /**
     * @param maxBytes the most bytes an encoded history may take
     */
    public HistoryCodec(int maxBytes) {
        if (maxBytes < 1024) {
            throw new StateException(
                    "the autoscaler history's size bound is "
                            + maxBytes
                            + " bytes; give at least 1024");
        }
        this.maxBytes = maxBytes;
    }

    /** The history, trimmed to fit in {@code maxBytes}, gzipped. */
    public byte[] encode(ScalingHistory history) {
        ScalingHistory h = history;
        byte[] bytes = gzip(h);
        int buckets = longestSeries(h);
        boolean decisionsNext = true;
        while (bytes.length > maxBytes && (h.decisions().size() > 1 || buckets > 0)) {
            if (decisionsNext && h.decisions().size() > 1 || buckets == 0) {
                int drop = Math.max(1, h.decisions().size() / 2);
                h =
                        new ScalingHistory(
                                h.decisions().subList(drop, h.decisions().size()),
                                h.rescales(),
                                h.sourceRates());
            } else {
                buckets /= 2;
                h =
                        new ScalingHistory(
                                h.decisions(),
                                h.rescales(),
                                HistoryJson.newest(h.sourceRates(), buckets));
            }
            decisionsNext = !decisionsNext;
            bytes = gzip(h);
        }
        if (bytes.length > maxBytes) {
            throw new StateException(
                    "the autoscaler history does not fit in "
                            + maxBytes
                            + " bytes even with one decision and no rate log ("
                            + bytes.length
                            + " bytes); raise the bound");
        }
        return bytes;
    }

    public ScalingHistory decode(byte[] gzipped) {
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gzipped))) {
            return HistoryJson.read(JSON.readTree(in));
        } catch (IOException e) {
            throw new StateException(
                    "stored autoscaler history is not gzipped JSON: " + e.getMessage(), e);
        }
    }

    private static byte[] gzip(ScalingHistory h) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream out = new GZIPOutputStream(bytes)) {
            JSON.writeValue(out, HistoryJson.write(h));
        } catch (IOException e) {
            throw new StateException("cannot write the autoscaler history: " + e.getMessage(), e);
        }
        return bytes.toByteArray();
    }

    private static int longestSeries(ScalingHistory h) {
        int[] longest = {0};
        h.sourceRates()
                .forEachSeries((id, s) -> longest[0] = Math.max(longest[0], s.means().length));
        return longest[0];
    }
}
