# Sourced by every bench/<study>/run.sh (after it has cd'd to the repository
# root). Gives:
#   build                  the build directory, ${BUILD_DIR:-build}
#   bench_build TARGET...  configure the build directory if needed, then
#                          build only the given ninja targets (bench/<name>)
#   bench_matplotlib       install python3-matplotlib if it is missing
#   bench_stamp STUDY [ARGS...]
#                          write "Made at commit <sha> by <command>" into
#                          bench/STUDY/README.md, replacing the line that
#                          starts with "Made at commit " (or adding one below
#                          the title). bench/regenerate.sh sets BENCH_MADE_BY
#                          (the line then names it) and BENCH_COMMIT (the
#                          commit whose clean tree it started from).
build=${BUILD_DIR:-build}

bench_build() {
  [ -d "$build/meson-private" ] || meson setup "$build" >/dev/null
  ninja -C "$build" "$@" >/dev/null
}

bench_matplotlib() {
  /usr/bin/python3 -c "import matplotlib" 2>/dev/null && return 0
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get install -y -qq --no-install-recommends python3-matplotlib
}

bench_stamp() {
  local study=$1
  shift
  local readme=bench/$study/README.md commit by line
  if [ -n "${BENCH_COMMIT:-}" ]; then  # bench/regenerate.sh checked the tree at its start
    commit=$BENCH_COMMIT
  else
    commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
    # Files changed since the commit (other than this study's results) make
    # the stamp say so: such a result is not that commit's.
    if [ -n "$(git status --porcelain --untracked-files=no -- . ":(exclude)bench/$study" 2>/dev/null)" ]; then
      commit="$commit (plus uncommitted changes)"
    fi
  fi
  by=${BENCH_MADE_BY:-bash bench/$study/run.sh${*:+ $*}}
  line="Made at commit $commit by \`$by\` on $(date -u +%Y-%m-%d) ($(nproc) cores)."
  if grep -q '^Made at commit ' "$readme"; then
    awk -v line="$line" '/^Made at commit / { print line; next } { print }' "$readme" >"$readme.tmp"
  else
    awk -v line="$line" 'NR == 1 { print; print ""; print line; next } { print }' "$readme" >"$readme.tmp"
  fi
  mv "$readme.tmp" "$readme"
}
