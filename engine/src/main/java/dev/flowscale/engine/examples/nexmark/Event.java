package dev.flowscale.engine.examples.nexmark;

/** One Nexmark event: a new person, a new auction or a bid; each carries its event time. */
public sealed interface Event permits Event.Person, Event.Auction, Event.Bid {
    /** Event time in epoch milliseconds. */
    long time();

    /** A person who joined the auction site. */
    record Person(long id, String name, String email, String city, String state, long time)
            implements Event {}

    /** An auction opened by the person {@code seller}; prices in cents. */
    record Auction(
            long id,
            String item,
            long initialBid,
            long reserve,
            long time,
            long expires,
            long seller,
            int category)
            implements Event {}

    /** A bid of {@code bidder} on {@code auction}; price in cents. */
    record Bid(long auction, long bidder, long price, long time) implements Event {}
}
