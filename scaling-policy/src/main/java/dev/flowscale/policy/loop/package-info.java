/**
 * The autoscaler loop (AutoscalerLoop): metrics → policy → listeners → realizer, driven by an
 * injected clock.
 */
package dev.flowscale.policy.loop;
