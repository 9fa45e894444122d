package dev.flowscale.operator.api;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;

/** A scaling decision as status shows it. */
public class DecisionRecord {
    @JsonPropertyDescription("When the policy decided (RFC 3339)")
    public String time;

    @JsonPropertyDescription("SCALE, NO_CHANGE, BLOCKED, ...")
    public String outcome;

    @JsonPropertyDescription("One line: operator from→to, ... (the printer column)")
    public String summary;

    public List<OperatorChange> operators = new ArrayList<>();
    public List<String> reasons = new ArrayList<>();
}
