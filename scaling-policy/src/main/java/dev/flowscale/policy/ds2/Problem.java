package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.BlockReason;

/** Why no decision can be made, with an explanation naming the operator and field. */
record Problem(BlockReason reason, String message) {}
