import Foundation
import GestureCore

/// A recording's own numbers, for a person labelling it: how many fingers were down when, where
/// each contact went in millimetres, and how far apart two fingers were. Computed from the touch
/// frames alone (what the device reported), never from what pinchlab recognized, so a label
/// written from it can disagree with the recognizer.
package struct RecordingEvidence: Sendable {
    /// One contact from touch-down to lift.
    package struct Contact: Sendable {
        package var begin: Double
        package var end: Double
        package var start: PointMM
        package var last: PointMM
        /// Length of the path travelled.
        var pathMM: Double
        /// Farthest it got from where it started.
        var reachMM: Double
        package var net: PointMM { PointMM(x: last.x - start.x, y: last.y - start.y) }
    }

    /// A stretch of frames with the same finger count (touches down or `BTN_TOOL_*`, the larger).
    package struct Segment: Sendable {
        package var begin: Double
        package var end: Double
        package var fingers: Int
    }

    /// A stretch with exactly two contacts down: their distance at its start and end, and its range.
    package struct Pair: Sendable {
        package var begin: Double
        package var end: Double
        var startSpanMM: Double
        var endSpanMM: Double
        var minimumSpanMM: Double
        var maximumSpanMM: Double
        /// Each contact's travel from the pair's start to its end.
        var netA: PointMM
        var netB: PointMM
    }

    /// A contact that never gets farther than this from where it landed is still (libinput's hold
    /// ends on motion past about 1 mm)...
    static let stillReachMM = 1.0
    /// ... and one down that long is held (libinput's hold timeout and its tap timeout, 180 ms: a
    /// shorter touch is a tap, even where libinput's quick hold began after 40 ms).
    static let holdSeconds = 0.18

    package var device: DeviceDescription
    package var duration: Double
    package var frames: Int
    package var contacts: [Contact] = []
    package var segments: [Segment] = []
    package var pairs: [Pair] = []
    package var mostFingers = 0

    /// Reads the whole source.
    package static func measure(_ source: inout some InputEventSource) throws -> RecordingEvidence {
        let device = source.device
        var assembler = TouchFrameAssembler(device: device)
        var evidence = RecordingEvidence(device: device, duration: 0, frames: 0)
        var origin: EventTime?
        var open: [UInt64: Contact] = [:]
        var order: [UInt64] = []
        var pair: (ids: (UInt64, UInt64), pair: Pair)?
        var pairStart: (a: PointMM, b: PointMM) = (.zero, .zero)
        func seconds(_ time: EventTime) -> Double {
            Double(time.totalMicroseconds - (origin ?? time).totalMicroseconds) / 1_000_000
        }
        func closePair() {
            if let current = pair { evidence.pairs.append(current.pair) }
            pair = nil
        }
        while let event = try source.nextEvent() {
            if origin == nil { origin = event.time }
            evidence.duration = seconds(event.time)
            guard let frame = assembler.consume(event) else { continue }
            evidence.frames += 1
            let now = seconds(frame.time)
            evidence.mostFingers = max(evidence.mostFingers, frame.fingerCount)
            if let last = evidence.segments.last, last.fingers == frame.fingerCount {
                evidence.segments[evidence.segments.count - 1].end = now
            } else {
                evidence.segments.append(Segment(begin: now, end: now, fingers: frame.fingerCount))
            }
            var down: [Touch] = []
            for touch in frame.touches {
                if var contact = open[touch.id] {
                    let step = distance(contact.last, touch.position)
                    contact.pathMM += step
                    contact.last = touch.position
                    contact.end = now
                    contact.reachMM = max(contact.reachMM, distance(contact.start, touch.position))
                    open[touch.id] = contact
                } else {
                    open[touch.id] = Contact(begin: now, end: now, start: touch.position, last: touch.position, pathMM: 0, reachMM: 0)
                    order.append(touch.id)
                }
                if touch.phase == .ended {
                    if let contact = open.removeValue(forKey: touch.id) { evidence.contacts.append(contact) }
                } else {
                    down.append(touch)
                }
            }
            if down.count == 2 {
                let a = down[0], b = down[1]
                let span = distance(a.position, b.position)
                if var current = pair, current.ids == (a.id, b.id) {
                    current.pair.end = now
                    current.pair.endSpanMM = span
                    current.pair.minimumSpanMM = min(current.pair.minimumSpanMM, span)
                    current.pair.maximumSpanMM = max(current.pair.maximumSpanMM, span)
                    current.pair.netA = PointMM(x: a.position.x - pairStart.a.x, y: a.position.y - pairStart.a.y)
                    current.pair.netB = PointMM(x: b.position.x - pairStart.b.x, y: b.position.y - pairStart.b.y)
                    pair = current
                } else {
                    closePair()
                    pairStart = (a.position, b.position)
                    pair = ((a.id, b.id), Pair(begin: now, end: now, startSpanMM: span, endSpanMM: span, minimumSpanMM: span,
                                               maximumSpanMM: span, netA: PointMM(x: 0, y: 0), netB: PointMM(x: 0, y: 0)))
                }
            } else {
                closePair()
            }
        }
        closePair()
        // Contacts still down when the recording stops.
        for id in order { if let contact = open.removeValue(forKey: id) { evidence.contacts.append(contact) } }
        evidence.contacts.sort { $0.begin < $1.begin }
        return evidence
    }

    /// The contacts' paths, the finger-count timeline and the two-finger spans, as lines for a
    /// person (at most `limit` of each list; the rest counted).
    package func lines(limit: Int = 12) -> [String] {
        func mm(_ value: Double) -> String { String(format: "%.1f", value) }
        func s(_ value: Double) -> String { String(format: "%.2f", value) }
        func vector(_ p: PointMM) -> String { "(\(mm(p.x)), \(mm(p.y))) mm" }
        var lines: [String] = []
        let geometry = device.geometry
        lines.append("device: \(oneLine(device.name)) (\(device.deviceClass.rawValue)"
            + (geometry.map { ", \(mm($0.widthMM)) x \(mm($0.heightMM)) mm" + ($0.isEstimated ? " estimated" : "") } ?? "") + ")")
        lines.append("\(s(duration)) s, \(frames) frames, \(contacts.count) contacts, at most \(mostFingers) fingers at once")
        let touched = segments.filter { $0.fingers > 0 }
        lines.append("fingers over time (\(touched.count) stretches with fingers down):")
        for segment in touched.prefix(limit) {
            lines.append("  \(s(segment.begin))-\(s(segment.end)) s: \(segment.fingers) finger\(segment.fingers == 1 ? "" : "s")")
        }
        if touched.count > limit { lines.append("  ... \(touched.count - limit) more") }
        lines.append("contacts (y grows downward):")
        for (index, c) in contacts.prefix(limit).enumerated() {
            lines.append("  #\(index + 1) \(s(c.begin))-\(s(c.end)) s: path \(mm(c.pathMM)) mm, reach \(mm(c.reachMM)) mm, "
                         + "net \(vector(c.net)) from \(vector(c.start))")
        }
        if contacts.count > limit { lines.append("  ... \(contacts.count - limit) more") }
        let still = contacts.indices.filter {
            contacts[$0].reachMM < Self.stillReachMM && contacts[$0].end - contacts[$0].begin >= Self.holdSeconds
        }
        lines.append("contacts held still (reach < \(mm(Self.stillReachMM)) mm) for >= \(s(Self.holdSeconds)) s: "
                     + (still.isEmpty ? "none" : still.map { "#\($0 + 1)" }.joined(separator: ", ")))
        if !pairs.isEmpty {
            lines.append("two contacts down together:")
            for p in pairs.prefix(limit) {
                lines.append("  \(s(p.begin))-\(s(p.end)) s: span \(mm(p.startSpanMM)) -> \(mm(p.endSpanMM)) mm "
                             + "(\(mm(p.minimumSpanMM))-\(mm(p.maximumSpanMM))), nets \(vector(p.netA)) and \(vector(p.netB))")
            }
            if pairs.count > limit { lines.append("  ... \(pairs.count - limit) more") }
        }
        return lines
    }
}

private func distance(_ a: PointMM, _ b: PointMM) -> Double {
    let dx = a.x - b.x, dy = a.y - b.y
    return (dx * dx + dy * dy).squareRoot()
}
