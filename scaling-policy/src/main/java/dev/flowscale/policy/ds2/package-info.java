/**
 * Ds2Policy: the DS2 formula (Ds2Formula) with backlog catch-up and production guards: headroom,
 * bounds, key-group alignment, optional skew correction, scale-down delay, dead band, warm-up and
 * metrics validation.
 */
package dev.flowscale.policy.ds2;
