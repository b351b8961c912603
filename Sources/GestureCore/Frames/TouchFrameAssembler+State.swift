extension TouchFrameAssembler {
    /// Starts from the state a device was in when it was opened, so fingers already down are
    /// seen: `state` is the events that lead there from a fresh device
    /// (`EvdevDevice.currentStateEvents()`), as libinput's touchpad code syncs its touches from
    /// libevdev when it adds a device. The contacts in it begin in the next frame (the first
    /// `SYN_REPORT` completes it, with that frame's own changes applied), so a gesture already
    /// under way is recognized from there. Call before the first event; `EV_SYN` events in `state`
    /// are ignored, so it never completes a frame by itself.
    public mutating func seed(withState state: some Sequence<InputEvent>) {
        for event in state where event.type != .syn { _ = ingest(event) }
    }
}
