# ---- Benchwright prelude (tools/lib.sh), shared by every prepare and run script ----

# Bash skips EXIT traps when a signal kills it; exiting from these traps instead lets cleanup
# (scratch files, background servers) run when a step is cancelled or times out.
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

bw_log() { printf '[benchwright] %s\n' "$*" >&2; }

# One metric line for the keyvalue parser: bw_metric <name> <value> <unit> [key=value ...]
bw_metric() {
  local name="$1" value="$2" unit="$3"
  shift 3
  printf 'BW_METRIC %s %s %s' "$name" "$value" "$unit"
  [ "$#" -gt 0 ] && printf ' %s' "$@"
  printf '\n'
}

# bw_now [-v <name>]: seconds since the epoch with microseconds, for timing a workload from
# inside the script: printed, or put in the variable <name>. bash 5's $EPOCHREALTIME where there
# is one, `date` elsewhere. With -v no process is started where there is one ("$(bw_now)" is a
# subshell, a fork: a millisecond in a step's own overhead).
bw_now() {
  if [ "${1:-}" = -v ]; then
    if [ -n "${EPOCHREALTIME:-}" ]; then printf -v "$2" '%s' "${EPOCHREALTIME/,/.}"; else printf -v "$2" '%s' "$(date +%s.%N)"; fi
  elif [ -n "${EPOCHREALTIME:-}" ]; then printf '%s\n' "${EPOCHREALTIME/,/.}"; else date +%s.%N; fi
}

# bw_elapsed [-v <name>] <start> <end>: seconds between two bw_now readings, millisecond
# precision, printed or put in <name>; in the shell's own arithmetic when both are seconds with
# at least 6 decimals, else awk. Its own variables begin with __bw_, which <name> must not.
bw_elapsed() {
  local __bw_into= __bw_re='^([0-9]+)\.([0-9]{6})[0-9]*$' __bw_a __bw_d __bw_out=
  if [ "${1:-}" = -v ]; then __bw_into=$2; shift 2; fi
  if [[ $1 =~ $__bw_re ]]; then
    __bw_a=$(( ${BASH_REMATCH[1]} * 1000000 + 10#${BASH_REMATCH[2]} ))
    if [[ $2 =~ $__bw_re ]]; then
      __bw_d=$(( ${BASH_REMATCH[1]} * 1000000 + 10#${BASH_REMATCH[2]} - __bw_a ))
      if (( __bw_d >= 0 )); then
        __bw_d=$(( (__bw_d + 500) / 1000 ))
        printf -v __bw_out '%d.%03d' $(( __bw_d / 1000 )) $(( __bw_d % 1000 ))
      fi
    fi
  fi
  [ -n "$__bw_out" ] || __bw_out=$(awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }')
  if [ -n "$__bw_into" ]; then printf -v "$__bw_into" '%s' "$__bw_out"; else printf '%s\n' "$__bw_out"; fi
}

# Package installs need root; a non-interactive sudo fails fast instead of hanging on a password.
bw_sudo() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  else
    sudo -n "$@"
  fi
}

# Lower-case distribution id from os-release (debian, ubuntu, centos, rhel, ...), or "unknown".
bw_os_id() {
  if [ -r /etc/os-release ]; then
    (. /etc/os-release && printf '%s\n' "${ID:-unknown}" | tr '[:upper:]' '[:lower:]')
  else
    echo unknown
  fi
}

bw_pkg_manager() {
  if command -v apt-get >/dev/null 2>&1; then echo apt
  elif command -v dnf >/dev/null 2>&1; then echo dnf
  elif command -v yum >/dev/null 2>&1; then echo yum
  else echo none
  fi
}

# Some service types run on shared hosts where changing system packages is not ours to do:
# exit 100 so the engine can tell "not allowed" apart from "install failed".
bw_require_install_allowed() {
  if [ "${BW_ALLOW_INSTALL:-0}" != "1" ]; then
    echo "$1 is not installed on this host, and this service type does not allow installing system packages (set allow_install: true)" >&2
    exit 100
  fi
}

bw_apt_install() {
  bw_require_install_allowed "$1"
  local apt=(env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 -y -q)
  # Fresh images often have stale or empty package lists; update only when needed, it is slow.
  if ! bw_sudo "${apt[@]}" install "$@"; then
    bw_log "apt-get install failed; updating package lists and retrying"
    bw_sudo "${apt[@]}" update
    bw_sudo "${apt[@]}" install "$@"
  fi
}

# dnf on current CentOS/RHEL, yum on older ones.
bw_dnf_install() {
  bw_require_install_allowed "$1"
  local pm
  pm="$(bw_pkg_manager)"
  case "$pm" in
    dnf|yum) bw_sudo "$pm" install -y "$@" ;;
    *) echo "neither dnf nor yum found on this host" >&2; exit 101 ;;
  esac
}

# EPEL carries sysbench, iperf3 and stress-ng on CentOS/RHEL; failing to enable it is not
# fatal because the package may also come from another enabled repository.
bw_dnf_install_epel() {
  bw_require_install_allowed "$1"
  bw_dnf_install epel-release || bw_log "could not enable EPEL; trying the enabled repositories"
  bw_dnf_install "$@"
}

# bw_install <debian-pkg> [<rpm-pkg>]: the package manager found on the host decides.
bw_install() {
  local deb="$1" rpm="${2:-$1}"
  case "$(bw_pkg_manager)" in
    apt) bw_apt_install "$deb" ;;
    dnf|yum) bw_dnf_install "$rpm" ;;
    *)
      bw_require_install_allowed "$deb"
      echo "no supported package manager (apt-get, dnf, yum) on this host ($(bw_os_id)); install $deb by hand" >&2
      exit 101
      ;;
  esac
}

# bw_on_exit <command>: runs the command when the script ends, however it ends, the latest
# first. One EXIT trap for every cleanup, because a second `trap ... EXIT` would replace the
# first (a scratch directory and a background server both need one).
BW_ON_EXIT=()
bw_on_exit() {
  BW_ON_EXIT=("$1" "${BW_ON_EXIT[@]}")
  trap bw_run_on_exit EXIT
}
bw_run_on_exit() {
  local c
  for c in "${BW_ON_EXIT[@]}"; do eval "$c" || true; done
}

# A scratch directory inside the working directory, removed on exit; the cwd is the step's
# workspace, so benchmark files never land in /tmp of a small root filesystem.
bw_scratch() {
  BW_SCRATCH="$(mktemp -d "$PWD/bw-scratch.XXXXXX")"
  bw_on_exit "rm -rf $(printf '%q' "$BW_SCRATCH")"
}

# bw_wait_listening <pid> <port> [tcp|udp]: waits up to 10 s for a socket bound to
# 127.0.0.1:<port> or 0.0.0.0:<port>; fails at once when the process is gone. Reads /proc/net
# rather than connecting, which a server may count as a client (iperf3 does).
bw_wait_listening() {
  local pid="$1" hex state=0A table=/proc/net/tcp i
  hex=$(printf '%04X' "$2")
  if [ "${3:-tcp}" = udp ]; then state=07 table=/proc/net/udp; fi
  for i in $(seq 1 100); do
    kill -0 "$pid" 2>/dev/null || return 1
    if grep -Eq "^ *[0-9]*: (0100007F|00000000):$hex 00000000:0000 $state " "$table"; then
      return 0
    fi
    sleep 0.1
  done
  return 1
}

# bw_serve <tcp|udp> <command> [args...]: starts a one-off server in the background on a random
# loopback port, so that two runs on one machine do not clash, and stops it when the script
# ends. `{port}` in the arguments becomes the port; sets BW_SERVER_PORT and BW_SERVER_PID.
bw_serve() {
  local proto="$1" attempt a args
  shift
  for attempt in 1 2 3 4 5; do
    BW_SERVER_PORT=$(( 20000 + RANDOM % 10000 ))
    args=()
    for a in "$@"; do args+=("${a//\{port\}/$BW_SERVER_PORT}"); done
    "${args[@]}" >/dev/null 2>&1 &
    BW_SERVER_PID=$!
    bw_on_exit "kill $BW_SERVER_PID 2>/dev/null; wait $BW_SERVER_PID 2>/dev/null"
    if bw_wait_listening "$BW_SERVER_PID" "$BW_SERVER_PORT" "$proto"; then
      return 0
    fi
    kill "$BW_SERVER_PID" 2>/dev/null || true
  done
  echo "could not start $1 on 127.0.0.1" >&2
  exit 1
}

# bw_serve_role <tcp|udp> <command> [args...]: a serving role's whole run script. Starts the
# server as bw_serve does (listening on every address: give it 0.0.0.0), keeps its port to the
# session's machines (bw_guard_port), says it is ready with its port (the other roles read
# BW_ROLE_<NAME>_PORT and BW_ROLE_<NAME>_HOST), then waits for it: the runner stops the part
# once the other roles have run, and a server that dies early ends the part with its code.
bw_serve_role() {
  bw_serve "$@"
  bw_guard_port "$BW_SERVER_PORT"
  bw_ready port="$BW_SERVER_PORT"
  wait "$BW_SERVER_PID"
}

# bw_guard_port <port>: while this part runs, the port (TCP and UDP: iperf3 measures UDP on
# its control port's number) answers only this host's loopback and the step's machines
# (BW_PEERS, the addresses the engine knows them by, comma separated); others are dropped.
# It takes root or passwordless sudo, and nft or iptables; without them the log says that the
# port is open to every address, and the part goes on. The rule goes when the part ends: here
# on exit (TERM included), and by the runner from firewall.undo when it kills the part.
bw_guard_port() {
  local port="$1" sudo="" peer addr a v4=() v6=() name
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo > /dev/null && sudo -n true 2> /dev/null; then sudo="sudo -n"; else
      echo "bw: port $port is open to every address: this step has neither root nor passwordless sudo to keep it to the session's machines"
      return 0
    fi
  fi
  IFS=, read -ra peer <<< "${BW_PEERS:-}"
  for addr in "${peer[@]}"; do
    # A host name becomes its addresses; anything that is not an address is left out.
    [[ $addr =~ ^[0-9.]+$|: ]] || addr=$(getent ahosts "$addr" 2> /dev/null | while read -r a _; do echo "$a"; done | sort -u)
    for a in $addr; do
      if [[ $a =~ ^[0-9]{1,3}(\.[0-9]{1,3}){3}$ ]]; then v4+=("$a"); elif [[ $a =~ ^[0-9A-Fa-f:.]+$ && $a == *:* ]]; then v6+=("$a"); fi
    done
  done
  # One table (or chain) per part, named after its dir.
  name="bw_$(printf %s "$PWD" | md5sum | cut -c1-16)"
  if command -v nft > /dev/null; then
    printf '%s nft delete table inet %s 2> /dev/null\n' "$sudo" "$name" > firewall.undo
    bw_guard_nft "$name" "$port" "$(IFS=,; echo "${v4[*]}")" "$(IFS=,; echo "${v6[*]}")" > firewall.nft
    if ! $sudo nft -f firewall.nft; then
      bash firewall.undo; rm -f firewall.undo
      echo "bw: port $port is open to every address: nft refused the rule"
      return 0
    fi
  elif command -v iptables > /dev/null; then
    local chain="BW-${name:3:16}" tool
    : > firewall.undo
    for tool in iptables ip6tables; do
      command -v "$tool" > /dev/null || continue
      echo "$sudo $tool -D INPUT -j $chain 2> /dev/null; $sudo $tool -F $chain 2> /dev/null; $sudo $tool -X $chain 2> /dev/null" >> firewall.undo
      if [ "$tool" = iptables ]; then a=("${v4[@]}"); else a=("${v6[@]}"); fi
      if ! bw_guard_iptables "$sudo" "$tool" "$chain" "$port" "${a[@]}"; then
        bash firewall.undo; rm -f firewall.undo
        echo "bw: port $port is open to every address: $tool refused the rule"
        return 0
      fi
    done
  else
    echo "bw: port $port is open to every address: neither nft nor iptables is on this host"
    return 0
  fi
  bw_on_exit "bash firewall.undo; rm -f firewall.undo"
  # An end by TERM (the runner's stop) runs the exit commands too; a KILL leaves them to the runner.
  trap 'exit 143' TERM
  echo "bw: port $port answers only loopback and ${BW_PEERS:-no other machine}"
}

# bw_guard_nft <table> <port> <v4,...> <v6,...>: bw_guard_port's nftables table. Its own table,
# so that it adds a drop to whatever the host's firewall does and accepts nothing on its behalf.
bw_guard_nft() {
  echo "table inet $1 {"
  echo "  chain input {"
  echo "    type filter hook input priority -1; policy accept;"
  echo "    iif lo meta l4proto { tcp, udp } th dport $2 accept"
  [ -n "$3" ] && echo "    ip saddr { $3 } meta l4proto { tcp, udp } th dport $2 accept"
  [ -n "$4" ] && echo "    ip6 saddr { $4 } meta l4proto { tcp, udp } th dport $2 accept"
  echo "    meta l4proto { tcp, udp } th dport $2 drop"
  echo "  }"
  echo "}"
}

# bw_guard_iptables <sudo> <iptables|ip6tables> <chain> <port> [address...]: bw_guard_port's chain,
# jumped to from INPUT: loopback and the addresses go on through INPUT, the port's others are dropped.
bw_guard_iptables() {
  local sudo="$1" tool="$2" chain="$3" port="$4" a proto
  shift 4
  $sudo "$tool" -N "$chain" && $sudo "$tool" -A "$chain" -i lo -j RETURN || return 1
  for a in "$@"; do $sudo "$tool" -A "$chain" -s "$a" -j RETURN || return 1; done
  for proto in tcp udp; do $sudo "$tool" -A "$chain" -p "$proto" --dport "$port" -j DROP || return 1; done
  $sudo "$tool" -I INPUT -j "$chain"
}

# bw_ready [key=value...]: tells the runner this serving role answers; the pairs reach the
# other roles as BW_ROLE_<NAME>_<KEY> (keys in lower case, values without spaces).
bw_ready() {
  echo "BW_READY $*"
}

# ---- end of prelude ----
