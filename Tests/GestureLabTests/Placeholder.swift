import Testing

@Test func placeholder_GestureLabTests() { #expect(Bool(true)) }
