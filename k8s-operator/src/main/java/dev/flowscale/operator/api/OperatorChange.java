package dev.flowscale.operator.api;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** One operator's part of a decision: parallelism from → to, with DS2's figures. */
public class OperatorChange {
    public String operator;
    public int from;
    public int to;

    @JsonPropertyDescription("Records per second the operator must process")
    public double targetRate;

    @JsonPropertyDescription(
            "True processing rate per instance (records per second of useful time)")
    public double capacity;

    public OperatorChange() {}

    public OperatorChange(String operator, int from, int to, double targetRate, double capacity) {
        this.operator = operator;
        this.from = from;
        this.to = to;
        this.targetRate = targetRate;
        this.capacity = capacity;
    }
}
