import GestureCore
@testable import GestureLab
import InteractiveTransition

/// Decodes random 32-bit words into protocol-B event streams: touches landing, moving (small steps
/// and jumps), lifting, frames ending, time gaps and going backwards, SYN_DROPPED, BTN_TOOL changes.
/// Words rather than events so that PropertyBased can shrink a failing stream (fewer, smaller words).
enum EventStreams {
    static let devices: [DeviceDescription] = [.presetTouchpad, .presetTouchscreen]

    static func protocolB(_ words: [UInt32], on device: DeviceDescription) -> [InputEvent] {
        let slots = max(1, device.slotCount)
        let xMax = device.absInfo[.absMTPositionX]?.maximum ?? 1000
        let yMax = device.absInfo[.absMTPositionY]?.maximum ?? 1000
        var time: Int64 = 1_000_000
        var nextTrackingID: Int32 = 1
        var positions = [(x: Int32, y: Int32)](repeating: (xMax / 2, yMax / 2), count: slots)
        var events: [InputEvent] = []
        func emit(_ type: EventType, _ code: EventCode, _ value: Int32) {
            events.append(InputEvent(time: EventTime(totalMicroseconds: time), type: type, code: code, value: value))
        }
        for word in words {
            let slot = Int32(Int(word >> 3 & 0xF) % slots)
            let dx = Int32(word >> 8 & 0xFF) - 128
            let dy = Int32(word >> 16 & 0xFF) - 128
            switch word & 0x7 {
            case 0:
                emit(.abs, .absMTSlot, slot)
                emit(.abs, .absMTTrackingID, nextTrackingID)
                nextTrackingID += 1
                positions[Int(slot)] = (Int32(word >> 8 & 0xFFF) % (xMax + 1), Int32(word >> 20) % (yMax + 1))
                emit(.abs, .absMTPositionX, positions[Int(slot)].x)
                emit(.abs, .absMTPositionY, positions[Int(slot)].y)
            case 1, 2:
                emit(.abs, .absMTSlot, slot)
                positions[Int(slot)].x = min(max(positions[Int(slot)].x + dx / 8, 0), xMax)
                positions[Int(slot)].y = min(max(positions[Int(slot)].y + dy / 8, 0), yMax)
                emit(.abs, .absMTPositionX, positions[Int(slot)].x)
                emit(.abs, .absMTPositionY, positions[Int(slot)].y)
            case 3:
                emit(.abs, .absMTSlot, slot)
                emit(.abs, .absMTTrackingID, -1)
            case 4:
                // Usually a frame 5-15 ms after the last; sometimes a long pause or a step back.
                switch word >> 24 {
                case 0..<8: time -= 20_000
                case 8..<24: time += 600_000
                default: time += 5_000 + Int64(word >> 8 & 0x3FFF) % 10_000
                }
                emit(.syn, .synReport, 0)
            case 5:
                emit(.key, [.btnToolFinger, .btnToolDoubleTap, .btnToolTripleTap, .btnTouch][Int(word >> 8 & 3)],
                     Int32(word >> 10 & 1))
            case 6:
                // A jump: the position moves far within one frame.
                emit(.abs, .absMTSlot, slot)
                positions[Int(slot)] = (Int32(word >> 8 & 0xFFF) % (xMax + 1), Int32(word >> 20) % (yMax + 1))
                emit(.abs, .absMTPositionX, positions[Int(slot)].x)
                emit(.abs, .absMTPositionY, positions[Int(slot)].y)
            default:
                if word >> 24 < 16 { emit(.syn, .synDropped, 0) } else { time += 8_000; emit(.syn, .synReport, 0) }
            }
        }
        time += 8_000
        emit(.syn, .synReport, 0)
        return events
    }

    /// A random recipe (pinch, pan, resting thumb or tap) with human-range parameters.
    static func recipe(_ random: inout SeededRandom, on device: DeviceDescription) -> GestureRecipe {
        let size = device.geometry.map { PointMM(x: $0.widthMM, y: $0.heightMM) } ?? PointMM(x: 100, y: 60)
        let center = PointMM(x: size.x * random.uniform(0.3...0.7), y: size.y * random.uniform(0.3...0.7))
        let duration = random.uniform(0.1...1.0)
        let motion: GestureRecipe.Motion
        switch random.next() % 4 {
        case 0:
            motion = .pinch(.init(center: center, startSeparationMM: random.uniform(15...45),
                                  angleDegrees: random.uniform(-90...90), anchoring: random.uniform(0...1),
                                  scale: KeyframeTrack([.init(0, 1), .init(duration, random.uniform(0.3...1.9))]),
                                  rotationDegrees: KeyframeTrack([.init(0, 0), .init(duration, random.uniform(-60...60))])))
        case 1:
            motion = .pan(.init(fingers: Int(random.next() % 3) + 1, start: center, spacingMM: random.uniform(10...20),
                                dx: KeyframeTrack([.init(0, 0), .init(duration, random.uniform(-30...30))]),
                                dy: KeyframeTrack([.init(0, 0), .init(duration, random.uniform(-30...30))])))
        case 2:
            motion = .restingThumb(.init(thumb: PointMM(x: center.x - 10, y: size.y * 0.9), fingerStart: center,
                                         dx: KeyframeTrack([.init(0, 0), .init(duration, random.uniform(-20...20))]),
                                         dy: KeyframeTrack([.init(0, 0), .init(duration, random.uniform(-20...20))])))
        default:
            motion = .tap(.init(fingers: Int(random.next() % 3) + 1, center: center, spacingMM: random.uniform(10...20)))
        }
        return GestureRecipe(motion: motion, landingStaggerS: random.uniform(0...0.1), settleS: random.uniform(0...0.1),
                             releaseAtS: duration * random.uniform(0.5...1.3), liftStaggerS: random.uniform(0...0.05),
                             jitterMM: random.uniform(0...0.4))
    }

    /// One to four random synthesized gestures back to back (each starts by selecting slot 0, as
    /// the kernel does when the previous gesture ended on another slot).
    static func synthesized(seed: UInt64, on device: DeviceDescription) -> [InputEvent] {
        var random = SeededRandom(seed: seed)
        var events: [InputEvent] = []
        var offset: Int64 = 1_000_000
        for _ in 0..<(1 + random.next() % 4) {
            let gesture = recipe(&random, on: device).events(on: device, seed: random.next())
            guard let first = gesture.first else { continue }
            let base = first.time.totalMicroseconds
            var last = offset
            events.append(InputEvent(time: EventTime(totalMicroseconds: offset), type: .abs, code: .absMTSlot, value: 0))
            for var event in gesture {
                last = offset + event.time.totalMicroseconds - base
                event.time = EventTime(totalMicroseconds: last)
                events.append(event)
            }
            offset = last + Int64(random.uniform(0.02...0.6) * 1_000_000)
        }
        return events
    }
}
