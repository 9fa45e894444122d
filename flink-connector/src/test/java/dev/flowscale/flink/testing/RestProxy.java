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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A TCP proxy on loopback in front of Flink's REST endpoint that can make the endpoint disappear:
 * once a request whose first line contains a marker has been forwarded, every connection is closed
 * at once (as a crashed JobManager's address would) for the length of an outage.
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
                pipe(client, upstream, true);
                pipe(upstream, client, false);
            } catch (IOException e) {
                // closed, or the target refused: the client sees a closed connection
            }
        }
    }

    private void pipe(Socket from, Socket to, boolean request) {
        Thread t =
                new Thread(
                        () -> {
                            try (InputStream in = from.getInputStream();
                                    OutputStream out = to.getOutputStream()) {
                                byte[] buffer = new byte[8192];
                                for (int n; (n = in.read(buffer)) >= 0; ) {
                                    if (down()) {
                                        break;
                                    }
                                    out.write(buffer, 0, n);
                                    out.flush();
                                    if (request) {
                                        watch(
                                                new String(
                                                        buffer,
                                                        0,
                                                        Math.min(n, 200),
                                                        StandardCharsets.ISO_8859_1));
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

    private void watch(String head) {
        String text = marker.get();
        int line = head.indexOf('\r');
        if (text != null
                && line > 0
                && head.substring(0, line).contains(text)
                && marker.compareAndSet(text, null)) {
            // let the answer through first: the request was carried out, then the endpoint is gone
            CompletableFuture.delayedExecutor(300, TimeUnit.MILLISECONDS)
                    .execute(() -> downUntilNanos.set(System.nanoTime() + outage.toNanos()));
        }
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
