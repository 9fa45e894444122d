package dev.flowscale.operator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flowscale.operator.core.OperatorException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.logging.ConsoleHandler;
import java.util.logging.Formatter;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Structured logs: one JSON object per line (time, level, logger, thread, message, and the
 * exception's stack trace when there is one), ready for a cluster's log pipeline. The operator logs
 * through SLF4J, bound to java.util.logging, which this formatter renders.
 */
public final class JsonLogFormatter extends Formatter {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public String format(LogRecord record) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("time", Instant.ofEpochMilli(record.getMillis()).toString());
        line.put("level", record.getLevel().getName());
        line.put("logger", record.getLoggerName());
        line.put("thread", Thread.currentThread().getName());
        line.put("message", formatMessage(record));
        if (record.getThrown() != null) {
            StringWriter trace = new StringWriter();
            record.getThrown().printStackTrace(new PrintWriter(trace));
            line.put("exception", trace.toString());
        }
        try {
            return JSON.writeValueAsString(line) + System.lineSeparator();
        } catch (JsonProcessingException e) {
            return "{\"level\":\"SEVERE\",\"message\":\"log record could not be rendered: "
                    + e.getOriginalMessage().replace("\"", "'")
                    + "\"}"
                    + System.lineSeparator();
        }
    }

    /**
     * Sends every log record to standard error as JSON lines, at the level named by {@code
     * FLOWSCALE_LOG_LEVEL} (java.util.logging names: SEVERE, WARNING, INFO, FINE, ...).
     */
    public static void install(String levelName) {
        Level level = level(levelName);
        LogManager.getLogManager().reset();
        Logger root = Logger.getLogger("");
        ConsoleHandler handler = new ConsoleHandler();
        handler.setFormatter(new JsonLogFormatter());
        handler.setLevel(level);
        root.addHandler(handler);
        root.setLevel(level);
    }

    /**
     * The level named by {@code FLOWSCALE_LOG_LEVEL}: TRACE, DEBUG, INFO, WARN or ERROR (as the
     * Helm value logLevel), or a java.util.logging name (FINE, WARNING, ...); unset means INFO.
     *
     * @throws OperatorException naming the variable and the accepted names
     */
    static Level level(String name) {
        if (name == null || name.isBlank()) {
            return Level.INFO;
        }
        String upper = name.trim().toUpperCase(Locale.ROOT);
        switch (upper) {
            case "TRACE":
                return Level.FINEST;
            case "DEBUG":
                return Level.FINE;
            case "WARN":
                return Level.WARNING;
            case "ERROR":
                return Level.SEVERE;
            default:
                try {
                    return Level.parse(upper);
                } catch (IllegalArgumentException e) {
                    throw new OperatorException(
                            "FLOWSCALE_LOG_LEVEL is '"
                                    + name
                                    + "': use TRACE, DEBUG, INFO, WARN"
                                    + " or ERROR");
                }
        }
    }
}
