import Testing

@Test func placeholder_VirtualDeviceTests() { #expect(Bool(true)) }
