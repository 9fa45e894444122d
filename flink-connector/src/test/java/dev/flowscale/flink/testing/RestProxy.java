package dev.flowscale.flink.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A TCP proxy on loopback in front of Flink's REST endpoint that can make the endpoint disappear:
 * once the answer to a request whose first line contains a marker has been passed on, every
 * connection is closed at once (as a crashed JobManager's address would) for the length of an
 * outage.
 */
public final class RestProxy implements AutoCloseable {
    private final ServerSocket server;
    private final URI target;
    private final AtomicReference<String> marker = new AtomicReference<>();
    private volatile Duration outage = Duration.ZERO;
    private final AtomicLong downUntilNanos = new AtomicLong(System.nanoTime());

    public RestProxy(URI target) throws IOException {
        this.target = target;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accept = new Thread(this::accept, "rest-proxy");
        accept.setDaemon(true);
        accept.start();
    }

    public URI uri() {
        return URI.create("http://127.0.0.1:" + server.getLocalPort());
    }

    /** After the next request whose first line contains {@code text}, be down for {@code time}. */
    public void disappearAfter(String text, Duration time) {
        outage = time;
        marker.set(text);
    }

    private boolean down() {
        return System.nanoTime() - downUntilNanos.get() < 0;
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                if (down()) {
                    client.close();
                    continue;
                }
                Socket upstream = new Socket(target.getHost(), target.getPort());
                AtomicBoolean marked = new AtomicBoolean();
                pipe(client, upstream, marked, true);
                pipe(upstream, client, marked, false);
            } catch (IOException e) {
                // closed, or the target refused: the client sees a closed connection
            }
        }
    }

    /**
     * Copies one direction of a connection. The request side marks the connection when it carries
     * the marked request; the answer side, once it has passed that request's answer on, takes the
     * endpoint down: the request was carried out and answered, then the endpoint is gone.
     */
    private void pipe(Socket from, Socket to, AtomicBoolean marked, boolean request) {
        Thread t =
                new Thread(
                        () -> {
                            try (InputStream in = from.getInputStream();
                                    OutputStream out = to.getOutputStream()) {
                                byte[] buffer = new byte[8192];
                                for (int n; (n = in.read(buffer)) >= 0; ) {
                                    if (down() && (request || !marked.get())) {
                                        break; // the marked request's answer still goes through
                                    }
                                    out.write(buffer, 0, n);
                                    out.flush();
                                    if (request) {
                                        marked.compareAndSet(
                                                false,
                                                matches(
                                                        new String(
                                                                buffer,
                                                                0,
                                                                Math.min(n, 200),
                                                                StandardCharsets.ISO_8859_1)));
                                    } else if (marked.get() && !down()) {
                                        downUntilNanos.set(System.nanoTime() + outage.toNanos());
                                    }
                                }
                            } catch (IOException e) {
                                // the other side closed
                            } finally {
                                closeQuietly(from);
                                closeQuietly(to);
                            }
                        },
                        "rest-proxy-pipe");
        t.setDaemon(true);
        t.start();
    }

    private boolean matches(String head) {
        String text = marker.get();
        int line = head.indexOf('\r');
        return text != null
                && line > 0
                && head.substring(0, line).contains(text)
                && marker.compareAndSet(text, null);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
