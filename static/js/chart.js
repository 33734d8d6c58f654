// The match's two running totals as an SVG line chart, drawn by the page.
import { svgNode } from "./dom.js";
const WIDTH = 300;
const HEIGHT = 150;
const PAD = { left: 28, right: 10, top: 10, bottom: 20 };
const LABEL_CHARS = 22;
const LABEL_HEIGHT = 10;

// A name at the end of its line, cut short enough that two of them fit the chart side by side
// with the axis labels; the full name is the label's title.
function shortLabel(name) {
  return name.length > LABEL_CHARS ? `${name.slice(0, LABEL_CHARS - 1)}…` : name;
}

// Each name just above its line's end, inside the plot, and the two at least a line apart.
function nameLabelsY(ends) {
  const lowest = HEIGHT - PAD.bottom - 4;
  const highest = PAD.top + LABEL_HEIGHT;
  const wanted = ends.map((end) => Math.min(lowest, Math.max(highest, end - 5)));
  const [upper, lower] = wanted[0] <= wanted[1] ? [0, 1] : [1, 0];
  if (wanted[lower] - wanted[upper] < LABEL_HEIGHT + 2) {
    wanted[lower] = Math.min(lowest, wanted[upper] + LABEL_HEIGHT + 2);
    wanted[upper] = wanted[lower] - LABEL_HEIGHT - 2;
  }
  return wanted;
}

export function scoreChart(sheet, target, names, title) {
  const totals = [[0, 0], ...sheet.map((row) => row.totals)];
  const top = Math.max(target || 0, ...totals.flat(), 10);
  const x = (index) => PAD.left + (index * (WIDTH - PAD.left - PAD.right)) / Math.max(totals.length - 1, 1);
  const y = (value) => HEIGHT - PAD.bottom - (value * (HEIGHT - PAD.top - PAD.bottom)) / top;
  const svg = svgNode("svg", { class: "chart", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img" });
  svg.append(svgNode("title", {}, title));
  svg.append(svgNode("line", { class: "axis", x1: PAD.left, y1: y(0), x2: WIDTH - PAD.right, y2: y(0) }));
  svg.append(svgNode("line", { class: "axis", x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: y(0) }));
  svg.append(svgNode("text", { x: 2, y: y(0) + 3 }, "0"));
  svg.append(svgNode("text", { x: 2, y: y(top) + 8 }, String(top)));
  if (target) {
    svg.append(svgNode("line", { class: "target", x1: PAD.left, y1: y(target), x2: WIDTH - PAD.right, y2: y(target) }));
  }
  for (const seat of [0, 1]) {
    const points = totals.map((pair, index) => `${x(index)},${y(pair[seat])}`).join(" ");
    svg.append(svgNode("polyline", { class: `line${seat}`, points }));
    totals.forEach((pair, index) => {
      svg.append(svgNode("circle", { class: `dot${seat}`, cx: x(index), cy: y(pair[seat]), r: 3 }));
    });
  }
  const labelsY = nameLabelsY(totals[totals.length - 1].map(y));
  for (const seat of [0, 1]) {
    const label = svgNode("text", { class: "name", x: WIDTH - PAD.right - 4, y: labelsY[seat], "text-anchor": "end" }, shortLabel(names[seat]));
    label.append(svgNode("title", {}, names[seat]));
    svg.append(label);
  }
  totals.forEach((_pair, index) => {
    if (index > 0) svg.append(svgNode("text", { x: x(index) - 3, y: HEIGHT - 6 }, String(index)));
  });
  return svg;
}
