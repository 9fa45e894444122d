/**
 * A deterministic discrete-time dataflow simulator (DataflowModel) that produces the metrics an
 * instrumented engine would report, drives the Autoscaler with a ManualClock (Simulation), and the
 * SimulationReport main comparing DS2 with a Flink-autoscaler-style policy.
 */
package dev.flowscale.policy.sim;
