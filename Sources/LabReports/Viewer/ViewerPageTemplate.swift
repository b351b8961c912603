/// The viewer page's markup and style, up to the embedded data. Every text the recording supplies is
/// filled in by the script with `textContent`; nothing here is built from data.
enum ViewerPageTemplate {
    static let head = #"""
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>pinchlab view</title>
<style>
:root { --ink: #1f2328; --muted: #656d76; --line: #d0d7de; --panel: #f6f8fa; --card: #2563eb; --ghost: #f97316;
        --pinch: #8250df; --pan: #1a7f37; --finish: #1a7f37; --cancel: #cf222e; }
* { box-sizing: border-box; }
body { margin: 0; font: 13px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: #fff; }
header { padding: 8px 14px 6px; border-bottom: 1px solid var(--line); }
h1 { font-size: 15px; margin: 0; font-weight: 600; overflow-wrap: anywhere; }
h2 { font-size: 12px; margin: 0 0 4px; color: var(--muted); font-weight: 600; text-transform: uppercase; letter-spacing: .04em; }
#subtitle { color: var(--muted); overflow-wrap: anywhere; }
main { display: flex; flex-wrap: wrap; gap: 14px; padding: 10px 14px 0; align-items: flex-start; }
section.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 8px; }
#surface-panel { flex: 0 0 auto; }
#surface { display: block; background: #fff; }
#scene-panel { flex: 0 0 auto; }
#scene { position: relative; overflow: hidden; background: #fff; border: 1px solid var(--line); }
#presenting { position: absolute; inset: 0; transform-origin: 50% 50%; background: #eef1f4;
              display: grid; grid-template-columns: 1fr 1fr; gap: 4%; padding: 6%; align-content: start; }
#presenting div { aspect-ratio: 1; background: #c9d1d9; border-radius: 4px; }
#dimming { position: absolute; inset: 0; background: #000; opacity: 0; }
#card, #ghost { position: absolute; transform-origin: 50% 50%; }
#card { background: var(--card); }
#ghost { border: 2px dashed var(--ghost); display: none; }
#close-button { position: absolute; width: 22px; height: 22px; margin-left: -11px; border-radius: 11px;
                background: #fff; border: 1px solid #57606a; display: none; }
#facts-panel { flex: 1 1 260px; min-width: 240px; }
#facts { margin: 0; }
#facts dt { color: var(--muted); font-size: 11px; margin-top: 6px; }
#facts dd { margin: 0; font-variant-numeric: tabular-nums; overflow-wrap: anywhere; }
#legend { margin-top: 10px; color: var(--muted); font-size: 11px; }
#legend span { display: inline-block; margin-right: 10px; }
#timeline-panel { margin: 10px 14px 0; }
#timeline { display: block; width: 100%; height: 250px; cursor: crosshair; background: #fff; }
#controls { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; padding: 8px 14px; }
#controls button { font: inherit; padding: 3px 10px; }
#scrub { flex: 1 1 300px; }
#time-readout { font-variant-numeric: tabular-nums; min-width: 130px; }
#live-status, #dump-status { color: var(--muted); }
#pinchlab-state { display: none; }
#stopped { color: #b00020; font-weight: 600; margin-top: 4px; }
#thinned { color: #8a5a00; margin-top: 4px; }
</style>
</head>
<body>
<header>
<h1 id="title"></h1>
<div id="subtitle"></div>
<div id="stopped" hidden></div>
<div id="thinned" hidden></div>
</header>
<main>
<section class="panel" id="surface-panel"><h2>Touch surface</h2><canvas id="surface" width="420" height="260"></canvas><div id="surface-caption"></div></section>
<section class="panel" id="scene-panel"><h2 id="scene-heading">Scene</h2>
<div id="scene"><div id="presenting"><div></div><div></div><div></div><div></div><div></div><div></div><div></div><div></div></div><div id="dimming"></div><div id="card"></div><div id="ghost"></div><div id="close-button"></div></div>
</section>
<section class="panel" id="facts-panel"><h2>Now</h2>
<dl id="facts">
<dt>time</dt><dd id="fact-time"></dd>
<dt>attempt</dt><dd id="fact-trial"></dd>
<dt>transition</dt><dd id="fact-state"></dd>
<dt>gesture</dt><dd id="fact-gesture"></dd>
<dt>touches</dt><dd id="fact-touches"></dd>
<dt>decision</dt><dd id="fact-decision"></dd>
<dt id="fact-compare-label">compared policy</dt><dd id="fact-compare"></dd>
<dt>policy</dt><dd id="fact-policy"></dd>
</dl>
<div id="legend"></div>
</section>
</main>
<section class="panel" id="timeline-panel"><canvas id="timeline"></canvas></section>
<nav id="controls">
<button id="play" type="button" title="Play / pause (space)">Play</button>
<button id="prev-attempt" type="button" title="Previous attempt (Page Up)">&#9664; attempt</button>
<button id="next-attempt" type="button" title="Next attempt (Page Down)">attempt &#9654;</button>
<label>speed <input id="speed" type="range" min="0.1" max="2" step="0.05" value="1"> <span id="speed-readout">1.00x</span></label>
<input id="scrub" type="range" min="0" max="1" step="0.001" value="0" aria-label="time">
<span id="time-readout"></span>
<span id="live-status"></span>
<button id="dump" type="button" title="Write the flight recorder's last seconds to a file (as SIGUSR1 or the d key)" hidden>Dump</button>
<span id="dump-status"></span>
</nav>
<pre id="pinchlab-state"></pre>

"""#
}
