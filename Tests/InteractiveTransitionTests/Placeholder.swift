import Testing

@Test func placeholder_InteractiveTransitionTests() { #expect(Bool(true)) }
