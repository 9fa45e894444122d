package dev.flowscale.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;

/** Ports for servers a test starts on the loopback interface. */
public final class Ports {
    private Ports() {}

    /** A port nothing listens on now (the operating system's pick). */
    public static int free() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on this machine", e);
        }
    }
}
