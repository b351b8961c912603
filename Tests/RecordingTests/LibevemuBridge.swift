import CEvemu
import Glibc
import GestureCore
@testable import GestureKit

/// Debian's libevemu as the reference implementation: what it reads from a file, and files it
/// writes. Only tests use it.
enum Libevemu {
    struct Reading {
        var device: DeviceDescription
        var events: [InputEvent]
        var readStatus: Int32
        var lastEventStatus: Int32
    }

    /// `evemu_new` + `evemu_read` + `evemu_read_event` until it stops, from a `FILE*`.
    static func read(_ path: String) -> Reading? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        guard let device = evemu_new(nil) else { return nil }
        defer { evemu_delete(device) }
        let status = evemu_read(device, file)
        var properties = Set<InputProperty>()
        for property in 0..<Int32(InputProperty.count) where evemu_has_prop(device, property) != 0 {
            properties.insert(InputProperty(rawValue: UInt16(property)))
        }
        var codes: [EventType: Set<EventCode>] = [:]
        var absInfo: [EventCode: AbsInfo] = [:]
        for rawType in 1..<UInt16(EventType.count) {
            let type = EventType(rawValue: rawType)
            guard let maxCode = type.maxCode else { continue }
            for rawCode in 0...maxCode where evemu_has_event(device, Int32(rawType), Int32(rawCode)) != 0 {
                codes[type, default: []].insert(EventCode(rawValue: rawCode))
                if type == .abs {
                    let c = Int32(rawCode)
                    absInfo[EventCode(rawValue: rawCode)] = AbsInfo(
                        minimum: evemu_get_abs_minimum(device, c), maximum: evemu_get_abs_maximum(device, c),
                        fuzz: evemu_get_abs_fuzz(device, c), flat: evemu_get_abs_flat(device, c),
                        resolution: evemu_get_abs_resolution(device, c))
                }
            }
        }
        let description = DeviceDescription(
            name: String(cString: evemu_get_name(device)),
            id: InputID(bustype: UInt16(evemu_get_id_bustype(device)), vendor: UInt16(evemu_get_id_vendor(device)),
                        product: UInt16(evemu_get_id_product(device)), version: UInt16(evemu_get_id_version(device))),
            properties: properties, codes: codes, absInfo: absInfo)
        var events = [InputEvent]()
        var event = input_event()
        var eventStatus: Int32 = 0
        while true {
            eventStatus = evemu_read_event(file, &event)
            guard eventStatus > 0 else { break }
            events.append(InputEvent(
                time: EventTime(seconds: Int64(event.time.tv_sec), microseconds: Int32(event.time.tv_usec)),
                type: EventType(rawValue: event.type), code: EventCode(rawValue: event.code), value: event.value))
        }
        return Reading(device: description, events: events, readStatus: status, lastEventStatus: eventStatus)
    }

    /// Loads a description with `evemu_read`, then writes `evemu_write`, the evemu-record banner,
    /// and `evemu_write_event` for each event to `outputPath`.
    static func rewrite(descriptionPath: String, events: [InputEvent], to outputPath: String) -> Bool {
        guard let input = fopen(descriptionPath, "r") else { return false }
        defer { fclose(input) }
        guard let device = evemu_new(nil) else { return false }
        defer { evemu_delete(device) }
        guard evemu_read(device, input) > 0, let output = fopen(outputPath, "w") else { return false }
        defer { fclose(output) }
        guard evemu_write(device, output) == 0 else { return false }
        fputs("################################\n#      Waiting for events      #\n################################\n", output)
        for event in events {
            var raw = input_event()
            raw.time.tv_sec = Int(event.time.seconds)
            raw.time.tv_usec = Int(event.time.microseconds)
            raw.type = event.type.rawValue
            raw.code = event.code.rawValue
            raw.value = event.value
            evemu_write_event(output, &raw)
        }
        return true
    }

    /// Events per second libevemu parses from `path` (`evemu_read_event` loop).
    static func countEvents(_ path: String) -> Int {
        guard let file = fopen(path, "r") else { return -1 }
        defer { fclose(file) }
        guard let device = evemu_new(nil) else { return -1 }
        defer { evemu_delete(device) }
        guard evemu_read(device, file) > 0 else { return -1 }
        var event = input_event()
        var count = 0
        while evemu_read_event(file, &event) > 0 { count += 1 }
        return count
    }
}
