/**
 * Test support shared by every module's tests: {@link dev.flowscale.testsupport.Await} for waiting
 * on a condition, {@link dev.flowscale.testsupport.ChildProcess} for a process a test starts,
 * {@link dev.flowscale.testsupport.Ports} for free ports. Fixtures that need the engine (the
 * counting job) are in the engine's test-jar instead, since this module sits below the engine.
 */
package dev.flowscale.testsupport;
