package dev.flowscale.cli.inprocess;

import java.util.ArrayList;
import java.util.List;

/** Daemon threads that keep cores busy until closed: a loaded machine made on purpose. */
final class BusyThreads implements AutoCloseable {

    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running = true;

    private BusyThreads() {}

    static BusyThreads start(int count) {
        BusyThreads busy = new BusyThreads();
        for (int i = 0; i < count; i++) {
            Thread t = new Thread(busy::spin, "busy-" + i);
            t.setDaemon(true);
            busy.threads.add(t);
            t.start();
        }
        return busy;
    }

    private void spin() {
        long x = Thread.currentThread().getId();
        while (running) {
            x = CpuWork.run(100_000, x);
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        for (Thread t : threads) {
            t.join();
        }
    }
}
