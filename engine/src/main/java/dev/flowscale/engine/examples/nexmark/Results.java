package dev.flowscale.engine.examples.nexmark;

/** The output records of the Nexmark queries. */
public final class Results {
    private Results() {}

    /** Q1: a bid with its price converted from dollars to euros (cents). */
    public record EuroBid(long auction, long bidder, long euroPrice, long time) {}

    /** Q2: a bid on one of the selected auctions. */
    public record AuctionPrice(long auction, long price) {}

    /** Q3: a seller in a selected state with an auction in the selected category. */
    public record SellerAuction(String name, String city, String state, long auction) {}

    /** Q5: the number of bids an auction got in the sliding window ending at windowEnd. */
    public record AuctionCount(long auction, long windowEnd, long count) {}

    /** Q8: a person who opened an auction in the same tumbling window as they joined. */
    public record NewSeller(long person, String name, long auction, long reserve) {}

    /** Q11: the bids of one bidder in one session [start, end). */
    public record BidderSession(long bidder, long start, long end, long bids) {}
}
