import Testing

@Test func placeholder_RecordingTests() { #expect(Bool(true)) }
