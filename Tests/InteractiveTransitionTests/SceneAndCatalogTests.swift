import Foundation
import Testing
@testable import InteractiveTransition

@Suite struct SceneAndCatalogTests {
    static func bits(_ scene: SceneState) -> [UInt64] {
        [scene.frame.x, scene.frame.y, scene.frame.width, scene.frame.height, scene.cornerRadius, scene.alpha,
         scene.scale].map(\.bitPattern) + scene.extras.map(\.value.bitPattern)
    }

    /// Progress values that do not round-trip nicely.
    static let awkward: [Double] = [0.1 + 0.2, 1.0 / 3, 0.7000000001, 2.0 / 3, 1e-17, 0.9999999999999999,
                                    Double.pi / 4, 0.5.nextUp, Double.leastNonzeroMagnitude, 0.123456789012345]

    @Test(arguments: TransitionName.allCases) func cancelRestoresTheFromStateBitForBit(_ name: TransitionName) {
        for timing in [CompletionTiming.curve(.easeInOut), .spring(SpringPresets.appStoreCardDismiss)] {
            var t = Fixtures.transition(name, timing: timing)
            var time = 0.0
            t.begin(at: time)
            for _ in 0..<20 {
                for p in Self.awkward {
                    time += 1.0 / 240
                    t.update(p, at: time)
                    _ = t.scene
                }
            }
            t.cancel(at: time, velocity: -0.37)
            Fixtures.runToEnd(&t, from: time, step: 1.0 / 60)
            #expect(t.phase == .cancelled)
            #expect(t.scene == t.spec.fromState)
            #expect(Self.bits(t.scene) == Self.bits(t.spec.fromState))
            #expect(t.progress == 0 && t.percentComplete == 0)
        }
    }

    @Test(arguments: TransitionName.allCases) func finishShowsTheToStateExactly(_ name: TransitionName) {
        var t = Fixtures.transition(name)
        t.update(1.0 / 3, at: 0)
        t.finish(at: 0.1, velocity: 0.9)
        Fixtures.runToEnd(&t, from: 0.1)
        #expect(Self.bits(t.scene) == Self.bits(t.spec.toState))
    }

    @Test func interpolationEndpointsAreExact() {
        let spec = Fixtures.spec(.zoomPresent)
        #expect(Self.bits(spec.scene(at: 0)) == Self.bits(spec.fromState))
        #expect(Self.bits(spec.scene(at: 1)) == Self.bits(spec.toState))
        #expect(spec.scene(at: .nan) == spec.fromState)
    }

    @Test func zoomPresentHalfway() {
        // Cell (20, 350, 170 x 170) -> container (0, 0, 390 x 844); halfway by hand:
        // x 10, y 175, w 280, h 507; dimming 0.5; presenting scale (1 + 0.8)/2 = 0.9; close button (-80 + 60)/2 = -10.
        var t = Fixtures.transition(.zoomPresent)
        t.update(0.5, at: 0)
        let scene = t.scene
        #expect(scene.frame == SceneRect(x: 10, y: 175, width: 280, height: 507))
        #expect(scene.value(named: SceneProperty.dimmingAlphaName) == 0.5)
        #expect(isClose(scene.value(named: SceneProperty.presentingScaleName)!, 0.9, tolerance: 1e-15))
        #expect(scene.value(named: SceneProperty.closeButtonYName) == -10)
    }

    @Test func panDismissShrinksAndRoundsCorners() {
        var t = Fixtures.transition(.panDismiss)
        t.update(PanDismissProgress.progress(translationMM: 20), at: 0)   // 20 of the default 40 mm
        // Halfway: scale (1 + 0.85)/2 = 0.925, corner radius 20/2 = 10.
        #expect(isClose(t.scene.scale, 0.925, tolerance: 1e-15))
        #expect(t.scene.cornerRadius == 10)
        #expect(t.spec.role == .dismissal && t.spec.duration == 0.7)
        #expect(t.spec.completionTiming == .spring(SpringPresets.appStoreCardDismiss))
    }

    @Test func reusedSceneBufferMatchesFreshScene() {
        var t = Fixtures.transition(.pinchDismiss)
        var buffer = t.scene
        for index in 1...50 {
            t.update(Double(index) / 53, at: Double(index))
            t.scene(into: &buffer)
            #expect(buffer == t.scene)
        }
    }

    // MARK: coordinate conversion

    @Test func cellFrameIsConvertedIntoTheContainer() {
        let source = TransitionCatalog.defaultSourceCell
        // Cell y 400 in content scrolled by 150, collection view at y 100: 400 - 150 + 100 = 350.
        #expect(source.frameInContainer == SceneRect(x: 20, y: 350, width: 170, height: 170))
        #expect(source.frameInContainer != source.cellFrame)   // the seeds' bug: using cell.frame as is
        #expect(Fixtures.spec(.zoomPresent).fromState.frame == source.frameInContainer)
        #expect(Fixtures.spec(.pinchDismiss).toState.frame == source.frameInContainer)
    }

    @Test func conversionThroughSeveralViews() {
        // Cell at (5, 10) in a scroll view offset by (0, 40) placed at (30, 60) in a card at (100, 200).
        let scroll = ViewSpace(frameInSuperview: SceneRect(x: 30, y: 60, width: 200, height: 300),
                               boundsOrigin: ScenePoint(x: 0, y: 40))
        let card = ViewSpace(frameInSuperview: SceneRect(x: 100, y: 200, width: 260, height: 400))
        let converted = CoordinateConversion.convert(SceneRect(x: 5, y: 10, width: 50, height: 60),
                                                     throughAncestors: [scroll, card])
        // x: 5 + 30 + 100 = 135; y: 10 - 40 + 60 + 200 = 230; size unchanged.
        #expect(converted == SceneRect(x: 135, y: 230, width: 50, height: 60))
        #expect(CoordinateConversion.convert(converted, throughAncestors: []) == converted)
    }

    // MARK: catalog

    @Test func catalogByName() throws {
        #expect(TransitionCatalog.names == ["pinch-dismiss", "pan-dismiss", "zoom-present"])
        let catalog = TransitionCatalog()
        for name in TransitionCatalog.names { #expect(try catalog.spec(named: name).name == name) }
        #expect(throws: TransitionError.unknownTransition(name: "swirl")) { try catalog.spec(named: "swirl") }
        #expect(try catalog.spec(named: "zoom-present").role == .presentation)
        #expect(try catalog.spec(named: "zoom-present").duration == 1)
        #expect(try catalog.spec(named: "pinch-dismiss").role == .dismissal)
        // Pinch-dismiss runs the zoom backwards.
        #expect(try catalog.spec(named: "pinch-dismiss").fromState == catalog.spec(named: "zoom-present").toState)
    }

    @Test func specRejectsBadScenes() {
        let good = SceneState(frame: SceneRect(x: 0, y: 0, width: 10, height: 10), extras: [.dimmingAlpha(0)])
        var mismatched = good
        mismatched.extras = [.closeButtonY(3)]
        #expect(throws: TransitionError.mismatchedSceneProperties(from: ["dimmingAlpha"], to: ["closeButtonY"])) {
            try TransitionSpec(name: "x", role: .presentation, duration: 1, completionTiming: .default,
                               containerBounds: good.frame, fromState: good, toState: mismatched)
        }
        var badAlpha = good
        badAlpha.alpha = 1.5
        #expect(throws: TransitionError.invalidSceneValue(name: "alpha")) {
            try TransitionSpec(name: "x", role: .presentation, duration: 1, completionTiming: .default,
                               containerBounds: good.frame, fromState: good, toState: badAlpha)
        }
        #expect(throws: TransitionError.invalidDuration(seconds: 0)) {
            try TransitionSpec(name: "x", role: .presentation, duration: 0, completionTiming: .default,
                               containerBounds: good.frame, fromState: good, toState: good)
        }
    }

    @Test func specRoundTripsThroughJSON() throws {
        for name in TransitionName.allCases {
            let spec = Fixtures.spec(name)
            let decoded = try JSONDecoder().decode(TransitionSpec.self, from: JSONEncoder().encode(spec))
            #expect(decoded == spec)
        }
    }

    // MARK: gesture mappings

    @Test func pinchProgress() {
        #expect(PinchDismissProgress.progress(scale: 1, startScale: 1) == 0)
        #expect(PinchDismissProgress.progress(scale: 0.5, startScale: 1) == 0.5)
        #expect(PinchDismissProgress.progress(scale: 0.25, startScale: 0.5) == 0.5)
        #expect(PinchDismissProgress.progress(scale: 1.3, startScale: 1) == 0)   // spreading clamps to 0
        #expect(PinchDismissProgress.progress(scale: 0, startScale: 1) == 1)
        #expect(PinchDismissProgress.progress(scale: -1, startScale: 1) == 1)
        #expect(PinchDismissProgress.progress(scale: 0.5, startScale: 0) == 0)
        #expect(PinchDismissProgress.progress(scale: .nan, startScale: 1) == 0)
        // Closing at 1 scale/s from start 2: progress grows at 0.5/s.
        #expect(PinchDismissProgress.velocity(scaleVelocity: -1, startScale: 2) == 0.5)
    }

    @Test func panProgress() {
        // The default travel is 40 mm (the command line's default too), not the seed's 100 points read as mm.
        #expect(PanDismissProgress.defaultDistanceMM == 40)
        #expect(PanDismissProgress.progress(translationMM: 20) == 0.5)
        #expect(PanDismissProgress.progress(translationMM: 50) == 1)
        #expect(PanDismissProgress.progress(translationMM: -10) == 0)
        #expect(PanDismissProgress.progress(translationMM: 30, distanceMM: 60) == 0.5)
        #expect(PanDismissProgress.progress(translationMM: 30, distanceMM: 0) == 0)
        #expect(PanDismissProgress.velocity(translationVelocityMMPerSecond: 250) == 6.25)
    }

    @Test func unclampedMappingsKeepTheSignOfTheChange() {
        // What a grabbed-back gesture adds to the grabbed progress: negative when it moves back.
        #expect(PinchDismissProgress.unclampedProgress(scale: 1.65, startScale: 1) == 1 - 1.65)
        #expect(PinchDismissProgress.unclampedProgress(scale: 0.5, startScale: 2) == 0.75)
        #expect(PanDismissProgress.unclampedProgress(translationMM: -30) == -0.75)
        #expect(PanDismissProgress.unclampedProgress(translationMM: 60) == 1.5)
        // Bad input gives 0; an overflow saturates instead of becoming infinite.
        #expect(PinchDismissProgress.unclampedProgress(scale: .nan, startScale: 1) == 0)
        #expect(PinchDismissProgress.unclampedProgress(scale: 1, startScale: 0) == 0)
        #expect(PinchDismissProgress.unclampedProgress(scale: 1e300, startScale: 1e-300) == -.greatestFiniteMagnitude)
        #expect(PanDismissProgress.unclampedProgress(translationMM: 1e300, distanceMM: 1e-300) == .greatestFiniteMagnitude)
        #expect(PanDismissProgress.unclampedProgress(translationMM: .infinity) == 0)
        #expect(PinchDismissProgress.velocity(scaleVelocity: 1e300, startScale: 1e-300) == 0)
    }
}
