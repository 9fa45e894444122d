/**
 * The {@code StreamJob} custom resource ({@code flowscale.dev/v1alpha1}, short name {@code sj}):
 * the Java model from which the CRD and its OpenAPI schema are generated. Users see these names in
 * YAML, so the classes mirror the YAML one to one (public fields, no logic beyond small helpers).
 */
package dev.flowscale.operator.api;
