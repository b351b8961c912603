import GestureCore

/// The labelled corpus shipped in `Fixtures/corpus`, defined as recipes so it can be regenerated
/// bit for bit (`pinchlab generate-corpus`). Parameters vary per file from a seed derived from the
/// file's name, within ranges that real hands produce on each device.
package enum StandardCorpus {
    static let masterSeed: UInt64 = 0x70_69_6E_63_68_6C_61_62   // "pinchlab"

    package static func entries() -> [CorpusEntry] {
        entries(variants: 1)
    }

    /// The corpus with each recipe drawn `variants` times: variant 1 is the shipped file, variant
    /// N > 1 the same recipe with parameters drawn from its own seed (`NAME-vN.evemu`), for a large
    /// corpus to tune and benchmark on. Labels are the recipe's, so a variant drawn at the edge of a
    /// recipe's ranges can be one a policy gets wrong: something for the tuner to learn.
    package static func entries(variants: Int) -> [CorpusEntry] {
        var result: [CorpusEntry] = []
        for variant in 1...max(1, variants) {
            var builder = Builder(variant: variant)
            for device in CorpusEntry.Device.allCases { builder.addAll(on: device) }
            result += builder.entries
        }
        return result
    }

    struct Builder {
        var variant = 1
        var entries: [CorpusEntry] = []

        mutating func addAll(on device: CorpusEntry.Device) {
            let isPad = device == .touchpad
            // Typical two-finger spread and surface centre on each device.
            let spread = isPad ? 42.0 : 85.0
            let size = isPad ? PointMM(x: 100, y: 60) : PointMM(x: 290, y: 170)
            let center = PointMM(x: size.x / 2, y: size.y / 2)

            for i in 1...3 {
                add(device, "pinch-in-slow-finish", i, gesture: "pinch-in", direction: .in, kind: .pinch, fingers: 2,
                    transition: "pinch-dismiss", outcome: .finish, difficulty: "slow finish well past the threshold") { r in
                    let end = r.uniform(0.30...0.42), duration = r.uniform(0.55...0.9)
                    return pinch(&r, center, spread, scale: [(0, 1), (duration, end)], release: duration + r.uniform(0.08...0.2))
                }
            }
            for i in 1...3 {
                add(device, "pinch-in-quick-flick", i, gesture: "pinch-in", direction: .in, kind: .pinch, fingers: 2,
                    transition: "pinch-dismiss", outcome: .finish,
                    difficulty: "quick flick released below the progress threshold while still moving") { r in
                    let duration = r.uniform(0.18...0.26)
                    return pinch(&r, center, spread, scale: [(0, 1), (duration, r.uniform(0.55...0.65))],
                                 release: duration * r.uniform(0.55...0.62))
                }
            }
            for i in 1...2 {
                add(device, "pinch-in-reversal", i, gesture: "pinch-in", direction: .in, kind: .pinch, fingers: 2,
                    transition: "pinch-dismiss", outcome: .cancel,
                    difficulty: "hesitation then reversal: pinched in, then opened again before lifting") { r in
                    let inEnd = r.uniform(0.45...0.55), back = r.uniform(0.85...0.95)
                    let t1 = r.uniform(0.4...0.55), hold = r.uniform(0.1...0.2), t2 = t1 + hold + r.uniform(0.3...0.4)
                    return pinch(&r, center, spread, scale: [(0, 1), (t1, inEnd), (t1 + hold, inEnd), (t2, back)],
                                 release: t2 + 0.05)
                }
            }
            add(device, "pinch-in-late-reversal", 1, gesture: "pinch-in", direction: .in, kind: .pinch, fingers: 2,
                transition: "pinch-dismiss", outcome: .cancel,
                difficulty: "past the threshold, then opened quickly and released while opening (progress > 0.5, velocity says cancel)") { r in
                let deep = r.uniform(0.30...0.34), t1 = r.uniform(0.45...0.55), t2 = t1 + 0.12 + r.uniform(0.3...0.36)
                return pinch(&r, center, spread, scale: [(0, 1), (t1, deep), (t1 + 0.12, deep), (t2, 0.85)],
                             release: t1 + 0.12 + (t2 - t1 - 0.12) * 0.3)
            }
            add(device, "pinch-in-threshold-finish", 1, gesture: "pinch-in", direction: .in, kind: .pinch, fingers: 2,
                transition: "pinch-dismiss", outcome: .finish,
                difficulty: "released right at the threshold while still closing slowly") { r in
                let t1 = r.uniform(0.5...0.6)
                return pinch(&r, center, spread, scale: [(0, 1), (t1, 0.52), (t1 + 0.6, 0.40)], release: t1 + 0.18)
            }
            add(device, "pinch-in-threshold-cancel", 1, gesture: "pinch-in", direction: .in, kind: .pinch, fingers: 2,
                transition: "pinch-dismiss", outcome: .cancel,
                difficulty: "released just past the threshold (progress > 0.5) while opening slowly") { r in
                let t1 = r.uniform(0.5...0.6)
                return pinch(&r, center, spread, scale: [(0, 1), (t1, 0.44), (t1 + 0.6, 0.60)], release: t1 + 0.18)
            }
            add(device, "pinch-in-jitter", 1, gesture: "pinch-in", direction: .in, kind: .pinch, fingers: 2,
                transition: "pinch-dismiss", outcome: .finish, difficulty: "slow finish on a noisy sensor (0.3 mm jitter)") { r in
                var recipe = pinch(&r, center, spread, scale: [(0, 1), (0.8, 0.35)], release: 0.95)
                recipe.jitterMM = 0.3
                return recipe
            }
            add(device, "pinch-in-one-sided", 1, gesture: "one-sided-pinch", direction: .in, kind: .pinch, fingers: 2,
                transition: "pinch-dismiss", outcome: .finish,
                difficulty: "one finger stays put while the other does all the pinching") { r in
                pinch(&r, center, spread, scale: [(0, 1), (0.7, 0.38)], release: 0.85, anchoring: 1)
            }
            for i in 1...2 {
                add(device, "pinch-out", i, gesture: "pinch-out", direction: .out, kind: .pinch, fingers: 2,
                    transition: "pinch-dismiss", outcome: .cancel, difficulty: "pinch the wrong way: progress stays at 0") { r in
                    let duration = i == 1 ? 0.6 : 0.25
                    return pinch(&r, center, spread * 0.55, scale: [(0, 1), (duration, r.uniform(1.6...1.9))], release: duration + 0.05)
                }
            }
            add(device, "rotate", 1, gesture: "rotate", direction: nil, kind: .pinch, fingers: 2,
                transition: "pinch-dismiss", outcome: .cancel, difficulty: "rotation with the spread held: a pinch whose scale stays near 1") { r in
                var recipe = pinch(&r, center, spread, scale: [(0, 1), (0.7, 0.96)], release: 0.8)
                if case .pinch(var motion) = recipe.motion {
                    motion.rotationDegrees = KeyframeTrack([.init(0, 0), .init(0.7, r.uniform(60...80))])
                    recipe.motion = .pinch(motion)
                }
                return recipe
            }
            for i in 1...2 {
                add(device, "two-finger-scroll", i, gesture: "two-finger-scroll", direction: i == 1 ? .down : .right, kind: .pan, fingers: 2,
                    transition: "pinch-dismiss", outcome: .none, difficulty: "parallel fingers: must never begin a pinch") { r in
                    let vertical = i == 1
                    let travel = isPad ? r.uniform(22...30) : r.uniform(50...70)
                    return pan(&r, fingers: 2, start: PointMM(x: center.x - 8, y: vertical ? size.y * 0.25 : center.y),
                               spacing: isPad ? 14 : 18, dx: vertical ? 0 : travel, dy: vertical ? travel : travel * 0.2,
                               duration: r.uniform(0.35...0.5))
                }
            }
            add(device, "three-finger-swipe", 1, gesture: "three-finger-swipe", direction: .right, kind: .pan, fingers: 3,
                transition: "pinch-dismiss", outcome: .none, difficulty: "three fingers moving together") { r in
                pan(&r, fingers: 3, start: PointMM(x: center.x - 20, y: center.y), spacing: isPad ? 15 : 20,
                    dx: isPad ? 30 : 70, dy: 2, duration: 0.35)
            }
            add(device, "two-finger-tap", 1, gesture: "tap", direction: nil, kind: .none, fingers: nil,
                transition: "pinch-dismiss", outcome: .none, difficulty: "two fingers down and up, no movement") { r in
                GestureRecipe(motion: .tap(.init(fingers: 2, center: center, spacingMM: 20)),
                              landingStaggerS: r.uniform(0.01...0.03), settleS: 0, releaseAtS: r.uniform(0.06...0.1),
                              liftStaggerS: r.uniform(0.005...0.02), jitterMM: nil)
            }
            if isPad {
                add(device, "resting-thumb", 1, gesture: "resting-thumb", direction: nil, kind: .none, fingers: nil,
                    transition: "pinch-dismiss", outcome: .none,
                    difficulty: "a thumb resting at the bottom edge while one finger moves the pointer: the distance changes but it is no pinch") { r in
                    GestureRecipe(
                        motion: .restingThumb(.init(thumb: PointMM(x: 30, y: 55), fingerStart: PointMM(x: 55, y: 20),
                                                    dx: KeyframeTrack([.init(0, 0), .init(0.6, r.uniform(20...28))]),
                                                    dy: KeyframeTrack([.init(0, 0), .init(0.6, r.uniform(8...14))]))),
                        landingStaggerS: 0.2, settleS: 0.25, releaseAtS: 0.7, liftStaggerS: 0.05, jitterMM: nil)
                }
                // Edge scrolling, as an owner who chose it in libinput has it: one finger along the
                // right edge (vertical) or the bottom edge (horizontal), within libinput's 7 mm.
                for (i, right) in [(1, true), (2, false)] {
                    add(device, "edge-scroll", i, gesture: "edge-scroll", direction: right ? .down : .right, kind: .pan, fingers: 1,
                        transition: "pinch-dismiss", outcome: .none,
                        difficulty: "one finger along the \(right ? "right" : "bottom") edge with edge scrolling on: a scroll, not the pointer",
                        owner: OwnerDeviceConfiguration(scrollMethod: .edge)) { r in
                        let travel = r.uniform(20...28)
                        let start = right ? PointMM(x: size.x - r.uniform(2...5), y: size.y * 0.2)
                            : PointMM(x: size.x * 0.25, y: size.y - r.uniform(2...5))
                        return pan(&r, fingers: 1, start: start, spacing: 0, dx: right ? 0 : travel, dy: right ? travel : 0,
                                   duration: r.uniform(0.4...0.6))
                    }
                }
            }
            // Pull-down dismissal: two fingers on a touchpad (one finger moves the pointer), one on a touchscreen.
            let panFingers = isPad ? 2 : 1
            add(device, "pan-down-finish", 1, gesture: "pan", direction: .down, kind: .pan, fingers: panFingers,
                transition: "pan-dismiss", outcome: .finish, difficulty: "slow drag well past the dismiss distance's midpoint") { r in
                pan(&r, fingers: panFingers, start: PointMM(x: center.x, y: isPad ? 8 : 30), spacing: 14,
                    dx: r.uniform(-2...2), dy: isPad ? r.uniform(34...40) : r.uniform(34...40), duration: r.uniform(0.6...0.8), hold: 0.1)
            }
            add(device, "pan-down-cancel", 1, gesture: "pan", direction: nil, kind: .pan, fingers: panFingers,
                transition: "pan-dismiss", outcome: .cancel, difficulty: "dragged down a little, then back up") { r in
                var recipe = pan(&r, fingers: panFingers, start: PointMM(x: center.x, y: isPad ? 10 : 30), spacing: 14,
                                 dx: 1, dy: 14, duration: 0.4)
                if case .pan(var motion) = recipe.motion {
                    motion.dy = KeyframeTrack([.init(0, 0), .init(0.4, r.uniform(13...16)), .init(0.55, 14), .init(0.85, r.uniform(3...5))])
                    recipe.motion = .pan(motion)
                }
                recipe.releaseAtS = 0.9
                return recipe
            }
            add(device, "pan-down-flick", 1, gesture: "pan", direction: .down, kind: .pan, fingers: panFingers,
                transition: "pan-dismiss", outcome: .finish, difficulty: "short fast flick down, released while moving") { r in
                pan(&r, fingers: panFingers, start: PointMM(x: center.x, y: isPad ? 10 : 30), spacing: 14,
                    dx: 0, dy: r.uniform(22...26), duration: 0.2, releaseFraction: r.uniform(0.5...0.58))
            }
        }

        mutating func add(_ device: CorpusEntry.Device, _ name: String, _ index: Int, gesture: String,
                          direction: GestureExpectation.Direction?, kind: GestureExpectation.Kind, fingers: Int?,
                          transition: String, outcome: GestureExpectation.Outcome, difficulty: String,
                          owner: OwnerDeviceConfiguration? = nil, recipe make: (inout SeededRandom) -> GestureRecipe) {
            let file = "\(device.rawValue)/\(name)-\(index < 10 ? "0" : "")\(index)" + (variant > 1 ? "-v\(variant)" : "") + ".evemu"
            let seed = StandardCorpus.seed(for: file)
            var random = SeededRandom(seed: seed)
            let recipe = make(&random)
            // "None" expects no gesture at all; the transition then never starts.
            let expect = kind == .none ? [GestureExpectation(kind: .none)]
                : [GestureExpectation(kind: kind, fingers: fingers, direction: direction, outcome: outcome)]
            var entry = CorpusEntry(file: file, transition: transition, expect: expect, gesture: gesture,
                                    difficulty: difficulty, device: device, seed: seed, recipe: recipe)
            entry.deviceConfiguration = owner
            entries.append(entry)
        }
    }

    /// FNV-1a of the file name mixed with the master seed: stable across runs and platforms.
    static func seed(for file: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ masterSeed
        for byte in file.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }
}

private func track(_ points: [(Double, Double)]) -> KeyframeTrack {
    KeyframeTrack(points.map { KeyframeTrack.Keyframe($0.0, $0.1) })
}

private func pinch(_ r: inout SeededRandom, _ center: PointMM, _ spread: Double, scale: [(Double, Double)],
                   release: Double, anchoring: Double = 0) -> GestureRecipe {
    let motion = GestureRecipe.PinchMotion(
        center: PointMM(x: center.x + r.uniform(-4...4), y: center.y + r.uniform(-3...3)),
        startSeparationMM: spread * r.uniform(0.9...1.1),
        angleDegrees: r.uniform(-40...40),
        anchoring: anchoring,
        scale: track(scale),
        rotationDegrees: track([(0, 0), (scale.last!.0, r.uniform(-6...6))]))
    return GestureRecipe(motion: .pinch(motion), landingStaggerS: r.uniform(0.012...0.04), settleS: r.uniform(0.03...0.08),
                         releaseAtS: release, liftStaggerS: r.uniform(0.01...0.03), jitterMM: nil)
}

private func pan(_ r: inout SeededRandom, fingers: Int, start: PointMM, spacing: Double, dx: Double, dy: Double,
                 duration: Double, hold: Double = 0.05, releaseFraction: Double? = nil) -> GestureRecipe {
    let motion = GestureRecipe.PanMotion(
        fingers: fingers, start: start, spacingMM: spacing,
        dx: track([(0, 0), (duration, dx)]), dy: track([(0, 0), (duration, dy)]))
    let release = releaseFraction.map { duration * $0 } ?? duration + hold
    return GestureRecipe(motion: .pan(motion), landingStaggerS: r.uniform(0.012...0.035), settleS: r.uniform(0.03...0.07),
                         releaseAtS: release, liftStaggerS: r.uniform(0.008...0.025), jitterMM: nil)
}
