/**
 * A deterministic discrete-time dataflow simulator (DataflowModel) that produces the metrics an
 * instrumented engine would report and drives the AutoscalerLoop with a ManualClock (Simulation);
 * the scenarios every policy is measured on (ScenarioSuite, RandomDataflows) and the settling
 * checker that judges a run (SettlingCriteria, SettlingReport); the SimulationReport and
 * SettlingSuiteReport mains. The real Flink autoscaler runs on the same scenarios in the
 * policy-comparison module.
 */
package dev.flowscale.policy.sim;
