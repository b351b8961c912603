import Foundation
import Testing
@testable import InteractiveTransition

/// The presentation controller's hooks, as an observer sees them.
@Suite struct LifecycleObserverTests {
    /// Collects every hook call in order.
    final class Recorder: TransitionLifecycleObserver, @unchecked Sendable {
        private let lock = NSLock()
        private var _calls: [String] = []
        private var _snapshots: [TransitionSnapshot] = []
        var calls: [String] { lock.lock(); defer { lock.unlock() }; return _calls }
        var snapshots: [TransitionSnapshot] { lock.lock(); defer { lock.unlock() }; return _snapshots }

        private func add(_ call: String, _ snapshot: TransitionSnapshot) {
            lock.lock(); _calls.append(call); _snapshots.append(snapshot); lock.unlock()
        }
        func presentationTransitionWillBegin(_ t: TransitionSnapshot) { add("presentationWillBegin", t) }
        func presentationTransitionDidEnd(completed: Bool, _ t: TransitionSnapshot) { add("presentationDidEnd(\(completed))", t) }
        func dismissalTransitionWillBegin(_ t: TransitionSnapshot) { add("dismissalWillBegin", t) }
        func dismissalTransitionDidEnd(completed: Bool, _ t: TransitionSnapshot) { add("dismissalDidEnd(\(completed))", t) }
    }

    @Test(arguments: [true, false])
    func dismissalHooksComeOnceEachAndSeeTheFinalState(finishing: Bool) {
        let recorder = Recorder()
        var t = Fixtures.transition(.pinchDismiss)
        t.lifecycleObserver = recorder
        t.begin(at: 0)
        #expect(recorder.calls == ["dismissalWillBegin"])
        #expect(recorder.snapshots.last?.phase == .interactive && recorder.snapshots.last?.progress == 0)
        t.update(0.6, at: 0.1)
        if finishing { t.finish(at: 0.2) } else { t.cancel(at: 0.2) }
        t.finish(at: 0.25)   // ignored: no second did-end
        Fixtures.runToEnd(&t, from: 0.3)
        #expect(recorder.calls == ["dismissalWillBegin", "dismissalDidEnd(\(finishing))"])
        let end = recorder.snapshots.last
        #expect(end?.phase == (finishing ? .finished : .cancelled))
        #expect(end?.progress == (finishing ? 1 : 0), "did-end sees the final state, after completeTransition")
        #expect(end?.didComplete == finishing)
    }

    @Test func aPresentationGetsThePresentationHooks() {
        let recorder = Recorder()
        var t = Fixtures.transition(.zoomPresent)
        t.lifecycleObserver = recorder
        t.update(0.3, at: 0)          // begins implicitly
        t.cancel(at: 0.1)
        Fixtures.runToEnd(&t, from: 0.1)
        #expect(recorder.calls == ["presentationWillBegin", "presentationDidEnd(false)"])
    }

    /// Every lifecycle record reaches the observer, in the order of the transition's own log.
    @Test func everyRecordIsDeliveredInOrder() {
        final class All: TransitionLifecycleObserver, @unchecked Sendable {
            let lock = NSLock()
            var records: [LifecycleRecord] = []
            func transition(_ t: TransitionSnapshot, recorded record: LifecycleRecord) {
                lock.lock(); records.append(record); lock.unlock()
            }
        }
        let all = All()
        var t = Fixtures.transition(.pinchDismiss)
        t.lifecycleObserver = all
        t.update(0.7, at: 0)
        t.finish(at: 0.1)
        t.tick(at: 0.15)
        t.pause(at: 0.15)
        t.cancel(at: 0.2)
        Fixtures.runToEnd(&t, from: 0.2)
        #expect(all.records == t.lifecycle)
        #expect(all.records.count >= 6)
    }
}
