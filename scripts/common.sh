# Shared by scripts/setup.sh and scripts/test.sh: installs what is missing
# (Debian packages only) and configures + builds the project. Idempotent.
set -euo pipefail

MOE_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MOE_BUILD=${MOE_BUILD:-$MOE_ROOT/build}
LLVM_BIN=/usr/lib/llvm-22/bin
MOE_PACKAGES=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22
              lld-22 ninja-build cmake)

if [ -t 1 ]; then
  log() { printf '\033[1m[moe-mlir]\033[0m %s\n' "$*"; }
else
  log() { printf '[moe-mlir] %s\n' "$*"; }
fi

moe_install_deps() {
  local missing=()
  for pkg in "${MOE_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" \
      || missing+=("$pkg")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    log "dependencies: all installed"
    return
  fi
  log "installing: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
    --no-install-recommends "${missing[@]}"
}

moe_build() {
  if [ ! -f "$MOE_BUILD/build.ninja" ]; then
    log "configuring $MOE_BUILD"
    cmake -G Ninja -S "$MOE_ROOT" -B "$MOE_BUILD" \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
      -DLLVM_EXTERNAL_LIT="$LLVM_BIN/lit" \
      -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
      -DLLVM_USE_LINKER=lld
  fi
  log "building (ninja; this takes a few minutes the first time)"
  ninja -C "$MOE_BUILD" "$@"
}
