package dev.flowscale.runner.api;

/**
 * The body of every error answer of the runner API: the HTTP status and what happened and what to
 * do.
 */
public record ApiError(int status, String error) {}
