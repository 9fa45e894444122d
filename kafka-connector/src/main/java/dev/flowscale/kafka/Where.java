package dev.flowscale.kafka;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/** How messages name one record: topic, partition and offset. */
final class Where {
    private Where() {}

    static String of(ConsumerRecord<?, ?> record) {
        return "topic '"
                + record.topic()
                + "' partition "
                + record.partition()
                + " offset "
                + record.offset();
    }
}
