package dev.flowscale.engine.examples.nexmark;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.KeyedCoProcessFunction;
import dev.flowscale.engine.api.KeyedProcessFunction.Context;
import dev.flowscale.engine.api.KeyedRuntimeContext;
import dev.flowscale.engine.api.ListState;
import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.api.ValueState;
import dev.flowscale.engine.examples.nexmark.Event.Auction;
import dev.flowscale.engine.examples.nexmark.Event.Person;
import dev.flowscale.engine.examples.nexmark.Results.SellerAuction;

/**
 * Q3's incremental join, keyed by person id = seller: a person is kept and meets every auction of
 * theirs that comes later; auctions that come before their seller wait and are emitted when the
 * seller arrives. Each pair is emitted exactly once. Auctions of sellers who never arrive (sellers
 * from other states) wait for good, as in Nexmark's Q3.
 */
final class SellerJoin extends KeyedCoProcessFunction<Long, Person, Auction, SellerAuction> {
    private ValueState<Person> seller;
    private ListState<Auction> waiting;

    @Override
    public void open(KeyedRuntimeContext context) {
        seller = context.valueState(StateDescriptor.value("seller", Person.class));
        waiting = context.listState(StateDescriptor.list("waiting-auctions", Auction.class));
    }

    @Override
    public void processElement1(
            Person person, Context<Long> context, Collector<SellerAuction> out) {
        seller.update(person);
        for (Auction auction : waiting.get()) {
            out.collect(joined(person, auction));
        }
        waiting.clear();
    }

    @Override
    public void processElement2(
            Auction auction, Context<Long> context, Collector<SellerAuction> out) {
        Person person = seller.value();
        if (person == null) {
            waiting.add(auction);
        } else {
            out.collect(joined(person, auction));
        }
    }

    private static SellerAuction joined(Person p, Auction a) {
        return new SellerAuction(p.name(), p.city(), p.state(), a.id());
    }
}
