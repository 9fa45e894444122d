package dev.flowscale.cli;

import java.time.Duration;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The text parts of the HTML report: page head, run header, legend and the table of decisions. */
final class ReportText {
    private static final String STYLE =
            "body{font-family:sans-serif;margin:24px;color:#222;max-width:1400px}"
                    + "svg.chart{background:#fff;border:1px solid #ddd;margin:0 8px 8px 0}.row{display:flex;flex-wrap:wrap}"
                    + "td,th{padding:2px 8px;text-align:left;vertical-align:top;border-bottom:1px solid #eee}"
                    + ".muted{color:#666}.key{display:inline-block;width:28px;height:0;margin:0 6px 3px 12px;"
                    + "border-top-width:3px;vertical-align:middle}h2{font-size:16px;margin:18px 0 6px}";

    private ReportText() {}

    static String head(String title) {
        return "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>"
                + HtmlReport.escape(title)
                + "</title><style>"
                + STYLE
                + "</style></head><body><h1>"
                + HtmlReport.escape(title)
                + "</h1>";
    }

    static String header(HtmlReport.Header header, DateTimeFormatter time) {
        Duration took = Duration.between(header.started(), header.ended());
        StringBuilder options = new StringBuilder();
        for (Map.Entry<String, String> o : header.options().entrySet()) {
            options.append(" --").append(o.getKey()).append(' ').append(o.getValue());
        }
        return "<table class=\"run\">"
                + row(
                        "run",
                        header.outcome()
                                + ", "
                                + time.format(header.started())
                                + " to "
                                + time.format(header.ended())
                                + String.format(Locale.ROOT, " (%.0f s)", took.toMillis() / 1000.0))
                + row("job", header.shape())
                + row("options", options.length() == 0 ? "(defaults)" : options.toString().trim())
                + "</table>";
    }

    private static String row(String name, String value) {
        return "<tr><th>" + name + "</th><td>" + HtmlReport.escape(value) + "</td></tr>";
    }

    /** {@code planned}: whether the charts draw a planned source rate (a generator's --rate). */
    static String legend(boolean planned) {
        return "<p class=\"muted\">"
                + key(HtmlReport.OBSERVED, "solid")
                + "observed (per second, sampled every second)"
                + key(HtmlReport.TARGET, "dashed")
                + "DS2 target rate at each decision (held until the next)"
                + (planned
                        ? key(HtmlReport.PLANNED, "dashed") + "planned source rate (--rate)"
                        : "")
                + key(HtmlReport.SCALE, "dotted")
                + "decision to scale"
                + key(HtmlReport.RESCALE, "dotted")
                + "rescale done. Gaps in a line: no samples while the job was being rescaled.</p>";
    }

    private static String key(String color, String style) {
        return "<span class=\"key\" style=\"border-top-style:"
                + style
                + ";border-top-color:"
                + color
                + "\"></span>";
    }

    static String events(List<RunRecorder.Event> events) {
        StringBuilder html =
                new StringBuilder(
                        "<h2>Decisions and rescales</h2><table><tr><th>time</th><th>what</th>"
                                + "<th>details</th></tr>");
        for (RunRecorder.Event e : events) {
            html.append(
                    String.format(
                            Locale.ROOT,
                            "<tr><td>%.1fs</td><td>%s</td><td>%s%s</td></tr>",
                            e.t(),
                            HtmlReport.escape(e.title()),
                            HtmlReport.escape(String.join("\n", e.details())).replace("\n", "<br>"),
                            note(e.title())));
        }
        return html.append("</table>").toString();
    }

    /** The explanation of a blocked decision under its row, or nothing. */
    static String note(String title) {
        String why = why(title);
        return why.isEmpty()
                ? ""
                : "<br><span class=\"muted\">" + HtmlReport.escape(why) + "</span>";
    }

    /**
     * Why a blocked decision is not an error: what the autoscaler waits for; empty for other
     * decisions.
     */
    static String why(String title) {
        String why;
        if (title.contains("METRICS_MISSING")) {
            why =
                    "expected after the start and after each rescale: the counters restart with the new run, and DS2"
                            + " waits for a full metrics window of it before deciding";
        } else if (title.contains("WARMING_UP")) {
            why =
                    "expected after a rescale: samples within --warm-up of it are ignored while the new instances"
                            + " start and the downtime's backlog drains";
        } else if (title.contains("RESCALE_IN_PROGRESS")) {
            why = "a rescale is still running; the next decision waits for it";
        } else {
            return "";
        }
        return why;
    }
}
