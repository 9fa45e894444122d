# The operator image. Build from the repository root after `mvn -B package -DskipTests`:
#   docker build -f k8s-operator/deploy/operator.Dockerfile -t <registry>/flowscale-operator:0.1.0 .
FROM eclipse-temurin:17-jre
RUN useradd --system --uid 10001 flowscale
COPY k8s-operator/target/flowscale-k8s-operator.jar /opt/flowscale/flowscale-k8s-operator.jar
USER 10001
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-jar", "/opt/flowscale/flowscale-k8s-operator.jar"]
