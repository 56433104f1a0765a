#if BRISTLE_LIBFUZZER
import Glibc

/// libFuzzer's side of ``FuzzTarget`` (built by `scripts/fuzz.sh` with
/// `-sanitize=fuzzer -D BRISTLE_LIBFUZZER`): `main` hands the command line to libFuzzer's
/// driver, which mutates with coverage feedback and reports crashes and, with `-timeout`,
/// hangs. The format is whatever the corpus holds: every run goes through content detection,
/// like `bristle render`.
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(_ argc: UnsafeMutablePointer<Int32>,
                       _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                       _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

nonisolated(unsafe) private var target: FuzzTarget?

@main
struct LibFuzzerMain {
    static func main() {
        let work = getenv("BRISTLE_FUZZ_WORK").map { String(cString: $0) } ?? "/tmp/bristle-fuzz-\(getpid())"
        target = FuzzTarget(folder: work + "/run")
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(runDriver(&argc, &argv) { data, size in
            let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
            // Whether the output is aimed at the input follows from the bytes, so a crash replays.
            let variant = bytes.reduce(UInt64(1_469_598_103_934_665_603)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
            _ = target!.run(bytes, variant: variant)
            return 0
        })
    }
}
#endif
