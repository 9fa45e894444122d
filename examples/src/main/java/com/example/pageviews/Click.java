package com.example.pageviews;

/** One page view as the click stream records it. */
public record Click(long seq, String user, String page, boolean bot) {}
