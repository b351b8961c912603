"use strict";
(function () {
  const doc = JSON.parse(document.getElementById("pinchlab-data").textContent);
  const $ = (id) => document.getElementById(id);
  const extrasIndex = {};
  doc.transition.extras.forEach((name, i) => { extrasIndex[name] = 7 + i; });

  // ---- data, indexed by time -------------------------------------------------------------------
  let frames, steps, ghostSteps, gestures, gestureTimes, leftOut, presses, openPresses, ticks, trials, ghostTrials, duration, latency,
      toolFirings;
  function reset() {
    frames = { t: [], fingers: [], touches: [] };
    steps = newSteps(); ghostSteps = newSteps();
    gestures = []; gestureTimes = []; leftOut = new Map(); presses = []; openPresses = new Map();
    trials = []; ghostTrials = [];
    ticks = null; duration = 0; latency = []; toolFirings = [];
  }
  function newSteps() { return { t: [], p: [], state: [], trial: [], scene: [], decisions: [] }; }

  function ingest(entry) {
    const kind = entry[0], t = entry[1];
    if (kind === "f") {
      const touches = [];
      for (let i = 3; i + 2 < entry.length; i += 3) touches.push({ id: entry[i], x: entry[i + 1], y: entry[i + 2] });
      frames.t.push(t); frames.fingers.push(entry[2]); frames.touches.push(touches);
    } else if (kind === "s" || kind === "c") {
      const into = kind === "s" ? steps : ghostSteps, list = kind === "s" ? trials : ghostTrials;
      const trial = entry[4], state = entry[3];
      into.t.push(t); into.p.push(entry[2]); into.state.push(state); into.trial.push(trial); into.scene.push(entry[5]);
      if (!list[trial]) list[trial] = { index: trial, begin: t, end: null, release: null, decision: null, outcome: null };
      const attempt = list[trial];
      if (entry.length > 6) {
        const decision = { time: t, progress: entry[2], reason: entry[6], velocity: entry[7], projected: entry[8] };
        attempt.release = t; attempt.decision = decision; into.decisions.push(decision);
      }
      if (state === "finished" || state === "cancelled") { attempt.end = t; attempt.outcome = state; }
    } else if (kind === "b") {
      // The press each button has open, by button: a release finds it at once (searching every
      // press made a page of 100,000 clicks take 22 s to load).
      if (entry[3] === "pressed") { const press = { button: entry[2], begin: t, end: null }; presses.push(press); openPresses.set(entry[2], press); }
      else { const open = openPresses.get(entry[2]); if (open) { open.end = t; openPresses.delete(entry[2]); } }
    } else if (kind === "m" || kind === "n") {
      // What would have flipped a release: said with its decision (text, never markup).
      const attempt = (kind === "m" ? trials : ghostTrials)[entry[2]];
      if (attempt) attempt.margin = entry[3];
    } else if (kind === "t") {
      // A gesture tool acted (view --tool): replay --tool's line for it, text, never markup.
      toolFirings.push({ tool: entry[2], begin: entry[3], end: t, executed: entry[4], text: entry[5] });
    } else if (kind === "r") {
      leftOut.set(entry[2], { t: t, rule: entry[3] });
    } else if (kind === "g") {
      gestures.push({ t: t, kind: entry[2], state: entry[3], fingers: entry[4], value: entry[5], rule: entry[6] || null,
                      x: entry.length > 7 ? entry[7] : null });
      gestureTimes.push(t);
    }
    if (t > duration) duration = t;
    ticks = null;
  }

  function load(source) {
    reset();
    for (const entry of source.entries) ingest(entry);
    if (source.summary && source.summary.duration > duration) duration = source.summary.duration;
  }

  /// Index of the last element of sorted `times` at or before `t`, -1 if none.
  function lastAtOrBefore(times, t) {
    let lo = 0, hi = times.length - 1, found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (times[mid] <= t) { found = mid; lo = mid + 1; } else { hi = mid - 1; }
    }
    return found;
  }

  /// Every moment something changed (frames and steps), for stepping one frame with the arrow keys.
  function allTicks() {
    if (!ticks) {
      const merged = frames.t.concat(steps.t).sort((a, b) => a - b);
      ticks = merged.filter((v, i) => i === 0 || v !== merged[i - 1]);
    }
    return ticks;
  }

  function gestureSpans() {
    const spans = [];
    let open = null;
    for (const g of gestures) {
      if (g.state === "began") { open = { kind: g.kind, fingers: g.fingers, begin: g.t, end: g.t, ended: null }; spans.push(open); }
      else if (open) { open.end = g.t; if (g.state === "ended" || g.state === "cancelled") { open.ended = g.state; open = null; } }
    }
    return spans;
  }

  // ---- state at a time ---------------------------------------------------------------------------
  let time = 0, playing = false, speed = 1, followLive = doc.live;

  function stepAt(into, t) {
    const i = lastAtOrBefore(into.t, t);
    if (i < 0) return { index: -1, progress: 0, state: "idle", trial: null, scene: doc.transition.fromScene };
    return { index: i, progress: into.p[i], state: into.state[i], trial: into.trial[i], scene: into.scene[i] };
  }

  function sceneObject(numbers, element) {
    const extras = {};
    doc.transition.extras.forEach((name, i) => { extras[name] = numbers[7 + i]; });
    const scene = { x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3], cornerRadius: numbers[4],
                    alpha: numbers[5], scale: numbers[6], extras: extras, pixelsPerPoint: pixelsPerPoint };
    if (element) {
      const box = element.getBoundingClientRect();
      scene.drawn = { left: box.left, top: box.top, width: box.width, height: box.height };
    }
    return scene;
  }

  function state() {
    const fi = lastAtOrBefore(frames.t, time);
    const step = stepAt(steps, time);
    const result = {
      time: time,
      trial: step.trial,
      progress: step.progress,
      transitionState: step.state,
      scene: sceneObject(step.scene, $("card")),
      touches: fi < 0 ? [] : frames.touches[fi].map((t) => {
        const out = leftOutRule(t.id);
        return out ? { id: t.id, x: t.x, y: t.y, leftOut: out } : { id: t.id, x: t.x, y: t.y };
      }),
      fingers: fi < 0 ? 0 : frames.fingers[fi],
      buttons: presses.filter((p) => p.begin <= time && (p.end === null || p.end > time)).map((p) => p.button),
      presses: presses.length,
      duration: duration,
      attempts: trials.length,
      playing: playing,
      speed: speed,
      timelineWindow: { from: windowFrom(), to: windowTo() },
      margin: marginSoFar(trials, step.trial),
    };
    if (doc.tools) result.tools = toolsSoFar();
    if (doc.compare) {
      const ghost = stepAt(ghostSteps, time);
      result.compare = { policy: doc.compare.name, trial: ghost.trial, progress: ghost.progress,
                         transitionState: ghost.state, scene: sceneObject(ghost.scene, $("ghost")),
                         margin: marginSoFar(ghostTrials, ghost.trial) };
    }
    if (doc.live) result.live = { connected: connected, ended: ended, entries: entryCount, caughtUp: caughtUp, latencyMS: latency.slice(-2000) };
    return result;
  }

  /// Each tool's firings by `time`: `{tool, fired: [text]}`, in the document's order of tools.
  function toolsSoFar() {
    return doc.tools.map((name) => ({ tool: name, fired: toolFirings.filter((f) => f.tool === name && f.end <= time).map((f) => f.text) }));
  }

  /// The facts' line: each tool's last firing by `time`, or that it has fired nothing yet.
  function describeTools() {
    return toolsSoFar().map((t) => t.tool + ": " + (t.fired.length === 0 ? "nothing yet"
      : t.fired[t.fired.length - 1] + (t.fired.length > 1 ? " (" + t.fired.length + " so far)" : ""))).join("; ");
  }

  /// What would have flipped the attempt's release, once it was released by `time`.
  function marginSoFar(list, trial) {
    const a = trial === null ? null : list[trial];
    return a && a.margin && a.decision && a.decision.time <= time ? a.margin : null;
  }

  /// The rule by which the recognizer left touch `id` out, if it had by `time`.
  function leftOutRule(id) {
    const mark = leftOut.get(id);
    return mark && mark.t <= time ? mark.rule : null;
  }

  // ---- drawing -----------------------------------------------------------------------------------
  const surface = $("surface"), surfaceCtx = surface.getContext("2d");
  const timeline = $("timeline"), timelineCtx = timeline.getContext("2d");
  const sceneBox = $("scene");
  const container = doc.transition.container;
  const sceneHeightPx = 440;
  const pixelsPerPoint = sceneHeightPx / container[3];
  sceneBox.style.width = (container[2] * pixelsPerPoint) + "px";
  sceneBox.style.height = sceneHeightPx + "px";
  const colors = ["#0969da", "#cf222e", "#1a7f37", "#8250df", "#bf8700", "#1b7c83", "#e16f24", "#6e7781"];
  const trailSeconds = 0.4;

  function layoutSurface() {
    const maxW = 420, maxH = 300;
    const aspect = doc.device.widthMM / doc.device.heightMM;
    let w = maxW, h = maxW / aspect;
    if (h > maxH) { h = maxH; w = maxH * aspect; }
    surface.width = Math.round(w); surface.height = Math.round(h);
  }

  function drawSurface(fi) {
    const ctx = surfaceCtx, W = surface.width, H = surface.height;
    const k = W / doc.device.widthMM;
    ctx.clearRect(0, 0, W, H);
    ctx.fillStyle = "#fff"; ctx.fillRect(0, 0, W, H);
    if (doc.thumbBandMM) {
      const y = H - doc.thumbBandMM * k;
      ctx.fillStyle = "rgba(191, 135, 0, 0.12)"; ctx.fillRect(0, y, W, H - y);
      ctx.strokeStyle = "rgba(191, 135, 0, 0.6)"; ctx.setLineDash([4, 4]);
      ctx.beginPath(); ctx.moveTo(0, y); ctx.lineTo(W, y); ctx.stroke(); ctx.setLineDash([]);
      ctx.fillStyle = "#9a6700"; ctx.font = "11px sans-serif"; ctx.textAlign = "left";
      ctx.fillText("thumb band " + doc.thumbBandMM + " mm", 4, H - 4);
    }
    ctx.strokeStyle = "#57606a"; ctx.lineWidth = 1; ctx.strokeRect(0.5, 0.5, W - 1, H - 1);
    if (fi < 0) return;
    const now = frames.touches[fi];
    for (const touch of now) {
      const color = colors[touch.id % colors.length];
      // The trail: this touch's positions over the last trailSeconds, fading with age.
      let previous = null;
      for (let j = fi; j >= 0 && frames.t[fi] - frames.t[j] <= trailSeconds; j--) {
        const match = frames.touches[j].find((o) => o.id === touch.id);
        if (!match) break;
        if (previous) {
          const age = (frames.t[fi] - frames.t[j]) / trailSeconds;
          ctx.strokeStyle = color; ctx.globalAlpha = Math.max(0.1, 1 - age); ctx.lineWidth = 3;
          ctx.beginPath(); ctx.moveTo(previous.x * k, previous.y * k); ctx.lineTo(match.x * k, match.y * k); ctx.stroke();
        }
        previous = match;
      }
      ctx.globalAlpha = 1;
      const r = Math.max(6, 4 * k);
      const out = leftOutRule(touch.id);
      // A touch left out (a thumb, a resting finger): grey, dashed, with the rule that left it out.
      ctx.fillStyle = out ? "#8c959f" : color; ctx.globalAlpha = out ? 0.2 : 0.35;
      ctx.beginPath(); ctx.arc(touch.x * k, touch.y * k, r, 0, 2 * Math.PI); ctx.fill();
      ctx.globalAlpha = 1; ctx.strokeStyle = out ? "#57606a" : color; ctx.lineWidth = 2;
      if (out) ctx.setLineDash([3, 3]);
      ctx.stroke(); ctx.setLineDash([]);
      ctx.fillStyle = "#1f2328"; ctx.font = "11px sans-serif"; ctx.textAlign = "center";
      ctx.fillText(String(touch.id), touch.x * k, touch.y * k + 4);
      if (out) ctx.fillText(out, touch.x * k, touch.y * k - r - 4);
    }
  }

  function placeView(element, numbers) {
    element.style.left = (numbers[0] * pixelsPerPoint) + "px";
    element.style.top = (numbers[1] * pixelsPerPoint) + "px";
    element.style.width = (numbers[2] * pixelsPerPoint) + "px";
    element.style.height = (numbers[3] * pixelsPerPoint) + "px";
    element.style.borderRadius = (numbers[4] * pixelsPerPoint) + "px";
    element.style.opacity = String(numbers[5]);
    element.style.transform = "scale(" + numbers[6] + ")";
  }

  function drawScene(step, ghost) {
    const s = step.scene;
    placeView($("card"), s);
    const dim = extrasIndex.dimmingAlpha, presenting = extrasIndex.presentingScale, close = extrasIndex.closeButtonY;
    $("dimming").style.opacity = dim === undefined ? "0" : String(0.55 * s[dim]);
    $("presenting").style.transform = presenting === undefined ? "none" : "scale(" + s[presenting] + ")";
    const button = $("close-button");
    if (close === undefined) { button.style.display = "none"; } else {
      button.style.display = "block";
      button.style.left = ((container[2] - 30) * pixelsPerPoint) + "px";
      button.style.top = (s[close] * pixelsPerPoint) + "px";
    }
    const ghostView = $("ghost");
    if (ghost) { ghostView.style.display = "block"; placeView(ghostView, ghost.scene); ghostView.style.opacity = "1"; }
  }

  // Timeline geometry: x from time, rows for gestures and attempts, a progress chart below.
  const margin = { left: 70, right: 16 };
  const rows = { touches: 8, gestures: 30, attempts: 56, chartTop: 88, chartBottom: 228, axis: 244 };
  let timelineBackground = null;
  // The timeline shows [view.from, view.to] (null: the whole recording). The wheel zooms around the
  // pointer, "whole" shows everything again, and a playhead leaving the window moves it along.
  let view = null;
  function windowFrom() { return view ? view.from : 0; }
  function windowTo() { return view ? view.to : duration; }
  function xOf(t) {
    const span = windowTo() - windowFrom();
    return margin.left + (timeline.width - margin.left - margin.right) * (span > 0 ? (t - windowFrom()) / span : 0);
  }
  function tOf(x) {
    const t = windowFrom() + (x - margin.left) / (timeline.width - margin.left - margin.right) * (windowTo() - windowFrom());
    return Math.min(duration, Math.max(0, t));
  }
  function zoom(from, to) {
    const a = Math.max(0, Math.min(Number(from), Number(to))), b = Math.min(duration, Math.max(Number(from), Number(to)));
    view = (b - a >= 0.05 && (a > 0 || b < duration)) ? { from: a, to: b } : null;
    timelineBackground = null;
    render();
    return { from: windowFrom(), to: windowTo() };
  }
  function keepPlayheadInView() {
    if (!view || (time >= view.from && time <= view.to)) return;
    const span = view.to - view.from;
    const from = Math.min(Math.max(0, time - span * 0.1), Math.max(0, duration - span));
    view = { from: from, to: from + span };
    timelineBackground = null;
  }
  const pMin = -0.1, pMax = 1.15;
  function yOf(p) { const c = Math.min(pMax, Math.max(pMin, p)); return rows.chartBottom - (c - pMin) / (pMax - pMin) * (rows.chartBottom - rows.chartTop); }

  function drawProgress(ctx, into, color, dashed) {
    ctx.strokeStyle = color; ctx.lineWidth = 1.6; ctx.setLineDash(dashed ? [5, 4] : []);
    let lastTrial = null;
    ctx.beginPath();
    for (let i = 0; i < into.t.length; i++) {
      const x = xOf(into.t[i]), y = yOf(into.p[i]);
      if (into.trial[i] !== lastTrial) { ctx.moveTo(x, y); lastTrial = into.trial[i]; } else { ctx.lineTo(x, y); }
    }
    ctx.stroke(); ctx.setLineDash([]);
  }

  function renderTimelineBackground() {
    const width = Math.max(600, Math.floor(timeline.getBoundingClientRect().width));
    timeline.width = width; timeline.height = 250;
    const ctx = timelineCtx;
    ctx.clearRect(0, 0, width, timeline.height);
    ctx.save();
    ctx.beginPath(); ctx.rect(margin.left, 0, width - margin.left - margin.right + 12, timeline.height); ctx.clip();
    ctx.font = "11px sans-serif"; ctx.textAlign = "right"; ctx.fillStyle = "#656d76";
    // Touches down: a bar per frame, as tall as the count (up to 5), so fingers show where no gesture was.
    ctx.fillStyle = "#6e7781";
    for (let i = 0; i < frames.t.length; i++) {
      const n = frames.touches[i].length;
      if (n === 0) continue;
      const x0 = xOf(frames.t[i]), x1 = i + 1 < frames.t.length ? xOf(frames.t[i + 1]) : x0 + 1;
      const h = Math.min(5, n) * 3;
      ctx.fillRect(x0, rows.touches + 16 - h, Math.max(1, x1 - x0), h);
    }
    // Gesture spans.
    for (const span of gestureSpans()) {
      const x0 = xOf(span.begin), x1 = Math.max(x0 + 2, xOf(span.end));
      ctx.fillStyle = span.kind === "pinch" ? "#8250df" : span.kind === "pan" ? "#1a7f37" : "#8c959f";
      ctx.globalAlpha = span.ended === "cancelled" ? 0.4 : 0.85;
      ctx.fillRect(x0, rows.gestures, x1 - x0, 20);
      ctx.globalAlpha = 1;
      if (x1 - x0 > 60) { ctx.fillStyle = "#fff"; ctx.textAlign = "left"; ctx.fillText(span.kind + " " + span.fingers + "f" + (span.ended === "cancelled" ? " (cancelled)" : ""), x0 + 4, rows.gestures + 14); }
    }
    // Button presses (a clickpad's clicks): brown bars just above the gestures, press to release.
    ctx.fillStyle = "#8c564b";
    for (const p of presses) {
      const x0 = xOf(p.begin), x1 = Math.max(x0 + 2, xOf(p.end === null ? duration : p.end));
      ctx.fillRect(x0, rows.gestures - 6, x1 - x0, 4);
    }
    // Gesture tools' firings (view --tool): thin purple bars under the gestures, begin to where the
    // tool acted, pale where it cancelled.
    // A firing starts where the same tool's one before ended (repeats would overlap), with a dark
    // tick where the tool acted.
    const toolEnds = new Map();
    for (const f of toolFirings) {
      const x0 = xOf(Math.max(f.begin, toolEnds.has(f.tool) ? toolEnds.get(f.tool) : f.begin)), x1 = Math.max(x0 + 2, xOf(f.end));
      toolEnds.set(f.tool, f.end);
      ctx.fillStyle = f.executed === false ? "#c5b0d5" : "#9467bd";
      ctx.fillRect(x0, rows.gestures + 21, x1 - x0, 3);
      ctx.fillStyle = "#3f1d5c";
      ctx.fillRect(x1 - 1.5, rows.gestures + 20, 1.5, 5);
    }
    // Attempts: begin to end, coloured by outcome, numbered.
    for (const trial of trials) {
      if (!trial) continue;
      const x0 = xOf(trial.begin), x1 = Math.max(x0 + 2, xOf(trial.end === null ? duration : trial.end));
      ctx.fillStyle = trial.outcome === "finished" ? "#1a7f37" : trial.outcome === "cancelled" ? "#cf222e" : "#6e7781";
      ctx.globalAlpha = 0.25; ctx.fillRect(x0, rows.attempts, x1 - x0, 20); ctx.globalAlpha = 1;
      ctx.fillStyle = "#1f2328"; ctx.textAlign = "left";
      if (x1 - x0 > 14) ctx.fillText(String(trial.index + 1), x0 + 3, rows.attempts + 14);
    }
    // Progress chart: 0, threshold, 1.
    ctx.strokeStyle = "#d0d7de"; ctx.lineWidth = 1;
    for (const p of [0, 1]) { ctx.beginPath(); ctx.moveTo(margin.left, yOf(p)); ctx.lineTo(width - margin.right, yOf(p)); ctx.stroke(); }
    ctx.fillStyle = "#656d76"; ctx.textAlign = "right";
    ctx.strokeStyle = "#bf8700"; ctx.setLineDash([6, 4]);
    ctx.beginPath(); ctx.moveTo(margin.left, yOf(doc.policy.threshold)); ctx.lineTo(width - margin.right, yOf(doc.policy.threshold)); ctx.stroke();
    ctx.setLineDash([]);
    if (doc.compare) drawProgress(ctx, ghostSteps, "#f97316", true);
    drawProgress(ctx, steps, "#0969da", false);
    // Releases: a dot at the release, the projected progress as an open triangle joined by a dashed line.
    for (const d of steps.decisions) {
      const x = xOf(d.time), y = yOf(d.progress);
      const finish = d.reason.indexOf("finish") === 0;
      ctx.fillStyle = finish ? "#1a7f37" : "#cf222e";
      ctx.beginPath(); ctx.arc(x, y, 4, 0, 2 * Math.PI); ctx.fill();
      if (d.projected !== null && d.projected !== undefined) {
        const yp = yOf(d.projected);
        ctx.strokeStyle = ctx.fillStyle; ctx.setLineDash([3, 3]);
        ctx.beginPath(); ctx.moveTo(x, y); ctx.lineTo(x + 14, yp); ctx.stroke(); ctx.setLineDash([]);
        ctx.beginPath(); ctx.moveTo(x + 14, yp - 5); ctx.lineTo(x + 19, yp + 4); ctx.lineTo(x + 9, yp + 4); ctx.closePath(); ctx.stroke();
      }
    }
    ctx.restore();
    ctx.font = "11px sans-serif"; ctx.textAlign = "right"; ctx.fillStyle = "#656d76";
    ctx.fillText("touches", margin.left - 6, rows.touches + 12);
    ctx.fillText("gestures", margin.left - 6, rows.gestures + 14);
    ctx.fillText("attempts", margin.left - 6, rows.attempts + 14);
    ctx.fillText("progress", margin.left - 6, rows.chartTop + 10);
    ctx.fillText("0", margin.left - 6, yOf(0) + 4); ctx.fillText("1", margin.left - 6, yOf(1) + 4);
    ctx.fillStyle = "#9a6700"; ctx.fillText("threshold " + doc.policy.threshold, margin.left - 6, yOf(doc.policy.threshold) + 4);
    if (view) { ctx.fillStyle = "#656d76"; ctx.textAlign = "right"; ctx.fillText("zoomed: " + view.from.toFixed(2) + "-" + view.to.toFixed(2) + " s (key 0: all)", width - margin.right, rows.chartTop - 6); }
    // Time axis.
    ctx.fillStyle = "#656d76"; ctx.textAlign = "center";
    const step = niceStep((windowTo() - windowFrom()) / 10);
    for (let t = Math.ceil(windowFrom() / step) * step; t <= windowTo() + 1e-9; t += step) {
      ctx.fillRect(xOf(t), rows.chartBottom + 2, 1, 4);
      ctx.fillText(t.toFixed(step < 1 ? 1 : 0) + " s", xOf(t), rows.axis);
    }
    timelineBackground = ctx.getImageData(0, 0, timeline.width, timeline.height);
  }

  function niceStep(raw) {
    if (!(raw > 0)) return 1;
    const power = Math.pow(10, Math.floor(Math.log10(raw)));
    for (const m of [1, 2, 5, 10]) if (m * power >= raw) return m * power;
    return 10 * power;
  }

  /// Live, the timeline's background (every frame and step so far) is redrawn at most every
  /// quarter second: redrawing it on every batch would cost more as the session grows.
  let timelineStale = false, timelineDrawnAt = 0;
  function drawPlayhead() {
    const now = performance.now();
    if (!timelineBackground || (timelineStale && now - timelineDrawnAt > 250)) {
      renderTimelineBackground(); timelineStale = false; timelineDrawnAt = now;
    }
    timelineCtx.putImageData(timelineBackground, 0, 0);
    const x = Math.round(xOf(time)) + 0.5;
    timelineCtx.strokeStyle = "#1f2328"; timelineCtx.lineWidth = 1;
    timelineCtx.beginPath(); timelineCtx.moveTo(x, 2); timelineCtx.lineTo(x, rows.chartBottom); timelineCtx.stroke();
  }

  function fmt(v, decimals) { return v === null || v === undefined ? "-" : Number(v).toFixed(decimals); }

  function describeGesture(t) {
    const i = lastAtOrBefore(gestureTimes, t);
    if (i < 0) return "none yet";
    const g = gestures[i];
    const value = g.kind === "pinch" ? "scale " + fmt(g.value, 3) : g.kind === "pan" ? panTravel(g) : "still";
    return g.kind + " " + g.state + ", " + count(g.fingers, "finger") + ", " + value + (g.rule ? " (rule " + g.rule + ")" : "");
  }

  /// A pan's travel on both axes in words, "right 38.8 mm, up 13.9 mm" (y grows downward), as the
  /// plot draws it: a sideways swipe is no "down 2 mm", an upward stroke no "down -13.9 mm".
  function panTravel(g) {
    const words = [];
    if (g.x !== null) words.push((g.x < 0 ? "left " : "right ") + fmt(Math.abs(g.x), 1) + " mm");
    words.push((g.value < 0 ? "up " : "down ") + fmt(Math.abs(g.value), 1) + " mm");
    return words.join(", ");
  }

  function count(n, noun) { return n + " " + noun + (n === 1 ? "" : "s"); }

  function describeDecision(list, trial) {
    if (trial === null || !list[trial]) return "-";
    const a = list[trial];
    if (!a.decision || a.decision.time > time) {
      return a.outcome === "cancelled" && a.end !== null && a.end <= time ? "cancelled: the gesture was cancelled" : "not released yet";
    }
    let text = a.decision.reason + " (at " + fmt(a.decision.time, 3) + " s, progress " + fmt(a.decision.progress, 3) +
      ", velocity " + fmt(a.decision.velocity, 3) + "/s";
    if (a.decision.projected !== null && a.decision.projected !== undefined) text += ", projected " + fmt(a.decision.projected, 3);
    const margin = marginSoFar(list, trial);
    return text + ")" + (margin ? "; " + margin : "");
  }

  /// ", finished" once the attempt has ended by `time`; what is still to come is not told.
  function outcomeSoFar(attempt) {
    return attempt && attempt.outcome && attempt.end !== null && attempt.end <= time ? ", " + attempt.outcome : "";
  }

  /// "2 down"; the finger count only where it differs (a pad that counts more fingers than it
  /// tracks: "2 down (3 fingers)").
  function touchesText(fi) {
    if (fi < 0) return "0 down";
    const down = frames.touches[fi].length, fingers = frames.fingers[fi];
    return down + " down" + (fingers !== down ? " (" + count(fingers, "finger") + ")" : "");
  }

  function render() {
    const fi = lastAtOrBefore(frames.t, time);
    const step = stepAt(steps, time);
    const ghost = doc.compare ? stepAt(ghostSteps, time) : null;
    drawSurface(fi);
    drawScene(step, ghost);
    keepPlayheadInView();
    drawPlayhead();
    $("fact-time").textContent = fmt(time, 3) + " s of " + fmt(duration, 3) + " s";
    $("fact-trial").textContent = step.trial === null ? "none yet (" + trials.length + " in all)"
      : (step.trial + 1) + " of " + trials.length + outcomeSoFar(trials[step.trial]);
    $("fact-state").textContent = step.state + ", progress " + fmt(step.progress, 3);
    $("fact-gesture").textContent = describeGesture(time);
    $("fact-touches").textContent = touchesText(fi);
    $("fact-decision").textContent = describeDecision(trials, step.trial);
    if (doc.tools) $("fact-tools").textContent = describeTools();
    if (ghost) $("fact-compare").textContent = doc.compare.name + " (" + doc.compare.text + "): " + ghost.state + ", progress " + fmt(ghost.progress, 3) + "; " + describeDecision(ghostTrials, ghost.trial);
    $("time-readout").textContent = fmt(time, 3) + " / " + fmt(duration, 3) + " s";
    $("scrub").max = String(duration); $("scrub").value = String(time);
    $("play").textContent = playing ? "Pause" : "Play";
    $("pinchlab-state").textContent = JSON.stringify(state());
  }

  // ---- controls ----------------------------------------------------------------------------------
  function seek(t) {
    const value = Number(t);
    time = Math.min(duration, Math.max(0, isFinite(value) ? value : 0));
    followLive = false;
    render();
    return state();
  }
  function pause() { playing = false; render(); }
  let lastFrameAt = null;
  function animate(now) {
    if (!playing) { lastFrameAt = null; return; }
    if (lastFrameAt !== null) time = Math.min(duration, time + (now - lastFrameAt) / 1000 * speed);
    lastFrameAt = now;
    if (time >= duration && !doc.live) playing = false;
    render();
    if (playing) requestAnimationFrame(animate); else lastFrameAt = null;
  }
  function play() {
    if (time >= duration) time = 0;
    playing = true; followLive = false; lastFrameAt = null;
    requestAnimationFrame(animate);
    render();
  }
  function stepFrame(direction) {
    playing = false;
    const list = allTicks();
    const i = lastAtOrBefore(list, time + (direction > 0 ? 0 : -1e-9));
    const next = direction > 0 ? list[i + 1] : list[Math.max(0, i)];
    if (next !== undefined) seek(next); else render();
  }
  /// Zooms the timeline to the attempt at the playhead (or the next one), with a little margin.
  function zoomToAttempt() {
    const step = stepAt(steps, time);
    const attempt = trials[step.trial !== null ? step.trial : 0];
    if (!attempt) return zoom(0, duration);
    const end = attempt.end !== null ? attempt.end : duration, pad = Math.max(0.1, (end - attempt.begin) * 0.15);
    return zoom(attempt.begin - pad, end + pad);
  }

  function jumpAttempt(direction) {
    const begins = trials.filter(Boolean).map((a) => a.begin);
    const target = direction > 0 ? begins.find((b) => b > time + 1e-9) : begins.filter((b) => b < time - 1e-9).pop();
    playing = false;
    if (target !== undefined) seek(target); else render();
  }

  $("play").addEventListener("click", () => { playing ? pause() : play(); });
  $("prev-attempt").addEventListener("click", () => jumpAttempt(-1));
  $("next-attempt").addEventListener("click", () => jumpAttempt(1));
  $("speed").addEventListener("input", (e) => { speed = Number(e.target.value); $("speed-readout").textContent = speed.toFixed(2) + "x"; render(); });
  $("scrub").addEventListener("input", (e) => { playing = false; seek(e.target.value); });
  let dragging = false;
  timeline.addEventListener("mousedown", (e) => { dragging = true; playing = false; seek(tOf(e.offsetX * timeline.width / timeline.clientWidth)); });
  timeline.addEventListener("mousemove", (e) => { if (dragging) seek(tOf(e.offsetX * timeline.width / timeline.clientWidth)); });
  window.addEventListener("mouseup", () => { dragging = false; });
  timeline.addEventListener("wheel", (e) => {
    e.preventDefault();
    const at = tOf(e.offsetX * timeline.width / timeline.clientWidth);
    const factor = e.deltaY > 0 ? 1.5 : 1 / 1.5;
    zoom(at - (at - windowFrom()) * factor, at + (windowTo() - at) * factor);
  }, { passive: false });
  window.addEventListener("keydown", (e) => {
    if (e.target && e.target.tagName === "INPUT" && e.target.type !== "range") return;
    if (e.key === "ArrowRight") { stepFrame(1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { stepFrame(-1); e.preventDefault(); }
    else if (e.key === " ") { playing ? pause() : play(); e.preventDefault(); }
    else if (e.key === "PageDown" || e.key === "n") { jumpAttempt(1); e.preventDefault(); }
    else if (e.key === "PageUp" || e.key === "p") { jumpAttempt(-1); e.preventDefault(); }
    else if (e.key === "0") { zoom(0, duration); e.preventDefault(); }
    else if (e.key === "End") { playing = false; time = duration; followLive = doc.live; render(); e.preventDefault(); }
    else if (e.key === "a") { zoomToAttempt(); e.preventDefault(); }
  });
  window.addEventListener("resize", () => { timelineBackground = null; render(); });

  function seekFromHash() {
    const match = /(?:^#|&)t=([0-9.eE+-]+)/.exec(location.hash);
    if (match) { playing = false; seek(Number(match[1])); return true; }
    return false;
  }
  window.addEventListener("hashchange", seekFromHash);

  // ---- live: entries streamed from the server as they happen -------------------------------------
  let connected = false, entryCount = 0, caughtUp = 0, ended = false, dumpPressedFromHash = false;
  function connectLive() {
    const events = new EventSource("events");
    const status = $("live-status");
    events.addEventListener("document", (e) => {
      const fresh = JSON.parse(e.data);
      load(fresh); entryCount = fresh.entries.length; caughtUp = entryCount; connected = true;
      status.textContent = "live: connected";
      timelineBackground = null;
      if (followLive) time = duration;
      render();
      // Opened at #dump (a bookmark, or a test in a headless browser): the button is pressed once connected.
      if (!dumpPressedFromHash && /(?:^#|&)dump(?:&|$)/.test(location.hash) && !$("dump").hidden) {
        dumpPressedFromHash = true;
        $("dump").click();
      }
    });
    events.addEventListener("entries", (e) => {
      const batch = JSON.parse(e.data);
      for (const entry of batch.entries) ingest(entry);
      entryCount += batch.entries.length;
      if (followLive) time = duration;
      timelineStale = true;
      render();
      // From the event read on the server to this page's state updated and drawn.
      if (batch.readAt) latency.push(performance.timeOrigin + performance.now() - batch.readAt);
    });
    events.addEventListener("summary", (e) => {
      doc.summary = JSON.parse(e.data);
      ended = true;
      status.textContent = "live: the session ended";
      timelineBackground = null;
      render();
    });
    // What became of a dump (this page's button, SIGUSR1, the d key, --dump-on): the file or why none.
    events.addEventListener("dump", (e) => {
      const notice = JSON.parse(e.data);
      $("dump-status").textContent = notice.file ? "dumped to " + notice.file : "no dump: " + notice.problem;
    });
    // The browser reconnects by itself; the "document" event then brings the page up to date.
    // Once the session has ended there is nothing to reconnect to.
    events.onerror = () => {
      connected = false;
      if (ended) { events.close(); render(); return; }
      status.textContent = "live: reconnecting...";
    };
  }

  // The flight recorder's button: the server dumps off the session's reading thread and says what it
  // wrote in a "dump" event. The header keeps pages of other sites from asking (see LiveWebServer).
  function askForDump() {
    $("dump-status").textContent = "dumping...";
    fetch("dump", { method: "POST", headers: { "X-Pinchlab-Dump": "1" } })
      .then((response) => { if (!response.ok) $("dump-status").textContent = "no dump: the server answered " + response.status; })
      .catch(() => { $("dump-status").textContent = "no dump: the server is gone"; });
  }
  if (doc.live && doc.dumps) {
    $("dump").hidden = false;
    $("dump").addEventListener("click", askForDump);
  }

  // ---- start -------------------------------------------------------------------------------------
  load(doc);
  $("title").textContent = doc.title;
  const size = doc.device.widthMM.toFixed(1) + " x " + doc.device.heightMM.toFixed(1) + " mm" + (doc.device.resolutionEstimated ? ", size estimated: no resolution" : "");
  $("subtitle").textContent = "device \"" + doc.device.name + "\" (" + doc.device.class + ", " + size + ") - " +
    doc.transition.name + " - policy " + doc.policy.name + ": " + doc.policy.text + (doc.live ? " - live" : "");
  // A recording that turned bad part-way is shown up to its bad line, and says so (as plot's facts do).
  if (doc.summary && doc.summary.error) {
    $("stopped").hidden = false;
    $("stopped").textContent = "stopped early: " + doc.summary.error;
  }
  if (doc.frameStride || doc.gestureUpdateStride || doc.transitionStepStride || doc.comparedStepStride ||
      doc.gestureStride || doc.attemptStride || doc.comparedAttemptStride) {
    const shown = [];
    if (doc.frameStride) shown.push("1 in " + doc.frameStride + " touch frames");
    if (doc.gestureStride) shown.push("1 in " + doc.gestureStride + " gestures");
    if (doc.gestureUpdateStride) shown.push("1 in " + doc.gestureUpdateStride + " gesture updates");
    if (doc.attemptStride) shown.push("1 in " + doc.attemptStride + " attempts");
    if (doc.transitionStepStride) shown.push("1 in " + doc.transitionStepStride + " transition steps between an attempt's changes of state");
    if (doc.comparedAttemptStride) shown.push("1 in " + doc.comparedAttemptStride + " of the compared policy's attempts");
    if (doc.comparedStepStride) shown.push("1 in " + doc.comparedStepStride + " of the compared policy's");
    const list = shown.length <= 2 ? shown.join(" and ") : shown.slice(0, -1).join(", ") + " and " + shown[shown.length - 1];
    const whole = doc.gestureStride || doc.attemptStride || doc.comparedAttemptStride;
    const kept = whole
      ? " shown; each gesture and attempt shown has its begin and end, and each attempt its changes of state and release"
      : doc.transitionStepStride || doc.comparedStepStride
      ? " shown; every gesture's begin and end and every attempt's start, changes of state, release and end are all here"
      : " shown; every gesture's begin and end and every transition step are all here";
    $("thinned").hidden = false;
    $("thinned").textContent = "thinned (a long recording): " + list + kept;
  }
  $("scene-heading").textContent = "Scene: " + doc.transition.name;
  $("surface-caption").textContent = doc.device.class + ", " + size + "; trails: last " + trailSeconds + " s";
  $("fact-policy").textContent = doc.policy.name + ": " + doc.policy.text;
  if (!doc.compare) { $("fact-compare-label").style.display = "none"; $("fact-compare").style.display = "none"; }
  if (!doc.tools) { $("fact-tools-label").style.display = "none"; $("fact-tools").style.display = "none"; }
  const legend = $("legend");
  const items = [["blue line", "progress"], ["dashed gold", "threshold"], ["dot", "release (green finish, red cancel)"],
                 ["triangle", "projected progress"], ["bars", "gestures (purple pinch, green pan, grey hold) and attempts"], ["dashed grey touch", "left out by the recognizer (its rule above it)"]];
  if (presses.length > 0) items.push(["brown bar", "a button held (a click), press to release"]);
  if (doc.compare) items.push(["dashed orange", doc.compare.name + " policy (ghost card)"]);
  if (doc.tools) items.push(["thin purple bar", "a gesture tool's gesture, begin to where it acted (pale: cancelled): " + doc.tools.join(", ")]);
  for (const [what, means] of items) { const span = document.createElement("span"); span.textContent = what + ": " + means; legend.appendChild(span); }
  layoutSurface();
  window.pinchlab = { seek: seek, state: state, play: play, pause: pause, stepFrame: stepFrame, nextAttempt: () => jumpAttempt(1),
                      previousAttempt: () => jumpAttempt(-1), zoom: zoom, zoomToAttempt: zoomToAttempt };
  if (!seekFromHash()) render();
  if (doc.live) connectLive();
})();
