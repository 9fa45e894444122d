package dev.flowscale.engine.examples.nexmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.examples.nexmark.Event.Auction;
import dev.flowscale.engine.examples.nexmark.Event.Bid;
import dev.flowscale.engine.examples.nexmark.Event.Person;
import org.junit.jupiter.api.Test;

class NexmarkGeneratorTest {
    private static final int EVENTS = 20_000;
    private final NexmarkGenerator generator = new NexmarkGenerator(7, 1_000_000, 10_000);

    @Test
    void ofEveryFiftyEventsOneIsAPersonThreeAreAuctionsAndFortySixAreBids() {
        int persons = 0;
        int auctions = 0;
        int bids = 0;
        for (long n = 0; n < EVENTS; n++) {
            Event e = generator.event(n);
            int offset = (int) (n % 50);
            if (e instanceof Person) {
                assertThat(offset).isZero();
                persons++;
            } else if (e instanceof Auction) {
                assertThat(offset).isBetween(1, 3);
                auctions++;
            } else {
                assertThat(offset).isGreaterThanOrEqualTo(4);
                bids++;
            }
        }
        assertThat(new int[] {persons, auctions, bids}).containsExactly(400, 1_200, 18_400);
    }

    @Test
    void anEventIsAFunctionOfTheSeedAndItsNumberOnly() {
        NexmarkGenerator again = new NexmarkGenerator(7, 1_000_000, 10_000);
        NexmarkGenerator otherSeed = new NexmarkGenerator(8, 1_000_000, 10_000);
        int differing = 0;
        for (long n = EVENTS - 1; n >= 0; n -= 97) {
            assertThat(again.event(n)).isEqualTo(generator.event(n));
            differing += otherSeed.event(n).equals(generator.event(n)) ? 0 : 1;
        }
        assertThat(differing).isGreaterThan(150);
    }

    @Test
    void sellersBiddersAndAuctionsAlwaysExistBeforeTheEventThatNamesThem() {
        long lastPerson = -1;
        long lastAuction = -1;
        for (long n = 0; n < EVENTS; n++) {
            Event e = generator.event(n);
            if (e instanceof Person p) {
                lastPerson = p.id();
            } else if (e instanceof Auction a) {
                assertThat(a.seller()).isBetween(NexmarkGenerator.FIRST_PERSON_ID, lastPerson);
                assertThat(a.category()).isBetween(10, 14);
                assertThat(a.reserve()).isGreaterThanOrEqualTo(a.initialBid());
                lastAuction = a.id();
            } else if (e instanceof Bid b) {
                assertThat(b.bidder()).isBetween(NexmarkGenerator.FIRST_PERSON_ID, lastPerson);
                assertThat(b.auction()).isBetween(NexmarkGenerator.FIRST_AUCTION_ID, lastAuction);
            }
        }
        assertThat(lastPerson).isEqualTo(1_000 + 399);
        assertThat(lastAuction).isEqualTo(1_000 + 1_199);
    }

    @Test
    void eventTimeAdvancesOneEventPerTenThousandthOfASecond() {
        assertThat(generator.event(0).time()).isEqualTo(1_000_000);
        assertThat(generator.timeOf(9)).isEqualTo(1_000_000);
        assertThat(generator.timeOf(10)).isEqualTo(1_000_001);
        assertThat(generator.event(10_000).time()).isEqualTo(1_001_000);
        assertThat(new NexmarkGenerator(7, 0, 4).timeOf(3)).isEqualTo(750);
    }

    @Test
    void aRateThatIsNotAboveZeroIsRefusedNamingTheField() {
        assertThatThrownBy(() -> new NexmarkGenerator(1, 0, 0))
                .isInstanceOf(InvalidJobException.class)
                .hasMessageContaining("eventsPerSecond 0.0");
    }
}
