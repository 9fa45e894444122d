package dev.flowscale.engine.runner;

/** The body of every error response of the job runner API: the HTTP status and what to do. */
public record ApiError(int status, String error) {
}
