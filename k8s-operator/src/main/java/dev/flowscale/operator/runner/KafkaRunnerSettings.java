package dev.flowscale.operator.runner;

import dev.flowscale.operator.api.JobSpec;
import dev.flowscale.operator.api.KafkaSpec;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A StreamJob's {@code spec.kafka} as the runner sees it: {@code --kafka-*} options, and client
 * settings as environment variables {@code KAFKA_CLIENT_<KEY>} taken by the kubelet from the user's
 * Secret ({@code secretKeyRef}), so the operator needs no right to read Secrets' data.
 */
public final class KafkaRunnerSettings {
    /** The built-in job that needs {@code spec.kafka}. */
    static final String KAFKA_JOB = "kafka-wordcount";

    private KafkaRunnerSettings() {}

    static List<String> args(KafkaSpec kafka) {
        List<String> args = new ArrayList<>();
        if (kafka == null) {
            return args;
        }
        add(args, "--kafka-bootstrap-servers", kafka.bootstrapServers);
        add(args, "--kafka-topic", kafka.topic);
        add(args, "--kafka-output-topic", kafka.outputTopic);
        add(args, "--kafka-group-id", kafka.groupId);
        return args;
    }

    private static void add(List<String> args, String option, String value) {
        if (value != null && !value.isBlank()) {
            args.addAll(List.of(option, value));
        }
    }

    static List<EnvVar> env(KafkaSpec kafka) {
        List<EnvVar> env = new ArrayList<>();
        if (kafka == null || kafka.clientSecret == null) {
            return env;
        }
        for (String key : kafka.clientSecret.keys) {
            env.add(
                    new EnvVarBuilder()
                            .withName(envName(key))
                            .withNewValueFrom()
                            .withNewSecretKeyRef()
                            .withName(kafka.clientSecret.name)
                            .withKey(key)
                            .endSecretKeyRef()
                            .endValueFrom()
                            .build());
        }
        return env;
    }

    /** {@code sasl.jaas.config} → {@code KAFKA_CLIENT_SASL_JAAS_CONFIG} (the connector's rule). */
    public static String envName(String key) {
        return "KAFKA_CLIENT_" + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    /** What spec.kafka lacks for the job, each naming the field and the fix. */
    public static void check(JobSpec job, KafkaSpec kafka, List<String> problems) {
        boolean kafkaJob = job != null && KAFKA_JOB.equals(job.builtin);
        if (kafka == null) {
            if (kafkaJob) {
                problems.add(
                        "spec.kafka is missing: built-in job "
                                + KAFKA_JOB
                                + " needs spec.kafka.bootstrapServers and spec.kafka.topic");
            }
            return;
        }
        if (blank(kafka.bootstrapServers)) {
            problems.add("spec.kafka.bootstrapServers is empty: set host:port of the brokers");
        }
        if (blank(kafka.topic)) {
            problems.add("spec.kafka.topic is empty: set the topic the job reads");
        }
        checkSecret(kafka.clientSecret, problems);
    }

    private static void checkSecret(KafkaSpec.ClientSecret secret, List<String> problems) {
        if (secret == null) {
            return;
        }
        if (blank(secret.name)) {
            problems.add(
                    "spec.kafka.clientSecret.name is empty: name the Secret in this namespace");
        }
        if (secret.keys == null || secret.keys.isEmpty()) {
            problems.add(
                    "spec.kafka.clientSecret.keys is empty: list the Secret's keys to pass, e.g."
                            + " security.protocol, sasl.jaas.config");
        }
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
