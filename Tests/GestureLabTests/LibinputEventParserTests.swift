import Foundation
import Testing
@testable import GestureCore
@testable import GestureKit
@testable import GestureLab

/// `libinput debug-events` lines (libinput 1.22, as printed for the corpus's recordings) into gestures.
@Suite struct LibinputEventParserTests {
    static func parse(_ text: String) -> [LibinputGesture] {
        var parser = LibinputEventParser()
        for line in text.split(separator: "\n") { parser.consume(line: line) }
        parser.finish()
        return parser.gestures
    }

    @Test func aPinchWithItsScaleAngleAndDeltas() {
        let gestures = Self.parse("""
        -event0   DEVICE_ADDED            pinchlab virtual touchpad         seat0 default group1  cap:pg  size 100x60mm
         event0   GESTURE_HOLD_BEGIN      +0.068s\t2
         event0   GESTURE_HOLD_END        +0.230s\t2 cancelled
         event0   GESTURE_PINCH_BEGIN     +0.238s\t2
         event0   GESTURE_PINCH_UPDATE    +0.238s\t2  0.00/ 0.00 ( 0.00/ 0.00 unaccelerated)  0.99 @ -0.40
         event0   GESTURE_PINCH_UPDATE    +0.251s\t2  0.00/-0.15 ( 0.00/-0.44 unaccelerated)  0.97 @ -0.18
         event0   GESTURE_PINCH_UPDATE    +0.811s\t2 -0.32/ 0.32 (-0.44/ 0.44 unaccelerated)  0.34 @ -0.48
         event0   GESTURE_PINCH_END       +0.843s\t2
        """)
        #expect(gestures.count == 2)
        #expect(gestures[0] == LibinputGesture(kind: .hold, fingers: 2, begin: 0.068, end: 0.230, cancelled: true))
        let pinch = gestures[1]
        #expect(pinch.kind == .pinch && pinch.fingers == 2 && !pinch.cancelled)
        #expect(pinch.begin == 0.238 && pinch.end == 0.843)
        #expect(pinch.scale == 0.34)
        #expect(abs((pinch.angle ?? 0) - (-1.06)) < 1e-9)
        #expect(abs((pinch.dx ?? 1) - (-0.44)) < 1e-9 && abs(pinch.dy ?? 1) < 1e-9)   // unaccelerated sums
    }

    @Test func scrollEventsGroupUntilTheScrollStopAndMotionUntilAPause() {
        let gestures = Self.parse("""
         event0   POINTER_SCROLL_FINGER   +0.151s\tvert 3.95/0.0* horiz 0.00/0.0 (finger)
         event0   POINTER_SCROLL_FINGER   +0.164s\tvert -1.32/0.0* horiz 0.50/0.0 (finger)
         event0   POINTER_SCROLL_FINGER   +0.560s\tvert 0.00/0.0* horiz 0.00/0.0* (finger)
         event0   POINTER_MOTION          +0.600s\t -7.98/-39.04 (-52.00/-254.46)
         event0   POINTER_MOTION          +0.650s\t  0.17/ -4.51 ( +1.00/-26.14)
         event0   POINTER_MOTION          +0.900s\t  0.17/ -4.51 ( +1.00/-26.14)
         event0   GESTURE_SWIPE_BEGIN     +1.000s\t3
         event0   GESTURE_SWIPE_UPDATE    +1.010s\t3 10.24/ 1.42 (10.54/ 1.46 unaccelerated)
        """)
        #expect(gestures.map(\.kind) == [.scroll, .motion, .motion, .swipe])
        #expect(gestures[0].begin == 0.151 && gestures[0].end == 0.560 && gestures[0].fingers == nil)
        #expect(abs((gestures[0].dy ?? 0) - 2.63) < 1e-9 && gestures[0].dx == 0.5)
        #expect(gestures[1].end == 0.650 && gestures[1].dx == -51 && abs((gestures[1].dy ?? 0) - (-280.6)) < 1e-9)
        // The output ended inside the swipe (the device went away): it ends cancelled.
        #expect(gestures[3].cancelled && gestures[3].fingers == 3 && gestures[3].dx == 10.54)
    }

    @Test func agreementMatchesKindsFingersAndOverlappingTimes() {
        func ours(_ kind: GestureKind, _ fingers: Int, _ begin: Double, _ end: Double) -> LabSummary.Gesture {
            LabSummary.Gesture(kind: kind, fingers: fingers, begin: begin, end: end, ended: .ended)
        }
        let theirs = [
            LibinputGesture(kind: .motion, fingers: 1, begin: 0, end: 0.1, cancelled: false),    // not compared
            LibinputGesture(kind: .hold, fingers: 2, begin: 0.1, end: 0.19, cancelled: true),    // matches ours[3]
            LibinputGesture(kind: .pinch, fingers: 2, begin: 0.2, end: 0.8, cancelled: false),   // matches ours[0]
            LibinputGesture(kind: .scroll, fingers: nil, begin: 1.0, end: 1.5, cancelled: false), // matches ours[1]
            LibinputGesture(kind: .swipe, fingers: 3, begin: 2.0, end: 2.5, cancelled: false),   // ours is 4 fingers
        ]
        let agreement = LibinputAgreement(pinchlab: [ours(.pinch, 2, 0.21, 0.8), ours(.pan, 2, 1.04, 1.5),
                                                     ours(.pan, 4, 2.0, 2.5), ours(.hold, 2, 0.05, 0.2)], libinput: theirs)
        #expect(agreement.matched == 3)
        #expect(agreement.libinputOnly == [4] && agreement.pinchlabOnly == [2])
        #expect(agreement.ratio == 0.6)
        #expect(LibinputAgreement(pinchlab: [], libinput: [theirs[0]]).ratio == 1)
    }

    @Test func agreementRatiosAreWrittenWithSixDecimals() throws {
        let pinch = LabSummary.Gesture(kind: .pinch, fingers: 2, begin: 0.2, end: 0.8, ended: .ended)
        let pan = LabSummary.Gesture(kind: .pan, fingers: 3, begin: 1, end: 1.5, ended: .ended)
        let theirs = [LibinputGesture(kind: .pinch, fingers: 2, begin: 0.2, end: 0.8, cancelled: false),
                      LibinputGesture(kind: .hold, fingers: 2, begin: 2, end: 2.5, cancelled: false)]
        let agreement = LibinputAgreement(pinchlab: [pinch, pan], libinput: theirs)
        #expect(agreement.ratio == 1.0 / 3, "the value itself is not rounded")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(String(decoding: try encoder.encode(agreement), as: UTF8.self)
                == #"{"libinputOnly":[1],"matched":1,"pinchlabOnly":[1],"ratio":0.333333}"#)
        let corpus = LibinputCorpusAgreement(settings: "best", version: "1.22.1", agreements: [agreement, agreement], lateFiles: 1)
        #expect(String(decoding: try encoder.encode(corpus), as: UTF8.self)
                == #"{"files":2,"lateFiles":1,"libinputOnly":2,"matched":2,"pinchlabOnly":2,"ratio":0.333333,"settings":"best","version":"1.22.1"}"#)
    }
}
