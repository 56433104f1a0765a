import BristleHost
import Glibc
import Testing

/// A child started by the host holds the descriptors it is given and no other: a file another
/// thread had open without close-on-exec (or before it could mark it) does not leak into it,
/// where a conformance test would see it as the brush's and a play worker would keep it open.
@Suite struct ChildLaunchTests {
    /// Runs `/bin/sh -c script` with `redirect` and returns its exit status (-1 when killed).
    private func exitStatus(of script: String, redirect: [(target: Int32, source: Int32)]) throws -> Int32 {
        let pid = try ChildLaunch.start(["/bin/sh", "-c", script], redirect: redirect).get()
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : -1
    }

    @Test func theChildGetsItsRedirectsAndNoOtherDescriptor() throws {
        let plain = open("/dev/null", O_RDONLY)
        try #require(plain >= 0)
        let inheritable = fcntl(plain, F_DUPFD, 10) // F_DUPFD: not close-on-exec
        close(plain)
        try #require(inheritable >= 10)
        defer { close(inheritable) }
        #expect(fcntl(inheritable, F_GETFD) & FD_CLOEXEC == 0)
        let script = "[ -e /proc/$$/fd/\(inheritable) ] && exit 3; [ -e /proc/$$/fd/5 ] || exit 4; exit 0"
        let status = try exitStatus(of: script, redirect: [(5, inheritable)])
        #expect(status != 3, "the child inherited descriptor \(inheritable), which it was not given")
        #expect(status != 4, "the child lost descriptor 5, its redirect")
        #expect(status == 0)
    }

    @Test func anUnlinkedFileIsCloseOnExecAndHasNoName() throws {
        let fd = try #require(UnlinkedFile.create(prefix: "bristle-test-"))
        defer { close(fd) }
        #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0)
        var info = stat()
        #expect(fstat(fd, &info) == 0)
        #expect(info.st_nlink == 0, "the file is unlinked as soon as it is created")
        #expect(write(fd, "ok", 2) == 2 && lseek(fd, 0, SEEK_CUR) == 2, "it is open for writing")
    }
}
