package dev.flowscale.cli;

import dev.flowscale.engine.metrics.OperatorRates;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.DoubleUnaryOperator;
import java.util.function.ToDoubleFunction;

/**
 * A self-contained HTML report of a run, viewable offline (inline SVG, no script): a header with
 * the run's time, job and options; the source's observed rate against its planned rate and DS2's
 * target; then one row of small charts per operator (input rate against DS2's target, parallelism
 * as steps, backpressure), each with decisions and rescales marked; and every decision with its
 * reasons, explaining the blocked ones that follow a rescale.
 */
final class HtmlReport {
    static final String OBSERVED = "#1f77b4";
    static final String TARGET = "#ff7f0e";
    static final String PLANNED = "#555555";
    static final String SCALE = "#d62728";
    static final String RESCALE = "#2ca02c";
    private static final int WIDTH = 420;
    private static final int HEIGHT = 200;
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

    private HtmlReport() {}

    /**
     * What the report's header says about the run.
     *
     * @param job the job's name
     * @param shape the job's operators and initial parallelism
     * @param started when the run started
     * @param ended when it ended (or failed)
     * @param outcome completed, failed, stopped by Ctrl-C
     * @param options the command's options as given
     * @param plannedRate the source's planned rate (records/s) at a time since the start; null: as
     *     fast as it can
     */
    record Header(
            String job,
            String shape,
            Instant started,
            Instant ended,
            String outcome,
            Map<String, String> options,
            DoubleUnaryOperator plannedRate) {}

    static void write(Path file, Header header, RunRecorder recorder, String summary)
            throws IOException {
        List<RunRecorder.Sample> samples = recorder.samples();
        Set<String> operators = new LinkedHashSet<>();
        samples.forEach(s -> operators.addAll(s.operators().keySet()));
        double end =
                Math.max(1, Duration.between(header.started(), header.ended()).toMillis() / 1000.0);
        StringBuilder html =
                new StringBuilder(ReportText.head("flowscale run of job '" + header.job() + "'"));
        html.append(ReportText.header(header, TIME))
                .append("<pre>")
                .append(escape(summary))
                .append("</pre>");
        html.append(ReportText.legend(header.plannedRate() != null));
        String source = operators.isEmpty() ? null : operators.iterator().next();
        for (String op : operators) {
            boolean isSource = op.equals(source);
            html.append("<h2>")
                    .append(isSource ? "Source '" : "Operator '")
                    .append(escape(op))
                    .append("'</h2><div class=\"row\">")
                    .append(
                            isSource
                                    ? sourceRate(samples, recorder, header, op, end)
                                    : inputRate(samples, recorder, op, end))
                    .append(
                            chart(
                                            "parallelism",
                                            "instances",
                                            samples,
                                            recorder,
                                            op,
                                            end,
                                            true,
                                            r -> (double) r.parallelism(),
                                            true)
                                    .render())
                    .append(
                            chart(
                                            "backpressure",
                                            "% of time blocked on output",
                                            samples,
                                            recorder,
                                            op,
                                            end,
                                            false,
                                            r -> 100 * zero(r.backpressureRatio()),
                                            false)
                                    .fixedMax(100)
                                    .render());
            if (isSource) {
                html.append(
                        chart(
                                        "backlog",
                                        "records due, not yet emitted",
                                        samples,
                                        recorder,
                                        op,
                                        end,
                                        false,
                                        // A gap, not a 0, where the source had no signal.
                                        r -> r.backlog() == null ? Double.NaN : r.backlog(),
                                        false)
                                .render());
            }
            html.append("</div>");
        }
        html.append(ReportText.events(recorder.events()));
        Files.writeString(file, html.append("</body></html>").toString(), StandardCharsets.UTF_8);
    }

    private static String sourceRate(
            List<RunRecorder.Sample> samples,
            RunRecorder recorder,
            Header header,
            String source,
            double end) {
        SvgChart chart =
                new SvgChart(source + ": emitted rate", "records/s", end, WIDTH, HEIGHT, false);
        series(
                chart,
                source + " observed",
                samples,
                source,
                r -> zero(r.observedOutputRate()),
                new SvgChart.Style(OBSERVED, "", false, false));
        if (header.plannedRate() != null) {
            double[] t = new double[241];
            double[] v = new double[t.length];
            for (int i = 0; i < t.length; i++) {
                t[i] = end * i / (t.length - 1);
                v[i] = header.plannedRate().applyAsDouble(t[i]);
            }
            chart.series(
                    source + " planned (--rate)",
                    t,
                    v,
                    new SvgChart.Style(PLANNED, "8 4", true, false));
        }
        target(chart, recorder, source);
        markers(chart, recorder);
        return chart.render();
    }

    private static String inputRate(
            List<RunRecorder.Sample> samples, RunRecorder recorder, String op, double end) {
        SvgChart chart = new SvgChart(op + ": input rate", "records/s", end, WIDTH, HEIGHT, false);
        series(
                chart,
                op + " observed",
                samples,
                op,
                r -> zero(r.observedProcessingRate()),
                new SvgChart.Style(OBSERVED, "", false, false));
        target(chart, recorder, op);
        markers(chart, recorder);
        return chart.render();
    }

    private static SvgChart chart(
            String what,
            String unit,
            List<RunRecorder.Sample> samples,
            RunRecorder recorder,
            String op,
            double end,
            boolean integer,
            ToDoubleFunction<OperatorRates> value,
            boolean stepped) {
        SvgChart chart = new SvgChart(op + ": " + what, unit, end, WIDTH, HEIGHT, integer);
        series(
                chart,
                op + " " + what,
                samples,
                op,
                value,
                new SvgChart.Style(OBSERVED, "", stepped, false));
        markers(chart, recorder);
        return chart;
    }

    /**
     * DS2's target at each decision, held until the next one (dashed steps with a dot per
     * decision).
     */
    private static void target(SvgChart chart, RunRecorder recorder, String op) {
        List<RunRecorder.Target> targets =
                recorder.targets().stream().filter(t -> t.rates().containsKey(op)).toList();
        double[] t = targets.stream().mapToDouble(RunRecorder.Target::t).toArray();
        double[] v = targets.stream().mapToDouble(x -> zero(x.rates().get(op))).toArray();
        chart.series(op + " DS2 target", t, v, new SvgChart.Style(TARGET, "6 3", true, true));
    }

    /**
     * Samples of {@code op}; a gap (no sample for over 1.6 s, e.g. during a rescale) breaks the
     * line.
     */
    private static void series(
            SvgChart chart,
            String name,
            List<RunRecorder.Sample> samples,
            String op,
            ToDoubleFunction<OperatorRates> value,
            SvgChart.Style style) {
        List<double[]> points = new ArrayList<>();
        double last = Double.NaN;
        for (RunRecorder.Sample s : samples) {
            OperatorRates r = s.operators().get(op);
            if (r != null) {
                if (s.t() - last > 1.6) { // sampled every second
                    points.add(new double[] {s.t(), Double.NaN});
                }
                points.add(new double[] {s.t(), value.applyAsDouble(r)});
                last = s.t();
            }
        }
        chart.series(
                name,
                points.stream().mapToDouble(p -> p[0]).toArray(),
                points.stream().mapToDouble(p -> p[1]).toArray(),
                style);
    }

    private static void markers(SvgChart chart, RunRecorder recorder) {
        for (RunRecorder.Event e : recorder.events()) {
            boolean rescale = e.kind().equals("rescale");
            if (rescale || e.title().startsWith("SCALE")) {
                chart.marker(
                        new SvgChart.Marker(
                                e.t(),
                                rescale ? RESCALE : SCALE,
                                String.format(
                                        Locale.ROOT,
                                        "%.1fs %s: %s",
                                        e.t(),
                                        e.title(),
                                        String.join("; ", e.details()))));
            }
        }
    }

    static double zero(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? 0 : v;
    }

    static String escape(String s) {
        return s.replace("&", "&amp;")
                .replace("<", "&lt;")
                .replace(">", "&gt;")
                .replace("\"", "&quot;");
    }
}
