package dev.flowscale.engine.examples.nexmark;

import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.examples.nexmark.Event.Auction;
import dev.flowscale.engine.examples.nexmark.Event.Bid;
import dev.flowscale.engine.examples.nexmark.Event.Person;
import java.util.SplittableRandom;

/**
 * A replayable Nexmark event stream: event {@code n} is a pure function of the seed and {@code n},
 * so a {@code GeneratorSource} over {@link #event} replays any range exactly and deals the numbers
 * to parallel instances as splits. Of every {@value #EPOCH} events, {@value #PERSONS} is a person,
 * the next {@value #AUCTIONS} are auctions and the remaining {@value #BIDS} are bids (the standard
 * proportions 1:3:46). An auction's seller and a bid's bidder and auction always exist already,
 * mostly among the most recent ones (as Nexmark's hot sellers, bidders and auctions). Event time
 * advances by one event every 1/eventsPerSecond seconds from {@code startMillis}.
 */
public final class NexmarkGenerator {
    public static final int PERSONS = 1;
    public static final int AUCTIONS = 3;
    public static final int BIDS = 46;
    public static final int EPOCH = PERSONS + AUCTIONS + BIDS;
    public static final long FIRST_PERSON_ID = 1_000;
    public static final long FIRST_AUCTION_ID = 1_000;
    public static final int FIRST_CATEGORY = 10;
    public static final int CATEGORIES = 5;

    /** The first event's time when none is given: a fixed instant, so that replays agree. */
    public static final long DEFAULT_START_MILLIS = 1_767_225_600_000L;

    /** How many of the most recent persons or auctions count as hot. */
    static final int HOT = 4;

    /** How far back a cold choice reaches. */
    static final int RECENT = 100;

    static final String[] STATES = {"AZ", "CA", "ID", "OR", "WA", "WY"};
    static final String[] CITIES = {
        "Phoenix", "Los Angeles", "Boise", "Portland", "Seattle", "Kent"
    };
    static final String[] FIRST_NAMES = {"Peter", "Paul", "Luke", "John", "Saul", "Vicky", "Kate"};
    static final String[] LAST_NAMES = {
        "Shultz", "Abrams", "Spencer", "White", "Bartels", "Walton"
    };

    private final long seed;
    private final long startMillis;
    private final double eventsPerSecond;

    /**
     * @param seed varies every random choice; the same seed replays the same stream
     * @param startMillis event time of event 0
     * @param eventsPerSecond events per second of event time, above 0
     */
    public NexmarkGenerator(long seed, long startMillis, double eventsPerSecond) {
        if (!(eventsPerSecond > 0) || Double.isInfinite(eventsPerSecond)) {
            throw new InvalidJobException(
                    "Nexmark generator: eventsPerSecond "
                            + eventsPerSecond
                            + " is not a finite number above 0; use e.g. 10000");
        }
        this.seed = seed;
        this.startMillis = startMillis;
        this.eventsPerSecond = eventsPerSecond;
    }

    /** Seed 42 from {@link #DEFAULT_START_MILLIS}, 10,000 events per second of event time. */
    public static NexmarkGenerator standard() {
        return new NexmarkGenerator(42, DEFAULT_START_MILLIS, 10_000);
    }

    /** Event number {@code n} (0, 1, 2, ...). */
    public Event event(long n) {
        if (n < 0) {
            throw new IllegalArgumentException("event number " + n + " is negative");
        }
        long epoch = n / EPOCH;
        int offset = (int) (n % EPOCH);
        long time = timeOf(n);
        SplittableRandom random = new SplittableRandom(mix(seed * 31 + mix(n)));
        if (offset < PERSONS) {
            return person(epoch, time, random);
        }
        if (offset < PERSONS + AUCTIONS) {
            return auction(epoch * AUCTIONS + offset - PERSONS, epoch, time, random);
        }
        return bid(epoch, time, random);
    }

    /** Event time of event {@code n}. */
    public long timeOf(long n) {
        return startMillis + (long) Math.floor(n * 1_000.0 / eventsPerSecond);
    }

    private static Person person(long epoch, long time, SplittableRandom random) {
        long id = FIRST_PERSON_ID + epoch;
        int place = random.nextInt(STATES.length);
        String name =
                FIRST_NAMES[random.nextInt(FIRST_NAMES.length)]
                        + " "
                        + LAST_NAMES[random.nextInt(LAST_NAMES.length)];
        return new Person(id, name, "p" + id + "@example.com", CITIES[place], STATES[place], time);
    }

    private static Auction auction(long index, long epoch, long time, SplittableRandom random) {
        long initialBid = 100 + random.nextInt(10_000);
        return new Auction(
                FIRST_AUCTION_ID + index,
                "item-" + index,
                initialBid,
                initialBid + random.nextInt(5_000),
                time,
                time + 10_000 + random.nextInt(60_000),
                FIRST_PERSON_ID + recent(epoch, random),
                FIRST_CATEGORY + random.nextInt(CATEGORIES));
    }

    private static Bid bid(long epoch, long time, SplittableRandom random) {
        long lastAuction = epoch * AUCTIONS + AUCTIONS - 1;
        long auction = FIRST_AUCTION_ID + recent(lastAuction, random);
        long bidder = FIRST_PERSON_ID + recent(epoch, random);
        return new Bid(auction, bidder, 100 + random.nextInt(100_000), time);
    }

    /**
     * An index at most {@code last}: one of the last few half of the time, else of the last 100.
     */
    private static long recent(long last, SplittableRandom random) {
        int reach = random.nextBoolean() ? HOT : RECENT;
        return Math.max(0, last - random.nextInt(reach));
    }

    private static long mix(long x) {
        long z = x * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
