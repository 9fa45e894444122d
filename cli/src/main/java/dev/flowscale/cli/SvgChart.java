package dev.flowscale.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One inline SVG line chart of the HTML report: a titled y axis with "nice" ticks and its unit, a
 * time axis in seconds, vertical event markers, and series that are each drawn in their own colour
 * and dash pattern (stepped where the value holds until the next sample, as parallelism does), so
 * equal values never hide one another. A gap in a series (NaN) breaks its line.
 */
final class SvgChart {
    private static final int LEFT = 64;
    private static final int RIGHT = 12;
    private static final int TOP = 26;
    private static final int BOTTOM = 40;

    /**
     * How a series looks: colour, SVG dash pattern ("" solid), stepped or straight, dot markers.
     */
    record Style(String color, String dash, boolean stepped, boolean dots) {}

    /** A vertical marker at time t: colour, dash and a tooltip. */
    record Marker(double t, String color, String tooltip) {}

    private record Series(String name, double[] t, double[] v, Style style) {}

    private final String title;
    private final String yTitle;
    private final double tEnd;
    private final int width;
    private final int height;
    private final boolean integerY;
    private final List<Series> series = new ArrayList<>();
    private final List<Marker> markers = new ArrayList<>();
    private double fixedMax = Double.NaN;

    SvgChart(String title, String yTitle, double tEnd, int width, int height, boolean integerY) {
        this.title = title;
        this.yTitle = yTitle;
        this.tEnd = Math.max(tEnd, 1);
        this.width = width;
        this.height = height;
        this.integerY = integerY;
    }

    SvgChart series(String name, double[] t, double[] v, Style style) {
        series.add(new Series(name, t, v, style));
        return this;
    }

    /** The y axis always spans 0..max (e.g. 100 for a percentage), whatever the values. */
    SvgChart fixedMax(double max) {
        this.fixedMax = max;
        return this;
    }

    SvgChart marker(Marker marker) {
        markers.add(marker);
        return this;
    }

    String render() {
        double step = niceStep(maxValue() / 4, integerY);
        double yMax = step * Math.max(1, Math.ceil(maxValue() / step));
        StringBuilder svg =
                new StringBuilder(
                        String.format(
                                Locale.ROOT,
                                "<svg class=\"chart\" width=\"%d\" height=\"%d\" "
                                        + "xmlns=\"http://www.w3.org/2000/svg\" role=\"img\"><title>%s</title>",
                                width,
                                height,
                                HtmlReport.escape(title)));
        svg.append(
                String.format(
                        Locale.ROOT,
                        "<text x=\"%d\" y=\"16\" font-size=\"13\" font-weight=\"bold\">%s</text>",
                        LEFT,
                        HtmlReport.escape(title)));
        yAxis(svg, yMax, step);
        timeAxis(svg);
        markers.forEach(m -> marker(svg, m));
        series.forEach(s -> line(svg, s, yMax));
        return svg.append("</svg>").toString();
    }

    private double maxValue() {
        if (Double.isFinite(fixedMax)) {
            return fixedMax;
        }
        double max = 0;
        for (Series s : series) {
            for (double v : s.v()) {
                max = Double.isFinite(v) ? Math.max(max, v) : max;
            }
        }
        return max > 0 ? max : 1;
    }

    /** 1, 2 or 5 times a power of ten; whole numbers on an integer axis. */
    static double niceStep(double rough, boolean integer) {
        double magnitude = Math.pow(10, Math.floor(Math.log10(Math.max(rough, 1e-9))));
        double fraction = rough / magnitude;
        double nice = (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * magnitude;
        return integer ? Math.max(1, Math.round(nice)) : nice;
    }

    private void yAxis(StringBuilder svg, double yMax, double step) {
        int bottom = height - BOTTOM;
        for (double v = 0; v <= yMax + step / 2; v += step) {
            double y = y(v, yMax);
            svg.append(
                    String.format(
                            Locale.ROOT,
                            "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e3e3e3\"/>"
                                    + "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%s</text>",
                            LEFT,
                            y,
                            width - RIGHT,
                            y,
                            LEFT - 6,
                            y + 4,
                            tick(v, step, yMax)));
        }
        svg.append(
                String.format(
                        Locale.ROOT,
                        "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#555\"/>",
                        LEFT,
                        TOP,
                        LEFT,
                        bottom));
        svg.append(
                String.format(
                        Locale.ROOT,
                        "<text font-size=\"11\" text-anchor=\"middle\" transform=\"translate(12,%.1f)"
                                + " rotate(-90)\">%s</text>",
                        (TOP + bottom) / 2.0,
                        HtmlReport.escape(yTitle)));
    }

    private void timeAxis(StringBuilder svg) {
        int bottom = height - BOTTOM;
        svg.append(
                String.format(
                        Locale.ROOT,
                        "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#555\"/>",
                        LEFT,
                        bottom,
                        width - RIGHT,
                        bottom));
        double step = niceStep(tEnd / 6, true);
        for (double t = 0; t <= tEnd + 1e-9; t += step) {
            double x = x(t);
            svg.append(
                    String.format(
                            Locale.ROOT,
                            "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#555\"/>"
                                    + "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%.0f</text>",
                            x,
                            bottom,
                            x,
                            bottom + 4,
                            x,
                            bottom + 16,
                            t));
        }
        svg.append(
                String.format(
                        Locale.ROOT,
                        "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">"
                                + "time since start (s)</text>",
                        (LEFT + width - RIGHT) / 2.0,
                        height - 6));
    }

    private void marker(StringBuilder svg, Marker m) {
        double x = x(m.t());
        svg.append(
                String.format(
                        Locale.ROOT,
                        "<line class=\"marker\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
                                + "stroke=\"%s\" stroke-dasharray=\"2 3\"><title>%s</title></line>",
                        x,
                        TOP,
                        x,
                        height - BOTTOM,
                        m.color(),
                        HtmlReport.escape(m.tooltip())));
    }

    private void line(StringBuilder svg, Series s, double yMax) {
        svg.append("<g class=\"series\" data-series=\"")
                .append(HtmlReport.escape(s.name()))
                .append("\">");
        StringBuilder path = new StringBuilder();
        boolean open = false;
        for (int i = 0; i < s.t().length; i++) {
            if (!Double.isFinite(s.v()[i])) {
                open = false;
                continue;
            }
            double x = x(s.t()[i]);
            double y = y(s.v()[i], yMax);
            if (!open) {
                path.append(String.format(Locale.ROOT, "M%.1f %.1f", x, y));
            } else if (s.style().stepped()) {
                path.append(
                        String.format(
                                Locale.ROOT,
                                " H%.1f V%.1f",
                                x,
                                y)); // hold the value until it changes
            } else {
                path.append(String.format(Locale.ROOT, " L%.1f %.1f", x, y));
            }
            if (s.style().dots()) {
                svg.append(
                        String.format(
                                Locale.ROOT,
                                "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>",
                                x,
                                y,
                                s.style().color()));
            }
            open = true;
        }
        svg.append(
                String.format(
                        Locale.ROOT,
                        "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s>"
                                + "<title>%s</title></path></g>",
                        path,
                        s.style().color(),
                        s.style().dash().isEmpty()
                                ? ""
                                : " stroke-dasharray=\"" + s.style().dash() + "\"",
                        HtmlReport.escape(s.name())));
    }

    private double x(double t) {
        return LEFT + (width - LEFT - RIGHT) * Math.min(Math.max(t, 0), tEnd) / tEnd;
    }

    private double y(double v, double yMax) {
        return TOP + (height - TOP - BOTTOM) * (1 - Math.max(0, v) / yMax);
    }

    /**
     * One format per axis: thousands as "k" when the axis reaches 10,000 (and its steps are whole
     * thousands).
     */
    private static String tick(double v, double step, double yMax) {
        if (yMax >= 10_000 && step % 1000 == 0) {
            return String.format(Locale.ROOT, "%,.0fk", v / 1000);
        }
        return step >= 1
                ? String.format(Locale.ROOT, "%,.0f", v)
                : String.format(Locale.ROOT, "%.2f", v);
    }
}
