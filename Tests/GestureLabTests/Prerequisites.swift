import PinchlabTestSupport

// `Prerequisite` and `.needs(...)` are PinchlabTestSupport's; these tests need only what it has
// (the shared recordings).
