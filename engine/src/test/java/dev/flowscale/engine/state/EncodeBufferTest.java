package dev.flowscale.engine.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** One buffer per thread, reused: each encoding's bytes are its own. */
class EncodeBufferTest {
    @Test
    void aShortValueAfterALongOneIsNotPaddedWithTheLongOnesBytes() throws Exception {
        byte[] longer = EncodeBuffer.encode(out -> out.write(new byte[100_000]));
        byte[] shorter = EncodeBuffer.encode(out -> out.writeInt(7));
        assertThat(longer).hasSize(100_000);
        assertThat(shorter).containsExactly(0, 0, 0, 7);
    }

    @Test
    void anEncodingInsideAnotherGetsABufferOfItsOwn() throws Exception {
        byte[][] inner = new byte[1][];
        byte[] outer =
                EncodeBuffer.encode(
                        out -> {
                            out.writeByte(1);
                            inner[0] = EncodeBuffer.encode(nested -> nested.writeByte(2));
                            out.writeByte(3);
                        });
        assertThat(outer).containsExactly(1, 3);
        assertThat(inner[0]).containsExactly(2);
    }

    @Test
    void aFailedEncodingLeavesTheBufferUsable() throws Exception {
        assertThatThrownBy(
                        () ->
                                EncodeBuffer.encode(
                                        out -> {
                                            out.writeInt(1);
                                            throw new IOException("unencodable");
                                        }))
                .hasMessage("unencodable");
        assertThat(EncodeBuffer.encode(out -> out.writeByte(5))).containsExactly(5);
    }
}
