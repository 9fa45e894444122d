# The job runner image the operator deploys (spec.image). Build from the repository root after
# `mvn -B package -DskipTests`:
#   docker build -f k8s-operator/deploy/runner.Dockerfile -t <registry>/flowscale-runner:0.1.0 .
# Built-in jobs run as `run <job> ...` through the entrypoint (EngineMain over /opt/flowscale/lib/*,
# the engine and the Kafka connector); a user's
# job (spec.job.mainClass, a dev.flowscale.engine.job.StreamingJob) runs through the same
# entrypoint as `run --job-jar /opt/flowscale/jobs --job-class <mainClass> ...`: copy its jar into
# /opt/flowscale/jobs in an image built FROM this one (examples/Dockerfile, or Jib: examples/pom.xml).
FROM eclipse-temurin:17-jre
RUN useradd --system --uid 10001 flowscale && mkdir -p /opt/flowscale/lib /opt/flowscale/jobs /flowscale/savepoints \
    && chown flowscale /flowscale/savepoints
COPY engine/target/flowscale-engine.jar /opt/flowscale/lib/flowscale-engine.jar
# The Kafka connector and kafka-clients: adds the built-in job kafka-wordcount (a service the
# engine's catalogue finds on the class path).
COPY kafka-connector/target/flowscale-kafka-connector.jar /opt/flowscale/lib/flowscale-kafka-connector.jar
USER 10001
EXPOSE 9249
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-cp", "/opt/flowscale/lib/*", "dev.flowscale.engine.cli.EngineMain"]
