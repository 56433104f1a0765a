#if BRISTLE_LIBFUZZER
import Glibc

/// libFuzzer's side of ``FuzzTarget`` (built by `scripts/fuzz.sh` with
/// `-sanitize=fuzzer -D BRISTLE_LIBFUZZER`): libFuzzer provides `main`, mutates with coverage
/// feedback and reports crashes and, with `-timeout`, hangs. The format is whatever the
/// corpus holds: every run goes through content detection, like `bristle render`.
nonisolated(unsafe) private var target: FuzzTarget?

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    if target == nil {
        target = FuzzTarget(folder: (getenv("BRISTLE_FUZZ_WORK").map { String(cString: $0) } ?? "/tmp/bristle-fuzz-\(getpid())") + "/run")
    }
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    // The variant (is the output aimed at the input?) follows from the bytes, so a crash replays.
    let variant = bytes.reduce(UInt64(1469598103934665603)) { ($0 ^ UInt64($1)) &* 1099511628211 }
    _ = target!.run(bytes, variant: variant)
    return 0
}
#endif
