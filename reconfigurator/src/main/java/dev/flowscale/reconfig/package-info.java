/**
 * Realizes the policy's {@link dev.flowscale.policy.api.ScalingDecision}s (implements the {@link
 * dev.flowscale.policy.api.ScalingRealizer} port): to realize a decision is to rescale the job,
 * that is stop it with a savepoint, restore it at the new parallelism (keyed state moves by key
 * group), and roll back to the previous parallelism from the same savepoint when the restored job
 * does not come up. The module keeps its older name, reconfigurator; its acts are "realize" (a
 * decision) and "rescale" (the engine's change of parallelism), see docs/autoscaler.md.
 *
 * <p>{@link dev.flowscale.reconfig.InProcessScalingRealizer} rescales a {@link
 * dev.flowscale.engine.runtime.RunningJob} in this JVM; {@link
 * dev.flowscale.reconfig.HttpRunnerScalingRealizer} rescales a job runner process through its
 * control API and a {@link dev.flowscale.reconfig.RunnerLauncher}. Both run one rescale at a time
 * (a second decision while one is in flight fails with {@link
 * dev.flowscale.reconfig.RescaleInProgressException}), never delete a savepoint, and tell every
 * {@link dev.flowscale.reconfig.RescaleListener} how each rescale went.
 */
package dev.flowscale.reconfig;
