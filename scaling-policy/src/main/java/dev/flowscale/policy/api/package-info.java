/**
 * The public contracts of the scaling policy: the model a collector fills (JobTopology,
 * MetricsWindow, OperatorMetrics), the self-explaining ScalingDecision, the ScalingPolicy and the
 * autoscaler's ports (MetricsProvider, ScalingRealizer, DecisionListener) with their settings.
 */
package dev.flowscale.policy.api;
