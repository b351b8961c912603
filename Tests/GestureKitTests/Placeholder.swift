import Testing

@Test func placeholder_GestureKitTests() { #expect(Bool(true)) }
