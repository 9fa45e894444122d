/**
 * The job runner's HTTP contract, shared by the runner (engine) and its clients (autoscaler,
 * Kubernetes operator) without the engine: the paths ({@link
 * dev.flowscale.runner.api.RunnerPaths}), the request and answer bodies, the readiness rule ({@link
 * dev.flowscale.runner.api.Readiness}), one typed client ({@link
 * dev.flowscale.runner.api.RunnerClient}), the metric names ({@link
 * dev.flowscale.runner.api.MetricName}) and the rule for a rate over an empty window ({@link
 * dev.flowscale.runner.api.Rate}). docs/runner-api.md is the prose form of this package.
 */
package dev.flowscale.runner.api;
