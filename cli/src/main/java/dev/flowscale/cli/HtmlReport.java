package dev.flowscale.cli;

import dev.flowscale.engine.metrics.OperatorRates;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * A self-contained HTML report of a run, viewable offline: inline SVG charts of the source
 * rate and backlog, each operator's parallelism and backpressure over time, with decisions and
 * rescales marked, and a table of every decision with its reasons.
 */
final class HtmlReport {
    private static final String[] COLORS = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
        "#e377c2", "#7f7f7f"};
    private static final int WIDTH = 900;
    private static final int HEIGHT = 200;

    private HtmlReport() {
    }

    /**
     * What the report's header says about the run.
     *
     * @param job      the job's name
     * @param shape    the job's operators and initial parallelism
     * @param started  when the run started
     * @param ended    when it ended (or failed)
     * @param outcome  completed, failed, stopped by Ctrl-C
     * @param options  the command's options as given
     */
    record Header(String job, String shape, Instant started, Instant ended, String outcome, Map<String, String> options) {
    }

    static void write(Path file, Header header, RunRecorder recorder, String summary) throws IOException {
        String title = "flowscale run of job '" + header.job() + "'";
        List<RunRecorder.Sample> samples = recorder.samples();
        Set<String> operators = new LinkedHashSet<>();
        samples.forEach(s -> operators.addAll(s.operators().keySet()));
        String source = operators.isEmpty() ? "" : operators.iterator().next();
        double end = samples.isEmpty() ? 1 : samples.get(samples.size() - 1).t();
        StringBuilder html = new StringBuilder("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>")
                .append(escape(title)).append("</title><style>body{font-family:sans-serif;margin:24px;color:#222}"
                        + "svg{background:#fafafa;border:1px solid #ddd}td,th{padding:2px 8px;text-align:left;"
                        + "vertical-align:top;border-bottom:1px solid #eee}.muted{color:#777}</style></head><body>")
                .append("<h1>").append(escape(title)).append("</h1><p>").append(escape(header.outcome() + ", "
                        + header.started() + " to " + header.ended() + "; options " + header.options()))
                .append("</p><pre>").append(escape(summary)).append("</pre>");
        chart(html, "Source rate (records/s, observed)", samples, List.of(source), end, recorder,
                r -> r.observedOutputRate());
        chart(html, "Source backlog (records due but not yet emitted)", samples, List.of(source), end, recorder,
                r -> r.backlog());
        chart(html, "Parallelism per operator", samples, new ArrayList<>(operators), end, recorder,
                r -> r.parallelism());
        chart(html, "Backpressure per operator (share of time blocked on output, %)", samples,
                new ArrayList<>(operators), end, recorder, r -> 100 * zero(r.backpressureRatio()));
        events(html, recorder);
        Files.writeString(file, html.append("</body></html>").toString(), StandardCharsets.UTF_8);
    }

    private static void chart(StringBuilder html, String title, List<RunRecorder.Sample> samples, List<String> series,
                              double end, RunRecorder recorder, ToDoubleFunction<OperatorRates> value) {
        double max = 1;
        for (RunRecorder.Sample s : samples) {
            for (String op : series) {
                OperatorRates r = s.operators().get(op);
                max = r == null ? max : Math.max(max, zero(value.applyAsDouble(r)));
            }
        }
        html.append("<h3>").append(escape(title)).append("</h3><svg width=\"").append(WIDTH + 60).append("\" height=\"")
                .append(HEIGHT + 30).append("\" xmlns=\"http://www.w3.org/2000/svg\">");
        axes(html, max, end);
        markers(html, recorder, end);
        for (int i = 0; i < series.size(); i++) {
            polyline(html, samples, series.get(i), value, max, end, COLORS[i % COLORS.length]);
        }
        html.append("</svg><div>");
        for (int i = 0; i < series.size(); i++) {
            html.append("<span style=\"color:").append(COLORS[i % COLORS.length]).append("\">&#9632; ")
                    .append(escape(series.get(i))).append("</span> ");
        }
        html.append("<span class=\"muted\">dashed: decisions that scaled (red) and rescales (green)</span></div>");
    }

    private static void axes(StringBuilder html, double max, double end) {
        html.append(String.format(Locale.ROOT, "<line x1=\"50\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>",
                HEIGHT + 5, WIDTH + 50, HEIGHT + 5));
        html.append(String.format(Locale.ROOT, "<text x=\"2\" y=\"14\" font-size=\"11\">%s</text>", LiveConsole.rate(max)));
        html.append(String.format(Locale.ROOT, "<text x=\"2\" y=\"%d\" font-size=\"11\">0</text>", HEIGHT + 5));
        for (int i = 0; i <= 4; i++) {
            html.append(String.format(Locale.ROOT, "<text x=\"%.0f\" y=\"%d\" font-size=\"11\">%.0fs</text>",
                    50 + i * WIDTH / 4.0 - 8, HEIGHT + 22, end * i / 4));
        }
    }

    private static void markers(StringBuilder html, RunRecorder recorder, double end) {
        for (RunRecorder.Event e : recorder.events()) {
            boolean rescale = e.kind().equals("rescale");
            if (!rescale && !e.title().startsWith("SCALE")) {
                continue;
            }
            double x = 50 + WIDTH * e.t() / end;
            html.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"0\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" "
                    + "stroke-dasharray=\"4 3\"><title>%s</title></line>", x, x, HEIGHT + 5, rescale ? "#2ca02c" : "#d62728",
                    escape(String.format(Locale.ROOT, "%.1fs %s: %s", e.t(), e.title(), String.join("; ", e.details())))));
        }
    }

    private static void polyline(StringBuilder html, List<RunRecorder.Sample> samples, String op,
                                 ToDoubleFunction<OperatorRates> value, double max, double end, String color) {
        StringBuilder points = new StringBuilder();
        for (RunRecorder.Sample s : samples) {
            OperatorRates r = s.operators().get(op);
            if (r != null) {
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", 50 + WIDTH * s.t() / end,
                        5 + HEIGHT - HEIGHT * zero(value.applyAsDouble(r)) / max));
            }
        }
        html.append("<polyline fill=\"none\" stroke=\"").append(color).append("\" stroke-width=\"2\" points=\"")
                .append(points).append("\"/>");
    }

    private static void events(StringBuilder html, RunRecorder recorder) {
        html.append("<h3>Decisions and rescales</h3><table><tr><th>time</th><th>what</th><th>details</th></tr>");
        for (RunRecorder.Event e : recorder.events()) {
            html.append(String.format(Locale.ROOT, "<tr><td>%.1fs</td><td>%s</td><td>%s</td></tr>", e.t(),
                    escape(e.title()), escape(String.join("\n", e.details())).replace("\n", "<br>")));
        }
        html.append("</table>");
    }

    private static double zero(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? 0 : v;
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
