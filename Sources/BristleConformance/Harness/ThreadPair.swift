import Glibc

/// Runs two closures on two new OS threads at the same time and waits for both, for the test
/// that drives two instances concurrently. Each closure's failure is returned.
enum ThreadPair {
    private final class Job: @unchecked Sendable {
        let body: () -> CheckFailure?
        var failure: CheckFailure?
        init(_ body: @escaping () -> CheckFailure?) { self.body = body }
    }

    static func run(_ a: @escaping () -> CheckFailure?, _ b: @escaping () -> CheckFailure?) -> (CheckFailure?, CheckFailure?) {
        let jobs = [Job(a), Job(b)]
        var threads: [pthread_t] = []
        for job in jobs {
            var thread = pthread_t()
            let context = Unmanaged.passRetained(job).toOpaque()
            let status = pthread_create(&thread, nil, { raw in
                let job = Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue()
                job.failure = job.body()
                return nil
            }, context)
            if status == 0 {
                threads.append(thread)
            } else {
                let job = Unmanaged<Job>.fromOpaque(context).takeRetainedValue()
                job.failure = job.body()
            }
        }
        for thread in threads { pthread_join(thread, nil) }
        return (jobs[0].failure, jobs[1].failure)
    }
}
