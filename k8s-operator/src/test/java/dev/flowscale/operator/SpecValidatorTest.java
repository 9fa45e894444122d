package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.operator.api.StreamJobSpec;
import dev.flowscale.operator.runner.KafkaRunnerSettings;
import java.util.List;
import org.junit.jupiter.api.Test;

class SpecValidatorTest {

    private static StreamJobSpec valid() {
        return StreamJobs.wordCount("ns", "wc").getSpec();
    }

    @Test
    void anUnknownUpgradeModeNamesTheFieldAndBothModes() {
        StreamJobSpec spec = valid();
        spec.savepoints.upgradeMode = "stateless";
        assertThat(SpecValidator.problems(spec))
                .singleElement()
                .asString()
                .contains("spec.savepoints.upgradeMode is 'stateless'")
                .contains("savepoint")
                .contains("last-state");
        spec.savepoints.upgradeMode = "last-state";
        assertThat(SpecValidator.problems(spec)).isEmpty();
    }

    @Test
    void kafkaWordCountWithItsKafkaSettingsHasNoProblems() {
        assertThat(SpecValidator.problems(StreamJobs.kafkaWordCount("ns", "k").getSpec()))
                .isEmpty();
    }

    @Test
    void kafkaWordCountWithoutSpecKafkaNamesTheFieldsItNeeds() {
        StreamJobSpec spec = StreamJobs.kafkaWordCount("ns", "k").getSpec();
        spec.kafka = null;
        assertThat(SpecValidator.problems(spec))
                .singleElement()
                .asString()
                .contains("spec.kafka is missing")
                .contains("spec.kafka.bootstrapServers and spec.kafka.topic");
    }

    @Test
    void blankKafkaFieldsAndASecretWithoutKeysAreEachNamed() {
        StreamJobSpec spec = StreamJobs.kafkaWordCount("ns", "k").getSpec();
        spec.kafka.bootstrapServers = " ";
        spec.kafka.topic = null;
        spec.kafka.clientSecret.keys = List.of();
        assertThat(SpecValidator.problems(spec))
                .hasSize(3)
                .anySatisfy(p -> assertThat(p).startsWith("spec.kafka.bootstrapServers is empty"))
                .anySatisfy(p -> assertThat(p).startsWith("spec.kafka.topic is empty"))
                .anySatisfy(p -> assertThat(p).startsWith("spec.kafka.clientSecret.keys is empty"));
    }

    @Test
    void aSecretKeyBecomesTheConnectorsEnvironmentVariable() {
        assertThat(KafkaRunnerSettings.envName("sasl.jaas.config"))
                .isEqualTo("KAFKA_CLIENT_SASL_JAAS_CONFIG");
        assertThat(KafkaRunnerSettings.envName("ssl.truststore-type"))
                .isEqualTo("KAFKA_CLIENT_SSL_TRUSTSTORE_TYPE");
    }

    @Test
    void aCompleteSpecHasNoProblems() {
        assertThat(SpecValidator.problems(valid())).isEmpty();
    }

    @Test
    void aJobWithoutAClaimIsRejectedUnlessItSaysItIsEphemeral() {
        StreamJobSpec spec = valid();
        spec.savepoints.claimName = null;
        assertThat(SpecValidator.problems(spec))
                .singleElement()
                .asString()
                .contains("spec.savepoints.claimName is empty")
                .contains("spec.savepoints.ephemeral: true");

        spec.savepoints.ephemeral = true;
        assertThat(SpecValidator.problems(spec)).isEmpty();
    }

    @Test
    void theCheckpointIntervalIsTheOperatorsToSet() {
        StreamJobSpec spec = valid();
        spec.job.args = java.util.List.of("--checkpoint-interval", "5s");
        assertThat(SpecValidator.problems(spec))
                .singleElement()
                .asString()
                .contains("must not set --checkpoint-interval")
                .contains("spec.savepoints.checkpointInterval");
    }

    @Test
    void aRetentionBelowOneIsRejectedNamingTheField() {
        StreamJobSpec spec = valid();
        spec.savepoints.retain = 0;
        assertThat(SpecValidator.problems(spec))
                .singleElement()
                .asString()
                .startsWith("spec.savepoints.retain is 0")
                .contains("from 1 to 1000");
        spec.savepoints.retain = 1;
        assertThat(SpecValidator.problems(spec)).isEmpty();
    }

    @Test
    void theRetentionIsTheOperatorsToPassToTheRunner() {
        StreamJobSpec spec = valid();
        spec.job.args = java.util.List.of("--retain", "5");
        assertThat(SpecValidator.problems(spec))
                .singleElement()
                .asString()
                .contains("must not set --retain")
                .contains("spec.savepoints.retain");
    }

    @Test
    void aRetryBackoffOfZeroIsRejectedAsItWouldLoop() {
        StreamJobSpec spec = valid();
        spec.rescaling.retryBackoff = "0s";
        assertThat(SpecValidator.problems(spec))
                .singleElement()
                .asString()
                .startsWith("spec.rescaling.retryBackoff is 0s")
                .contains("above 0");
    }

    @Test
    void anUnknownBuiltinJobNamesTheJobsThereAre() {
        StreamJobSpec spec = valid();
        spec.job.builtin = "wordcont";
        assertThat(SpecValidator.problems(spec))
                .singleElement()
                .asString()
                .contains("spec.job.builtin 'wordcont'")
                .contains(
                        "[chain, kafka-wordcount, nexmark-q1, nexmark-q11, nexmark-q2, nexmark-q3, nexmark-q5,"
                                + " nexmark-q8, sensor-alerts, wordcount]")
                .contains("spec.job.mainClass");
    }

    @Test
    void theEventTimeJobsAreBuiltinJobsAStreamJobMayName() {
        for (String name : List.of("sensor-alerts", "nexmark-q3", "nexmark-q11")) {
            StreamJobSpec spec = valid();
            spec.job.builtin = name;
            assertThat(SpecValidator.problems(spec)).as(name).isEmpty();
        }
    }

    @Test
    void bothABuiltinJobAndAMainClassIsAProblem() {
        StreamJobSpec spec = valid();
        spec.job.mainClass = "com.example.MyJob";
        assertThat(SpecValidator.problems(spec)).singleElement().asString().contains("exactly one");
    }

    @Test
    void minParallelismAboveMaxSaysWhichWayToFixIt() {
        StreamJobSpec spec = valid();
        spec.autoscaler.minParallelism = 5;
        spec.autoscaler.maxParallelism = 3;
        assertThat(SpecValidator.problems(spec))
                .anySatisfy(
                        p ->
                                assertThat(p)
                                        .isEqualTo(
                                                "spec.autoscaler.minParallelism 5 is above spec.autoscaler.maxParallelism 3; lower it or"
                                                        + " raise the maximum"));
    }

    @Test
    void initialParallelismMustBeWithinOneAndTheMaximum() {
        StreamJobSpec spec = valid();
        spec.parallelism.put("count", 0);
        spec.parallelism.put("split", 99);
        spec.autoscaler =
                AutoscalerDefaults.builtIn()
                        .resolve(spec.autoscaler); // as the reconciler does: max 32
        assertThat(SpecValidator.problems(spec))
                .hasSize(2)
                .anySatisfy(p -> assertThat(p).contains("spec.parallelism.count is 0"))
                .anySatisfy(p -> assertThat(p).contains("spec.parallelism.split is 99"));
    }

    @Test
    void badDurationsAndQuantitiesNameTheFieldAndTheFormat() {
        StreamJobSpec spec = valid();
        spec.autoscaler.policyInterval = "half a minute";
        spec.resources.memory = "lots";
        assertThat(SpecValidator.problems(spec))
                .anySatisfy(
                        p ->
                                assertThat(p)
                                        .contains("spec.autoscaler.policyInterval")
                                        .contains("e.g. 30s"))
                .anySatisfy(p -> assertThat(p).contains("spec.resources.memory"));
    }

    @Test
    void aRelativeSavepointPathIsAProblem() {
        StreamJobSpec spec = valid();
        spec.savepoints.path = "savepoints";
        assertThat(SpecValidator.problems(spec))
                .singleElement()
                .asString()
                .contains("absolute path");
    }

    @Test
    void theValuesOfABuiltinJobsArgumentsAreLeftToTheRunnerWhichTheOperatorDoesNotLoad() {
        StreamJobSpec spec = valid();
        spec.job.args = java.util.List.of("--rate", "fast");
        assertThat(SpecValidator.problems(spec)).isEmpty();
    }

    @Test
    void optionsTheOperatorSetsItselfAreRejectedWithWhereToSetThem() {
        StreamJobSpec spec = valid();
        spec.job.args = java.util.List.of("--parallelism", "count=4");
        assertThat(SpecValidator.problems(spec))
                .singleElement()
                .satisfies(
                        p ->
                                assertThat(p)
                                        .contains("must not set --parallelism")
                                        .contains("use spec.parallelism"));
    }
}
