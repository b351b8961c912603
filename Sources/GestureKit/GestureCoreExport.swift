// GestureKit is the I/O half (devices, recording formats, system calls) over GestureCore (events,
// touch frames, recognition, velocity): whoever imports GestureKit sees both, as before the split.
@_exported import GestureCore
