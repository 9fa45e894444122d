package dev.flowscale.kafka;

/**
 * What a Kafka source does with a record its deserializer rejects: fail the job (the default; the
 * error names topic, partition and offset) or write the record to a dead-letter topic and go on.
 *
 * @param deadLetterTopic null to fail the job
 */
public record BadRecords(String deadLetterTopic) {
    /** Fail the job at the first bad record. */
    public static BadRecords fail() {
        return new BadRecords(null);
    }

    /** Copy bad records, with headers saying where they came from and why, to {@code topic}. */
    public static BadRecords deadLetterTopic(String topic) {
        if (topic == null || topic.isBlank()) {
            throw new KafkaConnectorException(
                    "bad records: the dead-letter topic is empty; name a topic or use fail()");
        }
        return new BadRecords(topic);
    }

    public boolean failJob() {
        return deadLetterTopic == null;
    }

    /** The form {@code fail} or {@code dead-letter:<topic>}, as the command line takes it. */
    public static BadRecords parse(String text) {
        if ("fail".equals(text)) {
            return fail();
        }
        if (text != null && text.startsWith("dead-letter:")) {
            return deadLetterTopic(text.substring("dead-letter:".length()));
        }
        throw new KafkaConnectorException(
                "bad records: '" + text + "' is not 'fail' or 'dead-letter:<topic>'");
    }
}
