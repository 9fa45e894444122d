package com.example.pageviews;

/** How many views a page has had so far. */
public record PageCount(String page, long views) {}
