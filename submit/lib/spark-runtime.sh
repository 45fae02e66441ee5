# Sourced by submit/perflab and submit/local-cluster: which Spark to run, building PerfLab on first use, and the
# java command lines Spark's own launcher builds. Expects PERFLAB_REPO (the repository root) to be set.
# shellcheck shell=bash

readonly PERFLAB_APP_JAR="$PERFLAB_REPO/jobs/target/perflab.jar"
readonly PERFLAB_RUNTIME="$PERFLAB_REPO/jobs/target/spark-runtime"
# The runtime's class-data archive, under the runtime (made by submit/lib/class-data-archive at package time).
readonly PERFLAB_CLASS_DATA_ARCHIVE=cds/perflab.jsa

fail() { # fail EXIT_CODE MESSAGE
  echo "${0##*/}: $2" >&2
  exit "$1"
}

java_command() {
  if [[ -n "${JAVA_HOME:-}" ]]; then
    printf '%s\n' "$JAVA_HOME/bin/java"
  else
    printf '%s\n' java
  fi
}

# The Spark installation to run with: $SPARK_HOME when set, otherwise the runtime the build assembles.
spark_home() {
  if [[ -n "${SPARK_HOME:-}" ]]; then
    [[ -d "$SPARK_HOME/jars" || -x "$SPARK_HOME/bin/spark-submit" ]] \
      || fail 1 "Cannot use SPARK_HOME: it has neither bin/spark-submit nor jars/ ($SPARK_HOME)"
    printf '%s\n' "$SPARK_HOME"
  else
    printf '%s\n' "$PERFLAB_RUNTIME"
  fi
}

runtime_built() {
  [[ -f "$PERFLAB_APP_JAR" ]] && compgen -G "$PERFLAB_RUNTIME/jars/spark-core_*.jar" >/dev/null
}

# quiet_mvn ARGS...: mvn ARGS with its output on stderr, less the ANSI colour resets Maven 3.8 prints with -q even in
# batch mode (ESC[0m on stdout and stderr, shown as "[0m[0m" by consoles and logs that do not interpret them).
quiet_mvn() {
  if mvn "$@" 2>&1 | sed -u $'s/\x1b\\[[0-9;]*m//g' >&2; then
    return 0
  else
    return "${PIPESTATUS[0]}"
  fi
}

# Builds the application jar and the Spark runtime once, when what this run needs is missing.
ensure_built() {
  if [[ -f "$PERFLAB_APP_JAR" ]] && { [[ -n "${SPARK_HOME:-}" ]] || runtime_built; }; then
    return 0
  fi
  command -v mvn >/dev/null \
    || fail 1 "Cannot build PerfLab: mvn is not on the PATH (needed once, to create $PERFLAB_APP_JAR)"
  echo "${0##*/}: building the application jar and the Spark runtime (once): mvn -q -B -DskipTests package" >&2
  mkdir -p "$PERFLAB_REPO/.perflab"
  (
    # Concurrent first runs build once: the others wait here, then find the build done.
    if command -v flock >/dev/null; then
      exec 9>"$PERFLAB_REPO/.perflab/build.lock"
      flock 9
    fi
    runtime_built || { cd -- "$PERFLAB_REPO" && quiet_mvn -q -B -DskipTests package; }
  ) || fail 1 "Cannot build PerfLab: mvn package failed (run it in $PERFLAB_REPO to see why)"
  runtime_built || fail 1 "Cannot find the build's output after mvn package ($PERFLAB_APP_JAR, $PERFLAB_RUNTIME/jars)"
}

# hooks_class_loading_text TEXT: whether JVM options in TEXT start Java Flight Recorder or a JVMTI or Java agent. Such a
# JVM hooks class loading, and OpenJDK 17.0.15 mapping the class-data archive then dies loading a class
# (KlassFactory::check_shared_class_file_load_hook, measured with -XX:StartFlightRecording; docs/operations.md).
hooks_class_loading_text() {
  [[ "$1" =~ (StartFlightRecording|[+]FlightRecorder|-agentlib:|-agentpath:|-javaagent:) ]]
}

# class_data_option SPARK_HOME: prints the JVM option that maps the runtime's class-data archive, quoted for Spark's
# option parsers (they split at spaces outside quotes, and a path may hold spaces); prints nothing when SPARK_HOME is
# not the build's runtime, the archive is missing, PERFLAB_CLASS_DATA=off, or the path holds a quote or a backslash.
class_data_option() {
  local archive="$1/$PERFLAB_CLASS_DATA_ARCHIVE"
  [[ "$1" == "$PERFLAB_RUNTIME" && "${PERFLAB_CLASS_DATA:-on}" != off && -f "$archive" && "$archive" != *[\"\\]* ]] \
    || return 0
  printf '"-XX:SharedArchiveFile=%s"\n' "$archive"
}

# spark_command SPARK_HOME CLASS [ARGS...]: sets the array SPARK_COMMAND to the java command line that Spark's launcher
# (org.apache.spark.launcher.Main, what a distribution's bin/spark-class runs) builds for CLASS: module options,
# driver or daemon memory, conf dir on the classpath. The runtime has no bin/ of its own, so we ask the launcher here.
spark_command() {
  local home=$1
  shift
  local out
  out="$(mktemp "${TMPDIR:-/tmp}/perflab-launch.XXXXXX")"
  if ! SPARK_HOME="$home" SPARK_SCALA_VERSION="${SPARK_SCALA_VERSION:-2.13}" \
      "$(java_command)" -Xmx128m -cp "$home/jars/*" org.apache.spark.launcher.Main "$@" >"$out"; then
    rm -f -- "$out"
    fail 1 "Cannot build the command for $1: Spark's launcher failed (SPARK_HOME=$home)"
  fi
  # The launcher prints messages for the user, a NUL and a newline, then the arguments, each ended by a NUL.
  SPARK_COMMAND=()
  local arg first=true
  while IFS= read -r -d '' arg; do
    if [[ "$first" == true ]]; then
      first=false
      [[ -n "$arg" ]] && printf '%s\n' "$arg" >&2
      continue
    fi
    ((${#SPARK_COMMAND[@]} > 0)) || arg="${arg#$'\n'}"
    SPARK_COMMAND+=("$arg")
  done <"$out"
  rm -f -- "$out"
  ((${#SPARK_COMMAND[@]} > 0)) && [[ -x "${SPARK_COMMAND[0]}" ]] \
    || fail 1 "Cannot read the command for $1 from Spark's launcher: unexpected output (SPARK_HOME=$home)"
}
