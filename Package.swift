// swift-tools-version:6.1
import PackageDescription

// Flow is one-way: source (device | file) -> events -> touch frames -> recognizers -> transition -> output.
//   CEvdev / CYAML          C libraries (libevdev, libyaml), nothing above sees their pointers
//   GestureCore             events, touch frames, recognizers, velocity: pure Swift, no C module, no I/O
//   GestureKit              devices, recording formats, system calls (over GestureCore; each target imports both)
//   InteractiveTransition   percent-driven transition, curves, springs, policy, context (knows no evdev)
//   GestureLab              the lab engine: binds recognizers to transitions (pipeline, driver), corpus,
//                           tuner, synthesis, policy comparison, libinput verdicts, flight recorder;
//                           returns typed values (JSON lines, errors' descriptions), no human report
//   LabReports              what people read of the engine's results: text, JUnit XML, SVG plots, the
//                           HTML viewer (package API only: not a product)
//   CVirtualEvdev / VirtualEvdev   a FUSE file that answers the evdev ioctls (tests, `pinchlab serve`)
//   LibinputHarness         Debian's `libinput debug-events` on a recording served on a virtual node
//   PinchlabWeb             `live --web`: the viewer page and its event stream over Hummingbird (only the
//                           executable depends on it, so the libraries build without the web stack)
//   pinchlab                the command-line tool (GitCommitStamp: the commit `--version` prints)
//   pinchlab-bench          benchmark helper (Benchmarks/run.sh): big-file generator, in-process timings
// swift-system's module: FileDescriptor, Errno, Stat (GestureKit/System extends it).
let systemPackage: Target.Dependency = .product(name: "SystemPackage", package: "swift-system")

let package = Package(
    name: "pinchlab",
    products: [
        .executable(name: "pinchlab", targets: ["pinchlab"]),
        .library(name: "GestureCore", targets: ["GestureCore"]),
        .library(name: "GestureKit", targets: ["GestureKit"]),
        .library(name: "InteractiveTransition", targets: ["InteractiveTransition"]),
        .library(name: "GestureLab", targets: ["GestureLab"]),
        // LD_PRELOAD'ed into Debian's `libinput debug-events` by `pinchlab libinput` / `--with-libinput`
        // (libpinchlab-udev-preload.so next to the pinchlab binary): see Sources/CUdevPreload.
        .library(name: "pinchlab-udev-preload", type: .dynamic, targets: ["CUdevPreload"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        // `swift package generate-documentation --target GestureKit` (and InteractiveTransition,
        // GestureLab): the DocC catalogs in Sources/<target>/<target>.docc; .ci/run builds them.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        // FileDescriptor and Errno (GestureKit/System adds only what it lacks: poll, ioctl, mkstemp).
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        // Runs `libinput debug-events` (LibinputHarness).
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
    ],
    targets: [
        .systemLibrary(name: "CEvdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        .systemLibrary(name: "CFuse3", pkgConfig: "fuse3", providers: [.apt(["libfuse3-dev", "fuse3"])]),
        .systemLibrary(name: "CEvemu", pkgConfig: "evemu", providers: [.apt(["libevemu-dev"])]),

        // The table type every configurable part declares its settings with (key, default, unit,
        // range, tuning grid, source) and the JSON value a settings file parses to: pure Swift, so
        // InteractiveTransition (which knows no evdev) and GestureKit can both use it.
        .target(name: "SettingsTable"),
        // Builds and tests without libevdev or libyaml: `swift build --target GestureCore`.
        .target(name: "GestureCore", dependencies: ["SettingsTable"]),
        .target(name: "GestureKit", dependencies: ["GestureCore", "CEvdev", "CYAML", "SettingsTable", systemPackage]),
        .target(name: "InteractiveTransition", dependencies: ["SettingsTable"]),
        // The gesture tools people run on top of libinput (touchegg, fusuma, libinput-gestures,
        // InputActions, lisgd, KWin's triggers): each a pure function of a libinput event stream, as
        // pure as GestureCore (no C module, no I/O), fed by GestureLab. Package API only, not a product
        // (docs/reference/api.md says why).
        .target(name: "GestureTools", dependencies: ["SettingsTable"]),
        .target(name: "GestureLab", dependencies: ["GestureCore", "GestureKit", "GestureTools", "InteractiveTransition", "SettingsTable", systemPackage]),
        // What people read of the lab's results: text, SVG plots, the HTML viewer. Above the engine,
        // never below it: GestureLab returns typed values, the strings are made here.
        // The viewer page's HTML, CSS and JavaScript are files (Viewer/Page), compiled in by EmbedTextFiles.
        .target(
            name: "LabReports", dependencies: ["GestureCore", "GestureLab", "GestureKit", "GestureTools", "InteractiveTransition", "SettingsTable"],
            exclude: ["Viewer/Page"], plugins: ["EmbedTextFiles"]
        ),
        // Answers libudev for a `pinchlab serve` node inside `libinput debug-events` (LD_PRELOAD);
        // every other udev call goes to the real libudev. Linked into nothing of pinchlab's own.
        .target(name: "CUdevPreload", cSettings: [.define("_GNU_SOURCE")], linkerSettings: [.linkedLibrary("dl")]),

        .target(
            name: "CVirtualEvdev",
            dependencies: ["CFuse3"],
            cSettings: [.define("_GNU_SOURCE")],
            linkerSettings: [.linkedLibrary("fuse3"), .linkedLibrary("pthread")]
        ),
        .target(name: "VirtualEvdev", dependencies: ["GestureCore", "CVirtualEvdev", "GestureKit", systemPackage], exclude: ["README.md"]),
        // Runs Debian's `libinput debug-events` on a recording served on a virtual node; the verdict
        // types and their comparison stay in GestureLab, which knows no FUSE.
        .target(
            name: "LibinputHarness",
            dependencies: ["GestureCore", "GestureLab", "GestureKit", "VirtualEvdev", .product(name: "Subprocess", package: "swift-subprocess")]
        ),

        .target(
            name: "PinchlabWeb",
            dependencies: [
                "GestureLab", "LabReports",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),

        .executableTarget(
            name: "pinchlab",
            dependencies: [
                "GestureCore", "GestureLab", "GestureTools", "LabReports", "GestureKit", "InteractiveTransition", "VirtualEvdev", "LibinputHarness", "PinchlabWeb",
                // The options that set a setting take their ranges from its row (`SettingOption`).
                "SettingsTable",
                .product(name: "ArgumentParser", package: "swift-argument-parser"), systemPackage,
                // `pinchlab report`'s archive.
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            plugins: ["GitCommitStamp"]
        ),
        // Writes BuildCommit.swift for `pinchlab --version` (the git commit of this package's work
        // tree, and whether pinchlab's sources differed from it) whenever the git state or a source
        // changes. Needs /bin/sh only; without git or .git the stamp is nil and only the version prints.
        .plugin(name: "GitCommitStamp", capability: .buildTool(), exclude: ["write-build-commit.sh"]),
        // Compiles a target's .html, .css and .js files into it as string constants (EmbeddedFiles), so
        // the binary stays one file where SwiftPM resources would need a bundle beside it. /bin/sh only.
        .plugin(name: "EmbedTextFiles", capability: .buildTool(), exclude: ["embed-text-files.sh"]),

        // Benchmarks/run.sh: generates the large evemu files and runs the in-process measurements.
        .executableTarget(
            name: "pinchlab-bench", dependencies: ["GestureCore", "GestureLab", "GestureKit", "InteractiveTransition", "VirtualEvdev", systemPackage]
        ),

        // Shared by the test suites: the seeded generator, the gesture-order checker, frame scripts.
        .target(name: "PinchlabTestSupport", dependencies: ["GestureCore", "SettingsTable"], path: "Tests/PinchlabTestSupport"),
        // The core's tests: recognizer, frames, velocity; no C library needed.
        .testTarget(name: "GestureCoreTests", dependencies: ["GestureCore", "SettingsTable", "PinchlabTestSupport"]),
        .testTarget(name: "GestureKitTests", dependencies: ["GestureCore", "GestureKit", "SettingsTable", "PinchlabTestSupport", systemPackage]),
        .testTarget(name: "RecordingTests", dependencies: ["GestureCore", "GestureKit", "CEvdev", "CEvemu", "VirtualEvdev", "PinchlabTestSupport", systemPackage]),
        .testTarget(
            name: "VirtualDeviceTests", dependencies: ["GestureCore", "GestureKit", "GestureLab", "VirtualEvdev", "CEvdev", "PinchlabTestSupport", systemPackage]
        ),
        .testTarget(name: "GestureToolsTests", dependencies: ["GestureTools", "SettingsTable", "CYAML"]),
        .testTarget(name: "InteractiveTransitionTests", dependencies: ["GestureCore", "InteractiveTransition", "GestureKit", "PinchlabTestSupport"]),
        .testTarget(name: "GestureLabTests", dependencies: ["GestureCore", "GestureLab", "LabReports", "GestureKit", "InteractiveTransition", "SettingsTable", "PinchlabTestSupport", systemPackage]),
        .testTarget(
            name: "PropertyTests",
            dependencies: [
                "GestureCore", "GestureKit", "GestureLab", "LabReports", "InteractiveTransition", "PinchlabTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(name: "CLITests", dependencies: ["GestureCore", "pinchlab", "VirtualEvdev", "GestureKit", "GestureLab", "CEvemu", "PinchlabTestSupport"]),
        // The documentation's command lines, parsed by the tool's own parser (`@testable import
        // pinchlab`, kept out of CLITests, whose tests run the binary).
        .testTarget(name: "DocumentationTests", dependencies: ["GestureCore", "pinchlab", "GestureKit", "GestureLab", "InteractiveTransition", "SettingsTable", "PinchlabTestSupport"]),
        .testTarget(name: "PinchlabWebTests", dependencies: ["GestureCore", "PinchlabWeb", "GestureLab", "LabReports", "GestureKit", "InteractiveTransition", "PinchlabTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
