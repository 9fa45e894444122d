#!/usr/bin/env bash
# Builds flink-autoscaler-standalone 1.10.0 for SideBySide. It is not published on Maven Central
# (flink-autoscaler-standalone and flink-autoscaler-plugin-jdbc answer 404 there; only
# flink-autoscaler is), so this compiles the two modules' sources from the operator's release-1.10.0
# tag against flink-autoscaler 1.10.0 and Flink 1.20.1 from Maven Central (flink-autoscaler 1.10.0
# calls JobVertexDetailsInfo.getSlotSharingGroupId(), a Flink 1.20 API), into target/ (jar) and lib/
# (its class path). Prints the class path to pass as --flink-autoscaler-classpath.
#   [MVN_ARGS=-Dmaven.repo.local=...] bench/flink-autoscaler-standalone/build.sh [/path/to/flink-kubernetes-operator git dir]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="${TMPDIR:-/tmp}/flink-autoscaler-standalone-1.10.0"
src="${1:-$work/operator}"
if [ ! -d "$src" ]; then
  git clone -q --depth 1 --branch release-1.10.0 https://github.com/apache/flink-kubernetes-operator "$src"
fi
rm -rf "$work/build" && mkdir -p "$work/build/src/main"
cp "$here/pom.xml" "$work/build/pom.xml"
(cd "$src" && git archive release-1.10.0 flink-autoscaler-standalone/src/main flink-autoscaler-plugin-jdbc/src/main) \
  | tar -x -C "$work/build"
cp -r "$work/build/flink-autoscaler-standalone/src/main/." "$work/build/src/main/"
cp -r "$work/build/flink-autoscaler-plugin-jdbc/src/main/java/." "$work/build/src/main/java/"
(cd "$work/build" && mvn -B -q ${MVN_ARGS:-} package dependency:copy-dependencies -DincludeScope=runtime \
  -DoutputDirectory="$work/build/lib")
echo "$work/build/target/fas-1.jar:$work/build/lib/*"
