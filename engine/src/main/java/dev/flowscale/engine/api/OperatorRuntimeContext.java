package dev.flowscale.engine.api;

/** The runtime context of a non-keyed {@link ProcessFunction}. */
public interface OperatorRuntimeContext extends RuntimeContext, OperatorStateContext {}
