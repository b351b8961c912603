import GestureCore

/// Turns finger tracks into the evdev event stream a real device's kernel driver would send:
/// multitouch protocol B with slots and tracking ids, only values that changed, `BTN_TOUCH` and
/// `BTN_TOOL_*` finger counts, the single-touch `ABS_X`/`ABS_Y` emulation, pressure where the
/// device has it, frames 7-14 ms apart, and positional noise at the device's fuzz.
struct EventSynthesizer {
    /// Frame intervals of real touchpads and touchscreens (80-140 Hz) in milliseconds.
    static let defaultFrameIntervalMS: ClosedRange<Double> = 7...14
    /// Sensor noise when the device reports no fuzz: a standard deviation in millimetres.
    static let defaultJitterMM = 0.05

    package var device: DeviceDescription
    var frameIntervalMS: ClosedRange<Double>
    /// Standard deviation of the positional noise, millimetres.
    package var jitterMM: Double

    package init(device: DeviceDescription, frameIntervalMS: ClosedRange<Double> = defaultFrameIntervalMS, jitterMM: Double? = nil) {
        self.device = device
        self.frameIntervalMS = frameIntervalMS
        if let jitterMM {
            self.jitterMM = jitterMM
        } else if let geometry = device.geometry, let fuzz = device.absInfo[.absMTPositionX]?.fuzz, fuzz > 0 {
            self.jitterMM = geometry.x.millimetres(delta: fuzz)
        } else {
            self.jitterMM = Self.defaultJitterMM
        }
    }

    private struct Slot {
        var track = -1
        var trackingID: Int32 = -1
        var x: Int32 = -1
        var y: Int32 = -1
        var pressure: Int32 = -1
    }

    /// The events for `tracks`, starting at time `start` (seconds), until every finger has lifted.
    package func events(for tracks: [FingerTrack], start: EventTime = EventTime(seconds: 0, microseconds: 1),
                       random: inout SeededRandom) -> [InputEvent] {
        guard let geometry = device.geometry, !tracks.isEmpty else { return [] }
        let slotCount = max(1, device.slotCount)
        var slots = Array(repeating: Slot(), count: slotCount)
        var currentSlot = 0
        var nextTrackingID = Int32(random.next() % 500) + 1
        var keyState: [EventCode: Int32] = [:]
        var single = (x: Int32(-1), y: Int32(-1))
        var events: [InputEvent] = []
        let xAxis = device.absInfo[.absMTPositionX] ?? device.absInfo[.absX]!
        let yAxis = device.absInfo[.absMTPositionY] ?? device.absInfo[.absY]!
        let firstDown = tracks.map(\.downAt).min()!
        let lastUp = tracks.map(\.upAt).max()!
        var t = firstDown
        var time = start

        func emit(_ type: EventType, _ code: EventCode, _ value: Int32) {
            events.append(InputEvent(time: time, type: type, code: code, value: value))
        }
        func clamp(_ v: Int32, _ axis: AbsInfo) -> Int32 { min(max(v, axis.minimum), axis.maximum) }

        while true {
            var anyEvent = false
            let before = events.count
            // Lifts first, then moves, then new touches: the order kernel drivers report them in.
            for s in 0..<slotCount where slots[s].track >= 0 && !tracks[slots[s].track].isDown(at: t) {
                if currentSlot != s { emit(.abs, .absMTSlot, Int32(s)); currentSlot = s }
                emit(.abs, .absMTTrackingID, -1)
                slots[s] = Slot(track: -1, trackingID: -1, x: slots[s].x, y: slots[s].y, pressure: -1)
            }
            for (index, track) in tracks.enumerated() where track.isDown(at: t) {
                var s = slots.firstIndex { $0.track == index } ?? -1
                let isNew = s < 0
                if isNew {
                    guard let free = slots.firstIndex(where: { $0.track < 0 }) else { continue }
                    s = free
                }
                let p = track.position(t)
                let x = clamp(geometry.x.raw(p.x + random.gaussian(standardDeviation: jitterMM)), xAxis)
                let y = clamp(geometry.y.raw(p.y + random.gaussian(standardDeviation: jitterMM)), yAxis)
                let pressure = Int32(40 + min(30, (t - track.downAt) * 600))
                let changed = isNew || x != slots[s].x || y != slots[s].y
                if changed || (device.has(.abs, .absMTPressure) && pressure != slots[s].pressure) {
                    if currentSlot != s { emit(.abs, .absMTSlot, Int32(s)); currentSlot = s }
                }
                if isNew {
                    slots[s].track = index
                    slots[s].trackingID = nextTrackingID
                    emit(.abs, .absMTTrackingID, nextTrackingID)
                    nextTrackingID = nextTrackingID == 65535 ? 1 : nextTrackingID + 1
                }
                if x != slots[s].x { emit(.abs, .absMTPositionX, x); slots[s].x = x }
                if y != slots[s].y { emit(.abs, .absMTPositionY, y); slots[s].y = y }
                if device.has(.abs, .absMTPressure) && pressure != slots[s].pressure {
                    emit(.abs, .absMTPressure, pressure)
                    slots[s].pressure = pressure
                }
            }
            let down = slots.filter { $0.track >= 0 }.count
            setKey(.btnTouch, down > 0 ? 1 : 0, &keyState, emit)
            for (code, fingers) in EventCode.fingerCountTools where device.has(.key, code) {
                setKey(code, down == fingers ? 1 : 0, &keyState, emit)
            }
            if let first = slots.first(where: { $0.track >= 0 }), device.has(.abs, .absX) {
                if first.x != single.x { emit(.abs, .absX, first.x); single.x = first.x }
                if first.y != single.y { emit(.abs, .absY, first.y); single.y = first.y }
                if device.has(.abs, .absPressure) { emit(.abs, .absPressure, first.pressure) }
            } else if device.has(.abs, .absPressure) && down == 0 && events.count > before {
                emit(.abs, .absPressure, 0)
            }
            anyEvent = events.count > before
            if anyEvent { emit(.syn, .synReport, 0) }
            if t >= lastUp && down == 0 { break }
            let step = random.uniform(frameIntervalMS) / 1000
            t += step
            time = EventTime(totalMicroseconds: time.totalMicroseconds + Int64((step * 1_000_000).rounded()))
        }
        return events
    }

    private func setKey(_ code: EventCode, _ value: Int32, _ state: inout [EventCode: Int32],
                        _ emit: (EventType, EventCode, Int32) -> Void) {
        guard device.has(.key, code), state[code, default: 0] != value else { return }
        state[code] = value
        emit(.key, code, value)
    }
}
