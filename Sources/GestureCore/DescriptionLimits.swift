/// What a device description may say and still be a device, checked when a recording is read.
///
/// Recordings are text anyone can edit; a kernel never reports a slot axis of two billion slots or a
/// surface kilometres wide. Each `A:` line (evemu) or `absinfo:` entry (libinput record) is checked
/// as it is read: what no device can have is an error at its line (the file cannot be meant, and
/// reading on would cost unbounded memory or give numbers that mean nothing); what can still be read
/// sensibly is a `DescriptionWarning` naming the problem and what pinchlab does about it.
package enum DescriptionLimits {
    /// The most multitouch slots a description may have: the kernel's own limit
    /// (`input_mt_init_slots` refuses more than 1024, "to avoid too large memory allocation"), so no
    /// real device has more. Memory for slots never depends on a larger header number.
    package static let slotCountMax = 1024
    /// The widest (and tallest) surface a resolution may describe: 10 m. The largest touch surfaces
    /// made (interactive walls, tables) are a few metres; a wider one is a resolution that is wrong.
    package static let surfaceSpanMaxMM = 10_000.0
    /// The narrowest surface a resolution may describe: 1 mm, less than one fingertip.
    package static let surfaceSpanMinMM = 1.0
}
