/** The Autoscaler loop: metrics → policy → listeners → realizer, driven by an injected clock. */
package dev.flowscale.policy.loop;
