//go:build !(386 || amd64 || arm || arm64 || loong64 || mips64le || mipsle || ppc64le || riscv64 || wasm)

package vm

// hostLittleEndian is false on a big-endian host: loadWord and storeWord
// then go byte by byte (ir.LoadLE, ir.StoreLE).
const hostLittleEndian = false
