import GestureKit

/// What a replay produced, kept for drawing: finger tracks, the gesture's values over time, the
/// transition's progress over time and the moments that matter. Times are seconds from the first event.
public struct ReplayTimeline: Sendable {
    public struct FingerSample: Sendable { public var time: Double; public var position: PointMM }
    public struct ValueSample: Sendable { public var time: Double; public var value: Double }
    public struct Marker: Sendable {
        public enum Kind: String, Sendable { case began, release, finish, cancel, gestureCancelled }
        public var kind: Kind
        public var time: Double
        public var label: String
    }

    public var title: String
    public var surfaceWidthMM: Double
    public var surfaceHeightMM: Double
    /// One polyline per contact, in the order contacts began.
    public var fingerTracks: [[FingerSample]] = []
    /// The gesture's scale (pinch) over time.
    public var scale: [ValueSample] = []
    /// The gesture's downward translation in millimetres (pan) over time.
    public var translationMM: [ValueSample] = []
    /// The transition's progress (interactive and animated) over time.
    public var progress: [ValueSample] = []
    public var progressThreshold: Double?
    public var markers: [Marker] = []
    public var outcome: String = "none"
    public var reason: String = ""
    /// What happened, in short lines of text beside the charts: the gestures, the release, the
    /// decision and its policy, the device.
    public var facts: [String] = []

    public init(title: String, surfaceWidthMM: Double, surfaceHeightMM: Double) {
        self.title = title
        self.surfaceWidthMM = surfaceWidthMM
        self.surfaceHeightMM = surfaceHeightMM
    }

    public var duration: Double {
        let ends = [fingerTracks.flatMap { $0.map(\.time) }.max(), scale.last?.time, translationMM.last?.time,
                    progress.last?.time, markers.map(\.time).max()].compactMap { $0 }
        return ends.max() ?? 0
    }
}
