package dev.flowscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code demo --kafka}'s wiring without a broker: the command line it becomes, the run it hands to
 * {@code run}, and bad options refused before a broker starts. KafkaLagScalingIT runs the real
 * thing (a broker, a producer above capacity, kafka-wordcount scaled from lag).
 */
class KafkaDemoCommandTest {

    @Test
    void demoWithKafkaBecomesTheKafkaDemoWithTheOtherArguments() {
        assertThat(Demo.expand(List.of("demo", "--kafka", "--duration", "30s")))
                .containsExactly("demo-kafka", "--duration", "30s");
    }

    @Test
    void demoWithKafkaOnFlinkIsRefusedNamingBothOptions() {
        CommandRun cli = new CommandRun();
        assertThat(cli.run("demo", "--kafka", "--engine", "flink")).isEqualTo(2);
        assertThat(cli.errors()).contains("--kafka").contains("--engine flink");
    }

    @Test
    void theRunIsKafkaWordCountOnTheBrokerWithCheckpointsAndOptionsGivenLaterWin() {
        KafkaDemoCommand demo = parse("--duration", "30s", "--produce", "constant:50");
        List<String> args = demo.runArguments("127.0.0.1:40000", Path.of("/tmp/x"));
        assertThat(args.get(0)).isEqualTo("kafka-wordcount");
        assertThat(args.subList(args.size() - 2, args.size()))
                .containsExactly("--kafka-bootstrap-servers", "127.0.0.1:40000");
        assertThat(demo.produce.rateAt(100)).isEqualTo(50);
        RunCommand run = RunCommand.parsed(args);
        assertThat(run.output().duration()).isEqualTo(Duration.ofSeconds(30));
        assertThat(run.run.jobOptions().kafkaTopic()).isEqualTo(KafkaDemoCommand.INPUT);
        assertThat(run.run.jobOptions().kafkaOutputTopic()).isEqualTo(KafkaDemoCommand.OUTPUT);
    }

    @Test
    void theReportDrawsNoPlannedRateForAJobThatReadsKafka() {
        List<String> args = parse().runArguments("127.0.0.1:40000", Path.of("/tmp/x"));
        assertThat(RunCommand.parsed(args).output().plannedRate()).isNull();
        assertThat(RunCommand.parsed(List.of("wordcount", "--rate", "300")).output().plannedRate())
                .isNotNull();
    }

    @Test
    void theDefaultLoadStepsAboveWhatOneCountInstanceHandles() {
        KafkaDemoCommand demo = parse();
        // --cost count=sleep:10ms: one count instance handles 100 words/s
        assertThat(demo.produce.rateAt(0) * SentenceProducer.WORDS).isGreaterThan(100);
        assertThat(demo.produce.rateAt(60)).isGreaterThan(demo.produce.rateAt(0));
        assertThat(demo.produce.rateAt(100)).isEqualTo(demo.produce.rateAt(0));
    }

    @Test
    void aBadRunOptionIsRefusedBeforeABrokerStarts() {
        CommandRun cli = new CommandRun();
        assertThat(cli.run("demo", "--kafka", "--policy-interval", "soon")).isEqualTo(2);
        assertThat(cli.errors()).contains("--policy-interval");
        assertThat(cli.output()).doesNotContain("starting a Kafka broker");
    }

    @Test
    void zeroPartitionsIsRefusedNamingTheOption() {
        CommandRun cli = new CommandRun();
        assertThat(cli.run("demo", "--kafka", "--partitions", "0")).isEqualTo(2);
        assertThat(cli.errors()).contains("option --partitions is 0");
    }

    private static KafkaDemoCommand parse(String... args) {
        KafkaDemoCommand demo =
                (KafkaDemoCommand) KafkaDemoCommand.spec(System.out, System.err).userObject();
        new CommandLine(demo).parseArgs(args);
        return demo;
    }
}
