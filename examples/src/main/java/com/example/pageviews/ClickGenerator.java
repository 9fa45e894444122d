package com.example.pageviews;

/**
 * The job's own demo data: click events as JSON lines, each made from its sequence number only, so
 * that a replayed source emits the very same clicks and a test can compute what a run counts.
 */
public final class ClickGenerator {
    private final int pages;
    private final int users;
    private final int botPercent;

    /**
     * @param pages distinct pages (the keys of the count)
     * @param users distinct users
     * @param botPercent the share of clicks made by bots, which the job drops
     */
    public ClickGenerator(int pages, int users, int botPercent) {
        this.pages = pages;
        this.users = users;
        this.botPercent = botPercent;
    }

    /** The click with this sequence number, as a JSON line. */
    public String click(long seq) {
        long h = mix(seq);
        return "{\"seq\":"
                + seq
                + ",\"user\":\"u"
                + Math.floorMod(h >>> 21, users)
                + "\",\"page\":\"/page/"
                + Math.floorMod(h, pages)
                + "\",\"bot\":"
                + (Math.floorMod(h >>> 42, 100) < botPercent)
                + "}";
    }

    /** SplitMix64's finalizer: neighbouring sequence numbers land on unrelated pages. */
    private static long mix(long seq) {
        long z = seq + 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
