/**
 * Models the policy can learn from a job's own metrics, each pure and immutable: how an operator's
 * capacity grows with its parallelism (ScalabilityFit over a ScalabilityHistory), scale-ups that
 * added no capacity (IneffectiveScaleUp), key skew and hot key groups (HotKeyAnalysis), and a
 * forecast of a source's rate (RateForecaster).
 */
package dev.flowscale.policy.model;
