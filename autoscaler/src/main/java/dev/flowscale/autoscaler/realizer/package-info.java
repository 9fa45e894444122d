/**
 * Realizes the policy's {@link dev.flowscale.policy.api.ScalingDecision}s (implements the {@link
 * dev.flowscale.policy.api.ScalingRealizer} port): to realize a decision is to rescale the job,
 * that is stop it with a savepoint, restore it at the new parallelism (keyed state moves by key
 * group), and roll back to the previous parallelism from the same savepoint when the restored job
 * does not come up. Its acts are "realize" (a decision) and "rescale" (the engine's change of
 * parallelism), see docs/autoscaler.md.
 *
 * <p>{@link dev.flowscale.autoscaler.realizer.SingleFlightRealizer} is what a realizer that talks
 * to one job shares: one rescale at a time (a second decision while one is in flight fails with
 * {@link dev.flowscale.autoscaler.realizer.RescaleInProgressException}), and a {@link
 * dev.flowscale.autoscaler.realizer.RescaleReport} to every {@link
 * dev.flowscale.autoscaler.realizer.RescaleListener}. The CLI's in-process realizer extends it; no
 * class here needs the engine.
 */
package dev.flowscale.autoscaler.realizer;
