//go:build 386 || amd64 || arm || arm64 || loong64 || mips64le || mipsle || ppc64le || riscv64 || wasm

package vm

// hostLittleEndian is whether the host stores words little-endian, as the
// interpreted program's memory is: loadWord and storeWord then read and
// write a word of it directly.
const hostLittleEndian = true
