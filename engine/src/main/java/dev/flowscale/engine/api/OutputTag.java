package dev.flowscale.engine.api;

/**
 * Names a side output of an operator: records a function emits with {@code context.output(tag,
 * value)} go to the streams that {@code DataStream.sideOutput(tag)} returns, not to the main
 * output.
 */
public record OutputTag<T>(String id, Class<T> type) {
    public OutputTag {
        if (id == null || id.isBlank()) {
            throw new InvalidJobException("output tag: id is empty; give it a name such as 'late'");
        }
    }
}
