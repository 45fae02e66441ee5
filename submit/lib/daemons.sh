# Sourced by submit/local-cluster and submit/local-hdfs: daemons recorded by pid and start time in a state directory,
# free loopback ports, and stopping what was recorded. Expects STATE (the state directory), LOGS, HOST and fail().
# shellcheck shell=bash

# A process's start time in clock ticks since boot (field 22 of /proc/PID/stat): with the pid it names one process.
process_start_time() {
  local stat
  stat="$(cat "/proc/$1/stat" 2>/dev/null)" || return 1
  stat="${stat##*) }" # fields after the command name, which may hold spaces
  # After "pid (comm) " the state is field 3, so the start time (field 22) is the 20th remaining field.
  awk '{ print $20 }' <<<"$stat"
}

record_pid() { # record_pid NAME PID
  local started
  started="$(process_start_time "$2")" || fail 1 "Cannot record $1: process $2 ended at once (see $LOGS/$1.log)"
  printf '%s %s\n' "$2" "$started" >"$STATE/$1.pid"
}

# Succeeds when the process recorded as NAME still runs: same pid, same start time, running CLASS.
recorded_alive() { # recorded_alive NAME CLASS
  local file="$STATE/$1.pid" pid started now
  [[ -f "$file" ]] || return 1
  read -r pid started <"$file" || return 1
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  now="$(process_start_time "$pid")" || return 1
  [[ "$now" == "$started" ]] || return 1
  local command_line
  command_line="$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)" || return 1
  [[ "$command_line" == *"$2"* ]]
}

recorded_pid() {
  local pid _
  read -r pid _ <"$STATE/$1.pid"
  printf '%s\n' "$pid"
}

port_in_use() {
  (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null
}

# Sets variable VAR to a port on HOST that nothing listens on and that this script has not handed out before.
free_port() { # free_port VAR
  # Locals named so that they never shadow the caller's VAR, which printf -v sets.
  local free_port_candidate free_port_tries
  for ((free_port_tries = 0; free_port_tries < 100; free_port_tries++)); do
    free_port_candidate=$((20000 + RANDOM % 30000))
    if [[ " ${TAKEN_PORTS:-} " != *" $free_port_candidate "* ]] && ! port_in_use "$free_port_candidate"; then
      TAKEN_PORTS="${TAKEN_PORTS:-} $free_port_candidate"
      printf -v "$1" '%s' "$free_port_candidate"
      return 0
    fi
  done
  fail 1 "Cannot find a free port on $HOST: 100 random ports in 20000-49999 were taken"
}

# Succeeds while process PID with start time STARTED exists and has not exited (a zombie has exited).
still_running() { # still_running PID STARTED
  local stat
  stat="$(cat "/proc/$1/stat" 2>/dev/null)" || return 1
  stat="${stat##*) }"
  [[ "${stat%% *}" != Z ]] && [[ "$(awk '{ print $20 }' <<<"$stat")" == "$2" ]]
}

# Sends TERM to the recorded daemons still running, in the order given, waits up to 30 s, then KILLs what is left.
# Forgets every given daemon's record. Prints what it stopped (as "<tag>: stopped ...") unless quiet.
stop_daemons() { # stop_daemons TAG quiet|loud NAME=CLASS...
  local tag=$1 mode=$2
  shift 2
  local -a names=() pids=() starts=()
  local entry name class pid started
  for entry in "$@"; do
    name="${entry%%=*}" class="${entry#*=}"
    if recorded_alive "$name" "$class"; then
      read -r pid started <"$STATE/$name.pid"
      names+=("$name")
      pids+=("$pid")
      starts+=("$started")
    fi
    rm -f -- "$STATE/$name.pid"
  done
  if ((${#pids[@]} == 0)); then
    [[ "$mode" == quiet ]] || echo "$tag: not running (state dir $STATE)" >&2
    return 0
  fi
  local i
  for i in "${!pids[@]}"; do
    kill -TERM "${pids[$i]}" 2>/dev/null || true
  done
  local deadline=$((SECONDS + 30)) left
  while ((SECONDS < deadline)); do
    left=0
    for i in "${!pids[@]}"; do
      still_running "${pids[$i]}" "${starts[$i]}" && left=$((left + 1))
    done
    ((left == 0)) && break
    sleep 0.2
  done
  for i in "${!pids[@]}"; do
    if still_running "${pids[$i]}" "${starts[$i]}"; then
      echo "$tag: ${names[$i]} (pid ${pids[$i]}) ignored TERM for 30s; killing it" >&2
      kill -KILL "${pids[$i]}" 2>/dev/null || true
    fi
  done
  [[ "$mode" == quiet ]] || echo "$tag: stopped ${names[*]}" >&2
}
