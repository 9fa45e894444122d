package com.example.pageviews;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ParseClicksTest {
    private final List<Click> out = new ArrayList<>();

    @Test
    void aClickBecomesAViewOfItsPage() {
        new ParseClicks()
                .flatMap("{\"seq\":7,\"user\":\"u1\",\"page\":\"/home\",\"bot\":false}", out::add);
        assertThat(out).containsExactly(new Click(7, "u1", "/home", false));
    }

    @Test
    void botsAndLinesThatAreNotClicksAreDropped() {
        ParseClicks parse = new ParseClicks();
        parse.flatMap("{\"seq\":1,\"user\":\"crawler\",\"page\":\"/home\",\"bot\":true}", out::add);
        parse.flatMap("not json", out::add);
        parse.flatMap("{\"seq\":2,\"user\":\"u1\"}", out::add);
        assertThat(out).isEmpty();
    }

    @Test
    void theGeneratorsClicksParseAndAboutItsShareOfBotsIsDropped() {
        ClickGenerator clicks = new ClickGenerator(50, 1_000, 10);
        ParseClicks parse = new ParseClicks();
        for (long seq = 0; seq < 10_000; seq++) {
            parse.flatMap(clicks.click(seq), out::add);
        }
        assertThat(out).hasSizeBetween(8_800, 9_200);
        assertThat(out).extracting(Click::page).allMatch(p -> p.matches("/page/\\d{1,2}"));
        assertThat(clicks.click(42))
                .as("a click depends on its sequence number only")
                .isEqualTo(clicks.click(42));
    }
}
